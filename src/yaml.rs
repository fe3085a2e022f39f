//! The YAML codec: parse one document into JSON-shaped data, and emit objects as YAML.
//!
//! serde-saphyr is pure safe Rust with budgets against alias bombs and deep nesting, and it
//! quotes YAML-1.1-ambiguous scalars (`on`, `yes`, `12:30`) on output, which Kubernetes'
//! YAML 1.1 decoder would otherwise misread.

use serde::Serialize;
use serde_json::Value;

/// A parse failure, with the 1-based line inside the parsed text when the parser knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
    /// The parser stopped at one of its budgets (alias replay, events, nodes, bytes): the
    /// document cost that much work before it was refused.
    pub over_budget: bool,
}

/// The parser's message without its `error: line N column M: ` prefix: the caller knows the
/// document's place in the file and reports the position itself.
fn strip_position_prefix(message: &str) -> &str {
    let rest = message.strip_prefix("error: ").unwrap_or(message);
    match rest.strip_prefix("line ") {
        Some(after) => after.split_once(": ").map_or(rest, |(_, msg)| msg),
        None => rest,
    }
}

/// Events one document's aliases may replay. Each costs about 200 bytes while the document is
/// parsed, so a worker thread holds at most about 10 MiB for an alias bomb (it was 1,000,000,
/// serde-saphyr's default: 190 MiB per thread); manifests that use anchors replay a few
/// hundred.
pub const MAX_REPLAYED_EVENTS_PER_DOCUMENT: usize = 50_000;
/// Nodes that documents with aliases may expand to, in one file and in one run: what the
/// parsed values of such documents keep in memory. A document past either budget is refused
/// with `load/parse-budget`; once a budget is spent, documents with aliases are not parsed.
pub const MAX_EXPANDED_NODES_PER_FILE: usize = 200_000;
pub const MAX_EXPANDED_NODES_PER_RUN: usize = 1_000_000;

/// Parser budgets. Nesting is capped at 64 levels (serde-saphyr's own default, sized to the
/// stack of a worker thread; Kubernetes objects the tool reads nest far less); alias, node and
/// scalar budgets bound memory against alias bombs and huge documents.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: MAX_REPLAYED_EVENTS_PER_DOCUMENT,
        },
        budget: serde_saphyr::budget! {
            max_depth: 64,
            flow_nesting_limit: 64,
            max_aliases: 10_000,
            max_anchors: 10_000,
            max_nodes: MAX_NODES_PER_DOCUMENT,
            max_total_scalar_bytes: 64 * 1024 * 1024,
        },
    }
}

/// Parses one YAML document. `Ok(None)` for an empty document (only comments or markers).
pub fn parse_document(text: &str) -> Result<Option<Value>, YamlError> {
    from_str::<Option<Value>>(text)
}

/// Which budget a refused document hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseLimit {
    /// The file's documents with aliases expanded to too many nodes.
    FileExpansion,
    /// The run's documents with aliases expanded to too many nodes.
    RunExpansion,
    /// The run parsed too many bytes of documents.
    RunBytes,
    /// The run parsed too many nodes.
    RunNodes,
}

impl ParseLimit {
    pub fn describe(self) -> String {
        match self {
            ParseLimit::FileExpansion => format!(
                "this file's documents with aliases already expand to {MAX_EXPANDED_NODES_PER_FILE} nodes (the per-file budget)"
            ),
            ParseLimit::RunExpansion => format!(
                "the run's documents with aliases already expand to {MAX_EXPANDED_NODES_PER_RUN} nodes (the per-run budget)"
            ),
            ParseLimit::RunBytes => format!(
                "the run has already parsed {} MiB of documents (the per-run budget)",
                MAX_PARSED_BYTES_PER_RUN / (1024 * 1024)
            ),
            ParseLimit::RunNodes => format!(
                "the run has already parsed {MAX_PARSED_NODES_PER_RUN} nodes (the per-run budget)"
            ),
        }
    }
}

/// Nodes one document may have: the parse of a document holds them all (about 100 bytes each)
/// on its thread. Kubernetes objects have hundreds; a `List` of a thousand objects fits.
pub const MAX_NODES_PER_DOCUMENT: usize = 100_000;

/// Nodes of all documents one run parses at most: what their values can keep in memory.
pub const MAX_PARSED_NODES_PER_RUN: usize = 3_000_000;

/// Bytes of documents one run parses at most: what their values can hold in memory is a small
/// multiple of it. Real repositories parse a few MiB (only the kinds the tool reads are parsed).
pub const MAX_PARSED_BYTES_PER_RUN: usize = 256 * 1024 * 1024;

/// What one run's parsing may spend, shared by the threads that load files: nodes expanded by
/// aliases (each file also counts its own) and bytes parsed.
#[derive(Debug, Default)]
pub struct ParseBudget {
    expanded: std::sync::atomic::AtomicUsize,
    bytes: std::sync::atomic::AtomicUsize,
    nodes: std::sync::atomic::AtomicUsize,
}

impl ParseBudget {
    /// The budget that refuses a document of `len` bytes that may hold an alias (`aliases`),
    /// given what its file has expanded so far; charges its bytes when it may be parsed.
    pub fn admit(&self, len: usize, aliases: bool, file_expanded: usize) -> Option<ParseLimit> {
        use std::sync::atomic::Ordering::Relaxed;
        if aliases {
            if file_expanded >= MAX_EXPANDED_NODES_PER_FILE {
                return Some(ParseLimit::FileExpansion);
            }
            if self.expanded.load(Relaxed) >= MAX_EXPANDED_NODES_PER_RUN {
                return Some(ParseLimit::RunExpansion);
            }
        }
        if self.nodes.load(Relaxed) >= MAX_PARSED_NODES_PER_RUN {
            return Some(ParseLimit::RunNodes);
        }
        let before = self.bytes.fetch_add(len, Relaxed);
        (before.saturating_add(len) > MAX_PARSED_BYTES_PER_RUN).then_some(ParseLimit::RunBytes)
    }

