//! `--forks`: processes' measurements pooled into one result, on scripted
//! samples. Expected figures were computed independently with scipy
//! (`f_oneway`, `t.ppf`, `chi2.sf`) from the same script.

use bench_runtime::{
    Measurement, Nanos, Sample, SamplerConfig, StopReason, StopRule, TimerPrecision, WarmUp,
};

use crate::analysis::{Body, Overhead};
use crate::instruments::Evidence;
use crate::results::{Context, Measured, Missed, Note};

/// Each process's four blocks sit at its level plus these offsets.
const BLOCK_OFFSETS: [f64; 4] = [0.0, 0.04, -0.04, 0.02];

fn config() -> SamplerConfig {
    SamplerConfig {
        stop_rule: StopRule::TimeBudget,
        ..SamplerConfig::default()
    }
}

fn context(overhead: Overhead) -> Context {
    Context {
        overhead,
        timer: TimerPrecision {
            resolution: Nanos(1.0),
            overhead: Nanos(30.0),
        },
        probe_level: None,
    }
}

/// One process at `level` ns per iteration: four slices of ten samples of
/// 1,000 iterations, ±0.1 ns alternating within a slice (so each slice's
/// median is its level), timed through `overhead`, as a child would
/// report it.
pub(super) fn process(level: f64, overhead: Overhead, stop: StopReason) -> Measured {
    process_of(1, level, overhead, stop)
}

/// As [`process`], with the four slices repeated `rounds` times (a process
/// whose stop rule took longer).
fn process_of(rounds: usize, level: f64, overhead: Overhead, stop: StopReason) -> Measured {
    let mut samples = Vec::new();
    let offsets = BLOCK_OFFSETS.repeat(rounds);
    for offset in offsets {
        for k in 0..10 {
            let cost = level + offset + if k % 2 == 0 { 0.1 } else { -0.1 };
            let iters = 1000;
            let elapsed = iters as f64 * (cost + overhead.per_iter.0) + overhead.per_sample.0;
            samples.push(Sample {
                iters,
                elapsed: Nanos(elapsed),
            });
        }
    }
    let measurement = Measurement {
        samples,
        stop,
        warm_up: WarmUp {
            time: Nanos(1e6),
            samples: 5,
            steady: true,
            final_cv: Some(0.01),
        },
        rewarm_samples: 2,
        setup_time: Nanos(100.0),
        slice_starts: (0..4 * rounds).map(|slice| slice * 10).collect(),
        total_time: Nanos(5e6),
        wall_capped: false,
    };
    Measured::analyse(
        measurement,
        config(),
        &context(overhead),
        Evidence::default(),
    )
}

fn overheads() -> [Overhead; 3] {
    // Each child measured its own loop overhead.
    [(30.0, 0.5), (34.0, 0.25), (28.0, 0.75)].map(|(per_sample, per_iter)| Overhead {
        per_sample: Nanos(per_sample),
        per_iter: Nanos(per_iter),
        per_iter_uncertainty: Nanos::ZERO,
    })
}

fn pooled(levels: [f64; 3]) -> Measured {
    let processes = levels
        .iter()
        .zip(overheads())
        .map(|(&level, overhead)| process(level, overhead, StopReason::TimeBudget))
        .collect();
    Measured::pool(processes, &context(Overhead::NONE))
}

#[test]
fn samples_are_pooled_with_each_process_overhead_taken_out() {
    let m = pooled([10.0, 10.01, 9.99]);
    assert_eq!(m.measurement.samples.len(), 120);
    // What it takes to rebuild each process's times from the raw samples.
    let forks = m.forks.as_ref().unwrap();
    assert_eq!(forks.process_overheads, overheads());
    assert_eq!(forks.process_sample_starts, [0, 40, 80]);
    assert_eq!(m.measurement.slice_starts.len(), 12);
    assert_eq!(m.estimate.block_means.len(), 12);
    // Every sample back at its scripted cost, whichever overhead timed it.
    for (i, &value) in m.per_iter.iter().enumerate() {
        let level = [10.0, 10.01, 9.99][i / 40];
        let offset = BLOCK_OFFSETS[(i % 40) / 10];
        let noise = if i % 2 == 0 { 0.1 } else { -0.1 };
        assert!(
            (value - (level + offset + noise)).abs() < 1e-9,
            "sample {i}: {value}"
        );
    }
    // The headline is the mean over all twelve blocks.
    assert!((m.headline() - 10.005).abs() < 1e-9, "{}", m.headline());
    // Sums over the processes.
    assert_eq!(m.measurement.warm_up.samples, 15);
    assert_eq!(m.measurement.rewarm_samples, 6);
    assert_eq!(m.measurement.total_time, Nanos(15e6));
}

