//! Writing a plan: atomic (temp file in the same directory, then rename), only inside the
//! repository, never through a symlink, never creating a directory.
//!
//! Invariant: a file is either left as it was or replaced whole by its planned contents; no
//! path outside `root` is ever opened for writing.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::plan::FileAction;
use crate::plan::{EditAction, EditKind, EditPlan, FileEdit};

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("refusing to write {path}: {reason}")]
    Refused { path: String, reason: String },
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A write failed after others succeeded: which files are new, which are as they were.
    #[error(
        "{cause}\n{} of {} files written before the failure, each complete: {}\nnot written, \
         left as they were: {}\nno file is half-written; fix the cause and run again (the next \
         run writes what is missing)",
        written.len(),
        written.len() + not_written.len(),
        list(written),
        list(not_written)
    )]
    Partial {
        cause: Box<WriteError>,
        written: Vec<String>,
        /// The failed file first, then the ones not attempted.
        not_written: Vec<String>,
    },
}

fn list(paths: &[String]) -> String {
    if paths.is_empty() {
        "none".to_string()
    } else {
        paths.join(", ")
    }
}

/// Writes every edit of `plan` under `root`, in two steps. First every file's new contents go
/// to a temporary file beside it, written and synced, all in parallel (durability costs one
/// sync per file; one after the other, that was most of `apply`'s time on a large
/// repository). If any of those fails, the temporary files are removed and no file has
/// changed. Then the temporary files replace their targets one by one, generated and replaced
/// files first, kustomization edits last, so that a failure never leaves a kustomization
/// listing a file that was not written. The error names the files written (each whole) and
/// the ones left as they were.
pub fn apply(root: &Path, plan: &EditPlan) -> Result<Vec<FileAction>, WriteError> {
    use rayon::prelude::*;
    let mut ordered: Vec<&FileEdit> = plan.edits.iter().collect();
    ordered.sort_by_key(|e| e.kind == EditKind::Kustomization);
    let staged: Vec<Result<Staged, WriteError>> =
        ordered.par_iter().map(|edit| stage(root, edit)).collect();
    if let Some(failed) = staged.iter().position(Result::is_err) {
        let mut cause = None;
        for (i, s) in staged.into_iter().enumerate() {
            match s {
                Ok(s) => {
                    let _ = std::fs::remove_file(&s.temp);
                }
                Err(e) if i == failed => cause = Some(e),
                Err(_) => {}
            }
        }
        let mut not_written = vec![ordered[failed].path.clone()];
        not_written.extend(
            ordered
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != failed)
                .map(|(_, e)| e.path.clone()),
        );
        return Err(WriteError::Partial {
            cause: Box::new(cause.unwrap_or_else(|| refused(&ordered[failed].path, "unknown"))),
            written: Vec::new(),
            not_written,
        });
    }
    let staged: Vec<Staged> = staged.into_iter().flatten().collect();
    let mut done = Vec::new();
    for (i, (edit, s)) in ordered.iter().zip(&staged).enumerate() {
        if let Err(source) = std::fs::rename(&s.temp, &s.target) {
            for rest in &staged[i..] {
                let _ = std::fs::remove_file(&rest.temp);
            }
            return Err(WriteError::Partial {
                cause: Box::new(WriteError::Io {
                    path: edit.path.clone(),
                    source,
                }),
                written: done.iter().map(|a: &FileAction| a.path.clone()).collect(),
                not_written: ordered[i..].iter().map(|e| e.path.clone()).collect(),
            });
        }
        done.push(FileAction {
            path: edit.path.clone(),
            action: edit.action.as_str().to_string(),
        });
    }
    Ok(done)
}

