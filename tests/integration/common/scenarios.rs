//! Every publishing scenario, as a function that asserts its own expectations and returns
//! everything it could observe (outcomes, errors, requests sent to GitHub), so that the
//! redaction test can run them all again and look for the token.

use std::time::{Duration, Instant};

use gateway_migrate::plan::{EditAction, EditKind, EditPlan, FileEdit};
use gateway_migrate::publish::{
    ErrorKind, Operation, PublishError, PublishOptions, PublishOutcome, publish,
};
use serde_json::json;
use wiremock::ResponseTemplate;

use super::http_git::{GitHttpServer, reject_pushes};
use super::*;

/// All text a scenario produced.
#[derive(Default)]
pub struct Transcript {
    pub texts: Vec<String>,
}

impl Transcript {
    fn outcome(&mut self, o: &PublishOutcome) {
        self.texts.push(o.render_text());
        self.texts.push(o.render_json());
        self.texts.push(o.github_output());
        self.texts.push(format!("{o:?}"));
    }

    fn error(&mut self, e: &PublishError) {
        self.texts.push(e.to_string());
        self.texts.push(format!("{e:?}"));
    }

    fn github(&mut self, gh: &FakeGitHub) {
        self.texts.extend(gh.request_log());
    }

    fn options(&mut self, o: &PublishOptions) {
        self.texts.push(format!("{o:?}"));
    }
}

pub const TITLE: &str = "Migrate to the Gateway API";
pub const BODY1: &str = "## Gateway API migration\n\n1 VirtualService translated.\n";
pub const BODY2: &str =
    "## Gateway API migration\n\n1 VirtualService translated (hosts changed).\n";

fn run(
    fx: &Fixture,
    plan: &EditPlan,
    body: &str,
    opts: &PublishOptions,
    t: &mut Transcript,
) -> Result<PublishOutcome, PublishError> {
    run_at(&fx.work, plan, body, opts, t)
}

fn run_at(
    root: &std::path::Path,
    plan: &EditPlan,
    body: &str,
    opts: &PublishOptions,
    t: &mut Transcript,
) -> Result<PublishOutcome, PublishError> {
    t.options(opts);
    let r = publish(root, plan, body, opts);
    match &r {
        Ok(o) => t.outcome(o),
        Err(e) => {
            // Shown with --nocapture: the messages users would read.
            eprintln!("error: {e}");
            t.error(e)
        }
    }
    r
}

/// Mocks of a first run that opens PR #7.
fn mount_first_run(gh: &FakeGitHub, body: &str) {
    gh.mount(list_prs().respond_with(ok_json(200, json!([]))).expect(1));
    gh.mount(
        create_pr(TITLE, body, false)
            .respond_with(ok_json(201, pr_json(7, TITLE, body, &[])))
            .expect(1),
    );
    gh.mount(
        add_labels(7, &["gateway-api"])
            .respond_with(ok_json(200, json!([{"name": "gateway-api"}])))
            .expect(1),
    );
}

