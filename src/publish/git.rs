//! The git side of `pr`, with git2 (libgit2).
//!
//! Design: the commit is built from the base branch's tree plus the planned blobs, in an
//! in-memory index. Nothing is checked out, and the commit can only contain the planned files
//! (whatever else is in the work tree). Fetching, committing and pushing happen in a
//! temporary bare [`Scratch`] repository that borrows the clone's objects through
//! `objects/info/alternates`: the user's clone (HEAD, index, work tree, refs, `.git/shallow`)
//! is only read, never written, and the base branch is never written, locally or remotely.
//! (libgit2's local transport rewrites `.git/shallow` on fetch; the scratch repository keeps
//! such surprises away from the clone.)
//!
//! Shallow clones (actions/checkout's default): libgit2's push walks the parents of the
//! commits the remote already has and fails on missing ones ("git does it gently here, but we
//! don't like missing objects", libgit2 `revwalk.c`). So for a shallow clone the scratch
//! repository borrows nothing and fetches the base and the branch with their full history.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use git2::{
    AutotagOption, CredentialType, Direction, ErrorClass, ErrorCode, FetchOptions, Index,
    IndexEntry, IndexTime, Oid, PushOptions, RemoteCallbacks, Repository, Signature, StatusOptions,
};

use super::redact::Secret;
use super::{ErrorKind, PublishError, RetryPolicy};

/// The trailer that marks a commit as the tool's own. A branch whose commits all carry it
/// may be force-pushed; any other commit on it makes `pr` stop.
pub const TRAILER_KEY: &str = "Generated-by";
pub const TRAILER_VALUE: &str = "gateway-migrate";

/// Refs of the scratch repository: where fetched heads land, what the new commit is pushed
/// from, and the clone's HEAD (so fetches negotiate from what is already there).
pub const FETCHED_BASE_REF: &str = "refs/gateway-migrate/fetched-base";
pub const FETCHED_BRANCH_REF: &str = "refs/gateway-migrate/fetched-branch";
pub const PUSH_REF: &str = "refs/gateway-migrate/push";
pub const HAVE_REF: &str = "refs/gateway-migrate/have";

/// Scratch repositories are `<temp>/gateway-migrate-<pid>-<nanos>.git`: the PID tells a
/// later `bulk run` which ones a killed process left behind.
pub const SCRATCH_PREFIX: &str = "gateway-migrate-";

/// A temporary bare repository that reads the clone's objects through alternates and holds
/// everything `pr` fetches and writes. Removed on drop.
pub struct Scratch {
    pub repo: Repository,
    dir: std::path::PathBuf,
}

impl Scratch {
    pub fn new(clone: &Repository) -> Result<Scratch, PublishError> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "{SCRATCH_PREFIX}{}-{stamp}.git",
            std::process::id()
        ));
        let io = |e: std::io::Error| {
            PublishError::new(
                ErrorKind::Git,
                format!(
                    "cannot prepare a scratch repository in {}: {e}",
                    dir.display()
                ),
                "make the temporary directory writable (TMPDIR)",
            )
        };
        let repo = Repository::init_bare(&dir)
            .map_err(|e| git_error("create a scratch repository", &e))?;
        // From here on, dropping `scratch` removes the directory.
        let mut scratch = Scratch {
            repo,
            dir: dir.clone(),
        };
        // A full clone lends its objects (alternates) and its HEAD as a "have", so the
        // fetch only transfers what is new. A shallow clone lends nothing: libgit2 skips
        // fetching tips it can already see and its push cannot walk past missing parents, so
        // the scratch repository fetches the base and the branch with their full history
        // (what `fetch-depth: 0` would have cost).
        if !clone.is_shallow() {
            let objects = clone.path().join("objects");
            let objects = objects.canonicalize().unwrap_or(objects);
            std::fs::create_dir_all(dir.join("objects/info")).map_err(io)?;
            std::fs::write(
                dir.join("objects/info/alternates"),
                format!("{}\n", objects.display()),
            )
            .map_err(io)?;
            // Reopen so libgit2 reads the alternates.
            scratch.repo = Repository::open_bare(&dir)
                .map_err(|e| git_error("open the scratch repository", &e))?;
            if let Some(head) = clone.head().ok().and_then(|h| h.target()) {
                let _ = scratch
                    .repo
                    .reference(HAVE_REF, head, true, "gateway-migrate");
            }
        }
        Ok(scratch)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Used when neither `--author` nor git's `user.name`/`user.email` say who commits (the
