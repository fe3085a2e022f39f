//! One build's translation: the objects it renders (mapped back to their source documents),
//! translated with the repository's referenced objects as lookup-only context.

use super::*;

/// Whether any Istio or Ingress object lives under a directory the build reaches;
/// `translatable` holds the directories (and their ancestors) of such objects.
pub(super) fn reaches_translatable(
    scan: &Scan,
    b: &Build,
    translatable: &BTreeSet<String>,
) -> bool {
    discover::reached(scan, b)
        .iter()
        .any(|k| translatable.contains(&k.dir))
}

/// Every directory holding, at any depth, an Istio or Ingress object (`""` for the root).
pub(super) fn translatable_dirs(scan: &Scan) -> BTreeSet<String> {
    let mut dirs = BTreeSet::new();
    for o in &scan.index.objects {
        if !o.body.is_translated() {
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

/// One build's translation.
pub(super) struct BuildTranslation {
    /// The generated objects (JSON, namespace explicit) and the source file each came from.
    pub(super) desired: Vec<(Value, String)>,
    /// The build's diagnostics, with the source they are about.
    pub(super) notes: Vec<(SourceRef, Diagnostic)>,
    /// The source documents the build rendered.
    pub(super) sources: Vec<SourceRef>,
    /// Routing equivalence within the build: findings with their source and probe count.
    pub(super) equivalence: Vec<(SourceRef, Diagnostic, usize)>,
    pub(super) equivalence_summary: crate::equivalence::Summary,
}

/// Translates the objects a build renders (its sources, not the files this tool generated).
pub(super) fn translate_build(
    (scan, by_file): (&Scan, &BTreeMap<&str, Vec<&SourceObject>>),
    config: &Config,
    build: &Build,
    rendered: &[Rendered],
    generated_paths: &BTreeSet<String>,
    with_equivalence: bool,
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
    crate::validate::validate_results(&index, &[], &mut results, config);
    // The build is what reaches a cluster: its routing is compared as one, without the
    // other builds' objects (an overlay's host served by another environment's Ingress).
    let mut equivalence = Vec::new();
    let mut equivalence_summary = crate::equivalence::Summary::default();
    if with_equivalence {
        let found = crate::equivalence::run(&index, &results, config);
        equivalence_summary = found.summary;
        for f in found.findings {
            if let Some(obj) = index.objects.get(f.object)
                && !context.contains(&obj.source)
            {
                equivalence.push((obj.source.clone(), f.diagnostic, f.probes));
            }
        }
    }
    let mut desired = Vec::new();
    let mut notes = Vec::new();
    for r in &mut results {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        if context.contains(&obj.source) {
            continue;
        }
        // Mesh routes are not deployed next to the VirtualServices they replace unless the
        // configuration says so (`plan::build`): a build must not get them through its fixes
        // either.
        for g in r
            .generated
            .iter()
            .filter(|g| config.deploy_mesh_routes || !crate::plan::is_mesh_route(g))
        {
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
        equivalence,
        equivalence_summary,
    }
}

/// The source document a rendered object came from: its origin file's object of the same
/// kind whose name the rendered name contains (prefixes and suffixes), the longest such.
pub(super) fn source_of(
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
