//! Kubernetes Ingress → Gateway API, in `migrate` or `mount` mode; ingress-nginx annotations.
//!
//! Stages: every Ingress becomes an [`ir::IngressPlan`] (class, per-host rules, backends,
//! TLS, annotation effects); canary plans merge into their primaries; the mode attaches the
//! hosts to Gateways (`migrate` creates one per IngressClass, `mount` selects among the
//! repository's); `emit` writes the routes. One [`SourceResult`] per Ingress.

pub(crate) mod backends;
pub(crate) mod class;
pub(crate) mod emit;
pub(crate) mod ir;
pub(crate) mod migrate;
pub(crate) mod mount;
pub(crate) mod names;
pub(crate) mod nginx;
pub(crate) mod routes;
pub(crate) mod tls;
pub(crate) mod wildcard;

use std::collections::{BTreeMap, BTreeSet};

use crate::config::{Config, IngressMode};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::Generated;
use crate::index::Index;
use crate::model::SourceBody;
use crate::model::ingress::Ingress;
use crate::translate::SourceResult;

use ir::{IngressPlan, RouteKind};

/// Translates every Ingress of the index.
pub(crate) fn translate(index: &Index, config: &Config) -> Vec<SourceResult> {
    let mut results = Vec::new();
    let mut plans = Vec::new();
    for (pos, obj) in index.objects.iter().enumerate() {
        let SourceBody::Ingress(ing) = &obj.body else {
            continue;
        };
        if index.is_patch_file(&obj.source.file) {
            let mut r = SourceResult::new(pos);
            r.skipped = Some(
                "kustomize patch: a partial Ingress is translated together with the resource it patches"
                    .into(),
            );
            results.push(r);
            continue;
        }
        let mut p = plan(index, config, pos, &obj.meta.name, &obj.namespace, ing);
        p.naming_scope = obj.naming_scope.clone();
        plans.push(p);
    }
    note_class_choices(&mut plans, config);
    note_assumed_controllers(&mut plans, index, config);
    nginx::servers::drop_shadowed_paths(&mut plans);
    nginx::canary::merge(&mut plans);
    nginx::servers::apply(&mut plans);
    let attachments = match config.ingress_mode {
        IngressMode::Migrate => migrate::attach(&mut plans, config),
        IngressMode::Mount => mount::attach(&mut plans, index),
    };
    let mut names = names::NameAllocator::default();
    for (plan, att) in plans.iter_mut().zip(&attachments) {
        emit::emit(plan, att, &mut names);
        note_renamed(plan, &mut names);
    }
    // Policies once every route exists: a policy scoped by path leaves out the more specific
    // paths other Ingresses route on the same host.
    let forwarding: Vec<Vec<crate::translate::target::RouteScope>> = plans
        .iter()
        .map(|p| {
            p.result
                .generated
                .iter()
                .filter_map(crate::translate::target::RouteScope::of)
                .collect()
        })
        .collect();
    // Each host's forwarding routes, as (plan, route) positions; routes without hostname
    // under "".
    let mut by_host: BTreeMap<&str, Vec<(usize, usize)>> = BTreeMap::new();
    for (i, routes) in forwarding.iter().enumerate() {
        for (k, r) in routes.iter().enumerate() {
            if r.hostnames.is_empty() {
                by_host.entry("").or_default().push((i, k));
            }
            for h in &r.hostnames {
                by_host.entry(h.as_str()).or_default().push((i, k));
            }
        }
    }
    extend_client_certificates(&mut plans);
    let served = served(index, &plans);
    // The policies the repository already holds keep their names: a generated one of the
    // same name would replace it (or be replaced) on apply.
    for obj in &index.objects {
        if matches!(
            obj.kind.as_str(),
            "SecurityPolicy" | "BackendTrafficPolicy" | "AuthorizationPolicy"
        ) {
            names.reserve(&obj.namespace, &obj.kind, &obj.meta.name);
        }
    }
    for (i, plan) in plans.iter_mut().enumerate() {
        if plan.access.is_empty() {
            continue;
        }
        let own = &forwarding[i];
        // Other plans' routes sharing a hostname with one of these (or, for routes without
        // hostname, also without one).
        let others: Vec<&crate::translate::target::RouteScope> = own
            .iter()
            .flat_map(|o| {
                let keys: Vec<&str> = if o.hostnames.is_empty() {
                    vec![""]
                } else {
                    o.hostnames.iter().map(String::as_str).collect()
                };
                keys.into_iter()
                    .flat_map(|h| by_host.get(h).into_iter().flatten())
            })
            .filter(|(j, _)| *j != i)
            .copied()
            .collect::<BTreeSet<(usize, usize)>>()
            .into_iter()
            .map(|(j, k)| &forwarding[j][k])
            .collect();
        protect(plan, config, &mut names, (own, &others), &served);
        note_renamed(plan, &mut names);
    }
    if config.target == crate::config::Target::EnvoyGateway {
        nginx::balancing::resolve(&mut plans);
    }
    if config.target != crate::config::Target::Istio {
        for plan in plans
            .iter_mut()
            .filter(|p| p.class.reads_nginx_annotations())
        {
            keep_backends(plan, config, &mut names, &served.envoy_policies);
        }
    }
    dedupe_policies(&mut plans);
    results.extend(plans.into_iter().map(|p| p.result));
    results.sort_by_key(|r| r.object);
    results
}

