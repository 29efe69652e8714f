//! One history record: a benchmark's headline in one run, with what is
//! needed to place it in time (commit, timestamp) and to know which runs
//! are comparable (machine, configuration).

use std::time::{SystemTime, UNIX_EPOCH};

use bench_runtime::Throughput;

use crate::analysis::Headline;
use crate::environment::Environment;
use crate::json::json_struct;
use crate::results::{BenchResult, Measured};

/// The record format's version: a reader skips records of a later major
/// version. Fields added later are optional, and unknown fields are
/// ignored, so adding one is no new version.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// One benchmark in one run: a line of the history file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record {
    /// [`FORMAT_VERSION`] of the writer.
    pub(crate) v: u32,
    /// The run's id, shared by the run's records: `UNIXNANOS-PID` in hex.
    pub(crate) run: String,
    /// When the run started, UTC, RFC 3339 to the second.
    pub(crate) timestamp: String,
    /// `git rev-parse HEAD` of the benched crate; absent outside git.
    pub(crate) commit: Option<String>,
    /// Tracked files differed from `commit`.
    pub(crate) dirty: Option<bool>,
    /// The hash of the machine code the benchmark runs (16 hex digits,
    /// see `history::code`); absent where it cannot be read.
    pub(crate) code: Option<String>,
    /// The machine's fingerprint ([`fingerprint`]): runs of one series share it.
    pub(crate) machine: String,
    /// How it was built and measured, where that changes the figures:
    /// `PROFILE/opt-level` and ` cold` under `--cold`.
    pub(crate) config: String,
    /// The bench-harness version that measured.
    pub(crate) harness: String,
    /// The benchmark's full name, as `--exact` takes it.
    pub(crate) name: String,
    /// The headline, nanoseconds per iteration.
    pub(crate) time_ns: f64,
    /// The headline's 95% interval; absent with a single slice.
    pub(crate) lower_ns: Option<f64>,
    pub(crate) upper_ns: Option<f64>,
    /// The work per iteration the benchmark declared, and its rate.
    pub(crate) throughput: Option<RecordedThroughput>,
    /// The machine reference kernel's headline in the same run, when the
    /// run measured it: every run that writes the history does (older
    /// records have it only from runs with `--baseline` or
    /// `--save-baseline`).
    pub(crate) reference_ns: Option<f64>,
}

/// A benchmark's declared work per iteration and the rate at the headline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RecordedThroughput {
    /// `bytes` or `items`.
    pub(crate) unit: String,
    pub(crate) per_iter: u64,
    /// `per_iter` per second at the headline time.
    pub(crate) per_second: f64,
}

json_struct!(Record {
    v,
    run,
    timestamp,
    commit: skip,
    dirty: skip,
    code: skip,
    machine,
    config,
    harness,
    name,
    time_ns,
    lower_ns: skip,
    upper_ns: skip,
    throughput: skip,
    reference_ns: skip,
});
json_struct!(RecordedThroughput {
    unit,
    per_iter,
    per_second
});

/// The longest time per iteration a record may hold: about eleven days.
/// Beyond it a figure is not a measurement but a damaged or forged line.
const MAX_TIME_NS: f64 = 1e15;

impl Record {
    /// Whether the record's values are ones a run can write: finite times
    /// within [`MAX_TIME_NS`], a commit and a machine fingerprint of hex
    /// digits. A line that fails is skipped like a cut one: its text never
    /// reaches a terminal or a chart.
    pub(crate) fn is_plausible(&self) -> bool {
        let time = |t: f64| t.is_finite() && t.abs() <= MAX_TIME_NS;
        let hex =
            |s: &str| !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_hexdigit());
        time(self.time_ns)
            && self.lower_ns.is_none_or(time)
            && self.upper_ns.is_none_or(time)
            && self.reference_ns.is_none_or(time)
            && self.commit.as_deref().is_none_or(hex)
            && self.code.as_deref().is_none_or(hex)
            && hex(&self.machine)
    }

    /// The interval's half-width relative to the headline (its larger
    /// side), as the run's ± read; 0 for a bound or without an interval.
    pub(crate) fn relative_half_width(&self) -> f64 {
        self.headline().relative_half_width().unwrap_or(0.0)
    }

    /// Whether the run's interval reached zero, or spanned the time
    /// itself: the report printed it as a bound (`<405.7 µs`), and its
    /// time is no figure of the benchmark's level.
    pub(crate) fn is_bound(&self) -> bool {
        self.headline().is_bound()
    }

    /// The run's headline as its table read.
    pub(crate) fn headline(&self) -> Headline {
        Headline::new(self.time_ns, self.lower_ns.zip(self.upper_ns))
    }

    /// Runs whose records share this key are one series: same machine,
    /// same build and measuring configuration.
    pub(crate) fn series_key(&self) -> (&str, &str) {
        (&self.machine, &self.config)
    }
}

/// What a run's records are made of.
pub(crate) struct RunRecords<'a> {
    pub(crate) environment: &'a Environment,
    pub(crate) results: &'a [BenchResult],
    pub(crate) machine_reference: Option<&'a Measured>,
    /// `--cold`: caches evicted before each sample.
    pub(crate) cold: bool,
    /// `--schedule sequential`: every row measured in one stretch but those
    /// of `paired`.
    pub(crate) sequential: bool,
    /// The rows the run's A/B units paired round by round, whatever the
    /// schedule.
    pub(crate) paired: &'a [String],
    /// Each benchmark's code hash, by full name (`history::code_identities`).
    pub(crate) codes: &'a [(String, String)],
}

