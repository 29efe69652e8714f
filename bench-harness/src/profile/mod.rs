//! `--flamegraph`: a bench executable run under Linux's `perf record` with
//! `--profile-time`, and its routine thread's samples folded
//! ([`fold`]), or two builds' compared ([`diff`]). Nothing here prints or
//! draws: the session does, through `report/`.
//!
//! `perf` is a system tool, looked up on the `PATH` once and run by its
//! absolute path; the executables it runs are this process's own file
//! (held open) or the other build's, never looked up.

pub(crate) mod diff;
pub(crate) mod fold;
mod process;

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) use fold::Folded;
use process::{run_tool, tail, Ended};

/// The environment variable that asks a `--profile-time` run to write
/// what it ran (iterations, seconds, thread id) to a file, as JSON lines.
pub(crate) const RECORD_ENV: &str = "BENCH_HARNESS_PROFILE_RECORD";

/// The sampling rate: 999 samples per second of the thread's CPU time,
/// off any round frequency a program's own timers tick at, about 2,000
/// samples in the default 2 s.
const FREQUENCY: &str = "999";

/// The CPU time one sample stands for, in nanoseconds.
const SAMPLE_NS: f64 = 1e9 / 999.0;

/// Why profiling could not start or went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ProfileError {
    /// `perf` is missing, refused or broken: nothing can be profiled (a
    /// usage error: the remedy is the user's).
    Unusable(String),
    /// Ctrl-C.
    Interrupted,
    /// This benchmark's profile failed (the others may not).
    Failed(String),
}

/// `perf`, found on the `PATH` and shown to record here.
#[derive(Debug, Clone)]
pub(crate) struct Perf {
    path: PathBuf,
}

impl Perf {
    /// Finds `perf` on the `PATH` (`path`) and checks that it may record
    /// this user's processes, with a short recording of `perf --version`
    /// in `scratch`.
    pub(crate) fn locate(path: Option<&OsStr>, scratch: &Path) -> Result<Perf, ProfileError> {
        if !cfg!(target_os = "linux") {
            return Err(ProfileError::Unusable(
                "--flamegraph records with Linux's perf, and this is not Linux: run \
                 --profile-time SECS under this platform's profiler (samply, Instruments, \
                 VTune, cargo flamegraph)"
                    .to_string(),
            ));
        }
        let found = path
            .map(|p| std::env::split_paths(p).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join("perf"))
            .find(|file| is_executable(file));
        let Some(path) = found else {
            return Err(ProfileError::Unusable(
                "--flamegraph needs perf, Linux's profiler, and there is none on the PATH: \
                 install it (Debian, Ubuntu: apt-get install linux-perf; Fedora: dnf install \
                 perf), or run --profile-time SECS under a profiler of your own"
                    .to_string(),
            ));
        };
        let perf = Perf { path };
        let data = scratch.join("probe.data");
        let version = perf.path.as_os_str();
        let mut args = record_args(&data);
        args.extend([version, OsStr::new("--version")]);
        match perf.run(&args, &[], scratch, "probe", Duration::from_secs(30))? {
            Ok(()) => Ok(perf),
            Err(stderr) => Err(ProfileError::Unusable(refusal(&stderr))),
        }
    }

