//! Helpers shared by integration tests: the corpus location, and for publishing a work clone
//! with a bare remote, a fake GitHub (wiremock), a `git http-backend` server, and the scenarios
//! every publish test file shares.

pub mod github_sim;
pub mod http_git;
pub mod scenarios;

use std::path::{Path, PathBuf};
use std::time::Duration;

use gateway_migrate::plan::{EditAction, EditKind, EditPlan, FileEdit};
use gateway_migrate::publish::{PublishOptions, RetryPolicy, Secret};
use git2::{Oid, Repository, RepositoryInitOptions, Signature};
use serde_json::{Value, json};
use wiremock::matchers::{body_json, header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// `../shared/corpus`, next to the crate (CI has it there).
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// Every file under `dir`, sorted, following no symlinks.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// Recognisable in any output it might leak into.
pub const TOKEN: &str = "ghp_LEAKCANARY0123456789abcdefXYZ";
pub const OWNER: &str = "acme";
pub const REPO: &str = "deploy";
pub const BRANCH: &str = "gateway-migrate/test";

/// A work clone (`work/`) whose `origin` is a bare repository (`remote.git`) on `main`.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub work: PathBuf,
    pub remote: PathBuf,
}

impl Fixture {
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let remote = dir.path().join("remote.git");
        let work = dir.path().join("work");
        let mut init = RepositoryInitOptions::new();
        init.bare(true).initial_head("main");
        Repository::init_opts(&remote, &init).unwrap();
        let mut init = RepositoryInitOptions::new();
        init.initial_head("main");
        let repo = Repository::init_opts(&work, &init).unwrap();
        write(&work, "apps/web/app.yaml", ISTIO_APP);
        write(
            &work,
            "apps/web/kustomization.yaml",
            "resources:\n  - app.yaml\n",
        );
        write(&work, "README.md", "# deploy\n");
        commit_all(&repo, "Initial manifests");
        let url = file_url(&remote);
        repo.remote("origin", &url).unwrap();
        let mut origin = repo.find_remote("origin").unwrap();
        origin
            .push(&["refs/heads/main:refs/heads/main"], None)
            .unwrap();
        Fixture { dir, work, remote }
    }

    pub fn work_repo(&self) -> Repository {
        Repository::open(&self.work).unwrap()
    }

    pub fn remote_repo(&self) -> Repository {
        Repository::open_bare(&self.remote).unwrap()
    }

    pub fn set_origin(&self, url: &str) {
        self.work_repo().remote_set_url("origin", url).unwrap();
    }

    /// The commit a branch of the remote points at.
    pub fn remote_tip(&self, branch: &str) -> Option<Oid> {
        self.remote_repo()
            .find_reference(&format!("refs/heads/{branch}"))
            .ok()
            .and_then(|r| r.target())
    }

    /// A file's contents on a branch of the remote.
    pub fn remote_file(&self, branch: &str, file: &str) -> Option<String> {
        let repo = self.remote_repo();
        let tip = self.remote_tip(branch)?;
        let tree = repo.find_commit(tip).ok()?.tree().ok()?;
        let entry = tree.get_path(Path::new(file)).ok()?;
        let blob = repo.find_blob(entry.id()).ok()?;
        Some(String::from_utf8_lossy(blob.content()).into_owned())
    }

    /// Message and parent ids of a remote commit.
    pub fn remote_commit(&self, id: Oid) -> (String, Vec<Oid>) {
        let repo = self.remote_repo();
        let c = repo.find_commit(id).unwrap();
        (
            c.message().unwrap_or_default().to_string(),
            c.parent_ids().collect(),
        )
    }

    /// A person's commit on top of a remote branch (as if pushed from a laptop).
    pub fn human_commit_on_remote(&self, branch: &str, file: &str, contents: &str) -> Oid {
        let repo = self.remote_repo();
        let tip = self.remote_tip(branch).unwrap();
        let parent = repo.find_commit(tip).unwrap();
        let mut index = git2::Index::new().unwrap();
        index.read_tree(&parent.tree().unwrap()).unwrap();
        let blob = repo.blob(contents.as_bytes()).unwrap();
        let mut entry = index.get_path(Path::new(file), 0).unwrap();
        entry.id = blob;
        entry.file_size = contents.len() as u32;
        index.add(&entry).unwrap();
        let tree = repo.find_tree(index.write_tree_to(&repo).unwrap()).unwrap();
        let sig = Signature::now("Dana Developer", "dana@example.com").unwrap();
        repo.commit(
            Some(&format!("refs/heads/{branch}")),
            &sig,
            &sig,
            "Tweak the generated route by hand",
            &tree,
            &[&parent],
        )
        .unwrap()
    }

    /// Fast retries so the fault scenarios finish quickly.
    pub fn options(&self, api_url: &str) -> PublishOptions {
        let mut o = PublishOptions::new(BRANCH, Secret::new(TOKEN));
        o.repository = Some(format!("{OWNER}/{REPO}"));
        o.api_url = api_url.to_string();
        o.labels = vec!["gateway-api".into()];
        o.author = Some("Migration Bot <bot@example.com>".into());
        o.retry = RetryPolicy {
            attempts: 3,
            base_delay: Duration::from_millis(20),
            max_delay: Duration::from_millis(100),
            max_wait: Duration::from_secs(5),
            secondary_wait: Duration::from_millis(200),
            mutation_interval: Duration::ZERO,
        };
        o
    }
}