/// First run: a new branch with one commit on the base head, and a new PR.
pub fn new_pr() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let main_before = fx.remote_tip("main").unwrap();
    let head_before = fx.work_repo().head().unwrap().target().unwrap();
    mount_first_run(&gh, BODY1);
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    assert_eq!(o.number, Some(7));
    assert_eq!(
        o.url.as_deref(),
        Some("https://github.com/acme/deploy/pull/7")
    );
    assert!(o.pushed);
    let tip = fx.remote_tip(BRANCH).expect("branch pushed");
    assert_eq!(o.head_sha, Some(tip.to_string()));
    let (message, parents) = fx.remote_commit(tip);
    assert_eq!(parents, vec![main_before], "one commit on the base head");
    assert!(
        message.ends_with("\n\nGenerated-by: gateway-migrate\n"),
        "{message}"
    );
    assert!(
        fx.remote_file(BRANCH, "apps/web/app.gateway-api.yaml")
            .unwrap()
            .contains("hostnames: [web.example.com]")
    );
    assert_eq!(
        fx.remote_file(BRANCH, "apps/web/kustomization.yaml")
            .unwrap(),
        "resources:\n  - app.yaml\n  - app.gateway-api.yaml\n"
    );
    assert_eq!(
        fx.remote_file(BRANCH, "apps/web/app.yaml").unwrap(),
        ISTIO_APP,
        "untouched files come from the base"
    );
    // The base branch, HEAD and the work tree are untouched; no local branch appears.
    assert_eq!(fx.remote_tip("main"), Some(main_before));
    let work = fx.work_repo();
    assert_eq!(work.head().unwrap().target(), Some(head_before));
    assert!(!fx.work.join("apps/web/app.gateway-api.yaml").exists());
    assert!(work.find_branch(BRANCH, git2::BranchType::Local).is_err());
    assert!(work.find_reference("refs/gateway-migrate/push").is_err());
    t
}

/// A re-run with new contents force-pushes and PATCHes PR #7; a third identical run changes
/// nothing. Never a second create.
pub fn rerun_updates_same_pr() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let main = fx.remote_tip("main").unwrap();
    mount_first_run(&gh, BODY1);
    let opts = fx.options(&gh.uri());
    run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap();
    let first_tip = fx.remote_tip(BRANCH).unwrap();
    t.github(&gh);
    gh.reset();

    gh.mount(
        list_prs()
            .respond_with(ok_json(
                200,
                json!([pr_json(7, TITLE, BODY1, &["gateway-api"])]),
            ))
            .expect(1),
    );
    gh.mount(
        patch_pr(7, json!({"title": TITLE, "body": BODY2}))
            .respond_with(ok_json(200, pr_json(7, TITLE, BODY2, &["gateway-api"])))
            .expect(1),
    );
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let o = run(
        &fx,
        &migration_plan("www.example.com"),
        BODY2,
        &opts,
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Updated);
    assert_eq!(o.number, Some(7));
    assert!(o.pushed);
    let second_tip = fx.remote_tip(BRANCH).unwrap();
    assert_ne!(second_tip, first_tip);
    assert_eq!(
        fx.remote_commit(second_tip).1,
        vec![main],
        "replaced, not stacked"
    );
    assert!(
        fx.remote_file(BRANCH, "apps/web/app.gateway-api.yaml")
            .unwrap()
            .contains("www.example.com")
    );
    gh.reset();

    gh.mount(
        list_prs()
            .respond_with(ok_json(
                200,
                json!([pr_json(7, TITLE, BODY2, &["gateway-api"])]),
            ))
            .expect(1),
    );
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    gh.mount(
        any("PATCH")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let o = run(
        &fx,
        &migration_plan("www.example.com"),
        BODY2,
        &opts,
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::None);
    assert_eq!(o.number, Some(7));
    assert!(!o.pushed);
    assert_eq!(fx.remote_tip(BRANCH), Some(second_tip));
    t
}

/// An empty plan, or one whose contents equal the base: no push, no PR.
pub fn no_change() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    gh.mount(list_prs().respond_with(ok_json(200, json!([]))).expect(2));
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    gh.mount(
        any("PATCH")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let opts = fx.options(&gh.uri());
    let o = run(&fx, &EditPlan::default(), BODY1, &opts, &mut t).unwrap();
    assert_eq!(o.operation, Operation::None);
    assert_eq!(o.number, None);
    assert!(!o.pushed);
    let same = EditPlan {
        edits: vec![FileEdit {
            path: "apps/web/app.yaml".into(),
            action: EditAction::Update,
            kind: EditKind::InPlace,
            old: Vec::new(),
            contents: ISTIO_APP.as_bytes().to_vec(),
        }],
        ..Default::default()
    };
    let o = run(&fx, &same, BODY1, &opts, &mut t).unwrap();
    assert_eq!(o.operation, Operation::None);
    gh.verify();
    t.github(&gh);
    assert_eq!(fx.remote_tip(BRANCH), None, "nothing pushed");
    t
}