/// One record per measured benchmark of the run, in report order.
pub(crate) fn records(run: &RunRecords<'_>) -> Vec<Record> {
    let id = run_id();
    let (machine, interleaved) = series(run.environment, run.cold, false);
    let (_, stretch) = series(run.environment, run.cold, true);
    let environment = run.environment;
    let reference_ns = run
        .machine_reference
        .map(Measured::headline)
        .filter(|t| t.is_finite());
    run.results
        .iter()
        .filter_map(|result| {
            let measured = result.measured()?;
            let time_ns = measured.headline();
            if !time_ns.is_finite() {
                return None;
            }
            let interval = measured.estimate.interval;
            let throughput = result.rate().map(|(throughput, per_second)| {
                let (unit, per_iter) = match throughput {
                    Throughput::Bytes(n) => ("bytes", n),
                    Throughput::Items(n) => ("items", n),
                };
                RecordedThroughput {
                    unit: unit.to_string(),
                    per_iter,
                    per_second,
                }
            });
            Some(Record {
                v: FORMAT_VERSION,
                run: id.clone(),
                timestamp: environment.timestamp.clone(),
                commit: environment.git_commit.clone(),
                dirty: environment.git_dirty,
                code: run
                    .codes
                    .iter()
                    .find(|(name, _)| *name == result.name)
                    .map(|(_, code)| code.clone()),
                machine: machine.clone(),
                config: if one_stretch(run.sequential, run.paired.contains(&result.name), measured)
                {
                    stretch.clone()
                } else {
                    interleaved.clone()
                },
                harness: environment.harness_version.clone(),
                name: result.name.clone(),
                time_ns,
                lower_ns: interval.map(|i| i.lower).filter(|x| x.is_finite()),
                upper_ns: interval.map(|i| i.upper).filter(|x| x.is_finite()),
                throughput,
                reference_ns,
            })
        })
        .collect()
}

/// Whether a row was measured in one stretch: under the sequential
/// schedule unless an A/B unit `paired` it (round by round under either),
/// or in the warm pass after its `cold_after_pause` note.
pub(crate) fn one_stretch(sequential: bool, paired: bool, measured: &Measured) -> bool {
    (sequential && !paired) || measured.timed_again().is_some()
}

/// `config` without the schedule's word: the run's machine reference
/// kernel, which the drift line follows, is compute-bound and one job of
/// the run's own schedule, so its series spans both.
pub(crate) fn without_schedule(config: &str) -> String {
    config.replace(" one-stretch", "")
}

/// The series a row of a run on `environment` belongs to: its machine's
/// [`fingerprint`] and its configuration ([`config`]), as
/// [`Record::series_key`] reads them back. `one_stretch`: the row was
/// measured in one stretch (`--schedule sequential`, or the warm pass).
pub(crate) fn series(environment: &Environment, cold: bool, one_stretch: bool) -> (String, String) {
    let one_arena = bench_runtime::heap::one_arena();
    (
        fingerprint(environment),
        config(&environment.build, cold, one_stretch, one_arena),
    )
}

/// How a row was built and measured where that changes the figures:
/// `PROFILE/opt-level`, then ` cold` under `--cold`, ` one-stretch` when it
/// was measured in one stretch rather than interleaved (a pointer chase
/// read 1.2-1.5x interleaved what it read in one stretch), and ` one-arena`
/// when the harness itself put every thread on glibc's main arena
/// (`bench_runtime::heap`; not under the user's own arena setting or
/// another global allocator): allocation-heavy rows read otherwise on
/// threads' own arenas, as in runs from before that choice, so such runs
/// are a series of their own.
fn config(
    build: &crate::environment::Build,
    cold: bool,
    one_stretch: bool,
    one_arena: bool,
) -> String {
    format!(
        "{}/{}{}{}{}",
        build.profile,
        build.opt_level,
        if cold { " cold" } else { "" },
        if one_stretch { " one-stretch" } else { "" },
        if one_arena { " one-arena" } else { "" }
    )
}

/// The run's id: the time in nanoseconds and the process id, in hex.
fn run_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}-{:x}", std::process::id())
}

/// A machine's fingerprint: 16 hex digits of an FNV-1a hash of what makes
/// it that machine (CPU model, logical cores, last-level cache, OS, target
/// triple, whether it is virtual), not of its state (governor, load, kernel
/// release), so a machine keeps its fingerprint across reboots and updates.
pub(crate) fn fingerprint(environment: &Environment) -> String {
    let parts = [
        environment.cpu_model.clone().unwrap_or_default(),
        environment
            .logical_cores
            .map(|n| n.to_string())
            .unwrap_or_default(),
        environment
            .last_level_cache_bytes
            .map(|n| n.to_string())
            .unwrap_or_default(),
        environment.os.clone(),
        environment.target.clone(),
        environment
            .hypervisor
            .map(|h| h.to_string())
            .unwrap_or_default(),
    ];
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in &parts {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod config_tests {
    use super::config;
    use crate::environment::Build;

    #[test]
    fn the_configuration_names_the_cache_the_schedule_and_the_arena_when_they_change_figures() {
        let build = Build {
            profile: "release".into(),
            opt_level: "3".into(),
            debug_assertions: false,
            harness_opt_level: None,
        };
        assert_eq!(config(&build, false, false, false), "release/3");
        assert_eq!(config(&build, true, false, false), "release/3 cold");
        assert_eq!(config(&build, false, false, true), "release/3 one-arena");
        assert_eq!(
            config(&build, true, true, true),
            "release/3 cold one-stretch one-arena"
        );
        assert_eq!(config(&build, false, true, false), "release/3 one-stretch");
    }
}
