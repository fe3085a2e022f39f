//! The gateway proxy of an Istio Gateway: the workload its `selector` picks, that workload's
//! Service, and the namespace it runs in.
//!
//! Istio reads a Gateway's `credentialName` Secrets from the proxy's namespace
//! (istio/istio pilot/pkg/model/credentials/resource.go, `ParseResourceName`: a plain name is
//! looked up in the proxy's namespace) and judges `exportTo` against it (item 5). Offline, the
//! namespace comes from, in order: `istioGatewayNamespace` when configured; the namespace of
//! the Deployments/StatefulSets/DaemonSets in the repository whose pods the selector picks;
//! the namespace of the Services selecting those pods; else `istio-system`, the namespace of
//! Istio's default ingress gateway. Every translation says which evidence it used.

use std::collections::{BTreeMap, HashMap};

use crate::config::{Config, DEFAULT_ISTIO_GATEWAY_NAMESPACE};
use crate::index::Index;
use crate::model::SourceObject;
use crate::model::k8s::Service;
use crate::model::surrounding::Surrounding;

/// Where the proxy namespace came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Evidence {
    Configured,
    /// `Kind ns/name` of the workloads found.
    Workloads(Vec<String>),
    /// `ns/name` of the Services found.
    Services(Vec<String>),
    Default,
}

#[derive(Debug, Clone)]
pub(crate) struct Proxy {
    pub namespace: String,
    pub evidence: Evidence,
    /// Index positions of the workloads whose pods the selector picks.
    pub workloads: Vec<usize>,
    /// Index positions of the Services in front of them.
    pub services: Vec<usize>,
}

impl Proxy {
    /// "namespace X (evidence)", for notes.
    pub(crate) fn describe(&self) -> String {
        let why = match &self.evidence {
            Evidence::Configured => "istioGatewayNamespace".to_string(),
            Evidence::Workloads(w) => format!(
                "where the selected gateway workload runs: {}",
                crate::diagnostic::list_some(w, 3)
            ),
            Evidence::Services(s) => format!(
                "where the gateway's Service is: {}",
                crate::diagnostic::list_some(s, 3)
            ),
            Evidence::Default => "Istio's default, no gateway workload matching the selector is in the repository; set istioGatewayNamespace if it runs elsewhere".to_string(),
        };
        format!("namespace {} ({why})", self.namespace)
    }

    /// The Services in front of the proxy, from the index.
    pub(crate) fn service_objects<'a>(
        &self,
        index: &'a Index,
    ) -> impl Iterator<Item = (&'a SourceObject, &'a Service)> {
        self.services.iter().filter_map(|&i| {
            let o = index.objects.get(i)?;
            match &o.body {
                crate::model::SourceBody::Service(s) => Some((o, &**s)),
                _ => None,
            }
        })
    }
}

/// An Istio gateway Service: a LoadBalancer, or ports in the shape of Istio's gateway charts
/// (the `status-port` 15021, or target ports 8080/8443 the gateway container listens on:
/// istio/istio manifests/charts/gateway/values.yaml, manifests/charts/gateways/istio-ingress).
fn looks_like_gateway_service(s: &Service) -> bool {
    let Some(spec) = &s.spec else {
        return false;
    };
    if spec.type_.as_deref() == Some("LoadBalancer") {
        return true;
    }
    spec.ports.iter().flatten().any(|p| {
        p.port == 15021
            || p.name.as_deref() == Some("status-port")
            || matches!(
                p.target_port,
                Some(k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(8080 | 8443))
            )
    })
}

fn contains_all(labels: &BTreeMap<String, String>, selector: &BTreeMap<String, String>) -> bool {
    selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// The proxy of a Gateway with `selector`, for a single lookup. Many lookups go through one
/// [`ProxyFinder`].
pub(crate) fn of_selector(
    index: &Index,
    config: &Config,
    selector: &BTreeMap<String, String>,
) -> Proxy {
    ProxyFinder::new(index, config).of_selector(selector)
}

type Labels = BTreeMap<String, String>;

/// Answers "which proxy does this selector pick" for many Gateways. A repository may hold
/// thousands of Gateways and tens of thousands of workloads but usually a handful of distinct
/// selectors: the candidate workloads and Services are gathered once, on the first lookup, and
/// each distinct selector is answered once.
pub(crate) struct ProxyFinder<'a> {
    index: &'a Index,
    config: &'a Config,
    /// Workloads and selecting Services (kustomize patches left out), gathered on first use.
    candidates: Option<Candidates<'a>>,
    answered: HashMap<Labels, Proxy>,
}

