//! The page of a fixed run: what a reader finds on it, and what it must
//! never contain (scripts, external URLs, unescaped names).

use super::*;
use crate::testing::fixed_run::{environment, info, results};

fn page_of(results: &[BenchResult]) -> String {
    page_with_history(results, &[])
}

fn page_with_history(results: &[BenchResult], history: &[Vec<HistoryPoint>]) -> String {
    let (environment, info) = (environment(), info());
    render(&Page {
        target: "suite",
        environment: &environment,
        info: &info,
        results,
        complexity: &[],
        groups: &[],
        baseline: None,
        history,
        flamegraphs: &[],
    })
}

/// The text of the section with anchor `id`.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!(r#"<section class="bench" id="{id}">"#))
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = html[start..].find("</section>").expect("closed") + start;
    &html[start..end]
}

#[test]
fn every_measured_benchmark_has_its_two_charts_and_figures() {
    let results = results();
    let html = page_of(&results);
    for (i, result) in results.iter().enumerate() {
        let text = section(&html, &bench_id(i));
        let charts = text.matches("<svg").count();
        if result.measured().is_some() {
            assert_eq!(charts, 2, "{}: distribution and timeline", result.name);
            assert!(text.contains("p99.9"), "{}: percentiles shown", result.name);
            assert!(
                text.contains("warm-up"),
                "{}: warm-up mentioned",
                result.name
            );
        } else {
            assert_eq!(charts, 0, "{}: nothing to plot", result.name);
        }
    }
}

