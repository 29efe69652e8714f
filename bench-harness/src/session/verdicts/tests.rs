//! The A/B reports from synthetic round logs: which member is compared
//! with which baseline, and why one is not; and the baseline comparison of
//! a saved document, which compares the figures the rows print.

use bench_runtime::{Measurement, Nanos, Sample, SamplerConfig, StopReason};

use super::*;
use crate::registry::{Arg, BenchEntry, BenchFn, BenchOptions, Benchmark};
use crate::results::Outcome;
use crate::testing::fixed_run;

fn body(_: &mut bench_runtime::Bencher<'_>) {}

const fn member(name: &'static str, baseline: bool) -> BenchEntry {
    BenchEntry {
        name,
        type_name: None,
        type_index: 0,
        module_path: "fixture::by_size",
        file: file!(),
        line: line!(),
        column: column!(),
        options: BenchOptions {
            group: Some("by_size"),
            baseline,
            ..BenchOptions::DEFAULT
        },
        run: BenchFn::Plain(body),
    }
}

static ONCE: BenchEntry = member("once", true);
static TWICE: BenchEntry = member("twice", false);

const ROUNDS: usize = 20;

/// Samples per round: each round's slice.
const PER_ROUND: usize = 5;

/// The clock's resolution the tests' samples were timed with (ns).
const CLOCK: f64 = 0.5;

/// One slice of [`PER_ROUND`] samples in each of [`ROUNDS`] rounds.
fn every_round() -> run::RoundLog {
    (0..ROUNDS)
        .map(|r| Some(r * PER_ROUND..(r + 1) * PER_ROUND))
        .collect()
}

/// A job of `entry` at argument `n`, in A/B unit `unit`.
fn job(entry: &'static BenchEntry, n: u64, unit: Option<usize>) -> run::Job {
    run::Job {
        bench: Benchmark {
            entry,
            arg: Some(Arg {
                index: 0,
                name: n.to_string(),
            }),
            args_failed: None,
        },
        config: SamplerConfig::default(),
        paired_group: unit,
        counters: false,
        publishes_overhead: false,
        body: crate::analysis::Body::Program,
    }
}

/// One slice of [`PER_ROUND`] samples per round, `cost` ns per iteration
/// with a jitter of its own per round (`phase` apart), so that no two
/// members' ratios are constant, and one sample in each slice slowed by
/// half (an interrupt), which the slice's median leaves out.
fn measured(job: &run::Job, cost: f64, phase: usize) -> BenchResult {
    let samples = (0..ROUNDS * PER_ROUND)
        .map(|k| {
            let (round, within) = (k / PER_ROUND, k % PER_ROUND);
            let jitter = 1.0 + 0.01 * ((round + phase) % 5) as f64;
            let interrupted = if within == (round + phase) % PER_ROUND {
                1.5
            } else {
                1.0
            };
            Sample {
                iters: 1000,
                elapsed: Nanos(1000.0 * cost * jitter * interrupted),
            }
        })
        .collect();
    let measurement = Measurement {
        samples,
        stop: StopReason::TimeBudget,
        warm_up: Default::default(),
        rewarm_samples: 0,
        setup_time: Nanos::ZERO,
        slice_starts: (0..ROUNDS).map(|r| r * PER_ROUND).collect(),
        total_time: Nanos(1e6),
        wall_capped: false,
    };
    // The slow sample of each round is one the thread lost the CPU in, as
    // the instruments would have seen.
    let preempted: Vec<usize> = (0..ROUNDS)
        .map(|round| round * PER_ROUND + (round + phase) % PER_ROUND)
        .collect();
    let mut result = fixed_run::measured_with(
        &job.bench.full_name(),
        measurement,
        crate::instruments::Evidence {
            slices: &[],
            preempted: &preempted,
        },
    );
    if let Outcome::Measured(m) = &mut result.outcome {
        m.extras.preempted = preempted;
    }
    result
}

/// Each job measured at its cost, each with its own phase of jitter.
fn measured_all(jobs: &[run::Job], costs: &[f64]) -> Vec<BenchResult> {
    jobs.iter()
        .zip(costs)
        .enumerate()
        .map(|(phase, (job, &cost))| measured(job, cost, phase))
        .collect()
}

#[test]
fn each_argument_is_compared_with_the_baseline_at_that_argument() {
    // The baseline runs at 16 and 1024 (units 0 and 1), the member at
    // 16, 1024 and 4096, where it has no baseline; at each size the
    // member costs twice the baseline.
    let jobs = [
        job(&ONCE, 16, Some(0)),
        job(&ONCE, 1024, Some(1)),
        job(&TWICE, 16, Some(0)),
        job(&TWICE, 1024, Some(1)),
        job(&TWICE, 4096, None),
    ];
    let costs = [160.0, 10240.0, 320.0, 20480.0, 81920.0];
    let results = measured_all(&jobs, &costs);
    let round_log = every_round();
    let logs = [
        Some(round_log.clone()),
        Some(round_log.clone()),
        Some(round_log.clone()),
        Some(round_log),
        None,
    ];
    let reports = group_reports(&jobs, &[0, 1, 2, 3, 4], &logs, &results, CLOCK);

    let blocks: Vec<(&str, Vec<&str>)> = reports
        .iter()
        .map(|r| {
            let members = r.members.iter().map(|(name, _)| name.as_str()).collect();
            (r.baseline.as_str(), members)
        })
        .collect();
    assert_eq!(
        blocks,
        [
            (
                "by_size/by_size::once/16",
                vec!["by_size/by_size::twice/16"]
            ),
            (
                "by_size/by_size::once/1024",
                vec!["by_size/by_size::twice/1024", "by_size/by_size::twice/4096"]
            ),
        ]
    );
    for (name, paired) in reports.iter().flat_map(|r| &r.members).take(2) {
        // The interrupted samples do not move the rounds' medians.
        let paired = paired.as_ref().expect("paired");
        assert!(
            (paired.ratio - 2.0).abs() < 0.02,
            "{name}: {}",
            paired.ratio
        );
        assert_eq!(paired.verdict(0.01), compare::Verdict::Slower, "{name}");
    }
    let unpaired = &reports[1].members[1].1;
    assert_eq!(
        unpaired.as_ref().unwrap_err(),
        "no baseline at this argument (by_size/by_size::once/4096 did not run)"
    );
}

#[test]
fn a_failed_member_without_a_baseline_is_reported_failed() {
    let jobs = [job(&ONCE, 16, Some(0)), job(&TWICE, 4096, None)];
    let results = [
        measured(&jobs[0], 160.0, 0),
        BenchResult::new(
            "by_size/by_size::twice/4096",
            Outcome::Failed(crate::failure::Failure {
                message: "on purpose".to_string(),
                location: None,
            }),
        ),
    ];
    let logs = [Some(every_round()), None];
    let reports = group_reports(&jobs, &[0, 1], &logs, &results, CLOCK);
    assert_eq!(
        reports[0].members,
        [(
            "by_size/by_size::twice/4096".to_string(),
            Err("by_size/by_size::twice/4096 failed".to_string())
        )]
    );
}

#[test]
fn members_whose_times_are_mostly_the_loop_are_too_fast_to_compare() {
    // The fixed run's loop costs 0.5 ns an iteration (30 ns a sample), so
    // a ratio needs about 0.056 ns of body: 0.56 ns a sample's iteration
    // leaves 0.03–0.05 ns, 1.0 ns about 0.5 and 2.0 ns about 1.5.
    let jobs = [
        job(&ONCE, 16, Some(0)),
        job(&TWICE, 16, Some(0)),
        job(&ONCE, 32, Some(1)),
        job(&TWICE, 32, Some(1)),
        job(&ONCE, 64, Some(2)),
        job(&TWICE, 64, Some(2)),
    ];
    let costs = [0.56, 0.56, 2.0, 1.0, 2.0, 0.56];
    let results = measured_all(&jobs, &costs);
    let logs: Vec<Option<run::RoundLog>> = (0..6).map(|_| Some(every_round())).collect();
    let reports = group_reports(&jobs, &[0, 1, 2, 3, 4, 5], &logs, &results, CLOCK);
    // Both within the loop's noise: no ratio (it read 0.027, "faster").
    let too_fast = reports[0].members[0].1.as_ref().unwrap_err();
    assert!(
        too_fast.starts_with("too fast to compare: this member "),
        "{too_fast}"
    );
    let paired = reports[1].members[0].1.as_ref().expect("compared");
    assert!(
        (paired.ratio - 0.47 / 1.47).abs() < 0.05,
        "{}",
        paired.ratio
    );
    // Only the member within it: faster, by a bound (its time counted at
    // the resolution, 0.056 ns).
    let bound = reports[2].members[0].1.as_ref().expect("compared");
    assert_eq!(bound.verdict(0.01), compare::Verdict::Faster);
    assert!(bound.ratio <= 0.056 / 1.4, "{}", bound.ratio);
}

#[test]
fn identical_quantised_rounds_get_an_interval_and_a_p_value() {
    // Every sample the same whole number of clock ticks: each round's ratio
    // is exactly the same, and the rounds alone would give an interval of
    // zero width and p = 0 (a same-build member read 1.020043 [1.020043,
    // 1.020043]). The clock's resolution over a sample's iterations keeps
    // the interval open.
    let steady = |job: &run::Job, cost: f64| {
        let measurement = Measurement {
            samples: vec![
                Sample {
                    iters: 1000,
                    elapsed: Nanos(1000.0 * cost),
                };
                ROUNDS * PER_ROUND
            ],
            stop: StopReason::TimeBudget,
            warm_up: Default::default(),
            rewarm_samples: 0,
            setup_time: Nanos::ZERO,
            slice_starts: (0..ROUNDS).map(|r| r * PER_ROUND).collect(),
            total_time: Nanos(1e6),
            wall_capped: false,
        };
        fixed_run::measured(&job.bench.full_name(), measurement)
    };
    let jobs = [
        job(&ONCE, 16, Some(0)),
        job(&TWICE, 16, Some(0)),
        job(&ONCE, 32, Some(1)),
        job(&TWICE, 32, Some(1)),
    ];
    let results = [
        steady(&jobs[0], 800.0),
        steady(&jobs[1], 816.0),
        steady(&jobs[2], 800.0),
        steady(&jobs[3], 800.0),
    ];
    let logs: Vec<Option<run::RoundLog>> = (0..4).map(|_| Some(every_round())).collect();
    let reports = group_reports(&jobs, &[0, 1, 2, 3], &logs, &results, CLOCK);
    let slower = reports[0].members[0].1.as_ref().expect("compared");
    let (low, high) = slower.ratio_interval;
    assert!(low < slower.ratio && slower.ratio < high, "{slower:?}");
    assert!(slower.p_t > 0.0, "{slower:?}");
    assert_eq!(slower.verdict(0.01), compare::Verdict::Slower);
    let same = reports[1].members[0].1.as_ref().expect("compared");
    assert!(same.ratio_interval.0 < 1.0 && same.ratio_interval.1 > 1.0);
    assert_eq!(same.p_t, 1.0);
    assert_eq!(same.verdict(0.01), compare::Verdict::NoDifference);
}

/// This run's results saved as a baseline (a document with every raw
/// sample, written and read back as a file), for `compare_with`.
/// This run measured as the fixed run's baseline was: interleaved, warm.
const ALIKE: Method<'static> = Method {
    schedule: Schedule::Interleaved,
    cold: false,
    paired: &[],
};

