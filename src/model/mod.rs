//! Typed models of the source objects the tool reads.
//!
//! Every object remembers where it came from ([`SourceRef`]) so that each diagnostic can name a
//! file and a line. Istio models capture fields they do not know in `extra`, so nothing is lost
//! silently: the translator turns every unknown field into a note.

pub mod attach;
pub mod certificate;
pub mod helm_chart;
pub mod ingress;
pub mod istio;
pub mod k8s;
pub mod kustomize;
pub mod meta;
pub mod selector;
pub mod surrounding;
pub mod template;

pub use meta::{ObjectMeta, SourceRef};

/// One decoded Kubernetes object of a kind the tool cares about.
#[derive(Debug, Clone)]
pub struct SourceObject {
    pub source: SourceRef,
    pub api_version: String,
    pub kind: String,
    pub meta: ObjectMeta,
    /// The namespace the object lands in: its own, else the one a kustomization sets, else
    /// the configured default. Filled in by the index.
    pub namespace: String,
    /// Where generated names must be unique besides the namespace: empty when the namespace
    /// is known (written, or set by a kustomization); else the source's directory, since
    /// files that name no namespace are deployed wherever their directory is applied, and an
    /// unrelated file elsewhere must not rename this one's objects. Filled in by the index.
    pub naming_scope: String,
    pub body: SourceBody,
}

impl SourceObject {
    /// `group/Kind`, the key used in report summaries (`networking.istio.io/VirtualService`).
    pub fn group_kind(&self) -> String {
        let group = self
            .api_version
            .rsplit_once('/')
            .map(|(g, _)| g)
            .unwrap_or("core");
        format!("{group}/{}", self.kind)
    }

    pub fn name(&self) -> &str {
        &self.meta.name
    }

    /// The namespace the object names itself (empty when none).
    pub fn namespace_or_written(&self) -> String {
        self.meta.namespace.clone().unwrap_or_default()
    }
}

/// The typed content of a [`SourceObject`].
// Variants differ in size (a Service is large), but objects live in one Vec built once and
// only the relevant kinds are kept, so boxing would cost more indirection than it saves.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum SourceBody {
    IstioGateway(istio::Gateway),
    VirtualService(istio::VirtualService),
    /// Boxed, as the Service: the largest bodies would make every object as large.
    DestinationRule(Box<istio::DestinationRule>),
    /// Any Ingress version, normalised to `networking.k8s.io/v1`.
    Ingress(Box<ingress::Ingress>),
    IngressClass(ingress::IngressClass),
    Service(Box<k8s::Service>),
    /// Secrets keep metadata and type only; their data is never read.
    Secret(k8s::SecretMeta),
    Namespace,
    /// A Gateway API object already in the repository, kept as JSON for validation and for
    /// Ingress `mount` mode.
    GatewayApi(serde_json::Value),
    /// Not translated, but read for what it says about the Istio ingress
    /// ([`surrounding::Surrounding`]).
    Surrounding(surrounding::Surrounding),
}

impl SourceBody {
    /// Whether the translators translate this kind (Istio Gateway, VirtualService,
    /// DestinationRule, Ingress): the objects the migration replaces.
    pub fn is_translated(&self) -> bool {
        matches!(
            self,
            SourceBody::IstioGateway(_)
                | SourceBody::VirtualService(_)
                | SourceBody::DestinationRule(_)
                | SourceBody::Ingress(_)
        )
    }
}

#[cfg(test)]
mod size {
    /// Every object of a repository is held at once (tens of thousands of Services): a large
    /// body kept inline makes every object that large (a Service inline made each 1 KB).
    #[test]
    fn an_object_stays_small() {
        let size = std::mem::size_of::<super::SourceObject>();
        assert!(
            size <= 512,
            "SourceObject is {size} bytes: box the large body"
        );
    }
}
