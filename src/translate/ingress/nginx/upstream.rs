//! `upstream-vhost` (the Host header sent upstream) → `URLRewrite.hostname`;
//! `x-forwarded-prefix` → a `RequestHeaderModifier` setting `X-Forwarded-Prefix`.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::HttpHeader;

use super::super::ir::IngressPlan;
use super::super::wildcard;
use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &["upstream-vhost", "x-forwarded-prefix"];

pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations) {
    if let Some(vhost) = ann.get("upstream-vhost") {
        let host = vhost.to_ascii_lowercase();
        if wildcard::valid_hostname(&host) && !host.starts_with("*.") {
            for rule in plan.hosts.iter_mut().flat_map(|h| h.rules.iter_mut()) {
                rule.rewrite_host = Some(host.clone());
            }
            plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxUpstreamVhost,
                    format!("upstream-vhost {vhost}: URLRewrite hostname {host} on every rule"),
                )
                .at(field("upstream-vhost")),
            );
        } else {
            plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxUpstreamVhostUnsupported,
                    format!(
                        "upstream-vhost {vhost:?} is not a plain hostname (nginx variables and ports have no URLRewrite equivalent); not translated"
                    ),
                )
                .at(field("upstream-vhost")),
            );
        }
    }
    if let Some(prefix) = ann.get("x-forwarded-prefix") {
        if prefix.is_empty() {
            return;
        }
        for rule in plan.hosts.iter_mut().flat_map(|h| h.rules.iter_mut()) {
            rule.set_headers.push(HttpHeader {
                name: "X-Forwarded-Prefix".into(),
                value: prefix.to_string(),
            });
        }
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxXForwardedPrefix,
                format!(
                    "x-forwarded-prefix: RequestHeaderModifier sets X-Forwarded-Prefix: {prefix}"
                ),
            )
            .at(field("x-forwarded-prefix")),
        );
    }
}
