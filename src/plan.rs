//! Planning: from translation results to a list of file edits. Nothing is written here.
//!
//! New objects go next to their source (`app.yaml` → `app.gateway-api.yaml`), one file per
//! source file; kustomizations that list a source get the new file added to `resources:`;
//! with `--in-place` the translated documents are replaced inside the source file.
//!
//! Invariant: every byte of an existing file outside a planned edit stays as it was; a plan
//! over a tree that is already up to date is empty (idempotence). The layout and the header
//! of generated files are documented in `docs/output-layout.md`.

pub mod inplace;
pub mod kustomize;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::config::Config;
use crate::gwapi::Generated;
use crate::index::Index;
use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic};
use crate::scan::Scan;
use crate::translate::SourceResult;

use crate::header;
pub use crate::header::GeneratedHeader;

/// Where generated objects go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// A new file next to each source file (the default: overlays may patch the sources).
    #[default]
    Alongside,
    /// Replace the translated documents inside their source files.
    InPlace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EditAction {
    Create,
    Update,
}

impl EditAction {
    pub fn as_str(self) -> &'static str {
        match self {
            EditAction::Create => "create",
            EditAction::Update => "update",
        }
    }
}

/// What a planned file is, for the report and for staleness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EditKind {
    /// A generated file next to its source (edge objects).
    Generated,
    /// A generated file holding mesh (GAMMA) routes.
    Mesh,
    /// A kustomization whose `resources:` gained entries.
    Kustomization,
    /// A source file whose translated documents were replaced (`--in-place`).
    InPlace,
}

/// One file to write: its root-relative path and its complete new contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    pub path: String,
    pub action: EditAction,
    pub kind: EditKind,
    /// The file's contents before the edit (empty for a new file), for `--diff`.
    pub old: Vec<u8>,
    pub contents: Vec<u8>,
}

/// What happened (or would happen) to one file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct FileAction {
    pub path: String,
    /// `create`, `update`, `unchanged`, `delete`.
    pub action: String,
}

/// Every edit of one run, sorted by path. Files whose contents would not change are absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EditPlan {
    pub edits: Vec<FileEdit>,
    /// Planning diagnostics (a kustomization that cannot be edited, a mesh route left out
    /// of `resources:`, ...), placed on their file.
    pub notes: Vec<Diagnostic>,
    /// `(source file, kind, namespace, name)` of each generated object → the file it goes to.
    pub placements: BTreeMap<(String, String, String, String), String>,
}

impl EditPlan {
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// The report's `files` list.
    pub fn file_actions(&self) -> Vec<FileAction> {
        self.edits
            .iter()
            .map(|e| FileAction {
                path: e.path.clone(),
                action: e.action.as_str().to_string(),
            })
            .collect()
    }

    /// The unified diff of every edit, `git diff` style (`a/` and `b/` prefixes).
    pub fn diff(&self) -> String {
        let mut out = String::new();
        for e in &self.edits {
            let old = String::from_utf8_lossy(&e.old);
            let new = String::from_utf8_lossy(&e.contents);
            let old_name = match e.action {
                EditAction::Create => "/dev/null".to_string(),
                EditAction::Update => format!("a/{}", e.path),
            };
            let text = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
            out.push_str(
                &text
                    .unified_diff()
                    .context_radius(3)
                    .header(&old_name, &format!("b/{}", e.path))
                    .to_string(),
            );
        }
        out
    }
}

/// Whether `g` is a mesh (GAMMA) route: a route whose parents include a Service.
pub fn is_mesh_route(g: &Generated) -> bool {
    let parents = match g {
        Generated::HttpRoute(o) => &o.spec.parent_refs,
        Generated::GrpcRoute(o) => &o.spec.parent_refs,
        Generated::TlsRoute(o) => &o.spec.parent_refs,
        Generated::TcpRoute(o) => &o.spec.parent_refs,
        _ => return false,
    };
    parents
        .iter()
        .any(|p| p.kind.as_deref() == Some("Service") && p.group.as_deref() == Some(""))
}

