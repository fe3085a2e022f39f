//! Which builds the repository has, and whether each may be rendered.
//!
//! A build root is a kustomization that no other kustomization includes (through
//! `resources:` or `components:`), or a directory a Flux `Kustomization` (`spec.path`) or an
//! Argo CD `Application` (`spec.source.path`, `spec.sources[].path`) of the repository deploys.
//! Components are never roots: kustomize refuses to build one on its own.
//!
//! Before anything runs, every kustomization a build reaches is checked: remote resources
//! (unless allowed), paths that leave the repository, Helm inflation and plugins (KRM
//! functions, exec or legacy plugins) make the build refused, with a diagnostic per cause. The
//! renderer is then started without the flags that would enable them
//! (`--enable-helm`, `--enable-alpha-plugins`, `--enable-exec`) as a second line of defence.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::kustomize::{Kustomization, PluginEntry, is_remote, join_relative};
use crate::scan::Scan;

/// One build root.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Build {
    /// The directory built, root-relative (`""` for the repository root).
    pub dir: String,
    /// Its kustomization file, `None` for a plain directory a GitOps object applies.
    pub kustomization: Option<String>,
    /// Files of the Flux Kustomizations and Argo CD Applications that deploy it.
    pub deployed_by: Vec<String>,
}

impl Build {
    /// The name the report uses: the directory, `.` for the root.
    pub fn name(&self) -> &str {
        if self.dir.is_empty() { "." } else { &self.dir }
    }
}

/// The build roots of the repository, sorted by directory, and diagnostics about GitOps
/// objects that point at directories the repository does not have.
pub fn build_roots(scan: &Scan) -> (Vec<Build>, Vec<Diagnostic>) {
    let mut included: BTreeSet<String> = BTreeSet::new();
    for k in &scan.index.kustomizations {
        for entry in k.included() {
            if let Some(path) = k.resolve(entry) {
                included.insert(path);
            }
        }
    }
    let mut builds: BTreeMap<String, Build> = BTreeMap::new();
    for k in &scan.index.kustomizations {
        if k.is_component || included.contains(&k.dir) {
            continue;
        }
        builds.insert(
            k.dir.clone(),
            Build {
                dir: k.dir.clone(),
                kustomization: Some(k.file.clone()),
                deployed_by: Vec::new(),
            },
        );
    }
    let mut notes = Vec::new();
    let dirs_with_files: BTreeSet<&str> = scan
        .index
        .objects
        .iter()
        .map(|o| parent_dir(&o.source.file))
        .collect();
    for d in &scan.deployers {
        for raw in &d.paths {
            let Some(dir) = join_relative("", raw.trim_end_matches('/')) else {
                notes.push(
                    Diagnostic::new(
                        Code::RenderDeployPathOutside,
                        format!(
                            "{} {} deploys {raw}, which is outside the repository; it is not built",
                            d.kind, d.name
                        ),
                    )
                    .in_file(d.source.file.clone(), d.source.line),
                );
                continue;
            };
            let kustomization = scan
                .index
                .kustomization_in(&dir)
                .filter(|k| !k.is_component);
            if kustomization.is_none() && !dirs_with_files.contains(dir.as_str()) {
                continue;
            }
            let build = builds.entry(dir.clone()).or_insert_with(|| Build {
                dir: dir.clone(),
                kustomization: kustomization.map(|k| k.file.clone()),
                deployed_by: Vec::new(),
            });
            if !build.deployed_by.contains(&d.source.file) {
                build.deployed_by.push(d.source.file.clone());
            }
        }
    }
    (builds.into_values().collect(), notes)
}

fn parent_dir(file: &str) -> &str {
    file.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// The kustomizations a build reaches (itself, its bases and components, transitively), in
/// the order first reached.
pub fn reached<'a>(scan: &'a Scan, build: &Build) -> Vec<&'a Kustomization> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = vec![build.dir.clone()];
    while let Some(dir) = stack.pop() {
        if !seen.insert(dir.clone()) {
            continue;
        }
        let Some(k) = scan.index.kustomization_in(&dir) else {
            continue;
        };
        out.push(k);
        let entries: Vec<&String> = k.included().collect();
        for entry in entries.into_iter().rev() {
            if let Some(path) = k.resolve(entry) {
                stack.push(path);
            }
        }
    }
    out
}

