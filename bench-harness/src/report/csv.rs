//! `--format csv`: one row per benchmark under a header row, for
//! spreadsheets and scripts. Times are nanoseconds per iteration at full
//! precision (the shortest decimal that reads back as the same `f64`);
//! figures a benchmark does not have are empty fields. Fields are quoted
//! per RFC 4180 only when they contain a comma, a quote or a line break.
//! Lines end with `\n` (RFC 4180 says CRLF; every CSV reader takes both).
//! New columns are added at the end, so a reader that picks columns by
//! position keeps working.
//!
//! Under `--baseline` the columns before `run` hold each benchmark's
//! comparison (the baseline's time, the change with its 95% interval, the
//! verdict), and a benchmark the baseline has and this binary no longer
//! does gets a row of its own (`gone`). Then `run`: `partial` on every row
//! of a run stopped by Ctrl-C, else `complete`. The last,
//! `measured_two_ways`, is `true` where a compared row was measured
//! otherwise in the baseline (in one stretch against interleaved, or
//! `--cold` against not): its verdict, where it has one, is `unclear`
//! whatever its interval says. `--against` writes its own
//! table ([`write_against`], [`AGAINST_COLUMNS`]): one row per benchmark
//! of either build.

use std::io::{self, Write};

use bench_runtime::Throughput;

use super::format::stop_word;
use crate::results::against::{AgainstOutcome, AgainstReport};
use crate::results::comparison::BaselineReport;
use crate::results::{BenchResult, Compared, Outcome, RunInfo};

/// The header row's columns, in order.
pub(crate) const COLUMNS: [&str; 27] = [
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
    "baseline_ns",
    "change",
    "change_ci_low",
    "change_ci_high",
    "verdict",
    "run",
    "measured_two_ways",
];

/// The header row of `--against`'s table, in order. A ratio is this
/// build's time over the other's; a change is the ratio less 1.
pub(crate) const AGAINST_COLUMNS: [&str; 16] = [
    "name",
    "status",
    "new_ns",
    "old_ns",
    "ratio",
    "ratio_ci_low",
    "ratio_ci_high",
    "change",
    "change_ci_low",
    "change_ci_high",
    "verdict",
    "rounds",
    "p_t",
    "p_wilcoxon",
    "failure",
    "run",
];

/// Writes the header row and one row per result, in the order given, with
/// each one's comparison when the run was compared with `baseline`, then
/// the baseline's benchmarks this binary lacks. Of `info`, only whether
/// the run is partial: the method is in the JSON document.
pub(crate) fn write(
    out: &mut dyn Write,
    info: &RunInfo,
    results: &[BenchResult],
    baseline: Option<&BaselineReport>,
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
                fields.resize(COLUMNS.len() - COMPARISON_COLUMNS - 2, String::new());
            }
        }
        fields.extend(comparison_fields(result.comparison.as_ref()));
        fields.push(run.to_string());
        fields.push(match &result.comparison {
            Some(Compared::Against(c)) => c.two_ways.to_string(),
            _ => String::new(),
        });
        writeln!(out, "{}", fields.join(","))?;
    }
    for gone in baseline.map_or(&[][..], |b| &b.gone[..]) {
        let mut fields = vec![field(gone), String::new(), "gone".to_string()];
        fields.resize(COLUMNS.len() - 3, String::new());
        fields.push("gone".to_string());
        fields.push(run.to_string());
        fields.push(String::new());
        writeln!(out, "{}", fields.join(","))?;
    }
    out.flush()
}

/// The comparison's columns near the end of [`COLUMNS`], before `run` and
/// `measured_two_ways`.
const COMPARISON_COLUMNS: usize = 5;

/// A benchmark's comparison with the baseline: its time there, the change
/// and its interval as fractions, and the verdict (`new` when the baseline
/// lacks it, `too fast to compare` without a ratio); empty without one.
fn comparison_fields(comparison: Option<&Compared>) -> [String; COMPARISON_COLUMNS] {
    match comparison {
        None => Default::default(),
        Some(Compared::New) => [
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            "new".to_string(),
        ],
        Some(Compared::Against(c)) => match &c.ratio {
            Some(r) => [
                number(Some(c.old)),
                number(Some(r.change)),
                number(Some(r.change_interval.0)),
                number(Some(r.change_interval.1)),
                r.verdict.to_string(),
            ],
            None => [
                number(Some(c.old)),
                String::new(),
                String::new(),
                String::new(),
                "too fast to compare".to_string(),
            ],
        },
    }
}

/// Writes `--against`'s table: the header row and one row per benchmark
/// of either build, in the report's order.
pub(crate) fn write_against(out: &mut dyn Write, report: &AgainstReport) -> io::Result<()> {
    // As a measured run's: `partial` on every row after Ctrl-C.
    let run = if report.partial {
        "partial"
    } else {
        "complete"
    };
    let mut out = io::BufWriter::new(out);
    writeln!(out, "{}", AGAINST_COLUMNS.join(","))?;
    for row in &report.rows {
        let mut fields = vec![field(&row.name)];
        match &row.outcome {
            AgainstOutcome::Compared(p) => {
                let c = &p.comparison;
                let (low, high) = c.ratio_interval;
                fields.push("compared".to_string());
                fields.extend(
                    [
                        p.new_ns,
                        p.old_ns,
                        c.ratio,
                        low,
                        high,
                        c.ratio - 1.0,
                        low - 1.0,
                        high - 1.0,
                    ]
                    .map(|v| number(Some(v))),
                );
                fields.push(p.verdict.to_string());
                fields.push(c.rounds.to_string());
                fields.extend([c.p_t, c.p_wilcoxon].map(|v| number(Some(v))));
                fields.push(String::new());
            }
            AgainstOutcome::TooFast {
                new_ns,
                old_ns,
                rounds,
            } => {
                fields.push("too_fast".to_string());
                fields.extend([*new_ns, *old_ns].map(|v| number(Some(v))));
                fields.resize(10, String::new());
                fields.push("too fast to compare".to_string());
                fields.push(rounds.to_string());
                fields.resize(AGAINST_COLUMNS.len() - 1, String::new());
            }
            AgainstOutcome::New | AgainstOutcome::Gone => {
                let status = if matches!(row.outcome, AgainstOutcome::New) {
                    "new"
                } else {
                    "gone"
                };
                fields.push(status.to_string());
                fields.resize(AGAINST_COLUMNS.len() - 1, String::new());
            }
            AgainstOutcome::Failed(why) => {
                fields.push("failed".to_string());
                fields.resize(AGAINST_COLUMNS.len() - 2, String::new());
                fields.push(field(why));
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
