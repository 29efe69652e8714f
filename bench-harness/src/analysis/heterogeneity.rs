//! Do independent estimates differ by more than their own uncertainties
//! explain? Cochran's Q test: with estimates `xᵢ` and standard errors
//! `sᵢ`, weights `wᵢ = 1/sᵢ²`, the weighted mean `x̄`, and
//! `Q = Σ wᵢ (xᵢ − x̄)²`, which is χ² with `n − 1` degrees of freedom when
//! they all estimate the same thing.
//!
//! `--forks` uses it to tell whether the process a benchmark runs in changes
//! its time. A one-way ANOVA of the block medians by process, used before,
//! treats the blocks of one process as independent; they are not (the
//! machine's state persists), and at lag-1 correlation 0.4 it flagged
//! identical processes 28–41% of the time. Here each process's standard
//! error comes from its own dependence-aware interval.

use super::special::ChiSquared;

/// The probability of estimates at least this far apart if they all
/// estimate the same value; `None` for fewer than two estimates or any
/// standard error that is not positive and finite.
pub(crate) fn cochran_q_p_value(estimates: &[(f64, f64)]) -> Option<f64> {
    if estimates.len() < 2
        || estimates
            .iter()
            .any(|&(x, se)| !(x.is_finite() && se.is_finite() && se > 0.0))
    {
        return None;
    }
    let weights: Vec<f64> = estimates.iter().map(|&(_, se)| 1.0 / (se * se)).collect();
    let total: f64 = weights.iter().sum();
    let mean = estimates
        .iter()
        .zip(&weights)
        .map(|(&(x, _), w)| w * x)
        .sum::<f64>()
        / total;
    let q: f64 = estimates
        .iter()
        .zip(&weights)
        .map(|(&(x, _), w)| w * (x - mean).powi(2))
        .sum();
    let degrees_of_freedom = (estimates.len() - 1) as f64;
    let chi2 = ChiSquared::new(degrees_of_freedom).ok()?;
    Some(chi2.sf(q).clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy: `chi2.sf(Q, df)` for the same estimates.
    #[test]
    fn q_matches_scipy() {
        // Q = 8.0, df 2: exp(-4) = 0.018315638888734.
        let p = cochran_q_p_value(&[(10.0, 1.0), (12.0, 1.0), (14.0, 1.0)]).unwrap();
        assert!((p - 0.018_315_638_888_734).abs() < 1e-12, "{p}");
        // Unequal errors: weights 1 and 4, mean 11.6, Q = 3.2, df 1:
        // chi2.sf(3.2, 1) = 0.07363827012030258.
        let p = cochran_q_p_value(&[(10.0, 1.0), (12.0, 0.5)]).unwrap();
        assert!((p - 0.073_638_270_120_302_58).abs() < 1e-12, "{p}");
        assert_eq!(cochran_q_p_value(&[(10.0, 1.0)]), None);
        assert_eq!(cochran_q_p_value(&[(10.0, 1.0), (11.0, 0.0)]), None);
    }
}
