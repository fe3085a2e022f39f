//! Run configuration: `.gateway-migrate.yaml` at the repository root (or `--config`), then
//! command-line overrides. Every field has a default a new user can live with.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The file name looked up at the root of the scanned repository.
pub const CONFIG_FILE: &str = ".gateway-migrate.yaml";
/// The other spelling accepted.
pub const CONFIG_FILE_YML: &str = ".gateway-migrate.yml";

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

impl Target {
    /// The `gatewayClassName` generated Gateways get when the configuration names none: the
    /// class Istio creates for itself (`istio`, also for the portable output, as before), and
    /// the one Envoy Gateway's quickstart defines (`eg`, envoyproxy/gateway
    /// `examples/kubernetes/quickstart.yaml`; Envoy Gateway installs no class itself).
    pub fn default_gateway_class(self) -> &'static str {
        match self {
            Target::Istio | Target::Generic => "istio",
            Target::EnvoyGateway => "eg",
        }
    }
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

/// The controller whose behaviour an IngressClass's Ingresses had: decides which annotations
/// mean something and how paths, redirects and TLS behaved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// kubernetes/ingress-nginx (`k8s.io/ingress-nginx`): its annotations are translated.
    IngressNginx,
    /// F5 NGINX Ingress Controller (`nginx.org/ingress-controller`).
    NginxInc,
    /// GKE Ingress (`gce`, `gce-internal`).
    Gce,
    /// AWS Load Balancer Controller (`ingress.k8s.aws/alb`).
    Alb,
    Traefik,
    Istio,
    Kong,
    Haproxy,
    Contour,
    Cilium,
    Apisix,
    /// Any other controller: only the Ingress fields are translated.
    Other,
}

/// `ingressClasses.<class>`: how one IngressClass is migrated.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct IngressClassConfig {
    /// `gatewayClassName` of the Gateway created for the class (`migrate` mode).
    pub gateway_class_name: Option<String>,
    /// The controller that served the class.
    pub dialect: Option<Dialect>,
}

/// `controllers.<class>`: how the ingress-nginx controller serving an IngressClass was
/// configured, when the repository does not install it (or says it differently).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ControllerConfig {
    /// The controller ConfigMap's `data` (values may be written as YAML booleans or numbers).
    #[serde(deserialize_with = "scalar_strings")]
    pub config_map: std::collections::BTreeMap<String, String>,
    /// The controller's command-line flags, each `--name` or `--name=value`.
    pub flags: Vec<String>,
}

/// A map of scalars read as strings, as a ConfigMap's `data` is: `true` is `"true"`.
fn scalar_strings<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<std::collections::BTreeMap<String, String>, D::Error> {
    let raw: std::collections::BTreeMap<String, serde_json::Value> = Deserialize::deserialize(d)?;
    raw.into_iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => Ok((k, s)),
            serde_json::Value::Bool(_) | serde_json::Value::Number(_) => Ok((k, v.to_string())),
            serde_json::Value::Null => Ok((k, String::new())),
            _ => Err(serde::de::Error::custom(format!(
                "configMap.{k}: a ConfigMap value is a string, not a list or map"
            ))),
        })
        .collect()
}

/// Where Istio's default ingress gateway runs.
pub const DEFAULT_ISTIO_GATEWAY_NAMESPACE: &str = "istio-system";

/// The `ingressClasses` key that applies to Ingresses without a class and to classes not
/// listed.
pub const ANY_INGRESS_CLASS: &str = "*";

/// Files larger than this are skipped and reported. A configuration file may lower it; only
/// `--max-file-size` raises it (the configuration is repository content, see
/// `docs/security.md`).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;

