//! How the source's data plane sent requests to backends, where the Standard Gateway API has
//! no field and the target's defaults differ: retries and load balancing (session affinity
//! included). The source translators fill it in from what their data plane did (ingress-nginx:
//! annotations, the ConfigMap and its defaults; Istio: its default retry policy); the target's
//! writer (`envoy_gateway::backend_traffic_policy`) turns it into its own resource.

/// Why a retry happens, in Envoy's terms (`x-envoy-retry-on`, `x-envoy-retry-grpc-on`), which
/// the targets here use: Envoy Gateway's `retryOn.triggers` enumerates exactly these
/// (`api/v1alpha1/retry_types.go` `TriggerEnum`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum RetryOn {
    /// Any 5xx response, or none at all.
    FiveXx,
    /// A 502, 503 or 504 response.
    GatewayError,
    /// The connection broke or timed out at any point (also after the request was sent).
    Reset,
    /// The connection broke before the request's headers were sent.
    ResetBeforeRequest,
    /// Connecting failed or timed out.
    ConnectFailure,
    /// A 409 response.
    Retriable4xx,
    /// An HTTP/2 backend refused the stream before processing it.
    RefusedStream,
    /// The response has one of the retry's status codes.
    RetriableStatusCodes,
    /// gRPC statuses in the response headers.
    Cancelled,
    DeadlineExceeded,
    Internal,
    ResourceExhausted,
    Unavailable,
}

impl RetryOn {
    const ALL: [RetryOn; 13] = [
        RetryOn::FiveXx,
        RetryOn::GatewayError,
        RetryOn::Reset,
        RetryOn::ResetBeforeRequest,
        RetryOn::ConnectFailure,
        RetryOn::Retriable4xx,
        RetryOn::RefusedStream,
        RetryOn::RetriableStatusCodes,
        RetryOn::Cancelled,
        RetryOn::DeadlineExceeded,
        RetryOn::Internal,
        RetryOn::ResourceExhausted,
        RetryOn::Unavailable,
    ];

    /// The trigger's name in Envoy (and Envoy Gateway's `retryOn.triggers`).
    pub(crate) fn envoy_name(self) -> &'static str {
        match self {
            RetryOn::FiveXx => "5xx",
            RetryOn::GatewayError => "gateway-error",
            RetryOn::Reset => "reset",
            RetryOn::ResetBeforeRequest => "reset-before-request",
            RetryOn::ConnectFailure => "connect-failure",
            RetryOn::Retriable4xx => "retriable-4xx",
            RetryOn::RefusedStream => "refused-stream",
            RetryOn::RetriableStatusCodes => "retriable-status-codes",
            RetryOn::Cancelled => "cancelled",
            RetryOn::DeadlineExceeded => "deadline-exceeded",
            RetryOn::Internal => "internal",
            RetryOn::ResourceExhausted => "resource-exhausted",
            RetryOn::Unavailable => "unavailable",
        }
    }

    /// The trigger Envoy calls `name`.
    pub(crate) fn from_envoy_name(name: &str) -> Option<RetryOn> {
        RetryOn::ALL.into_iter().find(|t| t.envoy_name() == name)
    }
}

/// How a failed request was tried again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Retry {
    /// Attempts after the first (at least one).
    pub(crate) retries: u32,
    pub(crate) on: Vec<RetryOn>,
    /// The codes [`RetryOn::RetriableStatusCodes`] retries on.
    pub(crate) status_codes: Vec<u16>,
    /// What the source did, for the note (`failed connections (proxy_next_upstream error
    /// timeout, 3 tries)`).
    pub(crate) source: String,
    /// How long each try may take (`None`: no limit of its own).
    pub(crate) per_try_timeout: Option<String>,
    /// What the source did that the retry does not, for the note (empty: nothing).
    pub(crate) differences: Vec<String>,
}

/// How a backend endpoint was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Balancing {
    RoundRobin,
    /// The endpoint with the fewest requests in flight (nginx's `ewma` is the closest).
    LeastRequest,
    Random,
    /// The same client address goes to the same endpoint.
    HashSourceIp,
    /// The same value of this request header goes to the same endpoint.
    HashHeader(String),
    /// The same value of this query parameter goes to the same endpoint.
    HashQueryParam(String),
    /// The same value of this cookie goes to the same endpoint; with `ttl`, the proxy sets the
    /// cookie when the request has none (`0s`: a session cookie).
    HashCookie {
        name: String,
        ttl: Option<String>,
        /// Attributes of the cookie the proxy sets (`Path`, `SameSite`, `Domain`, `Secure`).
        attributes: Vec<(String, String)>,
    },
}

impl Balancing {
    /// What it is, for notes.
    pub(crate) fn describe(&self) -> String {
        match self {
            Balancing::RoundRobin => "round robin".into(),
            Balancing::LeastRequest => "least request".into(),
            Balancing::Random => "random choice".into(),
            Balancing::HashSourceIp => "a hash of the client address".into(),
            Balancing::HashHeader(h) => format!("a hash of header {h}"),
            Balancing::HashQueryParam(q) => format!("a hash of query parameter {q}"),
            Balancing::HashCookie { name, ttl, .. } => match ttl {
                Some(_) => format!("session affinity by cookie {name}"),
                None => format!("a hash of cookie {name}"),
            },
        }
    }
}

