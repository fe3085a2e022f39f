//! Servers and locations as ingress-nginx writes them into nginx.conf, and nginx's choice of
//! location for a URI (sources in the module's documentation).

use regex::Regex;
use serde_json::Value;

use super::{Controller, Ingress};
use crate::semantics::{Request, Share, hostname};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PathKind {
    Exact,
    Prefix,
}

/// `(namespace, service, port)`; the port is `None` when named.
pub(crate) type Upstream = (String, String, Option<u32>);

#[derive(Debug, Clone)]
pub(crate) struct Location {
    pub(crate) path: String,
    pub(crate) kind: PathKind,
    /// The Ingress whose annotations apply; `None` for the default server's root.
    pub(crate) ingress: Option<usize>,
    /// The Ingress rule and path that defined it (`None`: the Ingress's defaultBackend or
    /// the controller's).
    pub(crate) rule: Option<(usize, usize)>,
    /// `None`: the default backend (404).
    pub(crate) backend: Option<Upstream>,
    /// `rewrite-target` when it differs from the path (decided after the Prefix split, as
    /// `buildProxyPass` compares the target with each written location's path).
    pub(crate) rewrite: Option<String>,
    /// `rewrite-target` as written.
    target: Option<String>,
    use_regex: bool,
    /// The root location every server gets, until an Ingress defines `/`.
    generated_root: bool,
    /// The path as a case-insensitive regex anchored at the start, when the server is in
    /// regex mode (`None` there: it does not compile in the `regex` crate).
    regex: Option<Regex>,
}

#[derive(Debug, Clone)]
pub(crate) struct Canary {
    /// The canary Ingress.
    pub(crate) ingress: usize,
    pub(crate) primary: Upstream,
    pub(crate) share: Share,
    header: Option<String>,
    header_value: Option<String>,
    header_pattern: Option<String>,
    cookie: Option<String>,
    pub(crate) weight: u64,
    pub(crate) weight_total: u64,
}

impl Canary {
    /// `Some(true)`: the canary; `Some(false)`: the primary; `None`: split by weight.
    pub(crate) fn decide(&self, request: &Request) -> Result<Option<bool>, String> {
        if let Some(name) = &self.header
            && let Some(value) = request.header(name)
        {
            if let Some(want) = self.header_value.as_ref().filter(|v| !v.is_empty()) {
                if &value == want {
                    return Ok(Some(true));
                }
            } else if let Some(pattern) = self.header_pattern.as_ref().filter(|v| !v.is_empty()) {
                let re = Regex::new(pattern)
                    .map_err(|_| format!("canary-by-header-pattern {pattern:?}"))?;
                if re.is_match(&value) {
                    return Ok(Some(true));
                }
            } else if value == "always" {
                return Ok(Some(true));
            } else if value == "never" {
                return Ok(Some(false));
            }
        }
        if let Some(name) = &self.cookie
            && let Some(value) = cookie(request, name)
        {
            if value == "always" {
                return Ok(Some(true));
            }
            if value == "never" {
                return Ok(Some(false));
            }
        }
        Ok(if self.weight == 0 {
            Some(false)
        } else if self.weight >= self.weight_total.max(100) {
            Some(true)
        } else {
            None
        })
    }
}

impl Canary {
    /// Header sets that reach each branch of `decide`: the header's values, the cookie's.
    pub(crate) fn deciding_headers(&self) -> Vec<Vec<(String, String)>> {
        let mut out = Vec::new();
        if let Some(name) = &self.header {
            let values = match (&self.header_value, &self.header_pattern) {
                (Some(v), _) if !v.is_empty() => vec![v.clone(), format!("{v}-other")],
                _ => vec!["always".to_string(), "never".to_string()],
            };
            for v in values {
                out.push(vec![(name.to_ascii_lowercase(), v)]);
            }
        }
        if let Some(name) = &self.cookie {
            for v in ["always", "never"] {
                out.push(vec![("cookie".to_string(), format!("{name}={v}"))]);
            }
        }
        out
    }
}

