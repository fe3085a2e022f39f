//! The annotation gate of ingress-nginx: every annotation key the controller knows, the rule its
//! value must pass, its risk level, and whether a bad value makes the controller ignore the whole
//! Ingress. Source: kubernetes/ingress-nginx at commit
//! `dbb11b92ddb77bee9c35e462479129354c84f939` (v1.15.1).
//!
//! - `internal/ingress/annotations/annotations.go` `Extractor.Extract` runs every annotation
//!   parser. For each one it first calls `Validate` (`parser.CheckAnnotationRisk`: an annotation
//!   of the Ingress whose key or alias belongs to the parser and whose risk is above the
//!   ConfigMap's `annotations-risk-level` is an error), then `Parse`. A risk error, or a
//!   `ValidationError` returned unchanged by `Parse`, makes `Extract` fail, and
//!   `internal/ingress/controller/store/store.go` `syncIngress` then does not store the Ingress:
//!   the controller acts as if the whole Ingress did not exist.
//! - `internal/ingress/annotations/parser/validators.go` `checkAnnotation` runs the key's
//!   validator on its value, only when that value is not empty. When the main key's value is
//!   empty or absent, the first alias with a non-empty value is used instead.
//! - Not every parser hands the validation error back: many log it and fall back to a default,
//!   or turn it into a denied location, or wrap it (`fmt.Errorf("%w")`, which the type assertion
//!   in `errors.IsValidationError` no longer recognises). [`OnInvalid`] records, per key, what
//!   the parser does, read from each package's `Parse`.
//! - Validation can be switched off with the controller flag `--enable-annotation-validation=false`
//!   (`parser.EnableAnnotationValidation`); [`rejection`] models the default (on), and the world
//!   keeps only its risk verdict when the flag is off.

use std::borrow::Cow;
use std::collections::BTreeMap;

/// `parser.DefaultAnnotationsPrefix`; the `--annotations-prefix` flag replaces it.
pub(crate) const DEFAULT_PREFIX: &str = "nginx.ingress.kubernetes.io";

/// The ConfigMap value of `annotations-risk-level` when the key is absent:
/// `internal/ingress/controller/config/config.go` `NewDefault`, `AnnotationsRiskLevel: "High"`.
pub(crate) const DEFAULT_RISK_SETTING: &str = "High";

/// `parser.AnnotationRisk`: declared in this order upstream, compared with `>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Risk {
    Low,
    Medium,
    High,
    Critical,
}

/// `parser.StringRiskToRisk`: Go `strings.ToLower`, no trimming; anything unknown (including an
/// empty value) is `Low`, the strictest level.
pub(crate) fn risk_from_setting(value: &str) -> Risk {
    match go_to_lower(value).as_str() {
        "critical" => Risk::Critical,
        "high" => Risk::High,
        "medium" => Risk::Medium,
        _ => Risk::Low,
    }
}

/// `parser.AnnotationScope`: upstream declares only these two (`AnnotationScopeLocation`,
/// `AnnotationScopeIngress`); no annotation is declared with a server scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Scope {
    Location,
    Ingress,
}

/// What the annotation's parser does when `checkAnnotation` reports the value invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum OnInvalid {
    /// `Parse` returns the `ValidationError` unchanged: the whole Ingress is ignored.
    Drop,
    /// `Parse` returns it unchanged, but only when its earlier steps reach this key (they may
    /// stop first on another annotation's value, or on a missing Secret).
    DropIfReached,
    /// `Parse` turns it into a `LocationDeniedError` (when it reaches the key): the Ingress is
    /// kept and its locations answer 503.
    Deny,
    /// `Parse` logs it and uses a default (or wraps the error so `Extract` skips it): the
    /// Ingress is kept as if the annotation were absent.
    Fallback,
}

/// The regular expressions upstream validates with, one variant per distinct language.
/// Each is matched by hand below; the comment names the upstream variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Pattern {
    /// `parser.IsValidRegex`: basic chars plus `^$[](){}*+?|&=\`.
    IsValidRegex,
    /// `parser.URLIsValidRegex`: basic chars plus `,?&=`.
    UrlIsValid,
    /// `parser.BasicCharsRegex`: ASCII letters, digits and `-._~/:`.
    BasicChars,
    /// `parser.ExtendedCharsRegex`: basic chars plus `,` and space.
    ExtendedChars,
    /// `parser.CharsWithSpace`: basic chars plus space.
    CharsWithSpace,
    /// `parser.NGINXVariable`; also `upstreamhashby.hashByRegex`, the same set (compiled as
    /// POSIX, whose line anchors only differ on `\n`, which the malicious check refuses).
    NginxVariable,
    /// `parser.RegexPathWithCapture`: an optional `/`, then basic chars and `$`.
    RegexPathWithCapture,
    /// `parser.HeadersVariable`: ASCII letters, digits, `-`, `_`, `,` and space.
    HeadersVariable,
    /// `parser.URLWithNginxVariableRegex`: extended chars plus `,:?&=$`.
    UrlWithNginxVariable,
    /// `parser.SizeRegex` `^(?i)\d+[bkmg]?$`.
    Size,
    /// `auth.authTypeRegex` `basic|digest`, not anchored: the value only has to contain one.
    AuthType,
    /// `auth.authSecretTypeRegex` `auth-file|auth-map`, not anchored either.
    AuthSecretType,
    /// `authreq.methodsRegex`: one HTTP method name.
    HttpMethod,
    /// `authtls.redirectRegex`: `@name`, or `[http[s]://]host[:port]` and/or `/path` segments.
    AuthTlsErrorPage,
    /// `authtls.authVerifyClientRegex`: `on`, `off`, `optional`, `optional_no_ca`.
    AuthTlsVerifyClient,
    /// `connection.validConnectionHeaderValue`: `close` or `keep-alive`.
    ConnectionHeader,
    /// `cors.corsOriginRegexValidator`.
    CorsOrigin,
    /// `cors.corsMethodsRegex` `^([A-Za-z]+,?\s?)+$`.
    CorsMethods,
    /// `cors.corsExposeHeadersRegex` `^(([A-Za-z0-9\-\_]+|\*),?\s?)+$`.
    CorsExposeHeaders,
    /// `customhttperrors.arrayOfHTTPErrors` `^(?:[4,5]\d{2},?)*$` (the class holds `,` too).
    HttpErrorCodes,
    /// `fastcgi.regexValidIndexAnnotationAndKey` `^[A-Za-z0-9.\-\_]+$`.
    FastcgiIndex,
    /// `mirror.OnOffRegex` and `proxyssl.proxySSLOnOffRegex`: `on` or `off`.
    OnOff,
    /// `opentelemetry.regexOperationName` `^[A-Za-z0-9_\-]*$`.
    OperationName,
    /// `proxy.validUpstreamAnnotation`: `proxy_next_upstream` keywords, one optional
    /// whitespace after each.
    NextUpstream,
    /// `proxy.cookieDomainRegex`: `off`, or two basic-char words separated by whitespace.
    CookieDomain,
    /// `proxyssl.proxySSLProtocolRegex` `^(TLSv1\.2|TLSv1\.3| )*$`.
    ProxySslProtocols,
    /// `proxyssl.proxySSLCiphersRegex` `^[A-Za-z0-9\+:\_\-!]*$`.
    ProxySslCiphers,
    /// `sessionaffinity.affinityCookieExpiresRegex` `(^0|-?[1-9]\d*$)`: it only needs to start
    /// with `0` or end in digits that are not all zeros.
    CookieExpires,
    /// `sslcipher.regexValidSSLCipher`: cipher chars, `@STRENGTH`, `@SECLEVEL=0..5`.
    SslCiphers,
}

/// One validation rule of `parser/validators.go` (or of an annotation package).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Validator {
    /// `parser.ValidateRegex(regex, removeSpace)`: spaces removed first when asked, then the
    /// regex must match and the value must not contain `\r` or `\n` (`parser.MaliciousRegex`).
    Regex {
        pattern: Pattern,
        remove_space: bool,
    },
    /// `parser.ValidateOptions`: `strings.TrimSpace` and `strings.ToLower` when asked, then one
    /// of the values exactly.
    Options {
        values: &'static [&'static str],
        case_sensitive: bool,
        trim_space: bool,
    },
    /// `parser.ValidateBool`: Go `strconv.ParseBool`.
    Bool,
    /// `parser.ValidateInt`: Go `strconv.Atoi` (64-bit `int`).
    Int,
    /// `parser.ValidateCIDRs`: `internal/net` `ParseCIDRs`.
    Cidrs,
    /// `parser.ValidateDuration`: Go `time.ParseDuration`. No annotation uses it.
    #[allow(dead_code, reason = "defined upstream but used by no annotation")]
    Duration,
    /// `parser.ValidateNull`: anything.
    Null,
    /// `parser.ValidateServiceName`: a DNS-1035 label.
    ServiceName,
    /// `parser.ValidateServerName`: `strings.TrimSpace`, then `IsValidRegex` (no `\r\n` check).
    ServerName,
    /// `parser.ValidateArrayOfServerName`: every comma-separated part a `ServerName`.
    ServerNames,
    /// `parser.CommonNameAnnotationValidator`: `CN=` then a Go regexp that compiles.
    CommonName,
}

impl Validator {
    /// Whether upstream's validator accepts the value (`checkAnnotation` never calls it on an
    /// empty value; this answers for the validator itself).
    pub(crate) fn accepts(&self, value: &str) -> bool {
        match *self {
            Validator::Regex {
                pattern,
                remove_space,
            } => {
                let value: Cow<'_, str> = if remove_space && value.contains(' ') {
                    Cow::Owned(value.replace(' ', ""))
                } else {
                    Cow::Borrowed(value)
                };
                pattern.matches(&value) && !value.contains(['\r', '\n'])
            }
            Validator::Options {
                values,
                case_sensitive,
                trim_space,
            } => {
                let value = if trim_space { value.trim() } else { value };
                if case_sensitive {
                    values.contains(&value)
                } else {
                    values.contains(&go_to_lower(value).as_str())
                }
            }
            Validator::Bool => go_parse_bool(value).is_some(),
            Validator::Int => go_atoi(value),
            Validator::Cidrs => go_parse_cidrs(value),
            Validator::Duration => go_parse_duration(value),
            Validator::Null => true,
            Validator::ServiceName => dns1035_label(value),
            Validator::ServerName => server_name(value),
            Validator::ServerNames => value.split(',').all(server_name),
            Validator::CommonName => value.strip_prefix("CN=").is_some_and(go_regexp_compiles),
        }
    }
}

