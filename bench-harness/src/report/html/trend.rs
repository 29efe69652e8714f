//! A benchmark's history as a small trend: one point per run with its
//! interval, commits labelled, change points marked. It takes plain
//! points so that the history module can feed it whatever it stores.

use super::svg::{escape, Axis, Chart};
use crate::report::format::time;

/// One run of one benchmark, as the history keeps it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HistoryPoint {
    pub(crate) name: String,
    /// The commit measured (short hash), or empty when unknown.
    pub(crate) commit: String,
    /// When the run started, RFC 3339.
    pub(crate) timestamp: String,
    /// The headline time per iteration, ns, and its 95% interval.
    pub(crate) headline: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    /// The history's change-point method marked this run as a step.
    pub(crate) is_change_point: bool,
    /// At a change point, every run of the levels on either side ran the
    /// same machine code: a step of the machine or the layout.
    pub(crate) code_unchanged: bool,
}

const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 150.0;

/// A small chart of `points` in the order given (oldest first): each run's
/// headline and interval, a line through the headlines, change points
/// ringed and labelled with their commit. `None` without points.
pub(crate) fn trend(points: &[HistoryPoint]) -> Option<String> {
    if points.is_empty() {
        return None;
    }
    let values = points
        .iter()
        .flat_map(|p| [p.headline, p.lo, p.hi])
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let last = (points.len() - 1).max(1) as f64;
    let mut chart = Chart::new(
        WIDTH,
        HEIGHT,
        Axis::padded(0.0, last, 0.04),
        Axis::padded(lo, hi, 0.1),
    );
    // Only ticks that fall on a run are labelled with its commit.
    let label = |tick: f64| {
        let i = tick.round();
        points
            .get(i as usize)
            .filter(|_| i >= 0.0 && (tick - i).abs() < 1e-9)
            .map(|p| p.commit.chars().take(7).collect())
            .unwrap_or_default()
    };
    chart.frame(&label, &time, "run (commit)", "time");
    let headlines: Vec<(f64, f64)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64, p.headline))
        .collect();
    chart.line(&headlines, "trend");
    for (i, p) in points.iter().enumerate() {
        let x = chart.px(i as f64);
        let (a, b, y) = (chart.py(p.lo), chart.py(p.hi), chart.py(p.headline));
        let class = if p.is_change_point { "change" } else { "run" };
        chart.raw(&format!(
            r#"<g class="{class}"><title>{}</title><line class="whisker" x1="{x:.1}" y1="{a:.1}" x2="{x:.1}" y2="{b:.1}"/><circle class="point" cx="{x:.1}" cy="{y:.1}" r="{}"/></g>"#,
            escape(&format!(
                "{} {} {}: {} [{}, {}]{}",
                p.name,
                p.commit,
                p.timestamp,
                time(p.headline),
                time(p.lo),
                time(p.hi),
                match (p.is_change_point, p.code_unchanged) {
                    (true, true) => " · change point, code unchanged: a step of the machine \
                                     or the layout",
                    (true, false) => " · change point",
                    _ => "",
                }
            )),
            if p.is_change_point { 5 } else { 3 },
        ));
        if p.is_change_point {
            chart.label(
                x,
                a.min(b) - 4.0,
                &format!(
                    "{} at {}",
                    if p.code_unchanged {
                        "same-code step"
                    } else {
                        "step"
                    },
                    p.commit.chars().take(7).collect::<String>()
                ),
                "middle",
            );
        }
    }
    Some(chart.finish(&format!("{} over {} runs", points[0].name, points.len())))
}

