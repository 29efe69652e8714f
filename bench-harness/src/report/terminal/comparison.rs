//! The tables after the main one: each benchmark against a saved baseline
//! (`--baseline`), each A/B group's members against the group's baseline
//! member, and each benchmark against another build (`--against`). By default they fit the width, names shortened in the
//! middle and the p-values and effect size left to `--details`.

use std::io;

use termcolor::{Color, ColorSpec};

use super::compact::INDENT;
use super::text::{columns, shorten_middle};
use super::Terminal;
use crate::analysis::compare::{Comparison, Verdict};
use crate::document::Document;
use crate::report::format::{
    compared_words, escape, group_verdict, p_value, pad_end, percent, ratio_and_interval, time,
    too_fast_to_compare, verdict_counts, verdict_words,
};
use crate::results::against::{AgainstOutcome, AgainstReport};
use crate::results::comparison::GROUP_NOISE_THRESHOLD;
use crate::results::{BenchResult, Compared, GroupReport};

impl Terminal<'_> {
    /// After the table: each benchmark against baseline `name`, the
    /// machine's own change of speed, and the verdicts by kind.
    pub(crate) fn comparison_table(
        &mut self,
        name: &str,
        baseline: &Document,
        results: &[BenchResult],
        registered: &[String],
        machine_change: Option<&Comparison>,
        threshold: f64,
    ) -> io::Result<()> {
        writeln!(self.out)?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        let title = format!(
            "compared with baseline '{}' (saved {})",
            escape(name),
            escape(&baseline.environment.timestamp)
        );
        self.lines(&title)?;
        self.out.reset()?;
        let machine = match machine_change.and_then(|m| m.ratio.as_ref()) {
            Some(m) => format!(
                "the machine itself: {} [{}, {}] (the harness's reference kernel), so a verdict needs the whole interval beyond ±{}",
                signed_percent(m.change),
                signed_percent(m.change_interval.0),
                signed_percent(m.change_interval.1),
                percent(threshold),
            ),
            None => format!(
                "the baseline has no machine reference: verdicts use ±{} and cannot tell a slower machine from slower code",
                percent(threshold),
            ),
        };
        self.lines(&machine)?;
        let details = self.details;
        let natural = results
            .iter()
            .filter(|r| r.comparison.is_some())
            .map(|r| columns(&escape(&r.name)))
            .max()
            .unwrap_or(0)
            .max("benchmark".len());
        // Compact: the change, its interval and the verdict beside the name
        // (2 + name + 2 + 8 + 2 + 20 + 2 + verdict).
        let verdicts = results
            .iter()
            .filter_map(|r| match &r.comparison {
                Some(Compared::Against(c)) => c.ratio.as_ref().map(|r| (c, r)),
                _ => None,
            })
            .map(|(c, r)| columns(&compared_words(c, r)))
            .max()
            .unwrap_or(0)
            .max("verdict".len());
        let width = self.name_width(natural, 36 + verdicts);
        if details {
            writeln!(
                self.out,
                "  {}  {:>10}  {:>10}  {:>8}  {:>20}  {:>9}  verdict",
                pad_end("benchmark", width),
                "old",
                "new",
                "change",
                "95% CI",
                "p (Welch)"
            )?;
        } else {
            writeln!(
                self.out,
                "  {}  {:>8}  {:<20}  verdict",
                pad_end("benchmark", width),
                "change",
                "95% CI"
            )?;
        }
        let mut tally: Vec<(Verdict, Vec<String>)> = Verdict::ALL.map(|v| (v, Vec::new())).into();
        let mut new = Vec::new();
        let mut two_ways = Vec::new();
        let mut too_fast = 0;
        for result in results {
            let shown = pad_end(&shorten_middle(&escape(&result.name), width), width);
            match &result.comparison {
                Some(Compared::Against(c)) => {
                    let Some(r) = &c.ratio else {
                        too_fast += 1;
                        let words =
                            too_fast_to_compare(("this run", c.new), ("the baseline", c.old));
                        self.lines(&format!("  {shown}  {words}"))?;
                        continue;
                    };
                    self.verdict_colour(r.verdict)?;
                    let interval = format!(
                        "[{:>8}, {:>8}]",
                        signed_percent(r.change_interval.0),
                        signed_percent(r.change_interval.1)
                    );
                    let verdict = compared_words(c, r);
                    if details {
                        writeln!(
                            self.out,
                            "  {shown}  {:>10}  {:>10}  {:>8}  {interval}  {:>9}  {verdict}",
                            time(c.old),
                            time(c.new),
                            signed_percent(r.change),
                            p_value(r.p_welch),
                        )?;
                    } else {
                        writeln!(
                            self.out,
                            "  {shown}  {:>8}  {interval}  {verdict}",
                            signed_percent(r.change),
                        )?;
                    }
                    self.out.reset()?;
                    if let Some((_, names)) = tally.iter_mut().find(|(v, _)| *v == r.verdict) {
                        names.push(escape(&result.name).into_owned());
                    }
                    if c.two_ways {
                        two_ways.push(escape(&result.name).into_owned());
                    }
                }
                Some(Compared::New) => {
                    writeln!(self.out, "  {shown}  new: not measured in the baseline")?;
                    new.push(result.name.as_str());
                }
                None => {}
            }
        }
        let gone: Vec<String> = baseline
            .benchmarks
            .iter()
            .filter(|b| b.measurement.is_some() && !registered.contains(&b.name))
            .map(|b| escape(&b.name).into_owned())
            .collect();
        let verdicts = tally
            .iter()
            .flat_map(|(verdict, names)| std::iter::repeat_n(*verdict, names.len()));
        let mut count = format!("  {}", verdict_counts(verdicts));
        if too_fast > 0 {
            count.push_str(&format!(" · {too_fast} too fast to compare"));
        }
        if !new.is_empty() {
            count.push_str(&format!(" · {} new", new.len()));
        }
        if !gone.is_empty() {
            count.push_str(&format!(
                " · gone (in the baseline, no longer in this binary): {}",
                gone.join(", ")
            ));
        }
        self.lines(&count)?;
        let named = |verdict: Verdict| &tally.iter().find(|(v, _)| *v == verdict).unwrap().1;
        let slower = named(Verdict::Slower);
        if !slower.is_empty() {
            self.colour(Color::Red, true)?;
            self.lines(&format!("  slower: {}", slower.join(", ")))?;
            self.out.reset()?;
        }
        let unclear: Vec<&str> = (named(Verdict::Unclear).iter())
            .filter(|name| !two_ways.contains(name))
            .map(String::as_str)
            .collect();
        if !unclear.is_empty() {
            self.lines(&format!(
                "  unclear: {}: each interval reaches beyond ±{} without lying wholly beyond \
                 it; a longer --measure-time, or a quieter machine, settles it",
                unclear.join(", "),
                percent(threshold)
            ))?;
        }
        if !two_ways.is_empty() {
            self.lines(&format!(
                "  measured two ways: {}: their change holds the method's, so they are \
                 unclear whatever their intervals say; compare runs measured alike",
                two_ways.join(", ")
            ))?;
        }
        Ok(())
    }

    /// A verdict's colour: red for slower, green for faster.
    fn verdict_colour(&mut self, verdict: Verdict) -> io::Result<()> {
        match verdict {
            Verdict::Slower => self.colour(Color::Red, true),
            Verdict::Faster => self.colour(Color::Green, true),
            Verdict::NoDifference | Verdict::Unclear => Ok(()),
        }
    }

    /// The name column's width: `natural` (the longest name) under
    /// `--details`, else as much as leaves `rest` columns for the figures,
    /// at least 12.
    fn name_width(&self, natural: usize, rest: usize) -> usize {
        if self.details {
            natural
        } else {
            natural.min(self.width.saturating_sub(rest).max(12))
        }
    }

    /// `text` on as many lines as the width takes (one under `--details`),
    /// continuation lines indented.
    fn lines(&mut self, text: &str) -> io::Result<()> {
        let indent = if text.starts_with(INDENT) {
            "    "
        } else {
            INDENT
        };
        for line in self.fitted_with(text, indent) {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }

    /// An A/B group's ratio table (one per argument in a group with `args`):
    /// each member against the baseline member, from slices paired round
    /// by round, with the verdicts at [`GROUP_NOISE_THRESHOLD`] (pairing
    /// cancels the machine's drift: no machine change widens it).
    pub(crate) fn group_table(&mut self, group: &GroupReport) -> io::Result<()> {
        writeln!(self.out)?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        let title = format!(
            "group {} · in-run A/B against {} (slices paired round by round)",
            escape(&group.group),
            escape(&group.baseline),
        );
        self.lines(&title)?;
        self.out.reset()?;
        let details = self.details;
        // The threshold the verdicts used.
        let verdict_column = format!("verdict (±{})", percent(GROUP_NOISE_THRESHOLD));
        let natural = group
            .members
            .iter()
            .map(|(name, _)| escape(name).chars().count())
            .chain([escape(&group.baseline).chars().count(), "member".len()])
            .max()
            .unwrap_or(0);
        // Compact: the ratio, its interval and the verdict beside the name
        // (2 + name + 2 + 6 + 2 + 16 + 2 + verdict).
        let verdicts = group
            .members
            .iter()
            .filter_map(|(_, paired)| paired.as_ref().ok())
            .map(|p| columns(&group_verdict(p).1))
            .chain([columns(&verdict_column)])
            .max()
            .unwrap_or(0);
        let width = self.name_width(natural, 30 + verdicts);
        if details {
            writeln!(
                self.out,
                "  {}  {:>8}  {:>21}  {:>9}  {:>9}  {:>6}  {verdict_column}",
                pad_end("member", width),
                "ratio",
                "95% CI",
                "p (t)",
                "p (W)",
                "rounds"
            )?;
        } else {
            writeln!(
                self.out,
                "  {}  {:>6}  {:<16}  {verdict_column}",
                pad_end("member", width),
                "ratio",
                "95% CI"
            )?;
        }
        writeln!(
            self.out,
            "  {}  {}  (baseline)",
            pad_end(&shorten_middle(&escape(&group.baseline), width), width),
            if details { "  1.0000" } else { "1.0000" },
        )?;
        if group.members.is_empty() {
            writeln!(self.out, "  no other member of the group ran")?;
        }
        for (name, paired) in &group.members {
            let name = pad_end(&shorten_middle(&escape(name), width), width);
            let p = match paired {
                Ok(p) => p,
                Err(why) => {
                    let text = format!("  {name}  no comparison: {}", escape(why));
                    self.lines(&text)?;
                    continue;
                }
            };
            let (verdict, words) = group_verdict(p);
            self.verdict_colour(verdict)?;
            if details {
                let interval =
                    format!("[{:>8.4}, {:>8.4}]", p.ratio_interval.0, p.ratio_interval.1);
                writeln!(
                    self.out,
                    "  {name}  {:>8.4}  {interval}  {:>9}  {:>9}  {:>6}  {words}",
                    p.ratio,
                    p_value(p.p_t),
                    p_value(p.p_wilcoxon),
                    p.rounds,
                )?;
            } else {
                let (ratio, interval) = ratio_and_interval(p.ratio, p.ratio_interval);
                writeln!(self.out, "  {name}  {ratio:>6}  {interval:<16}  {words}")?;
            }
            self.out.reset()?;
        }
        Ok(())
    }
}

