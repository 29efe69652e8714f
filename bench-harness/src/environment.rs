//! Where and when a run happened: the facts a saved result needs so that a
//! later reader can tell whether two runs are comparable (same compiler,
//! same build, same machine in the same state, same commit), and that
//! [`crate::audit`] checks before the figures are trusted.
//!
//! Everything here is best effort and read only: a fact that cannot be found
//! is `None`, never an error; nothing here changes a setting, and nothing
//! reads a clock the benchmarks use. The machine's state comes from `/proc`
//! and `/sys` through [`Sysfs`], which can be pointed at a copy of those
//! files (the tests use fixtures of real machines).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::json::json_struct;

/// The machine, its state, the toolchain, the build and the source a run
/// measured.
///
/// Fields added after the first schema are read as `default`: a document
/// written before them reads with `None` (and an unknown [`Build`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Environment {
    /// When the run started, UTC, RFC 3339 to the second:
    /// `2026-11-21T09:50:00Z`.
    pub timestamp: String,
    /// The bench-harness version that measured.
    pub harness_version: String,
    /// `rustc -V` of the compiler that built bench-harness, which in one
    /// `cargo bench` build is the one that built the benchmarks:
    /// `rustc 1.95.0 (59807616e 2026-04-14)`, or `unknown`.
    pub rustc_version: String,
    /// The target triple built for: `x86_64-unknown-linux-gnu`.
    pub target: String,
    /// How the benchmark binary was compiled.
    pub build: Build,
    /// The operating system, as `std::env::consts::OS` names it: `linux`.
    pub os: String,
    /// The kernel release (`/proc/sys/kernel/osrelease`), where available.
    pub os_release: Option<String>,
    /// The CPU's model name (`/proc/cpuinfo`), where available.
    pub cpu_model: Option<String>,
    /// Logical cores this process may use
    /// (`std::thread::available_parallelism`, which honours the affinity
    /// mask and cgroup quota; from files alone, the online CPUs).
    pub logical_cores: Option<usize>,
    /// The size of CPU 0's last-level cache in bytes: the data or unified
    /// cache of the highest `level` under
    /// `/sys/devices/system/cpu/cpu0/cache/index*/`.
    pub last_level_cache_bytes: Option<u64>,
    /// The cpufreq governor (`cpuN/cpufreq/scaling_governor`):
    /// `performance`, `powersave`, `schedutil`, ... When CPUs differ, each
    /// distinct governor in CPU order joined by `/`
    /// (`performance/powersave`). `None` without cpufreq (most VMs).
    pub governor: Option<String>,
    /// Whether turbo/boost may raise the clock above its base
    /// (`/sys/devices/system/cpu/cpufreq/boost` is 1, or
    /// `/sys/devices/system/cpu/intel_pstate/no_turbo` is 0).
    pub boost: Option<bool>,
    /// Address space layout randomisation,
    /// `/proc/sys/kernel/randomize_va_space`: 0 off, 1 stack and libraries,
    /// 2 also the heap.
    pub aslr: Option<u8>,
    /// The 1-, 5- and 15-minute load averages (`/proc/loadavg`) when the run
    /// started.
    pub load_average: Option<[f64; 3]>,
    /// Whether the machine is a virtual one: the `hypervisor` CPU flag in
    /// `/proc/cpuinfo`, or a `/sys/hypervisor/type`.
    pub hypervisor: Option<bool>,
    /// `/proc/sys/kernel/perf_event_paranoid`: which hardware counters an
    /// unprivileged process may read (-1 all, 2 or more only its own in user
    /// space).
    pub perf_event_paranoid: Option<i32>,
    /// `git rev-parse HEAD` of the benched crate's checkout; `None` when git
    /// is missing or the crate is not in a checkout.
    pub git_commit: Option<String>,
    /// Whether tracked files differ from that commit
    /// (`git status --porcelain --untracked-files=no` prints anything).
    pub git_dirty: Option<bool>,
}

