//! What ingress-nginx decides per host from every Ingress of the class at once: it builds one
//! nginx `server` per host out of all of them, so one Ingress's paths, TLS and annotations
//! change how another Ingress's paths behave. Sources (kubernetes/ingress-nginx, controller
//! v1.15.1, the commit `docs/equivalence.md` names):
//!
//! - `internal/ingress/controller/store/store.go` `sortIngressSlice`: Ingresses are read
//!   oldest first (`metadata.creationTimestamp` when the manifest has it); equal creation
//!   times (objects applied together, the usual assumption offline) by `namespace/name`
//!   descending.
//! - `internal/ingress/controller/controller.go` `createServers`: the first Ingress naming a
//!   host creates its server, whose root location is that Ingress's `defaultBackend` (or the
//!   controller's 404); an Ingress with a `defaultBackend` and no rules configures the
//!   catch-all server. `getBackendServers`: a path already present with the same `pathType`
//!   keeps the Ingress read first; an Ingress's `Prefix /` replaces the default root.
//! - `internal/ingress/controller/template/template.go` `enforceRegexModifier`,
//!   `buildLocation`: when one location of a server uses regex matching, every location of
//!   the server is `~* "^<path>"`.
//! - `rootfs/etc/nginx/lua/lua_ingress.lua` `redirect_to_https` and `createServers`' TLS
//!   loop: a host of any Ingress with a `tls` section has a certificate, and then every
//!   location whose own Ingress keeps `ssl-redirect` (default true) redirects plain HTTP.
//! - `ssl-passthrough` (`annotations/sslpassthrough`, `nginx.tmpl` stream section) hands the
//!   host's whole TLS stream to the backend: nginx terminates no TLS for it.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::{Code, Diagnostic};

use super::super::ir::IngressPlan;
use super::super::routes;
use super::rewrite;

/// A host of a controller (the classes it serves): nginx's server.
type ServerKey = (Option<String>, Option<String>);

/// The plans ingress-nginx reads, in the order it reads them (see the module sources).
pub(crate) fn nginx_order(plans: &[IngressPlan]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..plans.len())
        .filter(|&i| plans[i].class.reads_nginx_annotations() && plans[i].canary.is_none())
        .collect();
    order.sort_by(|&a, &b| read_order(&plans[a]).cmp(&read_order(&plans[b])));
    order
}

/// The key ingress-nginx reads Ingresses by (`store.go` `sortIngressSlice`): oldest first,
/// then `namespace/name` descending. Without `creationTimestamp` (the usual manifest) all are
/// taken as created together; an Ingress with one counts as older than one without.
pub(crate) fn read_order(plan: &IngressPlan) -> ReadOrder {
    read_order_of(plan.created.as_ref(), &plan.namespace, &plan.name)
}

/// The sort key of [`read_order`]: created-or-not, creation time, `namespace/name` reversed.
pub(crate) type ReadOrder = (
    bool,
    Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>,
    std::cmp::Reverse<(String, String)>,
);

/// [`read_order`] from the parts, for readers without a plan (the equivalence model).
pub(crate) fn read_order_of(
    created: Option<&k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>,
    namespace: &str,
    name: &str,
) -> ReadOrder {
    (
        created.is_none(),
        created.cloned(),
        std::cmp::Reverse((namespace.to_string(), name.to_string())),
    )
}

/// A path that two Ingresses of a host both define keeps the Ingress nginx reads first; the
/// other's copy was dead configuration and is not translated (Gateway API would break the
/// tie by creation time and then name, usually the other way).
pub(crate) fn drop_shadowed_paths(plans: &mut [IngressPlan]) {
    let mut owners: BTreeMap<(ServerKey, String, String), String> = BTreeMap::new();
    for i in nginx_order(plans) {
        let plan = &mut plans[i];
        let who = format!("{}/{}", plan.namespace, plan.name);
        let mut notes = Vec::new();
        for host in &mut plan.hosts {
            let key = (plan.class.controller_group(), host.host.clone());
            host.rules.retain(|r| {
                if r.fixed_path {
                    return true;
                }
                let slot = (key.clone(), r.source_path.clone(), r.source_type.clone());
                match owners.get(&slot) {
                    Some(winner) if *winner != who => {
                        notes.push(
                            Diagnostic::new(
                                Code::IngressDuplicatePath,
                                format!(
                                    "Ingress {winner} also defines path {:?} ({}) for host {}: ingress-nginx kept the Ingress it read first (the oldest; for equal creation times namespace/name descending, which is {winner}), so this path is not translated; if this Ingress is the older one in the cluster, move the path",
                                    r.source_path,
                                    r.source_type,
                                    host.host.as_deref().unwrap_or("*")
                                ),
                            )
                            .at(&r.field),
                        );
                        false
                    }
                    _ => {
                        owners.insert(slot, who.clone());
                        true
                    }
                }
            });
        }
        plan.result.notes.extend(notes);
    }
}

