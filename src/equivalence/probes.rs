//! Probes: requests at the boundaries of every match on both sides.
//!
//! Each side adds its seeds (listeners, host patterns, paths, the headers, query parameters
//! and methods of each match); [`Seeds::probes`] turns them into requests: every path
//! exactly, with `/x` appended, with a suffix without a slash, without its trailing slash and
//! in upper case; each request shape with its headers, query parameters and method, and
//! without them; on every listener; on each host, one host under each wildcard and a host
//! nobody names. A difference anywhere shows at one of these points without enumerating
//! every request.

use std::collections::{BTreeMap, BTreeSet};

use super::matching::{host_matches, sample_host};
use super::{Probe, Scheme};

/// The host no configuration names.
pub(crate) const UNLISTED_HOST: &str = "gm-probe.invalid";

/// At most this many probes per entry point; beyond it every host gets an equal turn and the
/// probes left out are counted as not modelled.
pub(crate) const MAX_PROBES_PER_FRONTEND: usize = 20_000;

/// A request shape taken from one match: path, method, headers, query parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Shape {
    pub(crate) path: String,
    pub(crate) method: Option<String>,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) query: Vec<(String, String)>,
}

fn templated(pattern: &str) -> bool {
    crate::model::template::template_of(pattern).is_some()
}

#[derive(Debug, Default)]
struct HostSeeds {
    paths: BTreeSet<String>,
    shapes: BTreeSet<Shape>,
}

/// What both sides contribute for one entry point.
#[derive(Debug, Default)]
pub(crate) struct Seeds {
    listeners: BTreeSet<(Scheme, u32)>,
    hosts: BTreeMap<String, HostSeeds>,
}

impl Seeds {
    pub(crate) fn listener(&mut self, scheme: Scheme, port: u32) {
        self.listeners.insert((scheme, port));
    }

    /// A host pattern to probe. A templated host (`model::template`) is not: the cluster sees
    /// another name, which the repository does not give (its warning says so).
    pub(crate) fn host(&mut self, pattern: &str) {
        if templated(pattern) {
            return;
        }
        self.hosts.entry(pattern.to_ascii_lowercase()).or_default();
    }

    /// A literal path seed for the hosts of `pattern`.
    pub(crate) fn path(&mut self, pattern: &str, path: &str) {
        if path.starts_with('/') && !templated(pattern) {
            self.hosts
                .entry(pattern.to_ascii_lowercase())
                .or_default()
                .paths
                .insert(path.to_string());
        }
    }

    /// A request shape with conditions besides the path.
    pub(crate) fn shape(&mut self, pattern: &str, shape: Shape) {
        if shape.method.is_none() && shape.headers.is_empty() && shape.query.is_empty() {
            self.path(pattern, &shape.path);
            return;
        }
        if templated(pattern) {
            return;
        }
        let host = self.hosts.entry(pattern.to_ascii_lowercase()).or_default();
        host.paths.insert(shape.path.clone());
        host.shapes.insert(shape);
    }

    /// The probes, in a stable order, and what the budget left out.
    ///
    /// Besides each path's boundaries, every shape's conditions (method, headers, query) are
    /// also sent on the other paths of its host: a header-only rule listed before a rule with
    /// a longer path competes differently under Gateway API's precedence (path length first)
    /// than under first-match, and only such a probe shows it.
    ///
    /// At most [`MAX_PROBES_PER_FRONTEND`] are sent, shared fairly: hosts take turns, one
    /// probe each, so a host with many paths cannot crowd out the others.
    pub(crate) fn probes(&self) -> Selection {
        self.probes_within(MAX_PROBES_PER_FRONTEND)
    }

