//! Charts that put benchmarks side by side: an A/B group's members, each
//! a box of its samples with its ratio to the baseline member, and a
//! function's `args` sizes, time and throughput against the argument on
//! log axes. Like the rest of the report, they place the model's figures
//! (quartiles, headlines, intervals, ratios) and compute none.

use std::fmt::Write;

use super::svg::{escape, Axis, Chart};
use bench_runtime::Throughput;

use crate::report::format::{group_verdict, rate_in, time};
use crate::results::{BenchResult, GroupReport, Measured};
use crate::settings::BytesUnit;

const WIDE: f64 = 560.0;
const TALL: f64 = 240.0;
/// A member's band in the group chart: its label line, then its box, then
/// its time with the CI.
const ROW: f64 = 54.0;
/// About how wide a character of the charts' 11 px text is.
const CHAR_PX: f64 = 6.4;

/// One member of a group chart.
struct MemberBox {
    /// `name · time · ratio`, written above the box.
    text: String,
    /// The whiskers' ends: the most extreme samples within the inner fences.
    whiskers: (f64, f64),
    quartiles: (f64, f64),
    median: f64,
    headline: f64,
    interval: Option<(f64, f64)>,
    /// CSS class: `slower`, `faster` or `same`.
    class: &'static str,
}

impl MemberBox {
    fn of(m: &Measured, text: String, class: &'static str) -> MemberBox {
        let f = &m.outliers.fences;
        let within = m
            .per_iter
            .iter()
            .copied()
            .filter(|t| (f.lower_inner..=f.upper_inner).contains(t));
        let (low, high) = within.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
            (lo.min(t), hi.max(t))
        });
        let whiskers = if low <= high {
            (low, high)
        } else {
            (f.q1, f.q3)
        };
        MemberBox {
            text,
            whiskers,
            quartiles: (f.q1, f.q3),
            median: m.summary.median,
            headline: m.headline(),
            interval: m.estimate.interval.map(|i| (i.lower, i.upper)),
            class,
        }
    }
}

/// Group `group`'s members side by side: per member a box of its samples'
/// time per iteration (quartiles, median, whiskers to the last samples
/// within the Tukey fences), its headline with the 95% CI, and above it
/// the member's ratio to the baseline member with the verdict. `None`
/// when no member was measured.
pub(super) fn group_members(group: &GroupReport, results: &[BenchResult]) -> Option<String> {
    let measured = |name: &str| results.iter().find(|r| r.name == name)?.measured();
    let mut boxes = Vec::new();
    if let Some(m) = measured(&group.baseline) {
        let text = format!("{} · {} · baseline", group.baseline, time(m.headline()));
        boxes.push(MemberBox::of(m, text, "same"));
    }
    for (name, paired) in &group.members {
        let Some(m) = measured(name) else { continue };
        let (ratio, class) = match paired {
            Ok(p) => {
                let (verdict, words) = group_verdict(p);
                let (lo, hi) = p.ratio_interval;
                (
                    format!("{:.3}× [{lo:.3}, {hi:.3}] {words}", p.ratio),
                    super::bench::verdict_class(verdict),
                )
            }
            Err(_) => ("no ratio".to_string(), "same"),
        };
        let text = format!("{name} · {} · {ratio}", time(m.headline()));
        boxes.push(MemberBox::of(m, text, class));
    }
    if boxes.is_empty() {
        return None;
    }
    Some(member_boxes(&group.group, &boxes))
}

