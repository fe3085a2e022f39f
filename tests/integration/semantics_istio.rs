//! The Istio model (`semantics::istio`) against facts from Istio's own tests: each file of
//! `tests/semantics/istio/` restates one group of pilot tests as requests to an ingress
//! gateway and the outcome Istio's expected output implies (see its README). Every request
//! case runs through `World::behaviour`; an answer the model cannot give counts as "not
//! modelled", never as passed, and any wrong answer fails the test.

use std::collections::BTreeSet;
use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::semantics::istio::{Mesh, World};
use gateway_migrate::semantics::{Behaviour, Outcome, Request, hostname};
use serde_json::Value;

use crate::common::{header_mismatch, str_list, str_map};

const DIR: &str = "tests/semantics/istio";

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

/// The request of a case: its request line and headers; a `Host` header replaces the Host
/// the URL implies (it may name another port than the connection's).
fn request_of(case: &Value) -> Request {
    let mut request = Request::parse(str_of(case, "request").unwrap()).unwrap();
    for (name, value) in str_map(case, "headers") {
        request = request.with_header(&name, &value);
    }
    request
}

/// `(namespace, name)` of a destination host as the model names backends: a Service's FQDN
/// as its namespace and name, anything else as the host alone.
fn destination(host: &str) -> (String, String) {
    match host
        .strip_suffix(".svc.cluster.local")
        .and_then(|rest| rest.split_once('.'))
    {
        Some((name, ns)) => (ns.to_string(), name.to_string()),
        None => (String::new(), host.to_string()),
    }
}

/// Why `b` does not meet `case` (`Err` when the case reads what the model does not give).
fn check(case: &Value, request: &Request, b: &Behaviour) -> Result<Option<String>, String> {
    let got = serde_json::to_string(&b.outcome).unwrap();
    let wrong = |what: String| Ok(Some(format!("{what}; got {got}")));
    let status = case.get("status").and_then(Value::as_u64).unwrap_or(200);
    match (&b.outcome, status) {
        (Outcome::NoRoute, 404) => return Ok(None),
        (
            Outcome::Redirect {
                status: s,
                location,
            },
            want,
        ) if u64::from(*s) == want => {
            if let Some(l) = str_of(case, "location")
                && l.trim_end_matches('/') != location.trim_end_matches('/')
            {
                return wrong(format!("expected Location {l}"));
            }
            return Ok(None);
        }
        (Outcome::Direct { status: s }, want) if u64::from(*s) == want && want != 200 => {
            return Ok(None);
        }
        (Outcome::Backends { .. }, 200) => {}
        _ => return wrong(format!("expected status {status}")),
    }
    let Outcome::Backends {
        backends,
        path,
        host,
    } = &b.outcome
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
        return Err("destinations told apart by subset (backends carry none)".into());
    }
    if !want.is_empty() {
        let expected: BTreeSet<(String, String)> = hosts.iter().map(|h| destination(h)).collect();
        let got_set: BTreeSet<(String, String)> = backends
            .iter()
            .filter(|s| s.weight > 0)
            .map(|s| (s.namespace.clone(), s.name.clone()))
            .collect();
        if expected != got_set {
            return wrong(format!("expected destinations {expected:?}"));
        }
        let total: u64 = backends.iter().map(|s| s.weight).sum();
        for d in &want {
            let (ns, name) = destination(str_of(d, "host").unwrap_or_default());
            let Some(share) = backends
                .iter()
                .find(|s| s.namespace == ns && s.name == name)
            else {
                continue;
            };
            if let Some(port) = d.get("port").and_then(Value::as_u64)
                && share.port.is_some_and(|p| u64::from(p) != port)
            {
                return wrong(format!("expected port {port} for {name}"));
            }
            if let Some(w) = d.get("weight").and_then(Value::as_u64)
                && want.len() > 1
                && (share.weight * 1000 / total.max(1)).abs_diff(w * 10) > 5
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
        let seen = if host == &request.host {
            request.authority()
        } else {
            host.clone()
        };
        if !seen.eq_ignore_ascii_case(h) && hostname::without_port(&seen) != h {
            return wrong(format!("expected host {h}"));
        }
    }
    // The route's edits, then the destination's when there is one (with several, the case
    // lists only the route's).
    let single = match backends.as_slice() {
        [one] => Some(one),
        _ => None,
    };
    let sent = b.request_headers.apply(&request.headers);
    let sent = single.map_or_else(|| sent.clone(), |one| one.request_headers.apply(&sent));
    let returned = b.response_headers.apply(&[]);
    let returned = single.map_or_else(
        || returned.clone(),
        |one| one.response_headers.apply(&returned),
    );
    let mismatch = header_mismatch(case, "request", &sent)
        .or_else(|| header_mismatch(case, "response", &returned))
        .or_else(|| {
            str_list(case, "removedRequestHeaders")
                .into_iter()
                .find(|name| sent.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
                .map(|name| format!("expected request header {name} removed"))
        });
    if let Some(why) = mismatch {
        // A header the model records without deciding (CORS) may be the one expected.
        if !b.unevaluated.is_empty() {
            let names: Vec<&str> = b.unevaluated.iter().map(|(n, _)| n.as_str()).collect();
            return Err(format!("{why}, with {} not evaluated", names.join(", ")));
        }
        return wrong(why);
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
    let mut wrong: Vec<String> = Vec::new();
    let mut table = String::from("file | used | passed | not modelled | wrong\n");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let file = gateway_migrate::yaml::parse_document(&text)
            .unwrap()
            .unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let (u0, p0, n0, w0) = (used, passed, not_modelled.len(), wrong.len());
        for suite in file["suites"].as_array().unwrap() {
            let name = str_of(suite, "name").unwrap_or_default();
            let objects = str_of(suite, "objects").unwrap_or_default();
            let scan = gateway_migrate::scan::scan_inputs(
                &[("t.yaml".to_string(), objects.as_bytes().to_vec())],
                &Config::default(),
            );
            let world = World::new(&scan.index.objects, &Mesh::default());
            for (i, case) in suite["cases"].as_array().into_iter().flatten().enumerate() {
                if case.get("unexpressible").is_some() {
                    unexpressible += 1;
                    continue;
                }
                used += 1;
                let label = format!("{stem}#{name}#{}", i + 1);
                let request = request_of(case);
                let got = (0..world.gateway_count())
                    .map(|g| world.behaviour(g, &request))
                    .find(|b| !matches!(b.outcome, Outcome::NoListener))
                    .unwrap_or_else(|| Behaviour::of(Outcome::NoListener));
                if let Outcome::NotModelled { reason } = &got.outcome {
                    not_modelled.push(format!("{label}: {reason}"));
                    continue;
                }
                match check(case, &request, &got) {
                    Ok(None) => passed += 1,
                    Ok(Some(why)) => wrong.push(format!("{label} {why}")),
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
    for w in &wrong {
        table.push_str(&format!("  wrong: {w}\n"));
    }
    eprintln!("{table}");
    assert!(
        wrong.is_empty(),
        "{} wrong answers (table above)",
        wrong.len()
    );
    // Every case the model cannot answer is listed above; the count can only go down.
    assert!(
        used >= 209 && not_modelled.len() <= 4,
        "{used} used, {} not modelled",
        not_modelled.len()
    );
}
