//! A fixed run for the format tests: synthetic measurements analysed as the
//! harness analyses real ones, a fixed environment and run header. Every
//! reporter's golden file in `tests/golden/` is this run's output.

use bench_runtime::{
    Measurement, Nanos, Sample, SamplerConfig, StopReason, Throughput, TimerPrecision, WarmUp,
};

use crate::analysis::compare::{self, Headline};
use crate::analysis::Overhead;
use crate::environment::{Build, Environment};
use crate::failure::Failure;
use crate::instruments::{Evidence, SliceEvidence};
use crate::results::against::{AgainstOutcome, AgainstReport, AgainstRow, Paired};
use crate::results::comparison::BaselineReport;
use crate::results::{BenchResult, Compared, Context, GroupReport, Measured, Outcome, RunInfo};
use crate::settings::Schedule;

/// What the timing loop adds: clock reads per sample, the loop per iteration.
const OVERHEAD: Overhead = Overhead {
    per_sample: Nanos(30.0),
    per_iter: Nanos(0.5),
    per_iter_uncertainty: Nanos::ZERO,
};

const TIMER: TimerPrecision = TimerPrecision {
    resolution: Nanos(0.5),
    overhead: Nanos(30.0),
};

pub(crate) fn info() -> RunInfo {
    RunInfo {
        harness_version: "0.1.0",
        clock_name: "rdtsc (invariant TSC)",
        clock_hz: 2.6e9,
        precision: TIMER,
        sample_floor: Nanos(10_000.0),
        overhead: OVERHEAD,
        schedule: Schedule::Interleaved,
        cold: false,
        target_precision: 0.01,
        seed: 42,
        partial: false,
        forks: None,
    }
}

pub(crate) fn environment() -> Environment {
    Environment {
        timestamp: "2026-11-21T09:50:00Z".to_string(),
        harness_version: "0.1.0".to_string(),
        rustc_version: "rustc 1.95.0 (59807616e 2026-04-14)".to_string(),
        target: "x86_64-unknown-linux-gnu".to_string(),
        build: Build {
            debug_assertions: false,
            opt_level: "3".to_string(),
            profile: "release".to_string(),
            harness_opt_level: None,
        },
        os: "linux".to_string(),
        os_release: Some("6.8.0-1012-gcp".to_string()),
        cpu_model: Some("Intel(R) Xeon(R) CPU @ 2.60GHz".to_string()),
        logical_cores: Some(2),
        last_level_cache_bytes: Some(33 << 20),
        governor: None,
        boost: None,
        aslr: Some(2),
        load_average: Some([0.4, 0.25, 0.1]),
        hypervisor: Some(true),
        perf_event_paranoid: Some(2),
        git_commit: Some("0123456789abcdef0123456789abcdef01234567".to_string()),
        git_dirty: Some(false),
    }
}

/// The default budgets: the goldens follow them.
fn config() -> SamplerConfig {
    SamplerConfig::default()
}

/// A sample of `iters` iterations of a body costing `cost` ns each, as the
/// clock reads it (loop overhead included), in whole nanoseconds.
fn sample(iters: u64, cost: f64) -> Sample {
    let elapsed = iters as f64 * (cost + OVERHEAD.per_iter.0) + OVERHEAD.per_sample.0;
    Sample {
        iters,
        elapsed: Nanos(elapsed.round()),
    }
}

pub(crate) fn measured(name: &str, measurement: Measurement) -> BenchResult {
    measured_with(name, measurement, Evidence::default())
}

/// [`measured`], with the machine's evidence beside its samples (probes
/// relative to a fast level of 1).
pub(crate) fn measured_with(
    name: &str,
    measurement: Measurement,
    evidence: Evidence<'_>,
) -> BenchResult {
    let context = Context {
        overhead: OVERHEAD,
        timer: TIMER,
        probe_level: Some(1.0),
    };
    let measured = Measured::analyse(measurement, config(), &context, evidence);
    BenchResult::new(name, Outcome::Measured(Box::new(measured)))
}

