//! Progress on stderr while the run measures.
//!
//! On a terminal, one live line (`[3/19] parse_f64 · measuring · 12s
//! elapsed · ~25s left`), redrawn by a ticker thread and erased before the
//! table is printed. Elsewhere (CI logs, pipes), one plain line per finished
//! benchmark, `[k/N] NAME  TIME ±X%`, at most about one a second: the
//! benchmarks that finish within a second of the last line are folded into
//! the next one (`(and 2 more)`); and when no line was written for
//! [`HEARTBEAT`] (an interleaved run finishes its benchmarks near the end),
//! the live line's text once, so a CI log is never silent for long.
//! `--quiet` turns both off.
//!
//! PERF: the run never waits on the display. The scheduler and the workers
//! publish what they do in relaxed atomics (`run::Watch`); a ticker thread
//! that sleeps between ticks reads them, formats the line and writes it only
//! when its text changed (about once a second: the elapsed time has a
//! resolution of one second). So nothing is written from the thread being
//! measured, and the ticker's few microseconds of work a second run on
//! whichever CPU is free, as any other process's would.
//!
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::format;
use crate::run::status::{relay_line, Source, Status};

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `--quiet`.
    Off,
    /// stderr is a terminal: one live line, redrawn.
    Live,
    /// stderr is a file or a pipe: a line per finished benchmark.
    Lines,
    /// A worker: its status, whenever it changes, as one line the
    /// parent reads from its stderr ([`relay_line`],
    /// [`relayed`](crate::run::status::relayed)) and shows in its own
    /// display.
    Relay,
}

impl Mode {
    /// The mode for this process's stderr: live on a terminal (but for
    /// `TERM=dumb`, which cannot erase a line), plain lines elsewhere.
    pub(crate) fn for_stderr(quiet: bool) -> Mode {
        let dumb = std::env::var_os("TERM").is_some_and(|term| term == "dumb");
        if quiet {
            Mode::Off
        } else if std::io::stderr().is_terminal() && !dumb {
            Mode::Live
        } else {
            Mode::Lines
        }
    }
}

/// A duration as the live line shows it: `7s`, `1m05s`, `2h03m`.
pub(crate) fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The live line, at most `width - 1` characters (a line that reaches the
/// last column wraps on some terminals, and could then not be erased): the
/// name is shortened in the middle first, then the line is cut.
pub(crate) fn live_line(status: &Status, width: usize) -> String {
    let left = status
        .remaining
        .map(|s| format!(" · ~{} left", duration(s)))
        .unwrap_or_default();
    let tail = format!(
        " · {} · {} elapsed{left}",
        status.stage,
        duration(status.elapsed)
    );
    let name = format::escape(&status.name);
    let head = if name.is_empty() || status.counter.is_empty() {
        status.counter.clone()
    } else {
        format!("{} ", status.counter)
    };
    let room = width.saturating_sub(1);
    let fixed = head.chars().count() + tail.chars().count();
    let line = format!(
        "{head}{}{tail}",
        shorten_middle(&name, room.saturating_sub(fixed).max(12))
    );
    line.chars().take(room).collect()
}

/// `text` in at most `max` characters, with `…` in place of its middle.
pub(crate) fn shorten_middle(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    if max <= 1 {
        return "…".chars().take(max).collect();
    }
    let keep = max - 1;
    let front = keep.div_ceil(2);
    let back = keep - front;
    let head: String = text.chars().take(front).collect();
    let tail: String = text.chars().skip(count - back).collect();
    format!("{head}…{tail}")
}

/// A finished benchmark's figure for its line: the time per iteration in
/// nanoseconds and the relative half-width of its interval, as measured
/// (the table's may differ slightly: it subtracts the loop overhead as the
/// whole run measured it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Figure {
    /// The time as the report's row will read it (never negative: a bound
    /// or `≈0` where the interval reaches zero).
    Time(format::Headline),
    /// `--against`: this build's time over the other's, and the verdict.
    Ratio {
        ratio: f64,
        verdict: String,
    },
    Failed,
    /// `--against`: both builds' times within the loop overhead's noise.
    TooFast,
}

/// A plain line for benchmark `done` of `total`; `more` others finished
/// since the last line (they are counted in `done`).
pub(crate) fn done_line(
    done: usize,
    total: usize,
    name: &str,
    figure: &Figure,
    more: usize,
) -> String {
    let figure = match figure {
        Figure::Time(headline) => match headline.plus_minus() {
            Some(pm) => format!("{} {pm}", headline.time()),
            None => headline.time(),
        },
        Figure::Ratio { ratio, verdict } => format!("×{ratio:.3} of the other build, {verdict}"),
        Figure::Failed => "FAILED".to_string(),
        Figure::TooFast => "too fast to compare".to_string(),
    };
    let more = match more {
        0 => String::new(),
        n => format!("  (and {n} more)"),
    };
    format!("[{done}/{total}] {}  {figure}{more}", format::escape(name))
}

