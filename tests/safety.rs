//! `generate` harms nothing that is not its own, one writer at a time, and no
//! command panics when its output goes away or fills up.

mod common;

use common::run;
use millbase::Variant;
use millbase::index::Subspace;
use millbase::solve::known::Kind;
use millbase::solve::value::Counts;
use millbase::storage::dir::{LOCK, MANIFEST, file_name};
use millbase::storage::{Speed, StorageError, Table, write_atomic, write_table};
use std::path::Path;
use std::process::{Command, Stdio};

fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
}

fn generate(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["generate", "--db", dir.to_str().unwrap(), "--quiet"];
    args.extend_from_slice(extra);
    run(&args)
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Every file below `dir` (but the lock, which names its last holder) with
/// its size and a hash of its bytes, sorted by path.
fn snapshot(dir: &Path) -> Vec<(String, usize, u64)> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.strip_prefix(dir).unwrap().display().to_string();
                if name != LOCK {
                    let bytes = std::fs::read(&p).unwrap();
                    let mut h = std::hash::DefaultHasher::new();
                    std::hash::Hash::hash(&bytes, &mut h);
                    out.push((name, bytes.len(), std::hash::Hasher::finish(&h)));
                }
            }
        }
    }
    out.sort();
    out
}

/// Runs millbase with `args`, its stdout a pipe whose reader is gone from the start.
fn with_closed_stdout(args: &[&str]) -> std::process::Output {
    let mut child = exe()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

fn no_panic(o: &std::process::Output) {
    let e = stderr(o);
    assert!(
        !e.contains("panicked") && o.status.code() != Some(101),
        "{e}"
    );
}

#[test]
fn a_directory_that_is_not_a_database_is_refused_untouched() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("notes.tmp"), "notes").unwrap();
    let before = snapshot(d.path());
    let o = generate(d.path(), &["--max-stones", "3"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not a millbase database"),
        "{}",
        stderr(&o)
    );
    assert_eq!(snapshot(d.path()), before);
}

