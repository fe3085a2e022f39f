//! Which IngressClass an Ingress belongs to, which controller served that class (its
//! dialect: which annotations meant something) and which GatewayClass will serve it.
//!
//! The dialect comes from configuration (`ingressClasses.<class>.dialect`), else from the
//! IngressClass's `spec.controller` in the repository (for an Ingress without a class: the
//! IngressClass marked default), else from `ingressClasses."*"`, else from the class name
//! (`nginx` → ingress-nginx), with a warning. Never from the annotations an Ingress happens to
//! carry (a stray ingress-nginx annotation on a Kong Ingress had no effect), with one
//! exception: an Ingress with no class at all, which nothing else decides, that carries GKE's
//! own annotations was written for GKE, whose built-in controller serves class-less Ingresses.

use crate::config::{ANY_INGRESS_CLASS, Config, Dialect, IngressMode};
use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::model::ingress::{self, Ingress};

/// How a choice about a class was made, for the warning that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Evidence {
    /// `ingressClasses.<class>` (or `"*"`) in the configuration.
    Configuration(String),
    /// The IngressClass object's `spec.controller`.
    Controller(String),
    /// Guessed from the class name.
    ClassName,
    /// A cloud class's own GatewayClass (GKE).
    CloudClass,
    /// A class-less Ingress carrying a cloud's own annotation (the one named).
    CloudAnnotation(String),
    /// The `gatewayClassName` setting.
    Setting,
    /// Nothing says.
    Nothing,
}

impl Evidence {
    fn configured(&self) -> bool {
        matches!(self, Evidence::Configuration(_))
    }

    fn describe(&self) -> String {
        match self {
            Evidence::Configuration(key) => format!("from ingressClasses.{key}"),
            Evidence::Controller(c) => format!("from its IngressClass's controller {c}"),
            Evidence::ClassName => "assumed from the class name".into(),
            Evidence::CloudClass => "the GKE Gateway class for this Ingress class".into(),
            Evidence::CloudAnnotation(a) => format!(
                "no class, but it carries GKE's annotation {a}, and GKE's controller serves Ingresses without a class"
            ),
            Evidence::Setting => "the gatewayClassName setting".into(),
            Evidence::Nothing => "unknown".into(),
        }
    }
}

/// The display name of a dialect.
pub(crate) fn dialect_label(d: Dialect) -> &'static str {
    match d {
        Dialect::IngressNginx => "ingress-nginx",
        Dialect::NginxInc => "F5 NGINX Ingress Controller",
        Dialect::Gce => "GKE Ingress",
        Dialect::Alb => "AWS Load Balancer Controller",
        Dialect::Traefik => "Traefik",
        Dialect::Istio => "Istio",
        Dialect::Kong => "Kong",
        Dialect::Haproxy => "HAProxy",
        Dialect::Contour => "Contour",
        Dialect::Cilium => "Cilium",
        Dialect::Apisix => "APISIX",
        Dialect::Other => "another controller",
    }
}

/// The class of one Ingress and how it was found.
#[derive(Debug, Clone)]
pub(crate) struct ClassInfo {
    /// `None`: no class and no default IngressClass in the repository.
    pub name: Option<String>,
    /// `None`: nothing says which controller served the class.
    pub dialect: Option<Dialect>,
    pub dialect_from: Evidence,
    /// `gatewayClassName` of the Gateway `migrate` creates for the class.
    pub gateway_class_name: String,
    pub gateway_class_from: Evidence,
    /// Where the Ingress names its class, for the class warning.
    pub field: Option<String>,
}

impl ClassInfo {
    /// Which controller instance served the class: classes whose IngressClasses name the
    /// same `spec.controller` are watched by one ingress-nginx (`store.go`
    /// `ingressClassEventHandler`), which builds one server per host from all of them.
    pub(crate) fn controller_group(&self) -> Option<String> {
        match &self.dialect_from {
            Evidence::Controller(c) => Some(format!("controller {c}")),
            _ => self.name.clone(),
        }
    }

    /// The ingress-nginx controller class that served the class: its IngressClass's
    /// `spec.controller`, else ingress-nginx's default.
    pub(crate) fn nginx_controller_class(&self) -> String {
        match &self.dialect_from {
            Evidence::Controller(c) => c.clone(),
            _ => crate::model::helm_chart::DEFAULT_NGINX_CONTROLLER.to_string(),
        }
    }

