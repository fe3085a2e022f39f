//! `spec.tls`: which hosts an Ingress serves over TLS and with which Secrets. In migrate mode
//! these become HTTPS listeners with `certificateRefs`; in mount mode the Gateway owner's
//! listeners decide, and `spec.tls` only decides whether HTTP is redirected.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::ingress::Ingress;

use super::ir::IngressPlan;
use super::wildcard;

/// `(host, secret)` pairs of `spec.tls`, hosts lowercased; a `None` host: "every host".
pub(crate) fn entries(ing: &Ingress) -> Vec<(Option<String>, Option<String>)> {
    let mut out = Vec::new();
    let Some(tls) = ing.spec.as_ref().and_then(|s| s.tls.as_ref()) else {
        return out;
    };
    for t in tls {
        let secret = t.secret_name.clone().filter(|s| !s.is_empty());
        match t.hosts.as_ref().filter(|h| !h.is_empty()) {
            Some(hosts) => out.extend(hosts.iter().map(|h| {
                (
                    Some(crate::model::template::host_as_matched(h)),
                    secret.clone(),
                )
            })),
            None => out.push((None, secret)),
        }
    }
    out
}

/// The Secrets serving `host`: `None` when `spec.tls` does not cover it; an empty list when
/// it does but names no Secret (the controller's default certificate).
pub(crate) fn certificates(
    tls: &[(Option<String>, Option<String>)],
    host: Option<&str>,
) -> Option<Vec<String>> {
    let covering: Vec<&Option<String>> = tls
        .iter()
        .filter(|(t, _)| match (t.as_deref(), host) {
            (None, _) => true,
            (Some(t), Some(h)) => wildcard::host_matches(t, h),
            (Some(_), None) => false,
        })
        .map(|(_, s)| s)
        .collect();
    if covering.is_empty() {
        return None;
    }
    let mut secrets: Vec<String> = covering.into_iter().flatten().cloned().collect();
    secrets.dedup();
    Some(secrets)
}

/// migrate: notes about `spec.tls` entries that create no listener as written.
pub(crate) fn note_unused_entries(plan: &mut IngressPlan) {
    for t in plan.tls.iter().filter_map(|(t, _)| t.as_deref()) {
        let used = plan
            .hosts
            .iter()
            .filter_map(|h| h.host.as_deref())
            .any(|h| wildcard::host_matches(t, h));
        if !used {
            plan.result.notes.push(
                Diagnostic::new(
                    Code::IngressTlsHostWithoutRule,
                    format!(
                        "spec.tls host {t} has no rule in this Ingress; no listener is created for it"
                    ),
                )
                .at("spec.tls"),
            );
        }
    }
    if plan.tls.iter().any(|(t, _)| t.is_none()) {
        plan.result.notes.push(
            Diagnostic::new(
                Code::IngressTlsWithoutHosts,
                "a spec.tls entry lists no hosts: its certificate is used for every host of the Ingress",
            )
            .at("spec.tls"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_entries_cover_hosts_with_ingress_wildcard_semantics() {
        let tls = vec![
            (Some("*.foo.com".to_string()), Some("wild".to_string())),
            (Some("a.foo.com".to_string()), Some("exact".to_string())),
            (Some("nosecret.com".to_string()), None),
        ];
        assert_eq!(
            certificates(&tls, Some("a.foo.com")),
            Some(vec!["wild".into(), "exact".into()])
        );
        assert_eq!(
            certificates(&tls, Some("b.foo.com")),
            Some(vec!["wild".into()])
        );
        assert_eq!(certificates(&tls, Some("a.b.foo.com")), None);
        assert_eq!(certificates(&tls, Some("nosecret.com")), Some(vec![]));
        assert_eq!(certificates(&tls, None), None);
    }
}