    fn probes_within(&self, budget: usize) -> Selection {
        let mut concrete: BTreeSet<String> = self.hosts.keys().map(|p| sample_host(p)).collect();
        // Under each wildcard also a host two labels deep: Gateway API's and Envoy's `*.`
        // cover any depth, ingress-nginx's rule hosts exactly one label.
        concrete.extend(
            self.hosts
                .keys()
                .filter_map(|p| p.strip_prefix("*."))
                .map(|suffix| format!("gm-probe.gm-deep.{suffix}")),
        );
        concrete.insert(UNLISTED_HOST.to_string());
        // Exact patterns are looked up; only wildcards are tried against every host.
        let wildcards: Vec<(&String, &HostSeeds)> = self
            .hosts
            .iter()
            .filter(|(p, _)| p.starts_with('*'))
            .collect();
        // Each host's probes are generated up to its share of the budget (with room for the
        // shares that small hosts leave), never all of them: a repository of thousands of hosts
        // with many paths would otherwise hold millions of probes to send twenty thousand.
        let share = (budget.saturating_mul(2) / concrete.len().max(1)).max(2);
        let mut cut = 0usize;
        let mut per_host: Vec<Vec<Probe>> = Vec::new();
        for host in &concrete {
            let mut out = BTreeSet::new();
            let mut paths: BTreeSet<String> =
                ["/".to_string(), "/gm-probe-unmatched".to_string()].into();
            let mut seed_paths: BTreeSet<String> = BTreeSet::new();
            let mut shapes = BTreeSet::new();
            let applicable = self.hosts.get(host).into_iter().chain(
                wildcards
                    .iter()
                    .filter(|(pattern, _)| host_matches(pattern, host))
                    .map(|(_, seeds)| *seeds),
            );
            for seeds in applicable {
                for p in &seeds.paths {
                    paths.extend(variants(p));
                    seed_paths.insert(p.clone());
                }
                shapes.extend(seeds.shapes.iter().cloned());
            }
            for &(scheme, port) in &self.listeners {
                for path in &paths {
                    out.insert(Probe::new(scheme, host, port, path));
                }
                for shape in &shapes {
                    let mut probe = Probe::new(scheme, host, port, &shape.path);
                    if let Some(m) = &shape.method {
                        probe.method = m.clone();
                    }
                    probe.headers = shape.headers.clone();
                    probe.query = shape.query.clone();
                    out.insert(probe.clone());
                    // Each condition missing once.
                    for i in 0..shape.headers.len() {
                        let mut p = probe.clone();
                        p.headers.remove(i);
                        out.insert(p);
                    }
                    for i in 0..shape.query.len() {
                        let mut p = probe.clone();
                        p.query.remove(i);
                        out.insert(p);
                    }
                    // The same conditions on the host's other paths.
                    for other in seed_paths.iter().filter(|p| **p != shape.path) {
                        let mut p = probe.clone();
                        p.path = other.clone();
                        out.insert(p);
                    }
                }
            }
            // Two shapes' conditions together, on each one's path: a request that two rules
            // with other conditions both match is decided by first match in one model and by
            // the count of conditions, or route age, in the other. Only for hosts with few
            // shapes: pairs grow with their square.
            if shapes.len() <= MAX_COMBINED_SHAPES {
                let shapes: Vec<&Shape> = shapes.iter().collect();
                for (i, a) in shapes.iter().enumerate() {
                    for b in &shapes[i + 1..] {
                        let Some(both) = combined(a, b) else {
                            continue;
                        };
                        for &(scheme, port) in &self.listeners {
                            for path in [&a.path, &b.path] {
                                let mut probe = Probe::new(scheme, host, port, path);
                                if let Some(m) = &both.method {
                                    probe.method = m.clone();
                                }
                                probe.headers = both.headers.clone();
                                probe.query = both.query.clone();
                                out.insert(probe);
                            }
                        }
                    }
                }
            }
            if out.len() > share {
                cut += out.len() - share;
                out = out.into_iter().take(share).collect();
            }
            per_host.push(out.into_iter().collect());
        }
        let total: usize = per_host.iter().map(Vec::len).sum();
        let hosts = per_host.iter().filter(|p| !p.is_empty()).count();
        if total <= budget {
            let mut all: Vec<Probe> = per_host.into_iter().flatten().collect();
            all.sort();
            return Selection {
                probes: all,
                left_out: cut,
                hosts,
                hosts_probed: hosts,
            };
        }
        // Round robin over the hosts until the budget is spent.
        let mut taken: Vec<Probe> = Vec::with_capacity(budget);
        let mut round = 0;
        while taken.len() < budget {
            let mut any = false;
            for probes in &per_host {
                if let Some(p) = probes.get(round) {
                    any = true;
                    if taken.len() < budget {
                        taken.push(p.clone());
                    }
                }
            }
            if !any {
                break;
            }
            round += 1;
        }
        taken.sort();
        let left_out = total - taken.len() + cut;
        let hosts_probed = taken
            .iter()
            .map(|p| p.host.as_str())
            .collect::<BTreeSet<_>>()
            .len();
        Selection {
            probes: taken,
            left_out,
            hosts,
            hosts_probed,
        }
    }
}

/// Hosts with more request shapes than this are not probed with pairs of them.
const MAX_COMBINED_SHAPES: usize = 24;

