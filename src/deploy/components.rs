//! Components no build renders that patch an object the migration replaces.
//!
//! A library repository ships kustomize Components for its users to include (sourcegraph's
//! `components/`, a README saying "add `components/tls` to your overlay"). A Component that
//! patches an Ingress or an Istio object keeps patching that object after the migration, which
//! the generated Gateway API objects replace: a build that includes it later gets the patch on
//! an object it no longer deploys (or none at all), and the generated route misses it (its
//! hostnames, its TLS). Builds of this repository that include a Component are rendered and
//! get per-build fixes; one that no build includes cannot be, so it is named here.

use std::collections::BTreeSet;

use crate::diagnostic::{Code, Diagnostic};
use crate::scan::Scan;
use crate::translated::SourceResult;

use super::Units;

/// `deploy/component-unbuilt` for every Component that no unit reaches and whose patches name
/// a translated object, at the Component's kustomization.
pub fn unbuilt_components(scan: &Scan, units: &Units, results: &[SourceResult]) -> Vec<Diagnostic> {
    let index = &scan.index;
    let reached: BTreeSet<&str> = units
        .builds()
        .filter(|u| u.kustomization.is_some())
        .flat_map(|u| super::reached_by(scan, u))
        .map(|k| k.dir.as_str())
        .collect();
    let mut out = Vec::new();
    for k in index
        .kustomizations
        .iter()
        .filter(|k| k.is_component && !reached.contains(k.dir.as_str()))
    {
        // (kind, name) the Component patches: targets it names, and the documents of its
        // patch files.
        let mut targets: Vec<(String, Option<String>)> = k.patch_targets.clone();
        let patch_files: BTreeSet<String> = k.patches.iter().filter_map(|p| k.resolve(p)).collect();
        for o in &index.objects {
            if patch_files.contains(&o.source.file) {
                targets.push((o.kind.clone(), Some(o.meta.name.clone())));
            }
        }
        let mut missed: BTreeSet<String> = BTreeSet::new();
        for (kind, name) in &targets {
            for r in results {
                let Some(o) = index.objects.get(r.object) else {
                    continue;
                };
                if !o.body.is_translated()
                    || o.kind != *kind
                    || name.as_ref().is_some_and(|n| *n != o.meta.name)
                    || patch_files.contains(&o.source.file)
                {
                    continue;
                }
                for g in &r.generated {
                    missed.insert(format!(
                        "{} {}/{} (from {kind} {})",
                        g.kind(),
                        g.namespace(),
                        g.name(),
                        o.meta.name
                    ));
                }
            }
        }
        if missed.is_empty() {
            continue;
        }
        let missed: Vec<String> = missed.into_iter().collect();
        let kinds: BTreeSet<&str> = targets.iter().map(|(k, _)| k.as_str()).collect();
        out.push(
            Diagnostic::new(
                Code::DeployComponentUnbuilt,
                format!(
                    "Component {} patches {} that the migration replaces, and no build of the repository includes it, so its effect on the generated objects is neither rendered nor patched: a build that includes it later patches an object it no longer deploys, and {} miss the change; port the patch to the generated objects (or add a build that includes the Component, which is then rendered and fixed)",
                    k.dir,
                    kinds.into_iter().collect::<Vec<_>>().join(", "),
                    crate::diagnostic::list_some(&missed, 4)
                ),
            )
            .in_file(k.file.clone(), 1),
        );
    }
    out
}
