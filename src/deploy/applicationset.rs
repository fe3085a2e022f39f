//! An Argo CD ApplicationSet's Applications, where the repository spells out their parameters.
//!
//! Facts from Argo CD (`applicationset/generators/list.go`, `git.go`, and the template
//! rendering in `applicationset/utils/utils.go`):
//! - a list generator's parameters are each element's keys;
//! - a git directories generator matches the repository's directories (not hidden ones)
//!   against each `path` glob with Go's `path.Match` (`exclude: true` entries remove what they
//!   match, whatever their order) and gives,
//!   per directory, `path`, `path.basename`, `path.basenameNormalized` and `path[N]` (with
//!   `goTemplate`: `.path.path`, `.path.basename`, `.path.basenameNormalized`,
//!   `.path.segments`);
//! - without `goTemplate` the template is rendered with `{{name}}` tags (spaces inside the
//!   braces trimmed; an unknown one stays as written); with it, as a Go template (`{{.name}}`,
//!   `{{index .path.segments N}}`; a missing key renders `<no value>`). Either way the
//!   Application would deploy a path that is not what the repository meant, so an expression
//!   the generators do not give makes the set's Applications unknown here.
//!
//! Other generators (clusters, git files, SCM providers, pull requests, matrix, merge,
//! plugins) take their parameters from outside the tree, so their Applications are unknown.

use std::collections::{BTreeMap, BTreeSet};

use crate::load::{DeployTarget, Deployer, Generator};

/// The targets of `set`'s Applications, each with the key that tells them apart (the list
/// element's values or the directory), or why they cannot be known.
pub(super) fn expand(
    set: &Deployer,
    dirs: &BTreeSet<String>,
) -> Result<Vec<(DeployTarget, String)>, String> {
    if set.generators.is_empty() {
        return Err("it has no generator".into());
    }
    let mut out = Vec::new();
    for g in &set.generators {
        let params: Vec<BTreeMap<String, String>> = match g {
            Generator::List(elements) => elements.clone(),
            Generator::GitDirectories {
                globs,
                prefix,
                base,
            } => {
                // Under a `cnoe://` base, the generator sees that directory as its
                // repository's root.
                let seen: BTreeSet<String> = match base {
                    Some(b) => dirs
                        .iter()
                        .filter_map(|d| d.strip_prefix(&format!("{b}/")))
                        .map(str::to_string)
                        .collect(),
                    None => dirs.clone(),
                };
                directories(globs, &seen)
                    .into_iter()
                    .map(|d| directory_params(&d, prefix.as_deref()))
                    .collect()
            }
            Generator::Other(kind) => {
                return Err(format!(
                    "its {} generator is not expanded here (only list and git directories generators are)",
                    if kind.is_empty() { "unknown" } else { kind }
                ));
            }
        };
        for p in params {
            // The directory (`path`, or `<prefix>.path`), else the list element's values.
            let key = p
                .get("path")
                .or_else(|| {
                    p.iter().find_map(|(k, v)| {
                        k.strip_suffix(".path")
                            .filter(|prefix| !prefix.contains('.'))
                            .map(|_| v)
                    })
                })
                .cloned()
                .unwrap_or_else(|| p.values().cloned().collect::<Vec<_>>().join(","));
            for t in &set.targets {
                let target = DeployTarget {
                    path: render(&t.path, &p, set.go_template)?,
                    cluster: t
                        .cluster
                        .as_deref()
                        .map(|c| render(c, &p, set.go_template))
                        .transpose()?,
                    namespace: t
                        .namespace
                        .as_deref()
                        .map(|n| render(n, &p, set.go_template))
                        .transpose()?,
                    recurse: t.recurse,
                    include: t.include.clone(),
                    exclude: t.exclude.clone(),
                    options: render_options(&t.options, &p, set.go_template),
                };
                out.push((target, key.clone()));
            }
        }
    }
    Ok(out)
}

/// The directories a git directories generator picks: matched by an including glob and by no
/// excluding one; hidden directories are never candidates (the repo server's
/// `GetGitDirectories`).
pub(super) fn directories(globs: &[(String, bool)], dirs: &BTreeSet<String>) -> Vec<String> {
    dirs.iter()
        .filter(|d| !d.split('/').any(|seg| seg.starts_with('.')))
        .filter(|d| {
            globs
                .iter()
                .any(|(g, exclude)| !exclude && glob_match(g, d))
                && !globs
                    .iter()
                    .any(|(g, exclude)| *exclude && glob_match(g, d))
        })
        .cloned()
        .collect()
}

/// The parameters of one directory, under both spellings (`path.basename` for plain
/// templates, `.path.basename` for Go templates: the same key here), each under
/// `<prefix>.` with a `pathParamPrefix` (`applicationset/generators/git.go`
/// `generateParamsFromApps`).
fn directory_params(dir: &str, prefix: Option<&str>) -> BTreeMap<String, String> {
    let mut p = BTreeMap::new();
    let base = dir.rsplit('/').next().unwrap_or(dir).to_string();
    p.insert("path".into(), dir.to_string());
    p.insert("path.path".into(), dir.to_string());
    p.insert("path.basename".into(), base.clone());
    p.insert(
        "path.basenameNormalized".into(),
        base.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect(),
    );
    for (i, seg) in dir.split('/').enumerate() {
        p.insert(format!("path[{i}]"), seg.to_string());
        p.insert(format!("path.segments.{i}"), seg.to_string());
    }
    match prefix {
        Some(prefix) => p
            .into_iter()
            .map(|(k, v)| (format!("{prefix}.{k}"), v))
            .collect(),
        None => p,
    }
}

