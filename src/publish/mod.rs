//! Publishing: turn an [`EditPlan`] into a branch, a commit, a push and a pull request whose
//! body is the report (`gateway-migrate pr`).
//!
//! Contract (after peter-evans/create-pull-request, see `docs/publishing.md`):
//! - one fixed branch per configuration (`gateway-migrate/<config-hash>`), never the base;
//! - the commit is the base branch head's tree plus the planned files, built in memory in a
//!   temporary scratch repository (no checkout; the clone itself is only read);
//! - the branch is force-pushed only when every commit on it carries
//!   `Generated-by: gateway-migrate`;
//! - an open PR from the branch is found, created or updated, never duplicated; with nothing to
//!   change nothing is pushed and the open PR is left (or closed with `--close-stale`);
//! - the outcome is `created|updated|closed|none`;
//! - every message that leaves this module went through the [`redact::Redactor`].
//!
//! All git and HTTP work happens on the calling thread (git2's `Repository` is not `Sync`);
//! the HTTP calls run on a current-thread tokio runtime built here.

pub mod git;
pub mod github;
pub mod output;
pub mod pace;
pub mod redact;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use crate::plan::EditPlan;

pub use output::{Operation, PublishOutcome};
pub use pace::Pacer;
pub use redact::{Redactor, Secret};

use github::{Created, GitHub, PullRequest};

/// Default PR title.
pub const DEFAULT_TITLE: &str = "Migrate to the Gateway API";
/// Default commit subject (the `Generated-by` trailer is always appended).
pub const DEFAULT_COMMIT_MESSAGE: &str = "Migrate Istio and Ingress manifests to the Gateway API";
/// Public GitHub's REST API.
pub const DEFAULT_API_URL: &str = "https://api.github.com";
/// GitHub refuses PR bodies over 65,536 characters; keep a margin for the truncation note.
pub const MAX_BODY_CHARS: usize = 65_000;

/// The default branch for a configuration: `gateway-migrate/<config-hash>`.
pub fn default_branch(config_fingerprint: &str) -> String {
    format!("gateway-migrate/{config_fingerprint}")
}

/// How hard to try against flaky networks and GitHub's rate limits.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Attempts per request (network errors, 5xx, rate limits), at least 1.
    pub attempts: u32,
    /// First backoff; doubles per attempt up to `max_delay`.
    pub base_delay: Duration,
    pub max_delay: Duration,
    /// Longest rate-limit wait accepted; a longer one fails the run with the time to retry.
    pub max_wait: Duration,
    /// Wait for a secondary rate limit that names no time (GitHub: "at least one minute").
    pub secondary_wait: Duration,
    /// Minimum spacing of mutating requests (GitHub: "at least one second").
    pub mutation_interval: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 4,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
            max_wait: Duration::from_secs(15 * 60),
            secondary_wait: Duration::from_secs(60),
            mutation_interval: Duration::from_secs(1),
        }
    }
}

impl RetryPolicy {
    /// The wait after failed attempt number `attempt` (1-based).
    pub fn backoff(&self, attempt: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1).min(16));
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }
}

/// Everything `publish` needs besides the repository, the plan and the body.
#[derive(Debug, Clone)]
pub struct PublishOptions {
    pub token: Secret,
    /// Name of the variable the token came from, for messages (`GITHUB_TOKEN`).
    pub token_env: String,
    /// `owner/repo`; `None`: parsed from the remote URL.
    pub repository: Option<String>,
    /// REST API root (`https://api.github.com`, `https://ghe.example.com/api/v3`).
    pub api_url: String,
    /// Git remote to fetch from and push to.
    pub remote: String,
    /// Base branch; `None`: the remote's default branch.
    pub base: Option<String>,
    /// The tool's branch.
    pub branch: String,
    pub title: String,
    pub labels: Vec<String>,
    pub draft: bool,
    /// `Name <email>`; `None`: git's configured user, else the GitHub Actions bot.
    pub author: Option<String>,
    pub commit_message: String,
    /// Publish even when files outside the plan are modified or untracked.
    pub allow_dirty: bool,
    /// Close the open PR when nothing needs to change any more.
    pub close_stale: bool,
    pub retry: RetryPolicy,
    /// Spacing of mutating GitHub requests; clones share it (`bulk run` gives every
    /// repository the same one, so the spacing holds across repositories).
    pub pacer: Pacer,
}

