//! The Gateway API model (`semantics::gateway_api`) against facts from the upstream
//! conformance suite: each file of `tests/semantics/gateway-api/` restates one conformance
//! test (objects, then requests with the result the suite expects; see its README), and
//! every case runs through `World::behaviour` with the Istio and the Envoy Gateway profiles.
//! A case the model answers `not-modelled` is counted as such, never as passed; any wrong
//! answer fails the test with the list of failures.

use std::path::Path;

use gateway_migrate::semantics::gateway_api::{Profile, World};
use gateway_migrate::semantics::{Behaviour, Outcome, Request, hostname};
use serde_json::Value;

const DIR: &str = "tests/semantics/gateway-api";

use crate::common::{header_mismatch, str_list, str_map, yaml_documents as documents};

fn key_of(text: &str) -> (String, String) {
    let (ns, name) = text.split_once('/').unwrap();
    (ns.to_string(), name.to_string())
}

/// Why `b` does not meet `case`, `None` when it does.
fn check(case: &Value, request: &Request, b: &Behaviour) -> Option<String> {
    let status = case.get("status").and_then(Value::as_u64);
    let wrong = |what: &str| Some(format!("{what}; got {}", serde_json::to_string(b).unwrap()));
    if let Some(redirect) = case.get("redirect") {
        let Outcome::Redirect { status, location } = &b.outcome else {
            return wrong("expected a redirect");
        };
        let want_status = redirect
            .get("status")
            .and_then(Value::as_u64)
            .unwrap_or(302);
        if u64::from(*status) != want_status {
            return wrong(&format!("expected status {want_status}"));
        }
        let (scheme, rest) = location.split_once("://").unwrap();
        let (authority, path) = rest
            .find('/')
            .map_or((rest, "/"), |i| (&rest[..i], &rest[i..]));
        let (host, port) = hostname::split_authority(authority);
        let want_scheme = redirect
            .get("scheme")
            .and_then(Value::as_str)
            .unwrap_or(request.scheme.as_str());
        if scheme != want_scheme {
            return wrong(&format!("expected scheme {want_scheme}"));
        }
        if let Some(h) = redirect.get("host").and_then(Value::as_str)
            && host != h
        {
            return wrong(&format!("expected host {h}"));
        }
        let default = if scheme == "https" { 443 } else { 80 };
        let got_port = port.map(|p| p.parse::<u64>().unwrap());
        match redirect.get("port").and_then(Value::as_u64) {
            // The harness accepts no port or the scheme's default when the case names none.
            None if got_port.is_some_and(|p| p != default) => {
                return wrong("expected no port or the default");
            }
            Some(p) if got_port.unwrap_or(default) != p => {
                return wrong(&format!("expected port {p}"));
            }
            _ => {}
        }
        let want_path = redirect
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or(&request.path);
        if path != want_path {
            return wrong(&format!("expected path {want_path}"));
        }
        return None;
    }
    if let Some(status) = status.filter(|s| *s != 200) {
        let got = match &b.outcome {
            Outcome::Direct { status } => Some(u64::from(*status)),
            // An Envoy-based data plane answers 404 for a host or path nothing serves on a
            // port it listens on.
            Outcome::NoRoute | Outcome::NoListener => Some(404),
            _ => None,
        };
        return (got != Some(status)).then(|| {
            format!(
                "expected status {status}; got {}",
                serde_json::to_string(b).unwrap()
            )
        });
    }
    let Outcome::Backends {
        backends,
        path,
        host,
    } = &b.outcome
    else {
        return wrong("expected backends");
    };
    let mut allowed: Vec<String> = str_list(case, "backends");
    if let Some(one) = case.get("backend").and_then(Value::as_str) {
        allowed.push(one.to_string());
    }
    if !allowed.is_empty() {
        let got: Vec<String> = backends
            .iter()
            .map(|s| format!("{}/{}", s.namespace, s.name))
            .collect();
        if got.iter().any(|g| !allowed.contains(g)) {
            return wrong(&format!("expected only {allowed:?}"));
        }
    }
    let want_path = case
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or(&request.path);
    if path != want_path {
        return wrong(&format!("expected path {want_path}"));
    }
    if let Some(h) = case.get("host").and_then(Value::as_str)
        && hostname::without_port(host) != hostname::without_port(h)
    {
        return wrong(&format!("expected host {h}"));
    }
    let headers_after = |edits: &gateway_migrate::semantics::HeaderEdits,
                         base: &[(String, String)]| { edits.apply(base) };
    // A backend's own filters apply after the rule's (only single-backend cases check them).
    let only = (backends.len() == 1).then(|| &backends[0]);
    let mut sent = headers_after(&b.request_headers, &request.headers);
    if let Some(share) = only {
        sent = headers_after(&share.request_headers, &sent);
    }
    if let Some(why) = header_mismatch(case, "request", &sent) {
        return wrong(&why);
    }
    let backend_response: Vec<(String, String)> = str_map(case, "backendResponseHeaders")
        .into_iter()
        .collect();
    let mut received = headers_after(&b.response_headers, &backend_response);
    if let Some(share) = only {
        received = headers_after(&share.response_headers, &received);
    }
    header_mismatch(case, "response", &received).and_then(|why| wrong(&why))
}

