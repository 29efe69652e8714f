//! `--format bencher`: the lines libtest prints for `#[bench]` functions,
//! which CI tools that track benchmarks already parse:
//!
//! ```text
//! test kernels::sort_1k ... bench:      7,078.12 ns/iter (+/- 8.40)
//! ```
//!
//! The figure is the headline (the mean cost of a call, see `analysis::blocks`) in
//! nanoseconds with two decimals and thousands separators, as libtest has
//! written its median since Rust 1.77 (whole nanoseconds before, which
//! turned every sub-nanosecond benchmark into `0 ns/iter`). The `+/-`
//! figure is the half-width of the headline's 95% confidence interval (its
//! larger side); libtest printed
//! max − min of its samples there, which says more about outliers than
//! about how well the time is known. Both are clamped at 0 (an
//! overhead-corrected empty body may dip just below it), and the `+/-` is 0
//! when there is no interval (a single slice).
//!
//! Names are padded to a common width and ignored or failed benchmarks get
//! libtest's `ignored` and `FAILED` lines; after a blank line comes
//! libtest's `test result:` line, without the duration.

use std::io::{self, Write};

use super::format::{escape, pad_end, PARTIAL_RUN};
use crate::results::{BenchResult, Measured, Outcome, RunInfo};

/// Writes `running N tests`, one line per result, failures, and `test result:`.
pub(crate) fn write(
    out: &mut dyn Write,
    info: &RunInfo,
    results: &[BenchResult],
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let width = results
        .iter()
        .map(|r| escape(&r.name).chars().count())
        .max()
        .unwrap_or(0);
    let n = results.len();
    writeln!(out, "running {n} test{}", if n == 1 { "" } else { "s" })?;
    let (mut passed, mut failed, mut ignored, mut measured) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for result in results {
        let name = escape(&result.name);
        write!(out, "test {} ... ", pad_end(&name, width))?;
        match &result.outcome {
            Outcome::Measured(m) => {
                measured += 1;
                writeln!(out, "bench: {}", ns_per_iter(m))?;
            }
            Outcome::Passed => {
                passed += 1;
                writeln!(out, "ok")?;
            }
            Outcome::Failed(failure) => {
                failed += 1;
                failures.push((name, failure));
                writeln!(out, "FAILED")?;
            }
            Outcome::Ignored => {
                ignored += 1;
                writeln!(out, "ignored")?;
            }
        }
    }
    if !failures.is_empty() {
        writeln!(out, "\nfailures:\n")?;
        for (name, failure) in &failures {
            writeln!(out, "---- {name} stdout ----")?;
            match &failure.location {
                Some(at) => writeln!(out, "{} (at {})\n", lines(&failure.message), escape(at))?,
                None => writeln!(out, "{}\n", lines(&failure.message))?,
            }
        }
        writeln!(out, "failures:")?;
        for (name, _) in &failures {
            writeln!(out, "    {name}")?;
        }
    }
    if info.partial {
        // A tool that stores these lines must not take them for a whole
        // run: the line says why, and the verdict is libtest's failure.
        writeln!(out, "\n{PARTIAL_RUN}")?;
    }
    let verdict = if failed == 0 && !info.partial {
        "ok"
    } else {
        "FAILED"
    };
    writeln!(
        out,
        "\ntest result: {verdict}. {passed} passed; {failed} failed; {ignored} ignored; \
         {measured} measured; 0 filtered out"
    )?;
    out.flush()
}

/// `      7,078.12 ns/iter (+/- 8.40)`: libtest's figures for a measured
/// benchmark, here and in `--logfile`.
pub(crate) fn ns_per_iter(m: &Measured) -> String {
    let half_width = m.estimate.interval.map_or(0.0, |ci| {
        (m.headline() - ci.lower).max(ci.upper - m.headline())
    });
    format!(
        "{:>14} ns/iter (+/- {})",
        nanos(m.headline()),
        nanos(half_width)
    )
}

/// Nanoseconds with two decimals and thousands separators, at least 0.
fn nanos(nanos: f64) -> String {
    let hundredths = if nanos.is_finite() && nanos > 0.0 {
        (nanos * 100.0).round() as u64
    } else {
        0
    };
    format!("{}.{:02}", thousands(hundredths / 100), hundredths % 100)
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A failure's message, each line escaped.
fn lines(message: &str) -> String {
    message.lines().map(escape).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn nanos_keep_two_decimals_and_clamp_at_zero() {
        assert_eq!(nanos(1234.567), "1,234.57");
        assert_eq!(nanos(0.249), "0.25");
        assert_eq!(nanos(-0.003), "0.00");
        assert_eq!(nanos(f64::NAN), "0.00");
    }
}
