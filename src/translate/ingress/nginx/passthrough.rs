//! `ssl-passthrough`: the controller forwards the TLS stream by SNI without terminating it.
//! Each host becomes a TLSRoute on a TLS `Passthrough` listener, to the backend of its `/`
//! path; like ingress-nginx, it makes every other annotation (and the HTTP rules) moot.

use crate::diagnostic::{Code, Diagnostic};

use super::super::ir::IngressPlan;
use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &["ssl-passthrough"];

/// Marks the plan as passthrough; returns whether it is.
pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations) -> bool {
    if ann.flag("ssl-passthrough") != Some(true) {
        return false;
    }
    plan.passthrough = true;
    plan.result.notes.push(
        Diagnostic::new(
            Code::NginxSslPassthrough,
            "ssl-passthrough: each host becomes a TLSRoute on a TLS listener in Passthrough mode (SNI routing, no HTTP routing); its backend is the host's / path (or first path)",
        )
        .at(field("ssl-passthrough")),
    );
    // Passthrough diverts port 443 only: nginx still served the paths on plain HTTP,
    // proxying to the backend over https:// (template.go buildProxyPass, SSLPassthrough).
    plan.result.notes.push(
        Diagnostic::new(
            Code::NginxSslPassthroughPlainHttp,
            "ssl-passthrough: ingress-nginx still answered plain HTTP for these paths, proxying to the backend over HTTPS; no route is written for that (an HTTPRoute would need a BackendTLSPolicy with the backend's CA), so plain HTTP to the host gets no answer from these paths",
        )
        .at(field("ssl-passthrough")),
    );
    true
}
