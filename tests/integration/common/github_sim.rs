//! A stateful GitHub REST API on 127.0.0.1 for fleet runs: repositories (metadata, topics,
//! organisation listing with pagination), pull requests (list by head, create, update,
//! close) and labels, numbered per repository as GitHub does.
//!
//! Every request is checked against the shapes GitHub documents (REST API reference,
//! "Pulls", "Repos", "Issues > Labels"): the token as `Authorization: Bearer`, the
//! `X-GitHub-Api-Version` header, JSON bodies with the documented fields and types, a PR's
//! `head` and `base` naming branches that exist in the git repository served next to it.
//! A request that does not fit gets GitHub's error answer (401, 404, 422) and is recorded in
//! `violations`, which the tests assert empty. Mutating requests are timestamped on arrival.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Value, json};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

#[derive(Debug, Clone)]
pub struct SimRepo {
    pub default_branch: String,
    pub archived: bool,
    pub can_push: bool,
    pub topics: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct SimPr {
    pub repo: String,
    pub number: u64,
    pub head: String,
    pub base: String,
    pub title: String,
    pub body: String,
    pub open: bool,
    pub draft: bool,
    pub labels: Vec<String>,
}

/// A mutating request: when it arrived, what it was, what it got.
#[derive(Debug, Clone)]
pub struct Write {
    pub at: Instant,
    pub method: String,
    pub path: String,
    pub status: u16,
}

#[derive(Default)]
struct State {
    repos: BTreeMap<String, SimRepo>,
    prs: Vec<SimPr>,
    writes: Vec<Write>,
    log: Vec<String>,
    violations: Vec<String>,
    /// Answers for the next writes, in order: status, `retry-after`, message.
    injected: VecDeque<(u16, Option<u64>, String)>,
}

#[derive(Clone)]
struct Responder {
    state: Arc<Mutex<State>>,
    token: String,
    git_root: PathBuf,
}

pub struct SimGitHub {
    /// Drives the server's setup; kept for as long as the server lives.
    _rt: tokio::runtime::Runtime,
    pub server: MockServer,
    state: Arc<Mutex<State>>,
}

impl SimGitHub {
    /// Serves the API for repositories whose git side lives under `git_root` as
    /// `OWNER/NAME.git`; only `token` is accepted.
    pub fn start(git_root: &std::path::Path, token: &str) -> SimGitHub {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let server = rt.block_on(MockServer::builder().start());
        let state = Arc::new(Mutex::new(State::default()));
        let responder = Responder {
            state: state.clone(),
            token: token.to_string(),
            git_root: git_root.to_path_buf(),
        };
        rt.block_on(Mock::given(any()).respond_with(responder).mount(&server));
        SimGitHub {
            _rt: rt,
            server,
            state,
        }
    }

    pub fn uri(&self) -> String {
        self.server.uri()
    }

    pub fn add_repo(&self, full_name: &str, repo: SimRepo) {
        self.state
            .lock()
            .unwrap()
            .repos
            .insert(full_name.to_ascii_lowercase(), repo);
    }

    /// The next write is answered with `status` (and `retry-after`, and `message`) instead.
    pub fn inject_write_failure(&self, status: u16, retry_after: Option<u64>, message: &str) {
        self.state
            .lock()
            .unwrap()
            .injected
            .push_back((status, retry_after, message.to_string()));
    }

    pub fn prs(&self) -> Vec<SimPr> {
        self.state.lock().unwrap().prs.clone()
    }

    pub fn writes(&self) -> Vec<Write> {
        self.state.lock().unwrap().writes.clone()
    }

    /// `METHOD /path?query -> status` of every request, in order.
    pub fn log(&self) -> Vec<String> {
        self.state.lock().unwrap().log.clone()
    }

