//! Which builds the repository has, and whether each may be rendered.
//!
//! The build roots are the deploy units (`crate::deploy`) other than manual directories.
//!
//! Before anything runs, every kustomization a build reaches is checked: remote resources
//! (unless allowed), paths that leave the repository, Helm inflation and plugins (KRM
//! functions, exec or legacy plugins) make the build refused, with a diagnostic per cause. The
//! renderer is then started without the flags that would enable them
//! (`--enable-helm`, `--enable-alpha-plugins`, `--enable-exec`) as a second line of defence.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::kustomize::{Kustomization, PluginEntry, is_remote};
use crate::render::remote::{Cached, RemoteCache};
use crate::scan::Scan;

/// One build root: a deploy unit the render stage looks at.
pub use crate::deploy::Unit as Build;

/// The kustomizations a build reaches (itself, its bases and components, transitively), in
/// the order first reached.
pub fn reached<'a>(scan: &'a Scan, build: &Build) -> Vec<&'a Kustomization> {
    crate::deploy::reached_by(scan, build)
}

/// The files a build may read: every file under the directories of the kustomizations it
/// reaches. Used as the cache key and to decide whether a build holds anything to translate.
pub fn build_dirs(kustomizations: &[&Kustomization]) -> BTreeSet<String> {
    kustomizations.iter().map(|k| k.dir.clone()).collect()
}

/// Why a build must not be rendered: one diagnostic per cause, on the kustomization that has
/// it. Empty when the build is safe to render.
pub fn refusals(
    root: &Path,
    scan: &Scan,
    build: &Build,
    allow_remote: bool,
    cache: Option<&RemoteCache>,
) -> Vec<Diagnostic> {
    let consequence = format!("so build {} is translated from its files", build.name());
    checked(root, scan, build, allow_remote, cache, &consequence)
}

