//! The reports of a fixed run (`crate::testing::fixed_run`): each format's
//! exact output against its golden file in `tests/golden/`, and the format
//! details the golden files rely on.

use super::{bencher, csv, markdown};
use crate::results::{BenchResult, RunInfo};
use crate::testing::fixed_run::{formats_run, group_reports, info, results};
use crate::testing::golden;

type Writer = fn(&mut dyn std::io::Write, &RunInfo, &[BenchResult]) -> std::io::Result<()>;

fn render(writer: Writer) -> String {
    let mut out = Vec::new();
    writer(&mut out, &info(), &results()).unwrap();
    String::from_utf8(out).unwrap()
}

/// The CSV of the fixed run with throughput declared (`formats_run`).
fn csv_text() -> String {
    let mut out = Vec::new();
    csv::write(&mut out, &info(), &formats_run().0).unwrap();
    String::from_utf8(out).unwrap()
}

/// The Markdown of the fixed run as a pull request gets it: throughput,
/// the comparison with a baseline and an A/B group.
fn markdown_text() -> String {
    let (results, baseline) = formats_run();
    let mut out = Vec::new();
    markdown::write(
        &mut out,
        &info(),
        &results,
        Some(&baseline),
        &group_reports(),
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

// ---------------------------------------------------------------------------
// Golden files
// ---------------------------------------------------------------------------

#[test]
fn csv_matches_its_golden_file() {
    golden("report.csv", &csv_text());
}

#[test]
fn markdown_matches_its_golden_file() {
    golden("report.md", &markdown_text());
}

#[test]
fn bencher_matches_its_golden_file() {
    golden("report.bencher.txt", &render(bencher::write));
}

// ---------------------------------------------------------------------------
// Format details the golden files rely on
// ---------------------------------------------------------------------------

#[test]
fn csv_quotes_only_fields_that_need_it() {
    let text = csv_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], csv::COLUMNS.join(","));
    assert_eq!(lines.len(), 1 + results().len());
    assert_eq!(
        lines[4],
        "\"parse::csv \"\"a,b\"\" | c\",,failed,,,,,,,,,,,,,,,,,,complete"
    );
    assert!(lines[3].starts_with("kernels::sort_1k,sort,measured,"));
    // Every row has as many fields as the header outside quoted text.
    for line in &lines {
        let unquoted: String = line.split('"').step_by(2).collect();
        assert_eq!(
            unquoted.matches(',').count(),
            csv::COLUMNS.len() - 1,
            "{line}"
        );
    }
}

/// Throughput per second at the headline time, in the declared unit;
/// empty for a benchmark that declares none or was not measured.
#[test]
fn csv_has_throughput_columns() {
    let text = csv_text();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('"'))
        .map(|l| l.split(',').collect())
        .collect();
    let column = |name: &str| rows[0].iter().position(|c| *c == name).unwrap();
    let (per_s, unit) = (column("throughput_per_s"), column("throughput_unit"));
    assert_eq!(
        (per_s, unit),
        (csv::COLUMNS.len() - 3, csv::COLUMNS.len() - 2)
    );
    let row = |name: &str| rows.iter().find(|r| r[0] == name).unwrap();
    let sort = row("kernels::sort_1k");
    let time: f64 = sort[column("time_ns")].parse().unwrap();
    let rate: f64 = sort[per_s].parse().unwrap();
    assert!(
        (rate - 80.0 / (time * 1e-9)).abs() <= 1e-6 * rate,
        "{sort:?}"
    );
    assert_eq!(sort[unit], "bytes");
    assert_eq!(row("fib_20")[unit], "items");
    for name in ["empty", "zz::ignored", "slow::one_sample"] {
        assert_eq!((row(name)[per_s], row(name)[unit]), ("", ""), "{name}");
    }
}

