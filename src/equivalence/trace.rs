//! `gateway-migrate trace`: one request through the old objects and the generated ones,
//! for reviewing a migration. The old side is the Istio or ingress-nginx model of this
//! check; the new side is the Gateway API behaviour model (`semantics::gateway_api`), with
//! everything it reads of the matched rule.

use serde::Serialize;
use serde_json::{Value, json};

use super::{Frontend, OldFrontend, Outcome, Probe, gateway_api, istio, nginx, same};
use crate::config::Config;
use crate::index::Index;
use crate::scan::{Locator, Scan};
use crate::semantics;
use crate::translated::SourceResult;

/// Where a side's decision came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraceMatch {
    /// The file and line of the object whose rule matched (for generated objects, of the
    /// source object they were translated from).
    pub file: String,
    pub line: usize,
    pub object: String,
}

/// One side of a trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceSide {
    /// `Istio`, `ingress-nginx` or `Gateway API`.
    pub model: String,
    /// The gateway proxy, IngressClass or Gateway listener that took the request.
    pub entry: String,
    pub matched: Option<TraceMatch>,
    /// `{"kind": "backends" | "redirect" | "direct" | "denied" | "no-route" | "no-listener"
    /// | "not-modelled", …}`.
    pub behaviour: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceDifference {
    pub part: String,
    pub old: String,
    pub new: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    pub request: String,
    pub old: Option<TraceSide>,
    pub new: Option<TraceSide>,
    pub differences: Vec<TraceDifference>,
}

fn behaviour_json(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Forward {
            backends,
            path,
            host,
        } => json!({
            "kind": "backends",
            "backends": backends.iter().map(|s| json!({
                "namespace": s.backend.namespace,
                "name": s.backend.name,
                "port": s.backend.port,
                "share": f64::from(s.permille) / 1000.0,
            })).collect::<Vec<_>>(),
            "path": path,
            "host": host,
        }),
        Outcome::Redirect { status, location } => {
            json!({"kind": "redirect", "status": status, "location": location})
        }
        Outcome::Respond { status } => json!({"kind": "direct", "status": status}),
        Outcome::NotFound => json!({"kind": "no-route", "status": 404}),
        Outcome::NoListener => json!({"kind": "no-listener"}),
        Outcome::Unmodelled(reason) => json!({"kind": "not-modelled", "reason": reason}),
    }
}

/// The new side's behaviour: the outcome as the old side's, and what else the rule does.
fn new_behaviour_json(outcome: &Outcome, b: &semantics::Behaviour) -> Value {
    let mut v = behaviour_json(outcome);
    if let Value::Object(map) = &mut v {
        let full = serde_json::to_value(b).unwrap_or(Value::Null);
        for key in [
            "request_headers",
            "response_headers",
            "mirrors",
            "timeouts",
            "unevaluated",
        ] {
            if let Some(part) = full.get(key) {
                map.insert(key.replace('_', "-"), part.clone());
            }
        }
        if let semantics::Outcome::Denied { reason, .. } = &b.outcome {
            map.insert("kind".into(), Value::from("denied"));
            map.insert("reason".into(), Value::from(reason.clone()));
        }
    }
    v
}

/// The access checks a side's model records in front of the answer (as the check compares
/// them), when there are any.
fn with_access(mut v: Value, effects: &super::effects::Effects) -> Value {
    if let (Value::Object(map), Some(access)) = (&mut v, &effects.access)
        && !access.is_empty()
    {
        map.insert("access".into(), Value::from(access.clone()));
    }
    v
}

/// The object at `position` and the line of `field` in it (the object's first line when the
/// field cannot be found).
fn located(scan: &Scan, position: usize, field: &str, object: String) -> Option<TraceMatch> {
    let o = scan.index.objects.get(position)?;
    let location = crate::diagnostic::Location {
        file: o.source.file.clone(),
        document: Some(o.source.document),
        line: o.source.line,
        field: (!field.is_empty()).then(|| field.to_string()),
        object: Some(position),
        ..Default::default()
    };
    let place = Locator::new(scan).resolve_location(&location);
    Some(TraceMatch {
        file: o.source.file.clone(),
        line: place.line,
        object,
    })
}

fn describe(index: &Index, position: usize) -> String {
    index.objects.get(position).map_or_else(String::new, |o| {
        format!("{} {}/{}", o.kind, o.namespace, o.meta.name)
    })
}

