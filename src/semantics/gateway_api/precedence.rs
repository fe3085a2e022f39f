//! Which match wins when several match one request. The specification
//! (kubernetes-sigs/gateway-api `apis/v1/httproute_types.go`, `HTTPRouteRule.Matches`) orders
//! matches across all rules of the routes that compete by: an `Exact` path, then the
//! `PathPrefix` with the most characters, then a method match, then the most header matches,
//! then the most query parameter matches; remaining ties go to the oldest route, then the
//! route first by `namespace/name`, then the first rule and match in list order.
//! `RegularExpression` paths are ranked as each implementation chooses ([`Profile`]).

use super::Profile;

/// A path match as precedence sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathKind {
    Exact,
    Prefix,
    Regex,
}

/// What of a match takes part in ranking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchShape {
    pub path_kind: PathKind,
    pub path: String,
    pub method: bool,
    pub headers: usize,
    pub query: usize,
}

/// A key that sorts larger-first. Each profile's key is a fact of that implementation:
///
/// - `Istio`: istio/istio `pilot/pkg/config/kube/gateway/conversion.go` `sortHTTPRoutes`:
///   Exact, then PathPrefix by length, then RegularExpression (by length), then method,
///   header count, query count.
/// - `EnvoyGateway`: envoyproxy/gateway `internal/gatewayapi/sort.go` (`XdsIRRoutes.Less`,
///   read at 09743fcc): Exact, then RegularExpression, then PathPrefix, each by path
///   length, then the number of header matches (the method is a `:method` header match in
///   its IR, so it counts as one), then query parameters; equal keys keep route order.
pub fn key(m: &MatchShape, profile: Profile) -> (u8, usize, bool, usize, usize, usize) {
    match profile {
        Profile::Istio | Profile::Generic => {
            let (kind, len) = match m.path_kind {
                PathKind::Exact => (3, m.path.len()),
                // Istio compares prefixes without their trailing `/` (`/foo/` ties `/foo`),
                // as Gateway API's element-wise PathPrefix treats them alike.
                PathKind::Prefix => (2, m.path.trim_end_matches('/').len().max(1)),
                PathKind::Regex => (1, m.path.len()),
            };
            (kind, len, m.method, m.headers, m.query, 0)
        }
        Profile::EnvoyGateway => {
            let kind = match m.path_kind {
                PathKind::Exact => 3,
                PathKind::Regex => 2,
                PathKind::Prefix => 1,
            };
            (
                kind,
                m.path.len(),
                false,
                m.headers + usize::from(m.method),
                m.query,
                0,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(path_kind: PathKind, path: &str) -> MatchShape {
        MatchShape {
            path_kind,
            path: path.into(),
            method: false,
            headers: 0,
            query: 0,
        }
    }

    #[test]
    fn regular_expressions_rank_per_implementation() {
        let regex = shape(PathKind::Regex, "/v[0-9]");
        let prefix = shape(PathKind::Prefix, "/v");
        let exact = shape(PathKind::Exact, "/v1");
        assert!(key(&prefix, Profile::Istio) > key(&regex, Profile::Istio));
        assert!(key(&regex, Profile::EnvoyGateway) > key(&prefix, Profile::EnvoyGateway));
        assert!(key(&exact, Profile::EnvoyGateway) > key(&regex, Profile::EnvoyGateway));
    }

    // httproute_types.go: path outranks method, method outranks headers, headers query.
    // Conformance `httproute-method-matching`: a method match outranks a header match, in
    // both profiles (Envoy Gateway counts the method as a header: a tie, kept in rule order).
    #[test]
    fn path_then_method_then_headers_then_query() {
        let mut long = shape(PathKind::Prefix, "/api/v1");
        let mut short = shape(PathKind::Prefix, "/api");
        short.method = true;
        short.headers = 3;
        assert!(key(&long, Profile::Istio) > key(&short, Profile::Istio));
        long.path = "/api".into();
        assert!(key(&short, Profile::Istio) > key(&long, Profile::Istio));
        let mut headers = shape(PathKind::Prefix, "/");
        headers.headers = 1;
        let mut query = shape(PathKind::Prefix, "/");
        query.query = 2;
        assert!(key(&headers, Profile::Istio) > key(&query, Profile::Istio));
    }
}
