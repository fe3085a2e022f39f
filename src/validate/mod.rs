//! Offline validation of Gateway API objects, generated or found in the repository.
//!
//! - [`validate_object`]: one object against the v1.6.1 CRD of the configured channel
//!   (structural schema, unknown fields, CEL rules, experimental-only fields).
//! - [`validate_results`]: after translation, generated objects that fail validation are
//!   removed and become error notes on their source; listener conflicts and the predicted
//!   `Accepted`/`ResolvedRefs` status of every route parentRef are added as notes.
//! - [`lint_repository`] / [`check_findings`]: the same checks on Gateway API objects already
//!   in the repository, as [`Finding`]s with file and line.
//!
//! How validation works: `docs/validation.md`; its codes: `docs/codes.md`.

pub(crate) mod attachment;
pub(crate) mod cel;
pub(crate) mod channel;
pub mod crd;
pub(crate) mod listeners;
pub(crate) mod schema;
pub mod status;

use serde::Serialize;
use serde_json::Value;

use crate::config::{Channel, Config};
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::index::Index;
use crate::model::SourceBody;
use crate::model::template::Template;
use crate::translate::SourceResult;

/// One rule an object breaks.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Violation {
    /// `cel` (message is the CRD's rule message), `schema/<keyword>`, `schema/unknown-field`,
    /// `schema/metadata`, `schema/unknown-kind`, `schema/unserved-version`,
    /// `channel/experimental-only`, `cel/unevaluated`.
    pub rule: String,
    pub message: String,
    /// Dotted path of the offending field (`spec.listeners[1].tls`); empty for the object.
    pub path: String,
}

impl Violation {
    /// The stable note code of this violation.
    pub fn note_code(&self) -> Code {
        match self.rule.as_str() {
            "cel" => Code::ValidateCel,
            "cel/unevaluated" => Code::ValidateCelUnevaluated,
            "channel/experimental-only" => Code::ValidateExperimentalOnly,
            "schema/unknown-field" => Code::ValidateUnknownField,
            "schema/unknown-kind" | "schema/unserved-version" => Code::ValidateUnservedVersion,
            "schema/metadata" => Code::ValidateMetadata,
            _ => Code::ValidateSchema,
        }
    }
}

/// Validates one Gateway API object (as JSON) against the CRDs of `channel`. Values in a
/// substitution syntax (`$(…)`, `${…}`, `{{…}}`, `model::template`) in hostnames and
/// backendRefs are checked as the stand-ins their substitution would give: the object is
/// valid once substituted. A placeholder word (`NAMESPACE_PLACEHOLDER`) is not stood in for
/// here: in a hand-written object an underscore is as likely a mistake.
pub fn validate_object(value: &Value, channel: Channel) -> Vec<Violation> {
    validate_with(value, channel, Template::is_syntax)
}

/// [`validate_object`] for an object the translators generated: every template they kept as
/// written (placeholder words included, each with its warning) is stood in for.
pub fn validate_generated(value: &Value, channel: Channel) -> Vec<Violation> {
    validate_with(value, channel, |_| true)
}

/// `value` as a substitution would leave it: every template the translators keep as written
/// (`model::template`) in hostnames and backendRefs replaced by a stand-in. What the product
/// validates and attaches; an independent validator checks the same form.
pub fn substituted(mut value: Value) -> Value {
    let fields = templated_fields(&value, |_| true);
    stand_in_templated(&mut value, &fields);
    value
}

fn validate_with(value: &Value, channel: Channel, stands: fn(Template) -> bool) -> Vec<Violation> {
    let fields = templated_fields(value, stands);
    if fields.is_empty() {
        return validate_substituted(value, channel);
    }
    let mut substituted = value.clone();
    stand_in_templated(&mut substituted, &fields);
    validate_substituted(&substituted, channel)
}

fn validate_substituted(value: &Value, channel: Channel) -> Vec<Violation> {
    let mut out = structural_violations(value, channel);
    if channel == Channel::Standard {
        out = channel::classify(value, out);
    }
    // The API server checks size limits before it runs CEL rules (its CEL cost budget relies
    // on them), and several rules are quadratic in a list's length (listener uniqueness): on
    // an object already rejected for an oversized list, evaluating them only burns time (a
    // 900-listener Gateway made a 20,000-file plan take minutes).
    let oversized = out.iter().any(|v| {
        matches!(
            v.rule.as_str(),
            "schema/maxItems" | "schema/maxLength" | "schema/maxProperties"
        )
    });
    if let Some(crd) = object_crd(value, channel).filter(|_| !oversized) {
        let mut defaulted = value.clone();
        schema::prune_nulls(&crd.schema, &mut defaulted);
        schema::apply_defaults(&crd.schema, &mut defaulted);
        cel::violations(&crd.schema, &defaulted, "", &mut out);
    }
    out.sort();
    out.dedup();
    out
}