/// The conditions of two shapes at once, unless they contradict (two methods, two values of
/// one header or query parameter).
fn combined(a: &Shape, b: &Shape) -> Option<Shape> {
    if a.method.is_some() && b.method.is_some() && a.method != b.method {
        return None;
    }
    let merge = |x: &[(String, String)], y: &[(String, String)], fold: bool| {
        let mut out = x.to_vec();
        for (name, value) in y {
            let same = |n: &String| {
                if fold {
                    n.eq_ignore_ascii_case(name)
                } else {
                    n == name
                }
            };
            match out.iter().find(|(n, _)| same(n)) {
                Some((_, v)) if v != value => return None,
                Some(_) => {}
                None => out.push((name.clone(), value.clone())),
            }
        }
        Some(out)
    };
    let headers = merge(&a.headers, &b.headers, true)?;
    let query = merge(&a.query, &b.query, false)?;
    if headers == a.headers && query == a.query && b.method.is_none() {
        return None;
    }
    Some(Shape {
        path: a.path.clone(),
        method: a.method.clone().or_else(|| b.method.clone()),
        headers,
        query,
    })
}

/// The probes an entry point sends, and what its budget left out.
#[derive(Debug)]
pub(crate) struct Selection {
    pub probes: Vec<Probe>,
    /// Probes not sent (counted as not modelled).
    pub left_out: usize,
    /// Hosts with probes, and how many of them got at least one.
    pub hosts: usize,
    pub hosts_probed: usize,
}

/// The boundary variants of a path seed.
fn variants(path: &str) -> Vec<String> {
    let mut out = vec![path.to_string()];
    if let Some(stripped) = path.strip_suffix('/') {
        out.push(format!("{path}x"));
        if !stripped.is_empty() {
            out.push(stripped.to_string());
        }
    } else {
        out.push(format!("{path}/x"));
        out.push(format!("{path}x"));
        out.push(format!("{path}/"));
    }
    let upper = path.to_ascii_uppercase();
    if upper != path {
        out.push(upper);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_probed_at_their_boundaries() {
        assert_eq!(
            variants("/api"),
            ["/api", "/api/x", "/apix", "/api/", "/API"]
        );
        assert_eq!(variants("/foo/"), ["/foo/", "/foo/x", "/foo", "/FOO/"]);
    }

    #[test]
    fn wildcards_get_hosts_one_and_two_labels_under_them_and_an_unlisted_host_is_probed() {
        let mut seeds = Seeds::default();
        seeds.listener(Scheme::Http, 80);
        seeds.path("*.example.com", "/a");
        seeds.shape(
            "shop.example.com",
            Shape {
                path: "/h".into(),
                headers: vec![("x-v".into(), "2".into())],
                ..Default::default()
            },
        );
        let Selection {
            probes, left_out, ..
        } = seeds.probes();
        assert_eq!(left_out, 0);
        let hosts: BTreeSet<&str> = probes.iter().map(|p| p.host.as_str()).collect();
        assert_eq!(
            hosts,
            BTreeSet::from([
                "gm-probe.example.com",
                "gm-probe.gm-deep.example.com",
                UNLISTED_HOST,
                "shop.example.com"
            ])
        );
        // The wildcard's paths apply to the exact host under it too.
        assert!(
            probes
                .iter()
                .any(|p| p.host == "shop.example.com" && p.path == "/a")
        );
        // The shape is sent with and without its header.
        assert!(
            probes
                .iter()
                .any(|p| p.path == "/h" && p.headers.len() == 1)
        );
        assert!(
            probes
                .iter()
                .any(|p| p.path == "/h" && p.headers.is_empty())
        );
        assert!(
            !probes
                .iter()
                .any(|p| p.host == UNLISTED_HOST && p.path == "/a")
        );
        // The header is also sent on the host's other paths (here the wildcard's `/a`).
        assert!(
            probes
                .iter()
                .any(|p| p.host == "shop.example.com" && p.path == "/a" && p.headers.len() == 1)
        );
    }

    /// Over the budget, every host keeps a share and what is left out is counted.
    #[test]
    fn the_budget_is_shared_by_hosts_and_what_is_left_out_is_counted() {
        let mut seeds = Seeds::default();
        seeds.listener(Scheme::Http, 80);
        for i in 0..50 {
            seeds.path("big.example.com", &format!("/p{i}"));
        }
        seeds.path("small.example.com", "/only");
        let all = seeds.probes_within(usize::MAX / 4);
        assert_eq!(all.left_out, 0);
        let all = all.probes;
        let selection = seeds.probes_within(30);
        assert_eq!(selection.hosts, selection.hosts_probed);
        let (some, left_out) = (selection.probes, selection.left_out);
        // Within the budget (a host's share is generated, not all of its probes, so the small
        // hosts' unused shares may stay unused), and every probe not sent is counted.
        assert!(some.len() <= 30 && some.len() > 20, "{}", some.len());
        assert_eq!(left_out, all.len() - some.len());
        assert!(
            some.iter()
                .any(|p| p.host == "small.example.com" && p.path == "/only")
        );
        assert!(some.iter().any(|p| p.host == UNLISTED_HOST));
    }
}
