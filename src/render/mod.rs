//! Render-aware migration: what reaches a cluster is each kustomize build, not the files.
//!
//! ```text
//! discover roots → refuse unsafe builds → render "before" (the repository as it is)
//!   → translate each build's rendered objects (final namespaces, patched fields, substituted vars)
//!   → render "after the base plan" → compare → fixes in each build root (patches, objects)
//!   → render "after everything" → verify: each build's Gateway API objects equal its translation
//! ```
//!
//! The base translation (one file next to each source) is planned as before; this stage adds,
//! per build root, `gateway-migrate.build-patches.yaml` (strategic-merge patches that replace
//! the `spec` of generated objects the build renders differently, and delete the ones it must
//! not deploy) and `gateway-migrate.build-objects.yaml` (objects only that build needs), both
//! listed in the root's kustomization. Generated objects a build's `namespace:` would move are
//! written where a build deploys that namespace, or into a file no kustomization includes.
//!
//! Everything here runs kustomize on a scratch copy; the repository is only read.

mod build;
pub mod discover;
mod fixes;
pub mod kustomize;
pub mod remote;
mod verify;

use build::{BuildTranslation, reaches_translatable, translatable_dirs, translate_build};
use fixes::{
    BuildFixes, Expected, fix_edits, load_written, place_separately, plan_fixes,
    retry_without_moved,
};
use verify::verify;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::config::Config;
use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::model::{SourceObject, SourceRef};
use crate::plan::{EditAction, EditKind, EditPlan, FileEdit};
use crate::scan::Scan;

pub use discover::Build;
pub use kustomize::Renderer;

/// File names of the per-build fixes.
pub const PATCHES_FILE: &str = "gateway-migrate.build-patches.yaml";
pub const OBJECTS_FILE: &str = "gateway-migrate.build-objects.yaml";
/// Prefix of the files deleting one object from a build:
/// `gateway-migrate.build-delete.<kind>.<name>.yaml`.
pub const DELETE_PREFIX: &str = "gateway-migrate.build-delete.";
/// Prefix of files holding objects no build can deploy (they belong in a namespace no build
/// deploys into): `gateway-migrate.apply-separately.<namespace>.yaml`.
pub const SEPARATE_PREFIX: &str = "gateway-migrate.apply-separately.";

/// Whether `path` names a file this stage writes (patches, deletes, added objects, objects to
/// apply separately).
fn is_fix_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == PATCHES_FILE
        || name == OBJECTS_FILE
        || name.starts_with(DELETE_PREFIX)
        || name.starts_with(SEPARATE_PREFIX)
}

/// Whether a kustomization entry names a fix this stage lists in a build root (every fix file
/// but the ones to apply separately, which no kustomization includes). Stripped from the
/// scratch copy before the "before" renders, so the comparison does not depend on an
/// earlier run's fixes.
fn is_listed_fix(path: &str) -> bool {
    is_fix_file(path)
        && !path
            .rsplit('/')
            .next()
            .unwrap_or(path)
            .starts_with(SEPARATE_PREFIX)
}

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// `false`: translate files only (`--no-render`).
    pub enabled: bool,
    /// The kustomize to run; `None` when none was found (files only, said once).
    pub renderer: Option<Renderer>,
    /// Fetch remote bases (`--allow-remote`); refused otherwise.
    pub allow_remote: bool,
    /// Vendored remote bases (`--remote-cache DIR`, as `kustomize localize` lays them out):
    /// a build whose remote entries the cache holds renders offline from the copies.
    pub remote_cache: Option<remote::RemoteCache>,
    /// Compare routing per build (off with `--no-equivalence`).
    pub equivalence: bool,
    /// Where rendered builds are cached by content hash (`None`: no cache).
    pub cache_dir: Option<PathBuf>,
}

/// What happened to one build.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum BuildStatus {
    /// Rendered after apply; its Gateway API objects equal its translation.
    Verified,
    /// Rendered after apply; some objects differ (each difference is an error diagnostic).
    Differs(usize),
    /// Nothing to translate in it (no Istio or Ingress object reaches it).
    NothingToTranslate,
    /// Not rendered: unsafe input (remote, outside the repository, Helm, plugins).
    Refused,
    /// kustomize failed; the files were translated as they are.
    Failed,
    /// A plain directory (no kustomization): its files are what it deploys.
    Directory,
    /// Rendering is off or no kustomize was found.
    NotRendered,
}

