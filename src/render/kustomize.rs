//! Running kustomize on a scratch copy of the repository.
//!
//! The repository is untrusted. The copy holds only its regular files (no symlinks, no
//! `.git`, nothing git ignores), so nothing outside it can be reached through the copy;
//! kustomize runs with the root-only load restrictor and without `--enable-helm`,
//! `--enable-alpha-plugins` or `--enable-exec`, with an empty environment (its home and plugin
//! home are a directory beside the copy, not in it), no standard input, and a time limit.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How to start kustomize.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renderer {
    pub program: PathBuf,
    /// `true` for `kubectl kustomize`, `false` for a standalone `kustomize build`.
    pub via_kubectl: bool,
    pub timeout: Duration,
    /// What all renders of one run may take together; a build is not started once it is
    /// spent, and one that timed out is not rendered again.
    pub run_budget: Duration,
    /// Environment passed to kustomize besides its own `HOME` (none by default; with
    /// `--allow-remote`, what fetching needs: `PATH` for `git`, proxies, CA bundles).
    pub env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    /// No network for kustomize (unless `--allow-remote`): besides the checks that refuse
    /// remote paths, its HTTP client is pointed at a proxy that is not there.
    pub offline: bool,
}

/// Given to `kubectl kustomize` so that no kubectl contacts a server (see [`Renderer::render`]).
pub const KUBECTL_NO_SERVER: &str = "--server=no-server-for-rendering://none";

/// One render's time limit, and all renders' of one run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
pub const DEFAULT_RUN_BUDGET: Duration = Duration::from_secs(600);

/// The most a render may print: past it the build fails (a build that expands to this much is
/// not a manifest set the tool can hold, and kustomize's own alias limits are looser).
const MAX_RENDER_OUTPUT: u64 = 64 * 1024 * 1024;

/// kustomize processes one run starts at once, whatever `-j`: each holds its build in memory
/// (a large one 1 GiB and more), and this tool holds each one's output while it reads it.
pub const MAX_CONCURRENT_RENDERS: usize = 4;

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("{0}")]
    Failed(String),
    #[error("kustomize did not finish within {0} seconds")]
    Timeout(u64),
    #[error("kustomize printed more than {} MiB", MAX_RENDER_OUTPUT / (1024 * 1024))]
    TooLarge,
    #[error("cannot run {0}: {1}")]
    Spawn(String, String),
    #[error("cannot prepare the scratch copy: {0}")]
    Scratch(String),
}

