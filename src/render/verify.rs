//! Verification: what a build renders after apply against its translation.

use super::fixes::{Expected, ident};
use super::*;

/// The generated objects of a render (this tool's files, its added objects included), by
/// identity, with their specs.
pub(super) fn generated_objects(
    after: &[Rendered],
    generated_paths: &BTreeSet<String>,
) -> Vec<((String, String, String), Value)> {
    after
        .iter()
        .filter(|r| {
            r.origin.as_ref().is_some_and(|o| {
                let name = o.rsplit('/').next().unwrap_or(o);
                generated_paths.contains(o) || name == OBJECTS_FILE
            })
        })
        .map(|r| {
            (
                ident(&r.value),
                r.value.get("spec").cloned().unwrap_or(Value::Null),
            )
        })
        .collect()
}

/// The differences between what a build must render and what it renders after apply.
pub(super) fn verify(
    build: &Build,
    expected: &[Expected],
    after: &[Rendered],
    generated_paths: &BTreeSet<String>,
    foreign: &BTreeSet<(String, String, String)>,
) -> Vec<String> {
    let _ = build;
    let mut actual: BTreeMap<(String, String, String), Value> = BTreeMap::new();
    for (id, spec) in generated_objects(after, generated_paths) {
        if !foreign.contains(&id) {
            actual.insert(id, spec);
        }
    }
    let mut out = Vec::new();
    for e in expected {
        let id = (e.kind.clone(), e.namespace.clone(), e.name.clone());
        match actual.remove(&id) {
            None => out.push(format!(
                "{} {}/{} is missing after apply",
                e.kind, e.namespace, e.name
            )),
            Some(spec) if spec != e.spec => out.push(format!(
                "{} {}/{}: {}",
                e.kind,
                e.namespace,
                e.name,
                first_difference("spec", &spec, &e.spec)
            )),
            Some(_) => {}
        }
    }
    for (kind, ns, name) in actual.keys() {
        out.push(format!(
            "{kind} {ns}/{name} is deployed after apply but is not in the build's translation"
        ));
    }
    out
}

/// The first path where `rendered` and `wanted` differ, with both values.
pub(super) fn first_difference(path: &str, rendered: &Value, wanted: &Value) -> String {
    match (rendered, wanted) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                let (x, y) = (
                    a.get(k).unwrap_or(&Value::Null),
                    b.get(k).unwrap_or(&Value::Null),
                );
                if x != y {
                    return first_difference(&format!("{path}.{k}"), x, y);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    return first_difference(&format!("{path}[{i}]"), x, y);
                }
            }
        }
        _ => {}
    }
    format!("{path} renders {rendered} but the build's translation gives {wanted}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::test_support::route;

    fn build() -> Build {
        Build {
            dir: "overlays/dev".into(),
            kustomization: Some("overlays/dev/kustomization.yaml".into()),
            deployed_by: Vec::new(),
            recurse: false,
        }
    }

    fn rendered(value: Value, origin: &str) -> Rendered {
        Rendered {
            value,
            origin: Some(origin.into()),
        }
    }

    #[test]
    fn verify_names_the_object_and_the_first_differing_field() {
        let generated: BTreeSet<String> = ["base/app.gateway-api.yaml".to_string()].into();
        let expected = vec![Expected {
            kind: "HTTPRoute".into(),
            namespace: "dev".into(),
            name: "app".into(),
            spec: route("dev", "app", "dev.example.com")["spec"].clone(),
        }];
        let same = [rendered(
            route("dev", "app", "dev.example.com"),
            "base/app.gateway-api.yaml",
        )];
        assert_eq!(
            verify(&build(), &expected, &same, &generated, &BTreeSet::new()),
            Vec::<String>::new()
        );
        let other = [rendered(
            route("dev", "app", "example.com"),
            "base/app.gateway-api.yaml",
        )];
        assert_eq!(
            verify(&build(), &expected, &other, &generated, &BTreeSet::new()),
            vec![
                "HTTPRoute dev/app: spec.hostnames[0] renders \"example.com\" but the build's translation gives \"dev.example.com\""
                    .to_string()
            ]
        );
        assert_eq!(
            verify(&build(), &expected, &[], &generated, &BTreeSet::new()),
            vec!["HTTPRoute dev/app is missing after apply".to_string()]
        );
    }

    #[test]
    fn a_build_rendering_an_object_it_does_not_translate_differs() {
        let generated: BTreeSet<String> = ["base/app.gateway-api.yaml".to_string()].into();
        let extra = [
            rendered(
                route("dev", "old", "example.com"),
                "base/app.gateway-api.yaml",
            ),
            // Hand-written objects are not this tool's: never compared.
            rendered(route("dev", "mine", "example.com"), "base/mine.yaml"),
        ];
        assert_eq!(
            verify(&build(), &[], &extra, &generated, &BTreeSet::new()),
            vec![
                "HTTPRoute dev/old is deployed after apply but is not in the build's translation"
                    .to_string()
            ]
        );
        // An object placed here for another build is not part of this build's comparison.
        let foreign: BTreeSet<(String, String, String)> = [(
            "HTTPRoute".to_string(),
            "dev".to_string(),
            "old".to_string(),
        )]
        .into();
        assert!(verify(&build(), &[], &extra, &generated, &foreign).is_empty());
    }
}
