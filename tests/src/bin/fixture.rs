//! Benchmarks that misbehave on purpose, for the end-to-end tests.

use std::time::Duration;

use bench_harness::{benchmark, black_box, Bencher};

#[benchmark]
fn passes() -> u64 {
    black_box(20u64) + 1
}

#[benchmark]
fn also_passes(b: &mut Bencher) {
    let data = [1u8; 64];
    b.iter(|| data.iter().map(|&x| u64::from(x)).sum::<u64>())
}

#[benchmark(ignore)]
fn ignored_by_attribute() -> u64 {
    black_box(1)
}

#[benchmark]
fn panics_in_setup(b: &mut Bencher) {
    let config: Option<u32> = black_box(None);
    let n = config.expect("set-up failed on purpose");
    b.iter(|| n + 1)
}

#[benchmark]
fn panics_in_routine() -> u64 {
    panic!("the routine failed on purpose")
}

#[benchmark]
fn never_iterates(_b: &mut Bencher) {}

/// Four times the work when `BENCH_FIXTURE_SLOWER` is set: a regression on
/// demand.
#[benchmark]
fn spins(b: &mut Bencher) {
    let rounds: u64 = if std::env::var_os("BENCH_FIXTURE_SLOWER").is_some() {
        8000
    } else {
        2000
    };
    b.iter(|| (0..black_box(rounds)).fold(0u64, |acc, x| acc.wrapping_mul(31).wrapping_add(x)))
}

/// Maps 40 MiB afresh each iteration (above glibc's largest mmap threshold)
/// and touches every page: about 10,240 page faults per iteration.
#[benchmark]
fn touches_pages() -> usize {
    let mut buffer: Vec<u8> = Vec::with_capacity(40 << 20);
    let spare = buffer.spare_capacity_mut();
    for page in spare.iter_mut().step_by(4096) {
        page.write(1);
    }
    black_box(buffer.capacity())
}

/// One iteration takes 30 ms: slower than a small --max-time.
#[benchmark]
fn sleeps_30ms() {
    std::thread::sleep(Duration::from_millis(30));
}

/// One iteration takes 20 s: only a second Ctrl-C ends it early. Ignored,
/// so it runs only when asked for by name with `--ignored`.
#[benchmark(ignore)]
fn sleeps_20s() {
    std::thread::sleep(Duration::from_secs(20));
}

/// Aborts the process, as a double panic or a failed C assertion would: no
/// `catch_unwind` can contain it, only `--forks`. Ignored, so it runs only
/// when asked for by name.
#[benchmark(ignore)]
fn aborts() {
    std::process::abort()
}

/// Two values whose names are the same, `same_name/twin`: `--forks`, which
/// selects a benchmark by name in each process, cannot tell them apart.
/// Ignored, so it runs only when asked for.
#[benchmark(ignore, args = [Twin(1), Twin(2)])]
fn same_name(twin: Twin) -> u32 {
    twin.0
}

#[derive(Clone, Copy)]
struct Twin(u32);

impl std::fmt::Display for Twin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("twin")
    }
}

/// Its `args` expression panics: one FAILED benchmark stands for all.
#[benchmark(args = panicking_args())]
fn bad_args(n: u32) -> u32 {
    n
}

fn panicking_args() -> Vec<u32> {
    panic!("no sizes today")
}

/// An in-run A/B group over `args`, ignored so it runs only when asked for:
/// `twice` does `once`'s work twice over at every size, so at each argument
/// it is about 2× `once` at that argument (against `once/16`, `twice/1024`
/// would be 128×). `once` has no 4096: `twice/4096` has nothing to pair with.
mod by_size {
    use super::*;

