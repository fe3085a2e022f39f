//! ingress-nginx annotations (`nginx.ingress.kubernetes.io/*`), one file per family. Each
//! handler edits the [`IngressPlan`]; every annotation no handler translates gets a note with
//! its own code from `other`.

pub(crate) mod access;
pub(crate) mod backend_protocol;
pub(crate) mod balancing;
pub(crate) mod canary;
pub(crate) mod cors;
pub(crate) mod other;
pub(crate) mod passthrough;
pub(crate) mod rate_limits;
pub(crate) mod redirect;
pub(crate) mod retries;
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

/// Annotations that only say how the controller's own settings apply to the Ingress
/// (`enable-global-auth`: whether `global-auth-url` does), read by [`note_controller_access`].
pub(crate) const CONTROLLER_KEYS: &[&str] = &["enable-global-auth"];

/// The ingress-nginx annotations of one Ingress, keyed without the prefix: string values as
/// `parser.normalizeString` gives them (each line trimmed), and the raw values, which
/// `parseBool` and `parseInt` read as they are (`internal/ingress/annotations/parser/main.go`:
/// `"true\n"` is not a boolean there).
#[derive(Debug, Clone, Default)]
pub(crate) struct Annotations {
    map: BTreeMap<String, String>,
    raw: BTreeMap<String, String>,
}

impl Annotations {
    /// The annotations under `prefix` (with its trailing `/`): [`PREFIX`] unless the
    /// controller runs with `--annotations-prefix`.
    pub(crate) fn of(ing: &Ingress, prefix: &str) -> Self {
        let raw: BTreeMap<String, String> = ing
            .metadata
            .annotations
            .iter()
            .flatten()
            .filter_map(|(k, v)| {
                k.strip_prefix(prefix)
                    .map(|short| (short.to_string(), v.clone()))
            })
            .collect();
        let map = raw
            .iter()
            .map(|(k, v)| (k.clone(), normalize_string(v)))
            .collect();
        Annotations { map, raw }
    }

    /// Drops an annotation the controller did not act on.
    pub(crate) fn remove(&mut self, key: &str) -> Option<String> {
        self.raw.remove(key);
        self.map.remove(key)
    }

    /// Annotations from `(short key, value)` pairs (tests).
    #[cfg(test)]
    pub(crate) fn from_pairs(pairs: &[(&str, &str)]) -> Self {
        let raw: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        Annotations {
            map: raw.clone(),
            raw,
        }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.map.get(key).map(String::as_str)
    }

    /// A boolean annotation, read as ingress-nginx reads it (`parser.GetBoolAnnotation`,
    /// Go's `strconv.ParseBool`); anything else is `None`, which ingress-nginx treats as
    /// unset.
    pub(crate) fn flag(&self, key: &str) -> Option<bool> {
        parse_bool(self.raw.get(key)?)
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }

    /// An integer annotation, read as ingress-nginx reads it (`parser.parseInt`: Go's
    /// `strconv.Atoi` on the raw value, so `" 7"` is no integer and the annotation counts as
    /// unset).
    pub(crate) fn int(&self, key: &str) -> Option<i64> {
        atoi(self.raw.get(key)?)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// `parser.normalizeString`: each line trimmed, the lines joined again.
fn normalize_string(value: &str) -> String {
    value
        .split('\n')
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
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

/// The controller that served an Ingress, as the translation reads it: its flags and
/// ConfigMap when the repository or the configuration describes it (`known`), else
/// ingress-nginx's defaults, with the annotations the Ingress uses taken to have loaded (the
/// assumption `ingress-nginx/controller-config-assumed` names).
pub(crate) struct ControllerView<'a> {
    pub(crate) known: Option<&'a crate::controllers::NginxController>,
}

impl<'a> ControllerView<'a> {
    /// The value of `--name=value` (the last one given wins, as with Go's `flag`).
    fn flag_value(&self, name: &str) -> Option<&'a str> {
        self.known?.flag_value(name)
    }

    /// A boolean flag: its last occurrence, bare or with a value `strconv.ParseBool` reads.
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.known.is_some_and(|k| k.flag(name))
    }

