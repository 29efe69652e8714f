//! The terminal report of a fixed run: the default view against its golden
//! file at 100 columns, `--details` against its own, and what the default
//! view promises at any width: no line wider than the terminal, one line
//! per benchmark, each kind of note once.

use bench_runtime::Throughput;

use super::{Layout, Terminal};
use crate::analysis::compare::{compare, compare_paired, Headline, Verdict};
use crate::audit;
use crate::document;
use crate::results::{BenchResult, Compared, ComplexityReport, GroupReport, Outcome};
use crate::testing::fixed_run::{self, environment, info, interleaved, measured};
use crate::testing::golden;

/// Every outcome of the fixed run, and what a real suite adds: a group of
/// two members, throughput, a name too long for the width, several
/// benchmarks with the same note, and a comparison with a baseline.
fn suite() -> Vec<BenchResult> {
    let mut results = fixed_run::results();
    let fib = results[1].clone();
    for n in 21..=26 {
        let name = format!("fib_{n}");
        results.push(BenchResult {
            path: vec![name.clone()],
            name,
            ..fib.clone()
        });
    }
    results[2].throughput = Some(Throughput::Items(1000));
    results.push(BenchResult {
        group: Some("sort".to_string()),
        throughput: Some(Throughput::Items(1000)),
        ..measured("kernels::sort_unstable_1k", interleaved())
    });
    let long = "scaling::find_byte_in_a_long_haystack_with_a_descriptive_name/1048576";
    results.push(BenchResult {
        path: vec![
            "scaling".to_string(),
            "find_byte_in_a_long_haystack_with_a_descriptive_name".to_string(),
            "1048576".to_string(),
        ],
        throughput: Some(Throughput::Bytes(1 << 20)),
        ..measured(long, interleaved())
    });
    results
}

/// The baseline's headlines against this run's: `sort_1k` 20% slower, the
/// long one unchanged, `fib_21` 3% slower within its wide interval
/// (unclear), `fib_22` too fast to compare, `empty` not in the baseline.
fn compared(mut results: Vec<BenchResult>) -> Vec<BenchResult> {
    let headline = |time: f64, half: f64| Headline {
        time,
        half_width: Some(half),
        df: 5.0,
        resolution: 0.05,
        quantum: 0.0,
    };
    let (old, slower) = (headline(10.0, 0.05), headline(12.0, 0.06));
    for result in &mut results {
        result.comparison = match result.name.as_str() {
            "kernels::sort_1k" => Some(Compared::Against(compare(&old, &slower, 0.02))),
            name if name.starts_with("scaling::") => {
                Some(Compared::Against(compare(&old, &old, 0.02)))
            }
            "fib_21" => Some(Compared::Against(compare(
                &headline(262.2, 16.3),
                &headline(270.1, 16.8),
                0.02,
            ))),
            "fib_22" => Some(Compared::Against(compare(
                &headline(0.01, 0.01),
                &headline(0.03, 0.01),
                0.02,
            ))),
            "empty" => Some(Compared::New),
            _ => None,
        };
    }
    results
}

fn group() -> GroupReport {
    let baseline: Vec<f64> = (0..40).map(|k| 100.0 + (k % 7) as f64).collect();
    let member: Vec<f64> = baseline.iter().map(|t| t * 0.8).collect();
    GroupReport {
        group: "sort".to_string(),
        baseline: "kernels::sort_1k".to_string(),
        members: vec![(
            "kernels::sort_unstable_1k".to_string(),
            Ok(compare_paired(&baseline, &member)),
        )],
    }
}

