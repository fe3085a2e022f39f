//! Routing equivalence: does each request reach the same place after the migration?
//!
//! Two models answer "where does this request go?": the old one reproduces how Istio's
//! gateway proxy (`istio.rs`) or ingress-nginx (`nginx.rs`) routes it from the repository's
//! Istio and Ingress objects; the new one how a Gateway API implementation routes it from the
//! generated (and already present) Gateways and routes (`gateway_api.rs`). Probes
//! (`probes.rs`) are generated at the boundaries of every match on both sides; a probe whose
//! outcomes differ becomes an `equivalence/changed` error at the old rule that decided it.
//!
//! Everything here is pure: a function of the index, the translation results and the
//! configuration. `docs/equivalence.md` lists the sources of every rule and what is not
//! modelled.

pub(crate) mod effects;
pub(crate) mod gateway_api;
pub(crate) mod istio;
pub(crate) mod matching;
pub(crate) mod nginx;
pub(crate) mod probes;
pub mod trace;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::config::Config;
use crate::diagnostic::{Code, Diagnostic, Part};
use crate::index::Index;
use crate::translated::SourceResult;

/// The scheme of a request: the behaviour models' type.
pub use crate::semantics::Scheme;

/// One request sent to both sides.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Probe {
    pub scheme: Scheme,
    /// Lower case, without port.
    pub host: String,
    pub port: u32,
    pub method: String,
    /// The path, without query.
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub query: Vec<(String, String)>,
    /// The client's address, when known (`trace --source-ip`): the models then decide the
    /// address checks (allow- and deny-lists) instead of recording them.
    pub client: Option<std::net::IpAddr>,
}

impl Probe {
    pub fn new(scheme: Scheme, host: &str, port: u32, path: &str) -> Self {
        Probe {
            scheme,
            host: host.to_ascii_lowercase(),
            port,
            method: "GET".into(),
            path: path.to_string(),
            headers: Vec::new(),
            query: Vec::new(),
            client: None,
        }
    }

    /// The `Host` header a client sends: the port only when it is not the scheme's default.
    pub fn authority(&self) -> String {
        if self.port == u32::from(self.scheme.default_port()) {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `?a=1&b` as sent, or nothing: redirects keep it (Envoy `RedirectAction.strip_query`
    /// is false unless set, and neither Istio nor Envoy Gateway sets it; nginx redirects to
    /// `$request_uri`).
    pub fn query_string(&self) -> String {
        crate::semantics::query_string(&self.query)
    }
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}://{}{}",
            self.method,
            self.scheme.as_str(),
            self.authority(),
            self.path
        )?;
        for (i, (k, v)) in self.query.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { '?' } else { '&' })?;
        }
        for (k, v) in &self.headers {
            write!(f, " [{k}: {v}]")?;
        }
        if let Some(ip) = self.client {
            write!(f, " from {ip}")?;
        }
        Ok(())
    }
}

/// A backend: a Service (`namespace/name`) or, for hosts that are not Services, the host
/// with an empty namespace.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Backend {
    pub namespace: String,
    pub name: String,
    /// `None` when the old side leaves it to the Service (its only port).
    pub port: Option<u32>,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.namespace.is_empty() {
            write!(f, "{}", self.name)?;
        } else {
            write!(f, "{}/{}", self.namespace, self.name)?;
        }
        if let Some(p) = self.port {
            write!(f, ":{p}")?;
        }
        Ok(())
    }
}

/// A backend and its share of the requests, in thousandths.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Share {
    pub backend: Backend,
    pub permille: u32,
}

/// Turns weights into shares; weight-0 entries are left out. Empty when every weight is 0.
pub(crate) fn shares(weighted: Vec<(Backend, u64)>) -> Vec<Share> {
    let total: u64 = weighted.iter().map(|(_, w)| *w).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut out: Vec<Share> = weighted
        .into_iter()
        .filter(|(_, w)| *w > 0)
        .map(|(backend, w)| Share {
            backend,
            permille: ((w * 1000 + total / 2) / total) as u32,
        })
        .collect();
    out.sort();
    out
}

