//! In-run A/B groups (`group = "...", baseline`): the example suite's `sort`
//! group without `args`, and the fixture's `by_size` group over `args`
//! (`src/bin/fixture.rs`), whose member `twice` is about 2× `once` at every
//! size.

use bench_tests::{quick_bench, suite_binary, Run};

use crate::common::fixture_binary;

/// Each A/B table in the output: the baseline its header names, and its
/// other rows (name, then the rest of the line).
fn tables(out: &Run) -> Vec<(&str, Vec<(&str, &str)>)> {
    let mut tables = Vec::new();
    let mut lines = out.stdout.lines();
    while let Some(line) = lines.next() {
        let Some(header) = line.strip_prefix("group ") else {
            continue;
        };
        let baseline = header
            .split_once(" · in-run A/B against ")
            .and_then(|(_, rest)| rest.strip_suffix(" (slices paired round by round)"))
            .unwrap_or_else(|| panic!("an A/B header: {line}"));
        let rows = lines
            .by_ref()
            .take_while(|line| !line.is_empty())
            .skip(1) // the column names
            .map(|line| {
                line.trim_start()
                    .split_once(' ')
                    .map(|(name, rest)| (name, rest.trim_start()))
                    .unwrap_or((line.trim(), ""))
            })
            .collect();
        tables.push((baseline, rows));
    }
    tables
}

/// The ratio at the start of a member's row.
fn ratio(rest: &str) -> f64 {
    rest.split_whitespace()
        .next()
        .and_then(|field| field.parse().ok())
        .unwrap_or_else(|| panic!("a ratio in {rest:?}"))
}

#[test]
fn a_group_without_args_is_one_table_against_its_baseline() {
    let out = quick_bench(suite_binary(), &["kernels::sort"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let tables = tables(&out);
    assert_eq!(tables.len(), 1, "{}", out.stdout);
    let (baseline, rows) = &tables[0];
    assert_eq!(*baseline, "sort/kernels::sort_1k");
    let names: Vec<&str> = rows.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        ["sort/kernels::sort_1k", "sort/kernels::sort_unstable_1k"]
    );
    assert_eq!(rows[0].1, "1.0000  (baseline)");
}

#[test]
fn a_group_with_args_compares_each_argument_with_the_baselines_same_argument() {
    // 0.2 s in 60 rounds of one slice each.
    let out = quick_bench(
        fixture_binary(),
        &["--ignored", "by_size", "--measure-time", "0.2"],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let tables = tables(&out);
    let baselines: Vec<&str> = tables.iter().map(|(baseline, _)| *baseline).collect();
    assert_eq!(
        baselines,
        ["by_size/by_size::once/16", "by_size/by_size::once/1024"],
        "{}",
        out.stdout
    );
    for (n, (baseline, rows)) in [16, 1024].iter().zip(&tables) {
        assert_eq!(rows[0], (*baseline, "1.0000  (baseline)"), "{}", out.stdout);
        let twice = format!("by_size/by_size::twice/{n}");
        let (name, rest) = rows[1];
        assert_eq!(name, twice, "{}", out.stdout);
        // Against another size the ratio would be 1/32 or 128.
        let ratio = ratio(rest);
        assert!(
            (1.2..4.0).contains(&ratio),
            "{twice}: {ratio}\n{}",
            out.stdout
        );
    }
    // The baseline's own sizes are not compared with each other, and
    // twice/4096, with no once/4096, is listed unpaired after the rest.
    let last = &tables[1].1;
    assert_eq!(last.len(), 3, "{}", out.stdout);
    assert_eq!(last[2].0, "by_size/by_size::twice/4096");
    assert_eq!(
        last[2].1,
        "no comparison: no baseline at this argument (by_size/by_size::once/4096 did not run)"
    );
}
