//! Test helper: the CEL rules of the Gateway API v1.6.1 CRDs (and a few spec rules the CRDs
//! leave to implementations) that the schema check in `crd_schema.rs` cannot see, written
//! out for the objects the Istio translator generates. Messages quote the CRD's.

#![allow(dead_code)]

use std::collections::BTreeSet;

use serde_json::Value;

fn arr(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or(&[])
}

fn is_service_ref(r: &Value) -> bool {
    r["group"].as_str().unwrap_or("").is_empty()
        && r["kind"].as_str().unwrap_or("Service") == "Service"
}

fn nanos(d: &str) -> u128 {
    let mut total = 0u128;
    let mut num = String::new();
    let mut unit = String::new();
    let mut flush = |num: &mut String, unit: &mut String| {
        let n: u128 = num.parse().unwrap_or(0);
        total += n * match unit.as_str() {
            "h" => 3_600_000_000_000,
            "m" => 60_000_000_000,
            "s" => 1_000_000_000,
            "ms" => 1_000_000,
            _ => 0,
        };
        num.clear();
        unit.clear();
    };
    for c in d.chars() {
        if c.is_ascii_digit() {
            if !unit.is_empty() {
                flush(&mut num, &mut unit);
            }
            num.push(c);
        } else {
            unit.push(c);
        }
    }
    flush(&mut num, &mut unit);
    total
}

/// Violations of `obj` (generated object as JSON).
pub fn violations(obj: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let spec = &obj["spec"];
    match obj["kind"].as_str().unwrap_or_default() {
        "Gateway" => gateway(spec, &mut out),
        "HTTPRoute" => http_route(spec, &mut out),
        "TLSRoute" | "TCPRoute" => {
            parent_refs(spec, &mut out);
            for rule in arr(&spec["rules"]) {
                backend_refs(&rule["backendRefs"], &mut out);
            }
        }
        _ => {}
    }
    out
}

fn gateway(spec: &Value, out: &mut Vec<String>) {
    let mut names = BTreeSet::new();
    let mut combos = BTreeSet::new();
    for l in arr(&spec["listeners"]) {
        let name = l["name"].as_str().unwrap_or_default();
        let protocol = l["protocol"].as_str().unwrap_or_default();
        if !names.insert(name.to_string()) {
            out.push("Listener name must be unique within the Gateway".into());
        }
        if !combos.insert((
            l["port"].to_string(),
            protocol.to_string(),
            l["hostname"].to_string(),
        )) {
            out.push(
                "Combination of port, protocol and hostname must be unique for each listener"
                    .into(),
            );
        }
        let tls = &l["tls"];
        if matches!(protocol, "HTTP" | "TCP" | "UDP") && !tls.is_null() {
            out.push(format!(
                "{name}: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"
            ));
        }
        if matches!(protocol, "TCP" | "UDP") && !l["hostname"].is_null() {
            out.push(format!(
                "{name}: hostname must not be specified for protocols ['TCP', 'UDP']"
            ));
        }
        if protocol == "HTTPS"
            && !tls.is_null()
            && tls["mode"].as_str().unwrap_or("Terminate") != "Terminate"
        {
            out.push(format!(
                "{name}: tls mode must be Terminate for protocol HTTPS"
            ));
        }
        if protocol == "TLS" && tls["mode"].is_null() {
            out.push(format!("{name}: tls mode must be set for protocol TLS"));
        }
        if tls["mode"].as_str().unwrap_or("Terminate") == "Terminate"
            && !tls.is_null()
            && arr(&tls["certificateRefs"]).is_empty()
            && tls["options"].as_object().is_none_or(|o| o.is_empty())
        {
            out.push(format!(
                "{name}: certificateRefs or options must be specified when mode is Terminate"
            ));
        }
    }
    let mut ports = BTreeSet::new();
    for p in arr(&spec["tls"]["frontend"]["perPort"]) {
        if !ports.insert(p["port"].to_string()) {
            out.push("Port for TLS configuration must be unique within the Gateway".into());
        }
    }
}

