//! `delegate`: Gateway API has no route delegation, so the delegate VirtualService's rules are
//! inlined into the root in place of the delegating entry, merged exactly as Istio merges them
//! (the behaviour model's [`delegation`]: `mergeVirtualServices`, `mergeHTTPRoute`,
//! `hasConflict`): root conditions under the delegate's, the root's rewrite, headers,
//! timeout, retries, fault, mirrors, CORS and direct response where the delegate entry has
//! none, conflicting entries and hidden or non-delegate targets dropped.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::SourceObject;
use crate::model::istio::{HttpRoute, VirtualService};
use crate::semantics::istio::{Delegation, MergedEntry, delegation};
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
        let merged = match delegation(http, &obj.namespace, delegate, &ns) {
            Delegation::Merged(entries) => entries,
            // Istio's admission refuses such a delegate (validation.go
            // `ValidateVirtualService`, virtualservice.go `validateHTTPRoute`): it never
            // exists, and `mergeVirtualServices` drops the root entry naming it.
            Delegation::Refused(why) => {
                notes.push(
                    Diagnostic::new(
                        Code::IstioDelegateNested,
                        format!("delegate {ns}/{name} is refused by Istio's admission ({why}), so it never existed and this entry routed nothing; the entry is dropped"),
                    )
                    .at(format!("{path}.delegate")),
                );
                continue;
            }
            // `mergeVirtualServices` looks the name up among VirtualServices without hosts
            // only, and checks the delegate's `exportTo` against the root's namespace; either
            // way the entry is skipped and requests fall through to the next one.
            Delegation::HasHosts => {
                notes.push(Diagnostic::new(Code::IstioDelegateSkipped, format!("{ns}/{name} has hosts, so it is not a delegate: Istio skips this entry (requests go on to the next entries); the entry is dropped")).at(format!("{path}.delegate")));
                continue;
            }
            Delegation::NotExported => {
                notes.push(Diagnostic::new(Code::IstioDelegateSkipped, format!("delegate {ns}/{name} is not exported to namespace {} (its exportTo): Istio skips this entry (requests go on to the next entries); the entry is dropped", obj.namespace)).at(format!("{path}.delegate")));
                continue;
            }
        };
        let kept = merged
            .iter()
            .filter(|m| matches!(m, MergedEntry::Kept(_)))
            .count();
        notes.push(Diagnostic::new(Code::IstioDelegateFlattened, format!("delegate {ns}/{name} inlined: its {kept} rules replace this entry, each with the root's match conditions and the root's settings it leaves unset (Gateway API has no route delegation)")).at(format!("{path}.delegate")));
        for (j, entry) in merged.into_iter().enumerate() {
            let dpath = format!("{path}.delegate({ns}/{name}).http[{j}]");
            match entry {
                MergedEntry::Kept(mut merged) => {
                    qualify_short_hosts(&mut merged, &ns, &ctx.config.cluster_domain);
                    out.push((dpath, *merged));
                }
                // `mergeHTTPMatchRequests` / `hasConflict`: a delegate match that does not
                // fit under the root's drops the whole delegate entry.
                MergedEntry::Conflict => notes.push(Diagnostic::new(Code::IstioDelegateConflict, format!("entry {j} of delegate {ns}/{name} has a match that does not fit under this entry's matches (Istio's hasConflict: not a narrower path, a regex, another case sensitivity, header, port or method), so Istio drops it; not translated")).at(format!("{path}.delegate"))),
            }
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
