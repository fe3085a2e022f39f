//! Run configuration: `.gateway-migrate.yaml` at the repository root (or `--config`), then
//! command-line overrides. Every field has a default a new user can live with.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The file name looked up at the root of the scanned repository.
pub const CONFIG_FILE: &str = ".gateway-migrate.yaml";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// Gateway API standard channel: what every conformant implementation serves.
    #[default]
    Standard,
    /// Experimental channel: unlocks retries and session persistence.
    Experimental,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Standard => "standard",
            Channel::Experimental => "experimental",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IngressMode {
    /// Create Gateways per IngressClass, TLS from `spec.tls` (what ingress2gateway does).
    #[default]
    Migrate,
    /// Attach routes to Gateways already in the repository; create no Gateway.
    Mount,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// Portable output plus Istio-only options where they keep behaviour (tls.options keys).
    #[default]
    Istio,
    EnvoyGateway,
    /// Portable output only.
    Generic,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TcpRouteVersion {
    /// `gateway.networking.k8s.io/v1` (Gateway API v1.6, Istio 1.31).
    #[default]
    V1,
    /// `v1alpha2`, for Istio 1.30 with `PILOT_ENABLE_ALPHA_GATEWAY_API`. Only the experimental
    /// CRDs serve it, so it goes with `channel: experimental`; on the standard channel the
    /// validator refuses such routes.
    V1alpha2,
}

/// Everything a translation may depend on besides its input. Translation is a pure function
/// of `(object, &Index, &Config)`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Config {
    /// `gatewayClassName` of every generated Gateway.
    pub gateway_class_name: String,
    /// Namespace of the Istio ingress gateway workload: where Istio reads `credentialName`
    /// Secrets from.
    pub istio_gateway_namespace: String,
    /// Cluster DNS domain for `name.ns.svc.<domain>` destination hosts.
    pub cluster_domain: String,
    pub channel: Channel,
    pub target: Target,
    pub tcp_route_version: TcpRouteVersion,
    pub ingress_mode: IngressMode,
    /// migrate mode: namespace of the Gateway created per IngressClass (default: the
    /// namespace of the first Ingress of that class).
    pub ingress_gateway_namespace: Option<String>,
    /// migrate mode: name of the Gateway created per IngressClass (default: the class name).
    pub ingress_gateway_name: Option<String>,
    /// mount mode: extra file or directory (relative to the root) holding the Gateways to
    /// mount onto, in addition to those found by the scan.
    pub mount_gateways: Option<String>,
    /// mount mode: skip Ingress rules without a host instead of attaching them to catch-all
    /// listeners.
    pub require_hostname: bool,
    /// Keep the existing Istio ingress load balancer: generated Gateways get
    /// `spec.addresses` naming the Istio ingress Service (Istio manual deployment).
    pub keep_load_balancer: bool,
    /// Service used with `keepLoadBalancer`.
    pub istio_ingress_service: String,
    /// Suffix of generated files: `app.yaml` → `app.<suffix>.yaml`.
    pub output_suffix: String,
    /// Namespace assumed for objects that name none and are not under a kustomization that
    /// sets one.
    pub default_namespace: String,
    /// Add mesh (GAMMA) routes to kustomization `resources:` too (off: Istio does not support
    /// a VirtualService and an HTTPRoute for the same workload).
    pub deploy_mesh_routes: bool,
    /// Treat references to objects outside the repository as errors.
    pub strict: bool,
    /// Glob patterns (gitignore syntax) of paths to scan; empty means all.
    pub include: Vec<String>,
    /// Glob patterns of paths to skip.
    pub exclude: Vec<String>,
    /// Files larger than this are skipped and reported.
    pub max_file_size: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            gateway_class_name: "istio".into(),
            istio_gateway_namespace: "istio-system".into(),
            cluster_domain: "cluster.local".into(),
            channel: Channel::Standard,
            target: Target::Istio,
            tcp_route_version: TcpRouteVersion::V1,
            ingress_mode: IngressMode::Migrate,
            ingress_gateway_namespace: None,
            ingress_gateway_name: None,
            mount_gateways: None,
            require_hostname: false,
            keep_load_balancer: false,
            istio_ingress_service: "istio-ingressgateway.istio-system.svc.cluster.local".into(),
            output_suffix: "gateway-api".into(),
            default_namespace: "default".into(),
            deploy_mesh_routes: false,
            strict: false,
            include: Vec::new(),
            exclude: Vec::new(),
            max_file_size: 10 * 1024 * 1024,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("invalid config file {path}: {message}")]
    Invalid { path: String, message: String },
}

impl Config {
    /// Loads `path` if given, else `<root>/.gateway-migrate.yaml` if it exists, else defaults.
    pub fn load(root: &Path, path: Option<&Path>) -> Result<Config, ConfigError> {
        let candidate = match path {
            Some(p) => p.to_path_buf(),
            None => {
                let p = root.join(CONFIG_FILE);
                if !p.is_file() {
                    return Ok(Config::default());
                }
                p
            }
        };
        let text = std::fs::read_to_string(&candidate).map_err(|source| ConfigError::Read {
            path: candidate.display().to_string(),
            source,
        })?;
        Config::parse(&text).map_err(|message| ConfigError::Invalid {
            path: candidate.display().to_string(),
            message,
        })
    }

    pub fn parse(text: &str) -> Result<Config, String> {
        if text.trim().is_empty() {
            return Ok(Config::default());
        }
        serde_saphyr::from_str(text).map_err(|e| e.to_string())
    }

    /// A short stable hash of the settings that change output; names the PR branch.
    pub fn fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let json = serde_json::to_string(self).unwrap_or_default();
        let digest = Sha256::digest(json.as_bytes());
        digest.iter().take(4).map(|b| format!("{b:02x}")).collect()
    }
}
