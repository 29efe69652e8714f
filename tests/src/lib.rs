//! Helpers for the end-to-end tests: build the example suite's bench binary
//! with cargo, run binaries, read their output.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock, PoisonError, RwLock, RwLockWriteGuard};

/// The example suite's bench binary (`examples/benches/suite.rs`), built once
/// per test process with the cargo that runs the tests.
pub fn suite_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| build_example_bench("suite", &[]))
}

/// The bench target whose benchmarks live in the example library's `src/`
/// (`examples/benches/library.rs`, feature `bench`).
pub fn library_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| build_example_bench("library", &["--features", "bench"]))
}

/// The two builds of `benches/against.rs`: (the 1000-multiply build, the
/// 1020-multiply one), each copied out of cargo's output (both named
/// `against`, in directories of their own), built once per test process.
pub fn against_builds() -> &'static (PathBuf, PathBuf) {
    static BUILDS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILDS.get_or_init(|| {
        let build = |longer: bool, file: &str| {
            let env: &[(&str, &str)] = if longer {
                &[("AGAINST_FIXTURE_CHAIN", "1020")]
            } else {
                &[]
            };
            // Optimised, as `cargo bench` builds: an unoptimised build keeps
            // every value on the stack, and two processes of it differ by up
            // to 9% on a 90 ns body from where their stacks and heaps landed.
            let built = build_bench("bench-tests", "against", &["--release"], env);
            copy_out(&built, file)
        };
        (build(false, "shorter"), build(true, "longer"))
    })
}

/// The two builds of `benches/profile_probe.rs`: (`slow_helper` as fast as
/// `steady_helper`, `slow_helper` twice as slow), copied out of cargo's
/// output like [`against_builds`], built once per test process.
pub fn profile_probe_builds() -> &'static (PathBuf, PathBuf) {
    static BUILDS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILDS.get_or_init(|| {
        let build = |slower: bool, dir: &str| {
            let env: &[(&str, &str)] = if slower {
                &[("PROFILE_PROBE_SLOWER", "1")]
            } else {
                &[]
            };
            let built = build_bench("bench-tests", "profile_probe", &["--release"], env);
            copy_out_as(&built, dir, "profile_probe")
        };
        (build(false, "probe-before"), build(true, "probe-after"))
    })
}

/// `benches/program_cost.rs`, optimised as `cargo bench` builds it.
pub fn program_cost_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| build_bench("bench-tests", "program_cost", &["--release"], &[]))
}

/// `benches/against.rs` built optimised but with bench-harness itself at
/// opt-level 0, a per-package override that halves a clean build and that
/// the harness warns against. Copied out like [`against_builds`].
pub fn lean_harness_build() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let recipe = "profile.release.package.bench-harness.opt-level=0";
        let built = build_bench(
            "bench-tests",
            "against",
            &["--release", "--config", recipe],
            &[],
        );
        copy_out(&built, "lean-harness")
    })
}

/// Copies a build of `benches/against.rs` out of cargo's output
/// (`<target>/release/deps/against-HASH`) to `e2e-against/DIR/against`, out
/// of the way of the next build, named `against` as every build of that
/// bench target is.
fn copy_out(built: &Path, dir: &str) -> PathBuf {
    copy_out_as(built, dir, "against")
}

/// [`copy_out`] for any bench target: to `e2e-against/DIR/NAME`.
fn copy_out_as(built: &Path, dir: &str, name: &str) -> PathBuf {
    let dir = built
        .parent()
        .expect("in deps/")
        .join("e2e-against")
        .join(dir);
    // (Earlier versions of the helper left a file there.)
    let _ = std::fs::remove_file(&dir);
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    let copy = dir.join(name);
    // Renamed into place: an old copy may still be running (a worker a
    // killed test run left), and its file cannot be written over.
    install_executable(built, &copy);
    copy
}

/// Puts a copy of the executable `from` at `to`, renamed into place (an
/// old file there may still be running). The copy is written by a `cp`
/// child, never by this process: the tests spawn from many threads, a
/// child between its fork and its exec holds every descriptor this process
/// has open, and one open for writing on an executable makes its exec fail
/// with "Text file busy" (the differential flame graph test failed so
/// under heavy load).
pub fn install_executable(from: &Path, to: &Path) {
    let mut part = to.as_os_str().to_owned();
    part.push(".part");
    let copied = Command::new("cp")
        .arg("--")
        .arg(from)
        .arg(&part)
        .status()
        .expect("cp starts");
    assert!(copied.success(), "cp {from:?} {part:?}");
    std::fs::rename(&part, to).expect("the copy can be renamed");
}