/// How the benchmark binary was compiled.
///
/// These are the facts of bench-runtime's compilation, the measurement core
/// that holds the timed loops. Cargo compiles a binary's dependencies with
/// the binary's profile, so they are the benchmarks' too; only a
/// `[profile.*.package.bench-harness]` override compiles bench-harness
/// otherwise, and `harness_opt_level` records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Build {
    /// `cfg!(debug_assertions)`: on in `cargo test` and `cargo build`, off
    /// in `cargo bench` unless the profile turns it on.
    pub debug_assertions: bool,
    /// The profile's `opt-level`: `0`, `1`, `2`, `3`, `s`, `z`.
    pub opt_level: String,
    /// Cargo's `PROFILE`: `release` for profiles that inherit from release
    /// (`bench` does), `debug` for the others (`dev`, `test`).
    pub profile: String,
    /// bench-harness's own opt-level where it differs from `opt_level` (a
    /// per-package profile override), else `None`. At 0, 1, `s` or `z`
    /// the harness shares its copies of std's generic code, compiled at
    /// that level, with the benchmarks (see `audit`).
    pub harness_opt_level: Option<String>,
}

impl Build {
    /// The build this code is part of.
    pub(crate) fn current() -> Build {
        let opt_level = bench_runtime::build::OPT_LEVEL;
        let harness = env!("BENCH_HARNESS_OPT_LEVEL");
        Build {
            debug_assertions: bench_runtime::build::DEBUG_ASSERTIONS,
            opt_level: opt_level.to_string(),
            profile: bench_runtime::build::PROFILE.to_string(),
            harness_opt_level: (harness != opt_level).then(|| harness.to_string()),
        }
    }

    /// What a document written before builds were recorded reads as (its
    /// `Default`).
    pub(crate) fn unknown() -> Build {
        Build {
            debug_assertions: false,
            opt_level: "unknown".to_string(),
            profile: "unknown".to_string(),
            harness_opt_level: None,
        }
    }
}

impl Default for Build {
    fn default() -> Build {
        Build::unknown()
    }
}

json_struct!(Environment {
    timestamp,
    harness_version,
    rustc_version,
    target,
    build: default,
    os,
    os_release,
    cpu_model,
    logical_cores,
    last_level_cache_bytes: default,
    governor: default,
    boost: default,
    aslr: default,
    load_average: default,
    hypervisor: default,
    perf_event_paranoid: default,
    git_commit,
    git_dirty,
});
json_struct!(Build {
    debug_assertions,
    opt_level,
    profile,
    harness_opt_level: skip,
});

impl Environment {
    /// The environment of this process, now.
    pub(crate) fn capture() -> Environment {
        let mut environment = Environment::capture_from(Path::new("/"));
        // The process may be confined to fewer cores than are online.
        if let Ok(cores) = std::thread::available_parallelism() {
            environment.logical_cores = Some(cores.get());
        }
        environment
    }

    /// The environment with the machine's facts read from `/proc` and
    /// `/sys` under `root` (`/` for this machine); the time, toolchain,
    /// build and git facts are this process's. `logical_cores` is the
    /// number of online CPUs.
    pub(crate) fn capture_from(root: &Path) -> Environment {
        let machine = Sysfs::at(root);
        let checkout = benched_crate_dir().filter(|_| !git_turned_off());
        let git_commit = checkout.as_deref().and_then(git_commit);
        let git_dirty = git_commit
            .as_ref()
            .and(checkout.as_deref())
            .and_then(git_dirty);
        Environment {
            timestamp: utc_timestamp(SystemTime::now()),
            harness_version: env!("CARGO_PKG_VERSION").to_string(),
            rustc_version: env!("BENCH_HARNESS_RUSTC_VERSION").to_string(),
            target: env!("BENCH_HARNESS_TARGET").to_string(),
            build: Build::current(),
            os: std::env::consts::OS.to_string(),
            os_release: machine.os_release(),
            cpu_model: machine.cpu_model(),
            logical_cores: machine.online_cpus(),
            last_level_cache_bytes: machine.last_level_cache_bytes(),
            governor: machine.governor(),
            boost: machine.boost(),
            aslr: machine.aslr(),
            load_average: machine.load_average(),
            hypervisor: machine.hypervisor(),
            perf_event_paranoid: machine.perf_event_paranoid(),
            git_commit,
            git_dirty,
        }
    }
}

