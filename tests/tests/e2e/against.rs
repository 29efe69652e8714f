//! `--against`: two builds of `benches/against.rs` compared in one paired
//! run (see `bench_tests::against_builds`). The figures are timing, so the
//! budget is generous and only the verdicts of clear cases are asserted:
//! a 2% longer chain is `slower`, identical code is `no difference`.

use std::ffi::OsStr;

use bench_tests::{against_builds, run, run_with_env, scratch_dir, Run};

use crate::common::against_rows;

/// Enough time for a 2% change to settle on a busy 2-core machine.
const BUDGET: [&str; 4] = ["--measure-time", "0.3", "--max-time", "5"];

fn against(this: &std::path::Path, other: &std::path::Path, extra: &[&str]) -> Run {
    let mut args = vec!["--bench", "--against-exe", other.to_str().unwrap()];
    args.extend_from_slice(&BUDGET);
    args.extend_from_slice(extra);
    run(this, &args)
}

/// A row that is compared and claims no change: `no difference`, or
/// `unclear` (its interval reached past the band without lying beyond it).
fn no_verdict(row: &str) -> bool {
    row.ends_with("no difference") || row.contains("unclear")
}

fn row<'a>(rows: &'a [(String, String)], name: &str) -> &'a str {
    &rows
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no row {name} in {rows:?}"))
        .1
}

#[test]
fn a_two_percent_longer_build_is_slower_and_the_unchanged_benchmark_is_not() {
    let (shorter, longer) = against_builds();
    // Issue 22's bar is `slower` in 9 of 10 runs: under CI's load a run
    // may read `unclear` (`1.0152 [1.0045, 1.0260] unclear, up to +2.60%`
    // once), never `no difference` or `faster`. Two `slower` in at most
    // three runs.
    let mut slower = 0;
    for _ in 0..3 {
        let out = against(longer, shorter, &["chain", "unchanged"]);
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        let rows = against_rows(&out.stdout);
        let chain = row(&rows, "chain");
        assert!(
            chain.ends_with("slower") || chain.contains("unclear"),
            "{rows:?}"
        );
        assert!(no_verdict(row(&rows, "unchanged")), "{rows:?}");
        slower += usize::from(chain.ends_with("slower"));
        if slower == 2 {
            break;
        }
    }
    assert_eq!(slower, 2, "`slower` in fewer than 2 of 3 runs");
}

#[test]
fn the_same_build_against_itself_finds_no_difference_and_the_gate_passes() {
    let (shorter, _) = against_builds();
    let out = against(
        shorter,
        shorter,
        &["--fail-on-regression", "chain", "unchanged", "prints"],
    );
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    let rows = against_rows(&out.stdout);
    assert_eq!(rows.len(), 3, "{rows:?}");
    // Never a false `slower` or `faster`. Under a heavy load (121 e2e
    // tests at once, load about 4) a row's interval may reach past the
    // threshold: `unclear` is then the honest word, and the gate passes it.
    for (name, rest) in &rows {
        assert!(no_verdict(rest), "{name}: {rest}");
    }
    assert!(
        rows.iter().any(|(_, rest)| rest.ends_with("no difference")),
        "{rows:?}"
    );
    // The worker's `prints` printed a line that reads as a reply: it went
    // to the worker's stderr, or the replies after it would be off by one
    // and the row would have failed. (This process's own `prints` may print
    // on this stdout.)
    assert!(
        out.stdout.matches("printed by a benchmark").count() <= 1,
        "{}",
        out.stdout
    );
}

