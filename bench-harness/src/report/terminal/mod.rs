//! The terminal report: a header, one row per benchmark, its notes, and a
//! closing count. Smoke tests (`cargo test --benches`) print libtest's
//! format instead.
//!
//! By default the table fits the terminal's width ([`text::stdout_width`]):
//! one line per benchmark with its time, ±, throughput and change, and each
//! kind of note said once under it ([`compact`]). `--details` prints every
//! statistic and every note under its row, as wide as it takes ([`rows`]).
//!
//! [`Terminal`] writes all of it, one part per file: the header, the
//! table's layout and the closing lines here; the compact rows and the
//! notes by kind in [`compact`]; the full rows in [`rows`]; the baseline
//! and A/B group tables in [`comparison`]; libtest's lines in [`smoke`];
//! fitting text to the width in [`text`].

mod compact;
mod comparison;
mod rows;
mod smoke;

/// A function's complexity line: under its rows in the tree (`prefix` not
/// empty) the fit alone, else named after the function.
fn complexity_text(report: &ComplexityReport, layout: Layout, prefix: &str) -> String {
    match &report.fit {
        Ok(fit) if layout == Layout::Tree && !prefix.is_empty() => {
            format!("complexity: {}", fit.describe())
        }
        Ok(fit) => format!(
            "complexity of {}: {}",
            escape(&report.function),
            fit.describe()
        ),
        Err(why) => format!("complexity of {}: {why}", escape(&report.function)),
    }
}

impl Terminal<'_> {
    /// A complexity line: its tree prefix dim, `text` in cyan.
    fn complexity_line(&mut self, prefix: &str, text: &str) -> io::Result<()> {
        self.dim()?;
        write!(self.out, "{prefix}")?;
        self.out.reset()?;
        self.colour(Color::Cyan, false)?;
        writeln!(self.out, "{text}")?;
        self.out.reset()
    }
}

#[cfg(test)]
mod tests;
pub(crate) mod text;

use std::borrow::Cow;
use std::io;

use termcolor::{Color, ColorSpec, WriteColor};

use super::format::{
    escape, overhead_words, pad_end, pad_start, percent, rerun_term, result_rate, schedule_words,
    stop_words, time, what_the_interval_covers, HEADLINE_METHOD, RERUN_MEANS,
};
use super::tree::{self, Line};
use compact::INDENT;
use comparison::signed_percent;
use text::wrap;

use crate::audit::Warning;
use crate::failure::Failure;
use crate::history::Drift;
use crate::results::{BenchResult, ComplexityReport, Outcome, RunInfo};
use crate::settings::Schedule;

const TIME_WIDTH: usize = 10;
const SHORT_WIDTH: usize = 7;
/// The label of the line under a row that repeats its figures without
/// outliers; the name column is at least this wide.
const FILTERED_LABEL: &str = "  without outliers";

/// Writes the report to any colour-aware writer (stdout, or a buffer in tests).
///
/// PERF: the writer is a trait object, not a type parameter, so that every
/// table is compiled once however many writers the report goes to: users
/// pay this crate's build on every clean `cargo bench`.
pub(crate) struct Terminal<'w> {
    out: &'w mut dyn WriteColor,
    name_width: usize,
    /// The throughput column's width; 0 when no row has a rate.
    rate_width: usize,
    /// The columns the compact table's lines fit in.
    width: usize,
    /// `--details`: every statistic, as wide as it takes.
    details: bool,
    /// `-v`: the whole header and every warning with its remedy; else a
    /// line each for the machine, its warnings and the method.
    verbose: bool,
}

/// How [`Terminal::bench_table`] lays out the names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// A tree by group, module, function, type and argument.
    Tree,
    /// One row per benchmark under its full name (`--flat`).
    Flat,
}

impl std::fmt::Debug for Terminal<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terminal")
            .field("name_width", &self.name_width)
            .finish_non_exhaustive()
    }
}