/// What a run prints on stdout, in `width` columns or with `--details`:
/// the machine, the table, the group's table, the comparison and the
/// closing lines.
fn render(results: &[BenchResult], width: usize, details: bool, layout: Layout) -> String {
    let baseline = document::assemble(
        &environment(),
        &info(),
        &fixed_run::results(),
        &[],
        None,
        None,
    );
    let registered: Vec<String> = results.iter().map(|r| r.name.clone()).collect();
    let mut buffer = termcolor::NoColor::new(Vec::new());
    let mut out = Terminal::new(&mut buffer, results.iter().map(|r| r.name.as_str()))
        .with_view(width, details);
    out.machine(&audit::header(&environment()), None, None)
        .unwrap();
    out.bench_table(&info(), results, &[], layout).unwrap();
    out.group_table(&group()).unwrap();
    out.comparison_table("main", &baseline, results, &registered, None, 0.02)
        .unwrap();
    out.bench_summary(results, 1.5, false).unwrap();
    String::from_utf8(buffer.into_inner()).unwrap()
}

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// The default view at 100 columns.
#[test]
fn pretty_matches_golden() {
    let text = render(&compared(suite()), 100, false, Layout::Tree);
    golden("report.pretty.txt", &text);
}

/// `--details --flat`, as `--output FILE --flat --details` writes it: the
/// full table of before the compact view, unchanged.
#[test]
fn details_match_golden() {
    let results = fixed_run::results();
    let mut buffer = termcolor::NoColor::new(Vec::new());
    let mut table =
        Terminal::new(&mut buffer, results.iter().map(|r| r.name.as_str())).with_view(100, true);
    table
        .bench_table(&info(), &results, &[], Layout::Flat)
        .unwrap();
    table.bench_summary(&results, 1.5, false).unwrap();
    let text = String::from_utf8(buffer.into_inner()).unwrap();
    golden("report.details.txt", &text);
}

#[test]
fn no_line_is_wider_than_the_terminal() {
    let results = compared(suite());
    for width in [80, 100, 120, 160] {
        for layout in [Layout::Tree, Layout::Flat] {
            let text = render(&results, width, false, layout);
            assert!(widest(&text) <= width, "{width} {layout:?}:\n{text}");
        }
    }
    // The full view is as wide as it takes.
    assert!(widest(&render(&results, 100, true, Layout::Flat)) > 100);
}

