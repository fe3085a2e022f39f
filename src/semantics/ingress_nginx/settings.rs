//! Controller-wide configuration of ingress-nginx: every key the controller
//! ConfigMap understands, and every command-line flag of the controller binary.
//!
//! Source: `kubernetes/ingress-nginx` at commit
//! `dbb11b92ddb77bee9c35e462479129354c84f939` (tag `controller-v1.15.1`).
//! The tables were read from these upstream files:
//!
//! * `internal/ingress/controller/config/config.go`: the `Configuration`
//!   struct (one ConfigMap key per `json` tag) and `NewDefault()`, which
//!   supplies the defaults recorded below.
//! * `internal/ingress/defaults/main.go`: the `Backend` struct, embedded into
//!   `Configuration` with `squash`, so its tags are top-level keys too. These
//!   values are also the fallbacks the per-Ingress annotation parsers use.
//! * `internal/ingress/controller/template/configmap.go`: `ReadConfig()`. It
//!   starts from `NewDefault()`, pulls 30 keys out of the map and handles them
//!   by hand (see [`SPECIAL_CASED_KEYS`]), then decodes the remainder with
//!   mapstructure (tag name `json`, weakly typed input). Unknown keys are ignored
//!   silently. A value that cannot be converted leaves the field at its default
//!   and only logs a warning. Weak typing means an empty string decodes to
//!   `0`/`false`, and a plain string assigned to a list field becomes a
//!   one-element list.
//! * `internal/ingress/controller/store/store.go` (`setConfig`,
//!   `writeSSLSessionTicketKey`) and `internal/ingress/controller/nginx.go`
//!   (`generateTemplate`, `OnUpdate`, `createLuaConfig`, `setupSSLProxy`): these
//!   adjust values after `ReadConfig` and resolve the keys that name other
//!   objects.
//! * `rootfs/etc/nginx/template/nginx.tmpl`,
//!   `internal/ingress/controller/template/template.go` and
//!   `rootfs/etc/nginx/lua/lua_ingress.lua`: where the values take effect.
//!   These files were used to choose each [`Effect`].
//! * `pkg/flags/flags.go`: `ParseFlags()`, which defines every controller flag.
//!   It also merges Go's global flag set, where `cmd/nginx/main.go` registers the
//!   klog flags (`--v`, `--vmodule`, ...). Those are not listed in [`FLAGS`].
//!
//! `default` holds the value as it would appear in a ConfigMap or on a command
//! line. It is `""` when the Go value is zero or empty. Where the controller
//! computes or replaces the effective value later, `note` says so. A note that
//! starts with `Inert:` means nothing in the controller reads the parsed value
//! at this commit.

/// What a setting changes about how a request turns out, as the client sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Effect {
    /// Picks the backend, endpoint or location, including retries to another
    /// endpoint, Ingress admission and the catch-all backend.
    Routing,
    /// Makes the controller answer with a redirect, changes the redirect it
    /// sends, or sets HSTS (which makes browsers upgrade to https on their own).
    Redirect,
    /// Allows or refuses a request: address lists, external or basic auth, the
    /// WAF, and the rules that limit which Ingress annotations are accepted.
    Access,
    /// TLS handshake: certificates, protocol versions, ciphers, session
    /// resumption, OCSP, ALPN, SSL passthrough.
    Tls,
    /// Headers added, removed, rewritten or passed on, in either direction, and
    /// how the client address is worked out (forwarded headers, PROXY protocol).
    Headers,
    /// Size, time and rate limits, and buffers too small for a request or
    /// response, which lead to 4xx/5xx answers, throttling or dropped
    /// connections.
    Limits,
    /// Error pages: which status codes are replaced by the default backend's
    /// answer, and whether errors from the upstream are intercepted.
    Errors,
    /// Logs, metrics, tracing and profiling. The answer itself does not change.
    Observability,
    /// Workers, keepalive, hash tables, buffering and compression. These change
    /// speed or resource use, not the answer.
    Performance,
    /// Anything else: listeners, controller process behaviour, raw snippets,
    /// GeoIP, and keys that are inert.
    Other,
}

impl Effect {
    /// Every variant, in declaration order.
    #[cfg(test)]
    pub(crate) const ALL: &'static [Effect] = &[
        Effect::Routing,
        Effect::Redirect,
        Effect::Access,
        Effect::Tls,
        Effect::Headers,
        Effect::Limits,
        Effect::Errors,
        Effect::Observability,
        Effect::Performance,
        Effect::Other,
    ];
}

impl Effect {
    /// The effect's name in `docs/controllers.md`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Effect::Routing => "routing",
            Effect::Redirect => "redirect",
            Effect::Access => "access",
            Effect::Tls => "TLS",
            Effect::Headers => "headers",
            Effect::Limits => "limits",
            Effect::Errors => "error pages",
            Effect::Observability => "observability",
            Effect::Performance => "performance",
            Effect::Other => "other",
        }
    }

    /// Whether the setting can change what a client gets back (the others change logs,
    /// speed or resource use only).
    pub(crate) fn changes_answers(self) -> bool {
        !matches!(self, Effect::Observability | Effect::Performance)
    }
}

/// Whether a ConfigMap key can change a request's answer (it is not a logging, metrics or
/// performance setting). Unknown keys do not: `ReadConfig` ignores them.
pub(crate) fn setting_changes_answers(key: &str) -> bool {
    SETTINGS
        .iter()
        .find(|s| s.key == key)
        .is_some_and(|s| s.effect.changes_answers())
}

/// Whether a flag can change a request's answer. Flags classed `Other` set up the process
/// (API server, leader election, status, webhooks, ports of its own endpoints) and are taken
/// not to; those of them the model reads (`--http-port`, `--annotations-prefix`) it reads.
pub(crate) fn flag_changes_answers(name: &str) -> bool {
    FLAGS
        .iter()
        .find(|f| f.name == name)
        .is_some_and(|f| f.effect.changes_answers() && f.effect != Effect::Other)
}

/// The default of a ConfigMap key or (with its `--`) a flag, as written in a ConfigMap or on
/// a command line; `None` for a name ingress-nginx does not have.
pub fn default_of(name: &str) -> Option<&'static str> {
    if name.starts_with("--") {
        FLAGS.iter().find(|f| f.name == name).map(|f| f.default)
    } else {
        SETTINGS.iter().find(|s| s.key == name).map(|s| s.default)
    }
}

/// The ConfigMap keys the behaviour model reads (`mod.rs`, `locations.rs`); a test checks the
/// list against the model's source, so the generated table cannot claim more than it does.
pub(crate) const MODELLED_SETTINGS: &[&str] = &[
    "annotations-risk-level",
    "block-cidrs",
    "denylist-source-range",
    "global-auth-url",
    "force-ssl-redirect",
    "hsts",
    "hsts-include-subdomains",
    "hsts-max-age",
    "hsts-preload",
    "http-redirect-code",
    "no-auth-locations",
    "no-tls-redirect-locations",
    "ssl-redirect",
    "use-forwarded-headers",
    "use-port-in-redirects",
    "whitelist-source-range",
];

/// The controller flags the behaviour model reads, checked the same way.
pub(crate) const MODELLED_FLAGS: &[&str] = &[
    "--annotations-prefix",
    "--controller-class",
    "--default-ssl-certificate",
    "--disable-catch-all",
    "--enable-annotation-validation",
    "--enable-ssl-passthrough",
    "--http-port",
    "--https-port",
    "--ingress-class",
    "--ingress-class-by-name",
    "--watch-ingress-without-class",
];

/// `docs/controllers.md`: every ConfigMap key and flag of ingress-nginx at the cited commit,
/// with what the setting changes and what this tool does with it.
pub fn markdown(translated_settings: &[&str], translated_flags: &[&str]) -> String {
    let mut out = [
        "# Controller settings",
        "",
        "Generated from `src/semantics/ingress_nginx/settings.rs` (a test fails when this file and",
        "the code disagree; `BLESS=1 cargo test --test integration controllers_docs` rewrites it).",
        "Every ConfigMap key of ingress-nginx's `internal/ingress/controller/config/config.go`",
        "(with the embedded `internal/ingress/defaults/main.go` `Backend`) and the keys",
        "`internal/ingress/controller/template/configmap.go` `ReadConfig` handles itself, and every",
        "flag of `pkg/flags/flags.go`, at kubernetes/ingress-nginx",
        "`dbb11b92ddb77bee9c35e462479129354c84f939` (v1.15.1).",
        "",
        "The configuration is read from the repository (the controller's workload and ConfigMap,",
        "or a Helm release of the `ingress-nginx` chart), from `controllers.<class>` in",
        "`.gateway-migrate.yaml`, or from `--controller-config` (docs/configuration.md). Without any,",
        "the defaults below are assumed and `ingress-nginx/controller-config-assumed` says so.",
        "",
        "- **effect**: what the setting changes for a client (observability and performance",
        "  settings change no answer).",
        "- **in gateway-migrate**: `modelled` when the ingress-nginx behaviour model (the",
        "  equivalence check's old side) reads it (a controller configured with an",
        "  answer-changing key or flag the model does not read gets no predicted answers: the",
        "  check says `not modelled` rather than guess); `translated` when the Ingress",
        "  translation applies it or reports it with a code of its own; `reported when set` when",
        "  a value other than the default is named by `ingress-nginx/controller-setting` (not",
        "  carried over).",
        "- Keys marked † are parsed by `ReadConfig` itself rather than by the generic decoder.",
        "",
        "",
    ]
    .join("\n");
    let row = |name: &str, default: &str, effect: Effect, modelled: bool, changes: bool| {
        let default = if default.is_empty() {
            "".to_string()
        } else if default.len() > 40 {
            format!(
                "`{}…`",
                default
                    .chars()
                    .take(37)
                    .collect::<String>()
                    .replace('|', "\\|")
            )
        } else {
            format!("`{}`", default.replace('|', "\\|"))
        };
        let translated = translated_settings.contains(&name) || translated_flags.contains(&name);
        let status = match (changes, modelled, translated) {
            (false, true, _) => "modelled",
            (false, false, _) => "no effect on answers",
            (true, true, true) => "modelled, translated",
            (true, false, true) => "translated",
            (true, true, false) => "modelled, reported when set",
            (true, false, false) => "reported when set",
        };
        let mark = if SPECIAL_CASED_KEYS.contains(&name) {
            " †"
        } else {
            ""
        };
        format!(
            "| `{name}`{mark} | {default} | {} | {status} |\n",
            effect.name()
        )
    };
    let modelled_settings = SETTINGS
        .iter()
        .filter(|s| MODELLED_SETTINGS.contains(&s.key))
        .count();
    out.push_str(&format!(
        "## ConfigMap keys ({} keys, {modelled_settings} modelled)\n\n| key | default | effect | in gateway-migrate |\n|---|---|---|---|\n",
        SETTINGS.len()
    ));
    let mut settings: Vec<&Setting> = SETTINGS.iter().collect();
    settings.sort_by_key(|s| s.key);
    for s in settings {
        out.push_str(&row(
            s.key,
            s.default,
            s.effect,
            MODELLED_SETTINGS.contains(&s.key),
            setting_changes_answers(s.key),
        ));
    }
    let modelled_flags = FLAGS
        .iter()
        .filter(|f| MODELLED_FLAGS.contains(&f.name))
        .count();
    out.push_str(&format!(
        "\n## Flags ({} flags, {modelled_flags} modelled)\n\n| flag | default | effect | in gateway-migrate |\n|---|---|---|---|\n",
        FLAGS.len()
    ));
    let mut flags: Vec<&Flag> = FLAGS.iter().collect();
    flags.sort_by_key(|f| f.name);
    for f in flags {
        out.push_str(&row(
            f.name,
            f.default,
            f.effect,
            MODELLED_FLAGS.contains(&f.name),
            flag_changes_answers(f.name),
        ));
    }
    out
}