/// usual case on CI runners).
pub const DEFAULT_AUTHOR_NAME: &str = "github-actions[bot]";
pub const DEFAULT_AUTHOR_EMAIL: &str = "41898282+github-actions[bot]@users.noreply.github.com";

/// Opens the repository containing `path`; returns it and `path` relative to its work tree
/// (`""` or `"dir/sub/"`), the prefix of every planned path.
pub fn open(path: &Path) -> Result<(Repository, String), PublishError> {
    let repo = Repository::discover(path).map_err(|e| {
        PublishError::new(
            ErrorKind::Usage,
            format!(
                "{} is not inside a git repository: {}",
                path.display(),
                e.message()
            ),
            "run `pr` inside a clone of the repository to change (in Actions: after \
             actions/checkout)",
        )
    })?;
    let workdir = repo.workdir().ok_or_else(|| {
        PublishError::new(
            ErrorKind::Usage,
            format!("{} is a bare repository", path.display()),
            "run `pr` in a clone with a work tree",
        )
    })?;
    let canon = |p: &Path| {
        p.canonicalize().map_err(|e| {
            PublishError::new(
                ErrorKind::Usage,
                format!("cannot resolve {}: {e}", p.display()),
                "pass an existing directory",
            )
        })
    };
    let root = canon(path)?;
    let workdir = canon(workdir)?;
    let rel = root.strip_prefix(&workdir).map_err(|_| {
        PublishError::new(
            ErrorKind::Usage,
            format!(
                "{} is outside the work tree of its repository",
                path.display()
            ),
            "pass a directory inside the clone",
        )
    })?;
    let mut prefix = String::new();
    for c in rel.components() {
        prefix.push_str(&c.as_os_str().to_string_lossy());
        prefix.push('/');
    }
    Ok((repo, prefix))
}

/// Work-tree paths that differ from HEAD (modified, staged, deleted, untracked but not
/// ignored), except `planned`.
pub fn dirty_paths(
    repo: &Repository,
    planned: &BTreeSet<String>,
) -> Result<Vec<String>, PublishError> {
    let mut opts = StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .exclude_submodules(true);
    let statuses = repo
        .statuses(Some(&mut opts))
        .map_err(|e| git_error("read the work tree status", &e))?;
    let mut dirty = Vec::new();
    for entry in statuses.iter() {
        let status = entry.status();
        if status.is_empty() || status.is_ignored() {
            continue;
        }
        let path = String::from_utf8_lossy(entry.path_bytes()).into_owned();
        if !planned.contains(&path) {
            dirty.push(path);
        }
    }
    dirty.sort();
    Ok(dirty)
}

/// The URL `pr` talks to for `remote`: its push URL if set, else its URL.
pub fn remote_url(repo: &Repository, remote: &str) -> Result<String, PublishError> {
    let r = repo.find_remote(remote).map_err(|e| {
        PublishError::new(
            ErrorKind::Usage,
            format!("the repository has no remote {remote:?}: {}", e.message()),
            "add it (`git remote add origin <url>`) or pass --remote",
        )
    })?;
    let url = match r.pushurl() {
        Ok(Some(u)) => u.to_string(),
        _ => r.url().map(str::to_string).unwrap_or_default(),
    };
    if url.is_empty() {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!("remote {remote:?} has no usable URL"),
            "set it with `git remote set-url`",
        ));
    }
    Ok(url)
}

/// SSH remotes (`git@host:o/r.git`, `ssh://git@host/o/r.git`) become their HTTPS form: this
/// build of git2 speaks HTTPS and local transports only, and the token is an HTTPS credential.
pub fn transport_url(url: &str) -> String {
    if let Some(rest) = url.strip_prefix("ssh://") {
        let rest = rest.split_once('@').map_or(rest, |(_, h)| h);
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        let host = host.split(':').next().unwrap_or(host);
        return format!("https://{host}/{path}");
    }
    if !url.contains("://")
        && let Some((user_host, path)) = url.split_once(':')
        && user_host.contains('@')
        && !path.starts_with('/')
    {
        let host = user_host.rsplit('@').next().unwrap_or(user_host);
        return format!("https://{host}/{path}");
    }
    url.to_string()
}