    /// A boolean flag whose last occurrence turns it off (`--name=false`).
    pub(crate) fn flag_is_false(&self, name: &str) -> bool {
        self.known
            .is_some_and(|k| k.flags.iter().any(|f| f.starts_with(name)) && !k.flag(name))
    }

    /// `--annotations-prefix` with its trailing `/` (`pkg/flags/flags.go`, default
    /// `nginx.ingress.kubernetes.io`).
    pub(crate) fn annotations_prefix(&self) -> String {
        match self.flag_value("--annotations-prefix") {
            Some(p) if !p.is_empty() => format!("{p}/"),
            _ => PREFIX.to_string(),
        }
    }

    /// `--default-ssl-certificate=namespace/name` (`pkg/flags/flags.go`).
    pub(crate) fn default_certificate(&self) -> Option<(String, String)> {
        let (ns, name) = self
            .flag_value("--default-ssl-certificate")?
            .split_once('/')?;
        (!ns.is_empty() && !name.is_empty()).then(|| (ns.to_string(), name.to_string()))
    }

    /// The ConfigMap's data when known.
    pub(crate) fn settings(&self) -> Option<&'a BTreeMap<String, String>> {
        self.known.map(|k| &k.config)
    }

    /// A ConfigMap key's value when known and set.
    pub(crate) fn setting(&self, key: &str) -> Option<&'a str> {
        self.settings()?.get(key).map(String::as_str)
    }
}

