//! Which files of a directory a GitOps object applies.
//!
//! Argo CD's directory source (argo-cd `reposerver/repository/repository.go`,
//! `getPotentiallyValidManifestFile`) reads `*.yaml`, `*.yml`, `*.json` (and `*.jsonnet`)
//! files, skips a file whose path relative to the source's path matches `directory.exclude`,
//! keeps only those matching `directory.include` when it is set, and skips any file holding the
//! marker `+argocd:skip-file-rendering`. The patterns are `github.com/gobwas/glob` globs
//! without separators (argo-cd `util/glob`): `*` matches any run of characters, `/` included;
//! `?` one character; `[…]`/`[!…]` a class; `{a,b}` alternatives; `\` escapes.
//!
//! Flux's source-controller leaves out what `.sourceignore` files (gitignore syntax, read in
//! every directory of the source) and its default patterns match (`fluxcd/pkg`
//! `sourceignore/sourceignore.go`: VCS files, images and archives, CI files, `.sops.yaml`,
//! `.goreleaser.yml`, `.flux.yaml`), so those files never reach kustomize-controller.

use regex::Regex;

/// An Argo CD `directory.include`/`exclude` pattern as a regex (anchored); `None` when the
/// pattern does not compile, which Argo CD treats as matching nothing (`glob.Match` logs
/// the error and answers false).
pub fn argo_glob(pattern: &str) -> Option<Regex> {
    let mut re = String::from("^");
    let mut chars = pattern.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                re.push_str("(?s:.*)");
            }
            '?' => re.push_str("(?s:.)"),
            '\\' => {
                let next = chars.next()?;
                re.push_str(&regex::escape(&next.to_string()));
            }
            '[' => {
                let mut class = String::from("[");
                if chars.peek() == Some(&'!') {
                    chars.next();
                    class.push('^');
                }
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == ']' {
                        closed = true;
                        break;
                    }
                    if matches!(c, '\\' | '[' | '&' | '~' | '^') {
                        class.push('\\');
                    }
                    class.push(c);
                }
                if !closed {
                    return None;
                }
                class.push(']');
                re.push_str(&class);
            }
            '{' => {
                depth += 1;
                re.push_str("(?:");
            }
            ',' if depth > 0 => re.push('|'),
            '}' if depth > 0 => {
                depth -= 1;
                re.push(')');
            }
            c => re.push_str(&regex::escape(&c.to_string())),
        }
    }
    if depth > 0 {
        return None;
    }
    re.push('$');
    Regex::new(&re).ok()
}

/// Whether Argo CD's directory source reads `rel` (relative to the source's path) with these
/// options, given the file's text when known.
pub fn argo_reads(
    rel: &str,
    include: Option<&str>,
    exclude: Option<&str>,
    text: Option<&[u8]>,
) -> bool {
    let matches = |p: &str| argo_glob(p).is_some_and(|re| re.is_match(rel));
    if exclude.is_some_and(|p| !p.is_empty() && matches(p)) {
        return false;
    }
    if include.is_some_and(|p| !p.is_empty() && !matches(p)) {
        return false;
    }
    !text.is_some_and(crate::header::carries_argo_skip_marker)
}

/// How many of [`FLUX_DEFAULT_IGNORES`] are the VCS ones (`ExcludeVCS`), which apply even
/// when the source has patterns of its own.
const FLUX_VCS_IGNORES: usize = 4;

/// Flux source-controller's default ignore patterns (`fluxcd/pkg` `sourceignore`:
/// `ExcludeVCS`, `ExcludeExt`, `ExcludeCI`, `ExcludeExtra`), VCS ones first.
pub const FLUX_DEFAULT_IGNORES: &[&str] = &[
    ".git/",
    ".gitignore",
    ".gitmodules",
    ".gitattributes",
    "*.jpg",
    "*.jpeg",
    "*.gif",
    "*.png",
    "*.wmv",
    "*.flv",
    "*.tar.gz",
    "*.zip",
    ".github/",
    ".circleci/",
    ".travis.yml",
    ".gitlab-ci.yml",
    "appveyor.yml",
    ".drone.yml",
    "cloudbuild.yaml",
    "codeship-services.yml",
    "codeship-steps.yml",
    "**/.goreleaser.yml",
    "**/.sops.yaml",
    "**/.flux.yaml",
];

/// What Flux's source-controller leaves out of the artifact: the default patterns and every
/// `.sourceignore` of the repository, each applying below its own directory.
pub struct SourceIgnore {
    matchers: Vec<(String, ignore::gitignore::Gitignore)>,
}

impl SourceIgnore {
    /// From the `.sourceignore` files (root-relative path, text).
    pub fn new<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> SourceIgnore {
        let files: Vec<(&str, &str)> = files.into_iter().collect();
        // With any pattern of its own, a source keeps only the VCS defaults
        // (`fluxcd/pkg` `artifact/storage/archive.go` `SourceIgnoreFilter`).
        let has_patterns = files.iter().any(|(_, text)| {
            text.lines()
                .any(|l| !l.starts_with('#') && !l.trim().is_empty())
        });
        let defaults_in_use = if has_patterns {
            &FLUX_DEFAULT_IGNORES[..FLUX_VCS_IGNORES]
        } else {
            FLUX_DEFAULT_IGNORES
        };
        let mut matchers = Vec::new();
        let mut defaults = ignore::gitignore::GitignoreBuilder::new("/");
        for p in defaults_in_use {
            let _ = defaults.add_line(None, p);
        }
        if let Ok(m) = defaults.build() {
            matchers.push((String::new(), m));
        }
        for (path, text) in files {
            let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
            let mut b = ignore::gitignore::GitignoreBuilder::new(format!("/{dir}"));
            for line in text.lines() {
                let _ = b.add_line(None, line);
            }
            if let Ok(m) = b.build() {
                matchers.push((dir.to_string(), m));
            }
        }
        SourceIgnore { matchers }
    }

