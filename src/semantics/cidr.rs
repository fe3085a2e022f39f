//! Client address ranges as the data planes read them, in one canonical form so the models'
//! access checks compare: each entry is a network (`10.0.0.0/8`, host bits cleared, as Go's
//! `net.ParseCIDR` and nginx's `allow` keep it) or a host (`192.168.0.1/32`), sorted, without
//! duplicates.
//!
//! ingress-nginx (`internal/net/ipnet.go` `ParseIPNets`) takes each comma-separated entry
//! trimmed, as a CIDR or else as a bare address; Envoy Gateway's `clientCIDRs` and Istio's
//! `remoteIpBlocks` take CIDRs (Istio also bare addresses). A bare address is the host's
//! `/32` (`/128`) everywhere.

use std::net::IpAddr;

/// One network: its address with the host bits cleared, and the prefix length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cidr {
    pub network: IpAddr,
    pub bits: u8,
}

impl Cidr {
    /// `10.0.0.1/8` (host bits dropped), `192.168.0.1` (a host), `2001:db8::/32`; `None` for
    /// anything else.
    pub fn parse(entry: &str) -> Option<Cidr> {
        let entry = entry.trim();
        let (addr, bits) = match entry.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (entry, None),
        };
        let addr: IpAddr = addr.parse().ok()?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            Some(b) if !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()) => b.parse().ok()?,
            Some(_) => return None,
            None => max,
        };
        if bits > max {
            return None;
        }
        // Go's `net` gives an IPv4-mapped IPv6 address as IPv4 (`::ffff:10.0.0.0/104` is
        // `10.0.0.0/8`), and nginx's rules are written from that.
        if let IpAddr::V6(v6) = addr
            && let Some(v4) = v6.to_ipv4_mapped()
            && bits >= 96
        {
            let bits = bits - 96;
            return Some(Cidr {
                network: masked(IpAddr::V4(v4), bits),
                bits,
            });
        }
        Some(Cidr {
            network: masked(addr, bits),
            bits,
        })
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        ip.is_ipv4() == self.network.is_ipv4() && masked(ip, self.bits) == self.network
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.network, self.bits)
    }
}

fn masked(ip: IpAddr, bits: u8) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let mask = if bits == 0 {
                0
            } else {
                u32::MAX << (32 - u32::from(bits))
            };
            IpAddr::V4((u32::from(v4) & mask).into())
        }
        IpAddr::V6(v6) => {
            let mask = if bits == 0 {
                0
            } else {
                u128::MAX << (128 - u32::from(bits))
            };
            IpAddr::V6((u128::from(v6) & mask).into())
        }
    }
}

/// The entries of a comma-separated list that parse, canonical, sorted and deduplicated.
pub fn parse_list<'a>(entries: impl IntoIterator<Item = &'a str>) -> Vec<Cidr> {
    let mut out: Vec<Cidr> = entries
        .into_iter()
        .flat_map(|e| e.split(','))
        .filter_map(Cidr::parse)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The canonical text of a list: `10.0.0.0/8, 192.168.0.1/32`.
pub fn text(list: &[Cidr]) -> String {
    list.iter()
        .map(Cidr::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `ip` is in one of the comma-separated entries of `list`.
pub fn in_any(list: &str, ip: IpAddr) -> bool {
    parse_list([list]).iter().any(|c| c.contains(ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    // Go's `net.ParseCIDR("10.0.0.1/8")` gives the network 10.0.0.0/8; `ParseIPNets` keeps
    // a bare address as a host (ingress-nginx internal/net/ipnet_test.go cases).
    #[test]
    fn entries_are_canonical() {
        assert_eq!(
            text(&parse_list([" 192.168.0.1 ,10.0.0.1/8, 10.0.0.0/8"])),
            "10.0.0.0/8, 192.168.0.1/32"
        );
        assert_eq!(text(&parse_list(["2001:db8::1/32"])), "2001:db8::/32");
        assert_eq!(text(&parse_list(["::1"])), "::1/128");
        assert_eq!(text(&parse_list(["::ffff:10.0.0.1/104"])), "10.0.0.0/8");
        assert!(Cidr::parse("10.0.0.0/33").is_none());
        assert!(Cidr::parse("10.0.0.0/").is_none());
        assert!(Cidr::parse("10.0.0.0/+8").is_none());
        assert!(Cidr::parse("not-an-ip").is_none());
    }

    #[test]
    fn membership() {
        assert!(in_any("10.0.0.0/8, 192.168.0.1", ip("10.2.3.4")));
        assert!(in_any("10.0.0.0/8, 192.168.0.1", ip("192.168.0.1")));
        assert!(!in_any("10.0.0.0/8, 192.168.0.1", ip("192.168.0.2")));
        assert!(!in_any("10.0.0.0/8", ip("11.0.0.1")));
        assert!(in_any("0.0.0.0/0", ip("1.2.3.4")));
        assert!(!in_any("0.0.0.0/0", ip("::1")));
        assert!(in_any("::/0", ip("::1")));
        assert!(!in_any("not-an-ip", ip("1.2.3.4")));
    }
}
