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

/// Parser budgets. Nesting is capped at 64 levels (serde-saphyr's own default, sized to the
/// stack of a worker thread; Kubernetes objects the tool reads nest far less); alias, node and
/// scalar budgets bound memory against alias bombs and huge documents.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: 64,
            flow_nesting_limit: 64,
            max_aliases: 10_000,
            max_anchors: 10_000,
            max_nodes: 2_000_000,
            max_total_scalar_bytes: 64 * 1024 * 1024,
        },
    }
}

/// Parses one YAML document. `Ok(None)` for an empty document (only comments or markers).
pub fn parse_document(text: &str) -> Result<Option<Value>, YamlError> {
    from_str::<Option<Value>>(text)
}

/// Parses one YAML document into `T`, within the same budgets.
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_saphyr::from_str_with_options::<T>(text, options()).map_err(|e| {
        let line = e.location().map(|l| l.line() as usize).filter(|&l| l > 0);
        let column = e.location().map(|l| l.column() as usize).filter(|&c| c > 0);
        // The first line of the message is the parser's own; the rest is a rendered snippet.
        let first = e
            .to_string()
            .lines()
            .next()
            .unwrap_or("invalid YAML")
            .to_string();
        YamlError {
            line,
            column,
            message: strip_position_prefix(&first).to_string(),
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
