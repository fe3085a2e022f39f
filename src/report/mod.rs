//! The report: one model, many renderers. The JSON form is a versioned contract
//! (`docs/report-format.md`); the text form is for terminals.

pub mod github;
pub mod json;
pub mod markdown;
pub mod sarif;
pub mod text;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::pipeline::Outcome;
use crate::plan::{FileAction, output_path};
use crate::translate::SourceResult;
use crate::walk::Skipped;

/// Version of the JSON contract. Bump on any incompatible change.
pub const REPORT_VERSION: u32 = 2;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: u32,
    pub summary: Summary,
    /// The source objects the run translated.
    pub objects: Vec<ObjectReport>,
    /// Every diagnostic of the run, located: translation notes, problems with the input,
    /// validator findings about Gateway API objects already in the repository, planning
    /// notes, stale files and skipped paths. Sorted by file and position.
    pub diagnostics: Vec<ReportedDiagnostic>,
    pub skipped: Vec<Skipped>,
    pub files: Vec<FileAction>,
    /// The kustomize builds (and directories GitOps objects deploy) and what rendering and
    /// verification found for each.
    pub builds: Vec<BuildSummary>,
    /// The deploy units: what the repository deploys together, by what, and where to
    /// (`docs/deploy-units.md`).
    pub units: Vec<UnitSummary>,
    /// Diagnostics a suppression accepted: not in `diagnostics`, not counted in
    /// `summary.notes`, listed for audit.
    pub suppressed: Vec<SuppressedDiagnostic>,
    /// The ingress-nginx controllers the Ingresses were served by: where each one's
    /// configuration came from, or the defaults assumed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<crate::controllers::ControllerUse>,
}

/// A diagnostic a suppression accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SuppressedDiagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub file: String,
    pub line: usize,
    /// `file:line` of the comment, or `config ignore[N]`.
    pub by: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One build root in the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuildSummary {
    /// The directory built (`.` for the root).
    pub build: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kustomization: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deployed_by: Vec<String>,
    /// `verified`, `differs`, `nothing to translate`, `refused`, `render failed`,
    /// `directory`, `not rendered`.
    pub status: &'static str,
}

/// One deploy unit in the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitSummary {
    /// The directory (`.` for the root).
    pub unit: String,
    /// `kustomize`, `directory` (a GitOps object applies it as it is), `manual` (nothing
    /// includes or deploys it).
    pub kind: crate::deploy::UnitKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kustomization: Option<String>,
    /// The GitOps objects deploying it, with their destinations and ordering.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deployed_by: Vec<crate::deploy::Deployment>,
    /// What rendering found, for the units the render stage looked at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<&'static str>,
}