/// Everything a translation may depend on besides its input. Translation is a pure function
/// of `(object, &Index, &Config)`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Config {
    /// `gatewayClassName` of every generated Gateway; empty: the target's default
    /// ([`Config::gateway_class`]).
    pub gateway_class_name: String,
    /// Namespace of the Istio ingress gateway workload: where Istio reads `credentialName`
    /// Secrets from and judges `exportTo`. Unset: the namespace of the gateway workload (or
    /// its Service) found in the repository, else [`DEFAULT_ISTIO_GATEWAY_NAMESPACE`].
    pub istio_gateway_namespace: Option<String>,
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
    /// Per IngressClass (`*`: Ingresses without a class and classes not listed): the
    /// controller that served it and the `gatewayClassName` that will.
    pub ingress_classes: std::collections::BTreeMap<String, IngressClassConfig>,
    /// Per IngressClass: the ingress-nginx controller's ConfigMap data and flags, replacing
    /// what the repository says about that class's controller (`--controller-config` adds
    /// entries).
    pub controllers: std::collections::BTreeMap<String, ControllerConfig>,
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
    /// Accepted diagnostics: each rule suppresses its codes in the files its globs match
    /// (see `docs/suppressions.md`).
    pub ignore: Vec<IgnoreRule>,
    /// Where the configuration was read from (not a key: set by [`Config::load`]).
    #[serde(skip)]
    pub origin: Option<ConfigOrigin>,
}

/// One `ignore:` entry of the configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct IgnoreRule {
    /// Codes (`istio/retries`) or whole families (`istio/*`).
    pub codes: Vec<String>,
    /// Globs (gitignore syntax) of the files the rule covers; empty means every file.
    pub paths: Vec<String>,
    /// Why the diagnostics are accepted (shown in the report).
    pub reason: Option<String>,
}

impl IgnoreRule {
    /// The rule's codes; `Err((position, message))` names the first unknown one.
    pub fn patterns(&self) -> Result<Vec<crate::diagnostic::CodePattern>, (usize, String)> {
        self.codes
            .iter()
            .enumerate()
            .map(|(j, code)| crate::diagnostic::CodePattern::parse(code).map_err(|e| (j, e)))
            .collect()
    }

    /// The files the rule covers (`None`: every file); `Err((position, message))` names the
    /// first glob that does not parse.
    pub fn path_matcher(&self) -> Result<Option<ignore::gitignore::Gitignore>, (usize, String)> {
        if self.paths.is_empty() {
            return Ok(None);
        }
        let mut builder = ignore::gitignore::GitignoreBuilder::new("");
        for (j, glob) in self.paths.iter().enumerate() {
            builder
                .add_line(None, glob)
                .map_err(|e| (j, format!("invalid glob {glob:?}: {e}")))?;
        }
        builder
            .build()
            .map(Some)
            .map_err(|e| (0, format!("invalid globs: {e}")))
    }
}

/// The file a configuration was read from, kept to locate its `ignore:` rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigOrigin {
    /// As found or given (absolute when discovered).
    pub path: std::path::PathBuf,
    /// How reports name it: relative to the scanned root when it lies inside, else `path`.
    pub display_path: String,
    pub text: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            gateway_class_name: String::new(),
            istio_gateway_namespace: None,
            cluster_domain: "cluster.local".into(),
            channel: Channel::Standard,
            target: Target::Istio,
            tcp_route_version: TcpRouteVersion::V1,
            ingress_mode: IngressMode::Migrate,
            ingress_gateway_namespace: None,
            ingress_gateway_name: None,
            ingress_classes: std::collections::BTreeMap::new(),
            controllers: std::collections::BTreeMap::new(),
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
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            ignore: Vec::new(),
            origin: None,
        }
    }
}

/// `path` as a repository-relative path of plain components (`.` dropped): no absolute
/// path, no `..`, nothing empty. The symlink check needs the file system and is done where the
/// path is opened (`scan::load_mount_gateways`).
pub fn confined_path(path: &str) -> Result<String, String> {
    if path.starts_with('/') || path.starts_with('\\') || path.contains('\0') {
        return Err(format!(
            "{path:?} must be a path relative to the repository root"
        ));
    }
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(format!(
                    "{path:?} must stay inside the repository (no `..`)"
                ));
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err(format!("{path:?} names no file or directory"));
    }
    Ok(parts.join("/"))
}

