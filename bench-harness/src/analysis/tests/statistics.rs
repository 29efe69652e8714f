//! The statistics the harness reports, checked against certified values
//! (NIST StRD) and against values computed independently with NumPy/SciPy.
//!
//! Reference tool versions: Python 3 with NumPy 2.4.6 and SciPy 1.17.1.

use crate::analysis::interval::median_interval;
use crate::analysis::modality::{self, MVALUE_BIMODAL, MVALUE_MULTIMODAL};
use crate::analysis::outliers;
use crate::analysis::{percentile, summarize, Interval, Summary};

/// NIST's "log relative error": how many significant digits `actual` shares
/// with `certified` (∞ when they are equal).
fn significant_digits(actual: f64, certified: f64) -> f64 {
    -((actual - certified) / certified).abs().log10()
}

fn assert_digits(what: &str, actual: f64, certified: f64, at_least: f64) {
    let digits = significant_digits(actual, certified);
    assert!(
        digits >= at_least,
        "{what}: {actual:e} vs certified {certified:e} agree to {digits:.2} digits, want {at_least}"
    );
}

fn assert_close(what: &str, actual: f64, expected: f64) {
    let tolerance = 1e-12 * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual:e} vs expected {expected:e}"
    );
}

fn summary_of(values: &[f64]) -> Summary {
    summarize(values).expect("non-empty sample")
}

// ---------------------------------------------------------------------------
// NIST Statistical Reference Datasets, univariate summary statistics
// (https://www.itl.nist.gov/div898/strd/univ/homepage.html). The certified
// values are quoted from the dataset headers, as reproduced in Stata's
// certification scripts (https://www.stata.com/support/cert/nist9/univariate/
// numacc1.do ... numacc4.do, lew.do) and in the test suite of
// github.com/montanaflynn/stats (nist_test.go).
// ---------------------------------------------------------------------------

/// NumAcc2/3/4 are defined by rule: the centre value once, then 500 pairs
/// of (centre − 0.1, centre + 0.1): 1001 values.
fn numacc(centre: f64, below: f64, above: f64) -> Vec<f64> {
    let mut values = vec![centre];
    for _ in 0..500 {
        values.extend([below, above]);
    }
    values
}

/// NumAcc1: "10000001, 10000003, 10000002; sample mean = 10000002 (exact),
/// sample standard deviation = 1 (exact)".
#[test]
fn nist_numacc1_is_reproduced_exactly() {
    let summary = summary_of(&[10000001.0, 10000003.0, 10000002.0]);
    assert_eq!(summary.mean, 10000002.0);
    assert_eq!(summary.std_dev, 1.0);
}

/// NumAcc2: 1.2 then 500 × (1.1, 1.3); certified mean 1.2, sd 0.1 (exact).
#[test]
fn nist_numacc2_agrees_to_15_digits() {
    let summary = summary_of(&numacc(1.2, 1.1, 1.3));
    assert_eq!(summary.n, 1001);
    assert_digits("NumAcc2 mean", summary.mean, 1.2, 15.0);
    assert_digits("NumAcc2 std dev", summary.std_dev, 0.1, 15.0);
}

/// NumAcc3: 1000000.2 then 500 × (1000000.1, 1000000.3); certified mean
/// 1000000.2, sd 0.1 (exact). The decimal inputs are not exact in binary:
/// the data f64 can hold has sd 0.1000000000349246 (see NumAcc4), which
/// still agrees with the certificate to 9.46 digits.
#[test]
fn nist_numacc3_agrees_to_9_digits() {
    let summary = summary_of(&numacc(1000000.2, 1000000.1, 1000000.3));
    assert_digits("NumAcc3 mean", summary.mean, 1000000.2, 15.0);
    assert_digits("NumAcc3 std dev", summary.std_dev, 0.1, 9.4);
}

