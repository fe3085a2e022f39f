//! `fault`: Gateway API has no fault injection. What Istio does with it decides the
//! translation (istio/istio `pilot/pkg/networking/core/route/route.go` `TranslateFault`; the
//! shares come from the behaviour model, [`fault_shares`]):
//!
//! - a fault that touches no request (no `percentage`, 0 %, an abort without status, an
//!   exponential delay Istio does not build) changed nothing: nothing to translate;
//! - an abort of every request is a refusal: the rule is kept without backends or filters
//!   (Gateway API answers 500), never turned into a route to the backend (fail closed);
//! - anything else (a partial abort, a delay) is dropped with an error.

use crate::diagnostic::{Code, Diagnostic};
use crate::semantics::istio::{AbortWith, fault_shares};
use serde_json::Value;

/// What the rule does with the entry's fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Effect {
    /// No fault, or one that never fires.
    None,
    /// Every request is aborted: the rule refuses.
    RefuseAll,
    /// Dropped with an error: some requests were aborted or delayed.
    Dropped,
}

/// Whether the fault refuses every request the entry matches.
pub(super) fn refuses_all(fault: Option<&Value>) -> bool {
    fault.is_some_and(|f| fault_shares(f).abort_percent >= 100.0)
}

pub(super) fn effect(fault: Option<&Value>, path: &str, notes: &mut Vec<Diagnostic>) -> Effect {
    let Some(fault) = fault else {
        return Effect::None;
    };
    let field = format!("{path}.fault");
    let shares = fault_shares(fault);
    if shares.abort_percent >= 100.0 {
        let (code, message) = match shares.abort {
            Some(AbortWith::Http(500)) => (
                Code::IstioFaultAbortAll,
                "fault aborts every request with 500: written as a rule without backends, which Gateway API answers with 500 too".to_string(),
            ),
            Some(AbortWith::Http(status)) => (
                Code::IstioFaultAbortFailClosed,
                format!("fault aborts every request with {status}: written as a rule without backends, so the requests are still refused, with 500 instead of {status}"),
            ),
            _ => (
                Code::IstioFaultAbortFailClosed,
                "fault aborts every request with a gRPC status: written as a rule without backends, so the requests are still refused, with HTTP 500 instead of the gRPC status".to_string(),
            ),
        };
        notes.push(Diagnostic::new(code, message).at(field));
        return Effect::RefuseAll;
    }
    if shares.abort_percent <= 0.0 && shares.delay_percent <= 0.0 {
        notes.push(
            Diagnostic::new(
                Code::IstioFaultNoEffect,
                "fault touches no request in Istio (no percentage, 0 %, or nothing Istio builds): nothing to translate",
            )
            .at(field),
        );
        return Effect::None;
    }
    let mut parts = Vec::new();
    if shares.abort_percent > 0.0 {
        parts.push(format!("{} % of requests aborted", shares.abort_percent));
    }
    if shares.delay_percent > 0.0 {
        parts.push(format!("{} % delayed", shares.delay_percent));
    }
    notes.push(
        Diagnostic::new(
            Code::IstioFaultInjection,
            format!(
                "fault injection ({}) has no Gateway API equivalent; dropped: requests are no longer delayed or aborted",
                parts.join(", ")
            ),
        )
        .at(field),
    );
    Effect::Dropped
}