impl Pattern {
    fn matches(self, s: &str) -> bool {
        match self {
            Pattern::IsValidRegex => s.chars().all(is_regex_char),
            Pattern::UrlIsValid => s.chars().all(|c| is_basic(c) || ",?&=".contains(c)),
            Pattern::BasicChars => s.chars().all(is_basic),
            Pattern::ExtendedChars => s.chars().all(|c| is_basic(c) || c == ',' || c == ' '),
            Pattern::CharsWithSpace => s.chars().all(|c| is_basic(c) || c == ' '),
            Pattern::NginxVariable => s
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_${}".contains(c)),
            // The leading optional `/` is already in the class.
            Pattern::RegexPathWithCapture => s.chars().all(|c| is_basic(c) || c == '$'),
            Pattern::HeadersVariable => s
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_, ".contains(c)),
            Pattern::UrlWithNginxVariable => s.chars().all(|c| is_basic(c) || ", ?&=$".contains(c)),
            Pattern::Size => size(s),
            Pattern::AuthType => s.contains("basic") || s.contains("digest"),
            Pattern::AuthSecretType => s.contains("auth-file") || s.contains("auth-map"),
            Pattern::HttpMethod => [
                "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE",
            ]
            .contains(&s),
            Pattern::AuthTlsErrorPage => tls_error_page(s),
            Pattern::AuthTlsVerifyClient => {
                ["on", "off", "optional", "optional_no_ca"].contains(&s)
            }
            Pattern::ConnectionHeader => s == "close" || s == "keep-alive",
            Pattern::CorsOrigin => cors_origin(s.as_bytes()),
            Pattern::CorsMethods => word_list(s.as_bytes(), |b| {
                let n = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
                (n > 0).then_some(n)
            }),
            Pattern::CorsExposeHeaders => word_list(s.as_bytes(), |b| {
                let n = b.iter().take_while(|&&c| is_token_byte(c)).count();
                match (n, b.first()) {
                    (0, Some(b'*')) => Some(1),
                    (0, _) => None,
                    (n, _) => Some(n),
                }
            }),
            Pattern::HttpErrorCodes => http_error_codes(s.as_bytes()),
            Pattern::FastcgiIndex => {
                !s.is_empty()
                    && s.bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b".-_".contains(&c))
            }
            Pattern::OnOff => s == "on" || s == "off",
            Pattern::OperationName => s.bytes().all(is_token_byte),
            Pattern::NextUpstream => next_upstream(s.as_bytes()),
            Pattern::CookieDomain => cookie_domain(s),
            Pattern::ProxySslProtocols => {
                let mut rest = s;
                while !rest.is_empty() {
                    rest = match ["TLSv1.2", "TLSv1.3", " "]
                        .iter()
                        .find_map(|t| rest.strip_prefix(t))
                    {
                        Some(r) => r,
                        None => return false,
                    };
                }
                true
            }
            Pattern::ProxySslCiphers => s
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"+:_-!".contains(&c)),
            Pattern::CookieExpires => {
                s.starts_with('0')
                    || s.bytes()
                        .rev()
                        .take_while(u8::is_ascii_digit)
                        .any(|c| c != b'0')
            }
            Pattern::SslCiphers => ssl_ciphers(s),
        }
    }
}

/// One annotation as declared in a `parser.Annotation{Annotations: parser.AnnotationFields{..}}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AnnotationSpec {
    /// Without the prefix, e.g. `rewrite-target`.
    pub(crate) key: &'static str,
    /// `AnnotationAliases`: read when the main key is absent or empty.
    pub(crate) aliases: &'static [&'static str],
    pub(crate) validator: Validator,
    pub(crate) risk: Risk,
    pub(crate) scope: Scope,
    /// What the package's `Parse` does with an invalid value (not an upstream field).
    pub(crate) on_invalid: OnInvalid,
}

impl AnnotationSpec {
    fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.key).chain(self.aliases.iter().copied())
    }
}

const fn ann(
    key: &'static str,
    scope: Scope,
    risk: Risk,
    on_invalid: OnInvalid,
    validator: Validator,
) -> AnnotationSpec {
    AnnotationSpec {
        key,
        aliases: &[],
        validator,
        risk,
        scope,
        on_invalid,
    }
}

const fn re(pattern: Pattern, remove_space: bool) -> Validator {
    Validator::Regex {
        pattern,
        remove_space,
    }
}

const fn options(
    values: &'static [&'static str],
    case_sensitive: bool,
    trim_space: bool,
) -> Validator {
    Validator::Options {
        values,
        case_sensitive,
        trim_space,
    }
}

