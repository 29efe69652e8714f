//! The HTML report: one self-contained page per bench target (inline SVG
//! and CSS, no script, no external URL), and an index of the targets
//! beside it. It formats the result model like every other reporter and
//! computes no statistic; the charts are drawn by [`svg`], a small kit of
//! our own (see docs/ARCHITECTURE.md for why not `plotters`).
//!
//! Layout under the report directory (`target/bench-harness/report/`, or
//! `--report DIR`): `index.html` lists the targets, `TARGET/index.html` is
//! one target's report, rewritten by each of its measured runs.

mod bench;
mod charts;
mod compare;
pub(crate) mod flamegraph;
mod svg;
pub(crate) mod trend;

use std::fmt::Write;
use std::io;
use std::path::{Path, PathBuf};

use svg::escape;

use crate::analysis::outliers::Fences;
use crate::audit;
use crate::document::Document;
use crate::environment::Environment;
use crate::fs;
use crate::report::format::{
    compared_words, group_verdict, overhead_words, percent, result_rate, schedule_words,
    stop_words, time, what_the_interval_covers, Headline, HEADLINE_METHOD,
};
use crate::results::comparison::GROUP_NOISE_THRESHOLD;
use crate::results::{against::AgainstOutcome, against::AgainstReport};
use crate::results::{BenchResult, Compared, ComplexityReport, GroupReport, RunInfo};
use charts::IntervalRow;
pub(crate) use trend::HistoryPoint;

/// Everything one target's page is made of.
#[derive(Debug)]
pub(crate) struct Page<'a> {
    /// The bench target (`suite`).
    pub(crate) target: &'a str,
    pub(crate) environment: &'a Environment,
    pub(crate) info: &'a RunInfo,
    pub(crate) results: &'a [BenchResult],
    pub(crate) complexity: &'a [ComplexityReport],
    pub(crate) groups: &'a [GroupReport],
    pub(crate) baseline: Option<Baseline<'a>>,
    /// Each benchmark's runs from the history (oldest first, this run
    /// last), one list per benchmark, sorted by name; empty without a
    /// history.
    pub(crate) history: &'a [Vec<HistoryPoint>],
    /// Benchmarks with a flame graph beside the page (`--flamegraph`):
    /// (name, its path relative to the page).
    pub(crate) flamegraphs: &'a [(String, String)],
}

/// The saved baseline this run was compared with.
#[derive(Debug)]
pub(crate) struct Baseline<'a> {
    pub(crate) name: &'a str,
    pub(crate) document: &'a Document,
    /// The noise threshold in force (widened by the machine's change).
    pub(crate) threshold: f64,
}

impl Baseline<'_> {
    /// The baseline's per-iteration times of benchmark `name`, its loop
    /// overhead taken out as it was then, and its Tukey fences.
    fn per_iter(&self, name: &str) -> Option<(Vec<f64>, Fences)> {
        let record = self.document.benchmark(name)?.measurement.as_ref()?;
        let overhead = record.overhead(self.document.methodology.overhead.overhead());
        let f = &record.outliers.fences;
        let fences = Fences {
            q1: f.q1_ns,
            q3: f.q3_ns,
            lower_outer: f.lower_outer_ns,
            lower_inner: f.lower_inner_ns,
            upper_inner: f.upper_inner_ns,
            upper_outer: f.upper_outer_ns,
        };
        let per_iter = record
            .raw()
            .samples
            .iter()
            .map(|s| overhead.corrected_per_iter(s))
            .collect();
        Some((per_iter, fences))
    }
}

/// Where the report goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// A report directory: `DIR/TARGET/index.html` and the targets'
    /// `DIR/index.html`.
    Directory(PathBuf),
    /// One file (a `--report` path ending in `.html`): this target's page
    /// alone.
    File(PathBuf),
}

impl Place {
    /// `--report PATH`: a file when it ends in `.html`, else a directory.
    pub(crate) fn of(path: PathBuf) -> Place {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
        {
            Place::File(path)
        } else {
            Place::Directory(path)
        }
    }
}

/// Writes `page` (and, for a directory, the index of targets) atomically;
/// returns the page's path.
pub(crate) fn write(place: &Place, target: &str, html: &str) -> io::Result<PathBuf> {
    match place {
        Place::File(path) => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)?;
            }
            fs::write_atomically(path, html.as_bytes())?;
            Ok(path.clone())
        }
        Place::Directory(dir) => {
            let page = dir.join(target_dir_name(target)).join("index.html");
            std::fs::create_dir_all(page.parent().unwrap_or(dir))?;
            fs::write_atomically(&page, html.as_bytes())?;
            fs::write_atomically(&dir.join("index.html"), targets_index(dir).as_bytes())?;
            Ok(page)
        }
    }
}

