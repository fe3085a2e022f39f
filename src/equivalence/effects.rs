//! What a request's fate holds besides where it goes: the headers the backend receives and
//! the response gains, mirrors, the request timeout, and the access checks in the way. Each
//! side fills in the parts its model reads; a part one side leaves out is not compared, so a
//! model that does not read headers never raises a header difference.

use crate::diagnostic::Part;
use crate::semantics::{AccessCheck, Behaviour, HeaderEdits, Outcome};

/// The HSTS response header.
const STS: &str = "strict-transport-security";

/// Headers a response gains (name, value) and the names it loses.
type ResponseEdits = (Vec<(String, String)>, Vec<String>);

/// The compared parts of one answer; `None`: the side's model does not read that part.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// The request headers the backend receives (names in lower case, sorted).
    pub request_headers: Option<Vec<(String, String)>>,
    /// Headers the response gains (lower case, sorted) and the names it loses.
    pub response_headers: Option<ResponseEdits>,
    /// `namespace/name[:port]` and the percentage mirrored.
    pub mirrors: Option<Vec<(String, u32)>>,
    /// The request timeout in milliseconds; `Some(None)`: none (zero disables one).
    pub timeout_ms: Option<Option<u64>>,
    /// The checks a request must pass before it is forwarded.
    pub access: Option<Vec<String>>,
}

/// Which parts a side's model reads.
#[derive(Debug, Clone, Copy)]
pub struct Reads {
    /// The request headers the backend gets.
    pub request_headers: bool,
    /// The headers the response gains or loses.
    pub response_headers: bool,
    pub mirrors: bool,
    pub timeouts: bool,
    pub access: bool,
}

impl Effects {
    /// The parts `reads` names, from a model's answer to `request_headers`. Only a
    /// forwarded request has them.
    /// `secure`: the request came over TLS. `Strict-Transport-Security` on a plain-HTTP
    /// answer is left out: browsers ignore it there (RFC 6797 section 8.1).
    pub fn of(
        b: &Behaviour,
        request_headers: &[(String, String)],
        secure: bool,
        reads: Reads,
    ) -> Effects {
        // Access checks stand in the way of any content: a forwarded request's, or a direct
        // response's. A 404 is compared without them: an authentication or allow-list in
        // front of "not found" guards nothing, and a report of it would be a false alarm.
        let access = || {
            let mut a: Vec<String> = b.access.iter().map(describe_access).collect();
            a.sort();
            a.dedup();
            a
        };
        let Outcome::Backends { backends, .. } = &b.outcome else {
            return Effects {
                access: (reads.access && matches!(b.outcome, Outcome::Direct { .. })).then(access),
                ..Effects::default()
            };
        };
        // The route's edits, then the only backend's own (with several, each backend's
        // edits apply to its share alone and are not compared).
        let single = match backends.as_slice() {
            [one] => Some(one),
            _ => None,
        };
        let lower = |mut v: Vec<(String, String)>| {
            for (n, _) in &mut v {
                n.make_ascii_lowercase();
            }
            v.sort();
            v
        };
        let sent = b.request_headers.apply(request_headers);
        let sent = single.map_or(sent.clone(), |one| one.request_headers.apply(&sent));
        let response = |edits: &[&HeaderEdits]| {
            let mut gained = Vec::new();
            let mut lost: Vec<String> = Vec::new();
            for e in edits {
                gained = e.apply(&gained);
                lost.extend(e.remove.iter().map(|n| n.to_ascii_lowercase()));
            }
            if !secure {
                gained.retain(|(n, _)| !n.eq_ignore_ascii_case(STS));
                lost.retain(|n| !n.eq_ignore_ascii_case(STS));
            }
            lost.retain(|n| !gained.iter().any(|(g, _)| g.eq_ignore_ascii_case(n)));
            lost.sort();
            lost.dedup();
            (lower(gained), lost)
        };
        let mut edits = vec![&b.response_headers];
        if let Some(one) = single {
            edits.push(&one.response_headers);
        }
        Effects {
            request_headers: reads.request_headers.then(|| lower(sent)),
            response_headers: reads.response_headers.then(|| response(&edits)),
            mirrors: reads.mirrors.then(|| {
                let mut m: Vec<(String, u32)> = b
                    .mirrors
                    .iter()
                    .map(|m| {
                        let port = m.port.map(|p| format!(":{p}")).unwrap_or_default();
                        (format!("{}/{}{port}", m.namespace, m.name), m.percent)
                    })
                    .collect();
                m.sort();
                m
            }),
            timeout_ms: reads.timeouts.then(|| {
                b.timeouts
                    .as_ref()
                    .and_then(|t| t.request.as_deref())
                    .and_then(duration_ms)
                    .filter(|ms| *ms > 0)
            }),
            access: reads.access.then(access),
        }
    }

