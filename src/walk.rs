//! Walking: which files of the repository are read. `.gitignore`-aware (also outside a git
//! checkout), `.git/info/exclude` too; hidden files and directories are skipped like ripgrep
//! does. Helm chart directories, symlinks, oversized and binary files are skipped and reported.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ignore::overrides::OverrideBuilder;
use ignore::{DirEntry, WalkBuilder};
use serde::Serialize;

/// A path the walk passed over, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Skipped {
    pub path: String,
    #[serde(skip)]
    pub kind: SkipKind,
    pub reason: String,
}

/// Why a path was passed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipKind {
    HelmChart,
    Symlink,
    TooLarge,
    Binary,
    /// UTF-16 or UTF-32 ([`foreign_encoding`]).
    Encoding,
    Unreadable,
}

/// A file to load.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkedFile {
    /// Root-relative, `/`-separated.
    pub rel: String,
    pub abs: PathBuf,
}

#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<WalkedFile>,
    pub skipped: Vec<Skipped>,
}

#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    #[error("{0} does not exist (give the repository's directory)")]
    Missing(String),
    #[error(
        "{0} is a file, not a repository directory; to translate one file or stream, use `gateway-migrate convert {0}`"
    )]
    IsAFile(String),
    #[error("{0} is not a directory")]
    NotADirectory(String),
    #[error("invalid --include/--exclude glob {glob:?}: {message}")]
    BadGlob { glob: String, message: String },
}

/// Whether a file name is one the tool reads.
pub fn is_manifest_name(name: &str) -> bool {
    name.ends_with(".yaml")
        || name.ends_with(".yml")
        || name.ends_with(".json")
        || name == "Kustomization"
}

/// Root-relative `/`-separated form of `path`.
pub fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Why `dir` is skipped as a Helm chart, if it is one: a `Chart.yaml` next to `templates/`,
/// or a `Chart.yaml` alone (an umbrella chart whose manifests come from its dependencies).
/// Either way its files are inputs to `helm template`, not manifests.
fn helm_chart_reason(dir: &Path) -> Option<&'static str> {
    if !dir.join("Chart.yaml").is_file() {
        return None;
    }
    Some(if dir.join("templates").is_dir() {
        "Helm chart (Chart.yaml with templates/): its templates are not manifests; render the chart with `helm template` and scan the output"
    } else {
        "Helm chart without templates/ (dependencies only): its manifests come from the charts it depends on; render it with `helm template` and scan the output"
    })
}

