//! Listener compatibility inside one Gateway, as Envoy Gateway computes it (it does not
//! collapse listeners across Gateways): listeners on one port must use compatible protocols
//! (`ProtocolConflict`), and compatible listeners on one port must differ in hostname
//! (`HostnameConflict`). Conflicted listeners are not programmed.

use serde_json::Value;

use crate::diagnostic::Code;

/// Two listeners of one Gateway that cannot coexist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// `ProtocolConflict` or `HostnameConflict`.
    pub reason: &'static str,
    pub port: i64,
    /// `(index, name, protocol, hostname)` of both listeners, in listener order.
    pub first: (usize, String, String, Option<String>),
    pub second: (usize, String, String, Option<String>),
}

impl Conflict {
    pub(crate) fn code(&self) -> Code {
        match self.reason {
            "ProtocolConflict" => Code::ValidateListenerProtocolConflict,
            _ => Code::ValidateListenerHostnameConflict,
        }
    }

    pub(crate) fn reason(&self) -> &'static str {
        self.reason
    }

    pub(crate) fn path(&self) -> String {
        format!("spec.listeners[{}]", self.second.0)
    }

    pub(crate) fn message(&self) -> String {
        let show = |l: &(usize, String, String, Option<String>)| {
            format!(
                "`{}` ({} {})",
                l.1,
                l.2,
                l.3.as_deref().unwrap_or("no hostname")
            )
        };
        let why = match self.reason {
            "ProtocolConflict" => "incompatible protocols on one port",
            _ => "same port, protocol family and hostname",
        };
        format!(
            "listeners {} and {} conflict on port {} ({}: {why}); neither would be programmed",
            show(&self.first),
            show(&self.second),
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

/// The conflicts among `gateway`'s listeners, each pair once.
pub(crate) fn conflicts(gateway: &Value) -> Vec<Conflict> {
    let listeners: Vec<(usize, String, String, Option<String>, i64)> = gateway
        .pointer("/spec/listeners")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, l)| {
            (
                i,
                l.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                l.get("protocol")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                l.get("hostname")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                l.get("port").and_then(Value::as_i64).unwrap_or_default(),
            )
        })
        .collect();
    let mut out = Vec::new();
    for (a_pos, a) in listeners.iter().enumerate() {
        for b in &listeners[a_pos + 1..] {
            if a.4 != b.4 {
                continue;
            }
            let (fa, fb) = (family(&a.2), family(&b.2));
            let udp_vs_tcp = (fa == "UDP") != (fb == "UDP");
            let reason = if udp_vs_tcp {
                continue;
            } else if fa != fb {
                "ProtocolConflict"
            } else if a.3 == b.3 {
                "HostnameConflict"
            } else {
                continue;
            };
            out.push(Conflict {
                reason,
                port: a.4,
                first: (a.0, a.1.clone(), a.2.clone(), a.3.clone()),
                second: (b.0, b.1.clone(), b.2.clone(), b.3.clone()),
            });
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
        assert!(conflicts(&g).is_empty());
    }

    #[test]
    fn spec_example_3_and_4_conflict_with_both_names() {
        let g = gw(json!([
            {"name": "a", "protocol": "HTTP", "port": 80, "hostname": "whales.envoygateway.io"},
            {"name": "b", "protocol": "HTTP", "port": 80, "hostname": "whales.envoygateway.io"},
            {"name": "c", "protocol": "HTTP", "port": 81},
            {"name": "d", "protocol": "HTTP", "port": 81}
        ]));
        let c = conflicts(&g);
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
        let c = conflicts(&g);
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(
            c.iter()
                .all(|c| c.reason == "ProtocolConflict" && c.first.1 == "web")
        );
    }

    #[test]
    fn https_and_tls_with_one_hostname_conflict() {
        let g = gw(json!([
            {"name": "secure", "protocol": "HTTPS", "port": 443, "hostname": "a.example.com"},
            {"name": "tls", "protocol": "TLS", "port": 443, "hostname": "a.example.com"}
        ]));
        assert_eq!(conflicts(&g)[0].reason, "HostnameConflict");
    }
}
