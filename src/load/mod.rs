//! Loading: read each file once, split it into documents with exact byte spans, decode only the
//! documents that matter. One bad document is a diagnostic, never an abort.

pub(crate) mod decode;
pub use decode::{BuildOptions, DeployTarget, Deployer, Generator};
pub mod prefilter;
pub mod split;

use std::sync::Arc;

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::kustomize::Kustomization;
use crate::model::surrounding::Surrounding;
use crate::model::{SourceBody, SourceObject, SourceRef};
use crate::yaml::{ParseBudget, ParseLimit};
use split::Span;

/// A loaded file's bytes and the place of each of its documents: kept for the files the
/// report locates diagnostics in and the planner edits, so neither reads a file twice.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub bytes: Arc<[u8]>,
    /// Byte span and first line of each document with content, by document index.
    pub documents: Vec<Span>,
}

impl SourceText {
    /// The text of document `index` (a byte order mark removed), when it is UTF-8.
    pub fn document(&self, index: usize) -> Option<(&str, usize)> {
        let span = self.documents.get(index)?;
        let text = std::str::from_utf8(span.slice(&self.bytes)).ok()?;
        Some((text.strip_prefix('\u{FEFF}').unwrap_or(text), span.line))
    }
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
    /// Flux Kustomizations and Argo CD Applications: the directories they deploy.
    pub deployers: Vec<decode::Deployer>,
    pub diagnostics: Vec<Diagnostic>,
    /// The file's text, when something in it is reported on or edited (see [`SourceText`]).
    pub text: Option<SourceText>,
    /// Workload documents not parsed yet ([`Deferral::Workloads`]).
    pub deferred: Vec<DeferredWorkload>,
    /// Nodes this file's documents with aliases expanded to (see [`crate::yaml::ParseBudget`]).
    pub expanded_nodes: usize,
}

/// Which documents [`load_bytes_with`] leaves unparsed for later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deferral {
    /// Parse every document the prefilter lets through.
    None,
    /// Leave the `apps/` Deployments, StatefulSets and DaemonSets unparsed: only the pod
    /// labels of the few a Gateway selector can pick are ever read, and a repository holds
    /// tens of thousands of them (most of the parsing time). [`FileLoad::resolve_deferred`]
    /// parses the ones that may matter once the selectors are known (`scan` reads their files
    /// again for that).
    Workloads,
}

/// A workload document left unparsed: where it is and what it counts as.
#[derive(Debug, Clone)]
pub struct DeferredWorkload {
    pub document: usize,
    /// First line with content.
    pub line: usize,
    pub span: Span,
    /// `apps/Deployment`, ... (the summary counts it as an object).
    pub group_kind: String,
}

/// [`load_bytes`], with a panic turned into an `internal/panic` diagnostic on the file (the
/// run goes on without its objects).
pub fn load_isolated(
    path: &str,
    bytes: &[u8],
    deferral: Deferral,
    budget: &ParseBudget,
) -> FileLoad {
    crate::isolate::catch(&format!("loading {path}"), || {
        crate::isolate::test_trigger("load", bytes);
        load_bytes_with(path, bytes, deferral, budget)
    })
    .unwrap_or_else(|d| FileLoad {
        path: path.to_string(),
        bytes: bytes.len(),
        diagnostics: vec![(*d).in_file(path.to_string(), 1)],
        ..Default::default()
    })
}

/// Loads one file's bytes. `path` is root-relative and names the file in diagnostics.
pub fn load_bytes(path: &str, bytes: &[u8]) -> FileLoad {
    load_bytes_with(path, bytes, Deferral::None, &ParseBudget::default())
}

/// [`load_bytes`], leaving the documents `deferral` names unparsed, and charging alias
/// expansion to the run's `budget`.
pub fn load_bytes_with(
    path: &str,
    bytes: &[u8],
    deferral: Deferral,
    budget: &ParseBudget,
) -> FileLoad {
    let mut load = FileLoad {
        path: path.to_string(),
        bytes: bytes.len(),
        ..Default::default()
    };
    let mut documents = Vec::new();
    if path.ends_with(".json") {
        load_json(&mut load, bytes);
        documents.push(Span {
            start: 0,
            end: bytes.len(),
            line: 1,
        });
    } else {
        load_yaml(&mut load, bytes, &mut documents, deferral, budget);
    }
    if load.worth_keeping() {
        load.text = Some(SourceText {
            bytes: Arc::from(bytes),
            documents,
        });
    }
    load
}