/// One key of the controller ConfigMap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Setting {
    /// The ConfigMap key, spelled exactly as the controller reads it.
    pub key: &'static str,
    /// Default from `NewDefault()` as a ConfigMap string; `""` when zero/empty.
    pub default: &'static str,
    /// The main way the key changes what a client gets back.
    pub effect: Effect,
    /// Parsing details, special handling and caveats.
    pub note: &'static str,
}

/// One command-line flag of the controller (`pkg/flags/flags.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Flag {
    /// The flag with its leading `--`.
    pub name: &'static str,
    /// The default as it would be written on the command line; `""` when empty.
    pub default: &'static str,
    /// The main way the flag changes what a client gets back.
    pub effect: Effect,
    /// What the flag does, checks `ParseFlags` applies, and caveats.
    pub note: &'static str,
}

/// The keys `ReadConfig()` removes from the map and handles by hand before
/// the generic decode (the names in the constant block of `configmap.go`).
pub(crate) const SPECIAL_CASED_KEYS: &[&str] = &[
    "custom-http-errors",
    "skip-access-log-urls",
    "whitelist-source-range",
    "denylist-source-range",
    "proxy-real-ip-cidr",
    "bind-address",
    "http-redirect-code",
    "block-cidrs",
    "block-user-agents",
    "block-referers",
    "proxy-stream-responses",
    "hide-headers",
    "nginx-status-ipv4-whitelist",
    "nginx-status-ipv6-whitelist",
    "proxy-protocol-header-timeout",
    "worker-processes",
    "global-allowed-response-headers",
    "global-auth-url",
    "global-auth-method",
    "global-auth-signin",
    "global-auth-signin-redirect-param",
    "global-auth-response-headers",
    "global-auth-request-redirect",
    "global-auth-snippet",
    "global-auth-cache-key",
    "global-auth-cache-duration",
    "global-auth-always-set-cookie",
    "lua-shared-dicts",
    "debug-connections",
    "enable-serial-reloads",
];

const GZIP_TYPES: &str = "application/atom+xml application/javascript application/x-javascript application/json application/rss+xml application/vnd.ms-fontobject application/x-font-ttf application/x-web-app-manifest+json application/xhtml+xml application/xml font/opentype image/svg+xml image/x-icon text/css text/javascript text/plain text/x-component";

const BROTLI_TYPES: &str = "application/xml+rss application/atom+xml application/javascript application/x-javascript application/json application/rss+xml application/vnd.ms-fontobject application/x-font-ttf application/x-web-app-manifest+json application/xhtml+xml application/xml font/opentype image/svg+xml image/x-icon text/css text/javascript text/plain text/x-component";

const LOG_FORMAT_UPSTREAM: &str = r#"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] [$proxy_alternative_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status $req_id"#;

const LOG_FORMAT_STREAM: &str =
    "[$remote_addr] [$time_local] $protocol $status $bytes_sent $bytes_received $session_time";

const SSL_CIPHERS: &str = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256";

