//! Command line: argument parsing, configuration, exit codes. The edge where `anyhow` lives.
//!
//! Exit codes: 0 clean, 1 changes needed or findings, 2 usage or fatal error.
//! stdout carries data only (reports, YAML); messages go to stderr.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bulk;
use crate::config::{Channel, Config, IngressMode, Target};
use crate::diagnostic::{CodePattern, Severity};
use crate::pipeline::{self, Input, Outcome};
use crate::plan::{self, Layout};
use crate::publish;
use crate::report::{self, Report};

#[derive(Debug, Parser)]
#[command(
    name = "gateway-migrate",
    version,
    about = "Rewrite a GitOps repository from Istio Gateway/VirtualService and Kubernetes Ingress to the Gateway API",
    long_about = "Scans a manifests repository, translates every Istio Gateway, VirtualService, \
DestinationRule and Kubernetes Ingress to Gateway API objects, validates them offline and writes \
them next to their sources.\n\nExit codes: 0 clean, 1 changes needed or findings, 2 usage or fatal error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Scan, translate and validate; print what apply would do. Writes nothing.
    Plan(PlanArgs),
    /// Like plan, then write the generated files into the repository.
    Apply(ApplyArgs),
    /// For CI and pre-commit: exit 1 when translation is needed, generated files are stale, or
    /// Gateway API objects in the repository are invalid.
    Check(CheckArgs),
    /// Translate one stream (files or stdin) and print Gateway API YAML to stdout.
    Convert(ConvertArgs),
    /// Follow one request through the old objects and the generated ones: the listener or
    /// server, the rule that matched (file:line), what happens, and the differences.
    Trace(TraceArgs),
    /// Apply on a branch, commit, push, and open or update the pull request (body: the report).
    Pr(Box<PrArgs>),
    /// Migrate many repositories: one pull request each (run), a GitHub Actions matrix
    /// (plan), merged results (report). See docs/bulk.md.
    #[command(subcommand)]
    Bulk(BulkCommand),
    /// List every diagnostic code with its severity and summary (the registry).
    Codes(CodesArgs),
    /// Explain one diagnostic code: what it means and what to do.
    Explain(ExplainArgs),
    /// Print a shell completion script (e.g. `gateway-migrate completions bash >
    /// /etc/bash_completion.d/gateway-migrate`).
    Completions(CompletionsArgs),
    /// Print the man page (roff) on stdout (e.g. `gateway-migrate man | man -l -`).
    Man,
}

#[derive(Debug, Subcommand)]
pub enum BulkCommand {
    /// For each repository: shallow clone, the `pr` pipeline, a results row. Exit 1 when a
    /// repository failed, 2 when the run could not start or its results could not be written.
    Run(Box<BulkRunArgs>),
    /// Print the GitHub Actions matrix for --shards N (JSON: {"include": [{"shard": "i/N",
    /// "repositories": k}, ...]}).
    Plan(BulkPlanArgs),
    /// Merge results files (of shards, or of resumed runs) into one table. Exit 1 when a
    /// repository failed.
    Report(BulkReportArgs),
}

/// Which repositories: names, a list file, or an organisation's repositories with a topic.
#[derive(Debug, Args)]
#[command(next_help_heading = "Repositories")]
pub struct RepoSelectionArgs {
    /// Repositories as owner/repo.
    #[arg(value_name = "OWNER/REPO")]
    pub names: Vec<String>,
    /// File of owner/repo lines (`#` starts a comment; blank lines are ignored); `-` reads
    /// stdin.
    #[arg(long, value_name = "FILE")]
    pub repos: Option<PathBuf>,
    /// Every repository of this organisation that carries --topic (through the API).
    #[arg(long, value_name = "ORG", requires = "topic")]
    pub org: Option<String>,
    /// The topic that selects an organisation's repositories.
    #[arg(long, value_name = "TOPIC", requires = "org")]
    pub topic: Option<String>,
    /// Environment variable that holds the GitHub token.
    #[arg(long, value_name = "NAME", default_value = "GITHUB_TOKEN")]
    pub token_env: String,
    /// GitHub REST API root; GitHub Enterprise: https://HOST/api/v3.
    #[arg(long, value_name = "URL", env = "GITHUB_API_URL", default_value = publish::DEFAULT_API_URL)]
    pub api_url: String,
}

/// `gateway-migrate bulk run`.
#[derive(Debug, Args)]
pub struct BulkRunArgs {
    #[command(flatten)]
    pub select: RepoSelectionArgs,
    /// Run only shard i of N (as `bulk plan` prints them; stable by repository name).
    #[arg(long, value_name = "i/N")]
    pub shard: Option<String>,
    /// Repositories cloned and translated at once (GitHub writes stay one at a time).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub concurrency: usize,
    /// The results file: one JSON line per repository, written as each one finishes
    /// [default: gateway-migrate-results.jsonl; with --dry-run, none unless given].
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Skip the repositories the results file already has a row for; append the others.
    #[arg(long)]
    pub resume: bool,
    /// With --resume: run the repositories whose row says `failed` again.
    #[arg(long, requires = "resume")]
    pub retry_failed: bool,
    /// Translate each repository and print its diff and report; push nothing, open nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Also write the summary table as Markdown to FILE (it also goes to
    /// $GITHUB_STEP_SUMMARY inside GitHub Actions).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Git host the repositories are cloned from and pushed to: SERVER/OWNER/REPO.git.
    #[arg(long, value_name = "URL", env = "GITHUB_SERVER_URL", default_value = bulk::DEFAULT_SERVER_URL)]
    pub server_url: String,
    #[command(flatten)]
    pub pull_request: PullRequestArgs,
    /// Replace translated documents inside their source files (as `apply --in-place`).
    #[arg(long)]
    pub in_place: bool,
    #[command(flatten)]
    pub repo: RepositoryArgs,
    /// The shared configuration (a repository's own .gateway-migrate.yaml wins over it).
    #[command(flatten)]
    pub translate: TranslateArgs,
}

/// `gateway-migrate bulk plan`.
#[derive(Debug, Args)]
pub struct BulkPlanArgs {
    #[command(flatten)]
    pub select: RepoSelectionArgs,
    /// Matrix jobs (at most 256; capped at the number of repositories).
    #[arg(long, value_name = "N")]
    pub shards: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BulkReportFormat {
    /// A table for the terminal.
    Text,
    /// A Markdown table (a job summary).
    Markdown,
    /// The merged rows as JSON lines, sorted by repository.
    Json,
}

/// `gateway-migrate bulk report`.
#[derive(Debug, Args)]
pub struct BulkReportArgs {
    /// Results files to merge (the last row of a repository wins).
    #[arg(long = "merge", value_name = "FILE", num_args = 1.., required = true)]
    pub merge: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = BulkReportFormat::Text)]
    pub format: BulkReportFormat,
    /// Also write the Markdown table to FILE (it also goes to $GITHUB_STEP_SUMMARY inside
    /// GitHub Actions).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CodesFormat {
    /// One line per code.
    Text,
    /// An array of {code, severity, strict_error, summary, explanation}.
    Json,
    /// The text of docs/codes.md.
    Markdown,
}