/// Applies the host-wide decisions: HTTPS redirects per host, the owner of each host's root,
/// passthrough for the whole host, and regex matching for every path of a host where one
/// Ingress asks for it. Runs after canaries are merged.
pub(crate) fn apply(plans: &mut [IngressPlan]) {
    for plan in plans.iter_mut() {
        let decided: Vec<bool> = plan
            .hosts
            .iter()
            .map(|h| plan.wants_ssl_redirect(h.host.as_deref()))
            .collect();
        for (host, redirect) in plan.hosts.iter_mut().zip(decided) {
            host.ssl_redirect = redirect;
        }
    }
    let order = nginx_order(plans);
    // The first Ingress without rules configures the catch-all server's backend.
    let mut catch_all: BTreeSet<Option<String>> = BTreeSet::new();
    for &i in &order {
        let plan = &mut plans[i];
        if plan.default_backend.is_some() && !plan.has_rules {
            plan.default_backend_shadowed = !catch_all.insert(plan.class.controller_group());
        }
    }
    let mut certified: BTreeSet<ServerKey> = BTreeSet::new();
    let mut passthrough: BTreeMap<ServerKey, String> = BTreeMap::new();
    let mut regex: BTreeMap<ServerKey, String> = BTreeMap::new();
    let mut members: BTreeMap<ServerKey, Vec<usize>> = BTreeMap::new();
    for &i in &order {
        let plan = &plans[i];
        for host in &plan.hosts {
            let key = (plan.class.controller_group(), host.host.clone());
            // The HTTPS redirect looks the certificate up by the request's host
            // (certificate.lua configured_for_current_request): a hostless rule's catch-all
            // server has none of its own, so only force-ssl-redirect redirects there.
            if !plan.tls.is_empty() && host.host.is_some() {
                certified.insert(key.clone());
            }
            if plan.passthrough {
                passthrough
                    .entry(key.clone())
                    .or_insert_with(|| plan.name.clone());
            }
            if plan.regex_paths {
                regex
                    .entry(key.clone())
                    .or_insert_with(|| plan.name.clone());
            }
            members.entry(key).or_default().push(i);
        }
    }
    // certificate.lua get_pem_cert_uid: a host without a certificate of its own is served
    // with the one of the wildcard server `*.<rest of the host>`.
    let wildcard_certs: Vec<ServerKey> = certified
        .iter()
        .filter(|(_, h)| h.as_deref().is_some_and(|h| h.starts_with("*.")))
        .cloned()
        .collect();
    for key in members.keys() {
        let covered = key
            .1
            .as_deref()
            .and_then(super::super::wildcard::certificate_fallback)
            .is_some_and(|w| wildcard_certs.contains(&(key.0.clone(), Some(w))));
        if covered {
            certified.insert(key.clone());
        }
    }
    for (key, indices) in &members {
        let classes: BTreeSet<String> = indices
            .iter()
            .map(|&i| plans[i].class.name.clone().unwrap_or_else(|| "-".into()))
            .collect();
        if classes.len() > 1 {
            let list = classes.iter().cloned().collect::<Vec<_>>().join(", ");
            for &i in indices {
                let field = plans[i]
                    .hosts
                    .iter()
                    .find(|h| h.host == key.1)
                    .map(|h| h.field.clone());
                let mut d = Diagnostic::new(
                    Code::NginxClassesShareController,
                    format!(
                        "host {}: IngressClasses {list} are served by one ingress-nginx ({}), which built one server for the host from all their Ingresses (redirects, regex matching and paths are shared, and so does the translation); but each class gets its own Gateway, so the host is on several addresses: map the classes to one Gateway, or point DNS at one",
                        key.1.as_deref().unwrap_or("*"),
                        key.0.as_deref().unwrap_or("-")
                    ),
                );
                if let Some(f) = field {
                    d = d.at(f);
                }
                plans[i].result.notes.push(d);
            }
        }
        // ssl-redirect: per location, from the location's own Ingress, whenever the host
        // has a certificate from any Ingress.
        let redirects: Vec<bool> = indices
            .iter()
            .map(|&i| {
                let p = &plans[i];
                p.force_ssl_redirect
                    || (p.ssl_redirect_default
                        && !p.ssl_redirect_disabled
                        && certified.contains(key))
            })
            .collect();
        let mixed = redirects.iter().any(|r| *r) && redirects.iter().any(|r| !*r);
        // The root location: an Ingress's own `/` path replaces the default root of the
        // Ingress that created the server.
        let names_root = |i: usize| {
            plans[i].hosts.iter().filter(|h| h.host == key.1).any(|h| {
                h.rules
                    .iter()
                    .any(|r| r.source_path == "/" && r.source_type != "Exact" && !r.fixed_path)
            })
        };
        let Some(root_owner) = indices
            .iter()
            .copied()
            .find(|&i| names_root(i))
            .or_else(|| indices.first().copied())
        else {
            continue;
        };
        for (&i, redirect) in indices.iter().zip(&redirects) {
            let first = i == root_owner;
            let plan = &mut plans[i];
            let mut notes = Vec::new();
            let own_tls = plan.tls.clone();
            let own_passthrough = plan.passthrough;
            for host in plan.hosts.iter_mut().filter(|h| h.host == key.1) {
                // The catch-all server always exists (createServers makes it before reading
                // any Ingress): a hostless rule never owns its root.
                host.owns_root = first && key.1.is_some();
                host.redirect_own_paths = mixed;
                if *redirect
                    && !host.ssl_redirect
                    && super::super::tls::certificates(&own_tls, host.host.as_deref()).is_none()
                {
                    notes.push(
                        Diagnostic::new(
                            Code::NginxSslRedirectFromOtherIngress,
                            format!(
                                "host {}: another Ingress of the class gives the host a certificate (its own tls, or a wildcard one), so ingress-nginx redirected this Ingress's plain-HTTP requests to HTTPS too; so does the translation",
                                host.host.as_deref().unwrap_or("*")
                            ),
                        )
                        .at(&host.field),
                    );
                }
                host.ssl_redirect = *redirect;
                if let Some(owner) = passthrough.get(key)
                    && !own_passthrough
                {
                    host.passthrough_elsewhere = true;
                    notes.push(
                        Diagnostic::new(
                            Code::NginxSslPassthroughHostWide,
                            format!(
                                "host {}: Ingress {owner} uses ssl-passthrough, so ingress-nginx passed the host's whole TLS traffic to its backend and never served this Ingress's paths over HTTPS; they get no HTTPS listener (plain HTTP stays as nginx served it: redirected to HTTPS when the host redirects)",
                                host.host.as_deref().unwrap_or("*")
                            ),
                        )
                        .at(&host.field),
                    );
                }
            }
            plan.result.notes.extend(notes);
        }
        if let Some(culprit) = regex.get(key) {
            for &i in indices {
                make_regex_host(&mut plans[i], key, culprit);
            }
            fill_strip_prefix_holes(plans, key, indices);
        }
    }
}