/// Every ConfigMap key: the `json` tags of `defaults.Backend` (first), then those
/// of `config.Configuration` in declaration order, then the keys that exist only
/// inside `ReadConfig()`.
pub(crate) const SETTINGS: &[Setting] = &[
    // ---- defaults.Backend (squashed into Configuration) ----
    Setting {
        key: "app-root",
        default: "",
        effect: Effect::Other,
        note: "Inert: decoded into Backend.AppRoot, but nothing reads it. The app-root annotation does not fall back to it, so no global app-root redirect happens.",
    },
    Setting {
        key: "custom-http-errors",
        default: "",
        effect: Effect::Errors,
        note: "ReadConfig: split on commas and trimmed. Entries that are not integers are skipped with a warning, and filterErrors drops codes outside 300..=599. The template then adds http-level `proxy_intercept_errors on` (unless disable-proxy-intercept-errors) and an `error_page` per code that sends the request to the default backend, with X-Code and related headers. Locations inherit this unless they set their own codes through the annotation.",
    },
    Setting {
        key: "preserve-trailing-slash",
        default: "false",
        effect: Effect::Redirect,
        note: "Fallback for the preserve-trailing-slash annotation. When false, the Lua https redirect removes one trailing `/` from the request URI before redirecting.",
    },
    Setting {
        key: "disable-proxy-intercept-errors",
        default: "false",
        effect: Effect::Errors,
        note: "Tag is declared in both Backend and Configuration, and the decode sets both fields. When true with custom-http-errors, the http-level `proxy_intercept_errors on` is left out: only errors nginx produces itself are replaced, and upstream error bodies pass through. The per-location annotation defaults to false and does not read this key.",
    },
    Setting {
        key: "proxy-body-size",
        default: "1m",
        effect: Effect::Limits,
        note: "Fallback for the proxy-body-size annotation, rendered as `client_max_body_size` per location when it is a valid nginx size. A larger body gets 413.",
    },
    Setting {
        key: "proxy-connect-timeout",
        default: "5",
        effect: Effect::Limits,
        note: "Seconds, integer. Rendered as `proxy_connect_timeout` (and `grpc_connect_timeout` for GRPC/GRPCS backends). When it runs out, the next upstream is tried or the client gets 504.",
    },
    Setting {
        key: "proxy-read-timeout",
        default: "60",
        effect: Effect::Limits,
        note: "Seconds, integer. Rendered as `proxy_read_timeout` (and `grpc_read_timeout`). Measured between two reads from the upstream. Running out gives 504 or a cut-off response.",
    },
    Setting {
        key: "proxy-send-timeout",
        default: "60",
        effect: Effect::Limits,
        note: "Seconds, integer. Rendered as `proxy_send_timeout` (and `grpc_send_timeout`). Measured between two writes to the upstream.",
    },
    Setting {
        key: "proxy-buffers-number",
        default: "4",
        effect: Effect::Performance,
        note: "Number of buffers in `proxy_buffers <n> <proxy-buffer-size>`. Fallback for the annotation of the same name.",
    },
    Setting {
        key: "proxy-buffer-size",
        default: "4k",
        effect: Effect::Limits,
        note: "Rendered as `proxy_buffer_size` and as the buffer size in `proxy_buffers`. If an upstream's response headers do not fit, nginx answers 502 (upstream sent too big header).",
    },
    Setting {
        key: "proxy-busy-buffers-size",
        default: "",
        effect: Effect::Performance,
        note: "`proxy_busy_buffers_size` is only rendered when this is non-empty.",
    },
    Setting {
        key: "proxy-cookie-path",
        default: "off",
        effect: Effect::Headers,
        note: "Rendered as `proxy_cookie_path`, which rewrites the path attribute of upstream Set-Cookie headers.",
    },
    Setting {
        key: "proxy-cookie-domain",
        default: "off",
        effect: Effect::Headers,
        note: "Rendered as `proxy_cookie_domain`, which rewrites the domain attribute of upstream Set-Cookie headers.",
    },
    Setting {
        key: "proxy-next-upstream",
        default: "error timeout",
        effect: Effect::Routing,
        note: "Conditions for retrying the request on another endpoint (`proxy_next_upstream`). buildNextUpstream adds `non_idempotent` when retry-non-idempotent is true.",
    },
    Setting {
        key: "proxy-next-upstream-timeout",
        default: "0",
        effect: Effect::Routing,
        note: "Integer, rendered without a unit as `proxy_next_upstream_timeout` (seconds). 0 means no time limit on retries.",
    },
    Setting {
        key: "proxy-next-upstream-tries",
        default: "3",
        effect: Effect::Routing,
        note: "`proxy_next_upstream_tries`: the most endpoints one request is sent to.",
    },
    Setting {
        key: "proxy-redirect-from",
        default: "off",
        effect: Effect::Redirect,
        note: "With proxy-redirect-to, rewrites Location/Refresh headers of upstream redirects (`proxy_redirect`). The values `off` and `default` are rendered on their own. Otherwise the directive is emitted only when proxy-redirect-to is not `off`.",
    },
    Setting {
        key: "proxy-redirect-to",
        default: "off",
        effect: Effect::Redirect,
        note: "Replacement text for proxy-redirect-from, and the fallback for the proxy-redirect-to annotation on Ingress locations. createServers does not copy it into the catch-all root location, which only gets proxy-redirect-from.",
    },
    Setting {
        key: "proxy-request-buffering",
        default: "on",
        effect: Effect::Performance,
        note: "`proxy_request_buffering`: whether the whole request body is read before proxying.",
    },
    Setting {
        key: "Resolver",
        default: "",
        effect: Effect::Other,
        note: "Capitalised tag on Backend.Resolver ([]net.IP). Not a usable key: OnUpdate and CheckIngress replace it with the nameservers from /etc/resolv.conf before rendering `resolver`.",
    },
    Setting {
        key: "skip-access-log-urls",
        default: "",
        effect: Effect::Observability,
        note: "ReadConfig: split on commas and trimmed. Each entry becomes an exact `$request_uri` entry with value 0 in the `$loggable` map, so matching requests are not logged.",
    },
    Setting {
        key: "ssl-redirect",
        default: "true",
        effect: Effect::Redirect,
        note: "Fallback for the ssl-redirect annotation. In lua_ingress.lua rewrite(), plain-http requests are redirected to https with http-redirect-code, but only when a TLS certificate is configured for the host. no-tls-redirect-locations prefixes are exempt.",
    },
    Setting {
        key: "force-ssl-redirect",
        default: "false",
        effect: Effect::Redirect,
        note: "Fallback for the force-ssl-redirect annotation. Redirects to https even with no certificate for the host, whenever `$pass_access_scheme` is http. That scheme comes from X-Forwarded-Proto when use-forwarded-headers is on.",
    },
    Setting {
        key: "use-port-in-redirects",
        default: "false",
        effect: Effect::Redirect,
        note: "Fallback for the use-port-in-redirects annotation. Sets `port_in_redirect` per location and adds the https listen port to the Lua https redirect URL.",
    },
    Setting {
        key: "relative-redirects",
        default: "false",
        effect: Effect::Redirect,
        note: "Tag is declared in both Backend and Configuration, and the decode sets both fields. When true, the http block gets `absolute_redirect off`, so redirects nginx builds itself (for example the trailing-slash 301) carry a relative Location.",
    },
    Setting {
        key: "upstream-hash-by",
        default: "",
        effect: Effect::Other,
        note: "Inert: decoded into Backend.UpstreamHashBy, but the upstream-hash-by annotation parser does not fall back to it, so consistent hashing cannot be enabled globally from the ConfigMap.",
    },
    Setting {
        key: "upstream-hash-by-subset",
        default: "false",
        effect: Effect::Other,
        note: "Inert: never read from the ConfigMap (see upstream-hash-by).",
    },
    Setting {
        key: "upstream-hash-by-subset-size",
        default: "0",
        effect: Effect::Other,
        note: "Inert: never read from the ConfigMap. NewDefault leaves it 0. The annotation parser's own default is 3.",
    },
    Setting {
        key: "load-balance",
        default: "",
        effect: Effect::Routing,
        note: "Global fallback for the load-balance annotation, copied to every upstream that has no annotation. NewDefault leaves it empty, and balancer.lua then uses round_robin (the docs list round_robin as the default). Accepts round_robin or ewma.",
    },
    Setting {
        key: "whitelist-source-range",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig: split on commas and trimmed, with no CIDR check at this stage. Global client allowlist: every location without the allowlist-source-range annotation (whose older name whitelist-source-range is an annotation alias) gets `allow` lines and `deny all` (403). An annotation replaces this list rather than adding to it. There is no `allowlist-source-range` ConfigMap key.",
    },
    Setting {
        key: "denylist-source-range",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig: split on commas and trimmed. Global client denylist, used for every location without the denylist-source-range annotation: `deny` lines, so matching clients get 403.",
    },
    Setting {
        key: "limit-rate",
        default: "0",
        effect: Effect::Limits,
        note: "Fallback for the limit-rate annotation: bytes per second per response (`limit_rate`). 0 means no limit. Responses are throttled, not rejected.",
    },
    Setting {
        key: "limit-rate-after",
        default: "0",
        effect: Effect::Limits,
        note: "Fallback for the limit-rate-after annotation: bytes sent before limit-rate applies.",
    },
    Setting {
        key: "proxy-buffering",
        default: "off",
        effect: Effect::Performance,
        note: "`proxy_buffering` per location (fallback for the annotation). The global auth subrequest forces it on when an auth cache key is set.",
    },
    Setting {
        key: "proxy-http-version",
        default: "1.1",
        effect: Effect::Performance,
        note: "Tag is declared in both Backend and Configuration, and the decode sets both fields. The template uses the Backend copy (`proxy_http_version` per location). NewDefault sets only the Backend copy. With 1.0, upstream keepalive and chunked bodies stop working.",
    },
    Setting {
        key: "proxy-max-temp-file-size",
        default: "1024m",
        effect: Effect::Performance,
        note: "`proxy_max_temp_file_size`, rendered only when it is a valid nginx size.",
    },
    Setting {
        key: "service-upstream",
        default: "false",
        effect: Effect::Routing,
        note: "Fallback for the service-upstream annotation. Proxies to the Service ClusterIP instead of the individual endpoints.",
    },
    Setting {
        key: "global-allowed-response-headers",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig: split on commas. Each name must pass the custom-headers header-name check, and failures are dropped with a warning. The custom-headers annotation may only set response headers in this list. Otherwise the location is denied and answers 503.",
    },
    // ---- config.Configuration ----
    Setting {
        key: "allow-snippet-annotations",
        default: "false",
        effect: Effect::Access,
        note: "When false, the admission check (CheckIngress) rejects any Ingress with an annotation whose name ends in `-snippet`, and the sync drops snippet values when building the config. ConfigMap snippets are not affected.",
    },
    Setting {
        key: "allow-cross-namespace-resources",
        default: "false",
        effect: Effect::Access,
        note: "When false, annotations that point at Secrets/ConfigMaps in another namespace (auth, auth-tls, auth-url proxy headers, proxy-ssl, fastcgi) are rejected.",
    },
    Setting {
        key: "annotations-risk-level",
        default: "High",
        effect: Effect::Access,
        note: "Highest annotation risk level accepted (Low, Medium, High, Critical). Annotations above it are refused. Critical ones, such as snippets, stay refused by default.",
    },
    Setting {
        key: "annotation-value-word-blocklist",
        default: "",
        effect: Effect::Access,
        note: "Comma-separated substrings. An Ingress whose controller annotations contain one of them is rejected by the admission check and skipped by the store sync.",
    },
    Setting {
        key: "add-headers",
        default: "",
        effect: Effect::Headers,
        note: "Not special in ReadConfig, which stores it as a plain string. generateTemplate reads it as `namespace/name` of another ConfigMap, and each data entry becomes an http-level `more_set_headers` on every response. A missing ConfigMap only logs a warning.",
    },
    Setting {
        key: "allow-backend-server-header",
        default: "false",
        effect: Effect::Headers,
        note: "When true, adds `proxy_pass_header Server`. With server-tokens false (the default), the http-level `more_clear_headers Server` still removes the header, so the upstream's Server header only reaches the client when server-tokens is true as well (upstream issue #6733).",
    },
    Setting {
        key: "access-log-params",
        default: "",
        effect: Effect::Observability,
        note: "Extra parameters added to the http and stream `access_log` lines (for example buffer=, flush=).",
    },
    Setting {
        key: "enable-access-log-for-default-backend",
        default: "false",
        effect: Effect::Observability,
        note: "Access logging for the root location of the catch-all server `_`.",
    },
    Setting {
        key: "enable-auth-access-log",
        default: "false",
        effect: Effect::Observability,
        note: "When false, the internal external-auth subrequest location has `access_log off`.",
    },
    Setting {
        key: "access-log-path",
        default: "/var/log/nginx/access.log",
        effect: Effect::Observability,
        note: "Used for http and stream when http-access-log-path / stream-access-log-path are empty. In the chroot image the default value is replaced by the internal syslog address.",
    },
    Setting {
        key: "http-access-log-path",
        default: "",
        effect: Effect::Observability,
        note: "Overrides access-log-path for the http block.",
    },
    Setting {
        key: "stream-access-log-path",
        default: "",
        effect: Effect::Observability,
        note: "Overrides access-log-path for the stream block.",
    },
    Setting {
        key: "worker-cpu-affinity",
        default: "",
        effect: Effect::Performance,
        note: "Rendered as `worker_cpu_affinity` when non-empty.",
    },
    Setting {
        key: "error-log-path",
        default: "/var/log/nginx/error.log",
        effect: Effect::Observability,
        note: "`error_log` target (ignored when enable-syslog is on in the http block). In the chroot image the default value is replaced by the internal syslog address.",
    },
    Setting {
        key: "enable-modsecurity",
        default: "false",
        effect: Effect::Access,
        note: "Loads ModSecurity and turns it on in the http block with the bundled rules file (or modsecurity-snippet). The WAF can block requests. Internal, auth and custom-error locations turn it off.",
    },
    Setting {
        key: "enable-ocsp",
        default: "false",
        effect: Effect::Tls,
        note: "Passed to Lua (createLuaConfig), which fetches OCSP responses and staples them in the certificate phase.",
    },
    Setting {
        key: "enable-owasp-modsecurity-crs",
        default: "false",
        effect: Effect::Access,
        note: "Also loads the OWASP Core Rule Set, when enable-modsecurity is on.",
    },
    Setting {
        key: "modsecurity-snippet",
        default: "",
        effect: Effect::Access,
        note: "If set, replaces the default modsecurity rules file with these inline rules (only used when enable-modsecurity).",
    },
    Setting {
        key: "client-header-buffer-size",
        default: "1k",
        effect: Effect::Performance,
        note: "`client_header_buffer_size`. Larger headers fall back to large-client-header-buffers.",
    },
    Setting {
        key: "client-header-timeout",
        default: "60",
        effect: Effect::Limits,
        note: "Seconds, integer, rendered with an `s` suffix (`client_header_timeout`). A client that is too slow gets 408 or a closed connection.",
    },
    Setting {
        key: "client-body-buffer-size",
        default: "8k",
        effect: Effect::Performance,
        note: "`client_body_buffer_size`. Larger bodies are written to a temporary file.",
    },
    Setting {
        key: "client-body-timeout",
        default: "60",
        effect: Effect::Limits,
        note: "Seconds, integer, rendered with an `s` suffix (`client_body_timeout`). A slow body upload gets 408.",
    },
    Setting {
        key: "disable-access-log",
        default: "false",
        effect: Effect::Observability,
        note: "Turns the access log off in both the http and stream blocks.",
    },
    Setting {
        key: "disable-http-access-log",
        default: "false",
        effect: Effect::Observability,
        note: "Turns the access log off in the http block only.",
    },
    Setting {
        key: "disable-stream-access-log",
        default: "false",
        effect: Effect::Observability,
        note: "Turns the access log off in the stream block only.",
    },
    Setting {
        key: "disable-ipv6-dns",
        default: "false",
        effect: Effect::Other,
        note: "Before decoding, ReadConfig always sets it to `not IsIPv6Enabled()` for the host, so the effective default depends on the host. A ConfigMap value still overrides it. When true, `resolver` drops IPv6 nameservers and adds `ipv6=off`.",
    },
    Setting {
        key: "disable-ipv6",
        default: "false",
        effect: Effect::Other,
        note: "When true, no `[::]` listeners are rendered, so IPv6 clients cannot connect.",
    },
    Setting {
        key: "enable-underscores-in-headers",
        default: "false",
        effect: Effect::Headers,
        note: "`underscores_in_headers`. When off (the default), client headers whose names contain `_` are treated as invalid and, with ignore-invalid-headers on, dropped before proxying.",
    },
    Setting {
        key: "ignore-invalid-headers",
        default: "true",
        effect: Effect::Headers,
        note: "`ignore_invalid_headers`: drop request headers with invalid names instead of passing them on.",
    },
    Setting {
        key: "retry-non-idempotent",
        default: "false",
        effect: Effect::Routing,
        note: "Adds `non_idempotent` to proxy_next_upstream, so POST/LOCK/PATCH are also retried on another endpoint.",
    },
    Setting {
        key: "error-log-level",
        default: "notice",
        effect: Effect::Observability,
        note: "NewDefault switches it to `debug` when the controller runs with klog verbosity 5 or higher.",
    },
    Setting {
        key: "http2-max-field-size",
        default: "",
        effect: Effect::Limits,
        note: "Deprecated. Rendered only when both this and http2-max-header-size are non-empty (nginx has deprecated the directive and leaves header sizing to large_client_header_buffers).",
    },
    Setting {
        key: "http2-max-header-size",
        default: "",
        effect: Effect::Limits,
        note: "Deprecated. Rendered only together with http2-max-field-size.",
    },
    Setting {
        key: "http2-max-requests",
        default: "0",
        effect: Effect::Performance,
        note: "Deprecated. `http2_max_requests` is rendered only when greater than 0. keep-alive-requests is the replacement.",
    },
    Setting {
        key: "http2-max-concurrent-streams",
        default: "128",
        effect: Effect::Limits,
        note: "`http2_max_concurrent_streams` per connection. Streams above it are refused.",
    },
    Setting {
        key: "hsts",
        default: "true",
        effect: Effect::Redirect,
        note: "lua_ingress.lua header() adds Strict-Transport-Security to responses when the connection's own `$scheme` is https. The intended check for a configured certificate is never called (the function value is used, which is always truthy), so every https response gets the header. Requests that reached nginx over plain http with TLS ended upstream do not get it.",
    },
    Setting {
        key: "hsts-include-subdomains",
        default: "true",
        effect: Effect::Redirect,
        note: "Adds `; includeSubDomains` to the HSTS header.",
    },
    Setting {
        key: "hsts-max-age",
        default: "31536000",
        effect: Effect::Redirect,
        note: "String, copied as-is into `max-age=` of the HSTS header.",
    },
    Setting {
        key: "hsts-preload",
        default: "false",
        effect: Effect::Redirect,
        note: "Adds `; preload` to the HSTS header.",
    },
    Setting {
        key: "keep-alive",
        default: "75",
        effect: Effect::Performance,
        note: "Seconds, integer, rendered as `keepalive_timeout <n>s` for client connections. 0 turns client keepalive off.",
    },
    Setting {
        key: "keep-alive-requests",
        default: "1000",
        effect: Effect::Performance,
        note: "`keepalive_requests` for client connections.",
    },
    Setting {
        key: "large-client-header-buffers",
        default: "4 8k",
        effect: Effect::Limits,
        note: "`large_client_header_buffers`. A request line longer than one buffer gets 414. A header field that is too large, or too many of them, gets 400.",
    },
    Setting {
        key: "log-format-escape-none",
        default: "false",
        effect: Effect::Observability,
        note: "Adds `escape=none` to the upstreaminfo log_format. Takes precedence over log-format-escape-json.",
    },
    Setting {
        key: "log-format-escape-json",
        default: "false",
        effect: Effect::Observability,
        note: "Adds `escape=json` to the upstreaminfo log_format.",
    },
    Setting {
        key: "log-format-upstream",
        default: LOG_FORMAT_UPSTREAM,
        effect: Effect::Observability,
        note: "Body of the http `log_format upstreaminfo`, wrapped in single quotes by the template.",
    },
    Setting {
        key: "log-format-stream",
        default: LOG_FORMAT_STREAM,
        effect: Effect::Observability,
        note: "Body of the stream `log_format log_stream`.",
    },
    Setting {
        key: "enable-multi-accept",
        default: "true",
        effect: Effect::Performance,
        note: "`multi_accept` in the events block.",
    },
    Setting {
        key: "max-worker-connections",
        default: "16384",
        effect: Effect::Performance,
        note: "`worker_connections`. If set to 0, generateTemplate uses 3/4 of the effective max-worker-open-files.",
    },
    Setting {
        key: "max-worker-open-files",
        default: "0",
        effect: Effect::Performance,
        note: "`worker_rlimit_nofile`. 0 (the default) makes generateTemplate compute RLIMIT_NOFILE minus 1024, with a minimum of 1024.",
    },
    Setting {
        key: "map-hash-bucket-size",
        default: "64",
        effect: Effect::Performance,
        note: "`map_hash_bucket_size`.",
    },
    Setting {
        key: "nginx-status-ipv4-whitelist",
        default: "127.0.0.1",
        effect: Effect::Access,
        note: "ReadConfig: split on commas and trimmed (this replaces the default). These are the `allow` entries of the /nginx_status location on the catch-all server `_`. Everyone else gets 403.",
    },
    Setting {
        key: "nginx-status-ipv6-whitelist",
        default: "::1",
        effect: Effect::Access,
        note: "ReadConfig: split on commas and trimmed. IPv6 `allow` entries for /nginx_status, rendered only when IPv6 is enabled.",
    },
    Setting {
        key: "proxy-real-ip-cidr",
        default: "0.0.0.0/0",
        effect: Effect::Headers,
        note: "ReadConfig: split on commas and trimmed. If the key is absent, ReadConfig sets it to 0.0.0.0/0 again. These are the trusted `set_real_ip_from` sources whenever use-forwarded-headers, use-proxy-protocol or enable-real-ip is on, and the trusted PROXY-protocol peers when both of the first two are on. With the default and realip active, any client can choose its own address through forwarded-for-header.",
    },
    Setting {
        key: "proxy-set-headers",
        default: "",
        effect: Effect::Headers,
        note: "Not special in ReadConfig. generateTemplate reads it as `namespace/name` of another ConfigMap, and each data entry becomes a `proxy_set_header` (request header to the upstream) in every location. A missing ConfigMap only logs a warning.",
    },
    Setting {
        key: "server-name-hash-max-size",
        default: "1024",
        effect: Effect::Performance,
        note: "`server_names_hash_max_size`. generateTemplate raises it to the next power of two above the total length of all server names if that is larger.",
    },
    Setting {
        key: "server-name-hash-bucket-size",
        default: "0",
        effect: Effect::Performance,
        note: "NewDefault leaves it 0. generateTemplate always raises it to the bucket size needed for the longest server name, so the effective value is computed (the docs describe it as the CPU cache line size).",
    },
    Setting {
        key: "proxy-headers-hash-max-size",
        default: "512",
        effect: Effect::Performance,
        note: "`proxy_headers_hash_max_size`.",
    },
    Setting {
        key: "proxy-headers-hash-bucket-size",
        default: "64",
        effect: Effect::Performance,
        note: "`proxy_headers_hash_bucket_size`.",
    },
    Setting {
        key: "server-tokens",
        default: "false",
        effect: Effect::Headers,
        note: "`server_tokens`. When false, `more_clear_headers Server` is also rendered, which removes the Server header from every response, including one passed through by allow-backend-server-header.",
    },
    Setting {
        key: "ssl-ciphers",
        default: SSL_CIPHERS,
        effect: Effect::Tls,
        note: "`ssl_ciphers` plus `ssl_prefer_server_ciphers on`, rendered only when non-empty. Applies to TLS 1.2 and older.",
    },
    Setting {
        key: "ssl-ecdh-curve",
        default: "auto",
        effect: Effect::Tls,
        note: "`ssl_ecdh_curve`.",
    },
    Setting {
        key: "ssl-dh-param",
        default: "",
        effect: Effect::Tls,
        note: "`namespace/name` of a Secret with a `dhparam.pem` entry. generateTemplate writes it to a file and renders `ssl_dhparam`. If the Secret cannot be read, the key is cleared.",
    },
    Setting {
        key: "ssl-protocols",
        default: "TLSv1.2 TLSv1.3",
        effect: Effect::Tls,
        note: "`ssl_protocols` in the http block.",
    },
    Setting {
        key: "ssl-early-data",
        default: "false",
        effect: Effect::Tls,
        note: "`ssl_early_data` (TLS 1.3 0-RTT). Missing from the docs table.",
    },
    Setting {
        key: "ssl-session-cache",
        default: "true",
        effect: Effect::Tls,
        note: "When true, renders `ssl_session_cache shared:SSL:<size>` and `ssl_session_timeout`.",
    },
    Setting {
        key: "ssl-session-cache-size",
        default: "10m",
        effect: Effect::Tls,
        note: "Size of the shared TLS session cache.",
    },
    Setting {
        key: "ssl-session-tickets",
        default: "false",
        effect: Effect::Tls,
        note: "`ssl_session_tickets`.",
    },
    Setting {
        key: "ssl-session-ticket-key",
        default: "",
        effect: Effect::Tls,
        note: "Base64 of 48 or 80 bytes. store.writeSSLSessionTicketKey decodes it (a wrong length only logs a warning) into /etc/ingress-controller/tickets.key, and the template renders `ssl_session_ticket_key`. Invalid base64 clears it.",
    },
    Setting {
        key: "ssl-session-timeout",
        default: "10m",
        effect: Effect::Tls,
        note: "`ssl_session_timeout`, rendered only with ssl-session-cache.",
    },
    Setting {
        key: "ssl-buffer-size",
        default: "4k",
        effect: Effect::Performance,
        note: "`ssl_buffer_size`: TLS record size, which affects time to first byte.",
    },
    Setting {
        key: "ssl-reject-handshake",
        default: "false",
        effect: Effect::Tls,
        note: "`ssl_reject_handshake` on the catch-all server `_`. When on, TLS clients whose SNI matches no configured host have their handshake rejected instead of getting the default certificate.",
    },
    Setting {
        key: "use-proxy-protocol",
        default: "false",
        effect: Effect::Headers,
        note: "Adds `proxy_protocol` to the http/https listeners, so every connection must start with a PROXY header (plain clients fail). The client address then comes from the PROXY header, and port 443 in it sets the scheme to https. The SSL passthrough listener also decodes PROXY headers.",
    },
    Setting {
        key: "proxy-protocol-header-timeout",
        default: "5s",
        effect: Effect::Tls,
        note: "ReadConfig: parsed as a Go duration. An invalid value keeps 5s and logs a warning. Only used by the SSL passthrough TCP listener (setupSSLProxy) as the PROXY-header read timeout.",
    },
    Setting {
        key: "enable-aio-write",
        default: "true",
        effect: Effect::Performance,
        note: "`aio_write on`.",
    },
    Setting {
        key: "use-gzip",
        default: "false",
        effect: Effect::Performance,
        note: "Turns gzip on with gzip-level, gzip-min-length, gzip-types and gzip-disable, plus `gzip_proxied any` and `gzip_vary on` (which adds Vary: Accept-Encoding).",
    },
    Setting {
        key: "use-geoip2",
        default: "false",
        effect: Effect::Other,
        note: "Loads the geoip2 module and defines `$geoip2_*` variables from the downloaded MaxMind databases. store.setConfig turns it back off when no database is present.",
    },
    Setting {
        key: "geoip2-autoreload-in-minutes",
        default: "0",
        effect: Effect::Other,
        note: "`auto_reload <n>m` for each geoip2 database when greater than 0.",
    },
    Setting {
        key: "enable-brotli",
        default: "false",
        effect: Effect::Performance,
        note: "Loads the brotli modules and turns brotli compression on.",
    },
    Setting {
        key: "brotli-level",
        default: "4",
        effect: Effect::Performance,
        note: "`brotli_comp_level`.",
    },
    Setting {
        key: "brotli-min-length",
        default: "20",
        effect: Effect::Performance,
        note: "`brotli_min_length`.",
    },
    Setting {
        key: "brotli-types",
        default: BROTLI_TYPES,
        effect: Effect::Performance,
        note: "`brotli_types`.",
    },
    Setting {
        key: "use-http2",
        default: "true",
        effect: Effect::Tls,
        note: "Renders `http2 on` in every server (offered to TLS clients through ALPN). It also switches off the Lua keepalive path for auth-url upstreams (shouldApplyAuthUpstream).",
    },
    Setting {
        key: "gzip-disable",
        default: "",
        effect: Effect::Performance,
        note: "`gzip_disable` (User-Agent regex), rendered only with use-gzip.",
    },
    Setting {
        key: "gzip-level",
        default: "1",
        effect: Effect::Performance,
        note: "`gzip_comp_level`.",
    },
    Setting {
        key: "gzip-min-length",
        default: "256",
        effect: Effect::Performance,
        note: "`gzip_min_length`.",
    },
    Setting {
        key: "gzip-types",
        default: GZIP_TYPES,
        effect: Effect::Performance,
        note: "`gzip_types`. text/html is always compressed when gzip is on.",
    },
    Setting {
        key: "worker-processes",
        default: "auto",
        effect: Effect::Performance,
        note: "ReadConfig: `auto` is replaced by the CPU count. NewDefault already uses that count: runtime.NumCPU, limited by the cgroup CPU quota. The literal `auto` is never written into nginx.conf.",
    },
    Setting {
        key: "enable-serial-reloads",
        default: "false",
        effect: Effect::Other,
        note: "ReadConfig: strconv.ParseBool, so an invalid value becomes false with a warning. When true, OnUpdate re-queues a reload while old workers are still shutting down, instead of starting more.",
    },
    Setting {
        key: "worker-shutdown-timeout",
        default: "240s",
        effect: Effect::Performance,
        note: "`worker_shutdown_timeout`: how long old workers keep serving open connections after a reload.",
    },
    Setting {
        key: "variables-hash-bucket-size",
        default: "256",
        effect: Effect::Performance,
        note: "`variables_hash_bucket_size`.",
    },
    Setting {
        key: "variables-hash-max-size",
        default: "2048",
        effect: Effect::Performance,
        note: "`variables_hash_max_size`.",
    },
    Setting {
        key: "upstream-keepalive-connections",
        default: "320",
        effect: Effect::Performance,
        note: "`keepalive` in upstream_balancer. 0 drops the upstream keepalive block and makes the `$connection_upgrade` map send `Connection: close` upstream for non-upgrade requests.",
    },
    Setting {
        key: "upstream-keepalive-time",
        default: "1h",
        effect: Effect::Performance,
        note: "`keepalive_time` in upstream_balancer.",
    },
    Setting {
        key: "upstream-keepalive-timeout",
        default: "60",
        effect: Effect::Performance,
        note: "Seconds, integer (`keepalive_timeout <n>s` in upstream_balancer).",
    },
    Setting {
        key: "upstream-keepalive-requests",
        default: "10000",
        effect: Effect::Performance,
        note: "`keepalive_requests` in upstream_balancer.",
    },
    Setting {
        key: "limit-conn-zone-variable",
        default: "$binary_remote_addr",
        effect: Effect::Limits,
        note: "Key variable for the zones created by the rate-limit annotations (limit-connections, limit-rps, limit-rpm). Clients in the annotation allowlist get an empty key and are not limited.",
    },
    Setting {
        key: "proxy-stream-timeout",
        default: "600s",
        effect: Effect::Limits,
        note: "`proxy_timeout` for TCP/UDP services (stream block): an idle connection is closed after this long.",
    },
    Setting {
        key: "proxy-stream-next-upstream",
        default: "true",
        effect: Effect::Routing,
        note: "`proxy_next_upstream` for TCP/UDP services.",
    },
    Setting {
        key: "proxy-stream-next-upstream-timeout",
        default: "600s",
        effect: Effect::Routing,
        note: "`proxy_next_upstream_timeout` for TCP/UDP services.",
    },
    Setting {
        key: "proxy-stream-next-upstream-tries",
        default: "3",
        effect: Effect::Routing,
        note: "`proxy_next_upstream_tries` for TCP/UDP services.",
    },
    Setting {
        key: "proxy-stream-responses",
        default: "1",
        effect: Effect::Other,
        note: "ReadConfig: strconv.Atoi, and a value that is not an integer keeps 1 with a warning. `proxy_responses` for UDP services (datagrams expected back per request).",
    },
    Setting {
        key: "bind-address-ipv4",
        default: "",
        effect: Effect::Other,
        note: "Normally filled by the bind-address key. A direct value is decoded after that and becomes a one-element list, so comma-separated lists do not work here. Empty means listening on all IPv4 addresses.",
    },
    Setting {
        key: "bind-address-ipv6",
        default: "",
        effect: Effect::Other,
        note: "Normally filled by the bind-address key (bracketed). A direct value becomes a one-element list. Empty means `[::]`.",
    },
    Setting {
        key: "use-forwarded-headers",
        default: "false",
        effect: Effect::Headers,
        note: "Trusts incoming forwarded headers: realip takes the client address from forwarded-for-header (trusted sources: proxy-real-ip-cidr). Lua rewrite() takes scheme, port and host from X-Forwarded-Proto, X-Forwarded-Port and X-Forwarded-Host, which changes ssl-redirect/force-ssl-redirect decisions and the Host sent upstream. It is also a precondition for compute-full-forwarded-for.",
    },
    Setting {
        key: "enable-real-ip",
        default: "false",
        effect: Effect::Headers,
        note: "Turns on the realip module (forwarded-for-header, proxy-real-ip-cidr) without the other parts of use-forwarded-headers. Also renders `set_real_ip_from` in the stream block.",
    },
    Setting {
        key: "forwarded-for-header",
        default: "X-Forwarded-For",
        effect: Effect::Headers,
        note: "Header realip reads the client address from. Also the source of X-Original-Forwarded-For sent upstream.",
    },
    Setting {
        key: "forwarded-for-proxy-protocol-header",
        default: "X-Forwarded-For-Proxy-Protocol",
        effect: Effect::Headers,
        note: "Internal request header set from the trusted PROXY-protocol or forwarded address when use-proxy-protocol and use-forwarded-headers are both on. realip then reads it.",
    },
    Setting {
        key: "forwarded-host-header",
        default: "X-Forwarded-Host",
        effect: Effect::Headers,
        note: "Source of the X-Original-Forwarded-Host header sent upstream. Missing from the docs table.",
    },
    Setting {
        key: "compute-full-forwarded-for",
        default: "false",
        effect: Effect::Headers,
        note: "Only with use-forwarded-headers: X-Forwarded-For sent upstream (and to auth) is the incoming value with the remote address appended, instead of just the remote address.",
    },
    Setting {
        key: "generate-request-id",
        default: "true",
        effect: Effect::Headers,
        note: "When the client sends no X-Request-ID, `$req_id` falls back to nginx's `$request_id`. `$req_id` is passed upstream as X-Request-ID.",
    },
    Setting {
        key: "proxy-add-original-uri-header",
        default: "false",
        effect: Effect::Headers,
        note: "Adds an X-Original-URI request header (the original `$request_uri`) toward the upstream.",
    },
    Setting {
        key: "enable-opentelemetry",
        default: "false",
        effect: Effect::Observability,
        note: "Loads the OpenTelemetry module and turns tracing on for locations.",
    },
    Setting {
        key: "opentelemetry-config",
        default: "/etc/ingress-controller/telemetry/opentelemetry.toml",
        effect: Effect::Observability,
        note: "Path given to `opentelemetry_config`. createOpentelemetryCfg writes the file.",
    },
    Setting {
        key: "opentelemetry-operation-name",
        default: "",
        effect: Effect::Observability,
        note: "`opentelemetry_operation_name` when non-empty.",
    },
    Setting {
        key: "opentelemetry-trust-incoming-span",
        default: "true",
        effect: Effect::Observability,
        note: "Whether incoming trace context headers are used as the parent span.",
    },
    Setting {
        key: "otlp-collector-host",
        default: "",
        effect: Effect::Observability,
        note: "OTLP exporter host written to the OpenTelemetry config file.",
    },
    Setting {
        key: "otlp-collector-port",
        default: "4317",
        effect: Effect::Observability,
        note: "OTLP exporter port (a string field).",
    },
    Setting {
        key: "otel-service-name",
        default: "nginx",
        effect: Effect::Observability,
        note: "Service name on exported spans.",
    },
    Setting {
        key: "otel-sampler",
        default: "AlwaysOn",
        effect: Effect::Observability,
        note: "Sampler name.",
    },
    Setting {
        key: "otel-sampler-ratio",
        default: "0.01",
        effect: Effect::Observability,
        note: "float32 sampling ratio.",
    },
    Setting {
        key: "otel-sampler-parent-based",
        default: "true",
        effect: Effect::Observability,
        note: "Whether the sampler follows the parent span's decision.",
    },
    Setting {
        key: "otel-max-queuesize",
        default: "2048",
        effect: Effect::Observability,
        note: "Batch exporter queue size.",
    },
    Setting {
        key: "otel-schedule-delay-millis",
        default: "5000",
        effect: Effect::Observability,
        note: "Batch exporter delay in milliseconds.",
    },
    Setting {
        key: "otel-max-export-batch-size",
        default: "512",
        effect: Effect::Observability,
        note: "Batch exporter batch size.",
    },
    Setting {
        key: "main-snippet",
        default: "",
        effect: Effect::Other,
        note: "Raw nginx text placed in the main context. allow-snippet-annotations does not restrict it. It can change anything.",
    },
    Setting {
        key: "http-snippet",
        default: "",
        effect: Effect::Other,
        note: "Raw nginx text placed in the http block. It can change anything.",
    },
    Setting {
        key: "server-snippet",
        default: "",
        effect: Effect::Other,
        note: "Raw nginx text placed in every server block (after the locations). It can change anything.",
    },
    Setting {
        key: "stream-snippet",
        default: "",
        effect: Effect::Other,
        note: "Raw nginx text appended to the stream block (after any per-Ingress stream snippets).",
    },
    Setting {
        key: "location-snippet",
        default: "",
        effect: Effect::Other,
        note: "Raw nginx text placed in every Ingress location, after the configuration-snippet annotation. It can change anything.",
    },
    Setting {
        key: "http-redirect-code",
        default: "308",
        effect: Effect::Redirect,
        note: "ReadConfig: strconv.Atoi, and only 301, 302, 307 or 308 are accepted (otherwise 308 stays, with a warning). Used for the Lua http-to-https redirect and for the from-to-www redirect servers. Not used for the permanent-redirect or temporal-redirect annotations.",
    },
    Setting {
        key: "reuse-port",
        default: "true",
        effect: Effect::Performance,
        note: "Adds `reuseport` to the catch-all listeners.",
    },
    Setting {
        key: "hide-headers",
        default: "",
        effect: Effect::Headers,
        note: "ReadConfig: split on commas and trimmed. Each name becomes an http-level `proxy_hide_header`, removing that upstream response header before it reaches the client.",
    },
    Setting {
        key: "limit-req-status-code",
        default: "503",
        effect: Effect::Limits,
        note: "`limit_req_status`: status sent to requests rejected by limit-rps/limit-rpm.",
    },
    Setting {
        key: "limit-conn-status-code",
        default: "503",
        effect: Effect::Limits,
        note: "`limit_conn_status`: status sent when limit-connections is exceeded.",
    },
    Setting {
        key: "enable-syslog",
        default: "false",
        effect: Effect::Observability,
        note: "Sends the http access and error logs to syslog-host:syslog-port.",
    },
    Setting {
        key: "syslog-host",
        default: "",
        effect: Effect::Observability,
        note: "Syslog server for enable-syslog.",
    },
    Setting {
        key: "syslog-port",
        default: "514",
        effect: Effect::Observability,
        note: "Syslog port for enable-syslog.",
    },
    Setting {
        key: "no-tls-redirect-locations",
        default: "/.well-known/acme-challenge",
        effect: Effect::Redirect,
        note: "Not special in ReadConfig (a plain string). At render time isLocationInLocationList splits it on commas and matches each entry as a plain string prefix of the Ingress location path. Matching locations get `$force_no_ssl_redirect`, which turns off both ssl-redirect and force-ssl-redirect.",
    },
    Setting {
        key: "no-auth-locations",
        default: "/.well-known/acme-challenge",
        effect: Effect::Access,
        note: "Comma-separated, matched as a string prefix of the location path. Matching locations skip external auth (auth-url and global auth) but not basic auth or allowlists.",
    },
    Setting {
        key: "global-external-auth",
        default: "",
        effect: Effect::Access,
        note: "Tag of the GlobalExternalAuth struct field. A string cannot be decoded into a struct, so setting it only logs a decode warning. Use the global-auth-* keys instead.",
    },
    Setting {
        key: "block-cidrs",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig: split on commas. Each entry becomes an http-level `deny`, so matching clients get 403 everywhere.",
    },
    Setting {
        key: "block-user-agents",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig: split on commas. Entries are nginx map patterns (exact, or `~` for a regex) against User-Agent. Matches get 403 in every server.",
    },
    Setting {
        key: "block-referers",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig: split on commas. Entries are map patterns against Referer. Matches get 403 in every server.",
    },
    Setting {
        key: "lua-shared-dicts",
        default: "",
        effect: Effect::Performance,
        note: "ReadConfig: comma list of `name: size` (size in k or m, without a unit meaning m). Each dict is capped at 200m and there can be at most 100. Bad entries are skipped. Built-in defaults are added for missing names: configuration_data and certificate_data 20m, balancer_ewma and balancer_ewma_last_touched_at 10m, balancer_ewma_locks 1m, certificate_servers and ocsp_response_cache 5m.",
    },
    Setting {
        key: "proxy-ssl-location-only",
        default: "false",
        effect: Effect::Tls,
        note: "When false, proxy-ssl-* annotation settings (TLS toward the upstream) are also copied to the server level.",
    },
    Setting {
        key: "default-type",
        default: "text/html",
        effect: Effect::Headers,
        note: "`default_type`: Content-Type for responses nginx generates when no type is known.",
    },
    Setting {
        key: "debug-connections",
        default: "",
        effect: Effect::Observability,
        note: "ReadConfig: split on commas. Entries must be IPs or CIDRs, and others are dropped with a warning. Each becomes a `debug_connection` (needs a debug nginx build).",
    },
    Setting {
        key: "strict-validate-path-type",
        default: "true",
        effect: Effect::Routing,
        note: "Used only in CheckIngress (the admission webhook): Exact/Prefix paths must match `^/[[:alnum:]._\\-/]*$` (case-insensitive), so letters, digits, `.`, `_`, `-` and `/` only. Upstream's field comment leaves out `.`. Without the webhook it changes nothing. The webhook's warning path runs the same check whatever this key says, but only warns.",
    },
    Setting {
        key: "grpc-buffer-size-kb",
        default: "0",
        effect: Effect::Limits,
        note: "`grpc_buffer_size <n>k` in the http block when greater than 0. Buffer for gRPC response headers, so a value that is too small gives 502.",
    },
    // ---- keys that exist only inside ReadConfig ----
    Setting {
        key: "bind-address",
        default: "",
        effect: Effect::Other,
        note: "ReadConfig only (no struct field): split on commas and parsed as IPs. IPv6 addresses go to bind-address-ipv6 in brackets, IPv4 to bind-address-ipv4, and invalid entries are dropped with a warning. Listeners are bound only to these addresses.",
    },
    Setting {
        key: "global-auth-url",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: must parse as a URL (otherwise ignored with a warning). Sets GlobalExternalAuth.URL and Host. Every location without its own auth-url and without enable-global-auth=false then needs an auth subrequest (auth_request). A 2xx lets the request through, 401/403 reach the client, and any other answer becomes 500. Locations matching no-auth-locations are exempt.",
    },
    Setting {
        key: "global-auth-method",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: must be a valid HTTP method name, otherwise the value is ignored with a warning. Sets `proxy_method` for the auth subrequest.",
    },
    Setting {
        key: "global-auth-signin",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: must parse as a URL. A 401 from global auth becomes a 302 to this URL, with the original URL added as a query parameter.",
    },
    Setting {
        key: "global-auth-signin-redirect-param",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: trimmed, then checked by building a test URL with global-auth-signin. Empty falls back to `rd` at render time (buildAuthSignURL), so the effective default is `rd`.",
    },
    Setting {
        key: "global-auth-response-headers",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: split on commas, and invalid header names are dropped. These headers are copied from the auth response into the upstream request. NewDefault holds a list with one empty string.",
    },
    Setting {
        key: "global-auth-request-redirect",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: value of X-Auth-Request-Redirect sent to the auth service (when empty, the request URI is sent).",
    },
    Setting {
        key: "global-auth-snippet",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: raw nginx text placed in the global auth subrequest location.",
    },
    Setting {
        key: "global-auth-cache-key",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: turns on caching of auth responses (proxy_cache auth_cache) under this key.",
    },
    Setting {
        key: "global-auth-cache-duration",
        default: "",
        effect: Effect::Access,
        note: "ReadConfig only: comma list of `proxy_cache_valid` entries. If the key is present but empty, or an entry is invalid, `200 202 401 5m` is used (the docs give that as the default). NewDefault has an empty list, which only matters with global-auth-cache-key.",
    },
    Setting {
        key: "global-auth-always-set-cookie",
        default: "false",
        effect: Effect::Access,
        note: "ReadConfig only: strconv.ParseBool (an invalid value becomes false with a warning). When true, the Set-Cookie from the auth response is added with `always`, so error responses carry it too. Missing from the docs table.",
    },
];

