//! Loading: read each file once, split it into documents with exact byte spans, decode only the
//! documents that matter. One bad document is a diagnostic, never an abort.

pub mod decode;
pub mod prefilter;
pub mod split;

use serde::Serialize;
use serde_json::Value;

use crate::model::kustomize::Kustomization;
use crate::model::{SourceObject, SourceRef};
use crate::note::Severity;

/// A problem with the input itself (a file or document that cannot be read), with its place.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub code: String,
    pub severity: Severity,
    pub message: String,
}

/// What loading one file produced.
#[derive(Debug, Default)]
pub struct FileLoad {
    /// Root-relative, `/`-separated.
    pub path: String,
    pub bytes: usize,
    /// Documents with content (comment-only pieces do not count).
    pub documents: usize,
    pub objects: Vec<SourceObject>,
    pub kustomizations: Vec<Kustomization>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads one file's bytes. `path` is root-relative and names the file in diagnostics.
pub fn load_bytes(path: &str, bytes: &[u8]) -> FileLoad {
    let mut load = FileLoad {
        path: path.to_string(),
        bytes: bytes.len(),
        ..Default::default()
    };
    if path.ends_with(".json") {
        load_json(&mut load, bytes);
        return load;
    }
    for span in split::split(bytes) {
        let piece = span.slice(bytes);
        let Some(offset) = split::first_content_line(piece) else {
            continue;
        };
        let doc_index = load.documents;
        load.documents += 1;
        let line = span.line + offset;
        let is_kustomization = path
            .rsplit('/')
            .next()
            .is_some_and(|b| crate::model::kustomize::KUSTOMIZATION_FILES.contains(&b));
        if !is_kustomization && !prefilter::needs_parse(piece) {
            continue;
        }
        let text = match std::str::from_utf8(piece) {
            Ok(text) => text,
            Err(e) => {
                let bad_line = span.line
                    + piece[..e.valid_up_to()]
                        .iter()
                        .filter(|&&b| b == b'\n')
                        .count();
                load.diagnose(
                    bad_line,
                    "load/invalid-utf8",
                    "document is not valid UTF-8".into(),
                );
                continue;
            }
        };
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        match crate::yaml::parse_document(text) {
            Ok(Some(value)) => {
                let source = SourceRef {
                    file: path.to_string(),
                    document: doc_index,
                    line,
                };
                load.add(value, &source);
            }
            Ok(None) => {}
            Err(e) => {
                let at = e.line.map_or(line, |l| span.line + l - 1);
                load.diagnose(
                    at,
                    "load/invalid-yaml",
                    format!("invalid YAML: {}", e.message),
                );
            }
        }
    }
    load
}

impl FileLoad {
    fn diagnose(&mut self, line: usize, code: &str, message: String) {
        self.diagnostics.push(Diagnostic {
            file: self.path.clone(),
            line,
            code: code.to_string(),
            severity: Severity::Error,
            message,
        });
    }

    fn add(&mut self, value: Value, source: &SourceRef) {
        let mut decoded = Vec::new();
        decode::decode(value, source, &mut decoded);
        for d in decoded {
            match d {
                Ok(decode::Decoded::Object(obj)) => self.objects.push(*obj),
                Ok(decode::Decoded::Kustomization(k)) => self.kustomizations.push(k),
                Err(e) => self.diagnose(
                    source.line,
                    "load/invalid-object",
                    format!(
                        "{} cannot be read: {}",
                        if e.kind.is_empty() { "object" } else { &e.kind },
                        e.message
                    ),
                ),
            }
        }
    }
}

fn load_json(load: &mut FileLoad, bytes: &[u8]) {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) => {
            load.documents = 1;
            let source = SourceRef {
                file: load.path.clone(),
                document: 0,
                line: 1,
            };
            load.add(value, &source);
        }
        Err(e) => {
            // Not every .json file is a manifest; only complain about ones that look like one.
            if prefilter::top_level_kind(bytes).is_some()
                || bytes.windows(6).any(|w| w == b"\"kind\"")
            {
                load.documents = 1;
                load.diagnose(
                    e.line().max(1),
                    "load/invalid-json",
                    format!("invalid JSON: {e}"),
                );
            }
        }
    }
}
