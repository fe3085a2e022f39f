//! Which repositories a fleet run covers: `owner/repo` names from the command line or a file
//! (one per line, `#` comments), or an organisation's repositories with a topic.

use std::fmt;

/// A GitHub repository name, `owner/repo`, as GitHub spells it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RepoName {
    pub owner: String,
    pub name: String,
}

impl RepoName {
    /// Parses `owner/repo` (also `https://github.com/owner/repo(.git)`, the form people paste).
    pub fn parse(text: &str) -> Result<RepoName, String> {
        let trimmed = text.trim();
        let bare = trimmed.split_once("://").map_or(trimmed, |(_, rest)| {
            rest.split_once('/').map_or("", |(_, p)| p)
        });
        let bare = bare.trim_end_matches('/');
        let bare = bare.strip_suffix(".git").unwrap_or(bare);
        let Some((owner, name)) = bare.split_once('/') else {
            return Err(format!("{trimmed:?} is not of the form owner/repo"));
        };
        // GitHub: owners are letters, digits and single hyphens; repository names also take
        // '.' and '_'. Anything else (spaces, a third path segment, "..") is a typo.
        let owner_ok = !owner.is_empty()
            && owner.len() <= 39
            && owner.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        let name_ok = !name.is_empty()
            && name.len() <= 100
            && name != "."
            && name != ".."
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !owner_ok || !name_ok {
            return Err(format!("{trimmed:?} is not of the form owner/repo"));
        }
        Ok(RepoName {
            owner: owner.to_string(),
            name: name.to_string(),
        })
    }

    /// GitHub compares names without case; so do shard assignment and `--resume`.
    pub fn key(&self) -> String {
        self.to_string().to_ascii_lowercase()
    }
}

impl fmt::Display for RepoName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.owner, self.name)
    }
}

/// The repositories of a list file's text (`source` names it in errors): one `owner/repo` per
/// line, blank lines and `#` comments ignored, duplicates (in any case) kept once, in order.
/// Every bad line is reported, with its number, before anything runs.
pub fn parse_list(text: &str, source: &str) -> Result<Vec<RepoName>, String> {
    let mut repos = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        match RepoName::parse(content) {
            Ok(r) => repos.push(r),
            Err(e) => errors.push(format!("{source}:{}: {e}", i + 1)),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    Ok(dedup(repos))
}

/// Keeps the first of names that differ only in case.
pub fn dedup(repos: Vec<RepoName>) -> Vec<RepoName> {
    let mut seen = std::collections::BTreeSet::new();
    repos.into_iter().filter(|r| seen.insert(r.key())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_files_take_comments_urls_and_duplicates() {
        let text = "# fleet\nacme/web\n\n  acme/api  # the API\nhttps://github.com/acme/ops.git\nACME/Web\n";
        let repos = parse_list(text, "repos.txt").unwrap();
        let names: Vec<String> = repos.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["acme/web", "acme/api", "acme/ops"]);
    }

    #[test]
    fn bad_lines_are_all_reported_with_their_numbers() {
        let e = parse_list("acme/web\nacme\nacme/a/b\nac me/x\nacme/..\n", "r.txt").unwrap_err();
        assert_eq!(e.lines().count(), 4, "{e}");
        assert!(e.starts_with("r.txt:2: \"acme\""), "{e}");
        assert!(e.contains("r.txt:3:") && e.contains("r.txt:4:") && e.contains("r.txt:5:"));
    }
}
