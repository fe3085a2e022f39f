//! Worlds: the source objects that can be in one cluster at the same time.
//!
//! A repository often holds alternatives: examples, tests, or stacks that each define the
//! same Gateway, Service or Ingress under the same name. Nothing deploys two of them together,
//! so neither is a duplicate of the other and neither routes the other's traffic. Translating
//! and comparing them as one world invents collisions (`istio/duplicate-object`, renamed
//! routes) and traffic changes (a VirtualService of one example bound to the other's Gateway).
//!
//! Files a GitOps object's filter leaves out of a directory it deploys (Argo CD
//! `directory.exclude`, Flux `.sourceignore`) never reach the cluster with it either.
//!
//! Two files are *apart* when no unit deploys both and no two units deploying them can reach
//! one cluster together: units nothing deploys (kustomize roots, manual directories) are each
//! applied on their own; GitOps-deployed units are together when they may share a cluster
//! ([`Units::may_share_cluster`]). Objects of one identity (kind, namespace, name) from files
//! that are pairwise apart are alternatives.
//!
//! Each unit holding an alternative or a left-out file is a world: its objects and their
//! context among the other objects (the same namespaces, the Istio Gateways its
//! VirtualServices name and the VirtualServices naming its Gateways, Ingresses sharing a host,
//! classes, namespaces and controller configuration). The remaining objects are one world
//! more. Every object is *owned* by one world, whose translation, attachment and routing check
//! are the ones kept for it: its unit's world (the first, for a file several such units hold),
//! else the remaining objects' world, except a VirtualService bound to an alternative's
//! Gateway, which is owned by the first world holding that Gateway. Without alternatives and
//! left-out files the repository is one world and nothing changes.

use std::collections::{BTreeMap, BTreeSet};

use crate::index::Index;

use super::Units;

/// One world, by object position in the index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct World {
    /// Its objects (owned and context), ascending.
    pub positions: Vec<usize>,
    /// The objects whose results come from this world, ascending.
    pub owned: Vec<usize>,
    /// The objects judged here (attachment, routing check) besides the owned ones: shared
    /// VirtualServices bound to this alternative's Gateway, which every alternative judges.
    pub bound: Vec<usize>,
}

/// The worlds to translate and compare in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Worlds {
    /// Empty when the whole index is one world.
    pub worlds: Vec<World>,
}

impl Worlds {
    /// Whether the index is one world (no alternatives).
    pub fn is_single(&self) -> bool {
        self.worlds.len() < 2
    }
}

