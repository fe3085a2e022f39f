//! The old side for Ingresses: how ingress-nginx treats a request. The rules are the
//! behaviour model's (`semantics::ingress_nginx`: servers and locations across Ingresses,
//! location choice, regex mode, rewrites, canaries, redirects, annotation validation), checked
//! there against ingress-nginx's own e2e suite; this file only decides which Ingresses each
//! controller serves, feeds them to the model and turns its answers into the check's
//! outcomes.
//!
//! Which classes ingress-nginx served is read here, independently of the translator, from
//! what the repository and the configuration say: `ingressClasses.<class>.dialect`, else the
//! IngressClass's `spec.controller`, else `ingressClasses."*"`, else a class name containing
//! `nginx`. One controller serves every IngressClass naming the same `spec.controller`
//! (`store.go` `ingressClassEventHandler`); a class the repository has no IngressClass for is
//! taken to be ingress-nginx's default one (`k8s.io/ingress-nginx`). A controller the
//! repository installs (manifests or a Helm release) or the configuration describes runs with
//! its own flags and ConfigMap (`Index::nginx_controller`, `controllers`). Otherwise its
//! configuration is not known: the model's defaults apply, except where the repository shows
//! the controller was set up for what its Ingresses use: a class whose Ingresses ask for
//! `ssl-passthrough` runs with `--enable-ssl-passthrough`, and `annotations-risk-level` is
//! `Critical` (snippets load); the translator names the assumption
//! (`ingress-nginx/controller-config-assumed`).

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

use super::gateway_api::Model as NewModel;
use super::matching::literal_prefix;
use super::probes::{Seeds, Shape, UNLISTED_HOST};
use super::{Decision, Frontend, OldFrontend, Origin, Outcome, Probe, Scheme};
use crate::config::{ANY_INGRESS_CLASS, Config, Dialect};
use crate::gwapi::Generated;
use crate::index::Index;
use crate::model::SourceBody;
use crate::semantics::ingress_nginx::{Controller, World};
use crate::semantics::{self, Request};
use crate::translated::SourceResult;

/// ingress-nginx's `--controller-class` default.
const DEFAULT_CONTROLLER: &str = crate::index::DEFAULT_NGINX_CONTROLLER;
/// The legacy class annotation and the default-class marker.
const LEGACY_CLASS: &str = "kubernetes.io/ingress.class";
const DEFAULT_CLASS: &str = "ingressclass.kubernetes.io/is-default-class";

/// One ingress-nginx controller: the behaviour model of what it serves.
struct Instance {
    world: World,
    /// The Ingresses it serves, as index positions.
    members: Vec<usize>,
    /// A certificate the controller was given (`--default-ssl-certificate`): none is known.
    default_certificate: bool,
}

pub(crate) struct Model {
    /// By controller (`spec.controller`, or the class name of a class without IngressClass).
    instances: BTreeMap<String, Instance>,
    /// `namespace/name` of each Ingress → its index position (the first, for copies).
    ingresses: HashMap<String, usize>,
}

/// The class an Ingress names: `spec.ingressClassName`, else the legacy annotation, else
/// the IngressClass marked default (the API server's admission fills it in at creation).
fn class_of(v: &Value, default_class: Option<&str>) -> Option<String> {
    v.pointer("/spec/ingressClassName")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            v.pointer("/metadata/annotations")
                .and_then(|a| a.get(LEGACY_CLASS))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .or_else(|| default_class.map(str::to_string))
}

