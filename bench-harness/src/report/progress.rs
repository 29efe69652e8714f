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
//! The estimate of the time left (see [`remaining`]) works from each job's
//! budget (`--warm-up-time` + `--measure-time`) and, for jobs past their
//! budget that wait on the precision rule, from how far the interval still
//! is from the target: a 95% half-width `h` shrinks with the square root of
//! the measuring time, so reaching the target `t` takes `(h/t)²` times the
//! measuring time so far, at most `--max-time`.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::format;

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `--quiet`.
    Off,
    /// stderr is a terminal: one live line, redrawn.
    Live,
    /// stderr is a file or a pipe: a line per finished benchmark.
    Lines,
    /// A `--forks` child: its status, whenever it changes, as one line the
    /// parent reads from its stderr ([`relay_line`], [`relayed`]) and shows
    /// in its own display.
    Relay,
}

/// What starts a relayed status line: no line a program prints starts with
/// the ASCII record separator.
const RELAY_MARK: char = '\u{1e}';

/// The line a `--forks` child writes to relay `status`: the mark, then
/// counter, name and stage separated by the unit separator (any separator
/// or line break inside them replaced).
pub(crate) fn relay_line(status: &Status) -> String {
    let clean = |text: &str| text.replace(['\u{1e}', '\u{1f}', '\n', '\r'], " ");
    format!(
        "{RELAY_MARK}{}\u{1f}{}\u{1f}{}\n",
        clean(&status.counter),
        clean(&status.name),
        clean(&status.stage)
    )
}

/// The status a child relayed in `line` (without its line break), or
/// `None` for any other line.
pub(crate) fn relayed(line: &str) -> Option<[String; 3]> {
    let mut fields = line.strip_prefix(RELAY_MARK)?.split('\u{1f}');
    let mut next = || fields.next().map(str::to_string);
    Some([next()?, next()?, next()?])
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

/// Where a job is, as its worker last said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Not started yet (or its set-up is running).
    Waiting,
    /// Calibrating the sample size and warming up.
    WarmUp,
    /// Recording samples within its measuring budget.
    Measuring,
    /// Past its budget, recording until the precision target is met.
    Precision,
    Done,
}

impl Phase {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Phase::Waiting => "setting up",
            Phase::WarmUp => "warming up",
            Phase::Measuring => "measuring",
            Phase::Precision => "narrowing the interval",
            Phase::Done => "done",
        }
    }
}

/// One job as the estimate of the time left sees it (seconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct JobClock {
    pub(crate) phase: Phase,
    /// Time spent on it so far.
    pub(crate) spent: f64,
    /// Of which recording samples.
    pub(crate) measuring: f64,
    /// The precision rule's last relative half-width.
    pub(crate) half_width: Option<f64>,
    /// The precision target; `None` under a time budget.
    pub(crate) target: Option<f64>,
    /// The least it takes when nothing waits on precision: the warm-up cap
    /// and the measuring time.
    pub(crate) budget: f64,
    /// The most it takes: `--max-time`.
    pub(crate) max: f64,
}

impl JobClock {
    /// The whole time this job should take, from its precision so far;
    /// `None` before the rule has a half-width to go on.
    fn predicted_total(&self) -> Option<f64> {
        match (self.phase, self.half_width, self.target) {
            (Phase::Done, ..) => Some(self.spent),
            (Phase::Precision, Some(h), Some(t)) if t > 0.0 && h.is_finite() => {
                let more = self.measuring * ((h / t).powi(2) - 1.0).max(0.0);
                Some((self.spent + more).min(self.max).max(self.spent))
            }
            _ => None,
        }
    }
}

/// Seconds left for jobs measured one at a time (the in-process schedule),
/// `elapsed` seconds into measuring.
///
/// Each job needs its budget; a job with a precision target needs more
/// when its interval is still wide: its own prediction once it has one
/// ([`JobClock::predicted_total`]), else its budget stretched by the mean
/// ratio of total to budget of the precision jobs predicted or done so far.
/// The sum is scaled by the run's wall time per second of the jobs' own
/// (the harness's work between samples and slices), between 1 and 3.
pub(crate) fn remaining(jobs: &[JobClock], elapsed: f64) -> f64 {
    let left: f64 = jobs_left(jobs).iter().sum();
    let spent: f64 = jobs.iter().map(|job| job.spent).sum();
    let overhead = if spent > 0.5 {
        (elapsed / spent).clamp(1.0, 3.0)
    } else {
        1.0
    };
    left * overhead
}

/// Rounds of slices of `slice` seconds the interleaved schedule still
/// needs: every unfinished job takes one slice a round, so the job with
/// the most time left decides.
pub(crate) fn rounds_left(jobs: &[JobClock], slice: f64) -> usize {
    let most = jobs_left(jobs).into_iter().fold(0.0, f64::max);
    if slice > 0.0 {
        (most / slice).ceil() as usize
    } else {
        0
    }
}

/// Each job's own time left (see [`remaining`]).
fn jobs_left(jobs: &[JobClock]) -> Vec<f64> {
    let stretches: Vec<f64> = jobs
        .iter()
        .filter(|job| job.target.is_some() && job.budget > 0.0)
        .filter_map(|job| Some(job.predicted_total()? / job.budget))
        .collect();
    let stretch = if stretches.is_empty() {
        1.0
    } else {
        (stretches.iter().sum::<f64>() / stretches.len() as f64).max(1.0)
    };
    jobs.iter()
        .map(|job| {
            let total = job.predicted_total().unwrap_or_else(|| {
                let budget = if job.target.is_some() {
                    job.budget * stretch
                } else {
                    job.budget
                };
                budget.min(job.max)
            });
            (total - job.spent).max(0.0)
        })
        .collect()
}