/// A sparkline of `points` for the summary table: the headlines as a line
/// in an 90×20 box, change points as red dots; `None` under two points.
pub(crate) fn sparkline(points: &[HistoryPoint]) -> Option<String> {
    const W: f64 = 90.0;
    const H: f64 = 20.0;
    if points.len() < 2 {
        return None;
    }
    let values: Vec<f64> = points.iter().map(|p| p.headline).collect();
    let (lo, hi) = values
        .iter()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return None;
    }
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x = |i: usize| 2.0 + (W - 4.0) * i as f64 / (points.len() - 1) as f64;
    let y = |v: f64| H - 2.0 - (H - 4.0) * (v - lo) / span;
    let mut path = String::new();
    for (i, &v) in values.iter().enumerate() {
        path.push_str(&format!(
            "{}{:.1} {:.1}",
            if i == 0 { "M" } else { "L" },
            x(i),
            y(v)
        ));
    }
    let dots: String = points
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_change_point)
        .map(|(i, p)| {
            format!(
                r#"<circle class="change" cx="{:.1}" cy="{:.1}" r="2.5"/>"#,
                x(i),
                y(p.headline)
            )
        })
        .collect();
    let last = &points[points.len() - 1];
    Some(format!(
        r#"<svg class="spark" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img"><title>{}</title><path class="trend" d="{path}"/>{dots}</svg>"#,
        escape(&format!(
            "{} runs, {} to {}",
            points.len(),
            time(lo),
            time(hi)
        )) + &if last.is_change_point {
            " · the last run is a change point".to_string()
        } else {
            String::new()
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(i: usize, headline: f64, change: bool) -> HistoryPoint {
        HistoryPoint {
            name: "sort/1000".into(),
            commit: format!("c0ffee{i}"),
            timestamp: format!("2026-11-23T10:{i:02}:00Z"),
            headline,
            lo: headline * 0.99,
            hi: headline * 1.01,
            is_change_point: change,
            code_unchanged: false,
        }
    }

    #[test]
    fn the_sparkline_marks_only_the_change_points() {
        let points: Vec<HistoryPoint> = (0..8)
            .map(|i| point(i, if i < 5 { 100.0 } else { 150.0 }, i == 5))
            .collect();
        let svg = sparkline(&points).expect("a sparkline");
        assert_eq!(svg.matches(r#"<circle class="change""#).count(), 1);
        let path = svg.split(r#"d=""#).nth(1).and_then(|d| d.split('"').next());
        let segments = path.expect("a line").matches('L').count();
        assert_eq!(segments, 7, "one segment per later run");
        assert!(sparkline(&points[..1]).is_none(), "one run is no trend");
    }

    /// A step across runs of one code hash says so, in its label and its
    /// tooltip; one across a change of code does not.
    #[test]
    fn a_same_code_step_is_labelled_a_step_of_the_machine_or_the_layout() {
        let mut points: Vec<HistoryPoint> = (0..10)
            .map(|i| point(i, if i < 6 { 100.0 } else { 130.0 }, i == 6))
            .collect();
        let plain = trend(&points).expect("a chart");
        assert!(!plain.contains("code unchanged"), "{plain}");
        assert!(!plain.contains("same-code step"), "{plain}");
        points[6].code_unchanged = true;
        let same = trend(&points).expect("a chart");
        assert!(same.contains("same-code step at c0ffee6"), "{same}");
        assert!(
            same.contains("change point, code unchanged: a step of the machine or the layout"),
            "{same}"
        );
    }

    #[test]
    fn each_run_is_a_point_and_only_the_step_is_marked() {
        let points: Vec<HistoryPoint> = (0..10)
            .map(|i| point(i, if i < 6 { 100.0 } else { 130.0 }, i == 6))
            .collect();
        let svg = trend(&points).expect("points give a chart");
        assert_eq!(svg.matches(r#"<g class="run">"#).count(), 9);
        assert_eq!(svg.matches(r#"<g class="change">"#).count(), 1);
        assert!(
            svg.contains("step at c0ffee6"),
            "the step's commit is named"
        );
        assert!(svg.contains("c0ffee0"), "commits label the runs");
        let labels = svg.matches(">c0ffee").count();
        assert!(
            labels <= points.len(),
            "{labels} labels for {} runs",
            points.len()
        );
        assert!(svg.contains("· change point"), "the hover title says so");
    }

    #[test]
    fn only_ticks_on_a_run_name_a_commit() {
        let points: Vec<HistoryPoint> = (0..3).map(|i| point(i, 100.0, false)).collect();
        let svg = trend(&points).expect("a chart");
        for i in 0..3 {
            assert_eq!(svg.matches(&format!(">c0ffee{i}<")).count(), 1, "{svg}");
        }
    }

    #[test]
    fn the_steps_are_drawn_in_order_up_and_down() {
        let points: Vec<HistoryPoint> = (0..3)
            .map(|i| point(i, [100.0, 200.0, 100.0][i], false))
            .collect();
        let svg = trend(&points).expect("a chart");
        // The trend line's second vertex is above (smaller y) the first.
        let path = svg
            .split(r#"class="trend" d="M"#)
            .nth(1)
            .expect("a trend line");
        let ys: Vec<f64> = path
            .split(['L', '"'])
            .take(3)
            .map(|xy| {
                xy.split(',')
                    .nth(1)
                    .expect("x,y")
                    .parse()
                    .expect("a number")
            })
            .collect();
        assert!(ys[1] < ys[0] && ys[2] > ys[1], "{ys:?}");
    }

    #[test]
    fn no_points_no_chart_and_one_point_still_draws() {
        assert_eq!(trend(&[]), None);
        let svg = trend(&[point(0, 5.0, false)]).expect("one point draws");
        assert_eq!(svg.matches("<circle").count(), 1);
    }
}
