//! Vendored remote bases (`--remote-cache DIR`): where `kustomize localize` keeps a remote
//! resource, so that a build reaching one renders offline from the copy.
//!
//! `kustomize localize` writes each remote kustomization root a build reaches under
//! `localized-files/<host>/<repository path>/<ref>/<path in the repository>` and each remote
//! file under `localized-files/<host>/<URL path>` (kustomize `api/internal/localizer/util.go`,
//! `locRootPath` and `locFilePath`), after splitting the URL as kustomize does
//! (`api/internal/git/repospec.go`, `NewRepoSpecFromURL`). The cache directory holds that
//! layout (or a `localized-files` directory holding it). Only the mapping is kustomize's;
//! nothing is fetched, and what the cache holds is checked like the repository before it is
//! used (`discover::cached_refusals`).

use std::path::{Path, PathBuf};

/// The directory `kustomize localize` keeps remote content in.
const LOCALIZE_DIR: &str = "localized-files";

/// Where the scratch copy of a kustomization keeps the cached copies it uses: a hidden
/// directory beside the kustomization file, so that the root-only load restrictor admits
/// vendored files, and no repository directory is shadowed.
pub const SCRATCH_DIR: &str = ".gateway-migrate-remote";

/// The remote content cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteCache {
    /// The directory holding `<host>/...` (the given one, or its `localized-files`).
    root: PathBuf,
}

/// What a remote entry is in the cache.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cached {
    /// A kustomization root: the repository's copy (`<host>/<repo>/<ref>`, cache-relative),
    /// which is copied whole since the root may include its siblings, and the root in it.
    Root { repo: String, in_repo: String },
    /// A single file, at this cache-relative path.
    File(String),
}

impl Cached {
    /// The cache-relative path of the entry itself.
    pub fn path(&self) -> String {
        match self {
            Cached::Root { repo, in_repo } if in_repo.is_empty() => repo.clone(),
            Cached::Root { repo, in_repo } => format!("{repo}/{in_repo}"),
            Cached::File(p) => p.clone(),
        }
    }
}

impl RemoteCache {
    /// The cache at `dir`: `dir/localized-files` when `dir` holds one (the output of
    /// `kustomize localize` for a root), else `dir` itself.
    pub fn at(dir: &Path) -> RemoteCache {
        let nested = dir.join(LOCALIZE_DIR);
        RemoteCache {
            root: if nested.is_dir() {
                nested
            } else {
                dir.to_path_buf()
            },
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the cache holds `entry` (a remote `resources:` entry), if it does: a kustomize
    /// root at its `locRootPath` (a directory holding a kustomization), else a file at its
    /// `locFilePath`. kustomize tries a URL as a file first; a directory and a file cannot
    /// both be there, so the order does not matter here.
    pub fn find(&self, entry: &str) -> Option<Cached> {
        if let Some((repo, in_repo)) = root_path_parts(entry) {
            let cached = Cached::Root { repo, in_repo };
            let rel = cached.path();
            let dir = self.root.join(&rel);
            let is_root = crate::model::kustomize::KUSTOMIZATION_FILES
                .iter()
                .any(|f| is_regular_file(&dir.join(f)));
            if is_root && is_real_dir(&self.root, &rel) {
                return Some(cached);
            }
        }
        let rel = file_path(entry)?;
        (is_regular_file(&self.root.join(&rel)) && is_real_dir(&self.root, parent(&rel)))
            .then_some(Cached::File(rel))
    }
}

fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// Whether every component of `rel` under `root` is a directory, none a symlink (a symlink
/// in the cache could lead anywhere).
fn is_real_dir(root: &Path, rel: &str) -> bool {
    std::fs::symlink_metadata(root.join(rel)).is_ok_and(|m| m.file_type().is_dir())
        && crate::walk::symlink_on_the_way(root, rel).is_none()
}

/// A remote kustomization root as kustomize splits its URL.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RepoSpec {
    /// Scheme, user and host as kustomize normalises them (`https://github.com/`,
    /// `git@github.com:`, `file://`).
    host: String,
    repo_path: String,
    root_in_repo: String,
    git_ref: String,
}

/// `locRootPath` without its `localized-files/` prefix: `github.com/org/repo/v1/path`.
pub fn root_path(url: &str) -> Option<String> {
    root_path_parts(url).map(|(repo, in_repo)| Cached::Root { repo, in_repo }.path())
}

/// [`root_path`] split into the repository's copy (`github.com/org/repo/v1`) and the root in
/// it (`path`).
fn root_path_parts(url: &str) -> Option<(String, String)> {
    let spec = repo_spec(url)?;
    let host = localized_host(&spec.host)?;
    let repo = spec
        .repo_path
        .strip_suffix(".git")
        .unwrap_or(&spec.repo_path);
    let repo = clean(&format!("{host}/{}/{}", clean(repo), spec.git_ref));
    (!repo.is_empty()).then(|| (repo, clean(&spec.root_in_repo)))
}

/// `locFilePath` without its `localized-files/` prefix: `raw.example.com/a/b.yaml` for an
/// `http(s)` URL.
pub fn file_path(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = hostname(authority)?;
    let path = clean(path);
    (!path.is_empty()).then(|| format!("{host}/{path}"))
}

/// kustomize's `NewRepoSpecFromURL`, for the parts the localized path uses.
fn repo_spec(url: &str) -> Option<RepoSpec> {
    if url.starts_with('/') {
        return None;
    }
    let (n, query) = url.split_once('?').unwrap_or((url, ""));
    let git_ref = query_ref(query);
    let (host, rest) = extract_host(n)?;
    let all_segments = host.starts_with("file://");
    let (repo_path, root) = split_path(&rest, all_segments)?;
    if repo_path.is_empty() || clean_keeping_parent(&root).starts_with("..") {
        return None;
    }
    Some(RepoSpec {
        host,
        repo_path,
        root_in_repo: root.trim_start_matches('/').to_string(),
        git_ref,
    })
}

/// `ref=` wins over `version=`.
fn query_ref(query: &str) -> String {
    let mut version = String::new();
    let mut git_ref = String::new();
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let v = percent_decode(v);
        match k {
            "ref" if git_ref.is_empty() => git_ref = v,
            "version" if version.is_empty() => version = v,
            _ => {}
        }
    }
    if git_ref.is_empty() { version } else { git_ref }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| s.get(prefix.len()..))
        .flatten()
}

