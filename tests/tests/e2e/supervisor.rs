//! The child-process supervisor: the `--against` workers and the `--forks`
//! children, attacked as the reliability review (`shared/reviews/
//! reliability.md`, failures 7, 11, 15, 17, 18 and 19) did, and each class
//! through at least one door it did not list. A run must end within a
//! bound whatever its children do, take everything they started down with
//! it, and say what went wrong in one line.
//!
//! Every `sleep` a test starts has a duration of its own (see
//! [`unique_secs`]), so that the test finds exactly its own leftovers in
//! `/proc`, asserts on them and kills them in the end.

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use bench_tests::{scratch_dir, Scratch, QUICK};

use crate::common::{against_rows, fixture_binary, gone};

/// A `sleep` duration in seconds that test number `k` of this file alone
/// uses: unique within the file, and (by the test process's id) most
/// likely unique among test processes running at once. Short enough that a
/// leftover of a killed test process ends within the hour.
fn unique_secs(k: u32) -> u32 {
    600 + 100 * k + std::process::id() % 97
}

/// Live (not zombie) processes whose command line is exactly `sleep SECS`.
fn sleeping(secs: u32) -> Vec<u32> {
    let wanted = format!("sleep\0{secs}\0");
    live_processes(|cmdline| cmdline == wanted.as_bytes())
}

/// Live (not zombie) processes whose command line contains `text`.
fn mentioning(text: &str) -> Vec<u32> {
    live_processes(|cmdline| String::from_utf8_lossy(cmdline).contains(text))
}

fn live_processes(matches: impl Fn(&[u8]) -> bool) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if matches(&cmdline) && !gone(pid) && pid != std::process::id() {
            found.push(pid);
        }
    }
    found
}

/// Polls `left` until it finds nothing or `limit` has passed; what it
/// found last.
fn still_there_after(limit: Duration, left: impl Fn() -> Vec<u32>) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let found = left();
        if found.is_empty() || started.elapsed() > limit {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// How long a process the run killed may take to disappear from `/proc`.
const SETTLE: Duration = Duration::from_secs(3);

/// Kills, when dropped (the test passed or failed), every `sleep SECS` of
/// the test's and every process named in its pid files that is still a
/// `sleep`: nothing a test started outlives it.
struct Reaper {
    secs: Vec<u32>,
    pid_files: Vec<PathBuf>,
}

impl Reaper {
    fn of(secs: &[u32]) -> Reaper {
        Reaper {
            secs: secs.to_vec(),
            pid_files: Vec::new(),
        }
    }

    fn with_pid_file(mut self, file: &Path) -> Reaper {
        self.pid_files.push(file.to_path_buf());
        self
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        let mut pids: Vec<u32> = self.secs.iter().flat_map(|&s| sleeping(s)).collect();
        for file in &self.pid_files {
            pids.extend(
                pids_in(file)
                    .into_iter()
                    .filter(|pid| is_sleep(*pid) && !gone(*pid)),
            );
        }
        for pid in pids {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .stderr(Stdio::null())
                .status();
        }
    }
}

fn is_sleep(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(b"sleep\0"))
}

/// The pids a fixture benchmark wrote to `file`, one a line.
fn pids_in(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

fn write_script(path: &Path, text: &str) {
    bench_tests::install_script(text, path);
}

/// A run of `program`, started in a process group of its own (as a shell
/// starts a job), killed if the test ends before it has.
struct Started {
    child: Option<Child>,
    pid: u32,
    began: Instant,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
}

/// How a run ended.
struct Ended {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Ended {
    fn code(&self) -> Option<i32> {
        self.status.code()
    }
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} after {:.1} s\n--- stdout:\n{}\n--- stderr:\n{}",
            self.status,
            self.took.as_secs_f64(),
            shorten(&self.stdout),
            shorten(&self.stderr)
        )
    }
}

/// `text`, or its first and last 2,000 characters when longer.
fn shorten(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 4000 {
        return text.to_string();
    }
    let head: String = chars[..2000].iter().collect();
    let tail: String = chars[chars.len() - 2000..].iter().collect();
    format!("{head}\n[… {} characters …]\n{tail}", chars.len() - 4000)
}

/// Reads `from` to its end on a thread of its own.
fn read_all(mut from: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        let _ = sender.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    receiver
}

