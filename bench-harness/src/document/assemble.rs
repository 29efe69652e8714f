//! A run's document, from the result model: the one place that decides
//! what `--format json` and baselines write.

use std::collections::BTreeMap;

use serde_json::Value;

use bench_runtime::StopReason;

use super::{
    AgainstBenchRecord, AgainstRecord, AllocationsRecord, BenchRecord, ComplexityRecord,
    ConfigRecord, CpuRecord, Document, EstimateRecord, FailureRecord, FencesRecord, ForksRecord,
    IntervalRecord, MeasurementRecord, Methodology, OutcomeKind, OutliersRecord, OverheadRecord,
    PercentilesRecord, RawSamples, RunStopRule, SampleRecord, SamplesRecord, ScheduleKind,
    SliceRecord, StopKind, SummaryRecord, Throughput, ThroughputUnit, WarmUpRecord, HARNESS_TAG,
    SCHEMA_VERSION,
};
use crate::analysis::{Interval, Summary, BLOCKS_IN_ONE_GO, CONFIDENCE_LEVEL};
use crate::environment::Environment;
use crate::results::against::{AgainstOutcome, AgainstReport};
use crate::results::{BenchResult, ComplexityReport, Measured, Outcome, RunInfo};
use crate::settings::Schedule;

const HEADLINE: &str = "per-iteration times with the overhead subtracted, the samples in \
     `preempted` left out; a block is a slice of an interleaved run, or one of \
     blocks_in_one_go equal runs of samples for a benchmark measured in one go, merged \
     with the next until it holds 5 values; the candidate blocks are those not in \
     `disturbed_blocks` (the speed probe beside them over 15% slower than its 2nd \
     percentile in the run, or every sample preempted) unless fewer than 5% of the \
     blocks, or 8, would remain; a steady body (its candidates' time over their \
     iterations within 10% of their medians, weighted by calls, and under 5% of the calls \
     in blocks over 3 times its fast regime; the harness's empty loop and machine \
     reference always) is timed by the mean of \
     the candidates' medians within 10% of their 5th percentile (or of the undisturbed \
     ones', where every block is a candidate, two or more are undisturbed, and that \
     leaves fewer medians, two or more); any other by its mean \
     cost of a call, every block's time over its iterations but the blocks whose every \
     sample was preempted; 95% interval over those medians, or the blocks' \
     call-weighted deviations from the mean, in time order, allowing for AR(1) \
     dependence, widened by the loop overhead's own 95% half-width in quadrature";

const PERCENTILES: &str =
    "linear interpolation between closest ranks: rank h = (n - 1) * p on the sorted values \
     (Hyndman & Fan type 7, R's and NumPy's default)";

/// The document of a run, as `--format json` writes it and a baseline
/// saves it: its environment and method, every
/// benchmark in `results`, the growth classes fitted over their `args`, and
/// the harness's reference kernel when it was measured (for comparing the
/// machine's speed between runs).
pub(crate) fn assemble(
    environment: &Environment,
    info: &RunInfo,
    results: &[BenchResult],
    complexity_reports: &[ComplexityReport],
    machine_reference: Option<&Measured>,
    loop_overhead: Option<&Measured>,
) -> Document {
    // The clock's tick, in which its samples are written as whole numbers.
    let tick_ns = Some(1e9 / info.clock_hz);
    let mut methodology = methodology(info);
    methodology.overhead.measurement = loop_overhead.map(|m| Box::new(measurement(m, tick_ns)));
    Document {
        schema_version: SCHEMA_VERSION,
        harness: HARNESS_TAG.to_string(),
        environment: environment.clone(),
        methodology,
        partial: info.partial,
        raw_samples: RawSamples::Full,
        benchmarks: results.iter().map(|r| record(r, tick_ns)).collect(),
        machine_reference: machine_reference.map(estimate),
        complexity: complexity_reports.iter().map(complexity).collect(),
        against: None,
        comparison: None,
        groups: Vec::new(),
    }
}

/// The document of an `--against` run: the machine and method, and the
/// paired comparison.
pub(crate) fn assemble_against(
    environment: &Environment,
    info: &RunInfo,
    report: &AgainstReport,
) -> Document {
    Document {
        against: Some(against(report)),
        ..assemble(environment, info, &[], &[], None, None)
    }
}