/// NumAcc4: 10000000.2 then 500 × (10000000.1, 10000000.3); certified mean
/// 10000000.2, sd 0.1 (exact).
///
/// Nine significant digits of this sd cannot survive the conversion of the
/// inputs to f64: 10000000.1 becomes 10000000.099999999627… and 10000000.3
/// becomes 10000000.300000000745…, and the standard deviation of exactly
/// those numbers, in exact rational arithmetic, is 0.10000000055879354…,
/// 8.25 digits from the certificate. Computed by
/// `python3 -c "from fractions import Fraction as F; from decimal import Decimal as D, getcontext; getcontext().prec=30; x=[F(10000000.2)]+[F(10000000.1), F(10000000.3)]*500; n=len(x); m=sum(x)/n; v=sum((a-m)**2 for a in x)/(n-1); print((D(v.numerator)/D(v.denominator)).sqrt(), float(m))"`
/// which printed `0.100000000558793544773619585565 10000000.2`.
/// So the sd is checked against that exact value to 12 digits (no digit is
/// lost in the computation) and against the certificate to the 8.25 digits
/// the input allows; the next test shows the 9 digits on data f64 holds
/// exactly.
#[test]
fn nist_numacc4_loses_nothing_beyond_the_rounding_of_its_inputs() {
    let summary = summary_of(&numacc(10000000.2, 10000000.1, 10000000.3));
    assert_digits("NumAcc4 mean", summary.mean, 10000000.2, 15.0);
    assert_digits(
        "NumAcc4 std dev vs exact sd of the f64 inputs",
        summary.std_dev,
        // 0.100000000558793544773619585565 rounded to f64.
        0.100_000_000_558_793_54,
        12.0,
    );
    assert_digits("NumAcc4 std dev vs certificate", summary.std_dev, 0.1, 8.25);
}

/// NumAcc4 in tenths (100000002, then 500 × (100000001, 100000003)): the
/// same nine constant leading digits, but every value is exact in f64, so
/// the certified mean and sd (scaled by 10) must come out exactly.
#[test]
fn nist_numacc4_on_exactly_representable_data_is_certified() {
    let summary = summary_of(&numacc(100000002.0, 100000001.0, 100000003.0));
    assert_eq!(summary.mean, 100000002.0);
    assert_digits("NumAcc4 in tenths, std dev", summary.std_dev, 1.0, 15.0);
}

/// Lew, "Beam Deflections" (observed data, 200 values, lower difficulty).
/// Certified: sample mean -177.435000000000, sample standard deviation
/// (denominator n − 1) 277.332168044316.
/// Source: https://www.itl.nist.gov/div898/strd/univ/lew.html; the data as
/// embedded in https://www.stata.com/support/cert/nist9/univariate/lew.do.
const LEW: [f64; 200] = [
    -213.0, -564.0, -35.0, -15.0, 141.0, 115.0, -420.0, -360.0, 203.0, -338.0, -431.0, 194.0,
    -220.0, -513.0, 154.0, -125.0, -559.0, 92.0, -21.0, -579.0, -52.0, 99.0, -543.0, -175.0, 162.0,
    -457.0, -346.0, 204.0, -300.0, -474.0, 164.0, -107.0, -572.0, -8.0, 83.0, -541.0, -224.0,
    180.0, -420.0, -374.0, 201.0, -236.0, -531.0, 83.0, 27.0, -564.0, -112.0, 131.0, -507.0,
    -254.0, 199.0, -311.0, -495.0, 143.0, -46.0, -579.0, -90.0, 136.0, -472.0, -338.0, 202.0,
    -287.0, -477.0, 169.0, -124.0, -568.0, 17.0, 48.0, -568.0, -135.0, 162.0, -430.0, -422.0,
    172.0, -74.0, -577.0, -13.0, 92.0, -534.0, -243.0, 194.0, -355.0, -465.0, 156.0, -81.0, -578.0,
    -64.0, 139.0, -449.0, -384.0, 193.0, -198.0, -538.0, 110.0, -44.0, -577.0, -6.0, 66.0, -552.0,
    -164.0, 161.0, -460.0, -344.0, 205.0, -281.0, -504.0, 134.0, -28.0, -576.0, -118.0, 156.0,
    -437.0, -381.0, 200.0, -220.0, -540.0, 83.0, 11.0, -568.0, -160.0, 172.0, -414.0, -408.0,
    188.0, -125.0, -572.0, -32.0, 139.0, -492.0, -321.0, 205.0, -262.0, -504.0, 142.0, -83.0,
    -574.0, 0.0, 48.0, -571.0, -106.0, 137.0, -501.0, -266.0, 190.0, -391.0, -406.0, 194.0, -186.0,
    -553.0, 83.0, -13.0, -577.0, -49.0, 103.0, -515.0, -280.0, 201.0, 300.0, -506.0, 131.0, -45.0,
    -578.0, -80.0, 138.0, -462.0, -361.0, 201.0, -211.0, -554.0, 32.0, 74.0, -533.0, -235.0, 187.0,
    -372.0, -442.0, 182.0, -147.0, -566.0, 25.0, 68.0, -535.0, -244.0, 194.0, -351.0, -463.0,
    174.0, -125.0, -570.0, 15.0, 72.0, -550.0, -190.0, 172.0, -424.0, -385.0, 198.0, -218.0,
    -536.0, 96.0,
];

