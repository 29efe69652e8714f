//! Smoke tests (`cargo test --benches`) in libtest's format: `running N
//! benchmarks`, a `test NAME ... ok` line each, the failures, and the
//! `test result:` line that CI tools read.

use std::io;

use termcolor::Color;

use super::{failures, message_lines, Tally, Terminal};
use crate::report::format::escape;
use crate::results::{BenchResult, Outcome};

impl Terminal<'_> {
    /// libtest's opening line.
    pub(crate) fn test_header(&mut self, n: usize) -> io::Result<()> {
        let plural = if n == 1 { "" } else { "s" };
        writeln!(self.out, "\nrunning {n} benchmark{plural}")
    }

    /// libtest's `test NAME ... ok` line.
    pub(crate) fn test_line(&mut self, result: &BenchResult) -> io::Result<()> {
        write!(self.out, "test {} ... ", escape(&result.name))?;
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
    pub(crate) fn test_summary(
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
                let message = message_lines(&failure.message, "");
                match &failure.location {
                    Some(at) => writeln!(self.out, "{message} (at {})\n", escape(at))?,
                    None => writeln!(self.out, "{message}\n")?,
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
}