impl PublishOptions {
    /// Options with the documented defaults.
    pub fn new(branch: impl Into<String>, token: Secret) -> PublishOptions {
        PublishOptions {
            token,
            token_env: "GITHUB_TOKEN".into(),
            repository: None,
            api_url: DEFAULT_API_URL.into(),
            remote: "origin".into(),
            base: None,
            branch: branch.into(),
            title: DEFAULT_TITLE.into(),
            labels: Vec::new(),
            draft: false,
            author: None,
            commit_message: DEFAULT_COMMIT_MESSAGE.into(),
            allow_dirty: false,
            close_stale: false,
            retry: RetryPolicy::default(),
            pacer: Pacer::new(),
        }
    }
}

/// What the pull request looks like, as the command line sets it (`pr`, and every
/// repository's with `bulk run`).
#[derive(Debug, Clone)]
pub struct PullRequestSettings {
    /// The tool's branch; `None`: `gateway-migrate/<config-hash>`.
    pub branch: Option<String>,
    pub title: String,
    pub labels: Vec<String>,
    pub draft: bool,
    pub author: Option<String>,
    pub commit_message: String,
    pub close_stale: bool,
}

impl Default for PullRequestSettings {
    fn default() -> Self {
        PullRequestSettings {
            branch: None,
            title: DEFAULT_TITLE.into(),
            labels: Vec::new(),
            draft: false,
            author: None,
            commit_message: DEFAULT_COMMIT_MESSAGE.into(),
            close_stale: false,
        }
    }
}

impl PullRequestSettings {
    /// Publishing options with these settings, for a configuration with `config_fingerprint`
    /// (which names the default branch).
    pub fn options(&self, token: Secret, config_fingerprint: &str) -> PublishOptions {
        let branch = self
            .branch
            .clone()
            .unwrap_or_else(|| default_branch(config_fingerprint));
        let mut opts = PublishOptions::new(branch, token);
        opts.title = self.title.clone();
        opts.labels = self.labels.clone();
        opts.draft = self.draft;
        opts.author = self.author.clone();
        opts.commit_message = self.commit_message.clone();
        opts.close_stale = self.close_stale;
        opts
    }
}

/// What kind of failure, for callers and tests; the message says the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad options or environment (no token, no remote, branch = base, ...).
    Usage,
    /// Files outside the plan are modified or untracked.
    DirtyTree,
    /// HEAD is not the remote base branch's head, so the plan does not fit the base.
    StaleCheckout,
    /// The tool's branch holds commits the tool did not make.
    ForeignCommits,
    Git,
    /// A token was missing, or refused for this repository (git remote or GitHub).
    Auth,
    /// GitHub's API rejected the token itself (401): nothing will work with it.
    TokenRejected,
    Network,
    /// The remote refused the pushed ref (protection, hooks).
    PushRejected,
    GitHub,
    RateLimited,
}

/// A failure of `pr`: what happened and what to do about it. Never contains the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}\nhint: {todo}")]
pub struct PublishError {
    pub kind: ErrorKind,
    pub what: String,
    pub todo: String,
}

impl PublishError {
    pub fn new(kind: ErrorKind, what: impl Into<String>, todo: impl Into<String>) -> PublishError {
        PublishError {
            kind,
            what: what.into(),
            todo: todo.into(),
        }
    }

    /// The error with every secret of `r` masked.
    pub fn redacted(self, r: &Redactor) -> PublishError {
        PublishError {
            kind: self.kind,
            what: r.redact(&self.what),
            todo: r.redact(&self.todo),
        }
    }
}

