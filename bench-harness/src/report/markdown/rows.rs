//! The page's rows: each comparison's, in the four cells a reviewer
//! reads, with where each stands (what is shown, what is folded) and what
//! the summary line counts.

use super::{code, escape, signed_percent};
use crate::analysis::compare::Verdict;
use crate::report::format::{
    compared_words, group_verdict, percent, time, too_fast_to_compare, verdict_counts,
    verdict_words, Headline,
};
use crate::report::notes::bound_text;
use crate::results::against::{AgainstOutcome, AgainstReport};
use crate::results::comparison::{BaselineReport, GROUP_NOISE_THRESHOLD};
use crate::results::{BenchResult, Compared, GroupReport, Outcome};

/// Where a row stands, in the order the page lists them: the rows that
/// changed and the failures in the table, the rest folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Standing {
    Slower,
    Faster,
    /// Measured otherwise in the baseline: unclear, but shown, since its
    /// change may be large.
    TwoWays,
    Failed,
    Unclear,
    NoDifference,
    TooFast,
    New,
    Gone,
    /// An A/B member without a comparison.
    NotCompared,
}

impl Standing {
    /// A verdict's standing, `word` as the row says it.
    fn of(verdict: Verdict, word: &str) -> Standing {
        match verdict {
            Verdict::Slower => Standing::Slower,
            Verdict::Faster => Standing::Faster,
            Verdict::Unclear if word.starts_with("unclear") => Standing::Unclear,
            Verdict::NoDifference | Verdict::Unclear => Standing::NoDifference,
        }
    }

    /// Whether the row is in the table rather than folded.
    pub(super) fn shown(self) -> bool {
        self <= Standing::Failed
    }

    /// The verdict the row counts as in the summary line.
    pub(super) fn verdict(self) -> Option<Verdict> {
        match self {
            Standing::Slower => Some(Verdict::Slower),
            Standing::Faster => Some(Verdict::Faster),
            Standing::Unclear | Standing::TwoWays => Some(Verdict::Unclear),
            Standing::NoDifference => Some(Verdict::NoDifference),
            _ => None,
        }
    }

    /// What the row is, as the folded block's summary counts it.
    pub(super) fn word(self) -> String {
        match (self.verdict(), self.counted()) {
            (Some(verdict), _) => verdict.to_string(),
            (None, Some(word)) => word.to_string(),
            (None, None) => String::new(),
        }
    }

    /// How the summary counts the rows without a verdict: `1 new`.
    pub(super) fn counted(self) -> Option<&'static str> {
        match self {
            Standing::Failed => Some("failed"),
            Standing::TooFast => Some("too fast to compare"),
            Standing::New => Some("new"),
            Standing::Gone => Some("gone"),
            Standing::NotCompared => Some("not compared"),
            _ => None,
        }
    }
}

/// One row of the table, its cells ready.
pub(super) struct Row {
    pub(super) name: String,
    pub(super) time: String,
    pub(super) change: String,
    pub(super) verdict: String,
    pub(super) standing: Standing,
}

impl Row {
    fn new(name: String, time: String, change: String, verdict: String, standing: Standing) -> Row {
        let verdict = match standing {
            Standing::Slower | Standing::Failed => format!("**{verdict}**"),
            _ => verdict,
        };
        Row {
            name,
            time,
            change,
            verdict,
            standing,
        }
    }
}

/// One comparison's rows and what the summary line says of it.
pub(super) struct Section {
    /// `against baseline `main``; empty for rows outside any comparison.
    pub(super) what: String,
    /// The threshold its verdicts used, as a fraction.
    pub(super) threshold: Option<f64>,
    pub(super) rows: Vec<Row>,
}

impl Section {
    pub(super) fn new(what: String, threshold: Option<f64>) -> Section {
        Section {
            what,
            threshold,
            rows: Vec::new(),
        }
    }