/// kustomize's `extractHost`: (`scheme + user + host`, the rest).
fn extract_host(n: &str) -> Option<(String, String)> {
    let n = strip_prefix_ignore_case(n, "git::").unwrap_or(n);
    let (scheme, n) = ["ssh://", "https://", "http://", "file://"]
        .iter()
        .find_map(|p| strip_prefix_ignore_case(n, p).map(|rest| (*p, rest)))
        .unwrap_or(("", n));
    let user_len = {
        let b = n.as_bytes();
        let mut i = 0;
        if b.first().is_some_and(u8::is_ascii_alphabetic) {
            i = 1;
            while b
                .get(i)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-')
            {
                i += 1;
            }
        }
        if i > 0 && b.get(i) == Some(&b'@') {
            i + 1
        } else {
            0
        }
    };
    let (username, n) = n.split_at(user_len);
    let lower = n.to_ascii_lowercase();
    let github = lower.starts_with("github.com/") || lower.starts_with("github.com:");
    let scp = scheme.is_empty() && (!username.is_empty() || github);
    if scheme.is_empty() && !scp {
        return None;
    }
    if scheme == "file://" {
        return Some((scheme.to_string(), format!("{username}{n}")));
    }
    let mut sep = n.find('/');
    if scp
        && let Some(colon) = n.find(':').filter(|&c| c > 0)
        && sep.is_none_or(|s| colon < s)
    {
        sep = Some(colon);
    }
    let (mut host, rest) = match sep {
        Some(i) => (n[..=i].to_string(), n[i + 1..].to_string()),
        None => (n.to_string(), String::new()),
    };
    let (mut scheme, mut username) = (scheme.to_string(), username.to_string());
    if github {
        if scheme.starts_with("ssh://") || !username.is_empty() {
            scheme = String::new();
            host = "github.com:".into();
        } else {
            scheme = "https://".into();
            username = String::new();
            host = "github.com/".into();
        }
    }
    if host.is_empty() {
        return None;
    }
    Some((format!("{scheme}{username}{host}"), rest))
}

/// kustomize's `parsePathParts`: (repository path, root in the repository).
fn split_path(n: &str, all_segments: bool) -> Option<(String, String)> {
    if let Some(i) = n.find("_git/") {
        let after = &n[i + "_git/".len()..];
        let (first, rest) = after.split_once('/').unwrap_or((after, ""));
        return Some((format!("{}{first}", &n[..i + "_git/".len()]), rest.into()));
    }
    if let Some(i) = n.find("//") {
        return Some((n[..i].into(), n[i + 2..].into()));
    }
    if let Some(i) = n.find(".git") {
        let end = i + ".git".len();
        return Some((n[..end].into(), n[end..].into()));
    }
    if all_segments {
        return Some((n.into(), String::new()));
    }
    let segments: Vec<&str> = n.split('/').collect();
    (segments.len() >= 2).then(|| (segments[..2].join("/"), segments[2..].join("/")))
}

/// kustomize's `parseHost`: the directory name for a host.
fn localized_host(host: &str) -> Option<String> {
    let scheme = host.split_once("://").map_or(host, |(s, _)| s);
    let target = match scheme {
        "file" => return Some("file-schemed".into()),
        "https" | "http" | "ssh" => host.to_string(),
        _ => format!("ssh://{host}"),
    };
    let target = target.strip_suffix(':').unwrap_or(&target);
    let (_, rest) = target.split_once("://")?;
    let authority = rest.split('/').next().unwrap_or_default();
    hostname(authority)
}

/// The host of a URL authority (`user@host:port`), without brackets around IPv6.
fn hostname(authority: &str) -> Option<String> {
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let name = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or_default()
    };
    (!name.is_empty() && !name.contains(['/', '\\'])).then(|| name.to_string())
}