    /// Whether ingress-nginx annotations took effect on the Ingress.
    pub(crate) fn reads_nginx_annotations(&self) -> bool {
        self.dialect == Some(Dialect::IngressNginx)
    }

    /// The warning naming the choices made for the class, when configuration did not make
    /// them (`None` when it did).
    pub(crate) fn choice_note(&self, mode: IngressMode) -> Option<Diagnostic> {
        let class_gateway_unconfigured =
            mode == IngressMode::Migrate && !self.gateway_class_from.configured();
        let dialect_weak = !matches!(
            self.dialect_from,
            Evidence::Configuration(_) | Evidence::Controller(_)
        );
        if !class_gateway_unconfigured && !dialect_weak {
            return None;
        }
        let class = self.name.as_deref().unwrap_or(ANY_INGRESS_CLASS);
        let mut parts = vec![match self.dialect {
            Some(d) => format!("read as {} ({})", dialect_label(d), self.dialect_from.describe()),
            None => "nothing in the repository says which controller served it, so only its Ingress fields are translated, not controller annotations".to_string(),
        }];
        if mode == IngressMode::Migrate {
            parts.push(format!(
                "served by gatewayClassName {} ({})",
                self.gateway_class_name,
                self.gateway_class_from.describe()
            ));
        }
        let subject = match &self.name {
            Some(n) => format!("IngressClass {n}"),
            None => "Ingresses without a class".into(),
        };
        let mut d = Diagnostic::new(
            Code::IngressClassChoice,
            format!(
                "{subject}: {}; set ingressClasses.{} (dialect, gatewayClassName) in .gateway-migrate.yaml to choose",
                parts.join("; "),
                yaml_key(class)
            ),
        );
        if let Some(f) = &self.field {
            d = d.at(f);
        }
        Some(d)
    }
}

/// A class name as a YAML key in the hint (`"*"` needs quotes).
pub(crate) fn yaml_key(class: &str) -> String {
    if class
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_')
    {
        class.to_string()
    } else {
        format!("{class:?}")
    }
}

/// Resolves the class: `spec.ingressClassName`, the legacy annotation, else the IngressClass
/// the repository marks as default; then its dialect and GatewayClass. Notes how the class
/// was decided when that is not explicit.
pub(crate) fn resolve(
    index: &Index,
    config: &Config,
    ing: &Ingress,
    notes: &mut Vec<Diagnostic>,
) -> ClassInfo {
    let explicit = ingress::class_of(ing);
    let named_explicitly = explicit.is_some();
    let field = if ing
        .spec
        .as_ref()
        .and_then(|s| s.ingress_class_name.as_ref())
        .is_some()
    {
        Some("spec.ingressClassName".to_string())
    } else if explicit.is_some() {
        Some(format!(
            "metadata.annotations[\"{}\"]",
            ingress::LEGACY_CLASS_ANNOTATION
        ))
    } else {
        None
    };
    let name = match explicit {
        Some(c) => Some(c),
        None => {
            let default = index
                .ingress_classes()
                .find(|(_, c)| c.is_default)
                .map(|(o, _)| o.meta.name.clone());
            match &default {
                Some(d) => notes.push(Diagnostic::new(
                    Code::IngressDefaultClass,
                    format!(
                        "no ingressClassName: the IngressClass {d} marked default in the repository applies"
                    ),
                )),
                None => notes.push(Diagnostic::new(
                    Code::IngressNoClass,
                    "no ingressClassName, no kubernetes.io/ingress.class annotation and no default IngressClass in the repository: the cluster's default class served this Ingress; check the Gateway it is given",
                )),
            }
            default
        }
    };
    let controller = name.as_deref().and_then(|n| {
        index
            .ingress_classes()
            .find(|(o, _)| o.meta.name == n)
            .and_then(|(_, c)| c.controller.clone())
    });
    let own = name
        .as_deref()
        .and_then(|n| config.ingress_classes.get(n).map(|c| (n, c)));
    let any = config
        .ingress_classes
        .get(ANY_INGRESS_CLASS)
        .map(|c| (ANY_INGRESS_CLASS, c));
    let configured = |pick: fn(&crate::config::IngressClassConfig) -> bool| {
        own.filter(|(_, c)| pick(c)).map(|(k, c)| (k, c.clone()))
    };
    // An installed ingress-nginx controller that serves the class by its `--ingress-class`
    // value: the legacy annotation is compared with it whatever IngressClasses exist, and
    // `spec.ingressClassName` with `--ingress-class-by-name`.
    let legacy = ing
        .spec
        .as_ref()
        .and_then(|s| s.ingress_class_name.as_ref())
        .is_none();
    let by_flag = name
        .as_deref()
        .filter(|_| named_explicitly)
        .and_then(|n| index.nginx_controller_named(n, legacy));
    let (dialect, dialect_from) = if let Some((k, c)) = configured(|c| c.dialect.is_some()) {
        (c.dialect, Evidence::Configuration(yaml_key(k)))
    } else if let Some(c) = by_flag {
        (Some(Dialect::IngressNginx), Evidence::Controller(c))
    } else if let Some(c) = &controller {
        (
            Some(dialect_of_controller(c)),
            Evidence::Controller(c.clone()),
        )
    } else if let Some(watching) = name
        .is_none()
        .then(|| index.nginx_controller_watching_classless())
        .flatten()
    {
        // An Ingress without a class is served by the ingress-nginx controller started
        // with `--watch-ingress-without-class` (`store.go` `GetIngressClass`).
        (Some(Dialect::IngressNginx), Evidence::Controller(watching))
    } else if let Some((k, c)) = any.filter(|(_, c)| c.dialect.is_some()) {
        (c.dialect, Evidence::Configuration(yaml_key(k)))
    } else if let Some(a) = name.is_none().then(|| gke_annotation(ing)).flatten() {
        (Some(Dialect::Gce), Evidence::CloudAnnotation(a))
    } else {
        match name.as_deref().and_then(dialect_of_name) {
            Some(d) => (Some(d), Evidence::ClassName),
            None => (None, Evidence::Nothing),
        }
    };
    let (gateway_class_name, gateway_class_from) =
        if let Some((k, c)) = configured(|c| c.gateway_class_name.is_some()) {
            (
                c.gateway_class_name.unwrap_or_default(),
                Evidence::Configuration(yaml_key(k)),
            )
        } else if let Some((k, c)) = any.filter(|(_, c)| c.gateway_class_name.is_some()) {
            (
                c.gateway_class_name.clone().unwrap_or_default(),
                Evidence::Configuration(yaml_key(k)),
            )
        } else if let Some(cloud) = cloud_gateway_class(name.as_deref(), dialect) {
            (cloud.to_string(), Evidence::CloudClass)
        } else {
            (config.gateway_class().to_string(), Evidence::Setting)
        };
    ClassInfo {
        name,
        dialect,
        dialect_from,
        gateway_class_name,
        gateway_class_from,
        field,
    }
}