impl Renderer {
    /// The renderer at `explicit`, else `kustomize` on `PATH`, else `kubectl` on `PATH`.
    pub fn find(explicit: Option<&Path>, path_var: Option<&std::ffi::OsStr>) -> Option<Renderer> {
        let make = |program: PathBuf| {
            let via_kubectl = program
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("kubectl"));
            Renderer {
                program,
                via_kubectl,
                timeout: DEFAULT_TIMEOUT,
                run_budget: DEFAULT_RUN_BUDGET,
                env: Vec::new(),
                offline: true,
            }
        };
        if let Some(p) = explicit {
            return Some(make(p.to_path_buf()));
        }
        let dirs: Vec<PathBuf> = path_var.map(|p| std::env::split_paths(p).collect())?;
        for name in ["kustomize", "kubectl"] {
            for d in &dirs {
                let candidate = d.join(name);
                if candidate.is_file() {
                    return Some(make(candidate));
                }
            }
        }
        None
    }

    /// The command line, for the report.
    pub fn describe(&self) -> String {
        if self.via_kubectl {
            format!("{} kustomize", self.program.display())
        } else {
            format!("{} build", self.program.display())
        }
    }

    /// Renders `dir` (inside `scratch`) and returns its documents, within `limit`.
    pub fn render(
        &self,
        scratch: &Path,
        dir: &str,
        limit: Duration,
    ) -> Result<Vec<Value>, RenderError> {
        let target = if dir.is_empty() {
            scratch.to_path_buf()
        } else {
            scratch.join(dir)
        };
        // kustomize's (and kubectl's) home is beside the copy, not inside it: a repository
        // could otherwise plant `.kube/config` or plugins there.
        let home = scratch
            .parent()
            .map_or_else(|| scratch.join(".gateway-migrate-home"), |p| p.join("home"));
        let mut cmd = Command::new(&self.program);
        if self.via_kubectl {
            // Some kubectl builds (Google Cloud SDK's dispatcher) ask the API server for its
            // version before running any command, `kustomize` included (without a kubeconfig:
            // http://localhost:8080). A server address with a scheme no client speaks makes
            // that lookup fail before any connection; `kubectl kustomize` itself ignores it.
            cmd.arg("kustomize").arg(KUBECTL_NO_SERVER);
        } else {
            cmd.arg("build");
        }
        cmd.arg(&target)
            .arg("--load-restrictor")
            .arg("LoadRestrictionsRootOnly")
            .env_clear()
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", &home)
            .env("KUSTOMIZE_PLUGIN_HOME", home.join("plugins"))
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            // Go's HTTP client honours these: a URL this tool failed to refuse still goes
            // nowhere (loopback addresses excepted, which Go never proxies).
            .envs(
                ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]
                    .into_iter()
                    .filter(|_| self.offline)
                    .map(|k| (k, "http://127.0.0.1:9")),
            )
            .current_dir(scratch)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .map_err(|e| RenderError::Spawn(self.describe(), e.to_string()))?;
        // Read both pipes on threads so a large output cannot block the child.
        let mut stdout = child.stdout.take();
        let mut stderr = child.stderr.take();
        // Set by the reader when kustomize printed more than the limit: kustomize is then
        // stopped (it would block on the full pipe).
        let too_large = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = too_large.clone();
        let out_thread = std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(s) = stdout.as_mut() {
                // One byte past the limit tells "too large" from "exactly the limit".
                let _ = s.take(MAX_RENDER_OUTPUT + 1).read_to_end(&mut buf);
            }
            if buf.len() as u64 > MAX_RENDER_OUTPUT {
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            buf
        });
        let err_thread = std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(s) = stderr.as_mut() {
                let _ = s.take(MAX_RENDER_OUTPUT).read_to_end(&mut buf);
            }
            buf
        });
        let deadline = Instant::now() + limit;
        let status = loop {
            let over = too_large.load(std::sync::atomic::Ordering::Relaxed);
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if over || Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(if over {
                        RenderError::TooLarge
                    } else {
                        RenderError::Timeout(limit.as_secs())
                    });
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(RenderError::Failed(e.to_string())),
            }
        };
        let out = out_thread.join().unwrap_or_default();
        let err = err_thread.join().unwrap_or_default();
        if out.len() as u64 > MAX_RENDER_OUTPUT {
            return Err(RenderError::TooLarge);
        }
        if !status.success() {
            return Err(RenderError::Failed(kustomize_message(
                &String::from_utf8_lossy(&err),
                scratch,
            )));
        }
        parse_stream(&out)
    }
}

/// kustomize's own message, without kubectl's log prefix and with scratch paths made
/// repository-relative.
fn kustomize_message(stderr: &str, scratch: &Path) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    // kubectl logs `... "command failed" err="..."`; kustomize prints `Error: ...`; a crash
    // prints `panic: ...` and a stack.
    // A multi-line error is logged as `err=<`, the message's lines indented, then ` >`.
    let block = lines
        .iter()
        .position(|l| l.trim_end().ends_with("err=<"))
        .map(|start| {
            lines[start + 1..]
                .iter()
                .take_while(|l| l.trim() != ">")
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join(" ")
        });
    let line = block
        .filter(|b| !b.is_empty())
        .or_else(|| {
            lines.iter().find_map(|l| {
                l.find("err=\"")
                    .map(|i| l[i + 5..].trim_end_matches('"').replace("\\\"", "\""))
            })
        })
        .or_else(|| {
            lines
                .iter()
                .find_map(|l| l.strip_prefix("Error: ").map(str::to_string))
        })
        .or_else(|| {
            lines
                .iter()
                .find(|l| l.starts_with("panic: "))
                .map(|l| format!("kustomize crashed ({l})"))
        })
        .or_else(|| lines.first().map(|l| l.to_string()))
        .unwrap_or_else(|| "kustomize failed without a message".to_string());
    let prefix = format!("{}/", scratch.display());
    line.replace(&prefix, "")
        .replace(&scratch.display().to_string(), ".")
}