    pub fn violations(&self) -> Vec<String> {
        self.state.lock().unwrap().violations.clone()
    }
}

type Answer = (u16, ResponseTemplate);

fn reply(status: u16, body: impl serde::Serialize) -> Answer {
    (status, ResponseTemplate::new(status).set_body_json(body))
}

fn error(status: u16, message: &str) -> Answer {
    reply(
        status,
        json!({
            "message": message,
            "documentation_url": "https://docs.github.com/rest",
        }),
    )
}

fn validation_failed(resource: &str, field: &str, code: &str) -> Answer {
    reply(
        422,
        json!({
            "message": "Validation Failed",
            "errors": [{"resource": resource, "field": field, "code": code}],
            "documentation_url": "https://docs.github.com/rest",
        }),
    )
}

fn pr_json(pr: &SimPr) -> Value {
    let owner = pr.repo.split('/').next().unwrap_or_default();
    json!({
        "number": pr.number,
        "state": if pr.open { "open" } else { "closed" },
        "html_url": format!("https://github.com/{}/pull/{}", pr.repo, pr.number),
        "title": pr.title,
        "body": pr.body,
        "draft": pr.draft,
        "head": {"ref": pr.head, "label": format!("{owner}:{}", pr.head)},
        "base": {"ref": pr.base},
        "labels": pr.labels.iter().map(|l| json!({"name": l})).collect::<Vec<_>>(),
    })
}

fn repo_json(full_name: &str, r: &SimRepo) -> Value {
    json!({
        "full_name": full_name,
        "name": full_name.split('/').nth(1).unwrap_or_default(),
        "private": true,
        "archived": r.archived,
        "default_branch": r.default_branch,
        "topics": r.topics,
        "permissions": {"admin": false, "push": r.can_push, "pull": true},
    })
}

/// Checks that `body` is an object whose keys are among `allowed` with the right JSON types
/// (`"s"` string, `"b"` bool, `"a"` array of strings), and has every key of `required`.
fn check_body(body: &Value, allowed: &[(&str, &str)], required: &[&str]) -> Result<(), String> {
    let Some(map) = body.as_object() else {
        return Err("the body is not a JSON object".into());
    };
    for key in required {
        if !map.contains_key(*key) {
            return Err(format!("missing field {key}"));
        }
    }
    for (key, value) in map {
        let Some((_, ty)) = allowed.iter().find(|(k, _)| k == key) else {
            return Err(format!("undocumented field {key}"));
        };
        let ok = match *ty {
            "s" => value.is_string(),
            "b" => value.is_boolean(),
            "a" => value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)),
            _ => false,
        };
        if !ok {
            return Err(format!("field {key} has the wrong type"));
        }
    }
    Ok(())
}

/// The pull request `number` (a path segment) of repository `full`.
fn pull_request<'a>(
    st: &'a mut State,
    full: &str,
    number: &str,
) -> Result<Option<&'a mut SimPr>, String> {
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{number:?} is not a pull request number"))?;
    Ok(st
        .prs
        .iter_mut()
        .find(|p| p.repo == full && p.number == number))
}

impl Responder {
    fn branch_exists(&self, repo: &str, branch: &str) -> bool {
        git2::Repository::open_bare(self.git_root.join(format!("{repo}.git")))
            .ok()
            .is_some_and(|r| r.find_reference(&format!("refs/heads/{branch}")).is_ok())
    }