/// What the controller's configuration does to this Ingress's annotations before any is
/// translated: those under another prefix than `--annotations-prefix` were never read; with a
/// known configuration, `ssl-passthrough` does nothing without `--enable-ssl-passthrough`
/// (`internal/ingress/controller/controller.go` builds passthrough backends only when
/// `IsSSLPassthroughEnabled`) and snippets are removed unless `allow-snippet-annotations`
/// (`controller.go` `dropSnippetDirectives`). Returns `false` when the controller refused the
/// whole Ingress for an annotation above `annotations-risk-level`.
pub(crate) fn controller_gate(
    plan: &mut IngressPlan,
    ing: &Ingress,
    ann: &mut Annotations,
    controller: &ControllerView,
    namespace_labels: Option<&BTreeMap<String, String>>,
) -> bool {
    let prefix = controller.annotations_prefix();
    if prefix != PREFIX {
        let ignored: Vec<&str> = ing
            .metadata
            .annotations
            .iter()
            .flatten()
            .map(|(k, _)| k.as_str())
            .filter(|k| k.starts_with(PREFIX))
            .collect();
        if !ignored.is_empty() {
            plan.result.notes.push(crate::diagnostic::Diagnostic::new(
                crate::diagnostic::Code::NginxAnnotationPrefix,
                format!(
                    "the controller reads annotations under {prefix} (--annotations-prefix), so {} had no effect and {} not translated",
                    ignored.join(", "),
                    if ignored.len() == 1 { "is" } else { "are" }
                ),
            ));
        }
    }
    let Some(known) = controller.known else {
        return true;
    };
    // `--watch-namespace` / `--watch-namespace-selector` (`pkg/flags/flags.go`): the store's
    // informers list Ingresses of the watched namespaces only.
    if known.watches(&plan.namespace, namespace_labels) == Some(false) {
        return not_served(
            plan,
            format!(
                "the controller watches {} only, not namespace {}: it never served this Ingress, so nothing is translated",
                known
                    .flag_value("--watch-namespace")
                    .filter(|n| !n.is_empty())
                    .map(|n| format!("namespace {n}"))
                    .unwrap_or_else(|| format!(
                        "the namespaces selected by {}",
                        known
                            .flag_value("--watch-namespace-selector")
                            .unwrap_or_default()
                    )),
                plan.namespace
            ),
        );
    }
    // The legacy class annotation is served only when it equals `--ingress-class` (default
    // `nginx`; `store.go` `GetIngressClass`).
    let legacy_class = ing
        .spec
        .as_ref()
        .and_then(|s| s.ingress_class_name.as_ref())
        .is_none()
        .then(|| {
            ing.metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(crate::model::ingress::LEGACY_CLASS_ANNOTATION))
        })
        .flatten();
    let served_class = known.flag_value("--ingress-class").unwrap_or("nginx");
    if let Some(value) = legacy_class.filter(|v| v.as_str() != served_class) {
        return not_served(
            plan,
            format!(
                "its kubernetes.io/ingress.class is {value:?} but the controller serves {served_class:?} (--ingress-class): it never served this Ingress, so nothing is translated"
            ),
        );
    }
    // `--disable-catch-all` (`store.go` `syncIngress`): an Ingress with a defaultBackend is
    // ignored whole.
    if known.flag("--disable-catch-all")
        && ing
            .spec
            .as_ref()
            .is_some_and(|s| s.default_backend.is_some())
    {
        return not_served(
            plan,
            "the controller runs with --disable-catch-all, which ignores every Ingress with a defaultBackend: it never served this Ingress, so nothing is translated".to_string(),
        );
    }
    // `annotation-value-word-blocklist` (`store.go` `syncIngress`, `checkBadAnnotationValue`):
    // an Ingress with an annotation value containing a listed word is ignored whole.
    if let Some(list) = controller
        .setting("annotation-value-word-blocklist")
        .filter(|l| !l.is_empty())
    {
        // Split after trimming the whole list only: `a, b` has the word ` b`, and an empty
        // word (a trailing comma) is in every value.
        let words: Vec<&str> = list.trim().split(',').collect();
        let bad = ann.keys().find_map(|k| {
            let v = ann.get(k)?;
            words
                .iter()
                .find(|w| v.contains(**w))
                .map(|w| (k.to_string(), *w))
        });
        if let Some((key, word)) = bad {
            return not_served(
                plan,
                format!(
                    "{prefix}{key} contains {word:?}, a word of the controller's annotation-value-word-blocklist: ingress-nginx ignored the whole Ingress, so nothing is translated"
                ),
            );
        }
    }
    if let Some((key, risk)) =
        validation::too_risky(ann, controller.setting("annotations-risk-level"))
    {
        plan.hosts.clear();
        plan.default_backend = None;
        plan.tls.clear();
        plan.result.notes.push(
            crate::diagnostic::Diagnostic::new(
                crate::diagnostic::Code::NginxIngressRejected,
                format!(
                    "{prefix}{key} is a {risk} risk annotation, above the controller's annotations-risk-level ({}): ingress-nginx rejects the whole Ingress, so it served none of its paths and nothing is translated",
                    controller.setting("annotations-risk-level").unwrap_or(validation::DEFAULT_RISK_LEVEL)
                ),
            )
            .at(format!("metadata.annotations[\"{prefix}{key}\"]")),
        );
        return false;
    }
    if ann.flag("ssl-passthrough") == Some(true) && !controller.flag("--enable-ssl-passthrough") {
        ann.remove("ssl-passthrough");
        plan.result.notes.push(
            crate::diagnostic::Diagnostic::new(
                crate::diagnostic::Code::NginxSslPassthroughDisabled,
                "the controller runs without --enable-ssl-passthrough, so ssl-passthrough had no effect: TLS ended at nginx and the Ingress was served as an ordinary one, as it is translated",
            )
            .at(format!("metadata.annotations[\"{prefix}ssl-passthrough\"]")),
        );
    }
    let snippets_allowed = controller
        .setting("allow-snippet-annotations")
        .is_some_and(|v| parse_bool(v.trim()) == Some(true));
    if !snippets_allowed {
        let snippets: Vec<String> = ann
            .keys()
            .filter(|k| k.ends_with("-snippet"))
            .map(str::to_string)
            .collect();
        for key in snippets {
            ann.remove(&key);
            plan.result.notes.push(
                crate::diagnostic::Diagnostic::new(
                    crate::diagnostic::Code::NginxSnippetDropped,
                    format!("the controller's allow-snippet-annotations is off, so it removed {key} before use: it had no effect and is not translated"),
                )
                .at(format!("metadata.annotations[\"{prefix}{key}\"]")),
            );
        }
    }
    true
}

