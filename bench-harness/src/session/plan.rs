//! Plan: the clock, the run's shared figures, and one job per benchmark to
//! measure (plus the harness's hidden jobs), each with its settings resolved.

use std::sync::{Arc, Mutex};

use bench_runtime::{Clock, Nanos, SamplerConfig, StopRule, TimerPrecision};

use super::rows::{result_of, Selection};
use crate::analysis::Body;
use crate::environment::Environment;
use crate::registry::{self, BenchEntry};
use crate::results::{BenchResult, Outcome, RunInfo};
use crate::run;
use crate::settings::Settings;

/// Interleaved runs spread `--measure-time` over at least this many rounds:
/// more, shorter slices average the machine's speed changes better (60
/// rounds halved the worst calibration-ratio error of 10 on the development
/// machine; see docs/ARCHITECTURE.md).
pub(super) const MIN_ROUNDS: usize = 60;

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
    /// The rows their A/B units pair round by round, whatever the schedule
    /// (a member at an argument its baseline does not run at is not one).
    pub(super) paired_rows: Vec<String>,
    /// Per A/B group member, (its job, its solo probe's job): the same
    /// benchmark measured alone for a short budget, so that a member the
    /// group changes (caches, the allocator, outputs kept alive across a
    /// round) is noticed.
    pub(super) solo_probes: Vec<(usize, usize)>,
}

/// The members of an A/B group that run at one argument (all of them, in a
/// group without `args`): measured round by round together and compared
/// with the group's baseline at that argument. Job `paired_group` numbers
/// index the plan's list of these.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PairedUnit {
    group: &'static str,
    /// The argument's name (`Arg::name`); `None` without `args`.
    arg: Option<String>,
}

impl PairedUnit {
    /// The unit `bench` belongs to if its group is paired: its group at its
    /// argument.
    fn of(bench: &registry::Benchmark) -> Option<PairedUnit> {
        Some(PairedUnit {
            group: bench.entry.options.group?,
            arg: bench.arg.as_ref().map(|arg| arg.name.clone()),
        })
    }

    /// `bench`'s unit among `units`, by its place in the list (a job's
    /// `paired_group`).
    fn index(units: &[PairedUnit], bench: &registry::Benchmark) -> Option<usize> {
        let unit = PairedUnit::of(bench)?;
        units.iter().position(|u| *u == unit)
    }
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

/// Where a plan's jobs are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Processes {
    /// All of them in this process (`--forks 0`).
    Here,
    /// The user's benchmarks in this many worker processes; here only the
    /// machine reference and the loop beside it.
    Workers(usize),
    /// This process is a worker, one of `share` processes that share each
    /// benchmark's budgets; it sends back its benchmarks' measurements and
    /// nothing else.
    Worker { share: usize },
}

impl Processes {
    /// What `--forks N` asks for.
    pub(super) fn forks(n: usize) -> Processes {
        if n == 0 {
            Processes::Here
        } else {
            Processes::Workers(n)
        }
    }
}