impl BuildStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            BuildStatus::Verified => "verified",
            BuildStatus::Differs(_) => "differs",
            BuildStatus::NothingToTranslate => "nothing to translate",
            BuildStatus::Refused => "refused",
            BuildStatus::Failed => "render failed",
            BuildStatus::Directory => "directory",
            BuildStatus::NotRendered => "not rendered",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BuildReport {
    pub build: Build,
    pub status: BuildStatus,
}

/// What the render stage adds to a run.
#[derive(Debug, Default)]
pub struct RenderOutcome {
    pub builds: Vec<BuildReport>,
    /// Diagnostics of this stage and the per-build attachment predictions, placed.
    pub notes: Vec<Diagnostic>,
    /// Source objects (by position in the index) rendered by at least one build: their
    /// attachment predictions come from the builds, not from the files.
    pub covered: BTreeSet<usize>,
    /// Covered objects some build could not judge (it references objects outside the build):
    /// the predictions from the files are kept for them too.
    pub partially_known: BTreeSet<usize>,
    /// Routing equivalence findings of the builds, placed, with their probe counts; they
    /// replace the files' findings for covered objects.
    pub equivalence: Vec<(Diagnostic, usize)>,
    /// The builds' probe counts, summed.
    pub equivalence_summary: crate::equivalence::Summary,
    /// The fixes for the builds (patches and object files in build roots), and where they
    /// place generated objects: the plan takes them with [`RenderOutcome::add_fixes_to`].
    fixes: Vec<FileEdit>,
    placements: Vec<(fixes::Placement, String)>,
}

impl RenderOutcome {
    /// Adds the builds' fixes to `plan` (the stage itself only reads the plan, so a stage
    /// that fails leaves it as it was).
    pub fn add_fixes_to(&mut self, plan: &mut EditPlan) {
        fixes::merge_edits(plan, std::mem::take(&mut self.fixes));
        plan.placements.extend(std::mem::take(&mut self.placements));
    }
}

/// One rendered object: final JSON (origin annotation removed) and its source file.
#[derive(Debug, Clone)]
struct Rendered {
    value: Value,
    origin: Option<String>,
}

/// A build's rendered state.
type Render = Result<Vec<Rendered>, String>;