/// Seconds left for a sequence of units of similar cost (processes under
/// `--forks`, benchmarks under `--against`): `pending` units not started,
/// one under way for `current` seconds (if any), each expected to take the
/// mean of the `finished` units' durations, or `prior` before any finished.
pub(crate) fn remaining_units(
    finished: &[f64],
    pending: usize,
    current: Option<f64>,
    prior: f64,
) -> f64 {
    let each = if finished.is_empty() {
        prior
    } else {
        finished.iter().sum::<f64>() / finished.len() as f64
    };
    let under_way = current.map_or(0.0, |spent| (each - spent).max(0.0));
    pending as f64 * each + under_way
}

/// What the live line shows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Status {
    /// `[3/19]`, or `3/19 done` when benchmarks run interleaved.
    pub(crate) counter: String,
    /// The benchmark running now (empty between benchmarks).
    pub(crate) name: String,
    /// Its phase, or the round (`round 41 of ~80`), or the process.
    pub(crate) stage: String,
    /// Seconds since measuring began.
    pub(crate) elapsed: f64,
    /// Estimated seconds left for the whole run.
    pub(crate) remaining: Option<f64>,
}

/// Where a [`Progress`] display reads the run's state from.
pub(crate) trait Source: Send + Sync {
    fn status(&self) -> Status;
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
    pub(crate) fn finished(&self, done: usize, total: usize, name: &str, figure: Figure) {
        let Some(shared) = &self.shared else { return };
        if shared.mode != Mode::Lines {
            return;
        }
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

    fn job(phase: Phase, spent: f64) -> JobClock {
        JobClock {
            phase,
            spent,
            measuring: 0.0,
            half_width: None,
            target: Some(0.01),
            budget: 0.4,
            max: 2.0,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn jobs_not_started_need_their_budget() {
        let jobs = [job(Phase::Waiting, 0.0), job(Phase::Waiting, 0.0)];
        assert!(close(remaining(&jobs, 0.0), 0.8));
    }

    #[test]
    fn a_job_part_way_through_its_budget_needs_the_rest() {
        let jobs = [job(Phase::Measuring, 0.3), job(Phase::Waiting, 0.0)];
        assert!(close(remaining(&jobs, 0.3), 0.1 + 0.4));
    }

    #[test]
    fn a_job_waiting_on_precision_needs_the_square_of_its_distance_to_the_target() {
        // ±2% after 0.3 s of measuring, target ±1%: four times the
        // measuring time in all, so 0.9 s more.
        let waiting = JobClock {
            measuring: 0.3,
            half_width: Some(0.02),
            ..job(Phase::Precision, 0.4)
        };
        assert!(close(remaining(&[waiting], 0.4), 0.9));
        // Never past --max-time.
        let far = JobClock {
            half_width: Some(0.1),
            ..waiting
        };
        assert!(close(remaining(&[far], 0.4), 2.0 - 0.4));
    }

    #[test]
    fn jobs_not_yet_judged_are_stretched_as_the_others_were() {
        // One job done in 1.2 s against a 0.4 s budget (3×): the next one
        // is expected to take as long.
        let jobs = [job(Phase::Done, 1.2), job(Phase::Waiting, 0.0)];
        assert!(close(remaining(&jobs, 1.2), 1.2));
        // Jobs under a time budget are not stretched.
        let budget_only = JobClock {
            target: None,
            ..job(Phase::Waiting, 0.0)
        };
        let jobs = [job(Phase::Done, 1.2), budget_only];
        assert!(close(remaining(&jobs, 1.2), 0.4));
    }

    #[test]
    fn the_harness_s_own_time_scales_the_estimate() {
        // 2 s of wall time for 1 s of the jobs' own: twice the rest.
        let jobs = [job(Phase::Done, 0.4), job(Phase::Measuring, 0.6)];
        let rest = remaining(&jobs, 1.0);
        assert!(close(remaining(&jobs, 2.0), 2.0 * rest), "{rest}");
        // ... but never more than three times.
        assert!(close(remaining(&jobs, 100.0), 3.0 * rest));
    }

    #[test]
    fn the_job_with_the_most_left_decides_the_rounds() {
        // 0.4 s and 0.1 s left, slices of 5 ms: 80 rounds.
        let jobs = [job(Phase::Waiting, 0.0), job(Phase::Measuring, 0.3)];
        assert_eq!(rounds_left(&jobs, 0.005), 80);
        assert_eq!(rounds_left(&[job(Phase::Done, 0.4)], 0.005), 0);
    }

    #[test]
    fn finished_jobs_need_nothing() {
        assert_eq!(remaining(&[job(Phase::Done, 1.0)], 1.0), 0.0);
        assert_eq!(remaining(&[], 0.0), 0.0);
    }

    #[test]
    fn units_take_as_long_as_the_finished_ones_did() {
        assert!(close(remaining_units(&[], 3, None, 2.5), 7.5));
        assert!(close(remaining_units(&[1.0, 3.0], 2, Some(0.5), 9.0), 5.5));
        // A unit past the mean needs nothing more by this estimate.
        assert!(close(remaining_units(&[1.0], 0, Some(4.0), 9.0), 0.0));
    }

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
