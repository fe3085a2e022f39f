//! The one entry that runs the stages: [`run`] takes a [`Request`] and returns an
//! [`Outcome`]. Every command and every test goes through it, so what a test sees is what a
//! user sees.
//!
//! ```text
//! scan (walk → load → index) → translate → validate → plan → [lint, staleness] → [write]
//! ```
//!
//! Every diagnostic of every stage ends up placed and sorted in [`Outcome::diagnostics`];
//! the report is built from the outcome once, afterwards.

use std::path::PathBuf;

use crate::config::Config;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::plan::{self, EditPlan, FileAction, Layout, Stale, StaleReason};
use crate::scan::{self, Scan, ScanError};
use crate::translate::{self, SourceResult};
use crate::walk::{SkipKind, Skipped};

/// What to read.
#[derive(Debug, Clone)]
pub enum Input {
    /// A repository on disk, walked from its root.
    Repository(PathBuf),
    /// Named in-memory streams (`convert`): their objects are the whole index, nothing is
    /// planned.
    Streams(Vec<(String, Vec<u8>)>),
}

/// One run's request.
#[derive(Debug, Clone)]
pub struct Request {
    pub input: Input,
    pub config: Config,
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// Show a progress bar on a terminal for long scans.
    pub progress: bool,
    pub layout: Layout,
    /// `check`: lint the repository's own Gateway API objects and report stale files.
    pub check: bool,
    /// Write the planned edits (`apply`, `check --fix`).
    pub write: bool,
    /// Render kustomize builds (repositories only).
    pub render: crate::render::RenderOptions,
    /// `check`: ask git which generated files a commit would leave out (the CLI sets it; off
    /// by default so that a test's result does not depend on the state of the repository
    /// holding its fixture).
    pub git_status: bool,
    /// Compare old and new routing probe by probe (`--no-equivalence` turns it off).
    pub equivalence: bool,
}

impl Request {
    /// A request that plans `input` with `config` and all defaults otherwise.
    pub fn new(input: Input, config: Config) -> Self {
        Request {
            input,
            config,
            jobs: 0,
            progress: false,
            layout: Layout::Alongside,
            check: false,
            write: false,
            render: crate::render::RenderOptions::default(),
            git_status: false,
            equivalence: true,
        }
    }
}

/// Everything a run produced.
#[derive(Debug)]
pub struct Outcome {
    pub config: Config,
    pub scan: Scan,
    /// One per translated source object, ordered by position in the index. Their
    /// diagnostics have been moved to [`Outcome::diagnostics`].
    pub results: Vec<SourceResult>,
    /// The edits (empty for streams).
    pub plan: EditPlan,
    /// `check`: generated files that are missing, outdated or orphaned.
    pub stale: Vec<Stale>,
    /// The files written, when the request wrote.
    pub written: Option<Vec<FileAction>>,
    /// Every diagnostic of every stage, placed and sorted by file, document and field.
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics a suppression accepted (inline comment or configuration rule); they are
    /// not in [`Outcome::diagnostics`] and count for nothing.
    pub suppressed: Vec<crate::suppress::Suppressed>,
    /// The kustomize builds and what rendering and verification found (empty for streams).
    pub builds: Vec<crate::render::BuildReport>,
    /// The deploy units: what the repository deploys together, and where to (empty for
    /// streams).
    pub units: crate::deploy::Units,
    /// The routing equivalence counts (`None` with `--no-equivalence`).
    pub equivalence: Option<crate::equivalence::Summary>,
    /// The ingress-nginx controllers the Ingresses were served by, and where each one's
    /// configuration came from.
    pub controllers: Vec<crate::controllers::ControllerUse>,
}

