//! A few CRD rules evaluated in Rust instead of by the interpreter, because the interpreter
//! makes them costly: two listener-uniqueness rules are quadratic in the number of listeners
//! (`self.all(l1, self.exists_one(l2, ...))`, 4,096 inner evaluations for a 64-listener
//! Gateway), and the path rule compiles its regular expression on every evaluation.
//!
//! A rule is matched by its exact text, so a CRD update that changes it falls back to the
//! interpreter. Each evaluator answers only for well-formed values (the fields it compares are
//! present with the types the schema gives them) and returns `None` otherwise, so every error
//! case (a missing field is a `NoSuchKey` violation) stays the interpreter's. The unit tests
//! compare every answer with the interpreter's on generated values.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

use regex::Regex;
use serde_json::Value;

/// Gateway (and ListenerSet) listeners: names are unique.
const UNIQUE_NAMES: &str = "self.all(l1, self.exists_one(l2, l1.name == l2.name))";
/// Gateway listeners: port, protocol and hostname (absent only equal to absent) are unique.
const UNIQUE_PORT_PROTOCOL_HOSTNAME: &str = "self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))";
/// HTTPRoute path match: an `Exact` or `PathPrefix` value matches the pattern between `"""`.
const PATH_PATTERN_PREFIX: &str =
    "(self.type in ['Exact','PathPrefix']) ? self.value.matches(r\"\"\"";
const PATH_PATTERN_SUFFIX: &str = "\"\"\") : true";

/// The rule's outcome for `value` (its `self`), when the rule is one evaluated here and the
/// value is well-formed for it.
pub(super) fn evaluate(rule: &str, value: &Value) -> Option<bool> {
    if rule == UNIQUE_NAMES {
        return unique(value, |l| Some(l.get("name")?.as_str()?.to_string()));
    }
    if rule == UNIQUE_PORT_PROTOCOL_HOSTNAME {
        return unique(value, |l| {
            let port = l.get("port")?.as_i64()?;
            let protocol = l.get("protocol")?.as_str()?.to_string();
            let hostname = match l.get("hostname") {
                None => None,
                Some(h) => Some(h.as_str()?.to_string()),
            };
            Some((port, protocol, hostname))
        });
    }
    if let Some(pattern) = rule
        .strip_prefix(PATH_PATTERN_PREFIX)
        .and_then(|r| r.strip_suffix(PATH_PATTERN_SUFFIX))
    {
        let kind = value.get("type")?.as_str()?;
        if kind != "Exact" && kind != "PathPrefix" {
            return Some(true);
        }
        let text = value.get("value")?.as_str()?;
        return Some(compiled(pattern)?.is_match(text));
    }
    None
}

/// Whether every item of the list `value` has a distinct key; `None` when `value` is not a
/// list of objects or an item has no well-formed key.
fn unique<K: std::hash::Hash + Eq>(
    value: &Value,
    key: impl Fn(&Value) -> Option<K>,
) -> Option<bool> {
    let items = value.as_array()?;
    let mut seen = HashSet::with_capacity(items.len());
    let mut distinct = true;
    for item in items {
        if !item.is_object() {
            return None;
        }
        // Every item is checked for well-formedness before answering.
        distinct &= seen.insert(key(item)?);
    }
    Some(distinct)
}

