//! Gateway API CRDs: generated Gateway API objects need them in the cluster first. A GitOps
//! repository that installs its platform (Istio, Flux or Argo CD objects) but not the Gateway
//! API CRDs fails on the new files: a Flux Kustomization with `wait: true` fails as a whole
//! on an unknown kind (its dry-run rejects every object), and an Argo CD sync fails on it.

use super::Placed;
use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::load::Deployer;
use crate::model::SourceBody;
use crate::model::surrounding::Surrounding;
use crate::translate::SourceResult;

/// The Gateway API group whose CRDs must be installed.
const GATEWAY_API_GROUP: &str = "gateway.networking.k8s.io";

pub(super) fn notes(
    index: &Index,
    deployers: &[Deployer],
    results: &[SourceResult],
    out: &mut Vec<Placed>,
) {
    let Some(first) = results.iter().find(|r| !r.generated.is_empty()) else {
        return;
    };
    let installed = index.objects.iter().any(|o| {
        matches!(&o.body, SourceBody::Surrounding(Surrounding::Crd { group }) if group == GATEWAY_API_GROUP)
    });
    // A kustomization may install them from the release URL
    // (`https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.x/standard-install.yaml`)
    // or a vendored copy's path; either names the project.
    let installed_by_kustomize = index.kustomizations.iter().any(|k| {
        k.resources
            .iter()
            .any(|r| r.contains("gateway-api") || r.contains(GATEWAY_API_GROUP))
    });
    if installed || installed_by_kustomize {
        return;
    }
    let installs_platform = !deployers.is_empty()
        || index.objects.iter().any(|o| {
            matches!(&o.body, SourceBody::Surrounding(Surrounding::Crd { group }) if group.ends_with("istio.io"))
        });
    if !installs_platform {
        return;
    }
    let message = "the repository deploys its platform (Flux/Argo CD objects or Istio CRDs) but not the Gateway API CRDs: install them (gateway.networking.k8s.io, the channel and version the output targets) before these files are applied; a Flux Kustomization with wait: true fails as a whole on an unknown kind, and an Argo CD sync fails on it".to_string();
    let diagnostic = Diagnostic::new(Code::GatewayApiCrdsMissing, message);
    match deployers.first() {
        Some(d) => out.push(Placed::File(
            d.source.file.clone(),
            d.source.document,
            d.source.line,
            diagnostic,
        )),
        None => out.push(Placed::Object(first.object, diagnostic)),
    }
}