/// [`against`] with the JSON written to a file in directory `dir` (a
/// test's scratch directory, taken once however often it compares): the
/// run and the document's `against` section.
fn against_json(
    dir: &std::path::Path,
    this: &std::path::Path,
    other: &std::path::Path,
    extra: &[&str],
) -> (Run, serde_json::Value) {
    let json = dir.join("against.json");
    let mut args = vec!["--format", "json", "-o", json.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = against(this, other, &args);
    let text = std::fs::read_to_string(&json)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    let document: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    std::fs::remove_file(&json).unwrap();
    (out, document["against"].clone())
}

#[test]
fn a_sub_nanosecond_benchmark_against_itself_is_no_different_and_an_empty_one_too_fast() {
    // Each side took out its own estimate of the loop overhead: two
    // estimates a few picoseconds apart made `add` (about 0.25 ns) 3%
    // "faster" than itself, and an empty body's ratio of noise 0.07.
    let (shorter, _) = against_builds();
    let dir = scratch_dir("against-sub-ns");
    let compare = || {
        against_json(
            &dir,
            shorter,
            shorter,
            &["--noise-threshold", "1", "--exact", "add", "empty"],
        )
    };
    // Sub-nanosecond, its ratio moves with each pair of processes' loops
    // (2-4% run to run): no verdict, whether the interval settles inside
    // the noise band or stays unclear. An empty body is what is left of
    // the loop: too fast to compare when both workers' loops match the
    // overhead taken out, else a ratio of noise that stays unclear; never
    // a verdict either. Under two busy loops a false verdict came in a few
    // runs of a hundred (`add`: 4 of 41 with the other build started by
    // path, 0 of 41 since both are started alike; `empty`: 1 of 82), each
    // interval just past the band: a run with one is measured again, and
    // a false verdict twice in a row fails (the old bug, each side taking
    // out its own loop estimate, was 3% off in every run).
    let settled = |stdout: &str| {
        let rows = against_rows(stdout);
        let empty = row(&rows, "empty");
        no_verdict(row(&rows, "add"))
            && (empty.starts_with("too fast to compare: ") || empty.contains("unclear"))
    };
    let (mut out, mut against) = compare();
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    if !settled(&out.stdout) {
        let first = out.stdout;
        (out, against) = compare();
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        assert!(
            settled(&out.stdout),
            "twice a verdict:\n{first}\n{}",
            out.stdout
        );
    }
    let status = |name: &str| {
        against["benchmarks"]
            .as_array()
            .and_then(|all| all.iter().find(|b| b["name"] == name))
            .map(|b| b["status"].clone())
    };
    assert_eq!(status("add"), Some("compared".into()), "{against}");
    assert!(
        [Some("too_fast".into()), Some("compared".into())].contains(&status("empty")),
        "{against}"
    );
}

#[test]
fn the_gate_fails_on_a_slower_build_and_the_json_holds_the_ratio() {
    let (shorter, longer) = against_builds();
    let dir = scratch_dir("against-json");
    let gate = || against_json(&dir, longer, shorter, &["--fail-on-regression", "chain"]);
    // 2% slower against a 1% threshold: the interval must clear 1.01. Beside
    // the other tests (load 1.65) it read 1.0124 [0.9960, 1.0289] once in
    // the project's CI: measured again then, and a second miss fails.
    let (mut out, mut against) = gate();
    if out.code != Some(1) {
        eprintln!("no verdict of slower:\n{}\nmeasuring again", out.stdout);
        (out, against) = gate();
    }
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    assert_eq!(against["baseline"], shorter.to_str().unwrap());
    assert_eq!(against["protocol_version"], 2);
    let chain = &against["benchmarks"][0];
    assert_eq!(chain["name"], "chain");
    assert_eq!(chain["verdict"], "slower");
    let (low, high) = (
        chain["ci_low"].as_f64().unwrap(),
        chain["ci_high"].as_f64().unwrap(),
    );
    let ratio = chain["ratio"].as_f64().unwrap();
    assert!(low <= ratio && ratio <= high && low > 1.0, "{chain}");
    assert!(chain["rounds"].as_u64().unwrap() >= 10, "{chain}");
    assert!(chain["new_ns"].as_f64().unwrap() > chain["old_ns"].as_f64().unwrap());
}

#[test]
fn against_a_saved_baseline_runs_the_executable_it_kept() {
    let (shorter, longer) = against_builds();
    let dir = scratch_dir("against-baseline");
    let target_dir = [("CARGO_TARGET_DIR", dir.as_os_str())];
    let saved = run_with_env(
        shorter,
        &["--bench", "--save-baseline", "main", "chain"],
        &target_dir,
    );
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    let mut args = vec!["--bench", "--against", "main", "chain"];
    args.extend_from_slice(&BUDGET);
    let out = run_with_env(longer, &args, &target_dir);
    assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("against main · "), "{}", out.stdout);
    assert!(
        row(&against_rows(&out.stdout), "chain").ends_with("slower"),
        "{}",
        out.stdout
    );

    // A name with no baseline, and a baseline saved without its executable.
    let out = run_with_env(longer, &["--bench", "--against", "nosuch"], &target_dir);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("no baseline 'nosuch'"),
        "{}",
        out.stderr
    );
    let bare = [
        "--bench",
        "--save-baseline",
        "bare",
        "--no-keep-exe",
        "chain",
    ];
    assert_eq!(run_with_env(shorter, &bare, &target_dir).code, Some(0));
    let out = run_with_env(longer, &["--bench", "--against", "bare"], &target_dir);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    let error = out.stderr.lines().last().unwrap();
    assert!(
        error.contains("baseline 'bare' has no stored executable"),
        "{error}"
    );
    assert!(error.contains("--save-baseline bare"), "{error}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_worker_that_crashes_fails_its_benchmark_only() {
    let (shorter, _) = against_builds();
    let die = [("AGAINST_FIXTURE_DIE", OsStr::new("1"))];
    let args = [
        "--bench",
        "--against-exe",
        shorter.to_str().unwrap(),
        "dies_in_worker",
        "unchanged",
    ];
    let out = run_with_env(shorter, &args, &die);
    assert_eq!(out.code, Some(101), "{}\n{}", out.stdout, out.stderr);
    let rows = against_rows(&out.stdout);
    let died = row(&rows, "dies_in_worker");
    assert!(died.starts_with("failed: the worker ("), "{died}");
    assert!(
        died.contains("was killed by signal 6 (SIGABRT) while measuring dies_in_worker"),
        "{died}"
    );
    // The next benchmark got a fresh worker and was compared: no verdict
    // (`no difference`, or `unclear` when the run's load keeps its interval
    // from settling inside the band).
    assert!(no_verdict(row(&rows, "unchanged")), "{rows:?}");
}

