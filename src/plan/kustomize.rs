//! Adding generated files to the `resources:` of the kustomizations that list their source.
//!
//! The edit goes through yaml-edit, a lossless YAML editor: comments, blank lines,
//! indentation, flow or block style and line endings of the kustomization stay as they were
//! (tests below hold each one). As a safety net, the edited text is parsed again and its
//! `resources:` must equal the old list followed by the new entries; otherwise the file is
//! left alone and a note says what to add by hand.

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use serde_json::Value;

use super::{EditAction, EditKind, EditPlan, FileEdit};
use crate::diagnostic::{Code, Diagnostic};
use crate::scan::Scan;

/// Why a kustomization could not be edited.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KustomizeEditError {
    #[error("not valid UTF-8")]
    NotUtf8,
    #[error("cannot be parsed for editing: {0}")]
    Parse(String),
    #[error("has no top-level `resources:` list")]
    NoResources,
    #[error("the edited file would not list exactly the old resources plus the new ones")]
    Verification,
    #[error(
        "would change more than its `resources:` and `patches:` lists (an anchor or alias shares them)"
    )]
    SharedList,
    #[error(
        "would write the entry {0:?} with a raw tab, control or line-separator character, which YAML tools read differently"
    )]
    UnsafeEntry(String),
}

/// Characters that YAML tools read differently when they stand raw in a plain scalar (a tab
/// is valid inside one in YAML 1.2 and refused by YAML 1.1 tools such as PyYAML; control and
/// line-separator characters are worse). Escaped inside a double-quoted scalar they are fine.
fn raw_specials(text: &str) -> usize {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\r')
                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
        })
        .count()
}

/// Refuses an edit that writes such characters raw, so the file stays readable by every tool
/// that reviews it.
fn check_written(before: &str, after: &str, entries: &[&String]) -> Result<(), KustomizeEditError> {
    if raw_specials(after) > raw_specials(before) {
        let culprit = entries
            .iter()
            .find(|e| raw_specials(e) > 0)
            .map_or_else(String::new, |e| (*e).clone());
        return Err(KustomizeEditError::UnsafeEntry(culprit));
    }
    Ok(())
}

/// Whether `old` and `new` (parsed kustomizations) differ only in `resources` and `patches`:
/// an anchored list whose alias names another field would carry the new entries there too.
fn only_lists_changed(old: &Value, new: &Value) -> bool {
    let without = |v: &Value| {
        let mut v = v.clone();
        if let Some(map) = v.as_object_mut() {
            map.remove("resources");
            map.remove("patches");
        }
        v
    };
    without(old) == without(new)
}

/// Plans the kustomization edits: `listed` maps a source file to the generated files that must
/// be deployed wherever it is.
pub fn plan_listings(
    root: &Path,
    scan: &Scan,
    plan: &mut EditPlan,
    listed: &BTreeMap<&str, Vec<String>>,
) {
    for k in &scan.index.kustomizations {
        let mut additions: Vec<String> = Vec::new();
        for entry in &k.resources {
            let Some(source) = k.resolve(entry) else {
                continue;
            };
            let Some(outputs) = listed.get(source.as_str()) else {
                continue;
            };
            for out in outputs {
                let already = k
                    .resources
                    .iter()
                    .any(|e| k.resolve(e).as_deref() == Some(out.as_str()));
                let new_entry = sibling_entry(entry, out);
                if !already && !additions.contains(&new_entry) {
                    additions.push(new_entry);
                }
            }
        }
        if additions.is_empty() {
            continue;
        }
        let old = match scan.read(root, &k.file) {
            Ok(b) => b,
            Err(e) => {
                plan.notes
                    .push(not_edited(&k.file, &additions, &e.to_string()));
                continue;
            }
        };
        match add_resources(&old, &additions) {
            Ok(contents) => plan.edits.push(FileEdit {
                path: k.file.clone(),
                action: EditAction::Update,
                kind: EditKind::Kustomization,
                old: old.into_owned(),
                contents,
            }),
            Err(e) => plan
                .notes
                .push(not_edited(&k.file, &additions, &e.to_string())),
        }
    }
}

