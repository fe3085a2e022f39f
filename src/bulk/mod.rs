//! `bulk run`: the `pr` pipeline over many repositories (`docs/bulk.md`).
//!
//! Each repository is cloned shallowly into a temporary directory, translated by the same
//! pipeline entry as `pr` (given by the command layer as [`Translate`]) and published with
//! [`crate::publish::publish`]. Cloning and translation run on `concurrency` worker threads;
//! everything that writes to GitHub (push, pull request) runs on the calling thread, one
//! repository at a time, through one shared [`Pacer`], so writes stay serial and spaced
//! across repositories. A repository that fails becomes a `failed` row and the others go
//! on; a row is appended to the results file as each repository finishes, so a killed run
//! loses nothing and `--resume` continues it.

pub mod clone;
pub mod repos;
pub mod results;
pub mod shard;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::plan::EditPlan;
use crate::publish::PullRequestSettings;
use crate::publish::github::{GitHub, RepositoryInfo};
use crate::publish::{
    self, ErrorKind, Operation, Pacer, PublishError, PublishOptions, Redactor, RetryPolicy, Secret,
};

use repos::RepoName;
use results::{ResultsError, ResultsWriter, Row, RowOperation};
use shard::Shard;

/// What the pipeline made of one clone: the plan, the pull request body and the counts the
/// results file records.
#[derive(Debug, Clone, Default)]
pub struct Translated {
    pub plan: EditPlan,
    /// The Markdown report, the pull request's body.
    pub body: String,
    /// The fingerprint of the configuration used (names the default branch).
    pub config_fingerprint: String,
    pub objects: usize,
    pub errors: usize,
    pub warnings: usize,
    pub builds_verified: usize,
    /// The text report, printed by `--dry-run`.
    pub report_text: String,
}

/// Runs the pipeline on a clone's root. Called from worker threads.
pub type Translate<'a> = dyn Fn(&Path) -> Result<Translated, String> + Sync + 'a;

/// Everything `bulk run` needs besides the repositories and the translation.
#[derive(Debug, Clone)]
pub struct BulkOptions {
    pub token: Secret,
    pub token_env: String,
    /// REST API root.
    pub api_url: String,
    /// Where repositories are cloned from and pushed to: `{server_url}/{owner}/{repo}.git`.
    pub server_url: String,
    /// Repositories cloned and translated at once.
    pub concurrency: usize,
    /// The JSON-lines results file; `None`: none is written (a dry run's default).
    pub results: Option<PathBuf>,
    /// Skip the repositories the results file already has a row for.
    pub resume: bool,
    /// With `resume`: run the repositories whose row says `failed` again.
    pub retry_failed: bool,
    /// Translate and show, push nothing.
    pub dry_run: bool,
    pub shard: Option<Shard>,
    /// Every repository's pull request (the default branch is per repository).
    pub pull_request: PullRequestSettings,
    pub retry: RetryPolicy,
}

impl BulkOptions {
    pub fn new(token: Secret, results: Option<PathBuf>) -> BulkOptions {
        BulkOptions {
            token,
            token_env: "GITHUB_TOKEN".into(),
            api_url: publish::DEFAULT_API_URL.into(),
            server_url: DEFAULT_SERVER_URL.into(),
            concurrency: 4,
            results,
            resume: false,
            retry_failed: false,
            dry_run: false,
            shard: None,
            pull_request: PullRequestSettings::default(),
            retry: RetryPolicy::default(),
        }
    }
}

/// Public GitHub.
pub const DEFAULT_SERVER_URL: &str = "https://github.com";

/// What the run tells its caller as it goes.
pub enum Event<'a> {
    /// The repositories this run covers, after the shard and `--resume`.
    Planned {
        selected: usize,
        other_shards: usize,
        already_done: usize,
    },
    /// Something the user should know that changes nothing (a cut-off results line, the
    /// leftovers of a killed run removed).
    Warning(String),
    /// `--dry-run`: what would be pushed.
    DryRun {
        repo: &'a RepoName,
        diff: String,
        report: &'a str,
    },
    Finished {
        done: usize,
        total: usize,
        row: &'a Row,
    },
}

