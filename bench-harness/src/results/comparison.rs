//! `--baseline NAME`: the run against a saved one, as a whole. Each
//! benchmark's own comparison is its `BenchResult::comparison`.

use crate::analysis::compare::Comparison;

/// What every verdict against a saved baseline shares: which baseline, how
/// much the machine itself changed speed since, and the threshold a change
/// had to clear.
#[derive(Debug, Clone)]
pub(crate) struct BaselineReport {
    /// The baseline's name (`--baseline NAME`).
    pub name: String,
    /// When it was saved (its `environment.timestamp`).
    pub saved: String,
    /// `--noise-threshold`, as a fraction.
    pub noise_threshold: f64,
    /// The threshold the verdicts used: `noise_threshold` widened by the
    /// machine's change (infinite when that change is unknown).
    pub threshold: f64,
    /// The harness's reference kernel then and now; `None` when either
    /// run lacks it.
    pub machine_change: Option<Comparison>,
    /// Benchmarks measured in the baseline that this binary no longer has.
    pub gone: Vec<String>,
}

/// The noise threshold of in-run A/B verdicts: none, since pairing round
/// by round cancels the machine's drift (a member is called slower or
/// faster once the paired test is significant and the interval excludes 1).
pub(crate) const GROUP_NOISE_THRESHOLD: f64 = 0.0;