fn member_boxes(group: &str, boxes: &[MemberBox]) -> String {
    let ends = boxes.iter().flat_map(|b| {
        let interval = b.interval.into_iter().flat_map(|(lo, hi)| [lo, hi]);
        [b.whiskers.0, b.whiskers.1, b.headline]
            .into_iter()
            .chain(interval)
    });
    let (lo, hi) = ends
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    // Room for the longest label inside the plotting area.
    let longest = boxes.iter().map(|b| b.text.chars().count()).max();
    let width = WIDE.max(CHAR_PX * longest.unwrap_or(0) as f64 + 110.0);
    // The frame's margins (14 above, 38 below) and the rows.
    let height = 52.0 + ROW * boxes.len() as f64;
    let x = if lo > 0.0 && hi / lo > 20.0 {
        Axis::log(lo, hi)
    } else {
        Axis::padded(lo, hi, 0.06)
    };
    let mut chart = Chart::new(width, height, x, Axis::linear(0.0, 1.0));
    chart.frame(&time, &|_| String::new(), "time per iteration", "");
    let axis = chart.x_axis();
    let px = |chart: &Chart, v: f64| chart.px(v.clamp(axis.lo(), axis.hi()));
    for (i, b) in boxes.iter().enumerate() {
        // The row's band: the label on its first line, the box below.
        let centre = chart.row_px(i, boxes.len());
        let text_y = centre - 12.0;
        let box_y = centre + 2.0;
        let (w0, w1) = (px(&chart, b.whiskers.0), px(&chart, b.whiskers.1));
        let (q1, q3) = (px(&chart, b.quartiles.0), px(&chart, b.quartiles.1));
        let median = px(&chart, b.median);
        let mut marks = format!(
            r#"<g class="member"><line class="whisker" x1="{w0:.1}" y1="{box_y:.1}" x2="{w1:.1}" y2="{box_y:.1}"/><rect class="box" x="{:.1}" y="{:.1}" width="{:.1}" height="14"/><line class="median" x1="{median:.1}" y1="{:.1}" x2="{median:.1}" y2="{:.1}"/>"#,
            q1.min(q3),
            box_y - 7.0,
            (q3 - q1).abs().max(1.0),
            box_y - 7.0,
            box_y + 7.0,
        );
        if let Some((a, c)) = b.interval {
            let (a, c) = (px(&chart, a), px(&chart, c));
            let _ = write!(
                marks,
                r#"<line class="whisker {cls}" x1="{a:.1}" y1="{y:.1}" x2="{c:.1}" y2="{y:.1}"/>"#,
                cls = b.class,
                y = box_y + 14.0
            );
        }
        let _ = write!(
            marks,
            r#"<circle class="point {}" cx="{:.1}" cy="{:.1}" r="3.5"/></g>"#,
            b.class,
            px(&chart, b.headline),
            box_y + 14.0
        );
        chart.raw(&marks);
        let left = chart.px(axis.lo());
        chart.label(left + 4.0, text_y, &b.text, "start");
    }
    chart.finish(&format!("members of group {group} side by side"))
}

/// One measured size of a function: its argument, time and rate.
struct Size {
    n: f64,
    headline: f64,
    interval: Option<(f64, f64)>,
    rate: Option<f64>,
}

/// How a function's rates are written: its kind of work and byte unit.
type RateUnit = (Throughput, BytesUnit);

/// Each function with two or more numeric `args` measured, in the results'
/// order: its name (without the argument), its sizes and how its rates
/// read.
fn functions_with_sizes(results: &[BenchResult]) -> Vec<(String, Vec<Size>, Option<RateUnit>)> {
    let mut functions: Vec<(String, Vec<Size>, Option<RateUnit>)> = Vec::new();
    for result in results {
        let Some(arg) = result.arg.as_deref() else {
            continue;
        };
        let (Ok(n), Some(m)) = (arg.parse::<f64>(), result.measured()) else {
            continue;
        };
        let Some(function) = result
            .name
            .strip_suffix(arg)
            .and_then(|f| f.strip_suffix('/'))
        else {
            continue;
        };
        let size = Size {
            n,
            headline: m.headline(),
            interval: m.estimate.interval.map(|i| (i.lower, i.upper)),
            rate: result.rate().map(|(_, rate)| rate),
        };
        let unit = result.throughput.map(|t| (t, result.bytes_unit));
        match functions.iter_mut().find(|(name, _, _)| name == function) {
            Some((_, sizes, _)) => sizes.push(size),
            None => functions.push((function.to_string(), vec![size], unit)),
        }
    }
    functions.retain(|(_, sizes, _)| sizes.len() >= 2);
    functions
}