fn object_crd(value: &Value, channel: Channel) -> Option<&'static crd::CrdVersion> {
    let api_version = value.get("apiVersion").and_then(Value::as_str)?;
    let kind = value.get("kind").and_then(Value::as_str)?;
    crd::catalog(channel)
        .get(api_version, kind)
        .filter(|c| c.served)
}

/// Schema-level violations (no CEL) against one channel's CRDs.
pub(crate) fn structural_violations(value: &Value, channel: Channel) -> Vec<Violation> {
    let api_version = value
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let kind = value
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let catalog = crd::catalog(channel);
    let Some(crd) = catalog.get(api_version, kind) else {
        return vec![Violation {
            rule: "schema/unknown-kind".into(),
            message: format!(
                "{api_version} {kind} is not defined by the Gateway API v1.6.1 {} channel CRDs",
                channel.as_str()
            ),
            path: String::new(),
        }];
    };
    if !crd.served {
        return vec![Violation {
            rule: "schema/unserved-version".into(),
            message: format!(
                "{api_version} {kind} is not served by the Gateway API v1.6.1 {} channel CRD",
                channel.as_str()
            ),
            path: String::new(),
        }];
    }
    let mut out = schema::metadata_violations(value);
    let mut pruned = value.clone();
    schema::prune_nulls(&crd.schema, &mut pruned);
    let mut defaulted = pruned.clone();
    schema::apply_defaults(&crd.schema, &mut defaulted);
    out.extend(schema::keyword_violations(crd, &defaulted));
    schema::unknown_fields(&crd.schema, &pruned, "", &mut out);
    schema::list_type_violations(&crd.schema, &pruned, "", &mut out);
    out
}

/// Validates generated objects: invalid ones are removed and become error notes on their
/// source; listener conflicts and predicted attachment become notes too.
pub fn validate_results(
    index: &Index,
    worlds: &[crate::index::Subset],
    results: &mut [SourceResult],
    config: &Config,
) {
    use rayon::prelude::*;
    // Each source's objects are validated on their own: in parallel, each result keeping its
    // own notes in its own order. The JSON form of the valid objects is kept for the
    // attachment world below.
    let generated: Vec<Vec<Value>> = results
        .par_iter_mut()
        .map(|result| {
        let mut kept = Vec::with_capacity(result.generated.len());
        let mut kept_json = Vec::with_capacity(result.generated.len());
        for generated in std::mem::take(&mut result.generated) {
            let json = substituted(generated.to_json());
            let checked = crate::isolate::catch(
                &format!(
                    "validating the generated {} {}/{}",
                    generated.kind(),
                    generated.namespace(),
                    generated.name()
                ),
                || validate_generated(&json, config.channel),
            );
            let violations = match checked {
                Ok(v) => v,
                Err(d) => {
                    // Not known to be valid: nothing of this source is written (a partial
                    // translation would replace its document in place all the same).
                    result.notes.push(*d);
                    kept.clear();
                    kept_json.clear();
                    break;
                }
            };
            if violations.is_empty() {
                kept.push(generated);
                kept_json.push(json);
                continue;
            }
            for v in &violations {
                result.notes.push(
                    Diagnostic::new(
                        v.note_code(),
                        format!(
                            "generated {} {}/{} would be rejected by the cluster and was not written: {}",
                            generated.kind(),
                            generated.namespace(),
                            generated.name(),
                            v.message
                        ),
                    )
                    .at_generated(v.path.clone()),
                );
            }
        }
        result.generated = kept;
        kept_json
        })
        .collect();
    // A result's attachment notes and the hosts isolated away from its routes' listeners.
    type Predicted = (Vec<Diagnostic>, Vec<String>);
    let predict = |world: &attachment::World, values: &[Value]| -> Predicted {
        let notes = values.iter().flat_map(|v| object_notes(world, v)).collect();
        let isolated = values
            .iter()
            .filter_map(|v| world.predict(v))
            .flat_map(|p| p.isolated_hosts())
            .collect();
        (notes, isolated)
    };
    // Attachment is predicted in each world (`deploy::worlds`) with that world's objects
    // only, for the objects it owns.
    let notes: Vec<Predicted> = if worlds.is_empty() {
        let world = attachment::World::new(index, generated.iter().flatten(), config);
        generated
            .par_iter()
            .map(|values| predict(&world, values))
            .collect()
    } else {
        let mut merged: Vec<(Vec<Diagnostic>, Vec<String>)> =
            vec![Default::default(); results.len()];
        for w in worlds {
            let members: Vec<usize> = (0..results.len())
                .filter(|&i| w.local(results[i].object).is_some())
                .collect();
            let world = attachment::World::new(
                &w.index,
                members.iter().flat_map(|&i| generated[i].iter()),
                config,
            );
            let computed: Vec<(usize, Predicted)> = members
                .par_iter()
                .filter(|&&i| w.judges(results[i].object))
                .map(|&i| (i, predict(&world, &generated[i])))
                .collect();
            for (i, (notes, isolated)) in computed {
                let (kept, hosts) = &mut merged[i];
                for n in notes {
                    if !kept.contains(&n) {
                        kept.push(n);
                    }
                }
                for h in isolated {
                    if !hosts.contains(&h) {
                        hosts.push(h);
                    }
                }
            }
        }
        merged
    };
    for (r, (notes, isolated)) in results.iter_mut().zip(notes) {
        r.notes.extend(notes);
        r.isolated_hosts.extend(isolated);
    }
}