/// [`refusals`], each message ending with `consequence`.
fn checked(
    root: &Path,
    scan: &Scan,
    build: &Build,
    allow_remote: bool,
    cache: Option<&RemoteCache>,
    consequence: &str,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for k in reached(scan, build) {
        let at =
            |code: Code, message: String| Diagnostic::new(code, message).in_file(k.file.clone(), 1);
        for entry in k.included() {
            if is_remote(entry) {
                if let Some((cache, cached)) =
                    cache.and_then(|c| c.find(entry).map(|found| (c, found)))
                {
                    // The copy is checked like the repository, as if it were the build.
                    let copy_consequence = format!(
                        "so the remote cache's copy of {entry} ({}) is not used, and build {} is translated from its files",
                        cached.path(),
                        build.name()
                    );
                    out.extend(
                        cached_refusals(cache, &cached, &copy_consequence)
                            .into_iter()
                            .map(|d| d.in_file(k.file.clone(), 1)),
                    );
                } else if !allow_remote {
                    let cache_note = match cache {
                        Some(_) => format!(
                            "; the remote cache has no copy of it (kustomize localize would write it at localized-files/{})",
                            crate::render::remote::root_path(entry)
                                .or_else(|| crate::render::remote::file_path(entry))
                                .unwrap_or_else(|| "?".into())
                        ),
                        None => String::new(),
                    };
                    out.push(at(
                        Code::RenderRemoteResource,
                        format!(
                            "{} includes the remote resource {entry}; remote resources are not fetched (vendor them with kustomize localize and pass --remote-cache DIR, or pass --allow-remote to fetch them){cache_note}, {consequence}",
                            k.file,
                        ),
                    ));
                }
            } else {
                if let Some(link) = k
                    .resolve(entry)
                    .and_then(|p| crate::walk::symlink_on_the_way(root, &p))
                {
                    out.push(at(
                        Code::RenderOutsideRoot,
                        format!(
                            "{} includes {entry}, which goes through the symlink {link}; symlinks are not followed (they can lead anywhere), {consequence}",
                            k.file,
                        ),
                    ));
                    continue;
                }
                match k.resolve(entry) {
                    None => out.push(at(
                        Code::RenderOutsideRoot,
                        format!(
                            "{} includes {entry}, which is outside the repository; it is not read, {consequence}",
                            k.file,
                        ),
                    )),
                    // A kustomization kustomize would follow but this tool did not read (it
                    // failed to parse, or the walk skipped it): what it includes is unchecked.
                    Some(path) if scan.index.kustomization_in(&path).is_none() => {
                        if let Some(file) = unread_kustomization(root, &path) {
                            out.push(at(
                                Code::RenderUnreadKustomization,
                                format!(
                                    "{} includes {entry}, whose {file} this tool could not read (see its load diagnostic, or it is ignored by the walk); what it includes cannot be checked, {consequence}",
                                    k.file,
                                ),
                            ));
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        for p in &k.patches {
            let through_link = k
                .resolve(p)
                .and_then(|r| crate::walk::symlink_on_the_way(root, &r));
            if is_remote(p) || k.resolve(p).is_none() || through_link.is_some() {
                out.push(at(
                    Code::RenderOutsideRoot,
                    format!(
                        "{} patches with {p}, which is outside the repository; it is not read, {consequence}",
                        k.file,
                    ),
                ));
            }
        }
        for path in &k.loaded_files {
            if is_remote(path) && !allow_remote {
                out.push(at(
                    Code::RenderRemoteResource,
                    format!(
                        "{} loads the remote file {path} (a generator's files, crds, configurations, openapi or replacements); kustomize would fetch it, {consequence}",
                        k.file,
                    ),
                ));
            }
        }
        if k.helm {
            out.push(at(
                Code::RenderHelmRefused,
                format!(
                    "{} inflates Helm charts (helmCharts); Helm is never run on repository input, {consequence}",
                    k.file,
                ),
            ));
        }
        for plugin in &k.plugins {
            if let Some(why) = plugin_refusal(root, k, plugin) {
                out.push(at(
                    Code::RenderPluginRefused,
                    format!(
                        "{} {why}; plugins and KRM functions are never run on repository input, {consequence}",
                        k.file,
                    ),
                ));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Why the cache's copy of a remote entry must not be rendered: its repository copy is
/// checked as a repository of its own (no remote entries left, nothing outside it, no
/// symlinks, Helm or plugins). A file is read as a resource and needs no check.
fn cached_refusals(cache: &RemoteCache, cached: &Cached, consequence: &str) -> Vec<Diagnostic> {
    let Cached::Root { repo, in_repo } = cached else {
        return Vec::new();
    };
    let repo_root = cache.root().join(repo);
    let config = crate::config::Config::default();
    let scan = match crate::scan::scan_repo(&repo_root, &config, 1) {
        Ok(scan) => scan,
        Err(e) => {
            return vec![Diagnostic::new(
                Code::RenderOutsideRoot,
                format!(
                    "{} cannot be read ({e}), {consequence}",
                    repo_root.display()
                ),
            )];
        }
    };
    let Some(k) = scan.index.kustomization_in(in_repo) else {
        return vec![Diagnostic::new(
            Code::RenderUnreadKustomization,
            format!("the kustomization in {in_repo} cannot be read, {consequence}"),
        )];
    };
    let build = Build {
        dir: in_repo.clone(),
        kustomization: Some(k.file.clone()),
        deployed_by: Vec::new(),
        recurse: false,
    };
    checked(&repo_root, &scan, &build, false, None, consequence)
}

/// One remote entry of a build that the remote cache holds: the scratch copy gets the
/// cached content and the entry points at it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Vendored {
    /// The kustomization listing the entry (root-relative file).
    pub kustomization: String,
    pub entry: String,
    pub cached: Cached,
}

/// The remote entries of `build` the cache holds (a build with refusals is not rendered,
/// so whether their copies pass the checks is [`refusals`]' business).
pub fn vendored(scan: &Scan, build: &Build, cache: &RemoteCache) -> Vec<Vendored> {
    let mut out = Vec::new();
    for k in reached(scan, build) {
        for entry in k.included().filter(|e| is_remote(e)) {
            if let Some(cached) = cache.find(entry) {
                out.push(Vendored {
                    kustomization: k.file.clone(),
                    entry: entry.clone(),
                    cached,
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The kustomization file kustomize would find in directory `dir` (root-relative), if `dir` is
/// a real directory (not through a symlink) holding one.
fn unread_kustomization(root: &Path, dir: &str) -> Option<&'static str> {
    let full = root.join(dir);
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if !meta.is_dir() {
        return None;
    }
    crate::model::kustomize::KUSTOMIZATION_FILES
        .iter()
        .find(|f| full.join(f).is_file())
        .copied()
}

/// Why a `generators:`/`transformers:`/`validators:` entry is refused, `None` for a builtin
/// plugin configuration (`apiVersion: builtin`), which kustomize runs in-process.
fn plugin_refusal(root: &Path, k: &Kustomization, plugin: &PluginEntry) -> Option<String> {
    match plugin {
        PluginEntry::Inline { kind, function } => {
            if *function {
                Some(format!("configures the KRM function {kind}"))
            } else {
                None
            }
        }
        PluginEntry::Path(path) => {
            let Some(rel) = k.resolve(path) else {
                return Some(format!(
                    "configures a plugin from {path}, outside the repository"
                ));
            };
            if let Some(link) = crate::walk::symlink_on_the_way(root, &rel) {
                return Some(format!(
                    "configures plugins from {path}, through the symlink {link}, which is not followed"
                ));
            }
            let full = root.join(&rel);
            let Ok(meta) = std::fs::symlink_metadata(&full) else {
                return Some(format!(
                    "configures plugins from {path}, which is not a file of the repository"
                ));
            };
            if !meta.is_file() {
                return Some(format!(
                    "configures plugins from the directory {path}, which is not inspected"
                ));
            }
            // What cannot be read or parsed cannot be shown to be a builtin: refused.
            let Ok(bytes) = std::fs::read(&full) else {
                return Some(format!(
                    "configures plugins from {path}, which cannot be read"
                ));
            };
            for span in crate::load::split::split(&bytes) {
                let Ok(text) = std::str::from_utf8(span.slice(&bytes)) else {
                    return Some(format!(
                        "configures plugins from {path}, which is not UTF-8"
                    ));
                };
                // A document this tool cannot parse (too deep, over a budget) could still
                // configure a function kustomize would run: refused, not handed over.
                let doc = match crate::yaml::parse_document(text) {
                    Ok(Some(doc)) => doc,
                    Ok(None) => continue,
                    Err(e) => {
                        return Some(format!(
                            "configures plugins from {path}, which cannot be parsed ({}), so it cannot be shown to be a builtin",
                            e.message
                        ));
                    }
                };
                let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
                let api = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
                if crate::model::kustomize::names_a_function(&doc) {
                    return Some(format!("configures the KRM function {kind} in {path}"));
                }
                if api != "builtin" {
                    return Some(format!(
                        "configures the external plugin {api}/{kind} in {path}"
                    ));
                }
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::scan::scan_texts as scan_of;

    const INGRESS: &str = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n  - host: a.example.com\n";

    #[test]
    fn roots_are_kustomizations_nobody_includes_never_components() {
        let scan = scan_of(&[
            ("base/kustomization.yaml", "resources:\n- ingress.yaml\n"),
            ("base/ingress.yaml", INGRESS),
            (
                "overlays/dev/kustomization.yaml",
                "resources:\n- ../../base\ncomponents:\n- ../../components/tls\n",
            ),
            (
                "components/tls/kustomization.yaml",
                "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- path: tls.yaml\n",
            ),
            ("components/unused/kustomization.yaml", "kind: Component\n"),
        ]);
        let (units, notes) = crate::deploy::units(&scan);
        let builds: Vec<Build> = units.builds().cloned().collect();
        assert!(notes.is_empty());
        let dirs: Vec<&str> = builds.iter().map(|b| b.dir.as_str()).collect();
        assert_eq!(dirs, vec!["overlays/dev"]);
        let reached: Vec<&str> = reached(&scan, &builds[0])
            .iter()
            .map(|k| k.dir.as_str())
            .collect();
        assert_eq!(reached, vec!["overlays/dev", "base", "components/tls"]);
    }

    #[test]
    fn flux_and_argo_paths_are_roots_and_paths_outside_are_reported() {
        let scan = scan_of(&[
            ("base/kustomization.yaml", "resources:\n- ingress.yaml\n"),
            ("base/ingress.yaml", INGRESS),
            (
                "overlays/dev/kustomization.yaml",
                "resources:\n- ../../base\n",
            ),
            ("plain/ingress.yaml", INGRESS),
            (
                "clusters/prod/apps.yaml",
                "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: base\nspec:\n  path: ./base\n---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: plain\nspec:\n  sources:\n  - path: plain/\n  - path: ../../elsewhere\n---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: missing\nspec:\n  source:\n    path: not/here\n",
            ),
        ]);
        let (units, notes) = crate::deploy::units(&scan);
        let builds: Vec<Build> = units.builds().cloned().collect();
        let summary: Vec<(&str, bool, usize)> = builds
            .iter()
            .map(|b| {
                (
                    b.dir.as_str(),
                    b.kustomization.is_some(),
                    b.deployed_by.len(),
                )
            })
            .collect();
        // `base` is included by the overlay but Flux deploys it too; `plain` has no
        // kustomization; a path with nothing in it is not a build.
        assert_eq!(
            summary,
            vec![
                ("base", true, 1),
                ("overlays/dev", true, 0),
                ("plain", false, 1)
            ]
        );
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].code, Code::RenderDeployPathOutside);
        assert!(
            notes[0].message.contains("../../elsewhere"),
            "{}",
            notes[0].message
        );
    }

    #[test]
    fn remote_and_outside_entries_refuse_the_build() {
        let scan = scan_of(&[
            (
                "app/kustomization.yaml",
                "resources:\n- github.com/example/repo//base?ref=v1\n- ../../outside.yaml\n- ingress.yaml\npatches:\n- path: ../../p.yaml\n",
            ),
            ("app/ingress.yaml", INGRESS),
        ]);
        let builds: Vec<Build> = crate::deploy::units(&scan).0.builds().cloned().collect();
        let root = std::path::Path::new("/nonexistent");
        let codes: Vec<Code> = refusals(root, &scan, &builds[0], false, None)
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(
            codes,
            vec![
                Code::RenderRemoteResource,
                Code::RenderOutsideRoot,
                Code::RenderOutsideRoot
            ]
        );
        let allowed: Vec<Code> = refusals(root, &scan, &builds[0], true, None)
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(
            allowed,
            vec![Code::RenderOutsideRoot, Code::RenderOutsideRoot]
        );
    }
}