/// ingress-nginx checks client certificates per server (controller.go `getBackendServers`
/// sets `server.CertificateAuth` from the first Ingress of the host with a CA; nginx.tmpl's
/// `ssl_verify_client` is in the server block): every other Ingress of that host gets the
/// check too.
fn extend_client_certificates(plans: &mut [IngressPlan]) {
    use crate::target::Control as Kind;
    let mut by_host: std::collections::BTreeMap<
        String,
        (crate::translate::target::Control, String),
    > = std::collections::BTreeMap::new();
    for p in plans.iter() {
        let Some(c) = p.access.iter().find(|c| c.kind == Kind::ClientCertificate) else {
            continue;
        };
        for h in p.hosts.iter().filter_map(|h| h.host.clone()) {
            by_host
                .entry(h)
                .or_insert_with(|| (c.clone(), format!("Ingress {}/{}", p.namespace, p.name)));
        }
    }
    for p in plans.iter_mut() {
        if p.access.iter().any(|c| c.kind == Kind::ClientCertificate) {
            continue;
        }
        let found = p
            .hosts
            .iter()
            .filter_map(|h| h.host.as_ref())
            .find_map(|h| by_host.get(h).map(|found| (h.clone(), found.clone())));
        if let Some((host, (mut control, owner))) = found {
            control.origin = format!(
                "{} of {owner}, which nginx applies to every path of {host}",
                control.origin
            );
            control.field = "spec".into();
            p.access.push(control);
        }
    }
}

/// The GatewayClass of every Gateway the plans' routes may name (generated or in the
/// repository) and the controller of every GatewayClass the repository defines.
fn served(index: &Index, plans: &[IngressPlan]) -> crate::translate::target::Served {
    let mut out = crate::translate::target::Served {
        envoy_policies: crate::translate::target::envoy_policies(index),
        istio_path_normalization: index
            .istio_mesh()
            .map_or_else(|| "BASE".to_string(), |m| m.path_normalization()),
        ..Default::default()
    };
    let text =
        |v: &serde_json::Value, p: &str| v.pointer(p).and_then(|x| x.as_str()).map(str::to_string);
    for (obj, doc) in index.gateway_api("Gateway") {
        if let Some(class) = text(doc, "/spec/gatewayClassName") {
            out.gateway_classes
                .insert((obj.namespace.clone(), obj.meta.name.clone()), class);
        }
    }
    for (obj, doc) in index.gateway_api("GatewayClass") {
        if let Some(controller) = text(doc, "/spec/controllerName") {
            out.class_controllers
                .insert(obj.meta.name.clone(), controller);
        }
    }
    for g in plans.iter().flat_map(|p| &p.result.generated) {
        if let Generated::Gateway(o) = g {
            out.gateway_classes.insert(
                (g.namespace().to_string(), o.metadata.name.clone()),
                o.spec.gateway_class_name.clone(),
            );
        }
    }
    out
}

/// Notes the names the allocator had to change for the plan.
fn note_renamed(plan: &mut IngressPlan, names: &mut names::NameAllocator) {
    for (wanted, got) in names.take_renamed() {
        plan.result.notes.push(Diagnostic::new(
            Code::IngressNameCollision,
            format!(
                "{wanted} is taken in its namespace (another Ingress generates it, or the repository holds an object of that name); this one's is named {got}"
            ),
        ));
    }
}

/// Names for the plan's policies: unique in their namespace (under the plan's naming scope in
/// its own), made of DNS-label characters.
fn plan_namer<'a>(
    plan: &IngressPlan,
    names: &'a mut names::NameAllocator,
) -> impl FnMut(&str, &str, &str) -> String + 'a {
    let scope = plan.name_scope();
    let home = plan.namespace.clone();
    move |ns: &str, kind: &str, wanted: &str| {
        let scope = if ns == home { scope.as_str() } else { ns };
        names.allocate(
            scope,
            kind,
            &names::dns_label_chars(wanted),
            names::MAX_NAME,
        )
    }
}

