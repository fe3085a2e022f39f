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

pub mod discover;
pub mod kustomize;

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

/// File names of the per-build fixes (both contain [`kustomize::FIX_MARKER`]).
pub const PATCHES_FILE: &str = "gateway-migrate.build-patches.yaml";
pub const OBJECTS_FILE: &str = "gateway-migrate.build-objects.yaml";
/// Prefix of the files deleting one object from a build:
/// `gateway-migrate.build-delete.<kind>.<name>.yaml`.
pub const DELETE_PREFIX: &str = "gateway-migrate.build-delete.";
/// Prefix of files holding objects no build can deploy (they belong in a namespace no build
/// deploys into): `gateway-migrate.apply-separately.<namespace>.yaml`.
pub const SEPARATE_PREFIX: &str = "gateway-migrate.apply-separately.";

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// `false`: translate files only (`--no-render`).
    pub enabled: bool,
    /// The kustomize to run; `None` when none was found (files only, said once).
    pub renderer: Option<Renderer>,
    /// Fetch remote bases (`--allow-remote`); refused otherwise.
    pub allow_remote: bool,
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
}

impl RenderOutcome {
    pub fn verified(&self) -> usize {
        self.builds
            .iter()
            .filter(|b| b.status == BuildStatus::Verified)
            .count()
    }
    pub fn differing(&self) -> usize {
        self.builds
            .iter()
            .filter(|b| matches!(b.status, BuildStatus::Differs(_)))
            .count()
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

/// Runs the render stage: discovers builds, renders them, adds fixes to `plan`, verifies.
pub fn run(
    (root, scan, config): (&Path, &Scan, &Config),
    base_results: &[crate::translate::SourceResult],
    plan: &mut EditPlan,
    options: &RenderOptions,
) -> RenderOutcome {
    let (builds, mut notes) = discover::build_roots(scan);
    let mut out = RenderOutcome::default();
    let renderer = match (&options.renderer, options.enabled) {
        (Some(r), true) => r,
        (None, true) => {
            if builds.iter().any(|b| b.kustomization.is_some()) {
                notes.push(Diagnostic::new(
                    Code::RenderNoKustomize,
                    "neither kustomize nor kubectl was found (pass --kustomize PATH): kustomize builds are not rendered, so overlays, components, patches and replacements are not followed and the files are translated as they are",
                ));
            }
            out.builds = builds
                .into_iter()
                .map(|b| BuildReport {
                    status: if b.kustomization.is_some() {
                        BuildStatus::NotRendered
                    } else {
                        BuildStatus::Directory
                    },
                    build: b,
                })
                .collect();
            out.notes = notes;
            return out;
        }
        (_, false) => {
            out.builds = builds
                .into_iter()
                .map(|b| BuildReport {
                    build: b,
                    status: BuildStatus::NotRendered,
                })
                .collect();
            out.notes = notes;
            return out;
        }
    };

    // Decide per build: render, or why not.
    let mut statuses: BTreeMap<String, BuildStatus> = BTreeMap::new();
    let mut to_render: Vec<&Build> = Vec::new();
    let translatable = translatable_dirs(scan);
    for b in &builds {
        if b.kustomization.is_none() {
            statuses.insert(b.dir.clone(), BuildStatus::Directory);
            continue;
        }
        let refused = discover::refusals(root, scan, b, options.allow_remote);
        if !refused.is_empty() {
            notes.extend(refused);
            statuses.insert(b.dir.clone(), BuildStatus::Refused);
            continue;
        }
        if !reaches_translatable(scan, b, &translatable) {
            statuses.insert(b.dir.clone(), BuildStatus::NothingToTranslate);
            continue;
        }
        to_render.push(b);
    }

    if to_render.is_empty() {
        out.builds = report(builds, statuses);
        out.notes = notes;
        return out;
    }
    let copied: BTreeSet<String> = to_render
        .iter()
        .flat_map(|b| {
            discover::reached(scan, b)
                .into_iter()
                .map(|k| k.dir.clone())
        })
        .collect();
    let scratch = match kustomize::Scratch::copy_of(root, &copied) {
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
    let dirs_of = |b: &Build| -> Vec<String> {
        discover::reached(scan, b)
            .iter()
            .map(|k| k.dir.clone())
            .collect()
    };

    // 1. Before: the repository as it is (this tool's earlier fixes left out).
    let ctx = Renders {
        scratch: &scratch,
        config,
        renderer,
        options,
        dirs_of: &dirs_of,
        memo: std::sync::Mutex::new(BTreeMap::new()),
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
    let mut before = render_all(&ctx, &to_render, false, &current);
    // A build this tool fixed earlier may only render with its fixes (a namespace transform
    // that made generated objects collide): its sources render the same either way.
    let failed: Vec<usize> = (0..before.len()).filter(|&i| before[i].is_err()).collect();
    if !failed.is_empty() {
        let retry: Vec<&Build> = failed.iter().map(|&i| to_render[i]).collect();
        for (i, r) in failed
            .into_iter()
            .zip(render_all(&ctx, &retry, true, &current))
        {
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
    let translations: Vec<BuildTranslation> = rendered
        .par_iter()
        .map(|(b, objects)| translate_build((scan, &by_file), config, b, objects, &generated_paths))
        .collect();
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
    let after_base = render_all(&ctx, &rendered_builds, false, &current);

    // 4. Fixes per build.
    let kustomizations: BTreeMap<&str, &crate::model::kustomize::Kustomization> = scan
        .index
        .kustomizations
        .iter()
        .map(|k| (k.file.as_str(), k))
        .collect();
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
    let fix_edits = fix_edits(root, scan, plan, &fixes, &mut notes);
    for e in &fix_edits {
        if let Err(e) = scratch.write(&e.path, &e.contents) {
            notes.push(Diagnostic::new(
                Code::RenderFailed,
                format!("builds not verified: {e}"),
            ));
        }
    }
    merge_edits(plan, fix_edits);
    for e in &plan.edits {
        if current.contains_key(&e.path) {
            current.insert(e.path.clone(), e.contents.clone());
        }
    }

    // 5. Verify: render as the repository will be after apply.
    let verify_builds: Vec<&Build> = expectations.iter().map(|(b, _)| *b).collect();
    let after_all = render_all(&ctx, &verify_builds, true, &current);
    for ((b, expected), after) in expectations.iter().zip(after_all) {
        let allowed: BTreeSet<(String, String, String)> = fixes
            .get(&b.dir)
            .map(|f| f.foreign.clone())
            .unwrap_or_default();
        let differences = match after {
            Ok(after) => verify(b, expected, &after, &generated_paths, &allowed),
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
    out.builds = report(builds, statuses);
    notes.sort();
    notes.dedup();
    out.notes = notes;
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

/// Whether any Istio or Ingress object lives under a directory the build reaches;
/// `translatable` holds the directories (and their ancestors) of such objects.
fn reaches_translatable(scan: &Scan, b: &Build, translatable: &BTreeSet<String>) -> bool {
    discover::reached(scan, b)
        .iter()
        .any(|k| translatable.contains(&k.dir))
}

/// Every directory holding, at any depth, an Istio or Ingress object (`""` for the root).
fn translatable_dirs(scan: &Scan) -> BTreeSet<String> {
    let mut dirs = BTreeSet::new();
    for o in &scan.index.objects {
        if !matches!(
            o.body,
            crate::model::SourceBody::IstioGateway(_)
                | crate::model::SourceBody::VirtualService(_)
                | crate::model::SourceBody::DestinationRule(_)
                | crate::model::SourceBody::Ingress(_)
        ) {
            continue;
        }
        let mut dir = o.source.file.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            if !dirs.insert(parent.to_string()) {
                break;
            }
            dir = parent;
        }
        dirs.insert(String::new());
    }
    dirs
}

/// Renders `builds` in parallel from the scratch copy, each root kustomization as `current`
/// has it (this tool's fix entries kept only with `keep_fixes`).
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
}

fn render_all(
    ctx: &Renders,
    builds: &[&Build],
    keep_fixes: bool,
    current: &BTreeMap<String, Vec<u8>>,
) -> Vec<Render> {
    let Renders {
        scratch,
        config,
        renderer,
        options,
        dirs_of,
        ref memo,
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
                    .and_then(|()| scratch.prepare_root(k, keep_fixes))
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
                    let docs = renderer.render(&root, &b.dir).map_err(|e| e.to_string())?;
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

/// One build's translation.
struct BuildTranslation {
    /// The generated objects (JSON, namespace explicit) and the source file each came from.
    desired: Vec<(Value, String)>,
    /// The build's diagnostics, with the source they are about.
    notes: Vec<(SourceRef, Diagnostic)>,
    /// The source documents the build rendered.
    sources: Vec<SourceRef>,
}

/// Translates the objects a build renders (its sources, not the files this tool generated).
fn translate_build(
    (scan, by_file): (&Scan, &BTreeMap<&str, Vec<&SourceObject>>),
    config: &Config,
    build: &Build,
    rendered: &[Rendered],
    generated_paths: &BTreeSet<String>,
) -> BuildTranslation {
    let mut objects = Vec::new();
    for r in rendered {
        if r.origin
            .as_ref()
            .is_some_and(|o| generated_paths.contains(o) || is_fix_file(o))
        {
            continue;
        }
        let source = source_of(by_file, build, r);
        let mut decoded = Vec::new();
        crate::load::decode::decode(r.value.clone(), &source, &mut decoded);
        for d in decoded.into_iter().flatten() {
            if let crate::load::decode::Decoded::Object(obj) = d {
                objects.push(*obj);
            }
        }
    }
    let sources: Vec<SourceRef> = objects.iter().map(|o| o.source.clone()).collect();
    // What the build references but another build deploys (the Istio Gateway in
    // `istio-system/`, a Service of another app): the repository's objects of the kinds
    // routes refer to, as the files give them, for lookups only; whatever they translate to
    // is not this build's.
    let rendered_sources: BTreeSet<&SourceRef> = sources.iter().collect();
    let present: BTreeSet<(String, String, String)> = objects
        .iter()
        .map(|o| {
            (
                o.kind.clone(),
                o.namespace_or_written(),
                o.meta.name.clone(),
            )
        })
        .collect();
    let mut context: BTreeSet<SourceRef> = BTreeSet::new();
    for o in &scan.index.objects {
        let referenced_kind = matches!(
            o.body,
            crate::model::SourceBody::IstioGateway(_)
                | crate::model::SourceBody::Service(_)
                | crate::model::SourceBody::Secret(_)
                | crate::model::SourceBody::Namespace
                | crate::model::SourceBody::IngressClass(_)
                | crate::model::SourceBody::GatewayApi(_)
        );
        if !referenced_kind
            || rendered_sources.contains(&o.source)
            || present.contains(&(o.kind.clone(), o.namespace.clone(), o.meta.name.clone()))
        {
            continue;
        }
        let mut c = o.clone();
        // Its namespace as the files give it (the index's, explicit for the build's index).
        c.meta.namespace = Some(o.namespace.clone());
        context.insert(c.source.clone());
        objects.push(c);
    }
    let index = Index::build(objects, Vec::new(), config);
    let mut results = crate::translate::translate(&index, config);
    crate::validate::validate_results(&index, &mut results, config);
    let mut desired = Vec::new();
    let mut notes = Vec::new();
    for r in &mut results {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        if context.contains(&obj.source) {
            continue;
        }
        for g in &r.generated {
            desired.push((g.to_json(), obj.source.file.clone()));
        }
        for d in std::mem::take(&mut r.notes) {
            notes.push((obj.source.clone(), d));
        }
    }
    BuildTranslation {
        desired,
        notes,
        sources,
    }
}

fn is_fix_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == PATCHES_FILE
        || name == OBJECTS_FILE
        || name.starts_with(DELETE_PREFIX)
        || name.starts_with(SEPARATE_PREFIX)
}

/// The source document a rendered object came from: its origin file's object of the same
/// kind whose name the rendered name contains (prefixes and suffixes), the longest such.
fn source_of(
    by_file: &BTreeMap<&str, Vec<&SourceObject>>,
    build: &Build,
    r: &Rendered,
) -> SourceRef {
    let kind = r.value.get("kind").and_then(Value::as_str).unwrap_or("");
    let name = r
        .value
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let file = r
        .origin
        .clone()
        .or_else(|| build.kustomization.clone())
        .unwrap_or_default();
    let best = by_file.get(file.as_str()).and_then(|objs| {
        objs.iter()
            .filter(|o| o.kind == kind && name.contains(o.meta.name.as_str()))
            .max_by_key(|o| o.meta.name.len())
            .copied()
    });
    match best {
        Some(o) => o.source.clone(),
        None => SourceRef {
            file,
            document: 0,
            line: 1,
        },
    }
}

/// A generated object a build must render after apply: kind, namespace, final name, spec.
#[derive(Debug, Clone)]
struct Expected {
    kind: String,
    namespace: String,
    name: String,
    spec: Value,
}

/// One build root's fixes.
#[derive(Debug, Default)]
struct BuildFixes {
    /// Strategic-merge patch documents replacing a `spec`.
    patches: Vec<Value>,
    /// Strategic-merge `$patch: delete` documents, each written to its own file: kustomize
    /// v5.5 crashes on a multi-document patch file with a delete before another document.
    deletes: Vec<Value>,
    /// Objects added to the build.
    objects: Vec<Value>,
    /// Objects the build's namespace transform would move: placed elsewhere.
    separate: Vec<Value>,
    /// Objects placed here for another build: not part of this build's comparison.
    foreign: BTreeSet<(String, String, String)>,
    /// Whether this build was rendered and compared in this run (else it only hosts objects
    /// placed for others, and its earlier fixes are left as they are).
    compared: bool,
    /// The root's transforms, for names of added objects.
    prefix: String,
    suffix: String,
    namespace: Option<String>,
}

/// A generated object as it renders after the base plan, and as its file writes it.
#[derive(Debug, Clone)]
struct Actual {
    value: Value,
    kind: String,
    namespace: String,
    name: String,
    /// The source file (from the generated file's header, via the placements).
    source: String,
    /// `apiVersion`, name and namespace as the generated file writes them: what a patch in
    /// the build root matches.
    written: Value,
}

fn ident(v: &Value) -> (String, String, String) {
    let s = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    (s("/kind"), s("/metadata/namespace"), s("/metadata/name"))
}

/// Compares a build's translation with what it renders after the base plan, records the
/// fixes, and returns what the build must render after apply.
fn plan_fixes(
    build: &Build,
    k: Option<&crate::model::kustomize::Kustomization>,
    t: &BuildTranslation,
    after: &[Rendered],
    (generated_paths, written): (&BTreeSet<String>, &Written),
    default_ns: &str,
    fixes: &mut BTreeMap<String, BuildFixes>,
) -> Vec<Expected> {
    let entry = fixes.entry(build.dir.clone()).or_default();
    entry.compared = true;
    entry.prefix = k.and_then(|k| k.name_prefix.clone()).unwrap_or_default();
    entry.suffix = k.and_then(|k| k.name_suffix.clone()).unwrap_or_default();
    entry.namespace = k.and_then(|k| k.namespace.clone());
    let actual: Vec<Actual> = after
        .iter()
        .filter_map(|r| {
            let origin = r.origin.as_ref()?;
            if !generated_paths.contains(origin) {
                return None;
            }
            let (kind, namespace, name) = ident(&r.value);
            let (source, written) = written_identity(written, origin, &r.value)?;
            Some(Actual {
                value: r.value.clone(),
                kind,
                namespace,
                name,
                source,
                written,
            })
        })
        .collect();

    // Pair by source file and kind: same final name first, then in name order.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut free_desired: BTreeSet<usize> = (0..t.desired.len()).collect();
    let mut free_actual: BTreeSet<usize> = (0..actual.len()).collect();
    for (di, (d, src)) in t.desired.iter().enumerate() {
        let (kind, _, name) = ident(d);
        if let Some(ai) = free_actual.iter().copied().find(|&ai| {
            actual[ai].source == *src && actual[ai].kind == kind && actual[ai].name == name
        }) {
            pairs.push((di, ai));
            free_desired.remove(&di);
            free_actual.remove(&ai);
        }
    }
    let mut groups: BTreeMap<(String, String), (Vec<usize>, Vec<usize>)> = BTreeMap::new();
    for &di in &free_desired {
        let (d, src) = &t.desired[di];
        groups
            .entry((src.clone(), ident(d).0))
            .or_default()
            .0
            .push(di);
    }
    for &ai in &free_actual {
        groups
            .entry((actual[ai].source.clone(), actual[ai].kind.clone()))
            .or_default()
            .1
            .push(ai);
    }
    for (ds, as_) in groups.values_mut() {
        // Both sides in name order (the translation's and kustomize's orders differ).
        ds.sort_by_key(|&di| ident(&t.desired[di].0).2);
        as_.sort_by(|&x, &y| actual[x].name.cmp(&actual[y].name));
        if ds.len() == as_.len() {
            for (&di, &ai) in ds.iter().zip(as_.iter()) {
                pairs.push((di, ai));
                free_desired.remove(&di);
                free_actual.remove(&ai);
            }
        }
    }

    // Gateways keep the name they render with; routes' parentRefs follow.
    let mut renames: BTreeMap<(String, String), String> = BTreeMap::new();
    for &(di, ai) in &pairs {
        let (kind, ns, name) = ident(&t.desired[di].0);
        if kind == "Gateway" && actual[ai].namespace == ns && actual[ai].name != name {
            renames.insert((ns, name), actual[ai].name.clone());
        }
    }
    for &di in &free_desired {
        let (kind, ns, name) = ident(&t.desired[di].0);
        if kind == "Gateway" && separate_namespace(entry, &ns).is_none() {
            let final_name = final_added_name(entry, &name);
            if final_name != name {
                renames.insert((ns, name), final_name);
            }
        }
    }
    let renamed = |v: &Value| rename_parents(v, &renames);

    let mut expected = Vec::new();
    for &(di, ai) in &pairs {
        let d = renamed(&t.desired[di].0);
        let a = &actual[ai];
        let (kind, ns, _) = ident(&d);
        if a.namespace != ns {
            entry.deletes.push(delete_patch(&a.written));
            entry.separate.push(d);
            continue;
        }
        let spec = d.get("spec").cloned().unwrap_or(Value::Null);
        if a.value.get("spec") != Some(&spec) {
            entry.patches.push(replace_patch(&a.written, &spec));
        }
        expected.push(Expected {
            kind,
            namespace: ns,
            name: a.name.clone(),
            spec,
        });
    }
    for &ai in &free_actual {
        entry.deletes.push(delete_patch(&actual[ai].written));
    }
    for &di in &free_desired {
        let d = renamed(&t.desired[di].0);
        let (kind, ns, name) = ident(&d);
        if separate_namespace(entry, &ns).is_some() {
            entry.separate.push(d);
            continue;
        }
        let final_name = final_added_name(entry, &name);
        let mut written = d.clone();
        if let Some(meta) = written.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("name".into(), Value::from(strip_affixes(entry, &name)));
            // Like the sources it was translated from, it follows the namespace the build
            // is applied to.
            if entry.namespace.is_none() && ns == default_ns {
                meta.remove("namespace");
            }
        }
        entry.objects.push(written);
        expected.push(Expected {
            kind,
            namespace: ns,
            name: final_name,
            spec: d.get("spec").cloned().unwrap_or(Value::Null),
        });
    }
    expected
}

/// Renders `build` again with every generated object its root's `namespace:` would move
/// deleted (recorded as the build's delete fixes); `None` when the root sets no namespace or
/// nothing would move.
fn retry_without_moved(
    ctx: &Renders,
    (build, k): (&Build, &crate::model::kustomize::Kustomization),
    written: &Written,
    current: &mut BTreeMap<String, Vec<u8>>,
    fixes: &mut BTreeMap<String, BuildFixes>,
) -> Option<Render> {
    let target = k.namespace.as_deref()?;
    let prefix = if build.dir.is_empty() {
        String::new()
    } else {
        format!("{}/", build.dir)
    };
    let dirs: Vec<String> = (ctx.dirs_of)(build);
    let in_build = |path: &str| {
        dirs.iter()
            .any(|d| d.is_empty() || path.starts_with(&format!("{d}/")))
    };
    let mut deletes = Vec::new();
    for (path, (_, objects)) in written {
        if !in_build(path) {
            continue;
        }
        for o in objects {
            let ns = o.pointer("/metadata/namespace").and_then(Value::as_str);
            if ns.is_some_and(|ns| ns != target) {
                deletes.push(delete_patch(o));
            }
        }
    }
    if deletes.is_empty() {
        return None;
    }
    let mut entries = Vec::new();
    for d in &deletes {
        let (kind, ns, name) = ident(d);
        let file = format!(
            "{DELETE_PREFIX}{}.{ns}.{name}.yaml",
            kind.to_ascii_lowercase()
        );
        let text = format!("---\n{}", crate::yaml::to_yaml(d));
        if ctx
            .scratch
            .write(&format!("{prefix}{file}"), text.as_bytes())
            .is_err()
        {
            return None;
        }
        entries.push(file);
    }
    let base = current.get(&k.file).cloned().unwrap_or_default();
    let ours = |_: &str| false;
    let listed = match crate::plan::kustomize::sync_entries(&base, &[], &entries, &ours) {
        Ok(Some(bytes)) => bytes,
        // Already listed (a run after the one that planned them).
        Ok(None) => base,
        Err(_) => return None,
    };
    let mut trial = current.clone();
    trial.insert(k.file.clone(), listed);
    let render = render_all(ctx, &[build], true, &trial).pop()?;
    if render.is_ok() {
        fixes
            .entry(build.dir.clone())
            .or_default()
            .deletes
            .extend(deletes);
    }
    Some(render)
}

/// `Some(ns)` when the root's namespace transform would move an object out of `ns`.
fn separate_namespace<'a>(fixes: &BuildFixes, ns: &'a str) -> Option<&'a str> {
    match &fixes.namespace {
        Some(t) if t != ns => Some(ns),
        _ => None,
    }
}

/// The name an object added to the root's resources renders with: the root's prefix and
/// suffix around the name written (which is the wanted name without them, when it has them).
fn final_added_name(fixes: &BuildFixes, wanted: &str) -> String {
    format!(
        "{}{}{}",
        fixes.prefix,
        strip_affixes(fixes, wanted),
        fixes.suffix
    )
}

fn strip_affixes(fixes: &BuildFixes, wanted: &str) -> String {
    let inner = wanted.strip_prefix(fixes.prefix.as_str()).unwrap_or(wanted);
    let inner = inner.strip_suffix(fixes.suffix.as_str()).unwrap_or(inner);
    if inner.is_empty() {
        wanted.to_string()
    } else {
        inner.to_string()
    }
}

/// The object's identity as its generated file writes it (`apiVersion`, `kind`, `name`, and
/// `namespace` when written), and the file's source, read from the generated file's header.
/// The generated file is found by the rendered object's origin.
fn written_identity(written: &Written, origin: &str, rendered: &Value) -> Option<(String, Value)> {
    let (source, objects) = written.get(origin)?;
    let (kind, _, name) = ident(rendered);
    objects
        .iter()
        .filter(|o| ident(o).0 == kind && name.contains(ident(o).2.as_str()))
        .max_by_key(|o| ident(o).2.len())
        .map(|o| (source.clone(), o.clone()))
}

/// Generated file → (its source file, the objects it writes).
type Written = BTreeMap<String, (String, Vec<Value>)>;

fn rename_parents(v: &Value, renames: &BTreeMap<(String, String), String>) -> Value {
    let mut v = v.clone();
    if renames.is_empty() {
        return v;
    }
    let route_ns = v
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if let Some(Value::Array(parents)) = v.pointer_mut("/spec/parentRefs") {
        for p in parents {
            let is_gateway = p
                .get("kind")
                .and_then(Value::as_str)
                .is_none_or(|k| k == "Gateway");
            if !is_gateway {
                continue;
            }
            let ns = p
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or(&route_ns)
                .to_string();
            let name = p
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if let Some(new) = renames.get(&(ns, name))
                && let Some(map) = p.as_object_mut()
            {
                map.insert("name".into(), Value::from(new.clone()));
            }
        }
    }
    v
}

fn patch_head(written: &Value) -> serde_json::Map<String, Value> {
    let mut head = serde_json::Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(v) = written.get(key) {
            head.insert(key.into(), v.clone());
        }
    }
    let mut meta = serde_json::Map::new();
    for key in ["name", "namespace"] {
        if let Some(v) = written.pointer(&format!("/metadata/{key}")) {
            meta.insert(key.into(), v.clone());
        }
    }
    head.insert("metadata".into(), Value::Object(meta));
    head
}

fn delete_patch(written: &Value) -> Value {
    let mut p = serde_json::Map::new();
    p.insert("$patch".into(), Value::from("delete"));
    p.extend(patch_head(written));
    Value::Object(p)
}

fn replace_patch(written: &Value, spec: &Value) -> Value {
    let mut p = patch_head(written);
    let mut s = serde_json::Map::new();
    s.insert("$patch".into(), Value::from("replace"));
    if let Value::Object(fields) = spec {
        s.extend(fields.clone());
    }
    p.insert("spec".into(), Value::Object(s));
    Value::Object(p)
}

/// Moves objects a build's namespace transform would move: to a build deploying into their
/// namespace (without a prefix or suffix, so their name survives), else to a separate file.
fn place_separately(
    _scan: &Scan,
    builds: &[Build],
    kustomizations: &BTreeMap<&str, &crate::model::kustomize::Kustomization>,
    fixes: &mut BTreeMap<String, BuildFixes>,
    notes: &mut Vec<Diagnostic>,
) {
    let mut moving: Vec<(String, Value)> = Vec::new();
    for (dir, f) in fixes.iter_mut() {
        for v in std::mem::take(&mut f.separate) {
            moving.push((dir.clone(), v));
        }
    }
    let mut separate_files: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for (from, v) in moving {
        let (kind, ns, name) = ident(&v);
        let host = builds.iter().find(|b| {
            b.kustomization
                .as_deref()
                .and_then(|f| kustomizations.get(f))
                .is_some_and(|k| {
                    k.namespace.as_deref() == Some(ns.as_str())
                        && k.name_prefix.is_none()
                        && k.name_suffix.is_none()
                })
        });
        match host {
            Some(h) => {
                let f = fixes.entry(h.dir.clone()).or_default();
                add_merged(&mut f.objects, v.clone(), notes);
                f.foreign.insert((kind, ns, name));
            }
            None => {
                let list = separate_files.entry((from, ns)).or_default();
                add_merged(list, v, notes);
            }
        }
    }
    for ((from, ns), objects) in separate_files {
        let file = join(&from, &format!("{SEPARATE_PREFIX}{ns}.yaml"));
        let names: Vec<String> = objects
            .iter()
            .map(|v| {
                let (k, n, name) = ident(v);
                format!("{k} {n}/{name}")
            })
            .collect();
        notes.push(
            Diagnostic::new(
                Code::RenderApplySeparately,
                format!(
                    "{} must live in namespace {ns}, which no build deploys into without moving it; they are written to {file}, which no kustomization includes: apply it where {ns} is managed (kubectl apply -f {file}, or list it in that namespace's kustomization)",
                    names.join(", ")
                ),
            )
            .in_file(file.clone(), 1),
        );
        fixes.entry(from).or_default().separate.extend(objects);
    }
}

/// Adds `v` to `list` unless an object of the same kind, namespace and name is there: two
/// builds asking for the same ReferenceGrant (one per namespace pair, so the same name) with
/// different permissions get one grant with both; other kinds keep the first, with a note.
fn add_merged(list: &mut Vec<Value>, v: Value, notes: &mut Vec<Diagnostic>) {
    let id = ident(&v);
    let Some(existing) = list.iter_mut().find(|e| ident(e) == id) else {
        list.push(v);
        return;
    };
    if *existing == v {
        return;
    }
    if id.0 == "ReferenceGrant" {
        for key in ["from", "to"] {
            let extra: Vec<Value> = v
                .pointer(&format!("/spec/{key}"))
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if let Some(Value::Array(items)) = existing.pointer_mut(&format!("/spec/{key}")) {
                for item in extra {
                    if !items.contains(&item) {
                        items.push(item);
                    }
                }
            }
        }
        return;
    }
    notes.push(Diagnostic::new(
        Code::RenderBuildDiffers,
        format!(
            "two builds need different {} {}/{} outside their own namespace; only the first is written",
            id.0, id.1, id.2
        ),
    ));
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Loads what each generated file writes (identity and header source), from the planned
/// contents or the file on disk.
fn load_written(root: &Path, scan: &Scan, plan: &EditPlan) -> Written {
    let mut map: BTreeMap<String, (String, Vec<Value>)> = BTreeMap::new();
    let planned: BTreeMap<&str, &FileEdit> =
        plan.edits.iter().map(|e| (e.path.as_str(), e)).collect();
    let paths: BTreeSet<&String> = plan.placements.values().collect();
    for path in paths {
        let bytes = match planned.get(path.as_str()) {
            Some(e) => e.contents.clone(),
            None => match scan.read(root, path) {
                Ok(b) => b.into_owned(),
                Err(_) => continue,
            },
        };
        let Some(header) = crate::header::parse(&bytes) else {
            continue;
        };
        let mut objects = Vec::new();
        for span in crate::load::split::split(&bytes) {
            let Ok(text) = std::str::from_utf8(span.slice(&bytes)) else {
                continue;
            };
            if let Ok(Some(v)) = crate::yaml::parse_document(text) {
                objects.push(v);
            }
        }
        map.insert(path.clone(), (header.source, objects));
    }
    map
}

/// The fix files of each build root and the entries its kustomization needs.
fn fix_edits(
    root: &Path,
    scan: &Scan,
    plan: &mut EditPlan,
    fixes: &BTreeMap<String, BuildFixes>,
    notes: &mut Vec<Diagnostic>,
) -> Vec<FileEdit> {
    let mut edits = Vec::new();
    for (dir, f) in fixes {
        let Some(k) = scan
            .index
            .kustomizations
            .iter()
            .find(|k| &k.dir == dir && !k.is_component)
        else {
            continue;
        };
        // The kustomization as the base plan leaves it.
        let base = plan
            .edits
            .iter()
            .find(|e| e.path == k.file)
            .map(|e| e.contents.clone())
            .or_else(|| scan.read(root, &k.file).ok().map(|b| b.into_owned()))
            .unwrap_or_default();
        // The files first, then the entries that list them.
        let mut files: Vec<(String, Vec<Value>)> = Vec::new();
        let mut resources = Vec::new();
        let mut patches = Vec::new();
        if !f.patches.is_empty() {
            files.push((PATCHES_FILE.to_string(), f.patches.clone()));
            patches.push(PATCHES_FILE.to_string());
        }
        for d in &f.deletes {
            let (kind, ns, name) = ident(d);
            let file = if ns.is_empty() {
                format!("{DELETE_PREFIX}{}.{name}.yaml", kind.to_ascii_lowercase())
            } else {
                format!(
                    "{DELETE_PREFIX}{}.{ns}.{name}.yaml",
                    kind.to_ascii_lowercase()
                )
            };
            if !patches.contains(&file) {
                files.push((file.clone(), vec![d.clone()]));
                patches.push(file);
            }
        }
        if !f.objects.is_empty() {
            files.push((OBJECTS_FILE.to_string(), f.objects.clone()));
            resources.push(OBJECTS_FILE.to_string());
        }
        let mut by_ns: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for v in &f.separate {
            by_ns.entry(ident(v).1).or_default().push(v.clone());
        }
        for (ns, docs) in by_ns {
            files.push((format!("{SEPARATE_PREFIX}{ns}.yaml"), docs));
        }
        // Entries of fixes no longer needed are removed, even when nothing else changes.
        let compared = f.compared;
        let ours = |entry: &str| compared && kustomize::is_fix_entry(&Value::from(entry));
        let kustomization = {
            match crate::plan::kustomize::sync_entries(&base, &resources, &patches, &ours) {
                Ok(Some(contents)) => contents,
                Ok(None) => base.clone(),
                Err(e) => {
                    notes.push(
                        Diagnostic::new(
                            Code::PlanKustomizationNotEdited,
                            format!(
                                "{} {e}; add by hand: resources {}, patches {}",
                                k.file,
                                resources.join(", "),
                                patches.join(", ")
                            ),
                        )
                        .in_file(k.file.clone(), 1),
                    );
                    base.clone()
                }
            }
        };
        let old = scan
            .read(root, &k.file)
            .map(|b| b.into_owned())
            .unwrap_or_default();
        if kustomization != old {
            edits.push(FileEdit {
                path: k.file.clone(),
                action: EditAction::Update,
                kind: EditKind::Kustomization,
                old,
                contents: kustomization.clone(),
            });
        }
        // The header's hash is the kustomization's as apply leaves it: stable on a re-run.
        for (name, docs) in files {
            let path = join(dir, &name);
            let mut text = crate::header::render(&k.file, &kustomization);
            for d in &docs {
                text.push_str("---\n");
                text.push_str(&crate::yaml::to_yaml(d));
            }
            plan.placements.insert(
                (k.file.clone(), "build".into(), dir.clone(), name),
                path.clone(),
            );
            push_file(root, (&mut edits, &mut *notes), &path, text.into_bytes());
        }
    }
    edits
}

/// Plans one fix file; a file of that name this tool did not write is left alone.
fn push_file(
    root: &Path,
    (edits, notes): (&mut Vec<FileEdit>, &mut Vec<Diagnostic>),
    path: &str,
    contents: Vec<u8>,
) {
    match std::fs::read(root.join(path)) {
        Ok(old) if old == contents => {}
        Ok(old) if crate::header::parse(&old).is_none() => notes.push(
            Diagnostic::new(
                Code::PlanOutputExists,
                format!(
                    "{path} exists and was not generated by gateway-migrate (no header), so it is left alone; the build's fix was not written"
                ),
            )
            .in_file(path.to_string(), 1),
        ),
        Ok(old) => edits.push(FileEdit {
            path: path.to_string(),
            action: EditAction::Update,
            kind: EditKind::Generated,
            old,
            contents,
        }),
        Err(_) => {
            edits.push(FileEdit {
                path: path.to_string(),
                action: EditAction::Create,
                kind: EditKind::Generated,
                old: Vec::new(),
                contents,
            })
        }
    }
}

/// Adds `fix` edits to the plan; an edit of a file the plan already edits replaces it.
fn merge_edits(plan: &mut EditPlan, fix: Vec<FileEdit>) {
    for e in fix {
        match plan.edits.iter_mut().find(|p| p.path == e.path) {
            Some(existing) => {
                existing.contents = e.contents;
            }
            None => plan.edits.push(e),
        }
    }
    plan.edits.sort_by(|a, b| a.path.cmp(&b.path));
}

/// The differences between what a build must render and what it renders after apply.
fn verify(
    build: &Build,
    expected: &[Expected],
    after: &[Rendered],
    generated_paths: &BTreeSet<String>,
    foreign: &BTreeSet<(String, String, String)>,
) -> Vec<String> {
    let _ = build;
    let mut actual: BTreeMap<(String, String, String), Value> = BTreeMap::new();
    for r in after {
        let ours = r.origin.as_ref().is_some_and(|o| {
            let name = o.rsplit('/').next().unwrap_or(o);
            generated_paths.contains(o) || name == OBJECTS_FILE
        });
        if !ours {
            continue;
        }
        let id = ident(&r.value);
        if foreign.contains(&id) {
            continue;
        }
        actual.insert(id, r.value.get("spec").cloned().unwrap_or(Value::Null));
    }
    let mut out = Vec::new();
    for e in expected {
        let id = (e.kind.clone(), e.namespace.clone(), e.name.clone());
        match actual.remove(&id) {
            None => out.push(format!(
                "{} {}/{} is missing after apply",
                e.kind, e.namespace, e.name
            )),
            Some(spec) if spec != e.spec => out.push(format!(
                "{} {}/{}: {}",
                e.kind,
                e.namespace,
                e.name,
                first_difference("spec", &spec, &e.spec)
            )),
            Some(_) => {}
        }
    }
    for (kind, ns, name) in actual.keys() {
        out.push(format!(
            "{kind} {ns}/{name} is deployed after apply but is not in the build's translation"
        ));
    }
    out
}

/// The first path where `rendered` and `wanted` differ, with both values.
fn first_difference(path: &str, rendered: &Value, wanted: &Value) -> String {
    match (rendered, wanted) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                let (x, y) = (
                    a.get(k).unwrap_or(&Value::Null),
                    b.get(k).unwrap_or(&Value::Null),
                );
                if x != y {
                    return first_difference(&format!("{path}.{k}"), x, y);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    return first_difference(&format!("{path}[{i}]"), x, y);
                }
            }
        }
        _ => {}
    }
    format!("{path} renders {rendered} but the build's translation gives {wanted}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build() -> Build {
        Build {
            dir: "overlays/dev".into(),
            kustomization: Some("overlays/dev/kustomization.yaml".into()),
            deployed_by: Vec::new(),
        }
    }

    fn route(ns: &str, name: &str, host: &str) -> Value {
        serde_json::json!({
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "HTTPRoute",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"hostnames": [host], "parentRefs": [{"name": "gw"}]}
        })
    }

    fn rendered(value: Value, origin: &str) -> Rendered {
        Rendered {
            value,
            origin: Some(origin.into()),
        }
    }

    #[test]
    fn verify_names_the_object_and_the_first_differing_field() {
        let generated: BTreeSet<String> = ["base/app.gateway-api.yaml".to_string()].into();
        let expected = vec![Expected {
            kind: "HTTPRoute".into(),
            namespace: "dev".into(),
            name: "app".into(),
            spec: route("dev", "app", "dev.example.com")["spec"].clone(),
        }];
        let same = [rendered(
            route("dev", "app", "dev.example.com"),
            "base/app.gateway-api.yaml",
        )];
        assert_eq!(
            verify(&build(), &expected, &same, &generated, &BTreeSet::new()),
            Vec::<String>::new()
        );
        let other = [rendered(
            route("dev", "app", "example.com"),
            "base/app.gateway-api.yaml",
        )];
        assert_eq!(
            verify(&build(), &expected, &other, &generated, &BTreeSet::new()),
            vec![
                "HTTPRoute dev/app: spec.hostnames[0] renders \"example.com\" but the build's translation gives \"dev.example.com\""
                    .to_string()
            ]
        );
        assert_eq!(
            verify(&build(), &expected, &[], &generated, &BTreeSet::new()),
            vec!["HTTPRoute dev/app is missing after apply".to_string()]
        );
    }

    #[test]
    fn a_build_rendering_an_object_it_does_not_translate_differs() {
        let generated: BTreeSet<String> = ["base/app.gateway-api.yaml".to_string()].into();
        let extra = [
            rendered(
                route("dev", "old", "example.com"),
                "base/app.gateway-api.yaml",
            ),
            // Hand-written objects are not this tool's: never compared.
            rendered(route("dev", "mine", "example.com"), "base/mine.yaml"),
        ];
        assert_eq!(
            verify(&build(), &[], &extra, &generated, &BTreeSet::new()),
            vec![
                "HTTPRoute dev/old is deployed after apply but is not in the build's translation"
                    .to_string()
            ]
        );
        // An object placed here for another build is not part of this build's comparison.
        let foreign: BTreeSet<(String, String, String)> = [(
            "HTTPRoute".to_string(),
            "dev".to_string(),
            "old".to_string(),
        )]
        .into();
        assert!(verify(&build(), &[], &extra, &generated, &foreign).is_empty());
    }

    #[test]
    fn parent_refs_follow_renamed_gateways() {
        let renames: BTreeMap<(String, String), String> =
            [(("dev".to_string(), "gw".to_string()), "dev-gw".to_string())].into();
        let r = rename_parents(&route("dev", "app", "a"), &renames);
        assert_eq!(r["spec"]["parentRefs"][0]["name"], "dev-gw");
        let other_ns = rename_parents(&route("prod", "app", "a"), &renames);
        assert_eq!(other_ns["spec"]["parentRefs"][0]["name"], "gw");
    }

    #[test]
    fn patches_match_the_object_as_its_file_writes_it() {
        let written = serde_json::json!({
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "HTTPRoute",
            "metadata": {"name": "app"},
            "spec": {"hostnames": ["a"]}
        });
        let p = replace_patch(&written, &serde_json::json!({"hostnames": ["b"]}));
        assert_eq!(
            p,
            serde_json::json!({
                "apiVersion": "gateway.networking.k8s.io/v1",
                "kind": "HTTPRoute",
                "metadata": {"name": "app"},
                "spec": {"$patch": "replace", "hostnames": ["b"]}
            })
        );
        let d = delete_patch(&written);
        assert_eq!(d["$patch"], "delete");
        assert!(d.get("spec").is_none());
    }
}