    /// Charges the nodes a parsed document has to the run; the budget it goes over, if any.
    pub fn charge_nodes(&self, nodes: usize) -> Option<ParseLimit> {
        let before = self
            .nodes
            .fetch_add(nodes, std::sync::atomic::Ordering::Relaxed);
        (before.saturating_add(nodes) > MAX_PARSED_NODES_PER_RUN).then_some(ParseLimit::RunNodes)
    }

    /// Charges `nodes` of alias expansion to the file (`file`) and the run; the budget it goes
    /// over, if any (the charge stands either way: the document was expanded).
    pub fn charge(&self, file: &mut usize, nodes: usize) -> Option<ParseLimit> {
        *file = file.saturating_add(nodes);
        let run = self
            .expanded
            .fetch_add(nodes, std::sync::atomic::Ordering::Relaxed)
            .saturating_add(nodes);
        if *file > MAX_EXPANDED_NODES_PER_FILE {
            Some(ParseLimit::FileExpansion)
        } else if run > MAX_EXPANDED_NODES_PER_RUN {
            Some(ParseLimit::RunExpansion)
        } else {
            None
        }
    }
}

/// One parsed document and what it cost.
#[derive(Debug)]
pub struct Parsed {
    pub value: Option<Value>,
    /// Nodes the parser read (aliases' replays not counted).
    pub nodes: usize,
    /// Nodes its value has when the document used aliases (what they expanded to); 0 when it
    /// used none: nothing was expanded.
    pub expanded: usize,
}

/// Parses one YAML document, counting what it cost ([`Parsed`]).
pub fn parse_document_counting(text: &str) -> Result<Parsed, YamlError> {
    let seen = std::rc::Rc::new(std::cell::Cell::new((0usize, 0usize)));
    let report_to = seen.clone();
    let mut opts = options();
    opts.budget_report_cb = Some(std::rc::Rc::new(std::cell::RefCell::new(
        move |report: serde_saphyr::budget::BudgetReport| {
            report_to.set((report.aliases, report.nodes));
        },
    )));
    let value = parse_with(text, opts)?;
    let (aliases, nodes) = seen.get();
    let expanded = match &value {
        Some(v) if aliases > 0 => count_nodes(v),
        _ => 0,
    };
    Ok(Parsed {
        value,
        nodes,
        expanded,
    })
}

/// Nodes of a value (scalars, lists and maps; keys are not counted).
fn count_nodes(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// Parses one YAML document into `T`, within the same budgets.
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    parse_with(text, options())
}

fn parse_with<T: serde::de::DeserializeOwned>(
    text: &str,
    opts: serde_saphyr::Options,
) -> Result<T, YamlError> {
    serde_saphyr::from_str_with_options::<T>(text, opts).map_err(|e| {
        let line = e.location().map(|l| l.line() as usize).filter(|&l| l > 0);
        let column = e.location().map(|l| l.column() as usize).filter(|&c| c > 0);
        // The first line of the message is the parser's own; the rest is a rendered snippet.
        let first = e
            .to_string()
            .lines()
            .next()
            .unwrap_or("invalid YAML")
            .to_string();
        // The parser wraps the error it stopped at (in a snippet, at an alias).
        let mut inner = &e;
        while let serde_saphyr::Error::WithSnippet { error, .. }
        | serde_saphyr::Error::AliasError { error, .. } = inner
        {
            inner = error;
        }
        let over_budget = matches!(
            inner,
            serde_saphyr::Error::AliasReplayLimitExceeded { .. }
                | serde_saphyr::Error::Budget { .. }
        );
        YamlError {
            line,
            column,
            message: strip_position_prefix(&first).to_string(),
            over_budget,
        }
    })
}

/// Emits one object as a YAML document body (no leading `---`).
pub fn to_yaml<T: Serialize>(value: &T) -> String {
    let opts = serde_saphyr::ser_options! {
        prefer_block_scalars: false,
    };
    let mut out = String::new();
    match serde_saphyr::to_fmt_writer_with_options(&mut out, value, opts) {
        Ok(()) => out,
        // Our generated types contain only strings, numbers, lists and string-keyed maps, so
        // serialisation does not fail; should it ever, fall back to JSON, which is YAML too.
        Err(_) => serde_json::to_string_pretty(value).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values copied from input (annotation values, header values, names) are written as
    /// YAML scalars: whatever they hold, no raw line break (as YAML 1.1 parsers count them)
    /// or control character reaches the output, and the value reads back unchanged.
    #[test]
    fn input_strings_stay_one_scalar() {
        let hostile = [
            "a\nkind: Pod",
            "a\r\n---\r\nkind: Pod",
            "a\u{85}kind: Pod",
            "a\u{2028}kind: Pod\u{2029}",
            "# c",
            "--- x",
            "a: b",
            "\u{1b}[2J\u{7}\u{7f}\t",
            "\u{feff}bom",
            "'quote\"",
        ];
        for value in hostile {
            let doc = serde_json::json!({ "kind": "HTTPRoute", "metadata": { "annotations": { "x": value } } });
            let text = to_yaml(&doc);
            assert!(
                !text
                    .chars()
                    .any(|c| (c.is_control() && c != '\n') || matches!(c, '\u{2028}' | '\u{2029}')),
                "{value:?} -> {text:?}"
            );
            let back: serde_json::Value =
                from_str(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(back, doc, "{text}");
        }
    }
}