/// The plan for `selected` under the command line's `settings`;
/// `reference`: whether the machine reference kernel is measured too, and
/// for what ([`Reference`]); `processes`: where the jobs are measured. The
/// A/B members' solo probes are planned only where they are measured and
/// read: in a run of one process.
pub(super) fn plan(
    settings: &Settings,
    selected: &Selection,
    cold_bytes: Option<usize>,
    reference: Reference,
    processes: Processes,
) -> Result<Plan, String> {
    let share = match processes {
        Processes::Worker { share } => share.max(1),
        _ => 1,
    };
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
        cold: settings.cold_or_default(),
        target_precision: settings.precision_or_default(),
        seed: settings.seed.unwrap_or_else(|| fastrand::u64(..)),
        partial: false,
        forks: match processes {
            Processes::Workers(n) => Some(n),
            _ => None,
        },
    };

    // Ignored benchmarks are settled at once; the others become jobs.
    let mut rows = Vec::with_capacity(selected.len());
    let mut jobs = Vec::new();
    let mut job_rows = Vec::new();
    let paired_units = paired_units(selected);
    let mut paired_jobs = Vec::new();
    let mut paired_rows = Vec::new();
    for s in selected {
        if s.ignored {
            rows.push(Some(result_of(s, Outcome::Ignored)));
            continue;
        }
        job_rows.push(rows.len());
        rows.push(None);
        // A member at an argument the baseline does not run at is in no
        // unit: it is measured alone, and reported unpaired.
        let paired_group = PairedUnit::index(&paired_units, &s.bench);
        let mut job = job(s.bench.clone(), settings, floor);
        if paired_group.is_some() {
            // One slice per member per round (`run::GROUP_ROUNDS` of them),
            // paired by their medians: a fixed budget keeps the members'
            // rounds aligned.
            job.config.stop_rule = StopRule::TimeBudget;
            job.paired_group = paired_group;
            paired_jobs.push(jobs.len());
            paired_rows.push(s.name.clone());
        }
        jobs.push(job);
    }
    // After the user's jobs; measured and read only in a run of one
    // process (a parent of workers measures none of the user's jobs, and a
    // worker sends back only its benchmarks).
    if processes != Processes::Here {
        paired_jobs.clear();
    }
    let solo_probes = paired_jobs
        .into_iter()
        .map(|member| {
            let mut probe = jobs[member].clone();
            probe.paired_group = None;
            probe.config = solo_probe_config(&probe.config, floor);
            jobs.push(probe);
            (member, jobs.len() - 1)
        })
        .collect();
    let mut hidden_job = |entry: &'static BenchEntry| {
        jobs.push(run::Job {
            counters: false,
            body: Body::Stateless,
            ..job(entry.plain(), settings, floor)
        });
        jobs.len() - 1
    };
    let reference_job =
        (reference != Reference::Off).then(|| hidden_job(&registry::MACHINE_REFERENCE));
    let overhead_job = hidden_job(&registry::LOOP_OVERHEAD);
    jobs[overhead_job].publishes_overhead = true;
    if let (Some(job), Reference::ForHistory) = (reference_job, reference) {
        lean(&mut jobs[job].config);
        // Measured in processes, the benchmarks take their loop's cost
        // from their own; here the loop serves the kernel alone.
        if let Processes::Workers(_) = processes {
            lean(&mut jobs[overhead_job].config);
        }
    }
    let one_process = jobs
        .iter()
        .map(|job| job.config.measure_time)
        .fold(Nanos::ZERO, Nanos::max)
        / MIN_ROUNDS as f64;
    // A worker of several processes: each benchmark's share of the budgets,
    // and slices shortened with it, so that each process still takes its
    // measuring time in 60 rounds. In slices as long as one process's, a
    // process had 1/N of the blocks, and the fast regime kept few of them:
    // the example suite ran 1.24x one process's wall time, against
    // 1.13-1.17x, with fewer rows short of their target (ARCHITECTURE).
    // No shorter than `MIN_SHARED_SLICE`, unless one process's already was.
    if share > 1 {
        for job in &mut jobs {
            share_budget(&mut job.config, share);
        }
    }
    let slice = Nanos((one_process.0 / share as f64).max(one_process.0.min(MIN_SHARED_SLICE.0)));
    let schedule = run::Plan {
        schedule: info.schedule,
        clock,
        slice,
        seed: info.seed,
        overhead: Arc::new(Mutex::new(info.overhead)),
        pin: settings.pin,
        cold: cold_bytes.map(|bytes| Arc::new(Mutex::new(vec![1u8; bytes]))),
    };
    let mut paired_groups: Vec<&'static str> = paired_units.iter().map(|u| u.group).collect();
    paired_groups.dedup();
    Ok(Plan {
        info,
        rows,
        jobs,
        job_rows,
        reference_job,
        overhead_job,
        schedule,
        paired_groups,
        paired_rows,
        solo_probes,
    })
}