    fn handle(&self, req: &Request, st: &mut State) -> Result<Answer, String> {
        let auth = req
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if auth != format!("Bearer {}", self.token) {
            st.violations.push(format!(
                "{} {}: bad credentials",
                req.method,
                req.url.path()
            ));
            return Ok(error(401, "Bad credentials"));
        }
        if req
            .headers
            .get("x-github-api-version")
            .and_then(|v| v.to_str().ok())
            != Some("2022-11-28")
        {
            return Err("no X-GitHub-Api-Version: 2022-11-28 header".into());
        }
        let method = req.method.as_str().to_string();
        let segments: Vec<String> = req
            .url
            .path()
            .trim_matches('/')
            .split('/')
            .map(|s| s.to_string())
            .collect();
        let query: BTreeMap<String, String> = req.url.query_pairs().into_owned().collect();
        let body: Value = if req.body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&req.body).map_err(|e| format!("body is not JSON: {e}"))?
        };
        let seg: Vec<&str> = segments.iter().map(String::as_str).collect();
        match (method.as_str(), seg.as_slice()) {
            ("GET", ["orgs", org, "repos"]) => {
                let per_page: usize = query
                    .get("per_page")
                    .and_then(|p| p.parse().ok())
                    .unwrap_or(30);
                let page: usize = query.get("page").and_then(|p| p.parse().ok()).unwrap_or(1);
                if per_page == 0 || per_page > 100 || page == 0 {
                    return Err("per_page must be 1..=100 and page >= 1".into());
                }
                let prefix = format!("{}/", org.to_ascii_lowercase());
                let all: Vec<Value> = st
                    .repos
                    .iter()
                    .filter(|(n, _)| n.starts_with(&prefix))
                    .map(|(n, r)| repo_json(n, r))
                    .collect();
                let pageful: Vec<Value> = all
                    .into_iter()
                    .skip((page - 1) * per_page)
                    .take(per_page)
                    .collect();
                Ok(reply(200, pageful))
            }
            ("GET", ["repos", owner, name]) => {
                let full = format!("{owner}/{name}").to_ascii_lowercase();
                Ok(match st.repos.get(&full) {
                    Some(r) => reply(200, repo_json(&full, r)),
                    None => error(404, "Not Found"),
                })
            }
            ("GET", ["repos", owner, name, "pulls"]) => {
                let full = format!("{owner}/{name}").to_ascii_lowercase();
                if !st.repos.contains_key(&full) {
                    return Ok(error(404, "Not Found"));
                }
                let state = query.get("state").map_or("open", String::as_str);
                let head = query.get("head").cloned();
                let list: Vec<Value> = st
                    .prs
                    .iter()
                    .filter(|p| p.repo == full)
                    .filter(|p| match state {
                        "open" => p.open,
                        "closed" => !p.open,
                        _ => true,
                    })
                    .filter(|p| {
                        head.as_deref()
                            .is_none_or(|h| h == format!("{owner}:{}", p.head))
                    })
                    .map(pr_json)
                    .collect();
                Ok(reply(200, list))
            }
            ("POST", ["repos", owner, name, "pulls"]) => {
                let full = format!("{owner}/{name}").to_ascii_lowercase();
                let Some(repo) = st.repos.get(&full).cloned() else {
                    return Ok(error(404, "Not Found"));
                };
                check_body(
                    &body,
                    &[
                        ("title", "s"),
                        ("head", "s"),
                        ("base", "s"),
                        ("body", "s"),
                        ("draft", "b"),
                    ],
                    &["title", "head", "base"],
                )?;
                if repo.archived {
                    return Ok(error(403, "Repository was archived so is read-only."));
                }
                let head = body["head"].as_str().unwrap_or_default().to_string();
                let base = body["base"].as_str().unwrap_or_default().to_string();
                if !self.branch_exists(&full, &head) {
                    return Ok(validation_failed("PullRequest", "head", "invalid"));
                }
                if !self.branch_exists(&full, &base) {
                    return Ok(validation_failed("PullRequest", "base", "invalid"));
                }
                if st
                    .prs
                    .iter()
                    .any(|p| p.repo == full && p.open && p.head == head)
                {
                    return Ok(reply(
                        422,
                        json!({
                            "message": "Validation Failed",
                            "errors": [{"resource": "PullRequest", "code": "custom",
                                "message": format!("A pull request already exists for {owner}:{head}.")}],
                        }),
                    ));
                }
                let number = st.prs.iter().filter(|p| p.repo == full).count() as u64 + 1;
                let pr = SimPr {
                    repo: full,
                    number,
                    head,
                    base,
                    title: body["title"].as_str().unwrap_or_default().to_string(),
                    body: body["body"].as_str().unwrap_or_default().to_string(),
                    open: true,
                    draft: body["draft"].as_bool().unwrap_or(false),
                    labels: Vec::new(),
                };
                let answer = pr_json(&pr);
                st.prs.push(pr);
                Ok(reply(201, answer))
            }
            ("PATCH", ["repos", owner, name, "pulls", number]) => {
                let full = format!("{owner}/{name}").to_ascii_lowercase();
                check_body(
                    &body,
                    &[("title", "s"), ("body", "s"), ("state", "s"), ("base", "s")],
                    &[],
                )?;
                if let Some(s) = body.get("state").and_then(Value::as_str)
                    && s != "open"
                    && s != "closed"
                {
                    return Ok(validation_failed("PullRequest", "state", "invalid"));
                }
                let Some(pr) = pull_request(st, &full, number)? else {
                    return Ok(error(404, "Not Found"));
                };
                if let Some(t) = body.get("title").and_then(Value::as_str) {
                    pr.title = t.to_string();
                }
                if let Some(b) = body.get("body").and_then(Value::as_str) {
                    pr.body = b.to_string();
                }
                if let Some(s) = body.get("state").and_then(Value::as_str) {
                    pr.open = s == "open";
                }
                Ok(reply(200, pr_json(pr)))
            }
            ("POST", ["repos", owner, name, "issues", number, "labels"]) => {
                let full = format!("{owner}/{name}").to_ascii_lowercase();
                check_body(&body, &[("labels", "a")], &["labels"])?;
                let Some(pr) = pull_request(st, &full, number)? else {
                    return Ok(error(404, "Not Found"));
                };
                for l in body["labels"].as_array().into_iter().flatten() {
                    let l = l.as_str().unwrap_or_default().to_string();
                    if !pr.labels.contains(&l) {
                        pr.labels.push(l);
                    }
                }
                let labels: Vec<Value> = pr.labels.iter().map(|l| json!({"name": l})).collect();
                Ok(reply(200, labels))
            }
            _ => Ok(error(404, "Not Found")),
        }
    }
}

impl Respond for Responder {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let mut st = self.state.lock().unwrap();
        let method = req.method.as_str().to_string();
        let target = match req.url.query() {
            Some(q) => format!("{}?{q}", req.url.path()),
            None => req.url.path().to_string(),
        };
        let mutating = method != "GET";
        let injected = if mutating {
            st.injected.pop_front()
        } else {
            None
        };
        let answer = match injected {
            Some((status, retry_after, message)) => {
                let (status, mut t) = error(status, &message);
                if let Some(s) = retry_after {
                    t = t.insert_header("retry-after", s.to_string().as_str());
                }
                (status, t)
            }
            None => self.handle(req, &mut st).unwrap_or_else(|why| {
                st.violations.push(format!("{method} {target}: {why}"));
                validation_failed("Request", "body", &why)
            }),
        };
        let (status, template) = answer;
        st.log.push(format!("{method} {target} -> {status}"));
        if mutating {
            st.writes.push(Write {
                at: Instant::now(),
                method,
                path: target,
                status,
            });
        }
        template
    }
}
