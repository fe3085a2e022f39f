//! Deploy units: what the repository deploys together, where to, and in which order.
//!
//! A unit is a directory that reaches a cluster as one piece:
//! - a kustomize build root: a kustomization no other kustomization includes (through
//!   `resources:` or `components:`); Components are never roots, kustomize refuses to build
//!   one on its own;
//! - a directory a GitOps object of the repository deploys: a Flux `Kustomization`
//!   (`spec.path`), an Argo CD `Application` (`spec.source.path`, `spec.sources[].path`), or
//!   an Argo CD `ApplicationSet` whose generators the repository spells out (list elements,
//!   git directories: `applicationset.rs`);
//! - a plain directory of manifests that nothing above includes, which an operator applies
//!   (`kubectl apply -f dir`).
//!
//! Each deployment says where it goes where the object does (cluster, namespace) and what it
//! waits for (Flux `dependsOn`, Argo CD sync waves). A source file belongs to every unit that
//! deploys it ([`Units::of_file`]); a generated object is needed by the units of its sources.
//! `docs/deploy-units.md` describes the model and what it does not follow.

mod applicationset;
pub mod components;
pub mod filters;
pub mod home;
pub mod worlds;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic};
use crate::load::{BuildOptions, DeployTarget, Deployer};
use crate::model::kustomize::{Kustomization, join_relative};
use crate::scan::Scan;

/// Kinds without a namespace among those a repository's manifests hold next to what the tool
/// reads: a destination namespace never applies to them.
const CLUSTER_SCOPED_KINDS: &[&str] = &[
    "Namespace",
    "IngressClass",
    "GatewayClass",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterIssuer",
    "PersistentVolume",
    "StorageClass",
    "PriorityClass",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "APIService",
];

/// How a unit reaches the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// A kustomize build root (`kustomize build DIR`).
    Kustomize,
    /// A directory a GitOps object applies as it is.
    Directory,
    /// A directory of manifests nothing includes or deploys: applied by hand.
    Manual,
}

impl UnitKind {
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Kustomize => "kustomize",
            UnitKind::Directory => "directory",
            UnitKind::Manual => "manual",
        }
    }
}

/// One GitOps object (or one ApplicationSet element) deploying a unit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Deployment {
    /// The file and line of the object.
    pub file: String,
    pub line: usize,
    /// `Application`, `ApplicationSet`, `Kustomization` (Flux).
    pub kind: String,
    /// Its name; for an ApplicationSet, the set's name and the generated parameters' key.
    pub name: String,
    /// The destination cluster (Argo CD `server` or `name`, Flux `kubeConfig` Secret);
    /// `None`: the cluster the controller runs in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// The destination namespace (Argo CD `destination.namespace`, Flux `targetNamespace`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Flux `dependsOn` (`namespace/name`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    /// Argo CD sync wave of the Application (ordering among an app-of-apps' children).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wave: Option<i64>,
    /// Argo CD `directory.include` / `directory.exclude` (a directory source reads only the
    /// files they admit: `filters.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<String>,
    /// What the object adds to the kustomize build (prefix, suffix, namespace, components,
    /// patches).
    #[serde(skip_serializing_if = "BuildOptions::is_empty")]
    pub options: BuildOptions,
}

impl Deployment {
    /// `Application shop`, `Kustomization flux-system/docs`.
    pub fn label(&self) -> String {
        format!("{} {}", self.kind, self.name)
    }

    /// Where it deploys: `cluster/namespace`, with `(in-cluster)` and `(default)` for what the
    /// object leaves to its controller.
    pub fn destination(&self) -> String {
        format!(
            "{}/{}",
            self.cluster.as_deref().unwrap_or("(in-cluster)"),
            self.namespace.as_deref().unwrap_or("(as written)")
        )
    }
}

/// One deploy unit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unit {
    /// The directory, root-relative (`""` for the repository root).
    pub dir: String,
    /// Its kustomization file, `None` for a plain directory.
    pub kustomization: Option<String>,
    /// The GitOps objects that deploy it (none for a kustomize root nothing names, or a
    /// manual directory).
    pub deployed_by: Vec<Deployment>,
    /// Whether sub-directories' manifests are part of it (a Flux path without a
    /// kustomization; an Argo CD directory source with `recurse: true`).
    pub recurse: bool,
}