    /// `**1 slower, 2 no difference** against baseline `main` (threshold
    /// ±2.93%)`; `None` for rows outside any comparison.
    pub(super) fn clause(&self) -> Option<String> {
        if self.what.is_empty() {
            return None;
        }
        let counts = verdict_counts(self.rows.iter().filter_map(|r| r.standing.verdict()));
        let threshold = match self.threshold {
            Some(t) if t.is_finite() => format!(" (threshold ±{})", percent(t)),
            Some(_) => " (no threshold: the machine's own change is unknown)".to_string(),
            None => String::new(),
        };
        Some(format!("**{counts}** {}{threshold}", self.what))
    }
}

/// `--against`'s rows, and the notes they need: the failures' messages,
/// what too fast to compare means.
pub(super) fn against_section(report: &AgainstReport) -> (Section, Vec<String>) {
    let mut section = Section::new(
        format!("against {}", code(&report.baseline)),
        Some(report.noise_threshold),
    );
    let mut notes = Vec::new();
    for row in &report.rows {
        let name = code(&row.name);
        let (time, change, words, standing) = match &row.outcome {
            AgainstOutcome::Compared(p) => {
                let c = &p.comparison;
                let change = change_text(
                    c.ratio - 1.0,
                    (c.ratio_interval.0 - 1.0, c.ratio_interval.1 - 1.0),
                );
                let word = verdict_words(p.verdict, c.largest_change());
                (
                    time(p.new_ns.max(0.0)),
                    change,
                    word.clone(),
                    Standing::of(p.verdict, &word),
                )
            }
            AgainstOutcome::TooFast { new_ns, old_ns, .. } => {
                notes.push(format!(
                    "{name}: {}",
                    escape(&too_fast_to_compare(
                        ("this build", *new_ns),
                        ("that build", *old_ns)
                    ))
                ));
                (
                    time(new_ns.max(0.0)),
                    String::new(),
                    "too fast to compare".into(),
                    Standing::TooFast,
                )
            }
            AgainstOutcome::New => (
                String::new(),
                String::new(),
                "new: not in the other build".into(),
                Standing::New,
            ),
            AgainstOutcome::Gone => (
                String::new(),
                String::new(),
                "gone: not in this build".into(),
                Standing::Gone,
            ),
            AgainstOutcome::Failed(why) => {
                notes.push(format!("{name} failed: {}", escape(why)));
                (
                    "**FAILED**".into(),
                    String::new(),
                    "failed".into(),
                    Standing::Failed,
                )
            }
        };
        section
            .rows
            .push(Row::new(name, time, change, words, standing));
    }
    (section, notes)
}

/// Each benchmark against the saved baseline, and those it no longer has.
pub(super) fn baseline_section(baseline: &BaselineReport, results: &[BenchResult]) -> Section {
    let mut section = Section::new(
        format!("against baseline {}", code(&baseline.name)),
        Some(baseline.threshold),
    );
    for result in results {
        let name = code(&result.name);
        let row = match (&result.comparison, &result.outcome) {
            (Some(Compared::Against(c)), _) => match &c.ratio {
                Some(r) => {
                    let words = compared_words(c, r);
                    let standing = if c.two_ways {
                        Standing::TwoWays
                    } else {
                        Standing::of(r.verdict, &words)
                    };
                    Row::new(
                        name,
                        current_time(result),
                        change_text(r.change, r.change_interval),
                        words,
                        standing,
                    )
                }
                None => Row::new(
                    name,
                    current_time(result),
                    String::new(),
                    "too fast to compare".into(),
                    Standing::TooFast,
                ),
            },
            (Some(Compared::New), _) => Row::new(
                name,
                current_time(result),
                String::new(),
                "new: not in the baseline".into(),
                Standing::New,
            ),
            (None, Outcome::Failed(_)) => failed_row(&result.name),
            (None, _) => continue,
        };
        section.rows.push(row);
    }
    for gone in &baseline.gone {
        section.rows.push(Row::new(
            code(gone),
            String::new(),
            String::new(),
            "gone: not in this binary".into(),
            Standing::Gone,
        ));
    }
    section
}