/// The "Sizes" section: for each function with two or more numeric `args`
/// (with or without `complexity`), its time against the argument on
/// log–log axes with each time's 95% CI, and its throughput the same way
/// when it has one. Empty when no function has sizes.
pub(super) fn sizes_section(results: &[BenchResult]) -> String {
    let functions = functions_with_sizes(results);
    if functions.is_empty() {
        return String::new();
    }
    let mut out = String::from(r#"<section id="sizes"><h2>Sizes</h2>"#);
    for (function, sizes, unit) in &functions {
        let _ = write!(
            out,
            r#"<h3>{}</h3><div class="plots"><figure>{}<figcaption>Time per iteration against the argument, both on log scales, each with its 95% CI.</figcaption></figure>"#,
            escape(function),
            time_chart(function, sizes)
        );
        if let Some(unit) = unit.filter(|_| sizes.iter().any(|s| s.rate.is_some())) {
            let _ = write!(
                out,
                "<figure>{}<figcaption>Throughput against the argument, both on log \
                 scales.</figcaption></figure>",
                rate_chart(function, sizes, unit)
            );
        }
        out.push_str("</div>");
    }
    out.push_str("</section>");
    out
}

/// The tick label of an argument: `64`, `4096`, `1e6`.
fn argument(n: f64) -> String {
    if n >= 1e6 {
        format!("{n:e}")
    } else {
        format!("{n}")
    }
}

fn time_chart(function: &str, sizes: &[Size]) -> String {
    let positive: Vec<&Size> = sizes.iter().filter(|s| s.n > 0.0).collect();
    let (n_lo, n_hi) = range(positive.iter().map(|s| s.n));
    let times = positive.iter().flat_map(|s| {
        let interval = s.interval.into_iter().flat_map(|(lo, hi)| [lo, hi]);
        std::iter::once(s.headline).chain(interval)
    });
    let (t_lo, t_hi) = range(times.filter(|t| *t > 0.0));
    let mut chart = Chart::new(WIDE, TALL, Axis::log(n_lo, n_hi), Axis::log(t_lo, t_hi));
    chart.frame(&argument, &time, "argument (log scale)", "time (log scale)");
    let drawn: Vec<(f64, f64)> = positive
        .iter()
        .filter(|s| s.headline > 0.0)
        .map(|s| (s.n, s.headline))
        .collect();
    chart.line(&drawn, "trend");
    let y = chart.y_axis();
    for s in &positive {
        if let Some((lo, hi)) = s.interval {
            let (px, a, b) = (
                chart.px(s.n),
                chart.py(lo.max(y.lo())),
                chart.py(hi.min(y.hi())),
            );
            chart.raw(&format!(
                r#"<line class="whisker" x1="{px:.1}" y1="{a:.1}" x2="{px:.1}" y2="{b:.1}"/>"#
            ));
        }
    }
    chart.dots(drawn, "sample big");
    chart.finish(&format!("time against the argument of {function}, log–log"))
}

fn rate_chart(function: &str, sizes: &[Size], (throughput, bytes): RateUnit) -> String {
    let points: Vec<(f64, f64)> = sizes
        .iter()
        .filter_map(|s| Some((s.n, s.rate?)))
        .filter(|&(n, r)| n > 0.0 && r > 0.0)
        .collect();
    let (n_lo, n_hi) = range(points.iter().map(|p| p.0));
    let (r_lo, r_hi) = range(points.iter().map(|p| p.1));
    let mut chart = Chart::new(WIDE, TALL, Axis::log(n_lo, n_hi), Axis::log(r_lo, r_hi));
    let scale = |r: f64| rate_in(throughput, r, bytes);
    chart.frame(
        &argument,
        &scale,
        "argument (log scale)",
        "throughput (log scale)",
    );
    chart.line(&points, "trend");
    chart.dots(points, "sample big");
    chart.finish(&format!(
        "throughput against the argument of {function}, log–log"
    ))
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}