/// `owner/repo` from a remote URL (`https://github.com/o/r.git`, `git@github.com:o/r`).
pub fn repository_from_url(url: &str) -> Option<(String, String)> {
    let https = transport_url(url);
    let after_scheme = https.split_once("://").map_or(https.as_str(), |(_, r)| r);
    let path = after_scheme.split_once('/')?.1;
    let path = path.trim_end_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    let mut parts = path.rsplit('/');
    let repo = parts.next()?.to_string();
    let owner = parts.next()?.to_string();
    if owner.is_empty() || repo.is_empty() {
        return None;
    }
    Some((owner, repo))
}

/// Talks to one remote URL with the token as HTTPS credentials.
pub struct Transport<'a> {
    pub url: &'a str,
    pub token: &'a Secret,
    pub token_env: &'a str,
    pub policy: &'a RetryPolicy,
}

/// What the remote advertises.
#[derive(Debug, Default)]
pub struct RemoteHeads {
    pub default_branch: Option<String>,
    pub branches: BTreeMap<String, Oid>,
}

impl Transport<'_> {
    /// Callbacks that answer the first credential request with `x-access-token:<token>` and
    /// refuse any further one (libgit2 asks again after a 401 and would loop otherwise).
    fn callbacks<'c>(&'c self, asked: &'c Cell<u32>) -> RemoteCallbacks<'c> {
        let mut cb = RemoteCallbacks::new();
        let token = self.token;
        cb.credentials(move |_url, _user, allowed| {
            let n = asked.get();
            asked.set(n + 1);
            if n > 0 {
                return Err(git2::Error::from_str("the remote rejected the credentials"));
            }
            if token.is_empty() {
                return Err(git2::Error::from_str(
                    "the remote asks for credentials and there is no token",
                ));
            }
            if !allowed.contains(CredentialType::USER_PASS_PLAINTEXT) {
                return Err(git2::Error::from_str(
                    "the remote asks for credentials other than a user and password",
                ));
            }
            git2::Cred::userpass_plaintext("x-access-token", token.expose())
        });
        cb
    }

    /// Runs `op` up to `policy.attempts` times while it fails for network reasons.
    fn with_retries<T>(
        &self,
        what: &str,
        mut op: impl FnMut(&Cell<u32>) -> Result<T, git2::Error>,
    ) -> Result<T, PublishError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let asked = Cell::new(0);
            match op(&asked) {
                Ok(v) => return Ok(v),
                Err(e) => {
                    let err = self.classify(what, &e, asked.get());
                    if err.kind == ErrorKind::Network && attempt < self.policy.attempts {
                        std::thread::sleep(self.policy.backoff(attempt));
                        continue;
                    }
                    return Err(err);
                }
            }
        }
    }

    fn classify(&self, what: &str, e: &git2::Error, asked: u32) -> PublishError {
        let url = self.url;
        let auth_failed = asked > 1
            || (asked == 1 && self.token.is_empty())
            || e.code() == ErrorCode::Auth
            || e.message().contains("rejected the credentials");
        if auth_failed {
            let what_happened = if self.token.is_empty() {
                format!(
                    "the git remote {url} needs credentials to {what} and {} is empty",
                    self.token_env
                )
            } else {
                format!(
                    "the git remote {url} rejected the token from {} while trying to {what}",
                    self.token_env
                )
            };
            return PublishError::new(
                ErrorKind::Auth,
                what_happened,
                format!(
                    "set {} to a token that may push to the repository (workflow \
                     `permissions: contents: write`, or a PAT/App token with Contents: write)",
                    self.token_env
                ),
            );
        }
        // libgit2 reports an HTTP refusal as "unexpected http status code: N"; those are
        // answers, not network trouble, so they are not retried.
        match http_status(e.message()) {
            Some(403) => {
                return PublishError::new(
                    ErrorKind::Auth,
                    format!(
                        "the git remote {url} refused the token from {} while trying to {what} (403)",
                        self.token_env
                    ),
                    "give the token access to the repository (for an organisation with SAML                      single sign-on, authorise the token for it)",
                );
            }
            Some(404) => {
                return PublishError::new(
                    ErrorKind::Git,
                    format!(
                        "the git remote {url} does not exist or the token from {} cannot read it                          (404) while trying to {what}",
                        self.token_env
                    ),
                    "check the repository's name and the server URL, and that the token can                      read the repository",
                );
            }
            _ => {}
        }
        let network = matches!(
            e.class(),
            ErrorClass::Net | ErrorClass::Http | ErrorClass::Ssl
        );
        if network {
            PublishError::new(
                ErrorKind::Network,
                format!("could not {what} at {url}: {}", e.message()),
                "check the network and the remote URL, then re-run",
            )
        } else {
            git_error(&format!("{what} at {url}"), e)
        }
    }

    /// `git ls-remote`: the default branch and every branch head.
    pub fn list(&self, repo: &Repository) -> Result<RemoteHeads, PublishError> {
        self.with_retries("list the remote's branches", |asked| {
            let mut remote = repo.remote_anonymous(self.url)?;
            let conn = remote.connect_auth(Direction::Fetch, Some(self.callbacks(asked)), None)?;
            let mut heads = RemoteHeads::default();
            for head in conn.list()? {
                if let Some(b) = head.name().strip_prefix("refs/heads/") {
                    heads.branches.insert(b.to_string(), head.oid());
                }
            }
            if let Ok(buf) = conn.default_branch()
                && let Ok(name) = buf.as_str()
            {
                heads.default_branch = name.strip_prefix("refs/heads/").map(str::to_string);
            }
            Ok(heads)
        })
    }

    /// Fetches `refspecs` (no tags).
    pub fn fetch(&self, repo: &Repository, refspecs: &[String]) -> Result<(), PublishError> {
        self.fetch_depth(repo, refspecs, None)
    }

    /// Fetches `refspecs` (no tags); with `depth`, only that many commits of each (a
    /// shallow fetch, what `bulk run` clones with).
    pub fn fetch_depth(
        &self,
        repo: &Repository,
        refspecs: &[String],
        depth: Option<i32>,
    ) -> Result<(), PublishError> {
        self.with_retries("fetch", |asked| {
            let mut remote = repo.remote_anonymous(self.url)?;
            let mut fo = FetchOptions::new();
            fo.remote_callbacks(self.callbacks(asked))
                .download_tags(AutotagOption::None);
            if let Some(d) = depth {
                fo.depth(d);
            }
            remote.fetch(refspecs, Some(&mut fo), Some("gateway-migrate: fetch"))
        })
    }

    /// Force-pushes `local_ref` to `refs/heads/<branch>`. A ref the remote rejects (hook,
    /// branch protection) is an error, even though libgit2 reports the push itself as done.
    pub fn push(
        &self,
        repo: &Repository,
        local_ref: &str,
        branch: &str,
    ) -> Result<(), PublishError> {
        let refspec = format!("+{local_ref}:refs/heads/{branch}");
        let rejected: RefCell<Option<String>> = RefCell::new(None);
        let remote_said = RefCell::new(String::new());
        self.with_retries(&format!("push {branch}"), |asked| {
            let mut remote = repo.remote_anonymous(self.url)?;
            let mut cb = self.callbacks(asked);
            // Servers explain refusals on the sideband ("remote: error: GH006: Protected
            // branch update failed ..."); keep the last lines for the error message.
            cb.sideband_progress(|data| {
                let mut said = remote_said.borrow_mut();
                said.push_str(&String::from_utf8_lossy(data));
                if said.len() > 4096 {
                    let cut = said.len() - 4096;
                    let cut = (cut..said.len())
                        .find(|&i| said.is_char_boundary(i))
                        .unwrap_or(0);
                    said.drain(..cut);
                }
                true
            });
            cb.push_update_reference(|refname, status| {
                if let Some(msg) = status {
                    *rejected.borrow_mut() = Some(format!("{refname}: {msg}"));
                }
                Ok(())
            });
            let mut po = PushOptions::new();
            po.remote_callbacks(cb);
            remote.push(&[refspec.as_str()], Some(&mut po))
        })?;
        if let Some(reason) = rejected.into_inner() {
            let said: Vec<String> = remote_said
                .into_inner()
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            let said = if said.is_empty() {
                String::new()
            } else {
                format!(
                    "; the remote said: {}",
                    said[said.len().saturating_sub(5)..].join(" / ")
                )
            };
            return Err(PublishError::new(
                ErrorKind::PushRejected,
                format!(
                    "the remote {} refused the push of {branch} ({reason}){said}",
                    self.url
                ),
                format!(
                    "the branch may be protected or a server hook refused it: allow the token \
                     to push to {branch}, or choose another branch with --branch"
                ),
            ));
        }
        Ok(())
    }
}