pub const ISTIO_APP: &str = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: web\nspec:\n  hosts: [web.example.com]\n";

/// Copies the regular files and directories under `src` into `dst` (symlinks are left out).
pub fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for entry in std::fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        let ty = entry.file_type().unwrap();
        let to = dst.join(entry.file_name());
        if ty.is_dir() {
            copy_dir(&entry.path(), &to);
        } else if ty.is_file() {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
}

pub fn write(root: &Path, rel: &str, contents: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, contents).unwrap();
}

pub fn commit_all(repo: &Repository, message: &str) -> Oid {
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = Signature::now("Setup", "setup@example.com").unwrap();
    let parents: Vec<git2::Commit<'_>> = repo
        .head()
        .ok()
        .and_then(|h| h.peel_to_commit().ok())
        .into_iter()
        .collect();
    let parent_refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &parent_refs)
        .unwrap()
}

pub fn file_url(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// A plan with the translation of `apps/web/app.yaml` (contents vary per run) and the
/// kustomization listing it.
pub fn migration_plan(route_host: &str) -> EditPlan {
    EditPlan {
        edits: vec![
            FileEdit {
                path: "apps/web/app.gateway-api.yaml".into(),
                action: EditAction::Create,
                kind: EditKind::Generated,
                old: Vec::new(),
                contents: format!(
                    "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\nspec:\n  hostnames: [{route_host}]\n"
                )
                .into_bytes(),
            },
            FileEdit {
                path: "apps/web/kustomization.yaml".into(),
                action: EditAction::Update,
                kind: EditKind::Kustomization,
                old: Vec::new(),
                contents: b"resources:\n  - app.yaml\n  - app.gateway-api.yaml\n".to_vec(),
            },
        ],
        ..Default::default()
    }
}

/// A wiremock server playing GitHub, with the runtime that drives its setup calls.
pub struct FakeGitHub {
    pub rt: tokio::runtime::Runtime,
    pub server: MockServer,
}

impl FakeGitHub {
    pub fn start() -> FakeGitHub {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let server = rt.block_on(MockServer::start());
        FakeGitHub { rt, server }
    }

    pub fn uri(&self) -> String {
        self.server.uri()
    }

    pub fn mount(&self, mock: Mock) {
        self.rt.block_on(mock.mount(&self.server));
    }

    /// Forgets mocks and recorded requests (between runs of a scenario).
    pub fn reset(&self) {
        self.rt.block_on(self.server.reset());
    }

    /// Panics when an `expect(n)` of a mounted mock was not met.
    pub fn verify(&self) {
        self.rt.block_on(self.server.verify());
    }

    pub fn requests(&self) -> Vec<wiremock::Request> {
        self.rt
            .block_on(self.server.received_requests())
            .unwrap_or_default()
    }

    /// Method, URL and body of every request, for leak checks and counting.
    pub fn request_log(&self) -> Vec<String> {
        self.requests()
            .iter()
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.method,
                    r.url,
                    String::from_utf8_lossy(&r.body)
                )
            })
            .collect()
    }

    pub fn count(&self, verb: &str, path_suffix: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.method.as_str() == verb && r.url.path().ends_with(path_suffix))
            .count()
    }
}

/// GitHub's PR object, with the fields `pr` reads.
pub fn pr_json(number: u64, title: &str, body: &str, labels: &[&str]) -> Value {
    json!({
        "number": number,
        "state": "open",
        "html_url": format!("https://github.com/{OWNER}/{REPO}/pull/{number}"),
        "title": title,
        "body": body,
        "draft": false,
        "head": {"ref": BRANCH, "label": format!("{OWNER}:{BRANCH}")},
        "base": {"ref": "main"},
        "labels": labels.iter().map(|l| json!({"name": l})).collect::<Vec<_>>(),
    })
}

