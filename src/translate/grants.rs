//! ReferenceGrants: one per (target namespace, source namespace) pair, merged from every
//! request, written next to the first object it permits that the repository holds (the
//! Service or Secret: whatever deploys it deploys its grant, and the grant is of no use
//! without it), else with the first source object (in file order) that asked for it.
//!
//! Gateway API needs a grant for cross-namespace backendRefs and certificateRefs only; route →
//! Gateway attachment is governed by the listener's `allowedRoutes`, never by a grant.

use std::collections::{BTreeMap, BTreeSet};

use super::{GrantRequest, SourceResult};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    self, Generated, Metadata, Object, ReferenceGrantFrom, ReferenceGrantSpec, ReferenceGrantTo,
};
use crate::index::Index;

/// Builds the ReferenceGrants the results asked for and adds each to the first result that
/// needed it. Requests already satisfied by a ReferenceGrant in the repository are dropped.
pub(crate) fn attach_reference_grants(index: &Index, results: &mut [SourceResult]) {
    // (to_ns, from_ns) → (first result position, froms, tos)
    type Pair = (String, String);
    let mut pairs: BTreeMap<
        Pair,
        (
            usize,
            BTreeSet<ReferenceGrantFrom>,
            BTreeSet<ReferenceGrantTo>,
        ),
    > = BTreeMap::new();
    for (pos, result) in results.iter().enumerate() {
        let generated: Vec<(&Generated, serde_json::Value)> =
            result.generated.iter().map(|g| (g, g.to_json())).collect();
        for req in &result.grants {
            if req.from_namespace == req.to_namespace || existing_grant_allows(index, req) {
                continue;
            }
            // A request whose object was not generated after all (its route had nothing to
            // attach to, its Gateway is not migrated) would leave an orphan grant.
            let used = generated.iter().any(|(g, json)| {
                g.kind() == req.from_kind
                    && g.namespace() == req.from_namespace
                    && refers_to(json, req)
            });
            if !used {
                continue;
            }
            let entry = pairs
                .entry((req.to_namespace.clone(), req.from_namespace.clone()))
                .or_insert_with(|| (pos, BTreeSet::new(), BTreeSet::new()));
            entry.1.insert(ReferenceGrantFrom {
                group: req.from_group().into(),
                kind: req.from_kind.clone(),
                namespace: req.from_namespace.clone(),
            });
            entry.2.insert(ReferenceGrantTo {
                group: req.to_group.clone(),
                kind: req.to_kind.clone(),
                name: Some(req.to_name.clone()),
            });
        }
    }
    for ((to_ns, from_ns), (pos, from, to)) in pairs {
        let name = format!("gateway-migrate-from-{from_ns}");
        let home = to
            .iter()
            .filter(|t| t.group.is_empty())
            .find_map(|t| index.position_of(&t.kind, &to_ns, t.name.as_deref()?));
        let grant = Object::new(
            gwapi::V1BETA1,
            "ReferenceGrant",
            Metadata::new(name.clone(), to_ns.clone()),
            ReferenceGrantSpec {
                from: from.into_iter().collect(),
                to: to.into_iter().collect(),
            },
        );
        let result = &mut results[pos];
        result.notes.push(Diagnostic::new(
            Code::GatewayApiReferenceGrant,
            format!(
                "ReferenceGrant {to_ns}/{name} lets objects in namespace {from_ns} refer to objects in {to_ns}; Gateway API requires it for cross-namespace backendRefs and certificateRefs{}",
                match home.and_then(|h| index.objects.get(h)) {
                    Some(o) => format!(
                        "; written next to {} {to_ns}/{} ({}), which it permits",
                        o.kind, o.meta.name, o.source.file
                    ),
                    None => String::new(),
                }
            ),
        ));
        let grant = Generated::ReferenceGrant(grant);
        match home {
            Some(h) => result.elsewhere.push((h, grant)),
            None => result.generated.push(grant),
        }
    }
}

/// Whether some reference in `value` (a backendRef, certificateRef, mirror backendRef, ...)
/// names the object `req` asks a grant for. References name `namespace` and `name`; `kind`
/// defaults to Service for backends and Secret for certificates.
fn refers_to(value: &serde_json::Value, req: &GrantRequest) -> bool {
    match value {
        serde_json::Value::Object(map) => {
            let text = |k: &str| map.get(k).and_then(serde_json::Value::as_str);
            let here = text("namespace") == Some(req.to_namespace.as_str())
                && text("name") == Some(req.to_name.as_str())
                && text("kind").is_none_or(|k| k == req.to_kind);
            here || map.values().any(|v| refers_to(v, req))
        }
        serde_json::Value::Array(items) => items.iter().any(|v| refers_to(v, req)),
        _ => false,
    }
}

/// Whether a ReferenceGrant already in the repository permits `req`.
fn existing_grant_allows(index: &Index, req: &GrantRequest) -> bool {
    index.gateway_api("ReferenceGrant").any(|(obj, doc)| {
        if obj.namespace != req.to_namespace {
            return false;
        }
        let spec = &doc["spec"];
        let from_ok = spec["from"].as_array().is_some_and(|froms| {
            froms.iter().any(|f| {
                f["group"].as_str() == Some(req.from_group())
                    && f["kind"].as_str() == Some(req.from_kind.as_str())
                    && f["namespace"].as_str() == Some(req.from_namespace.as_str())
            })
        });
        let to_ok = spec["to"].as_array().is_some_and(|tos| {
            tos.iter().any(|t| {
                t["group"].as_str().unwrap_or("") == req.to_group
                    && t["kind"].as_str() == Some(req.to_kind.as_str())
                    && t["name"].as_str().is_none_or(|n| n == req.to_name)
            })
        });
        from_ok && to_ok
    })
}