impl Unit {
    /// The name the report uses: the directory, `.` for the root.
    pub fn name(&self) -> &str {
        if self.dir.is_empty() { "." } else { &self.dir }
    }

    /// The namespace this unit's objects land in, when every deployment of it names the same
    /// one, and whether it overrides the objects' own (every deployment is a Flux
    /// `targetNamespace`) or only fills it in (an Argo CD `destination.namespace`).
    pub fn destination_namespace(&self) -> Option<(String, bool)> {
        let first = self.deployed_by.first()?;
        let ns = first.namespace.as_ref()?;
        self.deployed_by
            .iter()
            .all(|d| d.namespace.as_ref() == Some(ns))
            .then(|| {
                let overrides = self.deployed_by.iter().all(|d| d.kind == "Kustomization");
                (ns.clone(), overrides)
            })
    }

    /// The clusters its GitOps objects deploy it to (`""` for the controller's own), `None`
    /// when nothing deploys it.
    pub fn clusters(&self) -> Option<BTreeSet<String>> {
        (!self.deployed_by.is_empty()).then(|| {
            self.deployed_by
                .iter()
                .map(|d| cluster_identity(d.cluster.as_deref()))
                .collect()
        })
    }

    /// What every deployment of this kustomize build adds to it, when they agree and add
    /// something (`None` otherwise: the build renders as its kustomization says).
    pub fn build_options(&self) -> Option<&BuildOptions> {
        let first = &self.deployed_by.first()?.options;
        (!first.is_empty() && self.deployed_by.iter().all(|d| d.options == *first)).then_some(first)
    }

    /// `object` (a rendered manifest) as it lands through this unit: its destination
    /// namespace set on a namespaced object without one, or on every namespaced object when
    /// it overrides ([`Self::destination_namespace`]).
    pub fn place_in_destination(&self, object: &mut serde_json::Value) {
        let Some((ns, overrides)) = self.destination_namespace() else {
            return;
        };
        let kind = object.get("kind").and_then(|k| k.as_str()).unwrap_or("");
        if CLUSTER_SCOPED_KINDS.contains(&kind) {
            return;
        }
        if let Some(meta) = object.get_mut("metadata").and_then(|m| m.as_object_mut()) {
            let missing = meta
                .get("namespace")
                .and_then(|n| n.as_str())
                .is_none_or(str::is_empty);
            if missing || overrides {
                meta.insert("namespace".into(), serde_json::Value::from(ns));
            }
        }
    }

    pub fn kind(&self) -> UnitKind {
        match (&self.kustomization, self.deployed_by.is_empty()) {
            (Some(_), _) => UnitKind::Kustomize,
            (None, false) => UnitKind::Directory,
            (None, true) => UnitKind::Manual,
        }
    }
}

/// The units of a repository, and which source files each deploys.
#[derive(Debug, Clone, Default)]
pub struct Units {
    /// Sorted by directory.
    pub units: Vec<Unit>,
    /// Per source file (of the index and of kustomizations), the positions in `units` of the
    /// units that deploy it.
    by_file: BTreeMap<String, Vec<usize>>,
    /// Files in a deployed directory that its deployers' filters leave out (Argo CD
    /// `include`/`exclude` and skip marker, Flux `.sourceignore`) and nothing else deploys.
    pub excluded: BTreeSet<String>,
}

impl Units {
    /// The units deploying `file` (none: nothing in the repository deploys it).
    pub fn of_file(&self, file: &str) -> impl Iterator<Item = &Unit> {
        self.by_file
            .get(file)
            .into_iter()
            .flatten()
            .filter_map(|&i| self.units.get(i))
    }