/// Envoy Gateway (and the portable output on it) would end the plan's requests after 15 s:
/// its forwarding rules get no request timeout, and for Envoy Gateway a BackendTrafficPolicy
/// keeps nginx's idle and connect timeouts, its retries and its balancing.
fn keep_backends(
    plan: &mut IngressPlan,
    config: &Config,
    names: &mut names::NameAllocator,
    existing: &[crate::translate::target::ExistingPolicy],
) {
    use crate::translate::target::envoy_gateway::backend_traffic_policy;
    let mut namer = plan_namer(plan, names);
    let kept = crate::translate::target::backend::BackendSettings {
        data_plane: "ingress-nginx",
        stream_idle: Some(nginx::timeouts::duration(plan.idle_timeout)),
        // Envoy Gateway's own connect timeout is 10 s (`TCPTimeout.ConnectTimeout`).
        connect: (plan.connect_timeout != 10)
            .then(|| nginx::timeouts::duration(plan.connect_timeout)),
        retry: plan.retry.clone(),
        balancing: plan.balancing.clone(),
        rate_limit: plan.rate_limit.clone(),
        // nginx.tmpl: no per-upstream connection or request limit (`max_conns`, queues); its
        // bound is `max-worker-connections` per worker, shared by all traffic.
        circuit_breaker: Some(
            crate::translate::target::backend::CircuitBreaker::unlimited(
                "ingress-nginx limited no backend's connections or requests",
            ),
        ),
        destination: None,
    };
    let policy = (config.target == crate::config::Target::EnvoyGateway)
        .then_some(&mut namer as &mut crate::translate::target::Namer);
    let notes = backend_traffic_policy::keep(
        &mut plan.result.generated,
        &plan.name,
        &kept,
        policy,
        existing,
    );
    drop(namer);
    plan.result.notes.extend(notes);
    note_renamed(plan, names);
}

/// Writes the target's policies for the plan's access controls on the routes it forwards
/// with (`routes`), or makes those routes fail closed (`translate::target`); `others` are
/// other Ingresses' routes on the same hosts.
fn protect(
    plan: &mut IngressPlan,
    config: &Config,
    names: &mut names::NameAllocator,
    (routes, others): (
        &[crate::translate::target::RouteScope],
        &[&crate::translate::target::RouteScope],
    ),
    served: &crate::translate::target::Served,
) {
    let mut namer = plan_namer(plan, names);
    let done = crate::translate::target::protect(
        config,
        &plan.access,
        (routes, others),
        served,
        (&plan.namespace, &plan.name),
        &mut namer,
    );
    if done.fail_closed {
        crate::translate::target::close(&mut plan.result.generated, routes);
    }
    plan.result.generated.extend(done.generated);
    plan.result.notes.extend(done.notes);
    plan.result.grants.extend(done.grants);
}