/// The dialect of an IngressClass `spec.controller` value.
fn dialect_of_controller(controller: &str) -> Dialect {
    let c = controller.to_ascii_lowercase();
    // F5's controller (`nginx.org/ingress-controller`) before the generic nginx test.
    if c.contains("nginx.org") || c.contains("nginx.com") {
        Dialect::NginxInc
    } else if c.contains("nginx") {
        Dialect::IngressNginx
    } else {
        dialect_of_word(&c).unwrap_or(Dialect::Other)
    }
}

/// The dialect a class name suggests when the repository has no IngressClass for it.
fn dialect_of_name(class: &str) -> Option<Dialect> {
    let c = class.to_ascii_lowercase();
    if c.contains("nginx") {
        Some(Dialect::IngressNginx)
    } else {
        dialect_of_word(&c)
    }
}

fn dialect_of_word(c: &str) -> Option<Dialect> {
    const WORDS: &[(&str, Dialect)] = &[
        ("gce", Dialect::Gce),
        ("gke", Dialect::Gce),
        ("ingress.k8s.aws", Dialect::Alb),
        ("alb", Dialect::Alb),
        ("elbv2", Dialect::Alb),
        ("traefik", Dialect::Traefik),
        ("istio", Dialect::Istio),
        ("kong", Dialect::Kong),
        ("haproxy", Dialect::Haproxy),
        ("contour", Dialect::Contour),
        ("cilium", Dialect::Cilium),
        ("apisix", Dialect::Apisix),
    ];
    WORDS.iter().find(|(w, _)| c.contains(w)).map(|(_, d)| *d)
}

