//! The reports of a fixed run (`crate::testing::fixed_run`): each format's
//! exact output against its golden file in `tests/golden/`, and the format
//! details the golden files rely on.

use super::{bencher, bmf, csv, markdown};
use crate::analysis::compare::Verdict;
use crate::results::{BenchResult, Compared, RunInfo};
use crate::testing::fixed_run::{against_report, formats_run, group_reports, info, results};
use crate::testing::golden;

type Writer = fn(&mut dyn std::io::Write, &RunInfo, &[BenchResult]) -> std::io::Result<()>;

fn render(writer: Writer) -> String {
    let mut out = Vec::new();
    writer(&mut out, &info(), &results()).unwrap();
    String::from_utf8(out).unwrap()
}

/// The CSV of the fixed run with throughput declared (`formats_run`).
fn csv_text() -> String {
    let (results, baseline) = formats_run();
    let mut out = Vec::new();
    csv::write(&mut out, &info(), &results, Some(&baseline)).unwrap();
    String::from_utf8(out).unwrap()
}

const HEADING: markdown::Heading<'static> = markdown::Heading {
    target: "suite",
    machine: "Intel Xeon, 2 cores, Linux 6.8.0-1012-gcp, hypervisor",
};

/// The Markdown of the fixed run as a pull request gets it: throughput,
/// the comparison with a baseline and an A/B group.
fn markdown_text() -> String {
    let (results, baseline) = formats_run();
    let mut out = Vec::new();
    markdown::write(
        &mut out,
        HEADING,
        &info(),
        &results,
        Some(&baseline),
        &group_reports(),
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// The Markdown of the fixed `--against` run.
fn against_markdown_text() -> String {
    let mut out = Vec::new();
    markdown::write_against(&mut out, HEADING, &against_report()).unwrap();
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
fn against_markdown_matches_its_golden_file() {
    golden("report.against.md", &against_markdown_text());
}

#[test]
fn against_csv_matches_its_golden_file() {
    let mut out = Vec::new();
    csv::write_against(&mut out, &against_report()).unwrap();
    golden("report.against.csv", &String::from_utf8(out).unwrap());
}

/// The BMF goldens are what `.ci/run` validates against bencher.dev's
/// published JSON Schema.
#[test]
fn bmf_matches_its_golden_files() {
    let mut out = Vec::new();
    bmf::write(&mut out, &info(), &formats_run().0).unwrap();
    golden("report.bmf.json", &String::from_utf8(out).unwrap());
    let mut out = Vec::new();
    bmf::write_against(&mut out, &against_report()).unwrap();
    golden("report.against.bmf.json", &String::from_utf8(out).unwrap());
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
    // A row per result, and one for the benchmark the baseline lost.
    assert_eq!(lines.len(), 1 + results().len() + 1);
    assert_eq!(
        lines[4],
        "\"parse::csv \"\"a,b\"\" | c\",,failed,,,,,,,,,,,,,,,,,,,,,,,complete,"
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
    // Where they were before the comparison's and the run's columns came
    // after them.
    assert_eq!((per_s, unit), (18, 19));
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
    for name in ["empty", "zz::ignored", "slow::one_sample", "parse::gone"] {
        assert_eq!((row(name)[per_s], row(name)[unit]), ("", ""), "{name}");
    }
}

/// The tables of a GitHub-flavoured Markdown page, as a GFM renderer
/// finds them: a header row after a blank line (or the start), a
/// delimiter row of as many cells, and rows up to the next blank line; a
/// table right after an HTML line with no blank line between would be
/// swallowed into the HTML block. Each table's rows, split into cells;
/// panics at what a renderer would not take for a table.
fn gfm_tables(text: &str) -> Vec<Vec<Vec<String>>> {
    let cells = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        let mut cells = vec![String::new()];
        let mut chars = inner.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&'|') => {
                    cells.last_mut().unwrap().push('|');
                    chars.next();
                }
                '|' => cells.push(String::new()),
                c => cells.last_mut().unwrap().push(c),
            }
        }
        cells.into_iter().map(|c| c.trim().to_string()).collect()
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut tables = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with('|') {
            i += 1;
            continue;
        }
        assert!(
            i == 0 || lines[i - 1].is_empty(),
            "a table must follow a blank line: {:?} after {:?}",
            lines[i],
            lines[i - 1]
        );
        let header = cells(lines[i]);
        let delimiter = cells(lines.get(i + 1).copied().unwrap_or(""));
        assert_eq!(header.len(), delimiter.len(), "{}", lines[i]);
        assert!(
            delimiter.iter().all(|d| {
                let d = d.trim_start_matches(':').trim_end_matches(':');
                !d.is_empty() && d.chars().all(|c| c == '-')
            }),
            "no delimiter row under {}",
            lines[i]
        );
        let mut rows = vec![header.clone()];
        i += 2;
        while i < lines.len() && !lines[i].is_empty() {
            let row = cells(lines[i]);
            assert_eq!(row.len(), header.len(), "{}", lines[i]);
            rows.push(row);
            i += 1;
        }
        tables.push(rows);
    }
    tables
}