/// The worlds of the index under the deploy units.
pub fn worlds(index: &Index, units: &Units) -> Worlds {
    // Identities defined by more than one file.
    let mut by_identity: BTreeMap<(String, &str, &str), Vec<usize>> = BTreeMap::new();
    for (position, o) in index.objects.iter().enumerate() {
        if index.is_patch_file(&o.source.file) {
            continue;
        }
        by_identity
            .entry((o.group_kind(), o.namespace.as_str(), o.name()))
            .or_default()
            .push(position);
    }
    let unit_positions = |file: &str| -> Vec<usize> { units.positions_of(file).to_vec() };
    let together = |a: usize, b: usize| -> bool {
        if a == b {
            return true;
        }
        match (units.units.get(a), units.units.get(b)) {
            (Some(x), Some(y)) => {
                !x.deployed_by.is_empty()
                    && !y.deployed_by.is_empty()
                    && Units::may_share_cluster(x, y)
            }
            _ => true,
        }
    };
    let mut conflicted: BTreeSet<usize> = BTreeSet::new();
    // Per unit, the units holding an alternative of one of its objects.
    let mut rivals: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for positions in by_identity.values() {
        let files: BTreeSet<&str> = positions
            .iter()
            .filter_map(|&p| index.objects.get(p))
            .map(|o| o.source.file.as_str())
            .collect();
        if files.len() < 2 {
            continue;
        }
        let unit_sets: Vec<Vec<usize>> = files.iter().map(|f| unit_positions(f)).collect();
        if pairwise_apart(&unit_sets, &together) {
            for (i, a) in unit_sets.iter().enumerate() {
                for (j, b) in unit_sets.iter().enumerate() {
                    if i != j {
                        for &x in a {
                            rivals.entry(x).or_default().extend(b.iter().copied());
                        }
                    }
                }
            }
            conflicted.extend(unit_sets.into_iter().flatten());
        }
    }
    // Units GitOps objects deploy to clusters they never share never meet, whatever they
    // hold (two applications with differently named Ingresses for one host, on east and
    // west).
    let clusters: Vec<Option<BTreeSet<String>>> =
        units.units.iter().map(super::Unit::clusters).collect();
    for (a, ca) in clusters.iter().enumerate() {
        let Some(ca) = ca else { continue };
        for (b, cb) in clusters.iter().enumerate().skip(a + 1) {
            if let Some(cb) = cb
                && ca.is_disjoint(cb)
            {
                rivals.entry(a).or_default().insert(b);
                rivals.entry(b).or_default().insert(a);
                conflicted.insert(a);
                conflicted.insert(b);
            }
        }
    }
    // GitOps objects of one kind and name defined in files that are apart (alternative
    // stacks each holding `Application backstage`): only one can exist in a cluster, so the
    // units they deploy are alternatives too.
    let mut deployers: BTreeMap<(&str, &str), BTreeMap<&str, BTreeSet<usize>>> = BTreeMap::new();
    for (u, unit) in units.units.iter().enumerate() {
        for d in &unit.deployed_by {
            deployers
                .entry((d.kind.as_str(), d.name.as_str()))
                .or_default()
                .entry(d.file.as_str())
                .or_default()
                .insert(u);
        }
    }
    for by_file in deployers.values().filter(|f| f.len() > 1) {
        let files: Vec<&str> = by_file.keys().copied().collect();
        let file_units: Vec<Vec<usize>> = files.iter().map(|f| unit_positions(f)).collect();
        if !pairwise_apart(&file_units, &together) {
            continue;
        }
        let deployed: Vec<&BTreeSet<usize>> = by_file.values().collect();
        for (i, a) in deployed.iter().enumerate() {
            for (j, b) in deployed.iter().enumerate() {
                if i != j {
                    for &x in a.iter() {
                        rivals.entry(x).or_default().extend(b.iter().copied());
                    }
                }
            }
            conflicted.extend(a.iter().copied());
        }
    }
    // Files a deployer's filter leaves out (Argo CD `exclude`, Flux `.sourceignore`): what
    // the cluster gets is the rest, so they never share a world with the deployed files.
    let left_out: BTreeSet<usize> = units
        .excluded
        .iter()
        .flat_map(|f| units.positions_of(f).iter().copied())
        .filter(|u| !conflicted.contains(u))
        .collect();
    if conflicted.is_empty() && left_out.is_empty() {
        return Worlds::default();
    }
    let special: BTreeSet<usize> = conflicted.union(&left_out).copied().collect();
    // The objects of each special unit (alternatives' units first), and the rest.
    let mut per_unit: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut rest = Vec::new();
    for (position, o) in index.objects.iter().enumerate() {
        let mine: Vec<usize> = units
            .positions_of(&o.source.file)
            .iter()
            .copied()
            .filter(|u| special.contains(u))
            .collect();
        if mine.is_empty() {
            rest.push(position);
        }
        for u in mine {
            per_unit.entry(u).or_default().push(position);
        }
    }
    let (alternatives, extras): (Vec<_>, Vec<_>) = per_unit
        .into_iter()
        .partition(|(u, _)| conflicted.contains(u));
    let context = Context::of(index);
    let mut owner: BTreeMap<usize, usize> = BTreeMap::new();
    let mut out = Worlds::default();
    let mut seen: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    let alternative_count = alternatives.len();
    let no_rivals = BTreeSet::new();
    let worlds = alternatives
        .into_iter()
        .chain(extras)
        .map(|(u, members)| (Some(u), members))
        .chain(std::iter::once((None, rest)));
    for (i, (unit, members)) in worlds.enumerate() {
        if members.is_empty() {
            continue;
        }
        // Context never comes from a rival's files (this world's alternatives) nor from files
        // nothing deploys because a filter leaves them out; the remaining objects' world
        // takes no traffic-taking object (Ingress, VirtualService) of an alternative.
        let rival_units = unit.and_then(|u| rivals.get(&u)).unwrap_or(&no_rivals);
        let units_of = |p: usize| {
            index
                .objects
                .get(p)
                .map(|o| units.positions_of(&o.source.file))
                .unwrap_or_default()
        };
        let excluded = |p: usize| {
            let of = units_of(p);
            if of.is_empty() {
                return false;
            }
            let all_in = |set: &BTreeSet<usize>| of.iter().all(|u| set.contains(u));
            let takes_traffic = index.objects.get(p).is_some_and(|o| {
                matches!(
                    o.body,
                    crate::model::SourceBody::Ingress(_)
                        | crate::model::SourceBody::VirtualService(_)
                )
            });
            all_in(rival_units)
                || all_in(&left_out)
                || (unit.is_none() && takes_traffic && all_in(&special))
        };
        let around = context.around(index, &members, &excluded);
        let mut positions: Vec<usize> = members.iter().chain(&around.all).copied().collect();
        positions.sort_unstable();
        positions.dedup();
        // The same objects as an earlier world: that world owns these members too.
        let w = match seen.get(&positions) {
            Some(&w) => w,
            None => {
                seen.insert(positions.clone(), out.worlds.len());
                out.worlds.push(World {
                    positions,
                    owned: Vec::new(),
                    bound: Vec::new(),
                });
                out.worlds.len() - 1
            }
        };
        // A deployed VirtualService bound to an alternative's Gateway is judged with it; one
        // bound to a left-out file's Gateway is not (that Gateway never deploys).
        let bound: &[usize] = if unit.is_some() && i < alternative_count {
            &around.bound
        } else {
            &[]
        };
        if let Some(world) = out.worlds.get_mut(w) {
            world.bound.extend(bound.iter().copied());
            world.bound.sort_unstable();
            world.bound.dedup();
        }
        let owned_here: Vec<usize> = members
            .iter()
            .chain(bound)
            .copied()
            .filter(|p| !owner.contains_key(p))
            .collect();
        for p in owned_here {
            owner.insert(p, w);
        }
    }
    for (p, w) in owner {
        if let Some(world) = out.worlds.get_mut(w) {
            world.owned.push(p);
        }
    }
    out
}