    /// Whether `file` (root-relative) is left out of the source artifact.
    pub fn ignores(&self, file: &str) -> bool {
        let full = format!("/{file}");
        self.matchers.iter().any(|(dir, m)| {
            let applies = dir.is_empty() || file.starts_with(&format!("{dir}/"));
            applies && m.matched_path_or_any_parents(&full, false).is_ignore()
        })
    }
}

/// Generated files (path, source file) that a GitOps object deploying the source leaves out
/// with its filter: a warning each, on the source.
pub fn left_out_outputs(
    scan: &crate::scan::Scan,
    units: &super::Units,
    outputs: &[(String, String)],
) -> Vec<crate::diagnostic::Diagnostic> {
    use crate::diagnostic::{Code, Diagnostic};
    let ignores = SourceIgnore::new(
        scan.source_ignores
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str())),
    );
    let mut out = Vec::new();
    for (path, source) in outputs {
        let parent = super::parent_dir(path);
        for u in units.of_file(source) {
            if u.kind() != super::UnitKind::Directory
                || !(parent == u.dir || (u.recurse && super::is_under(parent, &u.dir)))
            {
                continue;
            }
            for d in &u.deployed_by {
                if super::admits(scan, &ignores, u, d, source)
                    && !super::admits(scan, &ignores, u, d, path)
                {
                    let filter = match d.kind.as_str() {
                        "Kustomization" => {
                            "a .sourceignore pattern (or Flux's default ignores)".to_string()
                        }
                        _ => format!(
                            "its directory filter (include {:?}, exclude {:?})",
                            d.include.as_deref().unwrap_or(""),
                            d.exclude.as_deref().unwrap_or("")
                        ),
                    };
                    out.push(
                        Diagnostic::new(
                            Code::DeployOutputLeftOut,
                            format!(
                                "{} deploys {source} but {filter} leaves out {path}, the file its translation is written to: after cut-over nothing replaces the old objects; widen the filter to admit {path}",
                                d.label()
                            ),
                        )
                        .in_file(source.clone(), 1),
                    );
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gobwas/glob without separators, as Argo CD's `util/glob.Match` uses it (the
    /// `directory.include` examples of Argo CD's docs, `user-guide/directory.md`).
    #[test]
    fn argo_globs_match_like_gobwas_without_separators() {
        let cases = [
            ("*.yaml", "a.yaml", true),
            ("*.yaml", "sub/a.yaml", true),
            ("{config.json,*.yaml}", "config.json", true),
            ("{config.json,*.yaml}", "x.yml", false),
            ("config/*", "config/deep/a.yaml", true),
            ("?.yaml", "ab.yaml", false),
            ("[!a]*.yaml", "b.yaml", true),
            ("[!a]*.yaml", "a.yaml", false),
            ("\\*.yaml", "*.yaml", true),
            ("\\*.yaml", "a.yaml", false),
        ];
        for (pattern, path, want) in cases {
            let got = argo_glob(pattern).is_some_and(|re| re.is_match(path));
            assert_eq!(got, want, "{pattern} {path}");
        }
        assert!(argo_glob("{a,b").is_none());
        assert!(!argo_reads(
            "a.yaml",
            None,
            None,
            Some(b"# +argocd:skip-file-rendering\n")
        ));
        assert!(argo_reads("a.yaml", Some("*.yaml"), Some(""), None));
        assert!(!argo_reads("old/a.yaml", None, Some("old/*"), None));
    }

    /// `.sourceignore` per directory, gitignore syntax, and Flux's defaults.
    #[test]
    fn flux_leaves_out_what_sourceignore_and_its_defaults_match() {
        let s = SourceIgnore::new([
            (".sourceignore", "/examples/\n*.tmpl.yaml\n"),
            ("apps/.sourceignore", "legacy/\n"),
        ]);
        assert!(s.ignores("examples/ingress.yaml"));
        assert!(!s.ignores("apps/examples/ingress.yaml"));
        assert!(s.ignores("apps/web.tmpl.yaml"));
        assert!(s.ignores("apps/legacy/ingress.yaml"));
        assert!(!s.ignores("legacy/ingress.yaml"));
        // A source with patterns of its own keeps only the VCS defaults.
        assert!(!s.ignores("apps/.sops.yaml"));
        assert!(!s.ignores("apps/ingress.yaml"));
        let defaults = SourceIgnore::new([(".sourceignore", "# nothing\n")]);
        assert!(defaults.ignores("apps/.sops.yaml"));
        assert!(defaults.ignores("cloudbuild.yaml"));
        assert!(!defaults.ignores("apps/ingress.yaml"));
    }
}