#[test]
fn each_benchmark_takes_one_line_and_each_kind_of_note_one_line() {
    let results = compared(suite());
    let text = render(&results, 100, false, Layout::Flat);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("benchmark "))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    let (notes, rows): (Vec<&str>, Vec<&str>) = table.iter().partition(|l| l.starts_with("note: "));
    // A failure's location is the only line a row adds.
    let located = results
        .iter()
        .filter(|r| matches!(&r.outcome, Outcome::Failed(f) if f.location.is_some()))
        .count();
    assert_eq!(rows.len(), results.len() + located, "{text}");
    let kinds: Vec<&str> = notes
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap())
        .collect();
    for (i, kind) in kinds.iter().enumerate() {
        assert!(!kinds[..i].contains(kind), "{kind} twice:\n{text}");
    }
    // fib_20 and its six copies missed the ± target: said once, with the
    // first names and how many more.
    let precise = notes
        .iter()
        .find(|l| l.starts_with("note: not precise (±1.00% not reached): fib_20, "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(precise.contains(" more; raise --max-time"), "{precise}");
}

#[test]
fn the_details_show_every_statistic_and_every_note_in_full() {
    let text = render(&compared(suite()), 100, true, Layout::Flat);
    let header = text.lines().find(|l| l.starts_with("benchmark ")).unwrap();
    for column in [
        "median", "mean", "std dev", "spread", "min", "max", "outliers", "stop",
    ] {
        assert!(header.contains(column), "{header}");
    }
    assert!(text.contains("  without outliers"), "{text}");
    assert!(text.contains("    percentiles  p50"), "{text}");
    assert_eq!(
        text.matches("  note: not precise: --max-time (2.000 s) ran out")
            .count(),
        7,
        "{text}"
    );
    assert!(text.contains("p (Welch)"), "{text}");
    assert!(text.contains("p (t)"), "{text}");
}

#[test]
fn a_long_name_is_shortened_in_the_middle_and_the_tree_kept() {
    let text = render(&compared(suite()), 80, false, Layout::Tree);
    assert!(text.contains("\nsort (group)\n"), "{text}");
    let node = text
        .lines()
        .find(|l| l.starts_with("╰─ find_byte"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(node.contains('…') && node.ends_with("name"), "{node}");
    // In the comparison table too, at its own width.
    let compared = text
        .lines()
        .find(|l| l.starts_with("  scaling::"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        compared.contains('…') && compared.contains("/1048576 "),
        "{compared}"
    );
}

#[test]
fn the_change_against_the_baseline_is_a_column_of_the_table() {
    let text = render(&compared(suite()), 100, false, Layout::Flat);
    let header = text.lines().find(|l| l.starts_with("benchmark ")).unwrap();
    assert!(header.ends_with("change"), "{header}");
    let row = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap();
    assert!(
        row("kernels::sort_1k ").contains("+20.00% slower"),
        "{text}"
    );
    assert!(row("empty ").contains(" new"), "{text}");
    // Unclear with the largest change its interval allows; no ratio for
    // times within the loop's resolution.
    assert!(row("fib_21 ").ends_with("+3.01% unclear"), "{text}");
    // The comparison table says how far the change may reach.
    let unclear = text
        .lines()
        .find(|l| l.starts_with("  fib_21 "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(unclear.ends_with("  unclear, up to +11.17%"), "{unclear}");
    assert!(row("fib_22 ").ends_with("too fast"), "{text}");
    // Without a baseline, no column.
    let text = render(&suite(), 100, false, Layout::Flat);
    let header = text.lines().find(|l| l.starts_with("benchmark ")).unwrap();
    assert!(!header.contains("change"), "{header}");
}

/// A benchmark whose run was mostly a slow episode: 36 slices on a vCPU
/// 2.3× slower, 4 at the fast level. Its figure is not shown as a precise
/// one, and the notes say why once.
#[test]
fn a_row_whose_slices_were_mostly_slow_is_marked_unreliable() {
    let mut m = interleaved();
    let mut samples = Vec::new();
    let mut slice_starts = Vec::new();
    for slice in 0..40 {
        slice_starts.push(samples.len());
        let level = if slice % 10 == 0 { 170.0 } else { 391.0 };
        for k in 0..6 {
            let cost = level + k as f64 * 0.1;
            samples.push(bench_runtime::Sample {
                iters: 100,
                elapsed: bench_runtime::Nanos(100.0 * (cost + 0.5) + 30.0),
            });
        }
    }
    // The speed probe beside each slow slice ran 2.3× slower too.
    let slices: Vec<crate::instruments::SliceEvidence> = (slice_starts.iter().enumerate())
        .map(|(slice, &first_sample)| crate::instruments::SliceEvidence {
            first_sample,
            samples: 6,
            probe: if slice % 10 == 0 { 1.0 } else { 2.3 },
            pause: None,
            faults: None,
        })
        .collect();
    m.samples = samples;
    m.slice_starts = slice_starts;
    let evidence = crate::instruments::Evidence {
        slices: &slices,
        preempted: &[],
    };
    let slow = crate::testing::fixed_run::measured_with("mostly_slow", m, evidence);
    let measured_slow = slow.measured().unwrap();
    assert!(!measured_slow.reliable());
    assert_eq!(measured_slow.estimate.kept_blocks, 4);
    let steady = measured("steady", interleaved());
    assert!(steady.measured().unwrap().reliable());
    let results = [slow, steady];
    for details in [false, true] {
        let mut buffer = termcolor::NoColor::new(Vec::new());
        let mut table = Terminal::new(&mut buffer, results.iter().map(|r| r.name.as_str()))
            .with_view(100, details);
        table
            .bench_table(&info(), &results, &[], Layout::Flat)
            .unwrap();
        table.bench_summary(&results, 1.0, false).unwrap();
        let text = String::from_utf8(buffer.into_inner()).unwrap();
        let row = |name: &str| {
            text.lines()
                .find(|l| l.starts_with(name))
                .unwrap()
                .to_string()
        };
        assert!(row("mostly_slow").contains("%?"), "{text}");
        assert!(!row("steady ").contains('?'), "{text}");
        let notes: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("note: not reliable") || l.starts_with("note: ± unreliable"))
            .collect();
        assert_eq!(notes.len(), 1, "{text}");
        assert!(notes[0].contains("mostly_slow") && !notes[0].contains("steady"));
    }
}

/// Connectors seven levels deep leave no room for names at 40 columns: the
/// rows are flat, under their full names shortened in the middle.
#[test]
fn a_tree_too_deep_for_the_width_is_printed_flat() {
    let path: Vec<String> = "a::b::c::d::e::f::g::leaf_benchmark"
        .split("::")
        .map(str::to_string)
        .collect();
    let results = [
        BenchResult {
            path: path.clone(),
            ..measured("a::b::c::d::e::f::g::leaf_benchmark", interleaved())
        },
        measured("top", interleaved()),
    ];
    let table = |width| {
        let mut buffer = termcolor::NoColor::new(Vec::new());
        let mut out = Terminal::new(&mut buffer, std::iter::empty()).with_view(width, false);
        out.bench_table(&info(), &results, &[], Layout::Tree)
            .unwrap();
        String::from_utf8(buffer.into_inner()).unwrap()
    };
    let wide = table(120);
    assert!(wide.contains("╰─ leaf_benchmark "), "{wide}");
    let narrow = table(40);
    assert!(!narrow.contains("─"), "{narrow}");
    assert!(narrow.contains("\na::b::c"), "{narrow}");
    assert!(widest(&narrow) <= 40, "{narrow}");
}

/// `--against`: by default a row per benchmark within the width, a long
/// name shortened in the middle; `--details` adds the other build's time
/// and the rounds at whatever width they take.
#[test]
fn the_against_table_fits_the_width_and_details_add_the_rest() {
    use crate::analysis::compare::Verdict;
    use crate::results::against::{AgainstOutcome, AgainstReport, AgainstRow, Paired};
    let old: Vec<f64> = (0..12).map(|i| 100.0 + f64::from(i % 3)).collect();
    let new: Vec<f64> = old.iter().map(|t| t * 1.1).collect();
    let compared = |name: &str| AgainstRow {
        name: name.to_string(),
        outcome: AgainstOutcome::Compared(Paired {
            comparison: compare_paired(&old, &new),
            verdict: Verdict::Slower,
            new_ns: 110.0,
            old_ns: 100.0,
        }),
    };
    let long = "kernels::a_benchmark_whose_name_goes_on_and_on_and_on/1048576";
    let report = AgainstReport {
        baseline: "main".to_string(),
        protocol_version: 1,
        noise_threshold: 0.01,
        rows: vec![
            compared("fib_20"),
            compared(long),
            AgainstRow {
                name: "parse".to_string(),
                outcome: AgainstOutcome::Failed("the other build stopped early".into()),
            },
        ],
        own_overhead: true,
        partial: false,
    };
    let table = |width, details| {
        let mut buffer = termcolor::NoColor::new(Vec::new());
        let mut out = Terminal::new(&mut buffer, std::iter::empty()).with_view(width, details);
        out.against_table(&report).unwrap();
        String::from_utf8(buffer.into_inner()).unwrap()
    };
    for width in [80, 100, 120] {
        let text = table(width, false);
        assert!(widest(&text) <= width, "{width}:\n{text}");
        // Two rows, and the summary line.
        assert_eq!(text.matches("slower").count(), 3, "{text}");
        assert!(text.contains("\n  2 slower · 1 failed\n"), "{text}");
        // 61 characters and 54 of columns: shortened below 115.
        assert_eq!(text.contains(long), width >= 115, "{width}:\n{text}");
        assert!(!text.contains("rounds"), "{text}");
    }
    // An older worker's own overhead is said once, within the width.
    let text = table(100, false);
    assert_eq!(
        text.matches("took out its own estimate").count(),
        1,
        "{text}"
    );
    let full = table(100, true);
    assert!(full.contains(long), "{full}");
    assert!(
        full.contains("rounds") && full.contains("100.0 ns"),
        "{full}"
    );
    assert!(widest(&full) > 100, "{full}");
}

/// Rows `function/ARG` for each argument, and the function's complexity
/// report over `points` (one per argument).
fn fitted(function: &str, points: &[(f64, f64)]) -> (Vec<BenchResult>, ComplexityReport) {
    let rows = points
        .iter()
        .map(|&(n, _)| {
            let arg = n.to_string();
            BenchResult {
                path: vec![function.to_string(), arg.clone()],
                arg: Some(arg.clone()),
                ..measured(&format!("{function}/{arg}"), interleaved())
            }
        })
        .collect();
    let report = ComplexityReport {
        function: function.to_string(),
        path: vec![function.to_string()],
        group: None,
        points: points.to_vec(),
        fit: crate::analysis::complexity::fit(points).map_err(|e| e.to_string()),
    };
    (rows, report)
}

/// A growth class is named only where the data establish it; a sum whose
/// time per element rose from 0.08 to 0.4 ns over n = 10³ … 10⁷ fits none
/// clearly, and the line says so with the best two.
#[test]
fn a_complexity_line_names_a_class_only_where_the_data_establish_it() {
    let (mut results, linear) = fitted("scan", &[(10.0, 30.0), (100.0, 300.0), (1000.0, 3000.0)]);
    let per_element = [0.08, 0.08, 0.1, 0.25, 0.4];
    let sum: Vec<(f64, f64)> = [1e3, 1e4, 1e5, 1e6, 1e7]
        .into_iter()
        .zip(per_element)
        .map(|(n, cost)| (n, n * cost))
        .collect();
    let (rows, cached) = fitted("sum", &sum);
    results.extend(rows);
    let reports = [linear, cached];
    for details in [false, true] {
        for layout in [Layout::Tree, Layout::Flat] {
            let mut buffer = termcolor::NoColor::new(Vec::new());
            let mut out = Terminal::new(&mut buffer, results.iter().map(|r| r.name.as_str()))
                .with_view(120, details);
            out.bench_table(&info(), &results, &reports, layout)
                .unwrap();
            let text = String::from_utf8(buffer.into_inner()).unwrap();
            let (scan, sum) = match layout {
                Layout::Tree => ("   complexity: ", "   complexity: "),
                Layout::Flat => ("complexity of scan: ", "complexity of sum: "),
            };
            let line = |start: &str, body: &str| format!("\n{start}{body}\n");
            assert!(
                text.contains(&line(scan, "O(n): 3.00 ns × n, RMS 0.0%")),
                "{text}"
            );
            assert!(
                text.contains(&line(
                    sum,
                    "no class fits: O(n log n) RMS 34.8%, O(n) RMS 45.6%"
                )),
                "{text}"
            );
            assert!(!text.contains("× n log n"), "{text}");
        }
    }
}

/// A body costing 1.063 ps whose interval is [−0.62, 2.75] ps once the
/// loop's cost is taken out: it used to print `1.063 ps ±0.55%` (relative
/// to the loop's cost). Its time is a bound, and the row says so.
#[test]
fn a_time_whose_interval_reaches_zero_prints_as_a_bound() {
    let mut empty = measured("empty", interleaved());
    if let Outcome::Measured(m) = &mut empty.outcome {
        m.estimate.estimate = 0.001063;
        m.estimate.interval = Some(crate::analysis::Interval {
            lower: -0.00062,
            upper: 0.00275,
            confidence: 0.95,
        });
    }
    let results = [empty, measured("steady", interleaved())];
    for details in [false, true] {
        let mut buffer = termcolor::NoColor::new(Vec::new());
        let mut table = Terminal::new(&mut buffer, results.iter().map(|r| r.name.as_str()))
            .with_view(100, details);
        table
            .bench_table(&info(), &results, &[], Layout::Flat)
            .unwrap();
        let text = String::from_utf8(buffer.into_inner()).unwrap();
        let row = text.lines().find(|l| l.starts_with("empty ")).unwrap();
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[1..3], ["<2.750", "ps"], "{text}");
        // No ± beside it: `-` in the full table, nothing but the mark in
        // the compact one.
        assert!(!row.contains('±'), "{row}");
        assert_eq!(fields[3], if details { "-" } else { "*" }, "{row}");
        let steady = text.lines().find(|l| l.starts_with("steady ")).unwrap();
        let steady: Vec<&str> = steady.split_whitespace().collect();
        assert!(steady[3].starts_with('±'), "{text}");
        if details {
            assert!(
                text.contains("\n  note: at most 2.750 ps: the 95% interval of the time, "),
                "{text}"
            );
        } else {
            assert!(row.ends_with('*'), "{row}");
            assert!(
                text.contains("\nnote: a bound, not a time (the interval reaches zero): empty; "),
                "{text}"
            );
        }
    }
}

/// `*` marks a row whose note changes how to read it; a row with only
/// informational notes (a warm-up that did not settle, a high spread) is
/// not marked, and its notes are still listed under the table.
#[test]
fn only_a_note_that_changes_the_reading_marks_a_row() {
    use crate::results::Note;
    use bench_runtime::Nanos;
    let with_notes = |name: &str, notes: Vec<Note>| {
        let mut result = measured(name, interleaved());
        if let Outcome::Measured(m) = &mut result.outcome {
            m.notes = notes;
        }
        result
    };
    let results = [
        with_notes(
            "informed",
            vec![
                Note::HighSpread { spread: 0.12 },
                Note::WarmUpUnsettled {
                    warm_up_time: Nanos(1e8),
                    final_cv: Some(0.08),
                    window: 10,
                    threshold: 0.05,
                },
            ],
        ),
        with_notes("waited", vec![Note::LowCpu { share: 0.4 }]),
        with_notes("plain", vec![]),
    ];
    let mut buffer = termcolor::NoColor::new(Vec::new());
    let mut table =
        Terminal::new(&mut buffer, results.iter().map(|r| r.name.as_str())).with_view(100, false);
    table
        .bench_table(&info(), &results, &[], Layout::Flat)
        .unwrap();
    table.bench_summary(&results, 1.0, false).unwrap();
    let text = String::from_utf8(buffer.into_inner()).unwrap();
    let row = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap();
    assert!(row("waited ").ends_with(" *"), "{text}");
    assert!(!row("informed ").contains('*'), "{text}");
    assert!(!row("plain ").contains('*'), "{text}");
    for note in [
        "note: high spread within slices: informed;",
        "note: warm-up did not settle: informed;",
        "note: CPU time 40% of wall time: waited;",
    ] {
        assert!(text.contains(note), "{note}:\n{text}");
    }
    assert!(text.contains(" · * = read its note"), "{text}");
}

/// A row measured otherwise in the baseline: shown with its change, as
/// unclear for its method, and not with the rows an interval left unclear.
#[test]
fn a_row_measured_two_ways_is_unclear_for_its_method() {
    let mut results = compared(suite());
    for result in &mut results {
        if let Some(Compared::Against(c)) = &mut result.comparison {
            if result.name == "kernels::sort_1k" {
                c.two_ways = true;
                c.ratio.as_mut().unwrap().verdict = Verdict::Unclear;
            }
        }
    }
    let text = render(&results, 100, false, Layout::Tree);
    let row = (text.lines())
        .find(|l| l.contains("kernels::sort_1k") && l.contains("+20.00%"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.ends_with("unclear, measured two ways"), "{row}");
    let line = |start: &str| {
        let found = text.lines().find(|l| l.trim_start().starts_with(start));
        found.unwrap_or_else(|| panic!("no '{start}' in {text}"))
    };
    assert!(
        line("measured two ways:").contains("kernels::sort_1k: their change"),
        "{text}"
    );
    assert!(!line("unclear:").contains("sort_1k"), "{text}");
    assert!(!text.contains("  slower:"), "{text}");
}