fn parse_stream(bytes: &[u8]) -> Result<Vec<Value>, RenderError> {
    let mut docs = Vec::new();
    for span in crate::load::split::split(bytes) {
        let piece = span.slice(bytes);
        // Only the kinds the tool reads are parsed (a build's CRDs and Deployments are most
        // of its output, and a CRD can nest deeper than the parser's budget allows).
        if !crate::load::prefilter::needs_parse(piece) {
            continue;
        }
        let text = std::str::from_utf8(piece)
            .map_err(|_| RenderError::Failed("kustomize printed invalid UTF-8".into()))?;
        match crate::yaml::parse_document(text) {
            Ok(Some(v)) if v.is_object() => docs.push(v),
            Ok(_) => {}
            Err(e) => {
                return Err(RenderError::Failed(format!(
                    "kustomize printed YAML this tool cannot read: {}",
                    e.message
                )));
            }
        }
    }
    Ok(docs)
}

/// Scratch directories are `gateway-migrate-render-<pid>-<random>` in the temporary directory.
const SCRATCH_PREFIX: &str = "gateway-migrate-render-";

/// Removes the scratch directories of runs that were killed (their process is gone), where
/// the system can tell (`/proc`).
fn remove_stale_scratch(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(SCRATCH_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && crate::write::process_is_running(pid) == Some(false) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A scratch copy of the repository's regular files.
pub struct Scratch {
    dir: tempfile::TempDir,
    /// Per kustomization file: remote entries and the vendored copies they point at instead
    /// (`--remote-cache`), applied whenever the file is written into the copy.
    rewrites: BTreeMap<String, Vec<(String, String)>>,
}

/// Files larger than this are not copied (kustomize inputs are text).
const MAX_COPIED_FILE: u64 = 16 * 1024 * 1024;

impl Scratch {
    /// Copies the regular files under `dirs` of `root` (not `.git`, not through symlinks, not
    /// what git ignores).
    /// With the root-only load restrictor a build reads nothing outside the directories of
    /// the kustomizations it reaches, so those are all a render needs.
    pub fn copy_of(root: &Path, dirs: &BTreeSet<String>) -> Result<Scratch, RenderError> {
        remove_stale_scratch(&std::env::temp_dir());
        let dir = tempfile::Builder::new()
            .prefix(&format!("{SCRATCH_PREFIX}{}-", std::process::id()))
            .tempdir()
            .map_err(|e| RenderError::Scratch(e.to_string()))?;
        let repo = dir.path().join("repo");
        std::fs::create_dir(&repo).map_err(|e| RenderError::Scratch(e.to_string()))?;
        // Nested directories are copied with their parent.
        let tops: Vec<&String> = dirs
            .iter()
            .filter(|d| {
                !dirs
                    .iter()
                    .any(|p| p != *d && (p.is_empty() || d.starts_with(&format!("{p}/"))))
            })
            .collect();
        // What git ignores is not copied (as the walk does not read it): a file a developer
        // keeps out of the repository (`.env`, credentials) must not reach a render, and
        // through a generator and `replacements` the report.
        let walkers = tops.into_iter().flat_map(|d| {
            ignore::WalkBuilder::new(if d.is_empty() {
                root.to_path_buf()
            } else {
                root.join(d)
            })
            .hidden(false)
            .ignore(false)
            .git_ignore(true)
            .git_exclude(true)
            // The user's own excludes too (core.excludesFile, ~/.config/git/ignore): where a
            // developer keeps their secrets out of every repository.
            .git_global(true)
            .require_git(false)
            .follow_links(false)
            .filter_entry(|e| e.file_name() != ".git")
            .build()
        });
        for entry in walkers.flatten() {
            let Ok(rel) = entry.path().strip_prefix(root) else {
                continue;
            };
            if rel.as_os_str().is_empty() {
                continue;
            }
            let dest = repo.join(rel);
            let Some(ft) = entry.file_type() else {
                continue;
            };
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent).map_err(|e| RenderError::Scratch(e.to_string()))?;
            }
            if ft.is_dir() {
                std::fs::create_dir_all(&dest).map_err(|e| RenderError::Scratch(e.to_string()))?;
            } else if ft.is_file() && entry.metadata().is_ok_and(|m| m.len() <= MAX_COPIED_FILE) {
                std::fs::copy(entry.path(), &dest)
                    .map_err(|e| RenderError::Scratch(e.to_string()))?;
            }
        }
        // What git tracks is the repository's even where an ignore rule matches it (a file
        // added with `git add -f`): copied too.
        for rel in crate::vcs::tracked_under(root, dirs) {
            let source = root.join(&rel);
            let dest = repo.join(&rel);
            let regular = std::fs::symlink_metadata(&source)
                .is_ok_and(|m| m.file_type().is_file() && m.len() <= MAX_COPIED_FILE);
            if dest.exists() || !regular || rel.split('/').any(|p| p == ".git") {
                continue;
            }
            if crate::walk::symlink_on_the_way(root, &rel).is_some() {
                continue;
            }
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent).map_err(|e| RenderError::Scratch(e.to_string()))?;
            }
            std::fs::copy(&source, &dest).map_err(|e| RenderError::Scratch(e.to_string()))?;
        }
        Ok(Scratch {
            dir,
            rewrites: BTreeMap::new(),
        })
    }

    /// Puts the remote cache's copy of a remote entry beside the kustomization listing it
    /// (`<dir>/.gateway-migrate-remote/<cache path>`, inside the kustomization's root so the
    /// root-only load restrictor admits a vendored file) and points the entry at it. A
    /// kustomize root's whole repository copy is taken, since the root may include its
    /// siblings. Only regular files are copied, never through a symlink.
    pub fn vendor(
        &mut self,
        v: &super::discover::Vendored,
        cache: &super::remote::RemoteCache,
    ) -> Result<(), RenderError> {
        use super::remote::{Cached, SCRATCH_DIR};
        let dir = crate::deploy::parent_dir(&v.kustomization);
        let base = if dir.is_empty() {
            SCRATCH_DIR.to_string()
        } else {
            format!("{dir}/{SCRATCH_DIR}")
        };
        let (copied, replacement) = match &v.cached {
            Cached::Root { repo, .. } => (repo.clone(), v.cached.path()),
            Cached::File(path) => (path.clone(), path.clone()),
        };
        let from = cache.root().join(&copied);
        let to = self.root().join(&base).join(&copied);
        let scratch_err = |e: std::io::Error| RenderError::Scratch(e.to_string());
        if std::fs::symlink_metadata(&from).is_ok_and(|m| m.is_file()) {
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(scratch_err)?;
            }
            std::fs::copy(&from, &to).map_err(scratch_err)?;
        } else if !to.exists() {
            for entry in walkdir::WalkDir::new(&from).follow_links(false) {
                let entry = entry.map_err(|e| RenderError::Scratch(e.to_string()))?;
                let Ok(rel) = entry.path().strip_prefix(&from) else {
                    continue;
                };
                let dest = to.join(rel);
                if entry.file_type().is_dir() {
                    std::fs::create_dir_all(&dest).map_err(scratch_err)?;
                } else if entry.file_type().is_file()
                    && entry.metadata().is_ok_and(|m| m.len() <= MAX_COPIED_FILE)
                {
                    std::fs::copy(entry.path(), &dest).map_err(scratch_err)?;
                }
            }
        }
        let local = format!("{SCRATCH_DIR}/{replacement}");
        let list = self.rewrites.entry(v.kustomization.clone()).or_default();
        if !list.iter().any(|(e, _)| *e == v.entry) {
            list.push((v.entry.clone(), local));
        }
        self.apply_rewrites(&v.kustomization)
    }

    /// Points the remote entries of the copy's `kustomization` at their vendored copies
    /// (written back as JSON, which kustomize reads as YAML).
    fn apply_rewrites(&self, kustomization: &str) -> Result<(), RenderError> {
        let Some(rewrites) = self.rewrites.get(kustomization) else {
            return Ok(());
        };
        let path = self.root().join(kustomization);
        let text =
            std::fs::read_to_string(&path).map_err(|e| RenderError::Scratch(e.to_string()))?;
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        let Ok(Some(mut doc)) = crate::yaml::parse_document(text) else {
            return Ok(());
        };
        for key in ["resources", "components", "bases"] {
            if let Some(Value::Array(list)) = doc.get_mut(key) {
                for item in list.iter_mut() {
                    if let Some((_, local)) = rewrites
                        .iter()
                        .find(|(entry, _)| item.as_str() == Some(entry.as_str()))
                    {
                        *item = Value::from(local.as_str());
                    }
                }
            }
        }
        let json =
            serde_json::to_vec_pretty(&doc).map_err(|e| RenderError::Scratch(e.to_string()))?;
        std::fs::write(&path, json).map_err(|e| RenderError::Scratch(e.to_string()))
    }

    /// The copy's root.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    /// Writes `contents` at root-relative `path` (a planned edit), creating directories.
    pub fn write(&self, path: &str, contents: &[u8]) -> Result<(), RenderError> {
        let dest = self.root().join(path);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| RenderError::Scratch(e.to_string()))?;
        }
        std::fs::write(dest, contents).map_err(|e| RenderError::Scratch(e.to_string()))?;
        self.apply_rewrites(path)
    }

    /// Prepares a build root's kustomization: origin annotations on, and this tool's own fix
    /// entries (see [`super::is_listed_fix`]) removed unless `keep_fixes`. Written as JSON, which
    /// kustomize reads as YAML.
    ///
    /// `options` are what the build's GitOps objects add (Flux `spec.namePrefix`, Argo CD
    /// `source.kustomize.components`, ...): set or appended as their controllers do before
    /// building, so the build renders as deployed.
    pub fn prepare_root(
        &self,
        kustomization: &str,
        keep_fixes: bool,
        options: Option<&crate::load::BuildOptions>,
    ) -> Result<(), RenderError> {
        let path = self.root().join(kustomization);
        let text =
            std::fs::read_to_string(&path).map_err(|e| RenderError::Scratch(e.to_string()))?;
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        let mut doc = crate::yaml::parse_document(text)
            .map_err(|e| RenderError::Failed(format!("{kustomization}: {}", e.message)))?
            .unwrap_or_else(|| Value::Object(Default::default()));
        let Some(map) = doc.as_object_mut() else {
            return Err(RenderError::Failed(format!(
                "{kustomization} is not a mapping"
            )));
        };
        let mut meta: Vec<Value> = map
            .get("buildMetadata")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if !meta.iter().any(|v| v == "originAnnotations") {
            meta.push(Value::from("originAnnotations"));
        }
        map.insert("buildMetadata".into(), Value::Array(meta));
        if let Some(o) = options {
            for (key, value) in [
                ("namePrefix", &o.name_prefix),
                ("nameSuffix", &o.name_suffix),
                ("namespace", &o.namespace),
            ] {
                if let Some(v) = value {
                    map.insert(key.into(), Value::from(v.as_str()));
                }
            }
            let mut append = |key: &str, items: Vec<Value>| {
                if items.is_empty() {
                    return;
                }
                let list = map.entry(key).or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(list) = list {
                    list.extend(items);
                }
            };
            append(
                "components",
                o.components
                    .iter()
                    .map(|c| Value::from(c.as_str()))
                    .collect(),
            );
            append(
                "patches",
                o.patches
                    .iter()
                    .filter_map(|p| serde_json::from_str::<Value>(p).ok())
                    .collect(),
            );
        }
        if !keep_fixes {
            for key in ["resources", "patches"] {
                if let Some(Value::Array(list)) = map.get_mut(key) {
                    list.retain(|e| !is_fix_entry(e));
                }
            }
        }
        let json =
            serde_json::to_vec_pretty(&doc).map_err(|e| RenderError::Scratch(e.to_string()))?;
        std::fs::write(&path, json).map_err(|e| RenderError::Scratch(e.to_string()))
    }

    /// Restores `path` from the repository (undoing [`Scratch::write`] or a preparation).
    pub fn restore(&self, root: &Path, path: &str) -> Result<(), RenderError> {
        match std::fs::read(root.join(path)) {
            Ok(bytes) => self.write(path, &bytes),
            Err(_) => {
                let _ = std::fs::remove_file(self.root().join(path));
                Ok(())
            }
        }
    }
}

