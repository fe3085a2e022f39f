//! Istio `rewrite` → the URLRewrite filter. `uri` is a prefix rewrite for prefix matches and a
//! full-path rewrite for exact/regex matches; the rule builder splits rules accordingly.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::HttpUrlRewriteFilter;
use crate::model::istio::HttpRewrite;
use crate::translate::istio::unknown;

/// How the path is rewritten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum PathRewrite {
    None,
    /// Istio `uri`: depends on each match's path type.
    Uri(String),
    /// Always replace the whole path (a regex rewrite that replaces everything).
    FullPath(String),
    /// `uriRegexRewrite` `^/p(/|$)(.*)` → `<q>/\2`: replace the prefix `/p` with `<q>` (or
    /// `/`), which is ReplacePrefixMatch on a `PathPrefix /p` match.
    StripPrefix {
        prefix: String,
        replacement: String,
    },
}

/// `^/p(/|$)(.*)` (optionally without `^`, or ending in `$`) with `/\2` or `/q/\2`: the
/// strip-prefix idiom, as `(prefix, replacement)`.
pub(super) fn strip_prefix_idiom(pattern: &str, rewrite: &str) -> Option<(String, String)> {
    let body = pattern.strip_prefix('^').unwrap_or(pattern);
    let body = body.strip_suffix('$').unwrap_or(body);
    let prefix = body.strip_suffix("(/|$)(.*)")?;
    let literal = |p: &str| {
        p.starts_with('/')
            && p.len() > 1
            && !p.ends_with('/')
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || "/-_~".contains(c))
    };
    if !literal(prefix) {
        return None;
    }
    let head = rewrite.strip_suffix("\\2")?;
    let replacement = match head {
        "/" => "/".to_string(),
        q if literal(q.trim_end_matches('/')) && q.ends_with('/') => {
            q.trim_end_matches('/').to_string()
        }
        _ => return None,
    };
    Some((prefix.to_string(), replacement))
}

pub(super) struct Rewrite {
    pub hostname: Option<String>,
    pub path: PathRewrite,
}

pub(super) fn translate(rw: &HttpRewrite, path: &str, notes: &mut Vec<Diagnostic>) -> Rewrite {
    unknown::report(&rw.extra, path, notes);
    let mut out = Rewrite {
        hostname: None,
        path: PathRewrite::None,
    };
    if let Some(auth) = &rw.authority {
        out.hostname = hostname(auth, &format!("{path}.authority"), notes);
    }
    if let Some(uri) = &rw.uri {
        out.path = PathRewrite::Uri(uri.clone());
    }
    if let Some(re) = &rw.uri_regex_rewrite {
        unknown::report(&re.extra, &format!("{path}.uriRegexRewrite"), notes);
        let pattern = re.pattern.as_deref().unwrap_or_default();
        let replacement = re.rewrite.as_deref().unwrap_or_default();
        let whole = matches!(
            pattern,
            "/.*" | "^/.*$" | ".*" | "^.*$" | "^/.*" | "/(.*)" | "^/(.*)$"
        );
        if let Some((prefix, to)) = strip_prefix_idiom(pattern, replacement) {
            notes.push(Diagnostic::new(Code::IstioRegexRewritePrefix, format!("uriRegexRewrite '{pattern}' → '{replacement}' strips the prefix '{prefix}': written as ReplacePrefixMatch '{to}' on a PathPrefix '{prefix}' match, and with the rest of the path kept on PathPrefix or Exact matches below '{prefix}/'")).at(format!("{path}.uriRegexRewrite")));
            if to != "/" {
                notes.push(Diagnostic::new(Code::IstioRewritePrefixSemantics, format!("'{prefix}' itself becomes '{to}/' in Istio (the replacement keeps its slash) but '{to}' with ReplacePrefixMatch; paths below '{prefix}/' are rewritten alike")).at(format!("{path}.uriRegexRewrite")));
            }
            out.path = PathRewrite::StripPrefix {
                prefix,
                replacement: to,
            };
        } else if whole && !replacement.contains('\\') && replacement.starts_with('/') {
            notes.push(Diagnostic::new(Code::IstioRegexRewriteFullPath, format!("uriRegexRewrite replacing the whole path written as ReplaceFullPath '{replacement}'")).at(format!("{path}.uriRegexRewrite")));
            out.path = PathRewrite::FullPath(replacement.to_string());
        } else {
            notes.push(Diagnostic::new(Code::IstioRegexRewrite, format!("uriRegexRewrite '{pattern}' → '{replacement}' has no Gateway API equivalent (only full-path and prefix replacement); dropped")).at(format!("{path}.uriRegexRewrite")));
        }
    }
    out
}

/// An authority Istio rewrites the host to, as a URLRewrite hostname: without its port
/// (noted), or `None` when it is not a precise hostname (noted at `field`).
pub(super) fn hostname(auth: &str, field: &str, notes: &mut Vec<Diagnostic>) -> Option<String> {
    let host = auth
        .split(':')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if crate::translate::istio::hosts::hostname_problem(&host).is_some() || host.contains('*') {
        notes.push(
            Diagnostic::new(
                Code::IstioRewriteAuthority,
                format!("rewrite authority '{auth}' is not a precise hostname; dropped"),
            )
            .at(field.to_string()),
        );
        return None;
    }
    if host.len() != auth.len() {
        notes.push(
            Diagnostic::new(
                Code::IstioRewriteAuthorityPort,
                "the port of the rewritten authority is dropped (URLRewrite hostname has no port)",
            )
            .at(field.to_string()),
        );
    }
    Some(host)
}

/// The URLRewrite filter for a rule, if any.
pub(super) fn filter(
    hostname: &Option<String>,
    path: Option<crate::gwapi::HttpPathModifier>,
) -> Option<HttpUrlRewriteFilter> {
    if hostname.is_none() && path.is_none() {
        return None;
    }
    Some(HttpUrlRewriteFilter {
        hostname: hostname.clone(),
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // istio/api VirtualService HTTPRewrite.uriRegexRewrite: RE2 `match` and `rewrite` with
    // `\N` groups; `^/p(/|$)(.*)` → `/\2` keeps everything after `/p`.
    #[test]
    fn the_strip_prefix_idiom_is_recognised() {
        assert_eq!(
            strip_prefix_idiom("^/strip(/|$)(.*)", "/\\2"),
            Some(("/strip".into(), "/".into()))
        );
        assert_eq!(
            strip_prefix_idiom("/api/v1(/|$)(.*)", "/v2/\\2"),
            Some(("/api/v1".into(), "/v2".into()))
        );
        assert_eq!(strip_prefix_idiom("^/strip(/|$)(.*)", "/\\1"), None);
        assert_eq!(strip_prefix_idiom("^/s.*(/|$)(.*)", "/\\2"), None);
    }
}