fn not_edited(file: &str, additions: &[String], why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::PlanKustomizationNotEdited,
        format!(
            "{file} {why}; add to its resources by hand: {}",
            additions.join(", ")
        ),
    )
    .in_file(file.to_string(), 1)
}

/// The entry naming `out` written the way `entry` names its source: same directory prefix
/// (`./`, `base/`), new file name.
fn sibling_entry(entry: &str, out: &str) -> String {
    let out_name = out.rsplit('/').next().unwrap_or(out);
    match entry.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{out_name}"),
        None => out_name.to_string(),
    }
}

/// Appends `entries` to the top-level `resources:` list of a kustomization, changing nothing
/// else, and verifies the result.
pub fn add_resources(bytes: &[u8], entries: &[String]) -> Result<Vec<u8>, KustomizeEditError> {
    let (bom, body) = split_bom(bytes)?;
    let old_list = resources_of(body).ok_or(KustomizeEditError::NoResources)?;
    let doc = yaml_edit::Document::from_str(body)
        .map_err(|e| KustomizeEditError::Parse(e.to_string()))?;
    let seq = doc
        .as_mapping()
        .and_then(|m| m.get_sequence("resources"))
        .ok_or(KustomizeEditError::NoResources)?;
    for e in entries {
        seq.push(e.as_str());
    }
    let edited = format!("{bom}{doc}");
    let mut expected = old_list;
    expected.extend(entries.iter().cloned());
    let edited_body = edited.strip_prefix(BOM).unwrap_or(&edited);
    if resources_of(edited_body) != Some(expected) {
        return Err(KustomizeEditError::Verification);
    }
    check_written(body, edited_body, &entries.iter().collect::<Vec<_>>())?;
    let parsed = |text: &str| crate::yaml::parse_document(text).ok().flatten();
    if !matches!((parsed(body), parsed(edited_body)), (Some(a), Some(b)) if only_lists_changed(&a, &b))
    {
        return Err(KustomizeEditError::SharedList);
    }
    Ok(edited.into_bytes())
}

