//! Progress on stderr: the bar and summary lines of `generate`, the spinner of
//! searches.

use super::text::count;
use indicatif::{ProgressBar, ProgressStyle};
use millbase::answer::opening::SearchProgress;
use millbase::build::generate::{Observer, Report};
use millbase::index::Subspace;
use millbase::solve::solver::Progress;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::Instant;

/// Progress display of `generate`: a bar on stderr, a summary line per subspace
/// on stdout. When stderr is not a terminal (a log file), plain lines replace
/// the bar. Progress that cannot be written to stderr is dropped; a summary line
/// that cannot be written to stdout stops the run after the pair in progress.
pub struct GenerateUi {
    pub bar: ProgressBar,
    /// Plain progress lines on stderr instead of the bar.
    lines: bool,
    pub start: Instant,
    quiet: bool,
    /// The plan, told when the work starts.
    plan: Mutex<String>,
    current: Mutex<String>,
    /// The first failure to write to stdout.
    output_error: Mutex<Option<std::io::Error>>,
    /// The pairs to solve with their expected seconds, and how far the run is.
    eta: Mutex<Eta>,
}

/// The whole run's time left: the expected seconds of the pairs not done yet,
/// scaled by how the pairs done so far compared with their expectation.
struct Eta {
    expected: Vec<(Subspace, f64)>,
    done_expected: f64,
    done_actual: f64,
    pair_start: Option<(Instant, f64)>,
}

impl Eta {
    /// A pair starts: the seconds left for the whole run, if known.
    fn start(&mut self, sub: Subspace) -> Option<f64> {
        if let Some((t, e)) = self.pair_start.take() {
            self.done_actual += t.elapsed().as_secs_f64();
            self.done_expected += e;
        }
        let pos = self.expected.iter().position(|(s, _)| *s == sub)?;
        let left: f64 = self.expected[pos..].iter().map(|e| e.1).sum();
        self.pair_start = Some((Instant::now(), self.expected[pos].1));
        let scale = if self.done_expected > 1.0 {
            self.done_actual / self.done_expected
        } else {
            1.0
        };
        (left > 0.0).then_some(left * scale)
    }
}

impl GenerateUi {
    pub fn new(quiet: bool, expected: Vec<(Subspace, f64)>) -> GenerateUi {
        GenerateUi {
            bar: table_bar(quiet),
            lines: !quiet && !std::io::stderr().is_terminal(),
            start: Instant::now(),
            current: Mutex::new(String::new()),
            output_error: Mutex::new(None),
            eta: Mutex::new(Eta {
                expected,
                done_expected: 0.0,
                done_actual: 0.0,
                pair_start: None,
            }),
            quiet,
            plan: Mutex::new(String::new()),
        }
    }

    /// Tells the plan when the work starts (the directory checked).
    pub fn set_plan(&self, plan: String) {
        if let Ok(mut p) = self.plan.lock() {
            *p = plan;
        }
    }

    /// A line on stderr unless quiet, whatever stderr is.
    pub fn note_always(&self, line: &str) {
        if !self.quiet {
            self.note(line);
        }
    }

    /// The failure to write to stdout that stopped the run, if any.
    pub fn output_error(&self) -> Option<std::io::Error> {
        self.output_error.lock().ok()?.take()
    }

    /// A progress line on stderr (dropped if stderr is gone).
    fn note(&self, line: &str) {
        self.bar.suspend(|| {
            let _ = writeln!(std::io::stderr(), "{line}");
        });
    }
}

impl Progress for GenerateUi {
    fn initialised(&self, done: u64) {
        self.bar.inc(done);
    }
    fn level(&self, plies: u16) {
        let cur = self.current.lock().map(|c| c.clone()).unwrap_or_default();
        self.bar.set_message(format!("{cur}: level {plies}"));
        if self.lines && plies.is_multiple_of(20) {
            self.note(&format!(
                "{cur}: propagated level {plies} ({:.0} s since start)",
                self.start.elapsed().as_secs_f64()
            ));
        }
    }
}

