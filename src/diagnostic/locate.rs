//! Symbolic locations → line and column: finds a field path (`spec.http[0].retries`,
//! `metadata.annotations["nginx.ingress.kubernetes.io/rewrite-target"]`) in one YAML (or
//! JSON) document's text with an event parser that reports positions.
//!
//! Used only when rendering: the loader keeps the documents' text, diagnostics keep paths.

use granit_parser::{Event, Parser};

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// Parses `a.b[0]["c.d"].e` into segments. Keys may be bare (up to `.` or `[`) or quoted
/// inside brackets (`["x.y"]`, `['x.y']`).
pub fn parse_path(path: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
            continue;
        }
        if let Some(r) = rest.strip_prefix('[') {
            let quote = r.chars().next().filter(|c| *c == '"' || *c == '\'');
            if let Some(q) = quote {
                let body = &r[1..];
                let Some(end) = body.find(q) else { break };
                out.push(Segment::Key(body[..end].to_string()));
                rest = body[end + 1..]
                    .strip_prefix(']')
                    .unwrap_or(&body[end + 1..]);
            } else {
                let Some(end) = r.find(']') else { break };
                match r[..end].trim().parse::<usize>() {
                    Ok(i) => out.push(Segment::Index(i)),
                    Err(_) => out.push(Segment::Key(r[..end].to_string())),
                }
                rest = &r[end + 1..];
            }
            continue;
        }
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        out.push(Segment::Key(rest[..end].to_string()));
        rest = &rest[end..];
    }
    out
}

/// A map key as a path step: `.name` when it is a plain name, `["name"]` when it holds
/// characters a path uses (a header named `x.y`, an annotation `a.io/b`).
pub fn key_step(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if plain {
        format!(".{name}")
    } else {
        format!("[{name:?}]")
    }
}

/// Where a field is in the document text (1-based lines and columns, relative to the text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
}

/// How deeply nested a document may be before locating gives up (the loader's own limit is
/// lower, so a loaded document never reaches it).
const MAX_DEPTH: usize = 256;

/// A parsed node with its place.
#[derive(Debug)]
struct Node {
    start: (usize, usize),
    end_line: usize,
    body: Body,
}

#[derive(Debug)]
enum Body {
    Scalar,
    /// Entries: key text, key position, value.
    Map(Vec<(String, (usize, usize), Node)>),
    Seq(Vec<Node>),
}

/// Finds `path` in `text`: the region of the deepest node on the path that exists (a
/// mapping entry is located at its key, so `spec.http[0].retries` points at `retries:`).
/// `None` when the text does not parse or not even the first segment is there.
pub fn locate(text: &str, path: &[Segment]) -> Option<Region> {
    Tree::parse(text)?.find(path)
}

/// A parsed document, for locating many paths in it.
#[derive(Debug)]
pub struct Tree(Node);

impl Tree {
    /// Parses the first document of `text`; `None` when it does not parse.
    pub fn parse(text: &str) -> Option<Tree> {
        parse(text).map(Tree)
    }

    /// See [`locate`].
    pub fn find(&self, path: &[Segment]) -> Option<Region> {
        find(&self.0, path)
    }
}

fn find(root: &Node, path: &[Segment]) -> Option<Region> {
    let mut node = root;
    let mut found: Option<Region> = None;
    for seg in path {
        let next = match (&node.body, seg) {
            (Body::Map(entries), Segment::Key(k)) => entries
                .iter()
                .find(|(key, _, _)| key == k)
                .map(|(_, pos, value)| (*pos, value)),
            (Body::Seq(items), Segment::Index(i)) => items.get(*i).map(|n| (n.start, n)),
            _ => None,
        };
        let Some((pos, child)) = next else { break };
        found = Some(Region {
            line: pos.0,
            column: pos.1,
            end_line: child.end_line.max(pos.0),
        });
        node = child;
    }
    found
}

