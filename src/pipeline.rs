//! The stages wired together: scan (walk + load + index), translate, report. Commands in
//! `cli` call these; tests call them too.

use std::path::Path;

use rayon::prelude::*;

use crate::config::Config;
use crate::gwapi::Generated;
use crate::index::Index;
use crate::load::{self, Diagnostic, FileLoad};
use crate::report::{FileAction, Report, ScanStats};
use crate::translate::{self, SourceResult};
use crate::walk::{self, Skipped};

/// Everything known about the input after loading.
#[derive(Debug)]
pub struct Scan {
    pub stats: ScanStats,
    pub index: Index,
    pub skipped: Vec<Skipped>,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error(transparent)]
    Walk(#[from] walk::WalkError),
    #[error(
        "mountGateways {0:?} is neither a readable file nor a directory (it is relative to the repository root)"
    )]
    MountGateways(String),
    #[error("cannot start {jobs} worker threads: {message}")]
    Threads { jobs: usize, message: String },
}

/// Walks `root` and loads every manifest on `jobs` threads (0: one per core).
pub fn scan_repo(root: &Path, config: &Config, jobs: usize) -> Result<Scan, PipelineError> {
    let walked = walk::walk(root, &config.include, &config.exclude, config.max_file_size)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| PipelineError::Threads {
            jobs,
            message: e.to_string(),
        })?;
    let loads: Vec<Result<FileLoad, Skipped>> = pool.install(|| {
        walked
            .files
            .par_iter()
            .map(|f| {
                let bytes = std::fs::read(&f.abs).map_err(|e| Skipped {
                    path: f.rel.clone(),
                    reason: format!("cannot read: {e}"),
                })?;
                if walk::looks_binary(&bytes) {
                    return Err(Skipped {
                        path: f.rel.clone(),
                        reason: "binary file".into(),
                    });
                }
                Ok(load::load_bytes(&f.rel, &bytes))
            })
            .collect()
    });
    let mut skipped = walked.skipped;
    let mut file_loads = Vec::new();
    for l in loads {
        match l {
            Ok(load) => file_loads.push(load),
            Err(s) => skipped.push(s),
        }
    }
    if let Some(mount) = &config.mount_gateways {
        let scanned: std::collections::BTreeSet<String> =
            file_loads.iter().map(|l| l.path.clone()).collect();
        for load in load_mount_gateways(root, mount, config)? {
            if !scanned.contains(&load.path) {
                file_loads.push(load);
            }
        }
    }
    skipped.sort();
    Ok(assemble(file_loads, skipped, config))
}

/// Loads the Gateways named by `mountGateways` (a file or directory, relative to the root)
/// for Ingress `mount` mode. Only Gateway API objects are kept from those files: they describe
/// infrastructure to attach to, not objects of this repository to translate.
fn load_mount_gateways(
    root: &Path,
    mount: &str,
    config: &Config,
) -> Result<Vec<FileLoad>, PipelineError> {
    let path = root.join(mount);
    let files: Vec<(String, std::path::PathBuf)> = if path.is_dir() {
        walk::walk(&path, &[], &[], config.max_file_size)?
            .files
            .into_iter()
            .map(|f| (format!("{}/{}", mount.trim_end_matches('/'), f.rel), f.abs))
            .collect()
    } else if path.is_file() {
        vec![(mount.to_string(), path)]
    } else {
        return Err(PipelineError::MountGateways(mount.to_string()));
    };
    let mut loads = Vec::new();
    for (rel, abs) in files {
        let bytes = std::fs::read(&abs).map_err(|_| PipelineError::MountGateways(rel.clone()))?;
        let mut load = load::load_bytes(&rel, &bytes);
        load.objects.retain(|o| {
            matches!(o.body, crate::model::SourceBody::GatewayApi(_)) && o.kind == "Gateway"
        });
        load.kustomizations.clear();
        loads.push(load);
    }
    Ok(loads)
}

/// Loads named in-memory inputs as one stream (for `convert`): their objects form the index
/// exactly as a repository's would.
pub fn scan_inputs(inputs: &[(String, Vec<u8>)], config: &Config) -> Scan {
    let loads = inputs
        .iter()
        .map(|(name, bytes)| load::load_bytes(name, bytes))
        .collect();
    assemble(loads, Vec::new(), config)
}

fn assemble(loads: Vec<FileLoad>, skipped: Vec<Skipped>, config: &Config) -> Scan {
    let mut stats = ScanStats::default();
    let mut objects = Vec::new();
    let mut kustomizations = Vec::new();
    let mut diagnostics = Vec::new();
    for load in loads {
        stats.files_scanned += 1;
        stats.documents += load.documents;
        objects.extend(load.objects);
        kustomizations.extend(load.kustomizations);
        diagnostics.extend(load.diagnostics);
    }
    diagnostics.sort();
    kustomizations.sort_by(|a, b| a.file.cmp(&b.file));
    Scan {
        stats,
        index: Index::build(objects, kustomizations, config),
        skipped,
        diagnostics,
    }
}

/// Translates everything the scan found.
pub fn translate(scan: &Scan, config: &Config) -> Vec<SourceResult> {
    translate::translate(&scan.index, config)
}

/// Translates everything the scan found, then validates the generated objects: those the
/// cluster would reject are removed and become error notes on their source, and listener
/// conflicts and predicted route attachment are added as notes (see `validate`).
pub fn translate_and_validate(scan: &Scan, config: &Config) -> Vec<SourceResult> {
    let mut results = translate(scan, config);
    crate::validate::validate_results(&scan.index, &mut results, config);
    results
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

/// Builds the report of a scan and its translation.
pub fn report(
    scan: &Scan,
    results: &[SourceResult],
    files: Vec<FileAction>,
    config: &Config,
) -> Report {
    let suffix = config.output_suffix.clone();
    let index = &scan.index;
    let output_file = move |r: &SourceResult| {
        index
            .objects
            .get(r.object)
            .map(|o| output_path(&o.source.file, &suffix))
            .unwrap_or_default()
    };
    Report::build(
        &scan.stats,
        &scan.index,
        results,
        scan.skipped.clone(),
        scan.diagnostics.clone(),
        files,
        &output_file,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_paths_sit_next_to_their_source() {
        assert_eq!(
            output_path("a/b/app.yaml", "gateway-api"),
            "a/b/app.gateway-api.yaml"
        );
        assert_eq!(
            output_path("app.yml", "gateway-api"),
            "app.gateway-api.yaml"
        );
        assert_eq!(output_path("x/list.json", "gw"), "x/list.gw.yaml");
    }
}