/// Runs the render stage: discovers builds, renders them, plans fixes over `plan`, verifies.
pub fn run(
    (root, scan, config): (&Path, &Scan, &Config),
    units: &crate::deploy::Units,
    base_results: &[crate::translate::SourceResult],
    plan: &EditPlan,
    options: &RenderOptions,
    progress: &crate::progress::Progress,
) -> RenderOutcome {
    let builds: Vec<Build> = units.builds().cloned().collect();
    let mut notes = Vec::new();
    let mut out = RenderOutcome::default();
    let renderer = match (&options.renderer, options.enabled) {
        (Some(r), true) => r,
        (missing, enabled) => {
            if enabled && missing.is_none() && builds.iter().any(|b| b.kustomization.is_some()) {
                notes.push(Diagnostic::new(
                    Code::RenderNoKustomize,
                    "neither kustomize nor kubectl was found (pass --kustomize PATH): kustomize builds are not rendered, so overlays, components, patches and replacements are not followed and the files are translated as they are",
                ));
            }
            // With `--no-render` every build is "not rendered"; without kustomize, a plain
            // directory is still what it deploys.
            out.builds = builds
                .into_iter()
                .map(|b| BuildReport {
                    status: if enabled && b.kustomization.is_none() {
                        BuildStatus::Directory
                    } else {
                        BuildStatus::NotRendered
                    },
                    build: b,
                })
                .collect();
            out.notes = notes;
            return out;
        }
    };

    // Decide per build: render, or why not.
    let mut statuses: BTreeMap<String, BuildStatus> = BTreeMap::new();
    let mut to_render: Vec<&Build> = Vec::new();
    // The remote entries of the builds to render that the remote cache holds.
    let mut vendored: Vec<discover::Vendored> = Vec::new();
    let translatable = translatable_dirs(scan);
    for b in &builds {
        if b.kustomization.is_none() {
            statuses.insert(b.dir.clone(), BuildStatus::Directory);
            continue;
        }
        let refused = discover::refusals(
            root,
            scan,
            b,
            options.allow_remote,
            options.remote_cache.as_ref(),
        );
        if !refused.is_empty() {
            notes.extend(refused);
            notes.extend(refused_and_broken(scan, units, b, base_results));
            statuses.insert(b.dir.clone(), BuildStatus::Refused);
            continue;
        }
        // What a cached remote base holds is not known before rendering: such a build is
        // rendered.
        let cached: Vec<discover::Vendored> = options
            .remote_cache
            .as_ref()
            .map(|c| discover::vendored(scan, b, c))
            .unwrap_or_default();
        if cached.is_empty() && !reaches_translatable(scan, b, &translatable) {
            statuses.insert(b.dir.clone(), BuildStatus::NothingToTranslate);
            continue;
        }
        vendored.extend(cached);
        to_render.push(b);
    }

    if to_render.is_empty() {
        out.builds = report(builds, statuses);
        out.notes = notes;
        return out;
    }
    // The kustomization directories each build reaches: what the scratch copy holds and what
    // a build's cache key covers.
    let reached_dirs: BTreeMap<String, Vec<String>> = to_render
        .iter()
        .map(|b| {
            let dirs = discover::reached(scan, b)
                .iter()
                .map(|k| k.dir.clone())
                .collect();
            (b.dir.clone(), dirs)
        })
        .collect();
    let copied: BTreeSet<String> = reached_dirs.values().flatten().cloned().collect();
    let mut scratch = match kustomize::Scratch::copy_of(root, &copied) {
        Ok(s) => s,
        Err(e) => {
            notes.push(Diagnostic::new(
                Code::RenderFailed,
                format!("builds not rendered: {e}"),
            ));
            for b in &to_render {
                statuses.insert(b.dir.clone(), BuildStatus::Failed);
            }
            out.builds = report(builds, statuses);
            out.notes = notes;
            return out;
        }
    };
    // Remote entries the remote cache holds point at copies inside the scratch copy.
    if let Some(cache) = &options.remote_cache {
        vendored.sort();
        vendored.dedup();
        for v in &vendored {
            if let Err(e) = scratch.vendor(v, cache) {
                notes.push(
                    Diagnostic::new(
                        Code::RenderFailed,
                        format!(
                            "the remote cache's copy of {} ({}) cannot be used: {e}",
                            v.entry,
                            v.cached.path()
                        ),
                    )
                    .in_file(v.kustomization.clone(), 1),
                );
            }
        }
    }
    let dirs_of =
        |b: &Build| -> Vec<String> { reached_dirs.get(&b.dir).cloned().unwrap_or_default() };

    // 1. Before: the repository as it is (this tool's earlier fixes left out).
    let ctx = Renders {
        scratch: &scratch,
        config,
        renderer,
        options,
        dirs_of: &dirs_of,
        memo: std::sync::Mutex::new(BTreeMap::new()),
        progress,
        deadline: std::time::Instant::now() + renderer.run_budget,
        given_up: std::sync::Mutex::new(BTreeMap::new()),
        running: (std::sync::Mutex::new(0), std::sync::Condvar::new()),
    };
    // The root kustomizations as each stage renders them.
    let mut current: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for b in &to_render {
        if let Some(k) = &b.kustomization
            && let Ok(bytes) = scan.read(root, k)
        {
            current.insert(k.clone(), bytes.into_owned());
        }
    }
    let mut before = render_all(
        &ctx,
        &to_render,
        false,
        &current,
        Some("rendering kustomize builds"),
    );
    // A build this tool fixed earlier may only render with its fixes (a namespace transform
    // that made generated objects collide): its sources render the same either way.
    let failed: Vec<usize> = (0..before.len()).filter(|&i| before[i].is_err()).collect();
    if !failed.is_empty() {
        let retry: Vec<&Build> = failed.iter().map(|&i| to_render[i]).collect();
        for (i, r) in failed.into_iter().zip(render_all(
            &ctx,
            &retry,
            true,
            &current,
            Some("rendering builds again with their fixes"),
        )) {
            if r.is_ok() {
                before[i] = r;
            }
        }
    }
    let mut rendered: Vec<(&Build, Vec<Rendered>)> = Vec::new();
    for (b, r) in to_render.iter().zip(before) {
        match r {
            Ok(objects) => rendered.push((b, objects)),
            Err(message) => {
                notes.push(
                    Diagnostic::new(
                        Code::RenderFailed,
                        format!(
                            "kustomize cannot build {}: {message}; its files are translated as they are",
                            b.name()
                        ),
                    )
                    .in_file(b.kustomization.clone().unwrap_or_default(), 1),
                );
                statuses.insert(b.dir.clone(), BuildStatus::Failed);
            }
        }
    }

    // 2. Translate each build.
    let generated_paths: BTreeSet<String> = plan
        .placements
        .values()
        .cloned()
        .chain(scan.generated_files.iter().map(|g| g.path.clone()))
        .collect();
    let positions: BTreeMap<(&str, usize), usize> = scan
        .index
        .objects
        .iter()
        .enumerate()
        .map(|(i, o)| ((o.source.file.as_str(), o.source.document), i))
        .collect();
    let mut by_file: BTreeMap<&str, Vec<&SourceObject>> = BTreeMap::new();
    for o in &scan.index.objects {
        by_file.entry(o.source.file.as_str()).or_default().push(o);
    }
    let attempts: Vec<Result<BuildTranslation, Box<Diagnostic>>> = rendered
        .par_iter()
        .map(|(b, objects)| {
            crate::isolate::catch(&format!("translating the build {}", b.name()), || {
                crate::isolate::test_trigger("build", b.dir.as_bytes());
                translate_build(
                    (scan, &by_file),
                    config,
                    b,
                    objects,
                    &generated_paths,
                    options.equivalence,
                )
            })
        })
        .collect();
    // A build whose translation panicked is reported on its kustomization and left out of
    // everything after (its files are still translated as they are).
    let mut translations: Vec<BuildTranslation> = Vec::new();
    let mut kept: Vec<(&Build, Vec<Rendered>)> = Vec::new();
    for (attempt, (b, objects)) in attempts.into_iter().zip(rendered) {
        match attempt {
            Ok(t) => {
                translations.push(t);
                kept.push((b, objects));
            }
            Err(d) => {
                notes.push((*d).in_file(b.kustomization.clone().unwrap_or_default(), 1));
                statuses.insert(b.dir.clone(), BuildStatus::Failed);
            }
        }
    }
    let rendered = kept;
    // What the files' translation already says about each source: (code, field).
    let said: BTreeSet<(usize, Code, Option<String>)> = base_results
        .iter()
        .flat_map(|r| {
            r.notes
                .iter()
                .map(move |d| (r.object, d.code, d.location.field.clone()))
        })
        .collect();
    for (t, (b, _)) in translations.iter().zip(&rendered) {
        for (source, mut d) in t.notes.iter().cloned() {
            let Some(&pos) = positions.get(&(source.file.as_str(), source.document)) else {
                continue;
            };
            out.covered.insert(pos);
            // Translation notes the files already gave are not repeated per build; a build
            // that translates differently (an overlay's host no Gateway serves, a patched
            // field) says so, naming the build.
            if d.code.family() != "attach"
                && said.contains(&(pos, d.code, d.location.field.clone()))
            {
                continue;
            }
            // A build sees only its own objects: a parent or backend another build deploys
            // is "unknown" to it. The repository-wide prediction from the files stands then.
            if d.code.id().ends_with("-unknown") {
                out.partially_known.insert(pos);
                continue;
            }
            d.message = format!("[build {}] {}", b.name(), d.message);
            d.place(pos, &source.file, source.document, source.line);
            notes.push(d);
        }
        for source in &t.sources {
            if let Some(&pos) = positions.get(&(source.file.as_str(), source.document)) {
                out.covered.insert(pos);
            }
        }
        for (source, d, probes) in &t.equivalence {
            let Some(&pos) = positions.get(&(source.file.as_str(), source.document)) else {
                continue;
            };
            let mut d = d.clone();
            d.message = format!("[build {}] {}", b.name(), d.message);
            d.place(pos, &source.file, source.document, source.line);
            out.equivalence.push((d, *probes));
        }
        let s = &t.equivalence_summary;
        out.equivalence_summary.probes += s.probes;
        out.equivalence_summary.unmodelled += s.unmodelled;
    }

    // 3. After the base plan, without fixes.
    for e in &plan.edits {
        if let Err(e) = scratch.write(&e.path, &e.contents) {
            notes.push(Diagnostic::new(
                Code::RenderFailed,
                format!("builds not verified: {e}"),
            ));
        }
    }
    let rendered_builds: Vec<&Build> = rendered.iter().map(|(b, _)| *b).collect();
    for e in &plan.edits {
        if current.contains_key(&e.path) {
            current.insert(e.path.clone(), e.contents.clone());
        }
    }
    let after_base = render_all(
        &ctx,
        &rendered_builds,
        false,
        &current,
        Some("rendering builds as they will be after apply"),
    );

    // 4. Fixes per build.
    // Build roots as their GitOps objects build them (a Flux `namePrefix` names the added
    // objects too; an Argo CD `kustomize.namespace` moves them).
    let effective: Vec<crate::model::kustomize::Kustomization> = builds
        .iter()
        .filter_map(|b| {
            // A Flux `targetNamespace` is the build's namespace transform too.
            let target = b
                .destination_namespace()
                .filter(|(_, overrides)| *overrides);
            let o = b.build_options();
            if o.is_none() && target.is_none() {
                return None;
            }
            let mut k = scan.index.kustomization_in(&b.dir)?.clone();
            if let Some(o) = o {
                o.apply_to(&mut k);
            }
            if let Some((ns, _)) = target {
                k.namespace = Some(ns);
            }
            Some(k)
        })
        .collect();
    let mut kustomizations: BTreeMap<&str, &crate::model::kustomize::Kustomization> = scan
        .index
        .kustomizations
        .iter()
        .map(|k| (k.file.as_str(), k))
        .collect();
    for k in &effective {
        kustomizations.insert(k.file.as_str(), k);
    }
    let written = load_written(root, scan, plan);
    let mut fixes: BTreeMap<String, BuildFixes> = BTreeMap::new();
    let mut expectations: Vec<(&Build, Vec<Expected>)> = Vec::new();
    for ((b, t), after) in rendered_builds.iter().zip(&translations).zip(after_base) {
        let k = b
            .kustomization
            .as_deref()
            .and_then(|f| kustomizations.get(f))
            .copied();
        // A namespace transform can make two generated objects of one name collide (two
        // ReferenceGrants `gateway-migrate-from-<ns>` in different namespaces both moved
        // into the build's): kustomize refuses the build. The objects it would move are
        // deleted from the build up front (and placed where they belong), then it renders.
        let after = match after {
            Err(_) => {
                let retried = k.and_then(|k| {
                    retry_without_moved(&ctx, (b, k), &written, &mut current, &mut fixes)
                });
                match retried {
                    Some(Ok(a)) => Ok(a),
                    Some(Err(e)) => Err(e),
                    None => after,
                }
            }
            ok => ok,
        };
        let after = match after {
            Ok(a) => a,
            Err(message) => {
                notes.push(
                    Diagnostic::new(
                        Code::RenderBuildDiffers,
                        format!(
                            "build {} no longer renders once the generated files are listed: {message}",
                            b.name()
                        ),
                    )
                    .in_file(b.kustomization.clone().unwrap_or_default(), 1),
                );
                statuses.insert(b.dir.clone(), BuildStatus::Differs(1));
                continue;
            }
        };
        let expected = plan_fixes(
            b,
            k,
            t,
            &after,
            (&generated_paths, &written),
            &config.default_namespace,
            &mut fixes,
        );
        expectations.push((b, expected));
    }
    // Objects for namespaces their build cannot deploy: another build deploying into that
    // namespace takes them, else a file nobody includes.
    place_separately(scan, &builds, &kustomizations, &mut fixes, &mut notes);
    let mut placements = Vec::new();
    let fix_edits = fix_edits(root, scan, plan, &fixes, &mut notes, &mut placements);
    for e in &fix_edits {
        if let Err(e) = scratch.write(&e.path, &e.contents) {
            notes.push(Diagnostic::new(
                Code::RenderFailed,
                format!("builds not verified: {e}"),
            ));
        }
    }
    // A fix replaces the plan's edit of the same file whole (`merge_edits`).
    for e in &fix_edits {
        if current.contains_key(&e.path) {
            current.insert(e.path.clone(), e.contents.clone());
        }
    }
    out.fixes = fix_edits;
    out.placements = placements;

    // 5. Verify: render as the repository will be after apply.
    let verify_builds: Vec<&Build> = expectations.iter().map(|(b, _)| *b).collect();
    let after_all = render_all(
        &ctx,
        &verify_builds,
        true,
        &current,
        Some("verifying builds with their fixes"),
    );
    // Generated objects by identity: which builds deploy each, with which spec.
    let mut deployed = Deployed::new();
    for ((b, expected), after) in expectations.iter().zip(after_all) {
        let allowed: BTreeSet<(String, String, String)> = fixes
            .get(&b.dir)
            .map(|f| f.foreign.clone())
            .unwrap_or_default();
        let differences = match after {
            Ok(after) => {
                for (id, spec) in verify::generated_objects(&after, &generated_paths) {
                    deployed
                        .entry(id)
                        .or_default()
                        .push((b.name().to_string(), spec));
                }
                verify(b, expected, &after, &generated_paths, &allowed)
            }
            Err(message) => vec![format!("does not render after apply: {message}")],
        };
        let status = if differences.is_empty() {
            BuildStatus::Verified
        } else {
            BuildStatus::Differs(differences.len())
        };
        for d in differences {
            notes.push(
                Diagnostic::new(Code::RenderBuildDiffers, format!("build {}: {d}", b.name()))
                    .in_file(b.kustomization.clone().unwrap_or_default(), 1),
            );
        }
        statuses.insert(b.dir.clone(), status);
    }
    notes.extend(shared_objects(&deployed, &builds));
    notes.extend(ctx.budget_note());
    out.builds = report(builds, statuses);
    notes.sort();
    notes.dedup();
    out.notes = notes;
    out
}