#[test]
fn nist_lew_agrees_to_15_digits() {
    let summary = summary_of(&LEW);
    assert_digits("Lew mean", summary.mean, -177.435000000000, 15.0);
    assert_digits("Lew std dev", summary.std_dev, 277.332168044316, 15.0);
}

/// Michelso, Michelson's 1879 speed-of-light measurements (observed data,
/// 100 values, lower difficulty). Certified: sample mean 299.852400000000,
/// sample standard deviation 0.0790105478190518.
/// Source: https://www.itl.nist.gov/div898/strd/univ/michelso.html; data as
/// in github.com/montanaflynn/stats nist_test.go.
const MICHELSO: [f64; 100] = [
    299.85, 299.74, 299.90, 300.07, 299.93, 299.85, 299.95, 299.98, 299.98, 299.88, 300.00, 299.98,
    299.93, 299.65, 299.76, 299.81, 300.00, 300.00, 299.96, 299.96, 299.96, 299.94, 299.96, 299.94,
    299.88, 299.80, 299.85, 299.88, 299.90, 299.84, 299.83, 299.79, 299.81, 299.88, 299.88, 299.83,
    299.80, 299.79, 299.76, 299.80, 299.88, 299.88, 299.88, 299.86, 299.72, 299.72, 299.62, 299.86,
    299.97, 299.95, 299.88, 299.91, 299.85, 299.87, 299.84, 299.84, 299.85, 299.84, 299.84, 299.84,
    299.89, 299.81, 299.81, 299.82, 299.80, 299.77, 299.76, 299.74, 299.75, 299.76, 299.91, 299.92,
    299.89, 299.86, 299.88, 299.72, 299.84, 299.85, 299.85, 299.78, 299.89, 299.84, 299.78, 299.81,
    299.76, 299.81, 299.79, 299.81, 299.82, 299.85, 299.87, 299.87, 299.81, 299.74, 299.81, 299.94,
    299.95, 299.80, 299.81, 299.87,
];

#[test]
fn nist_michelso_agrees_to_13_digits() {
    let summary = summary_of(&MICHELSO);
    assert_digits("Michelso mean", summary.mean, 299.852400000000, 13.0);
    assert_digits(
        "Michelso std dev",
        summary.std_dev,
        0.0790105478190518,
        13.0,
    );
}

/// Mavro, filter transmittance (observed data, 50 values, lower difficulty,
/// stiff: three constant leading digits). Certified: sample mean
/// 2.00185600000000, sample standard deviation 0.000429123454003053.
/// Source: https://www.itl.nist.gov/div898/strd/univ/mavro.html; data as in
/// github.com/montanaflynn/stats nist_test.go.
const MAVRO: [f64; 50] = [
    2.00180, 2.00170, 2.00180, 2.00190, 2.00180, 2.00170, 2.00150, 2.00140, 2.00150, 2.00150,
    2.00170, 2.00180, 2.00180, 2.00190, 2.00190, 2.00210, 2.00200, 2.00160, 2.00140, 2.00130,
    2.00130, 2.00150, 2.00150, 2.00160, 2.00150, 2.00140, 2.00130, 2.00140, 2.00150, 2.00140,
    2.00150, 2.00160, 2.00150, 2.00160, 2.00190, 2.00200, 2.00200, 2.00210, 2.00220, 2.00230,
    2.00240, 2.00250, 2.00270, 2.00260, 2.00260, 2.00260, 2.00270, 2.00260, 2.00250, 2.00240,
];

#[test]
fn nist_mavro_agrees_to_13_digits() {
    let summary = summary_of(&MAVRO);
    assert_digits("Mavro mean", summary.mean, 2.00185600000000, 14.0);
    assert_digits("Mavro std dev", summary.std_dev, 0.000429123454003053, 13.0);
}