/// An executable script at `to` with `text`: written to a file of its own
/// first, then installed as [`install_executable`] installs a build.
pub fn install_script(text: &str, to: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut source = to.as_os_str().to_owned();
    source.push(".text");
    let source = PathBuf::from(source);
    std::fs::write(&source, text).expect("the script can be written");
    std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o755))
        .expect("the script can be made executable");
    install_executable(&source, to);
    std::fs::remove_file(&source).expect("the script's text can be removed");
}

/// Held exclusively while cargo builds an example bench, and shared while
/// [`run_with_env`] runs a binary. The tests share one process, so any of
/// them may be measuring while another builds, and cargo builds on every
/// core: the measurement would report the build's load, and tests assert on
/// figures (a complexity class, a regression, a precision stop). The
/// processes some tests spawn themselves (Ctrl-C, concurrent saves) are
/// checked for no figure, only against generous time limits, and do without
/// it.
static BUILDING: RwLock<()> = RwLock::new(());

fn build_example_bench(name: &str, extra: &[&str]) -> PathBuf {
    build_bench("bench-examples", name, extra, &[])
}

/// Builds bench target `name` of `package` with cargo (with `env` set, for
/// `option_env!`), and returns its executable.
fn build_bench(package: &str, name: &str, extra: &[&str], env: &[(&str, &str)]) -> PathBuf {
    // A failed build panics holding the lock: the runs that follow do not
    // depend on it, so a poisoned lock is as good as a free one.
    let _building = BUILDING.write().unwrap_or_else(PoisonError::into_inner);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["build", "--quiet", "-p", package, "--bench", name])
        .args(extra)
        .envs(env.iter().copied())
        .args(["--message-format", "json"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "building the {name} bench failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == name)
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo reports the {name} executable"))
}

/// The JSON document a run wrote to `path`: a test that reads one expects
/// it there and well formed, and fails naming the file if not.
pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("parsing {}: {error}", path.display()))
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace root")
        .to_path_buf()
}

/// A fresh, empty directory for one test's files, under the system's
/// temporary directory, removed when the returned [`Scratch`] is dropped
/// (also when the test panics). The tests run on threads of one process: two
/// given the same directory would trample each other's files, so a name
/// given twice panics. Directories a test process could not remove (it was
/// killed, or a `static` held them) are removed by the next test process
/// once their owner has ended.
pub fn scratch_dir(name: &str) -> Scratch {
    static GIVEN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    {
        let mut given = GIVEN.lock().unwrap_or_else(PoisonError::into_inner);
        if given.is_empty() {
            remove_scratch_of_ended_processes();
        }
        assert!(
            !given.iter().any(|taken| taken == name),
            "two tests share the scratch directory {name:?}"
        );
        given.push(name.to_owned());
    }
    let dir = std::env::temp_dir().join(format!("{SCRATCH_PREFIX}{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary directory is writable");
    Scratch(dir)
}

const SCRATCH_PREFIX: &str = "bench-harness-e2e-";

/// A test's scratch directory; see [`scratch_dir`].
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes the scratch directories of test processes that no longer run
/// (no `/proc/<pid>`); where there is no `/proc`, nothing.
fn remove_scratch_of_ended_processes() {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(SCRATCH_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// What a run printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// One benchmark's row in a measured run's table, split on whitespace. Times
/// take two fields (value and unit); the row ends with outliers, samples,
/// total iterations and the stop reason.
#[derive(Debug)]
pub struct Row<'a> {
    pub line: &'a str,
    pub fields: Vec<&'a str>,
}

impl Row<'_> {
    /// The headline time with its unit, e.g. `"6.193 µs"`.
    pub fn time(&self) -> String {
        format!("{} {}", self.fields[1], self.fields[2])
    }

    pub fn samples(&self) -> usize {
        let field = self.fields[self.fields.len() - 3];
        field
            .parse()
            .unwrap_or_else(|_| panic!("samples in {}", self.line))
    }

    pub fn stop(&self) -> &str {
        self.fields[self.fields.len() - 1]
    }
}

impl Run {
    /// The table row of benchmark `name`.
    pub fn row(&self, name: &str) -> Row<'_> {
        let line = self
            .stdout
            .lines()
            .find(|line| line.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row for {name} in:\n{}", self.stdout));
        Row {
            line,
            fields: line.split_whitespace().collect(),
        }
    }

    /// Lines of stdout that begin with `prefix`.
    pub fn lines_starting(&self, prefix: &str) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|line| line.starts_with(prefix))
            .collect()
    }

    /// The first line of stdout that begins with `prefix`. How many warnings
    /// come before the header's lines depends on the machine: a line is
    /// found by how it begins, not where.
    pub fn line_starting(&self, prefix: &str) -> &str {
        self.lines_starting(prefix)
            .first()
            .copied()
            .unwrap_or_else(|| panic!("no line starting {prefix:?} in:\n{}", self.stdout))
    }

    /// The benchmark names a `--list` run printed, in order.
    pub fn listed(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter_map(|line| line.strip_suffix(": benchmark"))
            .collect()
    }
}