/// Whether a `resources:` or `patches:` entry is one this tool adds to a build root.
pub fn is_fix_entry(entry: &Value) -> bool {
    crate::plan::kustomize::entry_path(entry).is_some_and(super::is_listed_fix)
}

/// The origin of a rendered object: its file, root-relative (`build_dir` joined with the
/// annotation's path), or `None` (generated by kustomize, or remote).
pub fn origin_file(object: &Value, build_dir: &str) -> Option<String> {
    let text = object
        .pointer("/metadata/annotations")
        .and_then(|a| a.get("config.kubernetes.io/origin"))
        .and_then(Value::as_str)?;
    let origin = crate::yaml::parse_document(text).ok()??;
    if origin.get("repo").is_some() {
        return None;
    }
    let path = origin.get("path").and_then(Value::as_str)?;
    // A vendored copy of a remote resource (`--remote-cache`) is remote too.
    if path.split('/').any(|p| p == super::remote::SCRATCH_DIR) {
        return None;
    }
    crate::model::kustomize::join_relative(build_dir, path)
}

/// The object without the annotations kustomize added for us (and without an annotations
/// map left empty by that).
pub fn without_origin(mut object: Value) -> Value {
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        let empty = match meta.get_mut("annotations").and_then(Value::as_object_mut) {
            Some(a) => {
                a.remove("config.kubernetes.io/origin");
                a.is_empty()
            }
            None => false,
        };
        if empty {
            meta.remove("annotations");
        }
    }
    object
}

