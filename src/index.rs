//! The cross-file facts translation and validation need, built once after loading and then
//! shared read-only: objects by kind and `namespace/name`, Services and their ports, Namespace
//! labels, kustomizations (which file is a resource, which a patch, which namespace applies).

use std::collections::{BTreeMap, BTreeSet};

use crate::config::Config;
use crate::controllers::NginxController;
use crate::model::kustomize::Kustomization;
use crate::model::surrounding::Surrounding;
use crate::model::{SourceBody, SourceObject, istio, k8s};

/// `(namespace, name)`.
pub(crate) type Key = (String, String);

#[derive(Debug, Default)]
pub struct Index {
    /// Every decoded object, ordered by file then document.
    pub objects: Vec<SourceObject>,
    pub kustomizations: Vec<Kustomization>,
    by_kind: BTreeMap<&'static str, BTreeMap<Key, Vec<usize>>>,
    namespaces: BTreeMap<String, BTreeMap<String, String>>,
    /// Files used as kustomize patches: their documents are not whole objects.
    patch_files: BTreeSet<String>,
    /// Kustomization directory → position in `kustomizations`.
    kustomization_dirs: BTreeMap<String, usize>,
    /// Positions of the surrounding objects ([`Self::surroundings`]), kustomize patches left
    /// out, in index order: workloads apart from the rest, because a repository holds tens of
    /// thousands of workloads and a few policies, and the translators look the rest up once
    /// per Gateway.
    workload_positions: Vec<usize>,
    other_surrounding_positions: Vec<usize>,
    /// The ingress-nginx controllers the repository installs, by `--controller-class`.
    nginx_controllers: BTreeMap<String, NginxController>,
    /// `controllers."*"`: the configuration of every other ingress-nginx controller.
    any_nginx_controller: Option<NginxController>,
    /// Istio's mesh configuration, when the repository gives it.
    istio_mesh: Option<crate::controllers::IstioMesh>,
    /// The namespaces deploy units give files ([`Self::with_deploy_namespaces`]).
    deployed: BTreeMap<String, (String, bool)>,
}

/// The index of part of the objects (one world of `deploy::worlds`), and where its objects
/// are in the whole index: position `i` here is `positions[i]` there.
#[derive(Debug)]
pub struct Subset {
    pub positions: Vec<usize>,
    /// The whole index's positions of the objects whose results this subset gives (ascending).
    pub owned: Vec<usize>,
    /// Objects judged here (attachment, routing check) though another subset owns them
    /// (ascending).
    pub judged_too: Vec<usize>,
    pub index: Index,
}

impl Subset {
    /// Whether the results of the whole index's `position` come from this subset.
    pub fn owns(&self, position: usize) -> bool {
        self.owned.binary_search(&position).is_ok()
    }

    /// Whether the whole index's `position` is judged here: owned, or judged too.
    pub fn judges(&self, position: usize) -> bool {
        self.owns(position) || self.judged_too.binary_search(&position).is_ok()
    }

    /// The position in this subset of the whole index's `position`, if it is here.
    pub fn local(&self, position: usize) -> Option<usize> {
        self.positions.binary_search(&position).ok()
    }

    /// The whole index's position of this subset's `local` one.
    pub fn global(&self, local: usize) -> Option<usize> {
        self.positions.get(local).copied()
    }
}

/// ingress-nginx's `--controller-class` default (`pkg/flags/flags.go`).
pub(crate) const DEFAULT_NGINX_CONTROLLER: &str =
    crate::model::helm_chart::DEFAULT_NGINX_CONTROLLER;

/// Index buckets. Gateway API kinds are keyed by their kind name.
const ISTIO_GATEWAY: &str = "istio/Gateway";
const VIRTUAL_SERVICE: &str = "istio/VirtualService";
const DESTINATION_RULE: &str = "istio/DestinationRule";
const SERVICE: &str = "Service";
const SECRET: &str = "Secret";
const INGRESS: &str = "Ingress";
const INGRESS_CLASS: &str = "IngressClass";

