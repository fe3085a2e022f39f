//! migrate mode with more hosts than one Gateway can hold: the class's hosts are split over
//! several Gateways of at most 64 listeners, and every route's parentRef names the Gateway
//! and listener that hold its host.

use std::collections::BTreeMap;

use gateway_migrate::config::Config;
use gateway_migrate::gwapi::Generated;
use gateway_migrate::{pipeline, validate};

fn ingresses(hosts: usize) -> String {
    let mut out = String::new();
    for i in 0..hosts {
        out.push_str(&format!(
            "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: app{i}\n  namespace: apps\nspec:\n  ingressClassName: nginx\n  tls:\n  - hosts: [app{i}.example.com]\n    secretName: app{i}-tls\n  rules:\n  - host: app{i}.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: app{i}\n            port:\n              number: 80\n"
        ));
    }
    out
}

#[test]
fn a_class_with_more_hosts_than_one_gateway_holds_is_split() {
    // 40 hosts with TLS: 80 listeners (HTTP + HTTPS each), over the limit of 64.
    let config = Config::default();
    let request = pipeline::Request::new(
        pipeline::Input::Streams(vec![("in.yaml".into(), ingresses(40).into_bytes())]),
        config.clone(),
    );
    let outcome = pipeline::run(request).unwrap();
    let generated: Vec<&Generated> = outcome
        .results
        .iter()
        .flat_map(|r| r.generated.iter())
        .collect();

    // Gateway name → listener name → hostname.
    let mut gateways: BTreeMap<String, BTreeMap<String, Option<String>>> = BTreeMap::new();
    for g in &generated {
        if let Generated::Gateway(gw) = g {
            assert!(
                gw.spec.listeners.len() <= 64,
                "{} has {} listeners",
                gw.metadata.name,
                gw.spec.listeners.len()
            );
            gateways.insert(
                gw.metadata.name.clone(),
                gw.spec
                    .listeners
                    .iter()
                    .map(|l| (l.name.clone(), l.hostname.clone()))
                    .collect(),
            );
        }
        assert!(
            validate::validate_object(&g.to_json(), config.channel).is_empty(),
            "{} {} invalid",
            g.kind(),
            g.name()
        );
    }
    assert_eq!(
        gateways.keys().cloned().collect::<Vec<_>>(),
        vec!["nginx", "nginx-2"]
    );
    assert_eq!(gateways.values().map(BTreeMap::len).sum::<usize>(), 80);
    // A host's HTTP and HTTPS listeners share a Gateway.
    for listeners in gateways.values() {
        for host in listeners.values().flatten() {
            assert_eq!(
                listeners
                    .values()
                    .filter(|h| h.as_deref() == Some(host))
                    .count(),
                2,
                "{host}"
            );
        }
    }
    // Every route binds to a listener that exists on the Gateway it names, for its own host.
    let mut routes = 0;
    for g in &generated {
        if let Generated::HttpRoute(r) = g {
            routes += 1;
            for p in &r.spec.parent_refs {
                let listeners = &gateways[&p.name];
                let section = p.section_name.as_deref().expect("sectionName");
                let host = listeners
                    .get(section)
                    .unwrap_or_else(|| panic!("{} has no listener {section}", p.name));
                assert_eq!(
                    host.as_deref(),
                    r.spec.hostnames.first().map(String::as_str)
                );
            }
        }
    }
    assert!(routes >= 40, "{routes} routes");
    let split_note = outcome
        .diagnostics
        .iter()
        .find(|n| n.code.id() == "ingress/listener-limit")
        .expect("the split is reported");
    assert!(
        split_note.message.contains("nginx-2"),
        "{}",
        split_note.message
    );
}
