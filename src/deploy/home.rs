//! One home for a Gateway several units need.
//!
//! Ingress migration creates one Gateway per IngressClass, carried by the first Ingress of
//! the class, so it would be written into that Ingress's application. Where routes of other
//! units attach to it, deploying one of those units alone leaves its routes without a parent,
//! and removing the first application removes every application's Gateway. The Gateway then
//! moves to the unit that already deploys the class's shared infrastructure: the file of the
//! `IngressClass` object, else the ingress-nginx controller workload serving the class. Either
//! way every unit that depends on it is named (`deploy/shared-gateway`), with the ordering
//! its GitOps tool needs.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::Generated;
use crate::index::Index;
use crate::model::surrounding::Surrounding;
use crate::model::{SourceBody, ingress};
use crate::translated::SourceResult;

use super::{Unit, Units};

/// Where shared Gateways go and what is said about them; [`SharedGateways::apply`] carries it
/// out (kept apart so that a bug while deciding costs the decision, not the results).
#[derive(Debug, Default)]
pub struct SharedGateways {
    /// (result, generated object, the object position it moves to).
    moves: Vec<(usize, usize, usize)>,
    /// (result, diagnostic).
    notes: Vec<(usize, Diagnostic)>,
}

/// Decides, for Ingress-created Gateways that routes of other units need, whether they move to
/// the unit of their class's infrastructure (when the repository has one), and reports the
/// units that depend on a Gateway they do not deploy.
pub fn shared_gateways(index: &Index, units: &Units, results: &[SourceResult]) -> SharedGateways {
    // (namespace, name) of each route parent → the files of the routes' sources.
    let mut route_files: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for r in results.iter() {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        for g in &r.generated {
            for parent in gateway_parents(g) {
                route_files
                    .entry(parent)
                    .or_default()
                    .insert(obj.source.file.clone());
            }
        }
    }
    let mut moves: Vec<(usize, usize, usize)> = Vec::new(); // (result, generated, new object)
    let mut notes: Vec<(usize, Diagnostic)> = Vec::new();
    for (ri, r) in results.iter().enumerate() {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        let SourceBody::Ingress(ing) = &obj.body else {
            continue;
        };
        for (gi, g) in r.generated.iter().enumerate() {
            if !matches!(g, Generated::Gateway(_)) {
                continue;
            }
            let key = (g.namespace().to_string(), g.name().to_string());
            let Some(files) = route_files.get(&key) else {
                continue;
            };
            let here = &obj.source.file;
            if dependents(units, here, files).is_empty() {
                continue;
            }
            let class = ingress::class_of(ing).or_else(|| default_class(index));
            let home = class.as_deref().and_then(|c| infrastructure_of(index, c));
            let (home_file, moved_to) = match home {
                Some((pos, file)) if file != *here => (file, Some(pos)),
                _ => (here.clone(), None),
            };
            let waiting = dependents(units, &home_file, files);
            let deployed_by: Vec<String> = units
                .of_file(&home_file)
                .map(|u| u.name().to_string())
                .collect();
            let names: Vec<String> = waiting.iter().map(|u| describe(u)).collect();
            let order = ordering(&waiting, units.of_file(&home_file).collect());
            let message = match (&moved_to, &class) {
                (Some(_), Some(class)) => format!(
                    "Gateway {}/{} (IngressClass {class}) is written next to {home_file}, the class's shared infrastructure (deployed by {}), not into the first application using it; {} unit(s) attach routes to it without deploying it: {}. {order}",
                    key.0,
                    key.1,
                    crate::diagnostic::list_some(&deployed_by, 3),
                    waiting.len(),
                    crate::diagnostic::list_some(&names, 5),
                ),
                _ => format!(
                    "Gateway {}/{} for IngressClass {} is written into {home_file}, an application (deployed by {}), and {} other unit(s) attach routes to it without deploying it: {}. Deployed alone, their routes have no parent; deleting that application removes every application's Gateway. The repository has no IngressClass object or controller to home it with: move it to a unit of its own (e.g. a gateway-api/ directory) deployed before the applications. {order}",
                    key.0,
                    key.1,
                    class.as_deref().unwrap_or("(none)"),
                    crate::diagnostic::list_some(&deployed_by, 3),
                    waiting.len(),
                    crate::diagnostic::list_some(&names, 5),
                ),
            };
            notes.push((ri, Diagnostic::new(Code::DeploySharedGateway, message)));
            if let Some(pos) = moved_to {
                moves.push((ri, gi, pos));
            }
        }
    }
    SharedGateways { moves, notes }
}