    /// The positions in `units` of the units deploying `file`.
    pub(crate) fn positions_of(&self, file: &str) -> &[usize] {
        self.by_file
            .get(file)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The units that GitOps objects or kustomize roots deploy (every kind but manual
    /// directories): the builds the render stage looks at.
    pub fn builds(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.kind() != UnitKind::Manual)
    }

    /// The namespace the objects of each file land in, where every unit deploying the file
    /// says the same, and whether it overrides the objects' own: an Argo CD
    /// `destination.namespace` applies to namespaced objects without one (argo-cd
    /// `controller/state.go`), a Flux `targetNamespace` to every object (kustomize-controller
    /// sets the generated kustomization's `namespace:`, fluxcd/pkg `GenerateManifest`). A file
    /// deployed by units that disagree, or by one that names no namespace, is left out.
    pub fn destination_namespaces(&self) -> BTreeMap<String, (String, bool)> {
        let mut out = BTreeMap::new();
        for (file, positions) in &self.by_file {
            let destinations: BTreeSet<Option<(String, bool)>> = positions
                .iter()
                .filter_map(|&i| self.units.get(i))
                .map(Unit::destination_namespace)
                .collect();
            if let (1, Some(Some((ns, overrides)))) = (destinations.len(), destinations.first()) {
                out.insert(file.clone(), (ns.clone(), *overrides));
            }
        }
        out
    }

    /// Whether two units may land on the same cluster: true unless both name destinations
    /// and no cluster is common to them.
    pub fn may_share_cluster(a: &Unit, b: &Unit) -> bool {
        match (a.clusters(), b.clusters()) {
            (Some(x), Some(y)) => !x.is_disjoint(&y),
            _ => true,
        }
    }
}

/// One name for a destination cluster: the cluster the controller runs in is written
/// `https://kubernetes.default.svc` (Argo CD `server`), `in-cluster` (Argo CD `name`, argo-cd
/// `util/db/cluster.go`) or not at all (Flux without `kubeConfig`); a repository with both
/// tools may run them in one cluster, so all three are the same here.
fn cluster_identity(cluster: Option<&str>) -> String {
    match cluster.map(|c| c.trim_end_matches('/')) {
        None | Some("") | Some("https://kubernetes.default.svc") | Some("in-cluster") => {
            String::new()
        }
        Some(c) => c.to_string(),
    }
}

/// The units of the repository and diagnostics about GitOps objects whose paths it does not
/// have or cannot expand.
pub fn units(scan: &Scan) -> (Units, Vec<Diagnostic>) {
    let index = &scan.index;
    let mut included: BTreeSet<String> = BTreeSet::new();
    for k in &index.kustomizations {
        for entry in k.included() {
            if let Some(path) = k.resolve(entry) {
                included.insert(path);
            }
        }
    }
    let mut units: BTreeMap<String, Unit> = BTreeMap::new();
    for k in &index.kustomizations {
        if k.is_component || included.contains(&k.dir) {
            continue;
        }
        units.insert(
            k.dir.clone(),
            Unit {
                dir: k.dir.clone(),
                kustomization: Some(k.file.clone()),
                deployed_by: Vec::new(),
                recurse: false,
            },
        );
    }
    let mut notes = Vec::new();
    let object_files = manifest_files(scan);
    let dirs: BTreeSet<String> = known_dirs(scan);
    for d in &scan.deployers {
        for (target, deployment) in targets_of(d, &dirs, &mut notes) {
            let raw = target.path.trim_start_matches("./").trim_end_matches('/');
            // kustomize-controller joins the path to the source's root with securejoin, so
            // `..` stops at the root and a leading `/` is the root: it never leaves.
            let resolved = if d.kind == "Kustomization" {
                Some(clamped(raw))
            } else {
                join_relative("", raw)
            };
            let Some(dir) = resolved else {
                notes.push(
                    Diagnostic::new(
                        Code::RenderDeployPathOutside,
                        format!(
                            "{} {} deploys {}, which is outside the repository; it is not built",
                            d.kind, d.name, target.path
                        ),
                    )
                    .in_file(d.source.file.clone(), d.source.line),
                );
                continue;
            };
            let kustomization = index.kustomization_in(&dir).filter(|k| !k.is_component);
            let holds_files = object_files.iter().any(|f| {
                let parent = parent_dir(f);
                parent == dir || (target.recurse && is_under(parent, &dir))
            });
            if kustomization.is_none() && !holds_files {
                continue;
            }
            let unit = units.entry(dir.clone()).or_insert_with(|| Unit {
                dir: dir.clone(),
                kustomization: kustomization.map(|k| k.file.clone()),
                deployed_by: Vec::new(),
                recurse: false,
            });
            // With a kustomization, kustomize decides what is included.
            unit.recurse |= target.recurse && unit.kustomization.is_none();
            if !unit.deployed_by.contains(&deployment) {
                unit.deployed_by.push(deployment);
            }
        }
    }
    // Flux generates a kustomization for a path without one, listing each sub-directory that
    // has a kustomization as a resource and not descending into it (fluxcd/pkg
    // kustomize/kustomize_generator.go `scanManifests`): such a build is deployed by the
    // Flux object too, with its destination.
    let recursing: Vec<(String, Vec<Deployment>)> = units
        .values()
        .filter(|u| u.recurse && u.kustomization.is_none())
        .map(|u| (u.dir.clone(), u.deployed_by.clone()))
        .collect();
    // Argo CD's directory source with `recurse` reads every manifest below it as it is,
    // kustomizations included (argo-cd `reposerver/repository/repository.go`
    // `getPotentiallyValidManifests`): a build below it that nothing else deploys is no unit.
    let mut read_raw: BTreeSet<String> = BTreeSet::new();
    for (top, deployments) in &recursing {
        let flux: Vec<&Deployment> = deployments
            .iter()
            .filter(|d| d.kind == "Kustomization")
            .collect();
        let argo = flux.len() < deployments.len();
        for u in units.values_mut() {
            if u.kustomization.is_some() && u.dir != *top && is_under(&u.dir, top) {
                for &d in &flux {
                    if !u.deployed_by.contains(d) {
                        u.deployed_by.push(d.clone());
                    }
                }
                if argo {
                    read_raw.insert(u.dir.clone());
                }
            }
        }
    }
    units.retain(|dir, u| !(read_raw.contains(dir) && u.deployed_by.is_empty()));
    for u in units.values_mut() {
        u.deployed_by.sort();
        let first = u.deployed_by.first().map(|d| &d.options);
        let differ = u.kustomization.is_some()
            && first.is_some_and(|f| u.deployed_by.iter().any(|d| d.options != *f));
        if differ {
            let labels: Vec<String> = u.deployed_by.iter().map(Deployment::label).collect();
            notes.push(
                Diagnostic::new(
                    Code::DeployOptionsDiffer,
                    format!(
                        "build {} is deployed with different additions (namePrefix, nameSuffix, namespace, components or patches) by {}: it is rendered as its kustomization says, which none of them deploys; give each its own overlay",
                        u.name(),
                        crate::diagnostic::list_some(&labels, 5)
                    ),
                )
                .in_file(u.kustomization.clone().unwrap_or_default(), 1),
            );
        }
    }
    let mut units = Units {
        units: units.into_values().collect(),
        by_file: BTreeMap::new(),
        excluded: BTreeSet::new(),
    };
    assign_files(scan, &mut units);
    (units, notes)
}

/// The files holding objects the tool read, and those holding GitOps objects (an app of apps
/// deploys the files of its child Applications, which orders them).
fn manifest_files(scan: &Scan) -> BTreeSet<&str> {
    scan.index
        .objects
        .iter()
        .map(|o| o.source.file.as_str())
        .chain(scan.deployers.iter().map(|d| d.source.file.as_str()))
        .collect()
}

/// Every directory the repository is known to have: those of the files read, of the
/// kustomizations, and their ancestors (what a git directories generator can match).
fn known_dirs(scan: &Scan) -> BTreeSet<String> {
    let mut dirs = BTreeSet::new();
    let files = scan
        .index
        .objects
        .iter()
        .map(|o| parent_dir(&o.source.file).to_string())
        .chain(scan.index.kustomizations.iter().map(|k| k.dir.clone()));
    for mut dir in files {
        while !dir.is_empty() && dirs.insert(dir.clone()) {
            dir = parent_dir(&dir).to_string();
        }
    }
    dirs
}

/// Each target of a deployer with the deployment record for it; an ApplicationSet's template
/// expanded over its generators.
fn targets_of(
    d: &Deployer,
    dirs: &BTreeSet<String>,
    notes: &mut Vec<Diagnostic>,
) -> Vec<(DeployTarget, Deployment)> {
    let record = |t: &DeployTarget, name: String| Deployment {
        file: d.source.file.clone(),
        line: d.source.line,
        kind: d.kind.clone(),
        name,
        cluster: t.cluster.clone(),
        namespace: t.namespace.clone(),
        depends_on: d.depends_on.clone(),
        wave: d.wave,
        include: t.include.clone(),
        exclude: t.exclude.clone(),
        options: t.options.clone(),
    };
    if d.kind != "ApplicationSet" {
        let name = match (&d.namespace, d.kind.as_str()) {
            (Some(ns), "Kustomization") => format!("{ns}/{}", d.name),
            _ => d.name.clone(),
        };
        return d
            .targets
            .iter()
            .map(|t| (t.clone(), record(t, name.clone())))
            .collect();
    }
    match applicationset::expand(d, dirs) {
        Ok(expanded) => expanded
            .into_iter()
            .map(|(t, key)| {
                let name = format!("{} ({key})", d.name);
                let r = record(&t, name);
                (t, r)
            })
            .collect(),
        Err(why) => {
            notes.push(
                Diagnostic::new(
                    Code::DeployGeneratorUnknown,
                    format!(
                        "ApplicationSet {}: {why}; the Applications it generates are not known, so the directories they deploy are not units of their own",
                        d.name
                    ),
                )
                .in_file(d.source.file.clone(), d.source.line),
            );
            Vec::new()
        }
    }
}

/// Which units deploy each source file: a kustomize unit every file its kustomizations list
/// (resources, and the files of resource directories' kustomizations); a directory unit the
/// files in it (and below it, when it recurses); a file no unit deploys gets a manual unit for
/// its directory.
fn assign_files(scan: &Scan, units: &mut Units) {
    let index = &scan.index;
    let ignores = filters::SourceIgnore::new(
        scan.source_ignores
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str())),
    );
    let mut by_file: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let object_files = manifest_files(scan);
    for (i, u) in units.units.iter().enumerate() {
        match &u.kustomization {
            Some(_) => {
                for k in reached_by(scan, u) {
                    by_file.entry(k.file.clone()).or_default().insert(i);
                    for entry in k.resources.iter().chain(k.components.iter()) {
                        if let Some(path) = k.resolve(entry) {
                            by_file.entry(path).or_default().insert(i);
                        }
                    }
                }
            }
            None => {
                for f in &object_files {
                    let parent = parent_dir(f);
                    // Below a kustomization, kustomize decides (and that build is a unit).
                    let in_build = || {
                        let mut dir = parent;
                        while dir != u.dir && !dir.is_empty() {
                            if index.kustomization_in(dir).is_some() {
                                return true;
                            }
                            dir = parent_dir(dir);
                        }
                        false
                    };
                    // Argo CD reads files below a kustomization as they are; Flux lists the
                    // kustomization instead.
                    let flux_only = u.deployed_by.iter().all(|d| d.kind == "Kustomization");
                    let below = u.recurse && is_under(parent, &u.dir) && !(flux_only && in_build());
                    if parent == u.dir || below {
                        if admitted(scan, &ignores, u, f) {
                            by_file.entry(f.to_string()).or_default().insert(i);
                        } else {
                            units.excluded.insert(f.to_string());
                        }
                    }
                }
            }
        }
    }
    // Files nothing deploys: a manual unit per directory.
    let mut manual: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &object_files {
        if !by_file.contains_key(*f) && !index.is_patch_file(f) {
            manual
                .entry(parent_dir(f).to_string())
                .or_default()
                .push(f.to_string());
        }
    }
    // A file a deployer's filter left out is deployed by another unit only if that one
    // admits it.
    units.excluded.retain(|f| !by_file.contains_key(f));
    for (dir, files) in manual {
        let i = units.units.len();
        units.units.push(Unit {
            dir,
            kustomization: None,
            deployed_by: Vec::new(),
            recurse: false,
        });
        for f in files {
            by_file.entry(f).or_default().insert(i);
        }
    }
    // Keep `units` sorted by directory (manual units were appended): renumber.
    let mut order: Vec<usize> = (0..units.units.len()).collect();
    order.sort_by(|&a, &b| units.units[a].cmp(&units.units[b]));
    let mut new_pos = vec![0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_pos[old] = new;
    }
    let mut sorted: Vec<Option<Unit>> = units.units.drain(..).map(Some).collect();
    units.units = order.iter().filter_map(|&old| sorted[old].take()).collect();
    units.by_file = by_file
        .into_iter()
        .map(|(f, set)| {
            let mut v: Vec<usize> = set.into_iter().map(|i| new_pos[i]).collect();
            v.sort_unstable();
            (f, v)
        })
        .collect();
}

