//! What a run writes survives what benchmarks and users do to it: Ctrl-C
//! during `--save-baseline`, `--output` naming a device, a FIFO or a
//! descriptor, benchmarks that print, change directory or close stdout, a
//! closed stdout or pipe, a killed writer's temporary; and libtest's
//! `--format` flags. Each test performs the attack.
#![cfg(unix)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use bench_tests::{run_with_env, scratch_dir, Run, QUICK};

use crate::common::{fixture_binary, noisy_binary};

fn quick(extra: &[&str]) -> Vec<String> {
    QUICK
        .iter()
        .chain(extra)
        .map(|s| (*s).to_string())
        .collect()
}

fn run_in(binary: &Path, args: &[String], env: &[(&str, &OsStr)]) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_with_env(binary, &args, env)
}

/// The file a run's `saved baseline 'NAME' to PATH (...)` line names.
fn saved_path(stderr: &str) -> PathBuf {
    stderr
        .lines()
        .find_map(|line| line.strip_prefix("saved baseline '"))
        .and_then(|rest| rest.split_once("' to "))
        .and_then(|(_, rest)| rest.split(" (").next())
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("no baseline saved: {stderr}"))
}

fn sigint(pid: u32) {
    let status = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// Starts `binary`, waits for `marker` on stdout, waits `delay`, sends one
/// SIGINT, and returns how it ended.
fn interrupted(
    binary: &Path,
    args: &[String],
    env: &[(&str, &OsStr)],
    marker: &str,
    delay: Duration,
) -> Run {
    let mut child = Command::new(binary)
        .args(args)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.contains(marker) {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            panic!("ended before printing {marker:?}: {seen}");
        }
        seen.push_str(&line);
    }
    std::thread::sleep(delay);
    sigint(child.id());
    stdout.read_to_string(&mut seen).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    Run {
        code: child.wait().unwrap().code(),
        stdout: seen,
        stderr,
    }
}

