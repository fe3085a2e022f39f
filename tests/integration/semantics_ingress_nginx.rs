//! The ingress-nginx model (`semantics::ingress_nginx`) against facts from ingress-nginx's
//! own e2e suite: each file of `tests/semantics/ingress-nginx/` restates one upstream test
//! file (Ingresses, ConfigMap, flags, then requests with what the test expects; see its
//! README). Every request case runs through `World::behaviour`; an answer the model cannot
//! give counts as "not modelled", never as passed, and every wrong answer is listed. Cases
//! that only read the generated nginx.conf, or that the format cannot express, are counted
//! apart.

use std::net::IpAddr;
use std::path::Path;

use gateway_migrate::semantics::ingress_nginx::{Controller, World};
use gateway_migrate::semantics::{Behaviour, Outcome, Request, hostname};
use serde_json::Value;

const DIR: &str = "tests/semantics/ingress-nginx";

use crate::common::{header_mismatch, str_list, str_map, yaml_documents as documents};

/// Why `b` does not meet `case`, `None` when it does.
fn check(case: &Value, request: &Request, b: &Behaviour) -> Option<String> {
    let got = serde_json::to_string(b).unwrap();
    let wrong = |what: &str| Some(format!("{what}; got {got}"));
    let status = case.get("status").and_then(Value::as_u64).unwrap_or(200);
    match (&b.outcome, status) {
        (Outcome::Backends { .. }, 200) => {}
        (
            Outcome::Redirect {
                status: s,
                location,
            },
            want,
        ) if u64::from(*s) == want => {
            if let Some(l) = case.get("location").and_then(Value::as_str)
                && l != location
            {
                return wrong(&format!("expected Location {l}"));
            }
            return None;
        }
        (Outcome::Denied { status: s, .. } | Outcome::Direct { status: s }, want)
            if u64::from(*s) == want =>
        {
            return None;
        }
        (Outcome::NoRoute, 404) => return None,
        _ => return wrong(&format!("expected status {status}")),
    }
    let Outcome::Backends {
        backends,
        path,
        host,
    } = &b.outcome
    else {
        return None;
    };
    if let Some(want) = case.get("backend").and_then(Value::as_str) {
        let names: Vec<String> = backends
            .iter()
            .map(|s| format!("{}/{}", s.namespace, s.name))
            .collect();
        if names.iter().any(|n| n != want) {
            return wrong(&format!("expected backend {want}"));
        }
    }
    if let Some(want) = case.get("path").and_then(Value::as_str) {
        let want_path = want.split('?').next().unwrap_or(want);
        if path != want_path {
            return wrong(&format!("expected path {want}"));
        }
    }
    if let Some(want) = case.get("host").and_then(Value::as_str)
        && hostname::without_port(host) != hostname::without_port(want)
    {
        return wrong(&format!("expected host {want}"));
    }
    let sent = b.request_headers.apply(&request.headers);
    if let Some(why) = header_mismatch(case, "request", &sent) {
        return wrong(&why);
    }
    // The backend adds no headers of its own in these tests: what the client gets beyond
    // the backend's answer is the model's response edits.
    let received = b.response_headers.apply(&[]);
    if let Some(why) = header_mismatch(case, "response", &received) {
        return wrong(&why);
    }
    if case.get("bodyContains").is_some() {
        return wrong("response bodies are not in the model");
    }
    None
}

#[derive(Default)]
struct Tally {
    used: usize,
    passed: usize,
    not_modelled: Vec<String>,
    wrong: Vec<(String, String)>,
    config_only: usize,
    unexpressible: usize,
}

fn run_file(path: &Path, tally: &mut Tally) {
    let text = std::fs::read_to_string(path).unwrap();
    let file = gateway_migrate::yaml::parse_document(&text)
        .unwrap()
        .unwrap();
    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
    for suite in file["suites"].as_array().unwrap() {
        let mut controller = Controller::new("nginx");
        controller.config_map = str_map(suite, "configMap");
        controller.flags = str_list(suite, "flags");
        let objects = documents(suite["objects"].as_str().unwrap_or_default());
        let world = World::new(&objects, "e2e", controller);
        let name = suite["name"].as_str().unwrap_or_default();
        for (i, case) in suite["cases"].as_array().into_iter().flatten().enumerate() {
            if case.get("configOnly").is_some() {
                tally.config_only += 1;
                continue;
            }
            if case.get("unexpressible").is_some() {
                tally.unexpressible += 1;
                continue;
            }
            tally.used += 1;
            let label = format!("{stem}#{name}#{}", i + 1);
            let line = case["request"].as_str().unwrap();
            let mut request = Request::parse(line).unwrap();
            for (n, v) in str_map(case, "headers") {
                if n.eq_ignore_ascii_case("host") {
                    request.host = hostname::without_port(&v);
                } else {
                    request = request.with_header(&n, &v);
                }
            }
            let source = case
                .get("sourceIp")
                .and_then(Value::as_str)
                .and_then(|s| s.parse::<IpAddr>().ok());
            let b = world.behaviour(&request, source);
            if let Outcome::NotModelled { reason } = &b.outcome {
                tally.not_modelled.push(format!("{label}: {reason}"));
                continue;
            }
            match check(case, &request, &b) {
                None => tally.passed += 1,
                // The model said which parts it did not decide (access checks it only
                // records, annotations it does not evaluate): an answer that misses there
                // is "not modelled", never "passed"; any other miss is wrong.
                Some(why) if !b.access.is_empty() || !b.unevaluated.is_empty() => {
                    let parts: Vec<String> = b
                        .access
                        .iter()
                        .map(|a| format!("{a:?}"))
                        .chain(b.unevaluated.iter().map(|(k, _)| k.clone()))
                        .collect();
                    tally
                        .not_modelled
                        .push(format!("{label}: {} ({why})", parts.join(", ")));
                }
                Some(why) => tally.wrong.push((label, format!("{line}: {why}"))),
            }
        }
    }
}

#[test]
fn the_ingress_nginx_model_meets_the_e2e_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 27, "{} files", files.len());
    let mut table = String::from("file | used | passed | not modelled | wrong\n");
    let mut total = Tally::default();
    for f in &files {
        let mut t = Tally::default();
        run_file(f, &mut t);
        table.push_str(&format!(
            "{} | {} | {} | {} | {}\n",
            f.file_stem().unwrap().to_string_lossy(),
            t.used,
            t.passed,
            t.not_modelled.len(),
            t.wrong.len()
        ));
        total.used += t.used;
        total.passed += t.passed;
        total.config_only += t.config_only;
        total.unexpressible += t.unexpressible;
        total.not_modelled.extend(t.not_modelled);
        total.wrong.extend(t.wrong);
    }
    table.push_str(&format!(
        "total | {} | {} | {} | {} (config-only {}, unexpressible {})\n",
        total.used,
        total.passed,
        total.not_modelled.len(),
        total.wrong.len(),
        total.config_only,
        total.unexpressible
    ));
    for n in &total.not_modelled {
        table.push_str(&format!("  not modelled: {n}\n"));
    }
    eprintln!("{table}");
    let wrong: Vec<String> = total
        .wrong
        .iter()
        .map(|(label, why)| format!("{label}: {why}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong answers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
