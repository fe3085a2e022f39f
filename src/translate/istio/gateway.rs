//! Istio `Gateway` → Gateway API `Gateway` (from the listener plan), plus the redirect
//! HTTPRoute for `httpsRedirect` servers.

use super::Ctx;
use super::listeners::GatewayPlan;
use super::not_ingress::NotIngress;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    self, FrontendTls, GatewayAddress, GatewaySpec, GatewayTls, Generated,
    HttpRequestRedirectFilter, HttpRouteFilter, HttpRouteRule, HttpRouteSpec, Metadata, Object,
    ParentReference, TlsConfig, TlsPortConfig,
};
use crate::model::SourceObject;
use crate::model::istio::Gateway;
use crate::translate::SourceResult;

/// Istio names the generated Deployment/Service `<gateway>-<class>`, which must fit 63 chars.
const MAX_GATEWAY_NAME: usize = 57;

pub(super) fn translate(
    ctx: &Ctx,
    position: usize,
    obj: &SourceObject,
    gateway: &Gateway,
) -> SourceResult {
    let mut result = SourceResult::new(position);
    let Some(plan) = ctx.plan(&obj.namespace, obj.name()) else {
        return result;
    };
    if let Some(why) = ctx.not_ingress(&obj.namespace, obj.name()) {
        let (code, what) = match why {
            NotIngress::Egress(_) => (
                Code::IstioEgressGateway,
                "an egress gateway: Gateway API's standard channel has no egress gateway, and a Gateway made from it would be a new internet-facing load balancer; not migrated, keep the Istio Gateway and the VirtualServices bound to it",
            ),
            NotIngress::Knative(_) => (Code::IstioKnativeGateway, "not migrated"),
        };
        result
            .notes
            .push(Diagnostic::new(code, format!("{what} ({})", why.reason())).at("spec.selector"));
        return result;
    }
    result.notes.extend(plan.notes.iter().cloned());
    result.grants.extend(plan.grants.iter().cloned());
    if !gateway.selector.is_empty() {
        let selector: Vec<String> = gateway
            .selector
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let message = if ctx.config.keep_load_balancer {
            format!(
                "selector {} is replaced by spec.addresses naming {} (Istio manual deployment keeps the existing load balancer)",
                selector.join(","),
                ctx.config.istio_ingress_service
            )
        } else {
            format!(
                "selector {} is not translated: the Gateway gets its own deployment and load balancer (new address); set keepLoadBalancer to reuse the existing one",
                selector.join(",")
            )
        };
        result
            .notes
            .push(Diagnostic::new(Code::IstioGatewaySelector, message).at("spec.selector"));
    }
    if !gateway.selector.is_empty() {
        // Compared by namespace/name: the same Gateway can be in the index more than once
        // (a build's copy beside the file's), and it is never its own sharer.
        let own = format!("{}/{}", obj.namespace, obj.name());
        let sharing: Vec<String> = ctx
            .index
            .istio_gateways()
            .filter(|(o, g)| {
                g.selector == gateway.selector && ctx.not_ingress(&o.namespace, o.name()).is_none()
            })
            .map(|(o, _)| format!("{}/{}", o.namespace, o.name()))
            .filter(|key| *key != own)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        if !sharing.is_empty() {
            result.notes.push(
                Diagnostic::new(
                    Code::IstioSharedSelector,
                    format!("Istio Gateways {} select the same workload; each becomes its own Gateway API Gateway with its own deployment and address (merge them, or keep the load balancer with keepLoadBalancer)", crate::diagnostic::list_some(&sharing, 5)),
                )
                .at("spec.selector"),
            );
        }
    }
    // The default istio-ingressgateway Service maps 80→8080 and 443→8443; Istio servers often
    // name the pod port, while a Gateway API listener port is the Service port clients use.
    if !ctx.config.keep_load_balancer {
        for l in plan
            .listeners
            .iter()
            .filter(|l| matches!(l.listener.port, 8080 | 8443))
        {
            result.notes.push(
                Diagnostic::new(
                    Code::IstioListenerPort,
                    format!("listener {} uses port {}: the default Istio ingress Service maps 80→8080 and 443→8443, and a Gateway API listener port is the port of the Service the Gateway gets; use {} if clients connect on that port", l.listener.name, l.listener.port, if l.listener.port == 8080 { 80 } else { 443 }),
                ),
            );
        }
    }
    if plan.listeners.is_empty() {
        result.notes.push(
            Diagnostic::new(
                Code::IstioGatewayNoListeners,
                "no server could be translated; no Gateway generated",
            )
            .at("spec.servers"),
        );
        return result;
    }
    if plan.name.len() > MAX_GATEWAY_NAME && !ctx.config.keep_load_balancer {
        result.notes.push(Diagnostic::new(
            Code::IstioGatewayNameLength,
            format!("Gateway name '{}' is longer than {MAX_GATEWAY_NAME} characters: the deployment Istio creates for it ('<name>-<class>') would exceed 63", plan.name),
        ));
    }
    let addresses = if ctx.config.keep_load_balancer {
        vec![GatewayAddress {
            type_: "Hostname".into(),
            value: ctx.config.istio_ingress_service.clone(),
        }]
    } else {
        Vec::new()
    };
    let mut metadata = Metadata::new(plan.name.clone(), obj.namespace.clone());
    if !ctx.config.keep_load_balancer
        && let Some(proxy) = ctx.proxy(&obj.namespace, obj.name())
    {
        internal_service_type(ctx, proxy, &mut metadata, &mut result.notes);
        service_settings(ctx, proxy, &mut result.notes);
    }
    mesh_defaults(ctx, &mut result.notes);
    let spec = GatewaySpec {
        gateway_class_name: ctx.config.gateway_class().to_string(),
        addresses,
        listeners: plan.listeners.iter().map(|l| l.listener.clone()).collect(),
        tls: (!plan.frontend.is_empty()).then(|| GatewayTls {
            frontend: Some(FrontendTls {
                // Required by the CRD; empty = no validation on other ports.
                default: Some(TlsConfig::default()),
                per_port: plan
                    .frontend
                    .iter()
                    .map(|(port, validation)| TlsPortConfig {
                        port: *port,
                        tls: TlsConfig {
                            validation: Some(validation.clone()),
                        },
                    })
                    .collect(),
            }),
        }),
    };
    result.generated.push(Generated::Gateway(Object::new(
        gwapi::V1,
        "Gateway",
        metadata,
        spec,
    )));
    super::policies::translate(ctx, obj, gateway, &plan.name, &mut result);
    if let Some(route) = redirect_route(plan) {
        result.notes.push(Diagnostic::new(
            Code::IstioHttpsRedirect,
            format!("httpsRedirect becomes HTTPRoute {} (301 to https) bound by sectionName to the plaintext listeners; VirtualService routes are bound to the other listeners so the redirect stays the only route there", route.metadata.name),
        ));
        result.generated.push(Generated::HttpRoute(route));
    }
    result
}

