//! The equivalence check's Istio model (`istio.rs`) against facts from Istio's own tests:
//! each file of `tests/semantics/istio/` restates one group of pilot tests as requests to an
//! ingress gateway and the outcome Istio's expected output implies (see its README). Every
//! request case runs through `Model::evaluate`; an answer the model cannot give (delegate
//! VirtualServices are not followed yet) counts as not modelled, never as passed, and any
//! wrong answer fails the test.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use super::{Outcome, Probe, istio};
use crate::config::Config;
use crate::semantics::{Request, hostname};

const DIR: &str = "tests/semantics/istio";

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

/// The probe for a case: its request line, its headers, `Host` replacing the URL's host.
fn probe_of(case: &Value) -> Option<Probe> {
    let request = Request::parse(str_of(case, "request")?).ok()?;
    let mut probe = Probe::new(
        request.scheme,
        &request.host,
        u32::from(request.port),
        &request.path,
    );
    probe.method = request.method.clone();
    probe.query = request.query.clone();
    for (name, value) in case
        .get("headers")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let value = value.as_str().unwrap_or_default();
        if name.eq_ignore_ascii_case("host")
            && value.contains(':') != (request.port != request.scheme.default_port())
        {
            // A Host whose port is not the connection's: the check's probes send the port
            // they connect to (and none for the scheme's default).
            return None;
        }
        if name.eq_ignore_ascii_case("host") {
            probe.host = hostname::without_port(value).to_ascii_lowercase();
        } else {
            probe
                .headers
                .push((name.to_ascii_lowercase(), value.to_string()));
        }
    }
    Some(probe)
}

/// `(namespace, name)` of a destination host as the model names backends: a Service's FQDN
/// as its namespace and name, anything else as the host alone.
fn destination(host: &str) -> (String, String) {
    match host.strip_suffix(".svc.cluster.local") {
        Some(rest) => match rest.split_once('.') {
            Some((name, ns)) => (ns.to_string(), name.to_string()),
            None => (String::new(), host.to_string()),
        },
        None => (String::new(), host.to_string()),
    }
}

/// Why `got` does not meet `case` (`Err` when the case reads what the model does not give).
fn check(case: &Value, probe: &Probe, got: &Outcome) -> Result<Option<String>, String> {
    let status = case.get("status").and_then(Value::as_u64).unwrap_or(200);
    let wrong = |what: String| Ok(Some(format!("{what}; got {got}")));
    match (got, status) {
        (Outcome::NotFound, 404) => return Ok(None),
        (
            Outcome::Redirect {
                status: s,
                location,
            },
            want,
        ) if u64::from(*s) == want => {
            if let Some(l) = str_of(case, "location")
                && super::with_root_path(l) != super::with_root_path(location)
            {
                return wrong(format!("expected Location {l}"));
            }
            return Ok(None);
        }
        (Outcome::Respond { status: s }, want) if u64::from(*s) == want && want != 200 => {
            return Ok(None);
        }
        (Outcome::Forward { .. }, 200) => {}
        _ => return wrong(format!("expected status {status}")),
    }
    let Outcome::Forward {
        backends,
        path,
        host,
    } = got
    else {
        return Ok(None);
    };
    let want: Vec<&Value> = case
        .get("destinations")
        .and_then(Value::as_array)
        .map(|d| d.iter().collect())
        .unwrap_or_default();
    let hosts: Vec<&str> = want.iter().filter_map(|d| str_of(d, "host")).collect();
    if hosts
        .iter()
        .enumerate()
        .any(|(i, h)| hosts[..i].contains(h))
    {
        return Err("destinations told apart by subset (the check's backends have none)".into());
    }
    if !want.is_empty() {
        let expected: BTreeSet<(String, String)> = want
            .iter()
            .filter_map(|d| str_of(d, "host"))
            .map(destination)
            .collect();
        let got_set: BTreeSet<(String, String)> = backends
            .iter()
            .map(|s| (s.backend.namespace.clone(), s.backend.name.clone()))
            .collect();
        if expected != got_set {
            return wrong(format!("expected destinations {expected:?}"));
        }
        for d in &want {
            let (ns, name) = destination(str_of(d, "host").unwrap_or_default());
            let Some(share) = backends
                .iter()
                .find(|s| s.backend.namespace == ns && s.backend.name == name)
            else {
                continue;
            };
            if let Some(port) = d.get("port").and_then(Value::as_u64)
                && share.backend.port.is_some_and(|p| u64::from(p) != port)
            {
                return wrong(format!("expected port {port} for {name}"));
            }
            if let Some(w) = d.get("weight").and_then(Value::as_u64)
                && want.len() > 1
                && u64::from(share.permille).abs_diff(w * 10) > 5
            {
                return wrong(format!("expected weight {w} for {name}"));
            }
        }
    }
    if let Some(p) = str_of(case, "path")
        && p.split('?').next() != Some(path.as_str())
    {
        return wrong(format!("expected path {p}"));
    }
    if let Some(h) = str_of(case, "host") {
        let seen = host.clone().unwrap_or_else(|| probe.authority());
        if !seen.eq_ignore_ascii_case(h) && hostname::without_port(&seen) != h {
            return wrong(format!("expected host {h}"));
        }
    }
    for key in ["requestHeaders", "responseHeaders", "removedRequestHeaders"] {
        if case.get(key).is_some() {
            return Err(format!("{key} (the check's outcome carries no headers)"));
        }
    }
    Ok(None)
}

