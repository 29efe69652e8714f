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
}

const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 150.0;

/// A small chart of `points` in the order given (oldest first): each run's
/// headline and interval, a line through the headlines, change points
/// ringed and labelled with their commit. `None` without points.
#[cfg_attr(not(test), allow(dead_code))] // wired to the history module after merge
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
    let label = |i: f64| {
        let i = i.round();
        points
            .get(i as usize)
            .filter(|_| i >= 0.0 && (i - i.round()).abs() < 1e-9)
            .map(|p| p.commit.chars().take(7).collect())
            .unwrap_or_default()
    };
    chart.frame(label, time, "run (commit)", "time");
    chart.line(
        points
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64, p.headline)),
        "trend",
    );
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
                if p.is_change_point { " · change point" } else { "" }
            )),
            if p.is_change_point { 5 } else { 3 },
        ));
        if p.is_change_point {
            chart.label(
                x,
                a.min(b) - 4.0,
                &format!("step at {}", p.commit),
                "middle",
            );
        }
    }
    Some(chart.finish(&format!("{} over {} runs", points[0].name, points.len())))
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
        }
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
        assert!(svg.contains("· change point"), "the hover title says so");
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