/// `dir/app.yaml` → `dir/app.<suffix>-mesh.yaml`: where mesh routes of `app.yaml` go.
pub fn mesh_output_path(source_file: &str, suffix: &str) -> String {
    output_path(source_file, &format!("{suffix}-mesh"))
}

/// Marks results of documents used as kustomize patches as skipped: a patch is a partial
/// object, and translating it as a whole one would create a second, incomplete object.
pub fn skip_patch_documents(index: &Index, results: &mut [SourceResult]) {
    for r in results.iter_mut() {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        if r.skipped.is_none() && index.is_patch_file(&obj.source.file) {
            r.generated.clear();
            r.grants.clear();
            r.skipped = Some("used as a kustomize patch".into());
            r.notes.push(Diagnostic::new(
                Code::PlanKustomizePatch,
                format!(
                    "{} is used as a kustomize patch, so its documents are partial objects; it was not translated as a whole object (translate the object it patches and port the patch by hand)",
                    obj.source.file
                ),
            ));
        }
    }
}

/// The generated objects of one output file.
#[derive(Default)]
struct Bucket<'a> {
    objects: Vec<&'a Generated>,
}

/// Plans the edits for `results` over the repository at `root`.
///
/// Reads the source files (for the header hash and `--in-place`), the existing generated
/// files and the kustomizations to edit; a file that cannot be read becomes a note.
pub fn build(
    root: &Path,
    scan: &Scan,
    results: &[SourceResult],
    config: &Config,
    layout: Layout,
) -> EditPlan {
    let index = &scan.index;
    let namespaces = ImplicitNamespaces::of(index);
    let mut plan = EditPlan::default();
    // Per source file and document: the results that go in place.
    let mut in_place: BTreeMap<&str, BTreeMap<usize, Vec<&SourceResult>>> = BTreeMap::new();
    let mut alongside: Vec<&SourceResult> = Vec::new();
    for r in results {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        if r.generated.is_empty() || r.skipped.is_some() {
            continue;
        }
        let file = obj.source.file.as_str();
        let has_undeployed_mesh =
            !config.deploy_mesh_routes && r.generated.iter().any(is_mesh_route);
        // Only a translated object's document is replaced: objects homed with another one (a
        // Gateway with its IngressClass, a grant with its Secret, a policy copy with its
        // policy) are written beside it, which stays.
        if layout == Layout::InPlace
            && !has_undeployed_mesh
            && inplace::supported(file)
            && obj.body.is_translated()
        {
            in_place
                .entry(file)
                .or_default()
                .entry(obj.source.document)
                .or_default()
                .push(r);
        } else {
            alongside.push(r);
        }
    }
    for (file, docs) in &in_place {
        alongside.extend(inplace::plan_file(
            root,
            scan,
            &namespaces,
            &mut plan,
            file,
            docs,
        ));
    }

    // Per source file: edge objects and mesh objects.
    let mut edge: BTreeMap<&str, Bucket> = BTreeMap::new();
    let mut mesh: BTreeMap<&str, Bucket> = BTreeMap::new();
    for r in alongside {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        let file = obj.source.file.as_str();
        for g in &r.generated {
            let bucket = if is_mesh_route(g) {
                mesh.entry(file).or_default()
            } else {
                edge.entry(file).or_default()
            };
            bucket.objects.push(g);
        }
    }

    let suffix = &config.output_suffix;
    let names = output_names(edge.keys().chain(mesh.keys()).copied(), suffix);
    let mut listed: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (file, bucket) in &edge {
        let out = output_path(&names[file], suffix);
        if plan_generated_file(
            (root, scan),
            &namespaces,
            &mut plan,
            file,
            &out,
            bucket,
            EditKind::Generated,
        ) {
            listed.entry(file).or_default().push(out);
        }
    }
    for (file, bucket) in &mesh {
        let out = mesh_output_path(&names[file], suffix);
        if !plan_generated_file(
            (root, scan),
            &namespaces,
            &mut plan,
            file,
            &out,
            bucket,
            EditKind::Mesh,
        ) {
            continue;
        }
        let routes: Vec<String> = bucket
            .objects
            .iter()
            .map(|g| format!("{} {}/{}", g.kind(), g.namespace(), g.name()))
            .collect();
        if config.deploy_mesh_routes {
            listed.entry(file).or_default().push(out.clone());
            plan.notes.push(Diagnostic::new(
                    Code::PlanMeshRouteDeployed,
                    format!(
                        "mesh (GAMMA) routes {} are deployed next to the VirtualServices they replace (deployMeshRoutes); Istio does not support both for the same workload: delete the VirtualServices in the same change",
                        routes.join(", ")
                    ),
                ).in_file(out.clone(), 1));
        } else {
            let listed_somewhere = index.kustomizations_listing(file).next().is_some();
            let message = if listed_somewhere {
                format!(
                    "mesh (GAMMA) routes {} are written to {out} but not added to kustomization resources: Istio does not support a VirtualService and an HTTPRoute for the same workload; add the file when you delete the VirtualServices (or set deployMeshRoutes)",
                    routes.join(", ")
                )
            } else {
                format!(
                    "mesh (GAMMA) routes {} are written to {out}; no kustomization lists {file}, so a directory-based Argo CD or Flux app will apply the file on merge, next to the VirtualServices it replaces, which Istio does not support: exclude it or delete the VirtualServices in the same change",
                    routes.join(", ")
                )
            };
            let code = if listed_somewhere {
                Code::PlanMeshRouteNotDeployed
            } else {
                Code::PlanMeshRouteUnlisted
            };
            plan.notes
                .push(Diagnostic::new(code, message).in_file(out.clone(), 1));
        }
    }

    kustomize::plan_listings(root, scan, &mut plan, &listed);

    plan.edits.sort_by(|a, b| a.path.cmp(&b.path));
    plan.notes.sort();
    plan
}

