//! Argo Rollouts with `trafficRouting.istio`: the controller rewrites the weights of the
//! named VirtualServices at runtime (argoproj/argo-rollouts
//! pkg/apis/rollouts/v1alpha1/types.go `IstioTrafficRouting`; docs/features/traffic-management
//! /istio.md). The HTTPRoutes generated from those VirtualServices keep the weights written in
//! the file and nothing updates them; the Gateway API plugin
//! (argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi, plugin name
//! `argoproj-labs/gatewayAPI`) does that for HTTPRoutes.

use super::Placed;
use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::model::SourceBody;
use crate::model::surrounding::Surrounding;
use crate::translate::SourceResult;

pub(super) fn notes(index: &Index, results: &[SourceResult], out: &mut Vec<Placed>) {
    for (position, obj, surrounding) in index.surroundings() {
        let Surrounding::RolloutIstio {
            virtual_services,
            has_gateway_api_plugin: false,
        } = surrounding
        else {
            continue;
        };
        // The HTTPRoutes made from the VirtualServices the Rollout drives (a name may be
        // `vs` or `vs.namespace`).
        let mut routes = Vec::new();
        for name in virtual_services {
            // Argo splits `name.namespace` at the last dot
            // (utils/istio/istio.go, `GetVirtualServiceNamespaceName`).
            let (vs_name, vs_ns) = match name.rsplit_once('.') {
                Some((n, ns)) => (n, ns),
                None => (name.as_str(), obj.namespace.as_str()),
            };
            for r in results {
                let Some(src) = index.objects.get(r.object) else {
                    continue;
                };
                if !matches!(src.body, SourceBody::VirtualService(_))
                    || src.name() != vs_name
                    || src.namespace != vs_ns
                {
                    continue;
                }
                routes.extend(
                    r.generated
                        .iter()
                        .filter(|g| g.kind() == "HTTPRoute")
                        .map(|g| format!("{}/{}", g.namespace(), g.name())),
                );
            }
        }
        let generated = if routes.is_empty() {
            String::new()
        } else {
            format!(
                " (generated from them: HTTPRoute {})",
                crate::diagnostic::list_some(&routes, 3)
            )
        };
        out.push(Placed::Object(
            position,
            Diagnostic::new(
                Code::IstioRolloutTrafficRouting,
                format!(
                    "Argo Rollouts shifts canary weights in VirtualService {} at runtime; the HTTPRoutes that replace them{generated} keep the weights written in the file and nothing updates them: switch trafficRouting to the Gateway API plugin (plugins: argoproj-labs/gatewayAPI, with the HTTPRoute's name) in the same change",
                    crate::diagnostic::list_some(virtual_services, 3)
                ),
            )
            .at("spec.strategy.canary.trafficRouting.istio"),
        ));
    }
}