/// A strip-prefix rule is a `PathPrefix` (its rewrite needs one), which also matches paths
/// nginx's regex location did not (`/foo/bar` and `/foo/bar/` for `/foo/bar/(.+)`), and which
/// Istio ranks above every regex. Each such path gets an Exact rule (ranked above any prefix)
/// copying the rule nginx used for it: the longest other location of the host whose
/// `~* "^path"` matches (ingress-nginx's "path priority" example routes as documented).
fn fill_strip_prefix_holes(plans: &mut [IngressPlan], key: &ServerKey, indices: &[usize]) {
    // (plan, rule position, nginx location regex, location length) of the host's locations.
    let mut locations: Vec<(usize, usize, regex::Regex, usize, String)> = Vec::new();
    let mut holes: Vec<(usize, String, String)> = Vec::new();
    for &i in indices {
        for host in plans[i].hosts.iter().filter(|h| h.host == key.1) {
            for (r, rule) in host.rules.iter().enumerate() {
                let strip = rule.fixed_path
                    && rule
                        .rewrite_path
                        .as_ref()
                        .is_some_and(|m| m.type_ == "ReplacePrefixMatch");
                if strip {
                    for hole in rewrite::strip_prefix_holes(&rule.source_path) {
                        holes.push((i, hole, rule.source_path.clone()));
                    }
                }
                if rule.fixed_path && !strip {
                    continue;
                }
                if let Ok(re) = regex::Regex::new(&format!("(?i)^{}", rule.source_path)) {
                    locations.push((i, r, re, rule.source_path.len(), rule.source_path.clone()));
                }
            }
        }
    }
    // controller.go getBackendServers: longest first, then path descending.
    locations.sort_by(|a, b| b.3.cmp(&a.3).then_with(|| b.4.cmp(&a.4)));
    let mut additions = Vec::new();
    for (owner, hole, strip_path) in holes {
        let Some((i, r, winner_path)) = locations
            .iter()
            .find(|(_, _, re, _, _)| re.is_match(&hole))
            .map(|(i, r, _, _, p)| (*i, *r, p.clone()))
        else {
            continue;
        };
        let Some(winner) = plans[i]
            .hosts
            .iter()
            .find(|h| h.host == key.1)
            .and_then(|h| h.rules.get(r))
        else {
            continue;
        };
        if winner
            .rewrite_path
            .as_ref()
            .is_some_and(|m| m.type_ == "ReplacePrefixMatch")
        {
            // ReplacePrefixMatch needs a PathPrefix match: not expressible as Exact.
            continue;
        }
        let mut exact = winner.clone();
        exact.path = crate::gwapi::HttpPathMatch {
            type_: routes::EXACT.into(),
            value: hole.clone(),
        };
        exact.fixed_path = true;
        additions.push((i, exact, owner, hole, strip_path, winner_path));
    }
    // Positions above refer to the rules before any addition.
    for (i, exact, owner, hole, strip_path, winner_path) in additions {
        let Some(host) = plans[i].hosts.iter_mut().find(|h| h.host == key.1) else {
            continue;
        };
        host.rules.push(exact);
        routes::sort_rules(&mut host.rules);
        let field = host.field.clone();
        plans[owner].result.notes.push(
            Diagnostic::new(
                Code::NginxRewriteTarget,
                format!(
                    "{hole} matches the strip-prefix PathPrefix of {strip_path:?} but not nginx's location regex; nginx sent it to location {winner_path:?}, and so does an Exact {hole} rule"
                ),
            )
            .at(field),
        );
    }
}