/// Every annotation key upstream declares, grouped by package in the order of the package's
/// file; within a package, in declaration order.
#[rustfmt::skip]
pub(crate) const ANNOTATIONS: &[AnnotationSpec] = {
    // Short column names, so that each declaration fits on one line.
    use Pattern as P;
    use Validator::{Bool, Cidrs, CommonName, Int, Null, ServerName, ServerNames, ServiceName};
    const LOC: Scope = Scope::Location;
    const ING: Scope = Scope::Ingress;
    const LOW: Risk = Risk::Low;
    const MED: Risk = Risk::Medium;
    const HIGH: Risk = Risk::High;
    const CRIT: Risk = Risk::Critical;
    const DROP: OnInvalid = OnInvalid::Drop;
    const REACHED: OnInvalid = OnInvalid::DropIfReached;
    const DENY: OnInvalid = OnInvalid::Deny;
    const FALLBACK: OnInvalid = OnInvalid::Fallback;

    &[
        // internal/ingress/annotations/alias/main.go: Parse returns the error as is.
        ann("server-alias", ING, HIGH, DROP, ServerNames),
        // internal/ingress/annotations/auth/main.go: auth-type is read first and returned as is;
        // auth-secret-type only once auth-type contains basic|digest; auth-secret's error becomes a
        // denied location; auth-realm is read only after the Secret was found.
        ann("auth-secret", LOC, MED, DENY, re(P::BasicChars, true)),
        ann("auth-secret-type", LOC, LOW, REACHED, re(P::AuthSecretType, true)),
        ann("auth-realm", LOC, MED, REACHED, re(P::CharsWithSpace, false)),
        ann("auth-type", LOC, LOW, DROP, re(P::AuthType, true)),
        // internal/ingress/annotations/authreq/main.go: only auth-url's error is returned as is;
        // auth-method and auth-response-headers deny the location; the rest are logged, or wrapped
        // with fmt.Errorf, which Extract skips.
        ann("auth-url", LOC, HIGH, DROP, re(P::UrlWithNginxVariable, true)),
        ann("auth-method", LOC, LOW, DENY, re(P::HttpMethod, true)),
        ann("auth-signin", LOC, HIGH, FALLBACK, re(P::UrlWithNginxVariable, true)),
        ann("auth-signin-redirect-param", LOC, MED, FALLBACK, re(P::UrlIsValid, true)),
        ann("auth-snippet", LOC, CRIT, FALLBACK, Null),
        ann("auth-cache-key", LOC, MED, FALLBACK, re(P::NginxVariable, true)),
        ann("auth-keepalive", LOC, LOW, FALLBACK, Int),
        ann("auth-keepalive-share-vars", LOC, LOW, FALLBACK, Bool),
        ann("auth-keepalive-requests", LOC, LOW, FALLBACK, Int),
        ann("auth-keepalive-timeout", LOC, LOW, FALLBACK, Int),
        ann("auth-cache-duration", LOC, MED, FALLBACK, re(P::ExtendedChars, false)),
        ann("auth-response-headers", LOC, MED, DENY, re(P::HeadersVariable, true)),
        ann("auth-proxy-set-headers", LOC, MED, FALLBACK, re(P::BasicChars, true)),
        ann("auth-request-redirect", LOC, MED, FALLBACK, re(P::UrlIsValid, true)),
        ann("auth-always-set-cookie", LOC, LOW, FALLBACK, Bool),
        // internal/ingress/annotations/authreqglobal/main.go: any error means `true`.
        ann("enable-global-auth", LOC, LOW, FALLBACK, Bool),
        // internal/ingress/annotations/authtls/main.go: the secret's error is returned as is; the
        // last three are returned as is once the certificate was found.
        ann("auth-tls-secret", LOC, MED, DROP, re(P::BasicChars, true)),
        ann("auth-tls-verify-client", LOC, MED, FALLBACK, re(P::AuthTlsVerifyClient, true)),
        ann("auth-tls-verify-depth", LOC, LOW, FALLBACK, Int),
        ann("auth-tls-error-page", LOC, HIGH, REACHED, re(P::AuthTlsErrorPage, true)),
        ann("auth-tls-pass-certificate-to-upstream", LOC, LOW, REACHED, Bool),
        ann("auth-tls-match-cn", LOC, HIGH, REACHED, CommonName),
        // internal/ingress/annotations/backendprotocol/main.go: falls back to HTTP.
        ann("backend-protocol", LOC, LOW, FALLBACK, options(
            &["auto_http", "http", "https", "grpc", "grpcs", "fcgi"], false, true,
        )),
        // internal/ingress/annotations/canary/main.go: every key falls back to its default.
        ann("canary", ING, LOW, FALLBACK, Bool),
        ann("canary-weight", ING, LOW, FALLBACK, Int),
        ann("canary-weight-total", ING, LOW, FALLBACK, Int),
        ann("canary-by-header", ING, MED, FALLBACK, re(P::BasicChars, true)),
        ann("canary-by-header-value", ING, MED, FALLBACK, re(P::BasicChars, true)),
        ann("canary-by-header-pattern", ING, MED, FALLBACK, re(P::IsValidRegex, false)),
        ann("canary-by-cookie", ING, MED, FALLBACK, re(P::BasicChars, true)),
        // internal/ingress/annotations/clientbodybuffersize/main.go: Parse returns the error.
        ann("client-body-buffer-size", LOC, LOW, DROP, re(P::Size, true)),
        // internal/ingress/annotations/connection/main.go: Parse returns the error.
        ann("connection-proxy-header", LOC, LOW, DROP, re(P::ConnectionHeader, true)),
        // internal/ingress/annotations/cors/main.go: every key falls back to its default.
        ann("enable-cors", ING, LOW, FALLBACK, Bool),
        ann("cors-allow-origin", ING, MED, FALLBACK, re(P::CorsOrigin, true)),
        ann("cors-allow-headers", ING, MED, FALLBACK, re(P::HeadersVariable, true)),
        ann("cors-allow-methods", ING, MED, FALLBACK, re(P::CorsMethods, true)),
        ann("cors-allow-credentials", ING, LOW, FALLBACK, Bool),
        ann("cors-expose-headers", ING, MED, FALLBACK, re(P::CorsExposeHeaders, true)),
        ann("cors-max-age", ING, LOW, FALLBACK, Int),
        // internal/ingress/annotations/customheaders/main.go: the error is only logged.
        ann("custom-headers", LOC, MED, FALLBACK, re(P::BasicChars, true)),
        // internal/ingress/annotations/customhttperrors/main.go: Parse returns the error.
        ann("custom-http-errors", LOC, LOW, DROP, re(P::HttpErrorCodes, true)),
        // internal/ingress/annotations/defaultbackend/main.go: Parse returns the error.
        ann("default-backend", LOC, LOW, DROP, ServiceName),
        // internal/ingress/annotations/disableproxyintercepterrors/main.go: the error is dropped.
        ann("disable-proxy-intercept-errors", LOC, LOW, FALLBACK, Bool),
        // internal/ingress/annotations/fastcgi/main.go: both errors are returned as is (the second
        // key is read whenever the first did not already fail validation).
        ann("fastcgi-index", LOC, MED, DROP, re(P::FastcgiIndex, true)),
        ann("fastcgi-params-configmap", LOC, MED, DROP, re(P::BasicChars, true)),
        // internal/ingress/annotations/http2pushpreload/main.go: Parse returns the error.
        ann("http2-push-preload", LOC, LOW, DROP, Bool),
        // internal/ingress/annotations/ipallowlist/main.go: any error becomes a denied location.
        AnnotationSpec {
            key: "allowlist-source-range",
            aliases: &["whitelist-source-range"],
            validator: Cidrs,
            risk: MED,
            scope: LOC,
            on_invalid: DENY,
        },
        // internal/ingress/annotations/ipdenylist/main.go: any error becomes a denied location.
        ann("denylist-source-range", LOC, MED, DENY, Cidrs),
        // internal/ingress/annotations/loadbalancing/main.go: Parse returns the error.
        ann("load-balance", LOC, LOW, DROP, options(
            &["round_robin", "chash", "chashsubset", "sticky_balanced", "sticky_persistent",
              "ewma"],
            true,
            true,
        )),
        // internal/ingress/annotations/log/main.go: errors fall back to the defaults.
        ann("enable-access-log", LOC, LOW, FALLBACK, Bool),
        ann("enable-rewrite-log", LOC, LOW, FALLBACK, Bool),
        // internal/ingress/annotations/mirror/main.go: errors fall back to the defaults.
        ann("mirror-request-body", ING, LOW, FALLBACK, re(P::OnOff, true)),
        ann("mirror-target", ING, HIGH, FALLBACK, ServerName),
        ann("mirror-host", ING, HIGH, FALLBACK, ServerName),
        // internal/ingress/annotations/modsecurity/main.go: errors fall back to the defaults.
        ann("enable-modsecurity", ING, LOW, FALLBACK, Bool),
        ann("enable-owasp-core-rules", ING, LOW, FALLBACK, Bool),
        ann("modsecurity-transaction-id", ING, HIGH, FALLBACK, re(P::NginxVariable, true)),
        ann("modsecurity-snippet", ING, CRIT, FALLBACK, Null),
        // internal/ingress/annotations/opentelemetry/main.go: the operation name's error is
        // returned as is, read only when enable-opentelemetry is true.
        ann("enable-opentelemetry", LOC, LOW, FALLBACK, Bool),
        ann("opentelemetry-trust-incoming-span", LOC, LOW, FALLBACK, Bool),
        ann("opentelemetry-operation-name", LOC, MED, REACHED, re(P::OperationName, true)),
        // internal/ingress/annotations/portinredirect/main.go: falls back to the ConfigMap value.
        ann("use-port-in-redirects", LOC, LOW, FALLBACK, Bool),
        // internal/ingress/annotations/proxy/main.go: every key falls back to the ConfigMap value.
        ann("proxy-connect-timeout", LOC, LOW, FALLBACK, Int),
        ann("proxy-send-timeout", LOC, LOW, FALLBACK, Int),
        ann("proxy-read-timeout", LOC, LOW, FALLBACK, Int),
        ann("proxy-buffers-number", LOC, LOW, FALLBACK, Int),
        ann("proxy-buffer-size", LOC, LOW, FALLBACK, re(P::Size, true)),
        ann("proxy-busy-buffers-size", LOC, LOW, FALLBACK, re(P::Size, true)),
        ann("proxy-cookie-path", LOC, MED, FALLBACK, re(P::UrlIsValid, true)),
        ann("proxy-cookie-domain", LOC, MED, FALLBACK, re(P::CookieDomain, false)),
        ann("proxy-body-size", LOC, MED, FALLBACK, re(P::Size, true)),
        ann("proxy-next-upstream", LOC, MED, FALLBACK, re(P::NextUpstream, false)),
        ann("proxy-next-upstream-timeout", LOC, LOW, FALLBACK, Int),
        ann("proxy-next-upstream-tries", LOC, LOW, FALLBACK, Int),
        ann("proxy-request-buffering", LOC, LOW, FALLBACK, options(&["on", "off"], true, true)),
        ann("proxy-redirect-from", LOC, MED, FALLBACK, re(P::UrlIsValid, true)),
        ann("proxy-redirect-to", LOC, MED, FALLBACK, re(P::UrlIsValid, true)),
        ann("proxy-buffering", LOC, LOW, FALLBACK, options(&["on", "off"], true, true)),
        ann("proxy-http-version", LOC, LOW, FALLBACK, options(&["1.0", "1.1"], true, true)),
        ann("proxy-max-temp-file-size", LOC, LOW, FALLBACK, re(P::Size, true)),
        // internal/ingress/annotations/proxyssl/main.go: only the secret's error is returned as
        // is; the other keys fall back to their defaults.
        ann("proxy-ssl-secret", ING, MED, DROP, re(P::BasicChars, true)),
        ann("proxy-ssl-ciphers", ING, MED, FALLBACK, re(P::ProxySslCiphers, true)),
        ann("proxy-ssl-protocols", ING, LOW, FALLBACK, re(P::ProxySslProtocols, true)),
        ann("proxy-ssl-name", ING, HIGH, FALLBACK, ServerName),
        ann("proxy-ssl-verify", ING, LOW, FALLBACK, re(P::OnOff, true)),
        ann("proxy-ssl-verify-depth", ING, LOW, FALLBACK, Int),
        ann("proxy-ssl-server-name", ING, LOW, FALLBACK, re(P::OnOff, true)),
        // internal/ingress/annotations/ratelimit/main.go: rpm, rps, connections and the allowlist
        // return the error as is; the others fall back to their defaults.
        ann("limit-rate", LOC, LOW, FALLBACK, Int),
        ann("limit-rate-after", LOC, LOW, FALLBACK, Int),
        ann("limit-rpm", LOC, LOW, DROP, Int),
        ann("limit-rps", LOC, LOW, DROP, Int),
        ann("limit-connections", LOC, LOW, DROP, Int),
        ann("limit-burst-multiplier", LOC, LOW, FALLBACK, Int),
        AnnotationSpec {
            key: "limit-allowlist",
            aliases: &["limit-whitelist"],
            validator: Cidrs,
            risk: LOW,
            scope: LOC,
            on_invalid: DROP,
        },
        // internal/ingress/annotations/redirect/redirect.go: each key is read in turn and any
        // error but "missing" is returned, so an empty earlier value stops Parse before later keys.
        ann("from-to-www-redirect", LOC, LOW, DROP, Bool),
        ann("temporal-redirect", LOC, MED, REACHED, re(P::UrlIsValid, false)),
        ann("temporal-redirect-code", LOC, LOW, REACHED, Int),
        ann("permanent-redirect", LOC, MED, REACHED, re(P::UrlIsValid, false)),
        ann("permanent-redirect-code", LOC, LOW, REACHED, Int),
        ann("relative-redirects", LOC, LOW, REACHED, Bool),
        // internal/ingress/annotations/rewrite/main.go: every key falls back to its default.
        ann("rewrite-target", ING, MED, FALLBACK, re(P::RegexPathWithCapture, false)),
        ann("ssl-redirect", LOC, LOW, FALLBACK, Bool),
        ann("preserve-trailing-slash", LOC, MED, FALLBACK, Bool),
        ann("force-ssl-redirect", LOC, MED, FALLBACK, Bool),
        ann("use-regex", LOC, LOW, FALLBACK, Bool),
        ann("app-root", LOC, MED, FALLBACK, re(P::RegexPathWithCapture, false)),
        // internal/ingress/annotations/satisfy/main.go: falls back to "".
        ann("satisfy", LOC, LOW, FALLBACK, options(&["any", "all"], true, true)),
        // internal/ingress/annotations/serversnippet/main.go
        ann("server-snippet", ING, CRIT, DROP, Null),
        // internal/ingress/annotations/serviceupstream/main.go: the error is dropped.
        ann("service-upstream", ING, LOW, FALLBACK, Bool),
        // internal/ingress/annotations/sessionaffinity/main.go: every key falls back.
        ann("affinity", ING, LOW, FALLBACK, options(&["cookie"], true, true)),
        ann("affinity-mode", ING, MED, FALLBACK, options(&["balanced", "persistent"], true, true)),
        ann("affinity-canary-behavior", ING, LOW, FALLBACK,
            options(&["sticky", "legacy"], true, true)),
        ann("session-cookie-name", ING, MED, FALLBACK, re(P::BasicChars, true)),
        ann("session-cookie-secure", ING, LOW, FALLBACK, Bool),
        ann("session-cookie-expires", ING, MED, FALLBACK, re(P::CookieExpires, true)),
        ann("session-cookie-max-age", ING, MED, FALLBACK, re(P::CookieExpires, false)),
        ann("session-cookie-path", ING, MED, FALLBACK, re(P::UrlIsValid, true)),
        ann("session-cookie-domain", ING, MED, FALLBACK, re(P::BasicChars, true)),
        ann("session-cookie-samesite", ING, LOW, FALLBACK,
            options(&["none", "lax", "strict"], false, true)),
        ann("session-cookie-conditional-samesite-none", ING, LOW, FALLBACK, Bool),
        ann("session-cookie-change-on-failure", ING, LOW, FALLBACK, Bool),
        // internal/ingress/annotations/snippet/main.go
        ann("configuration-snippet", LOC, CRIT, DROP, Null),
        // internal/ingress/annotations/sslcipher/main.go: only ssl-ciphers' error is returned.
        ann("ssl-prefer-server-ciphers", ING, LOW, FALLBACK, Bool),
        ann("ssl-ciphers", ING, LOW, DROP, re(P::SslCiphers, true)),
        // internal/ingress/annotations/sslpassthrough/main.go: Parse returns the error.
        ann("ssl-passthrough", ING, LOW, DROP, Bool),
        // internal/ingress/annotations/streamsnippet/main.go
        ann("stream-snippet", ING, CRIT, DROP, Null),
        // internal/ingress/annotations/upstreamhashby/main.go: read in turn, any error but
        // "missing" returned, so an empty earlier value stops Parse.
        ann("upstream-hash-by", LOC, HIGH, DROP, re(P::NginxVariable, true)),
        ann("upstream-hash-by-subset", LOC, LOW, REACHED, Bool),
        ann("upstream-hash-by-subset-size", LOC, LOW, REACHED, Int),
        // internal/ingress/annotations/upstreamvhost/main.go: Parse returns the error.
        ann("upstream-vhost", LOC, LOW, DROP, ServerName),
        // internal/ingress/annotations/xforwardedprefix/main.go: Parse returns the error.
        ann("x-forwarded-prefix", LOC, MED, DROP, re(P::RegexPathWithCapture, true)),
    ]
};

/// The declaration of an annotation, by key or alias (without the prefix).
pub(crate) fn spec(key: &str) -> Option<&'static AnnotationSpec> {
    ANNOTATIONS.iter().find(|s| s.names().any(|n| n == key))
}

/// Why upstream ignores an Ingress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// `CheckAnnotationRisk`: the annotation (full key as written on the Ingress) has a risk
    /// above the ConfigMap's `annotations-risk-level`.
    TooRisky { key: String },
    /// `checkAnnotation` refused the value and the parser returned that error: `key` is the
    /// full key the value was read from (the alias's when an alias was used).
    Invalid { key: String, value: String },
}

/// Whether upstream's `Extract` fails for an Ingress with these annotations (full keys), so
/// that `syncIngress` ignores the whole Ingress. `prefix` is the `--annotations-prefix` (without
/// a trailing `/`), `max_risk` the parsed `annotations-risk-level`.
///
/// Upstream visits its parsers in Go map order and stops at the first failure, so only the
/// verdict is determined, not which reason it logs. Here: the risk check first (annotations in
/// key order, each against every declaration), then the values in [`ANNOTATIONS`] order. Where
/// `Parse` only reaches a key after finding a Secret (`auth-realm`, `auth-tls-error-page`,
/// `auth-tls-pass-certificate-to-upstream`, `auth-tls-match-cn`), the Secret is assumed to
/// exist and be allowed.
pub(crate) fn rejection(
    annotations: &BTreeMap<String, String>,
    prefix: &str,
    max_risk: Risk,
) -> Option<Rejection> {
    // TrimAnnotationPrefix leaves a key without the prefix unchanged, so a bare
    // `configuration-snippet` counts as the snippet annotation here (and only here).
    let with_slash = format!("{prefix}/");
    for full in annotations.keys() {
        let pure = full.strip_prefix(with_slash.as_str()).unwrap_or(full);
        let too_risky = ANNOTATIONS
            .iter()
            .any(|s| s.risk > max_risk && s.names().any(|n| n == pure));
        if too_risky {
            return Some(Rejection::TooRisky { key: full.clone() });
        }
    }
    let lookup = Lookup {
        annotations,
        prefix,
    };
    ANNOTATIONS.iter().find_map(|spec| {
        let (key, value) = lookup.pick(spec)?;
        let dropped = !value.is_empty() && !spec.validator.accepts(value) && lookup.drops(spec);
        dropped.then(|| Rejection::Invalid {
            key,
            value: value.to_owned(),
        })
    })
}