/// Lists the files under `root` to load, sorted by path.
pub fn walk(
    root: &Path,
    include: &[String],
    exclude: &[String],
    max_file_size: u64,
) -> Result<Walk, WalkError> {
    if !root.is_dir() {
        let shown = root.display().to_string();
        return Err(match std::fs::metadata(root) {
            Err(_) => WalkError::Missing(shown),
            Ok(m) if m.is_file() => WalkError::IsAFile(shown),
            Ok(_) => WalkError::NotADirectory(shown),
        });
    }
    // `include` narrows what the walk would read; it never brings back what it skips (hidden
    // paths, what git ignores, `.git`): as overrides, its globs would whitelist those. It is
    // matched against each file after the walk's own filters.
    let included = if include.is_empty() {
        None
    } else {
        let mut builder = ignore::gitignore::GitignoreBuilder::new(root);
        for glob in include {
            builder
                .add_line(None, glob)
                .map_err(|e| WalkError::BadGlob {
                    glob: glob.clone(),
                    message: e.to_string(),
                })?;
        }
        Some(builder.build().map_err(|e| WalkError::BadGlob {
            glob: String::new(),
            message: e.to_string(),
        })?)
    };
    let mut overrides = OverrideBuilder::new(root);
    for glob in exclude {
        overrides
            .add(&format!("!{glob}"))
            .map_err(|e| WalkError::BadGlob {
                glob: glob.clone(),
                message: e.to_string(),
            })?;
    }
    let overrides = overrides.build().map_err(|e| WalkError::BadGlob {
        glob: String::new(),
        message: e.to_string(),
    })?;

    let skipped: Arc<Mutex<Vec<Skipped>>> = Arc::new(Mutex::new(Vec::new()));
    let root_buf = root.to_path_buf();
    let walker = WalkBuilder::new(root)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .overrides(overrides)
        .filter_entry({
            let skipped = Arc::clone(&skipped);
            let root = root_buf.clone();
            move |entry: &DirEntry| {
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                if !is_dir {
                    return true;
                }
                if entry.file_name() == ".git" {
                    return false;
                }
                let Some(reason) = helm_chart_reason(entry.path()) else {
                    return true;
                };
                if let Ok(mut s) = skipped.lock() {
                    s.push(Skipped {
                        path: relative(&root, entry.path()),
                        kind: SkipKind::HelmChart,
                        reason: reason.to_string(),
                    });
                }
                false
            }
        })
        // On the threads of the run (`-j`): listing a large tree is a stat per entry.
        .threads(rayon::current_num_threads())
        .build_parallel();

    let canonical_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let found: Mutex<Vec<Result<WalkedFile, Skipped>>> = Mutex::new(Vec::new());
    walker.run(|| {
        let found = &found;
        let canonical_root = &canonical_root;
        let included = &included;
        Box::new(move |entry| {
            if let Some(outcome) = classify(root, canonical_root, max_file_size, entry)
                && is_included(included.as_ref(), root, &outcome)
                && let Ok(mut found) = found.lock()
            {
                found.push(outcome);
            }
            ignore::WalkState::Continue
        })
    });
    let mut files = Vec::new();
    let mut skipped_files = Vec::new();
    for outcome in found.into_inner().unwrap_or_else(|e| e.into_inner()) {
        match outcome {
            Ok(file) => files.push(file),
            Err(skip) => skipped_files.push(skip),
        }
    }
    let mut all_skipped = skipped
        .lock()
        .map(|mut s| std::mem::take(&mut *s))
        .unwrap_or_default();
    all_skipped.extend(skipped_files);
    all_skipped.sort();
    files.sort();
    Ok(Walk {
        files,
        skipped: all_skipped,
    })
}

/// The first symlink among the components of root-relative `rel` (`app/linked`), if any:
/// kustomize would follow it, possibly out of the repository.
pub(crate) fn symlink_on_the_way(root: &Path, rel: &str) -> Option<String> {
    let mut at = root.to_path_buf();
    let mut shown = Vec::new();
    for part in rel.split('/').filter(|p| !p.is_empty() && *p != ".") {
        at.push(part);
        shown.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => return Some(shown.join("/")),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    None
}

/// Whether the walk of `root` reads the file, or enters the directory, at root-relative `rel`
/// (a plain path): with the
/// walk's own filters (hidden paths, `.git`, what git ignores, manifest names), visiting only
/// the directories on the way to it.
pub fn walks_to(root: &Path, rel: &str) -> bool {
    let target = root.join(rel);
    let on_the_way = target.clone();
    let mut found = false;
    for entry in WalkBuilder::new(root)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |e| on_the_way.starts_with(e.path()) && e.file_name() != ".git")
        .build()
        .flatten()
    {
        if entry.path() == target {
            found = entry.file_type().is_some_and(|t| t.is_dir())
                || is_manifest_name(&entry.file_name().to_string_lossy());
        }
    }
    found
}

/// Whether root-relative `rel` is within the user's `include` (everything, when empty) and
/// outside `exclude`, as the walk matches them; an invalid glob selects nothing.
pub fn selected(root: &Path, include: &[String], exclude: &[String], rel: &str) -> bool {
    let matches = |globs: &[String]| {
        let mut builder = ignore::gitignore::GitignoreBuilder::new(root);
        for g in globs {
            if builder.add_line(None, g).is_err() {
                return None;
            }
        }
        let matcher = builder.build().ok()?;
        Some(
            matcher
                .matched_path_or_any_parents(root.join(rel), false)
                .is_ignore(),
        )
    };
    let included = include.is_empty() || matches(include) == Some(true);
    let excluded = !exclude.is_empty() && matches(exclude) != Some(false);
    included && !excluded
}

/// Whether a walk outcome is within `include` (everything is without one). A skipped path is
/// reported only when it would have been included.
fn is_included(
    included: Option<&ignore::gitignore::Gitignore>,
    root: &Path,
    outcome: &Result<WalkedFile, Skipped>,
) -> bool {
    let Some(matcher) = included else {
        return true;
    };
    let rel = match outcome {
        Ok(file) => file.rel.as_str(),
        Err(skip) => skip.path.as_str(),
    };
    if rel.is_empty() {
        return true;
    }
    matcher
        .matched_path_or_any_parents(root.join(rel), false)
        .is_ignore()
}