/// Commits `plan` onto the base branch of the repository containing `repo`, pushes the
/// tool's branch and opens or updates its pull request with `body`. Paths in `plan` are
/// relative to `repo` (which may be a subdirectory of the clone).
pub fn publish(
    repo: &Path,
    plan: &EditPlan,
    body: &str,
    opts: &PublishOptions,
) -> Result<PublishOutcome, PublishError> {
    let redactor = Redactor::new([&opts.token]);
    // The body is report text built from repository content; mask the token there too.
    let body = redactor.redact(body);
    match run(repo, plan, &body, opts) {
        Ok(mut outcome) => {
            outcome.url = outcome.url.map(|u| redactor.redact(&u));
            Ok(outcome)
        }
        Err(e) => Err(e.redacted(&redactor)),
    }
}

fn run(
    repo_path: &Path,
    plan: &EditPlan,
    body: &str,
    opts: &PublishOptions,
) -> Result<PublishOutcome, PublishError> {
    check_options(opts)?;
    let (repo, prefix) = git::open(repo_path)?;
    let files: Vec<(String, &[u8])> = plan
        .edits
        .iter()
        .map(|e| (format!("{prefix}{}", e.path), e.contents.as_slice()))
        .collect();
    for (path, _) in &files {
        git::check_path(path)?;
    }
    let planned: BTreeSet<String> = files.iter().map(|(p, _)| p.clone()).collect();
    if !opts.allow_dirty {
        let dirty = git::dirty_paths(&repo, &planned)?;
        if !dirty.is_empty() {
            return Err(PublishError::new(
                ErrorKind::DirtyTree,
                format!(
                    "the work tree has changes outside the planned files: {}",
                    crate::diagnostic::list_some(&dirty, 8)
                ),
                "commit or stash them (`pr` applies the migration itself, so do not run `apply` \
                 first), ignore build output in .gitignore, or pass --allow-dirty to publish \
                 only the planned files",
            ));
        }
    }

    let url = git::transport_url(&git::remote_url(&repo, &opts.remote)?);
    let (owner, name) = resolve_repository(opts, &url)?;
    let transport = git::Transport {
        url: &url,
        token: &opts.token,
        token_env: &opts.token_env,
        policy: &opts.retry,
    };
    let scratch = git::Scratch::new(&repo)?;
    let heads = transport.list(&scratch.repo)?;
    let base = match (&opts.base, &heads.default_branch) {
        (Some(b), _) => b.clone(),
        (None, Some(d)) => d.clone(),
        (None, None) => {
            return Err(PublishError::new(
                ErrorKind::Usage,
                format!("the remote {url} names no default branch (is it empty?)"),
                "pass --base with the branch the pull request should target",
            ));
        }
    };
    if opts.branch == base || heads.default_branch.as_deref() == Some(opts.branch.as_str()) {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!(
                "refusing to commit to the base branch: --branch {} is the base or default \
                 branch",
                opts.branch
            ),
            "choose another branch (the default is gateway-migrate/<config-hash>)",
        ));
    }
    let Some(&base_head) = heads.branches.get(&base) else {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!("the remote {url} has no branch {base}"),
            "pass --base with an existing branch",
        ));
    };
    let branch_tip = heads.branches.get(&opts.branch).copied();
    if files.is_empty() {
        // Nothing planned: the base stays as it is, so there is nothing to fetch or commit
        // (a shallow clone would otherwise fetch the whole history for nothing). Only the
        // open pull request is looked at.
        let (runtime, gh) = client(opts, &owner, &name)?;
        return unchanged(&runtime, &gh, opts, &base, branch_tip);
    }
    let mut refspecs = vec![format!("+refs/heads/{base}:{}", git::FETCHED_BASE_REF)];
    if branch_tip.is_some() {
        refspecs.push(format!(
            "+refs/heads/{}:{}",
            opts.branch,
            git::FETCHED_BRANCH_REF
        ));
    }
    transport.fetch(&scratch.repo, &refspecs)?;
    let clone_head = repo
        .head()
        .ok()
        .and_then(|h| h.peel_to_commit().ok())
        .map(|c| (c.id(), c.tree_id()));
    let sig = git::signature(&repo, opts.author.as_deref())?;
    publish_fetched(
        &scratch.repo,
        &transport,
        &files,
        body,
        opts,
        Target {
            owner: &owner,
            name: &name,
            base: &base,
            base_head,
            branch_tip,
            clone_head,
            sig,
        },
    )
}