/// What a request ends in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Proxied to the backends, with the path (and host, when rewritten) they receive.
    Forward {
        backends: Vec<Share>,
        path: String,
        host: Option<String>,
    },
    Redirect {
        status: u32,
        location: String,
    },
    /// A response made by the proxy itself (direct response, or a rule with no backend).
    Respond {
        status: u32,
    },
    /// No route matched: 404.
    NotFound,
    /// Nothing listens for this scheme, port and host.
    NoListener,
    /// The model cannot tell (an unmodelled feature); such probes are not compared.
    Unmodelled(String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Forward {
                backends,
                path,
                host,
            } => {
                let list: Vec<String> = backends
                    .iter()
                    .map(|s| {
                        if backends.len() == 1 {
                            s.backend.to_string()
                        } else {
                            format!("{} ({:.1}%)", s.backend, f64::from(s.permille) / 10.0)
                        }
                    })
                    .collect();
                write!(f, "{} with path {path}", list.join(", "))?;
                if let Some(h) = host {
                    write!(f, " and host {h}")?;
                }
                Ok(())
            }
            Outcome::Redirect { status, location } => write!(f, "{status} {location}"),
            Outcome::Respond { status } => write!(f, "{status} from the proxy"),
            Outcome::NotFound => write!(f, "404 (no route)"),
            Outcome::NoListener => write!(f, "no listener (connection refused)"),
            Outcome::Unmodelled(why) => write!(f, "not modelled ({why})"),
        }
    }
}

/// Shares within this many thousandths are the same (integer weights do not divide evenly).
const SHARE_TOLERANCE: u32 = 5;

/// Whether two outcomes send the request to the same place.
pub(crate) fn same(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (
            Outcome::Forward {
                backends: ba,
                path: pa,
                host: ha,
            },
            Outcome::Forward {
                backends: bb,
                path: pb,
                host: hb,
            },
        ) => {
            pa == pb
                && ha.as_deref().map(str::to_ascii_lowercase)
                    == hb.as_deref().map(str::to_ascii_lowercase)
                && ba.len() == bb.len()
                && ba.iter().zip(bb).all(|(x, y)| {
                    x.backend.namespace == y.backend.namespace
                        && x.backend.name == y.backend.name
                        && (x.backend.port.is_none()
                            || y.backend.port.is_none()
                            || x.backend.port == y.backend.port)
                        && x.permille.abs_diff(y.permille) <= SHARE_TOLERANCE
                })
        }
        // Not served either way: an unknown host gets a 404 from a listener on its port, or
        // no TLS handshake; no client traffic depends on which.
        (Outcome::NotFound | Outcome::NoListener, Outcome::NotFound | Outcome::NoListener) => true,
        (
            Outcome::Redirect {
                status: sa,
                location: la,
            },
            Outcome::Redirect {
                status: sb,
                location: lb,
            },
        ) => sa == sb && with_root_path(la) == with_root_path(lb),
        _ => a == b,
    }
}

/// `https://host` and `https://host/` are the same location.
fn with_root_path(location: &str) -> String {
    match location.split_once("://") {
        Some((scheme, rest)) if !rest.contains('/') => format!("{scheme}://{rest}/"),
        _ => location.to_string(),
    }
}

/// Where a decision came from: an object of the index and the field of the rule.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Origin {
    pub object: usize,
    pub field: String,
}

/// A model's answer for one probe.
#[derive(Debug, Clone)]
pub struct Decision {
    pub outcome: Outcome,
    /// The rule that decided (none for 404, no listener, or a host-wide redirect).
    pub origin: Option<Origin>,
    /// The rule's prefix matched only as a string prefix (`/api` taking `/apix`), which
    /// Gateway API's element-wise PathPrefix does not do.
    pub string_prefix: bool,
    /// Other objects that took part (index positions: a canary Ingress).
    pub also: Vec<usize>,
    /// What happens besides where the request goes, for the parts the side's model reads.
    pub effects: effects::Effects,
    /// Another object (`namespace/name`) would have decided instead if it had been created
    /// first, and the input gives no creation times to tell.
    pub order_unknown: Option<String>,
}

impl Decision {
    pub(crate) fn new(outcome: Outcome, origin: Option<Origin>) -> Self {
        Decision {
            outcome,
            origin,
            string_prefix: false,
            also: Vec::new(),
            effects: effects::Effects::default(),
            order_unknown: None,
        }
    }
}

