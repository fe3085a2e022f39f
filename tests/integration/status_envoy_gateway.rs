//! The predicted status (`validate::status`) against Envoy Gateway's own translator test
//! data: `tests/data/envoy-gateway/cases.json`, extracted by `extract.py` from
//! `internal/gatewayapi/testdata` at the commit it names (inputs and expected conditions
//! only), with the objects the translator test adds to every case (`harness.yaml`, from
//! `TestTranslate` in `translator_test.go`).
//!
//! Every case is loaded through the pipeline (as `convert` loads streams) and predicted with
//! `--target envoy-gateway --strict` (Envoy Gateway's world is closed: what the case does not
//! hold does not exist). A case agrees when every condition compared is the same (type,
//! status, reason) on every listener, Gateway, route parent and BackendTLSPolicy ancestor.
//! Conditions that depend on the cluster rather than the manifests (`BackendsAvailable`,
//! endpoints) or are Envoy Gateway's own notes (`RouteRulesOverlap`, `Aggregated`) are
//! counted but not compared.
//!
//! The cases that disagree must be exactly those listed, with the reason, in
//! `disagreements.txt`; the figures are in `docs/validation.md` (`BLESS=1` rewrites them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use gateway_migrate::config::{Channel, Config, Target};
use gateway_migrate::pipeline;
use gateway_migrate::validate::status::{self, PredictedCondition, PredictedStatus, Status};

const NOT_COMPARED: &[&str] = &["BackendsAvailable", "RouteRulesOverlap", "Aggregated"];

fn data(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/envoy-gateway")
        .join(file)
}

fn config() -> Config {
    Config {
        target: Target::EnvoyGateway,
        channel: Channel::Experimental,
        strict: true,
        ..Config::default()
    }
}

fn predicted(objects: &[Value]) -> PredictedStatus {
    let mut stream = std::fs::read_to_string(data("harness.yaml")).unwrap();
    for o in objects {
        stream.push_str("---\n");
        // JSON is YAML.
        stream.push_str(&serde_json::to_string(o).unwrap());
        stream.push('\n');
    }
    let streams = vec![("case.yaml".to_string(), stream.into_bytes())];
    let mut request = pipeline::Request::new(pipeline::Input::Streams(streams), config());
    request.jobs = 1;
    let outcome = pipeline::run(request).unwrap();
    status::predict(&outcome.scan.index, &[], &outcome.config)
}

type Conditions = BTreeMap<String, (String, String)>;

fn expected_conditions(list: &Value) -> Conditions {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let c = c.as_array()?;
            let s = |i: usize| {
                c.get(i)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            (!NOT_COMPARED.contains(&s(0).as_str())).then(|| (s(0), (s(1), s(2))))
        })
        .collect()
}

fn our_conditions(list: &[PredictedCondition]) -> Conditions {
    list.iter()
        .map(|c| {
            let status = match c.status {
                Status::True => "True",
                Status::False => "False",
                Status::Unknown => "Unknown",
            };
            (c.type_.to_string(), (status.to_string(), c.reason.clone()))
        })
        .collect()
}

