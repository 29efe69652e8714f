//! The machine's speed against its own recent past: the reference kernel's
//! headline in this run beside its headlines in the last runs of the same
//! series (machine and configuration) in the history.
//!
//! A run's interval covers the processes it measured; a rerun tomorrow
//! also meets a machine of another speed (here the same build read the
//! imul chains 1.3–3.3% apart between sittings). The reference kernel
//! depends on the machine alone, so its run-to-run spread is the machine's,
//! and it says whether this run's machine was unusual (how far a rerun may
//! move each benchmark is its own record's: `rerun.rs`).

use super::Record;

/// Runs of the recent past the comparison reads: enough for a spread,
/// few enough that a machine changed months ago is not its centre.
const RECENT_RUNS: usize = 10;

/// Earlier runs needed before their spread says anything.
pub(crate) const MIN_RUNS: usize = 3;

/// A change in the machine's speed smaller than this is not called one,
/// whatever the spread: it moves every figure less than their ± does.
const SMALLEST_CHANGE: f64 = 0.01;

/// This run's machine against the recent runs of its series.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Drift {
    /// The reference kernel's headline in this run, ns.
    pub(crate) now_ns: f64,
    /// Its median over the recent runs, ns.
    pub(crate) recent_ns: f64,
    /// How many recent runs.
    pub(crate) runs: usize,
    /// The recent runs' run-to-run standard deviation, relative (robust:
    /// from the median absolute deviation of the logs).
    pub(crate) spread: f64,
    /// This run against the recent median: `now / recent - 1`.
    pub(crate) change: f64,
    /// The change is beyond what the recent runs' spread allows a run.
    pub(crate) beyond: bool,
}