impl Outcome {
    /// The diagnostics about the source object at `position` in the index.
    pub fn diagnostics_of(&self, position: usize) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(move |d| d.location.object == Some(position))
    }

    /// The generated objects, in output order (kind, namespace, name).
    pub fn generated(&self) -> Vec<&crate::gwapi::Generated> {
        let mut out: Vec<_> = self
            .results
            .iter()
            .flat_map(|r| r.generated.iter())
            .collect();
        out.sort_by_key(|g| g.sort_key());
        out
    }

    /// Whether the repository is not current whatever the threshold: stale files, errors
    /// about Gateway API objects already in the repository, or planning and rendering errors
    /// (a file `apply` cannot write or list, so the repository can never become current).
    /// The CLI's `check` fails on more: every diagnostic at or above `--fail-on`
    /// (`cli::exit_status`); this narrower predicate is what the render tests assert.
    pub fn check_fails(&self) -> bool {
        !self.stale.is_empty()
            || self.diagnostics.iter().any(|d| {
                d.severity == Severity::Error
                    && (matches!(d.code.family(), "plan" | "render")
                        || d.location
                            .object
                            .is_some_and(|o| self.is_repository_object(o)))
            })
    }

    /// Whether a commit would leave generated files (or the kustomizations listing them) out:
    /// a change still to make, which fails `check` whatever `--fail-on` says (unless the
    /// diagnostic is suppressed).
    pub fn leaves_files_out(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.code == Code::CheckUntrackedGenerated)
    }

    /// Whether the object at `position` is a Gateway API object of the repository (linted,
    /// not translated).
    pub fn is_repository_object(&self, position: usize) -> bool {
        self.scan
            .index
            .objects
            .get(position)
            .is_some_and(|o| matches!(o.body, crate::model::SourceBody::GatewayApi(_)))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error(transparent)]
    Scan(#[from] ScanError),
    #[error(transparent)]
    Write(#[from] crate::write::WriteError),
}

/// Runs the stages for `request`, every parallel stage on `request.jobs` threads.
pub fn run(request: Request) -> Result<Outcome, PipelineError> {
    let pool = scan::thread_pool(request.jobs)?;
    pool.install(|| run_stages(request))
}

fn run_stages(request: Request) -> Result<Outcome, PipelineError> {
    let Request {
        input,
        config,
        jobs,
        progress,
        layout,
        check,
        write,
        render,
        git_status,
        equivalence: compare_routing,
    } = request;
    let mut render = render;
    render.equivalence = compare_routing;
    let progress = crate::progress::Progress::new(progress);
    let (scan, root) = match input {
        Input::Repository(root) => (
            scan::scan_repo_with_progress(&root, &config, jobs, &progress)?,
            Some(root),
        ),
        Input::Streams(streams) => (scan::scan_inputs(&streams, &config), None),
    };
    // What the repository deploys together, and where to (repositories only). Objects that
    // name no namespace land in their units' destination namespace.
    let mut scan = scan;
    let (units, mut unit_notes) = match &root {
        // A panic costs the units (every file is then placed as before), not the run.
        Some(_) => {
            crate::isolate::catch("finding the deploy units", || crate::deploy::units(&scan))
                .unwrap_or_else(|d| (Default::default(), vec![*d]))
        }
        None => Default::default(),
    };
    let deployed = units.destination_namespaces();
    if !deployed.is_empty() {
        scan.index = std::mem::take(&mut scan.index).with_deploy_namespaces(&deployed, &config);
    }
    progress.phase(
        &format!("translating {} objects", scan.index.objects.len()),
        None,
    );
    // Alternatives (same-named objects nothing deploys together) and files GitOps objects
    // leave out are translated and compared each in its own world (empty: one world, the
    // whole index).
    let worlds: Vec<crate::index::Subset> =
        crate::isolate::catch("finding the worlds of the deploy units", || {
            crate::deploy::worlds::worlds(&scan.index, &units)
                .worlds
                .iter()
                .map(|w| {
                    scan.index
                        .subset(&w.positions, (&w.owned, &w.bound), &config)
                })
                .collect()
        })
        .unwrap_or_else(|d| {
            unit_notes.push(*d);
            Vec::new()
        });
    let mut results = translate_in_worlds(&scan.index, &worlds, &config);
    // Files a GitOps object's filter leaves out, which nothing else deploys, never reach a
    // cluster: nothing is generated for them.
    for r in &mut results {
        let Some(obj) = scan.index.objects.get(r.object) else {
            continue;
        };
        if units.excluded.contains(&obj.source.file) && obj.body.is_translated() {
            r.generated.clear();
            r.grants.clear();
            r.notes = vec![Diagnostic::new(
                Code::DeployLeftOut,
                format!(
                    "{} is left out by the file filter of the GitOps object deploying its directory (Argo CD directory include/exclude or +argocd:skip-file-rendering, Flux .sourceignore), and nothing else deploys it: it is not translated",
                    obj.source.file
                ),
            )];
        }
    }
    let controllers = translate::nginx_controllers_in_use(&scan.index, &config);
    if root.is_some() {
        plan::skip_patch_documents(&scan.index, &mut results);
    }
    // Invalid generated objects become error diagnostics here, so they are never planned or
    // written.
    progress.phase("validating the generated objects", None);
    let mut stage_panics = Vec::new();
    let validated = crate::isolate::catch("validating the generated objects", || {
        crate::validate::validate_results(&scan.index, &worlds, &mut results, &config)
    });
    if let Err(d) = validated {
        // Nothing is known to be valid: nothing is written.
        for r in &mut results {
            r.generated.clear();
        }
        stage_panics.push(*d);
    }
    // A Gateway routes of several deploy units need is homed with its class's
    // infrastructure (repositories only; streams have no units).
    if root.is_some() {
        match crate::isolate::catch("placing shared Gateways", || {
            crate::deploy::home::shared_gateways(&scan.index, &units, &results, &worlds)
        }) {
            Ok(shared) => shared.apply(&mut results),
            Err(d) => stage_panics.push(*d),
        }
        match crate::isolate::catch("finding Components no build renders", || {
            crate::deploy::components::unbuilt_components(&scan, &units, &results)
        }) {
            Ok(notes) => unit_notes.extend(notes),
            Err(d) => stage_panics.push(*d),
        }
    }
    // Routing equivalence over what will be written (invalid objects were just dropped),
    // beside planning: both only read the translation.
    progress.phase("planning the files and comparing old and new routing", None);
    let (equivalence, plan) = rayon::join(
        || {
            compare_routing.then(|| {
                crate::isolate::catch("comparing old and new routing", || {
                    compare_in_worlds(&scan.index, &worlds, &results, &config)
                })
            })
        },
        || match &root {
            Some(root) => crate::isolate::catch("planning the files", || {
                plan::build(root, &scan, &results, &config, layout)
            }),
            None => Ok(EditPlan::default()),
        },
    );
    // Generated files a GitOps object's filter would leave out while it deploys the source.
    if root.is_some() {
        let outputs: Vec<(String, String)> = plan
            .as_ref()
            .map(|p| {
                p.edits
                    .iter()
                    .filter_map(|e| {
                        crate::header::parse(&e.contents).map(|h| (e.path.clone(), h.source))
                    })
                    .collect()
            })
            .unwrap_or_default();
        match crate::isolate::catch("checking the deployers' file filters", || {
            crate::deploy::filters::left_out_outputs(&scan, &units, &outputs)
        }) {
            Ok(notes) => unit_notes.extend(notes),
            Err(d) => stage_panics.push(*d),
        }
    }
    let mut diagnostics = stage_panics;
    diagnostics.extend(unit_notes);
    let mut plan = plan.unwrap_or_else(|d| {
        diagnostics.push(*d);
        EditPlan::default()
    });
    // A panic in the equivalence check costs the check, reported without a file.
    let equivalence = match equivalence {
        Some(Err(d)) => {
            diagnostics.push(*d);
            None
        }
        Some(Ok(mut e)) => {
            // Objects of files nothing deploys because a filter leaves them out are not
            // migrated: their routes do not "change".
            e.findings.retain(|f| {
                scan.index
                    .objects
                    .get(f.object)
                    .is_none_or(|o| !units.excluded.contains(&o.source.file))
            });
            Some(e)
        }
        None => None,
    };
    progress.phase("noting the objects around the translated ones", None);
    let around = crate::isolate::catch("noting the objects around the translated ones", || {
        crate::translate::around::notes(&scan.index, &scan.deployers, &results)
    })
    .unwrap_or_else(|d| {
        diagnostics.push(*d);
        Vec::new()
    });
    for placed in around {
        match placed {
            crate::translate::around::Placed::Object(position, mut d) => {
                if let Some(obj) = scan.index.objects.get(position) {
                    d.place(
                        position,
                        &obj.source.file,
                        obj.source.document,
                        obj.source.line,
                    );
                    diagnostics.push(d);
                }
            }
            crate::translate::around::Placed::File(file, document, line, mut d) => {
                d.location.file = file;
                d.location.document = Some(document);
                d.location.line = line;
                diagnostics.push(d);
            }
        }
    }
    // Each kustomize build is rendered, translated and verified; its attachment predictions
    // replace the ones made from the files for the objects it renders.
    let rendered = match &root {
        Some(root) => {
            // Rendering only reads the plan: a panic there costs the builds' findings and
            // fixes, not the plan of the files.
            progress.phase("finding the kustomize builds", None);
            let mut rendered = crate::isolate::catch("rendering the kustomize builds", || {
                crate::render::run(
                    (root, &scan, &config),
                    &units,
                    &results,
                    &plan,
                    &render,
                    &progress,
                )
            })
            .unwrap_or_else(|d| {
                diagnostics.push(*d);
                crate::render::RenderOutcome::default()
            });
            rendered.add_fixes_to(&mut plan);
            rendered
        }
        None => crate::render::RenderOutcome::default(),
    };
    // For objects a build renders, its predictions replace the files' ones. Where a build
    // could not judge a reference (it lies in another build), the files' prediction for that
    // field stands.
    if !rendered.covered.is_empty() {
        let judged: std::collections::BTreeSet<(usize, Option<String>)> = rendered
            .notes
            .iter()
            .filter(|d| d.code.family() == "attach")
            .filter_map(|d| Some((d.location.object?, d.location.generated_field.clone())))
            .collect();
        for r in &mut results {
            if !rendered.covered.contains(&r.object) {
                continue;
            }
            let partial = rendered.partially_known.contains(&r.object);
            let object = r.object;
            r.notes.retain(|d| {
                d.code.family() != "attach"
                    || (partial && !judged.contains(&(object, d.location.generated_field.clone())))
            });
        }
    }
    diagnostics.extend(rendered.notes.iter().cloned());
    let mut stale = Vec::new();
    if check {
        progress.phase("checking the repository", None);
        stale = plan::staleness(&scan, &plan);
        // Gateway API objects already in the repository (hand-written or generated earlier)
        // are linted too: schema, CEL rules, listener conflicts, predicted attachment.
        let findings =
            crate::isolate::catch("linting the repository's Gateway API objects", || {
                crate::validate::check_findings(&scan.index, &results, &config)
            })
            .unwrap_or_else(|d| vec![*d]);
        diagnostics.extend(findings);
        diagnostics.extend(stale.iter().map(stale_diagnostic));
        if let (Some(root), true) = (&root, git_status) {
            diagnostics.extend(unrecorded_diagnostics(root, &scan));
        }
    }
    let written = match (&root, write) {
        (Some(root), true) => {
            crate::write::remove_stale_temporaries(root);
            progress.phase(&format!("writing {} files", plan.edits.len()), None);
            Some(crate::write::apply(root, &plan)?)
        }
        _ => None,
    };
    // For objects a build renders, the build's findings replace the files' ones: the build
    // is what a cluster receives, the files mix every environment.
    let equivalence_summary = equivalence.map(|e| {
        let mut summary = e.summary;
        summary.differ = 0;
        for f in e.findings {
            if rendered.covered.contains(&f.object) {
                continue;
            }
            if let Some(obj) = scan.index.objects.get(f.object) {
                let mut d = f.diagnostic;
                d.place(
                    f.object,
                    &obj.source.file,
                    obj.source.document,
                    obj.source.line,
                );
                diagnostics.push(d);
                summary.differ += f.probes;
            }
        }
        for (d, probes) in &rendered.equivalence {
            diagnostics.push(d.clone());
            summary.differ += probes;
        }
        summary.probes += rendered.equivalence_summary.probes;
        summary.unmodelled += rendered.equivalence_summary.unmodelled;
        summary
    });
    progress.phase("collecting the diagnostics", None);
    diagnostics.extend(scan.diagnostics.iter().cloned());
    diagnostics.extend(scan.skipped.iter().map(skip_diagnostic));
    diagnostics.extend(plan.notes.iter().cloned());
    for r in &mut results {
        let Some(obj) = scan.index.objects.get(r.object) else {
            continue;
        };
        for mut d in std::mem::take(&mut r.notes) {
            d.place(
                r.object,
                &obj.source.file,
                obj.source.document,
                obj.source.line,
            );
            diagnostics.push(d);
        }
    }
    diagnostics.sort();
    diagnostics.dedup();
    // Accepted diagnostics leave the run here, before anything is counted.
    let rendered_ran = root.is_some() && render.enabled;
    let ran = |family: &str| match family {
        "render" => rendered_ran,
        "check" => check,
        "equivalence" => compare_routing,
        _ => true,
    };
    let applied = crate::suppress::apply(diagnostics, &scan, &config, &ran);
    progress.finish();
    let mut diagnostics = applied.kept;
    diagnostics.extend(applied.notes);
    diagnostics.sort();
    Ok(Outcome {
        config,
        scan,
        results,
        plan,
        stale,
        written,
        diagnostics,
        suppressed: applied.suppressed,
        builds: rendered.builds,
        units,
        equivalence: equivalence_summary,
        controllers,
    })
}

/// The translation of every object: of the whole index when it is one world, else of each
/// world on its own (`deploy::worlds`), each object's result from the world that owns it. A
/// class's shared Gateway serves routes of several worlds: the written one gets the listeners
/// of every world's copy, and a Gateway only other units' Ingresses carried is written with
/// its carrier.
fn translate_in_worlds(
    index: &crate::index::Index,
    worlds: &[crate::index::Subset],
    config: &Config,
) -> Vec<SourceResult> {
    use rayon::prelude::*;
    if worlds.is_empty() {
        return translate::translate(index, config);
    }
    // A Gateway shared by an IngressClass is carried by the class's first Ingress in a
    // world, which may be another unit's (context): its copy is kept, with the carrier's
    // position, so that the routes of this world have their parent and listeners.
    type Copy = (usize, crate::gwapi::Generated);
    let per_world: Vec<(Vec<SourceResult>, Vec<Copy>)> = worlds
        .par_iter()
        .map(|world| {
            let mut results = translate::translate(&world.index, config);
            let mut copies = Vec::new();
            results.retain_mut(|r| match world.global(r.object) {
                Some(global) if world.owns(global) => {
                    r.object = global;
                    true
                }
                Some(global) => {
                    for g in &r.generated {
                        if matches!(g, crate::gwapi::Generated::Gateway(_)) {
                            copies.push((global, g.clone()));
                        }
                    }
                    false
                }
                None => false,
            });
            (results, copies)
        })
        .collect();
    let mut results = Vec::new();
    let mut copies: Vec<Copy> = Vec::new();
    for (owned, c) in per_world {
        results.extend(owned);
        copies.extend(c);
    }
    results.sort_by_key(|r| r.object);
    let identity = |g: &crate::gwapi::Generated| (g.namespace().to_string(), g.name().to_string());
    // An identity no owned result carries goes to its carrier's own result.
    let owned: std::collections::BTreeSet<(String, String)> = results
        .iter()
        .flat_map(|r| r.generated.iter())
        .filter(|g| matches!(g, crate::gwapi::Generated::Gateway(_)))
        .map(identity)
        .collect();
    let mut placed = std::collections::BTreeSet::new();
    for (carrier, g) in &copies {
        let id = identity(g);
        if !owned.contains(&id) && placed.insert(id) {
            crate::translated::place(&mut results, *carrier, g.clone());
        }
    }
    // Every copy's listeners on the one written Gateway.
    for r in &mut results {
        for g in &mut r.generated {
            let id = identity(g);
            let crate::gwapi::Generated::Gateway(gw) = g else {
                continue;
            };
            for (_, c) in copies.iter().filter(|(_, c)| identity(c) == id) {
                let crate::gwapi::Generated::Gateway(copy) = c else {
                    continue;
                };
                for l in &copy.spec.listeners {
                    match gw.spec.listeners.iter_mut().find(|x| x.name == l.name) {
                        Some(kept) => admit_namespaces_of(kept, l),
                        None => gw.spec.listeners.push(l.clone()),
                    }
                }
            }
        }
    }
    results
}

/// Widens `kept`'s namespace selector by the namespaces `other` (the same listener in another
/// world's copy) admits, when both select by `kubernetes.io/metadata.name`: a class's shared
/// listener admits the namespaces of every world's routes.
fn admit_namespaces_of(kept: &mut crate::gwapi::Listener, other: &crate::gwapi::Listener) {
    let by_name = |l: &crate::gwapi::Listener| -> Option<Vec<String>> {
        let ns = l.allowed_routes.as_ref()?.namespaces.as_ref()?;
        let sel = ns.selector.as_ref().filter(|_| ns.from == "Selector")?;
        let [req] = sel.match_expressions.as_slice() else {
            return None;
        };
        (sel.match_labels.is_empty()
            && req.key == "kubernetes.io/metadata.name"
            && req.operator == "In")
            .then(|| req.values.clone())
    };
    let Some(extra) = by_name(other) else {
        return;
    };
    if by_name(kept).is_none() {
        return;
    }
    if let Some(req) = kept
        .allowed_routes
        .as_mut()
        .and_then(|a| a.namespaces.as_mut())
        .and_then(|n| n.selector.as_mut())
        .and_then(|s| s.match_expressions.first_mut())
    {
        for v in extra {
            if !req.values.contains(&v) {
                req.values.push(v);
            }
        }
        req.values.sort();
    }
}

/// The routing check of every world (`deploy::worlds`), each object's findings from the
/// world that owns it, placed at the objects of the whole index.
fn compare_in_worlds(
    index: &crate::index::Index,
    worlds: &[crate::index::Subset],
    results: &[SourceResult],
    config: &Config,
) -> crate::equivalence::Equivalence {
    use rayon::prelude::*;
    if worlds.is_empty() {
        return crate::equivalence::run(index, results, config);
    }
    let parts: Vec<crate::equivalence::Equivalence> = worlds
        .par_iter()
        .map(|world| {
            let local: Vec<SourceResult> = results
                .iter()
                .filter_map(|r| {
                    let at = world.local(r.object)?;
                    let mut r = r.clone();
                    r.object = at;
                    Some(r)
                })
                .collect();
            let mut e = crate::equivalence::run(&world.index, &local, config);
            e.findings.retain_mut(|f| match world.global(f.object) {
                Some(global) if world.judges(global) => {
                    f.object = global;
                    true
                }
                _ => false,
            });
            e
        })
        .collect();
    crate::equivalence::Equivalence::merge(parts)
}

/// `check` in a git repository: generated files, and the kustomizations listing them, that
/// a commit would leave out.
fn unrecorded_diagnostics(root: &std::path::Path, scan: &Scan) -> Vec<Diagnostic> {
    let generated: std::collections::BTreeSet<&str> = scan
        .generated_files
        .iter()
        .map(|g| g.path.as_str())
        .collect();
    let mut paths: Vec<String> = generated.iter().map(|p| p.to_string()).collect();
    for k in &scan.index.kustomizations {
        let lists_generated = k.resources.iter().chain(&k.patches).any(|entry| {
            crate::model::kustomize::join_relative(&k.dir, entry)
                .is_some_and(|joined| generated.contains(joined.as_str()))
        });
        if lists_generated {
            paths.push(k.file.clone());
        }
    }
    crate::vcs::unrecorded(root, &paths)
        .into_iter()
        .map(|(path, state)| {
            let what = match state {
                crate::vcs::Unrecorded::Untracked => "is untracked",
                crate::vcs::Unrecorded::Unstaged => "has changes that are not staged",
            };
            let from = match root.to_str() {
                Some("." | "") => String::new(),
                _ => format!(" (from {})", root.display()),
            };
            Diagnostic::new(
                Code::CheckUntrackedGenerated,
                format!(
                    "{path} {what}: a commit would leave it out; run `git add -- {path}`{from}"
                ),
            )
            .in_file(path, 1)
        })
        .collect()
}

fn stale_diagnostic(s: &Stale) -> Diagnostic {
    let code = match s.reason {
        StaleReason::Missing => Code::CheckMissing,
        StaleReason::Outdated => Code::CheckOutdated,
        StaleReason::Unlisted => Code::CheckUnlisted,
        StaleReason::Untranslated => Code::CheckUntranslated,
        StaleReason::Orphaned => Code::CheckOrphaned,
    };
    Diagnostic::new(code, s.detail.clone()).in_file(s.path.clone(), 1)
}

fn skip_diagnostic(s: &Skipped) -> Diagnostic {
    let code = match s.kind {
        SkipKind::HelmChart => Code::WalkHelmChart,
        SkipKind::Symlink => Code::WalkSymlink,
        SkipKind::TooLarge => Code::WalkTooLarge,
        SkipKind::Binary => Code::WalkBinary,
        SkipKind::Encoding => Code::WalkEncoding,
        SkipKind::Unreadable => Code::WalkUnreadable,
    };
    // A file's content is at its first line; a directory (a chart) or a link has none.
    let line = match s.kind {
        SkipKind::Binary | SkipKind::Encoding | SkipKind::TooLarge => 1,
        SkipKind::HelmChart | SkipKind::Symlink | SkipKind::Unreadable => 0,
    };
    Diagnostic::new(code, format!("skipped: {}", s.reason)).in_file(s.path.clone(), line)
}
