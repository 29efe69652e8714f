//! Progress on stderr: a live line on a terminal (a pseudo-terminal from
//! util-linux `script`), a line per finished benchmark in a pipe, nothing
//! with `--quiet`; stdout is the same either way.
#![cfg(unix)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bench_tests::{quick_bench, QUICK};

use crate::common::fixture_binary;

/// What a run under a terminal wrote (stdout and stderr both), read in
/// chunks, each with when it was read.
struct Screen {
    chunks: Vec<(Duration, String)>,
}

impl Screen {
    fn text(&self) -> String {
        self.chunks.iter().map(|(_, text)| text.as_str()).collect()
    }

    /// When the first chunk containing `needle` was read.
    fn first(&self, needle: &str) -> Option<Duration> {
        self.chunks
            .iter()
            .find(|(_, text)| text.contains(needle))
            .map(|(at, _)| *at)
    }

    /// The live lines drawn, each with when its chunk was read.
    fn live_lines(&self) -> Vec<(Duration, String)> {
        let mut lines = Vec::new();
        for (at, text) in &self.chunks {
            for drawn in text.split('\r').skip(1) {
                if let Some(line) = drawn.strip_suffix("\x1b[K") {
                    if !line.is_empty() {
                        lines.push((*at, line.to_string()));
                    }
                }
            }
        }
        lines
    }
}

/// Runs the fixture with `args` on a pseudo-terminal of 100 columns, or
/// `None` where util-linux `script` is missing.
fn under_terminal(args: &[&str]) -> Option<Screen> {
    let quoted: Vec<String> = std::iter::once(fixture_binary().to_str().unwrap())
        .chain(args.iter().copied())
        .map(|arg| format!("'{}'", arg.replace('\'', r"'\''")))
        .collect();
    let started = Instant::now();
    let mut child = match Command::new("script")
        .args(["-qfec", &quoted.join(" "), "/dev/null"])
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env("COLUMNS", "100")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => {
            eprintln!("skipped: util-linux `script` cannot be started: {error}");
            return None;
        }
    };
    let mut output = child.stdout.take().unwrap();
    let mut chunks = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match output.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => chunks.push((
                started.elapsed(),
                String::from_utf8_lossy(&buffer[..n]).into_owned(),
            )),
        }
    }
    let status = child.wait().unwrap();
    let screen = Screen { chunks };
    assert!(status.success(), "{status}: {}", screen.text());
    Some(screen)
}

/// The elapsed seconds a live line shows (`… · 12s elapsed · …`).
fn elapsed_seconds(line: &str) -> u64 {
    let before = line.split(" elapsed").next().unwrap();
    let shown = before.rsplit(' ').next().unwrap();
    match shown.split_once('m') {
        Some((minutes, seconds)) => {
            minutes.parse::<u64>().unwrap() * 60
                + seconds.trim_end_matches('s').parse::<u64>().unwrap()
        }
        None => shown.trim_end_matches('s').parse().unwrap(),
    }
}

/// Benchmarks of about 1.6 s each, one after another: about 5 s with the
/// loop overhead's job.
const SECONDS_EACH: &[&str] = &[
    "--bench",
    "--flat",
    "--schedule",
    "sequential",
    "--warm-up-time",
    "0.1",
    "--measure-time",
    "1.5",
    "--precision",
    "0",
    "--exact",
    "passes",
    "spins",
];