impl Observer for GenerateUi {
    fn start_pair(&self, sub: Subspace, move_limit: Option<u16>, positions: u64) {
        let mut name = if sub.negate() == sub || !sub.is_movement() {
            sub.to_string()
        } else {
            format!("{sub}+{}", sub.negate())
        };
        if let Some(l) = move_limit {
            name = format!("{name} rule {l}");
        }
        // the run's estimate counts the game's solves; a pair's rule solve
        // counts in with it, so the scale of the estimate takes it in
        let left = match move_limit {
            None => self.eta.lock().ok().and_then(|mut e| e.start(sub)),
            Some(_) => None,
        };
        let run_eta = left.map_or(String::new(), |s| {
            format!("; whole run: about {} left", super::text::duration(s))
        });
        self.bar.set_length(positions);
        self.bar.set_position(0);
        self.bar.reset_eta();
        self.bar.set_message(format!("{name}: init"));
        if self.lines {
            self.note(&format!(
                "{name}: solving {positions} positions ({:.0} s since start{run_eta})",
                self.start.elapsed().as_secs_f64()
            ));
        } else if !run_eta.is_empty() {
            self.note_always(&format!("{name}: solving{run_eta}"));
        }
        if let Ok(mut c) = self.current.lock() {
            *c = name;
        }
    }
    fn finished(&self, r: &Report) {
        let c = &r.counts;
        let name = match r.move_limit {
            None => r.subspace.to_string(),
            Some(l) => format!("{} rule {l}", r.subspace),
        };
        let line = if r.skipped {
            format!(
                "{:>5}: already solved ({})",
                name,
                count(c.classes, "class", "classes")
            )
        } else {
            format!(
                "{:>5}: {}, {}, {}, {}, max win {} max loss {} plies, {:.1} s, peak {:.2} GB, {} bytes",
                name,
                count(c.classes, "class", "classes"),
                count(c.wins, "win", "wins"),
                count(c.losses, "loss", "losses"),
                count(c.draws, "draw", "draws"),
                c.max_win,
                c.max_loss,
                r.seconds,
                r.peak_bytes as f64 / 1e9,
                r.file_bytes
            )
        };
        let mut failed = self.output_error.lock().unwrap_or_else(|p| p.into_inner());
        if failed.is_none()
            && let Err(e) = self.bar.suspend(|| {
                let mut out = std::io::stdout().lock();
                writeln!(out, "{line}").and_then(|()| out.flush())
            })
        {
            *failed = Some(e);
        }
    }
    fn ready(&self) {
        let plan = self.plan.lock().map(|p| p.clone()).unwrap_or_default();
        if !plan.is_empty() {
            self.note_always(&plan);
        }
    }
    fn rebuilding(&self, sub: Subspace, reason: &str) {
        self.note(&format!("{sub}: building its file again: {reason}"));
    }
    fn keep_going(&self) -> bool {
        self.output_error
            .lock()
            .map(|e| e.is_none())
            .unwrap_or(false)
    }
}

/// The bar of the work on one table: its name, the positions done and the
/// rate (hidden if `hidden`).
fn table_bar(hidden: bool) -> ProgressBar {
    let bar = if hidden {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:24} [{bar:30}] {human_pos}/{human_len} {per_sec} ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// A bar on stderr counting `what` (hidden when stderr is not a terminal).
pub fn counter_bar(what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{pos}}/{{len}} {what}, {{elapsed}}, ETA {{eta}}"))
            .expect("valid template"),
    );
    bar
}

/// Runs `work` with a spinner on stderr showing the nodes searched (none when
/// `quiet` or when stderr is not a terminal).
pub fn with_spinner<T>(quiet: bool, progress: &SearchProgress, work: impl FnOnce() -> T) -> T {
    if quiet || !std::io::stderr().is_terminal() {
        return work();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"),
    );
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        let bar = &bar;
        s.spawn(move || {
            let wait = std::time::Duration::from_millis(200);
            while finished.recv_timeout(wait).is_err() {
                let n = progress.nodes.load(std::sync::atomic::Ordering::Relaxed);
                bar.set_message(format!("{n} positions searched"));
                bar.tick();
            }
            bar.finish_and_clear();
        });
        let out = work();
        let _ = done.send(());
        out
    })
}

/// Progress display of `verify`: a bar on stderr for the table being
/// checked. When stderr is not a terminal (a log file), a plain line per
/// table replaces the bar.
pub struct VerifyUi {
    bar: ProgressBar,
    lines: bool,
    start: Instant,
}

impl VerifyUi {
    pub fn new() -> VerifyUi {
        let lines = !std::io::stderr().is_terminal();
        VerifyUi {
            bar: table_bar(lines),
            lines,
            start: Instant::now(),
        }
    }

    /// Runs `f` (which writes a result line) with the bar out of the way.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl millbase::build::verify::Watch for VerifyUi {
    fn start(&self, sub: Subspace, move_limit: Option<u16>, positions: u64) {
        let name = match move_limit {
            None => sub.to_string(),
            Some(l) => format!("{sub} rule {l}"),
        };
        self.bar.set_length(positions);
        self.bar.set_position(0);
        self.bar.reset_eta();
        self.bar.set_message(name.clone());
        if self.lines {
            let _ = writeln!(
                std::io::stderr(),
                "{name}: reading the tables its moves lead into, then checking {positions} positions ({:.0} s since start)",
                self.start.elapsed().as_secs_f64()
            );
        }
    }
    fn checked(&self, positions: u64) {
        self.bar.inc(positions);
    }
}