/// The first cell of each row of `table` but the header.
fn names(table: &[Vec<String>]) -> Vec<&str> {
    table[1..].iter().map(|row| row[0].as_str()).collect()
}

/// The page's parts: the summary line, the table, then the folded rest.
fn folded_part(text: &str) -> &str {
    let open = text
        .find("\n<details><summary>")
        .expect("a <details> block");
    assert!(text.ends_with("</details>\n"), "{text}");
    &text[open..]
}

/// What a pull request shows for `--baseline` with an A/B group: the
/// verdicts counted first, then one table of the rows that changed (the
/// slower first) and the failure, everything else folded.
#[test]
fn baseline_markdown_puts_the_summary_and_the_changed_rows_first() {
    let text = markdown_text();
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        "`suite`: **1 slower, 1 faster, 1 no difference** against baseline `main` (threshold \
         ±2.93%) · **1 faster, 1 unclear** in A/B group \
         `sort` (threshold ±1.00%) · also 1 failed, 1 new, 1 gone, 1 not compared · machine: \
         Intel Xeon, 2 cores, Linux 6.8.0-1012-gcp, hypervisor"
    );
    let tables = gfm_tables(&text);
    assert_eq!(tables.len(), 2, "{text}");
    let shown = &tables[0];
    assert_eq!(
        shown[0],
        ["benchmark", "time", "change (95% CI)", "verdict"]
    );
    assert_eq!(
        names(shown),
        [
            "`fib_20`",
            "`empty`",
            "`kernels::sort_unstable_1k`",
            "`parse::csv \"a,b\" | c`"
        ]
    );
    let fib = &shown[1];
    assert_eq!(fib[1], "262.0 ns");
    assert!(fib[2].starts_with("+20.00% [+15.8"), "{fib:?}");
    assert_eq!(fib[3], "**slower**");
    assert!(
        shown[3][3].starts_with("faster vs `kernels::sort_1k`"),
        "{:?}",
        shown[3]
    );
    // Folded: the other rows, the notes and the method, after the table.
    let folded = folded_part(&text);
    assert!(folded.starts_with(
        "\n<details><summary>1 unclear, 1 no difference, 1 new, 1 gone, 1 not compared · 7 \
         notes · how it was measured</summary>\n\n"
    ));
    assert_eq!(
        names(&tables[1]),
        [
            "`kernels::sort_by_key`",
            "`kernels::sort_1k`",
            "`slow::one_sample`",
            "`parse::gone`",
            "`kernels::sort_1k_pdq`"
        ]
    );
    assert!(folded.contains(&format!("\n| {} |", tables[1][1].join(" | "))));
    let notes = text.lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(notes, 7);
    assert_eq!(
        folded.lines().filter(|l| l.starts_with("- ")).count(),
        notes
    );
    assert!(folded.contains(
        "\nBaseline `main` was saved 2026-11-20T17:04:00Z. The machine itself: +0.50% [+0.08%, \
         +0.93%] since"
    ));
    assert!(folded.contains("\nbench-harness 0.1.0 · timer: rdtsc"));
}