/// Whether the files whose units are `unit_sets` are pairwise apart: no unit of one is
/// together with a unit of another. A file nothing deploys (never the case after
/// `assign_files`) counts as together.
fn pairwise_apart(unit_sets: &[Vec<usize>], together: &dyn Fn(usize, usize) -> bool) -> bool {
    unit_sets.iter().all(|s| !s.is_empty())
        && unit_sets.iter().enumerate().all(|(i, a)| {
            unit_sets[i + 1..]
                .iter()
                .all(|b| a.iter().all(|&x| b.iter().all(|&y| !together(x, y))))
        })
}

/// What a world's objects need around them, looked up among all objects.
struct Context {
    by_namespace: BTreeMap<String, Vec<usize>>,
    /// Objects every world needs: IngressClasses, Namespaces, controller and mesh
    /// configuration.
    everywhere: Vec<usize>,
    /// Istio Gateways by `namespace/name`, VirtualServices by the Gateways they name,
    /// Ingresses by host.
    gateways: BTreeMap<String, Vec<usize>>,
    bound_to: BTreeMap<String, Vec<usize>>,
    by_host: BTreeMap<String, Vec<usize>>,
}

/// The context of one world: every object to include, and those it owns (VirtualServices
/// bound to its Gateways).
struct Around {
    all: Vec<usize>,
    bound: Vec<usize>,
}

impl Context {
    fn of(index: &Index) -> Context {
        use crate::model::SourceBody;
        use crate::model::surrounding::Surrounding;
        let mut c = Context {
            by_namespace: BTreeMap::new(),
            everywhere: Vec::new(),
            gateways: BTreeMap::new(),
            bound_to: BTreeMap::new(),
            by_host: BTreeMap::new(),
        };
        for (p, o) in index.objects.iter().enumerate() {
            if index.is_patch_file(&o.source.file) {
                continue;
            }
            c.by_namespace
                .entry(o.namespace.clone())
                .or_default()
                .push(p);
            match &o.body {
                SourceBody::IngressClass(_) | SourceBody::Namespace => c.everywhere.push(p),
                SourceBody::Surrounding(
                    Surrounding::NginxController { .. }
                    | Surrounding::NginxHelmRelease { .. }
                    | Surrounding::IstioMeshConfig { .. },
                ) => c.everywhere.push(p),
                SourceBody::IstioGateway(_) => {
                    c.gateways
                        .entry(format!("{}/{}", o.namespace, o.name()))
                        .or_default()
                        .push(p);
                }
                SourceBody::VirtualService(vs) => {
                    for g in &vs.gateways {
                        c.bound_to
                            .entry(gateway_key(g, &o.namespace))
                            .or_default()
                            .push(p);
                    }
                }
                SourceBody::Ingress(ing) => {
                    for h in ingress_hosts(ing) {
                        c.by_host.entry(h).or_default().push(p);
                    }
                }
                _ => {}
            }
        }
        c
    }

