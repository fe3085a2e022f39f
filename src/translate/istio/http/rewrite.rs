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
                .at(format!("{path}.authority")),
            );
        } else {
            if host.len() != auth.len() {
                notes.push(Diagnostic::new(Code::IstioRewriteAuthorityPort, "the port of the rewritten authority is dropped (URLRewrite hostname has no port)").at(format!("{path}.authority")));
            }
            out.hostname = Some(host);
        }
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
        if whole && !replacement.contains('\\') && replacement.starts_with('/') {
            notes.push(Diagnostic::new(Code::IstioRegexRewriteFullPath, format!("uriRegexRewrite replacing the whole path written as ReplaceFullPath '{replacement}'")).at(format!("{path}.uriRegexRewrite")));
            out.path = PathRewrite::FullPath(replacement.to_string());
        } else {
            notes.push(Diagnostic::new(Code::IstioRegexRewrite, format!("uriRegexRewrite '{pattern}' → '{replacement}' has no Gateway API equivalent (only full-path and prefix replacement); dropped")).at(format!("{path}.uriRegexRewrite")));
        }
    }
    out
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