/// GKE's Gateway classes for its Ingress classes: `gce-internal` is an internal Application
/// Load Balancer (`gke-l7-rilb`); `gce` a global external one
/// (`gke-l7-global-external-managed`). The AWS Load Balancer Controller has no fixed
/// GatewayClass name (the cluster's GatewayClass names `gateway.k8s.aws/alb`).
/// A class-less Ingress GKE serves gets the global external one (GKE's default for
/// Ingresses without a class).
fn cloud_gateway_class(class: Option<&str>, dialect: Option<Dialect>) -> Option<&'static str> {
    match (dialect?, class) {
        (Dialect::Gce, Some("gce-internal")) => Some("gke-l7-rilb"),
        (Dialect::Gce, Some("gce-regional-external")) => Some("gke-l7-regional-external-managed"),
        (Dialect::Gce, _) => Some("gke-l7-global-external-managed"),
        _ => None,
    }
}

/// The first annotation of `ing` that only GKE's Ingress controller reads (kubernetes/ingress-gce
/// `pkg/annotations/ingress.go`, which also serves every Ingress without a class,
/// `pkg/utils/utils.go` `IsGCEIngress`): `kubernetes.io/ingress.global-static-ip-name`,
/// `kubernetes.io/ingress.regional-static-ip-name`, `kubernetes.io/ingress.allow-http`,
/// `ingress.gcp.kubernetes.io/pre-shared-cert`, `networking.gke.io/*`).
fn gke_annotation(ing: &Ingress) -> Option<String> {
    const GKE_KEYS: &[&str] = &[
        "kubernetes.io/ingress.global-static-ip-name",
        "kubernetes.io/ingress.regional-static-ip-name",
        "kubernetes.io/ingress.allow-http",
    ];
    const GKE_PREFIXES: &[&str] = &["ingress.gcp.kubernetes.io/", "networking.gke.io/"];
    ing.metadata
        .annotations
        .as_ref()?
        .keys()
        .find(|k| GKE_KEYS.contains(&k.as_str()) || GKE_PREFIXES.iter().any(|p| k.starts_with(p)))
        .cloned()
}

/// Annotation prefixes that belong to a specific controller (other than ingress-nginx).
const CLASS_PREFIXES: &[(&str, &str)] = &[
    ("traefik.ingress.kubernetes.io/", "Traefik"),
    ("ingress.kubernetes.io/", "Traefik v1 / generic"),
    ("kubernetes.io/ingress.global-static-ip-name", "GKE"),
    ("kubernetes.io/ingress.regional-static-ip-name", "GKE"),
    ("kubernetes.io/ingress.allow-http", "GKE"),
    ("kubernetes.io/ingress.pre-shared-cert", "GKE"),
    ("ingress.gcp.kubernetes.io/", "GKE"),
    ("networking.gke.io/", "GKE"),
    ("cloud.google.com/", "GKE"),
    ("alb.ingress.kubernetes.io/", "AWS Load Balancer"),
    ("istio.io/", "Istio"),
    ("konghq.com/", "Kong"),
    ("haproxy.org/", "HAProxy"),
    ("nginx.org/", "F5 NGINX Ingress"),
    ("projectcontour.io/", "Contour"),
];

/// What becomes of the cloud annotations that have a Gateway API counterpart on that cloud
/// (GKE's Gateway controller documentation; AWS Load Balancer Controller's Gateway API
/// guide).
fn cloud_counterpart(key: &str) -> Option<&'static str> {
    Some(match key {
        "kubernetes.io/ingress.global-static-ip-name"
        | "kubernetes.io/ingress.regional-static-ip-name" => {
            "the reserved address moves to the Gateway's spec.addresses (type NamedAddress, the address name)"
        }
        "kubernetes.io/ingress.allow-http" => {
            "with \"false\" the load balancer had no HTTP port; the generated Gateway has an HTTP listener: remove it (or keep only the redirect route) to keep port 80 closed"
        }
        "kubernetes.io/ingress.pre-shared-cert" => {
            "pre-shared certificates are named on the Gateway through the networking.gke.io/pre-shared-certs option or Certificate Manager (networking.gke.io/certmap annotation)"
        }
        "networking.gke.io/managed-certificates" => {
            "ManagedCertificate serves Ingresses only: use Certificate Manager (a certificate map named by the Gateway's networking.gke.io/certmap annotation)"
        }
        "networking.gke.io/v1beta1.FrontendConfig" => {
            "FrontendConfig (SSL policy, HTTPS redirect) becomes a GCPGatewayPolicy for the SSL policy and an HTTP→HTTPS redirect route"
        }
        "cloud.google.com/backend-config" | "beta.cloud.google.com/backend-config" => {
            "BackendConfig becomes GCPBackendPolicy and HealthCheckPolicy attached to the Service"
        }
        "cloud.google.com/neg" => "container-native load balancing is what GKE Gateways always use",
        "alb.ingress.kubernetes.io/scheme" => {
            "internet-facing or internal is set by the AWS controller's LoadBalancerConfiguration, referenced from the Gateway"
        }
        "alb.ingress.kubernetes.io/certificate-arn" => {
            "ACM certificates are listed in the AWS controller's LoadBalancerConfiguration (listenerConfigurations), not in the Gateway's certificateRefs"
        }
        "alb.ingress.kubernetes.io/target-type"
        | "alb.ingress.kubernetes.io/healthcheck-path"
        | "alb.ingress.kubernetes.io/backend-protocol" => {
            "target-group settings move to the AWS controller's TargetGroupConfiguration for the Service"
        }
        _ => return None,
    })
}