/// Six slices of eight samples at slightly different machine speeds, one
/// interrupted sample: stopped precise.
pub(crate) fn interleaved() -> Measurement {
    let levels = [10.0, 10.2, 10.0, 10.1, 10.0, 10.2];
    let jitter = [0.0, 0.1, -0.1, 0.05, 0.0, -0.05, 0.1, 0.0];
    let mut samples = Vec::new();
    for (slice, level) in levels.iter().enumerate() {
        for (k, j) in jitter.iter().enumerate() {
            let cost = if (slice, k) == (2, 3) {
                25.0
            } else {
                level + j
            };
            samples.push(sample(1000, cost));
        }
    }
    Measurement {
        samples,
        stop: StopReason::Precise,
        warm_up: WarmUp {
            time: Nanos(1_200_000.0),
            samples: 14,
            steady: true,
            final_cv: Some(0.012),
        },
        rewarm_samples: 5,
        setup_time: Nanos(50_000.0),
        slice_starts: (0..6).map(|s| s * 8).collect(),
        total_time: Nanos(2_000_000.0),
        wall_capped: false,
    }
}

/// A `--forks` row of one process per `(level, probe)`: the fixture's
/// interleaved samples moved to `level` ns per iteration, the speed probe
/// reading `probe` ns beside each of its slices (a process on a slower
/// vCPU reads a higher probe throughout), pooled as the parent pools them.
pub(crate) fn forked(name: &str, processes: &[(f64, f64)]) -> BenchResult {
    let context = Context {
        overhead: OVERHEAD,
        timer: TIMER,
        probe_level: None,
    };
    let runs = processes.iter().map(|&(level, probe)| {
        let mut measurement = interleaved();
        for s in &mut measurement.samples {
            let cost = (s.elapsed.0 - OVERHEAD.per_sample.0) / s.iters as f64;
            *s = sample(s.iters, cost - OVERHEAD.per_iter.0 - 10.0 + level);
        }
        let slices: Vec<SliceEvidence> = (measurement.slice_starts.iter())
            .map(|&first_sample| SliceEvidence {
                first_sample,
                samples: 8,
                probe,
                pause: None,
                faults: None,
            })
            .collect();
        let context = Context {
            probe_level: crate::instruments::probe_level(slices.iter()),
            ..context
        };
        let evidence = Evidence {
            slices: &slices,
            preempted: &[],
        };
        let mut m = Measured::analyse(measurement, config(), &context, evidence);
        m.extras.slices = slices;
        m
    });
    let pooled = Measured::pool(runs.collect(), &context);
    BenchResult::new(name, Outcome::Measured(Box::new(pooled)))
}

/// Forty samples in one go whose warm-up never settled, stopped by
/// --max-time before the precision was reached.
fn sequential_noisy() -> Measurement {
    let samples = (0..40)
        .map(|k| {
            sample(
                64,
                250.0 + [0.0, 30.0, -20.0, 55.0, 5.0][k % 5] + 0.2 * k as f64,
            )
        })
        .collect();
    Measurement {
        samples,
        stop: StopReason::MaxTime,
        warm_up: WarmUp {
            time: Nanos(100_000_000.0),
            samples: 90,
            steady: false,
            final_cv: Some(0.08),
        },
        rewarm_samples: 0,
        setup_time: Nanos::ZERO,
        slice_starts: vec![0],
        total_time: Nanos(2_100_000_000.0),
        wall_capped: false,
    }
}