/// Nothing to change any more: the open PR is left, or closed with `--close-stale`.
pub fn stale_pr_closed() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    mount_first_run(&gh, BODY1);
    let mut opts = fx.options(&gh.uri());
    run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap();
    let tip = fx.remote_tip(BRANCH).unwrap();
    t.github(&gh);
    gh.reset();

    let open = pr_json(7, TITLE, BODY1, &["gateway-api"]);
    gh.mount(
        list_prs()
            .respond_with(ok_json(200, json!([open.clone()])))
            .expect(1),
    );
    gh.mount(
        any("PATCH")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let o = run(&fx, &EditPlan::default(), BODY1, &opts, &mut t).unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::None);
    assert_eq!(o.number, Some(7), "the open PR is reported, and left open");
    gh.reset();

    opts.close_stale = true;
    let mut closed = open.clone();
    closed["state"] = json!("closed");
    gh.mount(
        list_prs()
            .respond_with(ok_json(200, json!([open])))
            .expect(1),
    );
    gh.mount(
        patch_pr(7, json!({"state": "closed"}))
            .respond_with(ok_json(200, closed))
            .expect(1),
    );
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let o = run(&fx, &EditPlan::default(), BODY1, &opts, &mut t).unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Closed);
    assert_eq!(o.number, Some(7));
    assert!(!o.pushed);
    assert_eq!(fx.remote_tip(BRANCH), Some(tip), "closing pushes nothing");
    t
}

/// A person committed on the tool's branch: refuse, push nothing, call no API.
pub fn foreign_commit_refused() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    mount_first_run(&gh, BODY1);
    let opts = fx.options(&gh.uri());
    run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap();
    t.github(&gh);
    gh.reset();
    let human = fx.human_commit_on_remote(BRANCH, "apps/web/app.gateway-api.yaml", "# mine\n");
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    gh.mount(
        any("PATCH")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let e = run(
        &fx,
        &migration_plan("www.example.com"),
        BODY2,
        &opts,
        &mut t,
    )
    .unwrap_err();
    gh.verify();
    t.github(&gh);
    assert_eq!(e.kind, ErrorKind::ForeignCommits);
    let text = e.to_string();
    assert!(text.contains(&human.to_string()[..10]), "{text}");
    assert!(text.contains("Dana Developer"), "{text}");
    assert!(text.contains("Generated-by: gateway-migrate"), "{text}");
    assert!(text.contains("--branch"), "says what to do: {text}");
    assert_eq!(
        fx.remote_tip(BRANCH),
        Some(human),
        "the person's commit survives"
    );
    t
}

/// GitHub answers 502 once; the retry succeeds.
pub fn bad_gateway_then_success() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    gh.mount(
        list_prs()
            .respond_with(ResponseTemplate::new(502))
            .up_to_n_times(1)
            .expect(1),
    );
    mount_first_run(&gh, BODY1);
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    assert_eq!(gh.count("GET", "/pulls"), 2);
    assert_eq!(gh.count("POST", "/pulls"), 1);
    t
}

/// A secondary rate limit (403 + `retry-after: 1`) on create: wait a second, then succeed.
pub fn secondary_rate_limit_then_success() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    gh.mount(
        create_pr(TITLE, BODY1, false)
            .respond_with(
                ResponseTemplate::new(403)
                    .insert_header("retry-after", "1")
                    .set_body_json(json!({
                        "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
                        "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
                    })),
            )
            .up_to_n_times(1)
            .expect(1),
    );
    mount_first_run(&gh, BODY1);
    let started = Instant::now();
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    let elapsed = started.elapsed();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    assert_eq!(gh.count("POST", "/pulls"), 2);
    let posts: Vec<_> = gh
        .requests()
        .into_iter()
        .filter(|r| r.method.as_str() == "POST" && r.url.path().ends_with("/pulls"))
        .collect();
    assert_eq!(posts.len(), 2);
    assert!(elapsed >= Duration::from_secs(1), "waited {elapsed:?}");
    t
}