/// Builds the plan of one Ingress.
fn plan(
    index: &Index,
    config: &Config,
    pos: usize,
    name: &str,
    namespace: &str,
    ing: &Ingress,
) -> IngressPlan {
    let mut notes = Vec::new();
    let class = class::resolve(index, config, ing, &mut notes);
    let hosts = routes::build_hosts(
        index,
        namespace,
        ing,
        config.ingress_mode,
        class.dialect,
        config.require_hostname,
        &mut notes,
    );
    for h in &hosts {
        if let Some(host) = h.host.as_deref().filter(|h| h.starts_with("*.")) {
            notes.push(wildcard::note(host, &h.field));
        }
    }
    let spec = ing.spec.as_ref();
    let nginx_resource_default = class.reads_nginx_annotations()
        && config.ingress_mode == IngressMode::Migrate
        && spec
            .and_then(|s| s.default_backend.as_ref())
            .is_some_and(|b| b.resource.is_some());
    let default_backend = if nginx_resource_default {
        // createServers reads a defaultBackend only when it names a Service.
        notes.push(
            Diagnostic::new(
                Code::NginxResourceBackendSkipped,
                "defaultBackend is a resource backend, which ingress-nginx ignores (only a Service defaultBackend is used); not translated",
            )
            .at("spec.defaultBackend"),
        );
        None
    } else {
        spec.and_then(|s| s.default_backend.as_ref())
            .and_then(|b| backends::convert(index, namespace, b, "spec.defaultBackend", &mut notes))
    };
    let tls = tls::entries(ing);
    class::note_class_annotations(ing, &class, &mut notes);
    let mut result = SourceResult::new(pos);
    result.notes = notes;
    let mut plan = IngressPlan {
        name: names::dns_label_chars(name),
        namespace: namespace.to_string(),
        created: ing.metadata.creation_timestamp.clone(),
        naming_scope: String::new(),
        class,
        hosts,
        kind: RouteKind::Http,
        passthrough: false,
        default_backend,
        has_rules: spec.is_some_and(|s| s.rules.as_ref().is_some_and(|r| !r.is_empty())),
        default_backend_shadowed: false,
        tls,
        force_ssl_redirect: false,
        ssl_redirect_disabled: false,
        ssl_redirect_default: false,
        regex_paths: false,
        hsts: None,
        no_tls_redirect: Vec::new(),
        http_redirect_code: 308,
        default_certificate: None,
        idle_timeout: 60,
        connect_timeout: 5,
        upstream: Default::default(),
        balancing: None,
        retry: None,
        rate_limit: None,
        access: Vec::new(),
        canary: None,
        result,
    };
    if plan.class.reads_nginx_annotations() {
        // The controller that served the class (its IngressClass's `spec.controller`, else
        // ingress-nginx's default), as the repository or the configuration describes it.
        let controller = nginx::ControllerView {
            known: index.nginx_controller(&plan.class.nginx_controller_class()),
        };
        let prefix = controller.annotations_prefix();
        let mut ann = nginx::Annotations::of(ing, &prefix);
        let first_note = plan.result.notes.len();
        if !nginx::controller_gate(
            &mut plan,
            ing,
            &mut ann,
            &controller,
            index.namespace_labels(namespace),
        ) {
            return plan;
        }
        // `--enable-annotation-validation=false` (`parser.EnableAnnotationValidation`): values
        // are no longer checked, so none rejects the Ingress.
        let validating = !controller.flag_is_false("--enable-annotation-validation");
        if let Some((key, value, rule)) = nginx::validation::rejection(&ann).filter(|_| validating)
        {
            // ingress-nginx never loads the Ingress: nothing of it is served.
            plan.hosts.clear();
            plan.default_backend = None;
            plan.tls.clear();
            plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxIngressRejected,
                    format!(
                        "{}{key} {value:?} is not {rule}: ingress-nginx rejects the whole Ingress (annotation validation), so it served none of its paths and nothing is translated; fix the annotation if the Ingress was meant to work",
                        nginx::PREFIX
                    ),
                )
                .at(nginx::field(&key)),
            );
            nginx::relabel_prefix(&mut plan.result.notes[first_note..], &prefix);
            return plan;
        }
        // Every other validator of ingress-nginx's annotation table (the fact table the
        // behaviour model reads too).
        let full: std::collections::BTreeMap<String, String> = ing
            .metadata
            .annotations
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect();
        if let Some((key, value)) =
            crate::semantics::ingress_nginx::invalid_annotation(&full, prefix.trim_end_matches('/'))
                .filter(|_| validating)
        {
            plan.hosts.clear();
            plan.default_backend = None;
            plan.tls.clear();
            plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxIngressRejected,
                    format!(
                        "{key} {value:?} is refused by ingress-nginx's validator for it: ingress-nginx rejects the whole Ingress (annotation validation), so it served none of its paths and nothing is translated; fix the annotation if the Ingress was meant to work"
                    ),
                )
                .at(format!("metadata.annotations[\"{key}\"]")),
            );
            return plan;
        }
        let settings = controller.settings();
        plan.default_certificate = controller.default_certificate();
        nginx::apply(&mut plan, &ann, config, settings);
        nginx::relabel_prefix(&mut plan.result.notes[first_note..], &prefix);
    }
    if plan.hosts.is_empty() && plan.default_backend.is_none() && plan.canary.is_none() {
        plan.result.notes.push(Diagnostic::new(
            Code::IngressNothingToRoute,
            "the Ingress has no rule with a usable path and no defaultBackend; nothing is generated",
        ));
    }
    plan
}

/// Names, once per class (on its first Ingress), the dialect and GatewayClass chosen when
/// configuration did not choose them.
fn note_class_choices(plans: &mut [IngressPlan], config: &Config) {
    let mut seen = BTreeSet::new();
    for plan in plans {
        if !seen.insert(plan.class.name.clone()) {
            continue;
        }
        if let Some(note) = plan.class.choice_note(config.ingress_mode) {
            plan.result.notes.push(note);
        }
    }
}