/// What the template's Application adds to its build, rendered with `params` (the
/// ApplicationSet renders the whole template, `kustomize.patches` included:
/// `applicationset/utils/utils.go` `RenderTemplateParams`). Options with an expression the
/// generators do not give are dropped: the build then renders as its kustomization says.
fn render_options(
    options: &crate::load::BuildOptions,
    params: &BTreeMap<String, String>,
    go: bool,
) -> crate::load::BuildOptions {
    let one = |v: &Option<String>| -> Result<Option<String>, String> {
        v.as_deref().map(|t| render(t, params, go)).transpose()
    };
    let many = |v: &[String]| -> Result<Vec<String>, String> {
        v.iter().map(|t| render_json_text(t, params, go)).collect()
    };
    let rendered = (|| -> Result<crate::load::BuildOptions, String> {
        Ok(crate::load::BuildOptions {
            name_prefix: one(&options.name_prefix)?,
            name_suffix: one(&options.name_suffix)?,
            namespace: one(&options.namespace)?,
            components: many(&options.components)?,
            patches: many(&options.patches)?,
        })
    })();
    rendered.unwrap_or_default()
}

/// [`render`] of a JSON text's strings (a patch entry).
fn render_json_text(
    text: &str,
    params: &BTreeMap<String, String>,
    go: bool,
) -> Result<String, String> {
    fn walk(
        v: &mut serde_json::Value,
        params: &BTreeMap<String, String>,
        go: bool,
    ) -> Result<(), String> {
        match v {
            serde_json::Value::String(s) => *s = render(s, params, go)?,
            serde_json::Value::Array(a) => {
                for x in a {
                    walk(x, params, go)?;
                }
            }
            serde_json::Value::Object(m) => {
                for x in m.values_mut() {
                    walk(x, params, go)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(mut v) => {
            walk(&mut v, params, go)?;
            Ok(v.to_string())
        }
        Err(_) => render(text, params, go),
    }
}

/// Renders `{{…}}` tags of `text` with `params`; an expression it does not know is an error
/// (the Application's path is then unknown).
fn render(text: &str, params: &BTreeMap<String, String>, go: bool) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            return Err(format!("the template {text:?} has an unclosed `{{{{`"));
        };
        let tag = after[..end].trim();
        let key = if go {
            go_key(tag)
        } else {
            Some(tag.to_string())
        };
        match key.and_then(|k| params.get(&k)) {
            Some(v) => out.push_str(v),
            None => {
                return Err(format!(
                    "the template {text:?} uses {{{{{tag}}}}}, which its generators do not give"
                ));
            }
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The parameter a Go template expression names: `.a.b` or `index .path.segments N`.
fn go_key(tag: &str) -> Option<String> {
    let tag = tag.trim_start_matches('-').trim_end_matches('-').trim();
    if let Some(field) = tag.strip_prefix('.') {
        return Some(field.to_string());
    }
    let mut words = tag.split_whitespace();
    if words.next() == Some("index") {
        let field = words.next()?.strip_prefix('.')?;
        let i: usize = words.next()?.parse().ok()?;
        if words.next().is_none() {
            return Some(format!("{field}.{i}"));
        }
    }
    None
}

/// Go's `path.Match` over a `/`-separated path (what the git directories generator uses):
/// `*` any run of characters other than `/`, `?` one such character, `[…]` a class; there is
/// no `**`. Memoised, so a pattern from the repository costs at most pattern × path steps.
pub(crate) fn glob_match(pattern: &str, path: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = path.chars().collect();
    let mut memo = vec![None; (p.len() + 1) * (s.len() + 1)];
    Glob {
        p: &p,
        s: &s,
        memo: &mut memo,
    }
    .at(0, 0)
}

struct Glob<'a> {
    p: &'a [char],
    s: &'a [char],
    memo: &'a mut [Option<bool>],
}

impl Glob<'_> {
    fn at(&mut self, pi: usize, si: usize) -> bool {
        let slot = pi * (self.s.len() + 1) + si;
        if let Some(known) = self.memo.get(slot).copied().flatten() {
            return known;
        }
        let answer = self.step(pi, si);
        if let Some(m) = self.memo.get_mut(slot) {
            *m = Some(answer);
        }
        answer
    }

    fn step(&mut self, pi: usize, si: usize) -> bool {
        let c = self.s.get(si).copied();
        match self.p.get(pi).copied() {
            None => c.is_none(),
            // `*`: nothing more, or one more non-`/` character.
            Some('*') => {
                self.at(pi + 1, si) || (c.is_some_and(|c| c != '/') && self.at(pi, si + 1))
            }
            Some('?') => c.is_some_and(|c| c != '/') && self.at(pi + 1, si + 1),
            Some('[') => {
                let close = self.p[pi + 1..]
                    .iter()
                    .position(|&x| x == ']')
                    .map(|i| pi + 1 + i);
                let (Some(close), Some(c)) = (close, c) else {
                    return c == Some('[') && self.at(pi + 1, si + 1);
                };
                let class = &self.p[pi + 1..close];
                let (negate, class) = match class.first() {
                    Some('^') | Some('!') => (true, &class[1..]),
                    _ => (false, class),
                };
                let mut hit = false;
                let mut i = 0;
                while i < class.len() {
                    if i + 2 < class.len() && class[i + 1] == '-' {
                        hit |= class[i] <= c && c <= class[i + 2];
                        i += 3;
                    } else {
                        hit |= class[i] == c;
                        i += 1;
                    }
                }
                hit != negate && c != '/' && self.at(close + 1, si + 1)
            }
            Some(x) => c == Some(x) && self.at(pi + 1, si + 1),
        }
    }
}