fn cookie(request: &Request, name: &str) -> Option<String> {
    let header = request.header("Cookie")?;
    header.split(';').find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

#[derive(Debug, Clone)]
pub(crate) struct Server {
    /// The host, `_` for the default server.
    pub(crate) host: String,
    /// The server has a certificate (from an Ingress with a `tls` section naming it, its
    /// own Secret or the default one): plain HTTP is redirected.
    pub(crate) tls: bool,
    /// The certificate Secret (`namespace/name`) presented for the host, when it is one of
    /// the repository's (`None`: the controller's default).
    pub(crate) certificate: Option<String>,
    /// An Ingress of the host asks for `ssl-passthrough`.
    pub(crate) passthrough: bool,
    pub(crate) app_root: Option<String>,
    pub(crate) locations: Vec<Location>,
    pub(crate) regex_mode: bool,
    pub(crate) canaries: Vec<Canary>,
    /// `server-alias` names, as written in `server_name` (exact, `*.` wildcards, `~regex`).
    pub(crate) aliases: Vec<String>,
    /// The client-certificate check of the whole server: the CA Secret and
    /// `auth-tls-verify-client` of the first Ingress of the host with `auth-tls-secret`.
    pub(crate) client_certificate: Option<(String, String)>,
}

impl Server {
    fn new(host: &str) -> Server {
        Server {
            aliases: Vec::new(),
            client_certificate: None,
            host: host.to_string(),
            tls: false,
            certificate: None,
            passthrough: false,
            app_root: None,
            locations: Vec::new(),
            regex_mode: false,
            canaries: Vec::new(),
        }
    }

    /// nginx's automatic redirect (`ngx_http_core_find_static_location`, `auto_redirect`, set
    /// by `proxy_pass` in a location whose name ends in `/`): a request for a prefix or exact
    /// location's name without its trailing slash, when no location has that name, is
    /// answered `301` to the name with the slash (controller.go quotes the rule above
    /// `updateServerLocations`). Regex locations do not redirect.
    pub(crate) fn auto_redirects(&self, uri: &str) -> bool {
        !self.regex_mode
            && uri != "/"
            && self
                .locations
                .iter()
                .any(|l| l.path.strip_suffix('/') == Some(uri))
            && !self.locations.iter().any(|l| l.path == uri)
    }

    /// nginx's location for `uri`.
    pub(crate) fn choose(&self, uri: &str) -> Option<&Location> {
        if self.regex_mode {
            // Every location is `~* "^path"`; the first that matches, in file order.
            return self
                .locations
                .iter()
                .find(|l| l.regex.as_ref().is_some_and(|r| r.is_match(uri)));
        }
        if let Some(exact) = self
            .locations
            .iter()
            .find(|l| l.kind == PathKind::Exact && l.path == uri)
        {
            return Some(exact);
        }
        self.locations
            .iter()
            .filter(|l| l.kind != PathKind::Exact && uri.starts_with(&l.path))
            .max_by_key(|l| l.path.len())
    }
}

fn upstream_of(namespace: &str, backend: &Value) -> Option<Upstream> {
    let service = backend.get("service")?;
    Some((
        namespace.to_string(),
        service.get("name")?.as_str()?.to_string(),
        service
            .pointer("/port/number")
            .and_then(Value::as_u64)
            .and_then(|p| u32::try_from(p).ok()),
    ))
}

fn list<'v>(v: &'v Value, key: &str) -> impl Iterator<Item = &'v Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

