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

use super::{Deployment, Unit, Units};

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
///
/// With several worlds (`worlds.rs`), a Gateway's routes are those of the worlds that hold
/// it, never an alternative's route to a Gateway of the same name; one note per Gateway names
/// the dependents of every such world.
pub fn shared_gateways(
    index: &Index,
    units: &Units,
    results: &[SourceResult],
    worlds: &[crate::index::Subset],
) -> SharedGateways {
    // (result, generated Gateway) → the files of the routes attached to it.
    let mut route_files: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
    let mut collect = |member: &dyn Fn(usize) -> bool| {
        let mut by_parent: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for r in results.iter().filter(|r| member(r.object)) {
            let Some(obj) = index.objects.get(r.object) else {
                continue;
            };
            for g in &r.generated {
                for parent in gateway_parents(g) {
                    by_parent
                        .entry(parent)
                        .or_default()
                        .insert(obj.source.file.clone());
                }
            }
        }
        for (ri, r) in results.iter().enumerate() {
            if !member(r.object) {
                continue;
            }
            for (gi, g) in r.generated.iter().enumerate() {
                let key = (g.namespace().to_string(), g.name().to_string());
                if let (Generated::Gateway(_), Some(files)) = (g, by_parent.get(&key)) {
                    route_files
                        .entry((ri, gi))
                        .or_default()
                        .extend(files.iter().cloned());
                }
            }
        }
    };
    if worlds.is_empty() {
        collect(&|_| true);
    } else {
        for w in worlds {
            collect(&|object| w.local(object).is_some());
        }
    }
    decide(index, units, results, &route_files)
}