#[derive(Debug, Args)]
pub struct CodesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = CodesFormat::Text)]
    pub format: CodesFormat,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The code, e.g. `istio/retries` (see `gateway-migrate codes`).
    pub code: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people: counts per code first, errors before warnings, each code capped
    /// (`--verbose`: everything).
    Text,
    /// One line per diagnostic: `path:line:col: severity[code] message`.
    Concise,
    /// The versioned JSON contract (docs/report-format.md).
    Json,
    /// A pull request body or `$GITHUB_STEP_SUMMARY` (at most 65,536 characters).
    Markdown,
    /// GitHub workflow annotations (`::warning file=...::`), ranked, at most 10 per level;
    /// also writes the Markdown report to `$GITHUB_STEP_SUMMARY` when it is set.
    Github,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
}

/// `--channel`: mirrors [`Channel`], so the configuration does not depend on clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChannelArg {
    /// Gateway API standard channel: what every conformant implementation serves.
    Standard,
    /// Experimental channel: unlocks retries and session persistence.
    Experimental,
}

/// `--ingress-mode`: mirrors [`IngressMode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IngressModeArg {
    /// Create Gateways per IngressClass, TLS from `spec.tls` (what ingress2gateway does).
    Migrate,
    /// Attach routes to Gateways already in the repository; create no Gateway.
    Mount,
}

/// `--target`: mirrors [`Target`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    /// Portable output plus Istio-only options where they keep behaviour (tls.options keys).
    Istio,
    /// Envoy Gateway: portable output, judged by Envoy Gateway's behaviour.
    EnvoyGateway,
    /// Portable output only.
    Generic,
}

/// How the report is shown, where else it goes, and what fails the run.
#[derive(Debug, Args)]
#[command(next_help_heading = "Report and exit status")]
pub struct ReportArgs {
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write the report as FORMAT to PATH (repeatable), e.g. `--output
    /// sarif=gm.sarif --output markdown=summary.md`: one scan, several reports.
    #[arg(long = "output", value_name = "FORMAT=PATH", value_parser = parse_output)]
    pub outputs: Vec<(Format, PathBuf)>,
    /// Print only the one-line summary and the errors.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print everything: info notes, every diagnostic of every code, every build and file.
    #[arg(short, long)]
    pub verbose: bool,
    /// Report only these codes or families (`istio/retries`, `istio/*`; repeatable or
    /// comma-separated). Applies to every format and to the exit status. Default: all.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub select: Vec<String>,
    /// Report only diagnostics at least this severe (every format and the exit status).
    /// Default: info (the text format hides info unless --verbose; SARIF leaves it out
    /// unless this is `info`).
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub min_severity: Option<SeverityArg>,
    /// Exit 1 when a diagnostic at least this severe is left (not suppressed).
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Exit 0 even when changes are needed or diagnostics are left (2 still means a usage or
    /// fatal error).
    #[arg(long)]
    pub exit_zero: bool,
    /// Where the full report lives when the Markdown one is truncated (named in the Markdown).
    #[arg(long, value_name = "PATH")]
    pub full_report: Option<String>,
}

/// What the translation produces: the configuration file and its overrides.
#[derive(Debug, Args)]
#[command(next_help_heading = "Translation")]
pub struct TranslateArgs {
    /// Configuration file (default: the nearest .gateway-migrate.yaml or .yml in PATH or a
    /// directory above it, up to the top of the git work tree; see docs/configuration.md).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Gateway API release channel the cluster runs [default: standard, or `channel` in the
    /// configuration].
    #[arg(long, value_enum)]
    pub channel: Option<ChannelArg>,
    /// How Ingress objects are translated: create Gateways (migrate) or attach to existing
    /// ones (mount) [default: migrate, or `ingressMode`].
    #[arg(long, value_enum)]
    pub ingress_mode: Option<IngressModeArg>,
    /// Implementation the output is tuned for [default: istio, or `target`].
    #[arg(long, value_enum)]
    pub target: Option<TargetArg>,
    /// gatewayClassName of generated Gateways [default: `gatewayClassName`, else istio, or eg
    /// with --target envoy-gateway].
    #[arg(long, value_name = "NAME")]
    pub gateway_class: Option<String>,
    /// How the ingress-nginx controller was configured, as `kubectl get cm,deploy -o yaml`
    /// prints its ConfigMap (and workload): `CLASS=FILE` for the controller of IngressClass
    /// CLASS, `FILE` for every controller no `CLASS=` names (repeatable; over what the
    /// repository says; replaces `controllers.<class>`; see docs/configuration.md).
    #[arg(long, value_name = "[CLASS=]FILE")]
    pub controller_config: Vec<String>,
    /// Treat references to objects outside the repository as errors [default: off, or
    /// `strict`].
    #[arg(long)]
    pub strict: bool,
    /// Skip the routing equivalence check (probe requests through the old and the new
    /// routing and report every difference; see docs/equivalence.md).
    #[arg(long)]
    pub no_equivalence: bool,
}

/// How the repository is scanned, rendered and written.
#[derive(Debug, Args)]
#[command(next_help_heading = "Repository")]
pub struct RepositoryArgs {
    /// Worker threads [default: one per core; at most 64].
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Only scan paths matching this glob (gitignore syntax, repeatable; added to `include`).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Skip paths matching this glob (gitignore syntax, repeatable; added to `exclude`).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Suffix of generated files: `app.yaml` → `app.<SUFFIX>.yaml` [default: gateway-api,
    /// or `outputSuffix`].
    #[arg(long, value_name = "SUFFIX")]
    pub output_suffix: Option<String>,
    /// Skip (and report) files larger than BYTES [default: 10485760, or a lower
    /// `maxFileSize`]. The only way to raise the limit: a configuration file can only lower
    /// it.
    #[arg(long, value_name = "BYTES")]
    pub max_file_size: Option<u64>,
    /// Also add mesh (GAMMA) routes to kustomization `resources:` [default: off, or
    /// `deployMeshRoutes`].
    #[arg(long)]
    pub deploy_mesh_routes: bool,
    /// kustomize to render builds with: a `kustomize` binary, or `kubectl` (runs `kubectl
    /// kustomize`) [default: `kustomize` on PATH, else `kubectl` on PATH].
    #[arg(long, value_name = "PATH")]
    pub kustomize: Option<PathBuf>,
    /// Translate files as they are: do not render kustomize builds (overlays, components,
    /// patches and replacements are then not followed).
    #[arg(long)]
    pub no_render: bool,
    /// Let kustomize fetch remote bases and resources (refused by default: the build is
    /// translated from its files and reported).
    #[arg(long)]
    pub allow_remote: bool,
    /// Render builds with remote bases offline from vendored copies: DIR holds them as
    /// `kustomize localize` lays them out (`<host>/<repo>/<ref>/<path>`, or a
    /// `localized-files/` directory holding that). The copies are checked like the
    /// repository; a remote entry DIR lacks still refuses its build.
    #[arg(long, value_name = "DIR")]
    pub remote_cache: Option<PathBuf>,
    /// Stop a kustomize render after SECONDS; a build that timed out is not rendered again
    /// in the same run [default: 120].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub render_timeout: Option<u64>,
    /// All renders of one run together stop after SECONDS; the builds left are translated
    /// from their files (`render/budget-spent`) [default: 600].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub render_budget: Option<u64>,
}

/// `--min-severity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    Error,
    Warning,
    Info,
}

impl SeverityArg {
    fn severity(self) -> Severity {
        match self {
            SeverityArg::Error => Severity::Error,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Info => Severity::Info,
        }
    }
}

/// `--fail-on`: the least severe diagnostic that makes the run exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    /// Diagnostics never fail the run (changes still do, unless --exit-zero).
    Never,
}

