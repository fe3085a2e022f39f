//! Properties over generated inputs (proptest): apply is idempotent on generated
//! repositories; the translators never emit an object the validator rejects (they drop or
//! note instead); the kustomization editor keeps every byte outside its insertion. The last
//! two are the checks of `gateway_migrate::fuzz`, which the fuzzers run on arbitrary bytes.

use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::pipeline::{self, Input, Request};
use proptest::prelude::*;

use crate::common::write;

/// A DNS name, sometimes a wildcard.
fn host() -> impl Strategy<Value = String> {
    ("[a-z][a-z0-9]{0,6}", "[a-z]{2,5}", any::<bool>()).prop_map(|(a, b, wild)| {
        if wild {
            format!("*.{b}.example.com")
        } else {
            format!("{a}.{b}.example.com")
        }
    })
}

/// A path of one or two segments.
fn path() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-z0-9._-]{1,6}", 1..3).prop_map(|p| format!("/{}", p.join("/")))
}

/// An Istio HTTP match: prefix, exact or regex URI, sometimes a header.
fn istio_match() -> impl Strategy<Value = String> {
    (
        0..4u8,
        path(),
        prop::option::of(("[a-z-]{1,8}", "[A-Za-z0-9]{1,6}")),
    )
        .prop_map(|(kind, p, header)| {
            let uri = match kind {
                0 => format!("prefix: {p}"),
                1 => format!("exact: {p}"),
                2 => format!("regex: \"{p}(/.*)?\""),
                _ => "prefix: /".to_string(),
            };
            let header = header
                .map(|(k, v)| {
                    format!("\n          headers:\n            {k}:\n              exact: \"{v}\"")
                })
                .unwrap_or_default();
            format!("        - uri:\n            {uri}{header}")
        })
}

/// One HTTP route of a VirtualService with a few optional features.
fn istio_route() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(istio_match(), 0..3),
        prop::collection::vec(("[a-z]{1,6}", 0..100u32), 1..3),
        prop::option::of(1..120u32),
        prop::option::of((0..5u32, "(5xx|reset|connect-failure|gateway-error)")),
        prop::option::of(path()),
    )
        .prop_map(|(matches, dests, timeout, retries, rewrite)| {
            let mut r = String::from("    - ");
            let mut first = true;
            let mut field = |text: String| {
                if first {
                    first = false;
                    r.push_str(text.trim_start());
                } else {
                    r.push_str(&text);
                }
            };
            if !matches.is_empty() {
                field(format!("match:\n{}\n", matches.join("\n")));
            }
            let weight = dests.len() > 1;
            let mut route = String::from("      route:\n");
            for (host, w) in &dests {
                route.push_str(&format!(
                    "        - destination:\n            host: {host}\n"
                ));
                if weight {
                    route.push_str(&format!("          weight: {w}\n"));
                }
            }
            field(route);
            if let Some(t) = timeout {
                field(format!("      timeout: {t}s\n"));
            }
            if let Some((attempts, on)) = retries {
                field(format!(
                    "      retries:\n        attempts: {attempts}\n        retryOn: {on}\n"
                ));
            }
            if let Some(p) = rewrite {
                field(format!("      rewrite:\n        uri: {p}\n"));
            }
            r
        })
}

fn virtual_service() -> impl Strategy<Value = String> {
    (
        "[a-z]{1,8}",
        prop::collection::vec(host(), 1..3),
        prop::collection::vec(istio_route(), 1..4),
        any::<bool>(),
    )
        .prop_map(|(name, hosts, routes, bound)| {
            let gateways = if bound { "  gateways: [istio-system/public]\n" } else { "" };
            format!(
                "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: {name}\n  namespace: apps\nspec:\n  hosts: [{}]\n{gateways}  http:\n{}",
                hosts.iter().map(|h| format!("\"{h}\"")).collect::<Vec<_>>().join(", "),
                routes.concat()
            )
        })
}

fn istio_gateway() -> impl Strategy<Value = String> {
    (prop::collection::vec(host(), 1..3), any::<bool>()).prop_map(|(hosts, tls)| {
        let hosts = hosts.iter().map(|h| format!("\"{h}\"")).collect::<Vec<_>>().join(", ");
        let https = if tls {
            format!("    - port: {{number: 443, name: https, protocol: HTTPS}}\n      hosts: [{hosts}]\n      tls:\n        mode: SIMPLE\n        credentialName: public-cert\n")
        } else {
            String::new()
        };
        format!(
            "apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: public\n  namespace: istio-system\nspec:\n  selector:\n    istio: ingressgateway\n  servers:\n    - port: {{number: 80, name: http, protocol: HTTP}}\n      hosts: [{hosts}]\n{https}"
        )
    })
}

