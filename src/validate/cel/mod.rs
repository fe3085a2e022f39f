//! The CRDs' `x-kubernetes-validations` rules, evaluated as written with the `cel` interpreter.
//!
//! Every rule of the schema node an object value sits under is evaluated with `self` bound to
//! that value (after defaulting, as the API server does). Transition rules (`oldSelf`) do not
//! apply to objects being created and are skipped. Kubernetes' CEL libraries add a few
//! functions to standard CEL; the CRDs use `isIP` (registered here) and the strings
//! extension's `split` and `substring` (from the `cel` crate's extension).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use cel::{Context, Env, Program, Value as CelValue};
use serde_json::Value;

mod native;

use super::Violation;
use super::schema::join;

/// One `x-kubernetes-validations` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rule {
    pub rule: String,
    pub message: String,
    /// `fieldPath` relative to the node carrying the rule, when the CRD names one.
    pub field_path: Option<String>,
}

/// The rules attached directly to one schema node.
pub(crate) fn rules_of(schema: &Value) -> Vec<Rule> {
    schema
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| {
            let rule = v.get("rule")?.as_str()?.to_string();
            let message = v
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("failed rule: {rule}"));
            let field_path = v
                .get("fieldPath")
                .and_then(Value::as_str)
                .map(|p| p.trim_start_matches('.').to_string());
            Some(Rule {
                rule,
                message,
                field_path,
            })
        })
        .collect()
}

/// Whether a rule compares against the previous object (not applicable on create).
pub(crate) fn is_transition_rule(rule: &str) -> bool {
    rule.contains("oldSelf")
}

