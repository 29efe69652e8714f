//! `--format markdown`: a GitHub-flavoured table for a pull request or a
//! README, with units scaled per value as in the terminal, then the notes
//! (and failures) as a list.

use std::io::{self, Write};

use super::format::stop_word;
use super::format::{headline_time, percent, time};
use crate::analysis::BLOCKS_IN_ONE_GO;
use crate::results::{BenchResult, Outcome, RunInfo};
use crate::settings::Schedule;

/// Writes a one-line description of the method, the table, and the notes.
pub(crate) fn write(
    out: &mut dyn Write,
    info: &RunInfo,
    results: &[BenchResult],
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let (schedule, blocks) = match info.schedule {
        Schedule::Interleaved => (
            format!("interleaved (seed {})", info.seed),
            "per-slice medians in the fast regime".to_string(),
        ),
        Schedule::Sequential => (
            "sequential".to_string(),
            format!("the medians of {BLOCKS_IN_ONE_GO} blocks in the fast regime"),
        ),
    };
    let stop = if info.target_precision > 0.0 {
        format!("until ±{}", percent(info.target_precision))
    } else {
        "for the time budget".to_string()
    };
    writeln!(
        out,
        "bench-harness {} · timer: {} · time: mean of {blocks} ± 95% CI for this run on this \
         machine, loop overhead subtracted ({} per sample + {} per iteration) · {schedule}, {stop}",
        info.harness_version,
        escape(info.clock_name),
        time(info.overhead.per_sample.0),
        time(info.overhead.per_iter.0),
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| benchmark | time ± 95% CI | median | mean | std dev | samples | stop |"
    )?;
    writeln!(out, "|:--|--:|--:|--:|--:|--:|:--|")?;
    let mut notes = Vec::new();
    for result in results {
        let name = code(&result.name);
        match &result.outcome {
            Outcome::Measured(m) => {
                let s = &m.summary;
                let ci = m
                    .precision
                    .map_or(String::new(), |p| format!(" ± {}", percent(p)));
                writeln!(
                    out,
                    "| {name} | {}{ci} | {} | {} | {} | {} | {} |",
                    headline_time(m),
                    time(s.median),
                    time(s.mean),
                    time(s.std_dev),
                    s.n,
                    stop_word(m.measurement.stop),
                )?;
                notes.extend(
                    m.notes
                        .iter()
                        .map(|note| format!("{name}: {}", escape(&note.to_string()))),
                );
            }
            Outcome::Failed(failure) => {
                writeln!(out, "| {name} | **FAILED** | | | | | |")?;
                let at = failure
                    .location
                    .as_deref()
                    .map_or(String::new(), |l| format!(" (at {})", escape(l)));
                notes.push(format!("{name} failed: {}{at}", escape(&failure.message)));
            }
            Outcome::Ignored => writeln!(out, "| {name} | ignored | | | | | |")?,
            Outcome::Passed => writeln!(out, "| {name} | ok (not measured) | | | | | |")?,
        }
    }
    if !notes.is_empty() {
        writeln!(out)?;
        for note in notes {
            writeln!(out, "- {note}")?;
        }
    }
    out.flush()
}

/// `text` as a code span that is safe in a table cell.
fn code(text: &str) -> String {
    let text = one_line(text).replace('|', "\\|");
    // A fence longer than any run of backticks inside.
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Plain text that cannot break the table or the list: one line, pipes
/// escaped, no raw HTML.
fn escape(text: &str) -> String {
    one_line(text)
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('<', "&lt;")
}

/// `text` on one line, its control characters escaped (`\n`, `\u{1b}`).
fn one_line(text: &str) -> String {
    super::format::escape(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_code_spans_with_pipes_escaped() {
        assert_eq!(code("kernels::sort_1k"), "`kernels::sort_1k`");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
    }

    #[test]
    fn text_stays_on_one_line_and_out_of_html() {
        // A line break is written `\n`, its backslash doubled for Markdown.
        assert_eq!(escape("a\nb | <c>"), "a\\\\nb \\| &lt;c>");
        assert_eq!(escape("\u{1b}[2J"), "\\\\u{1b}[2J");
    }
}