/// Every nginx location of the host becomes the case-insensitive regex nginx matched.
fn make_regex_host(plan: &mut IngressPlan, key: &ServerKey, culprit: &str) {
    let own = plan.regex_paths;
    let mut converted = false;
    for host in plan.hosts.iter_mut().filter(|h| h.host == key.1) {
        host.regex = true;
        for rule in host.rules.iter_mut().filter(|r| !r.fixed_path) {
            let before = rule.path.clone();
            rule.path = rewrite::regex_path(rule);
            if rule.path != before {
                rewrite::forget_path_notes(&mut plan.result.notes, &rule.field);
                converted = true;
            }
        }
        // nginx compiled the locations with PCRE; Envoy and Istio take RE2 syntax only.
        let notes = &mut plan.result.notes;
        host.rules.retain(|r| {
            if r.fixed_path || regex::Regex::new(&r.path.value).is_ok() {
                return true;
            }
            notes.push(
                Diagnostic::new(
                    Code::NginxPcreOnlyRegex,
                    format!(
                        "path {:?} is a PCRE regex (nginx location ~* \"^{}\") that RE2-style engines reject (lookaround, backreferences); the rule is not translated, so its requests reach whichever other rule matches",
                        r.source_path, r.source_path
                    ),
                )
                .at(&r.field),
            );
            false
        });
        routes::sort_rules(&mut host.rules);
        if !own && converted {
            plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxUseRegexHostWide,
                    format!(
                        "host {}: Ingress {culprit} uses use-regex/rewrite-target, so ingress-nginx matched this Ingress's paths as case-insensitive regexes anchored at the start too; they become RegularExpression (?i)<path>.*",
                        host.host.as_deref().unwrap_or("*")
                    ),
                )
                .at(&host.field),
            );
        }
    }
}
