//! Istio `redirect` → the RequestRedirect filter. The status code is always written: Istio's
//! default is 301, Gateway API's 302.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpPathModifier, HttpRequestRedirectFilter};
use crate::model::istio::HttpRedirect;
use crate::translate::istio::unknown;

/// The redirect filter; `prefix_rewrite` is returned apart because it needs one rule per
/// PathPrefix match (CRD rule), like `rewrite.uri`.
pub(super) struct Redirect {
    pub filter: HttpRequestRedirectFilter,
    pub prefix_rewrite: Option<String>,
}

pub(super) fn translate(r: &HttpRedirect, path: &str, notes: &mut Vec<Diagnostic>) -> Redirect {
    unknown::report(&r.extra, path, notes);
    let mut f = HttpRequestRedirectFilter::default();
    if let Some(uri) = &r.uri {
        f.path = Some(HttpPathModifier::full_path(uri.clone()));
    }
    if let Some(auth) = &r.authority {
        let (host, port) = match auth.rsplit_once(':') {
            Some((h, p)) if p.parse::<u32>().is_ok() => (h, p.parse::<u32>().ok()),
            _ => (auth.as_str(), None),
        };
        let host = host.to_ascii_lowercase();
        if host.contains('*') || crate::translate::istio::hosts::hostname_problem(&host).is_some() {
            notes.push(
                Diagnostic::new(
                    Code::IstioRedirectAuthority,
                    format!("redirect authority '{auth}' is not a precise hostname; dropped"),
                )
                .at(format!("{path}.authority")),
            );
        } else {
            f.hostname = Some(host);
            if port.is_some() && r.port.is_none() {
                f.port = port;
            }
        }
    }
    if let Some(port) = r.port {
        f.port = Some(port);
    }
    if let Some(scheme) = &r.scheme {
        let s = scheme.to_ascii_lowercase();
        if s == "http" || s == "https" {
            f.scheme = Some(s);
        } else {
            notes.push(
                Diagnostic::new(
                    Code::IstioRedirectScheme,
                    format!("redirect scheme '{scheme}' is not http or https; dropped"),
                )
                .at(format!("{path}.scheme")),
            );
        }
    }
    match r.derive_port.as_deref() {
        Some("FROM_PROTOCOL_DEFAULT") => {
            f.port = None;
            if f.scheme.is_none() {
                notes.push(Diagnostic::new(Code::IstioRedirectDerivePort, "derivePort FROM_PROTOCOL_DEFAULT without scheme: Gateway API then keeps the listener port instead of the scheme's default port").at(format!("{path}.derivePort")));
            }
        }
        Some("FROM_REQUEST_PORT") => {
            f.port = None;
            if f.scheme.is_some() {
                notes.push(Diagnostic::new(Code::IstioRedirectDerivePort, "derivePort FROM_REQUEST_PORT with a scheme: Gateway API uses the scheme's default port instead of the request port").at(format!("{path}.derivePort")));
            }
        }
        Some(other) => notes.push(
            Diagnostic::new(
                Code::IstioRedirectDerivePortUnknown,
                format!("derivePort '{other}' is unknown; ignored"),
            )
            .at(format!("{path}.derivePort")),
        ),
        None => {}
    }
    let code = r.redirect_code.unwrap_or(301);
    f.status_code = Some(if [301, 302, 303, 307, 308].contains(&code) {
        code
    } else {
        // What Istio did with it (validation.go `validateHTTPRedirect`, route.go
        // `ApplyRedirect`): a code outside 3xx is refused with the whole VirtualService;
        // another 3xx leaves the route without action, which Envoy refuses with the
        // port's route configuration. Neither ever answered with the code.
        let istio = if (300..=399).contains(&code) {
            "Istio wrote a route without action for it, which Envoy refuses with every route of the port"
        } else {
            "Istio's admission refuses the whole VirtualService for it, so it never routed anything"
        };
        notes.push(Diagnostic::new(Code::IstioRedirectCode, format!("redirect code {code} is not one Gateway API allows (301, 302, 303, 307, 308); 301 written instead ({istio})")).at(format!("{path}.redirectCode")));
        301
    });
    if r.redirect_code.is_none() {
        notes.push(Diagnostic::new(Code::IstioRedirectCodeDefault, "redirect code written explicitly as 301 (Istio's default; Gateway API would default to 302)").at(path.to_string()));
    }
    Redirect {
        filter: f,
        prefix_rewrite: r.prefix_rewrite.clone(),
    }
}
