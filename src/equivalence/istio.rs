//! The old side for Istio: how Istio's gateway proxy treats a request. The rules are the
//! behaviour model's (`semantics::istio`: servers per selector, binding, delegates, order,
//! matches, actions), checked there against Istio's own tests; this file feeds it the
//! repository's objects, picks the entry points that were migrated and turns its answers
//! into the check's outcomes.

use std::collections::BTreeSet;

use super::effects::{Effects, Reads};
use super::probes::{Seeds, Shape};
use super::{Decision, Frontend, OldFrontend, Origin, Outcome, Probe};
use crate::config::Config;
use crate::gwapi::Generated;
use crate::index::Index;
use crate::semantics::Request;
use crate::semantics::istio::{Mesh, World};
use crate::translated::SourceResult;

pub(crate) struct Model {
    world: World,
}

impl Model {
    pub(crate) fn build(index: &Index, config: &Config) -> Self {
        let mesh = Mesh {
            cluster_domain: config.cluster_domain.clone(),
            gateway_namespace: config.istio_gateway_namespace.clone(),
        };
        Model {
            world: World::new(&index.objects, &mesh),
        }
    }

    /// One entry point per gateway proxy (Istio Gateways with the same selector share one)
    /// whose Gateways were translated to Gateway API Gateways.
    pub(crate) fn frontends(&self, results: &[SourceResult]) -> Vec<Frontend> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for i in 0..self.world.gateway_count() {
            let proxy = self.world.proxy(i);
            if !seen.insert(proxy.clone()) {
                continue;
            }
            let mut gateways: Vec<(String, String)> = Vec::new();
            for &g in &proxy {
                let Some(object) = self.world.gateway_object(g) else {
                    continue;
                };
                for r in results.iter().filter(|r| r.object == object) {
                    gateways.extend(
                        r.generated
                            .iter()
                            .filter(|o| matches!(o, Generated::Gateway(_)))
                            .map(|o| (o.namespace().to_string(), o.name().to_string())),
                    );
                }
            }
            let serves = proxy.iter().any(|&g| self.world.serves_http(g));
            if let Some(anchor) = self.world.gateway_object(i)
                && !gateways.is_empty()
                && serves
            {
                out.push(Frontend {
                    old_name: "Istio",
                    old: OldFrontend::Istio(i),
                    gateways,
                    anchor,
                });
            }
        }
        out
    }

    pub(crate) fn seeds(&self, gateway: usize, seeds: &mut Seeds) {
        for (scheme, port) in self.world.listeners(gateway) {
            seeds.listener(scheme, port);
        }
        for point in self.world.decision_points(gateway) {
            seeds.host(&point.host);
            // `Seeds::shape` keeps a shape without conditions as a plain path.
            seeds.shape(
                &point.host,
                Shape {
                    path: point.path,
                    method: point.method,
                    headers: point.headers,
                    query: point.query,
                },
            );
        }
    }

    pub(crate) fn evaluate(&self, gateway: usize, probe: &Probe) -> Decision {
        let Ok(port) = u16::try_from(probe.port) else {
            return Decision::new(Outcome::NoListener, None);
        };
        let request = Request {
            method: probe.method.clone(),
            scheme: probe.scheme,
            host: probe.host.clone(),
            port,
            path: probe.path.clone(),
            query: probe.query.clone(),
            headers: probe.headers.clone(),
        };
        let answer = self.world.answer(gateway, &request);
        let effects = Effects::of(
            &answer.behaviour,
            &request.headers,
            request.scheme == crate::semantics::Scheme::Https,
            Reads {
                request_headers: true,
                response_headers: true,
                mirrors: true,
                timeouts: true,
                access: false,
            },
        );
        let outcome = super::outcome_from_model(answer.behaviour.outcome, &probe.host);
        let mut decision = Decision::new(
            outcome,
            answer
                .origin
                .map(|(object, field)| Origin { object, field }),
        );
        decision.string_prefix = answer.string_prefix;
        decision.also = answer.also;
        decision.order_unknown = answer.order_unknown;
        decision.effects = effects;
        decision
    }
}