/// A primary limit exhausted (429, `x-ratelimit-remaining: 0`, reset in a second).
pub fn rate_limit_reset_then_success() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let reset = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 1;
    gh.mount(
        list_prs()
            .respond_with(
                ResponseTemplate::new(429)
                    .insert_header("x-ratelimit-remaining", "0")
                    .insert_header("x-ratelimit-reset", reset.to_string().as_str())
                    .set_body_json(json!({"message": "API rate limit exceeded"})),
            )
            .up_to_n_times(1)
            .expect(1),
    );
    mount_first_run(&gh, BODY1);
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    t
}

/// Create answers 422 "A pull request already exists": find it and update it.
pub fn already_exists_updates() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    gh.mount(
        list_prs()
            .respond_with(ok_json(200, json!([])))
            .up_to_n_times(1)
            .expect(1),
    );
    gh.mount(
        list_prs()
            .respond_with(ok_json(200, json!([pr_json(9, "Old title", "old", &[])])))
            .expect(1),
    );
    gh.mount(
        create_pr(TITLE, BODY1, false)
            .respond_with(ok_json(
                422,
                json!({
                    "message": "Validation Failed",
                    "errors": [{"resource": "PullRequest", "code": "custom",
                                "message": "A pull request already exists for acme:gateway-migrate/test."}],
                    "documentation_url": "https://docs.github.com/rest/pulls/pulls#create-a-pull-request"
                }),
            ))
            .expect(1),
    );
    gh.mount(
        patch_pr(9, json!({"title": TITLE, "body": BODY1}))
            .respond_with(ok_json(200, pr_json(9, TITLE, BODY1, &[])))
            .expect(1),
    );
    gh.mount(
        add_labels(9, &["gateway-api"])
            .respond_with(ok_json(200, json!([{"name": "gateway-api"}])))
            .expect(1),
    );
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Updated);
    assert_eq!(o.number, Some(9));
    t
}

/// The push worked, then GitHub failed every create: the error says to re-run, and the
/// re-run opens the PR without pushing again.
pub fn pushed_then_failed_completes_on_rerun() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let opts = fx.options(&gh.uri());
    gh.mount(list_prs().respond_with(ok_json(200, json!([]))));
    gh.mount(
        create_pr(TITLE, BODY1, false)
            .respond_with(ok_json(500, json!({"message": "Server Error"})))
            .expect(3),
    );
    let e = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap_err();
    gh.verify();
    t.github(&gh);
    assert_eq!(e.kind, ErrorKind::GitHub);
    assert!(e.to_string().contains("re-run"), "{e}");
    let tip = fx.remote_tip(BRANCH).expect("pushed before the API failed");
    gh.reset();

    mount_first_run(&gh, BODY1);
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    assert!(!o.pushed, "the branch was already right");
    assert_eq!(o.head_sha, Some(tip.to_string()));
    t
}

/// Changes outside the plan stop the run unless `--allow-dirty`; they are never committed.
pub fn dirty_tree_refused() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    write(&fx.work, "notes.txt", "scratch\n");
    write(&fx.work, "README.md", "# deploy (edited)\n");
    let mut opts = fx.options(&gh.uri());
    let e = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::DirtyTree);
    let text = e.to_string();
    assert!(
        text.contains("README.md") && text.contains("notes.txt"),
        "{text}"
    );
    assert!(text.contains("--allow-dirty"), "{text}");
    assert_eq!(fx.remote_tip(BRANCH), None);
    assert!(gh.requests().is_empty(), "refused before any API call");

    opts.allow_dirty = true;
    mount_first_run(&gh, BODY1);
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    assert_eq!(fx.remote_file(BRANCH, "notes.txt"), None);
    assert_eq!(fx.remote_file(BRANCH, "README.md").unwrap(), "# deploy\n");
    t
}

