//! What the harness measures besides time, and what it says about the
//! machine: counters, allocations, CPU time, pinning, cold caches, and the
//! warnings of an unoptimised build.

use bench_tests::{quick_bench, Run};

use crate::common::{counting_binary, fixture_binary};

fn bench(args: &[&str]) -> Run {
    quick_bench(fixture_binary(), args)
}

/// The figure before `name` on the row's counters line.
fn per_iteration(out: &Run, name: &str) -> Option<f64> {
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("counters per iteration:"))?;
    let at = line.find(&format!(" {name}"))?;
    let figure = line[..at].rsplit(' ').next()?;
    let (number, scale) = match figure.chars().last()? {
        'K' => (&figure[..figure.len() - 1], 1e3),
        'M' => (&figure[..figure.len() - 1], 1e6),
        'G' => (&figure[..figure.len() - 1], 1e9),
        _ => (figure, 1.0),
    };
    number.parse::<f64>().ok().map(|n| n * scale)
}

#[test]
fn counters_count_page_faults_for_real_and_say_what_was_refused() {
    let out = bench(&["--exact", "touches_pages", "--counters"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    // 40 MiB touched page by page: ~10,240 faults; allow for huge pages.
    let faults = per_iteration(&out, "page-faults").expect("a page-faults figure");
    assert!(
        faults > 1000.0,
        "{faults} page faults per iteration:\n{}",
        out.stdout
    );
    assert!(
        per_iteration(&out, "task-clock").is_none(),
        "task-clock is a time"
    );
    assert!(out.stdout.contains("task-clock"), "{}", out.stdout);
    // Either the hardware counts, or a note names why not.
    let hardware = per_iteration(&out, "instructions").is_some();
    let refused = out
        .stdout
        .contains("note: counters not measured (cycles, instructions");
    assert!(hardware || refused, "{}", out.stdout);
}

#[test]
fn without_counters_nothing_is_counted() {
    let out = bench(&["--exact", "passes"]);
    assert!(
        !out.stdout.contains("counters per iteration"),
        "{}",
        out.stdout
    );
}

#[test]
fn allocations_are_counted_exactly_per_iteration() {
    let out = quick_bench(counting_binary(), &[]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    let after = |name: &str| {
        let row = lines.iter().position(|l| l.starts_with(name)).unwrap();
        lines[row + 1..]
            .iter()
            .find(|l| l.contains("allocations per iteration"))
            .copied()
            .unwrap_or_default()
    };
    // Counts are exact. Bytes are exact up to the harness's own sporadic
    // allocations (its channels' message blocks), which are measured on the
    // empty loop and subtracted as an average: within 0.1 byte.
    let three = after("three_boxes");
    assert!(
        three.contains("3.00 allocs · 3.00 deallocs · 0.00 reallocs · "),
        "{three}"
    );
    let bytes: f64 = three
        .rsplit(" · ")
        .next()
        .and_then(|b| b.strip_suffix(" bytes"))
        .and_then(|b| b.parse().ok())
        .unwrap();
    assert!((bytes - 24.0).abs() < 0.1, "{three}");
    let none = after("no_allocation");
    assert!(
        none.contains("0.00 allocs · 0.00 deallocs · 0.00 reallocs · "),
        "{none}"
    );
}

#[test]
fn a_benchmark_that_waits_is_told_its_cpu_time_was_low() {
    let out = bench(&["--exact", "sleeps_30ms", "--max-time", "0.5", "--details"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("of wall time: the benchmark waited"),
        "{}",
        out.stdout
    );
    let sleeping = cpu_share(&out.stdout).expect("a note on the sleeping benchmark");
    assert!(sleeping < 10.0, "{}", out.stdout);
    // A busy benchmark gets no note, or, on a loaded machine that
    // descheduled it, one with a far higher share than the sleeper's.
    let busy = bench(&["--exact", "passes"]);
    if let Some(share) = cpu_share(&busy.stdout) {
        assert!(share > 50.0, "{}", busy.stdout);
    }
}

/// The percentage in "note: CPU time was 12.3% of wall time".
fn cpu_share(stdout: &str) -> Option<f64> {
    let rest = stdout.split("note: CPU time was ").nth(1)?;
    rest.split('%').next()?.parse().ok()
}

#[cfg(target_os = "linux")]
#[test]
fn pinned_threads_say_where_they_ran() {
    let out = bench(&["--exact", "passes", "--pin", "0", "--details"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("measuring threads pinned to CPU 0"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("· ran on CPU 0\n"), "{}", out.stdout);

    let out = bench(&["--exact", "passes", "--pin", "4096"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr
            .contains("--pin 4096: this process may run on CPUs 0"),
        "{}",
        out.stderr
    );
}

#[test]
fn cold_caches_are_announced_and_the_run_completes() {
    let out = bench(&["--exact", "passes", "--cold"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("cold caches: "), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("MiB walked before each sample, untimed"),
        "{}",
        out.stdout
    );
}

#[test]
fn an_unoptimised_build_is_warned_about_first_and_the_machine_described() {
    // The fixture is built by `cargo test`: the test profile, opt-level 0.
    // Warnings go to stderr, the loud one first, and
    // --no-machine-warnings does not silence it: it is about the build.
    for args in [
        &["--exact", "passes"][..],
        &["--exact", "passes", "--no-machine-warnings"],
    ] {
        let out = bench(args);
        let first = out.stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("warning: this benchmark binary is an unoptimised build"),
            "{first}"
        );
        assert!(
            out.stdout
                .lines()
                .next()
                .unwrap_or_default()
                .starts_with("machine: "),
            "{}",
            out.stdout
        );
    }
}

/// A checkout whose `core.fsmonitor` hook appends to `marker`, with a
/// tracked file whose stat data is stale (so `git status` would rewrite
/// `.git/index`); `None` when git is not installed.
fn checkout_with_hook(dir: &std::path::Path) -> Option<String> {
    use std::process::{Command, Stdio};
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    git(&["init", "-q"])?;
    std::fs::write(dir.join("tracked"), "one").unwrap();
    git(&["add", "tracked"])?;
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qm",
        "init",
    ])?;
    let hook = dir.join("hook.sh");
    let script = format!(
        "#!/bin/sh\necho ran >> '{}'\nexit 1\n",
        dir.join("marker").display()
    );
    bench_tests::install_script(&script, &hook);
    git(&["config", "core.fsmonitor", hook.to_str().unwrap()])?;
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(dir.join("tracked"), "two").unwrap();
    git(&["rev-parse", "HEAD"])
}

/// Issue 14 item 7: a measured run records the checkout's commit without
/// running the repository's fsmonitor hook or rewriting its index, in the
/// parent only (not again in each `--forks` child); BENCH_HARNESS_NO_GIT=1
/// runs no git at all.
#[test]
fn the_commit_is_read_without_running_repository_hooks() {
    let dir = bench_tests::scratch_dir("git-fsmonitor");
    let Some(head) = checkout_with_hook(&dir) else {
        eprintln!("skipped: git is not available");
        return;
    };
    let index = dir.join(".git/index");
    let read_index = || {
        (
            std::fs::read(&index).unwrap(),
            std::fs::metadata(&index).unwrap().modified().unwrap(),
        )
    };
    let before = read_index();
    // A `git` first on PATH that logs each start, then runs the real one.
    let real_git = String::from_utf8(
        std::process::Command::new("sh")
            .args(["-c", "command -v git"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = dir.join("git-starts");
    bench_tests::install_script(
        &format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            real_git.trim()
        ),
        &bin.join("git"),
    );
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let run = |forks: &[&str], extra: &[(&str, &std::ffi::OsStr)]| {
        let mut args = bench_tests::QUICK.to_vec();
        args.extend(["--exact", "passes", "--format", "json"]);
        args.extend(forks);
        let mut env: Vec<(&str, &std::ffi::OsStr)> = vec![
            ("CARGO_MANIFEST_DIR", dir.as_os_str()),
            ("PATH", path.as_os_str()),
        ];
        env.extend(extra);
        let out = bench_tests::run_with_env(fixture_binary(), &args, &env);
        assert_eq!(out.code, Some(0), "{out:?}");
        let document: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        document["environment"].clone()
    };

    for forks in [&[][..], &["--forks", "2"][..]] {
        let environment = run(forks, &[]);
        assert_eq!(environment["git_commit"], head.as_str(), "{forks:?}");
        assert_eq!(environment["git_dirty"], true, "{forks:?}");
        assert!(
            !dir.join("marker").exists(),
            "{forks:?}: the repository's fsmonitor hook ran"
        );
        assert!(
            before == read_index(),
            "{forks:?}: .git/index was rewritten"
        );
        // Once per run: the commit and the state, in the parent only.
        let starts = std::fs::read_to_string(&log).unwrap();
        assert_eq!(starts.lines().count(), 2, "{forks:?}: git ran as\n{starts}");
        std::fs::remove_file(&log).unwrap();
    }

    let environment = run(&[], &[("BENCH_HARNESS_NO_GIT", "1".as_ref())]);
    assert!(environment["git_commit"].is_null(), "{environment}");
    assert!(environment["git_dirty"].is_null(), "{environment}");
    assert!(!log.exists(), "git ran under BENCH_HARNESS_NO_GIT=1");
}