/// Linux's `/proc` and `/sys` under a root directory: `/` for this machine,
/// or a copy of the files. Each method reads one fact and returns `None`
/// when its file is missing, unreadable or not in the expected format.
#[derive(Debug, Clone)]
pub(crate) struct Sysfs {
    root: PathBuf,
}

const CPU_DIR: &str = "sys/devices/system/cpu";

impl Sysfs {
    /// The files under `root`: `/` for this machine, a fixture's directory
    /// in tests.
    pub(crate) fn at(root: impl Into<PathBuf>) -> Sysfs {
        Sysfs { root: root.into() }
    }

    /// `/proc/sys/kernel/osrelease`: `6.8.0-1012-gcp`.
    pub(crate) fn os_release(&self) -> Option<String> {
        self.read("proc/sys/kernel/osrelease")
    }

    /// The first `model name` in `/proc/cpuinfo`.
    pub(crate) fn cpu_model(&self) -> Option<String> {
        cpu_model(&self.read("proc/cpuinfo")?)
    }

    /// CPUs online (`/sys/devices/system/cpu/online`, a list like `0-3,6`),
    /// else the processors `/proc/cpuinfo` lists.
    pub(crate) fn online_cpus(&self) -> Option<usize> {
        self.read(&format!("{CPU_DIR}/online"))
            .and_then(|list| cpu_list_len(&list))
            .or_else(|| {
                let cpuinfo = self.read("proc/cpuinfo")?;
                let processors = cpuinfo
                    .lines()
                    .filter(|line| line.split(':').next().map(str::trim) == Some("processor"))
                    .count();
                (processors > 0).then_some(processors)
            })
    }

    /// The `scaling_governor` of every CPU that has one, each distinct
    /// value once in CPU order, joined by `/`.
    pub(crate) fn governor(&self) -> Option<String> {
        let mut governors: Vec<String> = Vec::new();
        for cpu in self.cpu_numbers() {
            let path = format!("{CPU_DIR}/cpu{cpu}/cpufreq/scaling_governor");
            if let Some(governor) = self.read(&path) {
                if !governors.contains(&governor) {
                    governors.push(governor);
                }
            }
        }
        (!governors.is_empty()).then(|| governors.join("/"))
    }