/// For each source file, the name its output paths derive from: the file itself, or, when two
/// sources would share an output (`app.yaml` and `app.json` both give `app.<suffix>.yaml`),
/// the file name plus `.yaml` for every source not ending in `.yaml`
/// (`app.json` → `app.json.<suffix>.yaml`).
fn output_names<'a>(
    files: impl Iterator<Item = &'a str>,
    suffix: &str,
) -> BTreeMap<&'a str, String> {
    let files: BTreeSet<&str> = files.collect();
    let mut by_output: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for f in &files {
        by_output.entry(output_path(f, suffix)).or_default().push(f);
    }
    let mut names = BTreeMap::new();
    for sources in by_output.values() {
        for f in sources {
            let name = if sources.len() > 1 && !f.ends_with(".yaml") {
                format!("{f}.yaml")
            } else {
                f.to_string()
            };
            names.insert(*f, name);
        }
    }
    names
}

/// Plans one generated file; returns whether the file is ours (so it may be listed in
/// kustomizations), false when an unrelated file already sits at `out`.
/// `repo` is the repository's root and its scan (whose loaded files are read from memory).
fn plan_generated_file(
    (root, scan): (&Path, &Scan),
    namespaces: &ImplicitNamespaces,
    plan: &mut EditPlan,
    source_file: &str,
    out: &str,
    bucket: &Bucket,
    kind: EditKind,
) -> bool {
    let source_bytes = match scan.read(root, source_file) {
        Ok(b) => b,
        Err(e) => {
            plan.notes.push(
                Diagnostic::new(
                    Code::PlanUnreadableSource,
                    format!("cannot read {source_file} to plan its output: {e}"),
                )
                .in_file(source_file.to_string(), 1),
            );
            return false;
        }
    };
    let contents = render_generated_file(namespaces, source_file, &source_bytes, &bucket.objects);
    for g in &bucket.objects {
        plan.placements.insert(
            (
                source_file.to_string(),
                g.kind().to_string(),
                g.namespace().to_string(),
                g.name().to_string(),
            ),
            out.to_string(),
        );
    }
    match std::fs::symlink_metadata(root.join(out)) {
        Err(_) => {
            plan.edits.push(FileEdit {
                path: out.to_string(),
                action: EditAction::Create,
                kind,
                old: Vec::new(),
                contents: contents.into_bytes(),
            });
            true
        }
        Ok(meta) => {
            let old = if meta.is_file() {
                scan.read(root, out).ok().map(|b| b.into_owned())
            } else {
                None
            };
            match old {
                Some(old) if header::parse(&old).is_some() => {
                    if old != contents.as_bytes() {
                        plan.edits.push(FileEdit {
                            path: out.to_string(),
                            action: EditAction::Update,
                            kind,
                            old,
                            contents: contents.into_bytes(),
                        });
                    }
                    true
                }
                _ => {
                    plan.notes.push(Diagnostic::new(
                            Code::PlanOutputExists,
                            format!(
                                "{out} exists and was not generated by gateway-migrate (no header), so it is left alone; the objects translated from {source_file} were not written: move the file or set outputSuffix"
                            ),
                        ).in_file(out.to_string(), 1));
                    false
                }
            }
        }
    }
}