fn authed(m: wiremock::MockBuilder) -> wiremock::MockBuilder {
    m.and(header("authorization", format!("Bearer {TOKEN}").as_str()))
}

/// `GET /repos/{o}/{r}/pulls?state=open&head=o:branch`.
pub fn list_prs() -> wiremock::MockBuilder {
    authed(
        Mock::given(method("GET"))
            .and(path(format!("/repos/{OWNER}/{REPO}/pulls")))
            .and(query_param("state", "open"))
            .and(query_param("head", format!("{OWNER}:{BRANCH}").as_str())),
    )
}

/// `POST /repos/{o}/{r}/pulls {title, head, base, body, draft}`.
pub fn create_pr(title: &str, body: &str, draft: bool) -> wiremock::MockBuilder {
    authed(
        Mock::given(method("POST"))
            .and(path(format!("/repos/{OWNER}/{REPO}/pulls")))
            .and(body_json(json!({
                "title": title,
                "head": BRANCH,
                "base": "main",
                "body": body,
                "draft": draft,
            }))),
    )
}

/// `PATCH /repos/{o}/{r}/pulls/{n}` with exactly `payload`.
pub fn patch_pr(number: u64, payload: Value) -> wiremock::MockBuilder {
    authed(
        Mock::given(method("PATCH"))
            .and(path(format!("/repos/{OWNER}/{REPO}/pulls/{number}")))
            .and(body_json(payload)),
    )
}

/// `POST /repos/{o}/{r}/issues/{n}/labels {labels}`.
pub fn add_labels(number: u64, labels: &[&str]) -> wiremock::MockBuilder {
    authed(
        Mock::given(method("POST"))
            .and(path(format!(
                "/repos/{OWNER}/{REPO}/issues/{number}/labels"
            )))
            .and(body_json(json!({ "labels": labels }))),
    )
}

/// Any request at all with this method (for `expect(0)` guards).
pub fn any(verb: &str) -> wiremock::MockBuilder {
    Mock::given(method(verb))
}

pub fn ok_json(status: u16, v: Value) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(v)
}

/// Whether something a test needs from outside the crate is there (`kubectl`, `man`,
/// `check-jsonschema`, `git http-backend`, the shared corpus). When it is not: under
/// `CI=true` the test fails (`.ci/run` installs everything), otherwise it prints a visible
/// skip line and the caller returns.
pub fn required(available: bool, what: &str, consequence: &str) -> bool {
    if available {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{what} is required in CI (.ci/run installs it)"
    );
    eprintln!(
        "\n\n!!!!!!!! SKIPPED: {what} is not there; {consequence} was NOT tested !!!!!!!!\n\n"
    );
    false
}

/// The documents of a YAML stream (`---` lines between them), empty ones left out: the
/// `objects` blocks of the semantics tables.
pub fn yaml_documents(text: &str) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines().chain(std::iter::once("---")) {
        if line.trim_end() == "---" {
            if let Some(v) = gateway_migrate::yaml::parse_document(&current).unwrap()
                && !v.is_null()
            {
                out.push(v);
            }
            current.clear();
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    out
}

/// A mapping of strings (`headers:`, `configMap:`), non-string values as their JSON text.
pub fn str_map(v: &serde_json::Value, key: &str) -> std::collections::BTreeMap<String, String> {
    v.get(key)
        .and_then(serde_json::Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    let text = match v {
                        serde_json::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (k.clone(), text)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A list of strings (`absentRequestHeaders:`, `flags:`).
pub fn str_list(v: &serde_json::Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .map(str::to_string)
        .collect()
}

/// Where `headers` miss the case's `{prefix}Headers` (name: value, the values of a name
/// joined by `,`) or hold one of its `absent{Prefix}Headers`: the semantics tables'
/// header expectations. `prefix` is `request` or `response`.
pub fn header_mismatch(
    case: &serde_json::Value,
    prefix: &str,
    headers: &[(String, String)],
) -> Option<String> {
    let value_of = |name: &str| -> Option<String> {
        let values: Vec<&str> = headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect();
        (!values.is_empty()).then(|| values.join(","))
    };
    let mut capitalised = prefix.to_string();
    capitalised[..1].make_ascii_uppercase();
    for (name, value) in str_map(case, &format!("{prefix}Headers")) {
        if value_of(&name).as_deref() != Some(value.as_str()) {
            return Some(format!("expected {prefix} header {name}: {value}"));
        }
    }
    for name in str_list(case, &format!("absent{capitalised}Headers")) {
        if value_of(&name).is_some() {
            return Some(format!("expected no {prefix} header {name}"));
        }
    }
    None
}
