//! Istio evaluates `http[]` entries in order (first match wins); Gateway API picks the most
//! specific match (Exact > longest PathPrefix > method > most headers > most query params,
//! then rule order). This finds every pair of entries whose winner changes.

use regex::Regex;

use crate::gwapi::{HttpHeaderMatch, HttpRouteMatch};
use crate::note::Note;

/// The matches of one Istio entry (`None` = matches everything), with its field path.
pub struct Entry<'a> {
    pub path: &'a str,
    pub matches: Vec<Option<&'a HttpRouteMatch>>,
}

/// Gateway API rank of a match: larger wins.
fn rank(m: Option<&HttpRouteMatch>) -> (u8, usize, bool, usize, usize) {
    let Some(m) = m else {
        return (2, 1, false, 0, 0);
    };
    let (kind, len) = match m.path.as_ref() {
        Some(p) if p.type_ == "Exact" => (3, p.value.len()),
        Some(p) if p.type_ == "PathPrefix" => (2, p.value.trim_end_matches('/').len().max(1)),
        // Istio ranks regex below every prefix; other implementations differ.
        Some(_) => (1, 0),
        None => (2, 1),
    };
    let len = if kind == 3 { 0 } else { len };
    (
        kind,
        len,
        m.method.is_some(),
        m.headers.len(),
        m.query_params.len(),
    )
}

fn paths_overlap(a: Option<&HttpRouteMatch>, b: Option<&HttpRouteMatch>) -> bool {
    let (Some(pa), Some(pb)) = (
        a.and_then(|m| m.path.as_ref()),
        b.and_then(|m| m.path.as_ref()),
    ) else {
        return true;
    };
    let full = |re: &str, s: &str| {
        Regex::new(&format!("^(?:{re})$"))
            .map(|r| r.is_match(s))
            .unwrap_or(true)
    };
    match (pa.type_.as_str(), pb.type_.as_str()) {
        ("Exact", "Exact") => pa.value == pb.value,
        ("Exact", "PathPrefix") => pa.value.starts_with(&pb.value),
        ("PathPrefix", "Exact") => pb.value.starts_with(&pa.value),
        ("PathPrefix", "PathPrefix") => {
            pa.value.starts_with(&pb.value) || pb.value.starts_with(&pa.value)
        }
        ("Exact", "RegularExpression") => full(&pb.value, &pa.value),
        ("RegularExpression", "Exact") => full(&pa.value, &pb.value),
        _ => true,
    }
}

fn conditions_conflict(a: &[HttpHeaderMatch], b: &[HttpHeaderMatch]) -> bool {
    a.iter().any(|x| {
        b.iter().any(|y| {
            x.name.eq_ignore_ascii_case(&y.name)
                && x.type_ == "Exact"
                && y.type_ == "Exact"
                && x.value != y.value
        })
    })
}

fn overlap(a: Option<&HttpRouteMatch>, b: Option<&HttpRouteMatch>) -> bool {
    if !paths_overlap(a, b) {
        return false;
    }
    let (Some(a), Some(b)) = (a, b) else {
        return true;
    };
    if let (Some(ma), Some(mb)) = (&a.method, &b.method)
        && ma != mb
    {
        return false;
    }
    !conditions_conflict(&a.headers, &b.headers)
        && !conditions_conflict(&a.query_params, &b.query_params)
}

fn describe(m: Option<&HttpRouteMatch>) -> String {
    let Some(m) = m else {
        return "any request".into();
    };
    let mut parts = Vec::new();
    if let Some(p) = &m.path {
        parts.push(format!("{} {}", p.type_, p.value));
    }
    if let Some(me) = &m.method {
        parts.push(format!("method {me}"));
    }
    if !m.headers.is_empty() {
        parts.push(format!("{} header(s)", m.headers.len()));
    }
    if !m.query_params.is_empty() {
        parts.push(format!("{} query param(s)", m.query_params.len()));
    }
    if parts.is_empty() {
        "any request".into()
    } else {
        parts.join(", ")
    }
}

/// One `istio/precedence-changed` warning per pair of entries (earlier, later) where a request
/// can match both and Gateway API prefers the later one.
pub fn check(entries: &[Entry], notes: &mut Vec<Note>) {
    for (i, a) in entries.iter().enumerate() {
        for b in &entries[i + 1..] {
            let hit = a.matches.iter().find_map(|ma| {
                b.matches
                    .iter()
                    .find(|mb| overlap(*ma, **mb) && rank(**mb) > rank(*ma))
                    .map(|mb| (*ma, *mb))
            });
            if let Some((ma, mb)) = hit {
                notes.push(
                    Note::warning(
                        "istio/precedence-changed",
                        format!(
                            "requests matching both {} ({}) and {} ({}) went to {} in Istio (first match wins); Gateway API sends them to {} (more specific match wins)",
                            a.path, describe(ma), b.path, describe(mb), a.path, b.path
                        ),
                    )
                    .at(b.path.to_string()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gwapi::HttpPathMatch;

    fn path(t: &str, v: &str) -> HttpRouteMatch {
        HttpRouteMatch {
            path: Some(HttpPathMatch {
                type_: t.into(),
                value: v.into(),
            }),
            ..Default::default()
        }
    }

    #[test]
    fn exact_after_prefix_is_reported() {
        let a = path("PathPrefix", "/api");
        let b = path("Exact", "/api/health");
        let entries = [
            Entry {
                path: "spec.http[0]",
                matches: vec![Some(&a)],
            },
            Entry {
                path: "spec.http[1]",
                matches: vec![Some(&b)],
            },
        ];
        let mut notes = Vec::new();
        check(&entries, &mut notes);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].field.as_deref(), Some("spec.http[1]"));
    }

    #[test]
    fn specific_first_is_fine() {
        let a = path("Exact", "/api/health");
        let b = path("PathPrefix", "/api");
        let c = path("PathPrefix", "/other");
        let entries = [
            Entry {
                path: "a",
                matches: vec![Some(&a)],
            },
            Entry {
                path: "b",
                matches: vec![Some(&b)],
            },
            Entry {
                path: "c",
                matches: vec![Some(&c)],
            },
            Entry {
                path: "d",
                matches: vec![None],
            },
        ];
        let mut notes = Vec::new();
        check(&entries, &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
    }
}