/// How often the ticker wakes: the line's text changes about once a second
/// (elapsed time in whole seconds), and is redrawn within this of a change.
const TICK: Duration = Duration::from_millis(250);

/// In [`Mode::Lines`], the least time between two lines.
const LINE_INTERVAL: Duration = Duration::from_secs(1);

/// In [`Mode::Lines`], the longest time without a line: then the run's
/// status (round, elapsed, time left) is written.
const HEARTBEAT: Duration = Duration::from_secs(5);

/// The display: a ticker thread over a [`Source`], until [`Progress::end`]
/// (or drop).
pub(crate) struct Progress {
    shared: Option<Arc<Shared>>,
    ticker: Option<thread::JoinHandle<()>>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("on", &self.shared.is_some())
            .finish()
    }
}

struct Shared {
    mode: Mode,
    source: Arc<dyn Source>,
    screen: Mutex<Screen>,
    stop: Condvar,
}

struct Screen {
    /// Where lines go: stderr (a capture in tests).
    out: fn(&str),
    /// The live line on screen, if any.
    shown: Option<String>,
    /// Finished benchmarks not yet written (lines mode): the latest one's
    /// line, and how many before it were folded in.
    pending: Option<(usize, usize, String, Figure)>,
    folded: usize,
    last_line: Option<Instant>,
    /// When the display started: the heartbeat's clock before any line.
    started: Instant,
    ended: bool,
}

impl Screen {
    fn new(out: fn(&str)) -> Screen {
        Screen {
            out,
            shown: None,
            pending: None,
            folded: 0,
            last_line: None,
            started: Instant::now(),
            ended: false,
        }
    }
}

/// The display on screen now, for [`pause_for_message`].
static ACTIVE: Mutex<Option<Arc<Shared>>> = Mutex::new(None);

impl Progress {
    /// No display.
    pub(crate) fn off() -> Progress {
        Progress {
            shared: None,
            ticker: None,
        }
    }

    /// Starts showing progress from `source` in `mode`.
    pub(crate) fn start(mode: Mode, source: Arc<dyn Source>) -> Progress {
        if mode == Mode::Off {
            return Progress::off();
        }
        let shared = Arc::new(Shared {
            mode,
            source,
            screen: Mutex::new(Screen::new(write_stderr)),
            stop: Condvar::new(),
        });
        *ACTIVE.lock().unwrap_or_else(PoisonError::into_inner) = Some(shared.clone());
        crate::console::route_stderr(pause_for_message);
        let ticking = shared.clone();
        let ticker = thread::Builder::new()
            .name("bench-progress".into())
            .spawn(move || ticking.tick_until_ended())
            .ok();
        Progress {
            shared: Some(shared),
            ticker,
        }
    }

    /// Benchmark `done` of `total` finished (lines mode: its line is written
    /// now, or folded into the next one within a second of the last).
    /// `figure` is asked for only there, the one mode that shows it (an
    /// estimate is not computed for nothing on the schedule's time); none
    /// writes no line.
    pub(crate) fn finished(
        &self,
        done: usize,
        total: usize,
        name: &str,
        figure: impl FnOnce() -> Option<Figure>,
    ) {
        let Some(shared) = &self.shared else { return };
        if shared.mode != Mode::Lines {
            return;
        }
        let Some(figure) = figure() else { return };
        let mut screen = shared.lock();
        if screen.pending.take().is_some() {
            screen.folded += 1;
        }
        screen.pending = Some((done, total, name.to_string(), figure));
        screen.flush_if_due(false);
    }