/// Makes a kustomization list exactly `resources` (file entries) and `patches` (`- path: file`
/// entries) among the entries `ours` recognises: missing ones are added, ours that are no
/// longer wanted are removed, every other entry stays; `Ok(None)` when nothing changes.
/// Lists are edited in their own style; a missing key is appended at the end of the file. The
/// result is parsed again and must hold exactly the expected lists.
pub fn sync_entries(
    bytes: &[u8],
    resources: &[String],
    patches: &[String],
    ours: &dyn Fn(&str) -> bool,
) -> Result<Option<Vec<u8>>, KustomizeEditError> {
    let (bom, body) = split_bom(bytes)?;
    let parsed = crate::yaml::parse_document(body)
        .map_err(|e| KustomizeEditError::Parse(e.message))?
        .unwrap_or(Value::Null);
    let old_resources = list_entries(&parsed, "resources");
    let old_patches = list_entries(&parsed, "patches");
    let new_resources: Vec<&String> = resources
        .iter()
        .filter(|r| !old_resources.contains(r))
        .collect();
    let new_patches: Vec<&String> = patches
        .iter()
        .filter(|p| !old_patches.contains(p))
        .collect();
    let stale = |old: &[String], wanted: &[String]| -> Vec<usize> {
        old.iter()
            .enumerate()
            .filter(|(_, e)| ours(e) && !wanted.contains(e))
            .map(|(i, _)| i)
            .collect()
    };
    let stale_resources = stale(&old_resources, resources);
    let stale_patches = stale(&old_patches, patches);
    if new_resources.is_empty()
        && new_patches.is_empty()
        && stale_resources.is_empty()
        && stale_patches.is_empty()
    {
        return Ok(None);
    }
    let doc = yaml_edit::Document::from_str(body)
        .map_err(|e| KustomizeEditError::Parse(e.to_string()))?;
    for (key, indices) in [("resources", &stale_resources), ("patches", &stale_patches)] {
        if indices.is_empty() {
            continue;
        }
        let seq = doc
            .as_mapping()
            .and_then(|m| m.get_sequence(key))
            .ok_or_else(|| KustomizeEditError::Parse(format!("`{key}:` is not a list")))?;
        for &i in indices.iter().rev() {
            seq.remove(i);
        }
    }
    let mut appended = String::new();
    let patch_entry = |p: &str| {
        let mut m = std::collections::BTreeMap::new();
        m.insert(
            "path".to_string(),
            yaml_edit::YamlValue::scalar(p.to_string()),
        );
        m
    };
    for (key, entries, is_patch) in [
        ("resources", &new_resources, false),
        ("patches", &new_patches, true),
    ] {
        if entries.is_empty() {
            continue;
        }
        let seq = if parsed.get(key).is_some_and(Value::is_array) {
            doc.as_mapping().and_then(|m| m.get_sequence(key))
        } else {
            None
        };
        match seq {
            Some(seq) => {
                for e in entries.iter() {
                    if is_patch {
                        seq.push(patch_entry(e));
                    } else {
                        seq.push(e.as_str());
                    }
                }
            }
            None if parsed.get(key).is_some_and(Value::is_null) && body_has_key(body, key) => {
                let list: Vec<yaml_edit::YamlValue> = entries
                    .iter()
                    .map(|e| {
                        if is_patch {
                            yaml_edit::YamlValue::Mapping(patch_entry(e))
                        } else {
                            yaml_edit::YamlValue::scalar(e.to_string())
                        }
                    })
                    .collect();
                let mapping = doc
                    .as_mapping()
                    .ok_or_else(|| KustomizeEditError::Parse("not a mapping".into()))?;
                mapping.set(key, list);
            }
            None if parsed.get(key).is_none() => {
                appended.push_str(&format!("{key}:\n"));
                for e in entries.iter() {
                    if is_patch {
                        appended.push_str(&format!("- path: {e}\n"));
                    } else {
                        appended.push_str(&format!("- {e}\n"));
                    }
                }
            }
            None => return Err(KustomizeEditError::Parse(format!("`{key}:` is not a list"))),
        }
    }
    let mut edited = format!("{doc}");
    if !appended.is_empty() {
        if !edited.is_empty() && !edited.ends_with('\n') {
            edited.push('\n');
        }
        edited.push_str(&appended);
    }
    let check = crate::yaml::parse_document(&edited)
        .map_err(|e| KustomizeEditError::Parse(e.message))?
        .unwrap_or(Value::Null);
    let keep = |old: &[String], stale: &[usize]| -> Vec<String> {
        old.iter()
            .enumerate()
            .filter(|(i, _)| !stale.contains(i))
            .map(|(_, e)| e.clone())
            .collect()
    };
    let mut want_resources = keep(&old_resources, &stale_resources);
    want_resources.extend(new_resources.into_iter().cloned());
    let mut want_patches = keep(&old_patches, &stale_patches);
    want_patches.extend(new_patches.into_iter().cloned());
    if list_entries(&check, "resources") != want_resources
        || list_entries(&check, "patches") != want_patches
    {
        return Err(KustomizeEditError::Verification);
    }
    if !only_lists_changed(&parsed, &check) {
        return Err(KustomizeEditError::SharedList);
    }
    let written: Vec<&String> = resources.iter().chain(patches).collect();
    check_written(body, &edited, &written)?;
    Ok(Some(format!("{bom}{edited}").into_bytes()))
}

/// Whether a top-level `key:` line is written (even with an empty value).
fn body_has_key(body: &str, key: &str) -> bool {
    body.lines().any(|l| {
        l.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })
}

const BOM: &str = "\u{FEFF}";