/// The status of libgit2's "unexpected http status code: N".
fn http_status(message: &str) -> Option<u16> {
    let rest = message.split("http status code: ").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Rejects planned paths that could escape the tree or touch git's own files.
pub fn check_path(path: &str) -> Result<(), PublishError> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.contains('\\')
        || path
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == ".." || c.eq_ignore_ascii_case(".git"));
    if bad {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!("planned path {path:?} is not a plain path inside the repository"),
            "this is a bug in the planner; please report it with the command you ran",
        ));
    }
    Ok(())
}

/// The tree of `base` with `files` (repository-relative path, contents) written into it.
/// File modes of existing regular files are kept; new files are 100644.
pub fn build_tree(
    repo: &Repository,
    base: &git2::Tree<'_>,
    files: &[(String, &[u8])],
) -> Result<Oid, PublishError> {
    let fail = |e: git2::Error| git_error("build the commit tree", &e);
    let mut index = Index::new().map_err(fail)?;
    index.read_tree(base).map_err(fail)?;
    for (path, contents) in files {
        check_path(path)?;
        let blob = repo.blob(contents).map_err(fail)?;
        let mode = match index.get_path(Path::new(path), 0) {
            Some(e) if e.mode == 0o100755 => 0o100755,
            _ => 0o100644,
        };
        let entry = IndexEntry {
            ctime: IndexTime::new(0, 0),
            mtime: IndexTime::new(0, 0),
            dev: 0,
            ino: 0,
            mode,
            uid: 0,
            gid: 0,
            file_size: u32::try_from(contents.len()).unwrap_or(u32::MAX),
            id: blob,
            flags: u16::try_from(path.len()).unwrap_or(0xfff).min(0xfff),
            flags_extended: 0,
            path: path.as_bytes().to_vec(),
        };
        index.add(&entry).map_err(fail)?;
    }
    index.write_tree_to(repo).map_err(fail)
}