/// The outcome of one `parser.Get*Annotation` call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read<'a> {
    /// Neither the key nor a non-empty alias: `ErrMissingAnnotations`.
    Missing,
    /// The validator refused the value: `ValidationError`.
    Invalid,
    /// Present but empty (after `normalizeString` for strings): `InvalidContentError`.
    Unusable,
    Value(&'a str),
}

struct Lookup<'a> {
    annotations: &'a BTreeMap<String, String>,
    prefix: &'a str,
}

impl<'a> Lookup<'a> {
    fn full(&self, key: &str) -> String {
        format!("{}/{}", self.prefix, key)
    }

    fn raw(&self, key: &str) -> Option<&'a str> {
        self.annotations.get(&self.full(key)).map(String::as_str)
    }

    /// `checkAnnotation`'s choice of key and value: the main key unless its value is empty,
    /// then the first alias with a non-empty value.
    fn pick(&self, spec: &AnnotationSpec) -> Option<(String, &'a str)> {
        let main = self.raw(spec.key);
        if let Some(value) = main
            && !value.is_empty()
        {
            return Some((self.full(spec.key), value));
        }
        for alias in spec.aliases {
            if let Some(value) = self.raw(alias)
                && !value.is_empty()
            {
                return Some((self.full(alias), value));
            }
        }
        main.map(|value| (self.full(spec.key), value))
    }

    fn read(&self, key: &str) -> Read<'a> {
        let Some(spec) = ANNOTATIONS.iter().find(|s| s.key == key) else {
            return Read::Missing;
        };
        match self.pick(spec) {
            None => Read::Missing,
            Some((_, "")) => Read::Unusable,
            Some((_, value)) if !spec.validator.accepts(value) => Read::Invalid,
            Some((_, value)) if normalize(value).is_empty() => Read::Unusable,
            Some((_, value)) => Read::Value(value),
        }
    }

    /// The read neither failed validation nor stopped the parser.
    fn passes(&self, key: &str) -> bool {
        matches!(self.read(key), Read::Missing | Read::Value(_))
    }

    fn drops(&self, spec: &AnnotationSpec) -> bool {
        match spec.on_invalid {
            OnInvalid::Drop => true,
            OnInvalid::DropIfReached => self.reached(spec.key),
            OnInvalid::Deny | OnInvalid::Fallback => false,
        }
    }

    /// Whether the package's `Parse` gets as far as reading `key`, following its control flow.
    fn reached(&self, key: &str) -> bool {
        match key {
            // auth: auth-type must read fine and contain basic|digest.
            "auth-secret-type" => self.auth_type_accepted(),
            // ...then auth-secret must read and split as `[namespace/]name`.
            "auth-realm" => {
                self.auth_type_accepted()
                    && matches!(self.read("auth-secret"),
                        Read::Value(s) if normalize(s).split('/').count() <= 2)
            }
            // authtls: the secret must read and have the `namespace/name` form.
            "auth-tls-error-page"
            | "auth-tls-pass-certificate-to-upstream"
            | "auth-tls-match-cn" => {
                matches!(self.read("auth-tls-secret"),
                    Read::Value(s) if normalize(s).split('/').count() == 2)
            }
            "opentelemetry-operation-name" => matches!(
                self.read("enable-opentelemetry"),
                Read::Value(v) if go_parse_bool(v) == Some(true)
            ),
            // redirect: from-to-www, relative, temporal; then temporal's code when temporal is
            // set, else permanent and its code.
            "relative-redirects" => self.passes("from-to-www-redirect"),
            "temporal-redirect" => {
                self.passes("from-to-www-redirect") && self.passes("relative-redirects")
            }
            "temporal-redirect-code" => {
                self.reached("temporal-redirect")
                    && matches!(self.read("temporal-redirect"), Read::Value(_))
            }
            "permanent-redirect" => {
                self.reached("temporal-redirect")
                    && matches!(self.read("temporal-redirect"), Read::Missing)
            }
            "permanent-redirect-code" => {
                self.reached("permanent-redirect") && self.passes("permanent-redirect")
            }
            "upstream-hash-by-subset" => self.passes("upstream-hash-by"),
            "upstream-hash-by-subset-size" => {
                self.passes("upstream-hash-by") && self.passes("upstream-hash-by-subset")
            }
            _ => true,
        }
    }

    fn auth_type_accepted(&self) -> bool {
        match self.read("auth-type") {
            Read::Value(t) => {
                let t = normalize(t);
                t.contains("basic") || t.contains("digest")
            }
            _ => false,
        }
    }
}

/// `parser.normalizeString`: every line trimmed.
fn normalize(value: &str) -> Cow<'_, str> {
    if value.contains('\n') {
        Cow::Owned(
            value
                .split('\n')
                .map(str::trim)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    } else {
        Cow::Borrowed(value.trim())
    }
}

/// Go `strings.ToLower`: per character, where `İ` (U+0130) becomes a plain `i`.
fn go_to_lower(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{130}' => 'i',
            c => c.to_lowercase().next().unwrap_or(c),
        })
        .collect()
}

/// Go `strconv.ParseBool`.
fn go_parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Go `strconv.Atoi` on a 64-bit platform: optional sign, ASCII digits, fits `int64`.
fn go_atoi(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) && s.parse::<i64>().is_ok()
}

/// Go `time.ParseDuration`, including its overflow checks.
fn go_parse_duration(s: &str) -> bool {
    const LIMIT: u64 = 1 << 63;
    let mut s = s.as_bytes();
    let mut neg = false;
    if let Some(&c) = s.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        s = &s[1..];
    }
    if s == b"0" {
        return true;
    }
    if s.is_empty() {
        return false;
    }
    let mut total: u64 = 0;
    while let Some(&first) = s.first() {
        if !(first == b'.' || first.is_ascii_digit()) {
            return false;
        }
        let mut whole: u64 = 0;
        let int_len = s.iter().take_while(|c| c.is_ascii_digit()).count();
        for &c in &s[..int_len] {
            if whole > LIMIT / 10 {
                return false;
            }
            whole = whole * 10 + u64::from(c - b'0');
            if whole > LIMIT {
                return false;
            }
        }
        s = &s[int_len..];
        let mut frac: u64 = 0;
        let mut scale = 1.0f64;
        let mut frac_len = 0;
        if s.first() == Some(&b'.') {
            s = &s[1..];
            frac_len = s.iter().take_while(|c| c.is_ascii_digit()).count();
            let mut overflow = false;
            for &c in &s[..frac_len] {
                if overflow {
                    continue;
                }
                if frac > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let next = frac * 10 + u64::from(c - b'0');
                if next > LIMIT {
                    overflow = true;
                    continue;
                }
                frac = next;
                scale *= 10.0;
            }
            s = &s[frac_len..];
        }
        if int_len == 0 && frac_len == 0 {
            return false;
        }
        let unit_len = s
            .iter()
            .take_while(|&&c| !(c == b'.' || c.is_ascii_digit()))
            .count();
        let unit: u64 = match &s[..unit_len] {
            b"ns" => 1,
            b"us" => 1_000,
            u if u == "µs".as_bytes() || u == "μs".as_bytes() => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => return false,
        };
        s = &s[unit_len..];
        if whole > LIMIT / unit {
            return false;
        }
        whole *= unit;
        if frac > 0 {
            // Truncating float-to-integer conversion, as Go's uint64(float64) does here.
            whole += (frac as f64 * (unit as f64 / scale)) as u64;
            if whole > LIMIT {
                return false;
            }
        }
        // Go adds in uint64 and may wrap at exactly 2^64; keep that.
        total = total.wrapping_add(whole);
        if total > LIMIT {
            return false;
        }
    }
    neg || total < LIMIT
}

/// `internal/net` `ParseCIDRs`: empty is fine; else every comma-separated part, trimmed with
/// `strings.TrimSpace`, is a Go `net.ParseCIDR` network or a `net.ParseIP` address.
fn go_parse_cidrs(s: &str) -> bool {
    s.is_empty()
        || s.split(',').all(|part| {
            let part = part.trim();
            go_parse_cidr(part) || go_parse_addr(part).is_some()
        })
}

/// Go `net.ParseCIDR`: an address without zone, `/`, a decimal prefix length within the
/// address size (IPv4-mapped IPv6 counts as IPv6).
fn go_parse_cidr(s: &str) -> bool {
    let Some((addr, len)) = s.split_once('/') else {
        return false;
    };
    let Some(is4) = go_parse_addr(addr) else {
        return false;
    };
    // net's dtoi: digits only, giving up at 0xFFFFFF.
    let mut n: u32 = 0;
    for c in len.bytes() {
        if !c.is_ascii_digit() {
            return false;
        }
        n = n * 10 + u32::from(c - b'0');
        if n >= 0x00FF_FFFF {
            return false;
        }
    }
    !len.is_empty() && n <= if is4 { 32 } else { 128 }
}

/// Go `net.ParseIP` (`netip.ParseAddr` without a zone): `Some(true)` for IPv4.
fn go_parse_addr(s: &str) -> Option<bool> {
    // ParseAddr decides by the first `.`, `:` or `%`; a zone is refused by net either way.
    match s.bytes().find(|c| matches!(c, b'.' | b':' | b'%'))? {
        b'.' => ipv4_fields(s.as_bytes()).then_some(true),
        b':' if !s.contains('%') => ipv6(s.as_bytes()).then_some(false),
        _ => None,
    }
}

/// `netip.parseIPv4Fields`: four decimal fields up to 255, no leading zeros.
fn ipv4_fields(s: &[u8]) -> bool {
    let mut fields = 0;
    let mut value = 0u32;
    let mut digits = 0;
    for (i, &c) in s.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && value == 0 {
                    return false;
                }
                value = value * 10 + u32::from(c - b'0');
                digits += 1;
                if value > 255 {
                    return false;
                }
            }
            b'.' => {
                if i == 0 || i == s.len() - 1 || s[i - 1] == b'.' || fields == 3 {
                    return false;
                }
                fields += 1;
                value = 0;
                digits = 0;
            }
            _ => return false,
        }
    }
    fields == 3
}

/// `netip.parseAddrV6` (zone already excluded).
fn ipv6(mut s: &[u8]) -> bool {
    let mut ellipsis = None;
    if s.starts_with(b"::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return true;
        }
    }
    let mut filled = 0;
    while filled < 16 {
        let mut off = 0;
        let mut acc: u32 = 0;
        while let Some(&c) = s.get(off) {
            let Some(d) = char::from(c).to_digit(16) else {
                break;
            };
            acc = (acc << 4) + d;
            if off > 3 || acc > 0xFFFF {
                return false;
            }
            off += 1;
        }
        if off == 0 {
            return false;
        }
        if s.get(off) == Some(&b'.') {
            // An embedded IPv4 address must fill the last four bytes.
            if (ellipsis.is_none() && filled != 12) || filled + 4 > 16 || !ipv4_fields(s) {
                return false;
            }
            s = &[];
            filled += 4;
            break;
        }
        filled += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return false;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return false;
            }
            ellipsis = Some(filled);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return false;
    }
    // Too short needs `::`; full length must not have one (it has to stand for a zero group).
    (filled < 16) == ellipsis.is_some()
}

/// apimachinery `IsDNS1035Label`.
fn dns1035_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
        && b.last().is_some_and(|&c| c != b'-')
}

/// `parser.ValidateServerName`.
fn server_name(s: &str) -> bool {
    s.trim().chars().all(is_regex_char)
}

/// `alphaNumericChars` of validators.go (with the `/` every class adds).
fn is_basic(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~' | '/' | ':')
}

fn is_regex_char(c: char) -> bool {
    is_basic(c) || "^$[](){}*+?|&=\\".contains(c)
}