struct Target<'a> {
    owner: &'a str,
    name: &'a str,
    base: &'a str,
    base_head: git2::Oid,
    branch_tip: Option<git2::Oid>,
    /// The clone's HEAD commit and its tree.
    clone_head: Option<(git2::Oid, git2::Oid)>,
    sig: git2::Signature<'static>,
}

fn publish_fetched(
    repo: &git2::Repository,
    transport: &git::Transport<'_>,
    files: &[(String, &[u8])],
    body: &str,
    opts: &PublishOptions,
    t: Target<'_>,
) -> Result<PublishOutcome, PublishError> {
    let base_commit = repo
        .find_commit(t.base_head)
        .map_err(git_fail("read the base branch head"))?;
    let base_tree = base_commit
        .tree()
        .map_err(git_fail("read the base branch tree"))?;
    check_checkout_matches_base(repo, t.clone_head, &base_tree, t.base, t.base_head)?;
    let new_tree = git::build_tree(repo, &base_tree, files)?;
    let changed = new_tree != base_tree.id();

    let (runtime, gh) = client(opts, t.owner, t.name)?;
    if !changed {
        return unchanged(&runtime, &gh, opts, t.base, t.branch_tip);
    }
    let outcome =
        |operation, pr: Option<&PullRequest>, head: Option<git2::Oid>, pushed| PublishOutcome {
            operation,
            number: pr.map(|p| p.number),
            url: pr.map(|p| p.url.clone()),
            branch: opts.branch.clone(),
            base: t.base.to_string(),
            head_sha: head.map(|h| h.to_string()),
            pushed,
        };

    let up_to_date = match t.branch_tip {
        Some(tip) => {
            repo.find_commit(tip)
                .map_err(git_fail("read the branch head"))?
                .tree_id()
                == new_tree
        }
        None => false,
    };
    let mut head = t.branch_tip;
    let mut pushed = false;
    if !up_to_date {
        if let Some(tip) = t.branch_tip {
            let foreign = git::foreign_commits(repo, tip, t.base_head)?;
            if !foreign.is_empty() {
                return Err(foreign_commits_error(&opts.branch, &foreign));
            }
        }
        let message = git::with_trailer(&opts.commit_message);
        let commit = git::commit(repo, new_tree, t.base_head, &t.sig, &message)?;
        git::set_ref(repo, git::PUSH_REF, commit)?;
        // A push creates content too: it keeps the same spacing as the API's writes.
        std::thread::sleep(opts.pacer.wait_needed(opts.retry.mutation_interval));
        let pushed_result = transport.push(repo, git::PUSH_REF, &opts.branch);
        opts.pacer.mark();
        pushed_result?;
        head = Some(commit);
        pushed = true;
    }

    let body = fit_body(body);
    let title = opts.title.as_str();
    let open = runtime.block_on(gh.find_open_pr(&opts.branch))?;
    let (operation, pr) = match open {
        Some(pr) => runtime.block_on(refresh(&gh, pr, title, &body, &opts.labels, pushed))?,
        None => {
            let created =
                runtime.block_on(gh.create_pr(title, &opts.branch, t.base, &body, opts.draft))?;
            match created {
                Created::New(pr) => {
                    if !opts.labels.is_empty() {
                        runtime.block_on(gh.add_labels(pr.number, &opts.labels))?;
                    }
                    (Operation::Created, pr)
                }
                Created::AlreadyExists => {
                    let Some(pr) = runtime.block_on(gh.find_open_pr(&opts.branch))? else {
                        return Err(PublishError::new(
                            ErrorKind::GitHub,
                            format!(
                                "GitHub says a pull request from {} already exists but lists \
                                 no open one",
                                opts.branch
                            ),
                            "GitHub may still be indexing it: re-run in a minute",
                        ));
                    };
                    let (_, pr) =
                        runtime.block_on(refresh(&gh, pr, title, &body, &opts.labels, true))?;
                    (Operation::Updated, pr)
                }
            }
        }
    };
    Ok(outcome(operation, Some(&pr), head, pushed))
}