/// Generated objects by identity (kind, namespace, name): the builds deploying each, with
/// the spec each deploys.
type Deployed = BTreeMap<(String, String, String), Vec<(String, Value)>>;

/// `render/shared-object`: a generated object that several builds deploy with different
/// specs. Whether that is right depends on where the builds are applied, which the
/// repository does not say: one cluster each is fine, one shared cluster is a conflict.
fn shared_objects(deployed: &Deployed, builds: &[Build]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for ((kind, ns, name), by) in deployed {
        let mut specs: Vec<&Value> = by.iter().map(|(_, s)| s).collect();
        specs.sort_by_key(|s| s.to_string());
        specs.dedup();
        if by.len() < 2 || specs.len() < 2 {
            continue;
        }
        let names: Vec<String> = by.iter().map(|(b, _)| b.clone()).collect();
        let file = builds
            .iter()
            .find(|b| Some(b.name()) == names.first().map(String::as_str))
            .and_then(|b| b.kustomization.clone())
            .unwrap_or_default();
        out.push(
            Diagnostic::new(
                Code::RenderSharedObject,
                format!(
                    "{kind} {ns}/{name} is deployed by {} builds with {} different specs ({}): on one cluster they overwrite each other and the last applied wins; on separate clusters each gets its own",
                    by.len(),
                    specs.len(),
                    crate::diagnostic::list_some(&names, 5)
                ),
            )
            .in_file(file, 1),
        );
    }
    out
}