impl Report {
    /// `"2 kustomize, 1 directory"`: deploy units by kind.
    pub fn unit_counts(&self) -> String {
        use crate::deploy::UnitKind;
        [UnitKind::Kustomize, UnitKind::Directory, UnitKind::Manual]
            .iter()
            .filter_map(|k| {
                let n = self.units.iter().filter(|u| u.kind == *k).count();
                (n > 0).then(|| format!("{n} {}", k.as_str()))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `"2 verified, 1 differs, 3 refused"`: build counts by status, in a fixed order.
    pub fn build_counts(&self) -> String {
        let order = [
            "verified",
            "differs",
            "nothing to translate",
            "refused",
            "render failed",
            "directory",
            "not rendered",
        ];
        order
            .iter()
            .filter_map(|st| {
                let n = self.builds.iter().filter(|b| b.status == *st).count();
                (n > 0).then(|| format!("{n} {st}"))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A diagnostic with its place resolved to a line and column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportedDiagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub file: String,
    /// 1-based; the line of the field when it was found, else of the document (0: none).
    pub line: usize,
    /// 1-based column of the field (or of the position a parser error names).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// Last line of the field's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// Path of the field in the source document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Path of the field in the generated object (validation of generated objects).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated_field: Option<String>,
    /// The rule broken (validator diagnostics).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The object the diagnostic is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<Subject>,
    /// Position of the subject in [`Report::objects`] when it is a translated source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<usize>,
}

impl ReportedDiagnostic {
    /// A finding about a Gateway API object already in the repository (from `check`).
    pub fn is_finding(&self) -> bool {
        self.subject.is_some() && self.object.is_none()
    }

    /// About a file rather than an object (input problems, planning, staleness, skips).
    pub fn is_file_level(&self) -> bool {
        self.subject.is_none()
    }

    /// `Kind ns/name`, or empty.
    pub fn subject_name(&self) -> String {
        self.subject
            .as_ref()
            .map(|s| format!("{} {}/{}", s.kind, s.namespace, s.name))
            .unwrap_or_default()
    }
}

/// The object a diagnostic is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Subject {
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub files_scanned: usize,
    pub documents: usize,
    /// Source objects by `group/Kind` (`networking.istio.io/VirtualService`).
    pub objects: BTreeMap<String, usize>,
    /// Generated objects by kind.
    pub generated: BTreeMap<String, usize>,
    /// Diagnostics by severity (suppressed ones not included).
    pub notes: NoteCounts,
    /// Diagnostics suppressed by an inline comment or a configuration rule.
    pub suppressed: usize,
    /// Routing equivalence: probes sent, hosts, how many differ (absent with
    /// `--no-equivalence`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equivalence: Option<crate::equivalence::Summary>,
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
    pub fn of(result: &SourceResult, worst: Option<Severity>) -> Verdict {
        if result.skipped.is_some() {
            return Verdict::Skipped;
        }
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
    /// Positions of this object's diagnostics in [`Report::diagnostics`].
    #[serde(skip)]
    pub diagnostics: Vec<usize>,
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

impl Report {
    /// Builds the report of a run. Pure: everything comes from the outcome; diagnostics are
    /// located here, from the loaded documents' text.
    pub fn build(outcome: &Outcome) -> Report {
        let index = &outcome.scan.index;
        let mut summary = Summary {
            files_scanned: outcome.scan.stats.files_scanned,
            documents: outcome.scan.stats.documents,
            ..Default::default()
        };
        for obj in &index.objects {
            *summary.objects.entry(obj.group_kind()).or_default() += 1;
        }
        for (group_kind, count) in &outcome.scan.stats.unparsed_objects {
            *summary.objects.entry(group_kind.clone()).or_default() += count;
        }
        // Translated sources, by position in the index.
        let mut objects = Vec::new();
        let mut report_position: BTreeMap<usize, usize> = BTreeMap::new();
        let mut worst_of: BTreeMap<usize, Severity> = BTreeMap::new();
        for d in &outcome.diagnostics {
            if let Some(object) = d.location.object {
                let worst = worst_of.entry(object).or_insert(d.severity);
                *worst = (*worst).min(d.severity);
            }
        }
        for result in &outcome.results {
            let Some(obj) = index.objects.get(result.object) else {
                continue;
            };
            for g in &result.generated {
                *summary.generated.entry(g.kind().to_string()).or_default() += 1;
            }
            let worst = worst_of.get(&result.object).copied();
            let default_file = output_path(&obj.source.file, &outcome.config.output_suffix);
            report_position.insert(result.object, objects.len());
            objects.push(ObjectReport {
                source: SourceInfo {
                    file: obj.source.file.clone(),
                    line: obj.source.line,
                    api_version: obj.api_version.clone(),
                    kind: obj.kind.clone(),
                    namespace: obj.namespace.clone(),
                    name: obj.meta.name.clone(),
                },
                verdict: Verdict::of(result, worst),
                generated: result
                    .generated
                    .iter()
                    .map(|g| {
                        let key = (
                            obj.source.file.clone(),
                            g.kind().to_string(),
                            g.namespace().to_string(),
                            g.name().to_string(),
                        );
                        GeneratedInfo {
                            kind: g.kind().to_string(),
                            namespace: g.namespace().to_string(),
                            name: g.name().to_string(),
                            file: outcome
                                .plan
                                .placements
                                .get(&key)
                                .cloned()
                                .unwrap_or_else(|| default_file.clone()),
                        }
                    })
                    .collect(),
                diagnostics: Vec::new(),
            });
        }
        let mut locator = Locator::new(outcome);
        let mut diagnostics: Vec<ReportedDiagnostic> = outcome
            .diagnostics
            .iter()
            .map(|d| {
                summary.notes.add(d.severity);
                let object = d
                    .location
                    .object
                    .and_then(|o| report_position.get(&o).copied());
                locator.report(d, object)
            })
            .collect();
        // In reading order: by file, then by the line and column the fields resolved to.
        diagnostics.sort_by(|a, b| {
            (&a.file, a.line, a.column, a.code, &a.message)
                .cmp(&(&b.file, b.line, b.column, b.code, &b.message))
        });
        for (i, d) in diagnostics.iter().enumerate() {
            if let Some(o) = d.object.and_then(|o| objects.get_mut(o)) {
                o.diagnostics.push(i);
            }
        }
        let suppressed: Vec<SuppressedDiagnostic> = outcome
            .suppressed
            .iter()
            .map(|s| SuppressedDiagnostic {
                code: s.diagnostic.code,
                severity: s.diagnostic.severity,
                message: s.diagnostic.message.clone(),
                file: s.diagnostic.location.file.clone(),
                line: locator.places.resolve(&s.diagnostic).line,
                by: s.by.clone(),
                reason: s.reason.clone(),
            })
            .collect();
        summary.suppressed = suppressed.len();
        summary.equivalence = outcome.equivalence.clone();
        let files = outcome
            .written
            .clone()
            .unwrap_or_else(|| outcome.plan.file_actions());
        Report {
            version: REPORT_VERSION,
            summary,
            objects,
            diagnostics,
            skipped: outcome.scan.skipped.clone(),
            builds: outcome
                .builds
                .iter()
                .map(|b| BuildSummary {
                    build: b.build.name().to_string(),
                    kustomization: b.build.kustomization.clone(),
                    deployed_by: b
                        .build
                        .deployed_by
                        .iter()
                        .map(|d| d.file.clone())
                        .collect::<std::collections::BTreeSet<_>>()
                        .into_iter()
                        .collect(),
                    status: b.status.as_str(),
                })
                .collect(),
            units: outcome
                .units
                .units
                .iter()
                .map(|u| UnitSummary {
                    unit: u.name().to_string(),
                    kind: u.kind(),
                    kustomization: u.kustomization.clone(),
                    deployed_by: u.deployed_by.clone(),
                    status: outcome
                        .builds
                        .iter()
                        .find(|b| b.build.dir == u.dir)
                        .map(|b| b.status.as_str()),
                })
                .collect(),
            files,
            suppressed,
            controllers: outcome.controllers.clone(),
        }
    }

    /// The diagnostics of the translated object at `position` in [`Report::objects`].
    pub fn notes_of(&self, position: usize) -> impl Iterator<Item = &ReportedDiagnostic> {
        self.objects
            .get(position)
            .into_iter()
            .flat_map(|o| o.diagnostics.iter())
            .filter_map(|&i| self.diagnostics.get(i))
    }

    /// Findings about Gateway API objects already in the repository (`check`).
    pub fn findings(&self) -> impl Iterator<Item = &ReportedDiagnostic> {
        self.diagnostics.iter().filter(|d| d.is_finding())
    }

    /// Diagnostics about files rather than objects.
    pub fn file_diagnostics(&self) -> impl Iterator<Item = &ReportedDiagnostic> {
        self.diagnostics.iter().filter(|d| d.is_file_level())
    }

    /// How many diagnostics are at `severity` or more severe.
    pub fn at_or_above(&self, severity: Severity) -> usize {
        let n = &self.summary.notes;
        match severity {
            Severity::Error => n.error,
            Severity::Warning => n.error + n.warning,
            Severity::Info => n.error + n.warning + n.info,
        }
    }

    /// Diagnostic counts per code, most severe first, then by count (largest first) and
    /// code.
    pub fn counts_by_code(&self) -> Vec<(Code, Severity, usize)> {
        let mut counts: BTreeMap<(Severity, Code), usize> = BTreeMap::new();
        for d in &self.diagnostics {
            *counts.entry((d.severity, d.code)).or_default() += 1;
        }
        let mut out: Vec<(Code, Severity, usize)> =
            counts.into_iter().map(|((s, c), n)| (c, s, n)).collect();
        out.sort_by(|a, b| {
            (a.1, std::cmp::Reverse(a.2), a.0).cmp(&(b.1, std::cmp::Reverse(b.2), b.0))
        });
        out
    }
}

/// Turns the outcome's diagnostics into reported ones, resolving each place once.
struct Locator<'a> {
    outcome: &'a Outcome,
    places: crate::scan::Locator<'a>,
}

impl<'a> Locator<'a> {
    fn new(outcome: &'a Outcome) -> Self {
        Locator {
            outcome,
            places: crate::scan::Locator::new(&outcome.scan),
        }
    }

    fn report(&mut self, d: &'a Diagnostic, object: Option<usize>) -> ReportedDiagnostic {
        let place = self.places.resolve(d);
        let loc = &d.location;
        let subject = loc.object.and_then(|o| {
            let obj = self.outcome.scan.index.objects.get(o)?;
            Some(Subject {
                kind: obj.kind.clone(),
                namespace: obj.namespace.clone(),
                name: obj.meta.name.clone(),
            })
        });
        ReportedDiagnostic {
            code: d.code,
            severity: d.severity,
            message: d.message.clone(),
            file: loc.file.clone(),
            line: place.line,
            column: place.column,
            end_line: place.end_line,
            field: place.field,
            generated_field: loc.generated_field.clone(),
            rule: d.rule.clone(),
            subject,
            object,
        }
    }
}