#[test]
fn a_worker_that_hangs_is_stopped_and_fails_its_benchmark_only() {
    let (shorter, _) = against_builds();
    let hang = [("AGAINST_FIXTURE_HANG", OsStr::new("1"))];
    let args = [
        "--bench",
        "--max-time",
        "0.5",
        "--against-exe",
        shorter.to_str().unwrap(),
        "hangs_in_worker",
        "unchanged",
    ];
    let started = std::time::Instant::now();
    let out = run_with_env(shorter, &args, &hang);
    assert_eq!(out.code, Some(101), "{}\n{}", out.stdout, out.stderr);
    let rows = against_rows(&out.stdout);
    let hung = row(&rows, "hangs_in_worker");
    // Twice --max-time plus 10 s.
    assert!(
        hung.contains("did not answer within 11 s while measuring hangs_in_worker"),
        "{hung}"
    );
    // The other benchmark was still compared, at --max-time 0.5: in CI its
    // interval once stayed just past the band (`1.0040 [0.9957, 1.0123]
    // unclear, up to +1.23%`); never a verdict.
    assert!(no_verdict(row(&rows, "unchanged")), "{rows:?}");
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

#[test]
fn ctrl_c_while_a_worker_hangs_ends_the_run_at_once() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let (shorter, longer) = against_builds();
    let mut child = Command::new(longer)
        .args(["--bench", "--max-time", "20", "--against-exe"])
        .arg(shorter)
        .arg("hangs_in_worker")
        .env("AGAINST_FIXTURE_HANG", "1")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("machine:") {
        assert!(
            stdout.read_line(&mut seen).unwrap() > 0,
            "ended early: {seen}"
        );
    }
    // The worker is now (or soon) stuck in its first slice; the parent
    // would wait 50 s for it.
    std::thread::sleep(Duration::from_millis(1500));
    let interrupted = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert!(
        interrupted.elapsed() < Duration::from_secs(5),
        "{:?}",
        interrupted.elapsed()
    );
    stdout.read_to_string(&mut seen).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{seen}\n{stderr}");
    assert!(
        stderr.contains("interrupted: the comparison above is partial"),
        "{stderr}"
    );
}

#[test]
fn a_worker_of_another_protocol_version_is_refused() {
    let (shorter, _) = against_builds();
    // A build of another protocol, as its hello says it.
    let dir = scratch_dir("against-protocol-99");
    let worker = dir.join("protocol-99.sh");
    bench_tests::install_script(
        "#!/bin/sh\necho '{\"type\":\"hello\",\"worker\":\"bench-harness\",\"protocol\":99,\
         \"harness_version\":\"9.0.0\",\"benchmarks\":[\"chain\"]}'\ncat >/dev/null\n",
        &worker,
    );
    let args = ["--bench", "--against-exe", worker.to_str().unwrap()];
    let out = run(shorter, &args);
    assert_eq!(out.code, Some(2), "{}\n{}", out.stdout, out.stderr);
    let error = out.stderr.lines().last().unwrap();
    assert!(error.contains("speaks worker protocol 99"), "{error}");
    assert!(error.contains("this build speaks 1 to 2"), "{error}");
}