/// The controller never loaded the Ingress (another class, namespace or a rule of its own):
/// nothing of it is served or translated.
fn not_served(plan: &mut IngressPlan, why: String) -> bool {
    plan.hosts.clear();
    plan.default_backend = None;
    plan.tls.clear();
    plan.result.notes.push(crate::diagnostic::Diagnostic::new(
        crate::diagnostic::Code::NginxIngressNotWatched,
        why,
    ));
    false
}

/// Notes name annotations under [`PREFIX`]; under a controller with another
/// `--annotations-prefix` they name the keys the Ingress really has.
pub(crate) fn relabel_prefix(notes: &mut [crate::diagnostic::Diagnostic], prefix: &str) {
    if prefix == PREFIX {
        return;
    }
    for n in notes {
        if n.code == crate::diagnostic::Code::NginxAnnotationPrefix {
            continue;
        }
        n.message = n.message.replace(PREFIX, prefix);
        if let Some(field) = &mut n.location.field {
            *field = field.replace(PREFIX, prefix);
        }
    }
}

/// The `Strict-Transport-Security` value ingress-nginx sends on every HTTPS answer
/// (`rootfs/etc/nginx/lua/lua_ingress.lua` `header`, run by every location's header filter:
/// `max-age=` then `; includeSubDomains` and `; preload`), from the ConfigMap's `hsts`,
/// `hsts-max-age`, `hsts-include-subdomains` and `hsts-preload` (defaults `true`,
/// `31536000`, `true`, `false`: `config.go` `NewDefault`). A boolean the decoder cannot read
/// keeps its default; an empty one is false (mapstructure's weak decoding).
pub(crate) fn hsts(settings: Option<&BTreeMap<String, String>>) -> Option<String> {
    let flag = |key: &str, default: bool| match settings.and_then(|s| s.get(key)) {
        None => default,
        Some(v) if v.is_empty() => false,
        Some(v) => parse_bool(v).unwrap_or(default),
    };
    if !flag("hsts", true) {
        return None;
    }
    let max_age = settings
        .and_then(|s| s.get("hsts-max-age"))
        .map_or("31536000", String::as_str);
    let mut value = format!("max-age={max_age}");
    if flag("hsts-include-subdomains", true) {
        value.push_str("; includeSubDomains");
    }
    if flag("hsts-preload", false) {
        value.push_str("; preload");
    }
    Some(value)
}

/// `parser.StringToURL`, which `ReadConfig` applies to `global-auth-url` (configmap.go: a URL
/// it refuses is dropped): a scheme, a host, no `..` in the host.
pub(crate) fn valid_auth_url(url: &str) -> bool {
    url.split_once("://").is_some_and(|(scheme, rest)| {
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        !scheme.is_empty() && !host.is_empty() && !host.contains("..")
    })
}

/// The ConfigMap key that made nginx take the client address from what a proxy in front
/// forwarded, if any: with `use-forwarded-headers`, `use-proxy-protocol` or `enable-real-ip`
/// the real_ip module replaces `$remote_addr`, which allow-lists, rate limits and hashes on
/// the client address use, with the forwarded one (`nginx.tmpl`: `real_ip_header`,
/// `set_real_ip_from` `proxy-real-ip-cidr`). A new Gateway sees the address of whatever
/// connects to it (a load balancer's) until its client IP detection is set up to match.
pub(crate) fn forwarded_client_address(
    settings: Option<&BTreeMap<String, String>>,
) -> Option<&'static str> {
    [
        "use-forwarded-headers",
        "use-proxy-protocol",
        "enable-real-ip",
    ]
    .into_iter()
    .find(|k| {
        settings
            .and_then(|s| s.get(*k))
            .is_some_and(|v| parse_bool(v.trim()) == Some(true))
    })
}

