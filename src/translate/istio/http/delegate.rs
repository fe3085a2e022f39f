//! `delegate`: Gateway API has no route delegation, so the delegate VirtualService's rules are
//! inlined into the root in place of the delegating entry. Istio requires a delegate's matches
//! to be narrower than the root's, so each merged match is the delegate match with the root's
//! conditions added (AND).

use crate::diagnostic::{Code, Diagnostic};
use crate::model::SourceObject;
use crate::model::istio::{HttpMatchRequest, HttpRoute, VirtualService};
use crate::translate::istio::Ctx;

/// The http entries of `vs` with delegates inlined, each with the field path it came from.
pub(super) fn flatten(
    ctx: &Ctx,
    obj: &SourceObject,
    vs: &VirtualService,
    notes: &mut Vec<Diagnostic>,
) -> Vec<(String, HttpRoute)> {
    let mut out = Vec::new();
    for (i, http) in vs.http.iter().enumerate() {
        let path = format!("spec.http[{i}]");
        let Some(d) = &http.delegate else {
            out.push((path, http.clone()));
            continue;
        };
        let ns = d.namespace.clone().unwrap_or_else(|| obj.namespace.clone());
        let name = d.name.clone().unwrap_or_default();
        let Some((_, delegate)) = ctx.index.virtual_service(&ns, &name) else {
            notes.push(Diagnostic::new(Code::IstioDelegateNotFound, format!("delegate VirtualService {ns}/{name} is not in the repository; its rules cannot be inlined (Gateway API has no delegation), the entry is translated without it")).at(format!("{path}.delegate")));
            let mut own = http.clone();
            own.delegate = None;
            out.push((path, own));
            continue;
        };
        // Istio's admission refuses a delegate that delegates again or has gateways, TLS or
        // TCP routes (validation.go `ValidateVirtualService`, virtualservice.go
        // `validateHTTPRoute`): it never exists, and Istio drops the root entry
        // (`mergeVirtualServices`), so nothing of it is inlined.
        if let Some(why) = crate::semantics::istio::refused_by_admission(delegate) {
            notes.push(
                Diagnostic::new(
                    Code::IstioDelegateNested,
                    format!("delegate {ns}/{name} is refused by Istio's admission ({why}), so it never existed and this entry routed nothing; the entry is dropped"),
                )
                .at(format!("{path}.delegate")),
            );
            continue;
        }
        notes.push(Diagnostic::new(Code::IstioDelegateFlattened, format!("delegate {ns}/{name} inlined: its {} rules replace this entry, with the root's match conditions added (Gateway API has no route delegation)", delegate.http.len())).at(format!("{path}.delegate")));
        for (j, dh) in delegate.http.iter().enumerate() {
            let dpath = format!("{path}.delegate({ns}/{name}).http[{j}]");
            let mut merged = dh.clone();
            merged.matches = merge(&http.matches, &dh.matches);
            qualify_short_hosts(&mut merged, &ns, &ctx.config.cluster_domain);
            out.push((dpath, merged));
        }
    }
    out
}

/// Short destination hosts of a delegate resolve in the delegate's namespace (Istio's rule):
/// once inlined into the root they must be written in full.
fn qualify_short_hosts(http: &mut HttpRoute, namespace: &str, cluster_domain: &str) {
    let qualify = |d: &mut Option<crate::model::istio::Destination>| {
        if let Some(dest) = d
            && let Some(host) = &dest.host
            && !host.contains('.')
            && host != "*"
        {
            dest.host = Some(format!("{host}.{namespace}.svc.{cluster_domain}"));
        }
    };
    for r in &mut http.route {
        qualify(&mut r.destination);
    }
    qualify(&mut http.mirror);
    for m in &mut http.mirrors {
        qualify(&mut m.destination);
    }
}

/// Root matches AND delegate matches (cross product).
fn merge(root: &[HttpMatchRequest], delegate: &[HttpMatchRequest]) -> Vec<HttpMatchRequest> {
    if root.is_empty() {
        return delegate.to_vec();
    }
    if delegate.is_empty() {
        return root.to_vec();
    }
    let mut out = Vec::new();
    for r in root {
        for d in delegate {
            let mut m = d.clone();
            if m.uri.is_none() {
                m.uri = r.uri.clone();
            }
            if m.method.is_none() {
                m.method = r.method.clone();
            }
            if m.authority.is_none() {
                m.authority = r.authority.clone();
            }
            if m.scheme.is_none() {
                m.scheme = r.scheme.clone();
            }
            if m.port.is_none() {
                m.port = r.port;
            }
            if m.ignore_uri_case.is_none() {
                m.ignore_uri_case = r.ignore_uri_case;
            }
            for (k, v) in &r.headers {
                m.headers.entry(k.clone()).or_insert_with(|| v.clone());
            }
            for (k, v) in &r.query_params {
                m.query_params.entry(k.clone()).or_insert_with(|| v.clone());
            }
            for (k, v) in &r.without_headers {
                m.without_headers
                    .entry(k.clone())
                    .or_insert_with(|| v.clone());
            }
            out.push(m);
        }
    }
    out
}