impl SharedGateways {
    /// Moves the Gateways and adds the notes. `results` are ordered by object position and
    /// stay so (an object that had no result gets one).
    pub fn apply(self, results: &mut Vec<SourceResult>) {
        let SharedGateways { moves, notes } = self;
        for (ri, d) in notes {
            if let Some(r) = results.get_mut(ri) {
                r.notes.push(d);
            }
        }
        // Taken out first (last to first, so indices stay valid), then placed: placing may
        // insert results.
        let mut taken = Vec::new();
        for (ri, gi, pos) in moves.into_iter().rev() {
            if let Some(r) = results.get_mut(ri).filter(|r| gi < r.generated.len()) {
                taken.push((pos, r.generated.remove(gi)));
            }
        }
        for (pos, g) in taken.into_iter().rev() {
            crate::translated::place(results, pos, g);
        }
    }
}

/// The directory units (applied as they are by a GitOps object) that deploy some of
/// `route_files` but not `gateway_file`. Kustomize builds are left out: the render stage
/// translates each build as it renders, so a build whose routes need the Gateway gets one of
/// its own (`render/shared-object` says when two builds' copies differ). Manual directories
/// are left out too: nothing says they are applied apart (`kubectl apply -R` over the
/// repository is as likely).
fn dependents<'a>(
    units: &'a Units,
    gateway_file: &str,
    route_files: &BTreeSet<String>,
) -> Vec<&'a Unit> {
    let homes: BTreeSet<&str> = units
        .of_file(gateway_file)
        .map(|u| u.dir.as_str())
        .collect();
    let mut out: BTreeMap<&str, &Unit> = BTreeMap::new();
    for f in route_files {
        for u in units.of_file(f) {
            if u.kind() == super::UnitKind::Directory && !homes.contains(u.dir.as_str()) {
                out.insert(u.dir.as_str(), u);
            }
        }
    }
    out.into_values().collect()
}

/// `apps/shop (Application shop)`.
fn describe(u: &Unit) -> String {
    match u.deployed_by.first() {
        Some(d) => format!("{} ({})", u.name(), d.label()),
        None => format!("{} ({})", u.name(), u.kind().as_str()),
    }
}

/// What makes the home deploy first, for the GitOps tools that deploy the dependents, or
/// that the repository already orders it first.
fn ordering(waiting: &[&Unit], homes: Vec<&Unit>) -> String {
    let home_deployments: Vec<&super::Deployment> =
        homes.iter().flat_map(|u| u.deployed_by.iter()).collect();
    let dependents: Vec<&super::Deployment> =
        waiting.iter().flat_map(|u| u.deployed_by.iter()).collect();
    if !home_deployments.is_empty()
        && !dependents.is_empty()
        && waiting.iter().all(|u| !u.deployed_by.is_empty())
        && dependents
            .iter()
            .all(|d| ordered_after(d, &home_deployments))
    {
        return "The repository already deploys it first (Flux dependsOn or a lower Argo CD sync wave).".to_string();
    }
    let tools: BTreeSet<&str> = dependents
        .iter()
        .chain(home_deployments.iter())
        .map(|d| d.kind.as_str())
        .collect();
    let home_names: Vec<String> = home_deployments.iter().map(|d| d.label()).collect();
    let mut advice = Vec::new();
    if tools.contains("Kustomization") {
        advice.push(format!(
            "Flux: add dependsOn on {} to each dependent Kustomization",
            if home_names.is_empty() {
                "the Gateway's Kustomization".to_string()
            } else {
                crate::diagnostic::list_some(&home_names, 2)
            }
        ));
    }
    if tools.contains("Application") || tools.contains("ApplicationSet") {
        advice.push("Argo CD: give the Gateway's Application a lower argocd.argoproj.io/sync-wave than the dependents' (within the parent app) or sync it first".to_string());
    }
    if advice.is_empty() {
        "Apply the Gateway's unit before the dependents.".to_string()
    } else {
        format!("Order it first ({}).", advice.join("; "))
    }
}

