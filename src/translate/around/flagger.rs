//! Flagger `Canary` with the Istio provider: Flagger writes the VirtualService at runtime
//! (fluxcd/flagger pkg/router/istio.go, `reconcileVirtualService`: named after
//! `spec.service.name`, else `spec.targetRef.name`, bound to `spec.service.gateways`), so the
//! repository has nothing to translate for it, and a migrated Gateway gets no route for the
//! canary's host. Flagger's Gateway API provider takes `spec.service.gatewayRefs`
//! (pkg/apis/flagger/v1beta1/canary.go; pkg/router/gateway_api.go).

use super::Placed;
use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::model::surrounding::Surrounding;

pub(super) fn notes(index: &Index, out: &mut Vec<Placed>) {
    for (position, obj, surrounding) in index.surroundings() {
        let Surrounding::FlaggerCanary {
            target,
            gateways,
            has_gateway_refs: false,
        } = surrounding
        else {
            continue;
        };
        let gateway_list: Vec<String> = gateways
            .iter()
            .filter(|g| g.as_str() != "mesh")
            .cloned()
            .collect();
        if gateway_list.is_empty() {
            continue;
        }
        let apex = if target.is_empty() {
            "the Canary's target".to_string()
        } else {
            format!("{}/{target}", obj.namespace)
        };
        out.push(Placed::Object(
            position,
            Diagnostic::new(
                Code::IstioFlaggerCanary,
                format!(
                    "Flagger writes the VirtualService for {apex} at runtime, bound to {}; it is not in the repository, so no HTTPRoute is generated for it and a migrated Gateway gets no route for this canary: move the Canary to Flagger's Gateway API provider (spec.provider: gatewayapi:v1, spec.service.gatewayRefs naming the new Gateway) in the same change",
                    crate::diagnostic::list_some(&gateway_list, 3)
                ),
            )
            .at("spec.service.gateways"),
        ));
    }
}