/// A current-thread runtime for the GitHub calls of the calling thread.
pub fn runtime() -> Result<tokio::runtime::Runtime, PublishError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            PublishError::new(
                ErrorKind::Usage,
                format!("cannot start the HTTP runtime: {e}"),
                "check the process limits (threads, file descriptors)",
            )
        })
}

/// The HTTP runtime (current-thread) and the GitHub client of one repository.
fn client(
    opts: &PublishOptions,
    owner: &str,
    name: &str,
) -> Result<(tokio::runtime::Runtime, GitHub), PublishError> {
    let runtime = runtime()?;
    let gh = {
        let _guard = runtime.enter();
        GitHub::new(
            &opts.api_url,
            &opts.token,
            owner,
            name,
            opts.retry.clone(),
            &opts.token_env,
            opts.pacer.clone(),
        )?
    };
    Ok((runtime, gh))
}

/// Nothing to commit: the open pull request is left as it is, or closed with
/// `--close-stale`.
fn unchanged(
    runtime: &tokio::runtime::Runtime,
    gh: &GitHub,
    opts: &PublishOptions,
    base: &str,
    branch_tip: Option<git2::Oid>,
) -> Result<PublishOutcome, PublishError> {
    let open = runtime.block_on(gh.find_open_pr(&opts.branch))?;
    let (operation, pr) = match open {
        Some(pr) if opts.close_stale => {
            runtime.block_on(gh.close_pr(pr.number))?;
            (Operation::Closed, Some(pr))
        }
        Some(pr) => (Operation::None, Some(pr)),
        None => (Operation::None, None),
    };
    Ok(PublishOutcome {
        operation,
        number: pr.as_ref().map(|p| p.number),
        url: pr.map(|p| p.url),
        branch: opts.branch.clone(),
        base: base.to_string(),
        head_sha: branch_tip.map(|h| h.to_string()),
        pushed: false,
    })
}

/// Brings an open PR's title, body and labels up to date. `Updated` when the branch was
/// pushed or anything had to change, else `None`.
async fn refresh(
    gh: &GitHub,
    pr: PullRequest,
    title: &str,
    body: &str,
    labels: &[String],
    pushed: bool,
) -> Result<(Operation, PullRequest), PublishError> {
    let same_text = pr.title == title && normalise_newlines(&pr.body) == normalise_newlines(body);
    let mut changed = pushed;
    let mut current = pr;
    if !same_text {
        let labels_before = current.labels.clone();
        current = gh.update_pr(current.number, title, body).await?;
        if current.labels.is_empty() {
            current.labels = labels_before;
        }
        changed = true;
    }
    let missing: Vec<String> = labels
        .iter()
        .filter(|l| !current.labels.contains(l))
        .cloned()
        .collect();
    if !missing.is_empty() {
        gh.add_labels(current.number, &missing).await?;
        changed = true;
    }
    let op = if changed {
        Operation::Updated
    } else {
        Operation::None
    };
    Ok((op, current))
}

fn normalise_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").trim_end().to_string()
}

/// The checks on the local clone that need no scan and no network: `path` is inside a git
/// work tree, the remote exists and names a GitHub repository (or `--repository` does).
pub fn check_repository(path: &Path, opts: &PublishOptions) -> Result<(), PublishError> {
    let (repo, _) = git::open(path)?;
    let url = git::transport_url(&git::remote_url(&repo, &opts.remote)?);
    resolve_repository(opts, &url).map(|_| ())
}

/// Shortest token accepted: GitHub's tokens are 40 characters or more. A shorter string
/// cannot be masked in output without garbling ordinary words that contain it.
pub const MIN_TOKEN_CHARS: usize = 16;

