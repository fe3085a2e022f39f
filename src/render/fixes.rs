//! Fixes for one build: its translation paired with what it renders after the base plan
//! (same source and kind, then name), and the patches, deletes and added objects that make
//! the build deploy its translation; objects its `namespace:` would move are placed where a
//! build deploys their namespace.

use super::*;

/// A generated object a build must render after apply: kind, namespace, final name, spec.
#[derive(Debug, Clone)]
pub(super) struct Expected {
    pub(super) kind: String,
    pub(super) namespace: String,
    pub(super) name: String,
    pub(super) spec: Value,
}

/// One build root's fixes.
#[derive(Debug, Default)]
pub(super) struct BuildFixes {
    /// Strategic-merge patch documents replacing a `spec`.
    pub(super) patches: Vec<Value>,
    /// Strategic-merge `$patch: delete` documents, each written to its own file: kustomize
    /// v5.5 crashes on a multi-document patch file with a delete before another document.
    pub(super) deletes: Vec<Value>,
    /// Objects added to the build.
    pub(super) objects: Vec<Value>,
    /// Objects the build's namespace transform would move: placed elsewhere.
    pub(super) separate: Vec<Value>,
    /// Objects placed here for another build: not part of this build's comparison.
    pub(super) foreign: BTreeSet<(String, String, String)>,
    /// Whether this build was rendered and compared in this run (else it only hosts objects
    /// placed for others, and its earlier fixes are left as they are).
    pub(super) compared: bool,
    /// The root's transforms, for names of added objects.
    pub(super) prefix: String,
    pub(super) suffix: String,
    pub(super) namespace: Option<String>,
}

/// A generated object as it renders after the base plan, and as its file writes it.
#[derive(Debug, Clone)]
pub(super) struct Actual {
    pub(super) value: Value,
    pub(super) kind: String,
    pub(super) namespace: String,
    pub(super) name: String,
    /// The source file (from the generated file's header, via the placements).
    pub(super) source: String,
    /// `apiVersion`, name and namespace as the generated file writes them: what a patch in
    /// the build root matches.
    pub(super) written: Value,
}