fn against(report: &AgainstReport) -> AgainstRecord {
    let benchmarks = report
        .rows
        .iter()
        .map(|row| {
            let bare = |status: &str| AgainstBenchRecord {
                name: row.name.clone(),
                status: status.to_string(),
                ratio: None,
                ci_low: None,
                ci_high: None,
                verdict: None,
                rounds: None,
                p_t: None,
                p_wilcoxon: None,
                new_ns: None,
                old_ns: None,
                failure: None,
            };
            match &row.outcome {
                AgainstOutcome::Compared(p) => AgainstBenchRecord {
                    ratio: Some(p.comparison.ratio),
                    ci_low: Some(p.comparison.ratio_interval.0),
                    ci_high: Some(p.comparison.ratio_interval.1),
                    verdict: Some(p.verdict.to_string()),
                    rounds: Some(p.comparison.rounds),
                    p_t: finite(p.comparison.p_t),
                    p_wilcoxon: finite(p.comparison.p_wilcoxon),
                    new_ns: Some(p.new_ns),
                    old_ns: Some(p.old_ns),
                    ..bare("compared")
                },
                AgainstOutcome::New => bare("new"),
                AgainstOutcome::Gone => bare("gone"),
                AgainstOutcome::Failed(why) => AgainstBenchRecord {
                    failure: Some(why.clone()),
                    ..bare("failed")
                },
                AgainstOutcome::TooFast {
                    new_ns,
                    old_ns,
                    rounds,
                } => AgainstBenchRecord {
                    rounds: Some(*rounds),
                    new_ns: Some(*new_ns),
                    old_ns: Some(*old_ns),
                    ..bare("too_fast")
                },
            }
        })
        .collect();
    AgainstRecord {
        baseline: report.baseline.clone(),
        protocol_version: report.protocol_version,
        noise_threshold_percent: report.noise_threshold * 100.0,
        benchmarks,
        other_took_own_overhead: report.own_overhead,
    }
}

/// A complexity report as the document records it.
pub(crate) fn complexity(report: &ComplexityReport) -> ComplexityRecord {
    let fit = report.fit.as_ref().ok();
    let best = fit.map(|f| f.best);
    ComplexityRecord {
        function: report.function.clone(),
        group: report.group.clone(),
        points: report.points.clone(),
        class: best.map(|f| f.class.name().to_string()),
        label: best.map(|f| f.class.label().to_string()),
        coefficient_ns: best.map(|f| f.coefficient),
        rms: best.map(|f| f.rms),
        established: fit.map(|f| f.established()),
        runner_up: fit
            .and_then(|f| f.runner_up)
            .map(|f| super::ClassFitRecord {
                class: f.class.name().to_string(),
                label: f.class.label().to_string(),
                coefficient_ns: f.coefficient,
                rms: f.rms,
            }),
        error: report.fit.as_ref().err().cloned(),
    }
}

/// The headline of `m` as the document records it.
pub(crate) fn estimate(m: &Measured) -> EstimateRecord {
    EstimateRecord {
        time_ns: m.estimate.estimate,
        ci_low_ns: m.estimate.interval.map(|ci| ci.lower),
        ci_high_ns: m.estimate.interval.map(|ci| ci.upper),
        relative_half_width: m.precision.and_then(finite),
        reference_ns: m.reference,
        block_means_ns: m.estimate.block_means.clone(),
        disturbed_blocks: (m.estimate.disturbed.iter().enumerate())
            .filter(|(_, &disturbed)| disturbed)
            .map(|(i, _)| i)
            .collect(),
        kept_blocks: Some(m.estimate.kept_blocks),
        steady: m.estimate.steady,
        block_medians_ns: Vec::new(),
    }
}

