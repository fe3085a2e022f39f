//! Istio evaluates `http[]` entries in order (first match wins); Gateway API picks the most
//! specific match (Exact > longest PathPrefix > method > most headers > most query params,
//! then rule order). This finds every pair of entries whose winner changes.

use regex::Regex;

use super::RouteKey;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpHeaderMatch, HttpRouteMatch, ParentReference};

/// The matches of one Istio entry (`None` = matches everything), with its field path.
pub(crate) struct Entry<'a> {
    pub path: &'a str,
    /// The route the matches went to: entries in routes that can never serve the same
    /// request (different authority, port or scheme) are not compared.
    pub key: &'a RouteKey,
    /// The parents of that route.
    pub parents: &'a [ParentReference],
    pub matches: Vec<Option<&'a HttpRouteMatch>>,
}

/// Whether two routes can receive the same request: a common listener (same parent, and
/// the same section or port unless one of them binds the whole parent) and compatible
/// authorities.
fn routes_overlap(a: &Entry, b: &Entry) -> bool {
    if a.key.authority.is_some() && b.key.authority.is_some() && a.key.authority != b.key.authority
    {
        return false;
    }
    fn loose<T: PartialEq>(x: &Option<T>, y: &Option<T>) -> bool {
        x.is_none() || y.is_none() || x == y
    }
    a.parents.iter().any(|p| {
        b.parents.iter().any(|q| {
            p.group == q.group
                && p.kind == q.kind
                && p.name == q.name
                && p.namespace == q.namespace
                && loose(&p.section_name, &q.section_name)
                && loose(&p.port, &q.port)
        })
    })
}

/// Gateway API rank of a match under Istio's implementation (larger wins): the behaviour
/// model's precedence, for the match as generated (`None`: the CRD's default `PathPrefix /`).
fn rank(m: Option<&HttpRouteMatch>) -> (u8, usize, bool, usize, usize, usize) {
    use crate::semantics::gateway_api::precedence::{MatchShape, key};
    use crate::semantics::gateway_api::{PathKind, Profile};
    let (path_kind, path) = match m.and_then(|m| m.path.as_ref()) {
        Some(p) if p.type_ == "Exact" => (PathKind::Exact, p.value.clone()),
        Some(p) if p.type_ == "PathPrefix" => (PathKind::Prefix, p.value.clone()),
        Some(p) => (PathKind::Regex, p.value.clone()),
        None => (PathKind::Prefix, "/".to_string()),
    };
    let shape = MatchShape {
        path_kind,
        path,
        method: m.is_some_and(|m| m.method.is_some()),
        headers: m.map_or(0, |m| m.headers.len()),
        query: m.map_or(0, |m| m.query_params.len()),
    };
    key(&shape, Profile::Istio)
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
        // A regex matches only paths starting with its literal prefix: a prefix that neither
        // extends nor is extended by it cannot overlap (`/v[0-9]/.*` against `/strip`). A
        // case-insensitive regex has no usable literal prefix.
        ("RegularExpression", "PathPrefix") => regex_may_reach(&pa.value, &pb.value),
        ("PathPrefix", "RegularExpression") => regex_may_reach(&pb.value, &pa.value),
        _ => true,
    }
}