    /// Whether boost/turbo is enabled: the cpufreq driver's global `boost`
    /// switch, else intel_pstate's `no_turbo`, else CPU 0's policy `boost`
    /// (amd-pstate).
    pub(crate) fn boost(&self) -> Option<bool> {
        let switch = |path: &str| match self.read(path)?.as_str() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        };
        switch(&format!("{CPU_DIR}/cpufreq/boost"))
            .or_else(|| {
                switch(&format!("{CPU_DIR}/intel_pstate/no_turbo")).map(|no_turbo| !no_turbo)
            })
            .or_else(|| switch(&format!("{CPU_DIR}/cpu0/cpufreq/boost")))
    }

    /// `/proc/sys/kernel/randomize_va_space`.
    pub(crate) fn aslr(&self) -> Option<u8> {
        self.parse("proc/sys/kernel/randomize_va_space")
    }

    /// The three load averages of `/proc/loadavg`.
    pub(crate) fn load_average(&self) -> Option<[f64; 3]> {
        let text = self.read("proc/loadavg")?;
        let mut fields = text.split_whitespace().map(|field| {
            field
                .parse::<f64>()
                .ok()
                .filter(|load| load.is_finite() && *load >= 0.0)
        });
        Some([fields.next()??, fields.next()??, fields.next()??])
    }

    /// True when `/sys/hypervisor/type` names one; otherwise whether the
    /// first `flags` line of `/proc/cpuinfo` has `hypervisor` (`None` when
    /// there is no such line, as on arm64).
    pub(crate) fn hypervisor(&self) -> Option<bool> {
        if self.read("sys/hypervisor/type").is_some() {
            return Some(true);
        }
        cpu_flag(&self.read("proc/cpuinfo")?, "hypervisor")
    }

    /// `/proc/sys/kernel/perf_event_paranoid`.
    pub(crate) fn perf_event_paranoid(&self) -> Option<i32> {
        self.parse("proc/sys/kernel/perf_event_paranoid")
    }

    /// The `size` of CPU 0's data or unified cache with the highest
    /// `level` (the largest, if several share it), in bytes.
    pub(crate) fn last_level_cache_bytes(&self) -> Option<u64> {
        let caches = std::fs::read_dir(self.root.join(CPU_DIR).join("cpu0/cache")).ok()?;
        caches
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("index")?.parse::<u32>().ok()?;
                let dir = format!("{CPU_DIR}/cpu0/cache/{name}");
                if self.read(&format!("{dir}/type")).as_deref() == Some("Instruction") {
                    return None;
                }
                let level: u32 = self.parse(&format!("{dir}/level"))?;
                let size = cache_size_bytes(&self.read(&format!("{dir}/size"))?)?;
                Some((level, size))
            })
            .max()
            .map(|(_, size)| size)
    }

    /// The file at `path` under the root, trimmed; `None` if it is missing,
    /// unreadable or empty.
    fn read(&self, path: &str) -> Option<String> {
        let text = std::fs::read_to_string(self.root.join(path)).ok()?;
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_string())
    }

    fn parse<T: FromStr>(&self, path: &str) -> Option<T> {
        self.read(path)?.parse().ok()
    }

    /// N of each `cpuN` directory, ascending.
    fn cpu_numbers(&self) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir(self.root.join(CPU_DIR)) else {
            return Vec::new();
        };
        let mut cpus: Vec<u32> = entries
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("cpu")?.parse().ok()
            })
            .collect();
        cpus.sort_unstable();
        cpus
    }
}

/// The CPUs in a kernel CPU list (`0-3,6,8-9`: 7).
fn cpu_list_len(list: &str) -> Option<usize> {
    list.split(',').try_fold(0, |count, range| {
        let (first, last) = match range.trim().split_once('-') {
            Some((first, last)) => (first.parse::<usize>().ok()?, last.parse::<usize>().ok()?),
            None => {
                let cpu = range.trim().parse::<usize>().ok()?;
                (cpu, cpu)
            }
        };
        (first <= last).then(|| count + last - first + 1)
    })
}

/// A cache `size` as sysfs writes it (`32K`; also `8M`, `1G`, plain bytes)
/// in bytes.
fn cache_size_bytes(size: &str) -> Option<u64> {
    let size = size.trim();
    let digits = size
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(size.len());
    let (number, unit) = size.split_at(digits);
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        _ => return None,
    };
    number.parse::<u64>().ok()?.checked_mul(scale)
}

/// Whether the first `flags` line of a `/proc/cpuinfo` text lists `flag`;
/// `None` without a `flags` line.
fn cpu_flag(cpuinfo: &str, flag: &str) -> Option<bool> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "flags").then(|| value.split_whitespace().any(|f| f == flag))
    })
}

/// `time` in UTC as RFC 3339 to the second (`2026-11-21T09:50:00Z`). Times
/// before 1970 are written as 1970-01-01T00:00:00Z.
pub(crate) fn utc_timestamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs().min(i64::MAX as u64) as i64);
    format_unix_seconds(secs)
}