/// Splits and loads a YAML stream; `documents` receives the span of each document with
/// content.
fn load_yaml(
    load: &mut FileLoad,
    bytes: &[u8],
    documents: &mut Vec<Span>,
    deferral: Deferral,
    budget: &ParseBudget,
) {
    let path = load.path.clone();
    for span in split::split(bytes) {
        let piece = span.slice(bytes);
        let Some(offset) = split::first_content_line(piece) else {
            continue;
        };
        let doc_index = load.documents;
        load.documents += 1;
        documents.push(span);
        let line = span.line + offset;
        let is_kustomization = path
            .rsplit('/')
            .next()
            .is_some_and(|b| crate::model::kustomize::KUSTOMIZATION_FILES.contains(&b));
        if let Some(group) = prefilter::crd_group(piece) {
            load.objects.push(SourceObject {
                source: SourceRef {
                    file: path.clone(),
                    document: doc_index,
                    line,
                },
                api_version: "apiextensions.k8s.io/v1".into(),
                kind: "CustomResourceDefinition".into(),
                meta: Default::default(),
                namespace: String::new(),
                naming_scope: String::new(),
                body: SourceBody::Surrounding(Surrounding::Crd { group }),
            });
            continue;
        }
        if !is_kustomization && !prefilter::needs_parse(piece) {
            continue;
        }
        if deferral == Deferral::Workloads
            && !is_kustomization
            && !prefilter::may_run_nginx_controller(piece)
            && let Some(group_kind) = prefilter::apps_workload(piece)
        {
            load.deferred.push(DeferredWorkload {
                document: doc_index,
                line,
                span,
                group_kind,
            });
            continue;
        }
        load.parse_document(piece, span, doc_index, line, budget);
    }
}