#[test]
fn a_terminal_shows_a_live_line_soon_that_changes_every_second_and_is_erased() {
    let Some(screen) = under_terminal(SECONDS_EACH) else {
        return;
    };
    let text = screen.text();
    let lines = screen.live_lines();
    assert!(!lines.is_empty(), "no live line: {text:?}");
    // Measuring starts right after the machine line; the live line follows
    // within about a second (generous slack on a loaded machine).
    let machine = screen.first("machine:").expect("the machine line");
    let first = lines[0].0;
    assert!(
        first < machine + Duration::from_secs(3),
        "first live line {first:?} after the machine line at {machine:?}"
    );
    // It names the benchmark, its position and phase, and the times.
    assert!(
        lines.iter().any(|(_, l)| l.starts_with("[1/2] passes · ")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|(_, l)| l.starts_with("[2/2] spins · measuring · ")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().all(|(_, l)| l.contains(" elapsed")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|(_, l)| l.contains(" left")), "{lines:#?}");
    assert!(
        lines.iter().all(|(_, l)| l.chars().count() < 100),
        "wider than the terminal: {lines:#?}"
    );
    // Redrawn at least once a second: the elapsed time shown never skips a
    // second (a second skipped means no redraw for over a second), and the
    // chunks are never far apart.
    let seconds: Vec<u64> = lines.iter().map(|(_, l)| elapsed_seconds(l)).collect();
    assert!(*seconds.last().unwrap() >= 3, "{seconds:?}");
    for pair in seconds.windows(2) {
        assert!(pair[1] >= pair[0] && pair[1] - pair[0] <= 2, "{seconds:?}");
    }
    for pair in lines.windows(2) {
        let gap = pair[1].0 - pair[0].0;
        assert!(
            gap < Duration::from_secs(3),
            "{gap:?} between redraws: {lines:#?}"
        );
    }
    // Erased before the table: nothing of it after the erase, and the table
    // after it.
    let erased = text.rfind("\r\x1b[K").expect("the line is erased");
    assert!(!text[erased..].contains(" elapsed"), "{text:?}");
    let table = text.find("2 measured").expect("the closing line");
    assert!(erased < table, "{text:?}");
}

#[test]
fn an_interleaved_run_shows_its_round_on_the_terminal_and_quiet_shows_nothing() {
    // Measured in this process: its own rounds.
    let mut args = QUICK.to_vec();
    args.extend(["--forks", "0", "--exact", "passes", "spins"]);
    let Some(screen) = under_terminal(&args) else {
        return;
    };
    let lines = screen.live_lines();
    assert!(
        lines
            .iter()
            .any(|(_, l)| l.starts_with("[0/2 done] ") && l.contains(" · round ")),
        "{lines:#?}"
    );
    for quiet in ["-q", "--quiet"] {
        let mut quieted = args.clone();
        quieted.push(quiet);
        let screen = under_terminal(&quieted).unwrap();
        let text = screen.text();
        assert!(text.contains("2 measured"), "{text:?}");
        assert!(screen.live_lines().is_empty(), "{quiet}: {text:?}");
        assert!(
            !text.contains('\r') || !text.contains("elapsed"),
            "{text:?}"
        );
    }
}

/// The `[k/N] NAME  TIME ±X%` lines of stderr, and how many benchmarks
/// each accounts for (itself and those folded into it).
fn done_lines(stderr: &str) -> Vec<(&str, usize)> {
    stderr
        .lines()
        .filter(|line| line.starts_with('['))
        .map(|line| {
            let more = line
                .split("(and ")
                .nth(1)
                .map_or(0, |rest| rest.split(' ').next().unwrap().parse().unwrap());
            (line, 1 + more)
        })
        .collect()
}

#[test]
fn a_pipe_gets_a_line_per_finished_benchmark_and_quiet_none() {
    let names = ["passes", "also_passes", "spins"];
    let mut args = vec!["--exact"];
    args.extend(names);
    let run = quick_bench(fixture_binary(), &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = done_lines(&run.stderr);
    // Lines within a second of the last are folded into the next one: every
    // benchmark is accounted for once, and the last line says so.
    assert_eq!(
        lines.iter().map(|(_, n)| n).sum::<usize>(),
        3,
        "{}",
        run.stderr
    );
    assert!(lines.last().unwrap().0.starts_with("[3/3] "), "{lines:?}");
    for (line, _) in &lines {
        assert!(
            names.iter().any(|n| line.contains(&format!("] {n}  "))),
            "{line}"
        );
        assert!(line.contains(" ns") || line.contains(" µs"), "{line}");
        assert!(!line.contains('\r') && !line.contains('\u{1b}'), "{line}");
    }
    // Progress goes to stderr only: the table is as it was.
    assert!(!run.stdout.contains("[1/3]") && !run.stdout.contains("[3/3]"));
    assert!(run.stdout.contains("3 measured"), "{}", run.stdout);

    for quiet in ["-q", "--quiet"] {
        args.push(quiet);
        let run = quick_bench(fixture_binary(), &args);
        args.pop();
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            done_lines(&run.stderr).is_empty(),
            "{quiet}: {}",
            run.stderr
        );
        assert!(run.stdout.contains("3 measured"), "{}", run.stdout);
    }
}

#[test]
fn json_on_stdout_is_untouched_by_progress() {
    let run = quick_bench(
        fixture_binary(),
        &["--exact", "passes", "spins", "--format", "json"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let document: serde_json::Value =
        serde_json::from_str(&run.stdout).expect("stdout is one JSON document");
    assert_eq!(document["benchmarks"].as_array().unwrap().len(), 2);
    let lines = done_lines(&run.stderr);
    assert_eq!(
        lines.iter().map(|(_, n)| n).sum::<usize>(),
        2,
        "{}",
        run.stderr
    );
}

#[test]
fn forks_report_each_process_from_the_parent_only() {
    let run = quick_bench(
        fixture_binary(),
        &["--exact", "passes", "spins", "--forks", "2"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = done_lines(&run.stderr);
    // Two benchmarks, each once its two processes are pooled: two lines,
    // written by the parent (a child's own progress would add lines of
    // its own).
    assert_eq!(
        lines.iter().map(|(_, n)| n).sum::<usize>(),
        2,
        "{}",
        run.stderr
    );
    assert!(lines.last().unwrap().0.starts_with("[2/2] "), "{lines:?}");
}

#[test]
fn against_reports_each_compared_benchmark() {
    let (shorter, _) = bench_tests::against_builds();
    let other = shorter.to_str().unwrap();
    let args = [
        "--bench",
        "--against-exe",
        other,
        "--measure-time",
        "0.05",
        "--max-time",
        "0.5",
        "chain",
        "unchanged",
    ];
    let run = bench_tests::run(shorter, &args);
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    let lines = done_lines(&run.stderr);
    assert_eq!(
        lines.iter().map(|(_, n)| n).sum::<usize>(),
        2,
        "{}",
        run.stderr
    );
    assert!(lines.last().unwrap().0.starts_with("[2/2] "), "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|(l, _)| l.contains(" of the other build, ")),
        "{lines:?}"
    );
}