/// Istio's annotation on a Gateway API Gateway that sets the type of the Service it creates
/// (istio/istio pilot/pkg/config/kube/gatewaycommon/deploymentcontroller.go reads it from the
/// Gateway's metadata; istio/api annotation/annotations.yaml).
const ISTIO_SERVICE_TYPE_ANNOTATION: &str = "networking.istio.io/service-type";

/// An Istio gateway reached only inside the cluster (its Services in the repository are all
/// ClusterIP, e.g. `cluster-local-gateway`) must not become an internet-facing LoadBalancer,
/// which is what an implementation creates for a Gateway by default.
fn internal_service_type(
    ctx: &Ctx,
    proxy: &super::proxy::Proxy,
    metadata: &mut Metadata,
    notes: &mut Vec<Diagnostic>,
) {
    let types: std::collections::BTreeSet<String> = proxy
        .service_objects(ctx.index)
        .map(|(_, s)| {
            s.spec
                .as_ref()
                .and_then(|sp| sp.type_.clone())
                .unwrap_or_else(|| "ClusterIP".into())
        })
        .collect();
    let services: Vec<String> = proxy
        .service_objects(ctx.index)
        .map(|(o, _)| format!("{}/{}", o.namespace, o.name()))
        .collect();
    let [only] = types.iter().collect::<Vec<_>>()[..] else {
        return;
    };
    if only == "LoadBalancer" || only == "ExternalName" {
        return;
    }
    let listed = crate::diagnostic::list_some(&services, 3);
    if only == "NodePort" {
        // Reachable from outside through the nodes, on node ports the new Service does not
        // keep: whatever points at them (an external load balancer) must be re-pointed.
        let how = if ctx.config.target == crate::config::Target::Istio {
            metadata
                .annotations
                .insert(ISTIO_SERVICE_TYPE_ANNOTATION.into(), only.clone());
            format!("the Gateway gets annotation {ISTIO_SERVICE_TYPE_ANNOTATION}: NodePort")
        } else {
            "set the Service type to NodePort with the implementation's own configuration"
                .to_string()
        };
        notes.push(Diagnostic::new(Code::IstioInternalGatewayManual, format!("the gateway's Service {listed} is NodePort: {how}, but the new Service gets new node ports, so whatever sends traffic to the old ones (an external load balancer) must be re-pointed")).at("spec.selector"));
        return;
    }
    if ctx.config.target == crate::config::Target::Istio {
        metadata
            .annotations
            .insert(ISTIO_SERVICE_TYPE_ANNOTATION.into(), only.clone());
        notes.push(Diagnostic::new(Code::IstioInternalGateway, format!("the gateway's Service {listed} is {only}, reachable only inside the cluster: the Gateway gets annotation {ISTIO_SERVICE_TYPE_ANNOTATION}: {only}, so the Service Istio creates for it is {only} too, not an internet-facing LoadBalancer")).at("spec.selector"));
    } else {
        notes.push(Diagnostic::new(Code::IstioInternalGatewayManual, format!("the gateway's Service {listed} is {only}, reachable only inside the cluster, but the Gateway's implementation creates a LoadBalancer Service by default: set the Service type to {only} with its own configuration (Envoy Gateway: an EnvoyProxy with provider.kubernetes.envoyService.type, referenced from the GatewayClass or spec.infrastructure.parametersRef) before applying")).at("spec.selector"));
    }
}

