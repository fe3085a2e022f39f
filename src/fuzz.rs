//! The fuzz targets' bodies (`fuzz/fuzz_targets/*.rs` call these), shared with the regression
//! test that replays every input the fuzzers found (`tests/integration/fuzz_regressions.rs`):
//! one definition of what each target checks, whichever runs it.
//!
//! Each function takes arbitrary bytes, must not panic, and panics when an invariant it
//! checks is broken (that is how a fuzzer and a test both see a failure).

use crate::config::Config;
use crate::diagnostic::Code;
use crate::pipeline::{self, Input, Request};
use crate::report::{self, Report};

/// The YAML stream splitter: the spans cover the input exactly, in order.
pub fn split(data: &[u8]) {
    let spans = crate::load::split::split(data);
    let mut at = 0;
    for span in &spans {
        assert_eq!(span.start, at, "spans are contiguous: {spans:?}");
        assert!(
            span.end >= span.start && span.end <= data.len(),
            "{spans:?}"
        );
        at = span.end;
    }
    assert_eq!(at, data.len(), "the spans cover the input: {spans:?}");
}

/// One file's load (split, prefilter, parse, decode): no panic, and every object it reports
/// points at a document and line inside the file.
pub fn load(data: &[u8]) {
    let loaded = crate::load::load_bytes("fuzz.yaml", data);
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    for object in &loaded.objects {
        let source = &object.source;
        assert!(
            source.line >= 1 && source.line <= lines,
            "line {} of a {lines}-line file",
            source.line
        );
    }
}

/// Codes that mean "a generated object would have been rejected by the API server".
const REJECTED: [Code; 7] = [
    Code::ValidateSchema,
    Code::ValidateCel,
    Code::ValidateCelUnevaluated,
    Code::ValidateUnknownField,
    Code::ValidateMetadata,
    Code::ValidateUnservedVersion,
    Code::ValidateExperimentalOnly,
];

/// The whole pipeline on one stream (translation of Istio and Ingress objects, validation,
/// equivalence): no panic, and the translators never produce an object the validator has to
/// reject (they drop or note what they cannot express instead).
pub fn translate(data: &[u8]) -> pipeline::Outcome {
    let request = Request::new(
        Input::Streams(vec![("fuzz.yaml".into(), data.to_vec())]),
        Config::default(),
    );
    let outcome = match pipeline::run(request) {
        Ok(o) => o,
        Err(e) => panic!("a stream run cannot fail as a whole: {e}"),
    };
    // Suppressed diagnostics count too: a suppression comment in the input must not hide a
    // broken invariant.
    for d in outcome
        .diagnostics
        .iter()
        .chain(outcome.suppressed.iter().map(|s| &s.diagnostic))
    {
        // Under a fuzzer the panic hook aborts first; under `cargo test` isolation turns a
        // panic into this diagnostic, which must fail the replay all the same.
        assert!(
            d.code != Code::InternalPanic,
            "a panic was isolated: {}",
            d.message
        );
        // Retargeted Istio policies are the user's own spec with the selector replaced: a
        // field their CRD does not know makes the copy invalid exactly as the original is, and
        // the validator reports it and does not write it, which is the intended path. What
        // the translator itself writes into the copy (metadata, targetRefs) must be valid.
        let field = d.location.generated_field.as_deref().unwrap_or("");
        let policy_copy = ["AuthorizationPolicy", "RequestAuthentication", "Telemetry"]
            .iter()
            .any(|k| d.message.starts_with(&format!("generated {k} ")))
            && field.starts_with("spec.")
            && !field.starts_with("spec.targetRefs");
        let rejected = REJECTED.contains(&d.code) && d.message.contains("would be rejected");
        assert!(
            policy_copy || !rejected,
            "the translator produced an invalid object: {} {}",
            d.code.id(),
            d.message
        );
    }
    outcome
}

/// Every report renderer on the pipeline's outcome for one stream: no panic; JSON and SARIF
/// parse; Markdown fits a pull request body.
pub fn report(data: &[u8]) {
    let outcome = translate(data);
    let report = Report::build(&outcome);
    let json = report::json::render(&report);
    assert!(
        serde_json::from_str::<serde_json::Value>(&json).is_ok(),
        "the JSON report does not parse"
    );
    let sarif = report::sarif::render(&report, &report::sarif::Options::default());
    assert!(
        serde_json::from_str::<serde_json::Value>(&sarif).is_ok(),
        "the SARIF report does not parse"
    );
    let markdown = report::markdown::render(&report, &report::markdown::Options::default());
    assert!(
        markdown.chars().count() <= 65_536,
        "Markdown over GitHub's limit"
    );
    let _ = report::text::render(&report, &report::text::Options::default());
    let _ = report::text::concise(&report);
    let _ = report::github::render(&report);
}

/// The kustomization editor: when it accepts a file, the result is the input with the new
/// entries inserted and every other byte kept.
pub fn kustomize_edit(data: &[u8]) {
    let entries = vec!["fuzz.gateway-api.yaml".to_string()];
    let Ok(out) = crate::plan::kustomize::add_resources(data, &entries) else {
        return;
    };
    assert!(
        is_insertion(data, &out),
        "bytes outside the insertion changed:\n--- in\n{}\n--- out\n{}",
        String::from_utf8_lossy(data),
        String::from_utf8_lossy(&out)
    );
}

/// Whether `after` is `before` with one run of bytes inserted somewhere.
pub fn is_insertion(before: &[u8], after: &[u8]) -> bool {
    if after.len() < before.len() {
        return false;
    }
    let prefix = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let suffix = before[prefix..]
        .iter()
        .rev()
        .zip(after.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    prefix + suffix == before.len()
}

/// The in-place replacer: document regions lie inside the file, in order, never
/// overlapping; replacing every region with another document keeps the number of documents,
/// and each new document lands in its own region.
pub fn inplace_regions(data: &[u8]) {
    use crate::plan::inplace::{document_regions, splice};
    let regions = document_regions(data);
    let mut end = 0;
    for region in regions.iter().flatten() {
        assert!(region.start >= end, "regions overlap: {regions:?}");
        assert!(
            region.start <= region.end && region.end <= data.len(),
            "{regions:?}"
        );
        end = region.end;
    }
    let replacements: Vec<(std::ops::Range<usize>, String)> = regions
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.clone().map(|r| (r, format!("replaced: {i}\n"))))
        .collect();
    let spliced = splice(data, &replacements);
    let after = document_regions(&spliced);
    assert_eq!(
        after.len(),
        regions.len(),
        "replacing documents changed their number:\n{}",
        String::from_utf8_lossy(&spliced)
    );
    for (i, region) in after.iter().enumerate() {
        if regions[i].is_some() {
            let region = region.clone().unwrap_or_default();
            let text = String::from_utf8_lossy(&spliced[region]);
            assert!(
                text.contains(&format!("replaced: {i}")),
                "document {i} is not where it was put: {text:?}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insertion_is_recognised_and_changes_are_not() {
        assert!(is_insertion(b"a\nb\n", b"a\nx\nb\n"));
        assert!(is_insertion(b"ab", b"abc"));
        assert!(is_insertion(b"", b"x"));
        assert!(!is_insertion(b"a\nb\n", b"a\nc\n"));
        assert!(!is_insertion(b"abc", b"ab"));
    }

    #[test]
    fn targets_accept_their_seeds() {
        let vs = b"apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: a\nspec:\n  hosts: [a.example.com]\n";
        split(vs);
        load(vs);
        report(vs);
        kustomize_edit(b"resources:\n  - a.yaml\n");
        inplace_regions(vs);
    }
}