/// The generated file of `app.yaml` is `app.<suffix>.yaml`, in the same directory: the suffix
/// is one plain name fragment (letters, digits, `-`, `_`, `.`; no leading `.`, no `..`).
pub fn check_output_suffix(suffix: &str) -> Result<(), String> {
    let plain = suffix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if suffix.is_empty()
        || suffix.len() > 64
        || !plain
        || suffix.starts_with('.')
        || suffix.ends_with('.')
        || suffix.contains("..")
    {
        return Err(format!(
            "{suffix:?} must be 1 to 64 letters, digits, `-`, `_` or inner `.` (the generated file sits beside its source)"
        ));
    }
    Ok(())
}

/// Whether a configuration file is at `path`. A symlink is refused, not followed: a
/// repository's configuration would otherwise read (and echo in its errors) a file anywhere.
fn present(path: &Path) -> Result<bool, ConfigError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            Err(ConfigError::Symlink(path.display().to_string()))
        }
        Ok(meta) => Ok(meta.is_file()),
        Err(_) => Ok(false),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "{0} is a symbolic link; a repository's configuration is not read through one (replace it with the file, or pass a file with --config)"
    )]
    Symlink(String),
    #[error("config file {0} does not exist")]
    Missing(String),
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("invalid config file {path}: {message}")]
    Invalid { path: String, message: String },
    #[error("both {0} and {1} exist; keep one")]
    Ambiguous(String, String),
}

impl Config {
    /// The `gatewayClassName` of generated Gateways: the configured one, else the target's
    /// default ([`Target::default_gateway_class`]).
    pub fn gateway_class(&self) -> &str {
        if self.gateway_class_name.is_empty() {
            self.target.default_gateway_class()
        } else {
            &self.gateway_class_name
        }
    }

