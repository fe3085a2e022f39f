//! The parts of a kustomization the tool reads: which files are resources, which are patches,
//! and the namespace it sets.

use serde::Deserialize;
use serde_json::Value;

/// File names kustomize recognises as a kustomization, in its lookup order.
pub const KUSTOMIZATION_FILES: [&str; 3] =
    ["kustomization.yaml", "kustomization.yml", "Kustomization"];

#[derive(Debug, Clone, Default)]
pub struct Kustomization {
    /// The kustomization file, relative to the root, `/`-separated.
    pub file: String,
    /// Its directory (`""` for the root).
    pub dir: String,
    /// `kind: Component` (a reusable piece included through `components:`).
    pub is_component: bool,
    pub namespace: Option<String>,
    pub name_prefix: Option<String>,
    pub name_suffix: Option<String>,
    /// `resources:` (and the legacy `bases:`) entries as written.
    pub resources: Vec<String>,
    /// `components:` entries as written.
    pub components: Vec<String>,
    /// Paths used as patches (`patches[].path`, `patchesStrategicMerge`, `patchesJson6902[].path`).
    pub patches: Vec<String>,
    /// What patches name as their target (`patches[].target`, `patchesJson6902[].target`, the
    /// `kind` and `metadata.name` of an inline patch): `(kind, name)`, the name `None` when
    /// the target selects by kind only.
    pub patch_targets: Vec<(String, Option<String>)>,
    /// Whether `replacements:` or `vars:` may rewrite fields at build time.
    pub substitutes: bool,
    /// `helmCharts:` / `helmGlobals:` (Helm inflation at build time).
    pub helm: bool,
    /// `generators:`, `transformers:` and `validators:` entries: plugin configurations, as
    /// file paths or inline documents.
    pub plugins: Vec<PluginEntry>,
    /// Every other path kustomize loads a file from: generators' `files`/`envs`/`env`, `crds`,
    /// `configurations`, `openapi.path`, `replacements[].path`. kustomize's loader fetches a
    /// URL in any of them, so each is checked like a resource.
    pub loaded_files: Vec<String>,
}

/// One `generators:`/`transformers:`/`validators:` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PluginEntry {
    /// A path (a file of plugin configurations, or a kustomization directory).
    Path(String),
    /// A configuration written inline; `function` when it names a KRM function (exec or
    /// container).
    Inline { kind: String, function: bool },
}

/// kustomize accepts a key with no value (`patchesStrategicMerge:` followed only by comments)
/// as an empty list; so do we.
fn nullable_list<'de, D>(deserializer: D) -> Result<Vec<Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    Ok(Option::<Vec<Value>>::deserialize(deserializer)?.unwrap_or_default())
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Raw {
    kind: Option<String>,
    namespace: Option<String>,
    name_prefix: Option<String>,
    name_suffix: Option<String>,
    #[serde(default, deserialize_with = "nullable_list")]
    resources: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    bases: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    components: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    patches: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    patches_strategic_merge: Vec<Value>,
    #[serde(
        default,
        rename = "patchesJson6902",
        deserialize_with = "nullable_list"
    )]
    patches_json6902: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    replacements: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    vars: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    helm_charts: Vec<Value>,
    helm_globals: Option<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    helm_chart_inflation_generator: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    generators: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    transformers: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    validators: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    config_map_generator: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    secret_generator: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    crds: Vec<Value>,
    #[serde(default, deserialize_with = "nullable_list")]
    configurations: Vec<Value>,
    openapi: Option<Value>,
}

/// The file paths `raw` has kustomize load besides resources, components, patches and plugins.
fn loaded_files(raw: &Raw) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |v: &Value| {
        if let Some(s) = v.as_str() {
            out.push(s.to_string());
        }
    };
    for generator in raw.config_map_generator.iter().chain(&raw.secret_generator) {
        for key in ["files", "envs"] {
            for f in generator
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                // `files:` entries may be `key=path`.
                if let Some(s) = f.as_str() {
                    push(&Value::from(s.split_once('=').map_or(s, |(_, path)| path)));
                }
            }
        }
        if let Some(env) = generator.get("env") {
            push(env);
        }
    }
    for v in raw.crds.iter().chain(&raw.configurations) {
        push(v);
    }
    if let Some(path) = raw.openapi.as_ref().and_then(|o| o.get("path")) {
        push(path);
    }
    for r in &raw.replacements {
        if let Some(path) = r.get("path") {
            push(path);
        }
    }
    out
}