/// Every flag defined in `ParseFlags()` (`pkg/flags/flags.go`), in source order.
pub(crate) const FLAGS: &[Flag] = &[
    Flag {
        name: "--apiserver-host",
        default: "",
        effect: Effect::Other,
        note: "API server URL. Empty means in-cluster discovery.",
    },
    Flag {
        name: "--certificate-authority",
        default: "",
        effect: Effect::Other,
        note: "CA file for the API server. Only used together with --apiserver-host.",
    },
    Flag {
        name: "--kubeconfig",
        default: "",
        effect: Effect::Other,
        note: "kubeconfig file for reaching the API server.",
    },
    Flag {
        name: "--default-backend-service",
        default: "",
        effect: Effect::Routing,
        note: "`namespace/name` of the Service that gets requests matching no host/path, and serves custom-http-errors pages. When empty, the built-in server on --default-server-port answers 404.",
    },
    Flag {
        name: "--ingress-class",
        default: "nginx",
        effect: Effect::Routing,
        note: "Deprecated. Value of the kubernetes.io/ingress.class annotation this controller handles (ingressclass.DefaultAnnotationValue). --controller-class takes precedence.",
    },
    Flag {
        name: "--controller-class",
        default: "k8s.io/ingress-nginx",
        effect: Effect::Routing,
        note: "IngressClass .spec.controller value this controller handles (ingressclass.DefaultControllerName). Ingresses of other classes are ignored.",
    },
    Flag {
        name: "--watch-ingress-without-class",
        default: "false",
        effect: Effect::Routing,
        note: "Also handle Ingresses with no class set at all.",
    },
    Flag {
        name: "--ingress-class-by-name",
        default: "false",
        effect: Effect::Routing,
        note: "Also match Ingresses by IngressClass name, not only by controller value.",
    },
    Flag {
        name: "--configmap",
        default: "",
        effect: Effect::Other,
        note: "`namespace/name` of the ConfigMap holding the SETTINGS keys.",
    },
    Flag {
        name: "--publish-service",
        default: "",
        effect: Effect::Other,
        note: "Service whose address is written into Ingress status. Cannot be combined with --publish-status-address.",
    },
    Flag {
        name: "--tcp-services-configmap",
        default: "",
        effect: Effect::Routing,
        note: "ConfigMap mapping external TCP ports to `namespace/name:port`. These become stream servers.",
    },
    Flag {
        name: "--udp-services-configmap",
        default: "",
        effect: Effect::Routing,
        note: "ConfigMap mapping external UDP ports to `namespace/name:port`.",
    },
    Flag {
        name: "--sync-period",
        default: "0s",
        effect: Effect::Other,
        note: "Informer resync period (a Go duration). 0 turns periodic resync off.",
    },
    Flag {
        name: "--watch-namespace",
        default: "",
        effect: Effect::Routing,
        note: "Only watch this namespace (apiv1.NamespaceAll, empty, means all). Cannot be combined with --watch-namespace-selector.",
    },
    Flag {
        name: "--watch-namespace-selector",
        default: "",
        effect: Effect::Routing,
        note: "Label selector for the namespaces to watch. Must parse, and cannot be combined with --watch-namespace.",
    },
    Flag {
        name: "--profiling",
        default: "true",
        effect: Effect::Observability,
        note: "Serves Go pprof on --profiler-address:--profiler-port.",
    },
    Flag {
        name: "--default-ssl-certificate",
        default: "",
        effect: Effect::Tls,
        note: "`namespace/name` Secret used by the catch-all HTTPS server and by hosts without their own certificate. When empty, a self-signed fake certificate is used.",
    },
    Flag {
        name: "--health-check-path",
        default: "/healthz",
        effect: Effect::Routing,
        note: "Health path. Besides the status server, the catch-all server `_` gets a location at this path that returns 200, so any unmatched host answers 200 there.",
    },
    Flag {
        name: "--health-check-timeout",
        default: "10",
        effect: Effect::Other,
        note: "Seconds allowed for the internal health probe. Only applied when greater than 0.",
    },
    Flag {
        name: "--update-status",
        default: "true",
        effect: Effect::Other,
        note: "Write the load-balancer address into Ingress status.",
    },
    Flag {
        name: "--election-id",
        default: "ingress-controller-leader",
        effect: Effect::Other,
        note: "Leader election lease name (the leader updates status).",
    },
    Flag {
        name: "--election-ttl",
        default: "30s",
        effect: Effect::Other,
        note: "Leader lease duration. 0 or a negative value is reset to 30s.",
    },
    Flag {
        name: "--update-status-on-shutdown",
        default: "true",
        effect: Effect::Other,
        note: "Clear or update Ingress status when the controller stops.",
    },
    Flag {
        name: "--report-node-internal-ip-address",
        default: "false",
        effect: Effect::Other,
        note: "Report Node internal instead of external addresses in status.",
    },
    Flag {
        name: "--version",
        default: "false",
        effect: Effect::Other,
        note: "Print version information and exit.",
    },
    Flag {
        name: "--enable-ssl-passthrough",
        default: "false",
        effect: Effect::Tls,
        note: "Starts a Go TCP proxy on the HTTPS port that routes by SNI. Hosts marked ssl-passthrough are forwarded without TLS termination, and everything else goes to nginx on --ssl-passthrough-proxy-port.",
    },
    Flag {
        name: "--disable-leader-election",
        default: "false",
        effect: Effect::Other,
        note: "Run without leader election.",
    },
    Flag {
        name: "--disable-svc-external-name",
        default: "false",
        effect: Effect::Routing,
        note: "Refuse Services of type ExternalName as backends.",
    },
    Flag {
        name: "--annotations-prefix",
        default: "nginx.ingress.kubernetes.io",
        effect: Effect::Other,
        note: "Prefix of the annotations the controller reads (parser.DefaultAnnotationsPrefix). With a custom prefix, the admission check rejects annotations that use the default prefix.",
    },
    Flag {
        name: "--enable-annotation-validation",
        default: "true",
        effect: Effect::Access,
        note: "Run each annotation's value validator (parser.EnableAnnotationValidation). An invalid value makes that annotation fail. Risk-level checks (annotations-risk-level) happen either way.",
    },
    Flag {
        name: "--enable-ssl-chain-completion",
        default: "false",
        effect: Effect::Tls,
        note: "Fetch missing intermediate certificates through the AIA extension (sets config.EnableSSLChainCompletion).",
    },
    Flag {
        name: "--sync-rate-limit",
        default: "0.3",
        effect: Effect::Performance,
        note: "float32: maximum sync rate (syncs per second).",
    },
    Flag {
        name: "--publish-status-address",
        default: "",
        effect: Effect::Other,
        note: "Comma-separated addresses to write into Ingress status. Cannot be combined with --publish-service.",
    },
    Flag {
        name: "--enable-metrics",
        default: "false",
        effect: Effect::Observability,
        note: "Collect Prometheus metrics (also adds the Lua log handler to custom error locations).",
    },
    Flag {
        name: "--metrics-per-host",
        default: "true",
        effect: Effect::Observability,
        note: "Label metrics with the host.",
    },
    Flag {
        name: "--metrics-per-undefined-host",
        default: "false",
        effect: Effect::Observability,
        note: "Label metrics with hosts not defined in any Ingress. Requires --metrics-per-host=true.",
    },
    Flag {
        name: "--report-status-classes",
        default: "false",
        effect: Effect::Observability,
        note: "Label metrics with status classes (2xx...) instead of exact codes.",
    },
    Flag {
        name: "--time-buckets",
        default: "0.005,0.01,0.025,0.05,0.1,0.25,0.5,1,2.5,5,10",
        effect: Effect::Observability,
        note: "float64 slice. The default is prometheus.DefBuckets.",
    },
    Flag {
        name: "--length-buckets",
        default: "10,20,30,40,50,60,70,80,90,100",
        effect: Effect::Observability,
        note: "float64 slice. The default is prometheus.LinearBuckets(10, 10, 10).",
    },
    Flag {
        name: "--size-buckets",
        default: "10,100,1000,10000,100000,1000000,10000000",
        effect: Effect::Observability,
        note: "float64 slice. The default is prometheus.ExponentialBuckets(10, 10, 7).",
    },
    Flag {
        name: "--bucket-factor",
        default: "0",
        effect: Effect::Observability,
        note: "Native histogram bucket factor. Native histograms are on only when it is above 1.",
    },
    Flag {
        name: "--max-buckets",
        default: "100",
        effect: Effect::Observability,
        note: "uint32: maximum number of native histogram buckets.",
    },
    Flag {
        name: "--exclude-socket-metrics",
        default: "",
        effect: Effect::Observability,
        note: "String slice (empty by default): socket metrics neither computed nor exported.",
    },
    Flag {
        name: "--monitor-max-batch-size",
        default: "10000",
        effect: Effect::Observability,
        note: "Maximum batch of metrics sent from nginx to the controller.",
    },
    Flag {
        name: "--http-port",
        default: "80",
        effect: Effect::Other,
        note: "HTTP listen port. Must be free at startup.",
    },
    Flag {
        name: "--https-port",
        default: "443",
        effect: Effect::Other,
        note: "HTTPS listen port. Must be free at startup. It is the port used by use-port-in-redirects, and it maps `$pass_port` to 443.",
    },
    Flag {
        name: "--ssl-passthrough-proxy-port",
        default: "442",
        effect: Effect::Tls,
        note: "Internal port nginx's HTTPS moves to when --enable-ssl-passthrough is on. It is only checked for availability in that case.",
    },
    Flag {
        name: "--default-server-port",
        default: "8181",
        effect: Effect::Other,
        note: "Port of the built-in fallback server that answers 404 when no default backend Service is usable.",
    },
    Flag {
        name: "--healthz-port",
        default: "10254",
        effect: Effect::Other,
        note: "Port of the controller's /healthz and metrics endpoint.",
    },
    Flag {
        name: "--healthz-host",
        default: "",
        effect: Effect::Other,
        note: "Bind address of the healthz endpoint. Empty means all addresses.",
    },
    Flag {
        name: "--disable-catch-all",
        default: "false",
        effect: Effect::Routing,
        note: "Catch-all Ingresses (spec.defaultBackend set) are skipped by the store and rejected by the admission check.",
    },
    Flag {
        name: "--validating-webhook",
        default: "",
        effect: Effect::Other,
        note: "`host:port` for the admission webhook. Empty means no webhook, so the CheckIngress-only settings (for example strict-validate-path-type) have no effect.",
    },
    Flag {
        name: "--validating-webhook-certificate",
        default: "",
        effect: Effect::Other,
        note: "Webhook certificate PEM path.",
    },
    Flag {
        name: "--validating-webhook-key",
        default: "",
        effect: Effect::Other,
        note: "Webhook key PEM path.",
    },
    Flag {
        name: "--disable-full-test",
        default: "false",
        effect: Effect::Other,
        note: "The admission check tests only the Ingress being changed, instead of the merged configuration.",
    },
    Flag {
        name: "--status-port",
        default: "10246",
        effect: Effect::Other,
        note: "Local port of nginx's Lua configuration and status server. Must be free at startup.",
    },
    Flag {
        name: "--stream-port",
        default: "10247",
        effect: Effect::Other,
        note: "Local port of the Lua TCP/UDP configuration endpoint. Must be free at startup.",
    },
    Flag {
        name: "--internal-logger-address",
        default: "127.0.0.1:11514",
        effect: Effect::Observability,
        note: "Internal syslog listener. In the chroot image it replaces the default log paths.",
    },
    Flag {
        name: "--profiler-port",
        default: "10245",
        effect: Effect::Observability,
        note: "pprof port. Must be free at startup.",
    },
    Flag {
        name: "--profiler-address",
        default: "127.0.0.1",
        effect: Effect::Observability,
        note: "pprof bind address (net.IP flag).",
    },
    Flag {
        name: "--status-update-interval",
        default: "60",
        effect: Effect::Other,
        note: "Seconds between Ingress status checks (status.UpdateInterval). Values below 5 are raised to 5.",
    },
    Flag {
        name: "--shutdown-grace-period",
        default: "0",
        effect: Effect::Other,
        note: "Seconds to wait after SIGTERM before stopping nginx (during that time nginx still serves).",
    },
    Flag {
        name: "--post-shutdown-grace-period",
        default: "10",
        effect: Effect::Other,
        note: "Seconds to wait after nginx has stopped before the controller exits.",
    },
    Flag {
        name: "--deep-inspect",
        default: "true",
        effect: Effect::Access,
        note: "inspector.DeepInspect in the admission check and the store sync. An Ingress is rejected or skipped when its hosts, paths or TLS entries match forbidden patterns (alias/root directives, *_by_lua*, /etc/{passwd,shadow,group,nginx,ingress-controller}, /var/run/secrets).",
    },
    Flag {
        name: "--dynamic-configuration-retries",
        default: "15",
        effect: Effect::Other,
        note: "Retries of the Lua dynamic backend update before a sync fails.",
    },
    Flag {
        name: "--disable-sync-events",
        default: "false",
        effect: Effect::Observability,
        note: "Do not create Sync Event objects.",
    },
    Flag {
        name: "--enable-topology-aware-routing",
        default: "false",
        effect: Effect::Routing,
        note: "Use EndpointSlice zone hints so requests prefer endpoints in the controller's own zone.",
    },
    Flag {
        name: "--maxmind-mirror",
        default: "",
        effect: Effect::Other,
        note: "Mirror URL for GeoIP database downloads (nginx.MaxmindMirror).",
    },
    Flag {
        name: "--maxmind-license-key",
        default: "",
        effect: Effect::Other,
        note: "MaxMind license key. The databases are downloaded at startup only when this or --maxmind-mirror is set.",
    },
    Flag {
        name: "--maxmind-edition-ids",
        default: "GeoLite2-City,GeoLite2-ASN",
        effect: Effect::Other,
        note: "Editions to download. Validated at startup whenever the value is non-empty.",
    },
    Flag {
        name: "--maxmind-retries-count",
        default: "1",
        effect: Effect::Other,
        note: "Download attempts for the GeoIP databases.",
    },
    Flag {
        name: "--maxmind-retries-timeout",
        default: "0s",
        effect: Effect::Other,
        note: "Delay between download attempts (Go duration). 0s means no retry.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashSet};

    /// The string literals the model passes to `name(`, across the model's files.
    fn literals_after(calls: &[&str]) -> BTreeSet<String> {
        let sources = [include_str!("mod.rs"), include_str!("locations.rs")];
        let mut out = BTreeSet::new();
        for source in sources {
            for call in calls {
                for (i, _) in source.match_indices(call) {
                    let rest = source[i + call.len()..].trim_start();
                    if let Some(rest) = rest.strip_prefix('"')
                        && let Some(end) = rest.find('"')
                    {
                        out.insert(rest[..end].to_string());
                    }
                }
            }
        }
        out
    }

    // The table's "modelled" column is what the model's code reads: every ConfigMap key it
    // passes to `setting`/`setting_bool`, every flag to `flag`/`flag_value`/`port`.
    #[test]
    fn the_modelled_lists_are_what_the_model_reads() {
        let settings = literals_after(&[".setting(", ".setting_bool("]);
        let listed: BTreeSet<String> = MODELLED_SETTINGS.iter().map(|s| s.to_string()).collect();
        assert_eq!(settings, listed);
        // Every `"--flag"` literal of the model's code (comments write flags in backticks).
        let flags: BTreeSet<String> = [include_str!("mod.rs"), include_str!("locations.rs")]
            .iter()
            .flat_map(|source| {
                source
                    .match_indices("\"--")
                    .map(move |(i, _)| &source[i + 1..])
            })
            .filter_map(|rest| rest.split('"').next())
            .filter(|f| f.len() > 2 && f[2..].chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .map(str::to_string)
            .collect();
        let listed: BTreeSet<String> = MODELLED_FLAGS.iter().map(|s| s.to_string()).collect();
        assert_eq!(flags, listed);
        for key in MODELLED_SETTINGS {
            assert!(SETTINGS.iter().any(|s| s.key == *key), "{key}");
        }
        for name in MODELLED_FLAGS {
            assert!(FLAGS.iter().any(|f| f.name == *name), "{name}");
        }
    }

    fn setting(key: &str) -> &'static Setting {
        SETTINGS
            .iter()
            .find(|s| s.key == key)
            .unwrap_or_else(|| panic!("missing setting {key}"))
    }

    fn flag(name: &str) -> &'static Flag {
        FLAGS
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("missing flag {name}"))
    }

    #[test]
    fn keys_are_unique_and_well_formed() {
        let mut seen = HashSet::new();
        for s in SETTINGS {
            assert!(seen.insert(s.key), "duplicate key {}", s.key);
            assert!(!s.key.is_empty());
            assert!(
                !s.key.contains(char::is_whitespace),
                "whitespace in {}",
                s.key
            );
            assert!(!s.note.is_empty(), "empty note for {}", s.key);
        }
    }

    #[test]
    fn flags_are_unique_and_prefixed() {
        let mut seen = HashSet::new();
        for f in FLAGS {
            assert!(seen.insert(f.name), "duplicate flag {}", f.name);
            assert!(f.name.starts_with("--"), "flag without --: {}", f.name);
            assert!(f.name.len() > 2);
            assert!(!f.name[2..].starts_with('-'), "triple dash: {}", f.name);
            assert!(!f.note.is_empty(), "empty note for {}", f.name);
        }
    }

    #[test]
    fn counts_match_upstream() {
        // 187 distinct json tags (Backend + Configuration, the 3 tags declared
        // in both counted once) + 11 keys that exist only in ReadConfig.
        assert_eq!(SETTINGS.len(), 198);
        // 67 `flags.<Type>(` calls + 5 `flags.<Type>Var(` calls.
        assert_eq!(FLAGS.len(), 72);
    }

    #[test]
    fn effect_all_is_complete() {
        // The match is exhaustive, so adding a variant without listing it
        // here fails to compile; the count keeps ALL in step with it.
        let n = Effect::ALL
            .iter()
            .map(|e| match e {
                Effect::Routing
                | Effect::Redirect
                | Effect::Access
                | Effect::Tls
                | Effect::Headers
                | Effect::Limits
                | Effect::Errors
                | Effect::Observability
                | Effect::Performance
                | Effect::Other => 1,
            })
            .sum::<usize>();
        assert_eq!(n, 10);
        let distinct: HashSet<_> = Effect::ALL.iter().collect();
        assert_eq!(distinct.len(), Effect::ALL.len());
    }

    #[test]
    fn every_effect_is_used() {
        let used: HashSet<Effect> = SETTINGS
            .iter()
            .map(|s| s.effect)
            .chain(FLAGS.iter().map(|f| f.effect))
            .collect();
        // CORS is annotation-only at this commit: no key or flag has that effect.
        for e in Effect::ALL {
            assert!(used.contains(e), "effect {e:?} unused");
        }
    }

    #[test]
    fn special_cased_keys_are_listed_and_annotated() {
        assert_eq!(SPECIAL_CASED_KEYS.len(), 30);
        let uniq: HashSet<_> = SPECIAL_CASED_KEYS.iter().collect();
        assert_eq!(uniq.len(), SPECIAL_CASED_KEYS.len());
        for k in SPECIAL_CASED_KEYS {
            let s = setting(k);
            assert!(
                s.note.contains("ReadConfig"),
                "note of special key {k} does not describe ReadConfig"
            );
        }
    }

    #[test]
    fn spot_check_setting_defaults() {
        let expected = [
            ("ssl-redirect", "true"),
            ("force-ssl-redirect", "false"),
            ("hsts", "true"),
            ("hsts-include-subdomains", "true"),
            ("hsts-max-age", "31536000"),
            ("hsts-preload", "false"),
            ("proxy-body-size", "1m"),
            ("annotations-risk-level", "High"),
            ("no-tls-redirect-locations", "/.well-known/acme-challenge"),
            ("no-auth-locations", "/.well-known/acme-challenge"),
            ("http-redirect-code", "308"),
            ("use-forwarded-headers", "false"),
            ("proxy-read-timeout", "60"),
            ("proxy-send-timeout", "60"),
            ("proxy-connect-timeout", "5"),
            ("allow-snippet-annotations", "false"),
            ("proxy-buffering", "off"),
            ("proxy-buffer-size", "4k"),
            ("proxy-next-upstream", "error timeout"),
            ("proxy-next-upstream-tries", "3"),
            ("proxy-real-ip-cidr", "0.0.0.0/0"),
            ("proxy-stream-responses", "1"),
            ("proxy-protocol-header-timeout", "5s"),
            ("load-balance", ""),
            ("keep-alive", "75"),
            ("keep-alive-requests", "1000"),
            ("large-client-header-buffers", "4 8k"),
            ("upstream-keepalive-connections", "320"),
            ("limit-req-status-code", "503"),
            ("limit-conn-status-code", "503"),
            ("ssl-protocols", "TLSv1.2 TLSv1.3"),
            ("strict-validate-path-type", "true"),
            ("use-http2", "true"),
            ("worker-shutdown-timeout", "240s"),
            ("nginx-status-ipv4-whitelist", "127.0.0.1"),
            ("otel-sampler-ratio", "0.01"),
        ];
        for (k, v) in expected {
            assert_eq!(setting(k).default, v, "default of {k}");
        }
        assert!(
            setting("ssl-ciphers")
                .default
                .starts_with("ECDHE-ECDSA-AES128")
        );
        assert!(setting("log-format-upstream").default.ends_with("$req_id"));
    }

    #[test]
    fn spot_check_effects() {
        assert_eq!(setting("ssl-redirect").effect, Effect::Redirect);
        assert_eq!(setting("hsts-max-age").effect, Effect::Redirect);
        assert_eq!(setting("whitelist-source-range").effect, Effect::Access);
        assert_eq!(setting("global-auth-url").effect, Effect::Access);
        assert_eq!(setting("custom-http-errors").effect, Effect::Errors);
        assert_eq!(setting("proxy-body-size").effect, Effect::Limits);
        assert_eq!(setting("use-forwarded-headers").effect, Effect::Headers);
        assert_eq!(setting("ssl-protocols").effect, Effect::Tls);
        assert_eq!(setting("use-gzip").effect, Effect::Performance);
        assert!(setting("upstream-hash-by").note.starts_with("Inert:"));
        assert!(setting("app-root").note.starts_with("Inert:"));
    }

    #[test]
    fn spot_check_flag_defaults() {
        let expected = [
            ("--http-port", "80"),
            ("--https-port", "443"),
            ("--ssl-passthrough-proxy-port", "442"),
            ("--default-server-port", "8181"),
            ("--healthz-port", "10254"),
            ("--ingress-class", "nginx"),
            ("--controller-class", "k8s.io/ingress-nginx"),
            ("--annotations-prefix", "nginx.ingress.kubernetes.io"),
            ("--election-id", "ingress-controller-leader"),
            ("--election-ttl", "30s"),
            ("--enable-ssl-passthrough", "false"),
            ("--health-check-path", "/healthz"),
            ("--status-update-interval", "60"),
            ("--sync-rate-limit", "0.3"),
            ("--maxmind-edition-ids", "GeoLite2-City,GeoLite2-ASN"),
            ("--deep-inspect", "true"),
        ];
        for (n, v) in expected {
            assert_eq!(flag(n).default, v, "default of {n}");
        }
    }
}