    /// Loads `path` if given, else `<root>/.gateway-migrate.yaml` if it exists, else defaults.
    /// The configuration for the repository at `root`: `path` when given, else the nearest
    /// `.gateway-migrate.yaml` (or `.yml`) in `root` or a directory above it, up to and
    /// including the git work tree's top (the directory holding `.git`); else the defaults.
    pub fn load(root: &Path, path: Option<&Path>) -> Result<Config, ConfigError> {
        let candidate = match path {
            Some(p) => p.to_path_buf(),
            None => match Config::discover(root)? {
                Some(p) => p,
                None => return Ok(Config::default()),
            },
        };
        let text = std::fs::read_to_string(&candidate).map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                ConfigError::Missing(candidate.display().to_string())
            } else {
                ConfigError::Read {
                    path: candidate.display().to_string(),
                    source,
                }
            }
        })?;
        let mut config = Config::parse(&text).map_err(|message| ConfigError::Invalid {
            path: candidate.display().to_string(),
            message,
        })?;
        let display_path = std::fs::canonicalize(&candidate)
            .ok()
            .zip(std::fs::canonicalize(root).ok())
            .and_then(|(file, root)| {
                let rel = file.strip_prefix(&root).ok()?;
                Some(
                    rel.components()
                        .map(|c| c.as_os_str().to_string_lossy())
                        .collect::<Vec<_>>()
                        .join("/"),
                )
            })
            .unwrap_or_else(|| candidate.display().to_string());
        config.origin = Some(ConfigOrigin {
            path: candidate,
            display_path,
            text,
        });
        Ok(config)
    }

    /// The configuration file that applies to `root`, searching upwards (see [`Config::load`]).
    pub fn discover(root: &Path) -> Result<Option<std::path::PathBuf>, ConfigError> {
        let start = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        // Outside a git work tree only `root` itself is looked at: a stray file in `/tmp` or
        // the home directory must not configure an unrelated run.
        let top = crate::vcs::work_tree_top(&start);
        let mut dir: Option<&Path> = Some(start.as_path());
        while let Some(d) = dir {
            let yaml = d.join(CONFIG_FILE);
            let yml = d.join(CONFIG_FILE_YML);
            match (present(&yaml)?, present(&yml)?) {
                (true, true) => {
                    return Err(ConfigError::Ambiguous(
                        yaml.display().to_string(),
                        yml.display().to_string(),
                    ));
                }
                (true, false) => return Ok(Some(yaml)),
                (false, true) => return Ok(Some(yml)),
                (false, false) => {}
            }
            // The top of the git work tree is as far as a repository's settings reach.
            if top.is_none_or(|t| t == d) {
                break;
            }
            dir = d.parent();
        }
        Ok(None)
    }

    /// Parses a configuration; the error says where (`line L, column C`) and, for an unknown
    /// key, which known key was probably meant.
    pub fn parse(text: &str) -> Result<Config, String> {
        if text.trim().is_empty() {
            return Ok(Config::default());
        }
        // Repository input: parsed within the same budgets as manifests.
        let config: Config = crate::yaml::from_str(text).map_err(|e| {
            let at = match (e.line, e.column) {
                (Some(l), Some(c)) => format!("line {l}, column {c}: "),
                (Some(l), None) => format!("line {l}: "),
                _ => String::new(),
            };
            format!("{at}{}", with_suggestion(&e.message))
        })?;
        config.check_ignore_rules(text)?;
        config.check_untrusted_keys(text)?;
        Ok(config)
    }

    /// A configuration file is repository content (a pull request can change it), so what it
    /// may do is bounded: its paths stay inside the repository, its suffix names a file beside
    /// its source, and its limits only tighten. The checks are lexical: they reveal nothing
    /// about the file system outside the repository.
    fn check_untrusted_keys(&self, text: &str) -> Result<(), String> {
        let at = |field: &str| {
            crate::diagnostic::locate::locate(text, &crate::diagnostic::locate::parse_path(field))
                .map(|r| format!("line {}, column {}: ", r.line, r.column))
                .unwrap_or_default()
        };
        if let Some(mount) = &self.mount_gateways
            && let Err(e) = confined_path(mount)
        {
            return Err(format!("{}mountGateways: {e}", at("mountGateways")));
        }
        if let Err(e) = check_output_suffix(&self.output_suffix) {
            return Err(format!("{}outputSuffix: {e}", at("outputSuffix")));
        }
        if self.max_file_size > DEFAULT_MAX_FILE_SIZE {
            return Err(format!(
                "{}maxFileSize: a configuration file can only lower the limit ({DEFAULT_MAX_FILE_SIZE} bytes); raise it with --max-file-size",
                at("maxFileSize")
            ));
        }
        Ok(())
    }

    /// Every `ignore:` code must be a registered code or family and every glob must parse,
    /// so that a typo is an error rather than a suppression that never applies.
    fn check_ignore_rules(&self, text: &str) -> Result<(), String> {
        for (i, rule) in self.ignore.iter().enumerate() {
            let at = |field: String| {
                let line = crate::diagnostic::locate::locate(
                    text,
                    &crate::diagnostic::locate::parse_path(&field),
                )
                .map(|r| format!("line {}, column {}: ", r.line, r.column))
                .unwrap_or_default();
                format!("{line}{field}")
            };
            if rule.codes.is_empty() {
                return Err(format!(
                    "{}: an ignore rule needs `codes` (e.g. [istio/retries] or [istio/*])",
                    at(format!("ignore[{i}]"))
                ));
            }
            if let Err((j, e)) = rule.patterns() {
                return Err(format!("{}: {e}", at(format!("ignore[{i}].codes[{j}]"))));
            }
            if let Err((j, e)) = rule.path_matcher() {
                return Err(format!("{}: {e}", at(format!("ignore[{i}].paths[{j}]"))));
            }
        }
        Ok(())
    }

    /// A short stable hash of the settings that change the generated files; names the PR
    /// branch. What only narrows or judges the run (`include`, `exclude`, `maxFileSize`,
    /// `strict`, `ignore`) is left out, so a different `--exclude` updates the same pull
    /// request rather than opening a second one.
    pub fn fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let output_settings = Config {
            include: Vec::new(),
            exclude: Vec::new(),
            max_file_size: 0,
            strict: false,
            ignore: Vec::new(),
            origin: None,
            ..self.clone()
        };
        let json = serde_json::to_string(&output_settings).unwrap_or_default();
        let digest = Sha256::digest(json.as_bytes());
        digest.iter().take(4).map(|b| format!("{b:02x}")).collect()
    }
}

