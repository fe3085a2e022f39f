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
    pub namespace: Option<String>,
    /// `resources:` entries as written.
    pub resources: Vec<String>,
    /// Paths used as patches (`patches[].path`, `patchesStrategicMerge`, `patchesJson6902[].path`).
    pub patches: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Raw {
    namespace: Option<String>,
    #[serde(default)]
    resources: Vec<Value>,
    #[serde(default)]
    bases: Vec<Value>,
    #[serde(default)]
    patches: Vec<Value>,
    #[serde(default)]
    patches_strategic_merge: Vec<Value>,
    #[serde(default, rename = "patchesJson6902")]
    patches_json6902: Vec<Value>,
}

impl Kustomization {
    pub fn from_json(file: &str, doc: Value) -> Result<Kustomization, String> {
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
        for p in raw.patches.iter().chain(raw.patches_json6902.iter()) {
            if let Some(path) = p.get("path").and_then(Value::as_str) {
                patches.push(path.to_string());
            } else if let Some(path) = p.as_str() {
                patches.push(path.to_string());
            }
        }
        Ok(Kustomization {
            file: file.to_string(),
            dir,
            namespace: raw.namespace.filter(|n| !n.is_empty()),
            resources: raw
                .resources
                .iter()
                .chain(raw.bases.iter())
                .filter_map(text)
                .collect(),
            patches,
        })
    }

    /// Resolves an entry of this kustomization (relative path) to a root-relative path,
    /// `None` when it leaves the root or is a remote URL.
    pub fn resolve(&self, entry: &str) -> Option<String> {
        if entry.contains("://") || entry.starts_with("github.com/") {
            return None;
        }
        join_relative(&self.dir, entry)
    }
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
