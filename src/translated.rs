//! What translation made of each source object: the data the translator hands to the stages
//! after it (validation, equivalence, planning). It lives outside `translate` so that the
//! equivalence check, which must not share the translator's logic, can read the results
//! without depending on it.

use crate::diagnostic::Diagnostic;
use crate::gwapi::Generated;

/// What translation made of one source object.
#[derive(Debug, Clone, Default)]
pub struct SourceResult {
    /// Position of the source object in `Index::objects`.
    pub object: usize,
    pub generated: Vec<Generated>,
    pub notes: Vec<Diagnostic>,
    /// ReferenceGrants the generated objects need; merged by `translate::translate`.
    pub grants: Vec<GrantRequest>,
    /// Set when the object was deliberately not translated (e.g. a kustomize patch).
    pub skipped: Option<String>,
    /// Hosts the validator's attachment prediction found isolated away from a generated
    /// route's listener (`attach/listener-isolation`), as data for the equivalence check.
    pub isolated_hosts: std::collections::BTreeSet<String>,
    /// Generated objects that belong with another source object (its position in
    /// `Index::objects`) and are written next to it: a copy of an Istio policy retargeted to
    /// the new Gateway goes with the policy, so only what deploys the policy deploys the
    /// copy. `translate::translate` moves them there.
    pub elsewhere: Vec<(usize, Generated)>,
    /// Generated Gateways (namespace, name) whose traffic an access control of this source
    /// checked that the target cannot carry, with why: every route attached to them is
    /// written without backends (`translate::target::close_gateways`).
    pub closed_gateways: Vec<(String, String, String)>,
}

impl SourceResult {
    pub fn new(object: usize) -> Self {
        SourceResult {
            object,
            ..Default::default()
        }
    }
}

/// Adds `g` to the result of the object at `position` in `results` (ordered by object
/// position), creating that result in order when the object had none.
pub fn place(results: &mut Vec<SourceResult>, position: usize, g: Generated) {
    let at = match results.binary_search_by_key(&position, |r| r.object) {
        Ok(i) => i,
        Err(i) => {
            results.insert(i, SourceResult::new(position));
            i
        }
    };
    results[at].generated.push(g);
}

/// "Objects of `from_kind` in `from_namespace` refer to `to_kind` `to_name` in `to_namespace`":
/// Gateway API needs a ReferenceGrant in `to_namespace` for that.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GrantRequest {
    /// `HTTPRoute`, `TLSRoute`, `Gateway`, ...
    pub from_kind: String,
    pub from_namespace: String,
    /// `""` for core (`Service`, `Secret`).
    pub to_group: String,
    pub to_kind: String,
    pub to_namespace: String,
    pub to_name: String,
}

impl GrantRequest {
    /// The API group of `from_kind`: Envoy Gateway's for its policies (a SecurityPolicy's
    /// Secret or Service in another namespace needs a grant naming that group), else
    /// Gateway API's.
    pub fn from_group(&self) -> &'static str {
        match self.from_kind.as_str() {
            "SecurityPolicy" | "BackendTrafficPolicy" | "ClientTrafficPolicy" => {
                "gateway.envoyproxy.io"
            }
            _ => crate::gwapi::GROUP,
        }
    }
}
