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
    let out = bench(&["--exact", "passes"]);
    let first = out.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("warning: this benchmark binary is an unoptimised build"),
        "{first}"
    );
    assert!(
        out.stdout
            .lines()
            .nth(1)
            .unwrap_or_default()
            .starts_with("machine: "),
        "{}",
        out.stdout
    );
}
