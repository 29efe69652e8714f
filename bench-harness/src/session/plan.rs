//! Plan: the clock, the run's shared figures, and one job per benchmark to
//! measure (plus the harness's hidden jobs), each with its settings resolved.

use std::sync::{Arc, Mutex};

use bench_runtime::{Clock, Nanos, SamplerConfig, StopRule, TimerPrecision};

use super::rows::{result_of, Selection};
use crate::environment::Environment;
use crate::registry::{self, BenchEntry};
use crate::results::{BenchResult, Outcome, RunInfo};
use crate::run;
use crate::settings::Settings;

/// Interleaved runs spread `--measure-time` over at least this many rounds:
/// more, shorter slices average the machine's speed changes better (60
/// rounds halved the worst calibration-ratio error of 10 on the development
/// machine; see docs/ARCHITECTURE.md).
const MIN_ROUNDS: usize = 60;

/// What the run will measure, and how.
pub(super) struct Plan {
    /// The run's shared figures; the loop overhead is provisional until its
    /// job is measured.
    pub(super) info: RunInfo,
    /// One per selected benchmark: ignored ones settled now, the others
    /// `None` until measured.
    pub(super) rows: Vec<Option<BenchResult>>,
    /// The user's benchmarks first (job `j` fills row `job_rows[j]`), then
    /// the hidden jobs.
    pub(super) jobs: Vec<run::Job>,
    pub(super) job_rows: Vec<usize>,
    /// The harness's reference kernel, measured when a baseline is saved or
    /// compared: the machine's own change of speed between two runs.
    pub(super) reference_job: Option<usize>,
    /// The empty loop, measured in the same schedule as everything it is
    /// subtracted from: a probe at start-up inherits whatever state the
    /// machine was in at that moment (10% apart between two runs here).
    pub(super) overhead_job: usize,
    /// The scheduler's shared settings.
    pub(super) schedule: run::Plan,
    /// Groups measured as in-run A/B comparisons, in name order.
    pub(super) paired_groups: Vec<&'static str>,
}

/// `--pin CPU` must name a CPU this process may run on.
pub(super) fn check_pin(pin: Option<usize>) -> Result<(), String> {
    let Some(cpu) = pin else { return Ok(()) };
    let allowed = bench_runtime::affinity::allowed_cpus().unwrap_or_default();
    if allowed.contains(&cpu) {
        return Ok(());
    }
    let list: Vec<String> = allowed.iter().map(usize::to_string).collect();
    Err(format!(
        "--pin {cpu}: this process may run on CPUs {} only; pick one of them",
        list.join(", ")
    ))
}

/// `--cold` walks twice the last-level cache (64 MiB where sysfs does not
/// say), so whatever it held is gone; at most 256 MiB, since a virtual
/// machine may report the host's whole cache (480 MiB here).
pub(super) fn cold_buffer_bytes(environment: &Environment) -> usize {
    environment
        .last_level_cache_bytes
        .map_or(64 << 20, |bytes| (2 * bytes).min(256 << 20) as usize)
}

/// The plan for `selected` under the command line's `settings`; `compares`
/// when a baseline is saved or compared (the machine reference is then
/// measured too).
pub(super) fn plan(
    settings: &Settings,
    selected: &Selection,
    cold_bytes: Option<usize>,
    compares: bool,
    forks: Option<usize>,
) -> Result<Plan, String> {
    let clock = Clock::select(settings.timer_or_default()).map_err(|e| e.to_string())?;
    let timer = TimerPrecision::measure(&clock);
    let floor = sample_floor(timer);
    let info = RunInfo {
        harness_version: env!("CARGO_PKG_VERSION"),
        clock_name: clock.name(),
        clock_hz: clock.frequency_hz(),
        precision: timer,
        sample_floor: floor,
        // Provisional, for the precision rule while measuring; replaced by
        // the interleaved measurement of the empty loop.
        overhead: run::measure_overhead(clock, floor),
        schedule: settings.schedule_or_default(),
        target_precision: settings.precision_or_default(),
        seed: settings.seed.unwrap_or_else(|| fastrand::u64(..)),
        partial: false,
        forks,
    };

    // Ignored benchmarks are settled at once; the others become jobs.
    let mut rows = Vec::with_capacity(selected.len());
    let mut jobs = Vec::new();
    let mut job_rows = Vec::new();
    let paired_groups = paired_groups(selected);
    for s in selected {
        if s.ignored {
            rows.push(Some(result_of(s, Outcome::Ignored)));
            continue;
        }
        job_rows.push(rows.len());
        rows.push(None);
        let paired_group = s
            .bench
            .entry
            .options
            .group
            .and_then(|g| paired_groups.iter().position(|p| *p == g));
        let mut job = job(s.bench.clone(), settings, floor);
        if paired_group.is_some() {
            // One sample per member per round: samples of 1 ms make the
            // hand-over between members a negligible share, and a fixed
            // budget keeps the members' rounds aligned.
            job.config.min_sample_time = job.config.min_sample_time.max(Nanos(1_000_000.0));
            job.config.stop_rule = StopRule::TimeBudget;
            job.paired_group = paired_group;
        }
        jobs.push(job);
    }
    let mut hidden_job = |entry: &'static BenchEntry| {
        jobs.push(run::Job {
            counters: false,
            ..job(entry.plain(), settings, floor)
        });
        jobs.len() - 1
    };
    let reference_job = compares.then(|| hidden_job(&registry::MACHINE_REFERENCE));
    let overhead_job = hidden_job(&registry::LOOP_OVERHEAD);
    let schedule = run::Plan {
        schedule: info.schedule,
        clock,
        slice: jobs
            .iter()
            .map(|job| job.config.measure_time)
            .fold(Nanos::ZERO, Nanos::max)
            / MIN_ROUNDS as f64,
        seed: info.seed,
        overhead: info.overhead,
        pin: settings.pin,
        cold: cold_bytes.map(|bytes| Arc::new(Mutex::new(vec![1u8; bytes]))),
    };
    Ok(Plan {
        info,
        rows,
        jobs,
        job_rows,
        reference_job,
        overhead_job,
        schedule,
        paired_groups,
    })
}

/// One benchmark's job: its attribute's settings overridden by the command
/// line's, resolved.
fn job(bench: registry::Benchmark, command_line: &Settings, floor: Nanos) -> run::Job {
    let settings = bench.entry.options.settings.overridden_by(*command_line);
    run::Job {
        config: settings.sampler_config(floor),
        paired_group: None,
        counters: settings.counters_or_default(),
        bench,
    }
}

/// No sample is shorter than the timer allows, nor than 10 µs: below that
/// the harness's own work between samples is a large share of the budget.
fn sample_floor(precision: TimerPrecision) -> Nanos {
    SamplerConfig::sample_floor(precision).max(SamplerConfig::default().min_sample_time)
}

/// Groups measured as in-run A/B comparisons: those with a `baseline`
/// member among the benchmarks that run, in name order.
fn paired_groups(selected: &Selection) -> Vec<&'static str> {
    let mut groups: Vec<&'static str> = selected
        .iter()
        .filter(|s| !s.ignored && s.bench.entry.options.baseline)
        .filter_map(|s| s.bench.entry.options.group)
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups
}