/// `--branch main` would commit to the base: refused.
pub fn base_branch_refused() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let main = fx.remote_tip("main");
    let mut opts = fx.options(&gh.uri());
    opts.branch = "main".into();
    let e = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Usage);
    assert!(e.to_string().contains("base"), "{e}");
    assert_eq!(fx.remote_tip("main"), main);
    t
}

/// GitHub says 401 Bad credentials: an auth error naming the variable, not the value.
pub fn bad_credentials() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    gh.mount(list_prs().respond_with(ok_json(
        401,
        json!({"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}),
    )));
    let e = run(
        &fx,
        &EditPlan::default(),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap_err();
    t.github(&gh);
    assert_eq!(e.kind, ErrorKind::TokenRejected);
    assert!(e.to_string().contains("GITHUB_TOKEN"), "{e}");
    assert!(e.to_string().contains("Bad credentials"), "{e}");
    t
}

/// A report that happens to contain the token is masked before it becomes the PR body.
pub fn token_in_report_is_masked() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let leaky = format!("{BODY1}\nSecret value seen: {TOKEN}\n");
    let masked = format!("{BODY1}\nSecret value seen: ***\n");
    mount_first_run(&gh, &masked);
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        &leaky,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    t
}

/// The remote over HTTP (`git http-backend` behind Basic auth): the token is the password.
pub fn http_remote_push() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let server = GitHttpServer::start(fx.dir.path(), TOKEN);
    fx.set_origin(&format!("{}/remote.git", server.base_url));
    let gh = FakeGitHub::start();
    mount_first_run(&gh, BODY1);
    let o = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    let creds = server.credentials.lock().unwrap().clone();
    assert!(
        creds.contains(&("x-access-token".to_string(), TOKEN.to_string())),
        "token sent as password"
    );
    let log = server.log.lock().unwrap().clone();
    assert!(
        log.iter()
            .any(|l| l.starts_with("POST /remote.git/git-receive-pack -> 200")),
        "{log:?}"
    );
    assert!(
        fx.remote_file(BRANCH, "apps/web/app.gateway-api.yaml")
            .is_some()
    );
    drop(server);
    t
}

/// The HTTP remote refuses the token: one retry of the credentials at most, then an error
/// that names the variable.
pub fn http_remote_wrong_token() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let server = GitHttpServer::start(fx.dir.path(), "the-right-password");
    fx.set_origin(&format!("{}/remote.git", server.base_url));
    let gh = FakeGitHub::start();
    let e = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap_err();
    t.github(&gh);
    assert_eq!(e.kind, ErrorKind::Auth, "{e}");
    assert!(e.to_string().contains("GITHUB_TOKEN"), "{e}");
    assert!(e.to_string().contains("contents: write"), "{e}");
    let offered = server.credentials.lock().unwrap().len();
    assert!(
        (1..=2).contains(&offered),
        "bounded credential attempts: {offered}"
    );
    assert!(gh.requests().is_empty());
    drop(server);
    t
}

/// A server hook refuses the ref: an error, not success, and no PR.
pub fn http_remote_rejects_ref() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    reject_pushes(&fx.remote, "branch creation is restricted");
    let server = GitHttpServer::start(fx.dir.path(), TOKEN);
    fx.set_origin(&format!("{}/remote.git", server.base_url));
    let gh = FakeGitHub::start();
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let e = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap_err();
    gh.verify();
    t.github(&gh);
    assert_eq!(e.kind, ErrorKind::PushRejected, "{e}");
    assert!(e.to_string().contains(BRANCH), "{e}");
    assert!(
        e.to_string().contains("branch creation is restricted"),
        "the server's reason is passed on: {e}"
    );
    assert_eq!(fx.remote_tip(BRANCH), None);
    drop(server);
    t
}

