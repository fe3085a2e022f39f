//! Worlds: the source objects that can be in one cluster at the same time.
//!
//! A repository often holds alternatives: examples, tests, or stacks that each define the
//! same Gateway, Service or Ingress under the same name. Nothing deploys two of them together,
//! so neither is a duplicate of the other and neither routes the other's traffic. Translating
//! and comparing them as one world invents collisions (`istio/duplicate-object`, renamed
//! routes) and traffic changes (a VirtualService of one example bound to the other's Gateway).
//!
//! Files a GitOps object's filter leaves out of a directory it deploys (Argo CD
//! `directory.exclude`, Flux `.sourceignore`) never reach the cluster with it either: the
//! unit of such files is a world of its own, alone, and the deployed files are translated
//! without them.
//!
//! Two files are *apart* when no unit deploys both and no two units deploying them can reach
//! one cluster together: units nothing deploys (kustomize roots, manual directories) are each
//! applied on their own; GitOps-deployed units are together when they may share a cluster
//! ([`Units::may_share_cluster`]). Objects of one identity (kind, namespace, name) from files
//! that are pairwise apart are alternatives. Each unit holding an alternative is a world of
//! its own: its objects and every object of the units holding none. Without alternatives the
//! repository is one world and nothing changes.

use std::collections::{BTreeMap, BTreeSet};

use crate::index::Index;

use super::Units;

/// The worlds to translate and compare in, by object position in the index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Worlds {
    /// Each world's object positions, ascending; empty when the whole index is one world.
    pub worlds: Vec<Vec<usize>>,
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
        // A file nothing deploys (never the case after `assign_files`) counts as together.
        let apart = unit_sets.iter().all(|s| !s.is_empty())
            && unit_sets.iter().enumerate().all(|(i, a)| {
                unit_sets[i + 1..]
                    .iter()
                    .all(|b| a.iter().all(|&x| b.iter().all(|&y| !together(x, y))))
            });
        if apart {
            conflicted.extend(unit_sets.into_iter().flatten());
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
    // Objects of units holding no alternative (and no left-out file) belong to every world.
    let mut rest = Vec::new();
    let mut per_unit: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (position, o) in index.objects.iter().enumerate() {
        let mine: Vec<usize> = units
            .positions_of(&o.source.file)
            .iter()
            .copied()
            .filter(|u| conflicted.contains(u) || left_out.contains(u))
            .collect();
        if mine.is_empty() {
            rest.push(position);
        }
        for u in mine {
            per_unit.entry(u).or_default().push(position);
        }
    }
    // An object several worlds hold takes its translation from the first: the alternatives'
    // worlds, else the deployed files alone, before any world of left-out files.
    let mut ordered: Vec<Vec<usize>> = Vec::new();
    if conflicted.is_empty() {
        ordered.push(Vec::new());
    }
    let (alternatives, extras): (Vec<_>, Vec<_>) = per_unit
        .into_iter()
        .partition(|(u, _)| conflicted.contains(u));
    ordered.extend(alternatives.into_iter().map(|(_, p)| p));
    let alternative_worlds = ordered.len();
    ordered.extend(extras.into_iter().map(|(_, p)| p));
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    let mut out = Worlds::default();
    for (i, mut positions) in ordered.into_iter().enumerate() {
        // A left-out file's world is its unit alone: nothing deployed is its context.
        if i < alternative_worlds {
            positions.extend(rest.iter().copied());
        }
        positions.sort_unstable();
        positions.dedup();
        if seen.insert(positions.clone()) {
            out.worlds.push(positions);
        }
    }
    out
}