/// Item 1: a Ctrl-C'd `--save-baseline` run keeps the baseline saved
/// before, whole, in this process and under `--forks`.
#[test]
fn ctrl_c_never_replaces_a_saved_baseline() {
    let dir = scratch_dir("outputs-ctrl-c-save");
    let target = dir.join("target");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let saved = run_in(
        fixture_binary(),
        &quick(&["--exact", "passes", "also_passes", "spins"]),
        &env,
    );
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    let saved = run_in(
        fixture_binary(),
        &quick(&[
            "--exact",
            "passes",
            "also_passes",
            "spins",
            "--save-baseline",
            "main",
        ]),
        &env,
    );
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    let path = saved_path(&saved.stderr);
    let before = std::fs::read(&path).unwrap();
    for forks in [None, Some("1")] {
        let mut args = quick(&[
            "--schedule",
            "sequential",
            "--measure-time",
            "600",
            "--max-time",
            "900",
            "--exact",
            "passes",
            "also_passes",
            "spins",
            "--save-baseline",
            "main",
        ]);
        if let Some(n) = forks {
            args.extend(["--forks".to_string(), n.to_string()]);
        }
        let run = interrupted(
            fixture_binary(),
            &args,
            &env,
            "machine: ",
            Duration::from_secs(2),
        );
        assert_eq!(
            run.code,
            Some(130),
            "{forks:?}\n{}\n{}",
            run.stdout,
            run.stderr
        );
        assert!(
            run.stderr.contains(
                "baseline 'main' not saved: the run was interrupted; the one saved before is kept"
            ),
            "{forks:?}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("saved baseline"), "{}", run.stderr);
        assert_eq!(std::fs::read(&path).unwrap(), before, "{forks:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 3: a FIFO given to `--output` is written, not replaced; an existing
/// file keeps its permissions; a path that cannot be written fails before
/// anything is measured.
#[test]
fn output_writes_into_a_fifo_and_keeps_a_files_mode() {
    let dir = scratch_dir("outputs-fifo");
    let fifo = dir.join("results.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let args = quick(&[
        "--exact",
        "quiet",
        "--format",
        "json",
        "-o",
        fifo.to_str().unwrap(),
    ]);
    let run = run_in(noisy_binary(), &args, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // A replaced FIFO leaves its reader waiting for ever.
    let waited = Instant::now();
    while !reader.is_finished() && waited.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(
        reader.is_finished(),
        "nothing reached the FIFO's reader; it is now {kind:?}"
    );
    let read = reader.join().unwrap();
    let document: serde_json::Value = serde_json::from_str(&read).expect("whole JSON");
    assert_eq!(document["benchmarks"].as_array().unwrap().len(), 1);
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");

    let file = dir.join("results.json");
    std::fs::write(&file, "old").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let args = quick(&["--exact", "quiet", "--format", "json", "-o", "results.json"]);
    let run = Command::new(noisy_binary())
        .args(&args)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(run.status.success());
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o640);
    serde_json::from_slice::<serde_json::Value>(&std::fs::read(&file).unwrap()).unwrap();

    // Where nothing can be written: refused at once, not after measuring
    // (the budget here is ten minutes).
    let not_a_dir = dir.join("plain-file");
    std::fs::write(&not_a_dir, "").unwrap();
    let unwritable = not_a_dir.join("out.json");
    let deeper = not_a_dir.join("sub/out.json");
    // The file in the way is named, with the fix, not "File exists".
    let in_the_way = format!(
        "{} is a file, not a directory; give a path outside that file, or move the file away",
        not_a_dir.display()
    );
    for (path, why) in [
        (unwritable.as_path(), in_the_way.as_str()),
        (deeper.as_path(), in_the_way.as_str()),
        (&*dir, "it is a directory"),
    ] {
        let started = Instant::now();
        let args = quick(&[
            "--measure-time",
            "600",
            "--max-time",
            "900",
            "--exact",
            "quiet",
            "--format",
            "json",
            "-o",
            path.to_str().unwrap(),
        ]);
        let run = run_in(noisy_binary(), &args, &[]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(started.elapsed() < Duration::from_secs(60));
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(
            run.stderr.starts_with(&format!(
                "error: cannot write --output {}: ",
                path.display()
            )) && run.stderr.contains(why),
            "{}",
            run.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 3 (devices, as root) and item 15 (`/dev/full`): in a private mount
/// namespace with a tmpfs `/dev` of its own, so the machine's `/dev` is
/// never touched. `-o /dev/null`, `/dev/stdout` and `/dev/fd/3` are written
/// in place and stay what they were; `/dev/full` fails with one line; so
/// do `--help`, `--list` and `--list-baselines` into it, without a panic.
#[test]
fn devices_and_descriptors_are_written_in_place() {
    let dir = scratch_dir("outputs-devices");
    let script = r#"
set -u
mount -t tmpfs tmpfs /dev || exit 77
mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 || exit 77
ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/1 /dev/stdout || exit 77
bin=$1; out=$2; shift 2
"$bin" "$@" -o /dev/null >/dev/null 2>"$out/null.err"; echo "null $?"
test -c /dev/null && echo "null is a device"
"$bin" "$@" -o /dev/full --save-baseline kept >"$out/full.out" 2>"$out/full.err"; echo "full $?"
test -c /dev/full && echo "full is a device"
"$bin" "$@" -o /dev/stdout >"$out/stdout.out" 2>"$out/stdout.err"; echo "stdout $?"
test -L /dev/stdout && echo "stdout is a link"
"$bin" "$@" -o /dev/fd/3 3>"$out/fd3.json" >/dev/null 2>"$out/fd3.err"; echo "fd3 $?"
test -L /dev/fd && echo "fd is a link"
"$bin" --help >/dev/full 2>"$out/help.err"; echo "help $?"
"$bin" --list >/dev/full 2>"$out/list.err"; echo "list $?"
"$bin" --list-baselines >/dev/full 2>"$out/list-baselines.err"; echo "list-baselines $?"
"$bin" "$@" --format pretty >/dev/full 2>"$out/table.err"; echo "table $?"
"#;
    let uid = Command::new("id").arg("-u").output().unwrap();
    let root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
    // As root, a mount namespace; as a user, a user namespace mapping
    // root too (mknod is refused there: skipped).
    let unshare_args: &[&str] = if root { &["-m"] } else { &["-rm"] };
    let mut args = vec!["--exact", "quiet", "--format", "json"];
    args.splice(0..0, QUICK.iter().copied());
    let output = Command::new("unshare")
        .args(unshare_args)
        .args(["sh", "-c", script, "sh"])
        .arg(noisy_binary())
        .arg(&dir)
        .args(&args)
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("unshare runs");
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() || said.is_empty() {
        println!(
            "skipped: no private mount namespace with its own /dev here ({}{})",
            String::from_utf8_lossy(&output.stderr).trim(),
            if output.status.code() == Some(77) {
                "; mount or mknod refused"
            } else {
                ""
            }
        );
        return;
    }
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let expected = [
        "null 0",
        "null is a device",
        "full 2",
        "full is a device",
        "stdout 0",
        "stdout is a link",
        "fd3 0",
        "fd is a link",
        "help 2",
        "list 2",
        "list-baselines 2",
        "table 2",
    ];
    assert_eq!(
        said.lines().collect::<Vec<_>>(),
        expected,
        "{}",
        read("null.err")
    );
    // One line each, no panic.
    for (file, starts) in [
        ("full.err", "error: cannot write --output /dev/full: "),
        ("help.err", "error: cannot write --help to stdout: "),
        ("list.err", "error: cannot write the list: "),
        ("list-baselines.err", "error: cannot write to stdout: "),
        ("table.err", "error: cannot write the table to stdout: "),
    ] {
        let text = read(file);
        let last = text.lines().last().unwrap_or_default();
        assert!(last.starts_with(starts), "{file}: {text}");
        assert!(!text.contains("panicked"), "{file}: {text}");
    }
    // The output failed at the end: the baseline is saved all the same.
    assert!(
        read("full.err").contains("saved baseline 'kept'"),
        "{}",
        read("full.err")
    );
    // The JSON went where the descriptor led.
    serde_json::from_str::<serde_json::Value>(&read("fd3.json")).expect("whole JSON on fd 3");
    assert!(
        read("stdout.out").contains("\"benchmarks\""),
        "{}",
        read("stdout.out")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 5: what benchmarks (and an `args` expression) print does not reach
/// a machine format on stdout, in this process or under `--forks`; it goes
/// to stderr.
#[test]
fn benchmark_prints_do_not_corrupt_machine_formats_on_stdout() {
    // None: the default (processes of their own); "0": this process.
    for (format, forks) in [
        ("json", Some("0")),
        ("json", Some("1")),
        ("json", None),
        ("csv", Some("0")),
        ("bencher", Some("0")),
    ] {
        let mut args = quick(&["--exact", "prints", "prints_its_args/8", "--format", format]);
        if let Some(n) = forks {
            args.extend(["--forks".to_string(), n.to_string()]);
        }
        let run = run_in(noisy_binary(), &args, &[]);
        assert_eq!(run.code, Some(0), "{format} {forks:?}: {}", run.stderr);
        assert!(
            !run.stdout.contains("on stdout"),
            "{format} {forks:?}: {}",
            run.stdout
        );
        if forks == Some("0") {
            // (A --forks child's stderr is the parent's to read.)
            assert!(run.stderr.contains("a benchmark's own line on stdout"));
        }
        match format {
            "json" => {
                let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
                assert_eq!(document["benchmarks"].as_array().unwrap().len(), 2);
            }
            "csv" => assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout),
            _ => {
                let tests = run
                    .stdout
                    .lines()
                    .filter(|l| l.contains(" ... bench: "))
                    .count();
                assert_eq!(tests, 2, "{}", run.stdout);
            }
        }
    }
}

/// Item 15: a benchmark that closes fd 1 does not lose the results; a
/// closed stdout is refused before measuring; a reader that stops early
/// ends `--list-baselines` and `--list` quietly.
#[test]
fn closed_stdout_loses_nothing_silently() {
    let args = quick(&["--exact", "closes_stdout", "quiet", "--format", "json"]);
    let run = run_in(
        noisy_binary(),
        &args,
        &[("NOISY_CLOSE_STDOUT", OsStr::new("1"))],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(document["benchmarks"].as_array().unwrap().len(), 2);

    // (The runtime puts /dev/null on a closed fd 1; a machine format's
    // results are refused there.)
    for format in ["json", "csv"] {
        let closed = Command::new("sh")
            .args(["-c", "exec \"$0\" \"$@\" >&-"])
            .arg(noisy_binary())
            .args(quick(&["--exact", "quiet", "--format", format]))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&closed.stderr);
        assert_eq!(closed.status.code(), Some(2), "{format}: {stderr}");
        assert!(
            stderr.starts_with("error: standard output is closed or unusable")
                && stderr.contains("give --output FILE"),
            "{format}: {stderr}"
        );
    }

    let dir = scratch_dir("outputs-closed-pipe");
    let target = dir.join("target");
    for flag in ["--list-baselines", "--list"] {
        // The reader is gone before the first line is written.
        let piped = Command::new("bash")
            .args([
                "-c",
                "(sleep 0.3; exec \"$0\" \"$1\") | true; echo ${PIPESTATUS[0]} >&2",
            ])
            .arg(noisy_binary())
            .arg(flag)
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&piped.stderr);
        assert_eq!(stderr.trim(), "0", "{flag}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 6: a benchmark that changes directory moves neither a relative
/// `--output` nor a relative `CARGO_TARGET_DIR`; messages name absolute
/// paths.
#[test]
fn changing_directory_moves_no_output() {
    let dir = scratch_dir("outputs-chdir");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let args = quick(&[
        "--exact",
        "changes_directory",
        "quiet",
        "--format",
        "csv",
        "-o",
        "out.csv",
        "--save-baseline",
        "main",
    ]);
    let run = Command::new(noisy_binary())
        .args(&args)
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", "tgt")
        .env("NOISY_CHDIR", &elsewhere)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(dir.join("out.csv").is_file());
    // Where the relative CARGO_TARGET_DIR was resolved at start-up (never
    // inside the directory the benchmark moved to), named absolutely.
    let saved = saved_path(&stderr);
    assert!(saved.is_absolute() && saved.is_file(), "{stderr}");
    assert!(!saved.starts_with(&elsewhere), "{stderr}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 14: a temporary that a writer killed during fsync left beside a
/// baseline is removed by the next save.
#[test]
fn a_killed_writers_temporary_is_removed_by_the_next_save() {
    let dir = scratch_dir("outputs-stale-temporary");
    let target = dir.join("target");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let args = quick(&["--exact", "quiet", "--save-baseline", "main"]);
    let first = run_in(noisy_binary(), &args, &env);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let baselines = saved_path(&first.stderr).parent().unwrap().to_path_buf();
    let mut writer = Command::new("true").spawn().unwrap();
    let dead = writer.id();
    writer.wait().unwrap();
    let stale = baselines.join(format!(
        ".{}.{dead}.1700000000000000000.0.bench-harness.tmp",
        saved_path(&first.stderr)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
    ));
    std::fs::File::create(&stale)
        .unwrap()
        .set_modified(SystemTime::now() - Duration::from_secs(600))
        .unwrap();
    let run = run_in(noisy_binary(), &args, &env);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!stale.exists(), "the stale temporary is still there");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 16 (smoke part): Ctrl-C during a smoke test names the benchmarks
/// that never ran.
#[test]
fn an_interrupted_smoke_test_names_what_never_ran() {
    let args: Vec<String> = ["--test", "--exact", "a_second_long", "prints", "quiet"]
        .map(String::from)
        .to_vec();
    let run = interrupted(
        noisy_binary(),
        &args,
        &[],
        "running 3 benchmarks",
        Duration::from_millis(300),
    );
    assert_eq!(run.code, Some(130), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("interrupted: stopped at Ctrl-C after 2 benchmarks; 1 never ran: quiet"),
        "{}",
        run.stderr
    );
}

/// Item 17: libtest's flags: `--format terse` in a smoke test, `-Z
/// unstable-options --format json` with `--bench`, and a machine format
/// without `--bench` refused with a hint rather than answered in text.
#[test]
fn libtest_format_flags() {
    let run = run_in(
        fixture_binary(),
        &[
            "--format",
            "terse",
            "--exact",
            "passes",
            "panics_in_routine",
            "ignored_by_attribute",
        ]
        .map(String::from),
        &[],
    );
    assert_eq!(run.code, Some(101), "{}", run.stderr);
    let marks: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| !l.is_empty() && l.chars().all(|c| ".Fi".contains(c)))
        .collect();
    assert_eq!(marks, [".iF"], "{}", run.stdout);
    assert!(!run.stdout.contains("test passes ... ok"), "{}", run.stdout);
    assert!(run
        .stdout
        .contains("test result: FAILED. 1 passed; 1 failed; 1 ignored"));

    let mut args = vec!["-Z".to_string(), "unstable-options".to_string()];
    args.extend(quick(&["--exact", "quiet", "--format", "json"]));
    let run = run_in(noisy_binary(), &args, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap();

    let run = run_in(
        noisy_binary(),
        &["-Z", "unstable-options", "--format", "json"].map(String::from),
        &[],
    );
    assert_eq!(run.code, Some(2));
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("error: --format json writes a measured run's results: add --bench"),
        "{}",
        run.stderr
    );
}

/// Under GitHub Actions (`GITHUB_STEP_SUMMARY` set), a run appends its
/// Markdown page to the step's summary: exactly what `--format markdown`
/// writes, after what the step's earlier commands wrote; without the
/// variable nothing is written there.
#[test]
fn a_github_step_summary_gets_the_markdown_page_and_only_when_asked() {
    let dir = scratch_dir("outputs-step-summary");
    let summary = dir.join("step_summary.md");
    let earlier = "## Benchmarks\n\nearlier output\n";
    std::fs::write(&summary, earlier).unwrap();
    let page = dir.join("page.md");
    let args = quick(&[
        "--exact",
        "passes",
        "--format",
        "markdown",
        "-o",
        page.to_str().unwrap(),
    ]);
    let env = [("GITHUB_STEP_SUMMARY", summary.as_os_str())];
    let out = run_in(fixture_binary(), &args, &env);
    assert_eq!(out.code, Some(0), "{out:?}");
    let page = std::fs::read_to_string(&page).unwrap();
    assert!(page.starts_with("`fixture`: **1 measured**"), "{page}");
    // A blank line after the earlier output, so the page starts a block.
    assert_eq!(
        std::fs::read_to_string(&summary).unwrap(),
        format!("{earlier}\n{page}")
    );

    // The table's run (no --format) appends the same page again.
    let out = run_in(fixture_binary(), &quick(&["--exact", "passes"]), &env);
    assert_eq!(out.code, Some(0), "{out:?}");
    let twice = std::fs::read_to_string(&summary).unwrap();
    assert!(twice.starts_with(&format!("{earlier}\n{page}\n`fixture`: **1 measured**")));
    assert_eq!(twice.matches("<details>").count(), 2, "{twice}");

    // Without the variable: nothing appended, nothing created.
    let out = run_in(fixture_binary(), &quick(&["--exact", "passes"]), &[]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), twice);
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(files.len(), 2, "{files:?}");

    // A symbolic link planted there is not followed: one line, exit 2.
    let elsewhere = dir.join("elsewhere.md");
    std::fs::write(&elsewhere, "").unwrap();
    let link = dir.join("link.md");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let out = run_in(
        fixture_binary(),
        &quick(&["--exact", "passes"]),
        &[("GITHUB_STEP_SUMMARY", link.as_os_str())],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("cannot append the results to GITHUB_STEP_SUMMARY ("),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "");
    let _ = std::fs::remove_dir_all(&dir);
}