/// `--against`'s page: the same shape from the paired comparison.
#[test]
fn against_markdown_puts_the_summary_and_the_changed_rows_first() {
    let text = against_markdown_text();
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        "`suite`: **1 slower, 1 faster, 1 no difference** against `main` (threshold ±1.00%) · \
         also 1 failed, 1 too fast to compare, 1 new, 1 gone · machine: Intel Xeon, 2 cores, \
         Linux 6.8.0-1012-gcp, hypervisor"
    );
    let tables = gfm_tables(&text);
    assert_eq!(tables.len(), 2, "{text}");
    assert_eq!(
        names(&tables[0]),
        ["`find::memchr`", "`find::naive`", "`crash`"]
    );
    let memchr = &tables[0][1];
    assert_eq!(memchr[1], "111.1 ns");
    assert!(memchr[2].starts_with("+10.0"), "{memchr:?}");
    assert_eq!(memchr[3], "**slower**");
    assert_eq!(tables[0][3][1..], ["**FAILED**", "", "**failed**"]);
    let folded = folded_part(&text);
    assert_eq!(
        names(&tables[1]),
        ["`hash::fnv`", "`empty`", "`parse::json`", "`old::removed`"]
    );
    assert!(folded.contains("\n- `crash` failed: the other build failed: boom\n"));
    assert!(folded.contains("\n- `empty`: too fast to compare: this build"));
}

/// When nothing changed, the page says so where the table would be, and
/// the rows are folded; when nothing was compared, it says that instead.
#[test]
fn a_page_without_changes_says_so_above_the_fold() {
    let page = |keep: &[&str]| {
        let mut report = against_report();
        report.rows.retain(|row| keep.contains(&row.name.as_str()));
        let mut out = Vec::new();
        markdown::write_against(&mut out, HEADING, &report).unwrap();
        String::from_utf8(out).unwrap()
    };
    let same = page(&["hash::fnv"]);
    let lines: Vec<&str> = same.lines().collect();
    assert!(
        lines[0].starts_with("`suite`: **1 no difference** against `main`"),
        "{same}"
    );
    assert_eq!(lines[2], "No benchmark changed beyond its threshold.");
    assert_eq!(names(&gfm_tables(&same)[0]), ["`hash::fnv`"]);
    assert!(folded_part(&same).contains("| `hash::fnv` |"));
    let none = page(&["empty", "parse::json"]);
    assert!(
        none.starts_with("`suite`: **none compared** against `main`"),
        "{none}"
    );
    assert_eq!(
        none.lines().nth(2),
        Some("Nothing was compared: the rows below say why.")
    );
}

/// A run without a baseline or groups: every benchmark's time in the
/// table, only the notes folded.
#[test]
fn markdown_without_comparisons_lists_every_time() {
    let mut out = Vec::new();
    markdown::write(&mut out, HEADING, &info(), &results(), None, &[]).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("`suite`: **4 measured**, 1 failed, 1 ignored · machine: Intel Xeon"),
        "{text}"
    );
    let tables = gfm_tables(&text);
    assert_eq!(tables.len(), 1, "{text}");
    assert_eq!(tables[0][0], ["benchmark", "time ± 95% CI"]);
    assert_eq!(tables[0].len(), 1 + results().len());
    assert!(
        !text.contains("change") && !text.contains("verdict"),
        "{text}"
    );
    assert!(folded_part(&text).contains("\n- `fib_20`: not precise"));
}

/// The checker takes what a renderer takes, and refuses what it would not.
#[test]
fn the_gfm_check_refuses_broken_tables() {
    assert_eq!(
        gfm_tables("a\n\n| x | y |\n|:--|--:|\n| 1 | 2 |\n").len(),
        1
    );
    for broken in [
        "<details>\n| x |\n|:--|\n",
        "| x | y |\n| 1 | 2 |\n",
        "| x | y |\n|:--|--:|\n| 1 |\n",
    ] {
        let result = std::panic::catch_unwind(|| gfm_tables(broken));
        assert!(result.is_err(), "{broken:?}");
    }
}