/// A target's directory name: its name with anything but letters, digits,
/// `-`, `_` and `.` replaced (a target name comes from a file name).
fn target_dir_name(target: &str) -> String {
    let name: String = target
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "bench".to_string()
    } else {
        name
    }
}

/// The index of the targets whose reports are in `dir`.
fn targets_index(dir: &Path) -> String {
    let mut targets: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().join("index.html").is_file())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    targets.sort();
    let mut out = head("bench-harness reports");
    out.push_str("<h1>bench-harness reports</h1><p>One report per bench target, rewritten by each measured run.</p><ul class=\"targets\">");
    for target in &targets {
        let _ = write!(
            out,
            r#"<li><a href="{0}/index.html">{0}</a></li>"#,
            escape(target)
        );
    }
    out.push_str("</ul></body></html>\n");
    out
}

/// One target's page.
pub(crate) fn render(page: &Page<'_>) -> String {
    let mut out = head(&format!("{} · bench-harness report", page.target));
    let e = page.environment;
    let _ = write!(
        out,
        r#"<header><h1>{}</h1><p class="muted">bench-harness {} · run started {}{}</p></header>"#,
        escape(page.target),
        escape(&e.harness_version),
        escape(&e.timestamp),
        if page.info.partial {
            r#" · <b class="warn">interrupted: partial results</b>"#
        } else {
            ""
        }
    );
    summary_table(&mut out, page);
    machine_and_method(&mut out, page);
    if !page.groups.is_empty() {
        groups(&mut out, page.groups, page.results);
    }
    out.push_str(&compare::sizes_section(page.results));
    if !page.complexity.is_empty() {
        complexity(&mut out, page.complexity);
    }
    for (i, result) in page.results.iter().enumerate() {
        let history = history_of(page.history, &result.name);
        bench::section(
            &mut out,
            &bench_id(i),
            result,
            page.baseline.as_ref(),
            history,
            flamegraph_of(page.flamegraphs, &result.name),
        );
    }
    out.push_str("</body></html>\n");
    out
}

/// The flame graph of benchmark `name`, relative to the page, if any.
fn flamegraph_of<'a>(flamegraphs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    flamegraphs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, href)| href.as_str())
}

/// The runs of benchmark `name` in `history` (sorted by name), if any.
fn history_of<'a>(history: &'a [Vec<HistoryPoint>], name: &str) -> &'a [HistoryPoint] {
    history
        .binary_search_by(|points| points.first().map_or("", |p| p.name.as_str()).cmp(name))
        .map_or(&[][..], |i| &history[i])
}

fn bench_id(index: usize) -> String {
    format!("bench-{index}")
}