/// A solo probe's settings: the member's, measured alone (samples of the
/// usual size) for a third of its measuring time, no precision target.
fn solo_probe_config(member: &SamplerConfig, floor: Nanos) -> SamplerConfig {
    let measure_time = member.measure_time / 3.0;
    SamplerConfig {
        measure_time,
        stop_rule: StopRule::TimeBudget,
        max_time: Nanos(
            member
                .max_time
                .0
                .min((member.warm_up_time + measure_time * 3.0).0),
        ),
        min_sample_time: floor,
        ..member.clone()
    }
}

/// One benchmark's job: its file's, group's and attribute's settings
/// overridden by the command line's, resolved.
pub(super) fn job(bench: registry::Benchmark, command_line: &Settings, floor: Nanos) -> run::Job {
    let settings = bench.entry.settings().overridden_by(*command_line);
    run::Job {
        config: settings.sampler_config(floor),
        paired_group: None,
        counters: settings.counters_or_default(),
        publishes_overhead: false,
        body: Body::Program,
        bench,
    }
}

/// Why the machine reference kernel is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reference {
    Off,
    /// For the history's drift line: its run-to-run spread was 0.19-0.53%
    /// here, which a short measurement resolves ([`lean`]).
    ForHistory,
    /// For a baseline: every verdict's threshold widens by its change, so
    /// it gets the benchmarks' budgets.
    ForBaseline,
}

/// The budgets of the reference kernel measured for the history only (and
/// of the loop measured beside it in this process): at the command line's
/// budgets they added 1.1 s (median of 5) to a run of one benchmark that
/// took 1.7 s, being measured after the processes.
fn lean(config: &mut SamplerConfig) {
    let at_most = |budget: &mut Nanos, secs: f64| *budget = Nanos(budget.0.min(secs * 1e9));
    at_most(&mut config.warm_up_time, LEAN_SECS / 2.0);
    at_most(&mut config.measure_time, LEAN_SECS);
    at_most(&mut config.max_time, 3.0 * LEAN_SECS);
}

/// The reference kernel's measuring time when it is for the history.
const LEAN_SECS: f64 = 0.1;

/// The shortest slice a worker of several processes is given: a sample
/// shorter than the sampler's re-warm limit (1 ms) is discarded after each
/// pause, and the notes that read the spread within a slice need 5
/// samples in it. At 100 processes slices would be 50 µs, one discarded
/// sample and one kept, with the speed probe's 20 µs around them.
const MIN_SHARED_SLICE: Nanos = Nanos(1e6);

/// One of `share` processes' part of `config`: the measuring time and the
/// hard bound divided between them, the precision target widened so that
/// the processes' figures pooled reach it (√share: the pooled interval
/// narrows as the square root of the processes, when they agree). The
/// warm-up is each process's own.
pub(super) fn share_budget(config: &mut SamplerConfig, share: usize) {
    let share = share as f64;
    config.measure_time = config.measure_time / share;
    config.max_time = config.max_time / share;
    if let StopRule::Precision { target } = &mut config.stop_rule {
        *target *= share.sqrt();
    }
}

/// No sample is shorter than the timer allows, nor than 10 µs: below that
/// the harness's own work between samples is a large share of the budget.
pub(super) fn sample_floor(precision: TimerPrecision) -> Nanos {
    SamplerConfig::sample_floor(precision).max(SamplerConfig::default().min_sample_time)
}

