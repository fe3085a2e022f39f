//! `bulk run`, `bulk plan` and `bulk report` end to end: bare repositories served by
//! `git http-backend` on 127.0.0.1 behind the token, the simulated GitHub API
//! (`common::github_sim`), and the real binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use git2::{Repository, RepositoryInitOptions};
use serde_json::Value;

use crate::common::github_sim::{SimGitHub, SimRepo};
use crate::common::http_git::{self, GitHttpServer};
use crate::common::{TOKEN, commit_all, file_url, write};

const OWNER: &str = "acme";

/// An Istio Gateway and VirtualService for `host`, with their Service and kustomization.
fn manifests(host: &str) -> String {
    format!(
        "apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: web
  namespace: web
spec:
  selector:
    istio: ingressgateway
  servers:
    - port: {{number: 80, name: http, protocol: HTTP}}
      hosts: [\"{host}\"]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: web
  namespace: web
spec:
  hosts: [\"{host}\"]
  gateways: [web]
  http:
    - route:
        - destination:
            host: web
            port: {{number: 8080}}
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: web
spec:
  ports:
    - port: 8080
"
    )
}

/// Repositories under `git/OWNER/NAME.git`, served over HTTP and known to the simulated API.
struct Fleet {
    dir: tempfile::TempDir,
    git_root: PathBuf,
    git: GitHttpServer,
    gh: SimGitHub,
    /// Every text the binary printed or wrote, for the token check.
    seen: Vec<String>,
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Fleet {
    /// `repos` get manifests (host `NAME.example.com`) on `main`; `empty` have no commit.
    fn new(repos: &[&str], empty: &[&str]) -> Fleet {
        let dir = tempfile::tempdir().unwrap();
        let git_root = dir.path().join("git");
        let git = GitHttpServer::start(&git_root, TOKEN);
        let gh = SimGitHub::start(&git_root, TOKEN);
        let fleet = Fleet {
            dir,
            git_root,
            git,
            gh,
            seen: Vec::new(),
        };
        for name in repos {
            fleet.create(name, true, &format!("{name}.example.com"));
        }
        for name in empty {
            fleet.create(name, false, "");
        }
        fleet
    }

    fn bare(&self, name: &str) -> PathBuf {
        self.git_root.join(OWNER).join(format!("{name}.git"))
    }

    fn create(&self, name: &str, with_content: bool, host: &str) {
        let mut init = RepositoryInitOptions::new();
        init.bare(true).initial_head("main");
        Repository::init_opts(self.bare(name), &init).unwrap();
        self.gh.add_repo(
            &format!("{OWNER}/{name}"),
            SimRepo {
                default_branch: "main".into(),
                archived: false,
                can_push: true,
                topics: vec!["gateway-api".into()],
            },
        );
        if with_content {
            self.push_manifests(name, host);
        }
    }

    /// Commits the manifests for `host` on `main` of the remote (as a person would).
    fn push_manifests(&self, name: &str, host: &str) {
        let work = self.dir.path().join(format!("work-{name}-{host}"));
        let repo = match Repository::clone(&file_url(&self.bare(name)), &work) {
            Ok(r) if r.head().is_ok() => r,
            _ => {
                let _ = std::fs::remove_dir_all(&work);
                let mut init = RepositoryInitOptions::new();
                init.initial_head("main");
                let r = Repository::init_opts(&work, &init).unwrap();
                r.remote("origin", &file_url(&self.bare(name))).unwrap();
                r
            }
        };
        write(&work, "apps/web/app.yaml", &manifests(host));
        write(
            &work,
            "apps/web/kustomization.yaml",
            "resources:\n  - app.yaml\n",
        );
        commit_all(&repo, &format!("Serve {host}"));
        repo.find_remote("origin")
            .unwrap()
            .push(&["refs/heads/main:refs/heads/main"], None)
            .unwrap();
    }

    fn list(&self, names: &[&str]) -> PathBuf {
        let path = self.dir.path().join("repos.txt");
        let mut text = String::from("# the fleet\n");
        for n in names {
            text.push_str(&format!("{OWNER}/{n}\n"));
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    /// The binary's temporary directory (clones, scratch repositories).
    fn temp(&self) -> PathBuf {
        self.dir.path().join("tmp")
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.path().join(file)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"));
        std::fs::create_dir_all(self.temp()).unwrap();
        cmd.args(args)
            .current_dir(self.dir.path())
            .env("TMPDIR", self.temp())
            .env("GITHUB_TOKEN", TOKEN)
            .env("GITHUB_API_URL", self.gh.uri())
            .env("GITHUB_SERVER_URL", &self.git.base_url)
            .env("GATEWAY_MIGRATE_CACHE_DIR", "")
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove("GITHUB_OUTPUT")
            .env_remove("GITHUB_REPOSITORY");
        cmd
    }

    fn run(&mut self, args: &[&str]) -> Run {
        let out = self.command(args).output().unwrap();
        let run = Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        eprintln!(
            "$ gateway-migrate {}\n{}{}",
            args.join(" "),
            run.stdout,
            run.stderr
        );
        self.seen.push(run.stdout.clone());
        self.seen.push(run.stderr.clone());
        run
    }

    /// The rows of a results file, in file order; every line must be a row.
    fn rows(&mut self, file: &str) -> Vec<Value> {
        let (rows, bad) = self.rows_and_bad_lines(file);
        assert!(bad.is_empty(), "lines that are not rows: {bad:#?}");
        rows
    }

    /// The rows of a results file, and the lines that are not rows.
    fn rows_and_bad_lines(&mut self, file: &str) -> (Vec<Value>, Vec<String>) {
        let text = std::fs::read_to_string(self.path(file)).unwrap();
        self.seen.push(text.clone());
        let mut rows = Vec::new();
        let mut bad = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str(line) {
                Ok(v) => rows.push(v),
                Err(_) => bad.push(line.to_string()),
            }
        }
        (rows, bad)
    }

    fn remote_tip(&self, name: &str, branch: &str) -> Option<git2::Oid> {
        Repository::open_bare(self.bare(name))
            .ok()?
            .find_reference(&format!("refs/heads/{branch}"))
            .ok()?
            .target()
    }

    /// Every request had GitHub's shape; the token does not appear in anything printed or
    /// written, nor GitHub's user name for tokens in git URLs; no clone is left behind.
    fn assert_no_token(&self) {
        assert!(
            self.gh.violations().is_empty(),
            "{:#?}",
            self.gh.violations()
        );
        let left: Vec<_> = std::fs::read_dir(self.temp())
            .map(|d| d.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "temporary files left: {left:?}");
        for text in &self.seen {
            assert!(!text.contains(TOKEN), "token leaked:\n{text}");
            assert!(
                !text.contains("x-access-token"),
                "credential leaked:\n{text}"
            );
        }
    }
}

fn row<'a>(rows: &'a [Value], repo: &str) -> &'a Value {
    let full = format!("{OWNER}/{repo}");
    rows.iter()
        .find(|r| r["repo"] == full.as_str())
        .unwrap_or_else(|| panic!("no row for {full} in {rows:#?}"))
}

fn op(rows: &[Value], repo: &str) -> String {
    row(rows, repo)["operation"].as_str().unwrap().to_string()
}

fn ready() -> bool {
    http_git::available()
}

const APPS: [&str; 4] = ["checkout", "catalog", "payments", "search"];

/// Acceptance 1: five repositories, one of them empty: four pull requests and one failed row;
/// the others are not stopped by it. A second run updates instead of duplicating.
#[test]
fn five_repositories_give_four_pull_requests_and_a_rerun_updates() {
    if !ready() {
        return;
    }
    let kubectl = crate::render::kubectl().is_some();
    let mut fleet = Fleet::new(&APPS, &["empty"]);
    let mut names = APPS.to_vec();
    names.insert(2, "empty");
    let list = fleet.list(&names);
    let list = list.to_str().unwrap();
    let first = fleet.run(&[
        "bulk",
        "run",
        "--repos",
        list,
        "--results",
        "first.jsonl",
        "--concurrency",
        "2",
        "--label",
        "gateway-api",
        "--summary",
        "first.md",
    ]);
    assert_eq!(first.code, 1, "a failed repository makes the run exit 1");
    let rows = fleet.rows("first.jsonl");
    assert_eq!(rows.len(), 5, "{rows:#?}");
    for app in APPS {
        let r = row(&rows, app);
        assert_eq!(r["operation"], "created", "{r:#?}");
        assert_eq!(
            r["pr_url"],
            format!("https://github.com/{OWNER}/{app}/pull/1")
        );
        assert_eq!(r["objects"], 2, "Gateway and VirtualService: {r:#?}");
        assert_eq!(r["errors"], 0, "{r:#?}");
        assert!(r["error"].is_null());
        if kubectl {
            assert_eq!(r["builds_verified"], 1, "{r:#?}");
        }
        assert!(r["duration_s"].as_f64().unwrap() > 0.0);
    }
    let empty = row(&rows, "empty");
    assert_eq!(empty["operation"], "failed");
    assert!(
        empty["error"].as_str().unwrap().contains("empty"),
        "{empty:#?}"
    );
    let prs = fleet.gh.prs();
    assert_eq!(prs.len(), 4);
    for pr in &prs {
        assert!(
            pr.open && pr.base == "main" && pr.labels == ["gateway-api"],
            "{pr:?}"
        );
        assert!(pr.head.starts_with("gateway-migrate/"), "{pr:?}");
        let name = pr.repo.split('/').nth(1).unwrap();
        assert!(
            fleet.remote_tip(name, &pr.head).is_some(),
            "branch pushed: {pr:?}"
        );
        assert!(
            pr.body.contains("HTTPRoute"),
            "the body is the report: {}",
            pr.body
        );
    }
    assert!(
        first.stdout.contains("5 repositories: 4 created, 1 failed"),
        "{}",
        first.stdout
    );
    let summary = std::fs::read_to_string(fleet.path("first.md")).unwrap();
    assert!(summary.contains("| `acme/empty` | failed |"), "{summary}");
    fleet.seen.push(summary);

    // Someone changes one repository; the next run updates its pull request and leaves the
    // others as they are.
    let branch = prs[0].head.clone();
    let before = fleet.remote_tip("payments", &branch).unwrap();
    fleet.push_manifests("payments", "pay.example.com");
    let second = fleet.run(&[
        "bulk",
        "run",
        "--repos",
        list,
        "--results",
        "second.jsonl",
        "--concurrency",
        "2",
        "--label",
        "gateway-api",
    ]);
    assert_eq!(second.code, 1);
    let rows = fleet.rows("second.jsonl");
    assert_eq!(op(&rows, "payments"), "updated");
    for app in ["checkout", "catalog", "search"] {
        assert_eq!(op(&rows, app), "none", "{rows:#?}");
        assert_eq!(
            row(&rows, app)["pr_url"],
            format!("https://github.com/{OWNER}/{app}/pull/1")
        );
    }
    assert_eq!(op(&rows, "empty"), "failed");
    assert_eq!(fleet.gh.prs().len(), 4, "no duplicate pull request");
    let after = fleet.remote_tip("payments", &branch).unwrap();
    assert_ne!(before, after, "the branch was pushed again");
    fleet.assert_no_token();
}

/// Acceptance 1, last part: a run killed after two repositories, restarted with `--resume`,
/// finishes the rest and does not touch the first two (no API call, no git request).
#[test]
fn a_killed_run_resumes_without_touching_finished_repositories() {
    if !ready() {
        return;
    }
    let mut fleet = Fleet::new(&APPS, &["empty"]);
    let mut names = APPS.to_vec();
    names.push("empty");
    let list = fleet.list(&names);
    let list = list.to_str().unwrap();
    let args = [
        "bulk",
        "run",
        "--repos",
        list,
        "--results",
        "results.jsonl",
        "--concurrency",
        "1",
        "--no-render",
    ];
    let mut child = fleet
        .command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let results = fleet.path("results.jsonl");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let complete = std::fs::read_to_string(&results)
            .map(|t| t.matches('\n').count())
            .unwrap_or(0);
        if complete >= 2 {
            break;
        }
        assert!(Instant::now() < deadline, "no two rows within two minutes");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = fleet.rows("results.jsonl");
    assert!(killed.len() >= 2 && killed.len() < 5, "{killed:#?}");
    let finished: Vec<String> = killed
        .iter()
        .take(2)
        .map(|r| r["repo"].as_str().unwrap().to_string())
        .collect();
    // A kill in the middle of a write leaves a cut-off line; the resumed run skips it with a
    // warning and starts its rows on a line of their own.
    let mut text = std::fs::read(&results).unwrap();
    text.extend_from_slice(b"{\"repo\":\"acme/cut\",\"operation\":\"crea");
    std::fs::write(&results, text).unwrap();
    let api_before = fleet.gh.log().len();
    let git_before = fleet.git.log.lock().unwrap().len();

    let mut resumed_args = args.to_vec();
    resumed_args.push("--resume");
    let resumed = fleet.run(&resumed_args);
    assert_eq!(resumed.code, 1, "the empty repository still fails");
    // `METHOD /path?query -> status`: the path's segments.
    let segments = |line: &str| -> Vec<String> {
        let target = line.split(' ').nth(1).unwrap_or_default();
        let path = target.split('?').next().unwrap_or_default();
        path.split('/').map(str::to_string).collect()
    };
    let api_after: Vec<String> = fleet.gh.log()[api_before..].to_vec();
    let git_after: Vec<String> = fleet.git.log.lock().unwrap()[git_before..].to_vec();
    assert!(
        api_after
            .iter()
            .any(|l| segments(l).contains(&"repos".to_string()))
    );
    for repo in &finished {
        let name = repo.split('/').nth(1).unwrap();
        assert!(
            !api_after
                .iter()
                .any(|l| segments(l).iter().any(|s| s == name)),
            "{repo} was touched again: {api_after:#?}"
        );
        assert!(
            !git_after
                .iter()
                .any(|l| l.contains(&format!("/{name}.git"))),
            "{repo} was fetched again: {git_after:#?}"
        );
    }
    let (rows, bad) = fleet.rows_and_bad_lines("results.jsonl");
    assert_eq!(bad.len(), 1, "only the line cut off on purpose: {bad:#?}");
    for repo in &finished {
        assert_eq!(
            rows.iter().filter(|r| r["repo"] == repo.as_str()).count(),
            1
        );
    }
    let mut covered: Vec<&str> = rows.iter().map(|r| r["repo"].as_str().unwrap()).collect();
    covered.sort();
    covered.dedup();
    assert_eq!(covered.len(), 5, "every repository has a row: {rows:#?}");
    let prs = fleet.gh.prs();
    assert_eq!(
        prs.len(),
        4,
        "one pull request per repository with content: {prs:#?}"
    );
    assert!(
        resumed.stderr.contains("already in the results file"),
        "{}",
        resumed.stderr
    );
    assert!(
        resumed.stderr.contains("results.jsonl:") && resumed.stderr.contains("not a results row"),
        "{}",
        resumed.stderr
    );
    assert!(
        resumed.stderr.contains("left by killed runs"),
        "the killed run's clone is removed: {}",
        resumed.stderr
    );
    fleet.assert_no_token();
}

/// Acceptance 2: `--shard 1/2` and `--shard 2/2` merged by `bulk report --merge` give the rows
/// of a single run over the same repositories.
#[test]
fn two_shards_merged_equal_a_single_run() {
    if !ready() {
        return;
    }
    let names = [
        "checkout", "catalog", "payments", "search", "ledger", "empty",
    ];
    let with_content = &names[..5];
    let rows_without_time = |rows: Vec<Value>| -> Vec<Value> {
        let mut rows: Vec<Value> = rows
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().unwrap().remove("duration_s");
                r
            })
            .collect();
        rows.sort_by(|a, b| a["repo"].as_str().cmp(&b["repo"].as_str()));
        rows
    };

    let mut single = Fleet::new(with_content, &["empty"]);
    let list = single.list(&names);
    let run = single.run(&[
        "bulk",
        "run",
        "--repos",
        list.to_str().unwrap(),
        "--results",
        "all.jsonl",
        "--no-render",
    ]);
    assert_eq!(run.code, 1);
    let expected = rows_without_time(single.rows("all.jsonl"));
    assert_eq!(expected.len(), 6);
    single.assert_no_token();

    let mut sharded = Fleet::new(with_content, &["empty"]);
    let list = sharded.list(&names);
    let list = list.to_str().unwrap();
    let plan = sharded.run(&["bulk", "plan", "--repos", list, "--shards", "2"]);
    assert_eq!(plan.code, 0);
    let matrix: Value = serde_json::from_str(plan.stdout.trim()).unwrap();
    let sizes: Vec<u64> = matrix["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["repositories"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes.len(), 2);
    assert!(
        sizes.iter().all(|&n| n > 0),
        "both shards have work: {sizes:?}"
    );
    for (i, shard) in ["1/2", "2/2"].iter().enumerate() {
        let file = format!("shard{}.jsonl", i + 1);
        let r = sharded.run(&[
            "bulk",
            "run",
            "--repos",
            list,
            "--shard",
            shard,
            "--results",
            &file,
            "--no-render",
        ]);
        assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
        assert_eq!(sharded.rows(&file).len() as u64, sizes[i], "shard {shard}");
    }
    let merged = sharded.run(&[
        "bulk",
        "report",
        "--merge",
        "shard1.jsonl",
        "shard2.jsonl",
        "--format",
        "json",
    ]);
    assert_eq!(merged.code, 1, "the merged table has the failed repository");
    let got: Vec<Value> = merged
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows_without_time(got), expected);
    let table = sharded.run(&["bulk", "report", "--merge", "shard1.jsonl", "shard2.jsonl"]);
    assert!(
        table.stdout.contains("6 repositories: 5 created, 1 failed"),
        "{}",
        table.stdout
    );
    sharded.assert_no_token();
}