/// `[A-Za-z0-9_-]`.
fn is_token_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// Go's `\s`: `[\t\n\f\r ]`.
fn is_go_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// `^(?i)\d+[bkmg]?$`; Go's case folding also maps the Kelvin sign to `k`.
fn size(s: &str) -> bool {
    let digits = match s.chars().last() {
        Some(c @ ('b' | 'B' | 'k' | 'K' | '\u{212A}' | 'm' | 'M' | 'g' | 'G')) => {
            &s[..s.len() - c.len_utf8()]
        }
        _ => s,
    };
    !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
}

/// `^(W,?\s?)+$` for a word `W` measured by `word` (its length at the start, if any). The
/// comma and whitespace are optional but can only be consumed here, so greedy is exact.
fn word_list(s: &[u8], word: impl Fn(&[u8]) -> Option<usize>) -> bool {
    let mut i = 0;
    while i < s.len() {
        let Some(n) = word(&s[i..]) else {
            return false;
        };
        i += n;
        if s.get(i) == Some(&b',') {
            i += 1;
        }
        if s.get(i).copied().is_some_and(is_go_space) {
            i += 1;
        }
    }
    !s.is_empty()
}

/// `^(@[A-Za-z0-9_-]+|((https?://)?[A-Za-z0-9\-.]+(:\d+)?)?(/[A-Za-z0-9\-_.]+)*/?)$`.
fn tls_error_page(s: &str) -> bool {
    if let Some(name) = s.strip_prefix('@') {
        return !name.is_empty() && name.bytes().all(is_token_byte);
    }
    if path_segments(s) {
        return true;
    }
    let host_byte = |c: &u8| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'.';
    ["https://", "http://", ""].iter().any(|scheme| {
        let Some(rest) = s.strip_prefix(scheme) else {
            return false;
        };
        // Host and port characters exclude `/` and `:`, so the longest runs are forced.
        let host = rest.bytes().take_while(host_byte).count();
        if host == 0 {
            return false;
        }
        let mut rest = &rest[host..];
        if let Some(port) = rest.strip_prefix(':') {
            let digits = port.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return false;
            }
            rest = &port[digits..];
        }
        path_segments(rest)
    })
}

/// `(/[A-Za-z0-9\-_.]+)*/?`.
fn path_segments(s: &str) -> bool {
    let mut rest = s;
    while let Some(after) = rest.strip_prefix('/') {
        let n = after
            .bytes()
            .take_while(|&c| is_token_byte(c) || c == b'.')
            .count();
        if n == 0 {
            return after.is_empty();
        }
        rest = &after[n..];
    }
    rest.is_empty()
}

/// `^((((([a-z]+://)?(\*\.)?[A-Za-z0-9\-.]*(:\d+)?,?)|null)+)|\*)?$`: positions reachable by
/// a sequence of non-empty items.
fn cors_origin(s: &[u8]) -> bool {
    if s == b"*" {
        return true;
    }
    let mut reach = vec![false; s.len() + 1];
    reach[0] = true;
    for i in 0..s.len() {
        if reach[i] {
            for end in cors_item_ends(s, i) {
                if end > i {
                    reach[end] = true;
                }
            }
        }
    }
    reach[s.len()]
}

/// Where one `([a-z]+://)?(\*\.)?[A-Za-z0-9\-.]*(:\d+)?,?` or `null` starting at `i` can end.
fn cors_item_ends(s: &[u8], i: usize) -> Vec<usize> {
    let mut ends = Vec::new();
    if s[i..].starts_with(b"null") {
        ends.push(i + 4);
    }
    let mut starts = vec![i];
    let letters = s[i..].iter().take_while(|c| c.is_ascii_lowercase()).count();
    if letters > 0 && s[i + letters..].starts_with(b"://") {
        starts.push(i + letters + 3);
    }
    for start in starts {
        let mut hosts = vec![start];
        if s[start..].starts_with(b"*.") {
            hosts.push(start + 2);
        }
        for host in hosts {
            let run = s[host..]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.')
                .count();
            for h in host..=host + run {
                let mut after_port = vec![h];
                if s.get(h) == Some(&b':') {
                    let digits = s[h + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    after_port.extend((1..=digits).map(|d| h + 1 + d));
                }
                for t in after_port {
                    ends.push(t);
                    if s.get(t) == Some(&b',') {
                        ends.push(t + 1);
                    }
                }
            }
        }
    }
    ends
}

/// `^(?:[4,5]\d{2},?)*$`: a comma may end one item or start the next, so track positions.
fn http_error_codes(s: &[u8]) -> bool {
    let mut reach = vec![false; s.len() + 1];
    reach[0] = true;
    for i in 0..s.len() {
        if reach[i]
            && i + 3 <= s.len()
            && matches!(s[i], b'4' | b'5' | b',')
            && s[i + 1].is_ascii_digit()
            && s[i + 2].is_ascii_digit()
        {
            reach[i + 3] = true;
            if s.get(i + 3) == Some(&b',') {
                reach[i + 4] = true;
            }
        }
    }
    reach[s.len()]
}

/// `proxy.validUpstreamAnnotation`: no keyword is a prefix of another, so greedy is exact.
fn next_upstream(s: &[u8]) -> bool {
    const WORDS: [&str; 12] = [
        "error",
        "timeout",
        "invalid_header",
        "http_500",
        "http_502",
        "http_503",
        "http_504",
        "http_403",
        "http_404",
        "http_429",
        "non_idempotent",
        "off",
    ];
    let mut rest = s;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let Some(word) = WORDS.iter().find(|w| rest.starts_with(w.as_bytes())) else {
            return false;
        };
        rest = &rest[word.len()..];
        if rest.first().copied().is_some_and(is_go_space) {
            rest = &rest[1..];
        }
    }
    true
}

/// `^(off|[chars]+\s+[chars]+)$` with the basic chars.
fn cookie_domain(s: &str) -> bool {
    if s == "off" {
        return true;
    }
    let b = s.as_bytes();
    let first = b.iter().take_while(|&&c| is_basic(char::from(c))).count();
    let gap = b[first..].iter().take_while(|&&c| is_go_space(c)).count();
    let second = b[first + gap..]
        .iter()
        .take_while(|&&c| is_basic(char::from(c)))
        .count();
    first > 0 && gap > 0 && second > 0 && first + gap + second == b.len()
}

/// `sslcipher.regexValidSSLCipher`: the nested stars amount to any sequence of cipher
/// characters, `@STRENGTH` and `@SECLEVEL=[0-5]`.
fn ssl_ciphers(s: &str) -> bool {
    let mut rest = s.as_bytes();
    while let Some(&c) = rest.first() {
        let step = if c.is_ascii_alphanumeric() || b"!:+-_".contains(&c) {
            1
        } else if rest.starts_with(b"@STRENGTH") {
            9
        } else if rest.starts_with(b"@SECLEVEL=") && matches!(rest.get(10), Some(b'0'..=b'5')) {
            11
        } else {
            return false;
        };
        rest = &rest[step..];
    }
    true
}

/// Whether Go's `regexp.Compile` accepts `re`. An approximation of RE2's parser: it checks
/// balanced groups, closed character classes (with `[:name:]` classes and range order),
/// escapes, `(?flags)` and named groups, and that a repetition operator follows something
/// repeatable and not another repetition (`a**` fails, `a*?` is lazy). It does not check
/// Unicode class names (`\p{..}`), duplicate group names or the nesting limits.
fn go_regexp_compiles(re: &str) -> bool {
    let s: Vec<char> = re.chars().collect();
    let mut depth = 0usize;
    // Whether the previous item can be repeated, and whether it is itself a repetition.
    let mut atom = false;
    let mut repeated = false;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let mut next_repeated = false;
        match c {
            '\\' if s.get(i + 1) == Some(&'Q') => {
                let body = &s[i + 2..];
                let len = body.windows(2).position(|w| w == ['\\', 'E']);
                let literal = len.unwrap_or(body.len());
                if literal > 0 {
                    atom = true;
                }
                i += 2 + len.map_or(body.len(), |n| n + 2);
                repeated = false;
                continue;
            }
            '\\' => {
                let Some(n) = escape_len(&s[i + 1..], false) else {
                    return false;
                };
                // Escapes, including the empty-width `\b` `\A` ..., can all be repeated.
                atom = true;
                i += 1 + n;
                repeated = false;
                continue;
            }
            '[' => {
                let Some(n) = class_len(&s[i..]) else {
                    return false;
                };
                i += n;
                atom = true;
                repeated = false;
                continue;
            }
            '(' if s.get(i + 1) == Some(&'?') => {
                let Some((n, opens)) = group_head(&s[i..]) else {
                    return false;
                };
                if opens {
                    depth += 1;
                    atom = false;
                }
                i += n;
                repeated = false;
                continue;
            }
            '(' => {
                depth += 1;
                atom = false;
            }
            ')' => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
                atom = true;
            }
            '|' => atom = false,
            '*' | '+' | '?' => {
                if !atom || repeated {
                    return false;
                }
                next_repeated = true;
                if s.get(i + 1) == Some(&'?') {
                    i += 1;
                }
            }
            '{' => match repeat_len(&s[i..]) {
                Some((n, min, max)) => {
                    if min > 1000 || max.is_some_and(|m| m > 1000 || m < min) {
                        return false;
                    }
                    if !atom || repeated {
                        return false;
                    }
                    i += n;
                    if s.get(i) == Some(&'?') {
                        i += 1;
                    }
                    repeated = true;
                    continue;
                }
                None => atom = true,
            },
            _ => atom = true,
        }
        repeated = next_repeated;
        i += 1;
    }
    depth == 0
}

/// Length of an escape after its backslash (`in_class`: inside `[...]`, where `\b` and
/// friends are not allowed).
fn escape_len(s: &[char], in_class: bool) -> Option<usize> {
    let c = *s.first()?;
    match c {
        '1'..='7' if !s.get(1).is_some_and(|d| ('0'..='7').contains(d)) => None,
        '0'..='7' => Some(
            1 + s[1..]
                .iter()
                .take(2)
                .take_while(|d| matches!(d, '0'..='7'))
                .count(),
        ),
        'x' => {
            if s.get(1) == Some(&'{') {
                let close = s.iter().position(|&d| d == '}')?;
                let hex = &s[2..close];
                let ok = !hex.is_empty()
                    && hex.iter().all(char::is_ascii_hexdigit)
                    && u32::from_str_radix(&hex.iter().collect::<String>(), 16)
                        .is_ok_and(|v| v <= 0x10_FFFF);
                ok.then_some(close + 1)
            } else {
                let two = s.get(1..3)?;
                two.iter().all(char::is_ascii_hexdigit).then_some(3)
            }
        }
        'p' | 'P' => {
            if s.get(1) == Some(&'{') {
                let close = s.iter().position(|&d| d == '}')?;
                (close > 2).then_some(close + 1)
            } else {
                s.get(1).filter(|d| d.is_alphabetic()).map(|_| 2)
            }
        }
        'a' | 'f' | 'n' | 'r' | 't' | 'v' | 'd' | 'D' | 's' | 'S' | 'w' | 'W' => Some(1),
        'b' | 'B' | 'A' | 'z' if !in_class => Some(1),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Some(1),
        _ => None,
    }
}

/// The value of a single-character escape, for range checks in classes.
fn escape_value(s: &[char]) -> Option<u32> {
    let c = *s.first()?;
    Some(match c {
        'a' => 7,
        'f' => 12,
        't' => 9,
        'n' => 10,
        'r' => 13,
        'v' => 11,
        '0'..='7' => s
            .iter()
            .take(3)
            .take_while(|d| matches!(d, '0'..='7'))
            .fold(0, |v, d| v * 8 + d.to_digit(8).unwrap_or(0)),
        'x' => {
            let hex: String = s[1..]
                .iter()
                .filter(|d| d.is_ascii_hexdigit())
                .take(if s.get(1) == Some(&'{') { 8 } else { 2 })
                .collect();
            u32::from_str_radix(&hex, 16).ok()?
        }
        c => u32::from(c),
    })
}