/// Settings of the old gateway's Service that the Service created for a Gateway does not
/// have: `loadBalancerSourceRanges` (only those clients reached the gateway) and
/// `externalTrafficPolicy: Local` (the gateway saw the client's own address, which source-IP
/// checks and `X-Forwarded-For` rely on). Istio's automated deployment takes such settings
/// from a ConfigMap the Gateway names in `spec.infrastructure.parametersRef`, whose `service`
/// key is a strategic-merge patch of the Service it creates
/// (`pilot/pkg/config/kube/gatewaycommon/deploymentcontroller.go` `fetchParameters`,
/// `applyOverlay`); Envoy Gateway from an EnvoyProxy's `envoyService`.
fn service_settings(ctx: &Ctx, proxy: &super::proxy::Proxy, notes: &mut Vec<Diagnostic>) {
    let how = |field: &str| match ctx.config.target {
        crate::config::Target::Istio => format!(
            "give the Gateway spec.infrastructure.parametersRef naming a ConfigMap whose `service` key patches the Service Istio creates with spec.{field}, or set keepLoadBalancer to keep the old Service"
        ),
        crate::config::Target::EnvoyGateway => format!(
            "set spec.{field} through an EnvoyProxy's provider.kubernetes.envoyService (patch), referenced from the GatewayClass or spec.infrastructure.parametersRef, or set keepLoadBalancer"
        ),
        crate::config::Target::Generic => format!(
            "set spec.{field} on the Service the implementation creates, or set keepLoadBalancer"
        ),
    };
    for (obj, service) in proxy.service_objects(ctx.index) {
        let Some(spec) = service.spec.as_ref() else {
            continue;
        };
        let name = format!("{}/{}", obj.namespace, obj.name());
        if let Some(ranges) = spec
            .load_balancer_source_ranges
            .as_ref()
            .filter(|r| !r.is_empty())
        {
            notes.push(
                Diagnostic::new(
                    Code::IstioGatewaySourceRanges,
                    format!(
                        "the gateway's Service {name} admits only clients in {} (loadBalancerSourceRanges), but the Service created for the Gateway admits every client: {}",
                        ranges.join(", "),
                        how("loadBalancerSourceRanges")
                    ),
                )
                .at("spec.selector"),
            );
        }
        if spec.external_traffic_policy.as_deref() == Some("Local") {
            notes.push(
                Diagnostic::new(
                    Code::IstioGatewayTrafficPolicy,
                    format!(
                        "the gateway's Service {name} has externalTrafficPolicy: Local, so the gateway saw each client's own address (source-IP checks, X-Forwarded-For); the Service created for the Gateway defaults to Cluster, where clients appear as node addresses: {}",
                        how("externalTrafficPolicy")
                    ),
                )
                .at("spec.selector"),
            );
        }
    }
}

