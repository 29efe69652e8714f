//! The default table of the example suite (groups, throughput, a
//! complexity fit, notes) at a fixed width, as CI sees it (stdout is a
//! pipe, so `COLUMNS` sets the width); `--details`; the machine's warnings
//! on stderr and silenced.

use std::ffi::OsStr;

use bench_tests::{run, run_with_env, suite_binary, Run};

/// Short budgets with the default ±1% target, which they cannot reach:
/// notes of several kinds on many rows.
const SHORT: &[&str] = &[
    "--bench",
    "--warm-up-time",
    "0.01",
    "--measure-time",
    "0.02",
    "--max-time",
    "0.05",
];

fn bench(columns: &str, args: &[&str]) -> Run {
    let mut all = SHORT.to_vec();
    all.extend_from_slice(args);
    run_with_env(suite_binary(), &all, &[("COLUMNS", OsStr::new(columns))])
}

/// The lines from the column titles to the first empty line: the rows,
/// the tree's nodes, complexity fits and the notes by kind.
fn table(out: &Run) -> Vec<&str> {
    out.stdout
        .lines()
        .skip_while(|line| !line.starts_with("benchmark "))
        .skip(1)
        .take_while(|line| !line.is_empty())
        .collect()
}

fn benchmarks() -> usize {
    run(suite_binary(), &["--list", "--format", "terse"])
        .listed()
        .len()
}