/// A behaviour model's outcome as the check compares it: shares in thousandths (an
/// unresolved backend's share as a 500), the Host only when it was rewritten.
pub(crate) fn outcome_from_model(
    outcome: crate::semantics::Outcome,
    request_host: &str,
) -> Outcome {
    use crate::semantics;
    match outcome {
        semantics::Outcome::Backends {
            backends,
            path,
            host,
        } => {
            let weighted: Vec<(Backend, u64)> = backends
                .into_iter()
                .map(|s| {
                    let backend = if s.name.is_empty() {
                        // An unresolved reference: its share answers 500.
                        Backend {
                            namespace: String::new(),
                            name: "500 (unresolved backend)".into(),
                            port: None,
                        }
                    } else {
                        Backend {
                            namespace: s.namespace,
                            name: s.name,
                            port: s.port,
                        }
                    };
                    (backend, s.weight)
                })
                .collect();
            Outcome::Forward {
                backends: shares(weighted),
                path,
                host: (!host.eq_ignore_ascii_case(request_host)).then_some(host),
            }
        }
        semantics::Outcome::Redirect { status, location } => Outcome::Redirect {
            status: u32::from(status),
            location,
        },
        semantics::Outcome::Direct { status } | semantics::Outcome::Denied { status, .. } => {
            Outcome::Respond {
                status: u32::from(status),
            }
        }
        semantics::Outcome::NoRoute => Outcome::NotFound,
        semantics::Outcome::NoListener => Outcome::NoListener,
        semantics::Outcome::NotModelled { reason } => Outcome::Unmodelled(reason),
    }
}

/// The counts the report prints: "N probes over M hosts: K differ".
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub probes: usize,
    pub hosts: usize,
    pub differ: usize,
    /// Probes one side could not model (not compared).
    pub unmodelled: usize,
}

impl Summary {
    /// `120 probes over 4 hosts: 3 differ (2 not modelled)`.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{} probes over {} hosts: {} differ",
            self.probes, self.hosts, self.differ
        );
        if self.unmodelled > 0 {
            line.push_str(&format!(" ({} not modelled)", self.unmodelled));
        }
        line
    }
}

/// One rule (or object) whose traffic changes.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Position of the object in the index it was computed on.
    pub object: usize,
    pub diagnostic: Diagnostic,
    /// How many probes differ there.
    pub probes: usize,
}

/// What the equivalence check found.
#[derive(Debug, Default)]
pub struct Equivalence {
    /// `differ` counts every differing probe; the pipeline recounts it from the findings it
    /// keeps.
    pub summary: Summary,
    pub findings: Vec<Finding>,
    /// The hosts probed (`summary.hosts` counts them), so that checks of several worlds
    /// add up.
    pub hosts: BTreeSet<String>,
}

impl Equivalence {
    /// The checks of several worlds as one: probes add up, hosts are counted once, and a
    /// finding (object and diagnostic) several worlds make is kept once.
    pub fn merge(parts: Vec<Equivalence>) -> Equivalence {
        let mut out = Equivalence::default();
        let mut seen = BTreeSet::new();
        for part in parts {
            out.summary.probes += part.summary.probes;
            out.summary.unmodelled += part.summary.unmodelled;
            out.hosts.extend(part.hosts);
            for f in part.findings {
                if seen.insert((f.object, f.diagnostic.clone())) {
                    out.summary.differ += f.probes;
                    out.findings.push(f);
                }
            }
        }
        out.summary.hosts = out.hosts.len();
        out
    }
}

/// An entry point of the old world and the Gateways that replace it.
pub(crate) struct Frontend {
    /// What the old side is called in messages (`Istio`, `ingress-nginx`).
    pub old_name: &'static str,
    pub old: OldFrontend,
    /// The Gateways (`namespace`, `name`) the routes of this entry point attach to now.
    pub gateways: Vec<(String, String)>,
    /// The object to report on when neither side names a rule.
    pub anchor: usize,
}

pub(crate) enum OldFrontend {
    /// Index of the Istio Gateway in the Istio model.
    Istio(usize),
    /// The ingress-nginx class.
    Nginx(String),
}