/// The temporary files of earlier runs that were killed between staging and renaming (a
/// SIGKILL or power loss skips every clean-up): `.gateway-migrate-<pid>-<hash>.tmp` whose
/// process is gone and which git does not track (a committed file of that name is the
/// repository's, never touched). Removed before a run writes; returns their paths.
pub fn remove_stale_temporaries(root: &Path) -> Vec<String> {
    let mut stale = Vec::new();
    let walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git");
    for entry in walker.flatten() {
        if !entry.file_type().is_file() {
            continue;
        }
        let Some(pid) = entry.file_name().to_str().and_then(temporary_pid) else {
            continue;
        };
        let gone = match process_is_running(pid) {
            Some(running) => !running,
            // Without /proc: a day old is long past any run.
            None => entry
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 24 * 3600),
        };
        if gone && let Ok(rel) = entry.path().strip_prefix(root) {
            stale.push(
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/"),
            );
        }
    }
    // In a git work tree only what git does not track is removed.
    let in_git = std::fs::canonicalize(root)
        .ok()
        .is_some_and(|r| crate::vcs::work_tree_top(&r).is_some());
    if in_git {
        let untracked: std::collections::BTreeSet<String> = crate::vcs::unrecorded(root, &stale)
            .into_iter()
            .filter(|(_, why)| *why == crate::vcs::Unrecorded::Untracked)
            .map(|(p, _)| p)
            .collect();
        stale.retain(|p| untracked.contains(p));
    }
    stale.retain(|p| std::fs::remove_file(root.join(p)).is_ok());
    stale
}

/// Temporary files are `.gateway-migrate-<pid>-<hash of the target's name>.tmp`.
const TEMPORARY_PREFIX: &str = ".gateway-migrate-";

/// FNV-1a of a file name: distinguishes the temporary files of one directory, and shortened
/// file names.
pub(crate) fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The process id in a temporary file's name: `.gateway-migrate-123-<hash>.tmp`, or the
/// earlier `.app.yaml.gateway-migrate-123.tmp`.
fn temporary_pid(name: &str) -> Option<u32> {
    let rest = name.strip_suffix(".tmp")?;
    if let Some(ours) = rest.strip_prefix(TEMPORARY_PREFIX) {
        let (pid, hash) = ours.split_once('-')?;
        return (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| pid.parse().ok())
            .flatten();
    }
    let (_, pid) = rest.strip_prefix('.')?.rsplit_once(".gateway-migrate-")?;
    pid.parse().ok()
}

/// Whether process `pid` runs, where `/proc` can tell; `None` where it cannot.
pub(crate) fn process_is_running(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    proc.join("self")
        .exists()
        .then(|| pid == std::process::id() || proc.join(pid.to_string()).exists())
}

/// A file's new contents, written and synced beside it, not yet in its place.
struct Staged {
    temp: PathBuf,
    target: PathBuf,
}

/// Writes one edit atomically.
pub fn write_edit(root: &Path, edit: &FileEdit) -> Result<(), WriteError> {
    let staged = stage(root, edit)?;
    if let Err(source) = std::fs::rename(&staged.temp, &staged.target) {
        let _ = std::fs::remove_file(&staged.temp);
        return Err(WriteError::Io {
            path: edit.path.clone(),
            source,
        });
    }
    Ok(())
}

/// Checks `edit`'s target and writes its contents to a synced temporary file beside it.
fn stage(root: &Path, edit: &FileEdit) -> Result<Staged, WriteError> {
    let target = checked_target(root, &edit.path)?;
    let io = |source| WriteError::Io {
        path: edit.path.clone(),
        source,
    };
    let existing = std::fs::symlink_metadata(&target);
    match (&existing, edit.action) {
        (Ok(meta), _) if !meta.is_file() => {
            return Err(refused(
                &edit.path,
                "it is not a regular file (a symlink or directory)",
            ));
        }
        (Ok(_), EditAction::Create) => {
            return Err(refused(&edit.path, "it appeared since the plan was made"));
        }
        (Err(_), EditAction::Update) => {
            return Err(refused(
                &edit.path,
                "it disappeared since the plan was made",
            ));
        }
        _ => {}
    }
    let dir = target.parent().unwrap_or(root);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A short name whatever the target's (one near the file system's 255-byte limit must
    // still get a temporary file), unique per target and process.
    let temp = dir.join(format!(
        "{TEMPORARY_PREFIX}{}-{:016x}.tmp",
        std::process::id(),
        name_hash(&name)
    ));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(&edit.contents)?;
        if let Ok(meta) = &existing {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(io(e));
    }
    Ok(Staged { temp, target })
}