fn ingress() -> impl Strategy<Value = String> {
    (
        "[a-z]{1,8}",
        prop::option::of(host()),
        prop::collection::vec((path(), 0..3u8, "[a-z]{1,6}", 1..65535u32), 1..4),
        prop::option::of(prop::sample::select(vec![
            "nginx.ingress.kubernetes.io/rewrite-target: /",
            "nginx.ingress.kubernetes.io/ssl-redirect: \"true\"",
            "nginx.ingress.kubernetes.io/use-regex: \"true\"",
            "nginx.ingress.kubernetes.io/backend-protocol: HTTPS",
        ])),
    )
        .prop_map(|(name, host, paths, annotation)| {
            let annotations = annotation
                .map(|a| format!("  annotations:\n    {a}\n"))
                .unwrap_or_default();
            let host = host.map(|h| format!("      host: \"{h}\"\n")).unwrap_or_default();
            let mut body = String::new();
            for (p, kind, svc, port) in paths {
                let kind = ["Prefix", "Exact", "ImplementationSpecific"][kind as usize];
                body.push_str(&format!(
                    "          - path: {p}\n            pathType: {kind}\n            backend:\n              service:\n                name: {svc}\n                port:\n                  number: {port}\n"
                ));
            }
            format!(
                "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\n  namespace: apps\n{annotations}spec:\n  ingressClassName: nginx\n  rules:\n    -\n{host}      http:\n        paths:\n{body}"
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Translation of generated Istio and Ingress objects never produces an object that the
    /// validator (the official CRDs' schemas and CEL rules) rejects.
    #[test]
    fn translation_never_emits_an_object_the_validator_rejects(
        gateway in istio_gateway(),
        services in prop::collection::vec(virtual_service(), 1..3),
        ingresses in prop::collection::vec(ingress(), 0..3),
    ) {
        let mut docs = vec![gateway];
        docs.extend(services);
        docs.extend(ingresses);
        let stream = docs.join("---\n");
        let outcome = gateway_migrate::fuzz::translate(stream.as_bytes());
        // The inputs are meant to translate: some object must come out.
        prop_assert!(!outcome.generated().is_empty(), "nothing generated from:\n{stream}");
    }
}

/// A kustomization in one of the styles found in the wild.
fn kustomization() -> impl Strategy<Value = (String, bool)> {
    (
        prop::collection::vec("[a-z]{1,8}\\.yaml", 0..4),
        0..3u8,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::option::of("[a-z ]{0,12}"),
    )
        .prop_map(|(entries, style, crlf, bom, final_newline, comment)| {
            let comment = comment.map(|c| format!("# {c}\n")).unwrap_or_default();
            let list = match style {
                0 if !entries.is_empty() => {
                    entries.iter().map(|e| format!("  - {e}\n")).collect::<String>()
                }
                1 if !entries.is_empty() => {
                    entries.iter().map(|e| format!("- {e}  # keep\n")).collect::<String>()
                }
                _ => String::new(),
            };
            let resources = if list.is_empty() {
                format!("resources: [{}]\n", entries.join(", "))
            } else {
                format!("resources:\n{list}")
            };
            let mut text = format!(
                "{comment}apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n{resources}namespace: apps\n"
            );
            if !final_newline {
                text.pop();
            }
            if crlf {
                text = text.replace('\n', "\r\n");
            }
            if bom {
                text.insert(0, '\u{feff}');
            }
            (text, entries.is_empty())
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Adding a resource changes nothing but the insertion, in every style.
    #[test]
    fn the_kustomization_editor_keeps_every_byte_outside_its_insertion((text, _) in kustomization()) {
        let entries = vec!["new.gateway-api.yaml".to_string()];
        let edited = gateway_migrate::plan::kustomize::add_resources(text.as_bytes(), &entries);
        // These are all valid kustomizations with a `resources:` list: the edit must succeed.
        let edited = match edited {
            Ok(e) => e,
            Err(e) => return Err(TestCaseError::fail(format!("{e} on:\n{text:?}"))),
        };
        prop_assert!(
            gateway_migrate::fuzz::is_insertion(text.as_bytes(), &edited),
            "not an insertion:\n{text:?}\n->\n{:?}",
            String::from_utf8_lossy(&edited)
        );
        gateway_migrate::fuzz::kustomize_edit(text.as_bytes());
    }
}

/// A small repository: a Gateway, VirtualServices and Ingresses spread over directories with
/// kustomizations.
fn repository() -> impl Strategy<Value = Vec<(String, String)>> {
    (
        istio_gateway(),
        prop::collection::vec(virtual_service(), 1..3),
        prop::collection::vec(ingress(), 0..3),
    )
        .prop_map(|(gateway, services, ingresses)| {
            let mut files = vec![
                ("gateway/gateway.yaml".to_string(), gateway),
                (
                    "gateway/kustomization.yaml".to_string(),
                    "resources:\n  - gateway.yaml\n".to_string(),
                ),
            ];
            for (i, vs) in services.into_iter().enumerate() {
                files.push((format!("app{i}/routes.yaml"), vs));
                files.push((
                    format!("app{i}/kustomization.yaml"),
                    "resources:\n  - routes.yaml\n".to_string(),
                ));
            }
            for (i, ing) in ingresses.into_iter().enumerate() {
                files.push((format!("web{i}/ingress.yaml"), ing));
            }
            files
        })
}

fn apply(root: &Path) -> pipeline::Outcome {
    let mut request = Request::new(Input::Repository(root.to_path_buf()), Config::default());
    request.jobs = 1;
    request.write = true;
    pipeline::run(request).unwrap_or_else(|e| panic!("apply failed: {e}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A second apply has nothing to do and changes no byte.
    #[test]
    fn apply_twice_is_apply_once(files in repository()) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in &files {
            write(dir.path(), path, text);
        }
        let first = apply(dir.path());
        prop_assert!(!first.plan.edits.is_empty(), "nothing to apply");
        let after_first = crate::common::files_under(dir.path())
            .into_iter()
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect::<Vec<_>>();
        let second = apply(dir.path());
        prop_assert!(
            second.plan.edits.is_empty(),
            "the second apply plans {:?}",
            second.plan.edits.iter().map(|e| &e.path).collect::<Vec<_>>()
        );
        let after_second = crate::common::files_under(dir.path())
            .into_iter()
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect::<Vec<_>>();
        prop_assert_eq!(after_first, after_second);
    }
}
