//! A shallow clone of one branch, with git2 and the token as HTTPS credentials, into a
//! temporary directory that is removed when the clone is dropped.
//!
//! Only the branch's head commit is fetched (depth 1): translation reads one tree, and `pr`'s
//! scratch repository fetches history only when it has something to push.

use std::path::Path;

use git2::{Repository, RepositoryInitOptions};

use crate::publish::git::Transport;
use crate::publish::{ErrorKind, PublishError};

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
            CloneError::Publish(e) => write!(f, "{}", e.what),
            CloneError::Io(e) => f.write_str(e),
        }
    }
}

impl CloneError {
    /// Whether it is the token's fault (so the run should say which variable).
    pub fn is_auth(&self) -> bool {
        matches!(self, CloneError::Publish(e) if e.kind == ErrorKind::Auth)
    }
}

/// Clones `branch` (or the remote's default branch) of `transport.url` at depth 1 under
/// `parent` (the system's temporary directory when `None`).
pub fn shallow(
    transport: &Transport<'_>,
    branch: Option<&str>,
    parent: Option<&Path>,
) -> Result<Clone, CloneError> {
    let mut builder = tempfile::Builder::new();
    builder.prefix("gateway-migrate-bulk-");
    let dir = match parent {
        Some(p) => builder.tempdir_in(p),
        None => builder.tempdir(),
    }
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
    let Some(&tip) = heads.branches.get(&branch) else {
        return Err(CloneError::NoDefaultBranch(Some(branch)));
    };
    transport
        .fetch_depth(
            &repo,
            &[format!("+refs/heads/{branch}:refs/remotes/origin/{branch}")],
            Some(1),
        )
        .map_err(CloneError::Publish)?;
    let commit = repo
        .find_commit(tip)
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