/// Builds the node tree of the first document of `text` (iteratively: no recursion on
/// input depth).
fn parse(text: &str) -> Option<Node> {
    enum Frame {
        Map {
            start: (usize, usize),
            entries: Vec<(String, (usize, usize), Node)>,
            key: Option<(String, (usize, usize))>,
        },
        Seq {
            start: (usize, usize),
            items: Vec<Node>,
        },
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.ok()?;
        let start = (span.start.line(), span.start.col() + 1);
        let end_line = span.end.line();
        let complete: Option<Node> = match event {
            Event::MappingStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(Frame::Map {
                    start,
                    entries: Vec::new(),
                    key: None,
                });
                None
            }
            Event::SequenceStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(Frame::Seq {
                    start,
                    items: Vec::new(),
                });
                None
            }
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map { start, entries, .. }) => Some(Node {
                    start,
                    end_line,
                    body: Body::Map(entries),
                }),
                _ => return None,
            },
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq { start, items }) => Some(Node {
                    start,
                    end_line,
                    body: Body::Seq(items),
                }),
                _ => return None,
            },
            Event::Scalar(value, ..) => {
                // A scalar in key position names the next entry.
                if let Some(Frame::Map {
                    key: key @ None, ..
                }) = stack.last_mut()
                {
                    *key = Some((value.into_owned(), start));
                    continue;
                }
                Some(Node {
                    start,
                    end_line,
                    body: Body::Scalar,
                })
            }
            Event::Alias(..) | Event::UnresolvedAlias(..) => {
                if let Some(Frame::Map {
                    key: key @ None, ..
                }) = stack.last_mut()
                {
                    *key = Some((String::new(), start));
                    continue;
                }
                Some(Node {
                    start,
                    end_line,
                    body: Body::Scalar,
                })
            }
            Event::DocumentEnd => break,
            _ => None,
        };
        let Some(node) = complete else { continue };
        match stack.last_mut() {
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                Some((k, pos)) => entries.push((k, pos, node)),
                // A collection as a key: keep the structure, it can never match a path.
                None => *key = Some((String::new(), node.start)),
            },
            Some(Frame::Seq { items, .. }) => items.push(node),
            None => {
                root = Some(node);
            }
        }
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, path: &str) -> Option<(usize, usize)> {
        locate(text, &parse_path(path)).map(|r| (r.line, r.column))
    }

    #[test]
    fn key_steps_quote_what_a_path_would_split() {
        assert_eq!(key_step("x-user"), ".x-user");
        assert_eq!(
            key_step("@request.auth.claims.foo"),
            r#"["@request.auth.claims.foo"]"#
        );
        assert_eq!(
            parse_path(&format!("a.headers{}", key_step("a.b"))),
            vec![
                Segment::Key("a".into()),
                Segment::Key("headers".into()),
                Segment::Key("a.b".into())
            ]
        );
    }

    #[test]
    fn paths_parse_into_keys_and_indices() {
        assert_eq!(
            parse_path(r#"spec.http[0].route[12]["a.b/c"]['d'].e"#),
            vec![
                Segment::Key("spec".into()),
                Segment::Key("http".into()),
                Segment::Index(0),
                Segment::Key("route".into()),
                Segment::Index(12),
                Segment::Key("a.b/c".into()),
                Segment::Key("d".into()),
                Segment::Key("e".into()),
            ]
        );
    }

    #[test]
    fn fields_are_found_at_their_key() {
        let doc = "apiVersion: v1\nkind: VirtualService\nspec:\n  http:\n  - match:\n    - uri: {prefix: /a}\n  - route: []\n    retries:\n      attempts: 3\n";
        assert_eq!(at(doc, "spec.http[1].retries"), Some((8, 5)));
        assert_eq!(at(doc, "spec.http[1].retries.attempts"), Some((9, 7)));
        assert_eq!(at(doc, "spec.http[0].match[0].uri.prefix"), Some((6, 13)));
        // A missing leaf points at the deepest field that exists.
        assert_eq!(at(doc, "spec.http[1].timeout"), Some((7, 5)));
        assert_eq!(at(doc, "status"), None);
    }

    #[test]
    fn quoted_keys_with_dots_are_found() {
        let doc = "metadata:\n  annotations:\n    nginx.ingress.kubernetes.io/rewrite-target: /\n";
        assert_eq!(
            at(
                doc,
                r#"metadata.annotations["nginx.ingress.kubernetes.io/rewrite-target"]"#
            ),
            Some((3, 5))
        );
    }

    #[test]
    fn json_documents_are_located_too() {
        let doc = "{\n  \"spec\": {\n    \"hosts\": [\"a\", \"b\"]\n  }\n}\n";
        assert_eq!(at(doc, "spec.hosts[1]"), Some((3, 20)));
    }

    #[test]
    fn end_line_covers_the_value() {
        let doc = "spec:\n  tls:\n    mode: SIMPLE\n    credentialName: x\nnext: 1\n";
        let r = locate(doc, &parse_path("spec.tls")).unwrap();
        assert_eq!((r.line, r.column), (2, 3));
        assert!(r.end_line >= 4, "{r:?}");
    }

    #[test]
    fn unparsable_text_locates_nothing() {
        assert_eq!(at("a: [", "a"), None);
    }
}
