//! A tiny HTTP/1.1 server on 127.0.0.1 that runs `git http-backend` (the CGI program shipped
//! with git) behind Basic auth. It records every credential it is offered, so tests can check
//! that the token arrived as the password. Dropping the server stops it.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub struct GitHttpServer {
    pub base_url: String,
    addr: std::net::SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
    /// `(user, password)` of every Authorization header received.
    pub credentials: Arc<Mutex<Vec<(String, String)>>>,
    /// Request lines served, e.g. `GET /remote.git/info/refs?service=git-upload-pack -> 200`.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl GitHttpServer {
    /// Serves the repositories under `project_root`; only `password` is accepted.
    pub fn start(project_root: &Path, password: &str) -> GitHttpServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let credentials = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::new(Mutex::new(Vec::new()));
        let backend = git_http_backend();
        let root = project_root.to_path_buf();
        let password = password.to_string();
        let accept = {
            let stop = stop.clone();
            let credentials = credentials.clone();
            let log = log.clone();
            std::thread::spawn(move || {
                let mut workers = Vec::new();
                for conn in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    let ctx = Ctx {
                        backend: backend.clone(),
                        root: root.clone(),
                        password: password.clone(),
                        credentials: credentials.clone(),
                        log: log.clone(),
                    };
                    workers.push(std::thread::spawn(move || {
                        let _ = serve(conn, &ctx);
                    }));
                }
                for w in workers {
                    let _ = w.join();
                }
            })
        };
        GitHttpServer {
            base_url: format!("http://{addr}"),
            addr,
            stop,
            accept: Some(accept),
            credentials,
            log,
        }
    }
}

impl Drop for GitHttpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept.
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

/// Whether git's `http-backend` CGI program is installed (a visible skip, or a failure
/// under CI, when not).
pub fn available() -> bool {
    let found = Command::new("git")
        .arg("--exec-path")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .is_some_and(|exec| PathBuf::from(exec.trim()).join("git-http-backend").exists());
    super::required(found, "`git http-backend`", "publishing over HTTP")
}

fn git_http_backend() -> PathBuf {
    let out = Command::new("git").arg("--exec-path").output().unwrap();
    let exec = String::from_utf8(out.stdout).unwrap();
    let path = PathBuf::from(exec.trim()).join("git-http-backend");
    assert!(
        path.exists(),
        "git-http-backend not found at {}",
        path.display()
    );
    path
}

struct Ctx {
    backend: PathBuf,
    root: PathBuf,
    password: String,
    credentials: Arc<Mutex<Vec<(String, String)>>>,
    log: Arc<Mutex<Vec<String>>>,
}

fn serve(conn: TcpStream, ctx: &Ctx) -> std::io::Result<()> {
    conn.set_read_timeout(Some(std::time::Duration::from_secs(20)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut out = conn;
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(());
    }
    let mut parts = request_line.split_whitespace();
    let verb = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut headers = BTreeMap::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let user = match headers.get("authorization") {
        Some(h) => {
            let decoded = h
                .strip_prefix("Basic ")
                .and_then(base64_decode)
                .unwrap_or_default();
            let (u, p) = decoded.split_once(':').unwrap_or((&decoded, ""));
            ctx.credentials
                .lock()
                .unwrap()
                .push((u.to_string(), p.to_string()));
            (p == ctx.password).then(|| u.to_string())
        }
        None => None,
    };
    let Some(user) = user else {
        ctx.log
            .lock()
            .unwrap()
            .push(format!("{verb} {target} -> 401"));
        out.write_all(
            b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"git\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        )?;
        out.flush()?;
        let _ = out.shutdown(Shutdown::Both);
        return Ok(());
    };
    if headers
        .get("expect")
        .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
    }
    let body = if headers
        .get("transfer-encoding")
        .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
    {
        read_chunked(&mut reader)?
    } else {
        let n: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut buf = vec![0; n];
        reader.read_exact(&mut buf)?;
        buf
    };
    let (path_info, query) = target.split_once('?').unwrap_or((&target, ""));
    let mut cmd = Command::new(&ctx.backend);
    cmd.env("GIT_PROJECT_ROOT", &ctx.root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("REQUEST_METHOD", &verb)
        .env("PATH_INFO", path_info)
        .env("QUERY_STRING", query)
        .env("CONTENT_LENGTH", body.len().to_string())
        .env("REMOTE_USER", &user)
        .env("REMOTE_ADDR", "127.0.0.1")
        .env("SERVER_PROTOCOL", "HTTP/1.1")
        .env("GATEWAY_INTERFACE", "CGI/1.1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(ct) = headers.get("content-type") {
        cmd.env("CONTENT_TYPE", ct);
    }
    if let Some(enc) = headers.get("content-encoding") {
        cmd.env("HTTP_CONTENT_ENCODING", enc);
    }
    if let Some(p) = headers.get("git-protocol") {
        cmd.env("HTTP_GIT_PROTOCOL", p);
    }
    let mut child = cmd.spawn()?;
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&body);
    });
    let output = child.wait_with_output()?;
    let _ = writer.join();
    let raw = output.stdout;
    let split = find(&raw, b"\r\n\r\n")
        .map(|i| (i, 4))
        .or_else(|| find(&raw, b"\n\n").map(|i| (i, 2)));
    let (head, payload) = match split {
        Some((i, n)) => (
            String::from_utf8_lossy(&raw[..i]).into_owned(),
            &raw[i + n..],
        ),
        None => (String::new(), &raw[..]),
    };
    let mut status = "200 OK".to_string();
    let mut response_headers = String::new();
    for line in head.lines() {
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("status") {
                status = v.trim().to_string();
            } else {
                response_headers.push_str(&format!("{}: {}\r\n", k.trim(), v.trim()));
            }
        }
    }
    ctx.log
        .lock()
        .unwrap()
        .push(format!("{verb} {target} -> {status}"));
    out.write_all(
        format!(
            "HTTP/1.1 {status}\r\n{response_headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
            payload.len()
        )
        .as_bytes(),
    )?;
    out.write_all(payload)?;
    out.flush()?;
    let _ = out.shutdown(Shutdown::Both);
    Ok(())
}

fn read_chunked(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size_line = String::new();
        reader.read_line(&mut size_line)?;
        let size = usize::from_str_radix(size_line.trim().split(';').next().unwrap_or("0"), 16)
            .unwrap_or(0);
        if size == 0 {
            // Trailers until an empty line.
            loop {
                let mut l = String::new();
                if reader.read_line(&mut l)? == 0 || l.trim().is_empty() {
                    break;
                }
            }
            return Ok(body);
        }
        let mut chunk = vec![0; size];
        reader.read_exact(&mut chunk)?;
        body.extend_from_slice(&chunk);
        let mut crlf = String::new();
        reader.read_line(&mut crlf)?;
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn base64_decode(s: &str) -> Option<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut out = Vec::new();
    for c in s.trim().bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        bits = (bits << 6) | v;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Makes the bare repository at `repo` refuse every push with a server-side hook.
pub fn reject_pushes(repo: &Path, reason: &str) {
    use std::os::unix::fs::PermissionsExt;
    let hooks = repo.join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let hook = hooks.join("pre-receive");
    std::fs::write(&hook, format!("#!/bin/sh\necho '{reason}' >&2\nexit 1\n")).unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
}