#[test]
fn the_istio_model_meets_istios_own_tests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 11, "{} files", files.len());
    let (mut used, mut passed, mut unexpressible) = (0, 0, 0);
    let mut not_modelled = Vec::new();
    let mut wrong: Vec<(String, String)> = Vec::new();
    let mut table = String::from("file | used | passed | not modelled | wrong\n");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let file = crate::yaml::parse_document(&text).unwrap().unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let (u0, p0, n0, w0) = (used, passed, not_modelled.len(), wrong.len());
        for suite in file["suites"].as_array().unwrap() {
            let name = str_of(suite, "name").unwrap_or_default();
            let objects = str_of(suite, "objects").unwrap_or_default();
            let scan = crate::scan::scan_inputs(
                &[("t.yaml".to_string(), objects.as_bytes().to_vec())],
                &Config::default(),
            );
            let model = istio::Model::build(&scan.index, &Config::default());
            for (i, case) in suite["cases"].as_array().into_iter().flatten().enumerate() {
                if case.get("unexpressible").is_some() {
                    unexpressible += 1;
                    continue;
                }
                used += 1;
                let label = format!("{stem}#{name}#{}", i + 1);
                let Some(probe) = probe_of(case) else {
                    not_modelled.push(format!("{label}: a Host header naming another port"));
                    continue;
                };
                let decisions: Vec<Outcome> = (0..model.gateway_count())
                    .map(|g| model.evaluate(g, &probe).outcome)
                    .collect();
                let got = decisions
                    .iter()
                    .find(|o| !matches!(o, Outcome::NoListener))
                    .cloned()
                    .unwrap_or(Outcome::NoListener);
                if let Outcome::Unmodelled(why) = &got {
                    not_modelled.push(format!("{label}: {why}"));
                    continue;
                }
                match check(case, &probe, &got) {
                    Ok(None) => passed += 1,
                    Ok(Some(why)) => wrong.push((label, format!("{probe}: {why}"))),
                    Err(why) => not_modelled.push(format!("{label}: {why}")),
                }
            }
        }
        table.push_str(&format!(
            "{stem} | {} | {} | {} | {}\n",
            used - u0,
            passed - p0,
            not_modelled.len() - n0,
            wrong.len() - w0
        ));
    }
    table.push_str(&format!(
        "total | {used} | {passed} | {} | {} (unexpressible {unexpressible})\n",
        not_modelled.len(),
        wrong.len()
    ));
    for n in &not_modelled {
        table.push_str(&format!("  not modelled: {n}\n"));
    }
    for (label, why) in &wrong {
        table.push_str(&format!("  wrong: {label} {why}\n"));
    }
    eprintln!("{table}");
    assert!(
        wrong.is_empty(),
        "{} wrong answers (table above)",
        wrong.len()
    );
}