impl FailOn {
    fn severity(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}

/// `--output FORMAT=PATH`.
fn parse_output(text: &str) -> Result<(Format, PathBuf), String> {
    let (format, path) = text
        .split_once('=')
        .ok_or_else(|| format!("expected FORMAT=PATH (e.g. sarif=report.sarif), got {text:?}"))?;
    let format = Format::from_str(format.trim(), true).map_err(|_| {
        format!("unknown format {format:?}: text, concise, json, markdown, github or sarif")
    })?;
    if path.is_empty() {
        return Err("the PATH of --output FORMAT=PATH is empty".into());
    }
    Ok((format, PathBuf::from(path)))
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Repository root to scan.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Also print the unified diff of every planned change (on stdout after a text report,
    /// on stderr with other formats).
    #[arg(long)]
    pub diff: bool,
    /// Plan in-place replacement instead of new files (see `apply --in-place`).
    #[arg(long)]
    pub in_place: bool,
    #[command(flatten)]
    pub repo: RepositoryArgs,
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// Repository root to scan and write.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Replace translated documents inside their source files instead of writing new files
    /// next to them (other bytes of the file stay as they are).
    #[arg(long)]
    pub in_place: bool,
    #[command(flatten)]
    pub repo: RepositoryArgs,
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Repository root to check. Files (as pre-commit passes them) stand for the git
    /// repository holding them, which is checked whole: translation depends on every file.
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Write the missing or stale files too (still exits 1 when it had to).
    #[arg(long)]
    pub fix: bool,
    /// The repository uses in-place replacement (see `apply --in-place`).
    #[arg(long)]
    pub in_place: bool,
    #[command(flatten)]
    pub repo: RepositoryArgs,
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Files to read as one stream; `-` or nothing reads stdin.
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// A repository root, or files read as one stream (default: the current directory).
    pub paths: Vec<PathBuf>,
    /// The request: 'METHOD URL', e.g. 'GET https://shop.example.com/cart?x=1'.
    #[arg(long, value_name = "'METHOD URL'")]
    pub request: String,
    /// A request header, 'Name: value' (repeatable).
    #[arg(long = "header", value_name = "'NAME: VALUE'")]
    pub headers: Vec<String>,
    /// The client address: ingress-nginx's allow- and deny-lists and the new side's policies
    /// (Envoy Gateway SecurityPolicy, Istio AuthorizationPolicy) decide with it; without it
    /// they are listed as checks. The Istio side does not read its AuthorizationPolicies.
    #[arg(long, value_name = "IP")]
    pub source_ip: Option<std::net::IpAddr>,
    /// The Gateway (NAMESPACE/NAME) whose entry point to follow when several serve the
    /// request's port; on the old side, the gateway proxy or IngressClass it replaces.
    #[arg(long, value_name = "NAMESPACE/NAME")]
    pub gateway: Option<String>,
    /// Output: text for people, or JSON ({"request", "old", "new", "differences"}; see
    /// docs/equivalence.md).
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    pub format: TraceFormat,
    #[command(flatten)]
    pub translate: TranslateArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    Text,
    Json,
}

/// What the pull request looks like (`pr`; with `bulk run`, every repository's).
#[derive(Debug, Args)]
#[command(next_help_heading = "Pull request")]
pub struct PullRequestArgs {
    /// Branch to push (default: gateway-migrate/<config-hash>, per repository with bulk).
    #[arg(long, value_name = "BRANCH")]
    pub branch: Option<String>,
    /// Pull request title.
    #[arg(long, default_value = publish::DEFAULT_TITLE)]
    pub title: String,
    /// Label to add to the pull request (repeatable).
    #[arg(long = "label", value_name = "LABEL")]
    pub labels: Vec<String>,
    /// Open the pull request as a draft.
    #[arg(long)]
    pub draft: bool,
    /// Commit author as "Name <email>" (default: git's user, else github-actions[bot]).
    #[arg(long, value_name = "NAME <EMAIL>")]
    pub author: Option<String>,
    /// Commit message (a `Generated-by: gateway-migrate` trailer is appended).
    #[arg(long, value_name = "TEXT", default_value = publish::DEFAULT_COMMIT_MESSAGE)]
    pub commit_message: String,
    /// When nothing needs to change any more, close the open pull request.
    #[arg(long)]
    pub close_stale: bool,
}

impl PullRequestArgs {
    fn settings(&self) -> publish::PullRequestSettings {
        publish::PullRequestSettings {
            branch: self.branch.clone(),
            title: self.title.clone(),
            labels: self.labels.clone(),
            draft: self.draft,
            author: self.author.clone(),
            commit_message: self.commit_message.clone(),
            close_stale: self.close_stale,
        }
    }
}

/// `gateway-migrate pr [PATH]`: apply on a branch, commit, push, open or update the PR.
#[derive(Debug, Args)]
pub struct PrArgs {
    /// Repository root to scan (inside a clone of the repository to change).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Environment variable that holds the GitHub token.
    #[arg(long, value_name = "NAME", default_value = "GITHUB_TOKEN")]
    pub token_env: String,
    /// GitHub repository as owner/repo (default: $GITHUB_REPOSITORY, else parsed from the
    /// remote URL).
    #[arg(long, value_name = "OWNER/REPO", env = "GITHUB_REPOSITORY")]
    pub repository: Option<String>,
    /// GitHub REST API root; GitHub Enterprise: https://HOST/api/v3.
    #[arg(long, value_name = "URL", env = "GITHUB_API_URL", default_value = publish::DEFAULT_API_URL)]
    pub api_url: String,
    /// Git remote to fetch from and push to.
    #[arg(long, value_name = "NAME", default_value = "origin")]
    pub remote: String,
    /// Branch the pull request targets (default: the remote's default branch).
    #[arg(long, value_name = "BRANCH")]
    pub base: Option<String>,
    #[command(flatten)]
    pub pull_request: PullRequestArgs,
    /// Publish even when files outside the planned ones are modified or untracked (they are
    /// not committed).
    #[arg(long)]
    pub allow_dirty: bool,
    /// Replace translated documents inside their source files (as `apply --in-place`).
    #[arg(long)]
    pub in_place: bool,
    #[command(flatten)]
    pub repo: RepositoryArgs,
    #[command(flatten)]
    pub translate: TranslateArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

impl PrArgs {
    /// The options for `publish`, reading the token from `--token-env`.
    fn options(&self, config_fingerprint: &str) -> publish::PublishOptions {
        let mut opts = self
            .pull_request
            .settings()
            .options(read_token(&self.token_env), config_fingerprint);
        opts.token_env = self.token_env.clone();
        opts.repository = self.repository.clone().filter(|r| !r.trim().is_empty());
        opts.api_url = api_root(&self.api_url);
        opts.remote = self.remote.clone();
        opts.base = self.base.clone();
        opts.allow_dirty = self.allow_dirty;
        opts
    }
}

/// Runs the command line and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        // A closed pipe (`gateway-migrate codes | head`) is the reader's choice, not a failure.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Runs a parsed command; returns the exit code (0 or 1), or an error for exit code 2.
pub fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Plan(args) => plan(args),
        Command::Apply(args) => apply(args),
        Command::Check(args) => check(args),
        Command::Convert(args) => convert(args),
        Command::Trace(args) => trace(&args),
        Command::Pr(args) => pr(*args),
        Command::Bulk(BulkCommand::Run(args)) => bulk_run(*args),
        Command::Bulk(BulkCommand::Plan(args)) => bulk_plan(&args),
        Command::Bulk(BulkCommand::Report(args)) => bulk_report(&args),
        Command::Codes(args) => codes(&args),
        Command::Explain(args) => explain(&args),
        Command::Completions(args) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(args.shell, &mut cmd, "gateway-migrate", &mut out);
            std::io::stdout()
                .lock()
                .write_all(&out)
                .context("writing to stdout")?;
            Ok(0)
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .context("rendering the man page")?;
            std::io::stdout()
                .lock()
                .write_all(&out)
                .context("writing to stdout")?;
            Ok(0)
        }
    }
}