/// Whether `message` carries `Generated-by: gateway-migrate`.
pub fn is_tool_commit(message: &str) -> bool {
    git2::message_trailers_strs(message)
        .map(|t| {
            t.iter().any(|(k, v)| {
                k.eq_ignore_ascii_case(TRAILER_KEY) && v.trim().starts_with(TRAILER_VALUE)
            })
        })
        .unwrap_or(false)
}

/// `message` with the tool's trailer appended (once).
pub fn with_trailer(message: &str) -> String {
    let message = message.trim_end();
    if is_tool_commit(message) {
        return format!("{message}\n");
    }
    format!("{message}\n\n{TRAILER_KEY}: {TRAILER_VALUE}\n")
}

/// A commit on the tool's branch that the tool did not make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignCommit {
    pub id: String,
    pub author: String,
    pub summary: String,
}

/// Commits on `tip` that are neither the tool's (trailer) nor part of the base branch's
/// history. The tool always commits directly on a base head, so the walk stops at its own
/// commits and only follows the parents of foreign ones (that also works in shallow clones,
/// where the base history is cut off).
pub fn foreign_commits(
    repo: &Repository,
    tip: Oid,
    base_head: Oid,
) -> Result<Vec<ForeignCommit>, PublishError> {
    const LIMIT: usize = 20;
    let mut foreign = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![tip];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) || foreign.len() >= LIMIT {
            continue;
        }
        if id == base_head || repo.graph_descendant_of(base_head, id).unwrap_or(false) {
            continue;
        }
        let commit = repo
            .find_commit(id)
            .map_err(|e| git_error("read the branch history", &e))?;
        let message = String::from_utf8_lossy(commit.message_bytes()).into_owned();
        if is_tool_commit(&message) {
            continue;
        }
        let author = commit.author();
        foreign.push(ForeignCommit {
            id: id.to_string(),
            author: format!(
                "{} <{}>",
                String::from_utf8_lossy(author.name_bytes()),
                String::from_utf8_lossy(author.email_bytes())
            ),
            summary: message.lines().next().unwrap_or_default().to_string(),
        });
        stack.extend(commit.parent_ids());
    }
    Ok(foreign)
}

