//! `use-regex` and `rewrite-target`.
//!
//! With `use-regex`, or a `rewrite-target` that differs from a location's path, ingress-nginx
//! makes every path of the host case-insensitive regular expressions anchored at the start
//! (`location ~* "^<path>"`), emitted as `RegularExpression (?i)<path>.*` by `servers`. A
//! target equal to a Prefix path rewrites only below it (`/api/x` → `/api`, `/api` untouched:
//! nginx splits the location). A rewrite replaces the whole URI with the target
//! (nginx `rewrite`), captures interpolated. The canonical strip-prefix idiom
//! `/x(/|$)(.*)` → `/$2` (and `/x/?(.*)`, `/x/(.*)`, `/x/(.+)` → `/$1`) is recognised and becomes
//! `PathPrefix /x` + `ReplacePrefixMatch /`, which is portable; a target without captures
//! becomes `ReplaceFullPath`; other capture uses have no Gateway API equivalent.

use std::sync::LazyLock;

use regex::Regex;

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpPathMatch, HttpPathModifier};

use super::super::ir::{IngressPlan, Rule};
use super::super::routes::{self, PATH_PREFIX, REGEX};
use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &["use-regex", "rewrite-target"];

/// `(prefix)(/|$)(.*)` → capture 2; `(prefix)/?(.*)` and `(prefix)/(.*)` → capture 1.
static STRIP_IDIOMS: LazyLock<[(Regex, u8); 3]> = LazyLock::new(|| {
    let re = crate::pattern::constant;
    [
        (re(r"^((?:/[A-Za-z0-9._~-]+)*)/?\(/\|\$\)\(\.\*\)$"), 2),
        (re(r"^((?:/[A-Za-z0-9._~-]+)*)/\?\(\.\*\)$"), 1),
        (re(r"^((?:/[A-Za-z0-9._~-]+)*)/\(\.[*+]\)$"), 1),
    ]
});

/// A target that is a plain prefix followed by `/$n`.
static PREFIX_TARGET: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::constant(r"^((?:/[A-Za-z0-9._~-]+)*)/\$([0-9])$"));

/// For the strip-prefix idiom, the PathPrefix to match and the prefix to replace it with.
pub(crate) fn strip_prefix_idiom(path: &str, target: &str) -> Option<(String, String)> {
    let t = PREFIX_TARGET.captures(target)?;
    let capture: u8 = t.get(2)?.as_str().parse().ok()?;
    let replacement = match t.get(1).map_or("", |m| m.as_str()) {
        "" => "/".to_string(),
        p => p.to_string(),
    };
    for (re, rest) in STRIP_IDIOMS.iter() {
        if let Some(c) = re.captures(path) {
            if *rest != capture {
                return None;
            }
            let prefix = c.get(1)?.as_str().trim_end_matches('/');
            let prefix = if prefix.is_empty() { "/" } else { prefix };
            return routes::valid_gateway_path(prefix).then(|| (prefix.to_string(), replacement));
        }
    }
    None
}

/// The paths the strip-prefix `PathPrefix` matches although nginx's location regex does not
/// (`/x/(.+)` needs something after `/x/`; `/x/(.*)` needs the slash): nginx sent them to
/// another location.
pub(crate) fn strip_prefix_holes(path: &str) -> Vec<String> {
    let Some(c) = STRIP_IDIOMS[2].0.captures(path) else {
        return Vec::new();
    };
    let prefix = c.get(1).map_or("", |m| m.as_str()).trim_end_matches('/');
    let mut holes = Vec::new();
    if !prefix.is_empty() {
        holes.push(prefix.to_string());
    }
    if path.ends_with("(.+)") {
        holes.push(format!("{prefix}/"));
    }
    holes
}

/// ingress-nginx's regex location for a path (`~* "^path"`), as a Gateway API
/// RegularExpression (a whole-path match): `(?i)path.*`. The same affixes on every path keep
/// nginx's longest-path-first order under longest-regex-first rankings, so `.*` is added even
/// after a path that ends in `.*` or `$` (where it changes nothing).
pub(crate) fn regex_path(rule: &Rule) -> HttpPathMatch {
    HttpPathMatch {
        type_: REGEX.into(),
        value: format!("(?i){}.*", rule.source_path),
    }
}

/// Drops the path notes `routes` made for a rule whose path an annotation reinterprets.
pub(crate) fn forget_path_notes(notes: &mut Vec<Diagnostic>, rule_field: &str) {
    notes.retain(|n| {
        !(n.location.field.as_deref() == Some(rule_field)
            && matches!(
                n.code,
                Code::IngressImplementationSpecificPath
                    | Code::IngressImplementationSpecificRegex
                    | Code::IngressInvalidPath
                    | Code::NginxPrefixTrailingSlash
            ))
    });
}