/// Every comparison's CSV: the baseline's columns at the end, a row for
/// the benchmark it lost.
#[test]
fn csv_carries_the_baseline_comparison() {
    let text = csv_text();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('"'))
        .map(|l| l.split(',').collect())
        .collect();
    let column = |name: &str| rows[0].iter().position(|c| *c == name).unwrap();
    let row = |name: &str| rows.iter().find(|r| r[0] == name).unwrap();
    let fib = row("fib_20");
    assert_eq!(fib[column("verdict")], "slower");
    let change: f64 = fib[column("change")].parse().unwrap();
    assert!((change - 0.2).abs() < 1e-9, "{fib:?}");
    assert_eq!(row("slow::one_sample")[column("verdict")], "new");
    let gone = row("parse::gone");
    assert_eq!((gone[2], gone[column("verdict")]), ("gone", "gone"));
    assert_eq!(row("zz::ignored")[column("verdict")], "");
}

/// `--against`'s CSV: a row per benchmark of either build, each with its
/// status, and the ratio with its interval where compared.
#[test]
fn against_csv_has_a_row_per_benchmark_of_either_build() {
    let mut out = Vec::new();
    csv::write_against(&mut out, &against_report()).unwrap();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], csv::AGAINST_COLUMNS);
    for row in &rows {
        assert_eq!(row.len(), csv::AGAINST_COLUMNS.len(), "{row:?}");
    }
    let status: Vec<(&str, &str)> = rows[1..].iter().map(|r| (r[0], r[1])).collect();
    assert_eq!(
        status,
        [
            ("crash", "failed"),
            ("empty", "too_fast"),
            ("find::memchr", "compared"),
            ("find::naive", "compared"),
            ("hash::fnv", "compared"),
            ("parse::json", "new"),
            ("old::removed", "gone"),
        ]
    );
    let memchr = &rows[3];
    let ratio: f64 = memchr[4].parse().unwrap();
    let (low, high): (f64, f64) = (memchr[5].parse().unwrap(), memchr[6].parse().unwrap());
    assert!(
        low < ratio && ratio < high && (ratio - 1.1).abs() < 0.01,
        "{memchr:?}"
    );
    assert_eq!(memchr[10], "slower");
    assert_eq!(rows[1][14], "the other build failed: boom");
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

/// A comparison Ctrl-C stopped says so in every format it writes, as a
/// measured run does (the review's failure 20, through `--against`).
#[test]
fn a_partial_comparison_says_so_in_every_format() {
    for partial in [false, true] {
        let report = crate::results::against::AgainstReport {
            partial,
            ..against_report()
        };
        let mut csv_out = Vec::new();
        csv::write_against(&mut csv_out, &report).unwrap();
        let csv_text = String::from_utf8(csv_out).unwrap();
        let rows: Vec<&str> = csv_text.lines().skip(1).collect();
        let word = if partial { ",partial" } else { ",complete" };
        assert!(rows.iter().all(|row| row.ends_with(word)), "{csv_text}");
        let mut bmf_out = Vec::new();
        bmf::write_against(&mut bmf_out, &report).unwrap();
        let bmf_text = String::from_utf8(bmf_out).unwrap();
        assert_eq!(
            bmf_text.contains(bmf::PARTIAL_MEASURE),
            partial,
            "{bmf_text}"
        );
        let mut md_out = Vec::new();
        markdown::write_against(&mut md_out, HEADING, &report).unwrap();
        let md_text = String::from_utf8(md_out).unwrap();
        assert_eq!(
            md_text.starts_with("**Interrupted:** partial results"),
            partial,
            "{md_text}"
        );
    }
}

