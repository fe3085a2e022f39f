//! The report: one model, many renderers. The JSON form is a versioned contract
//! (`docs/report-format.md`); the text form is for terminals.

pub mod github;
pub mod json;
pub mod markdown;
pub mod sarif;
pub mod text;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::index::Index;
use crate::load::Diagnostic;
use crate::note::{Note, Severity};
use crate::translate::SourceResult;
use crate::walk::Skipped;

/// Version of the JSON contract. Bump on any incompatible change.
pub const REPORT_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: u32,
    pub summary: Summary,
    pub objects: Vec<ObjectReport>,
    pub skipped: Vec<Skipped>,
    pub files: Vec<FileAction>,
    /// Problems with the input itself (unreadable documents), with file and line.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings about Gateway API objects already in the repository (`check`), with file
    /// and line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<crate::validate::Finding>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub files_scanned: usize,
    pub documents: usize,
    /// Source objects by `group/Kind` (`networking.istio.io/VirtualService`).
    pub objects: BTreeMap<String, usize>,
    /// Generated objects by kind.
    pub generated: BTreeMap<String, usize>,
    pub notes: NoteCounts,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NoteCounts {
    pub error: usize,
    pub warning: usize,
    pub info: usize,
}

impl NoteCounts {
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.error += 1,
            Severity::Warning => self.warning += 1,
            Severity::Info => self.info += 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Everything mapped.
    Translated,
    /// Translated, with warnings or errors the reviewer must read.
    Partial,
    /// Deliberately not translated (a patch document, an unsupported shape).
    Skipped,
    /// Nothing usable was generated.
    Error,
}

impl Verdict {
    pub fn of(result: &SourceResult) -> Verdict {
        if result.skipped.is_some() {
            return Verdict::Skipped;
        }
        let worst = result.notes.iter().map(|n| n.severity).min();
        match worst {
            Some(Severity::Error) if result.generated.is_empty() => Verdict::Error,
            Some(Severity::Error | Severity::Warning) => Verdict::Partial,
            _ if result.generated.is_empty() => Verdict::Skipped,
            _ => Verdict::Translated,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Translated => "translated",
            Verdict::Partial => "partial",
            Verdict::Skipped => "skipped",
            Verdict::Error => "error",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ObjectReport {
    pub source: SourceInfo,
    pub verdict: Verdict,
    pub generated: Vec<GeneratedInfo>,
    pub notes: Vec<Note>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SourceInfo {
    pub file: String,
    pub line: usize,
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct GeneratedInfo {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// The file the object is (or would be) written to.
    pub file: String,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct FileAction {
    pub path: String,
    /// `create`, `update`, `unchanged`, `delete`.
    pub action: String,
}

/// Counts of what was scanned, before translation.
#[derive(Debug, Clone, Default)]
pub struct ScanStats {
    pub files_scanned: usize,
    pub documents: usize,
}

impl Report {
    /// Builds the report. `output_file` names the file each source's objects go to.
    pub fn build(
        stats: &ScanStats,
        index: &Index,
        results: &[SourceResult],
        skipped: Vec<Skipped>,
        diagnostics: Vec<Diagnostic>,
        files: Vec<FileAction>,
        output_file: &dyn Fn(&SourceResult) -> String,
    ) -> Report {
        let mut summary = Summary {
            files_scanned: stats.files_scanned,
            documents: stats.documents,
            ..Default::default()
        };
        for obj in &index.objects {
            *summary.objects.entry(obj.group_kind()).or_default() += 1;
        }
        let mut objects = Vec::new();
        for result in results {
            let Some(obj) = index.objects.get(result.object) else {
                continue;
            };
            let file = output_file(result);
            for g in &result.generated {
                *summary.generated.entry(g.kind().to_string()).or_default() += 1;
            }
            for n in &result.notes {
                summary.notes.add(n.severity);
            }
            objects.push(ObjectReport {
                source: SourceInfo {
                    file: obj.source.file.clone(),
                    line: obj.source.line,
                    api_version: obj.api_version.clone(),
                    kind: obj.kind.clone(),
                    namespace: obj.namespace.clone(),
                    name: obj.meta.name.clone(),
                },
                verdict: Verdict::of(result),
                generated: result
                    .generated
                    .iter()
                    .map(|g| GeneratedInfo {
                        kind: g.kind().to_string(),
                        namespace: g.namespace().to_string(),
                        name: g.name().to_string(),
                        file: file.clone(),
                    })
                    .collect(),
                notes: result.notes.clone(),
            });
        }
        for d in &diagnostics {
            summary.notes.add(d.severity);
        }
        Report {
            version: REPORT_VERSION,
            summary,
            objects,
            skipped,
            files,
            diagnostics,
            findings: Vec::new(),
        }
    }

    /// Adds the linter's findings (counted in the summary like notes).
    pub fn with_findings(mut self, findings: Vec<crate::validate::Finding>) -> Report {
        for f in &findings {
            self.summary.notes.add(f.severity);
        }
        self.findings = findings;
        self
    }

    pub fn has_errors(&self) -> bool {
        self.summary.notes.error > 0
    }
}
