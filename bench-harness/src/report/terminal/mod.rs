//! The terminal report: a header, one aligned row per benchmark as it
//! finishes, notes under the rows that need them, and a closing count.
//! Smoke tests (`cargo test --benches`) print libtest's format instead.
//!
//! [`Terminal`] writes all of it, one part per file: the header, the table's
//! layout and the closing lines here; a benchmark's row in [`rows`]; the
//! baseline and A/B group tables in [`comparison`]; libtest's lines in
//! [`smoke`].

mod comparison;
mod rows;
mod smoke;

use std::borrow::Cow;
use std::io;

use termcolor::{Color, ColorSpec, WriteColor};

use super::format::{escape, percent, result_rate, time};
use super::tree::{self, Line};

use crate::audit::Warning;
use crate::failure::Failure;
use crate::results::{BenchResult, ComplexityReport, Outcome, RunInfo, MACHINE_DRIFT};
use crate::settings::Schedule;

const TIME_WIDTH: usize = 10;
const SHORT_WIDTH: usize = 7;
/// The label of the line under a row that repeats its figures without
/// outliers; the name column is at least this wide.
const FILTERED_LABEL: &str = "  without outliers";

/// Writes the report to any colour-aware writer (stdout, or a buffer in tests).
pub(crate) struct Terminal<W: WriteColor> {
    out: W,
    name_width: usize,
    /// The throughput column's width; 0 when no row has a rate.
    rate_width: usize,
}

/// How [`Terminal::bench_table`] lays out the names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// A tree by group, module, function, type and argument.
    Tree,
    /// One row per benchmark under its full name (`--flat`).
    Flat,
}

impl<W: WriteColor> std::fmt::Debug for Terminal<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terminal")
            .field("name_width", &self.name_width)
            .finish_non_exhaustive()
    }
}

