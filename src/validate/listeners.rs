//! Listener compatibility inside one Gateway, as Envoy Gateway computes it
//! (`internal/gatewayapi/listener.go` ProcessListeners, phase 2; it does not collapse
//! listeners across Gateways unless Gateways are merged). Only listeners whose own
//! specification is valid take part (`isSpecValidForConflictChecks`), in this order:
//! 1. on one port, listeners of incompatible protocols all conflict (`ProtocolConflict`;
//!    HTTPS and TLS are one protocol, UDP shares a port with anything);
//! 2. HTTP, HTTPS and TLS listeners of one port with the same hostname (absent and empty are
//!    the same) all conflict (`HostnameConflict`), unless already protocol-conflicted;
//! 3. of several TCP (then UDP) listeners on one port the first wins and the others conflict
//!    (`ProtocolConflict`).
//!
//! Conflicted listeners are not programmed.

use std::collections::BTreeMap;

use serde_json::Value;

/// `(index, name, protocol, hostname)` of a listener.
pub(crate) type Entry = (usize, String, String, Option<String>);

/// Listeners of one Gateway that cannot coexist on a port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// `ProtocolConflict` or `HostnameConflict`.
    pub reason: &'static str,
    pub port: i64,
    /// The conflicted listeners, in listener order.
    pub conflicted: Vec<Entry>,
    /// The listener that keeps the port (one TCP or UDP listener per port), when one does.
    pub winner: Option<Entry>,
}

impl Conflict {
    pub(crate) fn reason(&self) -> &'static str {
        self.reason
    }

    pub(crate) fn message(&self) -> String {
        let show = |l: &Entry| {
            format!(
                "`{}` ({} {})",
                l.1,
                l.2,
                l.3.as_deref().unwrap_or("no hostname")
            )
        };
        let names: Vec<String> = self.conflicted.iter().map(show).collect();
        if let Some(winner) = &self.winner {
            return format!(
                "listener {} conflicts with {} on port {} ({}: one {} listener per port, the first wins); it would not be programmed",
                names.join(", "),
                show(winner),
                self.port,
                self.reason,
                winner.2
            );
        }
        let why = match self.reason {
            "ProtocolConflict" => "incompatible protocols on one port",
            _ => "same port, protocol family and hostname",
        };
        format!(
            "listeners {} conflict on port {} ({}: {why}); none of them would be programmed",
            names.join(", "),
            self.port,
            self.reason
        )
    }
}

/// Envoy Gateway's protocol families: HTTPS and TLS share one (both are TLS on the wire);
/// UDP does not share a socket with the TCP-based ones, so it never conflicts with them.
fn family(protocol: &str) -> &str {
    match protocol {
        "HTTPS" | "TLS" => "HTTPS/TLS",
        other => other,
    }
}

type Listener = (usize, String, String, Option<String>, i64);