/// The configuration for `root` with the command line's overrides (`repo`: the repository
/// options, for commands that scan one).
fn load_config(
    root: &Path,
    translate: &TranslateArgs,
    repo: Option<&RepositoryArgs>,
) -> Result<Config> {
    load_config_file(root, translate.config.as_deref(), translate, repo)
}

/// [`load_config`] with the configuration file given (`None`: found from `root`).
fn load_config_file(
    root: &Path,
    file: Option<&Path>,
    translate: &TranslateArgs,
    repo: Option<&RepositoryArgs>,
) -> Result<Config> {
    let mut config = Config::load(root, file)?;
    if let Some(c) = translate.channel {
        config.channel = match c {
            ChannelArg::Standard => Channel::Standard,
            ChannelArg::Experimental => Channel::Experimental,
        };
    }
    if let Some(m) = translate.ingress_mode {
        config.ingress_mode = match m {
            IngressModeArg::Migrate => IngressMode::Migrate,
            IngressModeArg::Mount => IngressMode::Mount,
        };
    }
    if let Some(t) = translate.target {
        config.target = match t {
            TargetArg::Istio => Target::Istio,
            TargetArg::EnvoyGateway => Target::EnvoyGateway,
            TargetArg::Generic => Target::Generic,
        };
    }
    if let Some(g) = &translate.gateway_class {
        config.gateway_class_name = g.clone();
    }
    if translate.strict {
        config.strict = true;
    }
    for given in &translate.controller_config {
        let (class, file) = match given.split_once('=') {
            Some((class, file)) if !class.is_empty() && !class.contains('/') => (class, file),
            _ => (crate::config::ANY_INGRESS_CLASS, given.as_str()),
        };
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("--controller-config: cannot read {file}"))?;
        let read = crate::controllers::read_controller_file(&text)
            .map_err(|e| anyhow::anyhow!("--controller-config {file}: {e}"))?;
        config.controllers.insert(class.to_string(), read);
    }
    if let Some(repo) = repo {
        if let Some(suffix) = &repo.output_suffix {
            crate::config::check_output_suffix(suffix)
                .map_err(|e| anyhow::anyhow!("--output-suffix: {e}"))?;
            config.output_suffix = suffix.clone();
        }
        if let Some(limit) = repo.max_file_size {
            config.max_file_size = limit;
        }
        if repo.deploy_mesh_routes {
            config.deploy_mesh_routes = true;
        }
        config.include.extend(repo.include.iter().cloned());
        config.exclude.extend(repo.exclude.iter().cloned());
    }
    Ok(config)
}

/// Whether progress may be drawn: wanted, and not in CI (`CI` set, as every CI service does).
fn progress_wanted(report: &ReportArgs) -> bool {
    !report.quiet && std::env::var_os("CI").is_none_or(|v| v.is_empty() || v == "false")
}

/// `--select`'s patterns; an unknown code is a usage error, found before anything is scanned.
fn selection(args: &ReportArgs) -> Result<Vec<CodePattern>> {
    args.select
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
        .map(|code| CodePattern::parse(code).map_err(|e| anyhow::anyhow!("--select: {e}")))
        .collect()
}

/// Drops the diagnostics `--select` and `--min-severity` leave out, then builds the report.
fn build_report(outcome: &mut Outcome, args: &ReportArgs) -> Result<Report> {
    let select = selection(args)?;
    let min = args
        .min_severity
        .map_or(Severity::Info, SeverityArg::severity);
    outcome.diagnostics.retain(|d| {
        d.severity <= min && (select.is_empty() || select.iter().any(|p| p.matches(d.code)))
    });
    Ok(Report::build(outcome))
}

/// The report in `format`.
fn render(report: &Report, format: Format, args: &ReportArgs) -> String {
    match format {
        Format::Json => report::json::render(report),
        Format::Text => report::text::render(
            report,
            &report::text::Options {
                verbose: args.verbose,
                quiet: args.quiet,
                ..Default::default()
            },
        ),
        Format::Concise => report::text::concise(report),
        Format::Markdown => report::markdown::render(
            report,
            &report::markdown::Options {
                full_report: args.full_report.clone(),
                ..Default::default()
            },
        ),
        Format::Github => report::github::render(report),
        Format::Sarif => report::sarif::render(
            report,
            &report::sarif::Options {
                include_info: args.min_severity == Some(SeverityArg::Info),
                ..Default::default()
            },
        ),
    }
}

