//! The new side of the check: how a Gateway API implementation routes a request, from the
//! generated Gateways and routes and those already in the repository. The rules are the
//! behaviour model's (`semantics::gateway_api`: listener isolation, attachment, hostname and
//! match precedence, filters, weights), checked there against the conformance suite; this
//! file only feeds it the objects and turns its answers into the check's outcomes.
//!
//! - RegularExpression precedence is implementation-specific: the `istio` target ranks it
//!   below every prefix, `envoy-gateway` above; the generic target evaluates both and reports
//!   a difference under either.

use std::collections::HashMap;

use serde_json::Value;

use super::matching::Matcher;
use super::probes::{Seeds, Shape};
use super::{Decision, Origin, Outcome, Probe};
use crate::config::{Config, Target};
use crate::index::Index;
use crate::model::SourceBody;
use crate::semantics::gateway_api::{Condition, PathKind, Profile, World};
use crate::semantics::{self, Request};
use crate::translated::SourceResult;

/// How an implementation orders matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Ranking {
    Istio,
    EnvoyGateway,
}

impl Ranking {
    fn label(self) -> &'static str {
        match self {
            Ranking::Istio => "Istio's ranking",
            Ranking::EnvoyGateway => "Envoy Gateway's ranking",
        }
    }

    fn profile(self) -> Profile {
        match self {
            Ranking::Istio => Profile::Istio,
            Ranking::EnvoyGateway => Profile::EnvoyGateway,
        }
    }
}

pub(crate) struct Model {
    world: World,
    /// `Kind namespace/name` of each route → the index object it was translated from (or
    /// is), for locating findings.
    objects: HashMap<String, usize>,
    rankings: Vec<Ranking>,
}

fn object_key(kind: &str, namespace: &str, name: &str) -> String {
    format!("{kind} {namespace}/{name}")
}