/// Content hash of everything a build reads (the files under the directories it reaches, the
/// prepared root kustomization included), the renderer and the build directory: equal keys
/// render equally.
pub fn cache_key(scratch: &Path, dirs: &[String], renderer: &Renderer, extra: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for d in dirs {
        let base = if d.is_empty() {
            scratch.to_path_buf()
        } else {
            scratch.join(d)
        };
        for entry in walkdir::WalkDir::new(&base)
            .follow_links(false)
            .into_iter()
            .flatten()
        {
            if entry.file_type().is_file()
                && let Ok(rel) = entry.path().strip_prefix(scratch)
                && let Ok(bytes) = std::fs::read(entry.path())
            {
                files.insert(rel.to_string_lossy().into_owned(), bytes);
            }
        }
    }
    let mut h = Sha256::new();
    h.update(renderer.describe().as_bytes());
    // The program itself: an upgrade in place must not reuse old renders.
    if let Ok(meta) = std::fs::metadata(&renderer.program) {
        h.update(meta.len().to_le_bytes());
        if let Ok(modified) = meta.modified()
            && let Ok(since) = modified.duration_since(std::time::UNIX_EPOCH)
        {
            h.update(since.as_nanos().to_le_bytes());
        }
    }
    h.update(extra.as_bytes());
    for (name, bytes) in &files {
        h.update(name.as_bytes());
        h.update([0]);
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectls_multi_line_errors_are_kept_whole() {
        // kubectl (klog) logs an error spanning lines as `err=<`, the lines indented, ` >`.
        let scratch = Path::new("/tmp/scratch-1");
        let stderr = "E1128 03:08:38.049767   23484 run.go:72] \"command failed\" err=<\n\ttrouble configuring builtin PatchTransformer with config: `\n\tpath: /tmp/scratch-1/app/patch.yaml\n\t`: unable to parse SM or JSON patch\n >\n";
        assert_eq!(
            kustomize_message(stderr, scratch),
            "trouble configuring builtin PatchTransformer with config: ` path: app/patch.yaml `: unable to parse SM or JSON patch"
        );
        let one_line =
            "E1128 run.go:72] \"command failed\" err=\"accumulating resources: missing\"\n";
        assert_eq!(
            kustomize_message(one_line, scratch),
            "accumulating resources: missing"
        );
    }

    #[test]
    fn only_the_kinds_the_tool_reads_are_parsed_from_a_render() {
        // A CRD nesting deeper than the parser's budget does not fail the build.
        let mut deep = String::from(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\nspec:\n",
        );
        for depth in 1..100 {
            deep.push_str(&"  ".repeat(depth));
            deep.push_str("a:\n");
        }
        deep.push_str(&"  ".repeat(100));
        deep.push_str("b: 1\n");
        let stream = format!(
            "{deep}---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: c\n"
        );
        let docs = parse_stream(stream.as_bytes()).unwrap();
        let kinds: Vec<&str> = docs.iter().filter_map(|d| d["kind"].as_str()).collect();
        assert_eq!(kinds, vec!["Ingress"]);
        // A document of a kind the tool reads that cannot be parsed still fails the render.
        let bad = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: [unclosed\n";
        assert!(parse_stream(bad.as_bytes()).is_err());
    }
}