/// A remote URL with the token embedded (as some CI setups configure it) and a server that
/// refuses it: the error names the remote without the credentials.
pub fn http_remote_url_with_credentials() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let server = GitHttpServer::start(fx.dir.path(), "the-right-password");
    let authority = server.base_url.trim_start_matches("http://");
    fx.set_origin(&format!(
        "http://x-access-token:{TOKEN}@{authority}/remote.git"
    ));
    let gh = FakeGitHub::start();
    let e = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Auth, "{e}");
    assert!(
        e.to_string()
            .contains(&format!("http://***@{authority}/remote.git")),
        "{e}"
    );
    drop(server);
    t
}

/// Output of one run of the `gateway-migrate` binary.
pub struct CliRun {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub github_output: String,
}

/// Runs `gateway-migrate pr` on the fixture as GitHub Actions would (environment only).
pub fn run_cli(
    fx: &Fixture,
    api_url: &str,
    token: Option<&str>,
    extra: &[&str],
    t: &mut Transcript,
) -> CliRun {
    let out_file = fx.dir.path().join("github_output");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"));
    cmd.arg("pr")
        .arg(&fx.work)
        .args(["--branch", BRANCH])
        .args(extra)
        .env_remove("GITHUB_TOKEN")
        .env("GITHUB_API_URL", api_url)
        .env("GITHUB_REPOSITORY", format!("{OWNER}/{REPO}"))
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", &out_file);
    if let Some(token) = token {
        cmd.env("GITHUB_TOKEN", token);
    }
    let out = cmd.output().unwrap();
    let run = CliRun {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        github_output: std::fs::read_to_string(&out_file).unwrap_or_default(),
    };
    t.texts.push(run.stdout.clone());
    t.texts.push(run.stderr.clone());
    t.texts.push(run.github_output.clone());
    run
}

/// The binary with nothing to change closes the open PR (`--close-stale`), prints JSON and
/// writes the step outputs.
pub fn cli_close_stale_json() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let open = pr_json(7, TITLE, BODY1, &[]);
    let mut closed = open.clone();
    closed["state"] = json!("closed");
    gh.mount(
        list_prs()
            .respond_with(ok_json(200, json!([open])))
            .expect(1),
    );
    gh.mount(
        patch_pr(7, json!({"state": "closed"}))
            .respond_with(ok_json(200, closed))
            .expect(1),
    );
    let run = run_cli(
        &fx,
        &gh.uri(),
        Some(TOKEN),
        &["--close-stale", "--format", "json"],
        &mut t,
    );
    gh.verify();
    t.github(&gh);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["operation"], "closed");
    assert_eq!(v["number"], 7);
    assert_eq!(v["url"], "https://github.com/acme/deploy/pull/7");
    assert!(
        run.github_output
            .contains("pull-request-operation=closed\n"),
        "{}",
        run.github_output
    );
    assert!(run.github_output.contains("pull-request-number=7\n"));
    t
}

/// The binary with nothing to change and no PR: `none`, exit 0, text on stdout.
pub fn cli_none_text() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    gh.mount(list_prs().respond_with(ok_json(200, json!([]))).expect(1));
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let run = run_cli(&fx, &gh.uri(), Some(TOKEN), &[], &mut t);
    gh.verify();
    t.github(&gh);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("none: nothing to change against main"),
        "{}",
        run.stdout
    );
    assert!(run.github_output.contains("pull-request-operation=none\n"));
    t
}