/// A kustomization's text split into its byte-order mark (kept on output) and body.
fn split_bom(bytes: &[u8]) -> Result<(&'static str, &str), KustomizeEditError> {
    let text = std::str::from_utf8(bytes).map_err(|_| KustomizeEditError::NotUtf8)?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    })
}

/// The file a `resources:` or `patches:` entry names: the entry itself, or its `path:`.
pub fn entry_path(entry: &Value) -> Option<&str> {
    match entry {
        Value::String(s) => Some(s),
        other => other.get("path").and_then(Value::as_str),
    }
}

/// The files the `key:` list of a parsed kustomization names (empty when there is none).
fn list_entries(doc: &Value, key: &str) -> Vec<String> {
    doc.get(key)
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(entry_path)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The `resources:` entries of a kustomization text, `None` when it has no such list.
fn resources_of(text: &str) -> Option<Vec<String>> {
    let value = crate::yaml::parse_document(text).ok()??;
    let list = value.get("resources")?.as_array()?;
    Some(
        list.iter()
            .map(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by a hostile review: an anchored `resources:` list aliased by another field
    /// would gain the new entry there too; a tab in a file name is valid YAML 1.2 but not
    /// readable by YAML 1.1 tools. Both are refused (the plan then says "add by hand").
    #[test]
    fn shared_lists_and_unsafe_names_are_not_edited() {
        let anchored = b"resources: &r\n- web.yaml\ncomponents: *r\n";
        assert_eq!(
            add_resources(anchored, &["web.gateway-api.yaml".to_string()]),
            Err(KustomizeEditError::SharedList)
        );
        let plain = b"resources:\n- web.yaml\n";
        assert!(matches!(
            add_resources(plain, &["a\tb.gateway-api.yaml".to_string()]),
            Err(KustomizeEditError::UnsafeEntry(_))
        ));
        // Names the editor quotes with escapes are fine.
        let edited = add_resources(plain, &["a\nkind: Pod.yaml".to_string()]).unwrap();
        assert!(!String::from_utf8(edited).unwrap().contains("\nkind: Pod"));
        assert!(add_resources(plain, &["a #b.gateway-api.yaml".to_string()]).is_ok());
    }

    fn add(input: &str) -> String {
        let out = add_resources(input.as_bytes(), &["new.gateway-api.yaml".to_string()]).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn block_style_keeps_indentation() {
        assert_eq!(
            add("resources:\n  - a.yaml\n  - b.yaml\n"),
            "resources:\n  - a.yaml\n  - b.yaml\n  - new.gateway-api.yaml\n"
        );
        assert_eq!(
            add("resources:\n- a.yaml\n\npatches:\n- x.yaml\n"),
            "resources:\n- a.yaml\n- new.gateway-api.yaml\n\npatches:\n- x.yaml\n"
        );
        assert_eq!(
            add("resources:\n    - a.yaml\n    - \"b.yaml\"\n"),
            "resources:\n    - a.yaml\n    - \"b.yaml\"\n    - new.gateway-api.yaml\n"
        );
    }

    #[test]
    fn comments_and_blank_lines_stay() {
        assert_eq!(
            add(
                "# top\nresources: # the list\n  - a.yaml # first\n  # between\n  - b.yaml\n  # trailing comment\n\nnamespace: x\n"
            ),
            "# top\nresources: # the list\n  - a.yaml # first\n  # between\n  - b.yaml\n  - new.gateway-api.yaml\n  # trailing comment\n\nnamespace: x\n"
        );
        assert_eq!(
            add("apiVersion: v1\nresources:\n  - a.yaml\n\n\n# end\n"),
            "apiVersion: v1\nresources:\n  - a.yaml\n  - new.gateway-api.yaml\n\n\n# end\n"
        );
    }

    #[test]
    fn flow_style_stays_flow() {
        assert_eq!(
            add("resources: [a.yaml, b.yaml]\nnamespace: x\n"),
            "resources: [a.yaml, b.yaml, new.gateway-api.yaml]\nnamespace: x\n"
        );
        assert_eq!(
            add("resources: []\n"),
            "resources: [new.gateway-api.yaml]\n"
        );
    }

    #[test]
    fn crlf_bom_and_missing_final_newline() {
        assert_eq!(
            add("resources:\r\n  - a.yaml\r\n  - b.yaml\r\nnamespace: x\r\n"),
            "resources:\r\n  - a.yaml\r\n  - b.yaml\r\n  - new.gateway-api.yaml\r\nnamespace: x\r\n"
        );
        assert_eq!(
            add("\u{FEFF}resources:\n- a.yaml\n"),
            "\u{FEFF}resources:\n- a.yaml\n- new.gateway-api.yaml\n"
        );
        assert_eq!(
            add("resources:\n  - a.yaml\n  - b.yaml"),
            "resources:\n  - a.yaml\n  - b.yaml\n  - new.gateway-api.yaml"
        );
    }

    #[test]
    fn no_resources_is_an_error() {
        assert_eq!(
            add_resources(b"patches:\n- a.yaml\n", &["x".into()]),
            Err(KustomizeEditError::NoResources)
        );
    }

    fn ours(entry: &str) -> bool {
        entry.starts_with("gateway-migrate.build-")
    }

    fn entries(input: &str) -> Option<String> {
        sync_entries(
            input.as_bytes(),
            &["gateway-migrate.build-objects.yaml".to_string()],
            &["gateway-migrate.build-patches.yaml".to_string()],
            &ours,
        )
        .unwrap()
        .map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn build_fixes_extend_lists_in_their_style_or_add_the_key() {
        assert_eq!(
            entries("resources:\n  - ../../base\npatches:\n  - path: host.yaml\n").as_deref(),
            Some(
                "resources:\n  - ../../base\n  - gateway-migrate.build-objects.yaml\npatches:\n  - path: host.yaml\n  - path: gateway-migrate.build-patches.yaml\n"
            )
        );
        assert_eq!(
            entries("resources: [../../base]\n").as_deref(),
            Some(
                "resources: [../../base, gateway-migrate.build-objects.yaml]\npatches:\n- path: gateway-migrate.build-patches.yaml\n"
            )
        );
        // Already listed: nothing to do.
        assert_eq!(
            entries(
                "resources:\n- gateway-migrate.build-objects.yaml\npatches:\n- path: gateway-migrate.build-patches.yaml\n"
            ),
            None
        );
    }

    #[test]
    fn fix_entries_no_longer_wanted_are_removed_and_others_kept() {
        let out = sync_entries(
            b"resources:\n- ../base\n- gateway-migrate.build-objects.yaml\npatches:\n- path: host.yaml\n- path: gateway-migrate.build-delete.gateway.old.yaml\n",
            &[],
            &[],
            &ours,
        )
        .unwrap()
        .map(|b| String::from_utf8(b).unwrap());
        assert_eq!(
            out.as_deref(),
            Some("resources:\n- ../base\npatches:\n- path: host.yaml\n")
        );
    }

    #[test]
    fn a_key_without_a_value_gets_the_list() {
        let out = entries("resources:\n- ../base\npatches:\n# nothing yet\n").unwrap();
        let parsed = crate::yaml::parse_document(&out).unwrap().unwrap();
        assert_eq!(
            parsed["patches"][0]["path"], "gateway-migrate.build-patches.yaml",
            "{out}"
        );
        assert!(out.contains("# nothing yet"), "{out}");
    }

    #[test]
    fn entries_follow_the_source_spelling() {
        assert_eq!(
            sibling_entry("./all.yaml", "d/all.gw.yaml"),
            "./all.gw.yaml"
        );
        assert_eq!(
            sibling_entry("base/front.yaml", "k/base/front.gw.yaml"),
            "base/front.gw.yaml"
        );
        assert_eq!(sibling_entry("app.yaml", "app.gw.yaml"), "app.gw.yaml");
    }
}