/// The complete text of a generated file: header, then the objects in a stable order, each
/// a document starting with `---`. Duplicates (the same object asked for twice) appear once.
pub fn render_generated_file(
    namespaces: &ImplicitNamespaces,
    source_file: &str,
    source_bytes: &[u8],
    objects: &[&Generated],
) -> String {
    let mut sorted: Vec<&Generated> = objects.to_vec();
    sorted.sort_by_key(|g| g.sort_key());
    sorted.dedup_by(|a, b| a == b);
    let mut out = header::render(source_file, source_bytes);
    for g in sorted {
        out.push_str("---\n");
        out.push_str(&crate::yaml::to_yaml(&output_object(
            namespaces,
            source_file,
            g,
        )));
    }
    out
}

/// The object as written: `metadata.namespace` is left out when the source objects of the
/// file name no namespace themselves and the object lands in the namespace they land in, so
/// the output follows its source wherever it is deployed (kustomize `namespace:`, an Argo CD
/// destination namespace, `kubectl -n`).
pub fn output_object(
    namespaces: &ImplicitNamespaces,
    source_file: &str,
    g: &Generated,
) -> Generated {
    let mut g = g.clone();
    let follows_source = namespaces
        .0
        .get(source_file)
        .is_some_and(|set| set.contains(g.namespace()));
    if follows_source {
        metadata_mut(&mut g).namespace = None;
    }
    g
}

/// Per source file, the effective namespaces of its objects that name no namespace themselves:
/// a generated object landing in one of them leaves `metadata.namespace` out. Built once per
/// plan (a lookup per generated object instead of a scan of the index).
#[derive(Debug, Default)]
pub struct ImplicitNamespaces(BTreeMap<String, BTreeSet<String>>);

impl ImplicitNamespaces {
    pub fn of(index: &Index) -> Self {
        let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for o in &index.objects {
            if o.meta.namespace.as_deref().unwrap_or("").is_empty() && !o.namespace.is_empty() {
                map.entry(o.source.file.clone())
                    .or_default()
                    .insert(o.namespace.clone());
            }
        }
        ImplicitNamespaces(map)
    }
}

fn metadata_mut(g: &mut Generated) -> &mut crate::gwapi::Metadata {
    match g {
        Generated::Gateway(o) => &mut o.metadata,
        Generated::HttpRoute(o) => &mut o.metadata,
        Generated::GrpcRoute(o) => &mut o.metadata,
        Generated::TlsRoute(o) => &mut o.metadata,
        Generated::TcpRoute(o) => &mut o.metadata,
        Generated::ReferenceGrant(o) => &mut o.metadata,
        Generated::BackendTlsPolicy(o) => &mut o.metadata,
        Generated::Policy(o) => &mut o.metadata,
    }
}

/// `dir/app.yaml` → `dir/app.<suffix>.yaml` (`.yml` and `.json` sources get `.yaml`).
pub fn output_path(source_file: &str, suffix: &str) -> String {
    let (dir, base) = match source_file.rsplit_once('/') {
        Some((d, b)) => (format!("{d}/"), b),
        None => (String::new(), source_file),
    };
    let stem = base
        .strip_suffix(".yaml")
        .or_else(|| base.strip_suffix(".yml"))
        .or_else(|| base.strip_suffix(".json"))
        .unwrap_or(base);
    format!("{dir}{stem}.{suffix}.yaml")
}