/// Whether a whole-path regex may match a path under `prefix`.
fn regex_may_reach(regex: &str, prefix: &str) -> bool {
    // `(?i)` alone compares the literal prefix without case; other flags are not read.
    if let Some(folded) = regex.strip_prefix("(?i)") {
        let literal = crate::pattern::literal_prefix(folded).to_lowercase();
        let prefix = prefix.to_lowercase();
        return literal.starts_with(&prefix) || prefix.starts_with(&literal);
    }
    if regex.starts_with("(?") {
        return true;
    }
    let literal = crate::pattern::literal_prefix(regex);
    literal.starts_with(prefix) || prefix.starts_with(&literal)
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

/// Whether two matches may take the same request (`true` when unsure).
pub(super) fn may_overlap(a: Option<&HttpRouteMatch>, b: Option<&HttpRouteMatch>) -> bool {
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
pub(crate) fn check(entries: &[Entry], notes: &mut Vec<Diagnostic>) {
    for (i, a) in entries.iter().enumerate() {
        for b in &entries[i + 1..] {
            // Entries of one route are kept in Istio's order by carrying conditions
            // (`order::carry`, which reports what it cannot carry).
            if a.path == b.path || a.key == b.key || !routes_overlap(a, b) {
                continue;
            }
            // A route with an authority hostname beats the VirtualService's other hosts
            // before matches are compared (Gateway API hostname precedence).
            let by_hostname = a.key.authority.is_some() != b.key.authority.is_some();
            if by_hostname && a.key.authority.is_some() {
                continue;
            }
            let hit = a.matches.iter().find_map(|ma| {
                b.matches
                    .iter()
                    .find(|mb| may_overlap(*ma, **mb) && (by_hostname || rank(**mb) > rank(*ma)))
                    .map(|mb| (*ma, *mb))
            });
            if let Some((ma, mb)) = hit {
                notes.push(
                    Diagnostic::new(
                        Code::IstioPrecedenceChanged,
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

    // Entries of one route are carried (`order::carry`); across routes, an authority route
    // wins by hostname whatever the paths.
    #[test]
    fn exact_after_prefix_in_an_authority_route_is_reported() {
        let a = path("PathPrefix", "/api");
        let b = path("Exact", "/api/health");
        let key = RouteKey::default();
        let authority = RouteKey {
            authority: Some("api.example.com".into()),
            ..Default::default()
        };
        let parents = [ParentReference {
            name: "gw".into(),
            ..Default::default()
        }];
        let entries = [
            Entry {
                path: "spec.http[0]",
                key: &key,
                parents: &parents,
                matches: vec![Some(&a)],
            },
            Entry {
                path: "spec.http[1]",
                key: &authority,
                parents: &parents,
                matches: vec![Some(&b)],
            },
        ];
        let mut notes = Vec::new();
        check(&entries, &mut notes);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].location.field.as_deref(), Some("spec.http[1]"));
    }

    // A regex reaches only paths that start with its literal prefix.
    #[test]
    fn a_regex_and_a_prefix_outside_it_do_not_overlap() {
        let re = Some(path("RegularExpression", "/v[0-9]/.*"));
        assert!(!paths_overlap(
            re.as_ref(),
            Some(&path("PathPrefix", "/strip"))
        ));
        assert!(paths_overlap(re.as_ref(), Some(&path("PathPrefix", "/v1"))));
        assert!(paths_overlap(re.as_ref(), Some(&path("PathPrefix", "/"))));
        let folded = Some(path("RegularExpression", "(?i)^/old\\-docs.*"));
        assert!(!paths_overlap(
            folded.as_ref(),
            Some(&path("PathPrefix", "/Legacy"))
        ));
        assert!(paths_overlap(
            folded.as_ref(),
            Some(&path("PathPrefix", "/OLD-docs/x"))
        ));
    }

    #[test]
    fn specific_first_is_fine() {
        let a = path("Exact", "/api/health");
        let b = path("PathPrefix", "/api");
        let c = path("PathPrefix", "/other");
        let key = RouteKey::default();
        let parents = [ParentReference {
            name: "gw".into(),
            ..Default::default()
        }];
        let entries = [
            Entry {
                path: "a",
                key: &key,
                parents: &parents,
                matches: vec![Some(&a)],
            },
            Entry {
                path: "b",
                key: &key,
                parents: &parents,
                matches: vec![Some(&b)],
            },
            Entry {
                path: "c",
                key: &key,
                parents: &parents,
                matches: vec![Some(&c)],
            },
            Entry {
                path: "d",
                key: &key,
                parents: &parents,
                matches: vec![None],
            },
        ];
        let mut notes = Vec::new();
        check(&entries, &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn routes_on_different_listeners_are_not_compared() {
        let a = path("PathPrefix", "/api");
        let b = path("Exact", "/api/health");
        let (ka, kb) = (RouteKey::default(), RouteKey::default());
        let pa = [ParentReference {
            name: "gw".into(),
            section_name: Some("http".into()),
            ..Default::default()
        }];
        let pb = [ParentReference {
            name: "gw".into(),
            section_name: Some("https".into()),
            ..Default::default()
        }];
        let entries = [
            Entry {
                path: "spec.http[0]",
                key: &ka,
                parents: &pa,
                matches: vec![Some(&a)],
            },
            Entry {
                path: "spec.http[1]",
                key: &kb,
                parents: &pb,
                matches: vec![Some(&b)],
            },
        ];
        let mut notes = Vec::new();
        check(&entries, &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
    }
}