/// The files a build may read: every file under the directories of the kustomizations it
/// reaches. Used as the cache key and to decide whether a build holds anything to translate.
pub fn build_dirs(kustomizations: &[&Kustomization]) -> BTreeSet<String> {
    kustomizations.iter().map(|k| k.dir.clone()).collect()
}

/// Why a build must not be rendered: one diagnostic per cause, on the kustomization that has
/// it. Empty when the build is safe to render.
pub fn refusals(root: &Path, scan: &Scan, build: &Build, allow_remote: bool) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for k in reached(scan, build) {
        let at =
            |code: Code, message: String| Diagnostic::new(code, message).in_file(k.file.clone(), 1);
        for entry in k.included() {
            if is_remote(entry) {
                if !allow_remote {
                    out.push(at(
                        Code::RenderRemoteResource,
                        format!(
                            "{} includes the remote resource {entry}; remote resources are not fetched (pass --allow-remote to fetch them), so build {} is translated from its files",
                            k.file,
                            build.name()
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
                            "{} includes {entry}, which goes through the symlink {link}; symlinks are not followed (they can lead anywhere), so build {} is translated from its files",
                            k.file,
                            build.name()
                        ),
                    ));
                    continue;
                }
                match k.resolve(entry) {
                    None => out.push(at(
                        Code::RenderOutsideRoot,
                        format!(
                            "{} includes {entry}, which is outside the repository; it is not read, so build {} is translated from its files",
                            k.file,
                            build.name()
                        ),
                    )),
                    // A kustomization kustomize would follow but this tool did not read (it
                    // failed to parse, or the walk skipped it): what it includes is unchecked.
                    Some(path) if scan.index.kustomization_in(&path).is_none() => {
                        if let Some(file) = unread_kustomization(root, &path) {
                            out.push(at(
                                Code::RenderUnreadKustomization,
                                format!(
                                    "{} includes {entry}, whose {file} this tool could not read (see its load diagnostic, or it is ignored by the walk); what it includes cannot be checked, so build {} is translated from its files",
                                    k.file,
                                    build.name()
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
                        "{} patches with {p}, which is outside the repository; it is not read, so build {} is translated from its files",
                        k.file,
                        build.name()
                    ),
                ));
            }
        }
        for path in &k.loaded_files {
            if is_remote(path) && !allow_remote {
                out.push(at(
                    Code::RenderRemoteResource,
                    format!(
                        "{} loads the remote file {path} (a generator's files, crds, configurations, openapi or replacements); kustomize would fetch it, so build {} is translated from its files",
                        k.file,
                        build.name()
                    ),
                ));
            }
        }
        if k.helm {
            out.push(at(
                Code::RenderHelmRefused,
                format!(
                    "{} inflates Helm charts (helmCharts); Helm is never run on repository input, so build {} is translated from its files",
                    k.file,
                    build.name()
                ),
            ));
        }
        for plugin in &k.plugins {
            if let Some(why) = plugin_refusal(root, k, plugin) {
                out.push(at(
                    Code::RenderPluginRefused,
                    format!(
                        "{} {why}; plugins and KRM functions are never run on repository input, so build {} is translated from its files",
                        k.file,
                        build.name()
                    ),
                ));
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
        let (builds, notes) = build_roots(&scan);
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
        let (builds, notes) = build_roots(&scan);
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
        let (builds, _) = build_roots(&scan);
        let root = std::path::Path::new("/nonexistent");
        let codes: Vec<Code> = refusals(root, &scan, &builds[0], false)
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
        let allowed: Vec<Code> = refusals(root, &scan, &builds[0], true)
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(
            allowed,
            vec![Code::RenderOutsideRoot, Code::RenderOutsideRoot]
        );
    }
}