    /// `n` dependent multiplies: a cost proportional to `n`.
    fn chain(n: u64) -> u64 {
        let mut x = black_box(3u64);
        for _ in 0..n {
            x = black_box(x.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        x
    }

    #[benchmark(ignore, group = "by_size", baseline, args = [16, 1024])]
    fn once(n: u64) -> u64 {
        chain(n)
    }

    #[benchmark(ignore, group = "by_size", args = [16, 1024, 4096])]
    fn twice(n: u64) -> u64 {
        chain(2 * n)
    }
}

/// Benchmarks that attack the harness itself (issue 14), ignored so they run
/// only when asked for by name (`--skip hostile` leaves them all out).
mod hostile {
    use super::*;

    /// Ends the process from inside its routine, as a library that calls
    /// `exit` on an error would.
    #[benchmark(ignore)]
    fn exits() {
        std::process::exit(0)
    }

    extern "C" {
        /// libc's: ends the process at once, no `atexit` handler run.
        fn _exit(code: i32) -> !;
    }

    /// Ends the process with `_exit(0)` after 100,000 calls: no exit hook
    /// sees it, only a parent that expected results.
    #[benchmark(ignore)]
    fn underscore_exits(b: &mut Bencher) {
        let mut calls = 0u64;
        b.iter(|| {
            calls += 1;
            if calls > 100_000 {
                // SAFETY: ending the process is the point; nothing of this
                // process is used after it.
                unsafe { _exit(0) }
            }
            calls
        })
    }

    /// Its panic's payload panics again when dropped.
    struct PanicsOnDrop;

    impl Drop for PanicsOnDrop {
        fn drop(&mut self) {
            panic!("the payload's drop failed on purpose")
        }
    }

    #[benchmark(ignore)]
    fn payload_drop_panics() {
        std::panic::panic_any(PanicsOnDrop)
    }

    /// Names with a line break and an escape sequence (clear the screen).
    #[benchmark(ignore, args = ["line\nbreak", "\u{1b}[2Jclear"])]
    fn control_names(s: &str) -> usize {
        black_box(s).len()
    }

    /// A name of 70,000 characters: wider than any format string's width
    /// (65,535) can pad.
    #[benchmark(ignore, args = [Long(70_000)])]
    fn long_name(long: Long) -> usize {
        black_box(long.0)
    }

    #[derive(Clone, Copy)]
    pub struct Long(pub usize);

    impl std::fmt::Display for Long {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&"x".repeat(self.0))
        }
    }

    /// Names with a NUL, a C1 control (CSI) and a right-to-left override,
    /// which a browser would show as `rtlexe.txt`.
    #[benchmark(ignore, args = ["nul\0byte", "csi\u{9b}31m", "rtl\u{202e}txt.exe"])]
    fn bidi_names(s: &str) -> usize {
        black_box(s).len()
    }

    /// Replaces this executable's file, as a rebuild during the run does,
    /// with the file `BENCH_FIXTURE_REPLACE_EXE` names, or removes it when
    /// that is `remove`; once per process.
    #[benchmark(ignore)]
    fn replaces_own_executable() -> u64 {
        static DONE: std::sync::Once = std::sync::Once::new();
        DONE.call_once(|| {
            let Some(with) = std::env::var_os("BENCH_FIXTURE_REPLACE_EXE") else {
                return;
            };
            let exe = std::env::current_exe().expect("the executable's path");
            if with == "remove" {
                std::fs::remove_file(&exe).expect("the executable is removed");
            } else {
                std::fs::rename(&with, &exe).expect("the executable is replaced");
            }
        });
        black_box(3)
    }

    /// Set by `exiting_thread_trigger`.
    static TRIGGERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

    /// Starts a thread that calls `exit(0)` later, while another job runs:
    /// once `exiting_thread_trigger` has run when
    /// `BENCH_FIXTURE_WAIT_FOR_TRIGGER` is set, else once the harness's
    /// own `loop_overhead` job has a thread (the name of its thread). A
    /// library's background thread that exits on its own schedule.
    #[benchmark(ignore)]
    fn exiting_thread_starts(b: &mut Bencher) {
        static STARTED: std::sync::Once = std::sync::Once::new();
        STARTED.call_once(|| {
            let trigger = std::env::var_os("BENCH_FIXTURE_WAIT_FOR_TRIGGER").is_some();
            std::thread::spawn(move || loop {
                let now = if trigger {
                    TRIGGERED.load(std::sync::atomic::Ordering::SeqCst)
                } else {
                    thread_named("loop_overhead")
                };
                if now {
                    std::process::exit(0);
                }
                std::thread::sleep(Duration::from_millis(1));
            });
        });
        b.iter(|| black_box(5u64) * 3);
    }