/// Length of a character class starting at `[`.
fn class_len(s: &[char]) -> Option<usize> {
    const NAMES: [&str; 14] = [
        "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
        "space", "upper", "word", "xdigit",
    ];
    let mut i = 1;
    if s.get(i) == Some(&'^') {
        i += 1;
    }
    let mut first = true;
    loop {
        let c = *s.get(i)?;
        if c == ']' && !first {
            return Some(i + 1);
        }
        first = false;
        if c == '[' && s.get(i + 1) == Some(&':') {
            let close = s[i + 2..].windows(2).position(|w| w == [':', ']']);
            if let Some(close) = close {
                let name: String = s[i + 2..i + 2 + close].iter().collect();
                if !NAMES.contains(&name.strip_prefix('^').unwrap_or(&name)) {
                    return None;
                }
                i += close + 4;
                continue;
            }
        }
        let (lo, n) = class_char(&s[i..])?;
        i += n;
        let Some(lo) = lo else {
            // A class escape such as `\d`: no range can start here.
            continue;
        };
        if s.get(i) == Some(&'-') && s.get(i + 1).is_some_and(|&d| d != ']') {
            let (hi, m) = class_char(&s[i + 1..])?;
            if hi? < lo {
                return None;
            }
            i += 1 + m;
        }
    }
}

/// One class element: its character value (`None` for `\d`-like escapes) and length.
fn class_char(s: &[char]) -> Option<(Option<u32>, usize)> {
    let c = *s.first()?;
    if c != '\\' {
        return Some((Some(u32::from(c)), 1));
    }
    let n = escape_len(&s[1..], true)?;
    if matches!(
        s.get(1),
        Some('d' | 'D' | 's' | 'S' | 'w' | 'W' | 'p' | 'P')
    ) {
        return Some((None, 1 + n));
    }
    Some((escape_value(&s[1..]), 1 + n))
}

/// `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>`: its length and whether it opens a group.
fn group_head(s: &[char]) -> Option<(usize, bool)> {
    let name_start = match (s.get(2), s.get(3)) {
        (Some('P'), Some('<')) => Some(4),
        (Some('<'), _) => Some(3),
        _ => None,
    };
    if let Some(start) = name_start {
        let close = start + s[start..].iter().position(|&c| c == '>')?;
        let name = &s[start..close];
        let ok = !name.is_empty() && name.iter().all(|&c| c == '_' || c.is_ascii_alphanumeric());
        return ok.then_some((close + 1, true));
    }
    let mut negated = false;
    let mut saw_flag = false;
    for (i, &c) in s.iter().enumerate().skip(2) {
        match c {
            'i' | 'm' | 's' | 'U' => saw_flag = true,
            '-' if !negated => {
                negated = true;
                saw_flag = false;
            }
            ':' | ')' if !negated || saw_flag => return Some((i + 1, c == ':')),
            _ => return None,
        }
    }
    None
}