/// `--logfile` under `--against`: a line per benchmark of either build
/// with its verdict, as libtest logs a test's result; and the partial line.
#[test]
fn an_against_log_has_each_benchmarks_verdict() {
    let report = against_report();
    let log = super::logfile::against(&report);
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), report.rows.len(), "{log}");
    assert!(lines.contains(&"failed crash"), "{log}");
    assert!(lines.contains(&"too fast to compare empty"), "{log}");
    assert!(lines.contains(&"new parse::json"), "{log}");
    assert!(lines.contains(&"gone old::removed"), "{log}");
    assert!(lines.iter().any(|l| l.ends_with(" find::memchr")), "{log}");
    let partial = crate::results::against::AgainstReport {
        partial: true,
        ..report
    };
    let log = super::logfile::against(&partial);
    assert!(
        log.lines().last().unwrap().starts_with("interrupted"),
        "{log}"
    );
}

/// Where the history gave a benchmark a rerun term, the Markdown's times
/// table has a rerun column: that row's figure, the others' cells empty,
/// and the method line says what it is. Without a term, no column.
#[test]
fn markdown_shows_where_a_rerun_falls_beside_the_times() {
    let text = |results: &[BenchResult]| {
        let mut out = Vec::new();
        markdown::write(&mut out, HEADING, &info(), results, None, &[]).unwrap();
        String::from_utf8(out).unwrap()
    };
    let mut results = results();
    assert!(!text(&results).contains("rerun"));
    // A row with a ±: a bound has no rerun figure.
    let index = (results.iter())
        .position(|r| {
            r.measured()
                .is_some_and(|m| super::format::Headline::of(m).plus_minus().is_some())
        })
        .unwrap();
    let crate::results::Outcome::Measured(m) = &mut results[index].outcome else {
        unreachable!()
    };
    m.rerun = Some(0.05);
    let cell = super::format::rerun_cell(m).unwrap();
    let page = text(&results);
    assert!(
        page.contains("| benchmark | time ± 95% CI | rerun |"),
        "{page}"
    );
    let name = format!("`{}`", results[index].name);
    let row = page.lines().find(|l| l.contains(&name)).unwrap();
    assert!(row.ends_with(&format!("| {cell} |")), "{row}");
    let others = page
        .lines()
        .filter(|l| l.starts_with("| `") && !l.contains(&name));
    for other in others {
        assert!(other.ends_with("| |"), "{other}");
    }
    let words = format!("rerun: {}", super::format::RERUN_MEANS);
    assert!(page.contains(&words), "{page}");
}

/// A row measured otherwise in the baseline stays in the table, its
/// change shown, unclear for its method; the summary counts it unclear.
#[test]
fn baseline_markdown_shows_a_row_measured_two_ways() {
    let (mut results, baseline) = formats_run();
    for result in &mut results {
        if let (Some(Compared::Against(c)), "fib_20") =
            (&mut result.comparison, result.name.as_str())
        {
            c.two_ways = true;
            c.ratio.as_mut().unwrap().verdict = Verdict::Unclear;
        }
    }
    let mut out = Vec::new();
    markdown::write(&mut out, HEADING, &info(), &results, Some(&baseline), &[]).unwrap();
    let text = String::from_utf8(out).unwrap();
    // CSV says why in a column of its own; the verdict stays a word.
    let mut out = Vec::new();
    csv::write(&mut out, &info(), &results, Some(&baseline)).unwrap();
    let csv = String::from_utf8(out).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let two_ways = |name: &str| {
        let row = rows.iter().find(|r| r[0] == name).unwrap();
        (row[csv::COLUMNS.len() - 3], row[csv::COLUMNS.len() - 1])
    };
    assert_eq!(two_ways("fib_20"), ("unclear", "true"));
    assert_eq!(two_ways("kernels::sort_1k"), ("no difference", "false"));
    assert_eq!(two_ways("parse::gone"), ("gone", ""));
    assert!(
        text.starts_with("`suite`: **1 faster, 1 unclear, 1 no difference** against baseline"),
        "{text}"
    );
    let shown = &gfm_tables(&text)[0];
    let fib = shown.iter().find(|row| row[0] == "`fib_20`").unwrap();
    assert!(fib[2].starts_with("+20.00% [+15.8"), "{fib:?}");
    assert_eq!(fib[3], "unclear, measured two ways");
}