    /// Stops the display: the live line erased, the last plain line written.
    pub(crate) fn end(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let Some(shared) = self.shared.take() else {
            return;
        };
        {
            let mut screen = shared.lock();
            screen.ended = true;
            screen.erase();
            screen.flush_if_due(true);
        }
        shared.stop.notify_all();
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
        let mut active = ACTIVE.lock().unwrap_or_else(PoisonError::into_inner);
        if active.as_ref().is_some_and(|a| Arc::ptr_eq(a, &shared)) {
            *active = None;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Screen> {
        self.screen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn tick_until_ended(&self) {
        let mut screen = self.lock();
        loop {
            if screen.ended {
                return;
            }
            match self.mode {
                Mode::Live => {
                    // The source reads atomics only: cheap under the lock.
                    let width = terminal_width();
                    let line = live_line(&self.source.status(), width);
                    if screen.shown.as_deref() != Some(line.as_str()) {
                        (screen.out)(&format!("\r{line}\x1b[K"));
                        screen.shown = Some(line);
                    }
                }
                Mode::Lines => {
                    screen.flush_if_due(false);
                    screen.heartbeat_if_due(HEARTBEAT, || self.source.status());
                }
                Mode::Relay => {
                    let line = relay_line(&self.source.status());
                    if screen.shown.as_deref() != Some(line.as_str()) {
                        (screen.out)(&line);
                        screen.shown = Some(line);
                    }
                }
                Mode::Off => return,
            }
            screen = self
                .stop
                .wait_timeout(screen, TICK)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl Screen {
    /// Writes the run's status as a plain line when nothing was written
    /// for `interval` (lines mode).
    fn heartbeat_if_due(&mut self, interval: Duration, status: impl FnOnce() -> Status) {
        let quiet_since = self.last_line.unwrap_or(self.started);
        if quiet_since.elapsed() < interval {
            return;
        }
        let line = live_line(&status(), terminal_width());
        (self.out)(&format!("{line}\n"));
        self.last_line = Some(Instant::now());
    }

    /// Erases the live line, if one is shown.
    fn erase(&mut self) {
        // A relayed line (whole, with its line break) is not on a screen.
        if self.shown.take().is_some_and(|line| !line.ends_with('\n')) {
            (self.out)("\r\x1b[K");
        }
    }

    /// Writes the pending line if a second has passed since the last one,
    /// or at once with `now`.
    fn flush_if_due(&mut self, now: bool) {
        let due = now
            || self
                .last_line
                .is_none_or(|last| last.elapsed() >= LINE_INTERVAL);
        if !due {
            return;
        }
        if let Some((done, total, name, figure)) = self.pending.take() {
            let line = done_line(done, total, &name, &figure, self.folded);
            (self.out)(&format!("{line}\n"));
            self.folded = 0;
            self.last_line = Some(Instant::now());
        }
    }
}

/// Writes `line` to stderr with the live line out of its way: the live
/// line is erased first, and redrawn at the next tick.
pub(crate) fn pause_for_message(line: &str) {
    let active = ACTIVE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    match active {
        Some(shared) => {
            let mut screen = shared.lock();
            screen.erase();
            eprintln!("{line}");
        }
        None => eprintln!("{line}"),
    }
}

/// The width of the terminal stderr is, else `COLUMNS`, else 80.
fn terminal_width() -> usize {
    match bench_runtime::stdio::stderr_columns() {
        Some(columns) if columns >= 20 => columns,
        _ => std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|&c| c >= 20)
            .unwrap_or(80),
    }
}

/// One write of `text` to stderr (a failed write is not worth reporting:
/// progress is a courtesy).
fn write_stderr(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_seconds_minutes_and_hours() {
        assert_eq!(duration(0.2), "0s");
        assert_eq!(duration(7.4), "7s");
        assert_eq!(duration(65.0), "1m05s");
        assert_eq!(duration(3599.4), "59m59s");
        assert_eq!(duration(7380.0), "2h03m");
        assert_eq!(duration(-3.0), "0s");
    }

    fn status(name: &str) -> Status {
        Status {
            counter: "[3/19]".into(),
            name: name.into(),
            stage: "measuring".into(),
            elapsed: 12.3,
            remaining: Some(25.0),
        }
    }

    #[test]
    fn the_live_line_names_the_benchmark_its_phase_and_the_times() {
        assert_eq!(
            live_line(&status("kernels::parse_f64"), 100),
            "[3/19] kernels::parse_f64 · measuring · 12s elapsed · ~25s left"
        );
        let unknown = Status {
            remaining: None,
            ..status("fib")
        };
        assert_eq!(
            live_line(&unknown, 100),
            "[3/19] fib · measuring · 12s elapsed"
        );
        let uncounted = Status {
            counter: String::new(),
            ..status("the machine's reference kernel")
        };
        assert_eq!(
            live_line(&uncounted, 100),
            "the machine's reference kernel · measuring · 12s elapsed · ~25s left"
        );
    }

    #[test]
    fn a_long_name_is_shortened_in_the_middle_to_fit_the_width() {
        let name = format!("kernels::{}::end", "x".repeat(100));
        let line = live_line(&status(&name), 80);
        assert_eq!(line.chars().count(), 79, "{line}");
        assert!(line.starts_with("[3/19] kernels::xx"), "{line}");
        assert!(
            line.contains("x…x") && line.contains("x::end · measuring"),
            "{line}"
        );
        assert!(line.ends_with("~25s left"), "{line}");
    }

    #[test]
    fn a_narrow_terminal_cuts_the_line_rather_than_wrapping_it() {
        let line = live_line(&status("kernels::parse_f64"), 30);
        assert_eq!(line.chars().count(), 29, "{line}");
    }

    #[test]
    fn control_characters_in_a_name_cannot_move_the_cursor() {
        let line = live_line(&status("a\rb\u{1b}[2J"), 100);
        assert!(!line.contains('\r') && !line.contains('\u{1b}'), "{line}");
    }

    #[test]
    fn shortening_keeps_both_ends() {
        assert_eq!(shorten_middle("abcdefghij", 10), "abcdefghij");
        assert_eq!(shorten_middle("abcdefghij", 5), "ab…ij");
        assert_eq!(shorten_middle("abcdefghij", 6), "abc…ij");
        assert_eq!(shorten_middle("abcdefghij", 1), "…");
    }

    #[test]
    fn a_done_line_has_the_count_the_name_the_time_and_its_interval() {
        let figure = Figure::Time(format::Headline::new(1234.5, Some((1230.0, 1239.4))));
        assert_eq!(
            done_line(3, 19, "kernels::parse_f64", &figure, 0),
            "[3/19] kernels::parse_f64  1.234 µs ±0.40%"
        );
        assert_eq!(
            done_line(5, 19, "fib", &figure, 2),
            "[5/19] fib  1.234 µs ±0.40%  (and 2 more)"
        );
        assert_eq!(
            done_line(1, 2, "boom", &Figure::Failed, 0),
            "[1/2] boom  FAILED"
        );
        let no_interval = Figure::Time(format::Headline::new(2.0, None));
        assert_eq!(
            done_line(1, 1, "one", &no_interval, 0),
            "[1/1] one  2.000 ns"
        );
        // A body faster than the loop's noise: as its row reads, never a
        // negative time (a forked run's pooled estimate was shown
        // "-156.4 ps ±66.1%").
        for (nanos, interval, shown) in [
            (-0.1564, Some((-0.26, 0.05)), "[1/3] passes  <50.00 ps"),
            (-0.1564, Some((-0.26, -0.05)), "[1/3] passes  ≈0 ps"),
            (-0.1564, None, "[1/3] passes  ≈0 ps"),
        ] {
            let figure = Figure::Time(format::Headline::new(nanos, interval));
            assert_eq!(done_line(1, 3, "passes", &figure, 0), shown);
        }
        let ratio = Figure::Ratio {
            ratio: 0.9712,
            verdict: "improved".into(),
        };
        assert_eq!(
            done_line(2, 4, "sort", &ratio, 0),
            "[2/4] sort  ×0.971 of the other build, improved"
        );
        assert_eq!(
            done_line(3, 4, "empty", &Figure::TooFast, 0),
            "[3/4] empty  too fast to compare"
        );
    }

    thread_local! {
        static WRITTEN: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }

    fn capture(text: &str) {
        WRITTEN.with(|w| w.borrow_mut().push_str(text));
    }

    fn written() -> String {
        WRITTEN.with(|w| std::mem::take(&mut *w.borrow_mut()))
    }

    #[test]
    fn lines_within_a_second_of_the_last_are_folded_into_the_next() {
        let mut screen = Screen::new(capture);
        screen.pending = Some((1, 3, "a".into(), Figure::Failed));
        screen.flush_if_due(false);
        assert_eq!(
            written(),
            "[1/3] a  FAILED\n",
            "the first line is due at once"
        );
        screen.pending = Some((2, 3, "b".into(), Figure::Failed));
        screen.flush_if_due(false);
        assert_eq!(written(), "", "held back: a line was just written");
        // What `Progress::finished` does with a third one meanwhile.
        screen.pending = Some((3, 3, "c".into(), Figure::Failed));
        screen.folded += 1;
        screen.last_line = Some(Instant::now() - LINE_INTERVAL);
        screen.flush_if_due(false);
        assert_eq!(written(), "[3/3] c  FAILED  (and 1 more)\n");
        assert!(screen.pending.is_none() && screen.folded == 0);
    }

    #[test]
    fn a_log_quiet_for_the_heartbeat_gets_the_runs_status_once() {
        let mut screen = Screen::new(capture);
        screen.heartbeat_if_due(Duration::from_secs(3600), || status("a"));
        assert_eq!(written(), "", "not due yet");
        screen.heartbeat_if_due(Duration::ZERO, || status("a"));
        let line = written();
        assert!(
            line.starts_with("[3/19] a · measuring · 12s elapsed"),
            "{line}"
        );
        assert!(
            line.ends_with('\n') && !line.contains('\r'),
            "a plain line: {line:?}"
        );
        screen.heartbeat_if_due(Duration::from_secs(3600), || status("a"));
        assert_eq!(written(), "", "the clock restarts at the line");
    }

    #[test]
    fn the_end_writes_what_is_pending_and_erases_the_live_line() {
        let mut screen = Screen::new(capture);
        screen.last_line = Some(Instant::now());
        screen.pending = Some((2, 2, "b".into(), Figure::Failed));
        screen.shown = Some("[2/2] b · measuring".into());
        screen.erase();
        screen.flush_if_due(true);
        assert_eq!(written(), "\r\x1b[K[2/2] b  FAILED\n");
    }
}