impl Terminal<'_> {
    /// `--against`: each benchmark's ratio new/old with its interval and
    /// verdict, then those on one side only and those that failed. By
    /// default it fits the width (the ratio, its interval, this build's
    /// time and the verdict beside the name shortened in the middle);
    /// `--details` adds the other build's time and the rounds.
    pub(crate) fn against_table(&mut self, report: &AgainstReport) -> io::Result<()> {
        writeln!(self.out)?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        let title = format!(
            "against {} · this build / that build, slices paired round by round (ABBA) · \
             noise threshold {}",
            escape(&report.baseline),
            percent(report.noise_threshold)
        );
        self.lines(&title)?;
        self.out.reset()?;
        let details = self.details;
        let natural = report
            .rows
            .iter()
            .map(|row| columns(&escape(&row.name)))
            .chain(["benchmark".len()])
            .max()
            .unwrap_or(0);
        // Compact: 2 + name + 2 + ratio 6 + 2 + interval 16 + 2 + new 9
        // + 2 + verdict 13.
        let width = self.name_width(natural, 54);
        if details {
            writeln!(
                self.out,
                "  {}  {:>8}  {:>21}  {:>10}  {:>10}  {:>6}  verdict",
                pad_end("benchmark", width),
                "new/old",
                "95% CI",
                "new",
                "old",
                "rounds"
            )?;
        } else {
            writeln!(
                self.out,
                "  {}  {:>6}  {:<16}  {:>9}  verdict",
                pad_end("benchmark", width),
                "ratio",
                "95% CI",
                "new"
            )?;
        }
        for row in &report.rows {
            let name = pad_end(&shorten_middle(&escape(&row.name), width), width);
            match &row.outcome {
                AgainstOutcome::Compared(p) => {
                    self.verdict_colour(p.verdict)?;
                    let c = &p.comparison;
                    let (low, high) = c.ratio_interval;
                    if details {
                        writeln!(
                            self.out,
                            "  {name}  {:>8.4}  [{low:>8.4}, {high:>8.4}]  {:>10}  {:>10}  {:>6}  {}",
                            c.ratio,
                            time(p.new_ns),
                            time(p.old_ns),
                            c.rounds,
                            verdict_words(p.verdict, c.largest_change()),
                        )?;
                    } else {
                        let (ratio, interval) = ratio_and_interval(c.ratio, (low, high));
                        writeln!(
                            self.out,
                            "  {name}  {ratio:>6}  {interval:<16}  {:>9}  {}",
                            time(p.new_ns),
                            verdict_words(p.verdict, c.largest_change()),
                        )?;
                    }
                    self.out.reset()?;
                }
                AgainstOutcome::New => writeln!(self.out, "  {name}  new: not in the other build")?,
                AgainstOutcome::Gone => writeln!(self.out, "  {name}  gone: not in this build")?,
                AgainstOutcome::Failed(why) => {
                    self.colour(Color::Red, false)?;
                    self.lines(&format!("  {name}  failed: {}", escape(why)))?;
                    self.out.reset()?;
                }
                AgainstOutcome::TooFast { new_ns, old_ns, .. } => {
                    let words =
                        too_fast_to_compare(("this build", *new_ns), ("that build", *old_ns));
                    self.lines(&format!("  {name}  {words}"))?;
                }
            }
        }
        if let Some(why) = report.nothing_compared() {
            writeln!(self.out, "  nothing was compared: {why}")?;
        } else {
            writeln!(self.out)?;
            self.lines(&format!("  {}", against_summary(report)))?;
        }
        if report.own_overhead {
            self.lines(
                "note: the other build's harness is older and took out its own estimate of the \
                 loop overhead: ratios of sub-nanosecond benchmarks may be off by a few percent; \
                 save the baseline again with this harness",
            )?;
        }
        Ok(())
    }
}

/// `--against`'s verdicts counted, and the benchmarks without one:
/// `2 slower, 1 faster, 16 no difference · 1 new`.
fn against_summary(report: &AgainstReport) -> String {
    let verdicts = report.rows.iter().filter_map(|row| match &row.outcome {
        AgainstOutcome::Compared(p) => Some(p.verdict),
        _ => None,
    });
    let mut parts = vec![verdict_counts(verdicts)];
    let count =
        |is: fn(&AgainstOutcome) -> bool| report.rows.iter().filter(|row| is(&row.outcome)).count();
    for (n, word) in [
        (
            count(|o| matches!(o, AgainstOutcome::TooFast { .. })),
            "too fast to compare",
        ),
        (count(|o| matches!(o, AgainstOutcome::New)), "new"),
        (count(|o| matches!(o, AgainstOutcome::Gone)), "gone"),
        (count(|o| matches!(o, AgainstOutcome::Failed(_))), "failed"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {word}"));
        }
    }
    parts.join(" · ")
}

/// `+3.21%`, `-0.50%`.
pub(super) fn signed_percent(fraction: f64) -> String {
    if fraction.is_finite() {
        format!("{:+.2}%", fraction * 100.0)
    } else {
        "?".to_string()
    }
}
