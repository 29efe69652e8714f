//! The distributions behind every interval and test of the crate:
//! Student's t (quantiles and two-sided p-values, accurate from a fraction
//! of a degree of freedom to millions) and the normal approximation with a
//! continuity correction that the rank tests use.

use super::special::{Normal, StudentsT};

/// `P(|T| ≥ |t|)` for Student's T with `df` degrees of freedom. With no
/// degrees of freedom left (a side worth a single independent value) the
/// distribution has no finite quantiles: the limit, 1.
pub(crate) fn students_t_two_sided_p(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() {
        return f64::NAN;
    }
    if df <= 0.0 {
        return 1.0;
    }
    if t.is_infinite() {
        return 0.0;
    }
    let distribution = StudentsT::new(0.0, 1.0, df).expect("positive degrees of freedom");
    (2.0 * distribution.sf(t.abs())).min(1.0)
}

/// Quantile `p` (> ½) of Student's t with `degrees_of_freedom`; ∞ without
/// degrees of freedom, NaN for NaN. Every interval of the crate uses it.
///
/// Below 1000 degrees of freedom the quantile comes from inverting the
/// incomplete beta function (`special.rs`). Inversions of it drift at
/// millions of degrees of freedom (statrs's, used before, was off by
/// 3.5e-6 at 10⁵ and 7% at 10⁷, and benchmarks do collect millions of
/// samples), and none is needed: from 1000 on, the Cornish–Fisher expansion around the normal
/// quantile (Abramowitz & Stegun 26.7.5, four terms) is accurate to an ulp.
/// Below one degree of freedom (a side worth fewer than two independent
/// blocks) see [`heavy_tailed_t_quantile`].
pub(crate) fn students_t_quantile(p: f64, degrees_of_freedom: f64) -> f64 {
    if degrees_of_freedom.is_nan() {
        return f64::NAN;
    }
    if degrees_of_freedom <= 0.0 {
        return f64::INFINITY;
    }
    if degrees_of_freedom < 1.0 {
        return heavy_tailed_t_quantile(p, degrees_of_freedom);
    }
    if degrees_of_freedom < 1000.0 {
        return StudentsT::new(0.0, 1.0, degrees_of_freedom)
            .expect("positive degrees of freedom")
            .inverse_cdf(p);
    }
    let z = Normal::standard().inverse_cdf(p);
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    let v = degrees_of_freedom;
    z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v)
}

/// Quantile `p` (> ½) of Student's t with fewer than one degree of
/// freedom, where inverting the incomplete beta function is fragile
/// (statrs's returned 5.9e7 for 1.2e25 at 0.05): bisection on
/// `ln t` of the survival function, which stays accurate. ∞ beyond the
/// largest f64.
fn heavy_tailed_t_quantile(p: f64, degrees_of_freedom: f64) -> f64 {
    let distribution =
        StudentsT::new(0.0, 1.0, degrees_of_freedom).expect("positive degrees of freedom");
    let tail = 1.0 - p;
    let (mut low, mut high) = (0.0_f64, f64::MAX.ln());
    if distribution.sf(high.exp()) > tail {
        return f64::INFINITY;
    }
    loop {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            return high.exp();
        }
        if distribution.sf(middle.exp()) > tail {
            low = middle;
        } else {
            high = middle;
        }
    }
}

/// Two-sided normal p-value of a deviation `|statistic − mean|` shrunk by
/// the continuity correction ½ (never past 0), with standard deviation `sd`.
pub(crate) fn normal_p_with_continuity(deviation: f64, sd: f64) -> f64 {
    if deviation.is_nan() || sd.is_nan() {
        return f64::NAN;
    }
    if sd <= 0.0 {
        return 1.0;
    }
    let z = (deviation.abs() - 0.5).max(0.0) / sd;
    (2.0 * Normal::standard().sf(z)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relative_error(actual: f64, expected: f64) -> f64 {
        ((actual - expected) / expected).abs()
    }

    /// Reference values printed by (SciPy 1.17.1)
    /// `python3 -c "from scipy import stats; [print(v, 2*stats.t.sf(2.5, v), 2*stats.t.sf(40.0, v), stats.t.ppf(0.975, v)) for v in (0.05, 0.5, 1.5, 1e3, 1e5, 1e7)]"`
    /// (`t.sf(40, v)` underflows to 0 from 10⁵ on).
    #[test]
    fn t_distribution_matches_scipy_from_a_fraction_to_millions_of_degrees_of_freedom() {
        let scipy = [
            (
                0.05,
                0.8568645785773842,
                0.7460198296995585,
                1.1958337585475138e25,
            ),
            (
                0.5,
                0.4009705290532932,
                0.10140979992949435,
                164.55767348048818,
            ),
            (
                1.5,
                0.16980650261469604,
                0.002979624390931245,
                6.016663104427929,
            ),
            (
                1e3,
                0.012578567801090807,
                1.0478852155173272e-209,
                1.9623390808264083,
            ),
            (1e5, 0.012420919192559051, 0.0, 1.9599877075346095),
            (1e7, 0.01241934653657847, 0.0, 1.959964221767205),
        ];
        for (df, p_small_t, p_large_t, quantile) in scipy {
            // The incomplete beta function's continued fraction drifts at
            // 10⁷ degrees of freedom: harmless for a p-value.
            let tolerance = if df > 1e6 { 1e-7 } else { 1e-9 };
            let p = students_t_two_sided_p(2.5, df);
            assert!(
                relative_error(p, p_small_t) < tolerance,
                "df {df}: p {p} vs {p_small_t}"
            );
            let p = students_t_two_sided_p(40.0, df);
            assert!(
                p == p_large_t || relative_error(p, p_large_t) < tolerance,
                "df {df}: p {p} vs {p_large_t}"
            );
            let q = students_t_quantile(0.975, df);
            assert!(
                relative_error(q, quantile) < 1e-9,
                "df {df}: quantile {q} vs {quantile}"
            );
        }
        assert_eq!(students_t_two_sided_p(3.0, 0.0), 1.0);
        assert_eq!(students_t_quantile(0.975, 0.0), f64::INFINITY);
    }
}