/// A failure of the whole run (a single repository's failure is a row, not this).
#[derive(Debug, thiserror::Error)]
pub enum BulkError {
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The results of a finished repository could not be recorded.
    #[error("{source}; the row that could not be written: {row}")]
    RowLost { row: String, source: ResultsError },
    #[error("{0}")]
    Usage(String),
    #[error("{}\nhint: {}", .0.what, .0.todo)]
    GitHub(PublishError),
    /// Something every repository would run into (the token is rejected, the rate limit is
    /// spent for longer than the run may wait): the run stops; the repositories not done have
    /// no row, so `--resume` runs them later.
    #[error("stopped at {repo}: {}\nhint: {} (then re-run with --resume)", .error.what, .error.todo)]
    Stopped { repo: String, error: PublishError },
}

/// Errors no other repository would escape.
fn stops_the_run(e: &PublishError) -> bool {
    matches!(e.kind, ErrorKind::TokenRejected | ErrorKind::RateLimited)
}

/// Runs every repository of `repos` in the shard and not yet finished; returns this run's
/// rows (also appended to the results file, when there is one).
pub fn run(
    repos: &[RepoName],
    opts: &BulkOptions,
    translate: &Translate<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Row>, BulkError> {
    check_options(opts)?;
    let removed = clone::remove_stale(&std::env::temp_dir());
    if removed > 0 {
        on_event(Event::Warning(format!(
            "removed {removed} temporary clone(s) left by killed runs"
        )));
    }
    let in_shard: Vec<&RepoName> = repos
        .iter()
        .filter(|r| opts.shard.is_none_or(|s| s.contains(r)))
        .collect();
    let done = match &opts.results {
        Some(path) if opts.resume && path.exists() => finished(path, opts.retry_failed, on_event)?,
        _ => BTreeSet::new(),
    };
    let todo: Vec<&RepoName> = in_shard
        .iter()
        .copied()
        .filter(|r| !done.contains(&r.key()))
        .collect();
    on_event(Event::Planned {
        selected: todo.len(),
        other_shards: repos.len() - in_shard.len(),
        already_done: in_shard.len() - todo.len(),
    });
    let mut writer = match &opts.results {
        Some(path) => Some(ResultsWriter::open(path, opts.resume)?),
        None => None,
    };
    let redactor = Redactor::new([&opts.token]);
    let pacer = Pacer::new();
    let workers = opts.concurrency.clamp(1, 64).min(todo.len().max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut rows = Vec::new();
    let mut fatal: Option<BulkError> = None;
    std::thread::scope(|scope| {
        // A rendezvous channel: a worker hands its clone over only when the publisher takes
        // it, so at most `workers + 1` clones are on disk.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Prepared>(0);
        for _ in 0..workers {
            let tx = tx.clone();
            let (todo, next, stop) = (&todo, &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(repo) = todo.get(i) else { break };
                    let started = Instant::now();
                    let state = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        prepare(repo, opts, translate)
                    }))
                    .unwrap_or_else(|_| State::Done(panicked(repo)));
                    let prepared = Prepared {
                        repo: (*repo).clone(),
                        prepared_in: started.elapsed(),
                        state,
                    };
                    if tx.send(prepared).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for prepared in rx {
            if fatal.is_some() {
                // Drain what the workers still send; their clones are removed on drop.
                continue;
            }
            let repo = prepared.repo.clone();
            let finished = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                finish(prepared, opts, &pacer, on_event)
            }))
            .unwrap_or_else(|_| Finished::Row(*panicked(&repo)));
            let mut row = match finished {
                Finished::Row(row) => row,
                Finished::Stop(error) => {
                    stop.store(true, Ordering::SeqCst);
                    fatal = Some(BulkError::Stopped {
                        repo: repo.to_string(),
                        error: error.redacted(&redactor),
                    });
                    continue;
                }
            };
            row.error = row.error.map(|e| redactor.redact(&e));
            row.pr_url = row.pr_url.map(|u| redactor.redact(&u));
            if let Some(w) = writer.as_mut()
                && let Err(source) = w.append(&row)
            {
                stop.store(true, Ordering::SeqCst);
                fatal = Some(BulkError::RowLost {
                    row: serde_json::to_string(&row).unwrap_or_default(),
                    source,
                });
                continue;
            }
            on_event(Event::Finished {
                done: rows.len() + 1,
                total: todo.len(),
                row: &row,
            });
            rows.push(row);
        }
    });
    match fatal {
        Some(e) => Err(e),
        None => Ok(rows),
    }
}

