//! What git has recorded of the files this tool owns: `check` reports generated files (and
//! the kustomizations listing them) that a commit would leave out. pre-commit checks the
//! staged state by stashing unstaged changes, but it leaves untracked files in place, so a
//! new generated file that was never added would pass every check and be missing from the
//! commit (and from a fresh clone's `kustomize build`).

use std::path::Path;

/// Why git would not commit a file as it is on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unrecorded {
    /// Not in the index at all (new, or ignored by `.gitignore`).
    Untracked,
    /// Tracked, with changes on disk that are not staged.
    Unstaged,
}

/// The top of the git work tree holding `path` (the nearest directory with `.git`, a
/// directory or, in a worktree or submodule, a file), if any. `path` should be absolute.
pub fn work_tree_top(path: &Path) -> Option<&Path> {
    path.ancestors().find(|d| d.join(".git").exists())
}

/// The files of `paths` (relative to `root`, `/`-separated) that git would not commit as
/// they are. Empty when `root` is not inside a git work tree.
pub fn unrecorded(root: &Path, paths: &[String]) -> Vec<(String, Unrecorded)> {
    let Some((repo, prefix)) = repository_of(root) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in paths {
        let in_repo = prefix.join(path);
        let Ok(status) = repo.status_file(&in_repo) else {
            continue;
        };
        let state = if status.intersects(git2::Status::WT_NEW | git2::Status::IGNORED) {
            Unrecorded::Untracked
        } else if status.intersects(git2::Status::WT_MODIFIED | git2::Status::WT_TYPECHANGE) {
            Unrecorded::Unstaged
        } else {
            continue;
        };
        out.push((path.clone(), state));
    }
    out
}

/// The git repository whose work tree holds `root`, and `root`'s path inside it; `None`
/// outside a work tree.
fn repository_of(root: &Path) -> Option<(git2::Repository, std::path::PathBuf)> {
    let repo = git2::Repository::discover(root).ok()?;
    let workdir = std::fs::canonicalize(repo.workdir()?).ok()?;
    let root = std::fs::canonicalize(root).ok()?;
    let prefix = root.strip_prefix(&workdir).ok()?.to_path_buf();
    Some((repo, prefix))
}

/// The files git tracks (in its index) under the root-relative directories `dirs` of `root`
/// (`""`: all of them), as root-relative paths. Empty outside a git work tree.
pub fn tracked_under(root: &Path, dirs: &std::collections::BTreeSet<String>) -> Vec<String> {
    let Some((repo, prefix)) = repository_of(root) else {
        return Vec::new();
    };
    let Ok(index) = repo.index() else {
        return Vec::new();
    };
    let prefix = prefix.to_string_lossy().replace('\\', "/");
    let mut out = Vec::new();
    for entry in index.iter() {
        let Ok(path) = std::str::from_utf8(&entry.path) else {
            continue;
        };
        let rel = if prefix.is_empty() {
            path
        } else {
            match path
                .strip_prefix(prefix.as_str())
                .and_then(|p| p.strip_prefix('/'))
            {
                Some(rel) => rel,
                None => continue,
            }
        };
        let under = dirs
            .iter()
            .any(|d| d.is_empty() || rel.starts_with(&format!("{d}/")));
        if under {
            out.push(rel.to_string());
        }
    }
    out
}