impl FileLoad {
    /// Parses and decodes one document with content.
    fn parse_document(
        &mut self,
        piece: &[u8],
        span: Span,
        doc_index: usize,
        line: usize,
        budget: &ParseBudget,
    ) {
        let load = self;
        let path = load.path.clone();
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
                    None,
                    Code::LoadInvalidUtf8,
                    "document is not valid UTF-8".into(),
                );
                return;
            }
        };
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        // Once a budget is spent, a document it covers is not parsed at all: an alias bomb
        // costs its parse time before it can be counted.
        if let Some(limit) = budget.admit(text.len(), text.contains('*'), load.expanded_nodes) {
            load.refuse_parse(line, limit);
            return;
        }
        let parsed = match crate::yaml::parse_document_counting(text) {
            Ok(parsed) => {
                let over = budget.charge_nodes(parsed.nodes).or_else(|| {
                    (parsed.expanded > 0)
                        .then(|| budget.charge(&mut load.expanded_nodes, parsed.expanded))
                        .flatten()
                });
                if let Some(limit) = over {
                    load.refuse_parse(line, limit);
                    return;
                }
                Ok(parsed.value)
            }
            // A document stopped at the parser's own budget cost that much work (an alias
            // bomb just over the per-document limit): charged too, so that many of them are
            // not parsed either.
            Err(e) if e.over_budget => {
                budget.charge(
                    &mut load.expanded_nodes,
                    crate::yaml::MAX_REPLAYED_EVENTS_PER_DOCUMENT,
                );
                Err(e)
            }
            Err(e) => Err(e),
        };
        match parsed {
            Ok(Some(value)) => {
                let source = SourceRef {
                    file: path.clone(),
                    document: doc_index,
                    line,
                };
                load.add(value, &source);
            }
            Ok(None) => {}
            Err(e) => {
                let at = e.line.map_or(line, |l| span.line + l - 1);
                match template_syntax(text) {
                    // A template skeleton (Backstage, Helm, cookiecutter) is rendered into YAML
                    // elsewhere; as it is, it is not a manifest.
                    Some(syntax) => load.diagnose(
                        line,
                        None,
                        Code::LoadTemplateSkipped,
                        format!(
                            "not YAML until a template engine renders it ({syntax}); skipped: translate the rendered manifests"
                        ),
                    ),
                    None => load.diagnose(
                        at,
                        e.column,
                        Code::LoadInvalidYaml,
                        format!("invalid YAML: {}", e.message),
                    ),
                }
            }
        }
    }

    fn refuse_parse(&mut self, line: usize, limit: ParseLimit) {
        let why = match limit {
            ParseLimit::FileExpansion | ParseLimit::RunExpansion => {
                "anchors and aliases expanding to that many nodes are not what a manifest needs"
            }
            ParseLimit::RunBytes | ParseLimit::RunNodes => {
                "scan the repository in parts (--include) to read it all"
            }
        };
        self.diagnose(
            line,
            None,
            Code::LoadParseBudget,
            format!("document not read: {}; {why}", limit.describe()),
        );
    }

    fn diagnose(&mut self, line: usize, column: Option<usize>, code: Code, message: String) {
        self.diagnostics.push(
            Diagnostic::new(code, message)
                .in_file(self.path.clone(), line)
                .with_column(column),
        );
    }

    /// Whether the report or the planner will need this file's text: it holds an object the
    /// tool translates or lints, a kustomization, or a problem.
    fn worth_keeping(&self) -> bool {
        !self.diagnostics.is_empty()
            || !self.kustomizations.is_empty()
            || self.objects.iter().any(|o| {
                !matches!(
                    o.body,
                    SourceBody::Service(_)
                        | SourceBody::Secret(_)
                        | SourceBody::Namespace
                        | SourceBody::IngressClass(_)
                        | SourceBody::Surrounding(
                            Surrounding::Workload { .. }
                                | Surrounding::NginxController { .. }
                                | Surrounding::ConfigMap { .. }
                                | Surrounding::NginxHelmRelease { .. }
                                | Surrounding::IstioMeshConfig { .. }
                                | Surrounding::Certificate { .. }
                                | Surrounding::ServiceEntry { .. }
                                | Surrounding::Crd { .. }
                        )
                )
            })
    }

    fn add(&mut self, value: Value, source: &SourceRef) {
        let mut decoded = Vec::new();
        decode::decode(value, source, &mut decoded);
        for d in decoded {
            match d {
                Ok(decode::Decoded::Object(obj)) => self.objects.push(*obj),
                Ok(decode::Decoded::Kustomization(k)) => self.kustomizations.push(k),
                Ok(decode::Decoded::Deployer(d)) => self.deployers.push(d),
                Ok(decode::Decoded::UnknownVersion(why)) => {
                    self.diagnose(source.line, None, Code::LoadUnknownApiVersion, why);
                }
                Ok(decode::Decoded::Templated(kind)) => self.diagnose(
                    source.line,
                    None,
                    Code::LoadTemplateSkipped,
                    format!(
                        "{kind} whose name or namespace is a template: it is an object only once the substitution gives it a name; skipped: translate the rendered manifests"
                    ),
                ),
                Ok(decode::Decoded::Partial(kind)) => self.diagnose(
                    source.line,
                    None,
                    Code::LoadPartialDocument,
                    format!(
                        "{kind} without metadata.name: no tool applies a document without a name, so this is a patch or a template, not an object; it is not translated (if a kustomization uses it as a patch, port the patch to the generated object by hand)"
                    ),
                ),
                Err(e) => self.diagnose(
                    source.line,
                    None,
                    Code::LoadInvalidObject,
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

/// The template syntax a document that failed to parse is written in: Jinja/Nunjucks block
/// tags (`{%`, Backstage skeletons), Go or Mustache expressions (`{{`, Helm templates outside
/// a chart, Backstage's `${{ }}`).
fn template_syntax(text: &str) -> Option<&'static str> {
    if text.contains("{%") && text.contains("%}") {
        Some("{% … %} block tags, as in Backstage or Jinja templates")
    } else if text.contains("{{") && text.contains("}}") {
        Some("{{ … }} expressions, as in Helm or Backstage templates")
    } else {
        None
    }
}

/// Whether a workload document may carry pod labels that one of `selectors` picks. A label
/// that equals a selector's is written in the document as the selector writes it (plain or
/// single-quoted scalars, anchors and aliases within the same document), except through a
/// double-quoted escape: a document with a backslash may match. A selector with characters a
/// label never has (spaces, quotes, ...) could be spelled across folded lines: then every
/// document may match.
pub fn may_match(doc: &[u8], selectors: &[std::collections::BTreeMap<String, String>]) -> bool {
    let literal = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/'))
    };
    // Not UTF-8: the parse reports it.
    let Ok(text) = std::str::from_utf8(doc) else {
        return true;
    };
    if text.contains('\\') {
        return true;
    }
    selectors.iter().any(|selector| {
        selector.iter().all(|(k, v)| {
            !literal(k) || !literal(v) || (text.contains(k.as_str()) && text.contains(v.as_str()))
        })
    })
}

impl FileLoad {
    /// Takes over what `part` (a load of some of the same file's documents) found, and its
    /// deferred documents in place of this load's.
    pub fn merge(&mut self, part: FileLoad) {
        self.objects.extend(part.objects);
        self.kustomizations.extend(part.kustomizations);
        self.deployers.extend(part.deployers);
        self.diagnostics.extend(part.diagnostics);
        self.deferred = part.deferred;
        self.expanded_nodes = part.expanded_nodes;
    }

    /// Parses the deferred workload documents that may carry labels one of `selectors` picks,
    /// from `bytes`, the file read again. The others stay deferred: counted, never read.
    /// A file whose length changed since the first read is reported, not parsed.
    pub fn resolve_deferred(
        &mut self,
        bytes: &[u8],
        selectors: &[std::collections::BTreeMap<String, String>],
        budget: &ParseBudget,
    ) {
        if bytes.len() != self.bytes {
            self.diagnose(
                1,
                None,
                Code::WalkUnreadable,
                "the file changed while it was scanned; its workloads were not read (scan again)"
                    .into(),
            );
            return;
        }
        let deferred = std::mem::take(&mut self.deferred);
        for d in deferred {
            let Some(piece) = bytes.get(d.span.start..d.span.end) else {
                continue;
            };
            if may_match(piece, selectors) {
                self.parse_document(piece, d.span, d.document, d.line, budget);
            } else {
                self.deferred.push(d);
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
                    Some(e.column()).filter(|c| *c > 0),
                    Code::LoadInvalidJson,
                    format!("invalid JSON: {e}"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    const GATEWAY_WORKLOAD: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ingress\n  namespace: gw\nspec:\n  template:\n    metadata:\n      labels:\n        istio: ingressgateway\n";
    const APP_WORKLOAD: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels:\n        app: web\n";

    fn selector(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn workloads_are_deferred_counted_and_parsed_only_when_a_selector_may_pick_them() {
        let file = format!("{GATEWAY_WORKLOAD}---\n{APP_WORKLOAD}");
        let eager = load_bytes("w.yaml", file.as_bytes());
        assert_eq!(eager.objects.len(), 2);
        assert!(eager.deferred.is_empty());

        let mut deferred = load_bytes_with(
            "w.yaml",
            file.as_bytes(),
            Deferral::Workloads,
            &ParseBudget::default(),
        );
        assert!(deferred.objects.is_empty());
        assert_eq!(deferred.documents, 2);
        assert_eq!(
            deferred
                .deferred
                .iter()
                .map(|d| (d.document, d.line, d.group_kind.as_str()))
                .collect::<Vec<_>>(),
            [(0, 1, "apps/Deployment"), (1, 12, "apps/Deployment")]
        );
        deferred.resolve_deferred(
            file.as_bytes(),
            &[selector(&[("istio", "ingressgateway")])],
            &ParseBudget::default(),
        );
        // The gateway's workload is parsed, exactly as the eager load has it; the other stays
        // deferred.
        assert_eq!(deferred.objects.len(), 1);
        assert_eq!(deferred.objects[0].name(), "ingress");
        assert_eq!(
            deferred.objects[0].source, eager.objects[0].source,
            "same place as the eager load"
        );
        assert_eq!(deferred.deferred.len(), 1);
        assert_eq!(deferred.deferred[0].document, 1);
    }

    /// Past the run's budget of parsed bytes, a document is refused unparsed, at its line;
    /// before it, the same document is read.
    #[test]
    fn a_run_past_its_parsed_bytes_is_refused_visibly() {
        let doc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n";
        let fresh = ParseBudget::default();
        let read = load_bytes_with("a.yaml", doc.as_bytes(), Deferral::None, &fresh);
        assert_eq!(read.objects.len(), 1);
        let spent = ParseBudget::default();
        assert_eq!(
            spent.admit(crate::yaml::MAX_PARSED_BYTES_PER_RUN, false, 0),
            None
        );
        let refused = load_bytes_with("b.yaml", doc.as_bytes(), Deferral::None, &spent);
        assert!(refused.objects.is_empty());
        assert_eq!(refused.diagnostics.len(), 1);
        assert_eq!(refused.diagnostics[0].code, Code::LoadParseBudget);
        assert_eq!(refused.diagnostics[0].location.line, 1);
        assert!(refused.diagnostics[0].message.contains("256 MiB"));
    }

    /// Past the run's budget of parsed nodes, a document is refused unparsed, at its line.
    #[test]
    fn a_run_past_its_parsed_nodes_is_refused_visibly() {
        let doc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n";
        let spent = ParseBudget::default();
        assert_eq!(
            spent.charge_nodes(crate::yaml::MAX_PARSED_NODES_PER_RUN),
            None
        );
        let refused = load_bytes_with("b.yaml", doc.as_bytes(), Deferral::None, &spent);
        assert!(refused.objects.is_empty());
        assert_eq!(refused.diagnostics[0].code, Code::LoadParseBudget);
        assert!(refused.diagnostics[0].message.contains("3000000 nodes"));
    }

    #[test]
    fn a_file_that_changed_between_reads_is_reported_not_misread() {
        let mut load = load_bytes_with(
            "w.yaml",
            GATEWAY_WORKLOAD.as_bytes(),
            Deferral::Workloads,
            &ParseBudget::default(),
        );
        let longer = format!("{GATEWAY_WORKLOAD}# edited\n");
        load.resolve_deferred(
            longer.as_bytes(),
            &[selector(&[("istio", "ingressgateway")])],
            &ParseBudget::default(),
        );
        assert!(load.objects.is_empty());
        assert_eq!(load.diagnostics.len(), 1);
        assert_eq!(load.diagnostics[0].code, Code::WalkUnreadable);
    }

    #[test]
    fn only_documents_that_cannot_hold_the_labels_are_left_unread() {
        let gw = [selector(&[("istio", "ingressgateway")])];
        assert!(may_match(GATEWAY_WORKLOAD.as_bytes(), &gw));
        assert!(!may_match(APP_WORKLOAD.as_bytes(), &gw));
        // Quoted, flow style or through an alias: the words are still there.
        for doc in [
            "spec: {template: {metadata: {labels: {\"istio\": 'ingressgateway'}}}}",
            "x: &l {istio: ingressgateway}\nspec:\n  template:\n    metadata:\n      labels: *l\n",
        ] {
            assert!(may_match(doc.as_bytes(), &gw), "{doc}");
        }
        // A double-quoted escape can spell any label: parsed.
        assert!(may_match(b"labels: {istio: \"ingress\\x67ateway\"}", &gw));
        // Every label of the selector must be there, but any one selector is enough. (The
        // words are looked for anywhere: `app: gw` would be found in `apps/v1` and `gw`, a
        // false alarm that costs one parse.)
        let both = [selector(&[("istio", "ingressgateway"), ("team", "edge")])];
        assert!(!may_match(GATEWAY_WORKLOAD.as_bytes(), &both));
        assert!(may_match(
            GATEWAY_WORKLOAD.as_bytes(),
            &[both[0].clone(), gw[0].clone()]
        ));
        // A selector no label could equal as written (a space) decides nothing: parsed.
        assert!(may_match(
            APP_WORKLOAD.as_bytes(),
            &[selector(&[("app", "a b")])]
        ));
        // Invalid UTF-8: parsed, so the parse reports it.
        assert!(may_match(b"labels: {app: \xff}", &gw));
    }
}
