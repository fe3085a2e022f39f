//! The predicted status of BackendTLSPolicies, and what an invalid one does to the routes
//! that use its Service, following Envoy Gateway (`internal/gatewayapi/backendtlspolicy.go`):
//! - a backendRef uses the first policy (oldest, then by namespace/name) in the backend's
//!   namespace whose targetRef names the Service and the port's name, else the first whose
//!   targetRef names the Service without a section (`getBackendTLSPolicy`);
//! - the CA comes from `wellKnownCACertificates: System`, or from the `caCertificateRefs`
//!   (ConfigMap or Secret: key `ca.crt`, else `tls.crt`, else their only key); other kinds
//!   are skipped; a missing object or key is an error (`getCaCertsFromCARefs`);
//! - every route parentRef whose route uses the policy is an ancestor; on error each gets
//!   `Accepted=False NoValidCACertificate` and `ResolvedRefs=False InvalidCACertificateRef`
//!   (`InvalidKind` when no supported kind was named), and the route's `ResolvedRefs` is
//!   `False InvalidBackendTLS`;
//! - a later policy with the same targetRef as an earlier one is `Accepted=False Conflicted`
//!   (`ProcessBackendTLSPolicyStatus`).

use serde_json::Value;

use crate::model::SourceBody;
use crate::model::surrounding::Surrounding;

use super::super::status::{PolicyAncestorStatus, PolicyStatus, PredictedCondition};
use super::{Status, World, items, namespace_of, str_of};