/// `filepath.Clean` of a rooted path, without the leading `/`: `.` and empty segments
/// dropped, `..` removes the previous segment and stops at the root (as securejoin's clamp).
fn clean(path: &str) -> String {
    crate::deploy::clamped(path)
}

/// `filepath.Clean` of a relative path, keeping leading `..`.
fn clean_keeping_parent(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.trim_start_matches('/').split('/') {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// kustomize `api/internal/localizer/util_test.go`, `TestLocRootPath_URLComponents` and
    /// `TestLocRootPath_Repo`: URL → path under `localized-files/`.
    #[test]
    fn remote_roots_map_where_kustomize_localize_writes_them() {
        let cases = [
            (
                "ssh://git@github.com/org/repo//%s?ref=value",
                "github.com/org/repo/value",
            ),
            (
                "git@github.com:org/repo//%s?ref=value",
                "github.com/org/repo/value",
            ),
            (
                "https://gitlab.com/org/repo//%s?ref=value",
                "gitlab.com/org/repo/value",
            ),
            (
                "file:///var/run/repo//%s?ref=value",
                "file-schemed/var/run/repo/value",
            ),
            (
                "https://[2001:4860:4860::8888]/org/repo//%s?ref=value",
                "2001:4860:4860::8888/org/repo/value",
            ),
            (
                "https://localhost.com:8080/org/repo//%s?ref=value",
                "localhost.com/org/repo/value",
            ),
            (
                "https://github.com/repo//%s?ref=value",
                "github.com/repo/value",
            ),
            (
                "https://github.com/org1/org2/repo.git//%s?ref=value",
                "github.com/org1/org2/repo/value",
            ),
            (
                "https://github.com/./../org/../org/repo.git//%s?ref=value",
                "github.com/org/repo/value",
            ),
            (
                "https://github.com/org/repo/%s?ref=value",
                "github.com/org/repo/value",
            ),
            (
                "https://gitlab.com/org./repo..git//%s?ref=value",
                "gitlab.com/org./repo./value",
            ),
            (
                "https://gitlab.com/org/repo//%s?ref=group/version/kind",
                "gitlab.com/org/repo/group/version/kind",
            ),
        ];
        for (url, dir) in cases {
            let url = url.replace("%s", "path/to/root");
            assert_eq!(
                root_path(&url).as_deref(),
                Some(format!("{dir}/path/to/root").as_str()),
                "{url}"
            );
        }
        assert_eq!(
            root_path("https://github.com/org/repo?ref=value").as_deref(),
            Some("github.com/org/repo/value")
        );
    }

    /// kustomize `api/internal/git/repospec_test.go`, `TestNewRepoSpecFromUrl_Permute`: every
    /// spelling of a host normalises the same, and the repository is two segments.
    #[test]
    fn host_spellings_normalise_as_kustomize_does() {
        let hosts = [
            ("gitHub.com/", "https://github.com/"),
            ("github.com:", "https://github.com/"),
            ("http://github.com/", "https://github.com/"),
            ("hTTps://github.com/", "https://github.com/"),
            ("ssh://git.example.com:7999/", "ssh://git.example.com:7999/"),
            ("git::https://gitlab.com/", "https://gitlab.com/"),
            ("git@github.com:", "git@github.com:"),
            ("git@github.com/", "git@github.com:"),
            ("org-12345@github.com/", "org-12345@github.com:"),
        ];
        for (raw, normal) in hosts {
            let url = format!("{raw}someOrg/someRepo/foo/krusty.txt?ref=group/version");
            let spec = repo_spec(&url).unwrap_or_else(|| panic!("{url}"));
            assert_eq!(spec.host, normal, "{url}");
            assert_eq!(spec.repo_path, "someOrg/someRepo", "{url}");
            assert_eq!(spec.root_in_repo, "foo/krusty.txt", "{url}");
            assert_eq!(spec.git_ref, "group/version", "{url}");
        }
        // `version=` is the old spelling; `ref=` wins.
        assert_eq!(
            repo_spec("github.com/o/r?version=v1&ref=v2").map(|s| s.git_ref),
            Some("v2".into())
        );
        // Not URLs kustomize accepts: no scheme and no user or GitHub host; an absolute
        // path; a root leaving the repository.
        for bad in [
            "example.com/o/r",
            "/abs/o/r",
            "https://github.com/o/r//../x",
        ] {
            assert_eq!(root_path(bad), None, "{bad}");
        }
    }

    /// kustomize `TestLocFilePath_SpecialFiles` and the `locFilePath` join.
    #[test]
    fn remote_files_map_to_host_and_url_path() {
        assert_eq!(
            file_path("https://host/.../.file").as_deref(),
            Some("host/.../.file")
        );
        assert_eq!(
            file_path("https://raw.example.com:8443/a/../b/c.yaml?x=1").as_deref(),
            Some("raw.example.com/b/c.yaml")
        );
        assert_eq!(file_path("git@github.com:o/r"), None);
    }
}