// ---------------------------------------------------------------------------
// Percentiles, MAD and intervals against NumPy/SciPy.
// ---------------------------------------------------------------------------

/// Ten samples, printed by
/// `python3 -c "import numpy as np, scipy.stats as st; x=np.array([12.0, 15.5, 11.2, 19.8, 14.1, 13.3, 16.7, 12.9, 25.4, 14.8]); n=len(x); s=np.sort(x); j=max(j for j in range(1, n//2+1) if 1-2*st.binom.cdf(j-1, n, .5) >= .95); print(np.percentile(x, [50, 90, 95, 99, 99.9], method='linear').tolist(), float(x.mean()), float(x.std(ddof=1)), float(st.median_abs_deviation(x)), [float(v) for v in st.t.interval(0.95, n-1, loc=x.mean(), scale=st.sem(x))], (j, float(s[j-1]), float(s[n-j]), float(1-2*st.binom.cdf(j-1, n, .5))))"`:
///
/// ```text
/// [14.45, 20.36, 22.879999999999995, 24.896, 25.349600000000006] 15.570000000000002 4.251548737421067 1.8999999999999995 [12.528625249614983, 18.61137475038502] (2, 12.0, 19.8, 0.978515625)
/// ```
const TEN_SAMPLES: [f64; 10] = [12.0, 15.5, 11.2, 19.8, 14.1, 13.3, 16.7, 12.9, 25.4, 14.8];

/// Twenty-five timing-like samples around 1 µs with two slow outliers; the
/// same one-liner with `x=np.array([1021, 998, 1005, 1012, 987, 1003, 1450,
/// 1001, 995, 1010, 1008, 992, 1015, 1002, 999, 1006, 1011, 990, 1004, 1380,
/// 997, 1009, 1000, 1013, 1007.0])` printed:
///
/// ```text
/// [1005.0, 1018.6, 1308.199999999999, 1433.1999999999998, 1448.3200000000002] 1036.6 114.61311734119558 6.0 [989.2900303951604, 1083.9099696048395] (8, 1000.0, 1010.0, 0.9567147493362427)
/// ```
const TIMINGS: [f64; 25] = [
    1021.0, 998.0, 1005.0, 1012.0, 987.0, 1003.0, 1450.0, 1001.0, 995.0, 1010.0, 1008.0, 992.0,
    1015.0, 1002.0, 999.0, 1006.0, 1011.0, 990.0, 1004.0, 1380.0, 997.0, 1009.0, 1000.0, 1013.0,
    1007.0,
];

struct Reference {
    percentiles: [f64; 5],
    mean: f64,
    std_dev: f64,
    mad: f64,
    mean_interval: [f64; 2],
    median_interval: [f64; 2],
    median_coverage: f64,
}

fn assert_matches_reference(values: &[f64], expected: &Reference) {
    let summary = summary_of(values);
    let percentiles = summary.percentiles;
    let actual = [
        percentiles.p50,
        percentiles.p90,
        percentiles.p95,
        percentiles.p99,
        percentiles.p99_9,
    ];
    for (name, (actual, expected)) in ["p50", "p90", "p95", "p99", "p99.9"]
        .iter()
        .zip(actual.iter().zip(expected.percentiles))
    {
        assert_close(name, *actual, expected);
    }
    assert_eq!(summary.median, percentiles.p50);
    assert_close("mean", summary.mean, expected.mean);
    assert_close("std dev", summary.std_dev, expected.std_dev);
    assert_close("MAD", summary.median_absolute_deviation, expected.mad);

    let mean_interval = summary.mean_interval.expect("n ≥ 2");
    assert_close(
        "mean CI lower",
        mean_interval.lower,
        expected.mean_interval[0],
    );
    assert_close(
        "mean CI upper",
        mean_interval.upper,
        expected.mean_interval[1],
    );
    assert_eq!(mean_interval.confidence, 0.95);

    let median_interval = summary.median_interval.expect("n ≥ 6");
    assert_eq!(median_interval.lower, expected.median_interval[0]);
    assert_eq!(median_interval.upper, expected.median_interval[1]);
    assert_close(
        "median CI coverage",
        median_interval.confidence,
        expected.median_coverage,
    );
}

