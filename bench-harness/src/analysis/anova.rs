//! One-way analysis of variance: do groups of values differ by more than
//! the spread within them explains? Used by `--forks` to tell whether the
//! process a benchmark runs in changes its time (Mytkowicz et al.: memory
//! layout and link order bias measurements by process).

use super::special::FisherSnedecor;

/// The F test that every group has the same mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Anova {
    /// The probability of group means at least this far apart if only the
    /// values within groups varied. Zero spread within groups gives 0 when
    /// the means differ, 1 when not.
    pub p_value: f64,
    /// The pooled standard deviation within groups: √(SSW / (n − k)).
    pub within_sd: f64,
}

/// The F test over `groups`; `None` with fewer than two non-empty groups,
/// or when no group has two values (no within-group spread to compare with).
pub(crate) fn one_way_anova<G: AsRef<[f64]>>(groups: &[G]) -> Option<Anova> {
    let groups: Vec<&[f64]> = groups
        .iter()
        .map(AsRef::as_ref)
        .filter(|g| !g.is_empty())
        .collect();
    let n: usize = groups.iter().map(|g| g.len()).sum();
    let k = groups.len();
    if k < 2 || n <= k {
        return None;
    }
    let mean = |g: &[f64]| g.iter().sum::<f64>() / g.len() as f64;
    let grand = groups.iter().flat_map(|g| g.iter()).sum::<f64>() / n as f64;
    let between: f64 = groups
        .iter()
        .map(|g| g.len() as f64 * (mean(g) - grand).powi(2))
        .sum();
    let within: f64 = groups
        .iter()
        .map(|g| {
            let m = mean(g);
            g.iter().map(|x| (x - m).powi(2)).sum::<f64>()
        })
        .sum();
    let (df_between, df_within) = ((k - 1) as f64, (n - k) as f64);
    let within_sd = (within / df_within).sqrt();
    let p_value = if within == 0.0 {
        if between > 0.0 {
            0.0
        } else {
            1.0
        }
    } else {
        let f = (between / df_between) / (within / df_within);
        let distribution = FisherSnedecor::new(df_between, df_within).ok()?;
        distribution.sf(f).clamp(0.0, 1.0)
    };
    Some(Anova { p_value, within_sd })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_worked_example() {
        // Three groups; by hand: SSB = 32, SSW = 6, F = (32/2)/(6/9) = 24,
        // and F(2, 9) > 24 has probability 0.000247 (scipy's f_oneway).
        let groups = vec![
            vec![4.0, 5.0, 6.0, 5.0],
            vec![6.0, 7.0, 8.0, 7.0],
            vec![8.0, 9.0, 10.0, 9.0],
        ];
        let anova = one_way_anova(&groups).unwrap();
        assert!((anova.p_value - 0.000_246_976).abs() < 1e-8, "{anova:?}");
        assert!((anova.within_sd - (6.0f64 / 9.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn equal_groups_are_not_different() {
        let groups = vec![vec![1.0, 2.0, 3.0], vec![1.0, 2.0, 3.0]];
        assert!((one_way_anova(&groups).unwrap().p_value - 1.0).abs() < 1e-12);
    }

    #[test]
    fn needs_two_groups_and_spread_within() {
        let p = |groups: &[Vec<f64>]| one_way_anova(groups).map(|a| a.p_value);
        assert_eq!(p(&[vec![1.0, 2.0]]), None);
        assert_eq!(p(&[vec![1.0], vec![2.0]]), None);
        assert_eq!(p(&[vec![1.0, 1.0], vec![2.0]]), Some(0.0));
        assert_eq!(p(&[vec![1.0, 1.0], vec![1.0]]), Some(1.0));
    }
}