impl Index {
    /// Builds the index. Objects without a namespace get the one their kustomization sets
    /// (when every kustomization that includes the file agrees), else `config.default_namespace`.
    pub fn build(
        objects: Vec<SourceObject>,
        kustomizations: Vec<Kustomization>,
        config: &Config,
    ) -> Index {
        Index::build_with(objects, kustomizations, config, &BTreeMap::new())
    }

    /// The index again, with the namespaces the deploy units give files
    /// (`deploy::Units::destination_namespaces`): an Argo CD destination namespace for objects
    /// that name none, after the kustomizations' and before the default; a Flux
    /// `targetNamespace` (`true`: it overrides) for every object.
    pub fn with_deploy_namespaces(
        self,
        deployed: &BTreeMap<String, (String, bool)>,
        config: &Config,
    ) -> Index {
        let Index {
            objects,
            kustomizations,
            ..
        } = self;
        Index::build_with(objects, kustomizations, config, deployed)
    }

    /// The index of the objects at `positions` (ascending) alone, with the same
    /// kustomizations and deploy namespaces: one world of `deploy::worlds`, which gives the
    /// results of the `owned` ones.
    pub fn subset(
        &self,
        positions: &[usize],
        (owned, judged_too): (&[usize], &[usize]),
        config: &Config,
    ) -> Subset {
        let positions: Vec<usize> = positions
            .iter()
            .copied()
            .filter(|&p| p < self.objects.len())
            .collect();
        let objects = positions
            .iter()
            .filter_map(|&p| self.objects.get(p).cloned())
            .collect();
        Subset {
            positions,
            owned: owned.to_vec(),
            judged_too: judged_too.to_vec(),
            index: Index::build_with(objects, self.kustomizations.clone(), config, &self.deployed),
        }
    }