/// The balancing of a source's routes, and what the target does not keep of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BalancingPlan {
    pub(crate) balancing: Balancing,
    /// How long a new endpoint's share of requests grows linearly (round robin and least
    /// request only; Envoy's slow start).
    pub(crate) slow_start: Option<String>,
    /// What the source did, for the note (`EWMA (the ConfigMap's load-balance)`).
    pub(crate) source: String,
    pub(crate) differences: Vec<String>,
}

/// The unit of a request rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RateUnit {
    Second,
    Minute,
}

impl RateUnit {
    /// The unit as Envoy Gateway's `RateLimitUnit` spells it.
    pub(crate) fn envoy_name(self) -> &'static str {
        match self {
            RateUnit::Second => "Second",
            RateUnit::Minute => "Minute",
        }
    }

    /// The unit in a sentence.
    pub(crate) fn word(self) -> &'static str {
        match self {
            RateUnit::Second => "second",
            RateUnit::Minute => "minute",
        }
    }
}

/// How many requests each client address could send, counted by the proxy replica.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RateLimit {
    /// Requests per unit; a request must fit every one.
    pub(crate) limits: Vec<(u32, RateUnit)>,
    /// The client ranges (`address/bits`) whose addresses are each counted apart; together
    /// they cover every address the source limited (outside its allow-list).
    pub(crate) counted: Vec<String>,
    /// What the source did, for the note.
    pub(crate) source: String,
    /// What the target does differently, for the note.
    pub(crate) differences: Vec<String>,
}

/// How many connections and requests the proxy allowed towards one backend at once (Envoy's
/// circuit breaker thresholds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CircuitBreaker {
    pub(crate) max_connections: u32,
    pub(crate) max_pending_requests: u32,
    pub(crate) max_parallel_requests: u32,
    pub(crate) max_parallel_retries: u32,
    /// `None`: no limit.
    pub(crate) max_requests_per_connection: Option<u32>,
    /// What the source did, for the note.
    pub(crate) source: String,
}

impl CircuitBreaker {
    /// No limit at all (Envoy's largest thresholds): what ingress-nginx had per backend, and
    /// Istio's default.
    pub(crate) fn unlimited(source: impl Into<String>) -> CircuitBreaker {
        CircuitBreaker {
            max_connections: u32::MAX,
            max_pending_requests: u32::MAX,
            max_parallel_requests: u32::MAX,
            max_parallel_retries: u32::MAX,
            max_requests_per_connection: None,
            source: source.into(),
        }
    }
}

/// Endpoints taken out of the balancing after consecutive failures (Envoy's outlier
/// detection), with every threshold explicit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OutlierDetection {
    /// `None`: 5xx responses do not eject.
    pub(crate) consecutive_5xx: Option<u32>,
    /// `None`: 502/503/504 do not eject on their own.
    pub(crate) consecutive_gateway_errors: Option<u32>,
    pub(crate) interval: String,
    pub(crate) base_ejection_time: String,
    pub(crate) max_ejection_percent: u32,
    /// Connection failures counted apart from responses, ejecting after this many.
    pub(crate) local_origin_failures: Option<u32>,
    /// Below this share of healthy endpoints, every endpoint is used again (0: never).
    pub(crate) panic_threshold: u32,
}

/// What the source's per-backend policy (an Istio DestinationRule) adds for the routes beyond
/// the balancing, circuit breaker and connect timeout (which go to [`BackendSettings`]' own
/// fields).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DestinationSettings {
    /// Where they come from, for the note (`DestinationRule shop/cart`).
    pub(crate) source: String,
    pub(crate) outlier: Option<OutlierDetection>,
    pub(crate) idle_timeout: Option<String>,
    /// How long an upstream connection may live.
    pub(crate) max_connection_duration: Option<String>,
    /// The fields written, for the note.
    pub(crate) fields: Vec<String>,
    /// What the target does differently, for the note.
    pub(crate) differences: Vec<String>,
}

/// Everything the target's backend policy keeps for one source's routes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BackendSettings {
    /// Who had these settings, for notes (`ingress-nginx`, `Istio`).
    pub(crate) data_plane: &'static str,
    /// How long a forwarded request could sit with no byte either way (`None`: no limit).
    pub(crate) stream_idle: Option<String>,
    /// How long connecting to a backend could take, when it differs from the target's.
    pub(crate) connect: Option<String>,
    /// `None`: the source did not retry (nor does the target by default).
    pub(crate) retry: Option<Retry>,
    /// `None`: nothing the target must be told.
    pub(crate) balancing: Option<BalancingPlan>,
    /// `None`: no limit.
    pub(crate) rate_limit: Option<RateLimit>,
    /// `None`: the target's defaults are the source's.
    pub(crate) circuit_breaker: Option<CircuitBreaker>,
    /// What a per-backend policy of the source added (its balancing goes to `balancing`).
    pub(crate) destination: Option<DestinationSettings>,
}
