//! `enable-cors` + `cors-*` → a CORS filter on every rule. ingress-nginx's defaults differ
//! from Gateway API's (credentials allowed, a fixed method and header list, a 20-day max-age),
//! so every value is written explicitly and the difference is noted.

use std::sync::LazyLock;

use regex::Regex;

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::HttpCorsFilter;

use super::super::ir::IngressPlan;
use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &[
    "enable-cors",
    "cors-allow-origin",
    "cors-allow-methods",
    "cors-allow-headers",
    "cors-expose-headers",
    "cors-allow-credentials",
    "cors-max-age",
];

const DEFAULT_METHODS: &str = "GET, PUT, POST, DELETE, PATCH, OPTIONS";
const DEFAULT_HEADERS: &str = "DNT,Keep-Alive,User-Agent,X-Requested-With,If-Modified-Since,Cache-Control,Content-Type,Range,Authorization";
const DEFAULT_MAX_AGE: u32 = 1_728_000;
const METHODS: &[&str] = &[
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "*",
];

fn list(value: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if !out.iter().any(|o| o == item) {
            out.push(item.to_string());
        }
    }
    out
}

/// The whole `cors-allow-origin` value, spaces removed, must match this
/// (`annotations/cors/main.go` `corsOriginRegexValidator`), else ingress-nginx allows `*`.
static ORIGINS_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(r"^((((([a-z]+://)?(\*\.)?[A-Za-z0-9\-.]*(:\d+)?,?)|null)+)|\*)?$")
});
/// Each origin must match this (`corsOriginRegex`), else ingress-nginx skips it.
static ORIGIN: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(r"^([a-z]+://(\*\.)?[A-Za-z0-9\-.]*(:\d+)?|\*|null)?$")
});
/// What the HTTPRoute CRD accepts as a CORS origin (`CORSOrigin` pattern).
static CRD_ORIGIN: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(
        r"(^\*$)|(^(http(s)?)://(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$)",
    )
});

/// The origins ingress-nginx allowed for a `cors-allow-origin` value, and what it skipped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NginxOrigins {
    pub allowed: Vec<String>,
    pub skipped: Vec<String>,
    /// The value failed validation as a whole: ingress-nginx allowed every origin.
    pub fell_back_to_any: bool,
}

/// `annotations/cors/main.go` `Parse`, for `cors-allow-origin`.
pub(crate) fn nginx_origins(value: &str) -> NginxOrigins {
    if !ORIGINS_VALUE.is_match(&value.replace(' ', "")) {
        return NginxOrigins {
            allowed: vec!["*".into()],
            skipped: Vec::new(),
            fell_back_to_any: true,
        };
    }
    let mut allowed = Vec::new();
    let mut skipped = Vec::new();
    for origin in value.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        if origin == "*" {
            allowed = vec!["*".to_string()];
            break;
        }
        if ORIGIN.is_match(origin) {
            if !allowed.iter().any(|a| a == origin) {
                allowed.push(origin.to_string());
            }
        } else {
            skipped.push(origin.to_string());
        }
    }
    NginxOrigins {
        allowed,
        skipped,
        fell_back_to_any: false,
    }
}

/// `*` alone, or the origins without `*` (the CRD rejects `*` beside other values).
fn without_lone_star(mut items: Vec<String>) -> Vec<String> {
    if items.iter().any(|i| i == "*") {
        items.retain(|i| i == "*");
    }
    items
}

/// The allowed origins as ingress-nginx read them, less what the HTTPRoute CRD cannot hold
/// (`null`, schemes other than http and https), each difference noted: one bad origin never
/// costs the route.
fn origins(plan: &mut IngressPlan, value: &str) -> Vec<String> {
    let read = nginx_origins(value);
    let at = field("cors-allow-origin");
    if read.fell_back_to_any {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxCorsOrigin,
                format!(
                    "cors-allow-origin {value:?} fails ingress-nginx's validation as a whole, so it allowed every origin (*); so does the translation"
                ),
            )
            .at(&at),
        );
    }
    if !read.skipped.is_empty() {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxCorsOrigin,
                format!(
                    "cors-allow-origin: {} not scheme://host[:port], null or *: ingress-nginx skipped it, and so does the translation",
                    read.skipped.join(", ")
                ),
            )
            .at(&at),
        );
    }
    let (kept, lost): (Vec<String>, Vec<String>) = read
        .allowed
        .into_iter()
        .partition(|o| CRD_ORIGIN.is_match(o));
    if !lost.is_empty() {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxCorsOriginUnsupported,
                format!(
                    "cors-allow-origin: ingress-nginx allowed {}, which Gateway API's CORS filter cannot name (only http(s)://host[:port] and *); those origins no longer get CORS headers",
                    lost.join(", ")
                ),
            )
            .at(&at),
        );
    }
    without_lone_star(kept)
}

pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations) {
    if ann.flag("enable-cors") != Some(true) {
        let stray: Vec<&str> = KEYS[1..]
            .iter()
            .copied()
            .filter(|k| ann.get(k).is_some())
            .collect();
        if !stray.is_empty() {
            plan.result.notes.push(Diagnostic::new(
                Code::NginxCorsWithoutEnable,
                format!(
                    "{} set without enable-cors: \"true\"; they had no effect and are not translated",
                    stray.join(", ")
                ),
            ));
        }
        return;
    }
    let mut dropped = Vec::new();
    let origins = origins(plan, ann.get("cors-allow-origin").unwrap_or("*"));
    let mut methods = Vec::new();
    for m in list(ann.get("cors-allow-methods").unwrap_or(DEFAULT_METHODS)) {
        let upper = m.to_ascii_uppercase();
        if METHODS.contains(&upper.as_str()) {
            if !methods.contains(&upper) {
                methods.push(upper);
            }
        } else {
            dropped.push(m);
        }
    }
    let methods = without_lone_star(methods);
    let headers = without_lone_star(list(
        ann.get("cors-allow-headers").unwrap_or(DEFAULT_HEADERS),
    ));
    let expose = without_lone_star(list(ann.get("cors-expose-headers").unwrap_or("")));
    let credentials = ann.flag("cors-allow-credentials").unwrap_or(true);
    let max_age = ann
        .get("cors-max-age")
        .and_then(|v| v.parse::<u32>().ok())
        .filter(|v| *v > 0)
        .unwrap_or(DEFAULT_MAX_AGE);
    let filter = HttpCorsFilter {
        allow_origins: origins,
        allow_credentials: Some(credentials),
        allow_methods: methods,
        allow_headers: headers,
        expose_headers: expose,
        max_age: Some(max_age),
    };
    for rule in plan.hosts.iter_mut().flat_map(|h| h.rules.iter_mut()) {
        rule.cors = Some(filter.clone());
    }
    plan.result.notes.push(
        Diagnostic::new(
            Code::NginxCorsDefaults,
            "enable-cors: CORS filter written with ingress-nginx's values spelled out (its defaults differ from Gateway API's: credentials allowed, methods GET, PUT, POST, DELETE, PATCH, OPTIONS, max-age 1728000); nginx origin wildcards match one label, Gateway API ones any number",
        )
        .at(field("enable-cors")),
    );
    if !dropped.is_empty() {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxCorsMethod,
                format!(
                    "cors-allow-methods: {} not a method Gateway API accepts; dropped",
                    dropped.join(", ")
                ),
            )
            .at(field("cors-allow-methods")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // annotations/cors/main.go: the value is validated whole (spaces removed), then each
    // origin; an origin without a scheme is skipped, `null` kept.
    #[test]
    fn origins_are_read_as_ingress_nginx_reads_them() {
        let read = nginx_origins("null, app.example.org");
        assert_eq!(read.allowed, vec!["null".to_string()]);
        assert_eq!(read.skipped, vec!["app.example.org".to_string()]);
        assert!(!read.fell_back_to_any);
        let read = nginx_origins("https://a.example.com, https://*.b.example.com:8443");
        assert_eq!(read.allowed.len(), 2);
        assert!(nginx_origins("https://a.example.com/path").fell_back_to_any);
        assert_eq!(
            nginx_origins("https://a.com, *").allowed,
            vec!["*".to_string()]
        );
    }
}