/// A Go `strconv.Atoi` integer: what the annotation parser's `GetIntAnnotation` and
/// `ReadConfig`'s ints accept (an optional sign, then ASCII digits).
pub(crate) fn atoi(value: &str) -> Option<i64> {
    let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// An integer of the controller's ConfigMap, read as `configmap.go` `ReadConfig` decodes it
/// (mapstructure's weakly typed `decodeInt`: the empty string is 0, anything else
/// `strconv.ParseInt(value, 0, 64)`, so `0x10`, `0o10` and `010` are 16, 8 and 8, and `1_000`
/// needs a base prefix). `None` when Go would refuse it (the key keeps its default).
pub(crate) fn configmap_int(value: &str) -> Option<i64> {
    if value.is_empty() {
        return Some(0);
    }
    let (negative, unsigned) = match value.as_bytes()[0] {
        b'+' => (false, &value[1..]),
        b'-' => (true, &value[1..]),
        _ => (false, value),
    };
    let lower = unsigned.to_ascii_lowercase();
    let (radix, digits, prefixed) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d.to_string(), true)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d.to_string(), true)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d.to_string(), true)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower[1..].to_string(), true)
    } else {
        (10, lower.clone(), false)
    };
    // strconv's underscoreOK (base 0 only): each `_` between two digits, or between the base
    // prefix (`0x`, `0o`, `0b`, or the `0` of an octal) and a digit.
    if digits.contains('_') {
        let bytes = digits.as_bytes();
        let misplaced = bytes.last() == Some(&b'_')
            || bytes.windows(2).any(|w| w == b"__")
            || (!prefixed && bytes.first() == Some(&b'_'));
        if misplaced {
            return None;
        }
    }
    let digits: String = digits.chars().filter(|c| *c != '_').collect();
    if digits.is_empty() {
        return None;
    }
    let magnitude = i64::from_str_radix(&digits, radix).ok()?;
    Some(if negative { -magnitude } else { magnitude })
}

/// The annotations of an Ingress carrying `pairs` (short keys), for the families' tests.
#[cfg(test)]
pub(crate) fn annotations_of(pairs: &[(&str, &str)]) -> Annotations {
    let map: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(k, v)| (format!("{PREFIX}{k}"), serde_json::json!(v)))
        .collect();
    let ing: Ingress =
        serde_json::from_value(serde_json::json!({"metadata": {"annotations": map}, "spec": {}}))
            .unwrap();
    Annotations::of(&ing, PREFIX)
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
    // `ReadConfig`'s weakly typed decode: the empty string is false, a value
    // `strconv.ParseBool` refuses keeps the default.
    let setting = |key: &str, default: bool| match settings.and_then(|s| s.get(key)) {
        None => default,
        Some(v) if v.is_empty() => false,
        Some(v) => parse_bool(v).unwrap_or(default),
    };
    plan.ssl_redirect_default = setting("ssl-redirect", true);
    plan.force_ssl_redirect = setting("force-ssl-redirect", false);
    plan.hsts = hsts(settings);
    // configmap.go `ReadConfig`: a number among 301, 302, 307 and 308, else the default 308.
    plan.http_redirect_code = settings
        .and_then(|s| s.get("http-redirect-code"))
        .and_then(|v| configmap_int(v))
        .and_then(|v| u16::try_from(v).ok())
        .filter(|c| [301, 302, 307, 308].contains(c))
        .unwrap_or(308);
    // template.go `isLocationInLocationList`: a location whose path starts with one of the
    // comma-separated prefixes (trimmed) is exempt from the HTTPS redirect.
    plan.no_tls_redirect = settings
        .and_then(|s| s.get("no-tls-redirect-locations"))
        .map_or("/.well-known/acme-challenge", String::as_str)
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    timeouts::read_settings(plan, ann, settings);
    let carried = config.target == crate::config::Target::EnvoyGateway;
    if ann.is_empty() {
        access::read(plan, ann, settings);
        if carried {
            read_backend_settings(plan, ann, settings);
        }
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
    timeouts::apply(
        plan,
        ann,
        config.target == crate::config::Target::EnvoyGateway,
    );
    redirect::apply(plan, ann);
    canary::read(plan, ann);
    // A canary's other annotations take no effect: its primary's location decides.
    if plan.canary.is_none() {
        access::read(plan, ann, settings);
        if carried {
            read_backend_settings(plan, ann, settings);
        }
    }
    other::apply(plan, ann, carried);
}