/// JSON pointers of the fields holding a template `stands` admits (`model::template`), each
/// with whether it is a hostname: route `spec.hostnames`, listener `hostname`, and the `name`
/// and `namespace` of rule backendRefs. Other fields are never stood in for: an underscore in
/// a header name is a real problem.
fn templated_fields(value: &Value, stands: fn(Template) -> bool) -> Vec<(String, bool)> {
    fn array(v: Option<&Value>) -> &[Value] {
        v.and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
    let templated = |v: &Value| {
        v.as_str()
            .and_then(crate::model::template::template_of)
            .is_some_and(stands)
    };
    let mut out = Vec::new();
    for (i, h) in array(value.pointer("/spec/hostnames")).iter().enumerate() {
        if templated(h) {
            out.push((format!("/spec/hostnames/{i}"), true));
        }
    }
    for (i, l) in array(value.pointer("/spec/listeners")).iter().enumerate() {
        if l.get("hostname").is_some_and(templated) {
            out.push((format!("/spec/listeners/{i}/hostname"), true));
        }
    }
    for (i, rule) in array(value.pointer("/spec/rules")).iter().enumerate() {
        for (j, r) in array(rule.get("backendRefs")).iter().enumerate() {
            for key in ["name", "namespace"] {
                if r.get(key).is_some_and(templated) {
                    out.push((format!("/spec/rules/{i}/backendRefs/{j}/{key}"), false));
                }
            }
        }
    }
    out
}

/// Replaces the templated values [`templated_fields`] finds with stand-ins (a DNS name for
/// hostnames, a DNS label for names), in the copy that is validated and attached: the written
/// object keeps the template, which a substitution fills in before the cluster sees it.
fn stand_in_templated(value: &mut Value, fields: &[(String, bool)]) {
    use crate::model::template::stand_in;
    for (pointer, hostname) in fields {
        if let Some(v) = value.pointer_mut(pointer)
            && let Some(s) = v.as_str()
        {
            let name = stand_in(s);
            *v = Value::String(if *hostname {
                name
            } else {
                name.trim_end_matches(".invalid").to_string()
            });
        }
    }
}

/// Listener-conflict and attachment notes about one (valid) object.
fn object_notes(world: &attachment::World, value: &Value) -> Vec<Diagnostic> {
    let kind = value
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut notes = Vec::new();
    if kind == "Gateway" {
        notes.extend(world.gateway_findings(value).into_iter().map(|(n, _)| n));
    }
    if let Some(p) = world.predict(value) {
        notes.extend(p.findings().into_iter().map(|(n, _)| n));
    }
    // The paths name fields of the generated object, which has no place in the source text.
    for n in &mut notes {
        n.location.generated_field = n.location.field.take();
    }
    notes
}

/// Lints the Gateway API objects already in the repository.
pub fn lint_repository(index: &Index, config: &Config) -> Vec<Diagnostic> {
    lint_with_generated(index, &[], config)
}

/// Lints the repository's Gateway API objects; attachment is predicted against the
/// repository plus `generated` (objects this run generates, as JSON), so that a hand-written
/// route may attach to a Gateway generated from an Istio Gateway. Each diagnostic is placed
/// on the object it is about, at the offending field, with the rule it breaks.
pub fn lint_with_generated(index: &Index, generated: &[Value], config: &Config) -> Vec<Diagnostic> {
    let world = attachment::World::new(index, generated.iter(), config);
    // The routes a BackendTLSPolicy's ancestors come from: the repository's and this run's.
    let routes: Vec<&Value> = index
        .objects
        .iter()
        .filter_map(|o| match &o.body {
            SourceBody::GatewayApi(v) if !index.is_patch_file(&o.source.file) => Some(v),
            _ => None,
        })
        .chain(generated.iter())
        .filter(|v| world.predict(v).is_some())
        .collect();
    let mut out = Vec::new();
    for (position, obj) in index.objects.iter().enumerate() {
        let SourceBody::GatewayApi(value) = &obj.body else {
            continue;
        };
        if index.is_patch_file(&obj.source.file) {
            continue;
        }
        let mut found = Vec::new();
        let violations = validate_object(value, config.channel);
        let invalid = !violations.is_empty();
        for v in violations {
            let rule = if v.rule == "cel" {
                v.message.clone()
            } else {
                v.rule.clone()
            };
            found.push(
                Diagnostic::new(v.note_code(), v.message)
                    .at(v.path)
                    .with_rule(rule),
            );
        }
        // Attachment of an object the API server would reject is moot.
        if !invalid {
            // Each diagnostic is placed on its object already; drop the `Kind ns/name `
            // prefix the attachment messages start with.
            let mut push = |prefix: &str, diagnostics: Vec<(Diagnostic, String)>| {
                for (mut d, reason) in diagnostics {
                    if let Some(rest) = d.message.strip_prefix(prefix) {
                        d.message = rest.to_string();
                    }
                    found.push(d.with_rule(reason));
                }
            };
            push(
                &format!("{} {}/{} ", obj.kind, obj.namespace, obj.meta.name),
                world.gateway_findings(value),
            );
            if obj.kind == "BackendTLSPolicy" {
                push(
                    &format!("{} {}/{} ", obj.kind, obj.namespace, obj.meta.name),
                    world.policy_findings(value, &routes),
                );
            }
            if let Some(p) = world.predict(value) {
                push(
                    &format!("{} {}/{} ", p.kind, p.namespace, p.name),
                    p.findings(),
                );
            }
        }
        for mut d in found {
            d.place(
                position,
                &obj.source.file,
                obj.source.document,
                obj.source.line,
            );
            out.push(d);
        }
    }
    out.sort();
    out
}

/// What `check` reports about the repository's own Gateway API objects, given this run's
/// translation `results` (valid generated objects take part in attachment). Info
/// diagnostics are kept; renderers hide them unless verbose.
pub fn check_findings(index: &Index, results: &[SourceResult], config: &Config) -> Vec<Diagnostic> {
    let generated: Vec<Value> = results
        .iter()
        .flat_map(|r| r.generated.iter().map(|g| g.to_json()))
        .collect();
    lint_with_generated(index, &generated, config)
}

/// Whether any diagnostic must fail `check`.
pub fn has_failures(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gwapi::{
        BackendRef, GatewaySpec, Generated, HttpRouteRule, HttpRouteSpec, Listener, Metadata,
        Object, ParentReference, V1,
    };

    fn route(name: &str, port: Option<u32>) -> Generated {
        Generated::HttpRoute(Object::new(
            V1,
            "HTTPRoute",
            Metadata::new(name, "web"),
            HttpRouteSpec {
                parent_refs: vec![ParentReference {
                    name: "gw".into(),
                    ..Default::default()
                }],
                hostnames: vec!["a.example.com".into()],
                rules: vec![HttpRouteRule {
                    backend_refs: vec![BackendRef {
                        name: "svc".into(),
                        port,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
            },
        ))
    }

    fn gateway() -> Generated {
        Generated::Gateway(Object::new(
            V1,
            "Gateway",
            Metadata::new("gw", "web"),
            GatewaySpec {
                gateway_class_name: "istio".into(),
                listeners: vec![
                    Listener {
                        name: "http".into(),
                        hostname: Some("a.example.com".into()),
                        port: 80,
                        protocol: "HTTP".into(),
                        ..Default::default()
                    },
                    Listener {
                        name: "other".into(),
                        hostname: Some("a.example.com".into()),
                        port: 80,
                        protocol: "HTTP".into(),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            },
        ))
    }

    #[test]
    fn unknown_fields_and_types_are_reported_with_their_path() {
        let obj = serde_json::json!({"apiVersion": "gateway.networking.k8s.io/v1beta1", "kind": "HTTPRoute",
            "metadata": {"name": "r", "namespace": "web"},
            "spec": {"rules": [{"backendRefs": [{"name": "s", "port": "80", "colour": "red"}]}]}});
        for channel in [Channel::Standard, Channel::Experimental] {
            let v = validate_object(&obj, channel);
            let rules: Vec<_> = v
                .iter()
                .map(|v| (v.rule.as_str(), v.path.as_str()))
                .collect();
            assert!(
                rules.contains(&(
                    "schema/unknown-field",
                    "spec.rules[0].backendRefs[0].colour"
                )),
                "{v:#?}"
            );
            assert!(
                rules.contains(&("schema/type", "spec.rules[0].backendRefs[0].port")),
                "{v:#?}"
            );
        }
        let not_gateway_api = serde_json::json!({"apiVersion": "example.com/v1", "kind": "Thing",
            "metadata": {"name": "t"}});
        let v = validate_object(&not_gateway_api, Channel::Standard);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].note_code(), Code::ValidateUnservedVersion);
    }

    #[test]
    fn invalid_generated_objects_become_error_notes_and_are_not_written() {
        let index = Index::default();
        let mut results = vec![SourceResult {
            object: 0,
            generated: vec![route("valid", Some(80)), route("no-port", None)],
            ..Default::default()
        }];
        validate_results(&index, &[], &mut results, &Config::default());
        let names: Vec<_> = results[0]
            .generated
            .iter()
            .map(|g| g.name().to_string())
            .collect();
        assert_eq!(names, ["valid"]);
        let rejected: Vec<_> = results[0]
            .notes
            .iter()
            .filter(|n| n.code == Code::ValidateCel)
            .collect();
        assert_eq!(rejected.len(), 1, "{:#?}", results[0].notes);
        assert_eq!(rejected[0].severity, Severity::Error);
        assert!(rejected[0].message.contains("HTTPRoute web/no-port"));
        assert!(
            rejected[0]
                .message
                .contains("Must have port for Service reference")
        );
        assert_eq!(
            rejected[0].location.generated_field.as_deref(),
            Some("spec.rules[0].backendRefs[0]")
        );
    }

    #[test]
    fn generated_gateways_and_routes_get_conflict_and_attachment_notes() {
        let index = Index::default();
        let mut gw = vec![SourceResult {
            object: 0,
            generated: vec![gateway()],
            ..Default::default()
        }];
        // The duplicate hostname is rejected by CEL before any conflict is computed.
        validate_results(&index, &[], &mut gw, &Config::default());
        assert!(gw[0].generated.is_empty());
        assert!(gw[0].notes.iter().any(|n| n.message.contains(
            "Combination of port, protocol and hostname must be unique for each listener"
        )));

        let mut ok_gw = gateway();
        if let Generated::Gateway(g) = &mut ok_gw {
            g.spec.listeners[1].protocol = "HTTPS".into();
            g.spec.listeners[1].tls = Some(crate::gwapi::ListenerTls {
                mode: Some("Terminate".into()),
                certificate_refs: vec![crate::gwapi::SecretObjectReference {
                    name: "cert".into(),
                    ..Default::default()
                }],
                ..Default::default()
            });
        }
        let mut results = vec![
            SourceResult {
                object: 0,
                generated: vec![ok_gw],
                ..Default::default()
            },
            SourceResult {
                object: 1,
                generated: vec![route("valid", Some(80))],
                ..Default::default()
            },
        ];
        validate_results(&index, &[], &mut results, &Config::default());
        let codes: Vec<_> = results[0].notes.iter().map(|n| n.code).collect();
        // The certificate Secret is not in the (empty) repository: unknown, a warning. Both
        // listeners of the port are conflicted (Envoy Gateway marks every one of them), each
        // with its own note.
        assert_eq!(
            codes,
            [
                Code::ValidateListenerProtocolConflict,
                Code::AttachCertificateUnknown,
                Code::ValidateListenerProtocolConflict,
            ]
        );
        assert_eq!(results[0].notes[1].severity, Severity::Warning);
        assert_eq!(
            results[0].notes[0].location.generated_field.as_deref(),
            Some("spec.listeners[0]")
        );
        assert_eq!(
            results[0].notes[2].location.generated_field.as_deref(),
            Some("spec.listeners[1]")
        );
        assert!(results[0].notes[0].message.contains("`http`"));
        assert!(results[0].notes[0].message.contains("`other`"));
        let route_notes: Vec<_> = results[1]
            .notes
            .iter()
            .map(|n| (n.code, n.severity))
            .collect();
        // The route attaches to `http`, which the conflict keeps out of the data plane:
        // Accepted, and an error saying it serves nothing.
        assert_eq!(
            route_notes,
            [
                (Code::AttachAccepted, Severity::Info),
                (Code::AttachListenerNotProgrammed, Severity::Error),
                (Code::AttachBackendUnknown, Severity::Warning)
            ]
        );
    }
}
