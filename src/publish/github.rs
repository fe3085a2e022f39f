//! The GitHub REST calls `pr` makes, through octocrab, with our own retry policy.
//!
//! octocrab's typed builders hide response headers, and GitHub's rate-limit instructions live
//! in headers (`retry-after`, `x-ratelimit-remaining`, `x-ratelimit-reset`). So we use
//! octocrab as the authenticated HTTP client (`_get`/`_post`/`_patch` with paths relative to
//! the base URI, which also makes GitHub Enterprise work) and decide about retries here:
//! 5xx and network errors are retried with exponential backoff; 403/429 rate limits wait as
//! long as GitHub asks; everything else is returned to the caller. Mutating calls are spaced
//! at least `mutation_interval` apart (GitHub's advice for secondary rate limits).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::{HeaderMap, HeaderName, StatusCode};
use octocrab::Octocrab;
use octocrab::service::middleware::retry::RetryConfig;
use serde_json::{Value, json};

use super::pace::Pacer;
use super::redact::Secret;
use super::{ErrorKind, PublishError, RetryPolicy};

/// The fields of a pull request `pr` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRequest {
    pub number: u64,
    pub url: String,
    pub title: String,
    pub body: String,
    pub labels: Vec<String>,
}

impl PullRequest {
    fn from_json(v: &Value) -> Option<PullRequest> {
        Some(PullRequest {
            number: v.get("number")?.as_u64()?,
            url: v
                .get("html_url")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            title: v
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            body: v
                .get("body")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            labels: v
                .get("labels")
                .and_then(Value::as_array)
                .map(|ls| {
                    ls.iter()
                        .filter_map(|l| l.get("name").and_then(Value::as_str))
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}

/// What `bulk run` needs to know of a repository before it clones it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepositoryInfo {
    /// `owner/repo` as GitHub spells it.
    pub full_name: String,
    pub default_branch: Option<String>,
    pub archived: bool,
    /// Whether the token may push (`permissions.push`); `None` when GitHub does not say.
    pub can_push: Option<bool>,
    pub topics: Vec<String>,
}

impl RepositoryInfo {
    fn from_json(v: &Value) -> Option<RepositoryInfo> {
        Some(RepositoryInfo {
            full_name: v.get("full_name")?.as_str()?.to_string(),
            default_branch: v
                .get("default_branch")
                .and_then(Value::as_str)
                .filter(|b| !b.is_empty())
                .map(str::to_string),
            archived: v.get("archived").and_then(Value::as_bool).unwrap_or(false),
            can_push: v.pointer("/permissions/push").and_then(Value::as_bool),
            topics: v
                .get("topics")
                .and_then(Value::as_array)
                .map(|ts| {
                    ts.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}

/// Result of `POST /pulls`.
#[derive(Debug)]
pub enum Created {
    New(PullRequest),
    /// 422 "A pull request already exists for …": someone (or an earlier run) got there first.
    AlreadyExists,
}

#[derive(Debug, Clone, Copy)]
enum Method {
    Get,
    Post,
    Patch,
}

struct Reply {
    status: StatusCode,
    json: Value,
}

/// An authenticated client for one repository.
pub struct GitHub {
    client: Octocrab,
    api_url: String,
    owner: String,
    repo: String,
    policy: RetryPolicy,
    token_env: String,
    pacer: Pacer,
}

impl GitHub {
    /// Builds the client. Call inside a tokio runtime context.
    pub fn new(
        api_url: &str,
        token: &Secret,
        owner: &str,
        repo: &str,
        policy: RetryPolicy,
        token_env: &str,
        pacer: Pacer,
    ) -> Result<GitHub, PublishError> {
        let bad_url = |detail: String| {
            PublishError::new(
                ErrorKind::Usage,
                format!("the GitHub API URL {api_url:?} is not usable: {detail}"),
                "set GITHUB_API_URL (or --api-url) to the API root, e.g. https://api.github.com \
                 or https://ghe.example.com/api/v3",
            )
        };
        let client = Octocrab::builder()
            .base_uri(api_url)
            .map_err(|e| bad_url(e.to_string()))?
            .personal_token(token.expose().to_string())
            .add_retry_config(RetryConfig::None)
            .set_connect_timeout(Some(Duration::from_secs(15)))
            .set_read_timeout(Some(Duration::from_secs(60)))
            .add_header(
                HeaderName::from_static("x-github-api-version"),
                "2022-11-28".to_string(),
            )
            .build()
            .map_err(|e| bad_url(e.to_string()))?;
        Ok(GitHub {
            client,
            api_url: api_url.trim_end_matches('/').to_string(),
            owner: owner.to_string(),
            repo: repo.to_string(),
            policy,
            token_env: token_env.to_string(),
            pacer,
        })
    }

    fn repo_path(&self) -> String {
        format!(
            "/repos/{}/{}",
            percent_encode(&self.owner),
            percent_encode(&self.repo)
        )
    }

    /// `GET /repos/{o}/{r}`: default branch, archived, push permission.
    pub async fn repository(&self) -> Result<RepositoryInfo, PublishError> {
        let what = format!("read the repository {}/{}", self.owner, self.repo);
        let reply = self
            .call(Method::Get, &self.repo_path(), None, &what)
            .await?;
        let json = self.expect_success(reply, &what)?;
        RepositoryInfo::from_json(&json).ok_or_else(|| unexpected(&what))
    }

    /// `GET /orgs/{owner}/repos`, every page: the organisation's repositories (the client's
    /// repository name is not used).
    pub async fn organisation_repositories(&self) -> Result<Vec<RepositoryInfo>, PublishError> {
        const PER_PAGE: usize = 100;
        let what = format!("list the repositories of the organisation {}", self.owner);
        let mut all = Vec::new();
        for page in 1.. {
            let path = format!(
                "/orgs/{}/repos?type=all&per_page={PER_PAGE}&page={page}",
                percent_encode(&self.owner)
            );
            let reply = self.call(Method::Get, &path, None, &what).await?;
            let json = self.expect_success(reply, &what)?;
            let list = json.as_array().cloned().unwrap_or_default();
            all.extend(list.iter().filter_map(RepositoryInfo::from_json));
            // A short page is the last one (GitHub also says so in `Link`).
            if list.len() < PER_PAGE {
                break;
            }
        }
        Ok(all)
    }

    /// The open pull request whose head is `branch` of this repository, if any.
    pub async fn find_open_pr(&self, branch: &str) -> Result<Option<PullRequest>, PublishError> {
        let head = format!("{}:{branch}", self.owner);
        let path = format!(
            "{}/pulls?state=open&head={}",
            self.repo_path(),
            percent_encode(&head)
        );
        let what = format!("list open pull requests from {branch}");
        let reply = self.call(Method::Get, &path, None, &what).await?;
        let json = self.expect_success(reply, &what)?;
        let list = json.as_array().cloned().unwrap_or_default();
        // The `head` filter is exact on GitHub; the check guards fakes and proxies that ignore it.
        Ok(list
            .iter()
            .filter(|pr| {
                pr.pointer("/head/ref")
                    .and_then(Value::as_str)
                    .is_none_or(|r| r == branch)
            })
            .find_map(PullRequest::from_json))
    }

    /// `POST /repos/{o}/{r}/pulls`.
    pub async fn create_pr(
        &self,
        title: &str,
        branch: &str,
        base: &str,
        body: &str,
        draft: bool,
    ) -> Result<Created, PublishError> {
        let what = format!("open a pull request from {branch} into {base}");
        let payload = json!({
            "title": title,
            "head": branch,
            "base": base,
            "body": body,
            "draft": draft,
        });
        let path = format!("{}/pulls", self.repo_path());
        let reply = self
            .call(Method::Post, &path, Some(&payload), &what)
            .await?;
        if reply.status == StatusCode::UNPROCESSABLE_ENTITY
            && github_message(&reply.json)
                .to_ascii_lowercase()
                .contains("a pull request already exists")
        {
            return Ok(Created::AlreadyExists);
        }
        let json = self.expect_success(reply, &what)?;
        PullRequest::from_json(&json)
            .map(Created::New)
            .ok_or_else(|| unexpected(&what))
    }

    /// `PATCH /repos/{o}/{r}/pulls/{n}` with a new title and body.
    pub async fn update_pr(
        &self,
        number: u64,
        title: &str,
        body: &str,
    ) -> Result<PullRequest, PublishError> {
        let what = format!("update pull request #{number}");
        let payload = json!({ "title": title, "body": body });
        self.patch_pr(number, &payload, &what).await
    }

    /// `PATCH /repos/{o}/{r}/pulls/{n}` with `state: closed`.
    pub async fn close_pr(&self, number: u64) -> Result<PullRequest, PublishError> {
        let what = format!("close pull request #{number}");
        self.patch_pr(number, &json!({ "state": "closed" }), &what)
            .await
    }

    async fn patch_pr(
        &self,
        number: u64,
        payload: &Value,
        what: &str,
    ) -> Result<PullRequest, PublishError> {
        let path = format!("{}/pulls/{number}", self.repo_path());
        let reply = self.call(Method::Patch, &path, Some(payload), what).await?;
        let json = self.expect_success(reply, what)?;
        PullRequest::from_json(&json).ok_or_else(|| unexpected(what))
    }

    /// `POST /repos/{o}/{r}/issues/{n}/labels`: adds labels, keeps the ones already there.
    /// Right after a PR is created GitHub may not resolve it yet (422 "Could not resolve to
    /// a node"); that is retried a few times.
    pub async fn add_labels(&self, number: u64, labels: &[String]) -> Result<(), PublishError> {
        let what = format!("add labels to pull request #{number}");
        let path = format!("{}/issues/{number}/labels", self.repo_path());
        let payload = json!({ "labels": labels });
        let mut attempt = 0;
        loop {
            attempt += 1;
            let reply = self
                .call(Method::Post, &path, Some(&payload), &what)
                .await?;
            let not_yet = reply.status == StatusCode::UNPROCESSABLE_ENTITY
                && github_message(&reply.json).contains("Could not resolve to a node");
            if not_yet && attempt < self.policy.attempts {
                tokio::time::sleep(self.policy.backoff(attempt)).await;
                continue;
            }
            self.expect_success(reply, &what)?;
            return Ok(());
        }
    }

    /// Sends one request, retrying transport errors, 5xx and rate limits. Other statuses are
    /// returned as they are.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        what: &str,
    ) -> Result<Reply, PublishError> {
        let mutating = !matches!(method, Method::Get);
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            if mutating {
                self.pace().await;
            }
            let sent = match method {
                Method::Get => self.client._get(path).await,
                Method::Post => self.client._post(path, body).await,
                Method::Patch => self.client._patch(path, body).await,
            };
            if mutating {
                self.pacer.mark();
            }
            let response = match sent {
                Ok(r) => r,
                Err(e) => {
                    if attempt < self.policy.attempts {
                        tokio::time::sleep(self.policy.backoff(attempt)).await;
                        continue;
                    }
                    return Err(PublishError::new(
                        ErrorKind::Network,
                        format!(
                            "could not reach the GitHub API at {} to {what} ({attempt} attempts): {}",
                            self.api_url,
                            error_chain(&e)
                        ),
                        "check the network and GITHUB_API_URL, then re-run: a re-run finds the \
                         pushed branch and the pull request and finishes the job",
                    ));
                }
            };
            let status = response.status();
            let headers = response.headers().clone();
            let text = match self.client.body_to_string(response).await {
                Ok(t) => t,
                Err(_) if attempt < self.policy.attempts => {
                    tokio::time::sleep(self.policy.backoff(attempt)).await;
                    continue;
                }
                Err(e) => {
                    return Err(PublishError::new(
                        ErrorKind::Network,
                        format!(
                            "the connection to {} broke while reading the answer to {what}: {}",
                            self.api_url,
                            error_chain(&e)
                        ),
                        "re-run; the run is idempotent",
                    ));
                }
            };
            let json = if text.trim().is_empty() {
                Value::Null
            } else {
                serde_json::from_str(&text).unwrap_or(Value::String(text))
            };
            if status.is_success() {
                return Ok(Reply { status, json });
            }
            if status.is_server_error() {
                if attempt < self.policy.attempts {
                    tokio::time::sleep(self.policy.backoff(attempt)).await;
                    continue;
                }
                return Err(PublishError::new(
                    ErrorKind::GitHub,
                    format!(
                        "GitHub answered {status} to the request to {what}, {attempt} times{}",
                        message_suffix(&json)
                    ),
                    "GitHub is having trouble: re-run later; a re-run finds the pushed branch \
                     and the pull request and finishes the job",
                ));
            }
            if (status == StatusCode::FORBIDDEN || status == StatusCode::TOO_MANY_REQUESTS)
                && let Some(wait) = rate_limit_wait(
                    status,
                    &headers,
                    &json,
                    &self.policy,
                    attempt,
                    SystemTime::now(),
                )
            {
                if wait > self.policy.max_wait || attempt >= self.policy.attempts {
                    return Err(PublishError::new(
                        ErrorKind::RateLimited,
                        format!(
                            "GitHub's rate limit stopped the request to {what} ({status}); \
                                 it asks to wait {} s{}",
                            wait.as_secs(),
                            message_suffix(&json)
                        ),
                        "re-run after that time; run fewer jobs with the same token at once \
                             (GitHub allows about 80 content-creating requests a minute)",
                    ));
                }
                tokio::time::sleep(wait).await;
                continue;
            }
            return Ok(Reply { status, json });
        }
    }

    async fn pace(&self) {
        let wait = self.pacer.wait_needed(self.policy.mutation_interval);
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
    }

    /// The JSON of a 2xx reply, or an error that says what GitHub refused and what to do.
    fn expect_success(&self, reply: Reply, what: &str) -> Result<Value, PublishError> {
        if reply.status.is_success() {
            return Ok(reply.json);
        }
        let status = reply.status;
        let detail = message_suffix(&reply.json);
        let repo = format!("{}/{}", self.owner, self.repo);
        Err(match status {
            StatusCode::UNAUTHORIZED => PublishError::new(
                ErrorKind::TokenRejected,
                format!(
                    "GitHub rejected the token from {} ({status}){detail}",
                    self.token_env
                ),
                format!(
                    "set {} to a valid token (in Actions: `${{{{ secrets.GITHUB_TOKEN }}}}` or a \
                     GitHub App token)",
                    self.token_env
                ),
            ),
            StatusCode::FORBIDDEN => PublishError::new(
                ErrorKind::Auth,
                format!("GitHub refused to {what} in {repo} ({status}){detail}"),
                "give the workflow `permissions: contents: write, pull-requests: write` and \
                 enable Settings → Actions → General → \"Allow GitHub Actions to create and \
                 approve pull requests\"; a personal token needs the Pull requests: write \
                 permission",
            ),
            StatusCode::NOT_FOUND => PublishError::new(
                ErrorKind::GitHub,
                format!(
                    "GitHub does not know {repo} at {} or cannot show it to this token \
                     ({status}) while trying to {what}{detail}",
                    self.api_url
                ),
                "check GITHUB_REPOSITORY (or --repository), GITHUB_API_URL and that the token \
                 can read the repository",
            ),
            _ => PublishError::new(
                ErrorKind::GitHub,
                format!("GitHub rejected the request to {what} ({status}){detail}"),
                "check the title, labels, base branch and branch name given to `pr`; \
                 re-running is safe",
            ),
        })
    }
}

fn unexpected(what: &str) -> PublishError {
    PublishError::new(
        ErrorKind::GitHub,
        format!("GitHub's answer to the request to {what} is not what the REST API documents"),
        "check GITHUB_API_URL points at the GitHub REST API",
    )
}

/// How long GitHub asks us to wait, for a 403/429 that is a rate limit; `None` for a 403
/// that is a plain permission problem.
fn rate_limit_wait(
    status: StatusCode,
    headers: &HeaderMap,
    json: &Value,
    policy: &RetryPolicy,
    attempt: u32,
    now: SystemTime,
) -> Option<Duration> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(secs) = header("retry-after").and_then(|v| v.parse::<u64>().ok()) {
        return Some(Duration::from_secs(secs));
    }
    if header("x-ratelimit-remaining") == Some("0")
        && let Some(reset) = header("x-ratelimit-reset").and_then(|v| v.parse::<u64>().ok())
    {
        let now = now
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        return Some(Duration::from_secs(reset.saturating_sub(now).max(1)));
    }
    let message = github_message(json).to_ascii_lowercase();
    if status == StatusCode::TOO_MANY_REQUESTS || message.contains("rate limit") {
        // GitHub: wait at least a minute, and exponentially longer while the limit holds.
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1).min(16));
        return Some(
            policy
                .secondary_wait
                .saturating_mul(factor)
                .min(policy.max_wait.max(policy.secondary_wait)),
        );
    }
    None
}

/// GitHub's `message` plus the messages of its `errors` array.
fn github_message(json: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(m) = json.get("message").and_then(Value::as_str) {
        parts.push(m.to_string());
    }
    if let Some(errors) = json.get("errors").and_then(Value::as_array) {
        for e in errors {
            match e {
                Value::String(s) => parts.push(s.clone()),
                other => {
                    if let Some(m) = other.get("message").and_then(Value::as_str) {
                        parts.push(m.to_string());
                    } else if let Some(code) = other.get("code").and_then(Value::as_str) {
                        let field = other.get("field").and_then(Value::as_str).unwrap_or("?");
                        parts.push(format!("{field}: {code}"));
                    }
                }
            }
        }
    }
    if parts.is_empty()
        && let Value::String(s) = json
    {
        parts.push(s.chars().take(200).collect());
    }
    parts.join("; ")
}

fn message_suffix(json: &Value) -> String {
    let m = github_message(json);
    if m.is_empty() {
        String::new()
    } else {
        format!(": {m}")
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub(crate) fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn policy() -> RetryPolicy {
        RetryPolicy {
            secondary_wait: Duration::from_secs(60),
            ..RetryPolicy::default()
        }
    }

    #[test]
    fn retry_after_wins() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("7"));
        let wait = rate_limit_wait(
            StatusCode::FORBIDDEN,
            &h,
            &Value::Null,
            &policy(),
            1,
            SystemTime::now(),
        );
        assert_eq!(wait, Some(Duration::from_secs(7)));
    }

    #[test]
    fn exhausted_primary_limit_waits_until_reset() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000);
        let mut h = HeaderMap::new();
        h.insert("x-ratelimit-remaining", HeaderValue::from_static("0"));
        h.insert("x-ratelimit-reset", HeaderValue::from_static("1030"));
        let wait = rate_limit_wait(StatusCode::FORBIDDEN, &h, &Value::Null, &policy(), 1, now);
        assert_eq!(wait, Some(Duration::from_secs(30)));
    }

    #[test]
    fn secondary_limit_without_headers_waits_a_minute_but_plain_403_does_not() {
        let h = HeaderMap::new();
        let msg = json!({"message": "You have exceeded a secondary rate limit."});
        assert_eq!(
            rate_limit_wait(
                StatusCode::FORBIDDEN,
                &h,
                &msg,
                &policy(),
                1,
                SystemTime::now()
            ),
            Some(Duration::from_secs(60))
        );
        // Repeated: twice as long each time, never past max_wait.
        let third = rate_limit_wait(
            StatusCode::FORBIDDEN,
            &h,
            &msg,
            &policy(),
            3,
            SystemTime::now(),
        );
        assert_eq!(third, Some(Duration::from_secs(240)));
        let capped = rate_limit_wait(
            StatusCode::FORBIDDEN,
            &h,
            &msg,
            &policy(),
            12,
            SystemTime::now(),
        );
        assert_eq!(capped, Some(policy().max_wait));
        let denied = json!({"message": "Resource not accessible by integration"});
        assert_eq!(
            rate_limit_wait(
                StatusCode::FORBIDDEN,
                &h,
                &denied,
                &policy(),
                1,
                SystemTime::now()
            ),
            None
        );
    }

    #[test]
    fn messages_include_validation_errors() {
        let v = json!({"message": "Validation Failed", "errors": [
            {"resource": "PullRequest", "code": "custom", "message": "A pull request already exists for o:b."},
            {"resource": "PullRequest", "field": "base", "code": "invalid"}
        ]});
        assert_eq!(
            github_message(&v),
            "Validation Failed; A pull request already exists for o:b.; base: invalid"
        );
    }

    #[test]
    fn head_filter_is_percent_encoded() {
        assert_eq!(
            percent_encode("o:gateway-migrate/ab12"),
            "o%3Agateway-migrate%2Fab12"
        );
    }
}