/// Starts `program` with `args` and `env`, colour off, stdin closed, its
/// target and temporary directories in `dir`.
fn start(program: &Path, dir: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Started {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("TMPDIR", dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command.spawn().expect("the binary starts");
    let stdout = read_all(child.stdout.take().unwrap());
    let stderr = read_all(child.stderr.take().unwrap());
    Started {
        pid: child.id(),
        child: Some(child),
        began: Instant::now(),
        stdout,
        stderr,
    }
}

/// The fixture with QUICK budgets, `--max-time 0.5` (a worker that does not
/// answer is stopped after 11 s) and `args`.
fn start_fixture(dir: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Started {
    let mut all = QUICK.to_vec();
    all.extend_from_slice(&["--max-time", "0.5"]);
    all.extend_from_slice(args);
    start(fixture_binary(), dir, &all, env)
}

/// `passes` measured against the executable `other`, started in `dir`.
fn start_against_passes(dir: &Path, other: &Path) -> Started {
    start_fixture(
        dir,
        &[
            "--exact",
            "passes",
            "--against-exe",
            other.to_str().unwrap(),
        ],
        &[],
    )
}

/// [`start_against_passes`], waited for at most `limit`.
fn against_passes(dir: &Path, other: &Path, limit: Duration) -> Ended {
    start_against_passes(dir, other).wait(limit)
}

impl Started {
    /// Waits for the run to end, calling `each` about every 5 ms meanwhile;
    /// past `limit` kills it and fails the test, with what it printed.
    fn wait_with(mut self, limit: Duration, mut each: impl FnMut(u32)) -> Ended {
        let mut child = self.child.take().unwrap();
        let status = loop {
            each(self.pid);
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if self.began.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                let ended = self.collect();
                panic!(
                    "the run was still going after {limit:?} and was killed\n--- stdout:\n{}\n--- \
                     stderr:\n{}",
                    shorten(&ended.0),
                    shorten(&ended.1)
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let took = self.began.elapsed();
        let (stdout, stderr) = self.collect();
        Ended {
            status,
            stdout,
            stderr,
            took,
        }
    }

    fn wait(self, limit: Duration) -> Ended {
        self.wait_with(limit, |_| {})
    }

    /// What the run printed; a pipe still open 5 s after it ended (held by
    /// a process it left) is said so.
    fn collect(&self) -> (String, String) {
        let get = |from: &Receiver<String>| {
            from.recv_timeout(Duration::from_secs(5))
                .unwrap_or_else(|_| "(still held open by another process)".to_string())
        };
        (get(&self.stdout), get(&self.stderr))
    }

    /// Sends signal `name` (`-TERM`) to the run.
    fn signal(&self, name: &str) {
        self.kill(name, &self.pid.to_string());
    }

    /// Sends signal `name` to the run's process group, as a terminal's
    /// Ctrl-C does.
    fn signal_group(&self, name: &str) {
        self.kill(name, &format!("-{}", self.pid));
    }

    fn kill(&self, name: &str, target: &str) {
        let status = Command::new("kill")
            .args([name, "--", target])
            .status()
            .unwrap();
        assert!(status.success(), "kill {name} {target}");
    }

    /// A limit `more` from now, for [`Started::wait`].
    fn limit_in(&self, more: Duration) -> Duration {
        self.began.elapsed() + more
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Waits until `found` finds something (up to 30 s): the process a test
/// waits for has started.
fn wait_for(what: &str, found: impl Fn() -> Vec<u32>) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let pids = found();
        if !pids.is_empty() {
            return pids;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{what} never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The row of benchmark `name` in an `--against` run's table.
fn row(ended: &Ended, name: &str) -> String {
    against_rows(&ended.stdout)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no row {name}:\n{ended}"))
        .1
}

/// The row of `name` says it was compared: a ratio and a verdict, no
/// failure.
fn assert_compared(ended: &Ended, name: &str) {
    let row = row(ended, name);
    assert!(
        !row.starts_with("failed") && row.contains('[') && row.contains(']'),
        "{name} was not compared: {row}\n{ended}"
    );
}

/// The run's one `error:` line, no panic.
fn one_line_error(ended: &Ended) -> String {
    let errors: Vec<&str> = ended
        .stderr
        .lines()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(errors.len(), 1, "one error line:\n{ended}");
    assert!(!ended.stderr.contains("panicked"), "{ended}");
    errors[0].to_string()
}

/// A non-worker's refusal: exit 2, one error line saying it did not
/// answer as a worker, within `limit`.
fn assert_refused_as_no_worker(ended: &Ended, limit: Duration) {
    assert_eq!(ended.code(), Some(2), "exit 2 for a non-worker:\n{ended}");
    let error = one_line_error(ended);
    assert!(
        error.contains("did not answer as a bench-harness worker"),
        "{error}"
    );
    assert!(ended.took < limit, "refused only after {:?}", ended.took);
}

/// No `sleep SECS` left (after giving a killed one time to go).
fn assert_no_sleep_left(secs: u32, ended: &Ended) {
    let left = still_there_after(SETTLE, || sleeping(secs));
    assert!(
        left.is_empty(),
        "`sleep {secs}` outlived the run: pids {left:?}\n{ended}"
    );
}

/// None of the pids in `file` left (they were there: the file names some).
fn assert_none_left_of(file: &Path, what: &str, ended: &Ended) -> usize {
    let pids = pids_in(file);
    assert!(!pids.is_empty(), "no {what} was started:\n{ended}");
    let left = still_there_after(SETTLE, || {
        pids.iter().copied().filter(|&p| !gone(p)).collect()
    });
    assert!(
        left.is_empty(),
        "{what} outlived the run: pids {left:?} of {pids:?}\n{ended}"
    );
    pids.len()
}

fn setsid_present() -> bool {
    let present = Command::new("setsid")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !present {
        eprintln!("note: no `setsid` on this machine: the daemon test is skipped");
    }
    present
}

fn python_present() -> bool {
    let present = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !present {
        eprintln!("note: no `python3` on this machine: the proxy test is skipped");
    }
    present
}

fn scratch(name: &str) -> Scratch {
    scratch_dir(&format!("sup-{name}"))
}

// Failure 7: --against waited without bound for a process whose output
// had closed.

/// `passes` against the script `script(dir, secs)` writes, `secs` its own
/// sleep: refused as no worker within 10 s, and no `sleep secs` left.
fn a_script_is_refused_promptly_leaving_nothing(
    name: &str,
    k: u32,
    script: impl Fn(&Path, u32) -> String,
) {
    let dir = scratch(name);
    let secs = unique_secs(k);
    let _reaper = Reaper::of(&[secs]);
    let other = dir.join(format!("{name}.sh"));
    write_script(&other, &script(&dir, secs));
    let ended = against_passes(&dir, &other, Duration::from_secs(15));
    assert_refused_as_no_worker(&ended, Duration::from_secs(10));
    assert_no_sleep_left(secs, &ended);
}

#[test]
fn a_non_worker_that_prints_bytes_then_sleeps_is_refused_promptly_and_stopped() {
    a_script_is_refused_promptly_leaving_nothing("garbage-sleep", 0, |dir, secs| {
        let noise = dir.join("noise");
        // 4 KiB of bytes that are no UTF-8, in lines; then it sleeps, its
        // output still open.
        let mut bytes = Vec::new();
        for _ in 0..64 {
            bytes.extend_from_slice(&[0xff; 63]);
            bytes.push(b'\n');
        }
        std::fs::write(&noise, bytes).unwrap();
        format!("#!/bin/sh\ncat '{}'\nexec sleep {secs}\n", noise.display())
    });
}

#[test]
fn a_non_worker_that_leaves_a_helper_on_its_stderr_and_exits_is_refused_promptly() {
    // The helper holds the script's stderr (a pipe to the run) open.
    a_script_is_refused_promptly_leaving_nothing("helper-exit", 1, |_, secs| {
        format!("#!/bin/sh\nsleep {secs} >/dev/null &\nexit 1\n")
    });
}

/// Another door: the helper holds nothing of the run's, so nothing waits
/// for it; it must still not outlive the run.
#[test]
fn a_non_worker_that_leaves_a_detached_helper_and_exits_leaves_nothing_running() {
    a_script_is_refused_promptly_leaving_nothing("detached-helper-exit", 2, |_, secs| {
        format!("#!/bin/sh\nsleep {secs} </dev/null >/dev/null 2>&1 &\nexit 1\n")
    });
}

#[test]
fn a_worker_benchmark_that_leaves_a_helper_on_stderr_and_aborts_fails_alone_promptly() {
    let dir = scratch("worker-helper-abort");
    let secs = unique_secs(3);
    let pids = dir.join("helper-pids");
    let _reaper = Reaper::of(&[secs]).with_pid_file(&pids);
    let secs_text = secs.to_string();
    let ended = start_fixture(
        &dir,
        &[
            "--include-ignored",
            "--exact",
            "supervised/leaves_helper_then_aborts",
            "also_passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
        &[
            (
                "BENCH_FIXTURE_SUPERVISED",
                OsStr::new("leaves_helper_then_aborts"),
            ),
            ("BENCH_FIXTURE_HELPER_SECS", OsStr::new(&secs_text)),
            ("BENCH_FIXTURE_HELPER_PIDS", pids.as_os_str()),
        ],
    )
    .wait(Duration::from_secs(30));
    assert_eq!(ended.code(), Some(101), "{ended}");
    let failed = row(&ended, "supervised/leaves_helper_then_aborts");
    assert!(
        failed.starts_with("failed: ")
            && (failed.contains("signal 6") || failed.contains("SIGABRT")),
        "{failed}\n{ended}"
    );
    assert_compared(&ended, "also_passes");
    assert!(
        ended.took < Duration::from_secs(15),
        "the run waited for the helper: {:?}\n{ended}",
        ended.took
    );
    assert_none_left_of(&pids, "the crashed worker's helper", &ended);
    assert_no_sleep_left(secs, &ended);
}

// Failure 11: processes a worker started outlived the run.

#[test]
fn a_background_process_a_worker_benchmark_starts_does_not_outlive_the_run() {
    let dir = scratch("worker-orphan");
    let pids = dir.join("orphan-pids");
    let _reaper = Reaper::of(&[]).with_pid_file(&pids);
    let ended = start_fixture(
        &dir,
        &[
            "--include-ignored",
            "--exact",
            "leaves_orphan",
            "also_passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
        &[("BENCH_FIXTURE_ORPHAN_PIDS", pids.as_os_str())],
    )
    .wait(Duration::from_secs(60));
    assert_eq!(ended.code(), Some(0), "{ended}");
    assert_compared(&ended, "also_passes");
    // At least 3 pairs of workers, each of which started one.
    let started = assert_none_left_of(&pids, "a worker benchmark's background sleep", &ended);
    assert!(started >= 6, "{started} background sleeps started\n{ended}");
}

#[test]
fn a_helper_a_wrapper_script_starts_before_the_worker_does_not_outlive_the_run() {
    let dir = scratch("wrapper-helper");
    let secs = unique_secs(4);
    let _reaper = Reaper::of(&[secs]);
    let other = dir.join("wrapper.sh");
    write_script(
        &other,
        &format!(
            "#!/bin/sh\nsleep {secs} &\nexec '{}' \"$@\"\n",
            fixture_binary().display()
        ),
    );
    let ended = start_fixture(
        &dir,
        &[
            "--exact",
            "also_passes",
            "--against-exe",
            other.to_str().unwrap(),
        ],
        &[],
    )
    .wait(Duration::from_secs(60));
    assert_eq!(ended.code(), Some(0), "{ended}");
    assert_compared(&ended, "also_passes");
    assert_no_sleep_left(secs, &ended);
}

/// Another door: a worker whose benchmark hangs is stopped at its time
/// limit, and what its benchmark started goes with it.
#[test]
fn a_hung_worker_is_stopped_at_its_limit_with_what_it_started() {
    let dir = scratch("worker-hung-orphan");
    let pids = dir.join("orphan-pids");
    let _reaper = Reaper::of(&[]).with_pid_file(&pids);
    let ended = start_fixture(
        &dir,
        &[
            "--include-ignored",
            "--exact",
            "leaves_orphan",
            "also_passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
        &[
            ("BENCH_FIXTURE_ORPHAN_PIDS", pids.as_os_str()),
            ("BENCH_FIXTURE_ORPHAN_HANG", OsStr::new("1")),
        ],
    )
    .wait(Duration::from_secs(45));
    assert_eq!(ended.code(), Some(101), "{ended}");
    let hung = row(&ended, "leaves_orphan");
    assert!(
        hung.contains("did not answer within 11 s"),
        "{hung}\n{ended}"
    );
    assert_compared(&ended, "also_passes");
    assert_none_left_of(&pids, "the hung worker's background sleep", &ended);
}

// Failure 15: --against kept a worker's whole output line in memory.

/// The run's peak resident memory in KiB, read from /proc while it runs.
fn wait_measuring_peak(started: Started, limit: Duration) -> (Ended, u64) {
    let mut peak_kib = 0u64;
    let ended = started.wait_with(limit, |pid| {
        let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            return;
        };
        if let Some(hwm) = text.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
            let kib = hwm
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .unwrap_or(0);
            peak_kib = peak_kib.max(kib);
        }
    });
    (ended, peak_kib)
}

/// The parent's memory stays under this, whatever a worker writes.
const PEAK_LIMIT_KIB: u64 = 64 * 1024;

/// A script that writes 300 MiB with no line break to file descriptor
/// `fd`, then exits 1.
fn flooding_script(dir: &Path, fd: u32) -> PathBuf {
    let path = dir.join(format!("flood-{fd}.sh"));
    write_script(
        &path,
        &format!(
            "#!/bin/sh\nyes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | tr -d '\\n' | head -c 314572800 \
             >&{fd}\nexit 1\n"
        ),
    );
    path
}

/// A non-worker that floods one endless line on descriptor `fd` (1: its
/// stdout, 2: its stderr): refused, at a small cost, in a short message.
fn a_non_worker_flooding_one_line_costs_the_run_little(name: &str, fd: u32) {
    let dir = scratch(name);
    let other = flooding_script(&dir, fd);
    let started = start_against_passes(&dir, &other);
    let (ended, peak_kib) = wait_measuring_peak(started, Duration::from_secs(40));
    assert!(
        peak_kib < PEAK_LIMIT_KIB,
        "the run peaked at {peak_kib} KiB\n{ended}"
    );
    assert_refused_as_no_worker(&ended, Duration::from_secs(30));
    // The worker's last words are quoted, not all 300 MiB of them.
    assert!(ended.stderr.len() < 64 * 1024, "{ended}");
}

#[test]
fn a_non_worker_flooding_one_endless_stdout_line_costs_the_run_little() {
    a_non_worker_flooding_one_line_costs_the_run_little("flood-stdout", 1);
}

#[test]
fn a_non_worker_flooding_one_endless_stderr_line_costs_the_run_little() {
    a_non_worker_flooding_one_line_costs_the_run_little("flood-stderr", 2);
}

/// Another door: a worker's benchmark floods its stderr with one line and
/// aborts; its benchmark fails, with a message of a readable length.
#[test]
fn a_worker_benchmark_flooding_one_stderr_line_fails_and_costs_the_run_little() {
    let dir = scratch("flood-worker-stderr");
    let started = start_fixture(
        &dir,
        &[
            "--include-ignored",
            "--exact",
            "supervised/floods_one_stderr_line",
            "also_passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
        &[
            (
                "BENCH_FIXTURE_SUPERVISED",
                OsStr::new("floods_one_stderr_line"),
            ),
            ("BENCH_FIXTURE_FLOOD_MB", OsStr::new("300")),
        ],
    );
    let (ended, peak_kib) = wait_measuring_peak(started, Duration::from_secs(60));
    assert!(
        peak_kib < PEAK_LIMIT_KIB,
        "the run peaked at {peak_kib} KiB\n{ended}"
    );
    assert_eq!(ended.code(), Some(101), "{ended}");
    let failed = row(&ended, "supervised/floods_one_stderr_line");
    assert!(failed.starts_with("failed: "), "{ended}");
    assert!(failed.len() < 64 * 1024, "a row of {} bytes", failed.len());
    assert_compared(&ended, "also_passes");
}

// Failure 17: Ctrl-C was ignored while waiting for a hello; a killed run
// left the non-worker running.

/// The fixture against a script that only sleeps (`exec sleep SECS`),
/// once that sleep is running.
fn waiting_for_a_silent_hello(dir: &Path, secs: u32) -> Started {
    let other = dir.join("silent.sh");
    write_script(&other, &format!("#!/bin/sh\nexec sleep {secs}\n"));
    let started = start_against_passes(dir, &other);
    wait_for(&format!("sleep {secs}"), || sleeping(secs));
    // Into the wait for the hello.
    std::thread::sleep(Duration::from_millis(300));
    started
}

/// A Ctrl-C, as a terminal sends it (to the run's process group), ends the
/// run within 3 s with exit code 130, and no `sleep secs` is left.
fn ctrl_c_ends_it_at_once(started: Started, secs: u32) {
    let interrupted = Instant::now();
    started.signal_group("-INT");
    let limit = started.limit_in(Duration::from_secs(10));
    let ended = started.wait(limit);
    let took = interrupted.elapsed();
    assert!(
        took < Duration::from_secs(3),
        "ended {took:?} after Ctrl-C\n{ended}"
    );
    assert_eq!(ended.code(), Some(130), "{ended}");
    assert_no_sleep_left(secs, &ended);
}

#[test]
fn ctrl_c_while_waiting_for_a_silent_non_worker_ends_the_run_at_once() {
    let dir = scratch("silent-ctrl-c");
    let secs = unique_secs(5);
    let _reaper = Reaper::of(&[secs]);
    let started = waiting_for_a_silent_hello(&dir, secs);
    ctrl_c_ends_it_at_once(started, secs);
}

/// Another door: SIGTERM ends the run at once, the non-worker with it.
#[test]
fn sigterm_while_waiting_for_a_silent_non_worker_takes_it_down() {
    let dir = scratch("silent-sigterm");
    let secs = unique_secs(6);
    let _reaper = Reaper::of(&[secs]);
    let started = waiting_for_a_silent_hello(&dir, secs);
    let stopped = Instant::now();
    started.signal("-TERM");
    let limit = started.limit_in(Duration::from_secs(10));
    let ended = started.wait(limit);
    let took = stopped.elapsed();
    assert!(
        took < Duration::from_secs(3),
        "ended {took:?} after SIGTERM\n{ended}"
    );
    assert!(
        ended.status.signal() == Some(15) || ended.code() == Some(143),
        "{ended}"
    );
    assert_no_sleep_left(secs, &ended);
}

#[test]
fn kill_9_while_waiting_for_a_silent_non_worker_takes_it_down() {
    let dir = scratch("silent-kill-9");
    let secs = unique_secs(7);
    let _reaper = Reaper::of(&[secs]);
    let started = waiting_for_a_silent_hello(&dir, secs);
    started.signal("-KILL");
    let ended = started.wait(Duration::from_secs(60));
    assert_eq!(ended.status.signal(), Some(9), "{ended}");
    // The parent-death signal: within 2 s.
    let left = still_there_after(Duration::from_secs(2), || sleeping(secs));
    assert!(
        left.is_empty(),
        "`sleep {secs}` outlived the killed run: pids {left:?}"
    );
}

// Failure 18: a setsid daemon a benchmark started outlived the run.

/// The fixture benchmark that starts a `setsid` daemon.
const DAEMON: &str = "supervised/starts_setsid_daemon";

/// Runs [`DAEMON`] with `args`; the run's end, once its
/// daemons are checked gone.
fn setsid_daemon_case(name: &str, k: u32, args: &[&str]) -> Option<Ended> {
    if !setsid_present() {
        return None;
    }
    let dir = scratch(name);
    let secs = unique_secs(k);
    let pids = dir.join("daemon-pids");
    let _reaper = Reaper::of(&[secs]).with_pid_file(&pids);
    let secs_text = secs.to_string();
    let ended = start_fixture(
        &dir,
        args,
        &[
            (
                "BENCH_FIXTURE_SUPERVISED",
                OsStr::new("starts_setsid_daemon"),
            ),
            ("BENCH_FIXTURE_DAEMON_SECS", OsStr::new(&secs_text)),
            ("BENCH_FIXTURE_DAEMON_PIDS", pids.as_os_str()),
        ],
    )
    .wait(Duration::from_secs(60));
    assert_eq!(ended.code(), Some(0), "{ended}");
    assert_none_left_of(&pids, "a benchmark's setsid daemon", &ended);
    assert_no_sleep_left(secs, &ended);
    Some(ended)
}

#[test]
fn a_setsid_daemon_started_by_a_benchmark_does_not_outlive_a_forks_1_run() {
    let Some(ended) = setsid_daemon_case(
        "setsid-forks-1",
        8,
        &["--forks", "1", "--ignored", "--exact", DAEMON],
    ) else {
        return;
    };
    assert!(ended.stdout.contains(DAEMON), "{ended}");
}

#[test]
fn a_setsid_daemon_started_by_a_benchmark_does_not_outlive_a_forks_2_run() {
    let Some(ended) = setsid_daemon_case(
        "setsid-forks-2",
        9,
        &["--forks", "2", "--ignored", "--exact", DAEMON],
    ) else {
        return;
    };
    assert!(ended.stdout.contains("2 processes: "), "{ended}");
}

/// The default run: benchmarks measured in 3 processes, no --forks given.
#[test]
fn a_setsid_daemon_started_by_a_benchmark_does_not_outlive_a_default_run() {
    let Some(ended) = setsid_daemon_case("setsid-default", 10, &["--ignored", "--exact", DAEMON])
    else {
        return;
    };
    assert!(ended.stdout.contains(DAEMON), "{ended}");
}

#[test]
fn a_setsid_daemon_started_by_a_worker_benchmark_does_not_outlive_the_run() {
    let Some(ended) = setsid_daemon_case(
        "setsid-against",
        11,
        &[
            "--include-ignored",
            "--exact",
            DAEMON,
            "also_passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
    ) else {
        return;
    };
    assert_compared(&ended, "also_passes");
}

// Failure 19: after one out-of-step reply the worker was kept, and every
// later benchmark failed.

/// A proxy that runs the real worker (the fixture, its arguments passed
/// through) and relays its lines; the first proxy process of the run (a
/// marker file tells) misbehaves once, as `MODE` says: `extra` sends one
/// extra `closed` reply after the first `opened`, `garbage` one line that
/// is no JSON there, `hello_twice` its hello twice.
const PROXY: &str = r#"
import os, subprocess, sys, threading

marker = os.environ["PROXY_MARKER"]
try:
    os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    mode = os.environ["MODE"]
except FileExistsError:
    mode = "faithful"
worker = subprocess.Popen([os.environ["REAL_WORKER"]] + sys.argv[1:],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def requests():
    for line in sys.stdin.buffer:
        worker.stdin.write(line)
        worker.stdin.flush()
    worker.stdin.close()

threading.Thread(target=requests, daemon=True).start()
out = sys.stdout.buffer
first_opened = True
for line in worker.stdout:
    out.write(line)
    if mode == "hello_twice" and b'"hello"' in line:
        out.write(line)
        mode = "faithful"
    if b'"opened"' in line and first_opened:
        first_opened = False
        if mode == "extra":
            out.write(b'{"type":"closed"}\n')
        elif mode == "garbage":
            out.write(b'this is no reply\n')
    out.flush()
worker.wait()
"#;

fn misstep_case(name: &str, mode: &str) {
    if !python_present() {
        return;
    }
    let dir = scratch(name);
    let proxy = dir.join("proxy.py");
    let python = if Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "/usr/bin/env python3"
    };
    write_script(&proxy, &format!("#!{python}\n{PROXY}"));
    let marker = dir.join("misbehaved");
    let ended = start_fixture(
        &dir,
        &[
            "--exact",
            "also_passes",
            "spins",
            "--against-exe",
            proxy.to_str().unwrap(),
        ],
        &[
            ("PROXY_MARKER", marker.as_os_str()),
            ("MODE", OsStr::new(mode)),
            ("REAL_WORKER", fixture_binary().as_os_str()),
        ],
    )
    .wait(Duration::from_secs(60));
    assert!(marker.exists(), "the proxy never ran:\n{ended}");
    // The misstep fails at most the benchmark under way (the first), with
    // one line; the next is compared, by a worker in step.
    let first = row(&ended, "also_passes");
    if first.starts_with("failed") {
        assert_eq!(ended.code(), Some(101), "{ended}");
        // A reason, no panic.
        assert!(first.len() > "failed: ".len(), "{first}");
        assert!(!ended.stderr.contains("panicked"), "{ended}");
    } else {
        assert_eq!(ended.code(), Some(0), "{ended}");
    }
    assert_compared(&ended, "spins");
    assert!(ended.took < Duration::from_secs(30), "{ended}");
    let left = still_there_after(SETTLE, || mentioning(proxy.to_str().unwrap()));
    assert!(left.is_empty(), "proxies left running: {left:?}\n{ended}");
}

#[test]
fn an_extra_reply_fails_at_most_the_benchmark_under_way() {
    misstep_case("misstep-extra", "extra");
}

#[test]
fn a_second_hello_fails_at_most_the_benchmark_under_way() {
    misstep_case("misstep-hello-twice", "hello_twice");
}

/// Another door: one line that is no reply at all.
#[test]
fn an_unreadable_extra_line_fails_at_most_the_benchmark_under_way() {
    misstep_case("misstep-garbage", "garbage");
}

// The second review of the supervisor: harms found after the fixes above.

/// The fixture with `args` after the budgets `budgets` (in place of
/// [`QUICK`]'s).
fn start_fixture_budgets(
    dir: &Path,
    budgets: &[&str],
    args: &[&str],
    env: &[(&str, &OsStr)],
) -> Started {
    let mut all = vec!["--bench", "--flat", "--details", "--precision", "0"];
    all.extend_from_slice(budgets);
    all.extend_from_slice(args);
    start(fixture_binary(), dir, &all, env)
}

/// Whether `unshare -pf --mount-proc` may make a PID namespace here (root,
/// or user namespaces allowed); a note when not.
fn pid_namespaces_allowed() -> bool {
    let allowed = Command::new("unshare")
        .args(["-pf", "--mount-proc", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !allowed {
        eprintln!("note: `unshare -pf` is refused here: the PID 1 test is skipped");
    }
    allowed
}

/// The fixture as PID 1 of a PID namespace of its own, as a container's
/// entrypoint is, with QUICK budgets and `args`.
fn start_fixture_as_pid_1(dir: &Path, args: &[&str]) -> Started {
    let fixture = fixture_binary().to_str().unwrap();
    let mut all = vec!["-pf", "--mount-proc", fixture];
    all.extend_from_slice(QUICK);
    all.extend_from_slice(&["--max-time", "0.5"]);
    all.extend_from_slice(args);
    start(Path::new("unshare"), dir, &all, &[])
}

/// The fixture in a PID namespace of its own, but not its PID 1 (a shell
/// is), with QUICK budgets and `args`.
fn start_fixture_in_pid_namespace(dir: &Path, args: &[&str]) -> Started {
    let fixture = fixture_binary().to_str().unwrap();
    let mut all = vec![
        "-pf",
        "--mount-proc",
        "sh",
        "-c",
        "\"$@\"; status=$?; exit $status",
        "sh",
        fixture,
    ];
    all.extend_from_slice(QUICK);
    all.extend_from_slice(&["--max-time", "0.5"]);
    all.extend_from_slice(args);
    start(Path::new("unshare"), dir, &all, &[])
}

// Review 2, finding 1: a run that was PID 1 of its PID namespace failed
// every benchmark (its children "exited with code 130").

#[test]
fn a_run_that_is_pid_1_of_its_namespace_measures_its_benchmarks() {
    if !pid_namespaces_allowed() {
        return;
    }
    let dir = scratch("pid-1-forks");
    let ended =
        start_fixture_as_pid_1(&dir, &["--exact", "also_passes"]).wait(Duration::from_secs(60));
    assert_eq!(ended.code(), Some(0), "{ended}");
    assert!(ended.stdout.contains("also_passes"), "{ended}");
    assert!(!ended.stderr.contains("code 130"), "{ended}");
}

#[test]
fn a_run_that_is_pid_1_of_its_namespace_compares_against_a_worker() {
    if !pid_namespaces_allowed() {
        return;
    }
    let dir = scratch("pid-1-against");
    let ended = start_fixture_as_pid_1(
        &dir,
        &[
            "--exact",
            "also_passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
    )
    .wait(Duration::from_secs(60));
    assert_eq!(ended.code(), Some(0), "{ended}");
    assert_compared(&ended, "also_passes");
}

// Review 2, finding 2: SIGTERM or SIGHUP to a run left what its children
// started running.

#[test]
fn sigterm_during_against_ends_the_run_and_takes_the_workers_daemons_down() {
    if !setsid_present() {
        return;
    }
    let dir = scratch("against-sigterm-daemon");
    let secs = unique_secs(12);
    let pids = dir.join("daemon-pids");
    let _reaper = Reaper::of(&[secs]).with_pid_file(&pids);
    let secs_text = secs.to_string();
    let started = start_fixture_budgets(
        &dir,
        &[
            "--warm-up-time",
            "0.5",
            "--measure-time",
            "3",
            "--max-time",
            "6",
        ],
        &[
            "--include-ignored",
            "--exact",
            DAEMON,
            "also_passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
        &[
            (
                "BENCH_FIXTURE_SUPERVISED",
                OsStr::new("starts_setsid_daemon"),
            ),
            ("BENCH_FIXTURE_DAEMON_SECS", OsStr::new(&secs_text)),
            ("BENCH_FIXTURE_DAEMON_PIDS", pids.as_os_str()),
        ],
    );
    wait_for(&format!("sleep {secs}"), || sleeping(secs));
    // Into the measurement, the daemons running.
    let at = Duration::from_secs(4);
    if let Some(rest) = at.checked_sub(started.began.elapsed()) {
        std::thread::sleep(rest);
    }
    started.signal("-TERM");
    let stopped = Instant::now();
    let limit = started.limit_in(Duration::from_secs(15));
    let ended = started.wait(limit);
    assert!(
        ended.status.signal() == Some(15) || ended.code() == Some(143),
        "{ended}"
    );
    assert!(
        stopped.elapsed() < Duration::from_secs(10),
        "ended {:?} after SIGTERM\n{ended}",
        stopped.elapsed()
    );
    assert_none_left_of(&pids, "a worker benchmark's setsid daemon", &ended);
    assert_no_sleep_left(secs, &ended);
}

#[test]
fn sighup_during_a_forks_1_run_ends_it_and_takes_the_childs_orphan_down() {
    let dir = scratch("forks-sighup-orphan");
    let pids = dir.join("orphan-pids");
    let _reaper = Reaper::of(&[]).with_pid_file(&pids);
    let started = start_fixture(
        &dir,
        &["--forks", "1", "--ignored", "--exact", "leaves_orphan"],
        &[
            ("BENCH_FIXTURE_ORPHAN_PIDS", pids.as_os_str()),
            ("BENCH_FIXTURE_ORPHAN_HANG", OsStr::new("1")),
        ],
    );
    wait_for("the child's orphan", || pids_in(&pids));
    // Into the hung iteration.
    std::thread::sleep(Duration::from_millis(300));
    started.signal("-HUP");
    let hung_up = Instant::now();
    let limit = started.limit_in(Duration::from_secs(15));
    let ended = started.wait(limit);
    assert!(
        hung_up.elapsed() < Duration::from_secs(5),
        "ended {:?} after SIGHUP\n{ended}",
        hung_up.elapsed()
    );
    assert_ne!(ended.code(), Some(0), "{ended}");
    assert_none_left_of(&pids, "the child's orphan", &ended);
}

// Review 2, finding 3: a request of 64 KiB or more to a worker that never
// read its input blocked the run for good, Ctrl-C ignored.

/// The name of the fixture's `hostile::long_name` benchmark: 70,000 `x`.
fn long_name() -> String {
    format!("hostile::long_name/{}", "x".repeat(70_000))
}

/// The fixture against a script that says a worker's hello (its one
/// benchmark `hostile::long_name`) and then only sleeps (`exec sleep
/// SECS`), never reading its input; once that sleep is running.
fn against_a_deaf_worker(dir: &Path, secs: u32) -> Started {
    let hello = dir.join("hello.json");
    std::fs::write(
        &hello,
        format!(
            "{{\"type\":\"hello\",\"worker\":\"bench-harness\",\"protocol\":1,\
             \"harness_version\":\"0.0.0\",\"benchmarks\":[\"{}\"]}}\n",
            long_name()
        ),
    )
    .unwrap();
    let other = dir.join("deaf.sh");
    write_script(
        &other,
        &format!("#!/bin/sh\ncat '{}'\nexec sleep {secs}\n", hello.display()),
    );
    let name = long_name();
    let started = start_fixture(
        dir,
        &[
            "--ignored",
            "--exact",
            &name,
            "--against-exe",
            other.to_str().unwrap(),
        ],
        &[],
    );
    wait_for(&format!("sleep {secs}"), || sleeping(secs));
    started
}

#[test]
fn ctrl_c_ends_a_run_blocked_on_a_worker_that_never_reads_a_long_request() {
    let dir = scratch("deaf-worker-ctrl-c");
    let secs = unique_secs(13);
    let _reaper = Reaper::of(&[secs]);
    let started = against_a_deaf_worker(&dir, secs);
    let at = Duration::from_secs(3);
    if let Some(rest) = at.checked_sub(started.began.elapsed()) {
        std::thread::sleep(rest);
    }
    ctrl_c_ends_it_at_once(started, secs);
}

#[test]
fn a_worker_that_never_reads_a_long_request_fails_its_benchmark_at_the_limit() {
    let dir = scratch("deaf-worker-limit");
    let secs = unique_secs(14);
    let _reaper = Reaper::of(&[secs]);
    let ended = against_a_deaf_worker(&dir, secs).wait(Duration::from_secs(40));
    assert_eq!(ended.code(), Some(101), "{ended}");
    // The wait limit is 2 × --max-time + 10 s: 11 s.
    assert!(
        ended.took < Duration::from_secs(20),
        "failed only after {:?}\n{ended}",
        ended.took
    );
    assert!(!ended.stderr.contains("panicked"), "{ended}");
    assert_no_sleep_left(secs, &ended);
}

// Review 2, finding 4: a non-worker that exited while a daemon it started
// held its output cost the run 30 s and "no answer".

#[test]
fn a_non_worker_that_exits_leaving_a_setsid_daemon_on_its_stdout_is_refused_promptly() {
    if !setsid_present() {
        return;
    }
    let dir = scratch("daemon-stdout-exit");
    let secs = unique_secs(15);
    let _reaper = Reaper::of(&[secs]);
    let other = dir.join("daemon-exit.sh");
    // The daemon holds the script's stdout (a pipe to the run) open.
    write_script(
        &other,
        &format!("#!/bin/sh\nsetsid sleep {secs} &\nexit 3\n"),
    );
    let ended = against_passes(&dir, &other, Duration::from_secs(40));
    assert_eq!(ended.code(), Some(2), "{ended}");
    let error = one_line_error(&ended);
    assert!(error.contains("exited with code 3"), "{error}\n{ended}");
    assert!(
        ended.took < Duration::from_secs(10),
        "refused only after {:?}\n{ended}",
        ended.took
    );
    assert_no_sleep_left(secs, &ended);
}

// Review 2, finding 5: a `--forks 1` run killed with SIGKILL left what its
// child had started in the child's group.

#[test]
fn kill_9_of_a_forks_1_run_takes_the_childs_orphan_down() {
    let dir = scratch("forks-kill-9-orphan");
    let pids = dir.join("orphan-pids");
    let _reaper = Reaper::of(&[]).with_pid_file(&pids);
    let started = start_fixture(
        &dir,
        &["--forks", "1", "--ignored", "--exact", "leaves_orphan"],
        &[
            ("BENCH_FIXTURE_ORPHAN_PIDS", pids.as_os_str()),
            ("BENCH_FIXTURE_ORPHAN_HANG", OsStr::new("1")),
        ],
    );
    let orphans = wait_for("the child's orphan", || pids_in(&pids));
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        orphans.iter().all(|&p| is_sleep(p) && !gone(p)),
        "the orphan ended before the run was killed"
    );
    started.signal("-KILL");
    let ended = started.wait(Duration::from_secs(60));
    assert_eq!(ended.status.signal(), Some(9), "{ended}");
    assert_none_left_of(&pids, "the killed run's child's orphan", &ended);
}

// Review 2, finding 6: runs at once must not kill each other's processes
// (or remove each other's scratch directories, when forks had them).

#[test]
fn a_second_run_at_once_leaves_the_first_runs_daemon_alone() {
    if !setsid_present() {
        return;
    }
    // Both runs share one temporary directory, as two runs on one
    // machine share /tmp.
    let dir = scratch("two-runs-at-once");
    let secs = unique_secs(16);
    let pids = dir.join("daemon-pids");
    let _reaper = Reaper::of(&[secs]).with_pid_file(&pids);
    let secs_text = secs.to_string();
    let mut first = start_fixture_budgets(
        &dir,
        &[
            "--warm-up-time",
            "0.1",
            "--measure-time",
            "6",
            "--max-time",
            "12",
        ],
        &["--forks", "1", "--ignored", "--exact", DAEMON],
        &[
            (
                "BENCH_FIXTURE_SUPERVISED",
                OsStr::new("starts_setsid_daemon"),
            ),
            ("BENCH_FIXTURE_DAEMON_SECS", OsStr::new(&secs_text)),
            ("BENCH_FIXTURE_DAEMON_PIDS", pids.as_os_str()),
        ],
    );
    let daemons = wait_for(&format!("sleep {secs}"), || sleeping(secs));
    // Where it may, the second run is in a PID namespace of its own (a
    // container sharing /tmp), where the first run's pids name nothing.
    let second = if pid_namespaces_allowed() {
        start_fixture_in_pid_namespace(&dir, &["--exact", "passes"])
    } else {
        start_fixture(&dir, &["--exact", "passes"], &[])
    }
    .wait(Duration::from_secs(30));
    assert_eq!(second.code(), Some(0), "{second}");
    assert!(
        first.child.as_mut().unwrap().try_wait().unwrap().is_none(),
        "the first run ended before the second did: the test proves nothing"
    );
    let killed: Vec<u32> = daemons.iter().copied().filter(|&p| gone(p)).collect();
    assert!(
        killed.is_empty(),
        "the second run killed the first run's daemon {killed:?}\n{second}"
    );
    let ended = first.wait(Duration::from_secs(60));
    assert_eq!(ended.code(), Some(0), "{ended}");
    assert!(ended.stdout.contains(DAEMON), "{ended}");
    assert_none_left_of(&pids, "the first run's setsid daemon", &ended);
    assert_no_sleep_left(secs, &ended);
}
