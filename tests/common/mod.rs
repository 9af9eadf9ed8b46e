//! Running the `millbase` binary from the integration tests.

use std::process::{Command, Output};

/// Runs `millbase` with `args` and waits for it.
#[allow(dead_code)]
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .output()
        .expect("run millbase")
}

/// Runs `millbase` with `args`, `input` on its standard input, and waits for
/// it.
#[allow(dead_code)]
pub fn run_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run millbase");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("wait for millbase")
}

/// Starts `millbase` with `args` in the background, its output discarded.
#[allow(dead_code)]
pub fn spawn_silent(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start millbase")
}

/// A child process killed when dropped.
#[allow(dead_code)]
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `millbase serve` on `db` on a free loopback port: the process and
/// the `HOST:PORT` it printed.
#[allow(dead_code)]
pub fn serve(db: &std::path::Path) -> (Killed, String) {
    serve_with(db, &[])
}

/// [`serve`] with more arguments (`--idle-timeout 1`, ...).
#[allow(dead_code)]
pub fn serve_with(db: &std::path::Path, more: &[&str]) -> (Killed, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args([
            "serve",
            "--db",
            db.to_str().unwrap(),
            "--addr",
            "127.0.0.1:0",
        ])
        .args(more)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start millbase serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let host = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (Killed(child), host)
}

/// A database made by `millbase generate --quiet` with `args` in a new
/// temporary directory; the run must succeed.
#[allow(dead_code)]
pub fn generated(args: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut a = vec!["generate", "--db", dir.path().to_str().unwrap(), "--quiet"];
    a.extend_from_slice(args);
    let o = run(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir
}

/// A database shared by the tests of one test binary ([`shared_db`]).
#[allow(dead_code)]
pub struct Fixture(std::path::PathBuf);

impl Fixture {
    /// Its directory.
    #[allow(dead_code)]
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

/// A database made by `millbase generate --quiet` with `args`, built once per
/// test binary and shared by its tests: for tests that only read it (one
/// that damages, rewrites or adds files takes [`generated`], its own).
/// It lives in a folder of this process under cargo's `target/tmp`; the
/// first call of a later run removes the folders of processes gone.
#[allow(dead_code)]
pub fn shared_db(args: &[&str]) -> &'static Fixture {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static BUILT: OnceLock<Mutex<HashMap<Vec<String>, &'static Fixture>>> = OnceLock::new();
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixtures");
    let built = BUILT.get_or_init(|| {
        // the folders of earlier runs whose process is gone
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let pid = entry.file_name().to_string_lossy().to_string();
            if !std::path::Path::new("/proc").join(&pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        Mutex::new(HashMap::new())
    });
    let key: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut built = built.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(f) = built.get(&key) {
        return f;
    }
    let dir = root
        .join(std::process::id().to_string())
        .join(if key.is_empty() {
            "default".to_string()
        } else {
            key.join("_")
        });
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut a = vec!["generate", "--db", dir.to_str().unwrap(), "--quiet"];
    a.extend_from_slice(args);
    let o = run(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let f: &'static Fixture = Box::leak(Box::new(Fixture(dir)));
    built.insert(key, f);
    f
}

/// A flying database built into a new temporary directory within `limits`.
#[allow(dead_code)]
pub fn flying_db(limits: millbase::index::plan::Limits) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    millbase::build::generate::generate(
        dir.path(),
        millbase::Variant::default(),
        limits,
        &millbase::index::Indexer::new(),
        &millbase::build::generate::Silent,
    )
    .unwrap();
    dir
}

/// GET `uri` from the router of `millbase serve` on the database in `dir`:
/// the status and the JSON body. One router serves each database for the
/// whole test binary, as one server serves every request, so that its
/// caches are exercised.
#[allow(dead_code)]
pub async fn api_get(
    dir: &std::path::Path,
    uri: &str,
) -> (axum::http::StatusCode, serde_json::Value) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static ROUTERS: OnceLock<Mutex<HashMap<std::path::PathBuf, axum::Router>>> = OnceLock::new();
    let router = {
        let mut routers =
            (ROUTERS.get_or_init(Default::default).lock()).unwrap_or_else(|p| p.into_inner());
        (routers.entry(dir.to_path_buf()))
            .or_insert_with(|| fresh_router(dir))
            .clone()
    };
    send(router, uri).await
}

/// [`api_get`] from a router of its own: a server started anew.
#[allow(dead_code)]
pub async fn api_get_fresh(
    dir: &std::path::Path,
    uri: &str,
) -> (axum::http::StatusCode, serde_json::Value) {
    send(fresh_router(dir), uri).await
}

fn fresh_router(dir: &std::path::Path) -> axum::Router {
    millbase::server::router(millbase::answer::query::Database::open(dir).unwrap())
}

async fn send(router: axum::Router, uri: &str) -> (axum::http::StatusCode, serde_json::Value) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let r = router
        .oneshot(
            axum::http::Request::get(uri)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = r.status();
    let bytes = r.into_body().collect().await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, json)
}

/// `millbase review --json` of the game of `moves` from `start` on the
/// database `db`; the run must succeed.
#[allow(dead_code)]
pub fn review_json(db: &str, start: &str, moves: &str) -> serde_json::Value {
    let o = run(&[
        "review",
        "--db",
        db,
        "--position",
        start,
        "--moves",
        moves,
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}