fn report(builds: Vec<Build>, statuses: BTreeMap<String, BuildStatus>) -> Vec<BuildReport> {
    builds
        .into_iter()
        .map(|b| BuildReport {
            status: statuses
                .get(&b.dir)
                .cloned()
                .unwrap_or(BuildStatus::NotRendered),
            build: b,
        })
        .collect()
}

/// A refused build cannot be checked, so what the files' translation gives it is what it will
/// deploy: where that includes generated objects with errors (no backends, hosts that do not
/// resolve, objects the validator refused), apply would ship them broken into this build. The
/// refusal is then an error naming them (`render/refused-broken`).
fn refused_and_broken(
    scan: &Scan,
    units: &crate::deploy::Units,
    build: &Build,
    base_results: &[crate::translate::SourceResult],
) -> Option<Diagnostic> {
    let mut broken: Vec<String> = Vec::new();
    for r in base_results {
        let Some(obj) = scan.index.objects.get(r.object) else {
            continue;
        };
        if !units.of_file(&obj.source.file).any(|u| u.dir == build.dir) {
            continue;
        }
        let errors: BTreeSet<String> = r
            .notes
            .iter()
            .filter(|d| d.severity == crate::diagnostic::Severity::Error)
            .map(|d| d.code.to_string())
            .collect();
        if errors.is_empty() {
            continue;
        }
        broken.push(format!(
            "{} {} ({})",
            obj.kind,
            obj.meta.name,
            errors.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    if broken.is_empty() {
        return None;
    }
    let at = build.kustomization.clone().unwrap_or_default();
    Some(
        Diagnostic::new(
            Code::RenderRefusedBroken,
            format!(
                "build {} is not rendered (see its render/* warning), so it deploys what its files' translation gives, and that has errors: {}; after apply this build ships those routes broken. Make the build renderable (vendor its remote bases with kustomize localize and pass --remote-cache DIR, or into the repository) so that it is translated as it renders, or fix the errors",
                build.name(),
                crate::diagnostic::list_some(&broken, 5)
            ),
        )
        .in_file(at, 1),
    )
}

/// Counts one build as done on the progress line when dropped, however its render ended.
struct Step<'a>(&'a crate::progress::Progress);

impl Drop for Step<'_> {
    fn drop(&mut self) {
        self.0.step();
    }
}

/// What every render of one run shares.
struct Renders<'a> {
    scratch: &'a kustomize::Scratch,
    config: &'a Config,
    renderer: &'a Renderer,
    options: &'a RenderOptions,
    /// The kustomization directories a build reaches (its cache key).
    dirs_of: &'a (dyn Fn(&Build) -> Vec<String> + Sync),
    /// Renders of this run by cache key.
    memo: std::sync::Mutex<BTreeMap<String, Vec<Value>>>,
    progress: &'a crate::progress::Progress,
    /// When the run's rendering budget ([`Renderer::run_budget`]) is spent.
    deadline: std::time::Instant,
    /// Builds not rendered again, by directory: one timed out, or the budget was spent.
    given_up: std::sync::Mutex<BTreeMap<String, GiveUp>>,
    /// kustomize processes running, at most [`kustomize::MAX_CONCURRENT_RENDERS`].
    running: (std::sync::Mutex<usize>, std::sync::Condvar),
}