impl<W: WriteColor> Terminal<W> {
    /// A reporter whose name column fits every name in `names`.
    pub(crate) fn new<'a>(out: W, names: impl IntoIterator<Item = &'a str>) -> Self {
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
        }
    }

    pub(crate) fn into_inner(self) -> W {
        self.out
    }

    /// Before measuring: the machine in one line, then what makes its figures
    /// less trustworthy (the loud ones first), and how the run was set up.
    pub(crate) fn machine(
        &mut self,
        header: &str,
        warnings: &[Warning],
        pin: Option<usize>,
        cold_bytes: Option<usize>,
    ) -> io::Result<()> {
        for warning in warnings.iter().filter(|w| w.loud) {
            self.colour(Color::Red, true)?;
            writeln!(self.out, "warning: {}", warning.message)?;
            self.out.reset()?;
        }
        self.dim()?;
        writeln!(self.out, "machine: {header}")?;
        self.out.reset()?;
        for warning in warnings.iter().filter(|w| !w.loud) {
            self.colour(Color::Yellow, false)?;
            writeln!(self.out, "warning: {}", warning.message)?;
            self.out.reset()?;
        }
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
            writeln!(self.out, "{}", setup.join(" · "))?;
        }
        Ok(())
    }

    /// The whole table: the header, then the rows laid out as `layout`
    /// says, each complexity fit under its function's rows.
    pub(crate) fn bench_table(
        &mut self,
        info: &RunInfo,
        results: &[BenchResult],
        reports: &[ComplexityReport],
        layout: Layout,
        details: bool,
    ) -> io::Result<()> {
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
        self.bench_header(info)?;
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
                    write!(self.out, "{label:<width$}")?;
                    self.row_figures(&results[*index], details)?;
                }
                Line::Complexity { prefix, index } => {
                    let report = &reports[*index];
                    let text = match (&report.fit, layout) {
                        (Ok(fit), Layout::Tree) => format!("complexity: {}", fit.describe()),
                        (Ok(fit), Layout::Flat) => {
                            format!(
                                "complexity of {}: {}",
                                escape(&report.function),
                                fit.describe()
                            )
                        }
                        (Err(why), _) => {
                            format!("complexity of {}: {why}", escape(&report.function))
                        }
                    };
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    self.colour(Color::Cyan, false)?;
                    writeln!(self.out, "{text}")?;
                    self.out.reset()?;
                }
            }
        }
        Ok(())
    }

    /// The run's header: what clock measures, how finely, what is subtracted,
    /// the stop rule, and the table's column titles.
    pub(crate) fn bench_header(&mut self, info: &RunInfo) -> io::Result<()> {
        self.dim()?;
        writeln!(
            self.out,
            "bench-harness {} · timer: {} at {:.3} GHz · resolution {} · read pair {} · samples ≥ {}",
            info.harness_version,
            info.clock_name,
            info.clock_hz / 1e9,
            time(info.precision.resolution.0),
            time(info.precision.overhead.0),
            time(info.sample_floor.0),
        )?;
        let (schedule, unit) = match info.schedule {
            Schedule::Interleaved => (
                format!("interleaved rounds (--seed {})", info.seed),
                "slice",
            ),
            Schedule::Sequential => ("sequential".to_string(), "twentieth of the run"),
        };
        let mut stop = if info.target_precision > 0.0 {
            format!(
                "until the time is known to ±{}",
                percent(info.target_precision)
            )
        } else {
            "for --measure-time".to_string()
        };
        if let Some(processes) = info.forks {
            stop.push_str(&format!(
                " · each benchmark in {processes} process{} (--forks), samples pooled",
                if processes == 1 { "" } else { "es" }
            ));
        }
        writeln!(
            self.out,
            "time: mean of each {unit}'s median in the fast regime (slow episodes left out) · ± 95% CI for this run on this machine · loop overhead subtracted: {} per sample + {} ± {} per iteration · {schedule}, {stop}",
            time(info.overhead.per_sample.0),
            time(info.overhead.per_iter.0),
            time(info.overhead.per_iter_uncertainty.0),
        )?;
        self.out.reset()?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        write!(self.out, "{:<w$}", "benchmark", w = self.name_width)?;
        write!(self.out, "  {:>TIME_WIDTH$}  {:>SHORT_WIDTH$}", "time", "±")?;
        if self.rate_width > 0 {
            write!(self.out, "  {:>w$}", "throughput", w = self.rate_width)?;
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

    /// The closing line of a measured run.
    pub(crate) fn bench_summary(
        &mut self,
        results: &[BenchResult],
        seconds: f64,
    ) -> io::Result<()> {
        let tally = Tally::of(results);
        writeln!(self.out)?;
        let refused = results.iter().find_map(|r| {
            let refusals = &r.measured()?.extras.refusals;
            (!refusals.is_empty()).then_some(refusals)
        });
        for refusal in refused.into_iter().flatten() {
            let events: Vec<&str> = refusal.events.iter().map(|e| e.name()).collect();
            self.colour(Color::Yellow, false)?;
            writeln!(
                self.out,
                "note: counters not measured ({}): {}",
                events.join(", "),
                refusal.reason
            )?;
            self.out.reset()?;
        }
        let unreliable: Vec<_> = results
            .iter()
            .filter(|r| r.measured().is_some_and(|m| !m.reliable()))
            .map(|r| escape(&r.name))
            .collect();
        if !unreliable.is_empty() {
            self.colour(Color::Yellow, false)?;
            writeln!(
                self.out,
                "note: not reliable (± marked ?): {}: most of their slices ran in slow episodes, or too few were independent, so the ± may not hold even for this run; rerun on a quieter machine, raise --max-time, or measure with --forks",
                unreliable.join(", "),
            )?;
            self.out.reset()?;
        }
        let mut drifts: Vec<f64> = results.iter().filter_map(|r| r.measured()?.drift).collect();
        drifts.sort_by(f64::total_cmp);
        let drifted = drifts.iter().filter(|&&d| d > MACHINE_DRIFT).count();
        if drifted > 0 {
            self.colour(Color::Yellow, false)?;
            writeln!(
                self.out,
                "note: the machine's speed changed during the run: slice medians varied by more than {} (CV) in {drifted} of {} benchmarks (median {}); each time is its fast regime's, but the machine's speed also moves between runs, so compare implementations within one interleaved run rather than across runs",
                percent(MACHINE_DRIFT),
                drifts.len(),
                percent(crate::analysis::percentile(&drifts, 50.0)),
            )?;
            self.out.reset()?;
        }
        writeln!(
            self.out,
            "{} measured, {} failed, {} ignored in {seconds:.1} s",
            tally.measured, tally.failed, tally.ignored
        )?;
        self.failure_list(results)
    }

    fn failure_list(&mut self, results: &[BenchResult]) -> io::Result<()> {
        let names: Vec<_> = failures(results).map(|(name, _)| name).collect();
        if !names.is_empty() {
            self.colour(Color::Red, true)?;
            writeln!(self.out, "failed: {}", names.join(", "))?;
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