#[test]
fn a_program_that_is_not_a_worker_or_not_a_file_is_refused() {
    let (shorter, _) = against_builds();
    let out = run(shorter, &["--bench", "--against-exe", "/bin/true"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("/bin/true did not answer as a bench-harness worker (it exited with code 0)"),
        "{}",
        out.stderr
    );
    let out = run(shorter, &["--bench", "--against-exe", "/no/such/bench"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("--against-exe /no/such/bench: no such file"),
        "{}",
        out.stderr
    );
}

#[test]
fn builds_with_different_benchmarks_list_new_and_gone_and_the_gate_fails() {
    let (shorter, _) = against_builds();
    let other = crate::common::fixture_binary();
    let args = [
        "--bench",
        "--fail-on-regression",
        "--against-exe",
        other.to_str().unwrap(),
    ];
    let out = run(shorter, &args);
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let rows = against_rows(&out.stdout);
    assert_eq!(row(&rows, "chain"), "new: not in the other build");
    assert_eq!(row(&rows, "passes"), "gone: not in this build");
    assert!(
        out.stdout.contains("nothing was compared"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains("--fail-on-regression: nothing was compared"),
        "{}",
        out.stderr
    );
}

/// `--against` in every format: CSV, Markdown (also appended to a GitHub
/// step summary) and BMF carry the same comparison, and the terminal's
/// table ends with the verdicts counted.
#[test]
fn every_format_carries_the_against_comparison() {
    let (shorter, longer) = against_builds();
    let dir = scratch_dir("against-formats");
    let written = |format: &str, env: &[(&str, &OsStr)]| {
        let file = dir.join(format!("against.{format}"));
        let mut args = vec!["--bench", "--against-exe", shorter.to_str().unwrap()];
        args.extend_from_slice(&BUDGET);
        args.extend_from_slice(&["--format", format, "-o", file.to_str().unwrap(), "chain"]);
        let out = run_with_env(longer, &args, env);
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        // The table still goes to stdout, its verdicts counted under it.
        assert!(out.stdout.contains("\n\n  1 slower\n"), "{}", out.stdout);
        std::fs::read_to_string(&file).unwrap()
    };

    let csv = written("csv", &[]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("name,status,new_ns,old_ns,ratio,"),
        "{csv}"
    );
    assert_eq!(lines.len(), 2, "{csv}");
    let chain: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        (chain[0], chain[1], chain[10]),
        ("chain", "compared", "slower")
    );
    let low: f64 = chain[5].parse().unwrap();
    assert!(low > 1.0, "{csv}");

    let summary = dir.join("step_summary.md");
    let env = [("GITHUB_STEP_SUMMARY", summary.as_os_str())];
    let markdown = written("markdown", &env);
    assert!(
        markdown.starts_with("`against`: **1 slower** against `"),
        "{markdown}"
    );
    let table = markdown.find("\n| benchmark | time | change (95% CI) | verdict |\n");
    let chain_row = markdown.find("\n| `chain` | ").unwrap();
    assert!(table.unwrap() < chain_row, "{markdown}");
    assert!(
        chain_row < markdown.find("<details>").unwrap(),
        "{markdown}"
    );
    assert_eq!(std::fs::read_to_string(&summary).unwrap(), markdown);

    let bmf: serde_json::Value = serde_json::from_str(&written("bmf", &[])).unwrap();
    assert_eq!(
        crate::formats::bmf_violations(&bmf),
        Vec::<String>::new(),
        "{bmf:#}"
    );
    let ratio = &bmf["chain"]["ratio"];
    assert!(ratio["lower_value"].as_f64().unwrap() > 1.0, "{bmf:#}");
    assert!(bmf["chain"]["latency"]["value"].as_f64().unwrap() > 0.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rebuilt_other_build_is_not_paired_with_the_one_started() {
    // The attack: the other build's file is replaced while the comparison
    // runs (a rebuild). Every pair must still start the program the
    // comparison began with: here the replacement is no worker and could
    // only fail.
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let (shorter, _) = against_builds();
    let dir = scratch_dir("against-rebuilt");
    let other = dir.join("against");
    bench_tests::install_executable(shorter, &other);
    let child = Command::new(shorter)
        .args(["--bench", "--against-exe"])
        .arg(&other)
        .args(BUDGET)
        .args(["unchanged", "chain"])
        .env("NO_COLOR", "1")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Replaced once the run holds the file (before any worker starts).
    let fds = format!("/proc/{}/fd", child.id());
    let started = Instant::now();
    while !std::fs::read_dir(&fds)
        .map(|fds| {
            fds.flatten()
                .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|p| p == other))
        })
        .unwrap_or(false)
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the run never held {other:?}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    bench_tests::install_executable(crate::common::empty_binary(), &other);
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let rows = against_rows(&stdout);
    for name in ["unchanged", "chain"] {
        assert!(no_verdict(row(&rows, name)), "{rows:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