/// Seconds since 1970-01-01T00:00:00Z (negative before) as RFC 3339 UTC.
pub(crate) fn format_unix_seconds(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let of_day = secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`: eras of 400 years, years starting on March 1st so the
/// leap day is the last day of the year).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097); // [0, 146096]
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365; // [0, 399]
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100); // [0, 365]
    let month_from_march = (5 * day_of_year + 2) / 153; // [0, 11]
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32; // [1, 31]
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32; // [1, 12]
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The benched crate's directory: `CARGO_MANIFEST_DIR` as cargo sets it for
/// the bench binary it runs, else the current directory.
fn benched_crate_dir() -> Option<PathBuf> {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
}

/// Set (to anything but empty or `0`) to record no commit: git is not run
/// at all. A run sets it in its workers, which record no environment, so
/// git runs once per run.
pub(crate) const NO_GIT_ENV: &str = "BENCH_HARNESS_NO_GIT";

fn git_turned_off() -> bool {
    std::env::var_os(NO_GIT_ENV).is_some_and(|value| !value.is_empty() && value != "0")
}

/// The checkout's commit: read from `.git` itself (`HEAD`, then the loose
/// ref or `packed-refs` it names), without running git; `git rev-parse
/// HEAD` (which runs nothing of the repository's) only where that cannot
/// be read (a ref format this does not know).
fn git_commit(dir: &Path) -> Option<String> {
    // (GIT_DIR moves the repository: git knows where.)
    let direct = std::env::var_os("GIT_DIR")
        .is_none()
        .then(|| read_head(dir));
    let head = direct
        .flatten()
        .or_else(|| git(dir, &[], &["rev-parse", "HEAD"]))?;
    let head = head.trim();
    let is_hash = head.len() >= 40 && head.chars().all(|c| c.is_ascii_hexdigit());
    is_hash.then(|| head.to_string())
}

/// `HEAD`'s commit read from the repository's files: the git directory
/// found from `dir` upwards (`.git`, or a `.git` file's `gitdir:` in a
/// worktree), its `commondir` for shared refs. `None` for anything
/// unexpected, left to git.
fn read_head(dir: &Path) -> Option<String> {
    let small = |path: &Path| -> Option<String> {
        let bytes = crate::fs::read_prefix(path, 4096).ok()??;
        Some(String::from_utf8(bytes).ok()?.trim().to_string())
    };
    let (work, dot_git) = dir
        .ancestors()
        .map(|d| (d, d.join(".git")))
        .find(|(_, g)| std::fs::symlink_metadata(g).is_ok())?;
    let git_dir = if dot_git.is_dir() {
        dot_git
    } else {
        let pointer = small(&dot_git)?;
        work.join(pointer.strip_prefix("gitdir:")?.trim())
    };
    let common = match small(&git_dir.join("commondir")) {
        Some(relative) => git_dir.join(relative),
        None => git_dir.clone(),
    };
    let mut content = small(&git_dir.join("HEAD"))?;
    // A symbolic ref, perhaps to another: a few steps at most.
    for _ in 0..5 {
        let Some(name) = content.strip_prefix("ref:").map(str::trim) else {
            return Some(content);
        };
        if !name.starts_with("refs/") || name.split('/').any(|part| part == ".." || part.is_empty())
        {
            return None;
        }
        let loose = [&git_dir, &common]
            .iter()
            .find_map(|base| small(&base.join(name)));
        content = match loose {
            Some(found) => found,
            None => {
                let packed =
                    crate::fs::read_regular(&common.join("packed-refs"), 1 << 26).ok()??;
                let packed = String::from_utf8(packed).ok()?;
                packed.lines().find_map(|line| {
                    let (hash, named) = line.split_once(' ')?;
                    (named == name).then(|| hash.to_string())
                })?
            }
        };
    }
    None
}

/// Whether tracked files differ from the commit, by `git status`, with
/// every command the repository could make it run turned off (see
/// [`git`]): the clean filters (and filter processes) its configuration
/// names, found first, are emptied; submodules, whose own configuration
/// this does not see, are not looked into. `None` when that cannot be
/// made sure of.
fn git_dirty(dir: &Path) -> Option<bool> {
    let filters = git_filter_drivers(dir)?;
    let mut config: Vec<String> = Vec::new();
    for driver in &filters {
        for key in ["clean", "smudge", "process"] {
            config.push(format!("filter.{driver}.{key}="));
        }
        config.push(format!("filter.{driver}.required=false"));
    }
    let config: Vec<&str> = config.iter().map(String::as_str).collect();
    git(
        dir,
        &config,
        &[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--ignore-submodules=all",
        ],
    )
    .map(|out| !out.trim().is_empty())
}

/// The filter drivers the repository's configuration defines (a command
/// `git status` would run on a changed file): `filter.NAME.clean` or
/// `.process`. `None` when the configuration cannot be read, or names one
/// that cannot be turned off on a command line.
fn git_filter_drivers(dir: &Path) -> Option<Vec<String>> {
    let output = git_output(
        dir,
        &[],
        &[
            "config",
            "-z",
            "--get-regexp",
            r"^filter\..*\.(clean|process)$",
        ],
    )?;
    match output.0.code() {
        Some(0) => {}
        // No such entry.
        Some(1) => return Some(Vec::new()),
        _ => return None,
    }
    let text = String::from_utf8(output.1).ok()?;
    let mut drivers: Vec<String> = Vec::new();
    for entry in text.split('\0').filter(|e| !e.is_empty()) {
        let key = entry.split_once('\n').map_or(entry, |(key, _)| key);
        let driver = key.strip_prefix("filter.")?.rsplit_once('.')?.0;
        if driver.is_empty() || driver.contains(['=', '\n']) {
            return None;
        }
        if !drivers.iter().any(|d| d == driver) {
            drivers.push(driver.to_string());
        }
    }
    Some(drivers)
}

/// `git -c CONFIG… ARGS` in `dir`: its standard output if it ran and
/// succeeded.
///
/// Read-only, and nothing of the repository's runs: `core.fsmonitor`
/// names a command git would start (a hook of the repository's, or a
/// daemon) and is turned off; hooks are looked for in `/dev/null`;
/// `--no-optional-locks` keeps `git status` from rewriting `.git/index`
/// with the stat data it refreshed (and so from a hook on that); the
/// filters `git status` would run are emptied by [`git_dirty`].
fn git(dir: &Path, config: &[&str], args: &[&str]) -> Option<String> {
    let (status, stdout) = git_output(dir, config, args)?;
    status
        .success()
        .then(|| String::from_utf8(stdout).ok())
        .flatten()
}

/// How long git may take to answer, and the most it may write: a
/// repository's state is a note of the run, never worth a hang.
const GIT_LIMIT: std::time::Duration = std::time::Duration::from_secs(20);
const GIT_OUTPUT_LIMIT: usize = 16 << 20;

/// Runs git through the run's supervisor (its own process group, a time
/// limit, Ctrl-C, bounded output).
fn git_output(
    dir: &Path,
    config: &[&str],
    args: &[&str],
) -> Option<(std::process::ExitStatus, Vec<u8>)> {
    let mut command = Command::new("git");
    command.args([
        "--no-optional-locks",
        "-c",
        "core.fsmonitor=false",
        "-c",
        "core.hooksPath=/dev/null",
    ]);
    for setting in config {
        command.args(["-c", setting]);
    }
    command.args(args).current_dir(dir);
    crate::supervisor::output(command, Path::new("git"), GIT_LIMIT, GIT_OUTPUT_LIMIT)
}

/// The first `model name` of a `/proc/cpuinfo` text.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = value.trim();
        (key.trim() == "model name" && !value.is_empty()).then(|| value.to_string())
    })
}

#[cfg(test)]
mod tests;
