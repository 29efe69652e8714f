//! `--format markdown`: a page to paste into a pull request (and what a
//! GitHub Actions job summary gets, see `session/outputs.rs`):
//!
//! 1. one line: the verdicts counted (slower, faster, unclear, no
//!    difference), the threshold they used, and the machine;
//! 2. one table of what a reviewer reads (benchmark, time, change with its
//!    95% interval, verdict) holding the rows that changed, slower first,
//!    and the failures;
//! 3. folded in a `<details>` block: the other rows in the same columns,
//!    the notes, and how the run measured.
//!
//! The same page for `--baseline`, the in-run A/B groups (a member's change
//! is against its group's baseline member) and `--against`
//! ([`write_against`]). A run with no comparison has no verdicts to sort
//! by: its table lists every benchmark's time (and throughput), and only
//! the notes and the method are folded.

mod rows;

use std::io::{self, Write};

use super::format::{percent, result_rate, Headline, HEADLINE_METHOD, PARTIAL_RUN};
use crate::results::against::AgainstReport;
use crate::results::comparison::BaselineReport;
use crate::results::{BenchResult, GroupReport, Outcome, RunInfo};
use crate::settings::Schedule;
use rows::{Row, Section};

/// What the summary line names besides the verdicts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Heading<'a> {
    /// The bench target (`suite`): `cargo bench` runs one after another,
    /// and each appends its own page to a job summary.
    pub target: &'a str,
    /// The machine in a few words (`audit::machine_line`).
    pub machine: &'a str,
}

/// Writes a measured run's page: its comparison with `baseline` and its
/// `groups`, or, with neither, its benchmarks' times.
pub(crate) fn write(
    out: &mut dyn Write,
    heading: Heading<'_>,
    info: &RunInfo,
    results: &[BenchResult],
    baseline: Option<&BaselineReport>,
    groups: &[GroupReport],
) -> io::Result<()> {
    if info.partial {
        partial_line(out)?;
    }
    let notes = rows::notes(results);
    let mut method = method(info, super::format::rerun_term(results));
    let mut sections = Vec::new();
    if let Some(baseline) = baseline {
        method = format!("{}\n\n{method}", rows::machine_change(baseline));
        sections.push(rows::baseline_section(baseline, results));
    }
    if !groups.is_empty() {
        sections.push(rows::group_section(groups, results));
    }
    if sections.is_empty() {
        return plain(out, heading, results, &notes, &method);
    }
    // A failure outside every comparison is still the first thing to read.
    let listed: Vec<String> = sections
        .iter()
        .flat_map(|s| &s.rows)
        .map(|row| row.name.clone())
        .collect();
    let failed = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Failed(_)))
        .filter(|r| !listed.contains(&code(&r.name)))
        .map(|r| rows::failed_row(&r.name));
    let mut orphans = Section::new(String::new(), None);
    orphans.rows.extend(failed);
    sections.push(orphans);
    page(out, heading, &sections, &notes, &method)
}

/// Before anything else, on a page of a run Ctrl-C stopped: every figure
/// below is from a partial run.
fn partial_line(out: &mut dyn Write) -> io::Result<()> {
    let (first, rest) = PARTIAL_RUN
        .split_once(':')
        .expect("the sentence has a colon");
    writeln!(out, "**{}:**{rest}", capitalise(first))?;
    writeln!(out)
}

/// Writes an `--against` run's page: this build against the other one.
pub(crate) fn write_against(
    out: &mut dyn Write,
    heading: Heading<'_>,
    report: &AgainstReport,
) -> io::Result<()> {
    if report.partial {
        partial_line(out)?;
    }
    let (section, mut notes) = rows::against_section(report);
    if report.own_overhead {
        notes.push(
            "the other build's harness is older and took out its own estimate of the loop \
             overhead: ratios of sub-nanosecond benchmarks may be off by a few percent; save \
             the baseline again with this harness"
                .to_string(),
        );
    }
    let method = format!(
        "This build against {}, both measured in one run, slices paired round by round in \
         ABBA order (bench-harness protocol {}) · time: this build's mean slice median per \
         iteration · change: the geometric mean of the rounds' ratios this build / that \
         build, with its 95% CI · a verdict needs the whole interval beyond ±{}",
        code(&report.baseline),
        report.protocol_version,
        percent(report.noise_threshold)
    );
    page(out, heading, &[section], &notes, &method)
}