#[test]
fn ten_samples_match_numpy_and_scipy() {
    assert_matches_reference(
        &TEN_SAMPLES,
        &Reference {
            percentiles: [14.45, 20.36, 22.879999999999995, 24.896, 25.349600000000006],
            mean: 15.570000000000002,
            std_dev: 4.251548737421067,
            mad: 1.8999999999999995,
            mean_interval: [12.528625249614983, 18.61137475038502],
            median_interval: [12.0, 19.8],
            median_coverage: 0.978515625,
        },
    );
}

#[test]
fn timing_samples_match_numpy_and_scipy() {
    assert_matches_reference(
        &TIMINGS,
        &Reference {
            percentiles: [
                1005.0,
                1018.6,
                1308.199999999999,
                1433.1999999999998,
                1448.3200000000002,
            ],
            mean: 1036.6,
            std_dev: 114.61311734119558,
            mad: 6.0,
            mean_interval: [989.2900303951604, 1083.9099696048395],
            median_interval: [1000.0, 1010.0],
            median_coverage: 0.9567147493362427,
        },
    );
}

#[test]
fn percentile_interpolates_between_closest_ranks() {
    let sorted = [10.0, 20.0, 30.0, 40.0, 50.0];
    assert_eq!(percentile(&sorted, 0.0), 10.0);
    assert_eq!(percentile(&sorted, 25.0), 20.0);
    assert_eq!(percentile(&sorted, 37.5), 25.0);
    assert_eq!(percentile(&sorted, 100.0), 50.0);
}

#[test]
fn summarize_reports_the_mad_raw_and_scaled() {
    let summary = summary_of(&TEN_SAMPLES);
    assert_close(
        "raw MAD",
        summary.median_absolute_deviation,
        1.8999999999999995,
    );
    assert_close(
        "MAD as a std dev estimate",
        summary.mad_std_dev_estimate(),
        1.8999999999999995 * 1.482602218505602,
    );
}

// ---------------------------------------------------------------------------
// Median interval: which order statistics, with what coverage.
// ---------------------------------------------------------------------------

/// On the values 1..=n the interval's bounds are the ranks it chose. The
/// ranks and coverages were printed by
/// `python3 -c "import scipy.stats as st; [print(n, j, float(1-2*st.binom.cdf(j-1, n, .5))) for n in (6, 10, 20, 100, 1000) for j in [max(j for j in range(1, n//2+1) if 1-2*st.binom.cdf(j-1, n, .5) >= .95)]]"`:
///
/// ```text
/// 6 1 0.96875
/// 10 2 0.978515625
/// 20 6 0.9586105346679688
/// 100 40 0.9647997997822951
/// 1000 469 0.9537088026395019
/// ```
#[test]
fn median_interval_picks_the_narrowest_order_statistics_covering_95_percent() {
    let scipy = [
        (6, 1, 0.96875),
        (10, 2, 0.978515625),
        (20, 6, 0.9586105346679688),
        (100, 40, 0.9647997997822951),
        (1000, 469, 0.9537088026395019),
    ];
    for (n, rank, coverage) in scipy {
        let ranks: Vec<f64> = (1..=n).map(f64::from).collect();
        let interval = median_interval(&ranks).expect("n ≥ 6");
        assert_eq!(interval.lower, f64::from(rank), "n = {n}");
        assert_eq!(interval.upper, f64::from(n - rank + 1), "n = {n}");
        assert!((interval.confidence - coverage).abs() < 1e-9, "n = {n}");
    }
}

#[test]
fn five_samples_are_too_few_for_a_median_interval() {
    assert_eq!(median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]), None);
    assert_eq!(summary_of(&[1.0, 2.0, 3.0, 4.0, 5.0]).median_interval, None);
}

#[test]
fn one_sample_has_a_median_but_no_intervals() {
    let summary = summary_of(&[250.0]);
    assert_eq!(
        (summary.min, summary.median, summary.max),
        (250.0, 250.0, 250.0)
    );
    assert_eq!(summary.std_dev, 0.0);
    assert_eq!(summary.mean_interval, None);
    assert_eq!(summary.median_interval, None);
}

#[test]
fn empty_input_has_no_summary() {
    assert_eq!(summarize(&[]), None);
}