/// Failures of the binary: exit 2 and a message that says what to do.
pub fn cli_failures() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    let run = run_cli(&fx, &gh.uri(), None, &[], &mut t);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("no token: GITHUB_TOKEN is empty or not set"),
        "{}",
        run.stderr
    );

    gh.mount(list_prs().respond_with(ok_json(401, json!({"message": "Bad credentials"}))));
    let run = run_cli(&fx, &gh.uri(), Some(TOKEN), &[], &mut t);
    t.github(&gh);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("Bad credentials"), "{}", run.stderr);
    assert!(
        run.stderr.contains("hint: set GITHUB_TOKEN"),
        "{}",
        run.stderr
    );

    let server = GitHttpServer::start(fx.dir.path(), "the-right-password");
    fx.set_origin(&format!("{}/remote.git", server.base_url));
    let run = run_cli(&fx, &gh.uri(), Some(TOKEN), &[], &mut t);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("rejected the token from GITHUB_TOKEN"),
        "{}",
        run.stderr
    );
    drop(server);
    t
}

/// `pr apps/` in a clone: plan paths are relative to the scanned directory.
pub fn subdirectory_root() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    mount_first_run(&gh, BODY1);
    let plan = EditPlan {
        edits: vec![FileEdit {
            path: "web/app.gateway-api.yaml".into(),
            action: EditAction::Create,
            kind: EditKind::Generated,
            old: Vec::new(),
            contents: b"kind: HTTPRoute\n".to_vec(),
        }],
        ..Default::default()
    };
    let o = run_at(
        &fx.work.join("apps"),
        &plan,
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    assert_eq!(
        fx.remote_file(BRANCH, "apps/web/app.gateway-api.yaml")
            .as_deref(),
        Some("kind: HTTPRoute\n")
    );
    t
}

/// GitHub Enterprise: the API root has a path (`/api/v3`) that prefixes every call.
pub fn enterprise_base_path() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    gh.mount(
        Mock::given(wiremock::matchers::method("GET"))
            .and(wiremock::matchers::path(format!(
                "/api/v3/repos/{OWNER}/{REPO}/pulls"
            )))
            .and(wiremock::matchers::query_param(
                "head",
                format!("{OWNER}:{BRANCH}").as_str(),
            ))
            .and(wiremock::matchers::header(
                "authorization",
                format!("Bearer {TOKEN}").as_str(),
            ))
            .respond_with(ok_json(200, json!([])))
            .expect(1),
    );
    let opts = fx.options(&format!("{}/api/v3", gh.uri()));
    let o = run(&fx, &EditPlan::default(), BODY1, &opts, &mut t).unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::None);
    t
}

/// GitHub unreachable: bounded retries, then a network error that says to re-run.
pub fn github_unreachable() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let opts = fx.options(&format!("http://127.0.0.1:{port}"));
    let started = Instant::now();
    let e = run(&fx, &EditPlan::default(), BODY1, &opts, &mut t).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Network, "{e}");
    assert!(e.to_string().contains("3 attempts"), "{e}");
    assert!(e.to_string().contains("re-run"), "{e}");
    assert!(
        started.elapsed() >= Duration::from_millis(60),
        "backed off between attempts"
    );
    t
}

