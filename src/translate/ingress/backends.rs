//! Ingress backends → backendRefs. Service backends always get a port (the CRD rejects a
//! Service reference without one): numeric ports are kept, named ports are resolved through
//! the Service manifest in the repository, and a backend whose port cannot be found is dropped
//! with an error. Resource backends keep their group/kind/name.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::BackendRef;
use crate::index::Index;
use crate::model::ingress::IngressBackend;
use crate::model::k8s;

/// Converts one backend of an Ingress in `namespace`.
pub(crate) fn convert(
    index: &Index,
    namespace: &str,
    backend: &IngressBackend,
    field: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<BackendRef> {
    let field = format!("{field}.backend");
    if let Some(resource) = &backend.resource {
        if !crate::gwapi::is_dns_subdomain(&resource.name) || resource.kind.is_empty() {
            notes.push(
                Diagnostic::new(
                    Code::IngressMissingBackend,
                    format!(
                        "resource backend {:?}/{:?} does not name an object (kind and a valid name are required); the path has no backend",
                        resource.kind, resource.name
                    ),
                )
                .at(&field),
            );
            return None;
        }
        notes.push(
            Diagnostic::new(
                Code::IngressResourceBackend,
                format!(
                    "resource backend {}/{} kept as a backendRef; whether the Gateway implementation supports that kind is implementation-specific",
                    resource.kind, resource.name
                ),
            )
            .at(&field),
        );
        return Some(BackendRef {
            group: Some(resource.api_group.clone().unwrap_or_default()),
            kind: Some(resource.kind.clone()),
            name: resource.name.clone(),
            ..Default::default()
        });
    }
    let Some(service) = &backend.service else {
        notes.push(
            Diagnostic::new(
                Code::IngressMissingBackend,
                "backend names neither a Service nor a resource; the path has no backend",
            )
            .at(&field),
        );
        return None;
    };
    let name = service.name.clone();
    if !crate::gwapi::is_dns_label(&name) {
        notes.push(
            Diagnostic::new(
                Code::IngressMissingBackend,
                format!(
                    "backend Service name {name:?} is not a Service name; the path has no backend"
                ),
            )
            .at(&field),
        );
        return None;
    }
    let manifest = index.service(namespace, &name);
    let port = service.port.as_ref();
    let number = match (
        port.and_then(|p| p.number),
        port.and_then(|p| p.name.clone()),
    ) {
        (Some(n), _) => {
            // Any definition of the Service that has the port will do (several units may
            // define it differently).
            if manifest.is_some()
                && index
                    .service_definitions(namespace, &name)
                    .all(|svc| k8s::find_port(svc, n).is_none())
            {
                notes.push(
                        Diagnostic::new(
                            Code::IngressServicePortNotFound,
                            format!(
                                "Service {namespace}/{name} in the repository has no port {n}; the backendRef keeps it"
                            ),
                        )
                        .at(&field),
                    );
            }
            Some(n)
        }
        (None, Some(port_name)) => {
            match manifest.and_then(|svc| k8s::find_named_port(svc, &port_name)) {
                Some(p) => {
                    notes.push(
                        Diagnostic::new(
                            Code::IngressNamedPort,
                            format!(
                                "named port {port_name:?} resolved to {} through Service {namespace}/{name}",
                                p.port
                            ),
                        )
                        .at(&field),
                    );
                    Some(p.port)
                }
                None => {
                    notes.push(
                        Diagnostic::new(
                            Code::IngressNamedPortUnresolved,
                            format!(
                                "port {port_name:?} of Service {namespace}/{name} cannot be resolved ({}); a Service backendRef needs a port number, so this backend is dropped",
                                if manifest.is_some() {
                                    "the Service manifest has no port of that name"
                                } else {
                                    "the Service is not in the repository"
                                }
                            ),
                        )
                        .at(&field),
                    );
                    None
                }
            }
        }
        (None, None) => match manifest.and_then(k8s::single_port) {
            Some(p) => Some(p.port),
            None => {
                notes.push(
                        Diagnostic::new(
                            Code::IngressNamedPortUnresolved,
                            format!(
                                "backend Service {namespace}/{name} names no port and the repository has no single-port manifest for it; the backend is dropped"
                            ),
                        )
                        .at(&field),
                    );
                None
            }
        },
    }?;
    let Some(port) = u32::try_from(number)
        .ok()
        .filter(|p| (1..=65535).contains(p))
    else {
        notes.push(
            Diagnostic::new(
                Code::IngressMissingBackend,
                format!("port {number} of Service {name} is not a valid port"),
            )
            .at(&field),
        );
        return None;
    };
    Some(BackendRef {
        name,
        port: Some(port),
        ..Default::default()
    })
}
