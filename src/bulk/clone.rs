//! A shallow clone of one branch, with git2 and the token as HTTPS credentials, into a
//! temporary directory that is removed when the clone is dropped.
//!
//! Only the branch's head commit is fetched (depth 1): translation reads one tree. A
//! repository that gets a pull request needs the history too (libgit2's push walks the
//! parents of what the remote has), so [`unshallow`] fetches it, on the worker thread, before
//! the clone goes to the publisher.

use std::path::{Path, PathBuf};

use git2::{Repository, RepositoryInitOptions};

use crate::publish::PublishError;
use crate::publish::git::Transport;

/// Temporary clones are named `gateway-migrate-bulk-<pid>-…`, so a later run can tell the
/// ones a killed run left behind.
const PREFIX: &str = "gateway-migrate-bulk-";

/// A checked-out clone; the directory goes away with it.
pub struct Clone {
    pub dir: tempfile::TempDir,
    pub branch: String,
}

impl Clone {
    pub fn root(&self) -> &Path {
        self.dir.path()
    }
}

/// Why a repository could not be cloned, in words for the results file.
#[derive(Debug)]
pub enum CloneError {
    /// No branch at all.
    Empty,
    /// GitHub names no default branch, or names one the remote does not have.
    NoDefaultBranch(Option<String>),
    Publish(PublishError),
    Io(String),
}

impl std::fmt::Display for CloneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CloneError::Empty => {
                f.write_str("the repository is empty: it has no branch to migrate")
            }
            CloneError::NoDefaultBranch(None) => {
                f.write_str("the repository names no default branch")
            }
            CloneError::NoDefaultBranch(Some(b)) => {
                write!(f, "the default branch {b} does not exist on the remote")
            }
            CloneError::Publish(e) => write!(f, "{} (hint: {})", e.what, e.todo),
            CloneError::Io(e) => f.write_str(e),
        }
    }
}

impl CloneError {
    /// The publishing error behind it, when there is one (to tell a rejected token).
    pub fn publish_error(&self) -> Option<&PublishError> {
        match self {
            CloneError::Publish(e) => Some(e),
            _ => None,
        }
    }
}

/// Clones `branch` (or the remote's default branch) of `transport.url` at depth 1 into a new
/// temporary directory.
pub fn shallow(transport: &Transport<'_>, branch: Option<&str>) -> Result<Clone, CloneError> {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(|e| CloneError::Io(format!("cannot create a temporary directory: {e}")))?;
    let git =
        |what: &str, e: git2::Error| CloneError::Publish(crate::publish::git::git_error(what, &e));
    let mut init = RepositoryInitOptions::new();
    init.initial_head(branch.unwrap_or("main"));
    let repo = Repository::init_opts(dir.path(), &init).map_err(|e| git("create the clone", e))?;
    repo.remote("origin", transport.url)
        .map_err(|e| git("add the remote", e))?;
    let heads = transport.list(&repo).map_err(CloneError::Publish)?;
    if heads.branches.is_empty() {
        return Err(CloneError::Empty);
    }
    let branch = match branch.map(str::to_string).or(heads.default_branch.clone()) {
        Some(b) => b,
        None => return Err(CloneError::NoDefaultBranch(None)),
    };
    if !heads.branches.contains_key(&branch) {
        return Err(CloneError::NoDefaultBranch(Some(branch)));
    }
    let tracking = format!("refs/remotes/origin/{branch}");
    transport
        .fetch_depth(
            &repo,
            &[format!("+refs/heads/{branch}:{tracking}")],
            Some(1),
        )
        .map_err(CloneError::Publish)?;
    // What was fetched, not what was listed: someone may have pushed in between.
    let commit = repo
        .find_reference(&tracking)
        .and_then(|r| r.peel_to_commit())
        .map_err(|e| git("read the fetched commit", e))?;
    repo.branch(&branch, &commit, true)
        .map_err(|e| git("create the local branch", e))?;
    repo.set_head(&format!("refs/heads/{branch}"))
        .map_err(|e| git("point HEAD at the branch", e))?;
    let mut checkout = git2::build::CheckoutBuilder::new();
    checkout.force();
    repo.checkout_head(Some(&mut checkout))
        .map_err(|e| git("check out the branch", e))?;
    Ok(Clone { dir, branch })
}

/// libgit2's depth that asks for the rest of a shallow clone's history.
const UNSHALLOW: i32 = i32::MAX;

/// Fetches the history a shallow clone left out, so that publishing can commit on top of it
/// and push without fetching on the publisher's thread.
pub fn unshallow(transport: &Transport<'_>, clone: &Clone) -> Result<(), CloneError> {
    let repo = Repository::open(clone.root())
        .map_err(|e| CloneError::Publish(crate::publish::git::git_error("open the clone", &e)))?;
    if !repo.is_shallow() {
        return Ok(());
    }
    let branch = &clone.branch;
    transport
        .fetch_depth(
            &repo,
            &[format!("+refs/heads/{branch}:refs/remotes/origin/{branch}")],
            Some(UNSHALLOW),
        )
        .map_err(CloneError::Publish)
}

/// Removes the clones and scratch repositories that killed runs left in `temp` (their
/// process is gone). Only on systems with `/proc`, where a dead process can be told; returns
/// how many were removed.
pub fn remove_stale(temp: &Path) -> usize {
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(temp) else {
        return 0;
    };
    let stale: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let rest = match name.strip_prefix(PREFIX) {
                Some(rest) => rest,
                None if name.ends_with(".git") => {
                    name.strip_prefix(crate::publish::git::SCRATCH_PREFIX)?
                }
                None => return None,
            };
            let pid: u32 = rest.split('-').next()?.parse().ok()?;
            let alive = Path::new(&format!("/proc/{pid}")).exists();
            (!alive).then(|| e.path())
        })
        .collect();
    stale
        .iter()
        .filter(|p| std::fs::remove_dir_all(p).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_directories_of_dead_processes_are_removed() {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let temp = tempfile::tempdir().unwrap();
        // PIDs are below 2^22 on Linux; this one cannot be running.
        let dead = temp.path().join(format!("{PREFIX}4294967-abc"));
        let mine = temp
            .path()
            .join(format!("{PREFIX}{}-abc", std::process::id()));
        let dead_scratch = temp.path().join("gateway-migrate-4294967-123.git");
        let other = temp.path().join("gateway-migrate-4294967-notes");
        for d in [&dead, &mine, &dead_scratch, &other] {
            std::fs::create_dir_all(d.join("sub")).unwrap();
        }
        assert_eq!(remove_stale(temp.path()), 2);
        assert!(!dead.exists() && !dead_scratch.exists());
        assert!(mine.exists() && other.exists());
    }
}