    /// The context of `members` (ascending), leaving out `excluded` objects (rivals'), the
    /// members' own identities, and all but the first object of any identity.
    fn around(&self, index: &Index, members: &[usize], excluded: &dyn Fn(usize) -> bool) -> Around {
        use crate::model::SourceBody;
        let is_member = |p: usize| members.binary_search(&p).is_ok();
        let mut namespaces: BTreeSet<String> = BTreeSet::new();
        let mut picked: BTreeSet<usize> = self.everywhere.iter().copied().collect();
        let mut bound = Vec::new();
        for &p in members {
            let Some(o) = index.objects.get(p) else {
                continue;
            };
            namespaces.insert(o.namespace.clone());
            match &o.body {
                SourceBody::VirtualService(vs) => {
                    for g in &vs.gateways {
                        let key = gateway_key(g, &o.namespace);
                        picked.extend(self.gateways.get(&key).into_iter().flatten().copied());
                    }
                }
                SourceBody::IstioGateway(_) => {
                    let key = format!("{}/{}", o.namespace, o.name());
                    for &vs in self.bound_to.get(&key).into_iter().flatten() {
                        if !is_member(vs) && !excluded(vs) {
                            picked.insert(vs);
                            bound.push(vs);
                        }
                    }
                }
                SourceBody::Ingress(ing) => {
                    for h in ingress_hosts(ing) {
                        picked.extend(self.by_host.get(&h).into_iter().flatten().copied());
                    }
                }
                _ => {}
            }
        }
        picked.retain(|&p| !is_member(p) && !excluded(p));
        // What the picked objects need in their own namespaces (a bound VirtualService's
        // Services), then everything else in the world's namespaces.
        for &p in &picked {
            if let Some(o) = index.objects.get(p) {
                namespaces.insert(o.namespace.clone());
            }
        }
        for ns in &namespaces {
            picked.extend(
                self.by_namespace
                    .get(ns)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|&p| !is_member(p) && !excluded(p)),
            );
        }
        // One translated object (Istio, Ingress) per identity: the members', else the first,
        // so that copies in other units are not taken for duplicates. Every definition of
        // a Service or Secret stays: a backend's port is checked against all of them.
        let identity = |p: usize| {
            index
                .objects
                .get(p)
                .map(|o| (o.group_kind(), o.namespace.clone(), o.name().to_string()))
        };
        let translated = |p: usize| index.objects.get(p).is_some_and(|o| o.body.is_translated());
        let mut taken: BTreeSet<(String, String, String)> =
            members.iter().filter_map(|&p| identity(p)).collect();
        let all: Vec<usize> = picked
            .into_iter()
            .filter(|&p| !translated(p) || identity(p).is_some_and(|id| taken.insert(id)))
            .collect();
        bound.retain(|p| all.binary_search(p).is_ok());
        Around { all, bound }
    }
}

/// `namespace/name` of a VirtualService's `gateways` entry (`name` alone is in the
/// VirtualService's namespace; `mesh` names no Gateway).
fn gateway_key(entry: &str, namespace: &str) -> String {
    match entry.split_once('/') {
        Some(_) => entry.to_string(),
        None => format!("{namespace}/{entry}"),
    }
}

fn ingress_hosts(ing: &crate::model::ingress::Ingress) -> Vec<String> {
    ing.spec
        .as_ref()
        .and_then(|s| s.rules.as_ref())
        .into_iter()
        .flatten()
        .filter_map(|r| r.host.clone())
        .collect()
}