pub(super) fn ident(v: &Value) -> (String, String, String) {
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
pub(super) fn plan_fixes(
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
pub(super) fn retry_without_moved(
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
    let render = render_all(ctx, &[build], true, &trial, None).pop()?;
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
pub(super) fn separate_namespace<'a>(fixes: &BuildFixes, ns: &'a str) -> Option<&'a str> {
    match &fixes.namespace {
        Some(t) if t != ns => Some(ns),
        _ => None,
    }
}

/// The name an object added to the root's resources renders with: the root's prefix and
/// suffix around the name written (which is the wanted name without them, when it has them).
pub(super) fn final_added_name(fixes: &BuildFixes, wanted: &str) -> String {
    format!(
        "{}{}{}",
        fixes.prefix,
        strip_affixes(fixes, wanted),
        fixes.suffix
    )
}

pub(super) fn strip_affixes(fixes: &BuildFixes, wanted: &str) -> String {
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
pub(super) fn written_identity(
    written: &Written,
    origin: &str,
    rendered: &Value,
) -> Option<(String, Value)> {
    let (source, objects) = written.get(origin)?;
    let (kind, _, name) = ident(rendered);
    objects
        .iter()
        .filter(|o| ident(o).0 == kind && name.contains(ident(o).2.as_str()))
        .max_by_key(|o| ident(o).2.len())
        .map(|o| (source.clone(), o.clone()))
}

/// Generated file → (its source file, the objects it writes).
pub(super) type Written = BTreeMap<String, (String, Vec<Value>)>;

pub(super) fn rename_parents(v: &Value, renames: &BTreeMap<(String, String), String>) -> Value {
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

pub(super) fn patch_head(written: &Value) -> serde_json::Map<String, Value> {
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

pub(super) fn delete_patch(written: &Value) -> Value {
    let mut p = serde_json::Map::new();
    p.insert("$patch".into(), Value::from("delete"));
    p.extend(patch_head(written));
    Value::Object(p)
}

pub(super) fn replace_patch(written: &Value, spec: &Value) -> Value {
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
pub(super) fn place_separately(
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
pub(super) fn add_merged(list: &mut Vec<Value>, v: Value, notes: &mut Vec<Diagnostic>) {
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

pub(super) fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Loads what each generated file writes (identity and header source), from the planned
/// contents or the file on disk.
pub(super) fn load_written(root: &Path, scan: &Scan, plan: &EditPlan) -> Written {
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
pub(super) fn fix_edits(
    root: &Path,
    scan: &Scan,
    plan: &EditPlan,
    fixes: &BTreeMap<String, BuildFixes>,
    notes: &mut Vec<Diagnostic>,
    placements: &mut Vec<(Placement, String)>,
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
            let file = within_name_limit(file);
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
        // A file of a fix's name that this tool did not write (planted in a pull request: a
        // ClusterRoleBinding in `gateway-migrate.build-objects.yaml`) is neither replaced nor
        // listed: listing it would deploy it under this tool's name.
        let foreign: BTreeSet<String> = files
            .iter()
            .filter_map(|(name, _)| {
                let path = join(dir, name);
                let why = foreign_file(root, &path)?;
                notes.push(
                    Diagnostic::new(
                        Code::PlanOutputExists,
                        format!(
                            "{path} {why}, so it is left alone and not listed in {}; the build's fix was not written: remove or rename it",
                            k.file
                        ),
                    )
                    .in_file(path, 1),
                );
                Some(name.clone())
            })
            .collect();
        files.retain(|(name, _)| !foreign.contains(name));
        resources.retain(|name| !foreign.contains(name));
        patches.retain(|name| !foreign.contains(name));
        // Entries of fixes no longer needed are removed, even when nothing else changes.
        let compared = f.compared;
        let ours = |entry: &str| compared && is_listed_fix(entry);
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
            placements.push((
                (k.file.clone(), "build".into(), dir.clone(), name),
                path.clone(),
            ));
            push_file(root, (&mut edits, &mut *notes), &path, text.into_bytes());
        }
    }
    edits
}

/// `name` if it fits a file name comfortably (file systems take 255 bytes; an object's name
/// alone may have 253), else its first 160 bytes and a hash of the whole, keeping `.yaml`.
fn within_name_limit(name: String) -> String {
    if name.len() <= 200 {
        return name;
    }
    let mut cut = 160;
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}-{:016x}.yaml",
        &name[..cut],
        crate::write::name_hash(&name)
    )
}

/// Why the file at root-relative `path` is not this tool's to replace: a symlink or other
/// non-file, or a file without the generated header. `None` when it is absent or ours.
fn foreign_file(root: &Path, path: &str) -> Option<&'static str> {
    let meta = std::fs::symlink_metadata(root.join(path)).ok()?;
    if !meta.file_type().is_file() {
        return Some("exists and is not a regular file (a symlink or a directory)");
    }
    let bytes = std::fs::read(root.join(path)).ok()?;
    crate::header::parse(&bytes)
        .is_none()
        .then_some("exists and was not generated by gateway-migrate (no header)")
}

/// Plans one fix file; a file of that name this tool did not write is left alone.
pub(super) fn push_file(
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

/// The key of `EditPlan::placements`: (source or kustomization file, kind, namespace or
/// directory, name).
pub(super) type Placement = (String, String, String, String);

/// Adds `fix` edits to the plan; an edit of a file the plan already edits replaces it.
pub(super) fn merge_edits(plan: &mut EditPlan, fix: Vec<FileEdit>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::test_support::route;

    /// A fix file named after an object of 253 characters still fits a file name.
    #[test]
    fn long_fix_file_names_are_shortened_stably() {
        let long = format!("{DELETE_PREFIX}httproute.ns.{}.yaml", "é".repeat(130));
        let short = within_name_limit(long.clone());
        assert!(short.len() <= 200, "{}", short.len());
        assert!(short.starts_with(DELETE_PREFIX) && short.ends_with(".yaml"));
        assert_eq!(short, within_name_limit(long.clone()));
        assert_ne!(short, within_name_limit(long.replace("ns", "other")));
        assert_eq!(within_name_limit("a.yaml".into()), "a.yaml");
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