/// Writes every `--output FORMAT=PATH`, and the job summary when a GitHub format is asked
/// for inside a workflow (`$GITHUB_STEP_SUMMARY`).
fn write_outputs(report: &Report, args: &ReportArgs, stdout_format: Option<Format>) -> Result<()> {
    write_outputs_masked(report, args, stdout_format, None)
}

/// [`write_outputs`], every output passed through `mask` when given (`pr`: a token found in
/// the repository's content is masked in every channel, not only the pull request body).
fn write_outputs_masked(
    report: &Report,
    args: &ReportArgs,
    stdout_format: Option<Format>,
    mask: Option<&publish::Redactor>,
) -> Result<()> {
    let masked = |text: String| match mask {
        Some(r) => r.redact(&text),
        None => text,
    };
    for (format, path) in &args.outputs {
        std::fs::write(path, masked(render(report, *format, args)))
            .with_context(|| format!("writing the {format:?} report to {}", path.display()))?;
    }
    let github = stdout_format == Some(Format::Github)
        || args.outputs.iter().any(|(f, _)| *f == Format::Github);
    if github && let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty())
    {
        append_to(
            Path::new(&path),
            &masked(render(report, Format::Markdown, args)),
            "$GITHUB_STEP_SUMMARY",
        )?;
    }
    Ok(())
}

/// Appends `text` to the workflow file at `path` (`what` names it in errors), as GitHub
/// Actions expects of `$GITHUB_STEP_SUMMARY` and `$GITHUB_OUTPUT`.
fn append_to(path: &Path, text: &str, what: &str) -> Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .with_context(|| format!("writing to {what} ({})", path.display()))
}

/// Prints the report in `--format` on stdout and writes the other outputs.
fn emit(report: &Report, args: &ReportArgs) -> Result<()> {
    std::io::stdout()
        .lock()
        .write_all(render(report, args.format, args).as_bytes())
        .context("writing to stdout")?;
    write_outputs(report, args, Some(args.format))
}

/// Inside a GitHub Actions step (`GITHUB_ACTIONS=true`, `$GITHUB_OUTPUT` set), appends the
/// run's step outputs (docs/github-action.md).
fn append_step_outputs(report: &Report, changed: bool) -> Result<()> {
    if std::env::var_os("GITHUB_ACTIONS").is_none_or(|v| v != "true") {
        return Ok(());
    }
    let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    append_to(
        Path::new(&path),
        &report::github::step_outputs(report, changed),
        "$GITHUB_OUTPUT",
    )
}

/// The exit status (docs/exit-codes.md): 1 when something is left to do (`pending`) or a
/// diagnostic at or above `--fail-on` is left, else 0; `--exit-zero` makes it 0.
fn exit_status(pending: bool, report: &Report, args: &ReportArgs) -> u8 {
    if args.exit_zero {
        return 0;
    }
    let failing = args
        .fail_on
        .severity()
        .is_some_and(|s| report.at_or_above(s) > 0);
    u8::from(pending || failing)
}

/// The pipeline request for a repository command.
fn repository_request(
    root: &Path,
    repo: &RepositoryArgs,
    report: &ReportArgs,
    in_place: bool,
    config: Config,
) -> Result<pipeline::Request> {
    selection(report)?;
    let mut request = pipeline::Request::new(Input::Repository(root.to_path_buf()), config);
    request.jobs = repo.jobs.unwrap_or(0);
    request.progress = progress_wanted(report);
    request.layout = if in_place {
        Layout::InPlace
    } else {
        Layout::Alongside
    };
    if let Some(k) = &repo.kustomize
        && !k.is_file()
    {
        anyhow::bail!(
            "--kustomize {}: no such file (name a kustomize binary, or kubectl)",
            k.display()
        );
    }
    let mut renderer = crate::render::Renderer::find(
        repo.kustomize.as_deref(),
        std::env::var_os("PATH").as_deref(),
    );
    if let Some(r) = renderer.as_mut() {
        if let Some(s) = repo.render_timeout {
            r.timeout = std::time::Duration::from_secs(s);
        }
        if let Some(s) = repo.render_budget {
            r.run_budget = std::time::Duration::from_secs(s);
        }
    }
    // kustomize runs with an empty environment; fetching remote bases needs `git` on PATH,
    // proxies and CA bundles.
    if repo.allow_remote
        && let Some(r) = renderer.as_mut()
    {
        r.offline = false;
        for key in [
            "PATH",
            "HTTPS_PROXY",
            "HTTP_PROXY",
            "NO_PROXY",
            "https_proxy",
            "http_proxy",
            "no_proxy",
            "SSL_CERT_FILE",
            "SSL_CERT_DIR",
        ] {
            if let Some(v) = std::env::var_os(key) {
                r.env.push((key.into(), v));
            }
        }
    }
    if let Some(dir) = &repo.remote_cache
        && !dir.is_dir()
    {
        anyhow::bail!(
            "--remote-cache {}: not a directory (name the directory kustomize localize wrote, or its localized-files)",
            dir.display()
        );
    }
    request.render = crate::render::RenderOptions {
        enabled: !repo.no_render,
        renderer,
        allow_remote: repo.allow_remote,
        remote_cache: repo
            .remote_cache
            .as_deref()
            .map(crate::render::remote::RemoteCache::at),
        cache_dir: render_cache_dir(),
        // Set from the request by the pipeline.
        equivalence: true,
    };
    Ok(request)
}

/// Where rendered builds are cached: `$GATEWAY_MIGRATE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/gateway-migrate/render`, else `~/.cache/gateway-migrate/render`; an empty
/// `GATEWAY_MIGRATE_CACHE_DIR` turns the cache off.
fn render_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GATEWAY_MIGRATE_CACHE_DIR") {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("gateway-migrate").join("render"))
}

/// The options every repository command shares.
struct RepositoryRun<'a> {
    root: &'a Path,
    repo: &'a RepositoryArgs,
    translate: &'a TranslateArgs,
    report: &'a ReportArgs,
    in_place: bool,
}

impl<'a> RepositoryRun<'a> {
    fn new(
        root: &'a Path,
        repo: &'a RepositoryArgs,
        translate: &'a TranslateArgs,
        report: &'a ReportArgs,
        in_place: bool,
    ) -> Self {
        RepositoryRun {
            root,
            repo,
            translate,
            report,
            in_place,
        }
    }

    /// The configuration for the root, with the command line's overrides.
    fn config(&self) -> Result<Config> {
        load_config(self.root, self.translate, Some(self.repo))
    }

    /// Runs the pipeline with the request `adjust` completes, and builds the report.
    fn run(&self, adjust: impl FnOnce(&mut pipeline::Request)) -> Result<(Outcome, Report)> {
        self.run_with(self.config()?, adjust)
    }