/// Decides for each Ingress-created Gateway with the files of the routes attached to it.
fn decide(
    index: &Index,
    units: &Units,
    results: &[SourceResult],
    route_files: &BTreeMap<(usize, usize), BTreeSet<String>>,
) -> SharedGateways {
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
            let Some(files) = route_files.get(&(ri, gi)) else {
                continue;
            };
            let here = &obj.source.file;
            let is_directory = |k: super::UnitKind| k == super::UnitKind::Directory;
            if dependents(units, here, files, is_directory).is_empty() {
                continue;
            }
            let class = ingress::class_of(ing).or_else(|| default_class(index));
            let home = class
                .as_deref()
                .and_then(|c| infrastructure_of(index, units, c));
            let (home_file, moved_to) = match home {
                Some((pos, file)) if file != *here => (file, Some(pos)),
                _ => (here.clone(), None),
            };
            // Every unit that needs the Gateway without deploying it is named, whatever its
            // kind.
            let waiting = dependents(units, &home_file, files, |_| true);
            let deployed_by: Vec<String> = units
                .of_file(&home_file)
                .map(|u| u.name().to_string())
                .collect();
            let names: Vec<String> = waiting.iter().map(|u| describe(u)).collect();
            let order = ordering(&waiting, units.of_file(&home_file).collect(), units);
            let applied = units
                .of_file(&home_file)
                .any(|u| u.kind() != super::UnitKind::Manual);
            let message = match (&moved_to, &class) {
                (Some(_), Some(class)) => format!(
                    "Gateway {}/{} (IngressClass {class}) is written next to {home_file}, the class's shared infrastructure (deployed by {}), not into the first application using it; {} unit(s) attach routes to it without deploying it: {}. {order}",
                    key.0,
                    key.1,
                    crate::diagnostic::list_some(&deployed_by, 3),
                    waiting.len(),
                    names.join(", "),
                ),
                _ => format!(
                    "Gateway {}/{} for IngressClass {} is written into {home_file}, {}, and {} other unit(s) attach routes to it without deploying it: {}. Deployed alone, their routes have no parent; deleting that application removes every application's Gateway. No IngressClass object or ingress controller that a GitOps object or build deploys is there to home it with: move it to a unit of its own (e.g. a gateway-api/ directory) deployed before the applications. {order}",
                    key.0,
                    key.1,
                    class.as_deref().unwrap_or("(none)"),
                    if applied {
                        format!(
                            "an application (deployed by {})",
                            crate::diagnostic::list_some(&deployed_by, 3)
                        )
                    } else {
                        "which no GitOps object or build deploys".to_string()
                    },
                    waiting.len(),
                    names.join(", "),
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

/// The units that deploy some of `route_files` but not `gateway_file`, of the kinds `of_kind`
/// admits. A unit that shares a deployment with one of the Gateway's units (two `sources` of
/// one Argo CD Application) is deployed with it and is no dependent.
fn dependents<'a>(
    units: &'a Units,
    gateway_file: &str,
    route_files: &BTreeSet<String>,
    of_kind: fn(super::UnitKind) -> bool,
) -> Vec<&'a Unit> {
    let homes: Vec<&Unit> = units.of_file(gateway_file).collect();
    let together = |u: &Unit| {
        homes.iter().any(|h| {
            h.dir == u.dir
                || h.deployed_by.iter().any(|d| {
                    u.deployed_by
                        .iter()
                        .any(|e| e.file == d.file && e.name == d.name)
                })
        })
    };
    let mut out: BTreeMap<&str, &Unit> = BTreeMap::new();
    for f in route_files {
        for u in units.of_file(f) {
            if of_kind(u.kind()) && !together(u) {
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
/// that the repository already orders it first; dependents on another cluster need a Gateway
/// of their own there.
fn ordering(waiting: &[&Unit], homes: Vec<&Unit>, units: &Units) -> String {
    let home_deployments: Vec<&Deployment> =
        homes.iter().flat_map(|u| u.deployed_by.iter()).collect();
    let elsewhere: Vec<String> = waiting
        .iter()
        .filter(|u| homes.iter().all(|h| !Units::may_share_cluster(u, h)))
        .map(|u| u.name().to_string())
        .collect();
    let mut parts = Vec::new();
    if !elsewhere.is_empty() {
        parts.push(format!(
            "units deploying to another cluster than the Gateway's unit need a Gateway of their own there: {}",
            crate::diagnostic::list_some(&elsewhere, 3)
        ));
    }
    let same_cluster: Vec<&&Unit> = waiting
        .iter()
        .filter(|u| !elsewhere.iter().any(|e| e == u.name()))
        .collect();
    if same_cluster.is_empty() {
        return format!("{}.", parts.join("; "));
    }
    let ordered = !home_deployments.is_empty()
        && same_cluster.iter().all(|u| {
            !u.deployed_by.is_empty()
                && u.deployed_by
                    .iter()
                    .all(|d| ordered_after(d, &home_deployments, units))
        });
    if ordered {
        parts.push("the repository already deploys it first (Flux dependsOn, or a lower Argo CD sync wave under the same parent Application)".to_string());
        return format!("{}.", capitalised(&parts.join("; ")));
    }
    let home_tools: BTreeSet<&str> = home_deployments.iter().map(|d| tool(&d.kind)).collect();
    let dependent_tools: BTreeSet<&str> = same_cluster
        .iter()
        .flat_map(|u| u.deployed_by.iter().map(|d| tool(&d.kind)))
        .collect();
    let home_names: Vec<String> = home_deployments.iter().map(|d| d.label()).collect();
    let mut advice = Vec::new();
    if dependent_tools.contains("Flux") {
        if home_tools.contains("Flux") {
            advice.push(format!(
                "Flux: add dependsOn on {} to each dependent Kustomization",
                crate::diagnostic::list_some(&home_names, 2)
            ));
        } else {
            advice.push("Flux: dependsOn names only Flux Kustomizations, so deploy the Gateway from a Kustomization the dependents depend on".to_string());
        }
    }
    if dependent_tools.contains("Argo CD") {
        if home_tools.contains("Argo CD") {
            advice.push("Argo CD: give the Gateway's Application a lower argocd.argoproj.io/sync-wave than the dependents' under the same parent Application (waves order only one parent's sync)".to_string());
        } else {
            advice.push("Argo CD: sync waves order only the Applications of one parent, so deploy the Gateway from an Application under the dependents' parent, in a lower wave".to_string());
        }
    }
    if same_cluster.iter().any(|u| u.deployed_by.is_empty()) || advice.is_empty() {
        advice.push(
            "apply the Gateway's unit before the units applied by hand or by kustomize alone"
                .to_string(),
        );
    }
    parts.push(format!("order it first ({})", advice.join("; ")));
    format!("{}.", capitalised(&parts.join("; ")))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The GitOps tool a deployment kind belongs to.
fn tool(kind: &str) -> &'static str {
    match kind {
        "Kustomization" => "Flux",
        _ => "Argo CD",
    }
}

/// Whether `dependent` waits for one of `homes`: a Flux Kustomization whose `dependsOn`
/// reaches a home Kustomization (directly or through others, kustomize-controller
/// `checkDependencies` on each), or an Argo CD Application in a higher sync wave than every
/// home Application under the same parent (the unit that deploys both Application objects;
/// gitops-engine `syncwaves.Wave` orders the resources of one sync only).
fn ordered_after(dependent: &Deployment, homes: &[&Deployment], units: &Units) -> bool {
    match dependent.kind.as_str() {
        "Kustomization" => {
            let targets: BTreeSet<&str> = homes
                .iter()
                .filter(|h| h.kind == "Kustomization")
                .map(|h| h.name.as_str())
                .collect();
            // dependsOn of every Flux Kustomization in the repository, by name.
            let graph: BTreeMap<&str, &Vec<String>> = units
                .units
                .iter()
                .flat_map(|u| u.deployed_by.iter())
                .filter(|d| d.kind == "Kustomization")
                .map(|d| (d.name.as_str(), &d.depends_on))
                .collect();
            let mut seen: BTreeSet<&str> = BTreeSet::new();
            let mut stack: Vec<&str> = dependent.depends_on.iter().map(String::as_str).collect();
            while let Some(n) = stack.pop() {
                if targets.contains(n) {
                    return true;
                }
                if seen.insert(n)
                    && let Some(next) = graph.get(n)
                {
                    stack.extend(next.iter().map(String::as_str));
                }
            }
            false
        }
        "Application" | "ApplicationSet" => {
            let parents = |d: &Deployment| -> BTreeSet<String> {
                units.of_file(&d.file).map(|u| u.dir.clone()).collect()
            };
            let mine = parents(dependent);
            homes.iter().all(|h| {
                (h.kind == "Application" || h.kind == "ApplicationSet")
                    && !mine.is_disjoint(&parents(h))
                    && matches!((dependent.wave, h.wave), (Some(w), Some(hw)) if w > hw)
            })
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

/// The object (position, file) that deploys a class's shared infrastructure, among objects a
/// GitOps object or a kustomize build deploys (an IngressClass in an example nothing deploys
/// is no home): its IngressClass; else the ingress-nginx controller workload started with
/// `--ingress-class=<class>` or `--controller-class=<its IngressClass's controller>`; else
/// the one controller workload the repository deploys.
fn infrastructure_of(index: &Index, units: &Units, class: &str) -> Option<(usize, String)> {
    let deployed = |pos: &usize| {
        index.objects.get(*pos).is_some_and(|o| {
            units
                .of_file(&o.source.file)
                .any(|u| u.kind() != super::UnitKind::Manual)
        })
    };
    let class_object = index
        .objects
        .iter()
        .position(|o| matches!(o.body, SourceBody::IngressClass(_)) && o.meta.name == class);
    let controller_name = class_object.and_then(|p| match &index.objects.get(p)?.body {
        SourceBody::IngressClass(c) => c.controller.clone(),
        _ => None,
    });
    let controllers: Vec<(usize, &Vec<String>)> = index
        .objects
        .iter()
        .enumerate()
        .filter_map(|(i, o)| match &o.body {
            SourceBody::Surrounding(Surrounding::NginxController { args }) => Some((i, args)),
            _ => None,
        })
        .filter(|(i, _)| deployed(i))
        .collect();
    let flag = crate::controllers::flag_value;
    let by_flag = controllers.iter().find_map(|(i, args)| {
        let serves = flag(args, "--ingress-class") == Some(class)
            || (controller_name.is_some()
                && flag(args, "--controller-class") == controller_name.as_deref());
        serves.then_some(*i)
    });
    let only_controller = (controllers.len() == 1).then(|| controllers[0].0);
    let pos = class_object
        .filter(deployed)
        .or(by_flag)
        .or(only_controller)?;
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
