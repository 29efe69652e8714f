//! Profiling: `--profile-time` under an outside `perf record`, and
//! `--flamegraph`, plain and against another build, and what happens
//! where perf is missing or refused. The tests that need a working perf
//! are skipped, with the reason printed, where `perf record` cannot record
//! here.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use bench_tests::{profile_probe_builds, run_with_env, scratch_dir, suite_binary, Run};

/// `None` where a perf on the PATH records with the software clock, else
/// why not.
fn perf_unusable(scratch: &Path) -> Option<String> {
    let out = Command::new("perf")
        .args(["record", "-e", "cpu-clock", "-q", "-o"])
        .arg(scratch.join("probe.data"))
        .args(["--", "true"])
        .output();
    match out {
        Err(error) => Some(format!("perf does not start: {error}")),
        Ok(out) if !out.status.success() => Some(format!(
            "perf record fails: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(_) => None,
    }
}

fn skip(test: &str, reason: &str, dir: &Path) {
    println!("skipped {test}: {reason} (apt-get install linux-perf)");
    let _ = std::fs::remove_dir_all(dir);
}

/// The folded stacks a `--flamegraph` run wrote beside its SVG.
fn folded(svg: &Path) -> Vec<(Vec<String>, u64)> {
    std::fs::read_to_string(svg.with_extension("folded"))
        .expect("the folded stacks are beside the SVG")
        .lines()
        .map(|line| {
            let (stack, n) = line.rsplit_once(' ').expect("STACK COUNT");
            (
                stack.split(';').map(str::to_string).collect(),
                n.parse().expect("a count"),
            )
        })
        .collect()
}

/// The flame graphs a run announced (`wrote the flame graph PATH`).
fn announced(out: &Run) -> Vec<PathBuf> {
    out.stderr
        .lines()
        .filter_map(|line| line.strip_prefix("wrote the flame graph "))
        .map(PathBuf::from)
        .collect()
}

const DRIVER: &str = "bench_harness::run::profile::BackToBack";

fn is_harness(frame: &str) -> bool {
    [
        "bench_harness::",
        "<bench_harness::",
        "bench_runtime::",
        "<bench_runtime::",
    ]
    .iter()
    .any(|p| frame.starts_with(p))
}

#[test]
fn profile_time_under_an_outside_perf_puts_the_samples_in_the_routine() {
    let dir = scratch_dir("profile-time-perf");
    if let Some(reason) = perf_unusable(&dir) {
        return skip("the --profile-time profile", &reason, &dir);
    }
    let data = dir.join("perf.data");
    let out = Command::new("perf")
        .args([
            "record",
            "-e",
            "cpu-clock",
            "--call-graph",
            "dwarf",
            "-q",
            "-o",
        ])
        .arg(&data)
        .arg("--")
        .arg(suite_binary())
        .args([
            "--bench",
            "--exact",
            "scaling::sort/1000",
            "--profile-time",
            "2",
        ])
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("perf starts");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("profiled scaling::sort/1000: its routine ran "))
        .unwrap_or_else(|| panic!("one line says what ran: {stderr}"));
    assert!(line.contains("on thread 'scaling::sort/1000'"), "{line}");
    assert!(!dir.join("target").exists(), "nothing is written: {line}");
    let script = Command::new("perf")
        .args(["script", "-F", "comm,tid,ip,sym", "--no-inline", "-i"])
        .arg(&data)
        .output()
        .expect("perf script starts");
    let text = String::from_utf8_lossy(&script.stdout);
    let (mut all, mut routine) = (0, 0);
    for sample in text.split("\n\n").filter(|s| !s.trim().is_empty()) {
        all += 1;
        let mut lines = sample.lines();
        let header = lines.next().unwrap_or("");
        let frames: Vec<&str> = lines.collect();
        // The kernel keeps 15 bytes of a thread's name.
        let in_thread = header.trim_start().starts_with("scaling::sort/1");
        let below_driver = frames
            .iter()
            .position(|f| f.contains(DRIVER))
            .is_some_and(|at| at > 0);
        if in_thread && below_driver {
            routine += 1;
        }
    }
    assert!(all > 200, "perf took samples: {all}");
    let share = routine as f64 / all as f64;
    println!(
        "--profile-time 2: {routine} of {all} samples ({:.1}%) in the routine",
        share * 100.0
    );
    assert!(
        share >= 0.9,
        "{routine} of {all} samples in the routine's thread and under it"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flame_graph_of_the_sort_shows_the_sort_and_little_of_the_harness() {
    let dir = scratch_dir("flamegraph-sort");
    if let Some(reason) = perf_unusable(&dir) {
        return skip("the flame graph", &reason, &dir);
    }
    let reports = dir.join("reports");
    let out = run_with_env(
        suite_binary(),
        &[
            "--bench",
            "--exact",
            "scaling::sort/1000",
            "--flamegraph",
            "--report",
            reports.to_str().unwrap(),
        ],
        &[("CARGO_TARGET_DIR", dir.join("target").as_os_str())],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let svg = reports.join("suite/flamegraph/scaling.sort-1000.svg");
    assert_eq!(announced(&out), std::slice::from_ref(&svg));
    let stacks = folded(&svg);
    let total: u64 = stacks.iter().map(|(_, n)| n).sum();
    // Below the routine, the user's frames by name (inclusive, once per
    // sample): the widest is the sort.
    let mut widths: Vec<(String, u64)> = Vec::new();
    let mut harness = 0;
    for (stack, n) in &stacks {
        if is_harness(stack.last().unwrap()) {
            harness += n;
        }
        let Some(driver) = stack.iter().position(|f| f.contains(DRIVER)) else {
            continue;
        };
        let mut seen: Vec<&String> = Vec::new();
        for frame in stack[driver + 1..].iter().filter(|f| !is_harness(f)) {
            if !seen.contains(&frame) {
                seen.push(frame);
                match widths.iter_mut().find(|(name, _)| name == frame) {
                    Some((_, w)) => *w += n,
                    None => widths.push((frame.clone(), *n)),
                }
            }
        }
    }
    widths.sort_by_key(|(_, width)| std::cmp::Reverse(*width));
    println!("flame graph: {total} samples, harness {harness}, widest {widths:?}");
    assert!(total > 200, "{total} samples");
    assert!(widths[0].0.contains("sort"), "the widest frame: {widths:?}");
    assert!(
        (harness as f64) < 0.05 * total as f64,
        "the harness's own frames: {harness} of {total} samples"
    );

    // The next measured run's report links it from the benchmark's section.
    let measured = run_with_env(
        suite_binary(),
        &[
            "--bench",
            "--quick",
            "--exact",
            "scaling::sort/1000",
            "--report",
            reports.to_str().unwrap(),
        ],
        &[("CARGO_TARGET_DIR", dir.join("target").as_os_str())],
    );
    assert_eq!(measured.code, Some(0), "{measured:?}");
    let page = std::fs::read_to_string(reports.join("suite/index.html")).unwrap();
    assert!(
        page.contains(r#"<a href="flamegraph/scaling.sort-1000.svg">Flame graph</a>"#),
        "the report links the flame graph"
    );

    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.contains("<title>") && svg_text.contains("id=\"search\""));
    if super::html::chromium().is_none() {
        println!(
            "skipped the browser checks: chromium is not installed (apt-get install chromium)"
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let rendered = super::html::render(&svg, &dir.join("render"));
    assert_eq!(rendered.console, Vec::<String>::new(), "no console message");
    assert_eq!(
        rendered.requests,
        Vec::<String>::new(),
        "no network request"
    );
    assert!(
        rendered.dom.contains("class=\"frame\""),
        "the frames are in the DOM"
    );
    let (width, height, pixels) = super::html::screenshot(&svg, &dir.join("shot"), 700);
    assert_eq!(pixels.len(), (width * height) as usize);
    // The frames' warm colours: red well above blue.
    let warm = pixels
        .iter()
        .filter(|[r, _, b]| *r > 180 && (*b as i32) < 120)
        .count();
    assert!(warm > 50_000, "the frames are drawn: {warm} warm pixels");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The change table's rows under `grown`: (function, points).
fn grown(table: &str) -> Vec<(String, f64)> {
    let mut rows = Vec::new();
    let mut in_grown = false;
    for line in table.lines() {
        match line.trim() {
            "grown" => in_grown = true,
            "shrunk" => in_grown = false,
            row if in_grown && row.ends_with('%') => {
                let name = row.split_whitespace().next().unwrap().to_string();
                let points = row
                    .split_whitespace()
                    .last()
                    .unwrap()
                    .trim_end_matches('%')
                    .parse()
                    .unwrap();
                rows.push((name, points));
            }
            _ => {}
        }
    }
    rows
}

#[test]
fn a_differential_flame_graph_finds_the_helper_that_grew() {
    let dir = scratch_dir("flamegraph-against");
    if let Some(reason) = perf_unusable(&dir) {
        return skip("the differential flame graph", &reason, &dir);
    }
    let (before, after) = profile_probe_builds();
    let target = dir.join("target");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let against = |this: &Path, other: &Path| {
        run_with_env(
            this,
            &[
                "--bench",
                "--flamegraph",
                "--profile-time",
                "1.5",
                "--against-exe",
                other.to_str().unwrap(),
            ],
            &env,
        )
    };
    let out = against(after, before);
    assert_eq!(out.code, Some(0), "{out:?}");
    let rows = grown(&out.stdout);
    println!("{}", out.stdout);
    assert!(
        rows.first().is_some_and(|(f, _)| f.contains("slow_helper")),
        "the slowed helper is listed first: {rows:?}"
    );
    assert!(
        rows[0].1 > 15.0,
        "it grew by about a third of the time: {rows:?}"
    );
    let svg = announced(&out);
    assert_eq!(svg.len(), 1, "{out:?}");
    let text = std::fs::read_to_string(&svg[0]).unwrap();
    let frame = text
        .lines()
        .find(|l| l.contains("<title>profile_probe::slow_helper "))
        .unwrap_or_else(|| panic!("the helper has a frame: {}", svg[0].display()));
    let fill = frame.split("fill=\"rgb(").nth(1).unwrap();
    let rgb: Vec<u8> = fill
        .split(')')
        .next()
        .unwrap()
        .split(',')
        .map(|c| c.parse().unwrap())
        .collect();
    assert!(rgb[0] > rgb[2] + 60, "the helper's frame is red: {frame}");

    // Against itself: what is left is the machine's noise between two
    // processes (3-4 points measured while the machine built other
    // things), far from the helper's change.
    let same = against(before, before);
    assert_eq!(same.code, Some(0), "{same:?}");
    let rows = grown(&same.stdout);
    assert!(
        rows.iter().all(|(_, points)| *points < 8.0),
        "a build against itself grows nowhere by 8 points: {rows:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `--flamegraph` run with `PATH` set to `path` and `TMPDIR` to a
/// directory of its own: (the run, the directories' entries left).
fn flamegraph_with_path(dir: &Path, path: &OsStr) -> (Run, Vec<PathBuf>) {
    let tmp = dir.join("tmp");
    let target = dir.join("target");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = run_with_env(
        suite_binary(),
        &["--bench", "--exact", "scaling::sort/1000", "--flamegraph"],
        &[
            ("PATH", path),
            ("TMPDIR", tmp.as_os_str()),
            ("CARGO_TARGET_DIR", target.as_os_str()),
        ],
    );
    let mut left: Vec<PathBuf> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    if target.exists() {
        left.push(target);
    }
    (out, left)
}

#[test]
fn without_perf_on_the_path_the_flame_graph_is_refused_in_one_line() {
    let dir = scratch_dir("flamegraph-no-perf");
    let (out, left) = flamegraph_with_path(&dir, OsStr::new(""));
    assert_eq!(out.code, Some(2), "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    assert!(
        out.stderr.contains("--flamegraph needs perf")
            && out.stderr.contains("apt-get install linux-perf"),
        "{out:?}"
    );
    assert_eq!(left, Vec::<PathBuf>::new(), "nothing is left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_perf_refused_by_perf_event_paranoid_is_named_with_the_remedy() {
    let dir = scratch_dir("flamegraph-paranoid");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // What perf 6.1 prints when the kernel refuses it, and its exit code.
    let stub = bin.join("perf");
    bench_tests::install_script(
        // (Shell built-ins only: the stub's directory is the whole PATH.)
        "#!/bin/sh\n\
         echo 'Error:' >&2\n\
         echo 'Access to performance monitoring and observability operations is limited.' >&2\n\
         echo 'Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open' >&2\n\
         echo 'access to performance monitoring and observability operations for processes' >&2\n\
         echo 'without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.' >&2\n\
         echo 'perf_event_paranoid setting is 4:' >&2\n\
         echo '  -1: Allow use of (almost) all events by all users' >&2\n\
         exit 255\n",
        &stub,
    );
    let (out, left) = flamegraph_with_path(&dir, bin.as_os_str());
    assert_eq!(out.code, Some(2), "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    assert!(
        out.stderr.contains("kernel.perf_event_paranoid is 4")
            && out.stderr.contains("sysctl kernel.perf_event_paranoid=1"),
        "{out:?}"
    );
    assert_eq!(left, Vec::<PathBuf>::new(), "nothing is left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn profile_flags_refuse_the_flags_of_a_measured_run() {
    for (args, expected) in [
        (
            &["--bench", "--profile-time", "1", "--save-baseline", "x"][..],
            "--profile-time profiles the benchmarks instead of measuring them and does not go \
             with --save-baseline",
        ),
        (
            &["--bench", "--flamegraph", "--format", "json"],
            "--flamegraph profiles the benchmarks instead of measuring them and does not go \
             with --format",
        ),
        (
            &["--bench", "--profile-time", "0"],
            "--profile-time must be more than 0",
        ),
        (
            &["--profile-time", "1"],
            "--profile-time goes with a measured run: add --bench",
        ),
    ] {
        let out = run_with_env(suite_binary(), args, &[]);
        assert_eq!(out.code, Some(2), "{args:?}: {out:?}");
        assert!(out.stderr.contains(expected), "{args:?}: {out:?}");
    }
}

/// Starts the example suite with `args` (stderr piped, `TMPDIR` set to
/// `tmp`), waits until its stderr shows a line starting with `marker`
/// (unless it is empty), a second more, sends SIGINT, and returns how it ended and its stderr
/// (`None`: it did not end within 30 s, and was killed).
#[cfg(unix)]
fn interrupted(args: &[&str], tmp: &Path, marker: &str) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = Command::new(suite_binary())
        .args(args)
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp)
        .env("CARGO_TARGET_DIR", tmp.join("target"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the suite starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !marker.is_empty() && !seen.lines().any(|l| l.starts_with(marker)) {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
    }
    std::thread::sleep(Duration::from_secs(1));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let asked = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if asked.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    stderr.read_to_string(&mut seen).unwrap();
    (code, seen)
}

/// Processes whose command line names `dir` (perf's, writing there).
#[cfg(target_os = "linux")]
fn processes_naming(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&needle))
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_a_flame_graph_and_leaves_no_process_or_file() {
    let dir = scratch_dir("flamegraph-ctrl-c");
    if let Some(reason) = perf_unusable(&dir) {
        return skip("the flame graph's Ctrl-C", &reason, &dir);
    }
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let args = [
        "--bench",
        "--exact",
        "scaling::sort/1000",
        "--flamegraph",
        "--profile-time",
        "60",
    ];
    let (code, stderr) = interrupted(&args, &tmp, "profiling scaling::sort/1000");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_eq!(processes_naming(&tmp), Vec::<String>::new(), "perf is gone");
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(left, Vec::<PathBuf>::new(), "nothing is left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_profile_time_at_once() {
    let dir = scratch_dir("profile-time-ctrl-c");
    let args = [
        "--bench",
        "--exact",
        "scaling::sort/1000",
        "--profile-time",
        "60",
    ];
    // (It prints nothing before its line at the end: the machine has a
    // second to start the routine.)
    let (code, stderr) = interrupted(&args, &dir, "");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains("profiled scaling::sort/1000") && stderr.contains("interrupted"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
