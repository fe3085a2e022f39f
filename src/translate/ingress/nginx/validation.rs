//! ingress-nginx rejects a whole Ingress when an annotation value fails its validator and
//! the annotation's parser passes the validation error on: `annotations/annotations.go`
//! `Extract` returns it, and `controller/store/store.go` never adds the Ingress, so none of
//! its paths is served (`--enable-annotation-validation` is on by default). Validators from
//! `annotations/parser/validators.go`; which parsers pass the error on from their `Parse`.
//! Parsers that swallow it (rewrite, canary, CORS, backend-protocol) fall back to defaults
//! and are handled where they are translated.

use std::sync::LazyLock;

use regex::Regex;

use super::{Annotations, parse_bool};

/// `annotations-risk-level`'s default (`config.go` `NewDefault`).
pub(crate) const DEFAULT_RISK_LEVEL: &str = "High";

/// The rank of a risk level as `parser.StringRiskToRisk` reads `annotations-risk-level`
/// (lower-cased; anything else, the empty string included, is `Low`).
fn rank(level: &str) -> u8 {
    match level.to_lowercase().as_str() {
        "critical" => 3,
        "high" => 2,
        "medium" => 1,
        _ => 0,
    }
}

/// The first annotation (short key, in key order) whose risk is above the controller's
/// `annotations-risk-level` (`parser.CheckAnnotationRisk`, which `Extract` runs before any
/// parser: the whole Ingress is then left out by `store.go` `syncIngress`), with its level.
/// The risk of each annotation is the upstream fact table the behaviour model also reads
/// (`semantics::ingress_nginx::annotation_risk`).
pub(crate) fn too_risky(ann: &Annotations, level: Option<&str>) -> Option<(String, &'static str)> {
    let max = rank(level.unwrap_or(DEFAULT_RISK_LEVEL));
    ann.keys().find_map(|k| {
        let risk = crate::semantics::ingress_nginx::annotation_risk(k)?;
        (rank(risk) > max).then(|| (k.to_string(), risk))
    })
}

/// `URLIsValidRegex`: alphanumerics, `-._~/:` and `,:?&=`.
static URL_IS_VALID: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::constant(r"^[\-._~a-zA-Z0-9/:,?&=]*$"));

/// The annotation (short key), its value and the validator it fails, when ingress-nginx
/// rejects the Ingress.
pub(crate) fn rejection(ann: &Annotations) -> Option<(String, String, &'static str)> {
    let failing = |key: &str, ok: &dyn Fn(&str) -> bool, rule: &'static str| {
        ann.get(key)
            .filter(|v| !v.is_empty() && !ok(v))
            .map(|v| (key.to_string(), v.to_string(), rule))
    };
    let boolean = |v: &str| parse_bool(v).is_some();
    let integer = |v: &str| v.parse::<i64>().is_ok();
    let url = |v: &str| URL_IS_VALID.is_match(v);
    const BOOL: &str = "a boolean (Go strconv.ParseBool)";
    const INT: &str = "an integer";
    const URL: &str = "letters, digits and -._~/:,?&= only";
    // annotations/sslpassthrough: GetBoolAnnotation's error is returned as is.
    if let Some(r) = failing("ssl-passthrough", &boolean, BOOL) {
        return Some(r);
    }
    // annotations/redirect/redirect.go Parse: every read error but "missing" is returned, in
    // this order; the permanent pair is read only without a temporal redirect.
    for (key, ok, rule) in [
        (
            "from-to-www-redirect",
            &boolean as &dyn Fn(&str) -> bool,
            BOOL,
        ),
        ("relative-redirects", &boolean, BOOL),
        ("temporal-redirect", &url, URL),
    ] {
        if let Some(r) = failing(key, ok, rule) {
            return Some(r);
        }
    }
    if ann.get("temporal-redirect").is_some_and(|v| !v.is_empty()) {
        return failing("temporal-redirect-code", &integer, INT);
    }
    failing("permanent-redirect", &url, URL)
        .or_else(|| failing("permanent-redirect-code", &integer, INT))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann(pairs: &[(&str, &str)]) -> Annotations {
        Annotations::from_pairs(pairs)
    }

    // annotations/parser/validators.go ValidateInt, URLIsValidRegex; redirect.go Parse order.
    #[test]
    fn invalid_values_reject_the_ingress_as_ingress_nginx_does() {
        assert!(rejection(&ann(&[("permanent-redirect-code", "moved")])).is_some());
        assert!(rejection(&ann(&[("permanent-redirect", "https://example.com/a%20b")])).is_some());
        assert!(rejection(&ann(&[("ssl-passthrough", "yes")])).is_some());
        // Read only without a temporal redirect.
        assert!(
            rejection(&ann(&[
                ("temporal-redirect", "https://example.com/"),
                ("permanent-redirect-code", "moved")
            ]))
            .is_none()
        );
        assert!(rejection(&ann(&[("permanent-redirect", "https://example.com/x?a=1")])).is_none());
        // The rewrite parser swallows its errors: not a rejection.
        assert!(rejection(&ann(&[("ssl-redirect", "yes")])).is_none());
    }
}