    /// Runs `exe --bench --exact NAME --profile-time SECS` under `perf
    /// record`, then folds the samples of the thread that ran the
    /// routine. `tag` names its files in `scratch`.
    pub(crate) fn profile(
        &self,
        exe: &Path,
        name: &str,
        seconds: f64,
        scratch: &Path,
        tag: &str,
    ) -> Result<Profile, ProfileError> {
        let data = scratch.join(format!("{tag}.data"));
        let record = scratch.join(format!("{tag}.record"));
        let seconds_text = format!("{seconds}");
        let mut args = record_args(&data);
        args.extend(
            [
                exe.as_os_str(),
                OsStr::new("--bench"),
                OsStr::new("--exact"),
                OsStr::new(name),
                OsStr::new("--profile-time"),
                OsStr::new(&seconds_text),
                OsStr::new("--color"),
                OsStr::new("never"),
            ]
            .iter(),
        );
        // Set-up may be long; the benchmark's own time is SECS.
        let limit = Duration::from_secs_f64(2.0 * seconds + 120.0);
        // The profiled build allocates as a measuring worker does.
        let mut env = vec![(RECORD_ENV, record.as_os_str())];
        let arena = bench_runtime::heap::worker_env().iter();
        env.extend(arena.map(|&(name, value)| (name, OsStr::new(value))));
        let ran = self.run(&args, &env, scratch, tag, limit)?;
        let ran_line = read_record(&record);
        let (Some(ran_line), Ok(())) = (ran_line, &ran) else {
            let stderr = ran
                .err()
                .unwrap_or_else(|| tail(&scratch.join(format!("{tag}.err")), 64 * 1024));
            return Err(ProfileError::Failed(failed_line(&stderr)));
        };
        let script = [
            OsStr::new("script"),
            OsStr::new("-i"),
            data.as_os_str(),
            OsStr::new("-F"),
            OsStr::new("tid,ip,sym"),
            OsStr::new("--no-inline"),
        ];
        let script_tag = format!("{tag}-script");
        if let Err(stderr) =
            self.run(&script, &[], scratch, &script_tag, Duration::from_secs(300))?
        {
            return Err(ProfileError::Failed(format!(
                "perf script could not read the samples: {}",
                failed_line(&stderr)
            )));
        }
        let text = File::open(scratch.join(format!("{script_tag}.out")))
            .map_err(|e| ProfileError::Failed(format!("cannot read perf script's output: {e}")))?;
        let tid = ran_line.thread_id;
        let folded = Folded::read(std::io::BufReader::new(text), tid)
            .map_err(|e| ProfileError::Failed(format!("cannot read perf script's output: {e}")))?;
        Ok(Profile {
            folded,
            iterations: ran_line.iterations,
            seconds: ran_line.seconds,
        })
    }

    /// Runs perf with `args`; `Ok(Err(stderr))` when it failed.
    fn run(
        &self,
        args: &[&OsStr],
        env: &[(&str, &OsStr)],
        scratch: &Path,
        tag: &str,
        limit: Duration,
    ) -> Result<Result<(), String>, ProfileError> {
        let out = scratch.join(format!("{tag}.out"));
        let err = scratch.join(format!("{tag}.err"));
        match run_tool(&self.path, args, env, (&out, &err), limit).map_err(ProfileError::Failed)? {
            Ended::Interrupted => Err(ProfileError::Interrupted),
            Ended::TimedOut => Err(ProfileError::Failed(format!(
                "perf was still running after {:.0} s and was killed",
                limit.as_secs_f64()
            ))),
            Ended::Exited(status) if status.success() => Ok(Ok(())),
            Ended::Exited(_) => Ok(Err(tail(&err, 64 * 1024))),
        }
    }
}

/// One build's profile of one benchmark.
#[derive(Debug, Clone)]
pub(crate) struct Profile {
    /// The routine thread's samples.
    pub folded: Folded,
    /// Iterations of the routine run meanwhile.
    pub iterations: u64,
    /// How long, in seconds.
    pub seconds: f64,
}

impl Profile {
    pub(crate) fn side(&self) -> diff::Side<'_> {
        diff::Side {
            folded: &self.folded,
            iterations: self.iterations,
            sample_ns: SAMPLE_NS,
        }
    }
}

/// `perf record`'s arguments before the command: the software clock (no
/// hardware counter needed, so it works in VMs), and call graphs unwound
/// from the stack's DWARF information, which a default release build has
/// enough of (frame pointers it has not).
fn record_args(data: &Path) -> Vec<&OsStr> {
    [
        "record",
        "-e",
        "cpu-clock",
        "-F",
        FREQUENCY,
        "--call-graph",
        "dwarf",
        "-q",
        "-o",
    ]
    .iter()
    .map(OsStr::new)
    .chain([data.as_os_str(), OsStr::new("--")])
    .collect()
}

/// What a `--profile-time` run wrote to [`RECORD_ENV`]'s file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ran {
    pub iterations: u64,
    pub seconds: f64,
    pub thread_id: u32,
}

