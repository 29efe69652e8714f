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
    /// Measured on both sides, but too fast for a ratio: see
    /// [`Paired::too_fast`].
    TooFast(Paired),
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

impl Paired {
    /// Whether the times are too close to zero for a ratio
    /// ([`crate::analysis::compare::too_fast`]).
    pub(crate) fn too_fast(&self, resolution: f64) -> bool {
        crate::analysis::compare::too_fast(&self.comparison, self.old_ns, self.new_ns, resolution)
    }
}

impl AgainstReport {
    /// Whether the gate fails: a benchmark is slower, or nothing was
    /// compared at all.
    pub(crate) fn regressed(&self) -> bool {
        self.rows.iter().any(|row| {
            matches!(&row.outcome, AgainstOutcome::Compared(p) if p.verdict == Verdict::Regressed)
        })
    }

    /// How many benchmarks were compared.
    pub(crate) fn compared(&self) -> usize {
        self.rows
            .iter()
            .filter(|row| matches!(row.outcome, AgainstOutcome::Compared(_)))
            .count()
    }
}

/// The verdict's word in tables and documents.
pub(crate) fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Regressed => "slower",
        Verdict::Improved => "faster",
        Verdict::NoChange | Verdict::WithinNoise => "no difference",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::compare_paired;

    fn paired(old: &[f64], new: &[f64]) -> Paired {
        let comparison = compare_paired(old, new);
        Paired {
            verdict: comparison.verdict(0.01),
            comparison,
            new_ns: new.iter().sum::<f64>() / new.len() as f64,
            old_ns: old.iter().sum::<f64>() / old.len() as f64,
        }
    }

    #[test]
    fn a_time_near_zero_is_too_fast_for_a_ratio() {
        let sub_ns: Vec<f64> = (0..10).map(|k| 0.24 + 0.001 * f64::from(k % 3)).collect();
        assert!(!paired(&sub_ns, &sub_ns).too_fast(0.005));
        // Within the overhead's uncertainty of zero.
        assert!(paired(&sub_ns, &sub_ns).too_fast(0.3));
        // An empty body: times scattered about zero, half the rounds
        // non-positive (the 0.07 "faster" of a real run).
        let empty = [
            0.004, -0.003, 0.002, -0.001, 0.005, 0.001, -0.004, 0.003, 0.002, -0.002,
        ];
        let other = [
            0.003, 0.004, -0.002, 0.001, -0.003, 0.004, 0.002, -0.001, 0.003, 0.002,
        ];
        assert!(paired(&empty, &other).too_fast(0.0));
        // One non-positive round in ten still leaves a ratio.
        let mut once = sub_ns.clone();
        once[3] = -0.01;
        assert!(!paired(&sub_ns, &once).too_fast(0.005));
        once[4] = -0.01;
        assert!(paired(&sub_ns, &once).too_fast(0.005));
        assert!(paired(&[1.0], &[1.0]).too_fast(0.0));
    }
}