impl Kustomization {
    pub fn from_json(file: &str, doc: Value) -> Result<Kustomization, String> {
        // A kustomization that is only comments or `{}` is an empty one.
        let doc = if doc.is_null() {
            Value::Object(Default::default())
        } else {
            canonical_keys(doc)?
        };
        let raw: Raw = serde_json::from_value(doc).map_err(|e| e.to_string())?;
        let dir = file
            .rsplit_once('/')
            .map(|(d, _)| d.to_string())
            .unwrap_or_default();
        let text = |v: &Value| v.as_str().map(str::to_string);
        let mut patches: Vec<String> = raw
            .patches_strategic_merge
            .iter()
            .filter_map(text)
            .collect();
        let mut patch_targets = Vec::new();
        for p in raw.patches.iter().chain(raw.patches_json6902.iter()) {
            if let Some(path) = p.get("path").and_then(Value::as_str) {
                patches.push(path.to_string());
            } else if let Some(path) = p.as_str() {
                patches.push(path.to_string());
            }
            let inline = p
                .get("patch")
                .and_then(Value::as_str)
                .and_then(|t| crate::yaml::parse_document(t).ok().flatten());
            let target = p.get("target").or(inline.as_ref());
            let kind = target.and_then(|t| t.get("kind")).and_then(Value::as_str);
            if let Some(kind) = kind {
                let name = target
                    .and_then(|t| t.get("name").or_else(|| t.pointer("/metadata/name")))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                patch_targets.push((kind.to_string(), name));
            }
        }
        let plugins = raw
            .generators
            .iter()
            .chain(&raw.transformers)
            .chain(&raw.validators)
            .map(|v| match v.as_str() {
                // A string is a path unless it reads as a configuration (kustomize accepts
                // inline configurations, also on one line in flow style).
                Some(path)
                    if !crate::yaml::parse_document(path)
                        .ok()
                        .flatten()
                        .is_some_and(|v| v.is_object()) =>
                {
                    PluginEntry::Path(path.to_string())
                }
                _ => {
                    let inline: Value = match v.as_str() {
                        Some(text) => crate::yaml::parse_document(text)
                            .ok()
                            .flatten()
                            .unwrap_or(Value::Null),
                        None => v.clone(),
                    };
                    PluginEntry::Inline {
                        kind: inline
                            .get("kind")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        function: names_a_function(&inline),
                    }
                }
            })
            .collect();
        let nonempty = |s: Option<String>| s.filter(|n| !n.is_empty());
        let loaded_files = loaded_files(&raw);
        Ok(Kustomization {
            file: file.to_string(),
            dir,
            is_component: raw.kind.as_deref() == Some("Component"),
            namespace: nonempty(raw.namespace),
            name_prefix: nonempty(raw.name_prefix),
            name_suffix: nonempty(raw.name_suffix),
            resources: raw
                .resources
                .iter()
                .chain(raw.bases.iter())
                .filter_map(text)
                .collect(),
            components: raw.components.iter().filter_map(text).collect(),
            patches,
            patch_targets,
            substitutes: !raw.replacements.is_empty() || !raw.vars.is_empty(),
            helm: !raw.helm_charts.is_empty()
                || raw.helm_globals.is_some_and(|v| !v.is_null())
                || !raw.helm_chart_inflation_generator.is_empty(),
            plugins,
            loaded_files,
        })
    }

    /// Every entry that names another kustomization or a resource: `resources:` then
    /// `components:`.
    pub fn included(&self) -> impl Iterator<Item = &String> {
        self.resources.iter().chain(self.components.iter())
    }

    /// Resolves an entry of this kustomization (relative path) to a root-relative path,
    /// `None` when it leaves the root or is a remote URL.
    pub fn resolve(&self, entry: &str) -> Option<String> {
        if is_remote(entry) {
            return None;
        }
        join_relative(&self.dir, entry)
    }
}

/// The top-level keys kustomize reads, in their canonical spelling.
const KNOWN_KEYS: &[&str] = &[
    "apiVersion",
    "kind",
    "metadata",
    "namespace",
    "namePrefix",
    "nameSuffix",
    "resources",
    "bases",
    "components",
    "patches",
    "patchesStrategicMerge",
    "patchesJson6902",
    "replacements",
    "vars",
    "helmCharts",
    "helmGlobals",
    "helmChartInflationGenerator",
    "generators",
    "transformers",
    "validators",
    "configMapGenerator",
    "secretGenerator",
    "crds",
    "configurations",
    "openapi",
];