/// Measuring flags that keep a run short (a fixed 20 ms budget, no
/// precision target; one row per full name, with every statistic and each
/// note under its row, as `Run::row` reads them): behaviour, not figures,
/// is tested. The default, compact table is tested in `e2e/table.rs`.
pub const QUICK: &[&str] = &[
    "--bench",
    "--flat",
    "--details",
    "--warm-up-time",
    "0.01",
    "--measure-time",
    "0.02",
    "--precision",
    "0",
];

/// Measures with [`QUICK`] budgets plus `args`.
pub fn quick_bench(binary: &Path, args: &[&str]) -> Run {
    let mut all = QUICK.to_vec();
    all.extend_from_slice(args);
    run(binary, &all)
}

/// Runs `binary` with `args`, colour off, and collects its output.
pub fn run(binary: &Path, args: &[&str]) -> Run {
    run_with_env(binary, args, &[])
}

/// Where runs that name no CARGO_TARGET_DIR keep what they write: a
/// directory of the test's own (libtest names a test's thread after it),
/// so that no test reads the history, baselines or reports of another,
/// whatever order they run in. A thread of a test's own making shares one
/// directory with every other such thread.
fn default_target_dir() -> PathBuf {
    static DIRS: Mutex<BTreeMap<String, Scratch>> = Mutex::new(BTreeMap::new());
    let test = std::thread::current()
        .name()
        .unwrap_or("unnamed-thread")
        .replace("::", "-");
    let mut dirs = DIRS.lock().unwrap_or_else(PoisonError::into_inner);
    let dir = dirs
        .entry(test)
        .or_insert_with_key(|test| scratch_dir(&format!("target-{test}")));
    dir.to_path_buf()
}

/// Nothing else of this test process runs a binary or a build while this is
/// held: for a test whose figures are compared with a truth measured the
/// same way, in runs of its own one after another ([`Alone::run`]).
#[derive(Debug)]
pub struct Alone {
    _held: RwLockWriteGuard<'static, ()>,
}

/// Waits until this test process runs nothing else, and keeps it so. A
/// build waits for it too: build the binaries first (`program_cost_binary()`
/// and the like), or the test waits for itself.
pub fn alone() -> Alone {
    Alone {
        _held: BUILDING.write().unwrap_or_else(PoisonError::into_inner),
    }
}

impl Alone {
    /// [`run`], while nothing else runs.
    pub fn run(&self, binary: &Path, args: &[&str]) -> Run {
        output_of(binary, args, &[])
    }
}

/// [`run`] with the variables of `env` set too.
pub fn run_with_env(binary: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Run {
    let _no_build = BUILDING.read().unwrap_or_else(PoisonError::into_inner);
    output_of(binary, args, env)
}

fn output_of(binary: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(binary)
        .args(args)
        .env("NO_COLOR", "1")
        // The runs' baselines, history and reports go to a target directory
        // of the test's own, not the workspace's (a test that cares sets
        // CARGO_TARGET_DIR itself).
        .env("CARGO_TARGET_DIR", default_target_dir())
        // Under GitHub Actions every run would append to the job's summary
        // (a test that cares sets it itself).
        .env_remove("GITHUB_STEP_SUMMARY")
        // The allocator's arenas are the run's to choose (a test that cares
        // sets them itself).
        .env_remove("MALLOC_ARENA_MAX")
        .env_remove("GLIBC_TUNABLES")
        .env_remove("BENCH_HARNESS_ONE_ARENA")
        .envs(env.iter().copied())
        .output()
        .expect("the binary starts");
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}