/// Notes every controller-specific annotation that is not ingress-nginx's; ingress-nginx
/// annotations on an Ingress of another dialect are noted as ignored by that controller.
pub(crate) fn note_class_annotations(
    ing: &Ingress,
    class: &ClassInfo,
    notes: &mut Vec<Diagnostic>,
) {
    let Some(annotations) = ing.metadata.annotations.as_ref() else {
        return;
    };
    for key in annotations.keys() {
        let field = format!("metadata.annotations[\"{key}\"]");
        if key.starts_with(super::nginx::PREFIX) {
            if !class.reads_nginx_annotations() {
                let why = match class.dialect {
                    Some(d) => format!(
                        "this Ingress belongs to {} (class {}); it had no effect",
                        dialect_label(d),
                        class.name.as_deref().unwrap_or("-")
                    ),
                    None => format!(
                        "nothing says ingress-nginx served class {} (set ingressClasses.{}.dialect: ingress-nginx if it did)",
                        class.name.as_deref().unwrap_or("-"),
                        yaml_key(class.name.as_deref().unwrap_or(ANY_INGRESS_CLASS))
                    ),
                };
                notes.push(
                    Diagnostic::new(
                        Code::IngressAnnotationIgnoredByClass,
                        format!(
                            "{key} is an ingress-nginx annotation, but {why}; it is not translated"
                        ),
                    )
                    .at(field),
                );
            }
            continue;
        }
        if key.starts_with("cert-manager.io/") || key.starts_with("acme.cert-manager.io/") {
            notes.push(
                Diagnostic::new(
                    Code::IngressCertManager,
                    format!(
                        "{key}: cert-manager issues certificates for Gateways only when the annotation is on the Gateway (and its gateway-shim is enabled); move it to the Gateway that serves these hosts"
                    ),
                )
                .at(field),
            );
            continue;
        }
        if let Some((_, owner)) = CLASS_PREFIXES.iter().find(|(p, _)| key.starts_with(p)) {
            let message = match cloud_counterpart(key) {
                Some(counterpart) => format!(
                    "{key} configures the {owner} controller and is not translated: {counterpart}"
                ),
                None => format!(
                    "{key} configures the {owner} controller; it has no Gateway API equivalent here and is not translated"
                ),
            };
            notes.push(Diagnostic::new(Code::IngressClassAnnotation, message).at(field));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_come_from_the_controller_and_only_then_the_class_name() {
        assert_eq!(
            dialect_of_controller("k8s.io/ingress-nginx"),
            Dialect::IngressNginx
        );
        assert_eq!(
            dialect_of_controller("nginx.org/ingress-controller"),
            Dialect::NginxInc
        );
        assert_eq!(
            dialect_of_controller("ingress-controllers.konghq.com/kong"),
            Dialect::Kong
        );
        assert_eq!(dialect_of_controller("ingress.k8s.aws/alb"), Dialect::Alb);
        assert_eq!(
            dialect_of_controller("example.com/in-house"),
            Dialect::Other
        );
        assert_eq!(
            dialect_of_name("nginx-internal"),
            Some(Dialect::IngressNginx)
        );
        assert_eq!(dialect_of_name("gce"), Some(Dialect::Gce));
        assert_eq!(dialect_of_name("external"), None);
    }

    #[test]
    fn gke_classes_map_to_their_gateway_classes() {
        assert_eq!(
            cloud_gateway_class(Some("gce-internal"), Some(Dialect::Gce)),
            Some("gke-l7-rilb")
        );
        assert_eq!(
            cloud_gateway_class(Some("gce"), Some(Dialect::Gce)),
            Some("gke-l7-global-external-managed")
        );
        assert_eq!(cloud_gateway_class(Some("alb"), Some(Dialect::Alb)), None);
    }
}