/// What the walk makes of one entry: a file to load, a skipped path, or nothing (a directory,
/// a file that is not a manifest).
fn classify(
    root: &Path,
    canonical_root: &Path,
    max_file_size: u64,
    entry: Result<DirEntry, ignore::Error>,
) -> Option<Result<WalkedFile, Skipped>> {
    let entry = match entry {
        Ok(e) => e,
        Err(err) => {
            return Some(Err(Skipped {
                path: String::new(),
                kind: SkipKind::Unreadable,
                reason: format!("cannot read: {err}"),
            }));
        }
    };
    let file_type = entry.file_type()?;
    let name = entry.file_name().to_string_lossy();
    // A symlinked directory could hold manifests (or a kustomization a build includes):
    // reported like a symlinked manifest, never followed.
    let to_directory =
        file_type.is_symlink() && std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
    if !to_directory && !is_manifest_name(&name) {
        return None;
    }
    let rel = relative(root, entry.path());
    if file_type.is_symlink() {
        let what = if to_directory {
            "symlinked directory"
        } else {
            "symlink"
        };
        let reason = match entry.path().canonicalize() {
            Ok(target) if target.starts_with(canonical_root) => {
                format!("{what} inside the repository: its target is scanned on its own")
            }
            Ok(_) => format!("{what} pointing outside the repository: not followed"),
            Err(_) => "dangling symlink".to_string(),
        };
        return Some(Err(Skipped {
            path: rel,
            kind: SkipKind::Symlink,
            reason,
        }));
    }
    if !file_type.is_file() {
        return None;
    }
    let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
    if size > max_file_size {
        return Some(Err(Skipped {
            path: rel,
            kind: SkipKind::TooLarge,
            reason: format!(
                "file is {size} bytes, over the {max_file_size}-byte limit (max_file_size)"
            ),
        }));
    }
    Some(Ok(WalkedFile {
        rel,
        abs: entry.path().to_path_buf(),
    }))
}

/// Whether the bytes look binary (a NUL byte in the first 8 KiB, as git decides).
/// The Unicode encoding other than UTF-8 a file is in, by its byte order mark, or without one
/// by the zero bytes ASCII text has in UTF-16 or UTF-32 (YAML allows them, and go-yaml, so
/// kubectl, reads them). This tool reads UTF-8 only: such a file is reported, not read.
pub fn foreign_encoding(bytes: &[u8]) -> Option<&'static str> {
    const BOMS: [(&[u8], &str); 4] = [
        (&[0xFF, 0xFE, 0, 0], "UTF-32LE"),
        (&[0, 0, 0xFE, 0xFF], "UTF-32BE"),
        (&[0xFF, 0xFE], "UTF-16LE"),
        (&[0xFE, 0xFF], "UTF-16BE"),
    ];
    if let Some((_, name)) = BOMS.iter().find(|(bom, _)| bytes.starts_with(bom)) {
        return Some(name);
    }
    // YAML's own rule (spec 5.2) reads the encoding from the zero bytes of the first
    // character; to tell text from a binary blob, the first characters (up to 16) must all be
    // printable ASCII in that encoding.
    const ENCODINGS: [(usize, usize, &str); 4] = [
        (4, 3, "UTF-32BE"),
        (4, 0, "UTF-32LE"),
        (2, 1, "UTF-16BE"),
        (2, 0, "UTF-16LE"),
    ];
    ENCODINGS.iter().find_map(|&(width, at, name)| {
        let units: Vec<&[u8]> = bytes.chunks_exact(width).take(16).collect();
        let ascii = |unit: &[u8]| {
            unit.iter().enumerate().all(|(i, &b)| {
                if i == at {
                    b.is_ascii_graphic() || matches!(b, b' ' | b'\t' | b'\n' | b'\r')
                } else {
                    b == 0
                }
            })
        };
        (!units.is_empty() && units.iter().all(|u| ascii(u))).then_some(name)
    })
}

pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|&b| b == 0)
}