/// Renders objects as a multi-document YAML stream, each document starting with `---`.
pub fn render_stream<'a>(objects: impl IntoIterator<Item = &'a Generated>) -> String {
    let mut out = String::new();
    for obj in objects {
        out.push_str("---\n");
        out.push_str(&crate::yaml::to_yaml(obj));
    }
    out
}

/// Why `check` considers a file out of date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StaleReason {
    /// A generated file that should exist does not.
    Missing,
    /// A generated file exists but its contents differ from what the sources give now.
    Outdated,
    /// A kustomization lacks an entry for a generated file.
    Unlisted,
    /// A source file still holds documents `--in-place` would replace.
    Untranslated,
    /// A generated file whose source file is gone or no longer yields any object.
    Orphaned,
}

impl StaleReason {
    pub fn as_str(self) -> &'static str {
        match self {
            StaleReason::Missing => "missing",
            StaleReason::Outdated => "outdated",
            StaleReason::Unlisted => "unlisted",
            StaleReason::Untranslated => "untranslated",
            StaleReason::Orphaned => "orphaned",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stale {
    pub path: String,
    pub reason: StaleReason,
    pub detail: String,
}

/// Everything `check` must fail on about generated files: the edits `apply` would still make,
/// and generated files (recognised by their header) whose source no longer produces them.
/// Empty when the tree is current.
pub fn staleness(scan: &Scan, plan: &EditPlan) -> Vec<Stale> {
    let mut stale = Vec::new();
    for e in &plan.edits {
        let (reason, detail) = match (e.kind, e.action) {
            (EditKind::Generated | EditKind::Mesh, EditAction::Create) => (
                StaleReason::Missing,
                "generated file does not exist".to_string(),
            ),
            (EditKind::Generated | EditKind::Mesh, EditAction::Update) => {
                let detail = match header::parse(&e.old).zip(header::parse(&e.contents)) {
                    Some((old, new)) if old.hash != new.hash => {
                        format!("source {} changed since it was generated", new.source)
                    }
                    _ => "contents differ from a fresh translation".to_string(),
                };
                (StaleReason::Outdated, detail)
            }
            (EditKind::Kustomization, _) => (
                StaleReason::Unlisted,
                "resources: lacks generated files".to_string(),
            ),
            (EditKind::InPlace, _) => (
                StaleReason::Untranslated,
                "holds documents to translate in place".to_string(),
            ),
        };
        stale.push(Stale {
            path: e.path.clone(),
            reason,
            detail,
        });
    }
    let planned: BTreeSet<&str> = plan.placements.values().map(String::as_str).collect();
    for g in &scan.generated_files {
        if planned.contains(g.path.as_str()) {
            continue;
        }
        stale.push(Stale {
            path: g.path.clone(),
            reason: StaleReason::Orphaned,
            detail: format!(
                "generated from {}, which no longer yields these objects; delete it and its kustomization entries",
                g.header.source
            ),
        });
    }
    stale.sort();
    stale
}

/// Staleness from the headers alone, without translating: generated files whose source file
/// changed (hash) or is gone. Cheap; `staleness` is the complete answer.
pub fn header_staleness(root: &Path, scan: &Scan) -> Vec<Stale> {
    let mut stale = Vec::new();
    for g in &scan.generated_files {
        match std::fs::read(root.join(&g.header.source)) {
            Ok(bytes) if header::source_hash(&bytes) == g.header.hash => {}
            Ok(_) => stale.push(Stale {
                path: g.path.clone(),
                reason: StaleReason::Outdated,
                detail: format!("source {} changed since it was generated", g.header.source),
            }),
            Err(_) => stale.push(Stale {
                path: g.path.clone(),
                reason: StaleReason::Orphaned,
                detail: format!("source {} is gone", g.header.source),
            }),
        }
    }
    stale.sort();
    stale
}