/// The page of a run with comparisons: the summary line, the table of the
/// rows that changed, and the rest folded.
fn page(
    out: &mut dyn Write,
    heading: Heading<'_>,
    sections: &[Section],
    notes: &[String],
    method: &str,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let mut rows: Vec<&Row> = sections.iter().flat_map(|s| &s.rows).collect();
    // Stable: within a standing, the report's order.
    rows.sort_by_key(|row| row.standing);
    let (shown, folded): (Vec<&Row>, Vec<&Row>) =
        rows.into_iter().partition(|r| r.standing.shown());
    let mut clauses: Vec<String> = sections.iter().filter_map(Section::clause).collect();
    let others = counted(
        shown
            .iter()
            .chain(&folded)
            .filter_map(|row| row.standing.counted().map(str::to_string)),
    );
    if !others.is_empty() {
        clauses.push(format!("also {others}"));
    }
    summary_line(&mut out, heading, &clauses)?;
    writeln!(out)?;
    if shown.is_empty() && folded.iter().all(|r| r.standing.verdict().is_none()) {
        writeln!(out, "Nothing was compared: the rows below say why.")?;
    } else if shown.is_empty() {
        writeln!(out, "No benchmark changed beyond its threshold.")?;
    } else {
        table(&mut out, &shown)?;
    }
    writeln!(out)?;
    let mut folded_parts = Vec::new();
    if !folded.is_empty() {
        folded_parts.push(counted(folded.iter().map(|row| row.standing.word())));
    }
    details(&mut out, folded_parts, notes, method, |out| {
        if folded.is_empty() {
            Ok(())
        } else {
            table(out, &folded)?;
            writeln!(out)
        }
    })?;
    out.flush()
}

/// Each word once with how many times it came, in the order they first
/// came: `1 new, 2 gone`.
fn counted(words: impl IntoIterator<Item = String>) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for word in words {
        match kinds.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => *n += 1,
            None => kinds.push((word, 1)),
        }
    }
    let kinds: Vec<String> = kinds.iter().map(|(w, n)| format!("{n} {w}")).collect();
    kinds.join(", ")
}