fn refused(path: &str, reason: &str) -> WriteError {
    WriteError::Refused {
        path: path.to_string(),
        reason: reason.to_string(),
    }
}

/// The absolute path of root-relative `rel`, after checking that it stays inside `root`: only
/// plain components, no `..`, no absolute path, and no symlink on the way (a symlinked
/// directory could lead out of the repository). The parent directory must exist.
pub fn checked_target(root: &Path, rel: &str) -> Result<PathBuf, WriteError> {
    let rel_path = Path::new(rel);
    if rel.is_empty()
        || rel_path
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(refused(
            rel,
            "the path is not a plain path inside the repository",
        ));
    }
    // git's own directory is never a place for output, whatever a configuration says.
    if rel_path.components().any(|c| c.as_os_str() == ".git") {
        return Err(refused(rel, "the path is inside .git"));
    }
    let mut cur = root.to_path_buf();
    let components: Vec<_> = rel_path.components().collect();
    for (i, c) in components.iter().enumerate() {
        cur.push(c);
        let last = i + 1 == components.len();
        match std::fs::symlink_metadata(&cur) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(refused(rel, "the path goes through a symlink"));
            }
            Ok(meta) if !last && !meta.is_dir() => {
                return Err(refused(rel, "a parent is not a directory"));
            }
            Ok(_) => {}
            Err(_) if last => {}
            Err(_) => return Err(refused(rel, "its directory does not exist")),
        }
    }
    Ok(cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::EditKind;

    fn edit(path: &str, action: EditAction, contents: &str) -> FileEdit {
        FileEdit {
            path: path.into(),
            action,
            kind: EditKind::Generated,
            old: Vec::new(),
            contents: contents.as_bytes().to_vec(),
        }
    }

    #[test]
    fn writes_and_replaces_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        write_edit(dir.path(), &edit("a/x.yaml", EditAction::Create, "one\n")).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/x.yaml")).unwrap(),
            "one\n"
        );
        write_edit(dir.path(), &edit("a/x.yaml", EditAction::Update, "two\n")).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/x.yaml")).unwrap(),
            "two\n"
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers.len(), 1, "no temp file left: {leftovers:?}");
    }

    #[test]
    fn refuses_paths_outside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["../x.yaml", "/etc/x.yaml", "a/../../x.yaml", "", "./x.yaml"] {
            assert!(
                matches!(
                    write_edit(dir.path(), &edit(bad, EditAction::Create, "x")),
                    Err(WriteError::Refused { .. })
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            write_edit(dir.path(), &edit("missing/x.yaml", EditAction::Create, "x")),
            Err(WriteError::Refused { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn never_follows_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        std::fs::write(outside.path().join("f.yaml"), "outside\n").unwrap();
        std::os::unix::fs::symlink(outside.path().join("f.yaml"), dir.path().join("f.yaml"))
            .unwrap();
        for path in ["link/new.yaml", "f.yaml"] {
            let action = if path == "f.yaml" {
                EditAction::Update
            } else {
                EditAction::Create
            };
            assert!(matches!(
                write_edit(dir.path(), &edit(path, action, "x")),
                Err(WriteError::Refused { .. })
            ));
        }
        assert_eq!(
            std::fs::read_to_string(outside.path().join("f.yaml")).unwrap(),
            "outside\n"
        );
        assert!(!outside.path().join("new.yaml").exists());
    }

    #[test]
    fn create_does_not_clobber_a_file_that_appeared() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.yaml"), "mine\n").unwrap();
        assert!(write_edit(dir.path(), &edit("x.yaml", EditAction::Create, "x")).is_err());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("x.yaml")).unwrap(),
            "mine\n"
        );
    }
}
