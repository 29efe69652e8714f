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

/// The noise threshold of in-run A/B verdicts, as a fraction: 1%, the
/// default of the other paired comparison (`--against`). Pairing round by
/// round cancels the machine's drift, so no machine change widens it; but a
/// threshold of 0 would leave `no difference` out of reach (no interval
/// lies within ±0), and call a difference of 0.1% between two copies of a
/// function, which their code's alignment alone can make, a verdict.
pub(crate) const GROUP_NOISE_THRESHOLD: f64 = 0.01;