/// Captures a target refers to that the path does not define are empty in nginx.
fn without_captures(target: &str) -> String {
    let mut out = String::new();
    let mut chars = target.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            continue;
        }
        out.push(c);
    }
    let collapsed = out.replace("//", "/");
    if collapsed.is_empty() {
        "/".into()
    } else {
        collapsed
    }
}

/// Reads `use-regex` and `rewrite-target`. Whether nginx matched by regex is recorded on the
/// plan (`regex_paths`); the paths themselves become regexes in `servers`, host-wide.
pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations) {
    let use_regex = ann.flag("use-regex") == Some(true);
    let target = ann.get("rewrite-target").filter(|t| !t.is_empty());
    if !use_regex && target.is_none() {
        return;
    }
    let mut regex = use_regex;
    if let Some(target) = target {
        for host in &mut plan.hosts {
            let mut split = Vec::new();
            for rule in &mut host.rules {
                if let Some(slash) = rewrite_rule(rule, target, &mut plan.result.notes) {
                    split.push(slash);
                }
                if target != rule.source_path {
                    regex = true;
                }
            }
            if !split.is_empty() {
                regex = true;
                host.rules.extend(split);
            }
            routes::sort_rules(&mut host.rules);
        }
    }
    plan.regex_paths = regex;
    let regex_rules = plan
        .hosts
        .iter()
        .flat_map(|h| &h.rules)
        .any(|r| !r.fixed_path);
    if regex && regex_rules {
        let paths: Vec<String> = plan
            .hosts
            .iter()
            .flat_map(|h| &h.rules)
            .filter(|r| !r.fixed_path)
            .map(|r| r.source_path.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxUseRegex,
                format!(
                    "paths {} are nginx regexes (case-insensitive, anchored at the start): emitted as RegularExpression (?i)<path>.*, whose dialect is implementation-specific; ingress-nginx also applied regex matching to every other Ingress on the same host",
                    paths.join(", ")
                ),
            )
            .at(field(if use_regex { "use-regex" } else { "rewrite-target" })),
        );
    }
}

