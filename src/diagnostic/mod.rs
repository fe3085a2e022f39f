//! Diagnostics: everything a run tells the user (load problems, translation notes, validator
//! findings, plan notes, staleness, skipped paths) is one [`Diagnostic`] with a [`Code`] from
//! the one registry ([`registry`]).
//!
//! A diagnostic is located symbolically: the file, the document in it and the path of the
//! field it is about (`spec.http[0].retries`). Only when a report is rendered is that turned
//! into a line and column, from the loaded document's text ([`locate`]).

pub mod docs;
pub mod examples;
pub mod locate;
pub mod parts;
pub mod registry;

use serde::Serialize;

pub use parts::Part;
pub use registry::Code;

/// How much a diagnostic matters to the reviewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was lost or is invalid; a human must act before merging.
    Error,
    /// Translated with a behaviour difference the reviewer should know about.
    Warning,
    /// Context: what was done and why.
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// Where a diagnostic points, symbolically.
///
/// Translators only know the field of the object they translate; the pipeline places their
/// diagnostics on the object's file and document ([`Diagnostic::place`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Root-relative, `/`-separated; empty until placed.
    pub file: String,
    /// The document of the file (counting documents with content, from 0).
    pub document: Option<usize>,
    /// The line to show when no field is given or it cannot be found: the document's first
    /// line, or the exact line a loader error names (1-based; 0 when unknown).
    pub line: usize,
    /// The column of `line`, when the producer knows it exactly (1-based).
    pub column: Option<usize>,
    /// Path of the field in the source document (`spec.http[0].retries`).
    pub field: Option<String>,
    /// Position of the source object in the index, when the diagnostic is about one.
    pub object: Option<usize>,
    /// Path of a field in a *generated* object the diagnostic is about (validator findings
    /// on generated objects); it has no place in the source text.
    pub generated_field: Option<String>,
}

/// One thing the user is told.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    pub location: Location,
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// For validator diagnostics: the rule broken (the CRD's CEL message, the schema keyword
    /// or the predicted status reason).
    pub rule: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the code's registered severity.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            location: Location::default(),
            code,
            severity: code.severity(),
            message: message.into(),
            rule: None,
        }
    }

    /// Names the source field the diagnostic is about, e.g. `spec.http[0].fault`.
    pub fn at(mut self, field: impl Into<String>) -> Self {
        // An empty path names the whole object, which the location already is.
        let field = field.into();
        if !field.is_empty() {
            self.location.field = Some(field);
        }
        self
    }

    /// Names a field of the generated object the diagnostic is about.
    pub fn at_generated(mut self, field: impl Into<String>) -> Self {
        let field = field.into();
        if !field.is_empty() {
            self.location.generated_field = Some(field);
        }
        self
    }

    /// Places the diagnostic in `file` at `line` (a loader problem, a planned file).
    pub fn in_file(mut self, file: impl Into<String>, line: usize) -> Self {
        self.location.file = file.into();
        self.location.line = line;
        self
    }

    /// Sets the exact column of the line (1-based).
    pub fn with_column(mut self, column: Option<usize>) -> Self {
        self.location.column = column;
        self
    }

    /// Places a diagnostic on the source object at `object` (position in the index), in
    /// `file`, document `document` starting at `line`.
    pub fn place(&mut self, object: usize, file: &str, document: usize, line: usize) {
        self.location.object = Some(object);
        self.location.file = file.to_string();
        self.location.document = Some(document);
        self.location.line = line;
    }

    /// Names the rule broken (validator diagnostics).
    pub fn with_rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }

    /// `--strict`: codes about objects outside the repository become errors.
    pub fn strict(mut self, strict: bool) -> Self {
        if strict && self.code.escalated_by_strict() {
            self.severity = Severity::Error;
        }
        self
    }
}

/// A code or a whole family, as suppressions and `--select` name them: `istio/retries`,
/// `istio/*` (or just `istio`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CodePattern {
    Code(Code),
    Family(&'static str),
}

impl CodePattern {
    /// Parses a pattern; the error names the nearest known code when there is one.
    pub fn parse(text: &str) -> Result<CodePattern, String> {
        let text = text.trim();
        if let Some(code) = Code::parse(text) {
            return Ok(CodePattern::Code(code));
        }
        let family = text.strip_suffix("/*").unwrap_or(text);
        if let Some(known) = Code::ALL.iter().map(|c| c.family()).find(|f| *f == family) {
            return Ok(CodePattern::Family(known));
        }
        let nearest = Code::ALL
            .iter()
            .map(|c| (edit_distance(text, c.id()), c.id()))
            .min()
            .filter(|(d, _)| *d <= 3);
        Err(match nearest {
            Some((_, id)) => format!("unknown code `{text}` (did you mean `{id}`?)"),
            None => format!(
                "unknown code `{text}` (`gateway-migrate codes` lists them; `family/*` names a family)"
            ),
        })
    }

    pub fn matches(self, code: Code) -> bool {
        match self {
            CodePattern::Code(c) => c == code,
            CodePattern::Family(f) => code.family() == f,
        }
    }

    /// The family the pattern belongs to.
    pub fn family(self) -> &'static str {
        match self {
            CodePattern::Code(c) => c.family(),
            CodePattern::Family(f) => f,
        }
    }
}

impl std::fmt::Display for CodePattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodePattern::Code(c) => write!(f, "{c}"),
            CodePattern::Family(family) => write!(f, "{family}/*"),
        }
    }
}

/// Levenshtein distance, for "did you mean".
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// `a, b, c and 7 more`: a list in a message, kept to `max` names so that one diagnostic stays
/// one readable line however large the repository.
pub fn list_some(items: &[String], max: usize) -> String {
    let mut out = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > max {
        out.push_str(&format!(" and {} more", items.len() - max));
    }
    out
}
