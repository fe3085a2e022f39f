//! `enable-cors` + `cors-*` → a CORS filter on every rule. ingress-nginx's defaults differ
//! from Gateway API's (credentials allowed, a fixed method and header list, a 20-day max-age),
//! so every value is written explicitly and the difference is noted.

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

/// `*` alone, or the origins without `*` (the CRD rejects `*` beside other values).
fn without_lone_star(mut items: Vec<String>) -> Vec<String> {
    if items.iter().any(|i| i == "*") {
        items.retain(|i| i == "*");
    }
    items
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
    let origins = without_lone_star(list(ann.get("cors-allow-origin").unwrap_or("*")));
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