/// The pooled interval of three processes each known to ±0.054351 ns is
/// theirs combined, ±0.054351 / √3 = ±0.031379 ns (scipy), and no note says
/// they differ.
fn assert_own_intervals_and_no_note(m: &Measured) {
    let ci = m.estimate.interval.unwrap();
    assert!(((ci.upper - ci.lower) / 2.0 - 0.031_379_343_75).abs() < 1e-9);
    assert!(
        m.notes.iter().all(|n| n.kind() != "processes_differ"),
        "{:?}",
        m.notes
    );
}

#[test]
fn processes_that_agree_exactly_keep_their_own_intervals() {
    let m = pooled([10.0, 10.0, 10.0]);
    let forks = m.forks.as_ref().expect("a fork spread");
    assert_eq!(forks.process_estimates.len(), 3);
    assert_eq!(forks.between, 0.0);
    assert!((forks.p_value.unwrap() - 1.0).abs() < 1e-12);
    // The pooled within-process sd of block medians, 0.034157 ns.
    assert!((forks.within * m.reference - 0.034_156_502_55).abs() < 1e-9);
    // The processes' interval has no width: the mean of three independent
    // processes, each known to ±t(3) × 0.034157 / √4 = ±0.054351 ns, is
    // known to ±0.054351 / √3 = ±0.031379 ns (scipy).
    assert_own_intervals_and_no_note(&m);
}

#[test]
fn the_interval_is_the_wider_one_even_without_a_process_effect() {
    let m = pooled([10.0, 10.01, 9.99]);
    let forks = m.forks.as_ref().unwrap();
    // Cochran's Q over the processes' headlines (10.005, 10.015, 9.995 ns),
    // each with standard error 0.034157 / √4: Q = 0.6857, and scipy's
    // chi2.sf(Q, 2) = 0.70974.
    let p = forks.p_value.unwrap();
    assert!((p - 0.709_739_595_689).abs() < 1e-8, "{p}");
    assert!(!forks.process_effect());
    // Processes: t(2) × 0.01 / √3 = ±0.024841 ns; their own intervals:
    // ±0.031379 ns, the wider.
    assert_own_intervals_and_no_note(&m);
}

#[test]
fn each_process_counts_once_however_many_slices_it_took() {
    let processes = vec![
        process_of(1, 10.0, Overhead::NONE, StopReason::Precise),
        process_of(3, 11.0, Overhead::NONE, StopReason::Precise),
    ];
    let m = Measured::pool(processes, &context(Overhead::NONE));
    assert_eq!(m.estimate.block_means.len(), 16);
    // Not (4 × 10.005 + 12 × 11.005) / 16 = 10.755.
    assert!((m.headline() - 10.505).abs() < 1e-9, "{}", m.headline());
    let ci = m.estimate.interval.unwrap();
    assert!((ci.upper + ci.lower - 2.0 * m.headline()).abs() < 1e-9);
}

#[test]
fn processes_that_differ_widen_the_interval_and_get_a_note() {
    let m = pooled([10.0, 10.5, 11.0]);
    let forks = m.forks.as_ref().unwrap();
    // Cochran's Q = 1714.3 on 2 degrees of freedom: p below 1e-300.
    assert!(forks.p_value.unwrap() < 1e-9);
    assert!(forks.process_effect());
    // Widened from the blocks' ±0.2716 ns to the processes' t(2) interval:
    // 4.3027 × 0.5 / √3 = ±1.2421 ns, around the pooled headline.
    let ci = m.estimate.interval.unwrap();
    assert!((m.headline() - 10.505).abs() < 1e-9);
    // The spread between processes is relative to that headline: their
    // standard deviation is 0.5 ns.
    assert!(
        (forks.between * m.reference - 0.5).abs() < 1e-9,
        "{forks:?}"
    );
    assert!(
        ((ci.upper - ci.lower) / 2.0 - 1.242_068_856).abs() < 1e-6,
        "{ci:?}"
    );
    assert!((ci.upper + ci.lower - 2.0 * m.headline()).abs() < 1e-9);
    assert!((m.precision.unwrap() - 1.242_068_856 / 10.505).abs() < 1e-6);
    // Each process's time is its mean cost of a call: 0.005 ns of jitter
    // above its level.
    assert!(
        m.notes.iter().any(|n| matches!(
            n,
            Note::ProcessesDiffer { processes: 3, fastest, slowest, .. }
                if (fastest.0 - 10.005).abs() < 1e-9 && (slowest.0 - 11.005).abs() < 1e-9
        )),
        "{:?}",
        m.notes
    );
}