/// What a pull request shows: a throughput column, the comparison with
/// the baseline (regressions in bold, new and gone benchmarks, the
/// verdicts counted) and the A/B group's ratios.
#[test]
fn markdown_has_throughput_the_comparison_and_the_ab_tables() {
    let text = markdown_text();
    let lines: Vec<&str> = text.lines().collect();
    let row = |start: &str| -> Vec<&str> {
        let line = lines
            .iter()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"));
        line.split(" | ").collect()
    };
    assert_eq!(
        row("| benchmark | time")[2],
        "throughput",
        "a throughput column"
    );
    assert!(row("| `kernels::sort_1k` |")[2].ends_with("B/s"), "{text}");
    assert!(row("| `fib_20` |")[2].ends_with("items/s"), "{text}");
    // The comparison: after the benchmarks, with the machine's change and
    // the threshold it implies.
    let compared = text.find("**Compared with baseline `main`**").unwrap();
    assert!(compared > text.find("| `zz::ignored` |").unwrap());
    assert!(
        text.contains("The machine itself: +0.50% [+0.08%, +0.93%]"),
        "{text}"
    );
    assert!(text.contains("beyond ±2.93%."), "{text}");
    let comparison = &text[compared..];
    let fib = comparison
        .lines()
        .find(|l| l.starts_with("| `fib_20` |"))
        .unwrap();
    // Both rows' times, and the change between them.
    assert!(
        fib.starts_with("| `fib_20` | 218.3 ns | 262.0 ns | +20.00% | [+"),
        "{fib}"
    );
    assert!(fib.ends_with(" | **slower** |"), "{fib}");
    assert!(comparison.contains("| `slow::one_sample` | | | | | | new: not in the baseline |"));
    assert!(comparison.contains("| `parse::gone` | | | | | | gone: not in this binary |"));
    assert!(comparison
        .contains("\n1 slower · 1 faster · 1 no difference · 0 unclear · 1 new · 1 gone\n"));
    // The A/B group.
    let group = text
        .find("**A/B group `sort`** against `kernels::sort_1k` (slices paired round by round, noise threshold 1.00%)")
        .unwrap();
    assert!(group > compared);
    let unstable = row("| `kernels::sort_unstable_1k` |");
    assert!(unstable[1].starts_with("0.5"), "{unstable:?}");
    assert_eq!(unstable[5], "12");
    assert_eq!(unstable[6], "**faster** |");
    // Within ±1.05% of the baseline: unclear at 1%, with how far it may be.
    let by_key = row("| `kernels::sort_by_key` |");
    assert_eq!(by_key[6], "unclear, up to -1.06% |");
    assert!(text.contains("| `kernels::sort_1k` | 1.0000 | | | | | baseline |"));
    assert!(text.contains(
        "| `kernels::sort_1k_pdq` | | | | | | no comparison: kernels::sort_1k_pdq failed |"
    ));
    // Every table row has as many cells as its header.
    for table in text.split("\n\n").filter(|t| t.starts_with('|')) {
        let cells = |line: &str| line.replace("\\|", "").matches('|').count();
        let header = cells(table.lines().next().unwrap());
        for line in table.lines() {
            assert_eq!(cells(line), header, "{line}");
        }
    }
}

/// A run without throughput, baseline or groups gets neither the column
/// nor the tables.
#[test]
fn markdown_without_verdicts_has_only_the_benchmarks() {
    let mut out = Vec::new();
    markdown::write(&mut out, &info(), &results(), None, &[]).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("\n| benchmark | time ± 95% CI | median |"),
        "{text}"
    );
    assert!(!text.contains("throughput") && !text.contains("**Compared"));
    assert!(!text.contains("**A/B group"), "{text}");
}

#[test]
fn bencher_lines_parse_as_libtest_output() {
    let text = render(bencher::write);
    let benches: Vec<&str> = text.lines().filter(|l| l.contains(" bench: ")).collect();
    assert_eq!(benches.len(), 4);
    for line in benches {
        // The shape CI tools match: test NAME ... bench: N ns/iter (+/- M),
        // N and M with two decimals as libtest prints them since Rust 1.77.
        let (head, figures) = line.split_once(" ... bench: ").unwrap();
        assert!(head.starts_with("test "));
        let figures = figures.trim_start();
        let (time, rest) = figures.split_once(" ns/iter (+/- ").unwrap();
        assert!(
            time.chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '.'),
            "{line}"
        );
        let deviation = rest.strip_suffix(')').unwrap();
        assert!(
            deviation
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '.'),
            "{line}"
        );
    }
    assert!(
        text.contains("test slow::one_sample     ... bench: 1,500,000,000.00 ns/iter (+/- 0.00)\n")
    );
    assert!(text.ends_with(
        "\ntest result: FAILED. 0 passed; 1 failed; 1 ignored; 4 measured; 0 filtered out\n"
    ));
}

/// The `IDENT` of every `{…:<IDENT$}`-style width in `line` whose ident is
/// not a constant's (all capitals): a width known only at run time.
fn runtime_widths(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (at, _) in line.match_indices("$}") {
        let before = &line[..at];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let ident = &before[start..];
        let marker = before[..start].chars().next_back();
        let is_width = matches!(marker, Some(':' | '<' | '>' | '^'));
        if is_width && !ident.is_empty() && ident.chars().any(|c| c.is_ascii_lowercase()) {
            found.push(ident);
        }
    }
    found
}

/// std panics on a width above 65,535 given at run time, and a column as
/// wide as a benchmark's name can be wider (issue 26, failure 13): every
/// such width goes through `format::pad_end` or `pad_start`, in every
/// file of the crate, so the next table cannot bring the panic back.
#[test]
fn no_format_string_takes_its_width_from_a_variable() {
    fn visit(dir: &std::path::Path, offences: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                visit(&path, offences);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with(file!()) {
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, line) in text.lines().enumerate() {
                    if line.trim_start().starts_with("//") {
                        continue;
                    }
                    for ident in runtime_widths(line) {
                        offences.push(format!("{}:{}: {ident}$", path.display(), n + 1));
                    }
                }
            }
        }
    }
    assert_eq!(
        runtime_widths(r#"write!(o, "{name:<width$} {:>w$}")"#),
        ["width", "w"]
    );
    assert!(runtime_widths(r#"format!("{v:.decimals$} {:>TIME_WIDTH$}")"#).is_empty());
    let mut offences = Vec::new();
    visit(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut offences,
    );
    assert!(offences.is_empty(), "runtime widths: {offences:#?}");
}