    /// [`RepositoryRun::run`] with a configuration already loaded.
    fn run_with(
        &self,
        config: Config,
        adjust: impl FnOnce(&mut pipeline::Request),
    ) -> Result<(Outcome, Report)> {
        let mut request =
            repository_request(self.root, self.repo, self.report, self.in_place, config)?;
        request.equivalence = !self.translate.no_equivalence;
        adjust(&mut request);
        let mut outcome = pipeline::run(request)?;
        let report = build_report(&mut outcome, self.report)?;
        Ok((outcome, report))
    }
}

fn plan(args: PlanArgs) -> Result<u8> {
    let (outcome, report) = RepositoryRun::new(
        &args.path,
        &args.repo,
        &args.translate,
        &args.report,
        args.in_place,
    )
    .run(|_| {})?;
    emit(&report, &args.report)?;
    if args.diff {
        let diff = outcome.plan.diff();
        if args.report.format == Format::Text {
            std::io::stdout()
                .lock()
                .write_all(diff.as_bytes())
                .context("writing to stdout")?;
        } else {
            eprint!("{diff}");
        }
    }
    append_step_outputs(&report, !outcome.plan.is_empty())?;
    Ok(exit_status(!outcome.plan.is_empty(), &report, &args.report))
}

fn apply(args: ApplyArgs) -> Result<u8> {
    let (_, report) = RepositoryRun::new(
        &args.path,
        &args.repo,
        &args.translate,
        &args.report,
        args.in_place,
    )
    .run(|request| request.write = true)?;
    emit(&report, &args.report)?;
    append_step_outputs(&report, !report.files.is_empty())?;
    // Everything planned was written (a failed write is a fatal error); what is left are
    // the diagnostics.
    Ok(exit_status(false, &report, &args.report))
}

/// The directory `check` runs on: PATH itself, or, for files (pre-commit passes the
/// changed ones), the top of the git work tree holding them all.
fn check_root(paths: &[PathBuf]) -> Result<PathBuf> {
    match paths {
        [one] if !one.is_file() => return Ok(one.clone()),
        [] => return Ok(PathBuf::from(".")),
        _ => {}
    }
    let mut top: Option<PathBuf> = None;
    for path in paths {
        let absolute = std::fs::canonicalize(path)
            .with_context(|| format!("{} does not exist", path.display()))?;
        let Some(tree) = crate::vcs::work_tree_top(&absolute) else {
            // One file outside any repository: the walk's own message points to `convert`.
            if paths.len() == 1 {
                return Ok(path.clone());
            }
            anyhow::bail!(
                "{} is not inside a git work tree: give the repository's directory",
                path.display()
            );
        };
        match &top {
            Some(t) if t != tree => anyhow::bail!(
                "{} and {} are in different git repositories: check one repository at a time",
                paths[0].display(),
                path.display()
            ),
            _ => top = Some(tree.to_path_buf()),
        }
    }
    top.ok_or_else(|| anyhow::anyhow!("no path given"))
}

fn check(args: CheckArgs) -> Result<u8> {
    let root = check_root(&args.paths)?;
    let (outcome, report) = RepositoryRun::new(
        &root,
        &args.repo,
        &args.translate,
        &args.report,
        args.in_place,
    )
    .run(|request| {
        request.check = true;
        request.git_status = true;
        request.write = args.fix;
    })?;
    emit(&report, &args.report)?;
    // With --fix the files are written, and the run still fails when it had to write them
    // (pre-commit's convention: the commit is retried with the files added).
    append_step_outputs(&report, !outcome.stale.is_empty())?;
    Ok(exit_status(
        !outcome.stale.is_empty() || outcome.leaves_files_out(),
        &report,
        &args.report,
    ))
}

fn pr(args: PrArgs) -> Result<u8> {
    if !matches!(args.report.format, Format::Text | Format::Json) {
        anyhow::bail!(
            "pr prints what it published: --format text or json (write the translation report \
             with --output FORMAT=PATH, e.g. --output markdown=report.md)"
        );
    }
    // Token, branch, title, repository and remote are checked before the scan, which can
    // take a while.
    let run = RepositoryRun::new(
        &args.path,
        &args.repo,
        &args.translate,
        &args.report,
        args.in_place,
    );
    let config = run.config()?;
    let opts = args.options(&config.fingerprint());
    publish::check_options(&opts)?;
    publish::check_repository(&args.path, &opts)?;
    let (outcome, report) = run.run_with(config, |_| {})?;
    let mask = publish::Redactor::new([&opts.token]);
    write_outputs_masked(&report, &args.report, None, Some(&mask))?;
    // The body is the Markdown report, cut below the publisher's own limit so that it is
    // never truncated blindly.
    let body = report::markdown::render(
        &report,
        &report::markdown::Options {
            limit: publish::MAX_BODY_CHARS,
            full_report: args.report.full_report.clone(),
        },
    );
    let published = publish::publish(&args.path, &outcome.plan, &body, &opts)?;
    let text = match args.report.format {
        Format::Json => published.render_json(),
        _ if args.report.quiet => String::new(),
        _ => published.render_text(),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("writing to stdout")?;
    if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true")
        && let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|p| !p.is_empty())
    {
        published
            .append_github_output(Path::new(&path))
            .context("writing the step outputs to $GITHUB_OUTPUT")?;
    }
    append_step_outputs(&report, !outcome.plan.is_empty())?;
    // Published: nothing is left to do but the diagnostics the pull request lists.
    Ok(exit_status(false, &report, &args.report))
}

/// The token in `$NAME`, trimmed (read once; it lives in a [`publish::Secret`] from here on).
fn read_token(name: &str) -> publish::Secret {
    publish::Secret::new(std::env::var(name).unwrap_or_default().trim())
}

/// The repositories named on the command line, in `--repos`, and of `--org` with `--topic`,
/// each once, in that order.
fn select_repositories(
    args: &RepoSelectionArgs,
    token: &publish::Secret,
) -> Result<Vec<bulk::repos::RepoName>> {
    let mut repos = Vec::new();
    for name in &args.names {
        repos.push(bulk::repos::RepoName::parse(name).map_err(|e| anyhow::anyhow!("{e}"))?);
    }
    if let Some(file) = &args.repos {
        let (text, source) = if file.as_os_str() == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("reading the repository list from stdin")?;
            (text, "<stdin>".to_string())
        } else {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("reading the repository list {}", file.display()))?;
            (text, file.display().to_string())
        };
        let listed = bulk::repos::parse_list(&text, &source).map_err(|e| anyhow::anyhow!("{e}"))?;
        repos.extend(listed);
    }
    if let (Some(org), Some(topic)) = (&args.org, &args.topic) {
        if token.is_empty() {
            anyhow::bail!(
                "--org needs a token to list the organisation's repositories: {} is empty or \
                 not set",
                args.token_env
            );
        }
        publish::check_token(token, &args.token_env).map_err(|e| anyhow::anyhow!("{e}"))?;
        let listed = bulk::organisation_repositories(
            org,
            topic,
            token,
            &args.token_env,
            &api_root(&args.api_url),
            &publish::RetryPolicy::default(),
        )?;
        if listed.is_empty() {
            eprintln!("note: no repository of {org} carries the topic {topic:?}");
        }
        repos.extend(listed);
    }
    if args.names.is_empty() && args.repos.is_none() && args.org.is_none() {
        anyhow::bail!(
            "name the repositories: OWNER/REPO arguments, --repos FILE, or --org ORG --topic TOPIC"
        );
    }
    Ok(bulk::repos::dedup(repos))
}