/// The checks that need no scan and no network (the command layer runs them before scanning).
pub fn check_options(opts: &PublishOptions) -> Result<(), PublishError> {
    let full = format!("refs/heads/{}", opts.branch);
    if opts.branch.is_empty() || !git2::Reference::is_valid_name(&full) {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!("--branch {:?} is not a valid branch name", opts.branch),
            "use letters, digits, '-', '_', '.' and '/' (e.g. gateway-migrate/istio)",
        ));
    }
    if opts.title.trim().is_empty() {
        return Err(PublishError::new(
            ErrorKind::Usage,
            "--title is empty",
            "pass a title for the pull request",
        ));
    }
    if opts.token.is_empty() {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!("no token: {} is empty or not set", opts.token_env),
            format!(
                "export {} (in Actions: `env: {}: ${{{{ secrets.GITHUB_TOKEN }}}}`), or name \
                 another variable with --token-env",
                opts.token_env, opts.token_env
            ),
        ));
    }
    check_token(&opts.token, &opts.token_env)
}

/// A token must be one plain word of at least [`MIN_TOKEN_CHARS`] characters: a control
/// character or space inside it (a pasted CR/LF) would be refused by the HTTP client deep
/// inside a request; it is refused here, cleanly, without showing it.
pub fn check_token(token: &Secret, token_env: &str) -> Result<(), PublishError> {
    if token
        .expose()
        .chars()
        .any(|c| c.is_control() || c.is_whitespace())
    {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!("the token in {token_env} contains a control character or white space"),
            format!(
                "GitHub tokens are one word of letters, digits and '_'; check {token_env} for a pasted line break"
            ),
        ));
    }
    let chars = token.expose().chars().count();
    if chars < MIN_TOKEN_CHARS {
        return Err(PublishError::new(
            ErrorKind::Usage,
            format!(
                "the token in {token_env} is {chars} characters long, too short to be a GitHub token"
            ),
            format!(
                "GitHub tokens have 40 characters or more; a string under {MIN_TOKEN_CHARS} could not be masked in output without garbling it. Check {token_env}"
            ),
        ));
    }
    Ok(())
}

fn resolve_repository(opts: &PublishOptions, url: &str) -> Result<(String, String), PublishError> {
    match opts.repository.as_deref().filter(|r| !r.trim().is_empty()) {
        Some(r) => match r.trim().split_once('/') {
            Some((o, n)) if !o.is_empty() && !n.is_empty() && !n.contains('/') => {
                Ok((o.to_string(), n.to_string()))
            }
            _ => Err(PublishError::new(
                ErrorKind::Usage,
                format!("repository {r:?} is not of the form owner/repo"),
                "set GITHUB_REPOSITORY or --repository to owner/repo",
            )),
        },
        None => git::repository_from_url(url).ok_or_else(|| {
            PublishError::new(
                ErrorKind::Usage,
                format!("cannot tell the GitHub repository from the remote URL {url}"),
                "set GITHUB_REPOSITORY or --repository to owner/repo",
            )
        }),
    }
}