#[test]
fn only_millbase_temporaries_are_removed() {
    let d = tempfile::tempdir().unwrap();
    assert!(generate(d.path(), &["--max-stones", "3"]).status.success());
    let p = d.path();
    std::fs::create_dir_all(p.join("work")).unwrap();
    for keep in ["notes.tmp", "work/notes.tmp", "3-3-0-0.mdb.bak"] {
        std::fs::write(p.join(keep), "mine").unwrap();
    }
    let stale = [
        "3-3-0-0.mdb.4242.millbase-tmp",
        "work/4-3-0-0.mdb.7.millbase-tmp",
    ];
    for s in stale {
        std::fs::write(p.join(s), "partial").unwrap();
    }
    let o = generate(p, &["--max-stones", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for keep in ["notes.tmp", "work/notes.tmp", "3-3-0-0.mdb.bak"] {
        assert_eq!(std::fs::read(p.join(keep)).unwrap(), b"mine", "{keep}");
    }
    for s in stale {
        assert!(!p.join(s).exists(), "{s}");
    }
}

#[test]
fn the_other_variant_is_never_overwritten() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    assert!(
        generate(p, &["--max-stones", "4", "--no-flying"])
            .status
            .success()
    );
    std::fs::remove_file(p.join(MANIFEST)).unwrap();
    let before = snapshot(p);
    // without its manifest, a flying run is refused and told how to restore it
    let o = generate(p, &["--max-stones", "4"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("no-flying") && e.contains("--no-flying"), "{e}");
    assert!(!e.contains("delete"), "{e}");
    assert_eq!(snapshot(p), before);
    // the files' own variant restores the manifest and finds every file solved
    let o = generate(p, &["--max-stones", "4", "--no-flying"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = 4 + millbase::index::plan::placement_plan(millbase::index::plan::Limits {
        max_stones: 4,
        ..Default::default()
    })
    .len();
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains(&format!("(0 solved now, {all} already there)")),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(p.join(MANIFEST).exists());

    // a no-flying file copied into a flying database is refused, not replaced
    let f = tempfile::tempdir().unwrap();
    assert!(generate(f.path(), &["--max-stones", "3"]).status.success());
    let name = file_name(Subspace::movement(3, 3));
    std::fs::copy(p.join(&name), f.path().join(&name)).unwrap();
    let before = snapshot(f.path());
    let o = generate(f.path(), &["--max-stones", "3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&name), "{}", stderr(&o));
    assert_eq!(snapshot(f.path()), before);
}

#[test]
fn one_writer_at_a_time_and_readers_need_no_lock() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    assert!(generate(p, &["--max-stones", "3"]).status.success());
    // this process takes the lock as a generate would
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(p.join(LOCK))
        .unwrap();
    lock.lock().unwrap();
    std::fs::write(p.join(LOCK), "31337").unwrap();
    let o = generate(p, &["--max-stones", "3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("31337"), "{}", stderr(&o));
    let o = run(&["upgrade", "--db", p.to_str().unwrap()]);
    assert!(stderr(&o).contains("31337"), "{}", stderr(&o));
    // readers go on
    let q = run(&[
        "query",
        "--db",
        p.to_str().unwrap(),
        "WW.....BB..........W.B.. w 0 0",
    ]);
    assert!(q.status.success(), "{}", stderr(&q));
    let v = run(&["verify", "--db", p.to_str().unwrap()]);
    assert!(v.status.success(), "{}", stderr(&v));
    drop(lock);
    assert!(generate(p, &["--max-stones", "3"]).status.success());
}

#[test]
fn a_killed_writer_leaves_no_stale_lock() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let mut child = common::spawn_silent(&[
        "generate",
        "--db",
        p.to_str().unwrap(),
        "--max-stones",
        "5",
        "--quiet",
    ]);
    // wait until it holds the lock, then kill it while it works
    let held = (0..3000).any(|_| {
        let pid = std::fs::read_to_string(p.join(LOCK)).unwrap_or_default();
        let held = pid.trim() == child.id().to_string();
        if !held {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        held
    });
    assert!(held, "the writer never took the lock");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the writer finished before it was killed"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let o = generate(p, &["--max-stones", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_directory_it_cannot_write_is_refused_before_any_work() {
    let d = tempfile::tempdir().unwrap();
    // the lock file cannot be created (a directory stands in its place): the
    // same failure as a read-only directory, which root would not see
    std::fs::create_dir(d.path().join(LOCK)).unwrap();
    let o = generate(d.path(), &["--max-stones", "4"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(LOCK), "{}", stderr(&o));
    let files: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
    assert_eq!(files.len(), 1, "nothing solved or written");
}

#[test]
fn closed_output_stops_quietly_and_full_output_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().to_str().unwrap();
    // the reader of the pipe is gone before the first line
    let o = with_closed_stdout(&["generate", "--db", p, "--max-stones", "4", "--quiet"]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // the pair in progress was finished and kept
    assert!(d.path().join("3-3-0-0.mdb").exists());

    let full = || std::fs::File::create("/dev/full").unwrap();
    for args in [
        vec!["generate", "--db", p, "--max-stones", "4", "--quiet"],
        vec!["verify", "--db", p, "--json"],
        vec!["verify", "--db", p],
        vec!["stats", "--db", p],
        vec!["subspaces", "--json"],
        vec!["perft", "........................ w 9 9", "3"],
    ] {
        let o = exe().args(&args).stdout(full()).output().unwrap();
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&o).contains("No space left"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // a closed pipe: quiet, status 0
    for args in [vec!["verify", "--db", p, "--json"], vec!["subspaces"]] {
        let o = with_closed_stdout(&args);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn thread_counts_are_bounded() {
    let d = tempfile::tempdir().unwrap();
    let o = generate(d.path(), &["--max-stones", "3", "--threads", "5000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("thread count"), "{}", stderr(&o));
    let o = generate(d.path(), &["--max-stones", "3", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_consistent_file_of_the_wrong_size_is_an_error_and_rebuilt() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    assert!(generate(p, &["--max-stones", "3"]).status.success());
    let sub = Subspace::movement(3, 3);
    let path = p.join(file_name(sub));
    let good = std::fs::read(&path).unwrap();
    // every checksum right, one block of entries too few
    let mut cells = Table::open(&path, Variant::default(), sub)
        .unwrap()
        .read_all()
        .unwrap();
    assert!(cells.len() > 4096, "3-3 spans more than one block");
    cells.truncate(cells.len() - 4096);
    let counts = Counts::default();
    write_table(
        &path,
        Variant::default(),
        sub,
        (&cells, None),
        counts,
        millbase::storage::dir::encoding_for(Kind::Game, sub),
        Speed::Small,
    )
    .unwrap();
    let e = Table::open(&path, Variant::default(), sub).err().unwrap();
    assert!(
        matches!(e, StorageError::Corrupt { .. }) && e.to_string().contains("entries"),
        "{e}"
    );
    let q = run(&[
        "query",
        "--db",
        p.to_str().unwrap(),
        "WW.....BB..........W.B.. w 0 0",
    ]);
    no_panic(&q);
    assert_eq!(q.status.code(), Some(1));
    let v = run(&["verify", "--db", p.to_str().unwrap()]);
    no_panic(&v);
    assert_eq!(v.status.code(), Some(1));
    // generate says why it builds the file again, and does
    let o = run(&["generate", "--db", p.to_str().unwrap(), "--max-stones", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("building its file again") && stderr(&o).contains("entries"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&path).unwrap(), good);
}

#[test]
fn a_manifest_of_a_newer_millbase_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    assert!(generate(p, &["--max-stones", "3"]).status.success());
    std::fs::write(p.join(MANIFEST), r#"{"format":99,"rules":"flying"}"#).unwrap();
    for o in [
        generate(p, &["--max-stones", "3"]),
        run(&[
            "query",
            "--db",
            p.to_str().unwrap(),
            "WW.....BB..........W.B.. w 0 0",
        ]),
    ] {
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains("newer millbase"), "{}", stderr(&o));
    }
}

#[test]
fn a_failed_atomic_write_leaves_no_temporary() {
    let d = tempfile::tempdir().unwrap();
    let target = d.path().join(MANIFEST);
    let e = write_atomic(&target, |_| Err(std::io::Error::other("no space left"))).unwrap_err();
    assert!(e.to_string().contains("no space left"), "{e}");
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn small_input_faults_get_clear_messages() {
    // a 100 kB position is not echoed whole
    let long = format!("{} w 0 0", "W".repeat(100_000));
    let o = run(&["show", &long]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).len() < 400, "{} bytes", stderr(&o).len());
    // extra spaces are fine
    let o = run(&["show", "WWW.BBB.........B.......  w 0 0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // perft depth is bounded
    let o = run(&["perft", "........................ w 9 9", "30"]);
    assert_eq!(o.status.code(), Some(2));
    // verify names the subspace asked for and what it needs
    let d = tempfile::tempdir().unwrap();
    assert!(generate(d.path(), &["--max-stones", "4"]).status.success());
    std::fs::remove_file(d.path().join(file_name(Subspace::movement(4, 3)))).unwrap();
    let o = run(&[
        "verify",
        "--db",
        d.path().to_str().unwrap(),
        "--subspace",
        "3-4",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("3-4 needs") && e.contains("4-3-0-0.mdb"), "{e}");
}