    /// Whether a thread of this process is named `name`.
    fn thread_named(name: &str) -> bool {
        let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
            return false;
        };
        tasks.filter_map(Result::ok).any(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|c| c.trim() == name)
        })
    }

    /// Lets the thread `exiting_thread_starts` started call `exit`, and
    /// runs long enough for it to do so inside this benchmark.
    #[benchmark(ignore)]
    fn exiting_thread_trigger() -> u64 {
        TRIGGERED.store(true, std::sync::atomic::Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(1));
        black_box(11)
    }

    /// A panic message that would clear the screen.
    #[benchmark(ignore)]
    fn panics_with_escape() {
        panic!("\u{1b}[2Jwiped\rover")
    }
}

fn main() {
    // What a bench target's `main` may do before it hands over: start
    // threads that allocate and live on (a thread pool, say). Each has an
    // arena of its own, which glibc hands to later threads in turn.
    if std::env::var_os("BENCH_FIXTURE_THREADS_FIRST").is_some() {
        for _ in 0..4 {
            let (sent, allocated) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let len = black_box(vec![1u8; 2000]).len();
                let _ = sent.send(len);
                std::thread::sleep(Duration::from_secs(600));
            });
            let _ = allocated.recv();
        }
    }
    bench_harness::main();
}

/// Starts `sleep 60` once per process, in the background, holding this
/// process's stderr, and appends its pid to the file named by
/// `BENCH_FIXTURE_ORPHAN_PIDS`: under `--forks` the parent must neither
/// wait for it nor let it outlive the run. With `BENCH_FIXTURE_ORPHAN_HANG`
/// set, each iteration then takes 20 s, as a hung one would. Ignored, so it
/// runs only when asked for.
#[benchmark(ignore)]
fn leaves_orphan() -> u64 {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let orphan = std::process::Command::new("sleep")
            .arg("60")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("sleep starts");
        if let Some(file) = std::env::var_os("BENCH_FIXTURE_ORPHAN_PIDS") {
            use std::io::Write;
            let mut pids = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(file)
                .expect("the pid file opens");
            writeln!(pids, "{}", orphan.id()).expect("the pid is written");
        }
        std::mem::forget(orphan);
    });
    if std::env::var_os("BENCH_FIXTURE_ORPHAN_HANG").is_some() {
        std::thread::sleep(Duration::from_secs(20));
    }
    black_box(7)
}

/// Writes `BENCH_FIXTURE_FLOOD_MB` MiB (default 64) of noise to stderr,
/// then what an allocation failure prints, then a runtime's note after it,
/// and aborts: the `--forks` parent keeps only the end of a child's stderr,
/// and quotes the line that says what happened. Ignored, so it runs only
/// when asked for.
#[benchmark(ignore)]
fn floods_stderr() {
    use std::io::Write;
    let mib: usize = std::env::var("BENCH_FIXTURE_FLOOD_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let line = "noise noise noise noise noise noise noise noise noise noise noise\n";
    let chunk = line.repeat(64 * 1024 / line.len());
    let mut stderr = std::io::stderr().lock();
    let mut written = 0;
    while written < mib << 20 {
        stderr.write_all(chunk.as_bytes()).expect("stderr is open");
        written += chunk.len();
    }
    writeln!(stderr, "memory allocation of 1099511627776 bytes failed").unwrap();
    writeln!(
        stderr,
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
    )
    .unwrap();
    std::process::abort()
}

/// `BENCH_FIXTURE_<NAME>` as a whole number, else `default`.
fn fixture_number(name: &str, default: u32) -> u32 {
    std::env::var(format!("BENCH_FIXTURE_{name}"))
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Appends `pid` to the file named by variable `var`, if it is set.
fn record_pid(var: &str, pid: u32) {
    use std::io::Write;
    if let Some(file) = std::env::var_os(var) {
        let mut pids = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .expect("the pid file opens");
        writeln!(pids, "{pid}").expect("the pid is written");
    }
}

/// What a `supervised` benchmark does to the process supervising it.
#[derive(Clone, Copy)]
enum Supervised {
    StartsSetsidDaemon,
    LeavesHelperThenAborts,
    FloodsOneStderrLine,
}

impl std::fmt::Display for Supervised {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Supervised::StartsSetsidDaemon => "starts_setsid_daemon",
            Supervised::LeavesHelperThenAborts => "leaves_helper_then_aborts",
            Supervised::FloodsOneStderrLine => "floods_one_stderr_line",
        })
    }
}