#[test]
fn relative_half_width_takes_the_wider_side_of_the_median_interval() {
    // TIMINGS: median 1005, interval [1000, 1010] -> 5/1005 either way.
    let summary = summary_of(&TIMINGS);
    let interval = summary.median_interval.expect("n ≥ 6");
    assert_close(
        "relative half-width",
        interval.half_width_relative(summary.median),
        5.0 / 1005.0,
    );
    let lopsided = Interval {
        lower: 95.0,
        upper: 110.0,
        confidence: 0.95,
    };
    assert_close("lopsided", lopsided.half_width_relative(100.0), 0.10);
}

// ---------------------------------------------------------------------------
// Outliers.
// ---------------------------------------------------------------------------

/// 100..=119 plus 40, 80, 135, 140, 200. Type-7 quartiles are Q1 = 104 and
/// Q3 = 116 (IQR 12), so the fences are 68 / 86 below and 134 / 152 above:
/// 40 is a severe low outlier, 80 a mild one, 135 and 140 mild high ones,
/// 200 a severe high one, and only 200 is beyond 3 sigma. NumPy agrees:
/// `python3 -c "import numpy as np; x=np.array(list(range(100,120))+[40,80,135,140,200.0]); q1,q3=np.percentile(x,[25,75]); i=q3-q1; print(q1,q3,[int(v) for v in [(x<q1-3*i).sum(), ((x>=q1-3*i)&(x<q1-1.5*i)).sum(), ((x>q3+1.5*i)&(x<=q3+3*i)).sum(), (x>q3+3*i).sum(), (abs(x-x.mean())>3*x.std(ddof=1)).sum()]])"`
/// printed `104.0 116.0 [1, 1, 2, 1, 1]`.
fn with_every_kind_of_outlier() -> Vec<f64> {
    let mut values: Vec<f64> = (100..120).map(f64::from).collect();
    values.extend([40.0, 80.0, 135.0, 140.0, 200.0]);
    values
}

#[test]
fn tukey_fences_sort_outliers_by_side_and_severity() {
    let outliers = outliers::classify(&with_every_kind_of_outlier());
    let fences = outliers.fences;
    assert_eq!((fences.q1, fences.q3, fences.iqr()), (104.0, 116.0, 12.0));
    assert_eq!((fences.lower_outer, fences.lower_inner), (68.0, 86.0));
    assert_eq!((fences.upper_inner, fences.upper_outer), (134.0, 152.0));
    assert_eq!(outliers.low_severe, 1);
    assert_eq!(outliers.low_mild, 1);
    assert_eq!(outliers.high_mild, 2);
    assert_eq!(outliers.high_severe, 1);
    assert_eq!(outliers.tukey_total(), 5);
}

#[test]
fn three_sigma_counts_only_the_far_outlier() {
    assert_eq!(
        outliers::classify(&with_every_kind_of_outlier()).beyond_3_sigma,
        1
    );
}

#[test]
fn three_sigma_cannot_flag_anything_in_ten_samples() {
    // The farthest a value can be is (n − 1)/√n ≈ 2.85 sigmas for n = 10.
    let mut values = [100.0; 10];
    values[9] = 1e9;
    let outliers = outliers::classify(&values);
    assert_eq!(outliers.beyond_3_sigma, 0);
    assert_eq!(outliers.high_severe, 1);
}

#[test]
fn values_on_a_fence_are_not_outliers() {
    // Q1 = 1, Q3 = 3, IQR = 2: the inner fences are -2 and 6 exactly.
    let values = [-2.0, 1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 6.0, 1.0, 3.0, 2.0];
    let outliers = outliers::classify(&values);
    assert_eq!(outliers.fences.lower_inner, -2.0);
    assert_eq!(outliers.fences.upper_inner, 6.0);
    assert_eq!(outliers.tukey_total(), 0);
}

#[test]
fn without_outliers_returns_a_filtered_copy_in_the_original_order() {
    let values = with_every_kind_of_outlier();
    let outliers = outliers::classify(&values);
    let kept = outliers::without_outliers(&values, &outliers.fences);
    let expected: Vec<f64> = (100..120).map(f64::from).collect();
    assert_eq!(kept, expected);
    assert_eq!(values.len(), 25, "the caller's data is untouched");
}

#[test]
fn no_values_no_outliers() {
    let outliers = outliers::classify(&[]);
    assert_eq!(outliers.tukey_total() + outliers.beyond_3_sigma, 0);
}

