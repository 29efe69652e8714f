//! The terminal report: a header, one aligned row per benchmark as it
//! finishes, notes under the rows that need them, and a closing count.
//! Smoke tests (`cargo test --benches`) print libtest's format instead.

use std::io;

use termcolor::{Color, ColorSpec, WriteColor};

use super::format::{count, percent, time};
use crate::results::{BenchResult, Measured, Outcome, RunInfo};

const TIME_WIDTH: usize = 10;
const COLUMNS: [&str; 6] = ["median", "mean", "min", "max", "std dev", "spread"];

/// Writes the report to any colour-aware writer (stdout, or a buffer in tests).
pub struct Terminal<W: WriteColor> {
    out: W,
    name_width: usize,
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
    pub fn new<'a>(out: W, names: impl IntoIterator<Item = &'a str>) -> Self {
        let name_width = names
            .into_iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max("benchmark".len());
        Terminal { out, name_width }
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// The run's header: what clock measures, how finely, and the table's
    /// column titles.
    pub fn bench_header(&mut self, info: &RunInfo) -> io::Result<()> {
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
        self.out.reset()?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        write!(self.out, "{:<w$}", "benchmark", w = self.name_width)?;
        for column in COLUMNS {
            write!(self.out, "  {column:>TIME_WIDTH$}")?;
        }
        writeln!(self.out, "  {:>8}  {:>7}", "samples", "iters")?;
        self.out.reset()
    }

    /// One benchmark's row, and its notes or failure underneath.
    pub fn bench_row(&mut self, result: &BenchResult) -> io::Result<()> {
        write!(self.out, "{:<w$}", result.name, w = self.name_width)?;
        match &result.outcome {
            Outcome::Measured(measured) => self.measured_row(measured),
            Outcome::Failed(failure) => {
                self.colour(Color::Red, true)?;
                write!(self.out, "  FAILED")?;
                self.out.reset()?;
                writeln!(self.out, ": {}", failure.message)?;
                if let Some(location) = &failure.location {
                    writeln!(self.out, "  at {location}")?;
                }
                Ok(())
            }
            Outcome::Ignored => {
                self.colour(Color::Yellow, false)?;
                writeln!(self.out, "  ignored")?;
                self.out.reset()
            }
            Outcome::Passed => writeln!(self.out, "  ok"),
        }
    }

    fn measured_row(&mut self, m: &Measured) -> io::Result<()> {
        let s = &m.summary;
        self.colour(Color::Green, true)?;
        write!(self.out, "  {:>TIME_WIDTH$}", time(s.median))?;
        self.out.reset()?;
        for value in [s.mean, s.min, s.max, s.std_dev] {
            write!(self.out, "  {:>TIME_WIDTH$}", time(value))?;
        }
        let spread = s.coefficient_of_variation;
        if spread > 0.05 {
            self.colour(Color::Yellow, false)?;
        }
        write!(self.out, "  {:>TIME_WIDTH$}", percent(spread))?;
        self.out.reset()?;
        writeln!(self.out, "  {:>8}  {:>7}", s.n, count(m.total_iters()))?;
        for note in &m.notes {
            self.colour(Color::Yellow, false)?;
            writeln!(self.out, "  note: {note}")?;
            self.out.reset()?;
        }
        Ok(())
    }

    /// The closing line of a measured run.
    pub fn bench_summary(&mut self, results: &[BenchResult], seconds: f64) -> io::Result<()> {
        let tally = Tally::of(results);
        writeln!(self.out)?;
        writeln!(
            self.out,
            "{} measured, {} failed, {} ignored in {seconds:.1} s",
            tally.measured, tally.failed, tally.ignored
        )?;
        self.failure_list(results)
    }

    /// libtest's opening line.
    pub fn test_header(&mut self, n: usize) -> io::Result<()> {
        let plural = if n == 1 { "" } else { "s" };
        writeln!(self.out, "\nrunning {n} benchmark{plural}")
    }

    /// libtest's `test NAME ... ok` line.
    pub fn test_line(&mut self, result: &BenchResult) -> io::Result<()> {
        write!(self.out, "test {} ... ", result.name)?;
        let (colour, word) = match &result.outcome {
            Outcome::Passed | Outcome::Measured(_) => (Color::Green, "ok"),
            Outcome::Failed(_) => (Color::Red, "FAILED"),
            Outcome::Ignored => (Color::Yellow, "ignored"),
        };
        self.colour(colour, false)?;
        write!(self.out, "{word}")?;
        self.out.reset()?;
        writeln!(self.out)
    }

    /// libtest's failure details and `test result:` line, which CI tools
    /// that read cargo test output understand.
    pub fn test_summary(
        &mut self,
        results: &[BenchResult],
        filtered_out: usize,
        seconds: f64,
    ) -> io::Result<()> {
        let failures: Vec<_> = failures(results).collect();
        if !failures.is_empty() {
            writeln!(self.out, "\nfailures:\n")?;
            for (name, failure) in &failures {
                writeln!(self.out, "---- {name} ----")?;
                match &failure.location {
                    Some(location) => writeln!(self.out, "{} (at {location})\n", failure.message)?,
                    None => writeln!(self.out, "{}\n", failure.message)?,
                }
            }
            writeln!(self.out, "failures:")?;
            for (name, _) in &failures {
                writeln!(self.out, "    {name}")?;
            }
        }
        let tally = Tally::of(results);
        let ok = tally.failed == 0;
        write!(self.out, "\ntest result: ")?;
        self.colour(if ok { Color::Green } else { Color::Red }, false)?;
        write!(self.out, "{}", if ok { "ok" } else { "FAILED" })?;
        self.out.reset()?;
        writeln!(
            self.out,
            ". {} passed; {} failed; {} ignored; 0 measured; {filtered_out} filtered out; finished in {seconds:.2}s\n",
            tally.passed + tally.measured,
            tally.failed,
            tally.ignored
        )
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

fn failures(results: &[BenchResult]) -> impl Iterator<Item = (&str, &crate::run::Failure)> {
    results.iter().filter_map(|r| match &r.outcome {
        Outcome::Failed(failure) => Some((r.name.as_str(), failure)),
        _ => None,
    })
}

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
