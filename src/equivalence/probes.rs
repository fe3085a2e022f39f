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

/// At most this many probes per entry point; beyond it the paths of the largest hosts are
/// sampled (their first seeds in order).
const MAX_PROBES_PER_FRONTEND: usize = 20_000;

/// A request shape taken from one match: path, method, headers, query parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Shape {
    pub(crate) path: String,
    pub(crate) method: Option<String>,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) query: Vec<(String, String)>,
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

    pub(crate) fn host(&mut self, pattern: &str) {
        self.hosts.entry(pattern.to_ascii_lowercase()).or_default();
    }

    /// A literal path seed for the hosts of `pattern`.
    pub(crate) fn path(&mut self, pattern: &str, path: &str) {
        if path.starts_with('/') {
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
        let host = self.hosts.entry(pattern.to_ascii_lowercase()).or_default();
        host.paths.insert(shape.path.clone());
        host.shapes.insert(shape);
    }

    /// The probes, in a stable order.
    pub(crate) fn probes(&self) -> Vec<Probe> {
        let mut concrete: BTreeSet<String> = self.hosts.keys().map(|p| sample_host(p)).collect();
        concrete.insert(UNLISTED_HOST.to_string());
        // Exact patterns are looked up; only wildcards are tried against every host.
        let wildcards: Vec<(&String, &HostSeeds)> = self
            .hosts
            .iter()
            .filter(|(p, _)| p.starts_with('*'))
            .collect();
        let mut out = BTreeSet::new();
        for host in &concrete {
            let mut paths: BTreeSet<String> =
                ["/".to_string(), "/gm-probe-unmatched".to_string()].into();
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
                }
                if out.len() > MAX_PROBES_PER_FRONTEND {
                    break;
                }
            }
        }
        out.into_iter().take(MAX_PROBES_PER_FRONTEND).collect()
    }
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
    fn wildcards_get_a_host_under_them_and_an_unlisted_host_is_probed() {
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
        let probes = seeds.probes();
        let hosts: BTreeSet<&str> = probes.iter().map(|p| p.host.as_str()).collect();
        assert_eq!(
            hosts,
            BTreeSet::from(["gm-probe.example.com", UNLISTED_HOST, "shop.example.com"])
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
    }
}
