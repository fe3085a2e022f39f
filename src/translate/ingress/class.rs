//! Which IngressClass an Ingress belongs to and which controller family that class is, so
//! that annotations of other controllers are reported rather than half-translated.

use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::model::ingress::{self, Ingress};

/// The controller family behind a class: decides which annotations mean something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Nginx,
    Gce,
    Traefik,
    Istio,
    Alb,
    /// No class, or a class we cannot place: ingress-nginx annotations are still honoured.
    Unknown,
}

impl Family {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Family::Nginx => "ingress-nginx",
            Family::Gce => "GCE",
            Family::Traefik => "Traefik",
            Family::Istio => "Istio",
            Family::Alb => "AWS Load Balancer Controller",
            Family::Unknown => "unknown",
        }
    }

    /// Whether ingress-nginx annotations take effect for Ingresses of this family.
    pub(crate) fn reads_nginx_annotations(self) -> bool {
        matches!(self, Family::Nginx | Family::Unknown)
    }
}

/// The class of one Ingress and how it was found.
#[derive(Debug, Clone)]
pub(crate) struct ClassInfo {
    /// `None`: no class and no default IngressClass in the repository.
    pub name: Option<String>,
    pub family: Family,
}

/// Resolves the class: `spec.ingressClassName`, the legacy annotation, else the IngressClass
/// the repository marks as default. Notes how it was decided when that is not explicit.
pub(crate) fn resolve(index: &Index, ing: &Ingress, notes: &mut Vec<Diagnostic>) -> ClassInfo {
    let explicit = ingress::class_of(ing);
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
    let family = family_of(name.as_deref(), controller.as_deref());
    ClassInfo { name, family }
}

fn family_of(class: Option<&str>, controller: Option<&str>) -> Family {
    let probe = |text: &str| -> Option<Family> {
        let t = text.to_ascii_lowercase();
        if t.contains("nginx") {
            Some(Family::Nginx)
        } else if t.contains("gce") || t.contains("gke") {
            Some(Family::Gce)
        } else if t.contains("traefik") {
            Some(Family::Traefik)
        } else if t.contains("istio") {
            Some(Family::Istio)
        } else if t.contains("alb") || t.contains("elbv2") {
            Some(Family::Alb)
        } else {
            None
        }
    };
    controller
        .and_then(probe)
        .or_else(|| class.and_then(probe))
        .unwrap_or(Family::Unknown)
}

/// Annotation prefixes that belong to a specific controller (other than ingress-nginx).
const CLASS_PREFIXES: &[(&str, &str)] = &[
    ("traefik.ingress.kubernetes.io/", "Traefik"),
    ("ingress.kubernetes.io/", "Traefik v1 / generic"),
    ("kubernetes.io/ingress.global-static-ip-name", "GCE"),
    ("kubernetes.io/ingress.regional-static-ip-name", "GCE"),
    ("kubernetes.io/ingress.allow-http", "GCE"),
    ("ingress.gcp.kubernetes.io/", "GCE"),
    ("networking.gke.io/", "GCE"),
    ("cloud.google.com/", "GCE"),
    ("alb.ingress.kubernetes.io/", "AWS Load Balancer Controller"),
    ("istio.io/", "Istio"),
    ("konghq.com/", "Kong"),
    ("haproxy.org/", "HAProxy"),
    ("nginx.org/", "NGINX Inc."),
    ("projectcontour.io/", "Contour"),
];

/// Notes every controller-specific annotation that is not ingress-nginx's; ingress-nginx
/// annotations on an Ingress of another family are noted as ignored by that controller.
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
            if !class.family.reads_nginx_annotations() {
                notes.push(
                    Diagnostic::new(
                        Code::IngressAnnotationIgnoredByClass,
                        format!(
                            "{key} is an ingress-nginx annotation, but this Ingress belongs to {} (class {}); it had no effect and is not translated",
                            class.family.as_str(),
                            class.name.as_deref().unwrap_or("-")
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
            notes.push(
                Diagnostic::new(
                    Code::IngressClassAnnotation,
                    format!(
                        "{key} configures the {owner} controller; it has no Gateway API equivalent here and is not translated"
                    ),
                )
                .at(field),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_come_from_the_controller_then_the_class_name() {
        assert_eq!(
            family_of(Some("public"), Some("k8s.io/ingress-nginx")),
            Family::Nginx
        );
        assert_eq!(family_of(Some("nginx-internal"), None), Family::Nginx);
        assert_eq!(family_of(Some("gce"), None), Family::Gce);
        assert_eq!(
            family_of(Some("web"), Some("traefik.io/ingress-controller")),
            Family::Traefik
        );
        assert_eq!(family_of(Some("company"), None), Family::Unknown);
        assert_eq!(family_of(None, None), Family::Unknown);
    }
}