fn api_root(url: &str) -> String {
    if url.trim().is_empty() {
        publish::DEFAULT_API_URL.to_string()
    } else {
        url.trim().to_string()
    }
}

/// The report options of a repository inside `bulk run`: everything reported, nothing printed
/// by the pipeline itself.
fn bulk_report_args() -> ReportArgs {
    ReportArgs {
        format: Format::Text,
        outputs: Vec::new(),
        quiet: true,
        verbose: false,
        select: Vec::new(),
        min_severity: None,
        fail_on: FailOn::Error,
        exit_zero: false,
        full_report: None,
    }
}

fn bulk_run(args: BulkRunArgs) -> Result<u8> {
    if args.concurrency == 0 {
        anyhow::bail!("--concurrency must be at least 1");
    }
    let shard = args
        .shard
        .as_deref()
        .map(bulk::shard::Shard::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    // A typo in the shared configuration fails now, not once per repository.
    if let Some(file) = &args.translate.config {
        Config::load(Path::new("."), Some(file))?;
    }
    let token = read_token(&args.select.token_env);
    let repos = select_repositories(&args.select, &token)?;
    if repos.is_empty() {
        anyhow::bail!("no repositories to run");
    }
    // A dry run does not overwrite the record of a real one unless asked to.
    let results = args
        .results
        .clone()
        .or_else(|| (!args.dry_run || args.resume).then(|| PathBuf::from(DEFAULT_RESULTS_FILE)));
    let mut opts = bulk::BulkOptions::new(token, results.clone());
    opts.token_env = args.select.token_env.clone();
    opts.api_url = api_root(&args.select.api_url);
    opts.server_url = if args.server_url.trim().is_empty() {
        bulk::DEFAULT_SERVER_URL.to_string()
    } else {
        args.server_url.trim().to_string()
    };
    opts.concurrency = args.concurrency;
    opts.resume = args.resume;
    opts.retry_failed = args.retry_failed;
    opts.dry_run = args.dry_run;
    opts.shard = shard;
    opts.pull_request = args.pull_request.settings();
    let report_args = bulk_report_args();
    let translate = |root: &Path| -> std::result::Result<bulk::Translated, String> {
        translate_clone(root, &args, &report_args)
            .map_err(|e| without_clone_path(&format!("{e:#}"), root))
    };
    let mut stdout = std::io::stdout().lock();
    let mut on_event = |event: bulk::Event<'_>| match event {
        bulk::Event::Planned {
            selected,
            other_shards,
            already_done,
        } => {
            let mut notes = Vec::new();
            if other_shards > 0 {
                notes.push(format!("{other_shards} in other shards"));
            }
            if already_done > 0 {
                notes.push(format!("{already_done} already in the results file"));
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            };
            eprintln!("bulk: {selected} repositories to run{notes}");
        }
        bulk::Event::Warning(message) => eprintln!("warning: {message}"),
        bulk::Event::DryRun { repo, diff, report } => {
            let _ = write!(stdout, "==> {repo}\n{report}{diff}\n");
        }
        bulk::Event::Finished { done, total, row } => {
            let detail = row.pr_url.as_deref().or(row.error.as_deref()).unwrap_or("");
            eprintln!(
                "[{done}/{total}] {}: {} {detail}",
                row.repo,
                row.operation.as_str()
            );
        }
    };
    let outcome = bulk::run(&repos, &opts, &translate, &mut on_event);
    drop(stdout);
    // The summary covers the whole results file (a resumed run's earlier rows too), also
    // when the run stopped early.
    let rows = match (&results, &outcome) {
        (Some(path), _) if path.exists() => bulk::results::merge(bulk::results::read(path)?.rows),
        (_, Ok(rows)) => bulk::results::merge(rows.iter().cloned()),
        _ => Vec::new(),
    };
    let status = summarise(&rows, args.summary.as_deref())?;
    outcome?;
    Ok(status)
}

/// `bulk run`'s results file unless `--results` names another.
const DEFAULT_RESULTS_FILE: &str = "gateway-migrate-results.jsonl";

/// `message` with the temporary clone's path taken out, so that it names files as they are
/// in the repository (`.gateway-migrate.yaml`, not `/tmp/gateway-migrate-bulk-…/…`).
fn without_clone_path(message: &str, root: &Path) -> String {
    let mut out = message.to_string();
    let canonical = std::fs::canonicalize(root).ok();
    for dir in canonical.iter().map(PathBuf::as_path).chain([root]) {
        out = out.replace(&format!("{}/", dir.display()), "");
        out = out.replace(&dir.display().to_string(), ".");
    }
    out
}

/// Runs the pipeline on one clone, as `pr` does: the repository's own configuration, else
/// the shared one, with the command line's overrides.
fn translate_clone(
    root: &Path,
    args: &BulkRunArgs,
    report_args: &ReportArgs,
) -> Result<bulk::Translated> {
    let own = Config::discover(root)?;
    let file = if own.is_some() {
        None
    } else {
        args.translate.config.as_deref()
    };
    let config = load_config_file(root, file, &args.translate, Some(&args.repo))?;
    let config_fingerprint = config.fingerprint();
    let run = RepositoryRun::new(
        root,
        &args.repo,
        &args.translate,
        report_args,
        args.in_place,
    );
    let (outcome, report) = run.run_with(config, |request| request.progress = false)?;
    let body = report::markdown::render(
        &report,
        &report::markdown::Options {
            limit: publish::MAX_BODY_CHARS,
            full_report: None,
        },
    );
    let report_text = report::text::render(&report, &report::text::Options::default());
    Ok(bulk::Translated {
        plan: outcome.plan,
        body,
        config_fingerprint,
        objects: report.objects.len(),
        errors: report.summary.notes.error,
        warnings: report.summary.notes.warning,
        builds_verified: report
            .builds
            .iter()
            .filter(|b| b.status == "verified")
            .count(),
        report_text,
    })
}

/// Prints the table, writes the Markdown one to `summary` and the job summary, and returns
/// the exit status: 1 when a repository failed.
fn summarise(rows: &[bulk::results::Row], summary: Option<&Path>) -> Result<u8> {
    std::io::stdout()
        .lock()
        .write_all(bulk::results::text_table(rows).as_bytes())
        .context("writing to stdout")?;
    write_summaries(rows, summary)
}