/// The ingress-nginx controllers the Ingresses of the index were served by, one per class
/// whose ingress-nginx annotations take effect, with the configuration the translation used.
pub(crate) fn controllers_in_use(
    index: &Index,
    config: &Config,
) -> Vec<crate::controllers::ControllerUse> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for obj in &index.objects {
        let SourceBody::Ingress(ing) = &obj.body else {
            continue;
        };
        if index.is_patch_file(&obj.source.file) {
            continue;
        }
        let class = class::resolve(index, config, ing, &mut Vec::new());
        if !class.reads_nginx_annotations() || !seen.insert(class.name.clone()) {
            continue;
        }
        let controller = class.nginx_controller_class();
        let known = index.nginx_controller(&controller);
        out.push(crate::controllers::ControllerUse::new(
            class.name, controller, known,
        ));
    }
    out
}

/// Names, once per class (on its first Ingress), the defaults assumed for an ingress-nginx
/// controller neither the repository nor the configuration describes.
fn note_assumed_controllers(plans: &mut [IngressPlan], index: &Index, config: &Config) {
    // Envoy Gateway carries nginx's timeouts exactly (`nginx::timeouts::read_settings`).
    let carried: Vec<&str> = if config.target == crate::config::Target::EnvoyGateway {
        [
            nginx::timeouts::KEYS,
            nginx::retries::SETTINGS,
            nginx::balancing::SETTINGS,
            nginx::rate_limits::SETTINGS,
        ]
        .concat()
    } else {
        Vec::new()
    };
    let mut seen = BTreeSet::new();
    for plan in plans {
        if !plan.class.reads_nginx_annotations() || !seen.insert(plan.class.name.clone()) {
            continue;
        }
        let controller = plan.class.nginx_controller_class();
        let subject = match &plan.class.name {
            Some(n) => format!("IngressClass {n}"),
            None => "Ingresses without a class".into(),
        };
        if let Some(known) = index.nginx_controller(&controller) {
            let mut untranslated = known.untranslated_settings();
            untranslated.retain(|s| !carried.iter().any(|k| s.starts_with(&format!("{k}="))));
            if !untranslated.is_empty() {
                let mut d = Diagnostic::new(
                    Code::NginxControllerSetting,
                    format!(
                        "{subject}: its ingress-nginx controller ({controller}, from {}) sets {}, which change what clients get and are not carried over by the migration (docs/controllers.md); check what each did before cutting over",
                        known.source.describe(),
                        crate::diagnostic::list_some(&untranslated, 8)
                    ),
                );
                if let Some(field) = &plan.class.field {
                    d = d.at(field.clone());
                }
                plan.result.notes.push(d);
            }
            if !known.caveats.is_empty() {
                let mut d = Diagnostic::new(
                    Code::NginxControllerConfigIncomplete,
                    format!(
                        "{subject}: the configuration of its ingress-nginx controller ({controller}) is read from {}, but {}; confirm the settings the translation used (the report's controllers section), or give them with controllers.{} in .gateway-migrate.yaml or --controller-config",
                        known.source.describe(),
                        known.caveats.join("; "),
                        class::yaml_key(
                            plan.class
                                .name
                                .as_deref()
                                .unwrap_or(crate::config::ANY_INGRESS_CLASS)
                        )
                    ),
                );
                if let Some(field) = &plan.class.field {
                    d = d.at(field.clone());
                }
                plan.result.notes.push(d);
            }
            continue;
        }
        let key = plan
            .class
            .name
            .as_deref()
            .unwrap_or(crate::config::ANY_INGRESS_CLASS);
        let assumed = crate::controllers::assumed_defaults()
            .map(|(name, value)| match (value, name.starts_with("--")) {
                ("", true) => format!("{name} unset"),
                ("", false) => format!("{name}=\"\""),
                _ => format!("{name}={value}"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let mut d = Diagnostic::new(
            Code::NginxControllerConfigAssumed,
            format!(
                "{subject}: the ingress-nginx controller serving it ({controller}) is not installed by the repository and not described by the configuration, so its defaults are assumed, except that the annotations its Ingresses use are taken to have taken effect: {assumed}; confirm them, or give its ConfigMap and flags with controllers.{} in .gateway-migrate.yaml or --controller-config",
                class::yaml_key(key)
            ),
        );
        if let Some(field) = &plan.class.field {
            d = d.at(field.clone());
        }
        plan.result.notes.push(d);
    }
}

/// Two Ingresses using the same HTTPS backend Service ask for the same BackendTLSPolicy: keep
/// the first.
fn dedupe_policies(plans: &mut [IngressPlan]) {
    let mut seen = BTreeSet::new();
    for plan in plans {
        plan.result.generated.retain(|g| match g {
            Generated::BackendTlsPolicy(p) => {
                seen.insert((p.metadata.namespace.clone(), p.metadata.name.clone()))
            }
            _ => true,
        });
    }
}