impl Model {
    pub(crate) fn build(index: &Index, config: &Config) -> Self {
        // IngressClasses: name → controller; the default one.
        let mut class_controllers: BTreeMap<String, Option<String>> = BTreeMap::new();
        let mut default_class: Option<String> = None;
        for obj in &index.objects {
            if let SourceBody::IngressClass(c) = &obj.body {
                class_controllers
                    .entry(obj.meta.name.clone())
                    .or_insert_with(|| c.controller.clone());
                if c.is_default && default_class.is_none() {
                    default_class = Some(obj.meta.name.clone());
                }
            }
        }
        let dialect = |class: &str| -> Option<Dialect> {
            config.ingress_classes.get(class).and_then(|c| c.dialect)
        };
        // Which controller served a class: `None` when it was not ingress-nginx.
        let controller_of = |class: Option<&str>| -> Option<String> {
            let Some(class) = class else {
                // No class at all: served only by a controller told to watch Ingresses
                // without one: one the repository installs that way, or one the
                // configuration says served them.
                if let Some(watching) = index.nginx_controller_watching_classless() {
                    return Some(watching);
                }
                return (config
                    .ingress_classes
                    .get(ANY_INGRESS_CLASS)
                    .and_then(|c| c.dialect)
                    == Some(Dialect::IngressNginx))
                .then(|| DEFAULT_CONTROLLER.to_string());
            };
            let object = class_controllers.get(class).cloned().flatten();
            let is_nginx = match (dialect(class), &object) {
                (Some(d), _) => d == Dialect::IngressNginx,
                (None, Some(c)) => {
                    let c = c.to_ascii_lowercase();
                    c.contains("nginx") && !c.contains("nginx.org") && !c.contains("nginx.com")
                }
                (None, None) => match config
                    .ingress_classes
                    .get(ANY_INGRESS_CLASS)
                    .and_then(|c| c.dialect)
                {
                    Some(d) => d == Dialect::IngressNginx,
                    None => class.to_ascii_lowercase().contains("nginx"),
                },
            };
            is_nginx.then(|| object.unwrap_or_else(|| DEFAULT_CONTROLLER.to_string()))
        };

        let mut jsons: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut members: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut classes: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut classless: BTreeMap<String, bool> = BTreeMap::new();
        let mut passthrough: BTreeMap<String, bool> = BTreeMap::new();
        let mut ingresses = HashMap::new();
        for (position, obj) in index.objects.iter().enumerate() {
            let SourceBody::Ingress(ing) = &obj.body else {
                continue;
            };
            let Ok(mut v) = serde_json::to_value(ing.as_ref()) else {
                continue;
            };
            if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.insert("namespace".into(), Value::from(obj.namespace.clone()));
                meta.insert("name".into(), Value::from(obj.meta.name.clone()));
            }
            let class = class_of(&v, default_class.as_deref());
            let Some(controller) = controller_of(class.as_deref()) else {
                continue;
            };
            ingresses
                .entry(format!("{}/{}", obj.namespace, obj.meta.name))
                .or_insert(position);
            if v.pointer("/metadata/annotations")
                .and_then(Value::as_object)
                .is_some_and(|a| {
                    a.iter()
                        .any(|(k, v)| k.ends_with("/ssl-passthrough") && v.as_str() == Some("true"))
                })
            {
                passthrough.insert(controller.clone(), true);
            }
            match &class {
                Some(c) => classes
                    .entry(controller.clone())
                    .or_default()
                    .push(c.clone()),
                None => {
                    classless.insert(controller.clone(), true);
                }
            }
            members
                .entry(controller.clone())
                .or_default()
                .push(position);
            jsons.entry(controller).or_default().push(v);
        }
        let mut instances = BTreeMap::new();
        for (controller_class, mut objects) in jsons {
            let mut names = classes.remove(&controller_class).unwrap_or_default();
            names.sort();
            names.dedup();
            // Every class this controller serves, as the IngressClass the cluster has: the
            // repository's, or one assumed for a class it has none for.
            for name in &names {
                let mut ic = json!({
                    "apiVersion": "networking.k8s.io/v1",
                    "kind": "IngressClass",
                    "metadata": {"name": name},
                    "spec": {"controller": controller_class},
                });
                if default_class.as_deref() == Some(name.as_str()) {
                    ic["metadata"]["annotations"] = json!({ DEFAULT_CLASS: "true" });
                }
                objects.push(ic);
            }
            let mut controller = Controller::new(names.first().map_or("nginx", String::as_str));
            if let Some(found) = index.nginx_controller(&controller_class) {
                // The repository installs this controller, or the configuration describes
                // it: its own flags and ConfigMap, no assumption.
                controller.flags = found.flags.clone();
                if !controller
                    .flags
                    .iter()
                    .any(|f| f.starts_with("--controller-class="))
                {
                    controller
                        .flags
                        .push(format!("--controller-class={controller_class}"));
                }
                controller.config_map = found.config.clone();
            } else {
                controller
                    .flags
                    .push(format!("--controller-class={controller_class}"));
                if classless.get(&controller_class) == Some(&true) {
                    controller
                        .flags
                        .push("--watch-ingress-without-class".to_string());
                }
                // The repository's Ingresses use the annotations they do because the
                // controller loaded them (`controllers::ASSUMED_AS_USED`, as the translator
                // assumes and `controller-config-assumed` says).
                for (key, value) in crate::controllers::ASSUMED_AS_USED {
                    if !key.starts_with("--") {
                        controller
                            .config_map
                            .insert((*key).to_string(), (*value).to_string());
                    }
                }
                if passthrough.get(&controller_class) == Some(&true) {
                    controller
                        .flags
                        .push("--enable-ssl-passthrough".to_string());
                }
            }
            let default_certificate = controller
                .flags
                .iter()
                .any(|f| f.starts_with("--default-ssl-certificate"));
            let world = World::new(&objects, &config.default_namespace, controller);
            instances.insert(
                controller_class.clone(),
                Instance {
                    world,
                    members: members.remove(&controller_class).unwrap_or_default(),
                    default_certificate,
                },
            );
        }
        Model {
            instances,
            ingresses,
        }
    }

    /// One entry point per ingress-nginx controller whose Ingresses produced routes.
    pub(crate) fn frontends(&self, results: &[SourceResult], new: &NewModel) -> Vec<Frontend> {
        let _ = new;
        self.instances
            .iter()
            .filter_map(|(key, instance)| {
                let mut gateways: Vec<(String, String)> = Vec::new();
                for r in results
                    .iter()
                    .filter(|r| instance.members.contains(&r.object))
                {
                    for g in &r.generated {
                        let parents = match g {
                            Generated::Gateway(_) => {
                                gateways.push((g.namespace().to_string(), g.name().to_string()));
                                continue;
                            }
                            Generated::HttpRoute(o) => &o.spec.parent_refs,
                            Generated::GrpcRoute(o) => &o.spec.parent_refs,
                            _ => continue,
                        };
                        for p in parents {
                            if p.kind.as_deref().unwrap_or("Gateway") != "Gateway" {
                                continue;
                            }
                            let ns = p.namespace.as_deref().unwrap_or(g.namespace());
                            gateways.push((ns.to_string(), p.name.clone()));
                        }
                    }
                }
                gateways.sort();
                gateways.dedup();
                let anchor = *instance.members.first()?;
                (!gateways.is_empty()).then(|| Frontend {
                    old_name: "ingress-nginx",
                    old: OldFrontend::Nginx(key.clone()),
                    gateways,
                    anchor,
                })
            })
            .collect()
    }

    /// The class names a controller key stands for, for `trace`.
    pub(crate) fn describe(&self, key: &str) -> String {
        format!("ingress-nginx ({key})")
    }

    pub(crate) fn seeds(&self, key: &str, seeds: &mut Seeds) {
        let Some(instance) = self.instances.get(key) else {
            return;
        };
        seeds.listener(Scheme::Http, 80);
        seeds.listener(Scheme::Https, 443);
        for point in instance.world.decision_points() {
            let host = point.host.as_deref().unwrap_or(UNLISTED_HOST);
            seeds.host(host);
            let path = if point.regex {
                literal_prefix(&point.path)
            } else {
                point.path.clone()
            };
            if point.headers.is_empty() {
                seeds.path(host, &path);
            } else {
                seeds.shape(
                    host,
                    Shape {
                        path,
                        headers: point.headers.clone(),
                        ..Default::default()
                    },
                );
            }
        }
    }

    pub(crate) fn evaluate(&self, key: &str, probe: &Probe) -> Decision {
        let Some(instance) = self.instances.get(key) else {
            return Decision::new(Outcome::NoListener, None);
        };
        let Ok(port) = u16::try_from(probe.port) else {
            return Decision::new(Outcome::NoListener, None);
        };
        let request = Request {
            method: probe.method.clone(),
            scheme: probe.scheme,
            host: probe.host.clone(),
            port,
            path: probe.path.clone(),
            query: probe.query.clone(),
            headers: probe.headers.clone(),
        };
        let b = instance.world.behaviour(&request, probe.client);
        // The model reads access checks, the response headers nginx adds itself (HSTS) and
        // the request timeout, which nginx does not have (`proxy_read_timeout` and
        // `proxy_send_timeout` limit the time between two reads or writes, not the request);
        // the request headers it forwards and mirrors it leaves to `unevaluated`, so they
        // are not compared.
        let effects = super::effects::Effects::of(
            &b,
            &request.headers,
            request.scheme == Scheme::Https,
            super::effects::Reads {
                request_headers: false,
                response_headers: true,
                mirrors: false,
                timeouts: true,
                access: true,
            },
        );
        let origin = self.origin(&b);
        // A host served with the controller's self-signed certificate fails every client
        // that checks certificates: not served over HTTPS.
        if let Some(tls) = &b.tls
            && tls.certificate.is_none()
            && !instance.default_certificate
            && !matches!(b.outcome, semantics::Outcome::NotModelled { .. })
        {
            return Decision::new(Outcome::NoListener, None);
        }
        let outcome = match b.outcome {
            semantics::Outcome::Redirect { location, .. } if location.contains('$') => {
                Outcome::Unmodelled("a redirect with nginx variables".into())
            }
            other => super::outcome_from_model(other, &probe.host),
        };
        let mut decision = Decision::new(outcome, origin);
        decision.effects = effects;
        decision.also = b
            .matched
            .iter()
            .flat_map(|m| &m.also)
            .filter_map(|o| self.ingresses.get(o.strip_prefix("Ingress ")?).copied())
            .collect();
        decision
    }

    /// The Ingress rule the model says decided.
    fn origin(&self, b: &semantics::Behaviour) -> Option<Origin> {
        let m = b.matched.as_ref()?;
        let name = m.object.as_deref()?.strip_prefix("Ingress ")?;
        let object = *self.ingresses.get(name)?;
        let field = match (m.rule, m.r#match) {
            (Some(r), Some(p)) => format!("spec.rules[{r}].http.paths[{p}]"),
            _ => "spec.defaultBackend".to_string(),
        };
        Some(Origin { object, field })
    }
}
