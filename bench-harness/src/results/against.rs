//! `--against`: this build and another, measured slice by slice in turn,
//! one ratio per benchmark.

use crate::analysis::compare::{PairedComparison, Verdict};

/// A paired comparison of two builds.
#[derive(Debug, Clone)]
pub(crate) struct AgainstReport {
    /// What the other build is: the baseline's name, or the executable's
    /// path.
    pub baseline: String,
    /// The worker protocol both sides spoke.
    pub protocol_version: u32,
    /// The smallest change that counts, as a fraction.
    pub noise_threshold: f64,
    /// One per benchmark of either build, in report order: compared, or
    /// on one side only, or failed.
    pub rows: Vec<AgainstRow>,
    /// The other build took out its own loop overhead, not this one's (a
    /// worker of an earlier harness): ratios of sub-nanosecond benchmarks
    /// may be off by a few percent.
    pub own_overhead: bool,
    /// Ctrl-C stopped the comparison: rows of benchmarks it never reached
    /// are missing, and the others have fewer pairs. Every format says so.
    pub partial: bool,
}

/// One benchmark of a paired comparison.
#[derive(Debug, Clone)]
pub(crate) struct AgainstRow {
    pub name: String,
    pub outcome: AgainstOutcome,
}

/// What became of one benchmark.
#[derive(Debug, Clone)]
pub(crate) enum AgainstOutcome {
    /// Measured on both sides.
    Compared(Paired),
    /// In this build only.
    New,
    /// In the other build only.
    Gone,
    /// Either side failed (or stopped) before enough paired rounds.
    Failed(String),
    /// Measured on both sides, each within the loop overhead's noise of
    /// zero: no ratio ([`crate::analysis::compare::compare_replicated`]).
    TooFast {
        new_ns: f64,
        old_ns: f64,
        /// Paired rounds.
        rounds: usize,
    },
}

/// The rounds of one benchmark, paired.
#[derive(Debug, Clone)]
pub(crate) struct Paired {
    /// new/old per round: this build's slice median over the other's.
    pub comparison: PairedComparison,
    pub verdict: Verdict,
    /// Each side's time per iteration: the mean of its slice medians, in
    /// nanoseconds.
    pub new_ns: f64,
    pub old_ns: f64,
}

impl AgainstReport {
    /// Whether the gate fails: a benchmark is slower, or nothing was
    /// compared at all.
    pub(crate) fn regressed(&self) -> bool {
        self.rows.iter().any(|row| {
            matches!(&row.outcome, AgainstOutcome::Compared(p) if p.verdict == Verdict::Slower)
        })
    }

    /// Why nothing was compared, when nothing was: `None` otherwise.
    pub(crate) fn nothing_compared(&self) -> Option<&'static str> {
        if self.compared() > 0 {
            None
        } else if self
            .rows
            .iter()
            .any(|row| matches!(row.outcome, AgainstOutcome::TooFast { .. }))
        {
            Some("every benchmark that ran in both builds was too fast for a ratio")
        } else {
            Some("no benchmark ran in both builds")
        }
    }

    /// How many benchmarks were compared.
    pub(crate) fn compared(&self) -> usize {
        self.rows
            .iter()
            .filter(|row| matches!(row.outcome, AgainstOutcome::Compared(_)))
            .count()
    }
}
