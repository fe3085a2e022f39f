use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Where an object was read: the file (relative to the scanned root, `/`-separated), the
/// 0-based index of the document in the file and the 1-based line where the document starts.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SourceRef {
    pub file: String,
    pub document: usize,
    pub line: usize,
}

/// The part of Kubernetes `metadata` the translation reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient_string_map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub labels: BTreeMap<String, String>,
    #[serde(
        default,
        deserialize_with = "lenient_string_map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub annotations: BTreeMap<String, String>,
    /// Rarely in a repository; where it is, Istio's and Gateway API's ordering by creation
    /// time can be followed.
    #[serde(
        default,
        rename = "creationTimestamp",
        deserialize_with = "lenient_timestamp",
        skip_serializing_if = "Option::is_none"
    )]
    pub creation_timestamp: Option<String>,
}

/// A `creationTimestamp` as its text (RFC 3339 in UTC sorts as text); a `null` or a value
/// that is not a string is absent.
fn lenient_timestamp<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let value = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
    Ok(match value {
        serde_json::Value::String(s) if !s.is_empty() => Some(s),
        _ => None,
    })
}

/// Reads a label or annotation map whose values may be unquoted YAML scalars (`canary: true`):
/// Kubernetes would reject those, but the translation should still see the value the author
/// meant, so scalars are turned into their text and `null` into the empty string.
pub fn lenient_string_map<'de, D>(deserializer: D) -> Result<BTreeMap<String, String>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let raw: Option<BTreeMap<String, serde_json::Value>> = Option::deserialize(deserializer)?;
    Ok(raw
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, scalar_text(&v)))
        .collect())
}

/// The text of a JSON scalar as YAML would have spelled it; compound values as compact JSON.
pub fn scalar_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