/// The checks that need no network: the token, the branch and the title, as `pr` checks
/// them (a bad `--branch` must fail the run, not every repository).
fn check_options(opts: &BulkOptions) -> Result<(), BulkError> {
    let mut probe = opts.pull_request.options(opts.token.clone(), "00000000");
    probe.token_env = opts.token_env.clone();
    publish::check_options(&probe)
        .map_err(|e| BulkError::Usage(format!("{}\nhint: {}", e.what, e.todo)))
}

/// The repositories the results file has a row for, not counting dry runs (nor failures,
/// with `retry_failed`).
fn finished(
    path: &Path,
    retry_failed: bool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<BTreeSet<String>, BulkError> {
    let file = results::read(path)?;
    for (line, why) in &file.bad_lines {
        on_event(Event::Warning(format!(
            "{}:{line}: not a results row, ignored ({why})",
            path.display()
        )));
    }
    Ok(results::merge(file.rows)
        .into_iter()
        .filter(|r| !r.dry_run)
        .filter(|r| !(retry_failed && r.operation == RowOperation::Failed))
        .map(|r| r.repo.to_ascii_lowercase())
        .collect())
}

/// A repository after the worker.
struct Prepared {
    repo: RepoName,
    /// Time spent on metadata, clone and translation (not waiting for the publisher).
    prepared_in: Duration,
    state: State,
}

enum State {
    /// Cloned and translated: the publisher's turn.
    Ready(Box<Ready>),
    /// Already a row (skipped or failed).
    Done(Box<Row>),
    /// An error every repository would meet.
    Stop(PublishError),
}

enum Finished {
    Row(Row),
    Stop(PublishError),
}

struct Ready {
    clone: clone::Clone,
    translated: Translated,
}

fn failed(repo: &RepoName, error: String) -> Box<Row> {
    Box::new(Row::without_translation(
        &repo.to_string(),
        RowOperation::Failed,
        error,
    ))
}

fn panicked(repo: &RepoName) -> Box<Row> {
    failed(
        repo,
        "internal error: gateway-migrate panicked on this repository; please report it with \
         the repository's manifests"
            .into(),
    )
}

/// Worker side: metadata, clone, translation, and the history when there is something to
/// publish. Nothing here writes to GitHub.
fn prepare(repo: &RepoName, opts: &BulkOptions, translate: &Translate<'_>) -> State {
    let info = match repository_info(repo, opts) {
        Ok(info) => info,
        Err(e) if stops_the_run(&e) => return State::Stop(e),
        Err(e) if e.what.contains("(404") => {
            return State::Done(failed(
                repo,
                format!(
                    "GitHub does not know {repo}, or the token in {} cannot see it (404) (hint: check the name in the list and the token's repository access)",
                    opts.token_env
                ),
            ));
        }
        Err(e) => return State::Done(failed(repo, describe(&e))),
    };
    if info.archived {
        return State::Done(Box::new(Row::without_translation(
            &repo.to_string(),
            RowOperation::Skipped,
            "archived: the repository is read-only".into(),
        )));
    }
    if info.can_push == Some(false) && !opts.dry_run {
        return State::Done(failed(
            repo,
            format!(
                "no permission: the token in {} may not push to {repo}",
                opts.token_env
            ),
        ));
    }
    let url = clone_url(&opts.server_url, repo);
    let transport = publish::git::Transport {
        url: &url,
        token: &opts.token,
        token_env: &opts.token_env,
        policy: &opts.retry,
    };
    let clone = match clone::shallow(&transport, info.default_branch.as_deref()) {
        Ok(c) => c,
        Err(e) => return State::Done(failed(repo, e.to_string())),
    };
    let translated = match translate(clone.root()) {
        Ok(t) => t,
        Err(e) => return State::Done(failed(repo, e)),
    };
    if !opts.dry_run
        && !translated.plan.edits.is_empty()
        && let Err(e) = clone::unshallow(&transport, &clone)
    {
        return State::Done(failed(repo, e.to_string()));
    }
    State::Ready(Box::new(Ready { clone, translated }))
}

/// `{server}/{owner}/{repo}.git`.
pub fn clone_url(server_url: &str, repo: &RepoName) -> String {
    format!(
        "{}/{}/{}.git",
        server_url.trim_end_matches('/'),
        repo.owner,
        repo.name
    )
}

fn describe(e: &PublishError) -> String {
    format!("{} (hint: {})", e.what, e.todo)
}

/// `GET /repos/{o}/{r}` on a runtime of this thread.
fn repository_info(repo: &RepoName, opts: &BulkOptions) -> Result<RepositoryInfo, PublishError> {
    let runtime = publish::runtime()?;
    let gh = {
        let _guard = runtime.enter();
        GitHub::new(
            &opts.api_url,
            &opts.token,
            &repo.owner,
            &repo.name,
            opts.retry.clone(),
            &opts.token_env,
            Pacer::new(),
        )?
    };
    runtime.block_on(gh.repository())
}

/// The repositories of `org` carrying `topic` (GitHub stores topics in lower case), sorted.
pub fn organisation_repositories(
    org: &str,
    topic: &str,
    token: &Secret,
    token_env: &str,
    api_url: &str,
    retry: &RetryPolicy,
) -> Result<Vec<RepoName>, BulkError> {
    let runtime = publish::runtime().map_err(BulkError::GitHub)?;
    let gh = {
        let _guard = runtime.enter();
        GitHub::new(
            api_url,
            token,
            org,
            "",
            retry.clone(),
            token_env,
            Pacer::new(),
        )
        .map_err(BulkError::GitHub)?
    };
    let listed = runtime
        .block_on(gh.organisation_repositories())
        .map_err(|e| {
            let e = if e.what.contains("(404") {
                PublishError::new(
                    e.kind,
                    format!("GitHub knows no organisation {org:?} at {api_url} (404)"),
                    "check --org (a user's repositories are not listed: name them with \
                     --repos), GITHUB_API_URL, and that the token can see the organisation",
                )
            } else {
                e
            };
            BulkError::GitHub(e.redacted(&Redactor::new([token])))
        })?;
    let topic = topic.trim().to_ascii_lowercase();
    let mut names: Vec<RepoName> = listed
        .iter()
        .filter(|r| r.topics.iter().any(|t| t.to_ascii_lowercase() == topic))
        .filter_map(|r| RepoName::parse(&r.full_name).ok())
        .collect();
    names.sort();
    Ok(names)
}

/// Publisher side (the calling thread): push and pull request, or the dry-run output.
fn finish(
    prepared: Prepared,
    opts: &BulkOptions,
    pacer: &Pacer,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Finished {
    let Prepared {
        repo,
        prepared_in,
        state,
    } = prepared;
    let started = Instant::now();
    let mut row = match state {
        State::Stop(e) => return Finished::Stop(e),
        State::Done(row) => *row,
        State::Ready(ready) => {
            let t = &ready.translated;
            let mut row = Row {
                repo: repo.to_string(),
                operation: RowOperation::None,
                pr_url: None,
                objects: t.objects,
                errors: t.errors,
                warnings: t.warnings,
                builds_verified: t.builds_verified,
                files: t.plan.edits.len(),
                duration_s: 0.0,
                error: None,
                dry_run: false,
            };
            if opts.dry_run {
                on_event(Event::DryRun {
                    repo: &repo,
                    diff: t.plan.diff(),
                    report: &t.report_text,
                });
                row.operation = RowOperation::Skipped;
                row.dry_run = true;
                row.error = Some("dry run: nothing was pushed".into());
            } else {
                let popts = publish_options(&repo, &ready, opts, pacer);
                match publish::publish(ready.clone.root(), &t.plan, &t.body, &popts) {
                    Ok(outcome) => {
                        row.operation = match outcome.operation {
                            Operation::Created => RowOperation::Created,
                            Operation::Updated => RowOperation::Updated,
                            Operation::Closed => RowOperation::Closed,
                            Operation::None => RowOperation::None,
                        };
                        row.pr_url = outcome.url;
                    }
                    Err(e) if stops_the_run(&e) => return Finished::Stop(e),
                    Err(e) => {
                        row.operation = RowOperation::Failed;
                        row.error = Some(describe(&e));
                    }
                }
            }
            row
        }
    };
    let spent = prepared_in + started.elapsed();
    row.duration_s = (spent.as_secs_f64() * 100.0).round() / 100.0;
    Finished::Row(row)
}

fn publish_options(
    repo: &RepoName,
    ready: &Ready,
    opts: &BulkOptions,
    pacer: &Pacer,
) -> PublishOptions {
    let mut p = opts
        .pull_request
        .options(opts.token.clone(), &ready.translated.config_fingerprint);
    p.token_env = opts.token_env.clone();
    p.repository = Some(repo.to_string());
    p.api_url = opts.api_url.clone();
    p.base = Some(ready.clone.branch.clone());
    p.retry = opts.retry.clone();
    p.pacer = pacer.clone();
    p
}