#[derive(Default)]
struct Candidates<'a> {
    /// Position, namespace and pod labels of each workload.
    workloads: Vec<(usize, &'a str, &'a Labels)>,
    /// Position, namespace, Service and its non-empty selector.
    services: Vec<(usize, &'a str, &'a Service, &'a Labels)>,
}

impl<'a> ProxyFinder<'a> {
    pub(crate) fn new(index: &'a Index, config: &'a Config) -> Self {
        ProxyFinder {
            index,
            config,
            candidates: None,
            answered: HashMap::new(),
        }
    }

    pub(crate) fn of_selector(&mut self, selector: &Labels) -> Proxy {
        if let Some(known) = self.answered.get(selector) {
            return known.clone();
        }
        let index = self.index;
        // An empty selector picks nothing: no need to gather the candidates.
        let proxy = if selector.is_empty() {
            find(index, self.config, &Candidates::default(), selector)
        } else {
            let candidates = self
                .candidates
                .get_or_insert_with(|| Candidates::gather(index));
            find(index, self.config, candidates, selector)
        };
        self.answered.insert(selector.clone(), proxy.clone());
        proxy
    }
}

impl<'a> Candidates<'a> {
    fn gather(index: &'a Index) -> Self {
        let workloads = index
            .workloads()
            .filter_map(|(i, o, surrounding)| match surrounding {
                Surrounding::Workload { pod_labels } => Some((i, o.namespace.as_str(), pod_labels)),
                _ => None,
            })
            .collect();
        let services = index
            .objects
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let crate::model::SourceBody::Service(s) = &o.body else {
                    return None;
                };
                let selector = s.spec.as_ref()?.selector.as_ref()?;
                (!selector.is_empty() && !index.is_patch_file(&o.source.file)).then_some((
                    i,
                    o.namespace.as_str(),
                    &**s,
                    selector,
                ))
            })
            .collect();
        Candidates {
            workloads,
            services,
        }
    }
}

fn find(index: &Index, config: &Config, candidates: &Candidates<'_>, selector: &Labels) -> Proxy {
    let mut workloads = Vec::new();
    let mut pod_labels: Vec<(&str, &Labels)> = Vec::new();
    if !selector.is_empty() {
        for &(i, namespace, labels) in &candidates.workloads {
            if contains_all(labels, selector) {
                workloads.push(i);
                pod_labels.push((namespace, labels));
            }
        }
    }
    // A Service is the gateway's when it selects the workload's pods, or (no workload in the
    // repository, e.g. installed by a Helm release) when its selector and the Gateway's agree.
    let mut services = Vec::new();
    if !selector.is_empty() {
        for &(i, namespace, s, svc_selector) in &candidates.services {
            let picks = if pod_labels.is_empty() {
                // Without the workload, a selector that agrees is not enough (an application's
                // Service may use `app: gateway` too): it must also look like a gateway's.
                (contains_all(svc_selector, selector) || contains_all(selector, svc_selector))
                    && looks_like_gateway_service(s)
            } else {
                pod_labels
                    .iter()
                    .any(|(ns, l)| *ns == namespace && contains_all(l, svc_selector))
            };
            if picks {
                services.push(i);
            }
        }
    }
    let names = |ids: &[usize], with_kind: bool| -> Vec<String> {
        ids.iter()
            .filter_map(|&i| index.objects.get(i))
            .map(|o| {
                if with_kind {
                    format!("{} {}/{}", o.kind, o.namespace, o.name())
                } else {
                    format!("{}/{}", o.namespace, o.name())
                }
            })
            .collect()
    };
    let namespace_of = |ids: &[usize]| -> Option<String> {
        let mut namespaces: Vec<&str> = ids
            .iter()
            .filter_map(|&i| index.objects.get(i))
            .map(|o| o.namespace.as_str())
            .collect();
        namespaces.sort_unstable();
        namespaces.dedup();
        // Several proxies in several namespaces: prefer the default's, else the first.
        if namespaces.contains(&DEFAULT_ISTIO_GATEWAY_NAMESPACE) {
            return Some(DEFAULT_ISTIO_GATEWAY_NAMESPACE.to_string());
        }
        namespaces.first().map(|s| s.to_string())
    };
    let (namespace, evidence) = if let Some(ns) = &config.istio_gateway_namespace {
        (ns.clone(), Evidence::Configured)
    } else if let Some(ns) = namespace_of(&workloads) {
        (ns, Evidence::Workloads(names(&workloads, true)))
    } else if let Some(ns) = namespace_of(&services) {
        (ns, Evidence::Services(names(&services, false)))
    } else {
        (
            DEFAULT_ISTIO_GATEWAY_NAMESPACE.to_string(),
            Evidence::Default,
        )
    };
    Proxy {
        namespace,
        evidence,
        workloads,
        services,
    }
}
