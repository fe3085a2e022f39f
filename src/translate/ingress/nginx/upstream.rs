//! `upstream-vhost` (the Host header sent upstream) → `URLRewrite.hostname`;
//! `x-forwarded-prefix` → a `RequestHeaderModifier` setting `X-Forwarded-Prefix` on the rules
//! that rewrite.

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
        // template.go buildProxyPass: the header is set only where the location rewrites
        // (a rewrite-target that differs from the location's path).
        let mut set = 0;
        for rule in plan
            .hosts
            .iter_mut()
            .flat_map(|h| h.rules.iter_mut())
            .filter(|r| r.rewrite_path.is_some())
        {
            rule.set_headers.push(HttpHeader {
                name: "X-Forwarded-Prefix".into(),
                value: prefix.to_string(),
            });
            set += 1;
        }
        let message = if set > 0 {
            format!(
                "x-forwarded-prefix: RequestHeaderModifier sets X-Forwarded-Prefix: {prefix} on the rules that rewrite (only there did ingress-nginx set it)"
            )
        } else {
            "x-forwarded-prefix: ingress-nginx sets the header only where rewrite-target rewrites, and no path of this Ingress is rewritten; it had no effect and is not translated".to_string()
        };
        plan.result.notes.push(
            Diagnostic::new(Code::NginxXForwardedPrefix, message).at(field("x-forwarded-prefix")),
        );
    }
}
