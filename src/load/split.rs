//! Byte-exact splitting of a YAML stream into documents.
//!
//! A line scanner, not a parser: YAML forbids a `---` or `...` marker at column 0 inside any
//! scalar, so a line that starts with one (followed by a space, tab or line end) always
//! separates documents. Parser markers are not used as byte offsets because YAML parsers in
//! Rust count characters, not bytes. The spans always cover the input exactly, in order, so
//! `spans.map(|s| &input[s.start..s.end]).concat() == input` for any input, valid or not.

/// One piece of the stream: from a `---` line (or the start) up to the next `---` line, or
/// up to and including a `...` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
}

impl Span {
    pub fn slice<'a>(&self, input: &'a [u8]) -> &'a [u8] {
        &input[self.start..self.end]
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether `line` (without its line ending) is a document marker `marker` (`---` or `...`).
fn is_marker(line: &[u8], marker: &[u8; 3]) -> bool {
    line.starts_with(marker) && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}

/// Splits `input` into spans. Empty input yields no span.
pub fn split(input: &[u8]) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut start = 0;
    let mut start_line = 1;
    let mut pos = 0;
    let mut line_no = 1;
    while pos < input.len() {
        let line_end = memchr_newline(&input[pos..]).map_or(input.len(), |i| pos + i + 1);
        let mut line = &input[pos..line_end];
        if pos == 0 && line.starts_with(BOM) {
            line = &line[BOM.len()..];
        }
        if is_marker(line, b"---") && pos > start {
            spans.push(Span {
                start,
                end: pos,
                line: start_line,
            });
            start = pos;
            start_line = line_no;
        } else if is_marker(line, b"...") {
            spans.push(Span {
                start,
                end: line_end,
                line: start_line,
            });
            start = line_end;
            start_line = line_no + 1;
        }
        pos = line_end;
        line_no += 1;
    }
    if start < input.len() {
        spans.push(Span {
            start,
            end: input.len(),
            line: start_line,
        });
    }
    spans
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// Whether a span holds anything but markers, directives, comments and blank lines.
pub fn has_content(bytes: &[u8]) -> bool {
    first_content_line(bytes).is_some()
}

/// 0-based line offset (within the span) of the first line with content, if any.
pub fn first_content_line(bytes: &[u8]) -> Option<usize> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = trim_ascii(raw);
        if line.is_empty() || line.starts_with(b"#") || line.starts_with(b"%") {
            continue;
        }
        if is_marker(raw, b"...") {
            continue;
        }
        if is_marker(raw, b"---") {
            // `--- {a: 1}` or `--- !tag` carries content on the marker line itself.
            let rest = trim_ascii(&raw[3..]);
            if rest.is_empty() || rest.starts_with(b"#") {
                continue;
            }
        }
        return Some(i);
    }
    None
}

fn trim_ascii(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(input: &str) -> Vec<&str> {
        split(input.as_bytes())
            .iter()
            .map(|s| std::str::from_utf8(s.slice(input.as_bytes())).unwrap())
            .collect()
    }

    #[test]
    fn splits_on_markers_and_keeps_every_byte() {
        let input = "# head\n---\na: 1\n--- \nb: 2\n...\n# tail\n---\nc: 3";
        assert_eq!(
            pieces(input),
            vec![
                "# head\n",
                "---\na: 1\n",
                "--- \nb: 2\n...\n",
                "# tail\n",
                "---\nc: 3"
            ]
        );
    }

    #[test]
    fn indented_or_glued_dashes_are_not_markers() {
        let input = "a: |\n  ---\n  x\nb: ----\n---x: 1\n";
        assert_eq!(pieces(input), vec![input]);
    }

    #[test]
    fn crlf_and_bom() {
        let input = "\u{FEFF}---\r\na: 1\r\n---\r\nb: 2\r\n";
        assert_eq!(
            pieces(input),
            vec!["\u{FEFF}---\r\na: 1\r\n", "---\r\nb: 2\r\n"]
        );
    }

    #[test]
    fn line_numbers_are_one_based_span_starts() {
        let spans = split(b"a: 1\n---\nb: 2\n---\n\nc: 3\n");
        let lines: Vec<usize> = spans.iter().map(|s| s.line).collect();
        assert_eq!(lines, vec![1, 2, 4]);
    }

    #[test]
    fn content_detection() {
        assert!(!has_content(b"---\n# only a comment\n\n...\n"));
        assert!(has_content(b"--- {a: 1}\n"));
        assert_eq!(first_content_line(b"---\n# c\nkind: X\n"), Some(2));
    }
}
