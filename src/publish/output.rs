//! The outcome of `pr`: `created|updated|closed|none`, the PR number and URL, in text, JSON and
//! as GitHub Actions step outputs (the same names peter-evans/create-pull-request uses, so
//! workflows can switch without renaming).

use std::io::Write;
use std::path::Path;

use serde::Serialize;

/// What happened to the pull request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// A new pull request was opened.
    Created,
    /// The branch was pushed or the open pull request's title, body or labels changed.
    Updated,
    /// Nothing needs to change any more and the open pull request was closed (`--close-stale`).
    Closed,
    /// Nothing was pushed and no pull request was touched.
    None,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Created => "created",
            Operation::Updated => "updated",
            Operation::Closed => "closed",
            Operation::None => "none",
        }
    }
}

/// Everything a caller (or a workflow step) needs to know after `publish`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishOutcome {
    pub operation: Operation,
    /// The pull request involved, if any (also for `none` when one is open and up to date).
    pub number: Option<u64>,
    pub url: Option<String>,
    /// The tool's branch (`gateway-migrate/<config-hash>` unless `--branch`).
    pub branch: String,
    pub base: String,
    /// The commit the branch points at after the run, when the branch exists.
    pub head_sha: Option<String>,
    /// Whether this run pushed the branch.
    pub pushed: bool,
}

impl PublishOutcome {
    /// One line for humans, e.g. `created pull request #7: https://github.com/o/r/pull/7`.
    pub fn render_text(&self) -> String {
        let pushed = if self.pushed {
            format!(" (pushed {})", self.branch)
        } else {
            String::new()
        };
        match (self.operation, self.number, &self.url) {
            (op, Some(n), Some(url)) => {
                let verb = match op {
                    Operation::None => "no change to pull request",
                    Operation::Created => "created pull request",
                    Operation::Updated => "updated pull request",
                    Operation::Closed => "closed pull request",
                };
                format!("{verb} #{n}: {url}{pushed}\n")
            }
            (Operation::None, _, _) => {
                format!(
                    "none: nothing to change against {}; no branch pushed, no pull request\n",
                    self.base
                )
            }
            (op, _, _) => format!("{}{pushed}\n", op.as_str()),
        }
    }

    /// The outcome as one JSON object (with a trailing newline).
    pub fn render_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// `name=value` lines for `$GITHUB_OUTPUT`. Values never contain newlines.
    pub fn github_output(&self) -> String {
        let mut out = String::new();
        let mut line = |k: &str, v: &str| {
            out.push_str(k);
            out.push('=');
            out.push_str(&v.replace(['\r', '\n'], " "));
            out.push('\n');
        };
        line("pull-request-operation", self.operation.as_str());
        line(
            "pull-request-number",
            &self.number.map(|n| n.to_string()).unwrap_or_default(),
        );
        line("pull-request-url", self.url.as_deref().unwrap_or(""));
        line("pull-request-branch", &self.branch);
        line(
            "pull-request-head-sha",
            self.head_sha.as_deref().unwrap_or(""),
        );
        out
    }

    /// Appends [`Self::github_output`] to the file GitHub Actions names in `$GITHUB_OUTPUT`.
    pub fn append_github_output(&self, path: &Path) -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        file.write_all(self.github_output().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(op: Operation, number: Option<u64>) -> PublishOutcome {
        PublishOutcome {
            operation: op,
            number,
            url: number.map(|n| format!("https://github.com/o/r/pull/{n}")),
            branch: "gateway-migrate/abcd1234".into(),
            base: "main".into(),
            head_sha: Some("0123abcd".into()),
            pushed: op == Operation::Created,
        }
    }

    #[test]
    fn text_names_operation_number_and_url() {
        assert_eq!(
            outcome(Operation::Created, Some(7)).render_text(),
            "created pull request #7: https://github.com/o/r/pull/7 (pushed gateway-migrate/abcd1234)\n"
        );
        assert_eq!(
            outcome(Operation::None, None).render_text(),
            "none: nothing to change against main; no branch pushed, no pull request\n"
        );
    }

    #[test]
    fn json_uses_the_operation_words() {
        let v: serde_json::Value =
            serde_json::from_str(&outcome(Operation::Closed, Some(3)).render_json()).unwrap();
        assert_eq!(v["operation"], "closed");
        assert_eq!(v["number"], 3);
        assert_eq!(v["url"], "https://github.com/o/r/pull/3");
        assert_eq!(v["headSha"], "0123abcd");
    }

    #[test]
    fn github_output_appends_create_pull_request_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        std::fs::write(&path, "earlier=1\n").unwrap();
        outcome(Operation::Updated, Some(12))
            .append_github_output(&path)
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "earlier=1\npull-request-operation=updated\npull-request-number=12\n\
             pull-request-url=https://github.com/o/r/pull/12\n\
             pull-request-branch=gateway-migrate/abcd1234\npull-request-head-sha=0123abcd\n"
        );
    }
}
