//! The reports of a fixed run (`crate::testing::fixed_run`): each format's
//! exact output against its golden file in `tests/golden/`, and the format
//! details the golden files rely on.

use super::{bencher, csv, markdown};
use crate::results::{BenchResult, RunInfo};
use crate::testing::fixed_run::{info, results};
use crate::testing::golden;

type Writer = fn(&mut dyn std::io::Write, &RunInfo, &[BenchResult]) -> std::io::Result<()>;

fn render(writer: Writer) -> String {
    let mut out = Vec::new();
    writer(&mut out, &info(), &results()).unwrap();
    String::from_utf8(out).unwrap()
}

// ---------------------------------------------------------------------------
// Golden files
// ---------------------------------------------------------------------------

#[test]
fn csv_matches_its_golden_file() {
    golden("report.csv", &render(csv::write));
}

#[test]
fn markdown_matches_its_golden_file() {
    golden("report.md", &render(markdown::write));
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
    let text = render(csv::write);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], csv::COLUMNS.join(","));
    assert_eq!(lines.len(), 1 + results().len());
    assert_eq!(
        lines[4],
        "\"parse::csv \"\"a,b\"\" | c\",,failed,,,,,,,,,,,,,,,"
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