/// The baseline's date and the machine's own change since, which widened
/// the threshold.
pub(super) fn machine_change(baseline: &BaselineReport) -> String {
    let saved = format!(
        "Baseline {} was saved {}.",
        code(&baseline.name),
        escape(&baseline.saved)
    );
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
        Some(m) => format!(
            "{saved} The machine itself: {} [{}, {}] since (the harness's reference kernel), \
             so a verdict needs the whole interval beyond {threshold} (--noise-threshold ±{} \
             widened by that change).",
            signed_percent(m.change),
            signed_percent(m.change_interval.0),
            signed_percent(m.change_interval.1),
            percent(baseline.noise_threshold),
        ),
        None => format!(
            "{saved} It has no machine reference: verdicts use {threshold} and cannot tell a \
             slower machine from slower code."
        ),
    }
}

/// Each A/B group's members against the group's baseline member.
pub(super) fn group_section(groups: &[GroupReport], results: &[BenchResult]) -> Section {
    // A group with `args` has a report per argument.
    let mut names: Vec<&str> = groups.iter().map(|g| g.group.as_str()).collect();
    names.dedup();
    let what = match names[..] {
        [one] => format!("in A/B group {}", code(one)),
        _ => format!("in {} A/B groups", names.len()),
    };
    let mut section = Section::new(what, Some(GROUP_NOISE_THRESHOLD));
    for group in groups {
        let against = format!(" vs {}", code(&group.baseline));
        for (member, paired) in &group.members {
            let result = results.iter().find(|r| r.name == *member);
            let time = result.map_or(String::new(), current_time);
            let row = match paired {
                Ok(p) => {
                    let (verdict, words) = group_verdict(p);
                    let (low, high) = p.ratio_interval;
                    let change = change_text(p.ratio - 1.0, (low - 1.0, high - 1.0));
                    let standing = Standing::of(verdict, &words);
                    let mut row = Row::new(code(member), time, change, words, standing);
                    row.verdict.push_str(&against);
                    row
                }
                // Its failure has a row of its own (see `write`).
                Err(_) if result.is_some_and(|r| matches!(r.outcome, Outcome::Failed(_))) => {
                    continue
                }
                Err(why) => Row::new(
                    code(member),
                    time,
                    String::new(),
                    format!("no comparison: {}", escape(why)),
                    Standing::NotCompared,
                ),
            };
            section.rows.push(row);
        }
    }
    section
}

pub(super) fn failed_row(name: &str) -> Row {
    Row::new(
        code(name),
        "**FAILED**".into(),
        String::new(),
        "failed".into(),
        Standing::Failed,
    )
}

/// This run's time of `result`, as every table for people reads it.
fn current_time(result: &BenchResult) -> String {
    match &result.outcome {
        Outcome::Measured(m) => Headline::of(m).time(),
        Outcome::Failed(_) => "**FAILED**".to_string(),
        _ => String::new(),
    }
}

/// `+20.00% [+15.83%, +24.32%]`.
fn change_text(change: f64, (low, high): (f64, f64)) -> String {
    format!(
        "{} [{}, {}]",
        signed_percent(change),
        signed_percent(low),
        signed_percent(high)
    )
}

/// The notes and failures of every benchmark, one line each.
pub(super) fn notes(results: &[BenchResult]) -> Vec<String> {
    let mut notes = Vec::new();
    for result in results {
        let name = code(&result.name);
        match &result.outcome {
            Outcome::Measured(m) => {
                let texts = bound_text(m)
                    .into_iter()
                    .chain(m.notes.iter().map(ToString::to_string));
                notes.extend(texts.map(|text| format!("{name}: {}", escape(&text))));
            }
            Outcome::Failed(failure) => {
                let at = failure
                    .location
                    .as_deref()
                    .map_or(String::new(), |l| format!(" (at {})", escape(l)));
                notes.push(format!("{name} failed: {}{at}", escape(&failure.message)));
            }
            Outcome::Ignored | Outcome::Passed => {}
        }
    }
    notes
}
