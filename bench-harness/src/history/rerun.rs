//! How far a rerun may move a benchmark's figure: its own spread over its
//! recent runs of the same code on the same machine.
//!
//! A run's interval covers the processes it measured. A rerun also meets
//! the machine in another state and the program in another layout, and
//! how much that moves a benchmark depends on the benchmark: between runs
//! here the imul chains moved 0.07-0.3%, while `sort_1k`, `sum_vec_1k` and
//! `alloc_vec_64` moved 8-21% under load (a busy sibling thread slows
//! memory-bound code for whole processes). The reference kernel's own
//! run-to-run spread (0.45-0.98% over 0.1 s of measuring) told neither: it
//! overstated the chains three to eight times and understated the others.
//! So each benchmark's term comes from its own record.

use super::Record;
use crate::analysis;

/// Runs of the recent past the term reads: enough for a spread, few
/// enough that an old level of the machine is forgotten.
const RECENT_RUNS: usize = 10;

/// Earlier runs of the same code needed before their spread says anything.
pub(crate) const MIN_RUNS: usize = 3;

/// What a benchmark is, for its past: its name and the hash of its code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Benchmark<'a> {
    pub(crate) name: &'a str,
    pub(crate) code: &'a str,
}

/// The relative 95% half-width about `now_ns` (this run's headline of
/// `bench`) that a rerun's headline falls within: the distance from the
/// recent runs' centre (a rerun is drawn about it, not about this run)
/// plus a prediction bound for one more run, Student's t at n − 1 degrees
/// of freedom × the standard deviation × √(1 + 1/n), all on logs. From the
/// last [`RECENT_RUNS`] records of `bench` in series `key` (machine,
/// configuration) with the same code, leaving out those that read only as
/// a bound; `None` with fewer than [`MIN_RUNS`] or without a usable time.
/// A benchmark whose code has no hash (a stripped binary, another
/// architecture than x86-64) has no term: a change of its code could not
/// be told from a rerun.
///
/// The standard deviation is the plain one, not a robust one: a run in
/// another layout or under load is what a rerun may meet.
pub(crate) fn rerun_half_width(
    history: &[Record],
    key: (&str, &str),
    bench: Benchmark<'_>,
    now_ns: f64,
) -> Option<f64> {
    if !(now_ns.is_finite() && now_ns > 0.0) {
        return None;
    }
    // One record a run: a run writes each benchmark once, but a history
    // may hold copies (a file restored twice into a cache).
    let mut runs: Vec<&str> = Vec::new();
    let logs: Vec<f64> = history
        .iter()
        .rev()
        .filter(|r| r.series_key() == key && r.name == bench.name)
        .filter(|r| r.code.as_deref() == Some(bench.code))
        .filter(|r| !r.headline().is_bound() && r.time_ns.is_finite() && r.time_ns > 0.0)
        .filter(|r| {
            let new = !runs.contains(&r.run.as_str());
            runs.push(&r.run);
            new
        })
        .take(RECENT_RUNS)
        .map(|r| r.time_ns.ln())
        .collect();
    let n = logs.len();
    if n < MIN_RUNS {
        return None;
    }
    let k = n as f64;
    let mean = analysis::mean(&logs);
    let sd = analysis::sample_variance(&logs, mean).sqrt();
    let bound = analysis::students_t_quantile(0.975, k - 1.0) * sd * (1.0 + 1.0 / k).sqrt();
    let half_width = (now_ns.ln() - mean).abs() + bound;
    Some(half_width.exp() - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(run: usize, name: &str, code: &str, time_ns: f64) -> Record {
        Record {
            v: 1,
            run: format!("r{run}"),
            timestamp: String::new(),
            commit: None,
            dirty: None,
            code: Some(code.to_string()),
            machine: "aa".to_string(),
            config: "bench/3".to_string(),
            harness: String::new(),
            name: name.to_string(),
            time_ns,
            lower_ns: Some(time_ns * 0.99),
            upper_ns: Some(time_ns * 1.01),
            throughput: None,
            reference_ns: None,
        }
    }

    const KEY: (&str, &str) = ("aa", "bench/3");

    /// Runs of `chain` (code `c1`) at `times`, one each, oldest first.
    fn runs(times: &[f64]) -> Vec<Record> {
        (times.iter().enumerate())
            .map(|(i, &t)| record(i, "chain", "c1", t))
            .collect()
    }

    fn chain(code: &str) -> Benchmark<'_> {
        Benchmark {
            name: "chain",
            code,
        }
    }

    /// The term is the run's distance from the centre plus the prediction
    /// bound, so a benchmark that moves more from run to run gets more.
    #[test]
    fn a_benchmark_that_moves_between_runs_gets_a_wider_term() {
        let steady = runs(&[100.0, 100.2, 99.9, 100.1, 99.8]);
        let term = rerun_half_width(&steady, KEY, chain("c1"), 100.0).unwrap();
        let logs: Vec<f64> = [100.0f64, 100.2, 99.9, 100.1, 99.8]
            .iter()
            .map(|t| t.ln())
            .collect();
        let mean = logs.iter().sum::<f64>() / 5.0;
        let sd = (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 4.0).sqrt();
        // t(4) = 2.776.
        let expected = ((100.0f64.ln() - mean).abs() + 2.7764 * sd * 1.2f64.sqrt()).exp() - 1.0;
        assert!((term - expected).abs() < 1e-5, "{term} against {expected}");
        assert!(term > 0.003 && term < 0.01, "{term}");
        // Two layouts, 86 and 100 ns: a rerun may land on either.
        let levels = runs(&[86.0, 100.0, 86.5, 99.5, 86.2]);
        let wide = rerun_half_width(&levels, KEY, chain("c1"), 86.0).unwrap();
        assert!(wide > 0.16, "a rerun at 100 ns must be inside: {wide}");
        // Far from its recent runs: at least the distance to their centre.
        let far = rerun_half_width(&steady, KEY, chain("c1"), 110.0).unwrap();
        assert!(far > 0.1, "{far}");
    }

    /// Other code, another benchmark, another machine, and runs that read
    /// only as a bound do not count; fewer than three runs give no term.
    #[test]
    fn only_recent_runs_of_the_same_code_count() {
        let mut history = vec![
            record(0, "chain", "c1", 100.0),
            record(1, "chain", "c1", 101.0),
            record(2, "chain", "old", 300.0),
            record(3, "other", "c1", 300.0),
        ];
        let mut elsewhere = record(4, "chain", "c1", 300.0);
        elsewhere.machine = "bb".to_string();
        history.push(elsewhere);
        let mut bound = record(5, "chain", "c1", 300.0);
        bound.lower_ns = Some(-1.0);
        history.push(bound);
        assert_eq!(rerun_half_width(&history, KEY, chain("c1"), 100.0), None);
        // A copy of a run's record is the same run.
        history.push(record(1, "chain", "c1", 101.0));
        assert_eq!(rerun_half_width(&history, KEY, chain("c1"), 100.0), None);
        history.push(record(6, "chain", "c1", 100.5));
        let term = rerun_half_width(&history, KEY, chain("c1"), 100.0).unwrap();
        assert!(term < 0.05, "{term}");
        // The last ten runs only: an old level is forgotten.
        let mut long: Vec<Record> = (0..20).map(|i| record(i, "chain", "c1", 200.0)).collect();
        long.extend((20..30).map(|i| record(i, "chain", "c1", 100.0 + (i % 2) as f64 * 0.1)));
        assert!(rerun_half_width(&long, KEY, chain("c1"), 100.0).unwrap() < 0.01);
        assert_eq!(rerun_half_width(&long, KEY, chain("c1"), f64::NAN), None);
    }
}