/// Mesh-wide settings Istio applied to every route of the gateway, which another target does
/// not apply to the HTTPRoutes: the default retries and the path normalization. On the `istio`
/// target both apply to HTTPRoutes as to VirtualServices, so nothing is said.
fn mesh_defaults(ctx: &Ctx, notes: &mut Vec<Diagnostic>) {
    use crate::config::Target;
    if ctx.config.target == Target::Istio {
        return;
    }
    let default_mesh = crate::controllers::IstioMesh {
        source: crate::controllers::ConfigSource::Assumed,
        mesh: serde_json::Value::Null,
    };
    let mesh = ctx.index.istio_mesh().unwrap_or(&default_mesh);
    let from = match &mesh.source {
        crate::controllers::ConfigSource::Assumed => {
            "Istio's default (no mesh configuration in the repository)".to_string()
        }
        other => format!("meshConfig from {}", other.describe()),
    };
    let target = match ctx.config.target {
        Target::EnvoyGateway => "Envoy Gateway",
        _ => "the target implementation",
    };
    // Envoy Gateway gets the default retries in each VirtualService's BackendTrafficPolicy
    // (`translate::keep_istio_backends`).
    if let Some((attempts, on)) = mesh
        .default_retries()
        .filter(|_| ctx.config.target != Target::EnvoyGateway)
    {
        notes.push(Diagnostic::new(
            Code::IstioMeshDefaultRetries,
            format!(
                "Istio retried every route that sets no retries {attempts} times on {on} ({from}); {target} retries only where a policy says so (Envoy Gateway: a BackendTrafficPolicy retry), so failed connections to a backend now fail the request"
            ),
        ));
    }
    let normalization = mesh.path_normalization();
    let (istio_does, target_does) = match ctx.config.target {
        Target::EnvoyGateway => (
            match normalization.as_str() {
                "NONE" => "left paths as sent",
                "MERGE_SLASHES" => "normalized paths and merged slashes, keeping %2F",
                "DECODE_AND_MERGE_SLASHES" => "normalized paths, merged slashes and decoded %2F",
                _ => "normalized paths (RFC 3986) without merging slashes, keeping %2F",
            },
            "merges slashes and answers a path with %2F or %5C with a redirect to its decoded form (ClientTrafficPolicy path settings change that)",
        ),
        _ => (
            "normalized paths as pathNormalization says",
            "normalizes paths its own way",
        ),
    };
    notes.push(Diagnostic::new(
        Code::IstioMeshPathNormalization,
        format!(
            "Istio {istio_does} (pathNormalization {normalization}, {from}); {target} {target_does}: requests with //, %2F or dot segments may match other routes than before"
        ),
    ));
}

fn redirect_route(plan: &GatewayPlan) -> Option<Object<HttpRouteSpec>> {
    let parent_refs: Vec<ParentReference> = plan
        .listeners
        .iter()
        .filter(|l| l.https_redirect)
        .map(|l| ParentReference {
            name: plan.name.clone(),
            section_name: Some(l.listener.name.clone()),
            ..Default::default()
        })
        .collect();
    if parent_refs.is_empty() {
        return None;
    }
    let spec = HttpRouteSpec {
        parent_refs,
        hostnames: Vec::new(),
        rules: vec![HttpRouteRule {
            filters: vec![HttpRouteFilter::request_redirect(
                HttpRequestRedirectFilter {
                    scheme: Some("https".into()),
                    status_code: Some(301),
                    ..Default::default()
                },
            )],
            ..Default::default()
        }],
    };
    Some(Object::new(
        gwapi::V1,
        "HTTPRoute",
        Metadata::new(
            super::names::sanitize(
                &format!("{}-https-redirect", plan.name),
                super::names::MAX_NAME,
            ),
            plan.namespace.clone(),
        ),
        spec,
    ))
}