/// Evaluates every applicable rule under `schema` against `value` (defaulted), collecting the
/// violated ones. Rules the interpreter cannot evaluate are reported under
/// `cel/unevaluated` so that a gap never passes silently.
///
/// The schema is the CRD catalog's, which lives as long as the process: the rules of each of
/// its nodes are read once per thread ([`cached_rules`]), not once per object.
pub(crate) fn violations(
    schema: &'static Value,
    value: &Value,
    path: &str,
    out: &mut Vec<Violation>,
) {
    let rules = cached_rules(schema);
    if !rules.is_empty() {
        // The node's value is converted and bound once for all its rules, and only when a
        // rule needs the interpreter.
        let mut ctx = None;
        for rule in rules.iter() {
            let at = match &rule.field_path {
                Some(f) => join(path, f),
                None => path.to_string(),
            };
            let outcome = match native::evaluate(&rule.rule, value) {
                Some(answer) => Ok(answer),
                None => ctx
                    .get_or_insert_with(|| node_context(value, schema))
                    .as_ref()
                    .map_err(Clone::clone)
                    .and_then(|ctx| run(&rule.rule, ctx)),
            };
            match outcome {
                Ok(true) => {}
                Ok(false) => out.push(Violation {
                    rule: "cel".into(),
                    message: rule.message.clone(),
                    path: at,
                }),
                // The API server rejects an object whose rule fails to evaluate because a
                // field it reads is absent ("no such key"): that is a violation of the rule.
                Err(e) if e.starts_with("NoSuchKey") => out.push(Violation {
                    rule: "cel".into(),
                    message: rule.message.clone(),
                    path: at,
                }),
                Err(e) => out.push(Violation {
                    rule: "cel/unevaluated".into(),
                    message: format!("cannot evaluate rule `{}`: {e}", rule.rule),
                    path: at,
                }),
            }
        }
    }
    match value {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|s| s.is_object());
            for (key, child) in map {
                if path.is_empty() && key == "status" {
                    continue;
                }
                if let Some(sub) = props.and_then(|p| p.get(key)).or(additional) {
                    violations(sub, child, &join(path, key), out);
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = schema.get("items") {
                for (i, child) in items.iter().enumerate() {
                    violations(sub, child, &format!("{path}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

thread_local! {
    static ENV: Arc<Env> = Arc::new(kubernetes_env());
    static PROGRAMS: RefCell<HashMap<String, Rc<Program>>> = RefCell::new(HashMap::new());
    /// The rules of each `'static` schema node, keyed by the node's address
    /// ([`cached_rules`]).
    static RULES: RefCell<HashMap<usize, Rc<[Rule]>>> = RefCell::new(HashMap::new());
}

/// The rules of `schema` that apply on create (transition rules left out).
fn read_rules(schema: &Value) -> Rc<[Rule]> {
    rules_of(schema)
        .into_iter()
        .filter(|r| !is_transition_rule(&r.rule))
        .collect()
}

/// [`read_rules`] of a `'static` schema node, read once per node and thread: a static node's
/// address is never reused for another value, so it keys the cache.
fn cached_rules(schema: &'static Value) -> Rc<[Rule]> {
    let key = std::ptr::from_ref(schema) as usize;
    RULES.with(|cache| {
        if let Some(rules) = cache.borrow().get(&key) {
            return Rc::clone(rules);
        }
        let rules = read_rules(schema);
        cache.borrow_mut().insert(key, Rc::clone(&rules));
        rules
    })
}

fn kubernetes_env() -> Env {
    let mut env = Env::stdlib();
    // Registering the extension on a fresh stdlib env cannot conflict; if it ever did, rules
    // using `split`/`substring` would report `cel/unevaluated` instead.
    let _ = cel::extensions::strings(&mut env);
    env
}

/// Evaluates one rule with `self` bound to `value` (schema-less: object keys are not
/// escaped). `Ok(false)`: the rule is violated.
#[cfg(test)]
pub(crate) fn evaluate(rule: &str, value: &Value) -> Result<bool, String> {
    evaluate_with_schema(rule, value, &Value::Null)
}

/// Evaluates one rule with `self` bound to `value`, whose schema is `schema` (it decides which
/// object keys are fields, escaped as Kubernetes does, and which are map keys).
#[cfg(test)]
pub(crate) fn evaluate_with_schema(
    rule: &str,
    value: &Value,
    schema: &Value,
) -> Result<bool, String> {
    run(rule, &node_context(value, schema)?)
}

/// A context with `self` bound to `value` (under `schema`) and Kubernetes' functions.
fn node_context(value: &Value, schema: &Value) -> Result<Context<'static, 'static>, String> {
    let mut ctx = Context::with_env(ENV.with(Arc::clone));
    ctx.add_variable_from_value("self", to_cel(value, schema));
    ctx.add_function("isIP", |s: Arc<String>| {
        s.parse::<std::net::IpAddr>().is_ok()
    })
    .map_err(|e| format!("{e:?}"))?;
    // Kubernetes' URL library, as far as the embedded CRDs use it (Istio's
    // RequestAuthentication: `url(self).getScheme()`): a URL is kept as its text.
    ctx.add_function(
        "url",
        |s: Arc<String>| -> Result<CelValue, cel::ExecutionError> {
            match url_scheme(&s) {
                Some(_) => Ok(CelValue::String(s)),
                None => Err(cel::ExecutionError::function_error(
                    "url",
                    format!("'{s}' is not an absolute URL"),
                )),
            }
        },
    )
    .map_err(|e| format!("{e:?}"))?;
    ctx.add_function(
        "getScheme",
        |cel::extractors::This(s): cel::extractors::This<Arc<String>>| {
            url_scheme(&s).unwrap_or_default()
        },
    )
    .map_err(|e| format!("{e:?}"))?;
    Ok(ctx)
}

/// Runs `rule` (compiled once per thread) in `ctx`. `Ok(false)`: the rule is violated.
fn run(rule: &str, ctx: &Context<'_, '_>) -> Result<bool, String> {
    let env = ENV.with(Arc::clone);
    let program = PROGRAMS.with(|cache| -> Result<Rc<Program>, String> {
        if let Some(p) = cache.borrow().get(rule) {
            return Ok(Rc::clone(p));
        }
        let p = Rc::new(env.compile(rule).map_err(|e| e.to_string())?);
        cache.borrow_mut().insert(rule.to_string(), Rc::clone(&p));
        Ok(p)
    })?;
    match program.execute(ctx) {
        Ok(CelValue::Bool(b)) => Ok(b),
        Ok(other) => Err(format!("rule returned {other:?}, not a bool")),
        Err(e) => Err(format!("{e:?}")),
    }
}

/// The scheme of an absolute URL (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`,
/// then `:`), lower-cased; `None` when the text is not one.
fn url_scheme(text: &str) -> Option<String> {
    let (scheme, _) = text.split_once(':')?;
    let mut chars = scheme.chars();
    let first_is_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    (first_is_letter && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .then(|| scheme.to_ascii_lowercase())
}

/// CEL keywords Kubernetes escapes as `__{name}__` when they name a field.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// A field name as CEL sees it (Kubernetes' escaping rules): `namespace` → `__namespace__`,
/// `a-b` → `a__dash__b`.
pub(crate) fn escape_field(name: &str) -> String {
    if RESERVED.contains(&name) {
        return format!("__{name}__");
    }
    name.replace("__", "__underscores__")
        .replace('.', "__dot__")
        .replace('-', "__dash__")
        .replace('/', "__slash__")
}

/// JSON → CEL. Integers are CEL `int` (Kubernetes maps `integer` to `int`), other numbers
/// `double`. Keys of objects whose schema has `properties` are fields and get escaped; keys
/// of maps (`additionalProperties`) stay as they are.
fn to_cel(v: &Value, schema: &Value) -> CelValue {
    match v {
        Value::Null => CelValue::Null,
        Value::Bool(b) => CelValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => CelValue::Int(i),
            None => CelValue::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => CelValue::String(Arc::new(s.clone())),
        Value::Array(a) => {
            let items = schema.get("items").unwrap_or(&Value::Null);
            CelValue::List(Arc::new(a.iter().map(|c| to_cel(c, items)).collect()))
        }
        Value::Object(o) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").unwrap_or(&Value::Null);
            let m: HashMap<String, CelValue> = o
                .iter()
                .map(|(k, c)| match props {
                    Some(p) => (escape_field(k), to_cel(c, p.get(k).unwrap_or(&Value::Null))),
                    None => (k.clone(), to_cel(c, additional)),
                })
                .collect();
            CelValue::from(m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kubernetes_functions_are_available() {
        assert_eq!(
            evaluate("self.all(h, !isIP(h))", &json!(["a.b", "1.2.3.4"])),
            Ok(false)
        );
        assert_eq!(
            evaluate("self.split('.').size() == 2", &json!("a.b")),
            Ok(true)
        );
        assert_eq!(
            evaluate("self.substring(1) == 'bc'", &json!("abc")),
            Ok(true)
        );
        assert_eq!(
            evaluate(
                "duration(self.a) > duration(self.b)",
                &json!({"a": "1m", "b": "59s"})
            ),
            Ok(true)
        );
    }

    #[test]
    fn the_url_library_reads_a_scheme() {
        let rule = "url(self).getScheme() in ['http', 'https']";
        assert_eq!(
            evaluate(rule, &json!("HTTPS://issuer.example.com/jwks")),
            Ok(true)
        );
        assert_eq!(
            evaluate(rule, &json!("ftp://issuer.example.com/jwks")),
            Ok(false)
        );
        assert!(evaluate(rule, &json!("issuer.example.com/jwks")).is_err());
        assert_eq!(url_scheme("1http://x"), None);
    }

    #[test]
    fn reserved_field_names_are_escaped_like_kubernetes() {
        let schema =
            json!({"properties": {"namespace": {}, "labels": {"additionalProperties": {}}}});
        let v = json!({"namespace": "a", "labels": {"namespace": "x"}});
        assert_eq!(
            evaluate_with_schema(
                "self.__namespace__ == 'a' && self.labels['namespace'] == 'x'",
                &v,
                &schema
            ),
            Ok(true)
        );
        assert_eq!(escape_field("a-b.c"), "a__dash__b__dot__c");
    }

    #[test]
    fn logical_operators_absorb_errors_like_cel_go() {
        let rule = "size(self.a) > 0 || size(self.b) > 0";
        assert_eq!(evaluate(rule, &json!({"a": [1]})), Ok(true));
        assert!(evaluate(rule, &json!({"a": []})).is_err_and(|e| e.starts_with("NoSuchKey")));
    }

    #[test]
    fn every_rule_of_every_embedded_crd_compiles() {
        use crate::config::Channel;
        use crate::validate::crd;
        fn walk(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => {
                    for r in rules_of(v) {
                        out.push(r.rule);
                    }
                    m.values().for_each(|c| walk(c, out));
                }
                Value::Array(a) => a.iter().for_each(|c| walk(c, out)),
                _ => {}
            }
        }
        let mut rules = Vec::new();
        for ch in [Channel::Standard, Channel::Experimental] {
            for v in crd::catalog(ch).versions.values() {
                walk(&v.schema, &mut rules);
            }
        }
        assert!(rules.len() > 100);
        let env = kubernetes_env();
        for r in rules {
            assert!(env.compile(&r).is_ok(), "{r}");
        }
    }
}

#[cfg(test)]
mod rule_tests;

#[cfg(test)]
mod unevaluated_tests {
    use serde_json::json;

    use crate::diagnostic::{Code, Severity};

    /// `validate/cel-unevaluated`: a rule the interpreter cannot evaluate (here one that does
    /// not return a bool) is reported, never passed. No rule of the embedded CRDs does that.
    #[test]
    fn a_rule_the_interpreter_cannot_evaluate_is_reported_not_passed() {
        let schema = json!({
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "x-kubernetes-validations": [
                {"rule": "self.name", "message": "name must be valid"},
                {"rule": "self.name != ''", "message": "name must not be empty"}
            ]
        });
        // `violations` takes the catalog's `'static` schemas; a test schema is leaked once.
        let schema: &'static serde_json::Value = Box::leak(Box::new(schema));
        let mut out = Vec::new();
        super::violations(schema, &json!({"name": "web"}), "spec", &mut out);
        assert_eq!(out.len(), 1, "{out:#?}");
        assert_eq!(out[0].rule, "cel/unevaluated");
        assert_eq!(out[0].path, "spec");
        assert!(out[0].message.contains("self.name"), "{}", out[0].message);
        assert_eq!(out[0].note_code(), Code::ValidateCelUnevaluated);
        assert_eq!(Code::ValidateCelUnevaluated.severity(), Severity::Error);
    }
}