/// The servers ingress-nginx builds from `ingresses` (in creation order).
pub(crate) fn servers(ingresses: &[Ingress], controller: &Controller) -> Vec<Server> {
    let mut servers: Vec<Server> = vec![Server::new("_")];
    servers[0].locations.push(root(None, None));
    let position = |servers: &mut Vec<Server>, host: &str| -> usize {
        match servers.iter().position(|s| s.host == host) {
            Some(p) => p,
            None => {
                servers.push(Server::new(host));
                servers.len() - 1
            }
        }
    };
    // controller.go `createUpstreams`: Ingresses are read in order and the first to name a
    // Service creates its upstream; a canary creating it marks it `NoServer`, and
    // `getBackendServers` then skips every location of every Ingress that uses it (an
    // upstream bug: kubernetes/ingress-nginx#8004, #10729).
    let mut seen: std::collections::HashSet<Upstream> = std::collections::HashSet::new();
    let mut no_server: std::collections::HashSet<Upstream> = std::collections::HashSet::new();
    for ing in ingresses {
        for rule in list(&ing.spec, "rules") {
            for p in rule
                .pointer("/http/paths")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(u) = p
                    .get("backend")
                    .and_then(|b| upstream_of(&ing.namespace, b))
                    && seen.insert(u.clone())
                    && ing.is_canary()
                {
                    no_server.insert(u);
                }
            }
        }
    }
    for (i, ing) in ingresses.iter().enumerate() {
        if ing.is_canary() {
            continue;
        }
        let default_backend = ing
            .spec
            .get("defaultBackend")
            .and_then(|b| upstream_of(&ing.namespace, b));
        // An Ingress with only a defaultBackend is the catch-all (unless disabled); the first
        // one read keeps it (`createServers` sets it only while the default is in place).
        if list(&ing.spec, "rules").next().is_none()
            && let Some(b) = &default_backend
            && !controller.flag("--disable-catch-all")
            && servers[0].locations[0].ingress.is_none()
        {
            servers[0].locations[0].backend = Some(b.clone());
            servers[0].locations[0].ingress = Some(i);
        }
        for (r, rule) in list(&ing.spec, "rules").enumerate() {
            let host = rule
                .get("host")
                .and_then(Value::as_str)
                .filter(|h| !h.is_empty())
                .map_or_else(|| "_".to_string(), str::to_ascii_lowercase);
            let s = position(&mut servers, &host);
            let server = &mut servers[s];
            if server.locations.is_empty() {
                server
                    .locations
                    .push(root(Some(i), default_backend.clone()));
            }
            // controller.go `createServers`: the first Ingress of the host with aliases
            // gives them (the others' are ignored).
            if server.aliases.is_empty()
                && let Some(aliases) = ing.annotation("server-alias")
            {
                server.aliases = aliases
                    .split(',')
                    .map(|a| a.trim().to_ascii_lowercase())
                    .filter(|a| !a.is_empty())
                    .collect();
            }
            // controller.go `getBackendServers`: the first Ingress of the host with a client
            // CA sets `server.CertificateAuth`, and nginx.tmpl puts `ssl_verify_client` in the
            // server block, so it covers every location of the host, whichever Ingress gave it
            // (authtls/main.go: `auth-tls-verify-client` defaults to `on`, and a value other
            // than on|off|optional|optional_no_ca is `on`).
            if server.client_certificate.is_none()
                && let Some(secret) = ing.annotation("auth-tls-secret").filter(|s| !s.is_empty())
            {
                let verify = ing
                    .annotation("auth-tls-verify-client")
                    .filter(|v| ["on", "off", "optional", "optional_no_ca"].contains(v))
                    .unwrap_or("on");
                let secret = if secret.contains('/') {
                    secret.to_string()
                } else {
                    format!("{}/{secret}", ing.namespace)
                };
                server.client_certificate = Some((secret, verify.to_string()));
            }
            if server.app_root.is_none() {
                // `annotations/rewrite`: an app-root that is not a path (an absolute URL) is
                // ignored (`url.ParseRequestURI`, then `IsAbs`).
                server.app_root = ing
                    .annotation("app-root")
                    .filter(|r| r.starts_with('/'))
                    .map(str::to_string);
            }
            for (pi, p) in rule
                .pointer("/http/paths")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let path = p
                    .get("path")
                    .and_then(Value::as_str)
                    .filter(|p| !p.is_empty())
                    .unwrap_or("/")
                    .to_string();
                // `internal/k8s/main.go` `SetDefaultNGINXPathType`, applied when the store
                // reads an Ingress: every path that is not Exact is Prefix
                // (ImplementationSpecific and unset included).
                let kind = match p.get("pathType").and_then(Value::as_str) {
                    Some("Exact") => PathKind::Exact,
                    _ => PathKind::Prefix,
                };
                let backend = p
                    .get("backend")
                    .and_then(|b| upstream_of(&ing.namespace, b));
                if backend.as_ref().is_some_and(|b| no_server.contains(b)) {
                    continue;
                }
                let target = ing.annotation("rewrite-target").map(str::to_string);
                let location = Location {
                    rewrite: target.clone().filter(|t| !t.is_empty() && t != &path),
                    target,
                    use_regex: ing.flag("use-regex") == Some(true),
                    path: path.clone(),
                    kind,
                    ingress: Some(i),
                    rule: Some((r, pi)),
                    backend,
                    generated_root: false,
                    regex: None,
                };
                match server
                    .locations
                    .iter_mut()
                    .find(|l| l.path == path && (l.kind == kind || path == "/"))
                {
                    // The generated root is taken over by the first Ingress defining `/`.
                    Some(existing) if existing.generated_root => {
                        *existing = location;
                    }
                    // The first Ingress to define a path keeps it.
                    Some(_) => {}
                    None => server.locations.push(location),
                }
            }
        }
        // controller.go `createServers`: the first Ingress with a `tls` section gives each of
        // its rules' hosts a certificate: the Secret of the entry naming the host
        // (`extractTLSSecretName`), else one whose certificate covers the host (read here
        // from a wildcard entry covering it: the Secret's SAN is not in the repository),
        // else the default certificate.
        let sections: Vec<&Value> = list(&ing.spec, "tls").collect();
        for rule in list(&ing.spec, "rules") {
            let Some(host) = rule
                .get("host")
                .and_then(Value::as_str)
                .filter(|h| !h.is_empty())
                .map(str::to_ascii_lowercase)
            else {
                continue;
            };
            let Some(server) = servers.iter_mut().find(|s| s.host == host) else {
                continue;
            };
            if ing.flag("ssl-passthrough") == Some(true) {
                server.passthrough = true;
            }
            if server.tls || sections.is_empty() {
                continue;
            }
            server.tls = true;
            let hosts = |t: &&Value| -> Vec<String> {
                list(t, "hosts")
                    .filter_map(Value::as_str)
                    .map(str::to_ascii_lowercase)
                    .collect()
            };
            let secret = sections
                .iter()
                .find(|t| hosts(t).contains(&host))
                .or_else(|| {
                    sections.iter().find(|t| {
                        hosts(t)
                            .iter()
                            .any(|h| h.starts_with("*.") && hostname::matches(h, &host))
                    })
                })
                // An entry naming no host: its Secret's certificate is checked against the
                // host; the repository does not show the certificate, so it is taken to
                // cover the host (why else would the Ingress name it).
                .or_else(|| {
                    sections.iter().find(|t| {
                        hosts(t).is_empty()
                            && t.get("secretName")
                                .and_then(Value::as_str)
                                .is_some_and(|n| !n.is_empty())
                    })
                })
                .and_then(|t| t.get("secretName").and_then(Value::as_str))
                .filter(|n| !n.is_empty());
            server.certificate = secret.map(|n| format!("{}/{n}", ing.namespace));
        }
    }
    for (i, ing) in ingresses.iter().enumerate().filter(|(_, i)| i.is_canary()) {
        add_canary(&mut servers, i, ing);
    }
    // An alias that is another server's host is dropped (`createServers`).
    let hosts: Vec<String> = servers.iter().map(|s| s.host.clone()).collect();
    for server in &mut servers {
        server.aliases.retain(|a| !hosts.contains(a));
    }
    for server in &mut servers {
        // controller.go: by path, then by length, longest first (stable).
        server.locations.sort_by(|a, b| b.path.cmp(&a.path));
        server
            .locations
            .sort_by_key(|l| std::cmp::Reverse(l.path.len()));
        server.locations = split_prefixes(std::mem::take(&mut server.locations));
        // `needsRewrite` again, on the locations as written: Prefix `/api` with target `/api`
        // became `/api/`, whose target differs (the ISSUE-CORRECTIONS note on item 9).
        for l in &mut server.locations {
            l.rewrite = l.target.clone().filter(|t| !t.is_empty() && t != &l.path);
        }
        server.regex_mode = server
            .locations
            .iter()
            .any(|l| l.rewrite.is_some() || l.use_regex);
        if server.regex_mode {
            for l in &mut server.locations {
                l.regex = Regex::new(&format!("(?i)^{}", l.path)).ok();
            }
        }
    }
    servers
}

