//! Acceptance 4: the fixture repository `fixtures/validate/attachment` holds routes that fail
//! to attach for each reason the validator predicts (and a Gateway whose listener certificates
//! do not resolve); the lint must produce exactly those predicted conditions (and nothing
//! else).

use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::diagnostic::Severity;
use gateway_migrate::pipeline;
use gateway_migrate::report::Report;

fn predicted(config: &Config) -> Vec<(String, String, String, Severity)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate/attachment");
    let mut request = pipeline::Request::new(pipeline::Input::Repository(root), config.clone());
    request.jobs = 1;
    request.check = true;
    let outcome = pipeline::run(request).unwrap();
    assert!(
        outcome.scan.diagnostics.is_empty(),
        "{:?}",
        outcome.scan.diagnostics
    );
    let report = Report::build(&outcome);
    let mut rows: Vec<_> = report
        .findings()
        .map(|f| {
            (
                f.subject_name(),
                f.field.clone().unwrap_or_default(),
                f.rule.clone().unwrap_or_default(),
                f.severity,
            )
        })
        .collect();
    // The lint's own order: by object, then field.
    rows.sort();
    rows
}

fn row(
    route: &str,
    path: &str,
    reason: &str,
    severity: Severity,
) -> (String, String, String, Severity) {
    (
        route.to_string(),
        path.to_string(),
        reason.to_string(),
        severity,
    )
}

fn expected(unknown: Severity) -> Vec<(String, String, String, Severity)> {
    use Severity::{Error, Info};
    let mut rows = vec![
        row(
            "HTTPRoute web/attached",
            "spec.parentRefs[0]",
            "Accepted",
            Info,
        ),
        row(
            "HTTPRoute web/no-such-listener",
            "spec.parentRefs[0]",
            "NoMatchingParent",
            Error,
        ),
        row(
            "HTTPRoute web/no-such-listener",
            "spec.parentRefs[1]",
            "NoMatchingParent",
            Error,
        ),
        row(
            "HTTPRoute web/wrong-namespace",
            "spec.parentRefs[0]",
            "NotAllowedByListeners",
            Error,
        ),
        row(
            "HTTPRoute web/wrong-namespace",
            "spec.parentRefs[1]",
            "NotAllowedByListeners",
            Error,
        ),
        row(
            "HTTPRoute shop/selected",
            "spec.parentRefs[0]",
            "Accepted",
            Info,
        ),
        row(
            "TCPRoute web/wrong-kind",
            "spec.parentRefs[0]",
            "NotAllowedByListeners",
            Error,
        ),
        row(
            "HTTPRoute web/wrong-host",
            "spec.parentRefs[0]",
            "NoMatchingListenerHostname",
            Error,
        ),
        row(
            "HTTPRoute web/isolated-host",
            "spec.parentRefs[0]",
            "NoMatchingListenerHostname",
            Error,
        ),
        row(
            "HTTPRoute web/bad-backends",
            "spec.parentRefs[0]",
            "Accepted",
            Info,
        ),
        row(
            "HTTPRoute web/bad-backends",
            "spec.rules[0].backendRefs[0]",
            "BackendNotFound",
            Error,
        ),
        row(
            "HTTPRoute web/bad-backends",
            "spec.rules[1].backendRefs[0]",
            "RefNotPermitted",
            Error,
        ),
        row(
            "HTTPRoute web/bad-backends",
            "spec.rules[2].backendRefs[0]",
            "InvalidKind",
            Error,
        ),
        row(
            "HTTPRoute web/outside",
            "spec.parentRefs[0]",
            "ParentNotFound",
            unknown,
        ),
        row(
            "HTTPRoute web/outside",
            "spec.rules[0].backendRefs[0]",
            "RefNotPermitted",
            unknown,
        ),
        // Listener certificates: cross-namespace without a grant; a Secret not in Git.
        row(
            "Gateway infra/gw",
            "spec.listeners[4].tls.certificateRefs[1]",
            "RefNotPermitted",
            Error,
        ),
        row(
            "Gateway infra/gw",
            "spec.listeners[4].tls.certificateRefs[2]",
            "InvalidCertificateRef",
            unknown,
        ),
    ];
    rows.sort();
    rows
}

#[test]
fn fixture_routes_get_exactly_the_predicted_conditions() {
    let mut got = predicted(&Config::default());
    got.sort();
    assert_eq!(got, expected(Severity::Warning));
}

#[test]
fn strict_turns_unknown_objects_into_errors() {
    let config = Config {
        strict: true,
        ..Config::default()
    };
    let mut got = predicted(&config);
    got.sort();
    assert_eq!(got, expected(Severity::Error));
}