#[derive(Default, Debug)]
struct Tally {
    used: usize,
    passed: usize,
    not_modelled: Vec<String>,
    failed: Vec<String>,
}

fn run_suite(infra: &[Value], path: &Path, profile: Profile) -> Tally {
    let text = std::fs::read_to_string(path).unwrap();
    let suite = gateway_migrate::yaml::parse_document(&text)
        .unwrap()
        .unwrap();
    let mut objects = infra.to_vec();
    objects.extend(documents(suite["objects"].as_str().unwrap_or_default()));
    let world = World::new(&objects, "default", profile).with_complete_services();
    let default_gateway = suite["gateway"].as_str().unwrap();
    let mut tally = Tally::default();
    for (i, case) in suite["cases"].as_array().unwrap().iter().enumerate() {
        if case.get("unexpressible").is_some() {
            continue;
        }
        tally.used += 1;
        let line = case["request"].as_str().unwrap();
        let mut request = Request::parse(line).unwrap();
        for (name, value) in str_map(case, "headers") {
            if name.eq_ignore_ascii_case("host") {
                request.host = hostname::without_port(&value);
            } else {
                request = request.with_header(&name, &value);
            }
        }
        let gateway = key_of(
            case.get("gateway")
                .and_then(Value::as_str)
                .unwrap_or(default_gateway),
        );
        let b = world.behaviour(&[gateway], &request);
        let label = format!(
            "{} case {} ({line})",
            path.file_name().unwrap().to_string_lossy(),
            i + 1
        );
        if let Outcome::NotModelled { reason } = &b.outcome {
            tally.not_modelled.push(format!("{label}: {reason}"));
            continue;
        }
        match check(case, &request, &b) {
            None => tally.passed += 1,
            Some(why) => tally.failed.push(format!("{label}: {why}")),
        }
    }
    tally
}

#[test]
fn the_gateway_api_model_meets_the_conformance_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let infra = documents(&std::fs::read_to_string(dir.join("_infra.yaml")).unwrap());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "yaml")
                && !p.file_name().unwrap().to_string_lossy().starts_with('_')
        })
        .collect();
    files.sort();
    assert!(files.len() >= 31, "{} suites", files.len());
    let mut failures = Vec::new();
    let mut table = String::from("suite | profile | used | passed | not modelled\n");
    for profile in [Profile::Istio, Profile::EnvoyGateway] {
        let mut total = Tally::default();
        for f in &files {
            let t = run_suite(&infra, f, profile);
            table.push_str(&format!(
                "{} | {profile:?} | {} | {} | {}\n",
                f.file_stem().unwrap().to_string_lossy(),
                t.used,
                t.passed,
                t.not_modelled.len()
            ));
            total.used += t.used;
            total.passed += t.passed;
            total.not_modelled.extend(t.not_modelled);
            failures.extend(t.failed.into_iter().map(|f| format!("[{profile:?}] {f}")));
        }
        table.push_str(&format!(
            "total | {profile:?} | {} | {} | {}\n",
            total.used,
            total.passed,
            total.not_modelled.len()
        ));
        for n in &total.not_modelled {
            table.push_str(&format!("  not modelled: {n}\n"));
        }
    }
    eprintln!("{table}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