fn saved(results: &[BenchResult]) -> Document {
    let scratch = crate::testing::Scratch::new("verdicts-saved-baseline");
    let path = scratch.path().join("main.json");
    let document = crate::document::assemble(
        &fixed_run::environment(),
        &fixed_run::info(),
        results,
        &[],
        None,
        None,
    );
    let mut bytes = Vec::new();
    crate::document::write(&mut bytes, &document).unwrap();
    std::fs::write(&path, bytes).unwrap();
    crate::document::load_baseline(&path).unwrap()
}

#[test]
fn the_baseline_comparison_compares_the_figures_the_rows_print() {
    // A run saved, then compared with itself and with a copy of it whose
    // every sample of `kernels::sort_1k` took 10% longer. (Not the empty
    // body: block medians of exactly 0 ns are no baseline.)
    let mut results = fixed_run::results();
    results.retain(|r| r.name != "empty");
    let baseline = saved(&results);
    let clock = fixed_run::info().precision.resolution.0;
    for result in results.iter().filter(|r| r.measured().is_some()) {
        let Some(Compared::Against(c)) = compare_with(&baseline, result, 0.02, clock, ALIKE) else {
            panic!("{} compared", result.name);
        };
        // The baseline's row printed the figure it saved; this one's is
        // its own headline; the change is theirs.
        let record = baseline.benchmark(&result.name).unwrap();
        let saved_time = record.measurement.as_ref().unwrap().estimate.time_ns;
        assert_eq!(c.old, saved_time, "{}", result.name);
        assert_eq!(
            c.new,
            result.measured().unwrap().headline(),
            "{}",
            result.name
        );
        match &c.ratio {
            Some(r) => {
                assert_eq!(r.change, 0.0, "{}", result.name);
                assert_ne!(r.verdict, compare::Verdict::Slower, "{}", result.name);
                assert_ne!(r.verdict, compare::Verdict::Faster, "{}", result.name);
            }
            None => panic!("{}: no ratio", result.name),
        }
    }

    let sort = (results.iter())
        .find(|r| r.name == "kernels::sort_1k")
        .unwrap();
    let slower = {
        let mut measurement = sort.measured().unwrap().measurement.clone();
        // 30%: the fixture's one slow sample counts in the mean, and its
        // ±7.8% would leave 10% unclear.
        for sample in &mut measurement.samples {
            sample.elapsed = Nanos(sample.elapsed.0 * 1.3);
        }
        fixed_run::measured(&sort.name, measurement)
    };
    let Some(Compared::Against(c)) = compare_with(&baseline, &slower, 0.02, clock, ALIKE) else {
        panic!("compared");
    };
    let r = c.ratio.as_ref().expect("a ratio");
    let new = slower.measured().unwrap().headline();
    assert_eq!(c.new, new);
    assert_eq!(r.change, new / c.old - 1.0);
    assert!(r.change > 0.29, "{r:?}");
    assert_eq!(r.verdict, compare::Verdict::Slower, "{r:?}");
    // Measured otherwise here than there: the change stands, the verdict
    // is unclear, whatever the interval says, a change or none.
    let two_ways = |slower: &BenchResult, method: Method<'_>| {
        let Some(Compared::Against(c)) = compare_with(&baseline, slower, 0.02, clock, method)
        else {
            panic!("compared");
        };
        (c.two_ways, c.ratio.expect("a ratio"))
    };
    let sequential = Method {
        schedule: Schedule::Sequential,
        ..ALIKE
    };
    let cold = Method {
        cold: true,
        ..ALIKE
    };
    for method in [sequential, cold] {
        let (two, ratio) = two_ways(&slower, method);
        assert!(two, "{method:?}");
        assert_eq!(ratio.change, r.change);
        assert_eq!(ratio.verdict, compare::Verdict::Unclear, "{ratio:?}");
    }
    // Read by its page faults here, where the baseline did not count them.
    let mut by_faults = slower.clone();
    if let Outcome::Measured(m) = &mut by_faults.outcome {
        m.estimate.by_faults = true;
    }
    let (two, ratio) = two_ways(&by_faults, ALIKE);
    assert!(two);
    assert_eq!(ratio.verdict, compare::Verdict::Unclear, "{ratio:?}");
    let (two, same) = two_ways(sort, sequential);
    assert!(two);
    assert_eq!(same.change, 0.0);
    assert_eq!(same.verdict, compare::Verdict::Unclear, "{same:?}");
    // The rows an A/B unit paired are paired round by round under either
    // schedule: here by the run's units, there by the baseline's groups.
    let names = [slower.name.clone()];
    let paired = Method {
        paired: &names,
        ..sequential
    };
    assert_eq!(
        two_ways(&slower, paired).1.verdict,
        compare::Verdict::Slower
    );
    let mut grouped = baseline.clone();
    grouped.methodology.schedule = ScheduleKind::Sequential;
    grouped.groups = crate::document::groups(&fixed_run::group_reports());
    let against = |method: Method<'_>| {
        let Some(Compared::Against(c)) = compare_with(&grouped, &slower, 0.02, clock, method)
        else {
            panic!("compared");
        };
        c.ratio.expect("a ratio").verdict
    };
    // Paired in a sequential baseline, paired or interleaved here: alike.
    assert_eq!(against(paired), compare::Verdict::Slower);
    assert_eq!(against(ALIKE), compare::Verdict::Slower);
    // Alone here under the sequential schedule: one stretch.
    assert_eq!(against(sequential), compare::Verdict::Unclear);
    // Not in the baseline: new.
    let other = fixed_run::measured("not::saved", fixed_run::interleaved());
    assert!(matches!(
        compare_with(&baseline, &other, 0.02, clock, ALIKE),
        Some(Compared::New)
    ));
}