/// The compact table of the terminal, each name a link to its section.
fn summary_table(out: &mut String, page: &Page<'_>) {
    let with_rates = page.results.iter().any(|r| r.rate().is_some());
    let with_changes = page.baseline.is_some();
    let with_history = page.history.iter().any(|points| points.len() >= 2);
    out.push_str(r#"<section id="summary"><h2>Summary</h2><table class="summary"><thead><tr><th>benchmark</th><th>time</th><th>±</th>"#);
    if with_rates {
        out.push_str("<th>throughput</th>");
    }
    if with_changes {
        let _ = write!(
            out,
            "<th>change vs '{}'</th><th>verdict</th>",
            escape(page.baseline.as_ref().map_or("", |b| b.name))
        );
    }
    if with_history {
        out.push_str("<th>history</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for (i, result) in page.results.iter().enumerate() {
        let _ = write!(
            out,
            r##"<tr><td class="name"><a href="#{}">{}</a></td>"##,
            bench_id(i),
            escape(&result.name)
        );
        match result.measured() {
            Some(m) => {
                let headline = Headline::of(m);
                let warn = !m.reliable() || headline.is_bound();
                let _ = write!(
                    out,
                    r#"<td class="num{}">{}</td><td class="num">{}</td>"#,
                    if warn { " warn" } else { "" },
                    escape(&headline.time()),
                    headline.plus_minus().unwrap_or_else(|| "-".to_string())
                );
            }
            None => {
                let what = match &result.outcome {
                    crate::results::Outcome::Failed(_) => "FAILED",
                    crate::results::Outcome::Ignored => "ignored",
                    _ => "ran once",
                };
                let _ = write!(out, r#"<td colspan="2">{what}</td>"#);
            }
        }
        if with_rates {
            let rate = result_rate(result).unwrap_or_default();
            let _ = write!(out, r#"<td class="num">{}</td>"#, escape(&rate));
        }
        if with_changes {
            match &result.comparison {
                Some(Compared::Against(c)) => match &c.ratio {
                    Some(r) => {
                        let _ = write!(
                            out,
                            r#"<td class="num">{} [{}, {}]</td><td class="{}">{}</td>"#,
                            bench::signed_percent(r.change),
                            bench::signed_percent(r.change_interval.0),
                            bench::signed_percent(r.change_interval.1),
                            bench::verdict_class(r.verdict),
                            escape(&compared_words(c, r)),
                        );
                    }
                    None => out.push_str("<td></td><td>too fast to compare</td>"),
                },
                Some(Compared::New) => out.push_str("<td>new</td><td></td>"),
                None => out.push_str("<td></td><td></td>"),
            }
        }
        if with_history {
            let points = history_of(page.history, &result.name);
            let _ = write!(
                out,
                "<td>{}</td>",
                trend::sparkline(points).unwrap_or_default()
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></section>");
}

/// The machine (the terminal's header and warnings) and the method.
fn machine_and_method(out: &mut String, page: &Page<'_>) {
    let info = page.info;
    let (covers, _) = what_the_interval_covers(info);
    let _ = write!(
        out,
        r#"<section id="machine"><h2>Machine and method</h2><p>{}</p>"#,
        escape(&audit::header(page.environment))
    );
    let warnings = audit::audit(page.environment);
    if !warnings.is_empty() {
        out.push_str(r#"<ul class="notes">"#);
        for w in &warnings {
            let _ = write!(
                out,
                r#"<li{}>{}</li>"#,
                if w.loud { r#" class="warn""# } else { "" },
                escape(&w.message)
            );
        }
        out.push_str("</ul>");
    }
    let _ = write!(
        out,
        "<p>Timer {} at {:.3} GHz · resolution {} · read pair {} · samples ≥ {}. Time: the \
         {HEADLINE_METHOD}, ± its 95% CI {}; {}; {}, {}.</p></section>",
        escape(info.clock_name),
        info.clock_hz / 1e9,
        time(info.precision.resolution.0),
        time(info.precision.overhead.0),
        time(info.sample_floor.0),
        escape(&covers),
        escape(&overhead_words(info)),
        escape(&schedule_words(info)),
        escape(&stop_words(info)),
    );
}

/// In-run A/B groups: the members side by side and a ratio chart each.
fn groups(out: &mut String, groups: &[GroupReport], results: &[BenchResult]) {
    out.push_str(r#"<section id="groups"><h2>A/B groups</h2>"#);
    let threshold = GROUP_NOISE_THRESHOLD;
    for group in groups {
        let rows: Vec<IntervalRow> = group
            .members
            .iter()
            .filter_map(|(name, paired)| {
                let p = paired.as_ref().ok()?;
                Some(IntervalRow {
                    name: name.clone(),
                    value: p.ratio,
                    interval: p.ratio_interval,
                    class: bench::verdict_class(group_verdict(p).0),
                })
            })
            .collect();
        let _ = write!(
            out,
            "<h3>group {} · each member / {} (slices paired round by round)</h3>",
            escape(&group.group),
            escape(&group.baseline)
        );
        if let Some(chart) = compare::group_members(group, results) {
            let _ = write!(
                out,
                "<figure>{chart}<figcaption>Each member's samples, time per iteration: the box \
                 from the first to the third quartile, the median across it, whiskers to the \
                 last samples within the Tukey fences; the dot and the line under the box are \
                 its time and 95% CI; above, its ratio to {} and the verdict.</figcaption>\
                 </figure>",
                escape(&group.baseline)
            );
        }
        if !rows.is_empty() {
            out.push_str("<figure>");
            out.push_str(&charts::intervals(
                &rows,
                1.0,
                Some((1.0 / (1.0 + threshold), 1.0 + threshold)),
                &|r| format!("{r:.3}×"),
                "member / baseline time, 95% CI, noise band shaded",
            ));
            let _ = write!(
                out,
                "<figcaption>Ratio of each member's time to the baseline member's, with its 95% \
                 CI; the noise band is ±{}: a CI wholly beyond it is a difference, one wholly \
                 inside it none, any other unclear.</figcaption></figure>",
                percent(threshold)
            );
        }
        out.push_str(r#"<table class="facts">"#);
        for (name, paired) in &group.members {
            let text = match paired {
                Ok(p) => format!(
                    "{:.4} [{:.4}, {:.4}] over {} rounds: {}",
                    p.ratio,
                    p.ratio_interval.0,
                    p.ratio_interval.1,
                    p.rounds,
                    group_verdict(p).1
                ),
                Err(why) => format!("no comparison: {why}"),
            };
            let _ = write!(
                out,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape(name),
                escape(&text)
            );
        }
        out.push_str("</table>");
    }
    out.push_str("</section>");
}

/// The complexity fits: time against n, log–log, with the curve.
fn complexity(out: &mut String, reports: &[ComplexityReport]) {
    out.push_str(r#"<section id="complexity"><h2>Complexity</h2>"#);
    for report in reports {
        let _ = write!(
            out,
            "<h3>{}</h3><figure>{}<figcaption>{}</figcaption></figure>",
            escape(&report.function),
            charts::complexity(&report.points, report.fit.as_ref().ok()),
            escape(&match &report.fit {
                Ok(fit) => fit.describe(),
                Err(why) => format!("no fit: {why}"),
            })
        );
    }
    out.push_str("</section>");
}

/// `--against`'s page: the ratio of each benchmark's time in this build to
/// the other's, with intervals and the noise band.
pub(crate) fn render_against(
    target: &str,
    environment: &Environment,
    report: &AgainstReport,
) -> String {
    let mut out = head(&format!(
        "{target} against {} · bench-harness report",
        report.baseline
    ));
    let _ = write!(
        out,
        r#"<header><h1>{} against {}</h1><p class="muted">bench-harness {} · run started {} · {}{}</p></header>"#,
        escape(target),
        escape(&report.baseline),
        escape(&environment.harness_version),
        escape(&environment.timestamp),
        escape(&audit::header(environment)),
        if report.partial {
            r#" · <b class="warn">interrupted: partial results</b>"#
        } else {
            ""
        },
    );
    let rows: Vec<IntervalRow> = report
        .rows
        .iter()
        .filter_map(|row| match &row.outcome {
            AgainstOutcome::Compared(p) => Some(IntervalRow {
                name: row.name.clone(),
                value: p.comparison.ratio,
                interval: p.comparison.ratio_interval,
                class: bench::verdict_class(p.verdict),
            }),
            _ => None,
        })
        .collect();
    let band = (
        1.0 / (1.0 + report.noise_threshold),
        1.0 + report.noise_threshold,
    );
    out.push_str(r#"<section id="against"><h2>This build / that build</h2>"#);
    if !rows.is_empty() {
        let _ = write!(
            out,
            "<figure>{}<figcaption>Each benchmark's time in this build over the other's, slices \
             paired round by round (ABBA), with its 95% CI; the shaded band is the noise \
             threshold (±{}).</figcaption></figure>",
            charts::intervals(
                &rows,
                1.0,
                Some(band),
                &|r| format!("{r:.3}×"),
                "this / that, 95% CI"
            ),
            percent(report.noise_threshold)
        );
    }
    out.push_str(r#"<table class="facts">"#);
    for row in &report.rows {
        let text = match &row.outcome {
            AgainstOutcome::Compared(p) => format!(
                "{:.4} [{:.4}, {:.4}] · {} vs {} · {} rounds: {}",
                p.comparison.ratio,
                p.comparison.ratio_interval.0,
                p.comparison.ratio_interval.1,
                time(p.new_ns),
                time(p.old_ns),
                p.comparison.rounds,
                crate::report::format::verdict_words(p.verdict, p.comparison.largest_change())
            ),
            AgainstOutcome::New => "in this build only".to_string(),
            AgainstOutcome::Gone => "in the other build only".to_string(),
            AgainstOutcome::Failed(why) => format!("failed: {why}"),
            AgainstOutcome::TooFast { new_ns, old_ns, .. } => {
                crate::report::format::too_fast_to_compare(
                    ("this build", *new_ns),
                    ("that build", *old_ns),
                )
            }
        };
        let _ = write!(
            out,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(&row.name),
            escape(&text)
        );
    }
    out.push_str("</table></section></body></html>\n");
    out
}

/// The document's head with the style sheet, and the body's opening.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n",
        escape(title)
    )
}

/// The one style sheet: system fonts only, colours for the charts' classes.
const STYLE: &str = "\
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d2433;background:#fff;margin:0 auto;max-width:1180px;padding:12px 20px 40px}\
h1{font-size:22px;margin:8px 0 2px}h2{font-size:17px;margin:0 0 6px}h3{font-size:14px;margin:14px 0 4px}\
a{color:#1a5fb4;text-decoration:none}a:hover{text-decoration:underline}\
section{border-top:1px solid #dde1e8;padding:14px 0 6px}\
.muted{color:#6b7280}.warn{color:#b45309}.group{font-weight:normal;color:#6b7280;font-size:13px}\
.slower{color:#c01c28;font-weight:600}.faster{color:#26a269;font-weight:600}.same{color:#4b5563}\
.failed{color:#c01c28}\
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}\
table.summary td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
table.summary tbody tr:nth-child(odd){background:#f5f7fa}table.summary th{border-bottom:1px solid #c9ced6}\
td.name{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px}\
table.facts th{font-weight:600;color:#4b5563;white-space:nowrap}table.facts{font-size:13px;margin-top:6px}\
.headline{font-size:15px;margin:2px 0 6px}\
.plots{display:flex;flex-wrap:wrap;gap:8px 18px}figure{margin:0}figcaption{font-size:12px;color:#4b5563;max-width:560px}\
ul.notes{margin:6px 0;padding-left:20px;font-size:13px;color:#92400e}\
svg.chart{display:block;background:#fff;font:11px system-ui,sans-serif}\
svg .grid{stroke:#eceff3;stroke-width:1}svg .frame{fill:none;stroke:#9aa3af;stroke-width:1}\
svg .tick{fill:#4b5563}svg .axis{fill:#374151}svg .label{fill:#111827;font-size:10px}svg .cdf{fill:#7c3aed}\
svg .bar{fill:#7aa7e0}svg .bar.outlier{fill:#e66100}\
svg path.cdf{fill:none;stroke:#7c3aed;stroke-width:1.5}svg circle.pct{fill:#7c3aed}\
svg .ci{fill:#2e7d32;fill-opacity:.09}svg .headline{stroke:#2e7d32;stroke-width:2;fill:none}\
svg .old-headline{stroke:#6b7280;stroke-width:2;stroke-dasharray:5 3}\
svg .fence{stroke:#e66100;stroke-width:1;stroke-dasharray:3 3}\
svg .slice{stroke:#c9ced6;stroke-width:1}svg .block{stroke:#1d2433;stroke-width:2}\
svg .warm{fill:#fde68a;fill-opacity:.55}svg .warm.unsettled{fill:#fca5a5}\
svg .sample{fill:none;stroke:#1a5fb4;stroke-width:3;stroke-linecap:round;stroke-opacity:.6}\
svg .sample.outlier{stroke:#e66100;stroke-opacity:.9}svg .sample.big{stroke-width:7;stroke-opacity:1}\
svg .old{fill:none;stroke:#6b7280;stroke-width:1.5}svg .new{fill:none;stroke:#1a5fb4;stroke-width:2}\
svg .noise{fill:#9ca3af;fill-opacity:.25}svg .reference{stroke:#374151;stroke-width:1}\
svg .whisker{stroke:#374151;stroke-width:2}svg .point{fill:#374151}\
svg .whisker.slower,svg .point.slower{stroke:#c01c28;fill:#c01c28}svg .whisker.faster,svg .point.faster{stroke:#26a269;fill:#26a269}\
svg .fit{fill:none;stroke:#c01c28;stroke-width:1.5}\
svg .box{fill:#7aa7e0;fill-opacity:.45;stroke:#1a5fb4;stroke-width:1}svg .median{stroke:#1d2433;stroke-width:2}\
svg .trend{fill:none;stroke:#1a5fb4;stroke-width:1.5}svg.spark{vertical-align:middle}svg.spark .trend{stroke-width:1.2}svg.spark .change{fill:#c01c28}svg .run .point{fill:#1a5fb4}svg .change .point{fill:#c01c28}svg .change .whisker{stroke:#c01c28}\
";

#[cfg(test)]
mod tests;