/// The signature commits are made with: `--author "Name <email>"`, else git's configured
/// user, else the GitHub Actions bot.
pub fn signature(
    repo: &Repository,
    author: Option<&str>,
) -> Result<Signature<'static>, PublishError> {
    let fail = |e: git2::Error| git_error("make the commit signature", &e);
    if let Some(author) = author {
        let parsed = author
            .trim()
            .strip_suffix('>')
            .and_then(|s| s.split_once('<'))
            .map(|(n, e)| (n.trim(), e.trim()))
            .filter(|(n, e)| !n.is_empty() && e.contains('@'));
        let Some((name, email)) = parsed else {
            return Err(PublishError::new(
                ErrorKind::Usage,
                format!("--author {author:?} is not of the form \"Name <email>\""),
                "pass e.g. --author \"Migration Bot <bot@example.com>\"",
            ));
        };
        return Signature::now(name, email).map_err(fail);
    }
    if let Ok(sig) = repo.signature() {
        return Ok(sig.to_owned());
    }
    Signature::now(DEFAULT_AUTHOR_NAME, DEFAULT_AUTHOR_EMAIL).map_err(fail)
}

/// Writes the commit object; no branch or HEAD moves.
pub fn commit(
    repo: &Repository,
    tree: Oid,
    parent: Oid,
    sig: &Signature<'_>,
    message: &str,
) -> Result<Oid, PublishError> {
    let fail = |e: git2::Error| git_error("write the commit", &e);
    let tree = repo.find_tree(tree).map_err(fail)?;
    let parent = repo.find_commit(parent).map_err(fail)?;
    repo.commit(None, sig, sig, message, &tree, &[&parent])
        .map_err(fail)
}

/// Points a private ref at `id`.
pub fn set_ref(repo: &Repository, name: &str, id: Oid) -> Result<(), PublishError> {
    repo.reference(name, id, true, "gateway-migrate")
        .map(|_| ())
        .map_err(|e| git_error(&format!("set {name}"), &e))
}

pub fn git_error(what: &str, e: &git2::Error) -> PublishError {
    PublishError::new(
        ErrorKind::Git,
        format!("git could not {what}: {}", e.message()),
        "check the repository with `git status` and `git fsck`, then re-run",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssh_remotes_map_to_https() {
        assert_eq!(
            transport_url("git@github.com:acme/deploy.git"),
            "https://github.com/acme/deploy.git"
        );
        assert_eq!(
            transport_url("ssh://git@ghe.example.com:22/acme/deploy.git"),
            "https://ghe.example.com/acme/deploy.git"
        );
        assert_eq!(
            transport_url("https://github.com/acme/deploy"),
            "https://github.com/acme/deploy"
        );
        assert_eq!(transport_url("/srv/git/x.git"), "/srv/git/x.git");
    }

    #[test]
    fn repository_is_parsed_from_common_url_forms() {
        let want = Some(("acme".to_string(), "deploy".to_string()));
        assert_eq!(
            repository_from_url("https://github.com/acme/deploy.git"),
            want
        );
        assert_eq!(repository_from_url("https://github.com/acme/deploy/"), want);
        assert_eq!(repository_from_url("git@github.com:acme/deploy.git"), want);
        assert_eq!(
            repository_from_url("https://x-access-token:t@github.com/acme/deploy"),
            want
        );
        assert_eq!(repository_from_url("https://github.com/"), None);
    }

    #[test]
    fn http_refusals_are_read_from_libgit2_messages() {
        assert_eq!(http_status("unexpected http status code: 404"), Some(404));
        assert_eq!(
            http_status("unexpected http status code: 403 (x)"),
            Some(403)
        );
        assert_eq!(http_status("failed to connect to 127.0.0.1"), None);
    }

    #[test]
    fn trailer_is_added_once_and_recognised() {
        let m = with_trailer("Migrate to the Gateway API");
        assert_eq!(
            m,
            "Migrate to the Gateway API\n\nGenerated-by: gateway-migrate\n"
        );
        assert!(is_tool_commit(&m));
        assert_eq!(with_trailer(&m), m);
        assert!(!is_tool_commit("Fix typo\n\nSigned-off-by: A <a@b>\n"));
        assert!(!is_tool_commit("Generated-by: gateway-migrate"));
    }

    #[test]
    fn unsafe_paths_are_refused() {
        for p in [
            "",
            "/etc/passwd",
            "a/../b",
            "./a",
            ".git/config",
            "a//b",
            "a\\b",
        ] {
            assert!(check_path(p).is_err(), "{p}");
        }
        assert!(check_path("apps/web/app.gateway-api.yaml").is_ok());
    }
}