#[test]
fn a_benchmark_with_history_gets_its_trend_and_a_sparkline_in_the_summary() {
    let results = results();
    let measured = results.iter().position(|r| r.measured().is_some()).unwrap();
    let name = results[measured].name.clone();
    let points: Vec<HistoryPoint> = (0..6)
        .map(|i| HistoryPoint {
            name: name.clone(),
            commit: format!("abc{i}"),
            timestamp: format!("2026-11-2{i}T10:00:00Z"),
            headline: if i < 3 { 100.0 } else { 120.0 },
            lo: 99.0,
            hi: 121.0,
            is_change_point: i == 3,
            code_unchanged: false,
        })
        .collect();
    let history = [points];
    let html = page_with_history(&results, &history);
    let text = section(&html, &bench_id(measured));
    assert_eq!(text.matches("<svg").count(), 3, "{name}: and its history");
    assert!(text.contains("step at abc3"), "the change point is named");
    assert!(text.contains("last 6 runs"), "{text}");
    assert_eq!(html.matches(r#"<svg class="spark""#).count(), 1);
    let plain = page_of(&results);
    assert!(
        !plain.contains("<th>history</th>"),
        "no column without history"
    );
}

#[test]
fn the_summary_links_each_benchmark_to_its_section() {
    let results = results();
    let html = page_of(&results);
    for i in 0..results.len() {
        assert!(html.contains(&format!(r##"href="#{}""##, bench_id(i))));
    }
    assert!(html.contains("FAILED"), "a failure is listed");
}

#[test]
fn the_page_is_self_contained_and_names_are_escaped() {
    let html = page_of(&results());
    assert!(!html.contains("<script"), "no script");
    for external in ["http://", "https://", "url(", "@import", "src="] {
        assert!(!html.contains(external), "no external resource: {external}");
    }
    // The fixture's failing benchmark is named `parse::csv "a,b" | c`.
    assert!(html.contains("parse::csv &quot;a,b&quot; | c"));
}

#[test]
fn a_report_path_ending_in_html_is_one_file() {
    assert_eq!(
        Place::of(PathBuf::from("out/report.html")),
        Place::File(PathBuf::from("out/report.html"))
    );
    assert_eq!(
        Place::of(PathBuf::from("out/reports")),
        Place::Directory(PathBuf::from("out/reports"))
    );
}

#[test]
fn a_directory_gets_the_page_and_an_index_of_targets() {
    let scratch = crate::testing::Scratch::new("html-report-index");
    let dir = scratch.path().to_path_buf();
    let place = Place::Directory(dir.clone());
    let written = write(&place, "suite", "<p>suite</p>").unwrap();
    assert_eq!(written, dir.join("suite/index.html"));
    write(&place, "calibration", "<p>calibration</p>").unwrap();
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(index.contains(r#"href="calibration/index.html""#));
    assert!(index.contains(r#"href="suite/index.html""#));
}

/// The complexity section draws a fitted curve and names its class only
/// where the data establish it.
#[test]
fn a_complexity_curve_is_drawn_only_for_a_class_the_data_establish() {
    let report = |function: &str, points: Vec<(f64, f64)>| ComplexityReport {
        function: function.to_string(),
        path: vec![function.to_string()],
        group: None,
        fit: crate::analysis::complexity::fit(&points).map_err(|e| e.to_string()),
        points,
    };
    let cached = [1e3, 1e4, 1e5, 1e6, 1e7]
        .into_iter()
        .zip([0.08, 0.08, 0.1, 0.25, 0.4])
        .map(|(n, cost)| (n, n * cost))
        .collect();
    let reports = [
        report("scan", vec![(10.0, 30.0), (100.0, 300.0), (1000.0, 3000.0)]),
        report("sum", cached),
    ];
    let (environment, info, results) = (environment(), info(), results());
    let html = render(&Page {
        target: "suite",
        environment: &environment,
        info: &info,
        results: &results,
        complexity: &reports,
        groups: &[],
        baseline: None,
        history: &[],
        flamegraphs: &[],
    });
    let figure = |function: &str| {
        let start = html.find(&format!("<h3>{function}</h3>")).unwrap();
        let end = html[start..].find("</figure>").unwrap() + start;
        html[start..end].to_string()
    };
    let scan = figure("scan");
    assert!(scan.contains(r#"<path class="fit""#), "{scan}");
    assert!(scan.contains("O(n): 3.00 ns × n, RMS 0.0%"), "{scan}");
    let sum = figure("sum");
    assert!(!sum.contains(r#"<path class="fit""#), "{sum}");
    assert!(
        sum.contains("no class fits: O(n log n) RMS 34.8%, O(n) RMS 45.6%"),
        "{sum}"
    );
}

/// A time whose interval reaches zero reads as a bound in the summary and
/// in its section, with no ±.
#[test]
fn a_time_whose_interval_reaches_zero_is_a_bound_on_the_page() {
    let mut results = results();
    let index = results
        .iter()
        .position(|r| r.name == "kernels::sort_1k")
        .unwrap();
    if let crate::results::Outcome::Measured(m) = &mut results[index].outcome {
        m.estimate.estimate = 0.001063;
        m.estimate.interval = Some(crate::analysis::Interval {
            lower: -0.00062,
            upper: 0.00275,
            confidence: 0.95,
        });
    }
    let html = page_of(&results);
    assert!(
        html.contains(r#"<td class="num warn">&lt;2.750 ps</td><td class="num">-</td>"#),
        "{html}"
    );
    let text = section(&html, &bench_id(index));
    assert!(
        text.contains("<b>&lt;2.750 ps</b> <span class=\"warn\">(a bound"),
        "{text}"
    );
}

#[test]
fn an_ab_group_gets_its_members_side_by_side_with_their_ratios() {
    use crate::testing::fixed_run::{group_reports, interleaved, measured};
    let groups = group_reports();
    let results: Vec<BenchResult> = ["kernels::sort_1k", "kernels::sort_unstable_1k"]
        .into_iter()
        .chain(["kernels::sort_by_key"])
        .map(|name| measured(name, interleaved()))
        .collect();
    let (environment, info) = (environment(), info());
    let html = render(&Page {
        target: "suite",
        environment: &environment,
        info: &info,
        results: &results,
        complexity: &[],
        groups: &groups,
        baseline: None,
        history: &[],
        flamegraphs: &[],
    });
    let start = html
        .find(r#"aria-label="members of group sort side by side""#)
        .expect("the group's chart");
    let chart = &html[start..start + html[start..].find("</svg>").unwrap()];
    // The three measured members, each a box; the failed one has none.
    assert_eq!(chart.matches(r#"<rect class="box""#).count(), 3, "{chart}");
    assert!(chart.contains("kernels::sort_1k · "), "{chart}");
    assert!(chart.contains("· baseline"), "{chart}");
    let half = match &groups[0].members[0].1 {
        Ok(p) => format!(
            "{:.3}× [{:.3}, {:.3}] faster",
            p.ratio, p.ratio_interval.0, p.ratio_interval.1
        ),
        Err(_) => unreachable!("the fixture's first member is compared"),
    };
    assert!(chart.contains(&half), "{half} in {chart}");
    assert!(!chart.contains("sort_1k_pdq"), "{chart}");
}

#[test]
fn a_function_with_two_numeric_args_gets_its_size_charts_with_or_without_complexity() {
    use crate::testing::fixed_run::{interleaved, measured};
    let sized = |name: &str, arg: &str, bytes: Option<u64>| BenchResult {
        arg: Some(arg.to_string()),
        throughput: bytes.map(bench_runtime::Throughput::Bytes),
        ..measured(&format!("{name}/{arg}"), interleaved())
    };
    let results = [
        sized("hash", "64", Some(64)),
        sized("hash", "4096", Some(4096)),
        sized("sort", "100", None),
        sized("sort", "1000", None),
        sized("alone", "8", None),
        sized("parse", "u32", None),
        sized("parse", "u64", None),
    ];
    let html = page_of(&results);
    let sizes = &html[html
        .find(r#"<section id="sizes">"#)
        .expect("a sizes section")..];
    let sizes = &sizes[..sizes.find("</section>").unwrap()];
    for chart in [
        "time against the argument of hash, log–log",
        "throughput against the argument of hash, log–log",
        "time against the argument of sort, log–log",
    ] {
        assert!(
            sizes.contains(&format!(r#"aria-label="{chart}""#)),
            "{chart}"
        );
    }
    // No rate for `sort`; one size of `alone`; `parse`'s are types' names.
    assert_eq!(sizes.matches("<svg").count(), 3, "{sizes}");
    assert!(
        !sizes.contains("alone") && !sizes.contains("parse"),
        "{sizes}"
    );
    assert!(!page_of(&results[4..]).contains(r#"id="sizes""#));
}

#[test]
fn a_benchmark_with_a_flame_graph_links_it_from_its_section_only() {
    let results = results();
    let (environment, info) = (environment(), info());
    let linked = vec![(results[0].name.clone(), "flamegraph/a.svg".to_string())];
    let html = render(&Page {
        target: "suite",
        environment: &environment,
        info: &info,
        results: &results,
        complexity: &[],
        groups: &[],
        baseline: None,
        history: &[],
        flamegraphs: &linked,
    });
    let link = r#"<a href="flamegraph/a.svg">Flame graph</a>"#;
    assert!(section(&html, &bench_id(0)).contains(link));
    assert_eq!(html.matches(link).count(), 1);
}

#[test]
fn a_rare_allocation_keeps_its_digits_on_the_page_as_in_the_terminal() {
    // A `Vec` of u64 pushed once a call reallocates every few thousand
    // calls: two decimals would print 0.00, as if it never did.
    let mut results = results();
    let index = results.iter().position(|r| r.measured().is_some()).unwrap();
    if let crate::results::Outcome::Measured(m) = &mut results[index].outcome {
        m.harness_allocations = crate::instruments::AllocRates::default();
        m.extras.samples = 10;
        m.extras.iterations = 40_960;
        m.extras.allocations = Some(bench_runtime::counter::alloc::AllocCounts {
            allocations: 1,
            deallocations: 1,
            reallocations: 20,
            bytes_allocated: 3_200_000,
            ..Default::default()
        });
    }
    let html = page_of(&results);
    let text = section(&html, &bench_id(index));
    assert!(
        text.contains("0.000024 allocs · 0.000024 deallocs · 0.00049 reallocs · 78.12 bytes"),
        "{text}"
    );
}