/// A parentRef or ancestorRef as `namespace/name/section:port`.
fn reference(r: &Value, default_ns: &str) -> String {
    let s = |k: &str| {
        r.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let ns = r
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or(default_ns);
    let port = r.get("port").map(ToString::to_string).unwrap_or_default();
    format!(
        "{}/{ns}/{}/{}:{port}",
        s("kind"),
        s("name"),
        s("sectionName")
    )
}

/// The differences between expected and predicted conditions of one object.
fn compare(what: &str, expected: &Conditions, ours: &Conditions, out: &mut Vec<String>) {
    let types: BTreeSet<&String> = expected.keys().chain(ours.keys()).collect();
    for t in types {
        let e = expected.get(t);
        let o = ours.get(t);
        if e != o {
            out.push(format!("{what} {t}: expected {e:?}, predicted {o:?}"));
        }
    }
}

/// What one case's comparison found.
#[derive(Default)]
struct Comparison {
    differences: Vec<String>,
    /// Route parents whose Gateway the CRDs reject: it never exists in a cluster (Envoy
    /// Gateway's translator test bypasses admission), so they are not compared.
    rejected_parents: usize,
}

fn differences(case: &Value) -> Comparison {
    let mut rejected_parents = 0;
    let objects: Vec<Value> = case["objects"].as_array().cloned().unwrap_or_default();
    let ours = predicted(&objects);
    let expected = &case["expected"];
    let mut out = Vec::new();
    for g in expected["gateways"].as_array().into_iter().flatten() {
        let (ns, name) = (
            g["namespace"].as_str().unwrap(),
            g["name"].as_str().unwrap(),
        );
        let what = format!("Gateway {ns}/{name}");
        let Some(our) = ours
            .gateways
            .iter()
            .find(|o| o.namespace == ns && o.name == name)
        else {
            out.push(format!("{what}: not predicted"));
            continue;
        };
        compare(
            &what,
            &expected_conditions(&g["conditions"]),
            &our_conditions(&our.conditions),
            &mut out,
        );
        for l in g["listeners"].as_array().into_iter().flatten() {
            let lname = l["name"].as_str().unwrap_or_default();
            let what = format!("{what} listener {lname}");
            match our.listeners.iter().find(|o| o.name == lname) {
                Some(ol) => compare(
                    &what,
                    &expected_conditions(&l["conditions"]),
                    &our_conditions(&ol.conditions),
                    &mut out,
                ),
                None => out.push(format!("{what}: not predicted")),
            }
        }
    }
    for r in expected["routes"].as_array().into_iter().flatten() {
        let (kind, ns, name) = (
            r["kind"].as_str().unwrap_or_default(),
            r["namespace"].as_str().unwrap_or_default(),
            r["name"].as_str().unwrap_or_default(),
        );
        let what = format!("{kind} {ns}/{name}");
        let Some(our) = ours
            .routes
            .iter()
            .find(|o| o.kind == kind && o.namespace == ns && o.name == name)
        else {
            out.push(format!("{what}: not predicted"));
            continue;
        };
        let expected_parents: BTreeMap<String, &Value> = r["parents"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| (reference(&p["parentRef"], ns), p))
            .collect();
        for p in &our.parents {
            let key = reference(&p.parent_ref, ns);
            let what = format!("{what} parent {key}");
            let ours = our_conditions(&p.conditions);
            if ours
                .get("Accepted")
                .is_some_and(|a| a.1 == "ParentRejected")
            {
                rejected_parents += 1;
                continue;
            }
            match expected_parents.get(&key) {
                Some(e) => compare(
                    &what,
                    &expected_conditions(&e["conditions"]),
                    &ours,
                    &mut out,
                ),
                // Envoy Gateway leaves a parentRef it does not manage (no such Gateway)
                // without status: the route is not served there, which a failure predicts.
                None if ours.get("Accepted").is_some_and(|a| a.0 == "False") => {}
                None => out.push(format!("{what}: no status expected, predicted {ours:?}")),
            }
        }
    }
    for p in expected["backendTLSPolicies"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let (ns, name) = (
            p["namespace"].as_str().unwrap(),
            p["name"].as_str().unwrap(),
        );
        let what = format!("BackendTLSPolicy {ns}/{name}");
        let Some(our) = ours
            .backend_tls_policies
            .iter()
            .find(|o| o.namespace == ns && o.name == name)
        else {
            out.push(format!("{what}: not predicted"));
            continue;
        };
        for a in p["ancestors"].as_array().into_iter().flatten() {
            let key = reference(&a["ancestorRef"], ns);
            let what = format!("{what} ancestor {key}");
            match our
                .ancestors
                .iter()
                .find(|o| reference(&o.ancestor_ref, ns) == key)
            {
                Some(o) => compare(
                    &what,
                    &expected_conditions(&a["conditions"]),
                    &our_conditions(&o.conditions),
                    &mut out,
                ),
                None => out.push(format!("{what}: not predicted")),
            }
        }
    }
    Comparison {
        differences: out,
        rejected_parents,
    }
}

/// `name — reason` lines of `disagreements.txt`.
fn listed_disagreements() -> BTreeMap<String, String> {
    std::fs::read_to_string(data("disagreements.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (name, why) = l.split_once(" — ")?;
            Some((name.trim().to_string(), why.trim().to_string()))
        })
        .collect()
}

#[test]
fn predicted_status_agrees_with_envoy_gateways_translator_test_data() {
    let text = std::fs::read_to_string(data("cases.json")).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    let commit = all["commit"].as_str().unwrap().to_string();
    let cases = all["cases"].as_array().unwrap();
    let skipped = all["skipped"].as_object().map_or(0, serde_json::Map::len);
    let mut disagreeing: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut rejected_parents = 0;
    for case in cases {
        let name = case["name"].as_str().unwrap().to_string();
        let found = differences(case);
        rejected_parents += found.rejected_parents;
        if !found.differences.is_empty() {
            disagreeing.insert(name, found.differences);
        }
    }
    let total = cases.len();
    let agreeing = total - disagreeing.len();
    let listed = listed_disagreements();
    let report: Vec<String> = disagreeing
        .iter()
        .map(|(name, d)| format!("{name}:\n    {}", d.join("\n    ")))
        .collect();
    let unlisted: Vec<&String> = disagreeing
        .keys()
        .filter(|n| !listed.contains_key(*n))
        .collect();
    let now_agreeing: Vec<&String> = listed
        .keys()
        .filter(|n| !disagreeing.contains_key(*n))
        .collect();
    let percent = agreeing * 1000 / total.max(1);
    let summary = format!(
        "Against Envoy Gateway's translator test data (`internal/gatewayapi/testdata` at \
         {commit}): {total} cases in scope ({skipped} left out: Envoy Gateway's own resources \
         or a non-default translator configuration); {agreeing} agree on every condition \
         compared, {} disagree ({}.{} % agree). Each disagreement and its reason: \
         `tests/data/envoy-gateway/disagreements.txt`. Not compared: {rejected_parents} route \
         parents of Gateways the CRDs reject (the translator test bypasses admission; in a \
         cluster such a Gateway never exists, and the tool reports the parent as rejected).",
        disagreeing.len(),
        percent / 10,
        percent % 10
    );
    eprintln!("{summary}\n{}", report.join("\n"));
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/validation.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let (start, end) = (
        "<!-- envoy-gateway-table: begin -->",
        "<!-- envoy-gateway-table: end -->",
    );
    let (before, rest) = doc
        .split_once(start)
        .expect("docs/validation.md has the table markers");
    let (_, after) = rest
        .split_once(end)
        .expect("docs/validation.md has the end marker");
    let wanted = format!("{before}{start}\n{summary}\n{end}{after}");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&doc_path, &wanted).unwrap();
    } else {
        assert_eq!(doc, wanted, "docs/validation.md is stale: run with BLESS=1");
    }
    assert!(
        unlisted.is_empty() && now_agreeing.is_empty(),
        "disagreements not in disagreements.txt: {unlisted:?}\nlisted but agreeing now: {now_agreeing:?}\n{}",
        report.join("\n")
    );
    assert!(
        agreeing * 100 >= total * 95,
        "only {agreeing} of {total} cases agree"
    );
}