/// `{n}`, `{n,}` or `{n,m}` (no leading zeros): length, min and max. `None`: a literal `{`.
fn repeat_len(s: &[char]) -> Option<(usize, u32, Option<u32>)> {
    fn number(s: &[char]) -> Option<(u32, usize)> {
        let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 || (n >= 2 && s[0] == '0') {
            return None;
        }
        // Go stops counting at 1e8 and reports an invalid count; saturate likewise.
        let value = s[..n].iter().fold(0u32, |v, d| {
            v.saturating_mul(10)
                .saturating_add(d.to_digit(10).unwrap_or(0))
        });
        Some((value, n))
    }
    let (min, n) = number(&s[1..])?;
    let mut i = 1 + n;
    let max = match s.get(i) {
        Some('}') => Some(min),
        Some(',') if s.get(i + 1) == Some(&'}') => {
            i += 1;
            None
        }
        Some(',') => {
            let (max, m) = number(&s[i + 1..])?;
            i += 1 + m;
            Some(max)
        }
        _ => return None,
    };
    (s.get(i) == Some(&'}')).then_some((i + 1, min, max))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anns(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (format!("{DEFAULT_PREFIX}/{k}"), (*v).to_owned()))
            .collect()
    }

    fn reject(pairs: &[(&str, &str)]) -> Option<Rejection> {
        rejection(&anns(pairs), DEFAULT_PREFIX, Risk::High)
    }

    fn invalid(key: &str, value: &str) -> Option<Rejection> {
        Some(Rejection::Invalid {
            key: format!("{DEFAULT_PREFIX}/{key}"),
            value: value.to_owned(),
        })
    }

    fn validator(key: &str) -> Validator {
        spec(key).map(|s| s.validator).expect("known annotation")
    }

    fn check(key: &str, cases: &[(&str, bool)]) {
        let v = validator(key);
        for &(value, ok) in cases {
            assert_eq!(v.accepts(value), ok, "{key}: {value:?}");
        }
    }

    #[test]
    fn table_has_every_key_once() {
        let mut seen = std::collections::BTreeSet::new();
        for s in ANNOTATIONS {
            for name in s.names() {
                assert!(seen.insert(name), "duplicate {name}");
                assert!(!name.contains('/'), "{name} carries a prefix");
            }
        }
        // 136 declarations in the annotation packages of dbb11b92, plus two aliases.
        assert_eq!(ANNOTATIONS.len(), 136);
        assert_eq!(seen.len(), 138);
        assert_eq!(
            spec("whitelist-source-range").map(|s| s.key),
            Some("allowlist-source-range")
        );
        assert_eq!(
            spec("limit-whitelist").map(|s| s.key),
            Some("limit-allowlist")
        );
        assert_eq!(spec("nope"), None);
    }

    #[test]
    fn table_spot_checks() {
        let s = spec("rewrite-target").expect("declared");
        assert_eq!((s.scope, s.risk), (Scope::Ingress, Risk::Medium));
        let s = spec("configuration-snippet").expect("declared");
        assert_eq!((s.scope, s.risk), (Scope::Location, Risk::Critical));
        let critical: Vec<_> = ANNOTATIONS
            .iter()
            .filter(|s| s.risk == Risk::Critical)
            .map(|s| s.key)
            .collect();
        assert_eq!(
            critical,
            [
                "auth-snippet",
                "modsecurity-snippet",
                "server-snippet",
                "configuration-snippet",
                "stream-snippet"
            ]
        );
    }

    #[test]
    fn every_conditional_key_has_a_reach_rule() {
        // The keys `Lookup::reached` follows; a new DropIfReached key needs a rule there.
        let conditional: Vec<_> = ANNOTATIONS
            .iter()
            .filter(|s| s.on_invalid == OnInvalid::DropIfReached)
            .map(|s| s.key)
            .collect();
        assert_eq!(
            conditional,
            [
                "auth-secret-type",
                "auth-realm",
                "auth-tls-error-page",
                "auth-tls-pass-certificate-to-upstream",
                "auth-tls-match-cn",
                "opentelemetry-operation-name",
                "temporal-redirect",
                "temporal-redirect-code",
                "permanent-redirect",
                "permanent-redirect-code",
                "relative-redirects",
                "upstream-hash-by-subset",
                "upstream-hash-by-subset-size",
            ]
        );
    }

    // config.go NewDefault and parser.StringRiskToRisk.
    #[test]
    fn risk_setting() {
        assert_eq!(risk_from_setting(DEFAULT_RISK_SETTING), Risk::High);
        assert_eq!(risk_from_setting("CRITICAL"), Risk::Critical);
        assert_eq!(risk_from_setting("Medium"), Risk::Medium);
        assert_eq!(risk_from_setting("low"), Risk::Low);
        assert_eq!(risk_from_setting(" High"), Risk::Low);
        assert_eq!(risk_from_setting(""), Risk::Low);
        assert!(
            Risk::Low < Risk::Medium && Risk::Medium < Risk::High && Risk::High < Risk::Critical
        );
    }

    // validators_test.go TestValidateArrayOfServerName.
    #[test]
    fn array_of_server_name() {
        check(
            "server-alias",
            &[
                ("something.com,anything.com", true),
                ("*.something.com,otherthing.com", true),
                (r"~^www\d+\.example\.com$,something.com", true),
                (
                    "http://some.test.env.com:2121/$someparam=1&$someotherparam=2",
                    true,
                ),
                ("*.so*mething.com,bla.com", true),
                (
                    "https://oauth.example/oauth2/auth?allowed_groups=gid1,gid2",
                    true,
                ),
                ("something.com,lolo;xpto.com,nothing.com", false),
                ("http://something.com/#;\nournewinjection", false),
            ],
        );
        // alias/main_test.go TestParse.
        check(
            "server-alias",
            &[("a.com, b.com, ,    c.com", true), ("www.xpto;lala", false)],
        );
    }

    // validators_test.go TestCommonNameAnnotationValidator; authtls/main_test.go.
    #[test]
    fn common_name() {
        check(
            "auth-tls-match-cn",
            &[
                (r"CN=(my\.common\.name)", true),
                (r"(my\.common\.name)", false),
                (r"CN(my\.common\.name)", false),
                (r"CN=(my\.common\.name]", false),
                (r"CN=(my\..*\.name)", true),
                ("CN=(my\\.app\\.dev|.*\\.bbb\\.aaaa\\.tld)", true),
                (r"CN=(my-app.*\.c\.defg\.net|other.app.com)", true),
                (
                    r"CN=(api-one\.(asdf)?qwer\.webpage\.organization\.org)",
                    true,
                ),
                ("CN=(hello-app|ok|goodbye)", true),
                ("<script>nope</script>", false),
            ],
        );
    }

    // Go regexp syntax the approximation handles (behaviour of Go's regexp/syntax).
    #[test]
    fn regexp_approximation() {
        for ok in [
            "",
            "a*?",
            "[]a]",
            "[^]a]",
            "[a-z]",
            r"\d+",
            "(?i)x",
            "(?P<n>x)",
            "x{2,3}",
            "{",
            "a{,2}",
            "[[:alpha:]]",
            r"\Qa*\E+",
            "^*",
        ] {
            assert!(go_regexp_compiles(ok), "{ok}");
        }
        for bad in [
            "(",
            ")",
            "a**",
            "*a",
            "(*)",
            "a|*",
            "[a",
            "[z-a]",
            r"\",
            r"\1",
            r"\e",
            "x{1001}",
            "x{3,2}",
            "(?z)",
            "[[:nope:]]",
        ] {
            assert!(!go_regexp_compiles(bad), "{bad}");
        }
    }

    // parser/main_test.go TestGetBoolAnnotation, TestGetIntAnnotation; Go strconv rules.
    #[test]
    fn bool_and_int() {
        check(
            "ssl-redirect",
            &[
                ("false", true),
                ("true", true),
                ("1", true),
                ("t", true),
                ("T", true),
                ("TRUE", true),
                ("True", true),
                ("0", true),
                ("f", true),
                ("F", true),
                ("FALSE", true),
                ("False", true),
                ("yes", false),
                ("tRUE", false),
                (" true", false),
                ("", false),
            ],
        );
        check(
            "proxy-read-timeout",
            &[
                ("1", true),
                ("2", true),
                ("-5", true),
                ("+5", true),
                ("007", true),
                ("9223372036854775807", true),
                ("-9223372036854775808", true),
                ("9223372036854775808", false),
                ("+", false),
                ("1_000", false),
                (" 1", false),
                ("1.5", false),
                ("abcd", false),
                ("", false),
            ],
        );
    }

    // Go time.ParseDuration grammar (validators.go ValidateDuration).
    #[test]
    fn duration() {
        let v = Validator::Duration;
        for ok in [
            "0",
            "-0",
            "+0",
            "5s",
            "1h30m",
            "1.5h",
            ".5s",
            "5.s",
            "300ms",
            "1µs",
            "1μs",
            "2us",
            "3ns",
            "-2m",
            "9223372036854775807ns",
            "-9223372036854775808ns",
        ] {
            assert!(v.accepts(ok), "{ok}");
        }
        for bad in [
            "",
            "00",
            "5",
            ".",
            ".s",
            "-.s",
            "1d",
            "5 s",
            "1h ",
            "s",
            "+",
            "9223372036854775808ns",
            "2562048h",
        ] {
            assert!(!v.accepts(bad), "{bad}");
        }
    }

    // ipallowlist/main_test.go and ipdenylist/main_test.go TestParseAnnotations; Go net rules.
    #[test]
    fn cidrs() {
        check(
            "denylist-source-range",
            &[
                ("10.0.0.0/24", true),
                ("2.2.2.2/32,1.1.1.1/32,3.3.3.0/24", true),
                ("ww", false),
                (r#"10.0.0.0/8"rm /tmp",11.0.0.0/8"#, false),
                (" 10.0.0.1 , 10.0.0.2", true),
                ("10.0.0.1,", false),
                ("010.0.0.1", false),
                ("10.0.0.256", false),
                ("10.0.0.0/33", false),
                ("10.0.0.0/08", true),
                ("::1", true),
                ("2001:db8::/32", true),
                ("::ffff:10.0.0.1/128", true),
                ("1:2:3:4:5:6:7:8", true),
                ("1:2:3:4:5:6:7:8::", false),
                ("1::2::3", false),
                ("fe80::1%eth0", false),
                ("::/129", false),
                ("1:2:3:4:5:6:1.2.3.4", true),
                ("1:2:3:4:5:1.2.3.4", false),
            ],
        );
    }

    // The shared character classes of validators.go, with cases from the packages' tests.
    #[test]
    fn character_classes() {
        // rewrite/main_test.go TestSSLRedirect; xforwardedprefix/main_test.go TestParse.
        check(
            "rewrite-target",
            &[
                ("/demo", true),
                ("/xpto/$1/abc/$2", true),
                ("/xpto/xas{445}", false),
            ],
        );
        check(
            "x-forwarded-prefix",
            &[("true", true), ("1", true), ("/$1", true)],
        );
        // clientbodybuffersize/main_test.go TestParse; proxy/main_test.go TestProxy.
        check(
            "client-body-buffer-size",
            &[
                ("8k", true),
                ("16k", true),
                ("10000", true),
                ("16R", false),
                ("16kkk", false),
                ("1 k", true),
                ("2G", true),
                ("3\u{212A}", true),
            ],
        );
        // upstreamhashby/main_test.go TestParse.
        check(
            "upstream-hash-by",
            &[
                ("$request_URI", true),
                ("$request_uri$scheme", true),
                ("xpto;[]", false),
                ("lalal${scheme_test}", true),
                ("false", true),
            ],
        );
        // authreq/main_test.go TestAnnotations and TestHeaderAnnotations.
        check(
            "auth-url",
            &[(
                "http://bar.foo.com/external-auth/auth?allowed_groups=snow-group,rain-group",
                true,
            )],
        );
        check(
            "auth-signin",
            &[(
                "http://bar.foo.com/external-auth/start?rd=https://$host$escaped_request_uri",
                true,
            )],
        );
        check("auth-cache-key", &[("$foo$bar", true)]);
        check(
            "auth-response-headers",
            &[
                ("h1", true),
                (",1,,2,", true),
                ("1 2", true),
                ("1+2", false),
            ],
        );
        // cors/main_test.go TestIngressCorsConfigValid and TestIngressCorsConfigInvalid.
        check(
            "cors-allow-headers",
            &[
                ("DNT,X-CustomHeader, Keep-Alive,User-Agent", true),
                ("@alright, #ingress", false),
            ],
        );
        // auth/main_test.go TestIngressInvalidRealm and TestIngressInvalidSecretName.
        check(
            "auth-realm",
            &[
                ("something weird ; location trying to { break }", false),
                ("-realm-", true),
            ],
        );
        check(
            "auth-secret",
            &[("demo-secret;xpto", false), ("default/demo-secret", true)],
        );
        // Space removal happens before the \r\n check; \n is refused even where spaces are not.
        check(
            "canary-by-header",
            &[
                ("X-Canary", true),
                ("X Canary", true),
                ("X-Canary\n", false),
            ],
        );
        check("auth-realm", &[("a b", true), ("a\tb", false)]);
    }

    // The package-specific regular expressions, each with its upstream test's values.
    #[test]
    fn package_patterns() {
        // auth/main_test.go TestIngressAuthBadAuthType, TestIngressAuthInvalidSecretKey.
        check(
            "auth-type",
            &[
                ("basic", true),
                ("digest", true),
                ("invalid", false),
                ("xbasicx", true),
            ],
        );
        check(
            "auth-secret-type",
            &[
                ("auth-file", true),
                ("auth-map", true),
                ("invalid-type", false),
            ],
        );
        // authreq/main_test.go TestAnnotations (methods).
        check(
            "auth-method",
            &[
                ("POST", true),
                ("GET", true),
                ("get", false),
                ("G ET", true),
            ],
        );
        // authtls/main_test.go TestAnnotations and TestInvalidAnnotations.
        check(
            "auth-tls-error-page",
            &[
                ("ok.com/error", true),
                ("@named", true),
                ("https://ok.com:8443/a/b/", true),
                ("/x", true),
                ("http://", false),
                ("ok.com?x", false),
            ],
        );
        check(
            "auth-tls-verify-client",
            &[("on", true), ("optional_no_ca", true), ("w00t", false)],
        );
        check("auth-tls-verify-depth", &[("2", true), ("abcd", false)]);
        check(
            "auth-tls-pass-certificate-to-upstream",
            &[("true", true), ("nahh", false)],
        );
        // cors/main_test.go.
        check(
            "cors-allow-origin",
            &[
                ("null, https://origin123.test.com:4443", true),
                ("origin123.test.com:4443", true),
                (
                    "https://origin123.test.com:4443,    ,https://origin321.test.com:4443,",
                    true,
                ),
                ("test://localhost", true),
                ("*", true),
                ("https://*.foo.bar", true),
                ("HTTP://x", false),
                ("a b;c", false),
            ],
        );
        check(
            "cors-allow-methods",
            &[
                ("GET, PATCH", true),
                ("POST, GET, OPTIONS", true),
                ("GET, PATCH, $nginx", false),
                ("GET,,PUT", false),
            ],
        );
        check(
            "cors-expose-headers",
            &[
                ("*, X-CustomResponseHeader", true),
                ("@alright, #ingress", false),
                ("**", true),
            ],
        );
        check("cors-max-age", &[("600", true), ("abcd", false)]);
        check("enable-cors", &[("true", true), ("yes", false)]);
        check("cors-allow-credentials", &[("false", true), ("no", false)]);
        // customhttperrors/main_test.go TestParseAnnotations, TestParseInvalidAnnotations.
        check(
            "custom-http-errors",
            &[
                ("400,404,500,502", true),
                ("404,415", true),
                ("400,404,abc,502", false),
                (",40", true),
                ("399", false),
                ("40,,12", false),
            ],
        );
        // fastcgi/main_test.go Test_fastcgi_Parse.
        check(
            "fastcgi-index",
            &[
                ("indexxpto-92123.php", true),
                ("indexxpto-92123$xx.php", false),
            ],
        );
        check(
            "fastcgi-params-configmap",
            &[
                ("default/fcgiconfig", true),
                ("otherns/fcgicon;{fig", false),
            ],
        );
        // mirror/main_test.go TestParse.
        check(
            "mirror-target",
            &[
                ("https://test.env.com/$request_uri", true),
                ("IamNotAURL", true),
                (
                    "http://some.test.env.com:2121/$someparam=1&$someotherparam=2",
                    true,
                ),
            ],
        );
        check(
            "mirror-host",
            &[
                ("test.env.com", true),
                ("someInvalidParam.%^&*()_=!@#'\"", false),
                ("_sbrubles-i\"@xpto:12345", false),
            ],
        );
        check("mirror-request-body", &[("off", true), ("On", false)]);
        // opentelemetry/main_test.go.
        check(
            "opentelemetry-operation-name",
            &[("foo-op", true), ("fooxpto_123$la;", false)],
        );
        // proxy/main_test.go TestProxy, TestProxyComplex, TestCookieDomainRegex.
        check(
            "proxy-next-upstream",
            &[
                ("off", true),
                ("error http_502", true),
                ("error  timeout", false),
                ("timeout ", true),
                ("error,timeout", false),
            ],
        );
        check(
            "proxy-cookie-domain",
            &[
                ("off", true),
                ("example.org .example.com", true),
                (".old.domain .new.domain", true),
                ("example.org", false),
                ("example.org:8080 .example.com", true),
                ("example.org example.com extra", false),
                ("", false),
                ("example.org; .example.com", false),
                ("example.org   .example.com", true),
            ],
        );
        check(
            "proxy-http-version",
            &[("1.0", true), ("1.1", true), (" 1.1 ", true), ("2", false)],
        );
        check("proxy-buffering", &[("on", true), ("ON", false)]);
        // proxyssl/main_test.go TestAnnotations and TestInvalidAnnotations.
        check(
            "proxy-ssl-protocols",
            &[("TLSv1.2 TLSv1.3", true), ("TLSv111 SSLv1", false)],
        );
        check(
            "proxy-ssl-ciphers",
            &[("HIGH:!AES", true), ("HIGH;", false)],
        );
        check("proxy-ssl-verify", &[("on", true), ("yes", false)]);
        // sessionaffinity/main_test.go TestIngressAffinityCookieConfig.
        check(
            "session-cookie-expires",
            &[
                ("4500", true),
                ("0", true),
                ("abc10", true),
                ("x00", false),
                ("-1", true),
            ],
        );
        check(
            "session-cookie-samesite",
            &[("Strict", true), (" lax", true), ("sometimes", false)],
        );
        check("affinity-mode", &[("balanced", true), ("Balanced", false)]);
        // sslcipher/main_test.go TestParse.
        check(
            "ssl-ciphers",
            &[
                (
                    "ALL:!aNULL:!EXPORT56:RC4+RSA:+HIGH:+MEDIUM:+LOW:+SSLv2:+EXP",
                    true,
                ),
                (
                    "ALL:!aNULL:!EXPORT56@SECLEVEL=2:RC4+RSA:+HIGH:+MEDIUM:+LOW:+SSLv2:+EXP",
                    true,
                ),
                (
                    "ALL:!aNULL:!EXPORT56:RC4+RSA:+HIGH:+MEDIUM:+LOW:+SSLv2:+EXP@STRENGTH@SECLEVEL=3",
                    true,
                ),
                (
                    "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256",
                    true,
                ),
                ("ALL:SOMETHING:;locationXPTO", false),
                ("ALL@SECLEVEL=6", false),
            ],
        );
        // backendprotocol/main_test.go TestParseInvalidAnnotations; loadbalancing TestParse.
        check(
            "backend-protocol",
            &[("HTTPS", true), ("INVALID", false), (" grpc ", true)],
        );
        check(
            "load-balance",
            &[("ewma", true), ("ip_hash", false), ("EWMA", false)],
        );
        // defaultbackend: a DNS-1035 label.
        check(
            "default-backend",
            &[
                ("my-svc", true),
                ("1svc", false),
                ("svc-", false),
                ("Svc", false),
            ],
        );
        // satisfy/main_test.go TestSatisfyParser.
        check(
            "satisfy",
            &[("any", true), ("all", true), ("invalid", false)],
        );
    }

    // annotations.go Extract with parsers that only log: cors/main_test.go
    // TestIngressCorsConfigInvalid, rewrite/main_test.go TestSSLRedirect, authtls
    // TestInvalidAnnotations (verify client, depth), annotations_test.go TestCors.
    #[test]
    fn invalid_values_that_keep_the_ingress() {
        assert_eq!(
            reject(&[
                ("enable-cors", "yes"),
                ("cors-allow-headers", "@alright, #ingress"),
                ("cors-allow-credentials", "no"),
                ("cors-allow-methods", "GET, PATCH, $nginx"),
                ("cors-expose-headers", "@alright, #ingress"),
                ("cors-max-age", "abcd"),
            ]),
            None
        );
        assert_eq!(reject(&[("rewrite-target", "/xpto/xas{445}")]), None);
        assert_eq!(reject(&[("backend-protocol", "INVALID")]), None);
        assert_eq!(reject(&[("canary", "maybe"), ("canary-weight", "x")]), None);
        assert_eq!(
            reject(&[
                ("auth-tls-secret", "default/demo-secret"),
                ("auth-tls-verify-client", "w00t"),
                ("auth-tls-verify-depth", "abcd"),
            ]),
            None
        );
        // ipdenylist TestParseAnnotations: the location is denied, the Ingress stays.
        assert_eq!(reject(&[("denylist-source-range", "ww")]), None);
        // auth TestIngressInvalidSecretName: a denied location too.
        assert_eq!(
            reject(&[("auth-type", "basic"), ("auth-secret", "demo-secret;xpto")]),
            None
        );
        // authreq TestHeaderAnnotations "header with other bad symbols": denied.
        assert_eq!(
            reject(&[
                ("auth-url", "http://goog.url"),
                ("auth-response-headers", "1+2")
            ]),
            None
        );
        // mirror TestParse: invalid host falls back.
        assert_eq!(
            reject(&[
                ("mirror-target", "http://some.test.env.com"),
                ("mirror-host", "_sbrubles-i\"@xpto:12345")
            ]),
            None
        );
    }

    // Parsers that hand the ValidationError back, so Extract fails.
    #[test]
    fn invalid_values_that_drop_the_ingress() {
        // auth/main_test.go TestIngressAuthBadAuthType.
        assert_eq!(
            reject(&[("auth-type", "invalid")]),
            invalid("auth-type", "invalid")
        );
        // auth/main_test.go TestIngressInvalidRealm (the Secret exists there).
        let realm = "something weird ; location trying to { break }";
        assert_eq!(
            reject(&[
                ("auth-type", "basic"),
                ("auth-realm", realm),
                ("auth-secret", "demo-secret")
            ]),
            invalid("auth-realm", realm)
        );
        // auth/main_test.go TestIngressAuthInvalidSecretKey.
        assert_eq!(
            reject(&[
                ("auth-type", "basic"),
                ("auth-secret", "demo-secret"),
                ("auth-secret-type", "invalid-type")
            ]),
            invalid("auth-secret-type", "invalid-type")
        );
        // authtls/main_test.go TestInvalidAnnotations.
        assert_eq!(
            reject(&[
                ("auth-tls-secret", "default/demo-secret"),
                ("auth-tls-pass-certificate-to-upstream", "nahh")
            ]),
            invalid("auth-tls-pass-certificate-to-upstream", "nahh")
        );
        assert_eq!(
            reject(&[
                ("auth-tls-secret", "default/demo-secret"),
                ("auth-tls-match-cn", "<script>nope</script>")
            ]),
            invalid("auth-tls-match-cn", "<script>nope</script>")
        );
        // fastcgi/main_test.go Test_fastcgi_Parse.
        assert_eq!(
            reject(&[
                ("fastcgi-index", "indexxpto-92123$xx.php"),
                ("fastcgi-params-configmap", "default/fcgiconfig")
            ]),
            invalid("fastcgi-index", "indexxpto-92123$xx.php")
        );
        assert_eq!(
            reject(&[
                ("fastcgi-index", "indexxpto-92123.php"),
                ("fastcgi-params-configmap", "otherns/fcgicon;{fig")
            ]),
            invalid("fastcgi-params-configmap", "otherns/fcgicon;{fig")
        );
        // sslcipher/main_test.go TestParse; upstreamhashby/main_test.go TestParse;
        // alias/main_test.go TestParse; customhttperrors TestParseInvalidAnnotations;
        // opentelemetry TestIngressAnnotationOpentelemetryWithBadOpName.
        assert_eq!(
            reject(&[("ssl-ciphers", "ALL:SOMETHING:;locationXPTO")]),
            invalid("ssl-ciphers", "ALL:SOMETHING:;locationXPTO")
        );
        assert_eq!(
            reject(&[("upstream-hash-by", "xpto;[]")]),
            invalid("upstream-hash-by", "xpto;[]")
        );
        assert_eq!(
            reject(&[("server-alias", "www.xpto;lala")]),
            invalid("server-alias", "www.xpto;lala")
        );
        assert_eq!(
            reject(&[("custom-http-errors", "400,404,abc,502")]),
            invalid("custom-http-errors", "400,404,abc,502")
        );
        assert_eq!(
            reject(&[
                ("enable-opentelemetry", "true"),
                ("opentelemetry-operation-name", "fooxpto_123$la;")
            ]),
            invalid("opentelemetry-operation-name", "fooxpto_123$la;")
        );
        assert_eq!(
            reject(&[("load-balance", "ip_hash")]),
            invalid("load-balance", "ip_hash")
        );
        assert_eq!(reject(&[("limit-rps", "ten")]), invalid("limit-rps", "ten"));
    }

    // The control flow of Parse decides whether a later key is read at all.
    #[test]
    fn unreached_keys_do_not_drop() {
        // auth: without an accepted auth-type nothing else is read.
        assert_eq!(reject(&[("auth-secret-type", "nope")]), None);
        assert_eq!(
            reject(&[("auth-type", "ba sic"), ("auth-secret-type", "nope")]),
            None
        );
        // auth-tls: the secret must be namespace/name.
        assert_eq!(
            reject(&[
                ("auth-tls-secret", "demo-secret"),
                ("auth-tls-match-cn", "x")
            ]),
            None
        );
        // opentelemetry: only when enabled.
        assert_eq!(
            reject(&[
                ("enable-opentelemetry", "false"),
                ("opentelemetry-operation-name", "a;")
            ]),
            None
        );
        // redirect: an empty from-to-www-redirect stops Parse (InvalidContent).
        assert_eq!(
            reject(&[
                ("from-to-www-redirect", ""),
                ("relative-redirects", "maybe")
            ]),
            None
        );
        assert_eq!(
            reject(&[("relative-redirects", "maybe")]),
            invalid("relative-redirects", "maybe")
        );
        // redirect: the permanent keys are read only without a temporal redirect.
        assert_eq!(
            reject(&[
                ("temporal-redirect", "http://a.b"),
                ("permanent-redirect-code", "x")
            ]),
            None
        );
        assert_eq!(
            reject(&[
                ("temporal-redirect", "http://a.b"),
                ("temporal-redirect-code", "x")
            ]),
            invalid("temporal-redirect-code", "x")
        );
        assert_eq!(
            reject(&[("permanent-redirect-code", "x")]),
            invalid("permanent-redirect-code", "x")
        );
        // upstreamhashby: a whitespace-only hash-by is accepted, then unusable, and stops Parse.
        assert_eq!(
            reject(&[("upstream-hash-by", "  "), ("upstream-hash-by-subset", "x")]),
            None
        );
        assert_eq!(
            reject(&[("upstream-hash-by-subset", "x")]),
            invalid("upstream-hash-by-subset", "x")
        );
    }

    // validators.go checkAnnotation: empty values are not validated; aliases are read when the
    // main key is empty or absent, and reported under their own key.
    #[test]
    fn empty_values_and_aliases() {
        assert_eq!(reject(&[("ssl-passthrough", "")]), None);
        assert_eq!(
            reject(&[("limit-whitelist", "nope")]),
            invalid("limit-whitelist", "nope")
        );
        assert_eq!(
            reject(&[("limit-allowlist", ""), ("limit-whitelist", "nope")]),
            invalid("limit-whitelist", "nope")
        );
        assert_eq!(
            reject(&[
                ("limit-allowlist", "10.0.0.0/8"),
                ("limit-whitelist", "nope")
            ]),
            None
        );
        // parser/main_test.go TestGetStringAnnotation: " " is refused by the getter, not the
        // validator, so it is not a validation error.
        assert_eq!(reject(&[("upstream-vhost", " ")]), None);
    }

    // validators_test.go TestCheckAnnotationRisk, on the real declarations.
    #[test]
    fn risk_check() {
        let snippet = anns(&[("configuration-snippet", "return 200;")]);
        assert_eq!(
            rejection(&snippet, DEFAULT_PREFIX, Risk::High),
            Some(Rejection::TooRisky {
                key: format!("{DEFAULT_PREFIX}/configuration-snippet")
            })
        );
        assert_eq!(rejection(&snippet, DEFAULT_PREFIX, Risk::Critical), None);
        // High risk with maximum Medium; accepted with maximum Critical.
        let high = anns(&[("server-alias", "a.com"), ("rewrite-target", "/")]);
        assert!(matches!(
            rejection(&high, DEFAULT_PREFIX, Risk::Medium),
            Some(Rejection::TooRisky { .. })
        ));
        assert_eq!(rejection(&high, DEFAULT_PREFIX, Risk::Critical), None);
        // Low risk accepted with maximum Low.
        assert_eq!(
            rejection(
                &anns(&[("ssl-redirect", "true")]),
                DEFAULT_PREFIX,
                Risk::Low
            ),
            None
        );
        // Aliases count: whitelist-source-range is Medium.
        assert_eq!(
            rejection(
                &anns(&[("whitelist-source-range", "10.0.0.0/8")]),
                DEFAULT_PREFIX,
                Risk::Low
            ),
            Some(Rejection::TooRisky {
                key: format!("{DEFAULT_PREFIX}/whitelist-source-range")
            })
        );
        // Every annotation is checked, even an empty one.
        assert!(rejection(&anns(&[("server-snippet", "")]), DEFAULT_PREFIX, Risk::High).is_some());
        // The risk check comes first.
        assert!(matches!(
            rejection(
                &anns(&[("auth-type", "invalid"), ("auth-snippet", "x")]),
                DEFAULT_PREFIX,
                Risk::High
            ),
            Some(Rejection::TooRisky { .. })
        ));
    }

    // parser.TrimAnnotationPrefix and GetAnnotationWithPrefix with another prefix.
    #[test]
    fn prefixes() {
        let mut custom = BTreeMap::new();
        custom.insert(
            "example.com/configuration-snippet".to_owned(),
            "x".to_owned(),
        );
        assert!(rejection(&custom, "example.com", Risk::High).is_some());
        assert_eq!(rejection(&custom, DEFAULT_PREFIX, Risk::High), None);
        custom.clear();
        custom.insert("example.com/auth-type".to_owned(), "invalid".to_owned());
        assert_eq!(
            rejection(&custom, "example.com", Risk::High),
            Some(Rejection::Invalid {
                key: "example.com/auth-type".to_owned(),
                value: "invalid".to_owned()
            })
        );
        assert_eq!(rejection(&custom, DEFAULT_PREFIX, Risk::High), None);
        // A key without the prefix is left whole by TrimAnnotationPrefix and so matches.
        custom.clear();
        custom.insert("server-snippet".to_owned(), "x".to_owned());
        assert!(matches!(
            rejection(&custom, DEFAULT_PREFIX, Risk::High),
            Some(Rejection::TooRisky { .. })
        ));
    }
}