/// Runs the check over every entry point that was migrated.
pub fn run(index: &Index, results: &[SourceResult], config: &Config) -> Equivalence {
    let istio_model = istio::Model::build(index, config);
    let nginx_model = nginx::Model::build(index, config);
    let new_model = gateway_api::Model::build(index, results, config);
    let mut frontends = istio_model.frontends(results);
    frontends.extend(nginx_model.frontends(results, &new_model));
    let explained = explaining_diagnostics(results);

    let mut summary = Summary::default();
    let mut hosts_seen = BTreeSet::new();
    // Differences per (object, field): count and first example.
    // (rule, the other VirtualService) → the first probe whose answer rests on their order.
    let mut order_unknown: BTreeMap<(Origin, String), String> = BTreeMap::new();
    let mut differences: BTreeMap<(Origin, Option<Code>, Option<Part>), Difference> =
        BTreeMap::new();
    let mut split_candidates = BTreeMap::new();
    let mut budget_findings = Vec::new();
    for frontend in &frontends {
        let mut seeds = probes::Seeds::default();
        match &frontend.old {
            OldFrontend::Istio(g) => istio_model.seeds(*g, &mut seeds),
            OldFrontend::Nginx(class) => nginx_model.seeds(class, &mut seeds),
        }
        new_model.seeds(&frontend.gateways, &mut seeds);
        let selection = seeds.probes();
        let (probes, left_out) = (selection.probes, selection.left_out);
        // Probes the budget left out were not checked: they count as not modelled, so the
        // report never says "0 differ" for what it did not look at.
        summary.probes += left_out;
        summary.unmodelled += left_out;
        if left_out > 0 {
            budget_findings.push(Finding {
                object: frontend.anchor,
                diagnostic: Diagnostic::new(
                    Code::EquivalenceBudget,
                    format!(
                        "the behaviour check's budget of {} probes for this {} entry point is spent: {left_out} probes of {} were not sent, so what they would show is not known (they count as not modelled); hosts took turns: {} of {} hosts were probed",
                        probes::MAX_PROBES_PER_FRONTEND,
                        frontend.old_name,
                        left_out + probes.len(),
                        selection.hosts_probed,
                        selection.hosts,
                    ),
                ),
                probes: 0,
            });
        }
        for probe in probes {
            hosts_seen.insert(probe.host.clone());
            summary.probes += 1;
            let old = match &frontend.old {
                OldFrontend::Istio(g) => istio_model.evaluate(*g, &probe),
                OldFrontend::Nginx(class) => nginx_model.evaluate(class, &probe),
            };
            let new = new_model.evaluate(&frontend.gateways, &probe);
            if let (Some(other), Some(origin)) = (&old.order_unknown, &old.origin) {
                order_unknown
                    .entry((origin.clone(), other.clone()))
                    .or_insert_with(|| format!("{probe}: {} → {}", frontend.old_name, old.outcome));
            }
            if matches!(old.outcome, Outcome::Unmodelled(_))
                || new
                    .iter()
                    .any(|(_, d)| matches!(d.outcome, Outcome::Unmodelled(_)))
            {
                summary.unmodelled += 1;
                continue;
            }
            let same_outcome = new.iter().all(|(_, d)| same(&old.outcome, &d.outcome));
            // The same destination, but something else about the request differs: the
            // parts both models read (headers, mirrors, timeout, access checks).
            let effect_differences = if same_outcome {
                old.effects.differences(&new[0].1.effects)
            } else {
                Vec::new()
            };
            if same_outcome && effect_differences.is_empty() {
                continue;
            }
            summary.differ += 1;
            let origin = old
                .origin
                .clone()
                .or_else(|| new.iter().find_map(|(_, d)| d.origin.clone()))
                .unwrap_or(Origin {
                    object: frontend.anchor,
                    field: String::new(),
                });
            // The part that differs, and a translator diagnostic at the rule (or, for Ingress
            // annotations, on the object) that says this part changes.
            // A probe only a string prefix matches is explained by the string-prefix note, or
            // by a note that the rule's match became something else (a regex, a
            // case-sensitive prefix); the string-prefix note explains nothing more.
            let parts: Vec<Part> = if !effect_differences.is_empty() {
                effect_differences.iter().map(|d| d.part).collect()
            } else if old.string_prefix {
                vec![Part::StringPrefix, Part::Routing]
            } else {
                parts_of(&old.outcome, &new[0].1.outcome).to_vec()
            };
            // Objects that also took part (a canary Ingress) explain from any field.
            let also = old
                .also
                .iter()
                .flat_map(|o| explained.get(o).into_iter().flatten());
            let explanation = explained
                .get(&origin.object)
                .into_iter()
                .flatten()
                .filter(|(o, _)| overlaps(o, &origin))
                .chain(also)
                // An outcome difference is one of its parts; differences besides routing are
                // each a change of their own, so a note must say all of them changed.
                .filter(|(_, code)| {
                    if effect_differences.is_empty() {
                        parts.iter().any(|p| code.changes().contains(p))
                    } else {
                        parts.iter().all(|p| code.changes().contains(p))
                    }
                })
                .min_by_key(|(_, code)| code.severity())
                .map(|(o, code)| (o.field.clone(), *code))
                .or_else(|| {
                    // A host isolated away from the route's listener answers 404 wherever
                    // the route's rules are; the attachment prediction names the host.
                    let isolated = matches!(new[0].1.outcome, Outcome::NotFound)
                        && results.iter().any(|r| {
                            r.object == origin.object && r.isolated_hosts.contains(&probe.host)
                        });
                    isolated.then(|| (String::new(), Code::AttachListenerIsolation))
                });
            // One finding per rule and explanation: a difference the rule's notes explain
            // does not hide another one there that they do not. The first probe is the
            // example, the others count.
            let key = (
                origin,
                explanation.as_ref().map(|(_, code)| *code),
                // Unexplained differences in what happens besides routing get their own
                // finding, apart from the rule's routing differences.
                match (&explanation, effect_differences.first()) {
                    (None, Some(d)) => Some(d.part),
                    _ => None,
                },
            );
            if let Some(entry) = differences.get_mut(&key) {
                entry.0 += 1;
                continue;
            }
            let new_text = if new.len() == 1 {
                new[0].1.outcome.to_string()
            } else {
                // Implementation-specific: say what each ranking gives.
                let parts: Vec<String> = new
                    .iter()
                    .map(|(label, d)| format!("{} under {label}", d.outcome))
                    .collect();
                format!(
                    "{} (RegularExpression precedence is implementation-specific)",
                    parts.join("; ")
                )
            };
            let example = if effect_differences.is_empty() {
                format!(
                    "{probe}: {} → {}; Gateway API → {new_text}",
                    frontend.old_name, old.outcome
                )
            } else {
                let side = |text: fn(&effects::EffectDifference) -> &str| {
                    effect_differences
                        .iter()
                        .map(|d| format!("{}: {}", d.what, text(d)))
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                format!(
                    "{probe}: {} → {}, {}; Gateway API → {new_text}, {}",
                    frontend.old_name,
                    old.outcome,
                    side(|d| &d.old),
                    side(|d| &d.new)
                )
            };
            // Istio Gateways sharing a proxy become separate Gateways with their own
            // addresses; a finding no note explains is checked once, on its first probe,
            // for being that split (below).
            if key.1.is_none()
                && key.2.is_none()
                && matches!(frontend.old, OldFrontend::Istio(_))
                && frontend.gateways.len() > 1
            {
                split_candidates
                    .insert(key.clone(), (frontend, probe.clone(), old.outcome.clone()));
            }
            differences.insert(key, (1, example, explanation));
        }
    }
    // When a client reaching one of the Gateways gets the old answer, which one it reaches is
    // the split `istio/shared-selector` reports: the finding is explained by it.
    for (key, (frontend, probe, old)) in split_candidates {
        let split = frontend.gateways.iter().any(|g| {
            new_model
                .evaluate(std::slice::from_ref(g), &probe)
                .iter()
                .all(|(_, d)| same(&old, &d.outcome))
        });
        if split && let Some((count, example, _)) = differences.remove(&key) {
            let explained_key = (key.0, Some(Code::IstioSharedSelector), None);
            let entry = differences.entry(explained_key).or_insert((
                0,
                example,
                Some((String::new(), Code::IstioSharedSelector)),
            ));
            entry.0 += count;
        }
    }
    summary.hosts = hosts_seen.len();
    let findings = differences
        .into_iter()
        .map(|((origin, _, _), (count, example, explanation))| {
            let more = if count > 1 {
                format!(" ({count} probes differ; the first is shown)")
            } else {
                String::new()
            };
            let diagnostic = match explanation {
                Some((_, code)) => Diagnostic::new(
                    Code::EquivalenceExplained,
                    format!(
                        "traffic changes here, as `{}` already reports: {example}{more}",
                        code.id()
                    ),
                ),
                None => Diagnostic::new(
                    Code::EquivalenceChanged,
                    format!("traffic changes: {example}{more}"),
                ),
            };
            Finding {
                object: origin.object,
                diagnostic: diagnostic.at(origin.field),
                probes: count,
            }
        })
        .chain(budget_findings)
        .chain(order_unknown.into_iter().map(|((origin, other), example)| Finding {
            object: origin.object,
            diagnostic: Diagnostic::new(
                Code::EquivalenceOrderUnknown,
                format!("Istio's answer depends on which VirtualService was created first, and the repository gives no creationTimestamp: {example} assumes this one comes before {other} (same creation second, then name order); in the cluster {other} may come first and answer otherwise, while the new routes are ordered by their own creation time, then namespace/name"),
            )
            .at(origin.field),
            probes: 0,
        }))
        .collect();
    Equivalence {
        summary,
        findings,
        hosts: hosts_seen,
    }
}

/// The differences found at one rule: how many probes, the first example, and the
/// diagnostic (field, code) that already explains them.
type Difference = (usize, String, Option<(String, Code)>);

/// Diagnostics that can explain a traffic change at a rule, by object: those of the
/// translators that say which part of a request's fate changes ([`Code::changes`]) and are
/// located at a field.
fn explaining_diagnostics(results: &[SourceResult]) -> BTreeMap<usize, Vec<(Origin, Code)>> {
    let mut out: BTreeMap<usize, Vec<(Origin, Code)>> = BTreeMap::new();
    for r in results {
        for d in &r.notes {
            let Some(field) = d.location.field.clone() else {
                continue;
            };
            if !d.code.changes().is_empty() {
                out.entry(r.object).or_default().push((
                    Origin {
                        object: r.object,
                        field,
                    },
                    d.code,
                ));
            }
        }
    }
    out
}

/// Whether a note at `note` is about the rule at `rule`: the same object, and the note lies
/// within the rule (`spec.http[1].directResponse` for the match `spec.http[1].match[0]`) or
/// covers it; an annotation applies to every rule of its object; a finding that names no
/// rule (only the object) is about the whole object.
fn overlaps(note: &Origin, rule: &Origin) -> bool {
    let scope = rule_scope(&rule.field);
    note.object == rule.object
        && (scope.is_empty()
            || note.field.starts_with("metadata.annotations")
            || contains(&note.field, scope)
            || contains(scope, &note.field))
}

/// The parts of a request's fate two different outcomes can differ in: a redirect or a
/// direct response on one side only is that action, or a match that no longer (or now)
/// selects the rule; the same backends with another path or host are a rewrite, with other
/// shares the weights; anything else is routing.
fn parts_of(old: &Outcome, new: &Outcome) -> &'static [Part] {
    match (old, new) {
        (Outcome::Respond { .. }, Outcome::Respond { .. }) => &[Part::Response],
        // An answer on one side and a backend on the other is a routing change: a note that
        // only says the status changed (a refusal kept with 500) does not explain it.
        (Outcome::Respond { .. }, _) | (_, Outcome::Respond { .. })
            if !matches!(new, Outcome::Respond { status: 500 }) =>
        {
            &[Part::Routing]
        }
        (Outcome::Redirect { .. }, Outcome::Redirect { .. }) => &[Part::Redirect],
        (Outcome::Redirect { .. }, _) | (_, Outcome::Redirect { .. }) => {
            &[Part::Redirect, Part::Routing]
        }
        (
            Outcome::Forward {
                backends: a,
                path: pa,
                host: ha,
            },
            Outcome::Forward {
                backends: b,
                path: pb,
                host: hb,
            },
        ) if a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.backend.name == y.backend.name) =>
        {
            if pa != pb || ha != hb {
                &[Part::Rewrite]
            } else {
                &[Part::Weights]
            }
        }
        (Outcome::Forward { backends: a, .. }, Outcome::Forward { backends: b, .. })
            if a.len() != b.len() =>
        {
            &[Part::Weights]
        }
        _ => &[Part::Routing],
    }
}

/// The rule a match belongs to: `spec.http[1].match[0]` → `spec.http[1]`.
fn rule_scope(field: &str) -> &str {
    field.split_once(".match[").map_or(field, |(rule, _)| rule)
}

fn contains(outer: &str, inner: &str) -> bool {
    inner == outer
        || inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

#[cfg(test)]
mod tests;