/// Traces `probe`. `gateway` (`namespace`, `name`) picks the entry point when several serve
/// the request: the frontend whose Gateways include it.
pub fn trace(
    scan: &Scan,
    results: &[SourceResult],
    config: &Config,
    probe: &Probe,
    gateway: Option<&(String, String)>,
) -> Trace {
    let index = &scan.index;
    let istio_model = istio::Model::build(index, config);
    let nginx_model = nginx::Model::build(index, config);
    let new_model = gateway_api::Model::build(index, results, config);
    let mut frontends: Vec<Frontend> = istio_model.frontends(results);
    frontends.extend(nginx_model.frontends(results, &new_model));
    if let Some(g) = gateway {
        frontends.retain(|f| f.gateways.contains(g));
    }
    let evaluate_old = |f: &Frontend| match &f.old {
        OldFrontend::Istio(g) => istio_model.evaluate(*g, probe),
        OldFrontend::Nginx(class) => nginx_model.evaluate(class, probe),
    };
    // The first entry point that serves the request on the old side, else the first; each
    // evaluated once.
    let evaluated: Vec<(&Frontend, super::Decision)> =
        frontends.iter().map(|f| (f, evaluate_old(f))).collect();
    let chosen = evaluated
        .iter()
        .find(|(_, d)| !matches!(d.outcome, Outcome::NoListener))
        .or_else(|| evaluated.first());
    let old = chosen.map(|(f, d)| TraceSide {
        model: f.old_name.to_string(),
        entry: match &f.old {
            OldFrontend::Istio(_) => describe(index, f.anchor),
            OldFrontend::Nginx(key) => nginx_model.describe(key),
        },
        matched: d
            .origin
            .as_ref()
            .and_then(|o| located(scan, o.object, &o.field, describe(index, o.object))),
        behaviour: with_access(behaviour_json(&d.outcome), &d.effects),
    });
    let gateways: Vec<(String, String)> = match (chosen, gateway) {
        (Some((f, _)), _) => f.gateways.clone(),
        (None, Some(g)) => vec![g.clone()],
        (None, None) => Vec::new(),
    };
    let new = new_model.trace(&gateways, probe).map(|(b, decision)| {
        let matched = decision.origin.as_ref().and_then(|o| {
            let object = b
                .matched
                .as_ref()
                .and_then(|m| m.object.clone())
                .unwrap_or_default();
            let source = describe(index, o.object);
            let object = if object.is_empty() || object == source {
                source
            } else {
                format!("{object} (from {source})")
            };
            located(scan, o.object, &o.field, object)
        });
        let entry = b.matched.as_ref().map_or_else(String::new, |m| {
            format!("Gateway {} listener {}", m.gateway, m.listener)
        });
        (
            decision.outcome.clone(),
            decision.effects.clone(),
            TraceSide {
                model: "Gateway API".to_string(),
                entry,
                matched,
                behaviour: with_access(
                    new_behaviour_json(&decision.outcome, &b),
                    &decision.effects,
                ),
            },
        )
    });
    let mut differences = Vec::new();
    if let (Some((_, d)), Some((new_outcome, new_effects, _))) = (chosen, &new) {
        if !same(&d.outcome, new_outcome) {
            differences.push(TraceDifference {
                part: "routing".to_string(),
                old: d.outcome.to_string(),
                new: new_outcome.to_string(),
            });
        } else {
            // The same place: the parts both models read, as the check compares them.
            differences.extend(d.effects.differences(new_effects).into_iter().map(|e| {
                TraceDifference {
                    part: e.part.name().to_string(),
                    old: format!("{}: {}", e.what, e.old),
                    new: format!("{}: {}", e.what, e.new),
                }
            }));
        }
    }
    Trace {
        request: probe.to_string(),
        old,
        new: new.map(|(_, _, side)| side),
        differences,
    }
}

impl Trace {
    /// The text form: each side on its lines, then the differences.
    pub fn text(&self) -> String {
        let mut out = format!("{}\n", self.request);
        for (label, side) in [("old", &self.old), ("new", &self.new)] {
            let Some(side) = side else { continue };
            out.push_str(&format!("  {label}: {} ({})\n", side.model, side.entry));
            match &side.matched {
                Some(m) => out.push_str(&format!(
                    "    matched {} at {}:{}\n",
                    m.object, m.file, m.line
                )),
                None => out.push_str("    matched no rule\n"),
            }
            out.push_str(&format!("    → {}\n", summary(&side.behaviour)));
        }
        if self.old.is_some() && self.new.is_some() {
            if self.differences.is_empty() {
                out.push_str("  same on both sides\n");
            }
            for d in &self.differences {
                out.push_str(&format!("  differs ({}): {} → {}\n", d.part, d.old, d.new));
            }
        }
        out
    }
}

fn summary(behaviour: &Value) -> String {
    let s = |k: &str| {
        behaviour.get(k).map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    };
    let mut text = match behaviour.get("kind").and_then(Value::as_str) {
        Some("backends") => {
            let list: Vec<String> = behaviour["backends"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|b| {
                    let port = b["port"]
                        .as_u64()
                        .map(|p| format!(":{p}"))
                        .unwrap_or_default();
                    let ns = b["namespace"].as_str().unwrap_or_default();
                    let name = b["name"].as_str().unwrap_or_default();
                    let who = if ns.is_empty() {
                        name.to_string()
                    } else {
                        format!("{ns}/{name}")
                    };
                    format!(
                        "{who}{port} ({:.0}%)",
                        b["share"].as_f64().unwrap_or(0.0) * 100.0
                    )
                })
                .collect();
            let mut t = format!(
                "{} with path {}",
                list.join(", "),
                s("path").unwrap_or_default()
            );
            if let Some(h) = behaviour.get("host").and_then(Value::as_str) {
                t.push_str(&format!(" and host {h}"));
            }
            t
        }
        Some("redirect") => format!(
            "{} {}",
            s("status").unwrap_or_default(),
            s("location").unwrap_or_default()
        ),
        Some("direct") => format!("{} from the proxy", s("status").unwrap_or_default()),
        Some("denied") => format!(
            "{} denied ({})",
            s("status").unwrap_or_default(),
            s("reason").unwrap_or_default()
        ),
        Some("no-route") => "404 (no route)".to_string(),
        Some("no-listener") => "no listener".to_string(),
        _ => format!("not modelled ({})", s("reason").unwrap_or_default()),
    };
    for key in [
        "request-headers",
        "response-headers",
        "mirrors",
        "timeouts",
        "access",
        "unevaluated",
    ] {
        if let Some(v) = behaviour.get(key) {
            text.push_str(&format!("; {key} {v}"));
        }
    }
    text
}