fn methodology(info: &RunInfo) -> Methodology {
    Methodology {
        clock: info.clock_name.to_string(),
        clock_hz: info.clock_hz,
        resolution_ns: info.precision.resolution.0,
        read_pair_ns: info.precision.overhead.0,
        sample_floor_ns: info.sample_floor.0,
        overhead: OverheadRecord {
            subtracted: true,
            per_sample_ns: info.overhead.per_sample.0,
            per_iter_ns: info.overhead.per_iter.0,
            per_iter_uncertainty_ns: Some(info.overhead.per_iter_uncertainty.0),
            measurement: None,
        },
        schedule: match info.schedule {
            Schedule::Interleaved => ScheduleKind::Interleaved,
            Schedule::Sequential => ScheduleKind::Sequential,
        },
        cold: info.cold,
        stop_rule: if info.target_precision > 0.0 {
            RunStopRule::Precision {
                target: info.target_precision,
            }
        } else {
            RunStopRule::TimeBudget
        },
        seed: info.seed,
        confidence_level: CONFIDENCE_LEVEL,
        blocks_in_one_go: BLOCKS_IN_ONE_GO,
        headline: HEADLINE.to_string(),
        percentiles: PERCENTILES.to_string(),
    }
}

fn record(result: &BenchResult, tick_ns: Option<f64>) -> BenchRecord {
    let (outcome, failure, measurement) = match &result.outcome {
        Outcome::Measured(m) => (OutcomeKind::Measured, None, Some(measurement(m, tick_ns))),
        Outcome::Passed => (OutcomeKind::Passed, None, None),
        Outcome::Failed(f) => (
            OutcomeKind::Failed,
            Some(FailureRecord {
                message: f.message.clone(),
                location: f.location.clone(),
            }),
            None,
        ),
        Outcome::Ignored => (OutcomeKind::Ignored, None, None),
    };
    let mut params = BTreeMap::new();
    if let Some(type_name) = &result.type_name {
        params.insert("type".to_string(), Value::String(type_name.clone()));
    }
    if let Some(arg) = &result.arg {
        // A number stays a number, so readers can plot against it.
        let value = match crate::json::parse(arg) {
            Ok(number @ Value::Number(_)) => number,
            _ => Value::String(arg.clone()),
        };
        params.insert("arg".to_string(), value);
    }
    let throughput = result.throughput.map(|throughput| {
        let (unit, per_iteration) = match throughput {
            bench_runtime::Throughput::Bytes(n) => (ThroughputUnit::Bytes, n),
            bench_runtime::Throughput::Items(n) => (ThroughputUnit::Items, n),
        };
        Throughput {
            unit,
            per_iteration,
            per_second: result.rate().map(|(_, per_second)| per_second),
        }
    });
    BenchRecord {
        name: result.name.clone(),
        group: result.group.clone(),
        params,
        outcome,
        failure,
        measurement,
        throughput,
    }
}