/// One iteration longer than --max-time allows twice: one sample.
fn one_sample() -> Measurement {
    Measurement {
        // 1.5 s per iteration once the overhead is taken out.
        samples: vec![Sample {
            iters: 1,
            elapsed: Nanos(1_500_000_030.5),
        }],
        stop: StopReason::MaxTime,
        warm_up: WarmUp {
            time: Nanos(1_500_000_000.0),
            samples: 1,
            steady: false,
            final_cv: None,
        },
        rewarm_samples: 0,
        setup_time: Nanos(1_000.0),
        slice_starts: vec![0],
        total_time: Nanos(3_000_001_000.0),
        wall_capped: false,
    }
}

/// A body that costs nothing: every sample is exactly the loop's overhead,
/// so the mean is 0 and the coefficient of variation undefined.
fn empty_body() -> Measurement {
    Measurement {
        samples: vec![sample(4096, 0.0); 20],
        stop: StopReason::Precise,
        warm_up: WarmUp {
            time: Nanos(90_000.0),
            samples: 22,
            steady: true,
            final_cv: Some(0.0),
        },
        rewarm_samples: 0,
        setup_time: Nanos::ZERO,
        slice_starts: vec![0],
        total_time: Nanos(400_000.0),
        wall_capped: false,
    }
}

/// Every outcome: measured (interleaved, in one go, one sample, an empty
/// body), failed (with a name that needs quoting in CSV and escaping in
/// Markdown) and ignored.
pub(crate) fn results() -> Vec<BenchResult> {
    vec![
        measured("empty", empty_body()),
        measured("fib_20", sequential_noisy()),
        BenchResult {
            group: Some("sort".to_string()),
            ..measured("kernels::sort_1k", interleaved())
        },
        BenchResult::new(
            "parse::csv \"a,b\" | c",
            Outcome::Failed(Failure {
                message: "index out of bounds: the len is 3 but the index is 7".to_string(),
                location: Some("benches/suite.rs:42:9".to_string()),
            }),
        ),
        measured("slow::one_sample", one_sample()),
        BenchResult::new("zz::ignored", Outcome::Ignored),
    ]
}

/// [`results()`] as the machine formats get them: `kernels::sort_1k`
/// declares 80 bytes per iteration and `fib_20` one item, and the run
/// is compared with a baseline saved before, with the machine 0.5% slower
/// now (its interval up to 0.92%): `fib_20` was 20% faster then (slower
/// now), `kernels::sort_1k` 0.1% slower (no difference), the empty body
/// 0.25 ns then and below the loop's resolution now (faster, by a
/// bound), `slow::one_sample` new, and `parse::gone` in the baseline only.
/// Each baseline headline has the same relative interval as this run's.
pub(crate) fn formats_run() -> (Vec<BenchResult>, BaselineReport) {
    let machine = |time: f64| Headline {
        time,
        half_width: Some(0.3),
        df: f64::INFINITY,
        resolution: 0.0,
        quantum: 0.0,
    };
    let machine_change = compare::compare(&machine(100.0), &machine(100.5), 0.0);
    let noise_threshold = 0.02;
    let (low, high) = machine_change.ratio.as_ref().unwrap().change_interval;
    let threshold = noise_threshold + low.abs().max(high.abs());
    let mut results = results();
    for result in &mut results {
        result.throughput = match result.name.as_str() {
            "kernels::sort_1k" => Some(Throughput::Bytes(80)),
            "fib_20" => Some(Throughput::Items(1)),
            _ => None,
        };
        let Some(m) = result.measured() else {
            continue;
        };
        let now = m.comparable(TIMER.resolution.0);
        let then = match result.name.as_str() {
            "fib_20" => now.time / 1.2,
            "slow::one_sample" => {
                result.comparison = Some(Compared::New);
                continue;
            }
            "empty" => 0.25,
            _ => now.time * 1.001,
        };
        let scale = if now.time > 0.0 { then / now.time } else { 1.0 };
        let old = Headline {
            time: then,
            half_width: now.half_width.map(|h| h * scale),
            ..now
        };
        result.comparison = Some(Compared::Against(compare::compare(&old, &now, threshold)));
    }
    let report = BaselineReport {
        name: "main".to_string(),
        saved: "2026-11-20T17:04:00Z".to_string(),
        noise_threshold,
        threshold,
        machine_change: Some(machine_change),
        gone: vec!["parse::gone".to_string()],
    };
    (results, report)
}

