//! Istio `corsPolicy` → the CORS filter (standard since Gateway API v1.5).

use std::sync::LazyLock;

use regex::Regex;

use super::matches::METHODS;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpCorsFilter, HttpRouteFilter};
use crate::model::istio::CorsPolicy;
use crate::translate::istio::{duration, unknown};

/// Gateway API's `CORSOrigin` pattern.
static ORIGIN: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(
        r"(^\*$)|(^(http(s)?):\/\/(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$)",
    )
});

/// `scheme://.*\.example\.com`: the one regex shape a wildcard origin can express.
static WILDCARD_REGEX: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(
        r"^\^?(https?)://(?:\.\*|\[\^/\]\+|\[a-z0-9-\]\+)\\\.((?:[a-zA-Z0-9-]+\\\.)*[a-zA-Z0-9-]+)\$?$",
    )
});

pub(super) fn filter(
    cors: &CorsPolicy,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<HttpRouteFilter> {
    unknown::report(&cors.extra, path, notes);
    let mut f = HttpCorsFilter::default();
    for (i, o) in cors.allow_origins.iter().enumerate() {
        let field = format!("{path}.allowOrigins[{i}]");
        unknown::report(&o.extra, &field, notes);
        let origin = if let Some(exact) = &o.exact {
            ORIGIN.is_match(exact).then(|| exact.clone())
        } else if let Some(re) = &o.regex {
            if re == ".*" || re == "*" {
                Some("*".to_string())
            } else {
                WILDCARD_REGEX
                    .captures(re)
                    .map(|c| format!("{}://*.{}", &c[1], c[2].replace("\\.", ".")))
            }
        } else {
            None
        };
        match origin {
            Some(origin) => {
                if o.regex.is_some() {
                    notes.push(Diagnostic::new(Code::IstioCorsOrigin, format!("origin regex written as the wildcard origin '{origin}'")).at(field));
                }
                if !f.allow_origins.contains(&origin) {
                    f.allow_origins.push(origin);
                }
            }
            None => notes.push(Diagnostic::new(Code::IstioCorsOriginDropped, "origin is not an exact origin or a 'scheme://*.domain' wildcard, which is all Gateway API CORS accepts; dropped (requests from it lose CORS headers)").at(field)),
        }
    }
    for (i, exact) in cors.allow_origin.iter().enumerate() {
        let field = format!("{path}.allowOrigin[{i}]");
        if ORIGIN.is_match(exact) {
            if !f.allow_origins.contains(exact) {
                f.allow_origins.push(exact.clone());
            }
        } else {
            notes.push(
                Diagnostic::new(
                    Code::IstioCorsOriginDropped,
                    format!("origin '{exact}' is not a valid Gateway API CORS origin; dropped"),
                )
                .at(field),
            );
        }
    }
    if f.allow_origins.len() > 1 && f.allow_origins.iter().any(|o| o == "*") {
        f.allow_origins.retain(|o| o == "*");
        notes.push(Diagnostic::new(Code::IstioCorsOrigin, "'*' among other origins: Gateway API requires '*' alone, other origins dropped (they are covered)").at(format!("{path}.allowOrigins")));
    }
    for m in &cors.allow_methods {
        let upper = m.to_ascii_uppercase();
        if upper == "*" || METHODS.contains(&upper.as_str()) {
            if !f.allow_methods.contains(&upper) {
                f.allow_methods.push(upper);
            }
        } else {
            notes.push(
                Diagnostic::new(
                    Code::IstioCorsMethod,
                    format!("method '{m}' is not one Gateway API CORS accepts; dropped"),
                )
                .at(format!("{path}.allowMethods")),
            );
        }
    }
    if f.allow_methods.len() > 1 && f.allow_methods.iter().any(|m| m == "*") {
        f.allow_methods.retain(|m| m == "*");
    }
    f.allow_headers = dedup(&cors.allow_headers);
    f.expose_headers = dedup(&cors.expose_headers);
    for (label, list) in [
        ("allowHeaders", &mut f.allow_headers),
        ("exposeHeaders", &mut f.expose_headers),
    ] {
        if list.len() > 1 && list.iter().any(|h| h == "*") {
            list.retain(|h| h == "*");
        }
        if list.len() > 64 {
            notes.push(
                Diagnostic::new(
                    Code::IstioCorsLimit,
                    format!("more than 64 {label}; the rest were dropped"),
                )
                .at(format!("{path}.{label}")),
            );
            list.truncate(64);
        }
    }
    f.allow_credentials = cors.allow_credentials;
    match &cors.max_age {
        Some(age) => match duration::to_seconds_ceil(age) {
            Some(secs) => f.max_age = Some(secs),
            None => notes.push(Diagnostic::new(Code::IstioInvalidDuration, format!("maxAge '{age}' is not a duration; dropped")).at(format!("{path}.maxAge"))),
        },
        None => notes.push(Diagnostic::new(Code::IstioCorsMaxAgeDefault, "maxAge unset: Istio sends no Access-Control-Max-Age, Gateway API implementations send 5 seconds").at(path.to_string())),
    }
    if cors
        .unmatched_preflights
        .as_deref()
        .is_none_or(|u| u.eq_ignore_ascii_case("FORWARD"))
    {
        notes.push(Diagnostic::new(Code::IstioCorsPreflight, "preflight requests from origins that do not match are forwarded to the backend by Istio (unmatchedPreflights FORWARD); Gateway API CORS answers them at the gateway").at(path.to_string()));
    }
    if f.allow_origins.is_empty() {
        notes.push(
            Diagnostic::new(
                Code::IstioCorsNoOrigins,
                "no origin could be translated; the CORS filter is omitted",
            )
            .at(path.to_string()),
        );
        return None;
    }
    Some(HttpRouteFilter::cors(f))
}

fn dedup(list: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for h in list {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(h)) {
            out.push(h.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_origin_regexes_become_wildcard_origins() {
        let c = WILDCARD_REGEX
            .captures(r"https://.*\.example\.com")
            .unwrap();
        assert_eq!(&c[1], "https");
        assert_eq!(&c[2], r"example\.com");
        assert!(WILDCARD_REGEX.captures(r"https://foo.*").is_none());
        assert!(ORIGIN.is_match("https://*.example.com"));
        assert!(!ORIGIN.is_match("https://dashboard.*"));
    }
}