#[test]
fn the_most_telling_stop_reason_is_reported() {
    let processes = vec![
        process(10.0, Overhead::NONE, StopReason::Precise),
        process(10.0, Overhead::NONE, StopReason::MaxTime),
        process(10.0, Overhead::NONE, StopReason::TimeBudget),
    ];
    let m = Measured::pool(processes, &context(Overhead::NONE));
    assert_eq!(m.measurement.stop, StopReason::MaxTime);
}

#[test]
fn one_process_has_no_spread_between_processes() {
    let m = Measured::pool(
        vec![process(10.0, Overhead::NONE, StopReason::Precise)],
        &context(Overhead::NONE),
    );
    let forks = m.forks.unwrap();
    assert_eq!(forks.between, 0.0);
    assert_eq!(forks.p_value, None);
    assert_eq!(forks.interval, None);
    // Its blocks are the process's slices.
    assert_eq!(m.measurement.slice_starts, [0, 10, 20, 30]);
}

/// Identical processes whose blocks wander as an AR(1) series (lag-1
/// correlation 0.4, as on the example suite) are told apart by chance only:
/// the one-way ANOVA of block medians this replaced flagged 28–41% of such
/// runs; Cochran's Q over each process's own interval flags about 5%.
#[test]
fn identical_autocorrelated_processes_are_rarely_said_to_differ() {
    let mut rng = fastrand::Rng::with_seed(41);
    let runs = 300;
    let flagged = (0..runs)
        .filter(|_| {
            let processes = (0..3)
                .map(|_| {
                    let levels = crate::testing::random::ar1(&mut rng, 40, 0.4, 100.0, 1.0);
                    let mut samples = Vec::new();
                    for level in &levels {
                        for k in 0..5 {
                            let cost = level + if k % 2 == 0 { 0.01 } else { -0.01 };
                            samples.push(Sample {
                                iters: 100,
                                elapsed: Nanos(100.0 * cost),
                            });
                        }
                    }
                    let measurement = Measurement {
                        samples,
                        stop: StopReason::TimeBudget,
                        warm_up: WarmUp::default(),
                        rewarm_samples: 0,
                        setup_time: Nanos::ZERO,
                        slice_starts: (0..levels.len()).map(|i| i * 5).collect(),
                        total_time: Nanos(1e6),
                        wall_capped: false,
                    };
                    Measured::analyse(
                        measurement,
                        config(),
                        &context(Overhead::NONE),
                        Evidence::default(),
                    )
                })
                .collect();
            let m = Measured::pool(processes, &context(Overhead::NONE));
            m.forks.as_ref().unwrap().process_effect()
        })
        .count();
    let rate = flagged as f64 / runs as f64;
    assert!((0.01..=0.10).contains(&rate), "false alarms {rate}");
}

/// A process whose memory layout puts the body at `level` ns: `blocks`
/// slices of ten samples of 1,000 iterations, each slice's level `spread`
/// (relative, normal) around it, as the machine moves it.
fn laid_out(rng: &mut fastrand::Rng, level: f64, blocks: usize, spread: f64) -> Measured {
    let mut samples = Vec::new();
    for _ in 0..blocks {
        let block = level * (1.0 + spread * normal(rng));
        for k in 0..10 {
            let cost = block * if k % 2 == 0 { 1.001 } else { 0.999 };
            samples.push(Sample {
                iters: 1000,
                elapsed: Nanos(1000.0 * cost),
            });
        }
    }
    let measurement = Measurement {
        samples,
        stop: StopReason::TimeBudget,
        warm_up: WarmUp::default(),
        rewarm_samples: 0,
        setup_time: Nanos::ZERO,
        slice_starts: (0..blocks).map(|slice| slice * 10).collect(),
        total_time: Nanos(1e7),
        wall_capped: false,
    };
    let context = context(Overhead::NONE);
    Measured::analyse(measurement, config(), &context, Evidence::default())
}