/// Applies `rewrite-target` to one rule. Returns the extra rule nginx's location split makes
/// when the target equals a Prefix path (`location.go` `updateServerLocations`: `/api`
/// becomes `/api/`, which the rewrite applies to, and `= /api`, which it does not).
fn rewrite_rule(rule: &mut Rule, target: &str, notes: &mut Vec<Diagnostic>) -> Option<Rule> {
    if target == rule.source_path {
        // No rewrite for the location whose path is the target.
        let splits = rule.source_type == "Prefix"
            && rule.source_path != "/"
            && !rule.source_path.ends_with('/');
        if !splits {
            notes.push(
                Diagnostic::new(
                    Code::NginxRewriteTargetSamePath,
                    format!(
                        "rewrite-target {target:?} equals path {:?}: ingress-nginx rewrote nothing for it, and neither does the translation",
                        rule.source_path
                    ),
                )
                .at(field("rewrite-target")),
            );
            return None;
        }
        let mut slash = rule.clone();
        slash.source_path = format!("{}/", rule.source_path);
        slash.path = HttpPathMatch {
            type_: PATH_PREFIX.into(),
            value: slash.source_path.clone(),
        };
        slash.rewrite_path = Some(HttpPathModifier::full_path(target));
        notes.push(
            Diagnostic::new(
                Code::NginxRewriteTargetSamePath,
                format!(
                    "rewrite-target {target:?} equals Prefix path {target:?}: ingress-nginx split it into the locations {target}/ and = {target}; {target}/… was rewritten to {target} (URLRewrite ReplaceFullPath on a rule for {target}/), {target} itself was not, and the rewrite made every path of the host a case-insensitive regex"
                ),
            )
            .at(field("rewrite-target")),
        );
        return Some(slash);
    }
    if let Some((prefix, replacement)) = strip_prefix_idiom(&rule.source_path, target) {
        forget_path_notes(notes, &rule.field);
        rule.path = HttpPathMatch {
            type_: PATH_PREFIX.into(),
            value: prefix.clone(),
        };
        rule.rewrite_path = Some(HttpPathModifier::prefix_match(replacement.clone()));
        // ReplacePrefixMatch needs a PathPrefix match: this rule stays outside nginx's regex
        // ordering (the equivalence check reports where that matters).
        rule.fixed_path = true;
        if STRIP_IDIOMS[1].0.is_match(&rule.source_path) {
            // `/x/?(.*)` also matches `/xyz` (rewritten to `/yz`); PathPrefix `/x` does not.
            notes.push(
                Diagnostic::new(
                    Code::NginxRewriteTargetApproximated,
                    format!(
                        "path {:?}: nginx's regex also matched {prefix}<anything> without the slash ({prefix}x was rewritten to /x); PathPrefix {prefix} matches only {prefix} and {prefix}/…, so such requests now reach other rules",
                        rule.source_path
                    ),
                )
                .at(&rule.field),
            );
        }
        notes.push(
            Diagnostic::new(
                Code::NginxRewriteTarget,
                format!(
                    "path {:?} with rewrite-target {target:?} is the strip-prefix idiom: PathPrefix {prefix} + URLRewrite ReplacePrefixMatch {replacement} (case-sensitive, while nginx's regex location matched any case, {} too)",
                    rule.source_path,
                    prefix.to_ascii_uppercase()
                ),
            )
            .at(field("rewrite-target")),
        );
        return None;
    }
    let captures_in_path = rule.source_path.contains('(');
    if target.contains('$') && !captures_in_path {
        let full = without_captures(target);
        if routes::valid_gateway_path(&full) {
            rule.rewrite_path = Some(HttpPathModifier::full_path(full.clone()));
            notes.push(
                Diagnostic::new(
                    Code::NginxRewriteTargetFullPath,
                    format!(
                        "rewrite-target {target:?} refers to captures path {:?} does not have: nginx rewrites every request to {full:?}, and so does URLRewrite ReplaceFullPath (probably not what was meant)",
                        rule.source_path
                    ),
                )
                .at(field("rewrite-target")),
            );
        } else {
            notes.push(
                Diagnostic::new(
                    Code::NginxRewriteTargetUnsupported,
                    format!(
                        "rewrite-target {target:?} on path {:?} rewrites to {full:?}, which is not a path URLRewrite can set (query strings, variables); not translated",
                        rule.source_path
                    ),
                )
                .at(field("rewrite-target")),
            );
        }
    } else if target.contains('$') {
        notes.push(
            Diagnostic::new(
                Code::NginxRewriteTargetUnsupported,
                format!(
                    "rewrite-target {target:?} on path {:?} uses regex captures beyond the strip-prefix idiom; Gateway API has no regex rewrite, so requests reach the backend unrewritten",
                    rule.source_path
                ),
            )
            .at(field("rewrite-target")),
        );
    } else if routes::valid_gateway_path(target) {
        rule.rewrite_path = Some(HttpPathModifier::full_path(target));
        notes.push(
            Diagnostic::new(
                Code::NginxRewriteTargetFullPath,
                format!(
                    "rewrite-target {target:?} without captures replaces the whole path, as nginx's rewrite does (/foo/bar → {target}): URLRewrite ReplaceFullPath"
                ),
            )
            .at(field("rewrite-target")),
        );
    } else {
        notes.push(
            Diagnostic::new(
                Code::NginxRewriteTargetUnsupported,
                format!("rewrite-target {target:?} is not a path; not translated"),
            )
            .at(field("rewrite-target")),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strip_prefix_idiom_is_recognised() {
        assert_eq!(
            strip_prefix_idiom("/something(/|$)(.*)", "/$2"),
            Some(("/something".into(), "/".into()))
        );
        assert_eq!(
            strip_prefix_idiom("/api/?(.*)", "/v2/$1"),
            Some(("/api".into(), "/v2".into()))
        );
        assert_eq!(
            strip_prefix_idiom("/foo/bar/(.+)", "/$1"),
            Some(("/foo/bar".into(), "/".into()))
        );
        assert_eq!(strip_prefix_idiom("/something(/|$)(.*)", "/$1"), None);
        assert_eq!(strip_prefix_idiom("/a(/|$)(.*)", "/x$2"), None);
        assert_eq!(
            strip_prefix_idiom("/(.*)", "/$1"),
            Some(("/".into(), "/".into()))
        );
    }

    // `^/x/(.+)` (nginx's location) does not match `/x` or `/x/`; PathPrefix `/x` does.
    #[test]
    fn strip_prefix_holes_are_what_the_prefix_adds() {
        assert_eq!(
            strip_prefix_holes("/foo/bar/(.+)"),
            ["/foo/bar", "/foo/bar/"]
        );
        assert_eq!(strip_prefix_holes("/foo/(.*)"), ["/foo"]);
        assert!(strip_prefix_holes("/foo(/|$)(.*)").is_empty());
        assert!(strip_prefix_holes("/foo/?(.*)").is_empty());
        assert_eq!(strip_prefix_holes("/(.+)"), ["/"]);
    }
}