/// One of the [`kustomize::MAX_CONCURRENT_RENDERS`] slots, given back when dropped.
struct RenderSlot<'a>(&'a (std::sync::Mutex<usize>, std::sync::Condvar));

impl<'a> RenderSlot<'a> {
    fn take(slots: &'a (std::sync::Mutex<usize>, std::sync::Condvar)) -> RenderSlot<'a> {
        let (count, freed) = slots;
        if let Ok(mut running) = count.lock() {
            while *running >= kustomize::MAX_CONCURRENT_RENDERS {
                running = match freed.wait(running) {
                    Ok(r) => r,
                    Err(poisoned) => poisoned.into_inner(),
                };
            }
            *running += 1;
        }
        RenderSlot(slots)
    }
}

impl Drop for RenderSlot<'_> {
    fn drop(&mut self) {
        let (count, freed) = self.0;
        if let Ok(mut running) = count.lock() {
            *running = running.saturating_sub(1);
        }
        freed.notify_one();
    }
}

/// Why a build is not rendered (again) in this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GiveUp {
    TimedOut,
    BudgetSpent,
}

impl Renders<'_> {
    /// Renders build directory `dir` unless it was given up: at most once past a timeout,
    /// never past the run's deadline.
    fn render_once(&self, dir: &str) -> Result<Vec<Value>, String> {
        let seconds = self.renderer.run_budget.as_secs();
        let refuse = |why: GiveUp| match why {
            GiveUp::TimedOut => format!(
                "not rendered again: kustomize did not finish within {} seconds on an earlier attempt",
                self.renderer.timeout.as_secs()
            ),
            GiveUp::BudgetSpent => {
                format!("not rendered: the run's rendering budget of {seconds} seconds is spent")
            }
        };
        let give_up = |why: GiveUp| {
            if let Ok(mut g) = self.given_up.lock() {
                g.entry(dir.to_string()).or_insert(why);
            }
        };
        if let Some(why) = self.given_up.lock().ok().and_then(|g| g.get(dir).copied()) {
            return Err(refuse(why));
        }
        let left = self
            .deadline
            .saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            give_up(GiveUp::BudgetSpent);
            return Err(refuse(GiveUp::BudgetSpent));
        }
        let _slot = RenderSlot::take(&self.running);
        // Waiting for a slot spent some of the budget.
        let left = self
            .deadline
            .saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            give_up(GiveUp::BudgetSpent);
            return Err(refuse(GiveUp::BudgetSpent));
        }
        let limit = left.min(self.renderer.timeout);
        match self.renderer.render(&self.scratch.root(), dir, limit) {
            Err(kustomize::RenderError::Timeout(_)) if limit < self.renderer.timeout => {
                give_up(GiveUp::BudgetSpent);
                Err(refuse(GiveUp::BudgetSpent))
            }
            Err(e @ kustomize::RenderError::Timeout(_)) => {
                give_up(GiveUp::TimedOut);
                Err(e.to_string())
            }
            other => other.map_err(|e| e.to_string()),
        }
    }

    /// `render/budget-spent` when the run's budget stopped any build.
    fn budget_note(&self) -> Option<Diagnostic> {
        let given_up = self.given_up.lock().ok()?;
        let stopped: Vec<&str> = given_up
            .iter()
            .filter(|(_, why)| **why == GiveUp::BudgetSpent)
            .map(|(dir, _)| if dir.is_empty() { "." } else { dir.as_str() })
            .collect();
        (!stopped.is_empty()).then(|| {
            Diagnostic::new(
                Code::RenderBudgetSpent,
                format!(
                    "the run's rendering budget of {} seconds was spent; {} build(s) were not rendered (or not at every stage): {} (raise it with --render-budget)",
                    self.renderer.run_budget.as_secs(),
                    stopped.len(),
                    stopped.join(", ")
                ),
            )
        })
    }
}