fn normal(rng: &mut fastrand::Rng) -> f64 {
    let (u, v) = (rng.f64().max(1e-300), rng.f64());
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Each process lands its body 2% (sd) from the layouts' mean, as the
/// harness's own kernels did between processes here (86 ns in some, 100 ns
/// in others), and the machine moves its slices 0.5%. One process's
/// interval describes its layout only: it holds the mean over layouts in
/// few runs. Three processes' pooled interval holds it at about its
/// nominal rate.
#[test]
fn three_processes_cover_the_mean_over_layouts_where_one_does_not() {
    let mut rng = fastrand::Rng::with_seed(22);
    let truth = 100.0;
    let trials = 400;
    let (mut one, mut three) = (0, 0);
    for _ in 0..trials {
        let mut layout = || truth * (1.0 + 0.02 * normal(&mut rng));
        let levels = [layout(), layout(), layout()];
        let alone = laid_out(&mut rng, levels[0], 60, 0.005);
        let covers = |m: &Measured| m.estimate.interval.is_some_and(|ci| ci.contains(truth));
        one += usize::from(covers(&alone));
        let processes = levels
            .iter()
            .map(|&level| laid_out(&mut rng, level, 20, 0.005))
            .collect();
        three += usize::from(covers(&Measured::pool(processes, &context(Overhead::NONE))));
    }
    let (one, three) = (one as f64 / trials as f64, three as f64 / trials as f64);
    assert!(one < 0.3, "one process covered the layouts' mean in {one}");
    assert!(
        (0.92..=0.99).contains(&three),
        "three processes covered it in {three}"
    );
}

/// `process` whose speed probe read `probe` ns beside each of its slices.
fn probed(level: f64, probe: f64) -> Measured {
    let mut m = process(level, Overhead::NONE, StopReason::TimeBudget);
    m.extras.slices = (0..4)
        .map(|slice| crate::instruments::SliceEvidence {
            first_sample: slice * 10,
            samples: 10,
            probe,
            pause: None,
            faults: None,
        })
        .collect();
    m
}

/// A process that ran its whole life on the slower vCPU (its probe 1.5×
/// the others', its time 1.6×) is left out of the headline and its
/// interval; it stays in the record of the processes' estimates.
#[test]
fn a_process_the_machine_slowed_throughout_is_left_out_of_the_headline() {
    let processes = vec![probed(10.0, 0.33), probed(16.0, 0.50), probed(10.02, 0.34)];
    let m = Measured::pool(processes, &context(Overhead::NONE));
    // Each process's own headline is its level plus its blocks' mean
    // offset (0.005).
    assert!((m.headline() - 10.015).abs() < 1e-9, "{}", m.headline());
    let ci = m.estimate.interval.unwrap();
    assert!(ci.upper < 11.0, "{ci:?}");
    assert_eq!(m.forks.as_ref().unwrap().process_estimates.len(), 3);
    // All three at the machine's speed: all three count.
    let processes = vec![probed(10.0, 0.33), probed(16.0, 0.34), probed(10.02, 0.34)];
    let m = Measured::pool(processes, &context(Overhead::NONE));
    assert!((m.headline() - 12.011_667).abs() < 1e-5, "{}", m.headline());
}

/// Six processes, the speed probe slow beside four of them: the machine was
/// slow most of the time, not in one process, so all six count. (Two left
/// alone, 10 and 15 ns, would give a Student-t interval with one degree of
/// freedom: 12.5 ± 31.8 ns.)
#[test]
fn processes_are_left_out_only_while_a_majority_of_them_remain() {
    let levels = [(10.0, 0.33), (15.0, 0.34), (12.0, 0.5), (12.5, 0.5)];
    let six = |levels: &[(f64, f64)]| {
        (levels.iter().chain(&levels[2..]))
            .map(|&(level, probe)| probed(level, probe))
            .collect::<Vec<_>>()
    };
    let m = Measured::pool(six(&levels), &context(Overhead::NONE));
    let all = (10.0 + 15.0 + 2.0 * 12.0 + 2.0 * 12.5) / 6.0 + 0.005;
    assert!((m.headline() - all).abs() < 1e-9, "{}", m.headline());
    let ci = m.estimate.interval.unwrap();
    assert!(ci.lower > 10.0 && ci.upper < 15.0, "{ci:?}");
}

fn precise(level: f64, target: f64) -> Measured {
    let mut m = process(level, Overhead::NONE, StopReason::Precise);
    m.config.stop_rule = StopRule::Precision { target };
    m
}

/// Each process met ±5% alone (their own intervals are ±0.5%), but they
/// differ by 30%: the pooled row says it did not reach the target, and why,
/// rather than `precise` beside a ± four times the target.
#[test]
fn processes_precise_alone_but_not_together_do_not_say_precise() {
    let processes = vec![
        precise(10.0, 0.05),
        precise(13.0, 0.05),
        precise(10.5, 0.05),
    ];
    let m = Measured::pool(processes, &context(Overhead::NONE));
    assert!(m.precision.unwrap() > 0.05, "{:?}", m.precision);
    assert_eq!(m.measurement.stop, StopReason::ProcessCap);
    let note = m.notes.iter().find(|n| n.kind() == "not_precise");
    assert!(
        matches!(
            note,
            Some(Note::NotPrecise { missed: Missed::ProcessesDiffer(3), target, .. })
                if *target == 0.05
        ),
        "{:?}",
        m.notes
    );
    // Processes that agree keep `precise`, and get no such note.
    let processes = vec![
        precise(10.0, 0.05),
        precise(10.1, 0.05),
        precise(10.05, 0.05),
    ];
    let m = Measured::pool(processes, &context(Overhead::NONE));
    assert_eq!(m.measurement.stop, StopReason::Precise);
    assert!(m.notes.iter().all(|n| n.kind() != "not_precise"));
}

/// Processes that agree, each stopped by its rule while measuring, whose
/// own intervals read wider than the target once analysed: the row says
/// `processes`, not `precise`, and that the intervals widened after the
/// stop, not that the processes differ (more processes are not the
/// remedy); one process alone keeps its stop and gets the same note.
#[test]
fn an_interval_wider_than_the_target_its_stop_rule_met_says_so() {
    let target = 0.002;
    let one = precise(10.0, target);
    let alone = Measured::analyse(
        one.measurement.clone(),
        one.config.clone(),
        &context(Overhead::NONE),
        Evidence::default(),
    );
    assert!(
        alone.precision.unwrap() > target * 1.01,
        "{:?}",
        alone.precision
    );
    assert_eq!(alone.measurement.stop, StopReason::Precise);
    let widened = |m: &Measured| -> Vec<Missed> {
        not_precise(m)
            .into_iter()
            .map(|(missed, _)| missed)
            .collect()
    };
    assert_eq!(
        widened(&alone),
        [Missed::Widened(None)],
        "{:?}",
        alone.notes
    );
    let processes = vec![
        precise(10.0, target),
        precise(10.0, target),
        precise(10.0, target),
    ];
    let m = Measured::pool(processes, &context(Overhead::NONE));
    assert_eq!(m.measurement.stop, StopReason::ProcessCap);
    assert_eq!(widened(&m), [Missed::Widened(Some(3))], "{:?}", m.notes);
    // Met in the end too: no note.
    let processes = vec![
        precise(10.0, 0.05),
        precise(10.0, 0.05),
        precise(10.0, 0.05),
    ];
    assert!(widened(&Measured::pool(processes, &context(Overhead::NONE))).is_empty());
}

/// A process that ran out of --max-time makes the pooled row `max-time`;
/// its not-precise note quotes the interval over the processes, the one
/// printed, and is not there when that interval met the target.
#[test]
fn a_max_time_note_quotes_the_pooled_interval_and_goes_when_it_met_the_target() {
    let bounded = |level: f64, target: f64| {
        let mut m = process(level, Overhead::NONE, StopReason::MaxTime);
        m.config.stop_rule = StopRule::Precision { target };
        // Its measuring time spent: the bound, not a set-up, ended it.
        m.measurement.total_time = Nanos(1e9);
        m
    };
    let achieved = |m: &Measured| -> Vec<Option<f64>> {
        not_precise(m)
            .into_iter()
            .map(|(_, achieved)| achieved)
            .collect()
    };
    let agree = vec![
        bounded(10.0, 0.05),
        precise(10.05, 0.05),
        precise(10.0, 0.05),
    ];
    let m = Measured::pool(agree, &context(Overhead::NONE));
    assert_eq!(m.measurement.stop, StopReason::MaxTime);
    assert!(m.precision.unwrap() <= 0.05, "{:?}", m.precision);
    assert!(achieved(&m).is_empty(), "{:?}", m.notes);
    let differ = vec![
        bounded(10.0, 0.01),
        precise(13.0, 0.01),
        precise(10.5, 0.01),
    ];
    let m = Measured::pool(differ, &context(Overhead::NONE));
    assert_eq!(m.measurement.stop, StopReason::MaxTime);
    assert_eq!(achieved(&m), [m.precision], "{:?}", m.notes);
}

/// Why each of `m`'s not-precise notes missed, and the precision it quotes.
fn not_precise(m: &Measured) -> Vec<(Missed, Option<f64>)> {
    m.notes
        .iter()
        .filter_map(|n| match n {
            Note::NotPrecise {
                missed, achieved, ..
            } => Some((*missed, *achieved)),
            _ => None,
        })
        .collect()
}

/// One process at `level` (four rounds of [`process_of`]) with each sample
/// `reshape`d by its index, analysed again.
fn reshaped(level: f64, reshape: impl Fn(usize, &mut Sample)) -> Measured {
    let mut process = process_of(4, level, Overhead::NONE, StopReason::TimeBudget);
    for (i, sample) in process.measurement.samples.iter_mut().enumerate() {
        reshape(i, sample);
    }
    let context = context(Overhead::NONE);
    Measured::analyse(process.measurement, config(), &context, Evidence::default())
}

/// One process whose every tenth sample costs ten times its level: two
/// levels of the program's own, in every process.
fn two_level_process(level: f64) -> Measured {
    reshaped(level, |i, sample| {
        if i % 10 == 9 {
            sample.elapsed = Nanos(sample.elapsed.0 * 10.0);
        }
    })
}

#[test]
fn variation_only_between_processes_is_the_processes_not_the_program() {
    let is_levels = |n: &Note| matches!(n, Note::Levels { .. });
    // One process three times slower throughout, each steady within: the
    // processes differ, and the program has no levels of its own.
    let processes = [10.0, 10.0, 30.0]
        .map(|level| process_of(4, level, Overhead::NONE, StopReason::TimeBudget));
    assert!(processes.iter().all(|p| !p.notes.iter().any(is_levels)));
    let pooled = Measured::pool(processes.to_vec(), &context(Overhead::NONE));
    assert!(!pooled.notes.iter().any(is_levels), "{:?}", pooled.notes);
    assert!(
        pooled
            .notes
            .iter()
            .any(|n| matches!(n, Note::ProcessesDiffer { .. })),
        "{:?}",
        pooled.notes
    );
    // Nor a cost that moved between slices. Each process's samples spread
    // alike in every slice (a cost per call from 1× to 5× its level, mean
    // 22% above the median: varying, one level), so no process drifts; at
    // 10, 12 and 14 ns the pooled blocks drift 14%.
    let spread_process = |level: f64| {
        reshaped(level, |i, sample| {
            let k = (i % 10) as f64;
            sample.elapsed = Nanos(sample.iters as f64 * level * (1.0 + 0.05 * k * k));
        })
    };
    let speed_changed = |n: &Note| matches!(n, Note::SpeedChanged { .. });
    let processes = [10.0, 12.0, 14.0].map(spread_process);
    assert!(processes.iter().all(|p| !p.notes.iter().any(speed_changed)));
    let pooled = Measured::pool(processes.to_vec(), &context(Overhead::NONE));
    assert!(
        !pooled.notes.iter().any(speed_changed),
        "{:?}",
        pooled.notes
    );
    assert!(!pooled.notes.iter().any(is_levels), "{:?}", pooled.notes);
    // Levels every process shows are the program's, and stay.
    let processes = [10.0, 10.2, 9.9].map(two_level_process);
    assert!(processes.iter().all(|p| p.notes.iter().any(is_levels)));
    let pooled = Measured::pool(processes.to_vec(), &context(Overhead::NONE));
    assert!(pooled.notes.iter().any(is_levels), "{:?}", pooled.notes);
}

/// Where the pool's two levels go (no process shows them: one process 3x
/// slower throughout), what they stood for is said as the samples show it:
/// each process's calls spread 8% within every slice, and so does the row.
#[test]
fn a_pools_levels_no_process_shows_leave_its_spread_said() {
    let spread_within = |level: f64| {
        reshaped(level, |i, sample| {
            let k = if i % 2 == 0 { 1.08 } else { 0.92 };
            sample.elapsed = Nanos(sample.iters as f64 * level * k);
        })
    };
    let high_spread = |m: &Measured| m.notes.iter().any(|n| matches!(n, Note::HighSpread { .. }));
    let levels = |m: &Measured| m.notes.iter().any(|n| matches!(n, Note::Levels { .. }));
    let processes = [10.0, 10.0, 30.0].map(spread_within);
    for p in &processes {
        assert!(high_spread(p) && !levels(p), "{:?}", p.notes);
    }
    let pooled = Measured::pool(processes.to_vec(), &context(Overhead::NONE));
    assert!(!levels(&pooled), "{:?}", pooled.notes);
    assert!(high_spread(&pooled), "{:?}", pooled.notes);
    // The figure too: each process spreads 8%, and so does the pool.
    for m in processes.iter().chain([&pooled]) {
        let spread = m.within_slice_spread;
        assert!((spread - 0.08).abs() < 0.002, "{spread}");
    }
}

/// A steady body two of whose sixteen slices ran 1.9x slower, the speed
/// probe none the wiser (a phase longer than a slice, or the machine's):
/// its time is the fast regime, and its `levels` note says so, not that
/// the time is the mean over both. A varying body's is their mean, and its
/// note says that. Slow spells within slices, which leave every slice's
/// median at the faster level (this VM's: 5-10% of a compute kernel's
/// calls at 1.5-2x, in runs within slices whose probe read quiet before
/// and after), get no note.
#[test]
fn a_steady_bodys_levels_say_its_time_is_the_faster() {
    let levels = |m: &Measured| m.notes.iter().any(|n| matches!(n, Note::Levels { .. }));
    let spells = reshaped(10.0, |i, sample| {
        if [1, 4, 7, 10, 13].contains(&(i / 10)) && i % 10 >= 7 {
            sample.elapsed = Nanos(sample.elapsed.0 * 1.9);
        }
    });
    assert!(spells.estimate.steady, "{:?}", spells.estimate);
    let calls: Vec<f64> = spells
        .measurement
        .samples
        .iter()
        .map(|s| s.iters as f64)
        .collect();
    assert!(
        crate::analysis::levels::two_levels(&spells.per_iter, &calls).is_some(),
        "the samples sit at two levels"
    );
    assert!(!levels(&spells), "{:?}", spells.notes);
    let m = reshaped(10.0, |i, sample| {
        if [3, 9].contains(&(i / 10)) && i % 10 >= 3 {
            sample.elapsed = Nanos(sample.elapsed.0 * 1.9);
        }
    });
    assert!(m.estimate.steady, "{:?}", m.estimate);
    assert!((m.headline() - 10.0).abs() < 0.1, "{}", m.headline());
    let said = |m: &Measured| {
        let levels = m.notes.iter().find(|n| matches!(n, Note::Levels { .. }));
        levels
            .unwrap_or_else(|| panic!("no levels: {:?}", m.notes))
            .to_string()
    };
    let faster = "the time is the faster level's";
    assert!(said(&m).contains(faster), "{}", said(&m));
    // Every tenth sample ten times the cost: varying, its time their mean.
    let varying = two_level_process(10.0);
    assert!(!varying.estimate.steady);
    let mean = "the time is their mean";
    assert!(said(&varying).contains(mean), "{}", said(&varying));
    let both = (9.0 * 10.0 + 100.0) / 10.0;
    assert!(
        (varying.headline() / both - 1.0).abs() < 0.02,
        "{}",
        varying.headline()
    );
    // Over processes alike, the same.
    let pooled = Measured::pool(vec![m.clone(), m.clone(), m], &context(Overhead::NONE));
    assert!(said(&pooled).contains(faster), "{}", said(&pooled));
    let pooled = Measured::pool(vec![varying.clone(), varying], &context(Overhead::NONE));
    assert!(said(&pooled).contains(mean), "{}", said(&pooled));
}

/// The levels are over the samples the time counts: every tenth call ten
/// times the cost, and three of every ten samples three times it but
/// preempted (another program's time), which the time leaves out. Counted,
/// they read as 60% at 10 ns and 40% at 47.7 ns, "neither" beside the time.
#[test]
fn levels_are_over_the_samples_the_time_counts() {
    let mut m = process_of(4, 10.0, Overhead::NONE, StopReason::TimeBudget);
    let mut preempted = Vec::new();
    for (i, sample) in m.measurement.samples.iter_mut().enumerate() {
        if i % 10 == 9 {
            sample.elapsed = Nanos(sample.elapsed.0 * 10.0);
        }
        if (5..8).contains(&(i % 10)) {
            sample.elapsed = Nanos(sample.elapsed.0 * 3.0);
            preempted.push(i);
        }
    }
    let evidence = Evidence {
        slices: &[],
        preempted: &preempted,
    };
    let m = Measured::analyse(m.measurement, config(), &context(Overhead::NONE), evidence);
    let note = m.notes.iter().find(|n| matches!(n, Note::Levels { .. }));
    let note = note
        .unwrap_or_else(|| panic!("no levels: {:?}", m.notes))
        .to_string();
    assert!(note.contains("the time is their mean"), "{note}");
}

/// Levels the pooled samples show only with another process's time in
/// them are not the program's: one process at 10 and 19 ns (every fourth
/// call), one steady at 10 ns, one at 35 ns throughout pooled as 10 and
/// about 32 ns; no process showed those.
#[test]
fn pooled_levels_stand_only_where_a_process_shows_the_same_two() {
    let levels = |m: &Measured| m.notes.iter().any(|n| matches!(n, Note::Levels { .. }));
    let fourth = reshaped(10.0, |i, sample| {
        if i % 4 == 3 {
            sample.elapsed = Nanos(sample.elapsed.0 * 1.9);
        }
    });
    assert!(levels(&fourth), "{:?}", fourth.notes);
    let steady = |level| process_of(4, level, Overhead::NONE, StopReason::TimeBudget);
    let processes = vec![fourth.clone(), steady(10.0), steady(35.0)];
    let pooled = Measured::pool(processes, &context(Overhead::NONE));
    assert!(!levels(&pooled), "{:?}", pooled.notes);
    // One process at 10 and 19 ns (75% and 25%) beside one at 10 and one at
    // 19 ns throughout: pooled as 58% and 42%, shares no process has.
    let processes = vec![fourth.clone(), steady(10.0), steady(19.0)];
    let pooled = Measured::pool(processes, &context(Overhead::NONE));
    assert!(!levels(&pooled), "{:?}", pooled.notes);
    // The same process beside two like it: its levels stand.
    let pooled = Measured::pool(
        vec![fourth.clone(), fourth.clone(), fourth],
        &context(Overhead::NONE),
    );
    assert!(levels(&pooled), "{:?}", pooled.notes);
}

/// A process of one of the harness's own kernels: four slices of ten
/// samples at `level`, the last at 4× (the machine's, as such a kernel has
/// no phases of its own).
fn kernel_process(level: f64) -> Measured {
    let overhead = overheads()[0];
    let time = |cost: f64| Nanos(1000.0 * (cost + overhead.per_iter.0) + overhead.per_sample.0);
    let samples = (0..40)
        .map(|i| Sample {
            iters: 1000,
            elapsed: time(if i >= 30 { 4.0 * level } else { level }),
        })
        .collect();
    let measurement = Measurement {
        samples,
        ..process(level, overhead, StopReason::TimeBudget).measurement
    };
    let context = context(overhead);
    Measured::analyse_as(
        Body::Stateless,
        measurement,
        config(),
        &context,
        Evidence::default(),
    )
}

/// Pooled over processes, the harness's own kernel is read as each
/// process read it: its slow slices are the machine's, and its time the
/// fast regime's, where a benchmark's body would count them (175 ns).
#[test]
fn the_harness_kernels_pooled_stay_stateless() {
    let processes: Vec<Measured> = (0..3).map(|_| kernel_process(100.0)).collect();
    assert!(processes.iter().all(|p| p.estimate.steady));
    let pooled = Measured::pool(processes, &context(overheads()[0]));
    assert!(pooled.estimate.steady, "{:?}", pooled.estimate);
    assert!(
        (pooled.estimate.estimate - 100.0).abs() < 1e-6,
        "{:?}",
        pooled.estimate
    );
}

/// Processes that each spent their share of `--max-time` on the set-up:
/// the pooled row's note names the set-up in each process and the share,
/// not the iteration.
#[test]
fn few_samples_after_a_set_up_in_each_process_say_so() {
    let config = SamplerConfig {
        max_time: Nanos(2e9),
        ..config()
    };
    let few = |level: f64| {
        let mut p = process_of(1, level, Overhead::NONE, StopReason::MaxTime);
        p.measurement.samples.truncate(3);
        p.measurement.slice_starts = vec![0];
        p.measurement.setup_time = Nanos(6e8);
        let context = context(Overhead::NONE);
        Measured::analyse(p.measurement, config.clone(), &context, Evidence::default())
    };
    let pooled = Measured::pool(
        vec![few(10.0), few(10.1), few(9.9)],
        &context(Overhead::NONE),
    );
    let said = (pooled.notes.iter())
        .find(|n| matches!(n, Note::FewSamples { .. }))
        .map(ToString::to_string);
    let said = said.unwrap_or_else(|| panic!("{:?}", pooled.notes));
    assert!(
        said.contains("the set-up took 600.0 ms in each of 3 processes"),
        "{said}"
    );
}

/// `near_overhead` reads the interval the row prints, over the processes,
/// and quotes it: three processes of 10 ns whose loop is known to ±0.5 ns
/// each say it, and so does the row, with the row's own ± (±0.29 ns over
/// the three, where the pooled blocks read ±0.5 ns) and the loop's over
/// the three (±0.29 ns: each process measured its own).
#[test]
fn near_the_loops_cost_by_the_interval_the_pooled_row_prints() {
    let known = |overhead: Overhead| Overhead {
        per_iter_uncertainty: Nanos(0.5),
        ..overhead
    };
    let processes: Vec<Measured> = [10.0, 10.0, 10.0]
        .iter()
        .zip(overheads())
        .map(|(&level, overhead)| process(level, known(overhead), StopReason::TimeBudget))
        .collect();
    let quoted = |m: &Measured| {
        m.notes.iter().find_map(|n| match n {
            Note::NearOverhead {
                achieved,
                uncertainty,
            } => Some((*achieved, uncertainty.0)),
            _ => None,
        })
    };
    for p in &processes {
        assert_eq!(quoted(p), Some((p.precision, 0.5)), "{:?}", p.notes);
    }
    let m = Measured::pool(processes, &context(Overhead::NONE));
    let half = m.estimate.half_width().unwrap();
    assert!((0.25..0.35).contains(&half), "{half}");
    let (achieved, uncertainty) = quoted(&m).expect("the note");
    assert_eq!(achieved, m.precision);
    assert!(
        (uncertainty - 0.5 / 3f64.sqrt()).abs() < 1e-12,
        "{uncertainty}"
    );
}