    fn build_with(
        mut objects: Vec<SourceObject>,
        kustomizations: Vec<Kustomization>,
        config: &Config,
        deployed: &BTreeMap<String, (String, bool)>,
    ) -> Index {
        objects.sort_by(|a, b| a.source.cmp(&b.source));
        let file_namespaces = kustomize_namespaces(&kustomizations);
        let mut patch_files = BTreeSet::new();
        for k in &kustomizations {
            for p in &k.patches {
                if let Some(path) = k.resolve(p) {
                    patch_files.insert(path);
                }
            }
        }
        let kustomization_dirs = kustomizations
            .iter()
            .enumerate()
            .map(|(i, k)| (k.dir.clone(), i))
            .collect();
        let mut index = Index {
            kustomizations,
            patch_files,
            kustomization_dirs,
            deployed: deployed.clone(),
            ..Default::default()
        };
        for (i, obj) in objects.iter_mut().enumerate() {
            obj.naming_scope = String::new();
            let overriding = deployed
                .get(&obj.source.file)
                .filter(|(_, overrides)| *overrides)
                .map(|(ns, _)| ns);
            obj.namespace = match (&obj.meta.namespace, overriding) {
                (_, Some(ns)) => ns.clone(),
                (Some(ns), None) if !ns.is_empty() => ns.clone(),
                _ => match file_namespaces
                    .get(&obj.source.file)
                    .or_else(|| deployed.get(&obj.source.file).map(|(ns, _)| ns))
                {
                    Some(ns) => ns.clone(),
                    None => {
                        obj.naming_scope = obj
                            .source
                            .file
                            .rsplit_once('/')
                            .map(|(d, _)| d.to_string())
                            .unwrap_or_else(|| ".".into());
                        config.default_namespace.clone()
                    }
                },
            };
            let bucket: Option<&'static str> = match &obj.body {
                SourceBody::IstioGateway(_) => Some(ISTIO_GATEWAY),
                SourceBody::VirtualService(_) => Some(VIRTUAL_SERVICE),
                SourceBody::DestinationRule(_) => Some(DESTINATION_RULE),
                SourceBody::Service(_) => Some(SERVICE),
                SourceBody::Secret(_) => Some(SECRET),
                SourceBody::Ingress(_) => Some(INGRESS),
                SourceBody::IngressClass(_) => Some(INGRESS_CLASS),
                SourceBody::Namespace => {
                    index
                        .namespaces
                        .insert(obj.meta.name.clone(), obj.meta.labels.clone());
                    None
                }
                SourceBody::GatewayApi(_) => gateway_api_bucket(&obj.kind),
                SourceBody::Surrounding(s) => {
                    if !index.is_patch_file(&obj.source.file) {
                        match s {
                            Surrounding::Workload { .. } => index.workload_positions.push(i),
                            // Controller configuration is read once, by `controllers`, from
                            // the objects; a repository holds many ConfigMaps, which the
                            // per-Gateway lookups of the rest need not walk.
                            Surrounding::ConfigMap { .. }
                            | Surrounding::NginxController { .. }
                            | Surrounding::NginxHelmRelease { .. }
                            | Surrounding::IstioMeshConfig { .. } => {}
                            _ => index.other_surrounding_positions.push(i),
                        }
                    }
                    None
                }
            };
            if let Some(bucket) = bucket {
                // Cluster-scoped kinds (IngressClass) are keyed with an empty namespace.
                let ns = if bucket == INGRESS_CLASS {
                    String::new()
                } else {
                    obj.namespace.clone()
                };
                index
                    .by_kind
                    .entry(bucket)
                    .or_default()
                    .entry((ns, obj.meta.name.clone()))
                    .or_default()
                    .push(i);
            }
        }
        index.objects = objects;
        index.nginx_controllers = crate::controllers::nginx_controllers(&index.objects, config);
        index.any_nginx_controller = crate::controllers::any_nginx_controller(config);
        index.istio_mesh = crate::controllers::istio_mesh(&index.objects);
        index
    }

    /// The ingress-nginx controller serving `controller_class`, when the repository or the
    /// configuration describes it (`None`: its defaults are assumed).
    pub fn nginx_controller(&self, controller_class: &str) -> Option<&NginxController> {
        self.nginx_controllers
            .get(controller_class)
            .or(self.any_nginx_controller.as_ref())
    }

    /// Istio's mesh configuration as the repository gives it (`None`: Istio's defaults).
    pub fn istio_mesh(&self) -> Option<&crate::controllers::IstioMesh> {
        self.istio_mesh.as_ref()
    }

    /// The controller class of the ingress-nginx controller that serves Ingresses naming
    /// `class` by its `--ingress-class` value (default `nginx`): through the legacy
    /// `kubernetes.io/ingress.class` annotation always, through `spec.ingressClassName` only
    /// with `--ingress-class-by-name` (`store.go` `GetIngressClass`, `ingressClassEventHandler`).
    pub fn nginx_controller_named(&self, class: &str, legacy_annotation: bool) -> Option<String> {
        self.nginx_controllers
            .iter()
            .find(|(_, c)| {
                c.flag_value("--ingress-class").unwrap_or("nginx") == class
                    && (legacy_annotation || c.flag("--ingress-class-by-name"))
            })
            .map(|(controller, _)| controller.clone())
    }

    /// The controller class of an ingress-nginx controller started with
    /// `--watch-ingress-without-class`: it serves Ingresses that name no class (`store.go`
    /// `GetIngressClass`). The first such, by controller class.
    pub fn nginx_controller_watching_classless(&self) -> Option<String> {
        let flag = "--watch-ingress-without-class";
        self.nginx_controllers
            .iter()
            .find(|(_, c)| c.flag(flag))
            .map(|(class, _)| class.clone())
            .or_else(|| {
                self.any_nginx_controller
                    .as_ref()
                    .filter(|c| c.flag(flag))
                    .map(|_| DEFAULT_NGINX_CONTROLLER.to_string())
            })
    }

    fn lookup(&self, bucket: &str, namespace: &str, name: &str) -> Option<&SourceObject> {
        let ids = self
            .by_kind
            .get(bucket)?
            .get(&(namespace.to_string(), name.to_string()))?;
        ids.first().map(|&i| &self.objects[i])
    }

    fn all(&self, bucket: &str) -> impl Iterator<Item = &SourceObject> {
        self.by_kind
            .get(bucket)
            .into_iter()
            .flat_map(|m| m.values().flatten())
            .map(|&i| &self.objects[i])
    }

    pub fn istio_gateway(
        &self,
        namespace: &str,
        name: &str,
    ) -> Option<(&SourceObject, &istio::Gateway)> {
        let obj = self.lookup(ISTIO_GATEWAY, namespace, name)?;
        match &obj.body {
            SourceBody::IstioGateway(g) => Some((obj, g)),
            _ => None,
        }
    }

    /// Objects around the ingress ([`crate::model::surrounding`]) other than workloads, with
    /// their positions, in index order, kustomize patches left out.
    pub fn surroundings(&self) -> impl Iterator<Item = (usize, &SourceObject, &Surrounding)> {
        self.surroundings_at(&self.other_surrounding_positions)
    }

    /// Deployments, StatefulSets and DaemonSets ([`Surrounding::Workload`]) with their
    /// positions, in index order, kustomize patches left out.
    pub fn workloads(&self) -> impl Iterator<Item = (usize, &SourceObject, &Surrounding)> {
        self.surroundings_at(&self.workload_positions)
    }

    fn surroundings_at<'a>(
        &'a self,
        positions: &'a [usize],
    ) -> impl Iterator<Item = (usize, &'a SourceObject, &'a Surrounding)> {
        positions.iter().filter_map(|&i| {
            let o = self.objects.get(i)?;
            match &o.body {
                SourceBody::Surrounding(s) => Some((i, o, s)),
                _ => None,
            }
        })
    }

    pub fn istio_gateways(&self) -> impl Iterator<Item = (&SourceObject, &istio::Gateway)> {
        self.all(ISTIO_GATEWAY).filter_map(|o| match &o.body {
            SourceBody::IstioGateway(g) => Some((o, g)),
            _ => None,
        })
    }

    pub fn virtual_service(
        &self,
        namespace: &str,
        name: &str,
    ) -> Option<(&SourceObject, &istio::VirtualService)> {
        let obj = self.lookup(VIRTUAL_SERVICE, namespace, name)?;
        match &obj.body {
            SourceBody::VirtualService(v) => Some((obj, v)),
            _ => None,
        }
    }

    pub fn destination_rules(
        &self,
    ) -> impl Iterator<Item = (&SourceObject, &istio::DestinationRule)> {
        self.all(DESTINATION_RULE).filter_map(|o| match &o.body {
            SourceBody::DestinationRule(d) => Some((o, &**d)),
            _ => None,
        })
    }

    pub fn service(&self, namespace: &str, name: &str) -> Option<&k8s::Service> {
        match &self.lookup(SERVICE, namespace, name)?.body {
            SourceBody::Service(s) => Some(s),
            _ => None,
        }
    }

    /// The position of the first Service or Secret `namespace/name` the repository holds.
    pub fn position_of(&self, kind: &str, namespace: &str, name: &str) -> Option<usize> {
        let bucket = match kind {
            "Service" => SERVICE,
            "Secret" => SECRET,
            _ => return None,
        };
        self.by_kind
            .get(bucket)?
            .get(&(namespace.to_string(), name.to_string()))?
            .first()
            .copied()
    }

    /// Every definition of a Service the repository holds under one name: examples and
    /// independent units often define the same `namespace/name` differently, and any of them
    /// may be the one deployed next to a given route.
    pub fn service_definitions(
        &self,
        namespace: &str,
        name: &str,
    ) -> impl Iterator<Item = &k8s::Service> {
        self.by_kind
            .get(SERVICE)
            .and_then(|m| m.get(&(namespace.to_string(), name.to_string())))
            .into_iter()
            .flatten()
            .filter_map(|&i| match &self.objects.get(i)?.body {
                SourceBody::Service(s) => Some(&**s),
                _ => None,
            })
    }

    pub fn secret(&self, namespace: &str, name: &str) -> Option<&k8s::SecretMeta> {
        match &self.lookup(SECRET, namespace, name)?.body {
            SourceBody::Secret(s) => Some(s),
            _ => None,
        }
    }

    pub fn ingress_classes(
        &self,
    ) -> impl Iterator<Item = (&SourceObject, &crate::model::ingress::IngressClass)> {
        self.all(INGRESS_CLASS).filter_map(|o| match &o.body {
            SourceBody::IngressClass(c) => Some((o, c)),
            _ => None,
        })
    }

    /// Gateway API objects of `kind` already in the repository, as JSON.
    pub fn gateway_api(
        &self,
        kind: &str,
    ) -> impl Iterator<Item = (&SourceObject, &serde_json::Value)> {
        let bucket = gateway_api_bucket(kind).unwrap_or("");
        self.all(bucket).filter_map(|o| match &o.body {
            SourceBody::GatewayApi(v) => Some((o, v)),
            _ => None,
        })
    }

    /// Labels of a Namespace defined in the repository; `None` when the repository does not
    /// define it (its labels are unknown, except `kubernetes.io/metadata.name`).
    pub fn namespace_labels(&self, name: &str) -> Option<&BTreeMap<String, String>> {
        self.namespaces.get(name)
    }

    /// The labels a namespace selector sees on namespace `name`: those its Namespace manifest
    /// in the repository sets, plus the `kubernetes.io/metadata.name` label every namespace
    /// carries; and whether the repository defines that Namespace at all (if not, other labels
    /// are unknown).
    pub fn namespace_selector_labels(&self, name: &str) -> (BTreeMap<String, String>, bool) {
        let defined = self.namespaces.get(name);
        let mut labels = defined.cloned().unwrap_or_default();
        labels.insert("kubernetes.io/metadata.name".into(), name.to_string());
        (labels, defined.is_some())
    }

    /// The kustomization of directory `dir` (root-relative, `""` for the root).
    pub fn kustomization_in(&self, dir: &str) -> Option<&Kustomization> {
        self.kustomization_dirs
            .get(dir)
            .and_then(|&i| self.kustomizations.get(i))
    }

    /// Whether `file` is used as a kustomize patch (its documents are partial objects).
    pub fn is_patch_file(&self, file: &str) -> bool {
        self.patch_files.contains(file)
    }

    /// Kustomizations that list `file` directly in `resources:`.
    pub fn kustomizations_listing(&self, file: &str) -> impl Iterator<Item = &Kustomization> {
        self.kustomizations.iter().filter(move |k| {
            k.resources
                .iter()
                .any(|r| k.resolve(r).as_deref() == Some(file))
        })
    }
}