/// The A/B units: for each group with a `baseline` member among the
/// benchmarks that run, one per argument a baseline member runs at (one in
/// a group without `args`), in name order of the groups, then in the
/// arguments' order. Pairing by argument compares each member's `/N` with
/// the baseline's `/N`, never with another size.
fn paired_units(selected: &Selection) -> Vec<PairedUnit> {
    let mut units: Vec<PairedUnit> = Vec::new();
    let baselines = selected
        .iter()
        .filter(|s| !s.ignored && s.bench.entry.options.baseline);
    for unit in baselines.filter_map(|s| PairedUnit::of(&s.bench)) {
        // A unit needs a member besides its baseline: a baseline selected
        // alone (`--exact group::baseline`) is measured as any benchmark.
        let members = selected
            .iter()
            .filter(|s| !s.ignored && PairedUnit::of(&s.bench).as_ref() == Some(&unit))
            .count();
        if members >= 2 && !units.contains(&unit) {
            units.push(unit);
        }
    }
    // Stable: the arguments stay in the selection's (natural) order.
    units.sort_by_key(|unit| unit.group);
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{Arg, BenchFn, BenchOptions, Benchmark};
    use crate::select::Selected;

    fn body(_: &mut bench_runtime::Bencher<'_>) {}

    const fn member(name: &'static str, group: &'static str, baseline: bool) -> BenchEntry {
        BenchEntry {
            name,
            type_name: None,
            type_index: 0,
            module_path: "fixture",
            file: file!(),
            line: line!(),
            column: column!(),
            options: BenchOptions {
                group: Some(group),
                baseline,
                ..BenchOptions::DEFAULT
            },
            run: BenchFn::Plain(body),
        }
    }

    static ONCE: BenchEntry = member("once", "by_size", true);
    static TWICE: BenchEntry = member("twice", "by_size", false);
    static SORT: BenchEntry = member("sort", "sort", true);
    static SORT_UNSTABLE: BenchEntry = member("sort_unstable", "sort", false);

    fn selected(entry: &'static BenchEntry, arg: Option<&str>) -> Selected<Benchmark> {
        let bench = Benchmark {
            entry,
            arg: arg.map(|name| Arg {
                index: 0,
                name: name.to_string(),
            }),
            args_failed: None,
        };
        Selected {
            name: bench.full_name(),
            bench,
            ignored: false,
        }
    }

    fn unit(group: &'static str, arg: Option<&str>) -> PairedUnit {
        PairedUnit {
            group,
            arg: arg.map(str::to_string),
        }
    }

    #[test]
    fn a_group_with_args_has_a_unit_per_argument_of_its_baseline() {
        let selection = [
            selected(&SORT, None),
            selected(&SORT_UNSTABLE, None),
            selected(&ONCE, Some("16")),
            selected(&ONCE, Some("1024")),
            selected(&TWICE, Some("16")),
            selected(&TWICE, Some("1024")),
            selected(&TWICE, Some("4096")),
        ];
        let units = paired_units(&selection);
        assert_eq!(
            units,
            [
                unit("by_size", Some("16")),
                unit("by_size", Some("1024")),
                unit("sort", None),
            ]
        );
        let indices: Vec<Option<usize>> = selection
            .iter()
            .map(|s| PairedUnit::index(&units, &s.bench))
            .collect();
        // twice/4096 has no once/4096 to pair with.
        assert_eq!(
            indices,
            [Some(2), Some(2), Some(0), Some(1), Some(0), Some(1), None]
        );
    }

    #[test]
    fn a_baseline_selected_without_its_members_is_not_paired() {
        let selection = [selected(&ONCE, Some("16")), selected(&TWICE, Some("1024"))];
        assert!(paired_units(&selection).is_empty());
        let selection = [selected(&SORT, None)];
        assert!(paired_units(&selection).is_empty());
    }

    /// For the history alone the kernel, and in processes the loop beside
    /// it, are measured briefly; for a baseline at the run's budgets; with
    /// neither not at all. The loop the benchmarks share in this process
    /// keeps its budget.
    #[test]
    fn the_reference_kernel_is_measured_briefly_for_the_history_alone() {
        let selection = [selected(&SORT, None)];
        let measure = |reference, forks| {
            let processes = Processes::forks(forks);
            let plan = plan(&Settings::NONE, &selection, None, reference, processes).unwrap();
            let secs = |job: usize| plan.jobs[job].config.measure_time.0 / 1e9;
            (plan.reference_job.map(secs), secs(plan.overhead_job))
        };
        let full = SamplerConfig::default().measure_time.0 / 1e9;
        assert!(full > LEAN_SECS);
        assert_eq!(
            measure(Reference::ForHistory, 3),
            (Some(LEAN_SECS), LEAN_SECS)
        );
        assert_eq!(measure(Reference::ForHistory, 0), (Some(LEAN_SECS), full));
        assert_eq!(measure(Reference::ForBaseline, 3), (Some(full), full));
        assert_eq!(measure(Reference::Off, 3), (None, full));
    }

    #[test]
    fn each_of_several_processes_takes_its_share_in_as_many_rounds() {
        let selection = [selected(&ONCE, None)];
        let rounds = |share| {
            let plan = plan(
                &Settings::NONE,
                &selection,
                None,
                Reference::Off,
                Processes::Worker { share },
            );
            let plan = plan.unwrap();
            let measure = plan.jobs[0].config.measure_time;
            (measure.0 / 1e9, measure.0 / plan.schedule.slice.0)
        };
        let (one, in_one) = rounds(1);
        let (third, in_third) = rounds(3);
        assert!((third * 3.0 - one).abs() < 1e-9, "{third} s of {one} s");
        assert!((in_one - MIN_ROUNDS as f64).abs() < 1e-9, "{in_one} rounds");
        assert!((in_third - in_one).abs() < 1e-9, "{in_third} rounds");
        // A hundred processes' slices would be 50 µs: they stay at 1 ms.
        let (hundredth, in_hundredth) = rounds(100);
        let slice = hundredth / in_hundredth;
        assert!(
            (slice - MIN_SHARED_SLICE.0 / 1e9).abs() < 1e-12,
            "{slice} s"
        );
    }

    /// A worker measures its benchmarks and the loop, not the members'
    /// solo probes, and neither does a parent of workers; the hidden jobs
    /// keep what they measure.
    #[test]
    fn only_a_run_of_one_process_plans_solo_probes() {
        let selection = [selected(&SORT, None), selected(&SORT_UNSTABLE, None)];
        for reference in [Reference::Off, Reference::ForBaseline] {
            let here =
                |processes| plan(&Settings::NONE, &selection, None, reference, processes).unwrap();
            let jobs = here(Processes::Here).jobs.len();
            assert_eq!(here(Processes::Here).solo_probes.len(), 2);
            for processes in [Processes::Worker { share: 3 }, Processes::Workers(3)] {
                let plan = here(processes);
                assert_eq!(plan.jobs.len(), jobs - 2);
                assert!(plan.solo_probes.is_empty());
                let name = |job: usize| plan.jobs[job].bench.entry.name;
                assert_eq!(name(0), "sort");
                assert_eq!(name(1), "sort_unstable");
                assert!(plan.jobs[plan.overhead_job].publishes_overhead);
                // The harness's own kernels are read as stateless, the
                // user's benchmarks as programs.
                let stateless: Vec<usize> = (0..plan.jobs.len())
                    .filter(|&job| plan.jobs[job].body == Body::Stateless)
                    .collect();
                let hidden: Vec<usize> = plan
                    .reference_job
                    .into_iter()
                    .chain([plan.overhead_job])
                    .collect();
                assert_eq!(stateless, hidden);
                assert_eq!(name(plan.overhead_job), registry::LOOP_OVERHEAD.name);
                assert_eq!(
                    plan.reference_job.map(name),
                    (reference != Reference::Off).then_some(registry::MACHINE_REFERENCE.name)
                );
                assert_eq!(plan.overhead_job, plan.jobs.len() - 1);
            }
        }
    }

    #[test]
    fn a_group_whose_baseline_is_ignored_is_not_paired() {
        let mut baseline = selected(&ONCE, Some("16"));
        baseline.ignored = true;
        let selection = [baseline, selected(&TWICE, Some("16"))];
        assert!(paired_units(&selection).is_empty());
    }
}
