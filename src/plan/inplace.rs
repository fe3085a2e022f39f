//! `--in-place`: the translated documents of a source file are replaced by the generated ones;
//! every other byte of the file (other documents, `---` markers, comments and blank lines
//! between documents, line endings, a missing final newline) stays as it was.
//!
//! The replaced region of a document runs from its first content line to the end of its last
//! content line; the marker line before it and comment or blank lines after it are kept.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use super::{EditAction, EditKind, EditPlan, FileEdit};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::Generated;
use crate::header;
use crate::load::{prefilter, split};
use crate::scan::Scan;
use crate::translate::SourceResult;

/// Whether documents of `file` can be replaced in place (JSON files hold one value, not a
/// stream of documents).
pub fn supported(file: &str) -> bool {
    !file.ends_with(".json")
}

/// Plans the in-place edit of `file`. Returns the results that cannot be replaced in place
/// (a `List` document, a document with content on its marker line, an unreadable file); the
/// caller writes those alongside instead.
pub fn plan_file<'a>(
    root: &Path,
    scan: &Scan,
    namespaces: &super::ImplicitNamespaces,
    plan: &mut EditPlan,
    file: &str,
    docs: &BTreeMap<usize, Vec<&'a SourceResult>>,
) -> Vec<&'a SourceResult> {
    let mut fallback = Vec::new();
    let index = &scan.index;
    let old = match scan.read(root, file) {
        Ok(b) => b,
        Err(e) => {
            plan.notes.push(
                Diagnostic::new(
                    Code::PlanUnreadableSource,
                    format!("cannot read {file} to replace its documents: {e}"),
                )
                .in_file(file.to_string(), 1),
            );
            return docs.values().flatten().copied().collect();
        }
    };
    let regions = document_regions(&old);
    let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
    for (doc, results) in docs {
        let region = regions.get(*doc).cloned().flatten();
        let Some(region) = region else {
            fallback.extend(results.iter().copied());
            continue;
        };
        let piece = &old[region.clone()];
        let is_list = prefilter::top_level_kind(piece).is_some_and(|k| k.ends_with("List"));
        if is_list {
            plan.notes.push(Diagnostic::new(
                    Code::PlanInPlaceList,
                    format!("document {} of {file} is a List; its objects were written alongside instead of in place", doc + 1),
                ).in_file(file.to_string(), 1));
            fallback.extend(results.iter().copied());
            continue;
        }
        let mut objects: Vec<&Generated> = results.iter().flat_map(|r| &r.generated).collect();
        objects.sort_by_key(|g| g.sort_key());
        objects.dedup_by(|a, b| a == b);
        let mut text = String::new();
        for r in results {
            if let Some(src) = index.objects.get(r.object) {
                // Names are validated by the load, but the comment is input all the same.
                text.push_str(&format!(
                    "# Translated by gateway-migrate from {} {}/{}.\n",
                    header::comment_text(&src.kind),
                    header::comment_text(&src.namespace),
                    header::comment_text(&src.meta.name)
                ));
            }
        }
        for (i, g) in objects.iter().enumerate() {
            if i > 0 {
                text.push_str("---\n");
            }
            let out = super::output_object(namespaces, file, g);
            text.push_str(&crate::yaml::to_yaml(&out));
            plan.placements.insert(
                (
                    file.to_string(),
                    g.kind().to_string(),
                    g.namespace().to_string(),
                    g.name().to_string(),
                ),
                file.to_string(),
            );
        }
        if piece.windows(2).any(|w| w == b"\r\n") {
            text = text.replace('\n', "\r\n");
        }
        if !piece.ends_with(b"\n") {
            while text.ends_with('\n') || text.ends_with('\r') {
                text.pop();
            }
        }
        replacements.push((region, text));
    }
    if replacements.is_empty() {
        return fallback;
    }
    let contents = splice(&old, &replacements);
    if contents.as_slice() != old.as_ref() {
        plan.edits.push(FileEdit {
            path: file.to_string(),
            action: EditAction::Update,
            kind: EditKind::InPlace,
            old: old.into_owned(),
            contents,
        });
    }
    fallback
}

/// Replaces each range (sorted, disjoint) of `old` with its text.
pub(crate) fn splice(old: &[u8], replacements: &[(Range<usize>, String)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(old.len());
    let mut pos = 0;
    for (range, text) in replacements {
        out.extend_from_slice(&old[pos..range.start]);
        out.extend_from_slice(text.as_bytes());
        pos = range.end;
    }
    out.extend_from_slice(&old[pos..]);
    out
}

/// For each document with content (numbered as the loader numbers them), the byte range that
/// `--in-place` replaces; `None` when the document's content starts on its marker line.
pub fn document_regions(bytes: &[u8]) -> Vec<Option<Range<usize>>> {
    let mut regions = Vec::new();
    for span in split::split(bytes) {
        let piece = span.slice(bytes);
        if split::first_content_line(piece).is_none() {
            continue;
        }
        regions.push(content_range(piece).map(|r| span.start + r.start..span.start + r.end));
    }
    regions
}

/// Within one span: from the start of the first content line to the end (newline included)
/// of the last content line.
fn content_range(piece: &[u8]) -> Option<Range<usize>> {
    let mut start = None;
    let mut end = 0;
    let mut offset = 0;
    for raw in piece.split_inclusive(|&b| b == b'\n') {
        let line_start = offset;
        offset += raw.len();
        let mut line = raw;
        if line_start == 0 {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        let trimmed = line.trim_ascii();
        let is_marker = |m: &[u8]| {
            line.starts_with(m) && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
        };
        if trimmed.is_empty() || trimmed.starts_with(b"#") || trimmed.starts_with(b"%") {
            continue;
        }
        if is_marker(b"...") {
            continue;
        }
        if is_marker(b"---") {
            let rest = line[3..].trim_ascii();
            if rest.is_empty() || rest.starts_with(b"#") {
                continue;
            }
            // Content on the marker line: replacing it would touch the marker.
            return None;
        }
        if start.is_none() {
            // Keep a BOM at the very start of the file.
            start = Some(line_start + (raw.len() - line.len()));
        }
        end = offset;
    }
    start.map(|s| s..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_cover_content_lines_only() {
        let input = b"# head\n---\n# about a\na: 1\nb: 2\n\n# tail\n---\nc: 3";
        let regions = document_regions(input);
        assert_eq!(regions.len(), 2);
        let a = regions[0].clone().unwrap();
        assert_eq!(&input[a], b"a: 1\nb: 2\n");
        let c = regions[1].clone().unwrap();
        assert_eq!(&input[c], b"c: 3");
    }

    #[test]
    fn marker_content_and_bom() {
        assert_eq!(document_regions(b"--- {a: 1}\n"), vec![None]);
        let input = "\u{FEFF}a: 1\r\n...\r\n".as_bytes();
        let r = document_regions(input)[0].clone().unwrap();
        assert_eq!(&input[r], b"a: 1\r\n");
    }

    #[test]
    fn splice_keeps_the_rest() {
        let old = b"x\nA\ny\nB\nz";
        let out = splice(old, &[(2..4, "1\n".into()), (6..8, "2\n2\n".into())]);
        assert_eq!(out, b"x\n1\ny\n2\n2\nz");
    }
}