fn gateway_api_bucket(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "Gateway" => "gwapi/Gateway",
        "GatewayClass" => "gwapi/GatewayClass",
        "HTTPRoute" => "gwapi/HTTPRoute",
        "GRPCRoute" => "gwapi/GRPCRoute",
        "TLSRoute" => "gwapi/TLSRoute",
        "TCPRoute" => "gwapi/TCPRoute",
        "UDPRoute" => "gwapi/UDPRoute",
        "ReferenceGrant" => "gwapi/ReferenceGrant",
        "BackendTLSPolicy" => "gwapi/BackendTLSPolicy",
        "ListenerSet" => "gwapi/ListenerSet",
        _ => return None,
    })
}

/// For every file included (directly or through directory resources) by kustomizations, the
/// namespace those kustomizations set, when they all agree.
fn kustomize_namespaces(kustomizations: &[Kustomization]) -> BTreeMap<String, String> {
    let by_dir: BTreeMap<&str, &Kustomization> =
        kustomizations.iter().map(|k| (k.dir.as_str(), k)).collect();
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for k in kustomizations {
        let Some(ns) = &k.namespace else { continue };
        // Walk the resources, following directory entries into the kustomizations they name.
        let mut stack: Vec<&Kustomization> = vec![k];
        let mut visited: BTreeSet<&str> = BTreeSet::new();
        while let Some(cur) = stack.pop() {
            if !visited.insert(cur.dir.as_str()) {
                continue;
            }
            // Components are included like resources: their objects get the namespace too.
            for entry in cur.included() {
                let Some(path) = cur.resolve(entry) else {
                    continue;
                };
                match by_dir.get(path.as_str()) {
                    Some(sub) => stack.push(sub),
                    None => {
                        seen.entry(path).or_default().insert(ns.clone());
                    }
                }
            }
        }
    }
    seen.into_iter()
        .filter_map(|(file, namespaces)| {
            (namespaces.len() == 1)
                .then(|| (file, namespaces.into_iter().next().unwrap_or_default()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_bytes;

    fn index_of(files: &[(&str, &str)]) -> Index {
        let mut objects = Vec::new();
        let mut kustomizations = Vec::new();
        for (path, text) in files {
            let load = load_bytes(path, text.as_bytes());
            assert!(load.diagnostics.is_empty(), "{:?}", load.diagnostics);
            objects.extend(load.objects);
            kustomizations.extend(load.kustomizations);
        }
        Index::build(objects, kustomizations, &Config::default())
    }

    const SVC: &str =
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n";

    #[test]
    fn namespaces_come_from_the_object_then_the_kustomization_then_the_default() {
        let index = index_of(&[
            ("base/svc.yaml", SVC),
            ("base/kustomization.yaml", "resources:\n- svc.yaml\n"),
            (
                "prod/kustomization.yaml",
                "namespace: prod\nresources:\n- ../base\n",
            ),
            ("other/svc.yaml", SVC),
            (
                "explicit/svc.yaml",
                "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: mine\n",
            ),
        ]);
        let ns: Vec<(&str, &str)> = index
            .objects
            .iter()
            .map(|o| (o.source.file.as_str(), o.namespace.as_str()))
            .collect();
        assert_eq!(
            ns,
            vec![
                ("base/svc.yaml", "prod"),
                ("explicit/svc.yaml", "mine"),
                ("other/svc.yaml", "default")
            ]
        );
        assert!(index.service("prod", "web").is_some());
        assert!(index.service("default", "web").is_some());
        assert!(index.service("prod", "nope").is_none());
    }

    #[test]
    fn disagreeing_overlays_leave_the_default_namespace() {
        let index = index_of(&[
            ("base/svc.yaml", SVC),
            ("base/kustomization.yaml", "resources:\n- svc.yaml\n"),
            (
                "a/kustomization.yaml",
                "namespace: a\nresources:\n- ../base\n",
            ),
            (
                "b/kustomization.yaml",
                "namespace: b\nresources:\n- ../base\n",
            ),
        ]);
        assert_eq!(index.objects[0].namespace, "default");
    }

    #[test]
    fn patch_files_are_known() {
        let index = index_of(&[(
            "k/kustomization.yaml",
            "resources:\n- vs.yaml\npatches:\n- path: patch-vs.yaml\npatchesStrategicMerge:\n- psm.yaml\n",
        )]);
        assert!(index.is_patch_file("k/patch-vs.yaml"));
        assert!(index.is_patch_file("k/psm.yaml"));
        assert!(!index.is_patch_file("k/vs.yaml"));
        assert_eq!(index.kustomizations_listing("k/vs.yaml").count(), 1);
    }
}