/// The conflicts among `gateway`'s listeners whose specification is valid (`spec_valid[i]`;
/// a listener past its end counts as valid).
pub(crate) fn conflicts(gateway: &Value, spec_valid: &[bool]) -> Vec<Conflict> {
    let listeners: Vec<Listener> = gateway
        .pointer("/spec/listeners")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(i, _)| spec_valid.get(*i).copied().unwrap_or(true))
        .map(|(i, l)| {
            let text = |k: &str| l.get(k).and_then(Value::as_str).map(str::to_string);
            (
                i,
                text("name").unwrap_or_default(),
                text("protocol").unwrap_or_default(),
                text("hostname").filter(|h| !h.is_empty()),
                l.get("port").and_then(Value::as_i64).unwrap_or_default(),
            )
        })
        .collect();
    let entry = |l: &Listener| (l.0, l.1.clone(), l.2.clone(), l.3.clone());
    let all_of = |listeners: &[&Listener], reason: &'static str| Conflict {
        reason,
        port: listeners.first().map_or(0, |l| l.4),
        conflicted: listeners.iter().map(|l| entry(l)).collect(),
        winner: None,
    };
    let mut out = Vec::new();
    let mut by_port: BTreeMap<i64, Vec<&Listener>> = BTreeMap::new();
    for l in &listeners {
        by_port.entry(l.4).or_default().push(l);
    }
    // 1. Incompatible protocols on one port.
    let mut protocol_conflicted = Vec::new();
    for group in by_port.values() {
        let tcp_based: Vec<&Listener> = group.iter().copied().filter(|l| l.2 != "UDP").collect();
        let mut families: Vec<&str> = tcp_based.iter().map(|l| family(&l.2)).collect();
        families.sort_unstable();
        families.dedup();
        if families.len() > 1 {
            out.push(all_of(&tcp_based, "ProtocolConflict"));
            protocol_conflicted.extend(tcp_based.iter().map(|l| l.0));
        }
    }
    // 2. One hostname twice on a port (HTTP, HTTPS, TLS).
    for group in by_port.values() {
        let mut by_host: BTreeMap<(&str, Option<&str>), Vec<&Listener>> = BTreeMap::new();
        for l in group.iter().copied().filter(|l| {
            matches!(l.2.as_str(), "HTTP" | "HTTPS" | "TLS") && !protocol_conflicted.contains(&l.0)
        }) {
            by_host
                .entry((family(&l.2), l.3.as_deref()))
                .or_default()
                .push(l);
        }
        for same in by_host.values().filter(|g| g.len() > 1) {
            out.push(all_of(same, "HostnameConflict"));
        }
    }
    // 3. One TCP (then one UDP) listener per port: the first wins.
    for protocol in ["TCP", "UDP"] {
        for group in by_port.values() {
            let same: Vec<&Listener> = group.iter().copied().filter(|l| l.2 == protocol).collect();
            if let Some((winner, losers)) = same.split_first().filter(|(_, l)| !l.is_empty()) {
                out.push(Conflict {
                    reason: "ProtocolConflict",
                    port: winner.4,
                    conflicted: losers.iter().map(|l| entry(l)).collect(),
                    winner: Some(entry(winner)),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn gw(listeners: Value) -> Value {
        json!({"spec": {"listeners": listeners}})
    }

    #[test]
    fn spec_example_1_and_2_are_compatible() {
        let g = gw(json!([
            {"name": "a", "protocol": "HTTP", "port": 80, "hostname": "*.envoygateway.io"},
            {"name": "b", "protocol": "HTTP", "port": 80, "hostname": "whales.envoygateway.io"},
            {"name": "c", "protocol": "HTTP", "port": 80}
        ]));
        assert!(conflicts(&g, &[]).is_empty());
    }

    #[test]
    fn spec_example_3_and_4_conflict_with_both_names() {
        let g = gw(json!([
            {"name": "a", "protocol": "HTTP", "port": 80, "hostname": "whales.envoygateway.io"},
            {"name": "b", "protocol": "HTTP", "port": 80, "hostname": "whales.envoygateway.io"},
            {"name": "c", "protocol": "HTTP", "port": 81},
            {"name": "d", "protocol": "HTTP", "port": 81}
        ]));
        let c = conflicts(&g, &[]);
        assert_eq!(c.len(), 2);
        assert!(c.iter().all(|c| c.reason == "HostnameConflict"));
        assert!(c[0].message().contains("`a`") && c[0].message().contains("`b`"));
        assert!(c[1].message().contains("`c`") && c[1].message().contains("`d`"));
    }

    #[test]
    fn incompatible_protocols_on_one_port_conflict() {
        let g = gw(json!([
            {"name": "web", "protocol": "HTTP", "port": 443},
            {"name": "secure", "protocol": "HTTPS", "port": 443, "hostname": "a.example.com"},
            {"name": "tls", "protocol": "TLS", "port": 443, "hostname": "b.example.com"},
            {"name": "dns", "protocol": "UDP", "port": 443}
        ]));
        let c = conflicts(&g, &[]);
        // Every TCP-based listener of the port is conflicted; UDP shares the port.
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].reason, "ProtocolConflict");
        let names: Vec<&str> = c[0].conflicted.iter().map(|l| l.1.as_str()).collect();
        assert_eq!(names, ["web", "secure", "tls"]);
        assert!(c[0].winner.is_none());
    }

    /// listener.go ProcessListeners: listeners whose own specification is invalid take
    /// no part in conflicts (isSpecValidForConflictChecks).
    #[test]
    fn listeners_invalid_on_their_own_do_not_conflict() {
        let g = gw(json!([
            {"name": "a", "protocol": "HTTP", "port": 80, "hostname": "a.example.com"},
            {"name": "b", "protocol": "HTTP", "port": 80, "hostname": "a.example.com"}
        ]));
        assert!(conflicts(&g, &[true, false]).is_empty());
        assert_eq!(conflicts(&g, &[true, true]).len(), 1);
    }

    /// validate.go validateConflictedLayer4Listeners: of several TCP (or UDP) listeners on
    /// one port the first keeps it.
    #[test]
    fn the_first_tcp_listener_of_a_port_wins() {
        let g = gw(json!([
            {"name": "tcp1", "protocol": "TCP", "port": 5432},
            {"name": "tcp2", "protocol": "TCP", "port": 5432},
            {"name": "udp1", "protocol": "UDP", "port": 5432},
            {"name": "udp2", "protocol": "UDP", "port": 5432}
        ]));
        let c = conflicts(&g, &[]);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].winner.as_ref().map(|w| w.1.as_str()), Some("tcp1"));
        assert_eq!(c[0].conflicted[0].1, "tcp2");
        assert_eq!(c[1].winner.as_ref().map(|w| w.1.as_str()), Some("udp1"));
        assert_eq!(c[1].conflicted[0].1, "udp2");
    }

    #[test]
    fn https_and_tls_with_one_hostname_conflict() {
        let g = gw(json!([
            {"name": "secure", "protocol": "HTTPS", "port": 443, "hostname": "a.example.com"},
            {"name": "tls", "protocol": "TLS", "port": 443, "hostname": "a.example.com"}
        ]));
        assert_eq!(conflicts(&g, &[])[0].reason, "HostnameConflict");
    }
}
