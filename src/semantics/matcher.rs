//! String conditions as Envoy evaluates them (exact, string prefix, full-match regex,
//! presence). Regexes are compiled once, when a model is built; an expression the `regex`
//! crate cannot compile (a PCRE-only feature) makes the requests that reach it not modelled
//! rather than guessed.

use regex::Regex;

use crate::pattern::literal_prefix;

/// A compiled string condition.
#[derive(Debug, Clone)]
pub(crate) enum Matcher {
    /// The value must be present (any value).
    Present,
    /// Equal; `fold` compares ASCII case-insensitively.
    Exact { value: String, fold: bool },
    /// Starts with; `fold` as above.
    Prefix { value: String, fold: bool },
    /// The whole value matches (Envoy `safe_regex`, Gateway API `RegularExpression`).
    Regex(Regex),
    /// An expression that does not compile: the outcome cannot be predicted.
    Invalid,
}

impl Matcher {
    pub(crate) fn exact(value: &str, fold: bool) -> Self {
        Matcher::Exact {
            value: value.to_string(),
            fold,
        }
    }

    pub(crate) fn prefix(value: &str, fold: bool) -> Self {
        Matcher::Prefix {
            value: value.to_string(),
            fold,
        }
    }

    /// A regex that must match the whole value.
    pub(crate) fn full_regex(pattern: &str) -> Self {
        match Regex::new(&format!("^(?:{pattern})$")) {
            Ok(re) => Matcher::Regex(re),
            Err(_) => Matcher::Invalid,
        }
    }

    /// `Some(true/false)`, or `None` when the condition cannot be evaluated.
    pub(crate) fn test(&self, value: Option<&str>) -> Option<bool> {
        let Some(v) = value else {
            return Some(false);
        };
        Some(match self {
            Matcher::Present => true,
            Matcher::Exact { value, fold: false } => v == value,
            Matcher::Exact { value, fold: true } => v.eq_ignore_ascii_case(value),
            Matcher::Prefix { value, fold: false } => v.starts_with(value.as_str()),
            Matcher::Prefix { value, fold: true } => v
                .get(..value.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(value)),
            Matcher::Regex(re) => re.is_match(v),
            Matcher::Invalid => return None,
        })
    }

    /// A value this condition accepts, for probes (`None` when none is obvious).
    pub(crate) fn sample(&self) -> Option<String> {
        match self {
            Matcher::Present => Some("gm-probe".into()),
            Matcher::Exact { value, .. } => Some(value.clone()),
            Matcher::Prefix { value, .. } => Some(format!("{value}gm")),
            Matcher::Regex(re) => {
                let literal = literal_prefix(re.as_str().trim_start_matches("^(?:"));
                // A few shapes cover the common ones: a version or id after the literal
                // part, then nothing, a segment, or more segments.
                ["", "1", "a", "/1", "1/", "1/x", "a/x", "/1/x", "x/y"]
                    .iter()
                    .map(|tail| format!("{literal}{tail}"))
                    .chain(["gm-probe".to_string()])
                    .find(|c| re.is_match(c))
            }
            Matcher::Invalid => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Istio and Envoy prefixes are string prefixes (`/api` matches `/apix`): Envoy
    // `RouteMatch.prefix`; `ignoreUriCase` folds case (Istio route.go TranslateRouteMatch
    // sets `case_sensitive: !ignoreUriCase`).
    #[test]
    fn string_prefix_and_case_folding() {
        assert_eq!(
            Matcher::prefix("/api", false).test(Some("/apix")),
            Some(true)
        );
        assert_eq!(
            Matcher::prefix("/api", false).test(Some("/API")),
            Some(false)
        );
        assert_eq!(
            Matcher::prefix("/api", true).test(Some("/API/v1")),
            Some(true)
        );
        assert_eq!(Matcher::exact("/a", true).test(Some("/A")), Some(true));
        assert_eq!(Matcher::exact("/a", false).test(None), Some(false));
    }

    // Envoy safe_regex matches the whole value (RE2 full match).
    #[test]
    fn regexes_match_the_whole_value_and_invalid_ones_are_unknown() {
        let m = Matcher::full_regex("/v[0-9]+");
        assert_eq!(m.test(Some("/v1")), Some(true));
        assert_eq!(m.test(Some("/v1/x")), Some(false));
        assert_eq!(Matcher::full_regex("(?=x)").test(Some("x")), None);
        assert_eq!(m.sample().as_deref(), Some("/v1"));
    }
}
