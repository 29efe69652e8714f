//! `--format markdown`: GitHub-flavoured tables for a pull request or a
//! README, with units scaled per value as in the terminal: the benchmarks
//! (with a throughput column when any declares its work), then, when the
//! run has them, the comparison with a saved baseline and each A/B group's
//! ratios, and last the notes (and failures) as a list.

use std::io::{self, Write};

use super::format::{
    group_verdict, p_value, percent, result_rate, stop_word, time, too_fast_to_compare,
    verdict_words, Headline, HEADLINE_METHOD, PARTIAL_RUN,
};
use super::notes::bound_text;
use crate::analysis::compare::Verdict;
use crate::results::comparison::{BaselineReport, GROUP_NOISE_THRESHOLD};
use crate::results::{BenchResult, Compared, GroupReport, Outcome, RunInfo};
use crate::settings::Schedule;

/// Writes a one-line description of the method, the benchmarks' table,
/// the comparison with `baseline` and the `groups`' tables when there are
/// any, and the notes.
pub(crate) fn write(
    out: &mut dyn Write,
    info: &RunInfo,
    results: &[BenchResult],
    baseline: Option<&BaselineReport>,
    groups: &[GroupReport],
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    if info.partial {
        let (first, rest) = PARTIAL_RUN
            .split_once(':')
            .expect("the sentence has a colon");
        writeln!(out, "**{}:**{rest}", capitalise(first))?;
        writeln!(out)?;
    }
    method(&mut out, info)?;
    writeln!(out)?;
    let notes = benchmarks(&mut out, results)?;
    if let Some(baseline) = baseline {
        writeln!(out)?;
        comparison(&mut out, baseline, results)?;
    }
    for group in groups {
        writeln!(out)?;
        group_table(&mut out, group)?;
    }
    if !notes.is_empty() {
        writeln!(out)?;
        for note in notes {
            writeln!(out, "- {note}")?;
        }
    }
    out.flush()
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The run's method in one line.
fn method(out: &mut impl Write, info: &RunInfo) -> io::Result<()> {
    let schedule = match info.schedule {
        Schedule::Interleaved => format!("interleaved (seed {})", info.seed),
        Schedule::Sequential => "sequential".to_string(),
    };
    let stop = if info.target_precision > 0.0 {
        format!("until ±{}", percent(info.target_precision))
    } else {
        "for the time budget".to_string()
    };
    writeln!(
        out,
        "bench-harness {} · timer: {} · time: {HEADLINE_METHOD} ± 95% CI for this run on this \
         machine, loop overhead subtracted ({} per sample + {} per iteration) · {schedule}, {stop}",
        info.harness_version,
        escape(info.clock_name),
        time(info.overhead.per_sample.0),
        time(info.overhead.per_iter.0),
    )
}

/// The benchmarks' table; returns the notes and failures to list under
/// the tables.
fn benchmarks(out: &mut impl Write, results: &[BenchResult]) -> io::Result<Vec<String>> {
    let with_rates = results.iter().any(|r| r.rate().is_some());
    let (rate_head, rate_align) = if with_rates {
        (" throughput |", "--:|")
    } else {
        ("", "")
    };
    writeln!(
        out,
        "| benchmark | time ± 95% CI |{rate_head} median | mean | std dev | samples | stop |"
    )?;
    writeln!(out, "|:--|--:|{rate_align}--:|--:|--:|--:|:--|")?;
    // The empty cells after the time of a row that was not measured.
    let blank = if with_rates {
        " | | | | | |"
    } else {
        " | | | | |"
    };
    let mut notes = Vec::new();
    for result in results {
        let name = code(&result.name);
        match &result.outcome {
            Outcome::Measured(m) => {
                let s = &m.summary;
                let headline = Headline::of(m);
                let ci = headline
                    .relative_half_width()
                    .map_or(String::new(), |p| format!(" ± {}", percent(p)));
                let throughput = match result_rate(result) {
                    Some(rate) => format!(" {rate} |"),
                    None if with_rates => " |".to_string(),
                    None => String::new(),
                };
                writeln!(
                    out,
                    "| {name} | {}{ci} |{throughput} {} | {} | {} | {} | {} |",
                    headline.time(),
                    time(s.median),
                    time(s.mean),
                    time(s.std_dev),
                    s.n,
                    stop_word(m.measurement.stop),
                )?;
                let texts = bound_text(m)
                    .into_iter()
                    .chain(m.notes.iter().map(ToString::to_string));
                notes.extend(texts.map(|text| format!("{name}: {}", escape(&text))));
            }
            Outcome::Failed(failure) => {
                writeln!(out, "| {name} | **FAILED** |{blank}")?;
                let at = failure
                    .location
                    .as_deref()
                    .map_or(String::new(), |l| format!(" (at {})", escape(l)));
                notes.push(format!("{name} failed: {}{at}", escape(&failure.message)));
            }
            Outcome::Ignored => writeln!(out, "| {name} | ignored |{blank}")?,
            Outcome::Passed => writeln!(out, "| {name} | ok (not measured) |{blank}")?,
        }
    }
    Ok(notes)
}

/// Each benchmark against the saved baseline, as the terminal's comparison
/// table: the machine's own change first, then one row per benchmark
/// (regressions in bold) and the verdicts counted.
fn comparison(
    out: &mut impl Write,
    baseline: &BaselineReport,
    results: &[BenchResult],
) -> io::Result<()> {
    writeln!(
        out,
        "**Compared with baseline {}** (saved {})",
        code(&baseline.name),
        escape(&baseline.saved)
    )?;
    writeln!(out)?;
    let threshold = if baseline.threshold.is_finite() {
        format!("±{}", percent(baseline.threshold))
    } else {
        "an unbounded threshold (no verdict of change is possible)".to_string()
    };
    match baseline
        .machine_change
        .as_ref()
        .and_then(|m| m.ratio.as_ref())
    {
        Some(m) => writeln!(
            out,
            "The machine itself: {} [{}, {}] (the harness's reference kernel), so a verdict \
             needs the whole interval beyond {threshold}.",
            signed_percent(m.change),
            signed_percent(m.change_interval.0),
            signed_percent(m.change_interval.1),
        )?,
        None => writeln!(
            out,
            "The baseline has no machine reference: verdicts use {threshold} and cannot tell a \
             slower machine from slower code."
        )?,
    }
    writeln!(out)?;
    writeln!(
        out,
        "| benchmark | old | new | change | 95% CI | p (Welch) | verdict |"
    )?;
    writeln!(out, "|:--|--:|--:|--:|--:|--:|:--|")?;
    let mut counts = [0usize; 4];
    let (mut new, mut too_fast) = (0, 0);
    for result in results {
        let name = code(&result.name);
        match &result.comparison {
            Some(Compared::Against(c)) => {
                let (old_time, new_time) = (time(c.old), time(c.new));
                let Some(r) = &c.ratio else {
                    too_fast += 1;
                    let words = too_fast_to_compare(("this run", c.new), ("the baseline", c.old));
                    writeln!(out, "| {name} | {old_time} | {new_time} | | | | {words} |")?;
                    continue;
                };
                let words = verdict_words(r.verdict, r.largest_change());
                let verdict = match r.verdict {
                    Verdict::Slower => format!("**{words}**"),
                    _ => words,
                };
                counts[verdict_index(r.verdict)] += 1;
                writeln!(
                    out,
                    "| {name} | {old_time} | {new_time} | {} | [{}, {}] | {} | {verdict} |",
                    signed_percent(r.change),
                    signed_percent(r.change_interval.0),
                    signed_percent(r.change_interval.1),
                    p_value(r.p_welch),
                )?;
            }
            Some(Compared::New) => {
                new += 1;
                writeln!(out, "| {name} | | | | | | new: not in the baseline |")?;
            }
            None => {}
        }
    }
    for name in &baseline.gone {
        writeln!(
            out,
            "| {} | | | | | | gone: not in this binary |",
            code(name)
        )?;
    }
    let mut tally: Vec<String> = Verdict::ALL
        .iter()
        .map(|v| format!("{} {v}", counts[verdict_index(*v)]))
        .collect();
    if too_fast > 0 {
        tally.push(format!("{too_fast} too fast to compare"));
    }
    if new > 0 {
        tally.push(format!("{new} new"));
    }
    if !baseline.gone.is_empty() {
        tally.push(format!("{} gone", baseline.gone.len()));
    }
    writeln!(out)?;
    writeln!(out, "{}", tally.join(" · "))
}

/// An A/B group's table: each member's time as a multiple of the baseline
/// member's, from slices paired round by round.
fn group_table(out: &mut impl Write, group: &GroupReport) -> io::Result<()> {
    writeln!(
        out,
        "**A/B group {}** against {} (slices paired round by round, noise threshold {})",
        code(&group.group),
        code(&group.baseline),
        percent(GROUP_NOISE_THRESHOLD),
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| member | ratio | 95% CI | p (t) | p (W) | rounds | verdict |"
    )?;
    writeln!(out, "|:--|--:|--:|--:|--:|--:|:--|")?;
    writeln!(
        out,
        "| {} | 1.0000 | | | | | baseline |",
        code(&group.baseline)
    )?;
    for (name, paired) in &group.members {
        let name = code(name);
        match paired {
            Ok(p) => {
                let (verdict, word) = group_verdict(p);
                let word = match verdict {
                    Verdict::Slower | Verdict::Faster => format!("**{word}**"),
                    _ => word,
                };
                writeln!(
                    out,
                    "| {name} | {} | [{}, {}] | {} | {} | {} | {word} |",
                    ratio(p.ratio),
                    ratio(p.ratio_interval.0),
                    ratio(p.ratio_interval.1),
                    p_value(p.p_t),
                    p_value(p.p_wilcoxon),
                    p.rounds,
                )?;
            }
            Err(why) => writeln!(out, "| {name} | | | | | | no comparison: {} |", escape(why))?,
        }
    }
    Ok(())
}

fn verdict_index(verdict: Verdict) -> usize {
    match verdict {
        Verdict::Slower => 0,
        Verdict::Faster => 1,
        Verdict::NoDifference => 2,
        Verdict::Unclear => 3,
    }
}

/// `+3.21%`, `-0.50%`; `?` when undefined.
fn signed_percent(fraction: f64) -> String {
    if fraction.is_finite() {
        format!("{:+.2}%", fraction * 100.0)
    } else {
        "?".to_string()
    }
}

/// A ratio to four decimals; `?` when undefined.
fn ratio(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.4}")
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