/// Writes the Markdown table to `summary` and, inside GitHub Actions, to the job summary;
/// returns the exit status: 1 when a repository failed.
fn write_summaries(rows: &[bulk::results::Row], summary: Option<&Path>) -> Result<u8> {
    let markdown = bulk::results::markdown_table(rows);
    if let Some(path) = summary {
        std::fs::write(path, &markdown)
            .with_context(|| format!("writing the summary to {}", path.display()))?;
    }
    if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true")
        && let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty())
    {
        append_to(Path::new(&path), &markdown, "$GITHUB_STEP_SUMMARY")?;
    }
    let failed = rows
        .iter()
        .any(|r| r.operation == bulk::results::RowOperation::Failed);
    Ok(u8::from(failed))
}

fn bulk_plan(args: &BulkPlanArgs) -> Result<u8> {
    let token = read_token(&args.select.token_env);
    let repos = select_repositories(&args.select, &token)?;
    if repos.is_empty() {
        anyhow::bail!("no repositories to plan");
    }
    let matrix = bulk::shard::matrix(&repos, args.shards).map_err(|e| anyhow::anyhow!("{e}"))?;
    // One line, as `echo "matrix=$(...)" >> "$GITHUB_OUTPUT"` needs it.
    writeln!(std::io::stdout().lock(), "{matrix}").context("writing to stdout")?;
    Ok(0)
}

fn bulk_report(args: &BulkReportArgs) -> Result<u8> {
    let mut all = Vec::new();
    for file in &args.merge {
        let read = bulk::results::read(file)?;
        for (line, message) in read.bad_lines {
            eprintln!(
                "warning: {}:{line}: not a results row, skipped ({message})",
                file.display()
            );
        }
        all.extend(read.rows);
    }
    let rows = bulk::results::merge(all);
    match args.format {
        BulkReportFormat::Text => return summarise(&rows, args.summary.as_deref()),
        BulkReportFormat::Markdown => std::io::stdout()
            .lock()
            .write_all(bulk::results::markdown_table(&rows).as_bytes())
            .context("writing to stdout")?,
        BulkReportFormat::Json => {
            let mut out = String::new();
            for r in &rows {
                out.push_str(&serde_json::to_string(r).unwrap_or_default());
                out.push('\n');
            }
            std::io::stdout()
                .lock()
                .write_all(out.as_bytes())
                .context("writing to stdout")?;
        }
    }
    write_summaries(&rows, args.summary.as_deref())
}

fn convert(args: ConvertArgs) -> Result<u8> {
    selection(&args.report)?;
    let config = load_config(Path::new("."), &args.translate, None)?;
    let mut inputs = Vec::new();
    if args.files.is_empty() || args.files.iter().any(|f| f.as_os_str() == "-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("reading stdin")?;
        inputs.push(("<stdin>".to_string(), buf));
    }
    for file in args.files.iter().filter(|f| f.as_os_str() != "-") {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        inputs.push((file.display().to_string(), bytes));
    }
    let mut request = pipeline::Request::new(Input::Streams(inputs), config);
    request.equivalence = !args.translate.no_equivalence;
    let mut outcome = pipeline::run(request)?;
    let report = build_report(&mut outcome, &args.report)?;
    if args.report.format == Format::Text {
        // The YAML is the data on stdout; the report goes to stderr.
        let yaml = plan::render_stream(outcome.generated());
        std::io::stdout()
            .lock()
            .write_all(yaml.as_bytes())
            .context("writing to stdout")?;
        eprint!("{}", render(&report, Format::Text, &args.report));
        write_outputs(&report, &args.report, None)?;
    } else {
        emit(&report, &args.report)?;
    }
    Ok(exit_status(false, &report, &args.report))
}

fn trace(args: &TraceArgs) -> Result<u8> {
    use crate::equivalence::Probe;
    let mut request = crate::semantics::Request::parse(&args.request)
        .with_context(|| format!("--request {:?}", args.request))?;
    for h in &args.headers {
        request = request
            .with_header_line(h)
            .with_context(|| format!("--header {h:?}"))?;
    }
    let gateway = match &args.gateway {
        Some(g) => {
            let (ns, name) = g
                .split_once('/')
                .filter(|(ns, name)| !ns.is_empty() && !name.is_empty())
                .with_context(|| format!("--gateway {g:?}: write NAMESPACE/NAME"))?;
            Some((ns.to_string(), name.to_string()))
        }
        None => None,
    };
    let probe = Probe {
        scheme: request.scheme,
        host: request.host.clone(),
        port: u32::from(request.port),
        method: request.method.clone(),
        path: request.path.clone(),
        headers: request
            .headers
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
            .collect(),
        query: request.query.clone(),
        client: args.source_ip,
    };
    let paths: Vec<PathBuf> = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let input = if paths.len() == 1 && paths[0].is_dir() {
        let config = load_config(&paths[0], &args.translate, None)?;
        (Input::Repository(paths[0].clone()), config)
    } else {
        let mut inputs = Vec::new();
        for file in &paths {
            let bytes =
                std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
            inputs.push((file.display().to_string(), bytes));
        }
        let config = load_config(Path::new("."), &args.translate, None)?;
        (Input::Streams(inputs), config)
    };
    let mut pipeline_request = pipeline::Request::new(input.0, input.1);
    pipeline_request.equivalence = false;
    let outcome = pipeline::run(pipeline_request)?;
    let trace = crate::equivalence::trace::trace(
        &outcome.scan,
        &outcome.results,
        &outcome.config,
        &probe,
        gateway.as_ref(),
    );
    let text = match args.format {
        TraceFormat::Text => trace.text(),
        TraceFormat::Json => {
            let mut json = serde_json::to_string_pretty(&trace).context("encoding the trace")?;
            json.push('\n');
            json
        }
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("writing to stdout")?;
    if args.source_ip.is_some() && trace.old.as_ref().is_some_and(|o| o.model == "Istio") {
        eprintln!(
            "note: --source-ip is not evaluated on the Istio side (its model does not read AuthorizationPolicies)"
        );
    }
    // 1 when the sides differ, like plan's "changes needed".
    Ok(u8::from(!trace.differences.is_empty()))
}

fn codes(args: &CodesArgs) -> Result<u8> {
    use crate::diagnostic::docs;
    let text = match args.format {
        CodesFormat::Text => docs::text(),
        CodesFormat::Json => docs::json(),
        CodesFormat::Markdown => docs::markdown(),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("writing to stdout")?;
    Ok(0)
}

fn explain(args: &ExplainArgs) -> Result<u8> {
    let Some(code) = crate::diagnostic::Code::parse(args.code.trim()) else {
        anyhow::bail!(
            "unknown code {:?}; `gateway-migrate codes` lists them all",
            args.code
        );
    };
    std::io::stdout()
        .lock()
        .write_all(crate::diagnostic::docs::explain(code).as_bytes())
        .context("writing to stdout")?;
    Ok(0)
}