/// The `supervised` values named in `BENCH_FIXTURE_SUPERVISED` (by their
/// names, comma-separated); none when it is unset, so that the benchmarks
/// exist only in the supervisor tests' runs (and their workers and
/// children) and no other test's list or count changes.
fn supervised_args() -> Vec<Supervised> {
    let named = std::env::var("BENCH_FIXTURE_SUPERVISED").unwrap_or_default();
    [
        Supervised::StartsSetsidDaemon,
        Supervised::LeavesHelperThenAborts,
        Supervised::FloodsOneStderrLine,
    ]
    .into_iter()
    .filter(|what| named.split(',').any(|name| name == what.to_string()))
    .collect()
}

/// Benchmarks that test the supervisor of `--forks` children and
/// `--against` workers (`e2e/supervisor.rs`). Ignored, and there only when
/// `BENCH_FIXTURE_SUPERVISED` names them:
///
/// - `starts_setsid_daemon` starts a daemon once per process, as a
///   daemonizing library does (a double fork and `setsid`): `sleep
///   BENCH_FIXTURE_DAEMON_SECS` (default 60) in a session of its own, its
///   standard streams closed, its pid appended to the file named by
///   `BENCH_FIXTURE_DAEMON_PIDS`. A process group kill cannot reach it.
/// - `leaves_helper_then_aborts` starts `sleep BENCH_FIXTURE_HELPER_SECS`
///   (default 60) holding this process's stderr, appends its pid to the
///   file named by `BENCH_FIXTURE_HELPER_PIDS`, and aborts: the process has
///   ended, its stderr has not closed.
/// - `floods_one_stderr_line` writes `BENCH_FIXTURE_FLOOD_MB` MiB (default
///   64) to stderr as one line with no line break, then aborts: a reader
///   that keeps whole lines keeps it all.
#[benchmark(ignore, args = supervised_args())]
fn supervised(what: Supervised) -> u64 {
    match what {
        Supervised::StartsSetsidDaemon => {
            static STARTED: std::sync::Once = std::sync::Once::new();
            STARTED.call_once(|| {
                let secs = fixture_number("DAEMON_SECS", 60).to_string();
                // The shell's background job is no group leader, so `setsid`
                // makes the session itself and `$!` is the daemon's pid.
                let started = std::process::Command::new("sh")
                    .args([
                        "-c",
                        "setsid sleep \"$1\" </dev/null >/dev/null 2>&1 & echo $!",
                        "sh",
                        &secs,
                    ])
                    .stdin(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .output()
                    .expect("sh starts");
                let pid = String::from_utf8_lossy(&started.stdout).trim().parse();
                record_pid("BENCH_FIXTURE_DAEMON_PIDS", pid.expect("sh prints the pid"));
            });
            black_box(13)
        }
        Supervised::LeavesHelperThenAborts => {
            let helper = std::process::Command::new("sleep")
                .arg(fixture_number("HELPER_SECS", 60).to_string())
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("sleep starts");
            record_pid("BENCH_FIXTURE_HELPER_PIDS", helper.id());
            std::process::abort()
        }
        Supervised::FloodsOneStderrLine => {
            use std::io::Write;
            let mib = fixture_number("FLOOD_MB", 64) as usize;
            let chunk = "x".repeat(64 * 1024);
            let mut stderr = std::io::stderr().lock();
            for _ in 0..mib * 16 {
                if stderr.write_all(chunk.as_bytes()).is_err() {
                    break;
                }
            }
            std::process::abort()
        }
    }
}

/// A cost that differs between processes and not within one: each process
/// appends its pid to the file `BENCH_FIXTURE_PROCESSES` names the first
/// time it measures this, and spins 2000 rounds plus 500 for every process
/// before it.
#[benchmark(ignore)]
fn differs_by_process(b: &mut Bencher) {
    static ROUNDS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let rounds = *ROUNDS.get_or_init(|| {
        let before = std::env::var_os("BENCH_FIXTURE_PROCESSES")
            .and_then(|file| std::fs::read_to_string(file).ok())
            .map_or(0, |pids| pids.lines().count());
        record_pid("BENCH_FIXTURE_PROCESSES", std::process::id());
        2000 + 500 * before as u64
    });
    b.iter(|| (0..black_box(rounds)).fold(0u64, |acc, x| acc.wrapping_mul(31).wrapping_add(x)))
}

/// Reads its standard input to the end in every iteration: under a
/// worker it must see it empty, not the worker's requests.
#[benchmark(ignore)]
fn reads_stdin() -> usize {
    let mut text = String::new();
    let _ = std::io::Read::read_to_string(&mut std::io::stdin(), &mut text);
    text.len()
}

/// Allocates 2,000 bytes with glibc's malloc, and panics if they came from
/// an arena other than the main thread's: the bit `NON_MAIN_ARENA` (4) of
/// the chunk's size, the word glibc keeps just before the memory it hands
/// out. (Over 1,032 bytes, no per-thread cache stands between the request
/// and the thread's arena.) The harness measures on threads of its own; a
/// body must allocate as it would on `main`, and find no limit of the
/// run's in its environment.
#[benchmark(ignore)]
fn allocates_from_the_main_arena() -> usize {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: malloc takes a size; the result is checked for null.
        let block = unsafe { libc::malloc(black_box(2000)) }.cast::<usize>();
        assert!(!block.is_null(), "malloc refused 2,000 bytes");
        // SAFETY: glibc's chunk header ends with the size word, the 8 bytes
        // before the memory it returned: memory it owns and keeps readable
        // for as long as the chunk is allocated.
        let size = unsafe { block.wrapping_sub(1).read_volatile() };
        // SAFETY: the block came from malloc and is freed once.
        unsafe { libc::free(block.cast()) };
        assert!(size & 4 == 0, "allocated outside the main thread's arena");
    }
    // The run's own limit is not passed on to programs a body starts.
    let limit = std::env::var_os("MALLOC_ARENA_MAX");
    assert!(
        limit.is_none(),
        "the body's environment holds MALLOC_ARENA_MAX={limit:?}"
    );
    2000
}