/// The plan was computed from the work tree; committing it onto a different base tree could
/// revert whatever differs. So HEAD's tree must be the base head's tree.
fn check_checkout_matches_base(
    repo: &git2::Repository,
    clone_head: Option<(git2::Oid, git2::Oid)>,
    base_tree: &git2::Tree<'_>,
    base: &str,
    base_head: git2::Oid,
) -> Result<(), PublishError> {
    let stale = |detail: String| {
        PublishError::new(
            ErrorKind::StaleCheckout,
            format!(
                "the checkout is not the head of {base} on the remote ({}): {detail}; the \
                 migration was planned from this checkout and would not fit {base}",
                short(base_head)
            ),
            format!(
                "check out the remote's {base} (`git fetch origin {base} && git checkout \
                 FETCH_HEAD`) and re-run, or pass --base with the branch this checkout is on"
            ),
        )
    };
    let Some((head, head_tree)) = clone_head else {
        return Err(stale("HEAD points at no commit".into()));
    };
    if head_tree == base_tree.id() {
        return Ok(());
    }
    // Name the differing files when the scratch repository can see HEAD's tree.
    let paths: Vec<String> = repo
        .find_tree(head_tree)
        .ok()
        .and_then(|t| repo.diff_tree_to_tree(Some(&t), Some(base_tree), None).ok())
        .map(|diff| {
            diff.deltas()
                .filter_map(|d| d.new_file().path().or_else(|| d.old_file().path()))
                .map(|p| p.to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let detail = if paths.is_empty() {
        format!("HEAD {} has a different tree", short(head))
    } else {
        format!(
            "HEAD {} differs in {}",
            short(head),
            crate::diagnostic::list_some(&paths, 5)
        )
    };
    Err(stale(detail))
}

fn foreign_commits_error(branch: &str, foreign: &[git::ForeignCommit]) -> PublishError {
    let listed: Vec<String> = foreign
        .iter()
        .map(|c| {
            format!(
                "{} {:?} by {}",
                &c.id[..c.id.len().min(10)],
                c.summary,
                c.author
            )
        })
        .collect();
    PublishError::new(
        ErrorKind::ForeignCommits,
        format!(
            "branch {branch} on the remote has commits gateway-migrate did not make: {}; \
             force-pushing would lose them",
            crate::diagnostic::list_some(&listed, 5)
        ),
        format!(
            "gateway-migrate only replaces a branch whose commits all carry the trailer \
             `{}: {}`. Merge or close the pull request and delete {branch}, move the commits \
             elsewhere, or pass --branch to publish on another branch",
            git::TRAILER_KEY,
            git::TRAILER_VALUE
        ),
    )
}

/// The body, truncated to GitHub's limit with a note when it is longer.
pub fn fit_body(body: &str) -> String {
    let total = body.chars().count();
    if total <= MAX_BODY_CHARS {
        return body.to_string();
    }
    let keep: String = body.chars().take(MAX_BODY_CHARS).collect();
    format!(
        "{keep}\n\n… report truncated ({} more characters): GitHub limits pull request bodies \
         to 65,536 characters; run `gateway-migrate plan` for the full report.\n",
        total - MAX_BODY_CHARS
    )
}

fn git_fail(what: &'static str) -> impl Fn(git2::Error) -> PublishError {
    move |e| git::git_error(what, &e)
}

fn short(id: git2::Oid) -> String {
    id.to_string().chars().take(10).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_caps() {
        let p = RetryPolicy {
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(350),
            ..RetryPolicy::default()
        };
        assert_eq!(p.backoff(1), Duration::from_millis(100));
        assert_eq!(p.backoff(2), Duration::from_millis(200));
        assert_eq!(p.backoff(3), Duration::from_millis(350));
        assert_eq!(p.backoff(60), Duration::from_millis(350));
    }

    #[test]
    fn long_bodies_are_cut_to_githubs_limit() {
        let body = "é".repeat(70_000);
        let fitted = fit_body(&body);
        assert!(fitted.chars().count() <= 65_536);
        assert!(fitted.contains("5000 more characters"));
        assert_eq!(fit_body("short"), "short");
    }

    #[test]
    fn invalid_branch_names_and_missing_tokens_are_usage_errors() {
        let mut o = PublishOptions::new("bad..name", Secret::new("ghs_0123456789abcdef0123"));
        assert_eq!(check_options(&o).unwrap_err().kind, ErrorKind::Usage);
        o.branch = "gateway-migrate/ab12".into();
        assert!(check_options(&o).is_ok());
        o.token = Secret::new("");
        let e = check_options(&o).unwrap_err();
        assert!(e.what.contains("GITHUB_TOKEN"), "{e}");
        // A short token would garble ordinary words when masked ("re" in "repository").
        o.token = Secret::new("re");
        let e = check_options(&o).unwrap_err();
        assert!(e.what.contains("2 characters"), "{e}");
        assert!(!e.to_string().contains("\"re\""), "{e}");
    }

    #[test]
    fn errors_are_redacted() {
        let token = Secret::new("ghp_secret_value");
        let e = PublishError::new(
            ErrorKind::Network,
            "failed https://x:ghp_secret_value@h/o/r",
            "token ghp_secret_value",
        )
        .redacted(&Redactor::new([&token]));
        assert!(!e.to_string().contains("ghp_secret_value"));
        assert_eq!(e.todo, "token ***");
    }
}