/// Under `--forks`, a process the machine slowed throughout (its speed
/// probe 1.5x the others' beside every slice) is left out of the row's
/// headline; the baseline's rebuild leaves it out too, so the row compared
/// with itself reads the change between its printed times: none.
#[test]
fn a_process_left_out_of_a_saved_headline_stays_out_of_the_comparison() {
    let row = fixed_run::forked("forked", &[(10.0, 0.33), (16.0, 0.5), (10.02, 0.34)]);
    let headline = row.measured().unwrap().headline();
    let all_three = (10.0 + 16.0 + 10.02) / 3.0;
    assert!(
        headline < all_three - 1.0,
        "{headline}: the slow one is out"
    );
    let baseline = saved(std::slice::from_ref(&row));
    let clock = fixed_run::info().precision.resolution.0;
    let Some(Compared::Against(c)) = compare_with(&baseline, &row, 0.02, clock, ALIKE) else {
        panic!("compared");
    };
    assert_eq!(c.old, headline);
    let ratio = c.ratio.expect("a ratio");
    assert_eq!(ratio.change, 0.0);
    assert_eq!(ratio.verdict, compare::Verdict::NoDifference, "{ratio:?}");
}

#[test]
fn a_slice_cut_short_by_a_preemption_gives_its_round_no_value() {
    // The member's round 7 holds one sample, preempted for 5 ms: its
    // median would be that sample, a ratio of 500. The round is left out;
    // the others say 2.
    let jobs = [job(&ONCE, 16, Some(0)), job(&TWICE, 16, Some(0))];
    let results = measured_all(&jobs, &[1000.0, 2000.0]);
    let mut member = results[1].clone();
    let Outcome::Measured(m) = &mut member.outcome else {
        panic!("measured")
    };
    let preempted = 7 * PER_ROUND;
    m.per_iter[preempted] = 500.0 * 2000.0;
    let mut log = every_round();
    log[7] = Some(preempted..preempted + 1);
    let logs = [Some(every_round()), Some(log)];
    let results = [results[0].clone(), member];
    let reports = group_reports(&jobs, &[0, 1], &logs, &results, CLOCK);
    let paired = reports[0].members[0].1.as_ref().expect("compared");
    assert_eq!(paired.rounds, ROUNDS - 1, "{paired:?}");
    assert!((paired.ratio - 2.0).abs() < 0.02, "{paired:?}");

    // A body slower than a third of a slice records one sample per slice:
    // those samples are its rounds' values, but for the rounds where one
    // side's sample was preempted (the fixture's slow sample of a round is
    // the first for member `phase` when (round + phase) % PER_ROUND is 0).
    let one_each: run::RoundLog = (0..ROUNDS)
        .map(|r| Some(r * PER_ROUND..r * PER_ROUND + 1))
        .collect();
    let logs = [Some(one_each.clone()), Some(one_each)];
    let results = measured_all(&jobs, &[1000.0, 2000.0]);
    let reports = group_reports(&jobs, &[0, 1], &logs, &results, CLOCK);
    let paired = reports[0].members[0].1.as_ref().expect("compared");
    let clean = (0..ROUNDS)
        .filter(|r| (0..2).all(|phase| (r + phase) % PER_ROUND != 0))
        .count();
    assert!(clean < ROUNDS);
    assert_eq!(paired.rounds, clean, "{paired:?}");
}