/// kustomize reads a kustomization with Go's JSON decoding, which matches field names without
/// regard to case (`RESOURCES:` is `resources:`). The keys this tool reads are renamed to their
/// canonical spelling so that nothing kustomize follows goes unseen; two keys that are the same
/// field are an error.
fn canonical_keys(doc: Value) -> Result<Value, String> {
    let Value::Object(map) = doc else {
        return Ok(doc);
    };
    let mut out = serde_json::Map::new();
    for (key, value) in map {
        let name = KNOWN_KEYS
            .iter()
            .find(|k| k.eq_ignore_ascii_case(&key))
            .map_or(key.clone(), |k| k.to_string());
        if out.contains_key(&name) {
            return Err(format!(
                "`{key}` and `{name}` are the same field to kustomize (names match without regard to case)"
            ));
        }
        out.insert(name, value);
    }
    Ok(Value::Object(out))
}

/// Whether a kustomization entry names a remote resource (a git repository or a URL), the
/// forms kustomize's loader fetches (`api/internal/git/repospec.go`).
pub fn is_remote(entry: &str) -> bool {
    entry.contains("://")
        || entry.starts_with("git@")
        || entry.starts_with("git::")
        || ["github.com/", "gitlab.com/", "bitbucket.org/"]
            .iter()
            .any(|host| entry.starts_with(host))
        || entry.contains("?ref=")
        || entry.contains(".git//")
}

/// Whether a plugin configuration names a KRM function (`config.kubernetes.io/function`
/// annotation, or the legacy `config.kubernetes.io/function` under `metadata.annotations`),
/// which kustomize would run as an executable or a container.
pub fn names_a_function(config: &Value) -> bool {
    config
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| {
            a.contains_key("config.kubernetes.io/function")
                || a.contains_key("config.k8s.io/function")
        })
}

/// Joins `rel` onto directory `dir` (both `/`-separated, root-relative) and normalises `.` and
/// `..`; `None` if the result would leave the root.
pub fn join_relative(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        return None;
    } else {
        dir.split('/').filter(|p| !p.is_empty()).collect()
    };
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod render_input_tests {
    use super::*;

    fn parse(text: &str) -> Kustomization {
        let doc = crate::yaml::parse_document(text)
            .unwrap()
            .unwrap_or(Value::Null);
        Kustomization::from_json("k/kustomization.yaml", doc).unwrap()
    }

    #[test]
    fn keys_without_a_value_are_empty_lists_as_kustomize_reads_them() {
        let k = parse(
            "namespace: system\nnamePrefix: app-\nresources:\n- ../ingress\npatchesStrategicMerge:\n# - manager_patch.yaml\n#patches:\ncomponents:\n",
        );
        assert_eq!(k.namespace.as_deref(), Some("system"));
        assert_eq!(k.name_prefix.as_deref(), Some("app-"));
        assert_eq!(k.resources, vec!["../ingress"]);
        assert!(k.patches.is_empty() && k.components.is_empty());
    }

    #[test]
    fn components_helm_plugins_and_substitutions_are_read() {
        let k = parse(
            "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nreplacements:\n- path: r.yaml\nhelmCharts:\n- name: x\ntransformers:\n- t.yaml\n- |\n  apiVersion: fn.example.com/v1\n  kind: Stamp\n  metadata:\n    name: s\n    annotations:\n      config.kubernetes.io/function: 'exec: {path: ./x}'\n",
        );
        assert!(k.is_component && k.substitutes && k.helm);
        assert_eq!(
            k.plugins,
            vec![
                PluginEntry::Path("t.yaml".into()),
                PluginEntry::Inline {
                    kind: "Stamp".into(),
                    function: true
                }
            ]
        );
    }

    #[test]
    fn keys_match_without_regard_to_case_as_kustomize_reads_them() {
        let k = parse(
            "RESOURCES:\n- ../../outside\nNamespace: x\nTransformers:\n- '{apiVersion: a/v1, kind: Stamp, metadata: {annotations: {config.kubernetes.io/function: x}}}'\n",
        );
        assert_eq!(k.resources, vec!["../../outside"]);
        assert_eq!(k.namespace.as_deref(), Some("x"));
        assert_eq!(
            k.plugins,
            vec![PluginEntry::Inline {
                kind: "Stamp".into(),
                function: true
            }]
        );
        let doc = crate::yaml::parse_document("resources: [a]\nResources: [b]\n")
            .unwrap()
            .unwrap();
        assert!(Kustomization::from_json("k/kustomization.yaml", doc).is_err());
    }

    #[test]
    fn remote_entries_are_recognised() {
        for remote in [
            "https://github.com/org/repo//base?ref=v1",
            "github.com/org/repo/base?ref=main",
            "git@github.com:org/repo.git//base",
            "ssh://git@example.com/repo.git",
        ] {
            assert!(is_remote(remote), "{remote}");
        }
        for local in ["../base", "base/ingress.yaml", "./github.com.yaml"] {
            assert!(!is_remote(local), "{local}");
        }
    }
}