/// Renders `builds` in parallel from the scratch copy, each root kustomization as `current`
/// has it (this tool's fix entries kept only with `keep_fixes`).
fn render_all(
    ctx: &Renders,
    builds: &[&Build],
    keep_fixes: bool,
    current: &BTreeMap<String, Vec<u8>>,
    label: Option<&str>,
) -> Vec<Render> {
    if let Some(label) = label {
        ctx.progress.phase(label, Some(builds.len()));
    }
    let Renders {
        scratch,
        config,
        renderer,
        options,
        dirs_of,
        ref memo,
        progress,
        ..
    } = *ctx;
    let mut prepared: Vec<Result<(), String>> = Vec::new();
    for b in builds {
        let r = match &b.kustomization {
            Some(k) => {
                // Earlier stages rewrote the root kustomization: start from what the stage
                // renders (the repository's, or the planned one).
                let restored = match current.get(k.as_str()) {
                    Some(bytes) => scratch.write(k, bytes),
                    None => Ok(()),
                };
                restored
                    .and_then(|()| scratch.prepare_root(k, keep_fixes, b.build_options()))
                    .map_err(|e| e.to_string())
            }
            None => Ok(()),
        };
        prepared.push(r);
    }
    let root = scratch.root();
    builds
        .par_iter()
        .zip(prepared)
        .map(|(b, prep)| {
            let _step = Step(progress);
            prep?;
            // The key is the content of everything the build reads: stages whose inputs did
            // not change (no plan edit or fix in the build's directories) share a render.
            let dirs = dirs_of(b);
            let key = kustomize::cache_key(&root, &dirs, renderer, &b.dir);
            let memoized = memo.lock().ok().and_then(|m| m.get(&key).cloned());
            let cached = memoized.or_else(|| {
                let dir = options.cache_dir.as_ref()?;
                let bytes = std::fs::read(dir.join(format!("{key}.json"))).ok()?;
                serde_json::from_slice::<Vec<Value>>(&bytes).ok()
            });
            let docs = match cached {
                Some(docs) => docs,
                None => {
                    let docs = ctx.render_once(&b.dir)?;
                    if let Some(dir) = &options.cache_dir
                        && std::fs::create_dir_all(dir).is_ok()
                        && let Ok(bytes) = serde_json::to_vec(&docs)
                    {
                        let tmp = dir.join(format!("{key}.tmp{}", std::process::id()));
                        if std::fs::write(&tmp, bytes).is_ok() {
                            let _ = std::fs::rename(&tmp, dir.join(format!("{key}.json")));
                        }
                    }
                    docs
                }
            };
            if let Ok(mut m) = memo.lock() {
                m.insert(key, docs.clone());
            }
            Ok(docs
                .into_iter()
                .map(|v| {
                    let origin = kustomize::origin_file(&v, &b.dir);
                    let mut value = kustomize::without_origin(v);
                    // Where the build's Argo CD Application or Flux Kustomization puts it.
                    b.place_in_destination(&mut value);
                    default_namespace(&mut value, &config.default_namespace);
                    Rendered { origin, value }
                })
                .collect())
        })
        .collect()
}

/// A namespaced Gateway API object rendered without a namespace lands in the namespace it is
/// applied to; it is compared as the translation names it, in the configured default.
fn default_namespace(value: &mut Value, default: &str) {
    let group = value
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .split('/')
        .next()
        .unwrap_or("");
    if group != "gateway.networking.k8s.io" {
        return;
    }
    if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut)
        && meta
            .get("namespace")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
    {
        meta.insert("namespace".into(), Value::from(default));
    }
}

/// What the stage's unit tests share.
#[cfg(test)]
mod test_support {
    use serde_json::Value;

    /// A minimal HTTPRoute in `ns` for `host`, attached to Gateway `gw`.
    pub(super) fn route(ns: &str, name: &str, host: &str) -> Value {
        serde_json::json!({
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "HTTPRoute",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"hostnames": [host], "parentRefs": [{"name": "gw"}]}
        })
    }
}
