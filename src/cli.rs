//! Command line: argument parsing, configuration, exit codes. The edge where `anyhow` lives.
//!
//! Exit codes: 0 clean, 1 changes needed or findings, 2 usage or fatal error.
//! stdout carries data only (reports, YAML); messages go to stderr.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::{Channel, Config, IngressMode, Target};
use crate::pipeline::{self, Input};
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
    /// Apply on a branch, commit, push, and open or update the pull request (body: the report).
    Pr(Box<PrArgs>),
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
    /// For terminals, readable without colour.
    Text,
    /// The versioned JSON contract (docs/report-format.md).
    Json,
    /// A pull request body or `$GITHUB_STEP_SUMMARY` (at most 65,536 characters).
    Markdown,
    /// GitHub workflow annotations (`::warning file=...::`), ranked, at most 10 per level.
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
    EnvoyGateway,
    /// Portable output only.
    Generic,
}

/// Options every command shares.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    pub format: Format,
    /// Configuration file (default: the nearest .gateway-migrate.yaml or .yml in PATH or a
    /// directory above it, up to the top of the git work tree).
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N", global = true)]
    pub jobs: Option<usize>,
    /// Only scan paths matching this glob (gitignore syntax, repeatable).
    #[arg(long, value_name = "GLOB", global = true)]
    pub include: Vec<String>,
    /// Skip paths matching this glob (gitignore syntax, repeatable).
    #[arg(long, value_name = "GLOB", global = true)]
    pub exclude: Vec<String>,
    /// Print nothing but errors.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Also list fully translated objects and info notes.
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Gateway API release channel the cluster runs.
    #[arg(long, value_enum, global = true)]
    pub channel: Option<ChannelArg>,
    /// How Ingress objects are translated: create Gateways (migrate) or attach to existing ones (mount).
    #[arg(long, value_enum, global = true)]
    pub ingress_mode: Option<IngressModeArg>,
    /// Implementation the output is tuned for.
    #[arg(long, value_enum, global = true)]
    pub target: Option<TargetArg>,
    /// gatewayClassName of generated Gateways (default: istio).
    #[arg(long, value_name = "NAME", global = true)]
    pub gateway_class: Option<String>,
    /// Treat references to objects outside the repository as errors.
    #[arg(long, global = true)]
    pub strict: bool,
    /// Suffix of generated files: `app.yaml` → `app.<SUFFIX>.yaml` (default: gateway-api).
    #[arg(long, value_name = "SUFFIX", global = true)]
    pub output_suffix: Option<String>,
    /// Also add mesh (GAMMA) routes to kustomization `resources:`.
    #[arg(long, global = true)]
    pub deploy_mesh_routes: bool,
    /// Where the full report lives when the Markdown one is truncated (named in the Markdown).
    #[arg(long, value_name = "PATH", global = true)]
    pub full_report: Option<String>,
    /// kustomize to render builds with: a `kustomize` binary, or `kubectl` (runs `kubectl
    /// kustomize`). Default: `kustomize` on PATH, else `kubectl` on PATH.
    #[arg(long, value_name = "PATH", global = true)]
    pub kustomize: Option<PathBuf>,
    /// Translate files as they are: do not render kustomize builds (overlays, components,
    /// patches and replacements are then not followed).
    #[arg(long, global = true)]
    pub no_render: bool,
    /// Let kustomize fetch remote bases and resources (refused by default: the build is
    /// translated from its files and reported).
    #[arg(long, global = true)]
    pub allow_remote: bool,
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
    pub common: CommonArgs,
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
    pub common: CommonArgs,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Repository root to check.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Write the missing or stale files too (still exits 1 when it had to).
    #[arg(long)]
    pub fix: bool,
    /// The repository uses in-place replacement (see `apply --in-place`).
    #[arg(long)]
    pub in_place: bool,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Files to read as one stream; `-` or nothing reads stdin.
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub common: CommonArgs,
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
    /// Branch to push (default: gateway-migrate/<config-hash>).
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
    /// Publish even when files outside the planned ones are modified or untracked (they are
    /// not committed).
    #[arg(long)]
    pub allow_dirty: bool,
    /// When nothing needs to change any more, close the open pull request.
    #[arg(long)]
    pub close_stale: bool,
    /// Replace translated documents inside their source files (as `apply --in-place`).
    #[arg(long)]
    pub in_place: bool,
    #[command(flatten)]
    pub common: CommonArgs,
}