/// `pattern` compiled once per process; `None` when it does not compile (the interpreter then
/// reports the rule as it would).
fn compiled(pattern: &str) -> Option<Regex> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(pattern.to_string())
        .or_insert_with(|| Regex::new(pattern).ok())
        .clone()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    /// The interpreter's answer, as `violations` reads it: `Ok(b)`, or an error.
    fn interpreted(rule: &str, value: &Value) -> Result<bool, String> {
        super::super::evaluate(rule, value)
    }

    /// The path rule exactly as the embedded HTTPRoute CRD has it.
    fn path_rule() -> String {
        let crd: Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crds/json/standard/gateway.networking.k8s.io_httproutes.yaml.json"
        )))
        .unwrap_or(Value::Null);
        let mut found = None;
        let mut stack = vec![&crd];
        while let Some(node) = stack.pop() {
            match node {
                Value::Object(map) => {
                    for rule in map
                        .get("x-kubernetes-validations")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|r| r.get("rule")?.as_str())
                    {
                        if rule.starts_with(PATH_PATTERN_PREFIX) {
                            found = Some(rule.to_string());
                        }
                    }
                    stack.extend(map.values());
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
        found.unwrap_or_default()
    }

    #[test]
    fn the_rules_evaluated_here_are_the_embedded_crds_rules() {
        // If a CRD update changes a rule's text, its native evaluator silently stops applying:
        // this says so.
        let gateways = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crds/json/standard/gateway.networking.k8s.io_gateways.yaml.json"
        ));
        for rule in [UNIQUE_NAMES, UNIQUE_PORT_PROTOCOL_HOSTNAME] {
            let quoted = serde_json::to_string(rule).unwrap_or_default();
            assert!(gateways.contains(&quoted), "{rule}");
        }
        assert!(
            path_rule().ends_with(PATH_PATTERN_SUFFIX),
            "{}",
            path_rule()
        );
    }

    fn listener() -> impl Strategy<Value = Value> {
        (
            prop::option::of(prop::sample::select(vec!["a", "b", "c"])),
            prop::option::of(prop_oneof![
                prop::sample::select(vec![80i64, 443]).prop_map(Value::from),
                Just(json!("80")),
            ]),
            prop::option::of(prop::sample::select(vec!["HTTP", "HTTPS"])),
            prop::option::of(prop_oneof![
                prop::sample::select(vec!["x.example", "y.example"]).prop_map(Value::from),
                Just(json!(7)),
            ]),
        )
            .prop_map(|(name, port, protocol, hostname)| {
                let mut l = serde_json::Map::new();
                if let Some(n) = name {
                    l.insert("name".into(), json!(n));
                }
                if let Some(p) = port {
                    l.insert("port".into(), p);
                }
                if let Some(p) = protocol {
                    l.insert("protocol".into(), json!(p));
                }
                if let Some(h) = hostname {
                    l.insert("hostname".into(), h);
                }
                Value::Object(l)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Where the native evaluator answers, the interpreter gives the same answer.
        #[test]
        fn listener_rules_agree_with_the_interpreter(listeners in prop::collection::vec(listener(), 0..6)) {
            let value = Value::Array(listeners);
            for rule in [UNIQUE_NAMES, UNIQUE_PORT_PROTOCOL_HOSTNAME] {
                if let Some(native) = evaluate(rule, &value) {
                    prop_assert_eq!(Ok(native), interpreted(rule, &value), "{} on {}", rule, value);
                }
            }
        }

        #[test]
        fn the_path_rule_agrees_with_the_interpreter(
            kind in prop::option::of(prop::sample::select(vec!["Exact", "PathPrefix", "RegularExpression"])),
            path in prop::option::of("[/a-z%0-9A-F .~?#]{0,8}"),
        ) {
            let rule = path_rule();
            let mut m = serde_json::Map::new();
            if let Some(k) = kind { m.insert("type".into(), json!(k)); }
            if let Some(p) = path { m.insert("value".into(), json!(p)); }
            let value = Value::Object(m);
            if let Some(native) = evaluate(&rule, &value) {
                prop_assert_eq!(Ok(native), interpreted(&rule, &value), "{}", value);
            }
        }
    }

    #[test]
    fn well_formed_values_are_answered_and_others_left_to_the_interpreter() {
        let l = |name: &str, port: i64| json!({"name": name, "port": port, "protocol": "HTTP"});
        assert_eq!(
            evaluate(UNIQUE_NAMES, &json!([l("a", 80), l("b", 80)])),
            Some(true)
        );
        assert_eq!(
            evaluate(UNIQUE_NAMES, &json!([l("a", 80), l("a", 81)])),
            Some(false)
        );
        assert_eq!(
            evaluate(
                UNIQUE_PORT_PROTOCOL_HOSTNAME,
                &json!([l("a", 80), l("b", 80)])
            ),
            Some(false)
        );
        assert_eq!(evaluate(UNIQUE_NAMES, &json!([{"port": 80}])), None);
        assert_eq!(evaluate(UNIQUE_NAMES, &json!("not a list")), None);
        let rule = path_rule();
        assert_eq!(
            evaluate(&rule, &json!({"type": "PathPrefix", "value": "/a b"})),
            Some(false)
        );
        assert_eq!(
            evaluate(&rule, &json!({"type": "Exact", "value": "/a%20b"})),
            Some(true)
        );
        assert_eq!(
            evaluate(&rule, &json!({"type": "RegularExpression", "value": " "})),
            Some(true)
        );
        assert_eq!(evaluate(&rule, &json!({"value": "/"})), None);
        assert_eq!(evaluate("self.size() > 0", &json!([1])), None);
    }
}