impl<'w> Terminal<'w> {
    /// A reporter whose name column fits every name in `names`.
    pub(crate) fn new<'a>(
        out: &'w mut dyn WriteColor,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let name_width = names
            .into_iter()
            .map(|n| escape(n).chars().count())
            .max()
            .unwrap_or(0)
            .max(FILTERED_LABEL.len());
        Terminal {
            out,
            name_width,
            rate_width: 0,
            width: text::DEFAULT_WIDTH,
            details: false,
            verbose: false,
        }
    }

    /// The same reporter with its tables fitted to `width` columns, or with
    /// every statistic (`details`, as wide as it takes).
    pub(crate) fn with_view(mut self, width: usize, details: bool) -> Self {
        self.width = width.max(text::MIN_WIDTH);
        self.details = details;
        self
    }

    /// The same reporter with the whole header before the table (`-v`;
    /// `--details` has it too).
    pub(crate) fn with_verbose(mut self, verbose: bool) -> Self {
        self.verbose = verbose;
        self
    }

    /// Whether the header is printed whole.
    fn whole_header(&self) -> bool {
        self.verbose || self.details
    }

    /// Before measuring: the machine in one line (wrapped to the width in
    /// the compact view), and how the run was set up.
    pub(crate) fn machine(
        &mut self,
        header: &str,
        pin: Option<usize>,
        cold_bytes: Option<usize>,
    ) -> io::Result<()> {
        self.dim()?;
        for line in self.fitted(&format!("machine: {header}")) {
            writeln!(self.out, "{line}")?;
        }
        self.out.reset()?;
        let mut setup = Vec::new();
        if let Some(cpu) = pin {
            setup.push(format!("measuring threads pinned to CPU {cpu}"));
        }
        if let Some(bytes) = cold_bytes {
            setup.push(format!(
                "cold caches: {} MiB walked before each sample, untimed",
                bytes >> 20
            ));
        }
        if !setup.is_empty() {
            for line in self.fitted(&setup.join(" · ")) {
                writeln!(self.out, "{line}")?;
            }
        }
        Ok(())
    }

    /// What makes the figures less trustworthy, each with its remedy: the
    /// loud ones (an unoptimised build) in red, the machine's in yellow.
    /// In the compact view, the machine's (quiet) warnings share one line
    /// of their short forms, and `-v` has the remedies.
    pub(crate) fn warnings(&mut self, warnings: &[Warning]) -> io::Result<()> {
        let (loud, quiet): (Vec<&Warning>, Vec<&Warning>) = warnings.iter().partition(|w| w.loud);
        if !self.whole_header() && !quiet.is_empty() {
            self.full_warnings(&loud)?;
            let shorts: Vec<&str> = quiet.iter().map(|w| w.short.as_str()).collect();
            self.colour(Color::Yellow, false)?;
            let line = format!("warning: {}; -v says what to do", shorts.join(" · "));
            for line in self.fitted(&line) {
                writeln!(self.out, "{line}")?;
            }
            return self.out.reset();
        }
        self.full_warnings(&warnings.iter().collect::<Vec<_>>())
    }

    fn full_warnings(&mut self, warnings: &[&Warning]) -> io::Result<()> {
        for warning in warnings {
            if warning.loud {
                self.colour(Color::Red, true)?;
            } else {
                self.colour(Color::Yellow, false)?;
            }
            for line in self.fitted(&format!("warning: {}", warning.message)) {
                writeln!(self.out, "{line}")?;
            }
            self.out.reset()?;
        }
        Ok(())
    }

    /// `text` as it is under `--details`, else wrapped to the width.
    fn fitted(&self, text: &str) -> Vec<String> {
        self.fitted_with(text, INDENT)
    }

    /// [`Terminal::fitted`], continuation lines starting with `indent`.
    fn fitted_with(&self, text: &str, indent: &str) -> Vec<String> {
        if self.details {
            vec![text.to_string()]
        } else {
            wrap(text, self.width, indent)
        }
    }

    /// The whole table: the header, then the rows laid out as `layout`
    /// says, each complexity fit under its function's rows; compact unless
    /// `--details`.
    pub(crate) fn bench_table(
        &mut self,
        info: &RunInfo,
        results: &[BenchResult],
        reports: &[ComplexityReport],
        layout: Layout,
    ) -> io::Result<()> {
        let rerun = rerun_term(results);
        if !self.details {
            self.run_header(info, rerun)?;
            return self.compact_table(results, reports, layout);
        }
        let lines = match layout {
            Layout::Tree => tree::tree(results, reports),
            Layout::Flat => tree::flat(results, reports),
        };
        self.name_width = lines
            .iter()
            .map(Line::width)
            .max()
            .unwrap_or(0)
            .max(FILTERED_LABEL.len());
        self.rate_width = results
            .iter()
            .filter_map(result_rate)
            .map(|rate| rate.chars().count())
            .max()
            .map_or(0, |width| width.max("throughput".len()));
        self.full_header(info, rerun)?;
        for line in &lines {
            match line {
                Line::Node { prefix, label } => {
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    writeln!(self.out, "{label}")?;
                }
                Line::Row {
                    prefix,
                    label,
                    index,
                } => {
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    let width = self.name_width - prefix.chars().count();
                    write!(self.out, "{}", pad_end(label, width))?;
                    self.row_figures(&results[*index])?;
                }
                Line::Complexity { prefix, index } => {
                    let text = complexity_text(&reports[*index], layout, prefix);
                    self.complexity_line(prefix, &text)?;
                }
            }
        }
        Ok(())
    }

    /// The lines above the column titles: the clock and the method.
    fn run_header(&mut self, info: &RunInfo, rerun: bool) -> io::Result<()> {
        self.dim()?;
        let clock = format!(
            "bench-harness {} · timer: {} at {:.3} GHz · resolution {} · read pair {} · samples ≥ {}",
            info.harness_version,
            info.clock_name,
            info.clock_hz / 1e9,
            time(info.precision.resolution.0),
            time(info.precision.overhead.0),
            time(info.sample_floor.0),
        );
        let schedule = schedule_words(info);
        let stop = if info.target_precision > 0.0 && !self.details {
            format!("until ±{}", percent(info.target_precision))
        } else {
            stop_words(info)
        };
        let (covers, short) = what_the_interval_covers(info);
        if !self.whole_header() {
            // One line: the clock, the loop's cost and the seed are `-v`'s.
            let schedule = match info.schedule {
                Schedule::Interleaved => "interleaved",
                Schedule::Sequential => "sequential",
            };
            let rerun = if rerun {
                " · rerun: where reruns fall (history)"
            } else {
                ""
            };
            let method = format!(
                "time: per call, loop overhead out · ± 95% CI {short}{rerun} · {schedule}, {stop}"
            );
            for line in self.fitted(&method) {
                writeln!(self.out, "{line}")?;
            }
            return self.out.reset();
        }
        let rerun = if rerun {
            format!(" · rerun: {RERUN_MEANS}")
        } else {
            String::new()
        };
        let method = if self.details {
            format!(
                "time: {HEADLINE_METHOD} (its speed probe slow beside them, or the thread preempted) · ± 95% CI {covers}{rerun} · {} · {schedule}, {stop}",
                overhead_words(info),
            )
        } else {
            format!(
                "time: {HEADLINE_METHOD}, loop overhead subtracted · ± 95% CI {covers}{rerun} · {schedule}, {stop}"
            )
        };
        for line in self.fitted(&clock).into_iter().chain(self.fitted(&method)) {
            writeln!(self.out, "{line}")?;
        }
        self.out.reset()
    }

    /// The run's header: what clock measures, how finely, what is subtracted,
    /// the stop rule; then, under `--details`, the table's column titles.
    fn full_header(&mut self, info: &RunInfo, rerun: bool) -> io::Result<()> {
        self.run_header(info, rerun)?;
        self.out.reset()?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        write!(self.out, "{}", pad_end("benchmark", self.name_width))?;
        write!(self.out, "  {:>TIME_WIDTH$}  {:>SHORT_WIDTH$}", "time", "±")?;
        if self.rate_width > 0 {
            write!(self.out, "  {}", pad_start("throughput", self.rate_width))?;
        }
        for column in ["median", "mean", "std dev"] {
            write!(self.out, "  {column:>TIME_WIDTH$}")?;
        }
        write!(self.out, "  {:>SHORT_WIDTH$}", "spread")?;
        for column in ["min", "max"] {
            write!(self.out, "  {column:>TIME_WIDTH$}")?;
        }
        writeln!(
            self.out,
            "  {:>8}  {:>8}  {:>7}  {:<8}",
            "outliers", "samples", "iters", "stop"
        )?;
        self.out.reset()
    }

    /// The closing lines of a measured run: what concerns the whole run,
    /// the count, and in the compact view what the marks mean.
    pub(crate) fn bench_summary(
        &mut self,
        results: &[BenchResult],
        seconds: f64,
        partial: bool,
    ) -> io::Result<()> {
        let tally = Tally::of(results);
        writeln!(self.out)?;
        if partial {
            self.colour(Color::Red, true)?;
            for line in self.fitted(super::format::PARTIAL_RUN) {
                writeln!(self.out, "{line}")?;
            }
            self.out.reset()?;
        }
        let refused = results.iter().find_map(|r| {
            let refusals = &r.measured()?.extras.refusals;
            (!refusals.is_empty()).then_some(refusals)
        });
        for refusal in refused.into_iter().flatten() {
            let events: Vec<&str> = refusal.events.iter().map(|e| e.name()).collect();
            let text = format!(
                "note: counters not measured ({}): {}",
                events.join(", "),
                refusal.reason
            );
            self.note(&text)?;
        }
        let unreliable: Vec<_> = results
            .iter()
            .filter(|r| r.measured().is_some_and(|m| !m.reliable()))
            .map(|r| escape(&r.name))
            .collect();
        // The compact view says this with the other notes, under the table.
        if self.details && !unreliable.is_empty() {
            self.note(&format!(
                "note: not reliable (± marked ?): {}: the machine disturbed most of their slices, or too few were independent, so the ± may not hold even for this run; rerun on a quieter machine, raise --max-time, or raise --forks",
                unreliable.join(", "),
            ))?;
        }
        let (left_out, blocks) = results.iter().filter_map(BenchResult::measured).fold(
            (0, 0),
            |(left_out, blocks), m| {
                (
                    left_out + m.estimate.left_out(),
                    blocks + m.estimate.block_means.len(),
                )
            },
        );
        if left_out > 0 {
            let share = left_out as f64 / blocks as f64;
            let text = if self.details {
                format!(
                    "note: the machine was slow beside {left_out} of {blocks} slices ({}): the speed probe run beside each slice was over {} slower than its fast level, or the thread was descheduled; those slices are left out of every time, and the machine's speed also moves between runs, so compare implementations within one interleaved run rather than across runs",
                    percent(share),
                    percent(crate::analysis::PROBE_SLOWER),
                )
            } else {
                format!(
                    "note: the machine was slow in {} of slices (its speed probe): left out of every time",
                    percent(share),
                )
            };
            self.note(&text)?;
        }
        let mut closing = format!(
            "{} measured, {} failed, {} ignored in {seconds:.1} s",
            tally.measured, tally.failed, tally.ignored
        );
        if !self.details {
            let measured = || results.iter().filter_map(BenchResult::measured);
            if measured().any(|m| !compact::credible(m)) {
                closing.push_str(" · ? = ± not credible");
            }
            if measured().any(crate::report::notes::marked) {
                closing.push_str(" · * = read its note");
            }
            if tally.measured > 0 {
                closing.push_str(" · more: --details");
            }
        }
        for line in self.fitted(&closing) {
            writeln!(self.out, "{line}")?;
        }
        self.failure_list(results)
    }

    /// The machine against its recent runs (the reference kernel in the
    /// history): a warning when this run's speed is beyond their spread,
    /// else one line saying it is not.
    pub(crate) fn machine_drift(&mut self, drift: &Drift) -> io::Result<()> {
        let recent = format!(
            "its last {} runs (reference kernel {} against {}, ±{} run to run)",
            drift.runs,
            time(drift.now_ns),
            time(drift.recent_ns),
            percent(drift.spread),
        );
        if drift.beyond {
            let text = format!(
                "warning: the machine ran {} {} than in {recent}: every time of this run is \
                 likely off by about as much; rerun when the machine is quiet, or compare \
                 within one run (A/B groups)",
                percent(drift.change.abs()),
                if drift.change > 0.0 {
                    "slower"
                } else {
                    "faster"
                },
            );
            return self.note(&text);
        }
        let text = format!("machine: as fast as in {recent}");
        self.dim()?;
        for line in self.fitted(&text) {
            writeln!(self.out, "{line}")?;
        }
        self.out.reset()
    }

    /// A note on the whole run, in yellow.
    fn note(&mut self, text: &str) -> io::Result<()> {
        self.colour(Color::Yellow, false)?;
        for line in self.fitted(text) {
            writeln!(self.out, "{line}")?;
        }
        self.out.reset()
    }

    fn failure_list(&mut self, results: &[BenchResult]) -> io::Result<()> {
        let names: Vec<_> = failures(results).map(|(name, _)| name).collect();
        if !names.is_empty() {
            self.colour(Color::Red, true)?;
            for line in self.fitted(&format!("failed: {}", names.join(", "))) {
                writeln!(self.out, "{line}")?;
            }
            self.out.reset()?;
        }
        Ok(())
    }

    fn colour(&mut self, colour: Color, bold: bool) -> io::Result<()> {
        self.out
            .set_color(ColorSpec::new().set_fg(Some(colour)).set_bold(bold))
    }

    fn dim(&mut self) -> io::Result<()> {
        self.out.set_color(ColorSpec::new().set_dimmed(true))
    }
}

/// The failed benchmarks (their names escaped), with why.
fn failures(results: &[BenchResult]) -> impl Iterator<Item = (Cow<'_, str>, &Failure)> {
    results.iter().filter_map(|r| match &r.outcome {
        Outcome::Failed(failure) => Some((escape(&r.name), failure)),
        _ => None,
    })
}

/// A failure's message as printed: each of its lines escaped (a panic
/// message may span lines, as `assert_eq!`'s does), the lines after the
/// first indented by `indent`.
fn message_lines(message: &str, indent: &str) -> String {
    message
        .lines()
        .map(escape)
        .collect::<Vec<_>>()
        .join(&format!("\n{indent}"))
}

/// How many benchmarks ended each way.
#[derive(Default)]
struct Tally {
    measured: usize,
    passed: usize,
    failed: usize,
    ignored: usize,
}

impl Tally {
    fn of(results: &[BenchResult]) -> Tally {
        let mut tally = Tally::default();
        for result in results {
            match result.outcome {
                Outcome::Measured(_) => tally.measured += 1,
                Outcome::Passed => tally.passed += 1,
                Outcome::Failed(_) => tally.failed += 1,
                Outcome::Ignored => tally.ignored += 1,
            }
        }
        tally
    }
}