/// The retries and balancing of the plan's locations, for a target that writes them (Envoy
/// Gateway's BackendTrafficPolicy): `other` reports their annotations on other targets.
fn read_backend_settings(
    plan: &mut IngressPlan,
    ann: &Annotations,
    settings: Option<&std::collections::BTreeMap<String, String>>,
) {
    let (retry, note) = retries::apply(ann, settings, plan.kind == super::ir::RouteKind::Grpc);
    plan.retry = retry;
    plan.result.notes.extend(note);
    plan.upstream = balancing::read(ann, settings);
    let locations = plan.hosts.iter().map(|h| h.rules.len()).sum();
    let (limit, note) =
        rate_limits::apply(ann, settings, forwarded_client_address(settings), locations);
    plan.rate_limit = limit;
    plan.result.notes.extend(note);
}

#[cfg(test)]
mod tests {
    use super::*;

    // mapstructure v1.5 `decodeInt` (weakly typed): `strconv.ParseInt(s, 0, 64)`, "" is 0;
    // `parser.parseInt`: `strconv.Atoi` on the raw annotation.
    #[test]
    fn configmap_and_annotation_integers_read_as_go_reads_them() {
        for (text, want) in [
            ("10", Some(10)),
            ("010", Some(8)),
            ("0x10", Some(16)),
            ("0O17", Some(15)),
            ("0b101", Some(5)),
            ("-3", Some(-3)),
            ("", Some(0)),
            ("0", Some(0)),
            ("1_000", Some(1000)),
            ("1__0", None),
            ("_1", None),
            ("0x_1f", Some(31)),
            ("0x1__f", None),
            ("0_7", Some(7)),
            ("08", None),
            (" 7", None),
            ("7s", None),
        ] {
            assert_eq!(configmap_int(text), want, "{text:?}");
        }
        let ann = Annotations::from_pairs(&[("a", " 7"), ("b", "+7"), ("c", "-2")]);
        assert_eq!(ann.int("a"), None);
        assert_eq!(ann.int("b"), Some(7));
        assert_eq!(ann.int("c"), Some(-2));
    }

    // `parser/main.go`: `parseBool` reads the raw value (`"true\n"` is no boolean, so the
    // annotation is unset), `parseString` each line trimmed.
    #[test]
    fn booleans_are_read_raw_and_strings_normalized() {
        let ing: Ingress = serde_json::from_value(serde_json::json!({
            "metadata": {"annotations": {
                "nginx.ingress.kubernetes.io/ssl-redirect": "true\n",
                "nginx.ingress.kubernetes.io/force-ssl-redirect": "false",
                "nginx.ingress.kubernetes.io/upstream-vhost": "  a.example.com  "}},
            "spec": {}}))
        .unwrap();
        let ann = Annotations::of(&ing, PREFIX);
        assert_eq!(ann.flag("ssl-redirect"), None);
        assert_eq!(ann.flag("force-ssl-redirect"), Some(false));
        assert_eq!(ann.get("upstream-vhost"), Some("a.example.com"));
        assert_eq!(ann.get("ssl-redirect"), Some("true\n"));
    }
}