/// An A/B group `sort` against `kernels::sort_1k`: `kernels::sort_unstable_1k`
/// about half its time over 12 paired rounds, `kernels::sort_by_key` as
/// fast within ±1.05% (unclear at the groups' 1%), and
/// `kernels::sort_1k_pdq` without a comparison.
pub(crate) fn group_reports() -> Vec<GroupReport> {
    let baseline: Vec<f64> = (0..12).map(|i| 10.0 + f64::from(i % 3) * 0.1).collect();
    let half: Vec<f64> = baseline
        .iter()
        .enumerate()
        .map(|(i, t)| t * (0.5 + [0.01, -0.01, 0.005][i % 3]))
        .collect();
    let same: Vec<f64> = baseline
        .iter()
        .enumerate()
        .map(|(i, t)| t * (1.0 + [0.02, -0.02, 0.01, -0.01][i % 4]))
        .collect();
    vec![GroupReport {
        group: "sort".to_string(),
        baseline: "kernels::sort_1k".to_string(),
        members: vec![
            (
                "kernels::sort_unstable_1k".to_string(),
                Ok(compare::compare_paired(&baseline, &half)),
            ),
            (
                "kernels::sort_by_key".to_string(),
                Ok(compare::compare_paired(&baseline, &same)),
            ),
            (
                "kernels::sort_1k_pdq".to_string(),
                Err("kernels::sort_1k_pdq failed".to_string()),
            ),
        ],
    }]
}

/// An `--against main` run: `find::memchr` 10% slower over 12 paired
/// rounds, `find::naive` about a third faster, `hash::fnv` as fast (no
/// difference at 1%), `empty` too fast to compare, `parse::json` in this
/// build only, `old::removed` in the other only, and `crash` failed.
pub(crate) fn against_report() -> AgainstReport {
    let old: Vec<f64> = (0..12).map(|i| 100.0 + f64::from(i % 3)).collect();
    let scaled = |factor: f64, wobble: [f64; 4]| -> Vec<f64> {
        old.iter()
            .enumerate()
            .map(|(i, t)| t * factor * (1.0 + wobble[i % 4]))
            .collect()
    };
    let paired = |new: Vec<f64>| {
        let comparison =
            compare::compare_replicated(&[(old.clone(), new.clone())], 0.5, 0.0).unwrap();
        let verdict = comparison.verdict(0.01);
        AgainstOutcome::Compared(Paired {
            comparison,
            verdict,
            new_ns: crate::analysis::mean(&new),
            old_ns: crate::analysis::mean(&old),
        })
    };
    let row = |name: &str, outcome| AgainstRow {
        name: name.to_string(),
        outcome,
    };
    AgainstReport {
        baseline: "main".to_string(),
        protocol_version: 3,
        noise_threshold: 0.01,
        rows: vec![
            row(
                "crash",
                AgainstOutcome::Failed("the other build failed: boom".into()),
            ),
            row(
                "empty",
                AgainstOutcome::TooFast {
                    new_ns: 0.1,
                    old_ns: 0.2,
                    rounds: 10,
                },
            ),
            row(
                "find::memchr",
                paired(scaled(1.1, [0.004, -0.004, 0.002, -0.002])),
            ),
            row(
                "find::naive",
                paired(scaled(0.66, [0.004, -0.004, 0.002, -0.002])),
            ),
            row(
                "hash::fnv",
                paired(scaled(1.0, [0.001, -0.001, 0.0005, -0.0005])),
            ),
            row("parse::json", AgainstOutcome::New),
            row("old::removed", AgainstOutcome::Gone),
        ],
        own_overhead: false,
        partial: false,
    }
}