#[test]
fn the_default_table_fits_the_width_with_one_line_per_benchmark() {
    let out = bench("100", &[]);
    assert_eq!(out.code, Some(0), "{out:?}");
    for line in out.stdout.lines() {
        assert!(line.chars().count() <= 100, "{line:?} in:\n{}", out.stdout);
    }
    let lines = table(&out);
    let notes: Vec<&&str> = lines.iter().filter(|l| l.starts_with("note: ")).collect();
    // A row has figures after its name, two spaces apart; a node of the
    // tree (`kernels`, `sort (group)`) or a complexity fit does not.
    let is_row = |line: &&&str| {
        !line.starts_with("note: ")
            && line
                .trim_start_matches(|c: char| c.is_whitespace() || "│├╰─".contains(c))
                .contains("  ")
    };
    let rows: Vec<&&str> = lines.iter().filter(is_row).collect();
    let others: Vec<&&str> = lines
        .iter()
        .filter(|l| !is_row(l) && !l.starts_with("note: "))
        .collect();
    assert_eq!(rows.len(), benchmarks(), "{}", out.stdout);
    // The rest are the tree's nodes (`kernels`, `sort (group)`) and the
    // complexity fit: fewer than the rows, and no figures of their own.
    assert!(others.len() < rows.len(), "{}", out.stdout);
    for line in &others {
        assert!(
            line.contains("complexity: ") || !line.contains(" ns") && !line.contains(" µs"),
            "{line}"
        );
    }
    // Each kind of note once, and with these budgets the ± target is
    // missed: its line names benchmarks and the remedy.
    assert!(!notes.is_empty(), "{}", out.stdout);
    let kinds: Vec<&str> = notes
        .iter()
        .map(|l| l["note: ".len()..].split(": ").next().unwrap())
        .collect();
    for (i, kind) in kinds.iter().enumerate() {
        assert!(!kinds[..i].contains(kind), "{kind} twice:\n{}", out.stdout);
    }
    // The run's own lines: the header (wrapped), the group tables and the
    // closing count, whatever the machine's notes.
    let run_lines = out.stdout.lines().count() - lines.len();
    assert!(run_lines < 40, "{}", out.stdout);
    // Warnings about the machine are not part of the table.
    assert!(
        !out.stdout.lines().any(|l| l.starts_with("warning:")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("0 failed, 0 ignored in ") && out.stdout.contains("more: --details"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_narrower_terminal_gets_a_narrower_table() {
    let out = bench("80", &["--flat"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    for line in out.stdout.lines() {
        assert!(line.chars().count() <= 80, "{line:?} in:\n{}", out.stdout);
    }
    // Flat: full names, shortened in the middle when too long.
    assert!(
        table(&out)
            .iter()
            .any(|l| l.starts_with("kernels::parse_f64 ")),
        "{}",
        out.stdout
    );
}

#[test]
fn details_show_every_statistic_and_each_note_under_its_row() {
    let out = bench("100", &["--details", "kernels::"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let header = out.line_starting("benchmark ");
    for column in [
        "median", "mean", "std dev", "spread", "min", "max", "samples", "stop",
    ] {
        assert!(header.contains(column), "{header}");
    }
    assert!(
        out.stdout.contains("    percentiles  p50"),
        "{}",
        out.stdout
    );
    // Notes are under their rows, in full; only the run's own notes are
    // under the table.
    for line in out.stdout.lines().filter(|l| l.starts_with("note: ")) {
        assert!(
            [
                "note: the machine was slow",
                "note: not reliable",
                "note: counters"
            ]
            .iter()
            .any(|run_note| line.starts_with(run_note)),
            "{line}"
        );
    }
    // As wide as it takes.
    assert!(
        out.stdout.lines().any(|l| l.chars().count() > 100),
        "{}",
        out.stdout
    );
}

/// The lines of stderr that warn about the machine (not the build).
fn machine_warnings(out: &Run) -> Vec<&str> {
    out.stderr
        .lines()
        .filter(|l| l.starts_with("warning: ") && !l.contains("benchmark binary"))
        .collect()
}

#[test]
fn machine_warnings_go_to_stderr_and_can_be_silenced() {
    let args = ["--exact", "fib_20"];
    let warned = bench("100", &args);
    assert_eq!(warned.code, Some(0), "{warned:?}");
    assert!(!warned.stdout.contains("warning:"), "{}", warned.stdout);
    let flag = bench("100", &["--exact", "fib_20", "--no-machine-warnings"]);
    assert_eq!(flag.code, Some(0), "{flag:?}");
    assert!(machine_warnings(&flag).is_empty(), "{}", flag.stderr);
    let mut all = SHORT.to_vec();
    all.extend_from_slice(&args);
    let variable = run_with_env(
        suite_binary(),
        &all,
        &[("BENCH_HARNESS_NO_MACHINE_WARNINGS", OsStr::new("1"))],
    );
    assert_eq!(variable.code, Some(0), "{variable:?}");
    assert!(
        machine_warnings(&variable).is_empty(),
        "{}",
        variable.stderr
    );
    // The machine itself is still described, on stdout.
    assert!(flag.stdout.starts_with("machine: "), "{}", flag.stdout);
    // This VM (a hypervisor, ASLR on) draws warnings: they were there.
    if std::path::Path::new("/proc/sys/kernel/randomize_va_space").exists()
        && std::fs::read_to_string("/proc/sys/kernel/randomize_va_space")
            .is_ok_and(|v| v.trim() != "0")
    {
        assert!(!machine_warnings(&warned).is_empty(), "{}", warned.stderr);
    }
}

/// stderr's lines but the warning that the tests' own build of the suite
/// is unoptimised (a `cargo bench` build has none).
fn without_build_warning(stderr: &str) -> Vec<&str> {
    let mut in_warning = false;
    stderr
        .lines()
        .filter(|line| {
            if !line.starts_with("  ") {
                in_warning = line.starts_with("warning: this benchmark binary");
            }
            !in_warning
        })
        .collect()
}

/// The lines a user reads before the table at 80 columns: stdout's above
/// the column titles and stderr's before measuring began (its progress
/// lines are erased on a terminal; what follows them comes after).
fn preamble(out: &Run) -> Vec<&str> {
    let stdout = out
        .stdout
        .lines()
        .take_while(|line| !line.starts_with("benchmark "));
    let stderr = without_build_warning(&out.stderr)
        .into_iter()
        .take_while(|line| !line.starts_with('['));
    stdout.chain(stderr).collect()
}

#[test]
fn at_80_columns_at_most_four_lines_come_before_the_table() {
    let out = bench("80", &["scaling"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines = preamble(&out);
    assert!(lines.len() <= 4, "{} lines: {lines:#?}", lines.len());
    assert!(lines.iter().all(|l| l.chars().count() <= 80), "{lines:#?}");
    assert!(lines[0].starts_with("machine: "), "{lines:#?}");
    // The rest is -v's (and --details'): the clock and each remedy.
    let verbose = bench("80", &["scaling", "-v"]);
    assert_eq!(verbose.code, Some(0), "{verbose:?}");
    let whole = preamble(&verbose);
    assert!(whole.len() > lines.len(), "{whole:#?}");
    assert!(
        whole
            .iter()
            .any(|l| l.starts_with("bench-harness ") && l.contains("timer: ")),
        "{whole:#?}"
    );
    assert!(whole.iter().any(|l| l.contains("--seed")), "{whole:#?}");
}

#[test]
fn quiet_prints_the_table_and_nothing_else() {
    let out = bench("80", &["-q", "scaling::sort"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!table(&out).is_empty(), "{}", out.stdout);
    assert!(
        without_build_warning(&out.stderr).is_empty(),
        "stderr: {}",
        out.stderr
    );
    // Without -q, the same run shows progress and where the report went.
    let loud = bench("80", &["scaling::sort"]);
    assert!(loud.stderr.contains("[1/3]"), "{}", loud.stderr);
    assert!(
        loud.stderr.contains("wrote the report to "),
        "{}",
        loud.stderr
    );
}