impl PrArgs {
    /// The options for `publish`, reading the token from `--token-env`.
    fn options(&self, config_fingerprint: &str) -> publish::PublishOptions {
        let token = std::env::var(&self.token_env).unwrap_or_default();
        let branch = self
            .branch
            .clone()
            .unwrap_or_else(|| publish::default_branch(config_fingerprint));
        let mut opts = publish::PublishOptions::new(branch, publish::Secret::new(token.trim()));
        opts.token_env = self.token_env.clone();
        opts.repository = self.repository.clone().filter(|r| !r.trim().is_empty());
        opts.api_url = if self.api_url.trim().is_empty() {
            publish::DEFAULT_API_URL.to_string()
        } else {
            self.api_url.clone()
        };
        opts.remote = self.remote.clone();
        opts.base = self.base.clone();
        opts.title = self.title.clone();
        opts.labels = self.labels.clone();
        opts.draft = self.draft;
        opts.author = self.author.clone();
        opts.commit_message = self.commit_message.clone();
        opts.allow_dirty = self.allow_dirty;
        opts.close_stale = self.close_stale;
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
        Command::Pr(args) => pr(*args),
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

fn load_config(root: &Path, common: &CommonArgs) -> Result<Config> {
    let mut config = Config::load(root, common.config.as_deref())?;
    if let Some(c) = common.channel {
        config.channel = match c {
            ChannelArg::Standard => Channel::Standard,
            ChannelArg::Experimental => Channel::Experimental,
        };
    }
    if let Some(m) = common.ingress_mode {
        config.ingress_mode = match m {
            IngressModeArg::Migrate => IngressMode::Migrate,
            IngressModeArg::Mount => IngressMode::Mount,
        };
    }
    if let Some(t) = common.target {
        config.target = match t {
            TargetArg::Istio => Target::Istio,
            TargetArg::EnvoyGateway => Target::EnvoyGateway,
            TargetArg::Generic => Target::Generic,
        };
    }
    if let Some(g) = &common.gateway_class {
        config.gateway_class_name = g.clone();
    }
    if common.strict {
        config.strict = true;
    }
    if let Some(suffix) = &common.output_suffix {
        config.output_suffix = suffix.clone();
    }
    if common.deploy_mesh_routes {
        config.deploy_mesh_routes = true;
    }
    config.include.extend(common.include.iter().cloned());
    config.exclude.extend(common.exclude.iter().cloned());
    Ok(config)
}

fn jobs(common: &CommonArgs) -> usize {
    common.jobs.unwrap_or(0)
}

fn print_report(report: &Report, common: &CommonArgs) -> Result<()> {
    let text = match common.format {
        Format::Json => report::json::render(report),
        Format::Text if common.quiet => return Ok(()),
        Format::Text => report::text::render(report, common.verbose),
        Format::Markdown => report::markdown::render(
            report,
            &report::markdown::Options {
                full_report: common.full_report.clone(),
                ..Default::default()
            },
        ),
        Format::Github => report::github::render(report),
        Format::Sarif => report::sarif::render(report),
    };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .context("writing to stdout")?;
    Ok(())
}

/// The pipeline request for a repository command.
fn repository_request(
    root: &Path,
    common: &CommonArgs,
    in_place: bool,
) -> Result<pipeline::Request> {
    let config = load_config(root, common)?;
    let mut request = pipeline::Request::new(Input::Repository(root.to_path_buf()), config);
    request.jobs = jobs(common);
    request.progress = !common.quiet;
    request.layout = if in_place {
        Layout::InPlace
    } else {
        Layout::Alongside
    };
    if let Some(k) = &common.kustomize
        && !k.is_file()
    {
        anyhow::bail!(
            "--kustomize {}: no such file (name a kustomize binary, or kubectl)",
            k.display()
        );
    }
    let mut renderer = crate::render::Renderer::find(
        common.kustomize.as_deref(),
        std::env::var_os("PATH").as_deref(),
    );
    // kustomize runs with an empty environment; fetching remote bases needs `git` on PATH,
    // proxies and CA bundles.
    if common.allow_remote
        && let Some(r) = renderer.as_mut()
    {
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
    request.render = crate::render::RenderOptions {
        enabled: !common.no_render,
        renderer,
        allow_remote: common.allow_remote,
        cache_dir: render_cache_dir(),
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

fn plan(args: PlanArgs) -> Result<u8> {
    let request = repository_request(&args.path, &args.common, args.in_place)?;
    let outcome = pipeline::run(request)?;
    let report = Report::build(&outcome);
    print_report(&report, &args.common)?;
    if args.diff {
        let diff = outcome.plan.diff();
        if args.common.format == Format::Text {
            std::io::stdout()
                .lock()
                .write_all(diff.as_bytes())
                .context("writing to stdout")?;
        } else {
            eprint!("{diff}");
        }
    }
    Ok(u8::from(!outcome.plan.is_empty() || report.has_errors()))
}

fn apply(args: ApplyArgs) -> Result<u8> {
    let mut request = repository_request(&args.path, &args.common, args.in_place)?;
    request.write = true;
    let outcome = pipeline::run(request)?;
    let report = Report::build(&outcome);
    print_report(&report, &args.common)?;
    Ok(u8::from(report.has_errors()))
}

fn check(args: CheckArgs) -> Result<u8> {
    let mut request = repository_request(&args.path, &args.common, args.in_place)?;
    request.check = true;
    request.write = args.fix;
    let outcome = pipeline::run(request)?;
    let report = Report::build(&outcome);
    print_report(&report, &args.common)?;
    Ok(u8::from(outcome.check_fails()))
}

fn pr(args: PrArgs) -> Result<u8> {
    // Token, branch and title are checked before the scan, which can take a while.
    let early = load_config(&args.path, &args.common)?;
    publish::check_options(&args.options(&early.fingerprint()))?;
    let request = repository_request(&args.path, &args.common, args.in_place)?;
    let outcome = pipeline::run(request)?;
    let report = Report::build(&outcome);
    let config = outcome.config;
    let plan = outcome.plan;
    // The body is the Markdown report, cut below the publisher's own limit so that it is
    // never truncated blindly.
    let body = report::markdown::render(
        &report,
        &report::markdown::Options {
            limit: publish::MAX_BODY_CHARS,
            full_report: args.common.full_report.clone(),
        },
    );
    let opts = args.options(&config.fingerprint());
    let outcome = publish::publish(&args.path, &plan, &body, &opts)?;
    let text = match args.common.format {
        Format::Json => outcome.render_json(),
        _ if args.common.quiet => String::new(),
        Format::Text | Format::Markdown | Format::Github | Format::Sarif => outcome.render_text(),
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("writing to stdout")?;
    if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true")
        && let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|p| !p.is_empty())
    {
        outcome
            .append_github_output(Path::new(&path))
            .context("writing the step outputs to $GITHUB_OUTPUT")?;
    }
    Ok(0)
}

fn convert(args: ConvertArgs) -> Result<u8> {
    let config = load_config(Path::new("."), &args.common)?;
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
    let outcome = pipeline::run(pipeline::Request::new(Input::Streams(inputs), config))?;
    let report = Report::build(&outcome);
    let mut generated: Vec<_> = outcome
        .results
        .iter()
        .flat_map(|r| r.generated.iter())
        .collect();
    generated.sort_by_key(|g| g.sort_key());
    let yaml = plan::render_stream(generated);
    match args.common.format {
        Format::Json | Format::Markdown | Format::Github | Format::Sarif => {
            print_report(&report, &args.common)?
        }
        Format::Text => {
            std::io::stdout()
                .lock()
                .write_all(yaml.as_bytes())
                .context("writing to stdout")?;
            if !args.common.quiet {
                eprint!("{}", report::text::render(&report, args.common.verbose));
            }
        }
    }
    Ok(u8::from(report.has_errors()))
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