/// Whether `file`, in the directory (or below it) of directory unit `u`, is applied by some
/// deployment of `u`: Argo CD's `include`/`exclude` and skip marker, Flux's `.sourceignore`
/// and default ignores (`filters.rs`). A unit nothing deploys applies every file.
pub(crate) fn admitted(scan: &Scan, ignores: &filters::SourceIgnore, u: &Unit, file: &str) -> bool {
    u.deployed_by.is_empty()
        || u.deployed_by
            .iter()
            .any(|d| admits(scan, ignores, u, d, file))
}

/// Whether deployment `d` of unit `u` applies `file` (in the unit's directory or below).
pub(crate) fn admits(
    scan: &Scan,
    ignores: &filters::SourceIgnore,
    u: &Unit,
    d: &Deployment,
    file: &str,
) -> bool {
    match d.kind.as_str() {
        // Flux lists only `.yaml`/`.yml` files in the kustomization it generates for a path
        // without one (`fluxcd/pkg` `kustomize/kustomize_generator.go` `scanManifests`).
        "Kustomization" => {
            !ignores.ignores(file)
                && (u.kustomization.is_some() || file.ends_with(".yaml") || file.ends_with(".yml"))
        }
        _ => {
            let rel = if u.dir.is_empty() {
                file
            } else {
                file.strip_prefix(&format!("{}/", u.dir)).unwrap_or(file)
            };
            filters::argo_reads(
                rel,
                d.include.as_deref(),
                d.exclude.as_deref(),
                scan.sources.get(file).map(|t| t.bytes.as_ref()),
            )
        }
    }
}