/// Shallow clones (actions/checkout's default), twice: the second time the base moved on and
/// the tool's old commit sits on a base commit the new clone does not have. The clones stay
/// as they were.
pub fn shallow_clones() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    fx.human_commit_on_remote("main", "README.md", "# deploy v1\n");
    let gh = FakeGitHub::start();
    let shallow = |name: &str| {
        let dir = fx.dir.path().join(name);
        let status = std::process::Command::new("git")
            .args(["clone", "-q", "--depth", "1", "--no-local"])
            .arg(file_url(&fx.remote))
            .arg(&dir)
            .status()
            .unwrap();
        assert!(status.success());
        let marker = std::fs::read_to_string(dir.join(".git/shallow")).unwrap();
        (dir, marker)
    };
    let still_intact = |dir: &std::path::Path, marker: &str| {
        assert_eq!(
            std::fs::read_to_string(dir.join(".git/shallow")).unwrap(),
            marker,
            "the clone stays shallow as it was"
        );
        let log = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["log", "--oneline"])
            .output()
            .unwrap();
        assert!(
            log.status.success(),
            "{}",
            String::from_utf8_lossy(&log.stderr)
        );
    };
    let opts = fx.options(&gh.uri());
    let (first, marker) = shallow("ci-run-1");
    mount_first_run(&gh, BODY1);
    let o = run_at(
        &first,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(o.operation, Operation::Created);
    still_intact(&first, &marker);
    gh.reset();

    let new_main = fx.human_commit_on_remote("main", "README.md", "# deploy v2\n");
    let (second, marker) = shallow("ci-run-2");
    gh.mount(
        list_prs()
            .respond_with(ok_json(
                200,
                json!([pr_json(7, TITLE, BODY1, &["gateway-api"])]),
            ))
            .expect(1),
    );
    gh.mount(
        any("POST")
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let o = run_at(
        &second,
        &migration_plan("web.example.com"),
        BODY1,
        &opts,
        &mut t,
    )
    .unwrap();
    gh.verify();
    t.github(&gh);
    assert_eq!(
        o.operation,
        Operation::Updated,
        "rebased onto the new base and pushed"
    );
    assert!(o.pushed);
    let tip = fx.remote_tip(BRANCH).unwrap();
    assert_eq!(fx.remote_commit(tip).1, vec![new_main]);
    assert_eq!(
        fx.remote_file(BRANCH, "README.md").unwrap(),
        "# deploy v2\n"
    );
    still_intact(&second, &marker);
    t
}

/// The base moved on since the checkout: the plan would not fit it, so refuse and say how
/// to catch up.
pub fn stale_checkout_refused() -> Transcript {
    let mut t = Transcript::default();
    let fx = Fixture::new();
    let gh = FakeGitHub::start();
    fx.human_commit_on_remote("main", "README.md", "# deploy v2\n");
    let e = run(
        &fx,
        &migration_plan("web.example.com"),
        BODY1,
        &fx.options(&gh.uri()),
        &mut t,
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::StaleCheckout, "{e}");
    assert!(e.to_string().contains("README.md"), "{e}");
    assert!(e.to_string().contains("git fetch origin main"), "{e}");
    assert_eq!(fx.remote_tip(BRANCH), None);
    assert!(gh.requests().is_empty());
    t
}

/// A scenario: runs, asserts, returns what it saw.
pub type Scenario = fn() -> Transcript;

/// Every scenario, for the redaction test.
pub const ALL: &[(&str, Scenario)] = &[
    ("new_pr", new_pr),
    ("rerun_updates_same_pr", rerun_updates_same_pr),
    ("no_change", no_change),
    ("stale_pr_closed", stale_pr_closed),
    ("foreign_commit_refused", foreign_commit_refused),
    ("bad_gateway_then_success", bad_gateway_then_success),
    (
        "secondary_rate_limit_then_success",
        secondary_rate_limit_then_success,
    ),
    (
        "rate_limit_reset_then_success",
        rate_limit_reset_then_success,
    ),
    ("already_exists_updates", already_exists_updates),
    (
        "pushed_then_failed_completes_on_rerun",
        pushed_then_failed_completes_on_rerun,
    ),
    ("dirty_tree_refused", dirty_tree_refused),
    ("base_branch_refused", base_branch_refused),
    ("bad_credentials", bad_credentials),
    ("token_in_report_is_masked", token_in_report_is_masked),
    ("http_remote_push", http_remote_push),
    ("http_remote_wrong_token", http_remote_wrong_token),
    ("http_remote_rejects_ref", http_remote_rejects_ref),
    (
        "http_remote_url_with_credentials",
        http_remote_url_with_credentials,
    ),
    ("subdirectory_root", subdirectory_root),
    ("enterprise_base_path", enterprise_base_path),
    ("github_unreachable", github_unreachable),
    ("shallow_clones", shallow_clones),
    ("stale_checkout_refused", stale_checkout_refused),
    ("cli_close_stale_json", cli_close_stale_json),
    ("cli_none_text", cli_none_text),
    ("cli_failures", cli_failures),
];