/// Whether `dependent` waits for one of `homes`: a Flux Kustomization whose `dependsOn` names
/// a home Kustomization, or an Argo CD Application whose sync wave is above every home
/// Application's (waves order Applications synced by one parent, gitops-engine
/// `syncwaves.Wave`).
fn ordered_after(dependent: &super::Deployment, homes: &[&super::Deployment]) -> bool {
    match dependent.kind.as_str() {
        "Kustomization" => homes
            .iter()
            .any(|h| h.kind == "Kustomization" && dependent.depends_on.contains(&h.name)),
        "Application" | "ApplicationSet" => {
            let home_waves: Vec<i64> = homes
                .iter()
                .filter(|h| h.kind == "Application" || h.kind == "ApplicationSet")
                .filter_map(|h| h.wave)
                .collect();
            match (dependent.wave, home_waves.iter().max()) {
                (Some(w), Some(max)) => home_waves.len() == homes.len() && w > *max,
                _ => false,
            }
        }
        _ => false,
    }
}

/// The IngressClass marked default, which class-less Ingresses get.
fn default_class(index: &Index) -> Option<String> {
    index.objects.iter().find_map(|o| match &o.body {
        SourceBody::IngressClass(c) if c.is_default => Some(o.meta.name.clone()),
        _ => None,
    })
}

/// The object (position, file) that deploys a class's shared infrastructure: its IngressClass,
/// else the ingress-nginx controller workload when the repository installs exactly one (which
/// class a controller serves depends on flags and IngressClass objects; with one controller
/// there is nothing to choose).
fn infrastructure_of(index: &Index, class: &str) -> Option<(usize, String)> {
    let by_class = index
        .objects
        .iter()
        .position(|o| matches!(o.body, SourceBody::IngressClass(_)) && o.meta.name == class);
    let by_controller = || {
        let mut controllers = index.objects.iter().enumerate().filter(|(_, o)| {
            matches!(
                o.body,
                SourceBody::Surrounding(Surrounding::NginxController { .. })
            )
        });
        match (controllers.next(), controllers.next()) {
            (Some((pos, _)), None) => Some(pos),
            _ => None,
        }
    };
    let pos = by_class.or_else(by_controller)?;
    Some((pos, index.objects.get(pos)?.source.file.clone()))
}

/// The Gateways a generated route names as parents: `(namespace, name)`.
fn gateway_parents(g: &Generated) -> Vec<(String, String)> {
    let parents = match g {
        Generated::HttpRoute(o) => &o.spec.parent_refs,
        Generated::GrpcRoute(o) => &o.spec.parent_refs,
        Generated::TlsRoute(o) => &o.spec.parent_refs,
        Generated::TcpRoute(o) => &o.spec.parent_refs,
        _ => return Vec::new(),
    };
    parents
        .iter()
        .filter(|p| {
            p.group.as_deref().unwrap_or("gateway.networking.k8s.io") == "gateway.networking.k8s.io"
                && p.kind.as_deref().unwrap_or("Gateway") == "Gateway"
        })
        .map(|p| {
            (
                p.namespace
                    .clone()
                    .unwrap_or_else(|| g.namespace().to_string()),
                p.name.clone(),
            )
        })
        .collect()
}