/// The page of a run without comparisons: every benchmark's time.
fn plain(
    out: &mut dyn Write,
    heading: Heading<'_>,
    results: &[BenchResult],
    notes: &[String],
    method: &str,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let count = |f: fn(&Outcome) -> bool| results.iter().filter(|r| f(&r.outcome)).count();
    let mut counts = vec![format!(
        "**{} measured**",
        count(|o| matches!(o, Outcome::Measured(_)))
    )];
    for (n, word) in [
        (count(|o| matches!(o, Outcome::Failed(_))), "failed"),
        (count(|o| matches!(o, Outcome::Ignored)), "ignored"),
        (count(|o| matches!(o, Outcome::Passed)), "not measured"),
    ] {
        if n > 0 {
            counts.push(format!("{n} {word}"));
        }
    }
    summary_line(&mut out, heading, &[counts.join(", ")])?;
    writeln!(out)?;
    let with_rates = results.iter().any(|r| r.rate().is_some());
    let with_reruns = super::format::rerun_term(results);
    let rate_head = if with_rates { " throughput |" } else { "" };
    let rate_align = if with_rates { "--:|" } else { "" };
    let (rerun_head, rerun_align) = if with_reruns {
        (" rerun |", "--:|")
    } else {
        ("", "")
    };
    writeln!(out, "| benchmark | time ± 95% CI |{rerun_head}{rate_head}")?;
    writeln!(out, "|:--|--:|{rerun_align}{rate_align}")?;
    for result in results {
        let time = match &result.outcome {
            Outcome::Measured(m) => {
                let headline = Headline::of(m);
                match headline.plus_minus() {
                    Some(pm) => format!("{} {pm}", headline.time()),
                    None => headline.time(),
                }
            }
            Outcome::Failed(_) => "**FAILED**".to_string(),
            Outcome::Ignored => "ignored".to_string(),
            Outcome::Passed => "ok (not measured)".to_string(),
        };
        // A column shown for some rows: empty in the others.
        let cell = |value: Option<String>, shown: bool| match value {
            Some(value) => format!(" {value} |"),
            None if shown => " |".to_string(),
            None => String::new(),
        };
        let rerun = cell(
            result.measured().and_then(super::format::rerun_cell),
            with_reruns,
        );
        let rate = cell(result_rate(result), with_rates);
        writeln!(out, "| {} | {time} |{rerun}{rate}", code(&result.name))?;
    }
    writeln!(out)?;
    details(&mut out, Vec::new(), notes, method, |_| Ok(()))?;
    out.flush()
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The first line: the target, each comparison's clause, the machine.
fn summary_line(out: &mut impl Write, heading: Heading<'_>, clauses: &[String]) -> io::Result<()> {
    let mut parts = vec![format!(
        "{}: {}",
        code(heading.target),
        clauses.first().map_or("", String::as_str)
    )];
    parts.extend(clauses.iter().skip(1).cloned());
    parts.push(format!("machine: {}", escape(heading.machine)));
    writeln!(out, "{}", parts.join(" · "))
}

/// The reviewer's table.
fn table(out: &mut (impl Write + ?Sized), rows: &[&Row]) -> io::Result<()> {
    writeln!(out, "| benchmark | time | change (95% CI) | verdict |")?;
    writeln!(out, "|:--|--:|--:|:--|")?;
    for row in rows {
        writeln!(
            out,
            "| {} | {} | {} | {} |",
            row.name, row.time, row.change, row.verdict
        )?;
    }
    Ok(())
}

/// The `<details>` block: `rows` (written by `folded_rows`), the notes and
/// the method, its summary saying what is inside.
fn details(
    out: &mut impl Write,
    mut inside: Vec<String>,
    notes: &[String],
    method: &str,
    folded_rows: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if !notes.is_empty() {
        inside.push(format!(
            "{} note{}",
            notes.len(),
            if notes.len() == 1 { "" } else { "s" }
        ));
    }
    inside.push("how it was measured".to_string());
    writeln!(out, "<details><summary>{}</summary>", inside.join(" · "))?;
    writeln!(out)?;
    folded_rows(out)?;
    for note in notes {
        writeln!(out, "- {note}")?;
    }
    if !notes.is_empty() {
        writeln!(out)?;
    }
    writeln!(out, "{method}")?;
    writeln!(out)?;
    writeln!(out, "</details>")
}

/// How the run measured, in one line.
fn method(info: &RunInfo, rerun: bool) -> String {
    let schedule = match info.schedule {
        Schedule::Interleaved => format!("interleaved (seed {})", info.seed),
        Schedule::Sequential => "sequential".to_string(),
    };
    let stop = if info.target_precision > 0.0 {
        format!("until ±{}", percent(info.target_precision))
    } else {
        "for the time budget".to_string()
    };
    let (covers, _) = super::format::what_the_interval_covers(info);
    let rerun = if rerun {
        format!(" · rerun: {}", super::format::RERUN_MEANS)
    } else {
        String::new()
    };
    format!(
        "bench-harness {} · timer: {} · time: {HEADLINE_METHOD} ± 95% CI {}, loop overhead \
         subtracted ({} per sample + {} per iteration){rerun} · {schedule}, {stop}",
        info.harness_version,
        escape(info.clock_name),
        escape(&covers),
        super::format::time(info.overhead.per_sample.0),
        super::format::time(info.overhead.per_iter.0),
    )
}

/// `+3.21%`, `-0.50%`; `?` when undefined.
fn signed_percent(fraction: f64) -> String {
    if fraction.is_finite() {
        format!("{:+.2}%", fraction * 100.0)
    } else {
        "?".to_string()
    }
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