/// What is wrong with a policy's CA: `(reason, message)`; `InvalidKind` when no supported
/// kind was named.
pub(crate) type CaProblem = (&'static str, String);

fn timestamp_and_name(v: &Value) -> (String, String, String) {
    let meta = |k: &str| {
        v.pointer(&format!("/metadata/{k}"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    (meta("creationTimestamp"), meta("namespace"), meta("name"))
}

impl World<'_> {
    /// The BackendTLSPolicies of the world, oldest first.
    fn policies(&self) -> Vec<&Value> {
        let mut out: Vec<&Value> = self.backend_tls_policies.iter().collect();
        out.sort_by_key(|p| timestamp_and_name(p));
        out
    }

    /// The policy a backendRef to Service `ns/name` on port `port` uses.
    pub(crate) fn backend_tls_policy(
        &self,
        ns: &str,
        name: &str,
        port: Option<i64>,
    ) -> Option<&Value> {
        let port_name = self
            .index
            .service(ns, name)
            .and_then(|svc| {
                port.and_then(|p| i32::try_from(p).ok())
                    .and_then(|p| crate::model::k8s::find_port(svc, p))
            })
            .and_then(|p| p.name.clone())
            .filter(|n| !n.is_empty());
        let policies = self.policies();
        let targets = |p: &Value, section: Option<&str>| {
            namespace_of(p, &self.config.default_namespace) == ns
                && items(p, "/spec/targetRefs").any(|t| {
                    str_of(t, "group").unwrap_or("").is_empty()
                        && str_of(t, "kind") == Some("Service")
                        && str_of(t, "name") == Some(name)
                        && str_of(t, "sectionName") == section
                })
        };
        if let Some(p) = port_name
            .as_deref()
            .and_then(|section| policies.iter().find(|p| targets(p, Some(section))))
        {
            return Some(p);
        }
        policies.into_iter().find(|p| targets(p, None))
    }

    /// Whether the policy's CA resolves.
    pub(crate) fn ca_problem(&self, policy: &Value) -> Option<CaProblem> {
        let ns = namespace_of(policy, &self.config.default_namespace);
        let validation = policy.pointer("/spec/validation").unwrap_or(&Value::Null);
        if str_of(validation, "wellKnownCACertificates") == Some("System") {
            return None;
        }
        let refs: Vec<&Value> = validation
            .get("caCertificateRefs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .collect();
        // A policy's references are read in its own namespace, with no ReferenceGrant.
        self.ca_refs_problem(&refs, &ns, None)
    }

    /// Whether CA references (`caCertificateRefs` of a BackendTLSPolicy or of a Gateway's
    /// frontend validation) resolve, as `getCaCertsFromCARefs` reads them: by kind
    /// (ConfigMap, Secret; ClusterTrustBundles are cluster objects and not judged), key
    /// `ca.crt`, else `tls.crt`, else the only key. `grant_from` is the referring Gateway's
    /// namespace when references may cross namespaces with a ReferenceGrant. An object
    /// missing from a namespace the repository does not know is not judged.
    pub(crate) fn ca_refs_problem(
        &self,
        refs: &[&Value],
        own_ns: &str,
        grant_from: Option<&str>,
    ) -> Option<CaProblem> {
        let mut supported = false;
        for r in refs {
            let kind = str_of(r, "kind").unwrap_or_default();
            let name = str_of(r, "name").unwrap_or_default();
            let ns = match grant_from {
                Some(_) => str_of(r, "namespace").unwrap_or(own_ns),
                None => own_ns,
            };
            if !matches!(kind, "ConfigMap" | "Secret" | "ClusterTrustBundle") {
                continue;
            }
            supported = true;
            let refused = grant_from
                .filter(|from| *from != ns)
                .is_some_and(|from_ns| {
                    !self.granted_from(ns, "Gateway", from_ns, "", kind, name)
                        && (self.namespace_known(ns) || self.config.strict)
                });
            if refused {
                return Some((
                    "RefNotPermitted",
                    format!(
                        "no ReferenceGrant in namespace {ns} lets Gateways of {} use {kind} {name}",
                        grant_from.unwrap_or_default()
                    ),
                ));
            }
            let keys: Option<Vec<String>> = match kind {
                "ConfigMap" => self.config_map_keys(ns, name),
                "Secret" => self.index.secret(ns, name).map(|s| s.keys.clone()),
                _ => continue,
            };
            let Some(keys) = keys else {
                if self.namespace_known(ns) || self.config.strict {
                    return Some((
                        "InvalidCACertificateRef",
                        format!("{kind} {ns}/{name} does not exist"),
                    ));
                }
                continue;
            };
            // A Secret without data in Git is filled in the cluster.
            let usable = keys.is_empty()
                || keys.iter().any(|k| k == "ca.crt" || k == "tls.crt")
                || keys.len() == 1;
            if !usable {
                return Some((
                    "InvalidCACertificateRef",
                    format!("{kind} {ns}/{name} holds no CA (no ca.crt key)"),
                ));
            }
        }
        if !supported {
            return Some((
                "InvalidKind",
                "no CA reference is a ConfigMap, Secret or ClusterTrustBundle".to_string(),
            ));
        }
        None
    }

    /// The keys with a non-empty value of ConfigMap `ns/name`, when the repository holds it.
    fn config_map_keys(&self, ns: &str, name: &str) -> Option<Vec<String>> {
        self.index.objects.iter().find_map(|o| match &o.body {
            SourceBody::Surrounding(Surrounding::ConfigMap { data })
                if o.namespace == ns && o.meta.name == name =>
            {
                Some(
                    data.iter()
                        .filter(|(_, v)| !v.is_empty())
                        .map(|(k, _)| k.clone())
                        .collect(),
                )
            }
            _ => None,
        })
    }

    /// The conditions of `policy` on each Gateway a route using it is attached to.
    pub(crate) fn policy_status(&self, policy: &Value, routes: &[&Value]) -> PolicyStatus {
        let ns = namespace_of(policy, &self.config.default_namespace);
        let name = policy
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        // A later policy with an earlier one's targetRef loses to it and shows its ancestors.
        let key = |p: &Value| -> Vec<String> {
            items(p, "/spec/targetRefs")
                .map(|t| {
                    format!(
                        "{}/{}/{}/{}",
                        str_of(t, "group").unwrap_or(""),
                        str_of(t, "kind").unwrap_or(""),
                        str_of(t, "name").unwrap_or(""),
                        str_of(t, "sectionName").unwrap_or("")
                    )
                })
                .collect()
        };
        let mine = key(policy);
        let winner = self.policies().into_iter().find(|p| {
            namespace_of(p, &self.config.default_namespace) == ns
                && key(p).iter().any(|k| mine.contains(k))
        });
        let lost_to = winner.filter(|w| timestamp_and_name(w) != timestamp_and_name(policy));
        let effective = lost_to.unwrap_or(policy);
        let ancestors = self.policy_ancestors(effective, routes);
        let problem = self.ca_problem(effective);
        let ancestors = ancestors
            .into_iter()
            .map(|ancestor_ref| {
                let mut conditions = match &problem {
                    Some((reason, message)) => vec![
                        PredictedCondition::new("Accepted", Status::False, "NoValidCACertificate", message.clone()),
                        PredictedCondition::new("ResolvedRefs", Status::False, reason, message.clone()),
                    ],
                    None => vec![
                        PredictedCondition::ok("Accepted", "policy accepted"),
                        PredictedCondition::ok("ResolvedRefs", "references resolved"),
                    ],
                };
                if let Some(w) = lost_to {
                    // The loser shows only the conflict, on the winner's ancestors.
                    let (_, wns, wname) = timestamp_and_name(w);
                    conditions = vec![PredictedCondition::new("Accepted", Status::False, "Conflicted", format!("conflicts with BackendTLSPolicy {wns}/{wname}, which targets the same Service"))];
                }
                PolicyAncestorStatus { ancestor_ref, conditions }
            })
            .collect();
        PolicyStatus {
            namespace: ns,
            name,
            ancestors,
        }
    }

    /// The parentRefs of the routes whose backendRefs use `policy`, once each.
    fn policy_ancestors(&self, policy: &Value, routes: &[&Value]) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        for route in routes {
            let route_kind = str_of(route, "kind").unwrap_or_default();
            let route_ns = namespace_of(route, &self.config.default_namespace);
            let uses = items(route, "/spec/rules")
                .flat_map(|r| {
                    r.get("backendRefs")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                })
                .filter(|b| b.get("weight").and_then(Value::as_i64) != Some(0))
                // A backend the earlier checks refuse never reaches the policy lookup.
                .filter(|b| {
                    self.backend_condition(route_kind, &route_ns, b)
                        .is_none_or(|c| c.reason == "InvalidBackendTLS")
                })
                .any(|b| {
                    let (group, kind) = (
                        str_of(b, "group").unwrap_or(""),
                        str_of(b, "kind").unwrap_or("Service"),
                    );
                    let bns = str_of(b, "namespace").unwrap_or(&route_ns);
                    group.is_empty()
                        && kind == "Service"
                        && self
                            .backend_tls_policy(
                                bns,
                                str_of(b, "name").unwrap_or_default(),
                                b.get("port").and_then(Value::as_i64),
                            )
                            .is_some_and(|p| timestamp_and_name(p) == timestamp_and_name(policy))
                });
            if !uses {
                continue;
            }
            for p in items(route, "/spec/parentRefs") {
                let gns = str_of(p, "namespace").unwrap_or(&route_ns).to_string();
                let gname = str_of(p, "name").unwrap_or_default().to_string();
                let is_gateway = str_of(p, "kind").unwrap_or("Gateway") == "Gateway";
                if !is_gateway || !self.gateways.contains_key(&(gns.clone(), gname)) {
                    continue;
                }
                let mut ancestor = p.clone();
                if let Some(m) = ancestor.as_object_mut() {
                    m.insert("namespace".to_string(), Value::String(gns));
                }
                if !out.contains(&ancestor) {
                    out.push(ancestor);
                }
            }
        }
        out
    }
}

impl World<'_> {
    /// Notes about a BackendTLSPolicy that would not be accepted, with the reason.
    pub(crate) fn policy_findings(
        &self,
        policy: &Value,
        routes: &[&Value],
    ) -> Vec<(crate::diagnostic::Diagnostic, String)> {
        let status = self.policy_status(policy, routes);
        let mut failed: Vec<(String, &PredictedCondition)> = Vec::new();
        for a in &status.ancestors {
            if let Some(c) = a
                .conditions
                .iter()
                .find(|c| c.type_ == "Accepted" && c.status == Status::False)
            {
                let gateway = format!(
                    "{}/{}",
                    str_of(&a.ancestor_ref, "namespace").unwrap_or_default(),
                    str_of(&a.ancestor_ref, "name").unwrap_or_default()
                );
                failed.push((gateway, c));
            }
        }
        let Some((_, c)) = failed.first() else {
            return Vec::new();
        };
        let mut gateways: Vec<&str> = failed.iter().map(|(g, _)| g.as_str()).collect();
        gateways.dedup();
        let field = if c.reason == "Conflicted" {
            "spec.targetRefs"
        } else {
            "spec.validation"
        };
        vec![(
            crate::diagnostic::Diagnostic::new(
                crate::diagnostic::Code::AttachBackendTlsPolicyInvalid,
                format!(
                    "BackendTLSPolicy {}/{} would be Accepted=False ({}) on Gateway {}: {}",
                    status.namespace,
                    status.name,
                    c.reason,
                    gateways.join(", "),
                    c.message
                ),
            )
            .at(field),
            c.reason.clone(),
        )]
    }
}