/// This run's machine, whose reference kernel read `now_ns`, against the
/// last [`RECENT_RUNS`] runs of series `key` (machine, configuration) in
/// `history` (oldest first) that measured the kernel; `None` with fewer
/// than [`MIN_RUNS`] of them or without a usable time now.
pub(crate) fn drift(history: &[Record], key: (&str, &str), now_ns: f64) -> Option<Drift> {
    if !(now_ns.is_finite() && now_ns > 0.0) {
        return None;
    }
    // One value per run: every record of a run carries the same kernel.
    let mut runs: Vec<(&str, f64)> = Vec::new();
    // Runs of either schedule: the kernel is one job of each.
    let (machine, config) = (key.0, super::record::without_schedule(key.1));
    let same =
        |r: &&Record| r.machine == machine && super::record::without_schedule(&r.config) == config;
    for record in history.iter().filter(same) {
        let Some(reference) = record.reference_ns.filter(|t| t.is_finite() && *t > 0.0) else {
            continue;
        };
        // A run writes its records at once, so they are contiguous.
        if runs.last().is_none_or(|(run, _)| *run != record.run) {
            runs.push((&record.run, reference));
        }
    }
    let recent: Vec<f64> = runs
        .iter()
        .rev()
        .take(RECENT_RUNS)
        .map(|(_, t)| t.ln())
        .collect();
    let n = recent.len();
    if n < MIN_RUNS {
        return None;
    }
    let centre = median(recent.clone());
    let deviations: Vec<f64> = recent.iter().map(|x| (x - centre).abs()).collect();
    let spread = 1.4826 * median(deviations);
    let log_change = now_ns.ln() - centre;
    // A prediction bound for one more run of the same machine: Student's
    // t at n - 1 degrees of freedom, widened for the centre's own error.
    let bound = crate::analysis::students_t_quantile(0.975, (n - 1) as f64)
        * spread
        * (1.0 + 1.0 / n as f64).sqrt();
    Some(Drift {
        now_ns,
        recent_ns: centre.exp(),
        runs: n,
        spread,
        change: log_change.exp() - 1.0,
        beyond: log_change.abs() > bound.max(SMALLEST_CHANGE),
    })
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    crate::analysis::percentile(&values, 50.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(run: &str, machine: &str, reference_ns: Option<f64>) -> Record {
        Record {
            v: 1,
            run: run.to_string(),
            timestamp: String::new(),
            commit: None,
            dirty: None,
            code: None,
            machine: machine.to_string(),
            config: "bench/3".to_string(),
            harness: String::new(),
            name: "b".to_string(),
            time_ns: 1.0,
            lower_ns: None,
            upper_ns: None,
            throughput: None,
            reference_ns,
        }
    }

    fn history(references: &[f64]) -> Vec<Record> {
        references
            .iter()
            .enumerate()
            .flat_map(|(i, &t)| {
                // Two benchmarks a run, one value.
                [
                    record(&format!("r{i}"), "aa", Some(t)),
                    record(&format!("r{i}"), "aa", Some(t)),
                ]
            })
            .collect()
    }

    const KEY: (&str, &str) = ("aa", "bench/3");

    #[test]
    fn a_machine_as_fast_as_its_recent_runs_is_within_their_spread() {
        let runs = history(&[300.0, 301.5, 299.0, 300.4, 302.0, 298.8]);
        let drift = drift(&runs, KEY, 301.0).unwrap();
        assert_eq!(drift.runs, 6);
        assert!(!drift.beyond, "{drift:?}");
        assert!((drift.recent_ns - 300.2).abs() < 0.5, "{drift:?}");
        assert!(drift.spread > 0.001 && drift.spread < 0.01, "{drift:?}");
    }

    #[test]
    fn a_machine_slower_than_its_recent_runs_beyond_their_spread_is_called_so() {
        let runs = history(&[300.0, 301.5, 299.0, 300.4, 302.0, 298.8]);
        let drift = drift(&runs, KEY, 318.0).unwrap();
        assert!(drift.beyond, "{drift:?}");
        assert!((drift.change - 0.059).abs() < 0.005, "{drift:?}");
        // As far off, but the recent runs spread as widely: not called.
        let noisy = history(&[300.0, 330.0, 285.0, 315.0, 296.0, 322.0]);
        assert!(!super::drift(&noisy, KEY, 318.0).unwrap().beyond);
        // Spread nearly nil, change under 1%: not called either.
        let still = history(&[300.0, 300.0, 300.01, 300.0]);
        assert!(!super::drift(&still, KEY, 302.0).unwrap().beyond);
    }

    #[test]
    fn only_recent_runs_of_the_same_series_with_the_kernel_count() {
        let mut runs = history(&[300.0, 300.5]);
        // Another machine, and runs without the kernel, do not count.
        runs.push(record("x", "bb", Some(600.0)));
        runs.push(record("y", "aa", None));
        assert_eq!(drift(&runs, KEY, 300.0), None, "two runs are too few");
        runs.extend(history(&[299.8]).into_iter().map(|mut r| {
            r.run = "z".to_string();
            r
        }));
        assert_eq!(drift(&runs, KEY, 300.0).unwrap().runs, 3);
        // The last ten runs only: an old machine level is forgotten.
        let mut long = history(&[200.0; 20]);
        long.extend(history(&[300.0; 10]).into_iter().map(|mut r| {
            r.run.push('n');
            r
        }));
        let drift = drift(&long, KEY, 300.0).unwrap();
        assert_eq!(drift.runs, 10);
        assert!((drift.recent_ns - 300.0).abs() < 1e-9);
        assert_eq!(super::drift(&long, KEY, f64::NAN), None);
    }

    #[test]
    fn runs_of_either_schedule_count() {
        // The kernel is one job of the run's schedule: a run whose rows
        // were all measured in one stretch still counts, and a sequential
        // run reads the interleaved ones.
        let mut runs = history(&[300.0, 300.5, 299.8]);
        for record in &mut runs[1..] {
            record.config.push_str(" one-stretch");
        }
        assert_eq!(drift(&runs, KEY, 300.0).unwrap().runs, 3);
        let stretch = (KEY.0, "bench/3 one-stretch");
        assert_eq!(drift(&runs, stretch, 300.0).unwrap().runs, 3);
    }
}