fn root(ingress: Option<usize>, backend: Option<Upstream>) -> Location {
    Location {
        path: "/".into(),
        kind: PathKind::Prefix,
        ingress,
        rule: None,
        backend,
        rewrite: None,
        target: None,
        use_regex: false,
        generated_root: true,
        regex: None,
    }
}

/// `updateServerLocations`: a Prefix path other than `/`, without rewrite or regex, becomes
/// `path/` plus an exact location for `path` (unless an Exact one exists already).
fn split_prefixes(locations: Vec<Location>) -> Vec<Location> {
    let exact: Vec<String> = locations
        .iter()
        .filter(|l| l.kind == PathKind::Exact)
        .map(|l| l.path.clone())
        .collect();
    let mut out = Vec::with_capacity(locations.len() * 2);
    for mut l in locations {
        if l.path == "/" || l.kind != PathKind::Prefix || l.rewrite.is_some() || l.use_regex {
            out.push(l);
            continue;
        }
        let original = l.path.clone();
        if !l.path.ends_with('/') {
            l.path.push('/');
        }
        if exact.contains(&original) {
            out.push(l);
            continue;
        }
        let mut e = l.clone();
        e.path = original;
        e.kind = PathKind::Exact;
        out.push(l);
        out.push(e);
    }
    out
}