/// The kustomizations a build rooted at `dir` reaches (itself, its bases and components,
/// transitively), in the order first reached.
pub fn reached<'a>(scan: &'a Scan, dir: &str) -> Vec<&'a Kustomization> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = vec![dir.to_string()];
    while let Some(dir) = stack.pop() {
        if !seen.insert(dir.clone()) {
            continue;
        }
        let Some(k) = scan.index.kustomization_in(&dir) else {
            continue;
        };
        out.push(k);
        let entries: Vec<&String> = k.included().collect();
        for entry in entries.into_iter().rev() {
            if let Some(path) = k.resolve(entry) {
                stack.push(path);
            }
        }
    }
    out
}

/// The kustomizations the build of unit `u` reaches: [`reached`] from its directory, plus
/// the Components its GitOps objects add (Flux `spec.components`, Argo CD
/// `source.kustomize.components`, relative to the unit's directory).
pub fn reached_by<'a>(scan: &'a Scan, u: &Unit) -> Vec<&'a Kustomization> {
    let mut out = reached(scan, &u.dir);
    let added = u
        .build_options()
        .map(|o| o.components.as_slice())
        .unwrap_or_default();
    for c in added {
        let Some(dir) = join_relative(&u.dir, c) else {
            continue;
        };
        for k in reached(scan, &dir) {
            if !out.iter().any(|o| o.file == k.file) {
                out.push(k);
            }
        }
    }
    out
}

/// `path` under the root the way securejoin resolves it: `..` at the root stays there, a
/// leading `/` is the root.
pub(crate) fn clamped(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

pub(crate) fn parent_dir(file: &str) -> &str {
    file.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// Whether directory `dir` is `top` or below it (`""` is the root, above everything).
pub(crate) fn is_under(dir: &str, top: &str) -> bool {
    top.is_empty()
        || dir == top
        || dir
            .strip_prefix(top)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests;