impl Ran {
    /// The line a `--profile-time` run writes.
    pub(crate) fn line(&self) -> String {
        format!(
            "{{\"iterations\":{},\"seconds\":{},\"thread_id\":{}}}\n",
            self.iterations, self.seconds, self.thread_id
        )
    }
}

/// The last line of a record file, if whole.
fn read_record(path: &Path) -> Option<Ran> {
    let text = tail(path, 4096);
    let value: serde_json::Value = serde_json::from_str(text.lines().last()?).ok()?;
    Some(Ran {
        iterations: value["iterations"].as_u64()?,
        seconds: value["seconds"].as_f64()?,
        thread_id: u32::try_from(value["thread_id"].as_u64()?).ok()?,
    })
}

/// The record file's path, when this run was asked for one.
pub(crate) fn record_path() -> Option<PathBuf> {
    std::env::var_os(RECORD_ENV)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

fn is_executable(file: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        file.is_file()
    }
}

/// The line that says why perf would not record, with the remedy.
fn refusal(stderr: &str) -> String {
    let paranoid = stderr
        .split("perf_event_paranoid setting is ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit() && c != '-').next())
        .map(str::to_string)
        .or_else(|| {
            std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
                .ok()
                .map(|s| s.trim().to_string())
        });
    let denied = stderr.contains("perf_event_paranoid")
        || stderr.contains("Permission denied")
        || stderr.contains("No permission");
    match paranoid {
        Some(level) if denied => format!(
            "--flamegraph: perf may not record here (kernel.perf_event_paranoid is {level}): \
             allow it with `sysctl kernel.perf_event_paranoid=1` as root (in a container: on \
             the host, or give the container CAP_PERFMON), or run --profile-time SECS under \
             another profiler"
        ),
        _ => format!(
            "--flamegraph: perf cannot record here ({}): check that `perf record -- true` \
             works, or run --profile-time SECS under another profiler",
            failed_line(stderr)
        ),
    }
}

/// The line of a tool's standard error that says most: the first that
/// names an error, else the last.
fn failed_line(stderr: &str) -> String {
    let lines = || stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let line = lines()
        .find(|l| l.starts_with("error") || (l.starts_with("Error") && l.len() > "Error:".len()))
        .or_else(|| lines().next_back())
        .unwrap_or("no message");
    line.chars().take(300).collect()
}

/// A scratch directory for perf's files, readable by this user only,
/// removed with everything in it when dropped ([`crate::fs::Scratch`]).
pub(crate) fn scratch() -> Result<crate::fs::Scratch, ProfileError> {
    crate::fs::Scratch::new("bench-harness-profile-").map_err(|e| {
        ProfileError::Unusable(format!(
            "cannot create a directory for perf's files in {}: {e}",
            std::env::temp_dir().display()
        ))
    })
}

/// `OsString`s of `args`, for messages and tests.
#[cfg(test)]
fn strings(args: &[&OsStr]) -> Vec<std::ffi::OsString> {
    args.iter().map(|a| a.to_os_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_records_with_the_software_clock_and_dwarf_call_graphs() {
        let args = strings(&record_args(Path::new("d.data")));
        let text: Vec<&str> = args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            text.join(" "),
            "record -e cpu-clock -F 999 --call-graph dwarf -q -o d.data --"
        );
    }

    #[test]
    fn a_paranoid_refusal_names_the_setting_and_the_remedy() {
        let stderr = "Error:\nAccess to performance monitoring and observability operations is \
                      limited.\nperf_event_paranoid setting is 4:\n  -1: Allow use of (almost) all events";
        let line = refusal(stderr);
        assert!(line.contains("kernel.perf_event_paranoid is 4"), "{line}");
        assert!(
            line.contains("sysctl kernel.perf_event_paranoid=1"),
            "{line}"
        );
        assert!(!line.contains('\n'));
    }

    #[test]
    fn the_record_line_reads_back() {
        let dir = scratch().unwrap();
        let ran = Ran {
            iterations: 12,
            seconds: 2.5,
            thread_id: 77,
        };
        let file = dir.path().join("r");
        std::fs::write(&file, ran.line()).unwrap();
        assert_eq!(read_record(&file), Some(ran));
        let kept = dir.path().to_path_buf();
        drop(dir);
        assert!(!kept.exists(), "the scratch directory is removed");
    }
}