/// Acceptance 3: a write answered 403 with `retry-after: 2` is retried after two seconds and
/// the run succeeds; no two writes reach GitHub less than a second apart, across
/// repositories.
#[test]
fn rate_limited_write_waits_and_writes_stay_a_second_apart() {
    if !ready() {
        return;
    }
    let apps = ["checkout", "catalog", "payments"];
    let mut fleet = Fleet::new(&apps, &[]);
    fleet
        .gh
        .inject_write_failure(403, Some(2), "You have exceeded a secondary rate limit.");
    let list = fleet.list(&apps);
    let run = fleet.run(&[
        "bulk",
        "run",
        "--repos",
        list.to_str().unwrap(),
        "--results",
        "r.jsonl",
        "--concurrency",
        "3",
        "--no-render",
        "--label",
        "gateway-api",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = fleet.rows("r.jsonl");
    for app in apps {
        assert_eq!(op(&rows, app), "created");
    }
    let writes = fleet.gh.writes();
    // Three pull requests and their labels, plus the refused first attempt.
    assert_eq!(writes.len(), 7, "{writes:#?}");
    assert_eq!((writes[0].method.as_str(), writes[0].status), ("POST", 403));
    assert_eq!(
        writes[1].path, writes[0].path,
        "the refused write is retried"
    );
    let waited = writes[1].at - writes[0].at;
    assert!(
        waited >= Duration::from_secs(2),
        "retry-after honoured: {waited:?}"
    );
    for pair in writes.windows(2) {
        let gap = pair[1].at - pair[0].at;
        assert!(
            gap >= Duration::from_secs(1),
            "writes {gap:?} apart: {pair:#?}"
        );
    }
    fleet.assert_no_token();
}

/// `--dry-run` prints each repository's report and diff and writes nothing anywhere.
#[test]
fn dry_run_shows_diffs_and_pushes_nothing() {
    if !ready() {
        return;
    }
    let apps = ["checkout", "catalog"];
    let mut fleet = Fleet::new(&apps, &[]);
    let list = fleet.list(&apps);
    let run = fleet.run(&[
        "bulk",
        "run",
        "--repos",
        list.to_str().unwrap(),
        "--results",
        "r.jsonl",
        "--dry-run",
        "--no-render",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for app in apps {
        assert!(
            run.stdout.contains(&format!("==> {OWNER}/{app}")),
            "{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains("+kind: HTTPRoute"), "{}", run.stdout);
    assert!(fleet.gh.writes().is_empty(), "{:#?}", fleet.gh.writes());
    let git_log = fleet.git.log.lock().unwrap().clone();
    assert!(
        !git_log.iter().any(|l| l.contains("receive-pack")),
        "nothing pushed: {git_log:#?}"
    );
    let rows = fleet.rows("r.jsonl");
    assert!(
        rows.iter()
            .all(|r| r["operation"] == "skipped" && r["dry_run"] == true),
        "{rows:#?}"
    );
    // A dry run is not work done: resuming after it runs every repository.
    let real = fleet.run(&[
        "bulk",
        "run",
        "--repos",
        list.to_str().unwrap(),
        "--results",
        "r.jsonl",
        "--resume",
        "--no-render",
    ]);
    assert_eq!(real.code, 0, "{}", real.stderr);
    let rows = fleet.rows("r.jsonl");
    for app in apps {
        let full = format!("{OWNER}/{app}");
        assert!(
            rows.iter()
                .any(|r| r["repo"] == full.as_str() && r["operation"] == "created"),
            "{rows:#?}"
        );
    }
    assert_eq!(fleet.gh.prs().len(), 2);
    // Without --results a dry run leaves the default results file alone.
    let default = fleet.path("gateway-migrate-results.jsonl");
    std::fs::write(&default, "{}\n").unwrap();
    let again = fleet.run(&[
        "bulk",
        "run",
        "--repos",
        list.to_str().unwrap(),
        "--dry-run",
        "--no-render",
    ]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(std::fs::read_to_string(&default).unwrap(), "{}\n");
    fleet.assert_no_token();
}

/// `--org ORG --topic T` lists the organisation through the API; archived repositories are
/// skipped, repositories the token cannot push to or that do not exist fail, and none of
/// them stops the others.
#[test]
fn organisation_topic_selection_and_repositories_that_cannot_be_migrated() {
    if !ready() {
        return;
    }
    let mut fleet = Fleet::new(&["checkout", "archive", "readonly", "untagged"], &[]);
    let set = |gh: &SimGitHub, name: &str, archived: bool, can_push: bool, topic: bool| {
        gh.add_repo(
            &format!("{OWNER}/{name}"),
            SimRepo {
                default_branch: "main".into(),
                archived,
                can_push,
                topics: if topic {
                    vec!["gateway-api".into()]
                } else {
                    vec![]
                },
            },
        );
    };
    set(&fleet.gh, "archive", true, true, true);
    set(&fleet.gh, "readonly", false, false, true);
    set(&fleet.gh, "untagged", false, true, false);
    let plan = fleet.run(&[
        "bulk",
        "plan",
        "--org",
        OWNER,
        "--topic",
        "gateway-api",
        "--shards",
        "8",
    ]);
    assert_eq!(plan.code, 0, "{}", plan.stderr);
    let matrix: Value = serde_json::from_str(plan.stdout.trim()).unwrap();
    let include = matrix["include"].as_array().unwrap();
    let listed: u64 = include
        .iter()
        .map(|e| e["repositories"].as_u64().unwrap())
        .sum();
    assert_eq!(listed, 3, "three repositories carry the topic: {matrix}");
    assert!(
        include
            .iter()
            .all(|e| e["shard"].as_str().unwrap().ends_with("/3")),
        "eight shards asked, three repositories: {matrix}"
    );
    let run = fleet.run(&[
        "bulk",
        "run",
        "--org",
        OWNER,
        "--topic",
        "gateway-api",
        "acme/missing",
        "--results",
        "r.jsonl",
        "--no-render",
    ]);
    assert_eq!(run.code, 1);
    let rows = fleet.rows("r.jsonl");
    assert_eq!(rows.len(), 4, "{rows:#?}");
    assert_eq!(op(&rows, "checkout"), "created");
    assert_eq!(op(&rows, "archive"), "skipped");
    assert_eq!(op(&rows, "readonly"), "failed");
    assert!(
        row(&rows, "readonly")["error"]
            .as_str()
            .unwrap()
            .contains("may not push")
    );
    assert_eq!(op(&rows, "missing"), "failed");
    assert!(
        row(&rows, "missing")["error"]
            .as_str()
            .unwrap()
            .contains("404"),
        "{rows:#?}"
    );
    assert_eq!(fleet.gh.prs().len(), 1);

    // The permission is granted; `--retry-failed` runs the failed repositories again and
    // leaves the others alone.
    set(&fleet.gh, "readonly", false, true, true);
    let before = fleet.gh.log().len();
    let retry = fleet.run(&[
        "bulk",
        "run",
        "--org",
        OWNER,
        "--topic",
        "gateway-api",
        "acme/missing",
        "--results",
        "r.jsonl",
        "--no-render",
        "--resume",
        "--retry-failed",
    ]);
    assert_eq!(retry.code, 1, "acme/missing still fails");
    let merged = fleet.run(&["bulk", "report", "--merge", "r.jsonl", "--format", "json"]);
    let rows: Vec<Value> = merged
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(op(&rows, "readonly"), "created");
    assert_eq!(op(&rows, "checkout"), "created");
    let touched = fleet.gh.log()[before..].to_vec();
    assert!(
        !touched
            .iter()
            .any(|l| l.contains("/checkout") || l.contains("/archive")),
        "{touched:#?}"
    );
    fleet.assert_no_token();
}

/// A token GitHub rejects (401) would fail every repository: the run stops at once, exits 2,
/// and writes no row, so that `--resume` with a good token does them all.
#[test]
fn a_rejected_token_stops_the_run_without_rows() {
    if !ready() {
        return;
    }
    let apps = ["checkout", "catalog", "payments"];
    let mut fleet = Fleet::new(&apps, &[]);
    let list = fleet.list(&apps);
    let list = list.to_str().unwrap();
    let wrong = "ghp_REVOKEDrevoked0123456789abcdef";
    let out = fleet
        .command(&[
            "bulk",
            "run",
            "--repos",
            list,
            "--results",
            "r.jsonl",
            "--no-render",
        ])
        .env("GITHUB_TOKEN", wrong)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("rejected the token") && stderr.contains("--resume"),
        "{stderr}"
    );
    assert!(!stderr.contains(wrong), "{stderr}");
    assert!(fleet.rows("r.jsonl").is_empty());
    assert!(fleet.gh.writes().is_empty());
    let resumed = fleet.run(&[
        "bulk",
        "run",
        "--repos",
        list,
        "--results",
        "r.jsonl",
        "--no-render",
        "--resume",
    ]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(fleet.rows("r.jsonl").len(), 3);
    let left: Vec<_> = std::fs::read_dir(fleet.temp()).unwrap().flatten().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Usage errors exit 2 and name the problem before anything is cloned.
#[test]
fn usage_errors_exit_2_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let bad_list = dir.path().join("repos.txt");
    std::fs::write(&bad_list, "acme/web\nnot a repo\n").unwrap();
    let run = |args: &[&str], token: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"));
        cmd.args(args)
            .current_dir(dir.path())
            .env_remove("GITHUB_TOKEN")
            .env("GITHUB_API_URL", "http://127.0.0.1:9");
        if let Some(t) = token {
            cmd.env("GITHUB_TOKEN", t);
        }
        let out = cmd.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let list = bad_list.to_str().unwrap();
    let (code, err) = run(&["bulk", "run", "--repos", list], Some(TOKEN));
    assert_eq!(code, 2);
    assert!(err.contains("repos.txt:2: \"not a repo\""), "{err}");
    let (code, err) = run(&["bulk", "run", "acme/web"], None);
    assert_eq!(code, 2);
    assert!(err.contains("GITHUB_TOKEN"), "{err}");
    let (code, err) = run(
        &["bulk", "run", "acme/web", "--branch", "a..b"],
        Some(TOKEN),
    );
    assert_eq!(code, 2);
    assert!(err.contains("--branch \"a..b\""), "{err}");
    let (code, err) = run(&["bulk", "run", "acme/web", "--title", " "], Some(TOKEN));
    assert_eq!(code, 2);
    assert!(err.contains("--title"), "{err}");
    let (code, err) = run(&["bulk", "run", "acme/web", "--shard", "3/2"], Some(TOKEN));
    assert_eq!(code, 2);
    assert!(err.contains("--shard"), "{err}");
    let (code, err) = run(&["bulk", "plan", "acme/web", "--shards", "300"], None);
    assert_eq!(code, 2);
    assert!(err.contains("256"), "{err}");
    let (code, err) = run(&["bulk", "run"], Some(TOKEN));
    assert_eq!(code, 2);
    assert!(err.contains("--repos FILE"), "{err}");
    assert!(!Path::new(&dir.path().join("gateway-migrate-results.jsonl")).exists());
}

/// The text between `<!-- NAME:start -->` and `<!-- NAME:end -->` of docs/bulk.md, without its
/// code fence.
fn docs_block(name: &str) -> String {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/bulk.md"))
        .unwrap();
    let start = format!("<!-- {name}:start -->");
    let end = format!("<!-- {name}:end -->");
    let body = &doc[doc.find(&start).unwrap() + start.len()..doc.find(&end).unwrap()];
    let body = body.trim();
    let body = &body[body.find('\n').unwrap() + 1..];
    body.strip_suffix("```").unwrap().to_string()
}

fn tool(name: &str, version_flag: &str) -> bool {
    Command::new(name)
        .arg(version_flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Acceptance 4: the reusable workflow of docs/bulk.md passes actionlint.
#[test]
fn the_documented_reusable_workflow_passes_actionlint() {
    if !crate::common::required(
        tool("actionlint", "-version"),
        "actionlint",
        "the fleet workflow of docs/bulk.md",
    ) {
        return;
    }
    let workflow = docs_block("bulk-workflow");
    assert!(
        workflow.contains("workflow_call:")
            && workflow.contains("fromJSON(needs.plan.outputs.matrix)")
    );
    assert!(workflow.contains("bulk report --merge"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join(".github/workflows/gateway-migrate-fleet.yml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &workflow).unwrap();
    let out = Command::new("actionlint")
        .arg(&path)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "actionlint:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The multi-gitter script of docs/bulk.md, run as multi-gitter runs it (in the clone's root,
/// `REPOSITORY` set): `0` with the migrated files in the tree; `0` and no change where there is
/// nothing to migrate; `2` (the repository is skipped) on a fatal error.
#[test]
fn the_documented_multi_gitter_script_follows_the_exit_code_contract() {
    let script = docs_block("multi-gitter-script");
    let dir = tempfile::tempdir().unwrap();
    let script_path = dir.path().join("gateway-migrate-apply.sh");
    std::fs::write(&script_path, &script).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |repo: &Path| {
        let out = Command::new("sh")
            .arg(&script_path)
            .current_dir(repo)
            .env("PATH", &path)
            .env("REPOSITORY", "acme/demo")
            .env("GATEWAY_MIGRATE_CACHE_DIR", "")
            .output()
            .unwrap();
        assert!(
            out.stdout.is_empty(),
            "multi-gitter reads nothing from stdout"
        );
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let status = |repo: &Path| -> usize {
        Repository::open(repo)
            .unwrap()
            .statuses(None)
            .unwrap()
            .iter()
            .count()
    };
    let clone = |name: &str, from: Option<&Path>| -> PathBuf {
        let work = dir.path().join(name);
        match from {
            Some(src) => crate::common::copy_dir(src, &work),
            None => write(&work, "README.md", "# nothing to migrate\n"),
        }
        let mut init = RepositoryInitOptions::new();
        init.initial_head("main");
        let repo = Repository::init_opts(&work, &init).unwrap();
        commit_all(&repo, "Initial");
        work
    };

    let demo = clone(
        "demo",
        Some(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo")),
    );
    let (code, log) = run(&demo);
    assert_eq!(code, 0, "{log}");
    assert!(
        status(&demo) > 0,
        "the migration is in the tree for multi-gitter to commit"
    );
    let (code, log) = run(&demo);
    assert_eq!(code, 0, "a second run changes nothing: {log}");

    let plain = clone("plain", None);
    let (code, log) = run(&plain);
    assert_eq!(code, 0, "{log}");
    assert_eq!(status(&plain), 0, "nothing to commit, so no pull request");

    let broken = clone("broken", None);
    std::fs::write(broken.join(".gateway-migrate.yaml"), "chanel: standard\n").unwrap();
    let (code, log) = run(&broken);
    assert_eq!(code, 2, "{log}");
    assert!(log.contains("chanel"), "{log}");
}