fn parent_refs(spec: &Value, out: &mut Vec<String>) {
    let refs = arr(&spec["parentRefs"]);
    for (i, a) in refs.iter().enumerate() {
        for b in &refs[i + 1..] {
            let same = a["name"] == b["name"]
                && a["namespace"] == b["namespace"]
                && a["kind"] == b["kind"]
                && a["group"] == b["group"];
            if same && (a["sectionName"].is_null() || b["sectionName"].is_null()) {
                out.push("sectionName must be specified when parentRefs includes 2 or more references to the same parent".into());
            }
            if same && a["sectionName"] == b["sectionName"] {
                out.push("sectionName must be unique when parentRefs includes 2 or more references to the same parent".into());
            }
        }
    }
}

fn backend_refs(refs: &Value, out: &mut Vec<String>) {
    for r in arr(refs) {
        if is_service_ref(r) && r["port"].is_null() {
            out.push(format!(
                "{}: Must have port for Service reference",
                r["name"]
            ));
        }
        filters(&r["filters"], out);
    }
}

fn filters(list: &Value, out: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    for f in arr(list) {
        let t = f["type"].as_str().unwrap_or_default();
        if t != "RequestMirror" && t != "ExtensionRef" && !seen.insert(t.to_string()) {
            out.push(format!("{t} filter cannot be repeated"));
        }
        if t == "RequestMirror" {
            let m = &f["requestMirror"];
            if !m["percent"].is_null() && !m["fraction"].is_null() {
                out.push(
                    "Only one of percent or fraction may be specified in HTTPRequestMirrorFilter"
                        .into(),
                );
            }
            if is_service_ref(&m["backendRef"]) && m["backendRef"]["port"].is_null() {
                out.push("mirror: Must have port for Service reference".into());
            }
        }
        for modifier in ["requestHeaderModifier", "responseHeaderModifier"] {
            let m = &f[modifier];
            let mut names = BTreeSet::new();
            for h in arr(&m["set"]).iter().chain(arr(&m["add"])) {
                if h["value"].as_str().unwrap_or_default().is_empty() {
                    out.push(format!("{modifier}: empty header value"));
                }
                if !names.insert(h["name"].as_str().unwrap_or_default().to_ascii_lowercase()) {
                    out.push(format!("{modifier}: one action per header name"));
                }
            }
        }
    }
    if seen.contains("RequestRedirect") && seen.contains("URLRewrite") {
        out.push("May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both".into());
    }
}

fn http_route(spec: &Value, out: &mut Vec<String>) {
    parent_refs(spec, out);
    let rules = arr(&spec["rules"]);
    if rules.len() > 16 || arr(&spec["hostnames"]).len() > 16 {
        out.push("more than 16 rules or hostnames".into());
    }
    let total: usize = rules.iter().map(|r| arr(&r["matches"]).len()).sum();
    if total > 128 {
        out.push(
            "the total number of matches across all rules in a route must be less than 128".into(),
        );
    }
    let mut rule_names = BTreeSet::new();
    for rule in rules {
        if let Some(n) = rule["name"].as_str()
            && !rule_names.insert(n.to_string())
        {
            out.push("Rule name must be unique within the route".into());
        }
        let fs = arr(&rule["filters"]);
        let has_redirect = fs.iter().any(|f| f["type"] == "RequestRedirect");
        if has_redirect && !arr(&rule["backendRefs"]).is_empty() {
            out.push("RequestRedirect filter must not be used together with backendRefs".into());
        }
        if arr(&rule["backendRefs"]).len() > 16 {
            out.push("more than 16 backendRefs".into());
        }
        let prefix_modifier = fs.iter().any(|f| {
            f["requestRedirect"]["path"]["type"] == "ReplacePrefixMatch"
                || f["urlRewrite"]["path"]["type"] == "ReplacePrefixMatch"
        });
        if prefix_modifier {
            let matches = arr(&rule["matches"]);
            if matches.len() != 1 || matches[0]["path"]["type"] != "PathPrefix" {
                out.push("When using URLRewrite/RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified".into());
            }
        }
        if let (Some(req), Some(back)) = (
            rule["timeouts"]["request"].as_str(),
            rule["timeouts"]["backendRequest"].as_str(),
        ) && req != "0s"
            && nanos(back) > nanos(req)
        {
            out.push("backendRequest timeout cannot be longer than request timeout".into());
        }
        filters(&rule["filters"], out);
        backend_refs(&rule["backendRefs"], out);
    }
}