fn measurement(m: &Measured, tick_ns: Option<f64>) -> MeasurementRecord {
    let raw = &m.measurement;
    let fences = &m.outliers.fences;
    MeasurementRecord {
        samples: SamplesRecord::new(
            raw.samples
                .iter()
                .map(|s| SampleRecord {
                    iters: s.iters,
                    elapsed_ns: s.elapsed.0,
                })
                .collect(),
            tick_ns,
        ),
        slice_starts: raw.slice_starts.clone(),
        rewarm_samples: raw.rewarm_samples,
        config: ConfigRecord::new(&m.config),
        warm_up: WarmUpRecord {
            time_ns: raw.warm_up.time.0,
            samples: raw.warm_up.samples,
            steady: raw.warm_up.steady,
            final_cv: raw.warm_up.final_cv.and_then(finite),
        },
        stop: stop_kind(raw.stop),
        setup_time_ns: raw.setup_time.0,
        total_time_ns: raw.total_time.0,
        estimate: estimate(m),
        summary: summary(&m.summary),
        outliers: OutliersRecord {
            fences: FencesRecord {
                q1_ns: fences.q1,
                q3_ns: fences.q3,
                lower_outer_ns: fences.lower_outer,
                lower_inner_ns: fences.lower_inner,
                upper_inner_ns: fences.upper_inner,
                upper_outer_ns: fences.upper_outer,
            },
            low_severe: m.outliers.low_severe,
            low_mild: m.outliers.low_mild,
            high_mild: m.outliers.high_mild,
            high_severe: m.outliers.high_severe,
            beyond_3_sigma: m.outliers.beyond_3_sigma,
        },
        filtered: m.filtered.as_ref().map(summary),
        within_slice_spread: m.within_slice_spread,
        drift: m.drift.and_then(finite),
        rerun_half_width: m.rerun.and_then(finite),
        interleaved_ns: m.timed_again().map(|t| t.0),
        notes: m.notes.iter().map(ToString::to_string).collect(),
        note_kinds: m.notes.iter().map(|note| note.kind().to_string()).collect(),
        counters: m
            .extras
            .counters
            .iter()
            .filter_map(|(event, _)| {
                let value = m.extras.per_iteration(*event).and_then(finite)?;
                Some((event.name().to_string(), value))
            })
            .collect(),
        allocations: m.allocations().map(|a| AllocationsRecord {
            allocations: a.allocations,
            deallocations: a.deallocations,
            reallocations: a.reallocations,
            bytes_allocated: a.bytes_allocated,
        }),
        cpu: m.extras.cpu.map(|(cpu, wall)| CpuRecord {
            user_ns: cpu.user.0,
            system_ns: cpu.system.0,
            wall_ns: wall.0,
        }),
        cpus: m.extras.cpus.clone(),
        forks: m.forks.as_ref().map(|f| ForksRecord {
            process_estimates_ns: f.process_estimates.clone(),
            between_process_spread: finite(f.between).unwrap_or(0.0),
            within_process_spread: finite(f.within).unwrap_or(0.0),
            p_value: f.p_value.and_then(finite),
            process_overheads: f
                .process_overheads
                .iter()
                .map(|o| OverheadRecord {
                    subtracted: true,
                    per_sample_ns: o.per_sample.0,
                    per_iter_ns: o.per_iter.0,
                    per_iter_uncertainty_ns: Some(o.per_iter_uncertainty.0),
                    measurement: None,
                })
                .collect(),
            process_sample_starts: f.process_sample_starts.clone(),
        }),
        self_timed: m.extras.self_timed,
        slices: (m.extras.slices.iter())
            .map(|s| SliceRecord {
                first_sample: s.first_sample,
                samples: s.samples,
                probe_ns: s.probe,
                pause_ns: s.pause.map(|p| p.0),
                faults: s.faults,
            })
            .collect(),
        preempted: m.extras.preempted.clone(),
        rounds: (m.extras.rounds.iter().flatten())
            .map(|round| round.as_ref().map(|r| (r.start, r.end)))
            .collect(),
    }
}

fn summary(s: &Summary) -> SummaryRecord {
    let interval = |ci: Option<Interval>| {
        ci.map(|ci| IntervalRecord {
            low_ns: ci.lower,
            high_ns: ci.upper,
            confidence: ci.confidence,
        })
    };
    SummaryRecord {
        n: s.n,
        min_ns: s.min,
        max_ns: s.max,
        mean_ns: s.mean,
        median_ns: s.median,
        std_dev_ns: s.std_dev,
        coefficient_of_variation: finite(s.coefficient_of_variation),
        mad_ns: s.median_absolute_deviation,
        percentiles: PercentilesRecord {
            p50_ns: s.percentiles.p50,
            p90_ns: s.percentiles.p90,
            p95_ns: s.percentiles.p95,
            p99_ns: s.percentiles.p99,
            p99_9_ns: s.percentiles.p99_9,
        },
        mean_ci: interval(s.mean_interval),
        median_ci: interval(s.median_interval),
    }
}

/// A stop as the document names it (the worker protocol names it so too).
pub(crate) fn stop_kind(stop: StopReason) -> StopKind {
    match stop {
        StopReason::Precise => StopKind::Precise,
        StopReason::TimeBudget => StopKind::TimeBudget,
        StopReason::SampleCap => StopKind::SampleCap,
        StopReason::MaxTime => StopKind::MaxTime,
        StopReason::Abandoned => StopKind::Abandoned,
        StopReason::ProcessCap => StopKind::ProcessCap,
    }
}

/// JSON has no NaN or infinity: an undefined ratio is written as null.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}