fn add_canary(servers: &mut [Server], index: usize, ing: &Ingress) {
    let weight = ing
        .annotation("canary-weight")
        .and_then(|w| w.parse::<u64>().ok())
        .unwrap_or(0);
    let weight_total = ing
        .annotation("canary-weight-total")
        .and_then(|w| w.parse::<u64>().ok())
        .unwrap_or(100);
    for rule in list(&ing.spec, "rules") {
        let host = rule
            .get("host")
            .and_then(Value::as_str)
            .filter(|h| !h.is_empty())
            .map_or_else(|| "_".to_string(), str::to_ascii_lowercase);
        let Some(server) = servers.iter_mut().find(|s| s.host == host) else {
            continue;
        };
        for p in rule
            .pointer("/http/paths")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let path = p.get("path").and_then(Value::as_str).unwrap_or("/");
            let Some((ns, name, port)) = p
                .get("backend")
                .and_then(|b| upstream_of(&ing.namespace, b))
            else {
                continue;
            };
            // mergeAlternativeBackends: the primary location of the same host and path.
            let Some(primary) = server
                .locations
                .iter()
                .find(|l| l.path == path)
                .and_then(|l| l.backend.clone())
            else {
                continue;
            };
            if server.canaries.iter().any(|c| c.primary == primary) {
                continue;
            }
            server.canaries.push(Canary {
                ingress: index,
                primary,
                share: Share {
                    namespace: ns,
                    name,
                    port,
                    weight,
                    request_headers: Default::default(),
                    response_headers: Default::default(),
                },
                header: ing.annotation("canary-by-header").map(str::to_string),
                header_value: ing.annotation("canary-by-header-value").map(str::to_string),
                header_pattern: ing
                    .annotation("canary-by-header-pattern")
                    .map(str::to_string),
                cookie: ing.annotation("canary-by-cookie").map(str::to_string),
                weight,
                weight_total,
            });
        }
    }
}

/// nginx `rewrite "(?i)path" target break`: when the path (unanchored) matches the URI, the
/// whole URI becomes the target with `$1`…`$9` replaced by the captures; `None` when the
/// path is not a regex the `regex` crate compiles.
pub(crate) fn rewrite(path: &str, target: &str, uri: &str) -> Option<String> {
    let re = Regex::new(&format!("(?i){path}")).ok()?;
    let Some(caps) = re.captures(uri) else {
        return Some(uri.to_string());
    };
    let mut out = String::new();
    let mut chars = target.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$'
            && let Some(d) = chars.peek().and_then(|d| d.to_digit(10))
        {
            chars.next();
            out.push_str(caps.get(d as usize).map_or("", |m| m.as_str()));
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // nginx rewrite replaces the whole URI; `$n` are the captures.
    #[test]
    fn rewrites_replace_the_whole_uri_with_captures() {
        assert_eq!(
            rewrite("/something", "/", "/something/else").as_deref(),
            Some("/")
        );
        assert_eq!(
            rewrite("/blog(/|$)(.*)", "/$2", "/BLOG/x/y").as_deref(),
            Some("/x/y")
        );
        assert_eq!(rewrite("/a", "/b", "/c").as_deref(), Some("/c"));
    }
}
