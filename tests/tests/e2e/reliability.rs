//! The reliability review of issue 26 (`shared/reviews/reliability.md`):
//! each failure it found, attacked again the way it reported, and each
//! class through at least one door it did not list. Every test runs the
//! fixture binary as a user would and asserts what the user sees.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use bench_tests::{read_json, run_with_env, scratch_dir, Run, Scratch, QUICK};
use serde_json::Value;

use crate::common::fixture_binary;

/// The fixture with QUICK budgets, CARGO_TARGET_DIR=`target`, `env` and
/// `args`.
fn fixture(target: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Run {
    let mut all = QUICK.to_vec();
    all.extend_from_slice(args);
    let mut vars = vec![("CARGO_TARGET_DIR", target.as_os_str())];
    vars.extend_from_slice(env);
    run_with_env(fixture_binary(), &all, &vars)
}

/// A command running the fixture with QUICK budgets and `args`, colour
/// off, CARGO_TARGET_DIR=`target`, in directory `dir`.
fn fixture_command(target: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(fixture_binary());
    command
        .args(QUICK)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", target)
        .stdin(Stdio::null());
    command
}

/// Runs `command`, killing it (and failing the test) past `limit`.
fn finish_within(mut command: Command, limit: Duration) -> Run {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let started = Instant::now();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Run {
                code: status.code(),
                stdout: out.join().unwrap(),
                stderr: err.join().unwrap(),
            };
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "still running after {limit:?}; stderr: {}",
                err.join().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn output_to_run(output: Output) -> Run {
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn history_file(target: &Path) -> PathBuf {
    target.join("bench-harness/history/fixture.jsonl")
}

/// The last record of the fixture's history under `target`.
fn last_record(target: &Path) -> Value {
    let text = std::fs::read_to_string(history_file(target)).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

fn baseline_names(target: &Path, name: &str) -> Vec<String> {
    let path = target.join(format!("bench-harness/baselines/{name}/fixture.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}: {path:?}"));
    let document: Value = serde_json::from_str(&text).unwrap();
    document["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect()
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {path:?}");
}

fn write_script(path: &Path, text: &str) {
    bench_tests::install_script(text, path);
}

fn one_line_error(stderr: &str) -> &str {
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    errors[0]
}

// Failure 1: a filtered --save-baseline shrank the baseline.

#[test]
fn a_filtered_save_keeps_the_whole_baseline_and_the_gate_says_what_it_compared() {
    let target = scratch_dir("rel-filtered-save");
    let both = ["--exact", "passes", "also_passes"];
    let mut args = both.to_vec();
    args.extend(["--save-baseline", "full"]);
    let out = fixture(&target, &args, &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let out = fixture(
        &target,
        &["--exact", "passes", "--save-baseline", "full"],
        &[],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let error = one_line_error(&out.stderr);
    assert!(
        error.contains("baseline 'full' not saved, the old one is kept")
            && error.contains("(also_passes)"),
        "{error}"
    );
    assert_eq!(baseline_names(&target, "full"), ["passes", "also_passes"]);
    // Under another name it is saved.
    let out = fixture(
        &target,
        &["--exact", "passes", "--save-baseline", "just-passes"],
        &[],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // The gate says how many of the baseline's benchmarks it compared.
    let out = fixture(
        &target,
        &[
            "--exact",
            "passes",
            "also_passes",
            "--baseline",
            "just-passes",
            "--fail-on-regression",
            "--noise-threshold",
            "10",
        ],
        &[],
    );
    assert_ne!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "--fail-on-regression: 1 of baseline 'just-passes''s 1 benchmark compared; 1 \
             measured here is not in it (new)"
        ),
        "{}",
        out.stderr
    );
}

/// Another door to the same room, found in CI: the check read the old
/// baseline with the checks a comparison makes, and replaced it when they
/// refused it. A baseline a comparison would refuse (a value edited out of
/// range), and one that is not JSON at all, are both kept.
#[test]
fn a_save_keeps_an_old_baseline_it_cannot_compare_with_or_read() {
    let target = scratch_dir("rel-unreadable-save");
    let out = fixture(
        &target,
        &[
            "--exact",
            "passes",
            "also_passes",
            "--save-baseline",
            "full",
        ],
        &[],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let path = target.join("bench-harness/baselines/full/fixture.json");
    let mut document = read_json(&path);
    document["benchmarks"][0]["measurement"]["estimate"]["block_means_ns"][0] = Value::from(-1e12);
    let edited = serde_json::to_string(&document).unwrap();
    for contents in [
        edited.as_str(),
        "{\"schema_version\": 5, \"benchmarks\": [1,",
    ] {
        std::fs::write(&path, contents).unwrap();
        let out = fixture(
            &target,
            &["--exact", "passes", "--save-baseline", "full"],
            &[],
        );
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        let error = one_line_error(&out.stderr);
        assert!(
            error.contains("baseline 'full' not saved, the old one is kept"),
            "{error}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            contents,
            "replaced"
        );
    }
}

/// The same room through a door the review did not list: `--skip`, and the
/// ignore flags, leave benchmarks out as a filter does.
#[test]
fn a_save_that_skips_or_ignores_some_keeps_the_whole_baseline() {
    let target = scratch_dir("rel-skipped-save");
    let out = fixture(
        &target,
        &[
            "--include-ignored",
            "--exact",
            "passes",
            "ignored_by_attribute",
            "--save-baseline",
            "all",
        ],
        &[],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    for args in [
        &[
            "--exact",
            "passes",
            "ignored_by_attribute",
            "--save-baseline",
            "all",
        ][..],
        &[
            "--include-ignored",
            "--exact",
            "passes",
            "ignored_by_attribute",
            "--skip",
            "ignored_by_attribute",
            "--save-baseline",
            "all",
        ],
    ] {
        let out = fixture(&target, args, &[]);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        let error = one_line_error(&out.stderr);
        assert!(error.contains("(ignored_by_attribute)"), "{error}");
        assert_eq!(
            baseline_names(&target, "all"),
            ["passes", "ignored_by_attribute"]
        );
    }
}

// Failure 2: the report overwrote a foreign index.html.

#[test]
fn a_report_directory_with_foreign_files_is_refused_and_left_alone() {
    let scratch = scratch_dir("rel-report-foreign");
    let target = scratch.join("target");
    let site = scratch.join("site");
    std::fs::create_dir_all(&site).unwrap();
    let mine = "<h1>my project site</h1>\n";
    std::fs::write(site.join("index.html"), mine).unwrap();
    for report in [site.to_str().unwrap(), "."] {
        let mut command = fixture_command(&target, &site, &["--exact", "passes"]);
        command.args(["--report", report]);
        let out = output_to_run(command.output().unwrap());
        assert_eq!(out.code, Some(2), "--report {report}: {}", out.stderr);
        let error = one_line_error(&out.stderr);
        assert!(
            error.contains("holds files bench-harness did not write (index.html)"),
            "{error}"
        );
        assert_eq!(
            std::fs::read_to_string(site.join("index.html")).unwrap(),
            mine
        );
    }
    // The default report directory made a link to the site: a warning, and
    // the site is left alone.
    let reports = target.join("bench-harness/report");
    std::fs::create_dir_all(reports.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&site, &reports).unwrap();
    let out = fixture(&target, &["--exact", "passes"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.contains("warning: the report was not written"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(site.join("index.html")).unwrap(),
        mine
    );
    // A directory the harness wrote is written again.
    let own = scratch.join("own");
    for _ in 0..2 {
        let out = fixture(
            &target,
            &["--exact", "passes", "--report", own.to_str().unwrap()],
            &[],
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
    }
    assert!(own.join(".bench-harness-report").is_file());
    assert!(own.join("fixture/index.html").is_file());
}

/// A door the review did not list: `--report FILE.html` naming the user's
/// own page.
#[test]
fn a_report_file_that_is_not_a_report_is_refused_and_left_alone() {
    let scratch = scratch_dir("rel-report-file");
    let target = scratch.join("target");
    let page = scratch.join("notes.html");
    let mine = "<!DOCTYPE html><title>my notes</title>\n";
    std::fs::write(&page, mine).unwrap();
    let out = fixture(
        &target,
        &["--exact", "passes", "--report", page.to_str().unwrap()],
        &[],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let error = one_line_error(&out.stderr);
    assert!(
        error.contains("is not a report bench-harness wrote"),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), mine);
    // A report page the harness wrote is replaced.
    let own = scratch.join("own.html");
    for _ in 0..2 {
        let out = fixture(
            &target,
            &["--exact", "passes", "--report", own.to_str().unwrap()],
            &[],
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
    }
}

// Failure 3: --against-exe NAME ran NAME from $PATH.

/// A directory holding `./good` (a copy of the fixture) and a `path/good`
/// that leaves a mark when run, for $PATH; the first element holds them.
fn against_dirs(name: &str) -> (Scratch, PathBuf, PathBuf, PathBuf) {
    let scratch = scratch_dir(name);
    let work = scratch.join("work");
    let path_dir = scratch.join("path");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&path_dir).unwrap();
    let mark = scratch.join("PWNED");
    write_script(
        &path_dir.join("good"),
        &format!("#!/bin/sh\necho ran >> '{}'\nexit 3\n", mark.display()),
    );
    (scratch, work, path_dir, mark)
}

fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut path = dir.as_os_str().to_owned();
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    path
}

#[test]
fn against_exe_runs_the_file_it_checked_never_one_on_path() {
    let (_scratch, work, path_dir, mark) = against_dirs("rel-against-path");
    bench_tests::install_executable(fixture_binary(), &work.join("good"));
    let target = work.join("target");
    let mut command = fixture_command(
        &target,
        &work,
        &["--exact", "passes", "--against-exe", "good"],
    );
    command.env("PATH", path_with(&path_dir));
    let out = output_to_run(command.output().unwrap());
    assert!(!mark.exists(), "the program on $PATH ran: {}", out.stderr);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("compared against good"),
        "{}",
        out.stderr
    );
}

/// A door the review did not list: a relative path, resolved again when a
/// crashed worker is restarted after a benchmark of this build changed the
/// directory.
#[test]
fn against_exe_restarts_the_file_it_checked_after_a_benchmark_changes_directory() {
    let scratch = scratch_dir("rel-against-chdir");
    let work = scratch.join("work");
    let elsewhere = scratch.join("elsewhere");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    // A worker that ends after its first benchmark: the next one starts a
    // fresh worker.
    write_script(
        &work.join("flaky.sh"),
        r#"#!/bin/sh
echo '{"type":"hello","worker":"bench-harness","protocol":1,"harness_version":"0.1.0","benchmarks":["changes_directory","quiet"]}'
while IFS= read -r line; do
  case "$line" in
    *'"open"'*) echo '{"type":"opened","shared_overhead":true}' ;;
    *'"slice"'*) echo '{"type":"slice","per_iter_ns":5.0,"samples":10}' ;;
    *'"close"'*) echo '{"type":"closed"}'; exit 0 ;;
  esac
done
"#,
    );
    let mut command = Command::new(crate::common::noisy_binary());
    command
        .args(QUICK)
        .args([
            "--exact",
            "changes_directory",
            "quiet",
            "--against-exe",
            "./flaky.sh",
        ])
        .current_dir(&work)
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", scratch.join("target"))
        .env("NOISY_CHDIR", &elsewhere)
        .stdin(Stdio::null());
    let out = output_to_run(command.output().unwrap());
    assert!(!out.stderr.contains("cannot start"), "{}", out.stderr);
    // The benchmark whose worker had gone fails; the run goes on.
    assert_eq!(out.code, Some(101), "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("compared against ./flaky.sh"),
        "{}",
        out.stderr
    );
}

/// The name exists only on $PATH: refused, and what $PATH holds never runs.
#[test]
fn against_exe_with_a_name_only_on_path_is_no_such_file() {
    let (_scratch, work, path_dir, mark) = against_dirs("rel-against-path-only");
    let target = work.join("target");
    let mut command = fixture_command(
        &target,
        &work,
        &["--exact", "passes", "--against-exe", "good"],
    );
    command.env("PATH", path_with(&path_dir));
    let out = output_to_run(command.output().unwrap());
    assert!(!mark.exists(), "the program on $PATH ran");
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let error = one_line_error(&out.stderr);
    assert!(
        error.contains("--against-exe good: no such file"),
        "{error}"
    );
}

// Failure 4: a measured run's git ran the repository's clean filter.

/// A repository in `dir` with a tracked file changed since its commit,
/// and `config` (git config pairs) set; returns the commit.
fn hostile_repository(dir: &Path, attributes: &str, config: &[(&str, &str)]) -> Option<String> {
    std::fs::create_dir_all(dir).unwrap();
    let git = |args: &[&str]| {
        Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(dir)
            .output()
            .ok()
            .filter(|o| o.status.success())
    };
    git(&["init", "-q"])?;
    std::fs::write(dir.join("a"), "a\n").unwrap();
    std::fs::write(dir.join(".gitattributes"), attributes).unwrap();
    git(&["add", "a", ".gitattributes"])?;
    git(&["commit", "-qm", "first"])?;
    for (key, value) in config {
        git(&["config", key, value])?;
    }
    // The same size, a later time: git must read the file to know whether
    // it changed, through the filter the attributes name.
    std::fs::write(dir.join("a"), "b\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(dir.join("a"))
        .unwrap()
        .set_modified(std::time::SystemTime::now() + Duration::from_secs(5))
        .unwrap();
    let head = git(&["rev-parse", "HEAD"])?;
    Some(String::from_utf8(head.stdout).unwrap().trim().to_string())
}

#[test]
fn git_runs_no_clean_filter_of_the_repository() {
    let scratch = scratch_dir("rel-git-filter");
    let mark = scratch.join("PWNED_filter");
    let command = format!("sh -c 'echo ran >> {}'; cat", mark.display());
    let repo = scratch.join("repo");
    let head = hostile_repository(&repo, "* filter=evil\n", &[("filter.evil.clean", &command)])
        .expect("git makes a repository");
    let target = scratch.join("target");
    let out = fixture(
        &target,
        &["--exact", "passes"],
        &[("CARGO_MANIFEST_DIR", repo.as_os_str())],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!mark.exists(), "the clean filter ran");
    let record = last_record(&target);
    assert_eq!(record["commit"], head.as_str(), "{record}");
    assert_eq!(record["dirty"], true, "{record}");
}

/// Doors the review did not list: a long-running filter process, an
/// fsmonitor hook and a driver whose name has a dot, set through an
/// included file.
#[test]
fn git_runs_no_filter_process_or_fsmonitor_of_the_repository() {
    let scratch = scratch_dir("rel-git-process");
    let mark = scratch.join("PWNED_process");
    let hook = scratch.join("hook.sh");
    write_script(
        &hook,
        &format!("#!/bin/sh\necho ran >> '{}'\nexit 1\n", mark.display()),
    );
    let included = scratch.join("included.config");
    std::fs::write(
        &included,
        format!(
            "[filter \"evil\"]\n\tprocess = {0}\n[filter \"a.b\"]\n\tclean = {0}\n",
            hook.display()
        ),
    )
    .unwrap();
    let repo = scratch.join("repo");
    let head = hostile_repository(
        &repo,
        "* filter=evil\na filter=a.b\n",
        &[
            ("include.path", included.to_str().unwrap()),
            ("core.fsmonitor", hook.to_str().unwrap()),
        ],
    )
    .expect("git makes a repository");
    let target = scratch.join("target");
    let out = fixture(
        &target,
        &["--exact", "passes"],
        &[("CARGO_MANIFEST_DIR", repo.as_os_str())],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!mark.exists(), "a command of the repository ran");
    assert_eq!(last_record(&target)["commit"], head.as_str());
}

// Failures 5, 8, 16 and 24: the history file.

#[test]
fn a_planted_symlink_at_the_history_is_not_followed() {
    let scratch = scratch_dir("rel-history-symlink");
    let target = scratch.join("target");
    let victim = scratch.join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    std::fs::create_dir_all(history_file(&target).parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&victim, history_file(&target)).unwrap();
    let out = fixture(&target, &["--exact", "passes"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(
        out.stderr
            .contains("warning: this run was not added to the history")
            && out.stderr.contains("symbolic link"),
        "{}",
        out.stderr
    );
    // One remedy, the one that applies (not "check that the target
    // directory is writable").
    assert!(!out.stderr.contains("writable"), "{}", out.stderr);
}

#[test]
fn a_fifo_at_the_history_hangs_nothing() {
    let scratch = scratch_dir("rel-history-fifo");
    let target = scratch.join("target");
    std::fs::create_dir_all(history_file(&target).parent().unwrap()).unwrap();
    mkfifo(&history_file(&target));
    let limit = Duration::from_secs(60);
    for extra in [&[][..], &["--no-history"]] {
        let mut args = vec!["--exact", "passes"];
        args.extend_from_slice(extra);
        let out = finish_within(fixture_command(&target, &scratch, &args), limit);
        assert_eq!(out.code, Some(0), "{extra:?}: {}", out.stderr);
        assert!(out.stdout.contains("passes"), "{}", out.stdout);
    }
    let mut history = Command::new(fixture_binary());
    history
        .args(["--history", "passes"])
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null());
    let out = finish_within(history, limit);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let error = one_line_error(&out.stderr);
    assert!(
        error.contains("it is a FIFO, not a regular file"),
        "{error}"
    );
}

/// A door the review did not list: a link to a FIFO, read by `--history`.
#[test]
fn a_link_to_a_fifo_at_the_history_hangs_nothing() {
    let scratch = scratch_dir("rel-history-fifo-link");
    let target = scratch.join("target");
    let fifo = scratch.join("fifo");
    mkfifo(&fifo);
    std::fs::create_dir_all(history_file(&target).parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&fifo, history_file(&target)).unwrap();
    let mut history = Command::new(fixture_binary());
    history
        .args(["--history", "passes"])
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null());
    let out = finish_within(history, Duration::from_secs(30));
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let error = one_line_error(&out.stderr);
    assert!(error.contains("symbolic link"), "{error}");
}

/// A character device like /dev/zero, made in a scratch directory (never
/// the machine's own /dev), at the history path: refused without reading
/// it. Needs the right to make device files; the run's memory is capped
/// so that a harness that reads it cannot take the machine's.
#[test]
fn a_device_at_the_history_is_not_read() {
    let scratch = scratch_dir("rel-history-device");
    let target = scratch.join("target");
    let history = history_file(&target);
    std::fs::create_dir_all(history.parent().unwrap()).unwrap();
    let made = Command::new("mknod")
        .arg(&history)
        .args(["c", "1", "5"])
        .status()
        .unwrap();
    if !made.success() {
        eprintln!("skipped: this user cannot make a device file");
        return;
    }
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 1000000; exec \"$0\" \"$@\"")
        .arg(fixture_binary())
        .args(QUICK)
        .args(["--exact", "passes"])
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null());
    let started = Instant::now();
    let out = finish_within(command, Duration::from_secs(60));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.contains("it is a device, not a regular file"),
        "{}",
        out.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn many_damaged_history_lines_give_one_short_note() {
    let scratch = scratch_dir("rel-history-damaged");
    let target = scratch.join("target");
    let out = fixture(&target, &["--exact", "passes"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut text = std::fs::read_to_string(history_file(&target)).unwrap();
    text.push_str(&"not a record\n".repeat(200_000));
    std::fs::write(history_file(&target), text).unwrap();
    let out = fixture(&target, &["--exact", "passes"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let notes: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("skipped 200000 lines"))
        .collect();
    // Once, though the run reads the history twice (its machine's drift,
    // then the report's charts).
    assert_eq!(notes.len(), 1, "{}", out.stderr);
    assert!(notes[0].len() < 400, "{} characters", notes[0].len());
}

// Failure 14: --history panicked on multi-byte text and printed escapes raw.

/// A real record of the fixture's history with `field` set to `value`.
fn forged_record(target: &Path, field: &str, value: Value) -> String {
    let mut record = last_record(target);
    record[field] = value;
    record.to_string()
}

#[test]
fn history_with_multibyte_or_escape_fields_neither_panics_nor_reaches_the_terminal() {
    let scratch = scratch_dir("rel-history-text");
    let target = scratch.join("target");
    let out = fixture(&target, &["--exact", "passes"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let forged = [
        forged_record(&target, "commit", "日本語日本語日本語".into()),
        forged_record(&target, "machine", "日本語日本語".into()),
        forged_record(&target, "commit", "\u{1b}[2J\u{1b}[31mX\nfake".into()),
        forged_record(&target, "machine", "\u{1b}[2J".into()),
    ];
    let mut text = std::fs::read_to_string(history_file(&target)).unwrap();
    for line in &forged {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(history_file(&target), text).unwrap();
    let out = run_with_env(
        fixture_binary(),
        &["--history", "passes"],
        &[("CARGO_TARGET_DIR", target.as_os_str())],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    assert!(
        !out.stdout.contains('\u{1b}') && !out.stderr.contains('\u{1b}'),
        "{out:?}"
    );
    assert!(out.stdout.contains("passes: 1 run"), "{}", out.stdout);
}

/// A door the review did not list: figures no run can write (a negative
/// time, 1e300 ns) are skipped like a damaged line, not shown.
#[test]
fn history_with_impossible_figures_skips_them() {
    let scratch = scratch_dir("rel-history-figures");
    let target = scratch.join("target");
    let out = fixture(&target, &["--exact", "passes"], &[]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut text = std::fs::read_to_string(history_file(&target)).unwrap();
    for value in [-5e17, 1e300] {
        text.push_str(&forged_record(&target, "time_ns", value.into()));
        text.push('\n');
    }
    std::fs::write(history_file(&target), text).unwrap();
    let out = run_with_env(
        fixture_binary(),
        &["--history", "passes"],
        &[("CARGO_TARGET_DIR", target.as_os_str())],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("passes: 1 run"), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("skipped 2 lines that are not a whole record (lines 2, 3)"),
        "{}",
        out.stderr
    );
}

// Failures 9 and 26: an environment variable alone changed the binary.

#[test]
fn the_worker_variable_alone_changes_nothing() {
    let target = scratch_dir("rel-worker-env");
    for value in ["", "1"] {
        let out = fixture(
            &target,
            &["--exact", "passes"],
            &[("BENCH_HARNESS_AGAINST_WORKER", OsStr::new(value))],
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        assert!(!out.stdout.contains("\"hello\""), "{}", out.stdout);
        assert!(out.stdout.contains("passes"), "{}", out.stdout);
        assert!(
            out.stderr.contains(
                "BENCH_HARNESS_AGAINST_WORKER is set in the environment, but this process was \
                 not started by --forks or --against: the variable is ignored"
            ),
            "{}",
            out.stderr
        );
    }
    // The smoke test runs its benchmarks.
    let out = run_with_env(
        fixture_binary(),
        &["--exact", "passes"],
        &[
            ("CARGO_TARGET_DIR", target.as_os_str()),
            ("BENCH_HARNESS_AGAINST_WORKER", OsStr::new("1")),
        ],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("passes"), "{}", out.stdout);
}

/// A door the review did not list: a token on the command line that the
/// environment's does not match.
#[test]
fn a_worker_token_that_does_not_match_changes_nothing() {
    let target = scratch_dir("rel-worker-token");
    let out = fixture(
        &target,
        &["--exact", "passes", "--against-worker-token", "abc"],
        &[("BENCH_HARNESS_AGAINST_WORKER", OsStr::new("abd"))],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("passes"), "{}", out.stdout);
    assert!(!out.stdout.contains("\"hello\""), "{}", out.stdout);
}

#[test]
fn the_protocol_claim_variable_changes_nothing() {
    let target = scratch_dir("rel-claim-env");
    let out = fixture(
        &target,
        &[
            "--exact",
            "passes",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
        &[(
            "BENCH_HARNESS_AGAINST_WORKER_CLAIMS_PROTOCOL",
            OsStr::new("7"),
        )],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!out.stderr.contains("protocol 7"), "{}", out.stderr);
}

// Failure 10: --against believed any number a worker sent.

/// A worker that answers the protocol for `benchmark` and sends `slice`
/// as every slice reply.
fn lying_worker(dir: &Path, benchmark: &str, slice: &str) -> PathBuf {
    let path = dir.join("liar.sh");
    write_script(
        &path,
        &format!(
            r#"#!/bin/sh
echo '{{"type":"hello","worker":"bench-harness","protocol":1,"harness_version":"0.1.0","benchmarks":["{benchmark}"]}}'
while IFS= read -r line; do
  case "$line" in
    *'"open"'*) echo '{{"type":"opened","shared_overhead":true}}' ;;
    *'"slice"'*) echo '{slice}' ;;
    *'"close"'*) echo '{{"type":"closed"}}' ;;
  esac
done
"#
        ),
    );
    path
}

/// An optimised build (as `cargo bench` builds, where the review found
/// it) against a worker that sends `slice`.
fn against_liar(dir: &Path, slice: &str, extra: &[&str]) -> Run {
    std::fs::create_dir_all(dir).unwrap();
    let worker = lying_worker(dir, "chain", slice);
    let (shorter, _) = bench_tests::against_builds();
    let mut args = vec![
        "--bench",
        "--measure-time",
        "0.05",
        "--max-time",
        "2",
        "--exact",
        "chain",
        "--against-exe",
        worker.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_with_env(
        shorter,
        &args,
        &[("CARGO_TARGET_DIR", dir.join("target").as_os_str())],
    )
}

#[test]
fn impossible_worker_figures_fail_the_benchmark() {
    let scratch = scratch_dir("rel-against-figures");
    for (case, slice) in [
        (
            "negative",
            r#"{"type":"slice","per_iter_ns":-5.0,"samples":10}"#,
        ),
        (
            "huge",
            r#"{"type":"slice","per_iter_ns":1e300,"samples":10}"#,
        ),
    ] {
        let out = against_liar(&scratch.join(case), slice, &["--fail-on-regression"]);
        // 1: the gate has nothing compared; 101: a benchmark failed.
        assert!(
            matches!(out.code, Some(1 | 101)),
            "{case}: {:?}\n{}\n{}",
            out.code,
            out.stdout,
            out.stderr
        );
        assert!(
            out.stdout.contains("an impossible time per iteration"),
            "{case}: {}",
            out.stdout
        );
        assert!(!out.stdout.contains("faster"), "{}", out.stdout);
        assert!(!out.stdout.contains("slower"), "{}", out.stdout);
    }
}

/// A door the review did not list: a time from no samples.
#[test]
fn a_worker_time_from_no_samples_fails_the_benchmark() {
    let scratch = scratch_dir("rel-against-samples");
    let out = against_liar(
        &scratch,
        r#"{"type":"slice","per_iter_ns":3.0,"samples":0}"#,
        &[],
    );
    assert_eq!(out.code, Some(101), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("from no samples"), "{}", out.stdout);
}

// Failure 12: two benchmarks with one full name.

#[test]
fn two_benchmarks_of_one_name_are_refused_with_both_definitions() {
    let target = scratch_dir("rel-duplicate-names");
    let out = fixture(
        &target,
        &[
            "--ignored",
            "same_name",
            "--save-baseline",
            "dup",
            "--format",
            "bmf",
        ],
        &[],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let error = one_line_error(&out.stderr);
    assert!(
        error.contains("two benchmarks are named 'same_name/twin'")
            && error.contains("fixture.rs:87 (args value 1)")
            && error.contains("fixture.rs:87 (args value 2)"),
        "{error}"
    );
    assert!(!target.join("bench-harness/baselines/dup").exists());
}

/// A door the review did not list: the smoke test (`cargo test --benches`).
#[test]
fn two_benchmarks_of_one_name_fail_the_smoke_test() {
    let out = run_with_env(
        fixture_binary(),
        &["--ignored", "same_name"],
        &[(
            "CARGO_TARGET_DIR",
            scratch_dir("rel-duplicate-smoke").as_os_str(),
        )],
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        one_line_error(&out.stderr).contains("two benchmarks are named 'same_name/twin'"),
        "{}",
        out.stderr
    );
}

// Failures 21, 22, 23: --output.

#[test]
fn output_leaves_look_alike_temporaries_alone() {
    let scratch = scratch_dir("rel-output-lookalikes");
    let target = scratch.join("target");
    let dir = scratch.join("out");
    std::fs::create_dir_all(&dir).unwrap();
    let mut ended = Command::new("true").spawn().unwrap();
    let dead = ended.id();
    ended.wait().unwrap();
    let look_alikes = [
        format!(".notes.txt.{dead}.17.tmp"),
        format!(".draft.{dead}.1700000000.3.tmp"),
        format!(".results.json.{dead}.1700000000.3.tmp"),
        // A door the review did not list: another file's name in the
        // harness's own pattern.
        format!(".other.json.{dead}.1700000000.3.bench-harness.tmp"),
    ];
    let old = std::time::SystemTime::now() - Duration::from_secs(600);
    for name in &look_alikes {
        std::fs::File::create(dir.join(name))
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let results = dir.join("results.json");
    let out = fixture(
        &target,
        &[
            "--exact",
            "passes",
            "--format",
            "json",
            "-o",
            results.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    for name in &look_alikes {
        assert!(dir.join(name).exists(), "{name} was removed");
    }
}

/// Sends SIGINT to `child` after `after`, and waits at most `limit` for it.
fn interrupt_fifo_writer(target: &Path, output: &Path, name: &str) {
    let scratch = scratch_dir(name);
    let mut command = fixture_command(
        target,
        &scratch,
        &[
            "--exact",
            "passes",
            "--format",
            "csv",
            "-o",
            output.to_str().unwrap(),
        ],
    );
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    // Measuring takes well under this; then the run waits for a reader.
    std::thread::sleep(Duration::from_secs(4));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let interrupted = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let stderr = reader.join().unwrap();
            assert_ne!(status.code(), Some(0), "{stderr}");
            assert!(
                stderr.contains("no reader opened the FIFO before Ctrl-C"),
                "{stderr}"
            );
            assert!(
                stderr.contains("waiting for a reader of the FIFO"),
                "{stderr}"
            );
            return;
        }
        if interrupted.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the first Ctrl-C did not stop the wait for the FIFO's reader");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn output_to_a_fifo_with_no_reader_stops_at_the_first_ctrl_c() {
    let scratch = scratch_dir("rel-output-fifo");
    let fifo = scratch.join("fifo");
    mkfifo(&fifo);
    interrupt_fifo_writer(&scratch.join("target"), &fifo, "rel-output-fifo-run");
}

/// A door the review did not list: a link to a FIFO.
#[test]
fn output_to_a_link_to_a_fifo_with_no_reader_stops_at_the_first_ctrl_c() {
    let scratch = scratch_dir("rel-output-fifo-link");
    let fifo = scratch.join("fifo");
    mkfifo(&fifo);
    let link = scratch.join("results.csv");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    interrupt_fifo_writer(&scratch.join("target"), &link, "rel-output-fifo-link-run");
}

#[test]
fn output_dash_is_standard_output() {
    let scratch = scratch_dir("rel-output-dash");
    let target = scratch.join("target");
    let command = fixture_command(
        &target,
        &scratch,
        &["--exact", "passes", "--format", "json", "-o", "-"],
    );
    let out = finish_within(command, Duration::from_secs(60));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!scratch.join("-").exists(), "a file named - was written");
    let document: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: stdout is not the JSON: {}", out.stdout));
    assert_eq!(document["benchmarks"][0]["name"], "passes");
}

// Failure 13: a name over 65,535 characters panicked.

/// `hostile::long_name`'s one benchmark: its argument's name is 70,000
/// characters, wider than std can pad to (65,535).
fn long_name() -> String {
    format!("hostile::long_name/{}", "x".repeat(70_000))
}

/// The fixture measuring `hostile::long_name` with short budgets, in the
/// compact view unless `args` asks for `--details`.
fn long_name_run(target: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> Run {
    let mut all = vec![
        "--bench",
        "--warm-up-time",
        "0.01",
        "--measure-time",
        "0.02",
        "--ignored",
        "hostile::long_name",
    ];
    all.extend_from_slice(args);
    let mut vars = vec![("CARGO_TARGET_DIR", target.as_os_str())];
    vars.extend_from_slice(env);
    run_with_env(fixture_binary(), &all, &vars)
}

fn assert_whole(run: &Run, what: &str) {
    assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{what}: {}", run.stderr);
}

#[test]
fn a_name_wider_than_a_format_width_is_printed_whole_in_every_view() {
    let target = scratch_dir("rel-long-name-views");
    let columns = OsStr::new("100000");
    for (what, args, env) in [
        ("--details", &["--details"][..], &[][..]),
        ("COLUMNS=100000", &[][..], &[("COLUMNS", columns)][..]),
    ] {
        let run = long_name_run(&target, args, env);
        assert_whole(&run, what);
        // The tree shows the argument's name on a line of its own (the
        // whole name is on a note's line only when the row is marked `?`).
        assert!(
            run.stdout.contains(&"x".repeat(70_000)),
            "{what}: the name is cut"
        );
    }
}

#[test]
fn a_long_name_keeps_the_bencher_output_and_the_baseline() {
    let scratch = scratch_dir("rel-long-name-bencher");
    let target = scratch.join("target");
    let output = scratch.join("r2.bencher");
    let run = long_name_run(
        &target,
        &[
            "--format",
            "bencher",
            "--save-baseline",
            "lnb",
            "-o",
            output.to_str().unwrap(),
        ],
        &[],
    );
    assert_whole(&run, "--format bencher");
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(written.contains(&format!("test {} ... bench:", long_name())));
    assert_eq!(baseline_names(&target, "lnb"), [long_name()]);
    // The comparison table, under --details as wide as the name.
    let compared = long_name_run(&target, &["--baseline", "lnb", "--details"], &[]);
    assert_whole(&compared, "--baseline --details");
    assert!(compared.stdout.contains(&long_name()));
}

/// Doors the review did not list: the `--against` table, which pads the
/// name to its whole width under `--details`, and the HTML report.
#[test]
fn a_long_name_is_whole_in_the_against_table_and_the_report() {
    let scratch = scratch_dir("rel-long-name-against");
    let target = scratch.join("target");
    let report = scratch.join("report");
    let run = long_name_run(
        &target,
        &[
            "--details",
            "--against-exe",
            fixture_binary().to_str().unwrap(),
        ],
        &[],
    );
    assert_whole(&run, "--against-exe --details");
    assert!(run.stdout.contains(&long_name()), "{}", run.stdout);
    let measured = long_name_run(&target, &["--report", report.to_str().unwrap()], &[]);
    assert_whole(&measured, "--report");
    let page = std::fs::read_to_string(report.join("fixture/index.html")).unwrap();
    assert!(page.contains(&long_name()));
}

// Failure 25: the HTML report passed ESC, NUL and U+202E through raw.

/// The first character in `text` that a terminal or a browser acts on:
/// a control character other than a line break, a line separator or a
/// bidirectional mark, embedding, override or isolate.
fn raw_hostile_char(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

/// The fixture's benchmarks with hostile names: a line break, ESC, NUL,
/// CSI and U+202E.
const HOSTILE_NAMES: [&str; 3] = ["--ignored", "hostile::control_names", "hostile::bidi_names"];

#[test]
fn the_report_escapes_control_and_bidi_characters_of_names() {
    let scratch = scratch_dir("rel-html-control");
    let report = scratch.join("report");
    let mut args = HOSTILE_NAMES.to_vec();
    args.extend(["--report", report.to_str().unwrap()]);
    let run = fixture(&scratch.join("target"), &args, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let page = std::fs::read_to_string(report.join("fixture/index.html")).unwrap();
    assert_eq!(raw_hostile_char(&page), None, "a raw character in the page");
    for shown in [
        r"hostile::control_names/\u{1b}[2Jclear",
        r"hostile::bidi_names/nul\u{0}byte",
        r"hostile::bidi_names/rtl\u{202e}txt.exe",
    ] {
        assert!(page.contains(shown), "{shown} is not in the page");
    }
}

/// Doors the review did not list: every file format, CSV and Markdown
/// (for people who `cat` them) and the JSON formats (whose readers get
/// the names back unchanged).
#[test]
fn every_output_format_escapes_control_and_bidi_characters_of_names() {
    let scratch = scratch_dir("rel-formats-control");
    let target = scratch.join("target");
    for format in ["csv", "markdown", "bencher", "json", "bmf", "pretty"] {
        let output = scratch.join(format!("out.{format}"));
        let mut args = HOSTILE_NAMES.to_vec();
        args.extend(["--format", format, "-o", output.to_str().unwrap()]);
        let run = fixture(&target, &args, &[]);
        assert_eq!(run.code, Some(0), "{format}: {}", run.stderr);
        let text = std::fs::read_to_string(&output).unwrap();
        assert_eq!(raw_hostile_char(&text), None, "{format}: {text:?}");
        assert_eq!(raw_hostile_char(&run.stdout), None, "{format}: stdout");
    }
    let json = read_json(&scratch.join("out.json"));
    let names: Vec<&str> = json["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"hostile::bidi_names/rtl\u{202e}txt.exe"),
        "{names:?}"
    );
    let bmf = read_json(&scratch.join("out.bmf"));
    assert!(
        bmf.get("hostile::bidi_names/nul\u{0}byte").is_some(),
        "{bmf}"
    );
}

// Failure 29: --logfile and --force-run-in-process were refused.

#[test]
fn libtest_logfile_logs_each_measured_benchmark() {
    let scratch = scratch_dir("rel-logfile-bench");
    let log = scratch.join("bench.log");
    let run = fixture(
        &scratch.join("target"),
        &[
            "--exact",
            "passes",
            "spins",
            "--logfile",
            log.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for (line, name) in lines.iter().zip(["passes", "spins"]) {
        let (figures, logged) = line.rsplit_once(' ').unwrap();
        assert_eq!(logged, name, "{line}");
        assert!(figures.contains(" ns/iter (+/- "), "{line}");
        assert!(figures.ends_with(')'), "{line}");
    }
}

#[test]
fn libtest_force_run_in_process_is_accepted_and_measures_here() {
    let scratch = scratch_dir("rel-force-in-process");
    let run = fixture(
        &scratch.join("target"),
        &["--exact", "passes", "--force-run-in-process"],
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.row("passes").samples() > 0, "{}", run.stdout);
    // In this process, as libtest means it (`--forks 0`).
    assert!(run.stdout.contains("CI for this process"), "{}", run.stdout);
    let clash = fixture(
        &scratch.join("target"),
        &[
            "--exact",
            "passes",
            "--force-run-in-process",
            "--forks",
            "2",
        ],
        &[],
    );
    assert_eq!(clash.code, Some(2));
    assert!(
        one_line_error(&clash.stderr).contains("contradict"),
        "{}",
        clash.stderr
    );
}

/// The door the first fix missed: libtest's own use, a smoke test (`cargo
/// test --benches -- --force-run-in-process`), and `--list`.
#[test]
fn libtest_force_run_in_process_is_accepted_in_a_smoke_test_and_a_list() {
    let env = [("NO_COLOR", OsStr::new("1"))];
    let smoke = run_with_env(
        fixture_binary(),
        &["--exact", "passes", "--force-run-in-process"],
        &env,
    );
    assert_eq!(smoke.code, Some(0), "{}", smoke.stderr);
    assert!(smoke.stdout.contains("passes"), "{}", smoke.stdout);
    let list = run_with_env(
        fixture_binary(),
        &["--list", "--force-run-in-process"],
        &env,
    );
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(list.listed().contains(&"passes"), "{}", list.stdout);
}

/// Doors the review did not list: the smoke test (`cargo test --benches`)
/// and `--list`, which libtest logs too.
#[test]
fn libtest_logfile_logs_a_smoke_test_and_a_list() {
    let scratch = scratch_dir("rel-logfile-smoke");
    let log = scratch.join("test.log");
    let log_arg = log.to_str().unwrap();
    let env = [("CARGO_TARGET_DIR", scratch.as_os_str())];
    let names = ["passes", "panics_in_routine", "ignored_by_attribute"];
    let mut args = vec!["--exact"];
    args.extend(names);
    args.extend(["--logfile", log_arg]);
    let smoke = run_with_env(fixture_binary(), &args, &env);
    assert_eq!(smoke.code, Some(101), "{}", smoke.stderr);
    let text = std::fs::read_to_string(&log).unwrap();
    for line in [
        "ok passes",
        "failed panics_in_routine",
        "ignored ignored_by_attribute",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "{line:?} is not in {text:?}"
        );
    }
    args.push("--list");
    let list = run_with_env(fixture_binary(), &args, &env);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    let text = std::fs::read_to_string(&log).unwrap();
    // In the order the benchmarks are defined, as `--list` prints them.
    assert_eq!(
        text,
        "benchmark passes\nbenchmark ignored_by_attribute\nbenchmark panics_in_routine\n"
    );
}

// Failure 28: after a rebuild during the run, keeping the executable
// failed with "check the free space".

/// A copy of the fixture, `dir/fixture`, measuring
/// `hostile::replaces_own_executable` with `BENCH_FIXTURE_REPLACE_EXE` set
/// to `replace` and saving baseline `swapped`: the saved document and the
/// kept executable, which must be the build that ran.
fn save_while_replaced(dir: &Path, replace: &OsStr) {
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let exe = dir.join("bin/fixture");
    bench_tests::install_executable(fixture_binary(), &exe);
    let target = dir.join("target");
    let mut all = QUICK.to_vec();
    // One process: the benchmark moves the file once, as a rebuild would.
    all.extend([
        "--forks",
        "1",
        "--ignored",
        "--exact",
        "hostile::replaces_own_executable",
        "--save-baseline",
        "swapped",
    ]);
    let run = run_with_env(
        &exe,
        &all,
        &[
            ("CARGO_TARGET_DIR", target.as_os_str()),
            ("BENCH_FIXTURE_REPLACE_EXE", replace),
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        !run.stderr.contains("check the free space"),
        "{}",
        run.stderr
    );
    let kept = std::fs::read(target.join("bench-harness/baselines/swapped/fixture.exe"))
        .expect("the executable is kept");
    let ran = std::fs::read(fixture_binary()).unwrap();
    assert!(kept == ran, "the kept executable is not the build that ran");
    assert_eq!(
        baseline_names(&target, "swapped"),
        ["hostile::replaces_own_executable"]
    );
}

#[test]
fn an_executable_rebuilt_during_the_run_is_kept_as_it_ran() {
    let dir = scratch_dir("rel-keep-exe-replaced");
    std::fs::create_dir_all(&dir).unwrap();
    let replacement = dir.join("new-build");
    bench_tests::install_executable(crate::common::empty_binary(), &replacement);
    save_while_replaced(&dir, replacement.as_os_str());
}

/// A door the review did not list: the file removed (`cargo clean`)
/// rather than replaced.
#[test]
fn an_executable_removed_during_the_run_is_kept_as_it_ran() {
    let dir = scratch_dir("rel-keep-exe-removed");
    save_while_replaced(&dir, OsStr::new("remove"));
}

// Failure 27: exit() from a benchmark's background thread was blamed on
// the hidden loop_overhead.

/// The fixture measuring `names` one after another (`--schedule
/// sequential`), with `env`.
fn exiting_thread_run(target: &Path, names: &[&str], env: &[(&str, &OsStr)]) -> Run {
    // In this process (`--forks 0`): where the exit hook speaks for the
    // run; in processes of their own, the child's last line is quoted in
    // its benchmark's failure instead.
    let mut args = vec![
        "--forks",
        "0",
        "--schedule",
        "sequential",
        "--ignored",
        "--exact",
    ];
    args.extend_from_slice(names);
    fixture(target, &args, env)
}

#[test]
fn an_exit_from_a_benchmarks_thread_during_the_loop_overhead_names_the_benchmark() {
    let target = scratch_dir("rel-exit-thread-overhead");
    let run = exiting_thread_run(&target, &["hostile::exiting_thread_starts"], &[]);
    assert_eq!(run.code, Some(101), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "error: benchmark hostile::exiting_thread_starts ended the process by calling exit"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("loop_overhead"), "{}", run.stderr);
}

/// A door the review did not list: the exit comes while another of the
/// user's benchmarks is measured, which must not be blamed either.
#[test]
fn an_exit_from_a_benchmarks_thread_during_another_benchmark_names_the_one_that_started_it() {
    let target = scratch_dir("rel-exit-thread-other");
    let run = exiting_thread_run(
        &target,
        &[
            "hostile::exiting_thread_starts",
            "hostile::exiting_thread_trigger",
        ],
        &[("BENCH_FIXTURE_WAIT_FOR_TRIGGER", OsStr::new("1"))],
    );
    assert_eq!(run.code, Some(101), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "error: benchmark hostile::exiting_thread_starts ended the process by calling exit"
        ),
        "{}",
        run.stderr
    );
    assert!(!run
        .stderr
        .contains("benchmark hostile::exiting_thread_trigger ended"));
}

// Failure 20: after Ctrl-C only the JSON said the run was partial.

/// Where an interrupted run shows that measuring has begun.
enum Begun {
    /// The machine line on stdout (the table goes there).
    MachineLine,
    /// A progress line on stderr: a machine format has stdout, and stderr
    /// (not a terminal) repeats the live line after 5 s without one.
    Progress,
}

/// Reads `from` line by line into `seen` until a line satisfies `done`.
fn read_until(from: &mut impl std::io::BufRead, seen: &mut String, done: impl Fn(&str) -> bool) {
    loop {
        let mut line = String::new();
        if from.read_line(&mut line).unwrap() == 0 {
            panic!("the fixture ended before measuring: {seen}");
        }
        seen.push_str(&line);
        if done(&line) {
            return;
        }
    }
}

/// Runs `passes` and `also_passes` one after the other with a budget only
/// Ctrl-C ends, plus `args`; sends SIGINT once measuring has begun and
/// returns what the run printed.
fn interrupted_run(target: &Path, args: &[&str], begun: Begun) -> Run {
    let mut command = fixture_command(target, target, &[]);
    command.args([
        "--schedule",
        "sequential",
        "--measure-time",
        "600",
        "--max-time",
        "900",
        "--exact",
        "passes",
        "also_passes",
    ]);
    command.args(args);
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixture starts");
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (mut out, mut err) = (String::new(), String::new());
    match begun {
        // By then Ctrl-C is handled; wait long enough for calibration and
        // warm-up even on a loaded machine.
        Begun::MachineLine => {
            read_until(&mut stdout, &mut out, |line| line.contains("machine: "));
            std::thread::sleep(Duration::from_secs(2));
        }
        Begun::Progress => read_until(&mut stderr, &mut err, |line| line.starts_with('[')),
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let rest = std::thread::spawn(move || {
        let mut err = err;
        stderr.read_to_string(&mut err).unwrap();
        err
    });
    stdout.read_to_string(&mut out).unwrap();
    let code = child.wait().unwrap().code();
    Run {
        code,
        stdout: out,
        stderr: rest.join().unwrap(),
    }
}

const PARTIAL: &str = "interrupted: partial results (measuring stopped at Ctrl-C";

#[test]
fn every_file_format_of_an_interrupted_run_says_it_is_partial() {
    let scratch = scratch_dir("rel-partial-formats");
    std::fs::create_dir_all(&scratch).unwrap();
    for format in ["pretty", "csv", "markdown", "bencher", "bmf"] {
        let output = scratch.join(format!("part.{format}"));
        let run = interrupted_run(
            &scratch,
            &["--format", format, "-o", output.to_str().unwrap()],
            Begun::MachineLine,
        );
        assert_eq!(run.code, Some(130), "{format}: {}", run.stderr);
        let text = std::fs::read_to_string(&output).unwrap();
        match format {
            "pretty" => {
                assert!(text.contains(PARTIAL), "{text}");
                assert!(!text.contains(" in 0.0 s"), "{text}");
            }
            "csv" => {
                let mut rows = text.lines();
                let header = rows.next().unwrap();
                assert!(header.ends_with(",run,measured_two_ways"), "{text}");
                let rows: Vec<&str> = rows.collect();
                assert!(!rows.is_empty(), "{text}");
                // Not compared, so nothing in the last column.
                assert!(rows.iter().all(|r| r.ends_with(",partial,")), "{text}");
            }
            "markdown" => assert!(
                text.starts_with("**Interrupted:** partial results (measuring stopped"),
                "{text}"
            ),
            "bencher" => {
                assert!(text.contains(PARTIAL), "{text}");
                assert!(text.contains("test result: FAILED."), "{text}");
            }
            _ => {
                let bmf: Value = serde_json::from_str(&text).unwrap();
                let benchmarks = bmf.as_object().unwrap();
                assert!(!benchmarks.is_empty(), "{text}");
                for (name, measures) in benchmarks {
                    assert_eq!(measures["partial-run"]["value"], 1.0, "{name}: {text}");
                }
            }
        }
    }
    // The table on the terminal too.
    let run = interrupted_run(&scratch, &[], Begun::MachineLine);
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    assert!(run.stdout.contains(PARTIAL), "{}", run.stdout);
}

/// Doors the review did not list: a machine format on stdout (no `-o`),
/// libtest's `--logfile`, and the HTML report.
#[test]
fn an_interrupted_run_says_it_is_partial_on_stdout_in_the_log_and_the_report() {
    let scratch = scratch_dir("rel-partial-doors");
    std::fs::create_dir_all(&scratch).unwrap();
    let log = scratch.join("bench.log");
    let report = scratch.join("report");
    let run = interrupted_run(
        &scratch,
        &[
            "--format",
            "csv",
            "--logfile",
            log.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
        Begun::Progress,
    );
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("passes,"))
        .collect();
    assert!(!rows.is_empty(), "{}", run.stdout);
    assert!(
        rows.iter().all(|r| r.ends_with(",partial,")),
        "{}",
        run.stdout
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.lines().last().unwrap().starts_with(PARTIAL), "{log}");
    let page = std::fs::read_to_string(report.join("fixture/index.html")).unwrap();
    assert!(page.contains("interrupted: partial results"));
}

// Failure 6: a benchmark that called `_exit(0)` made a gated run exit 0
// with no table and no message (`atexit` never runs). Measured in
// processes of their own (the default), the process that ended without
// results fails its benchmark alone, and the run says so.
#[test]
fn a_benchmark_that_calls_underscore_exit_fails_and_the_others_are_measured() {
    let scratch = scratch_dir("rel-underscore-exit");
    let json = scratch.join("out.json");
    let run = fixture(
        &scratch.join("target"),
        &[
            "--include-ignored",
            "--exact",
            "passes",
            "hostile::underscore_exits",
            "--save-baseline",
            "main",
            "--format",
            "json",
            "-o",
            json.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.code, Some(101), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("exited with code 0 and sent no results"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("1 measured, 1 failed"),
        "{}",
        run.stdout
    );
    // The document holds both: the failure and the one measured.
    let document = read_json(&json);
    let outcomes: Vec<&str> = document["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
    assert!(outcomes.contains(&"failed") && outcomes.contains(&"measured"));
    let _ = std::fs::remove_dir_all(&scratch);
}