    /// The parts that differ between `self` (the old side) and `new`: the part, what it is
    /// called, and what each side does.
    pub fn differences(&self, new: &Effects) -> Vec<EffectDifference> {
        let mut out = Vec::new();
        let mut push = |part, what: &str, old: String, new: String| {
            out.push(EffectDifference {
                part,
                what: what.to_string(),
                old,
                new,
            });
        };
        if let (Some(a), Some(b)) = (&self.request_headers, &new.request_headers)
            && a != b
        {
            push(
                Part::Headers,
                "request headers the backend gets",
                headers_text(a, b),
                headers_text(b, a),
            );
        }
        if let (Some(a), Some(b)) = (&self.response_headers, &new.response_headers)
            && a != b
        {
            let text = |(gained, lost): &ResponseEdits| {
                let mut parts: Vec<String> =
                    gained.iter().map(|(n, v)| format!("+{n}: {v}")).collect();
                parts.extend(lost.iter().map(|n| format!("-{n}")));
                if parts.is_empty() {
                    "unchanged".to_string()
                } else {
                    parts.join(", ")
                }
            };
            push(Part::Headers, "response headers", text(a), text(b));
        }
        if let (Some(a), Some(b)) = (&self.mirrors, &new.mirrors)
            && !same_mirrors(a, b)
        {
            let text = |m: &[(String, u32)]| {
                if m.is_empty() {
                    "none".to_string()
                } else {
                    m.iter()
                        .map(|(t, p)| format!("{t} ({p}%)"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            };
            push(Part::Mirrors, "mirrors", text(a), text(b));
        }
        if let (Some(a), Some(b)) = (&self.timeout_ms, &new.timeout_ms)
            && a != b
        {
            let text = |t: &Option<u64>| t.map_or("none".to_string(), |ms| format!("{ms}ms"));
            push(Part::Timeouts, "request timeout", text(a), text(b));
        }
        if let (Some(a), Some(b)) = (&self.access, &new.access)
            && a != b
        {
            let text = |a: &[String]| {
                if a.is_empty() {
                    "none".to_string()
                } else {
                    a.join(", ")
                }
            };
            push(Part::Access, "access checks", text(a), text(b));
        }
        out
    }
}

/// One part that differs while the request goes to the same place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectDifference {
    pub part: Part,
    /// What the part is called in a message (`request timeout`).
    pub what: String,
    pub old: String,
    pub new: String,
}

/// The headers of `a` that `b` does not have (name: value), or "nothing more".
fn headers_text(a: &[(String, String)], b: &[(String, String)]) -> String {
    let only: Vec<String> = a
        .iter()
        .filter(|h| !b.contains(h))
        .map(|(n, v)| {
            if v.is_empty() {
                format!("{n}: \"\"")
            } else {
                format!("{n}: {v}")
            }
        })
        .collect();
    if only.is_empty() {
        "nothing more".to_string()
    } else {
        only.join(", ")
    }
}

/// Mirrors to the same targets with percentages within one point (a fraction's integer
/// percentage against a decimal one).
fn same_mirrors(a: &[(String, u32)], b: &[(String, u32)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ta, pa), (tb, pb))| ta == tb && pa.abs_diff(*pb) <= 1)
}

fn describe_access(a: &AccessCheck) -> String {
    match a {
        AccessCheck::ExternalAuth { url } => format!("external auth {url}"),
        AccessCheck::BasicAuth { scheme, secret } => format!("{scheme} auth ({secret})"),
        AccessCheck::ClientCertificate { secret } => format!("client certificate ({secret})"),
        AccessCheck::SourceRange {
            allow: true,
            ranges,
        } => format!("clients in {ranges}"),
        AccessCheck::SourceRange {
            allow: false,
            ranges,
        } => format!("clients outside {ranges}"),
    }
}

/// A Go-style duration (`1h2m3.5s`, `250ms`, `1us`) in milliseconds, rounded down;
/// `None` when it does not parse.
pub(crate) fn duration_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    if text == "0" {
        return Some(0);
    }
    let mut total = 0f64;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter(|&i| i > 0)?;
        let value: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = match &rest[..unit_len] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1_000.0,
            "ms" => 1.0,
            "us" | "µs" => 0.001,
            "ns" => 0.000_001,
            _ => return None,
        };
        total += value * factor;
        rest = &rest[unit_len..];
    }
    Some(total as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Go time.ParseDuration units (Istio's protobuf Duration in YAML, Gateway API's
    // Duration subset `^([0-9]{1,5}(h|m|s|ms)){1,4}$`).
    #[test]
    fn durations_parse_like_go() {
        assert_eq!(duration_ms("5s"), Some(5000));
        assert_eq!(duration_ms("1m30s"), Some(90_000));
        assert_eq!(duration_ms("250ms"), Some(250));
        assert_eq!(duration_ms("1.5s"), Some(1500));
        assert_eq!(duration_ms("0s"), Some(0));
        assert_eq!(duration_ms("5"), None);
        assert_eq!(duration_ms("s"), None);
    }

    #[test]
    fn parts_a_side_does_not_read_are_not_compared() {
        let old = Effects {
            request_headers: Some(vec![("x-a".into(), "1".into())]),
            timeout_ms: Some(Some(5000)),
            ..Effects::default()
        };
        let new = Effects {
            request_headers: Some(Vec::new()),
            timeout_ms: None,
            access: Some(Vec::new()),
            ..Effects::default()
        };
        let d = old.differences(&new);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].part, Part::Headers);
        assert_eq!(d[0].old, "x-a: 1");
        assert_eq!(d[0].new, "nothing more");
    }

    #[test]
    fn mirror_percentages_within_a_point_are_the_same() {
        let a = vec![("ns/m".to_string(), 33)];
        let b = vec![("ns/m".to_string(), 34)];
        assert!(same_mirrors(&a, &b));
        assert!(!same_mirrors(&a, &[]));
    }
}