// ---------------------------------------------------------------------------
// Multimodality.
// ---------------------------------------------------------------------------

/// A deterministic stand-in for random samples (SplitMix64), so the
/// modality verdicts below are reproducible.
struct Samples(u64);

impl Samples {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1_u64 << 53) as f64
    }

    /// Normal-ish: the sum of twelve uniforms minus six (Irwin–Hall) has
    /// mean 0 and variance 1.
    fn standard_normal(&mut self) -> f64 {
        (0..12).map(|_| self.uniform()).sum::<f64>() - 6.0
    }

    fn normal(&mut self, mean: f64, std_dev: f64, n: usize) -> Vec<f64> {
        (0..n)
            .map(|_| mean + std_dev * self.standard_normal())
            .collect()
    }
}

/// Two clusters of 500 samples, 100 ns and 130 ns, each with a 5 ns spread:
/// six standard deviations apart, interleaved like alternating code paths.
fn two_code_paths() -> Vec<f64> {
    let mut samples = Samples(1);
    (0..1000)
        .map(|i| {
            let centre = if i % 2 == 0 { 100.0 } else { 130.0 };
            centre + 5.0 * samples.standard_normal()
        })
        .collect()
}

#[test]
fn two_well_separated_clusters_are_flagged_as_multimodal() {
    let values = two_code_paths();
    let mvalue = modality::mvalue(&values, 0.0);
    assert!(mvalue > MVALUE_BIMODAL, "mvalue {mvalue}");
    assert!(modality::looks_multimodal(&values, 0.0));
    let coefficient = modality::bimodality_coefficient(&values).expect("n ≥ 4");
    assert!(coefficient > modality::BIMODALITY_COEFFICIENT_THRESHOLD);
}

#[test]
fn three_clusters_score_above_the_multimodal_tier() {
    let mut samples = Samples(3);
    let values: Vec<f64> = (0..1500)
        .map(|i| 100.0 + 30.0 * f64::from(i % 3) + 5.0 * samples.standard_normal())
        .collect();
    let mvalue = modality::mvalue(&values, 0.0);
    assert!(mvalue > MVALUE_MULTIMODAL, "mvalue {mvalue}");
}

#[test]
fn one_cluster_is_not_flagged_whatever_its_skew() {
    let mut samples = Samples(2);
    let normal = samples.normal(100.0, 5.0, 1000);
    let log_normal: Vec<f64> = (0..1000)
        .map(|_| 100.0 * (0.5 * samples.standard_normal()).exp())
        .collect();
    let exponential: Vec<f64> = (0..1000)
        .map(|_| 100.0 - 5.0 * (1.0 - samples.uniform()).ln())
        .collect();
    for (name, values) in [
        ("normal", normal),
        ("log-normal", log_normal),
        ("exponential", exponential),
    ] {
        let mvalue = modality::mvalue(&values, 0.0);
        assert!(mvalue <= MVALUE_BIMODAL, "{name}: mvalue {mvalue}");
        assert!(!modality::looks_multimodal(&values, 0.0), "{name}");
    }
}

#[test]
fn fewer_than_fifteen_samples_are_never_flagged() {
    let values = two_code_paths();
    assert!(!modality::looks_multimodal(&values[..14], 0.0));
}

/// `python3 -c "import numpy as np, scipy.stats as st; x=np.array([1, 2, 2, 3, 3, 3, 9, 10, 10, 11, 11, 11.0]); n=len(x); g=st.skew(x, bias=False); k=st.kurtosis(x, bias=False); print(float(g), float(k), float((g*g+1)/(k+3*(n-1)**2/((n-2)*(n-3)))))"`
/// printed `-0.004421866258557674 -2.2364668258186566 0.5565352510712545`.
#[test]
fn bimodality_coefficient_matches_scipy_moments() {
    let values = [
        1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 9.0, 10.0, 10.0, 11.0, 11.0, 11.0,
    ];
    let coefficient = modality::bimodality_coefficient(&values).expect("n ≥ 4");
    assert_close("bimodality coefficient", coefficient, 0.5565352510712545);
}

#[test]
fn bimodality_coefficient_needs_four_samples_with_spread() {
    assert_eq!(modality::bimodality_coefficient(&[1.0, 2.0, 3.0]), None);
    assert_eq!(modality::bimodality_coefficient(&[7.0; 20]), None);
}
