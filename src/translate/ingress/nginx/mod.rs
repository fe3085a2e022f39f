//! ingress-nginx annotations (`nginx.ingress.kubernetes.io/*`), one file per family. Each
//! handler edits the [`IngressPlan`]; every annotation no handler translates gets a note with
//! its own code from `other`.

pub(crate) mod backend_protocol;
pub(crate) mod canary;
pub(crate) mod cors;
pub(crate) mod other;
pub(crate) mod passthrough;
pub(crate) mod redirect;
pub(crate) mod rewrite;
pub(crate) mod servers;
pub(crate) mod timeouts;
pub(crate) mod upstream;
pub(crate) mod validation;

use std::collections::BTreeMap;

use crate::config::Config;
use crate::model::ingress::Ingress;

use super::ir::IngressPlan;

pub(crate) const PREFIX: &str = "nginx.ingress.kubernetes.io/";

/// The ingress-nginx annotations of one Ingress, keyed without the prefix.
#[derive(Debug, Clone, Default)]
pub(crate) struct Annotations {
    map: BTreeMap<String, String>,
}

impl Annotations {
    pub(crate) fn of(ing: &Ingress) -> Self {
        let map = ing
            .metadata
            .annotations
            .iter()
            .flatten()
            .filter_map(|(k, v)| {
                k.strip_prefix(PREFIX)
                    .map(|short| (short.to_string(), v.trim().to_string()))
            })
            .collect();
        Annotations { map }
    }

    /// Annotations from `(short key, value)` pairs (tests).
    #[cfg(test)]
    pub(crate) fn from_pairs(pairs: &[(&str, &str)]) -> Self {
        Annotations {
            map: pairs
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
        }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.map.get(key).map(String::as_str)
    }

    /// A boolean annotation, read as ingress-nginx reads it (`parser.GetBoolAnnotation`,
    /// Go's `strconv.ParseBool`); anything else is `None`, which ingress-nginx treats as
    /// unset.
    pub(crate) fn flag(&self, key: &str) -> Option<bool> {
        parse_bool(self.get(key)?)
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Go's `strconv.ParseBool`: `1 t T TRUE true True` and `0 f F FALSE false False`; nothing
/// else (not `yes`, not `tRuE`).
pub(crate) fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// The controller ConfigMap's access checks that reach this Ingress's locations, each an
/// error: Gateway API routes carry none. `whitelist-`/`denylist-source-range` apply where the
/// Ingress has no annotation of its own (`ipallowlist`/`ipdenylist` `Parse`), `block-cidrs`
/// everywhere (an http-level `deny`), `global-auth-url` where the Ingress has no `auth-url`
/// and does not set `enable-global-auth: "false"` (template.go `shouldApplyGlobalAuth`).
pub(crate) fn note_controller_access(
    plan: &mut IngressPlan,
    ann: &Annotations,
    settings: Option<&std::collections::BTreeMap<String, String>>,
) {
    let Some(settings) = settings else {
        return;
    };
    let own_allow =
        ann.get("allowlist-source-range").is_some() || ann.get("whitelist-source-range").is_some();
    let applies = |key: &str| match key {
        "whitelist-source-range" => !own_allow,
        "denylist-source-range" => ann.get("denylist-source-range").is_none(),
        "global-auth-url" => {
            ann.get("auth-url").is_none() && ann.flag("enable-global-auth") != Some(false)
        }
        _ => true,
    };
    for key in [
        "whitelist-source-range",
        "denylist-source-range",
        "block-cidrs",
        "global-auth-url",
    ] {
        let Some(value) = settings.get(key).filter(|v| !v.trim().is_empty()) else {
            continue;
        };
        if !applies(key) {
            continue;
        }
        plan.result.notes.push(
            crate::diagnostic::Diagnostic::new(
                crate::diagnostic::Code::NginxControllerAccess,
                format!("the controller's ConfigMap sets {key}: {value:?}, which checks every request to this Ingress; Gateway API routes carry no access control, so the migrated routes are open (not translated)"),
            )
            .at("spec".to_string()),
        );
    }
}

/// The note field of an annotation.
pub(crate) fn field(key: &str) -> String {
    format!("metadata.annotations[\"{PREFIX}{key}\"]")
}

/// Applies every family to the plan. Order matters: passthrough replaces everything;
/// the protocol decides the route kind; paths are reinterpreted before rewrites and
/// redirects are attached; canary settings are read last (merged by [`canary::merge`]).
///
/// `settings` is the controller's ConfigMap when the repository installs it: its
/// `ssl-redirect` and `force-ssl-redirect` are the defaults the annotations override
/// (`internal/ingress/annotations/sslredirect`… fall back to the ConfigMap's values; defaults
/// `true` and `false`, `config.go` `NewDefault`).
pub(crate) fn apply(
    plan: &mut IngressPlan,
    ann: &Annotations,
    config: &Config,
    settings: Option<&std::collections::BTreeMap<String, String>>,
) {
    let setting = |key: &str, default: bool| {
        settings
            .and_then(|s| s.get(key))
            .and_then(|v| parse_bool(v.trim()))
            .unwrap_or(default)
    };
    plan.ssl_redirect_default = setting("ssl-redirect", true);
    plan.force_ssl_redirect = setting("force-ssl-redirect", false);
    if ann.is_empty() {
        return;
    }
    if passthrough::apply(plan, ann) {
        other::note_ignored_by_passthrough(plan, ann);
        return;
    }
    backend_protocol::apply(plan, ann, config);
    rewrite::apply(plan, ann);
    upstream::apply(plan, ann);
    cors::apply(plan, ann);
    timeouts::apply(plan, ann);
    redirect::apply(plan, ann);
    canary::read(plan, ann);
    other::apply(plan, ann);
}