impl Model {
    pub(crate) fn build(index: &Index, results: &[SourceResult], config: &Config) -> Self {
        let mut objects_json: Vec<Value> = Vec::new();
        let mut objects: HashMap<String, usize> = HashMap::new();
        let with_namespace = |mut v: Value, ns: &str| {
            if v.pointer("/metadata/namespace").is_none()
                && let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut)
            {
                meta.insert("namespace".into(), Value::from(ns));
            }
            v
        };
        // Of repository objects sharing a kind, namespace and name (copies in unrelated
        // directories), the first is kept; generated objects replace them.
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        for (position, obj) in index.objects.iter().enumerate() {
            match &obj.body {
                SourceBody::GatewayApi(v) => {
                    if !seen.insert(object_key(&obj.kind, &obj.namespace, &obj.meta.name)) {
                        continue;
                    }
                    if matches!(obj.kind.as_str(), "HTTPRoute" | "GRPCRoute") {
                        objects
                            .entry(object_key(&obj.kind, &obj.namespace, &obj.meta.name))
                            .or_insert(position);
                    }
                    objects_json.push(with_namespace(v.clone(), &obj.namespace));
                }
                SourceBody::Namespace => objects_json.push(serde_json::json!({
                    "apiVersion": "v1",
                    "kind": "Namespace",
                    "metadata": {"name": obj.meta.name, "labels": obj.meta.labels},
                })),
                _ => {}
            }
        }
        // Generated objects come last: they replace repository objects of the same name.
        for r in results {
            for g in &r.generated {
                if matches!(g.kind(), "HTTPRoute" | "GRPCRoute") {
                    objects.insert(object_key(g.kind(), g.namespace(), g.name()), r.object);
                }
                objects_json.push(with_namespace(g.to_json(), g.namespace()));
            }
        }
        let rankings = match config.target {
            Target::Istio => vec![Ranking::Istio],
            Target::EnvoyGateway => vec![Ranking::EnvoyGateway],
            Target::Generic => vec![Ranking::EnvoyGateway, Ranking::Istio],
        };
        Model {
            world: World::new(&objects_json, &config.default_namespace, Profile::Generic),
            objects,
            rankings,
        }
    }

    pub(crate) fn seeds(&self, gateways: &[(String, String)], seeds: &mut Seeds) {
        let sample = |c: &Condition| match c {
            Condition::Exact(v) => Some(v.clone()),
            Condition::Regex(p) => Matcher::full_regex(p).sample(),
        };
        for l in self.world.decision_points(gateways) {
            seeds.listener(l.scheme, u32::from(l.port));
            seeds.host(&l.hostname);
            for (hosts, matches) in &l.routes {
                for host in hosts {
                    seeds.host(host);
                    for m in matches {
                        let path = match m.path_kind {
                            PathKind::Regex => Matcher::full_regex(&m.path)
                                .sample()
                                .unwrap_or_else(|| "/".into()),
                            _ => m.path.clone(),
                        };
                        let pairs = |list: &[(String, Condition)], fold: bool| {
                            list.iter()
                                .filter_map(|(k, c)| {
                                    let k = if fold {
                                        k.to_ascii_lowercase()
                                    } else {
                                        k.clone()
                                    };
                                    Some((k, sample(c)?))
                                })
                                .collect()
                        };
                        seeds.shape(
                            host,
                            Shape {
                                path,
                                method: m.method.clone(),
                                headers: pairs(&m.headers, true),
                                query: pairs(&m.query, false),
                            },
                        );
                    }
                }
            }
        }
    }

    /// The outcome under each ranking this target stands for (one, or two for `generic`
    /// when they disagree).
    pub(crate) fn evaluate(
        &self,
        gateways: &[(String, String)],
        probe: &Probe,
    ) -> Vec<(&'static str, Decision)> {
        let mut out: Vec<(&'static str, Decision)> = Vec::new();
        let Some(request) = request_of(probe) else {
            return vec![(
                self.rankings[0].label(),
                Decision::new(Outcome::NoListener, None),
            )];
        };
        for &ranking in &self.rankings {
            let b = self
                .world
                .behaviour_from(gateways, &request, ranking.profile(), probe.client);
            let d = self.decision(b, probe);
            if out
                .iter()
                .all(|(_, prev)| !super::same(&prev.outcome, &d.outcome))
            {
                out.push((ranking.label(), d));
            }
        }
        out
    }

    /// The first ranking's whole behaviour for `probe`, and the check's decision from it.
    pub(crate) fn trace(
        &self,
        gateways: &[(String, String)],
        probe: &Probe,
    ) -> Option<(semantics::Behaviour, Decision)> {
        let request = request_of(probe)?;
        let b =
            self.world
                .behaviour_from(gateways, &request, self.rankings[0].profile(), probe.client);
        let d = self.decision(b.clone(), probe);
        Some((b, d))
    }

    fn decision(&self, b: semantics::Behaviour, probe: &Probe) -> Decision {
        let origin = b
            .matched
            .as_ref()
            .and_then(|m| m.object.as_ref())
            .and_then(|o| self.objects.get(o))
            .map(|&object| Origin {
                object,
                field: String::new(),
            });
        // Access checks come from the implementation's policies the world holds (Envoy
        // Gateway SecurityPolicies, Istio AuthorizationPolicies), per the ranking's profile.
        let effects = super::effects::Effects::of(
            &b,
            &probe.headers,
            probe.scheme == super::Scheme::Https,
            super::effects::Reads {
                request_headers: true,
                response_headers: true,
                mirrors: true,
                timeouts: true,
                access: true,
            },
        );
        let outcome = super::outcome_from_model(b.outcome, &probe.host);
        let mut decision = Decision::new(outcome, origin);
        decision.effects = effects;
        decision
    }
}

/// The probe as the model's request; `None` for a port no listener can have.
fn request_of(probe: &Probe) -> Option<Request> {
    Some(Request {
        method: probe.method.clone(),
        scheme: probe.scheme,
        host: probe.host.clone(),
        port: u16::try_from(probe.port).ok()?,
        path: probe.path.clone(),
        query: probe.query.clone(),
        headers: probe.headers.clone(),
    })
}
