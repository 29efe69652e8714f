//! `--format csv`: one row per benchmark under a header row, for
//! spreadsheets and scripts. Times are nanoseconds per iteration at full
//! precision (the shortest decimal that reads back as the same `f64`);
//! figures a benchmark does not have are empty fields. Fields are quoted
//! per RFC 4180 only when they contain a comma or a quote (control
//! characters, line breaks included, are escaped as `\n`, `\u{1b}`).
//! Lines end with `\n` (RFC 4180 says CRLF; every CSV reader takes both).
//! New columns are added at the end, so a reader that picks columns by
//! position keeps working. The last, `run`, is `partial` on every row of a
//! run stopped by Ctrl-C, else `complete`.

use std::io::{self, Write};

use bench_runtime::Throughput;

use super::format::stop_word;
use crate::results::{BenchResult, Outcome, RunInfo};

/// The header row's columns, in order.
pub(crate) const COLUMNS: [&str; 21] = [
    "name",
    "group",
    "outcome",
    "time_ns",
    "ci_low_ns",
    "ci_high_ns",
    "median_ns",
    "mean_ns",
    "std_dev_ns",
    "min_ns",
    "max_ns",
    "p90_ns",
    "p95_ns",
    "p99_ns",
    "outliers",
    "samples",
    "iterations",
    "stop",
    "throughput_per_s",
    "throughput_unit",
    "run",
];

/// Writes the header row and one row per result, in the order given.
/// Of `info`, only whether the run is partial: the method is in the JSON
/// document.
pub(crate) fn write(
    out: &mut dyn Write,
    info: &RunInfo,
    results: &[BenchResult],
) -> io::Result<()> {
    // The `run` column: `partial` on every row of a run stopped by Ctrl-C
    // (rows of benchmarks it never measured are missing), else `complete`.
    let run = if info.partial { "partial" } else { "complete" };
    let mut out = io::BufWriter::new(out);
    writeln!(out, "{}", COLUMNS.join(","))?;
    for result in results {
        let mut fields = vec![
            field(&result.name),
            result.group.as_deref().map(field).unwrap_or_default(),
        ];
        match &result.outcome {
            Outcome::Measured(m) => {
                let s = &m.summary;
                let interval = m.estimate.interval;
                fields.push("measured".to_string());
                fields.extend(
                    [
                        Some(m.headline()),
                        interval.map(|ci| ci.lower),
                        interval.map(|ci| ci.upper),
                        Some(s.median),
                        Some(s.mean),
                        Some(s.std_dev),
                        Some(s.min),
                        Some(s.max),
                        Some(s.percentiles.p90),
                        Some(s.percentiles.p95),
                        Some(s.percentiles.p99),
                    ]
                    .map(number),
                );
                fields.push(m.outliers.tukey_total().to_string());
                fields.push(s.n.to_string());
                fields.push(m.total_iters().to_string());
                fields.push(stop_word(m.measurement.stop).to_string());
                // Work per second at the headline time, in the unit the
                // benchmark declared: `bytes` or `items`.
                match result.rate() {
                    Some((throughput, per_second)) => {
                        fields.push(number(Some(per_second)));
                        fields.push(unit(throughput).to_string());
                    }
                    None => fields.extend([String::new(), String::new()]),
                }
            }
            other => {
                fields.push(
                    match other {
                        Outcome::Passed => "passed",
                        Outcome::Failed(_) => "failed",
                        _ => "ignored",
                    }
                    .to_string(),
                );
                fields.resize(COLUMNS.len() - 1, String::new());
            }
        }
        fields.push(run.to_string());
        writeln!(out, "{}", fields.join(","))?;
    }
    out.flush()
}

/// The unit of a throughput column: what one iteration's work counts.
fn unit(throughput: Throughput) -> &'static str {
    match throughput {
        Throughput::Bytes(_) => "bytes",
        Throughput::Items(_) => "items",
    }
}

/// A number at full precision, or an empty field; non-finite values (which
/// a spreadsheet would not read) are empty too.
fn number(value: Option<f64>) -> String {
    value
        .filter(|v| v.is_finite())
        .map_or(String::new(), |v| v.to_string())
}

/// `text` as an RFC 4180 field: its control characters and bidirectional
/// overrides escaped as the terminal's table writes them (`\n`,
/// `\u{1b}`), so a `cat` of the file moves no cursor and a name stays on
/// its row; quoted, with quotes doubled, only when it holds a comma or a
/// quote.
pub(crate) fn field(text: &str) -> String {
    let text = super::format::escape(text);
    if text.contains([',', '"']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_needed_and_control_characters_escaped() {
        assert_eq!(field("kernels::sort_1k"), "kernels::sort_1k");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "two\\nlines");
        assert_eq!(
            field("esc\u{1b}[2J, rtl\u{202e}"),
            "\"esc\\u{1b}[2J, rtl\\u{202e}\""
        );
        assert_eq!(field(""), "");
    }

    #[test]
    fn numbers_are_exact_and_never_in_exponent_form() {
        assert_eq!(number(Some(0.1 + 0.2)), "0.30000000000000004");
        assert_eq!(number(Some(1e-10)), "0.0000000001");
        assert_eq!(number(Some(f64::NAN)), "");
        assert_eq!(number(None), "");
    }
}