/// Runs two threads of its own a call, each summing 20,000 numbers: a body
/// whose work is done beside the benchmark's thread.
#[benchmark(ignore)]
fn runs_two_threads() -> u64 {
    let sum = || (0..black_box(20_000u64)).fold(0u64, |acc, x| acc.wrapping_mul(31) ^ x);
    std::thread::scope(|scope| {
        let (a, b) = (scope.spawn(sum), scope.spawn(sum));
        a.join().unwrap_or(0) ^ b.join().unwrap_or(0)
    })
}

thread_local! {
    /// When [`cools_between_slices`] was last called, and until when it is
    /// cold.
    static COOLING: std::cell::Cell<Option<(std::time::Instant, std::time::Instant)>> =
        const { std::cell::Cell::new(None) };
}

/// A body whose state cools while it is paused, as a cache does while
/// other code runs: after a pause of over 100 µs since its last call, its
/// calls do ten times the work for a quarter of the pause. Run in a loop,
/// it stays warm: a chain of 100 multiplies and a clock read. With
/// `BENCH_FIXTURE_SETUPS` (a file each set-up adds a line to) and
/// `BENCH_FIXTURE_FAIL_AFTER=N`, its set-up fails after N earlier ones.
#[benchmark(ignore)]
fn cools_between_slices(b: &mut Bencher) {
    if let Some(file) = std::env::var_os("BENCH_FIXTURE_SETUPS") {
        let before = std::fs::read_to_string(&file).map_or(0, |s| s.lines().count());
        record_pid("BENCH_FIXTURE_SETUPS", std::process::id());
        let limit = fixture_number("FAIL_AFTER", u32::MAX);
        assert!(before < limit as usize, "set up again: fails on purpose");
    }
    b.iter(cool_call)
}

/// One call of [`cools_between_slices`].
fn cool_call() -> u64 {
    let now = std::time::Instant::now();
    let (last, mut cold_until) = COOLING.get().unwrap_or((now, now));
    let pause = now - last;
    if pause > Duration::from_micros(100) {
        cold_until = now + pause / 4;
    }
    COOLING.set(Some((now, cold_until)));
    let work = if now < cold_until { 10 } else { 1 };
    (0..work).fold(0, |acc, _| {
        acc ^ bench_harness::known_cost::imul_chain::<100>(black_box(3))
    })
}