/// For serde's "unknown field `x`, expected one of a, b, ..." message: the same, shortened,
/// with the nearest known key suggested.
fn with_suggestion(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some((unknown, tail)) = rest.split_once('`') else {
        return message.to_string();
    };
    let known: Vec<&str> = tail
        .split_once("expected one of ")
        .map(|(_, list)| list.split(", ").map(|k| k.trim_matches('`')).collect())
        .unwrap_or_default();
    let best = known
        .iter()
        .map(|k| {
            (
                crate::diagnostic::edit_distance(&unknown.to_lowercase(), &k.to_lowercase()),
                *k,
            )
        })
        .min();
    match best {
        Some((d, k)) if d <= 3 => format!("unknown key `{unknown}` (did you mean `{k}`?)"),
        _ => format!(
            "unknown key `{unknown}`; the keys are {} (docs: README, Configuration)",
            known.join(", ")
        ),
    }
}

#[cfg(test)]
mod discovery_tests {
    use super::*;

    /// The pull request branch is named after the settings that change the generated files:
    /// narrowing or judging the run (a different `--exclude`) keeps the same pull request.
    #[test]
    fn the_fingerprint_covers_only_settings_that_change_the_output() {
        let base = Config::default();
        let same = Config {
            include: vec!["apps/**".into()],
            exclude: vec!["legacy/**".into()],
            strict: true,
            max_file_size: 1,
            ignore: vec![IgnoreRule {
                codes: vec!["istio/*".into()],
                ..Default::default()
            }],
            ..Config::default()
        };
        assert_eq!(base.fingerprint(), same.fingerprint());
        for different in [
            Config {
                channel: Channel::Experimental,
                ..Config::default()
            },
            Config {
                output_suffix: "gw".into(),
                ..Config::default()
            },
            Config {
                gateway_class_name: "eg".into(),
                ..Config::default()
            },
        ] {
            assert_ne!(base.fingerprint(), different.fingerprint());
        }
    }

    #[test]
    fn an_unknown_key_names_the_nearest_known_one_and_the_place() {
        let e = Config::parse("channel: standard\ningresMode: mount\n").unwrap_err();
        assert_eq!(
            e,
            "line 2, column 1: unknown key `ingresMode` (did you mean `ingressMode`?)"
        );
        let e = Config::parse("somethingElse: 1\n").unwrap_err();
        assert!(
            e.starts_with("line 1, column 1: unknown key `somethingElse`; the keys are "),
            "{e}"
        );
    }

    #[test]
    fn the_configuration_is_found_upwards_to_the_work_tree_top_as_yaml_or_yml() {
        let top = tempfile::tempdir().unwrap();
        let repo = top.path().join("repo");
        let sub = repo.join("apps/shop");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir(repo.join(".git")).unwrap();
        // Above the work tree: never read.
        std::fs::write(top.path().join(CONFIG_FILE), "channel: experimental\n").unwrap();
        assert_eq!(Config::discover(&sub).unwrap(), None);
        // Outside any work tree, only the directory itself.
        let loose = tempfile::tempdir().unwrap();
        let below = loose.path().join("below");
        std::fs::create_dir(&below).unwrap();
        std::fs::write(loose.path().join(CONFIG_FILE), "{}\n").unwrap();
        assert_eq!(Config::discover(&below).unwrap(), None);
        assert!(Config::discover(loose.path()).unwrap().is_some());
        std::fs::write(repo.join(CONFIG_FILE_YML), "channel: experimental\n").unwrap();
        let found = Config::discover(&sub).unwrap().unwrap();
        assert!(
            found.ends_with("repo/.gateway-migrate.yml"),
            "{}",
            found.display()
        );
        assert_eq!(
            Config::load(&sub, None).unwrap().channel,
            Channel::Experimental
        );
        std::fs::write(repo.join(CONFIG_FILE), "{}\n").unwrap();
        assert!(matches!(
            Config::discover(&sub),
            Err(ConfigError::Ambiguous(..))
        ));
    }
}
