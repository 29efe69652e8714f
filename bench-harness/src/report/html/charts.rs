//! The report's charts, each from figures the result model holds: the
//! distribution of a benchmark's times, its samples over time, the overlay
//! with a baseline, ratio charts, complexity fits. Nothing here computes a
//! statistic; the only arithmetic is placing marks (bins, sorted values for
//! the CDF, thinning dense series).

use super::svg::{Axis, Chart};
use crate::analysis::complexity::Fit;
use crate::analysis::outliers::Fences;
use crate::report::format::time;

/// Chart sizes, in CSS pixels.
const WIDE: f64 = 560.0;
const TALL: f64 = 240.0;
const BINS: usize = 40;
/// Points a CDF is drawn through.
const CDF_POINTS: usize = 200;
/// Above this many samples, the timeline draws each run of consecutive
/// samples as its fastest and slowest (spikes stay visible).
pub(super) const TIMELINE_POINTS: usize = 1500;

/// The range of times shown: all samples, but a long tail beyond the
/// outer fences is cut at them (those samples are counted at the edge),
/// so that one preempted sample does not squash the rest.
#[derive(Debug, Clone, Copy)]
pub(super) struct TimeRange {
    pub(super) lo: f64,
    pub(super) hi: f64,
    /// Samples beyond `lo` and `hi`, drawn at the edges.
    pub(super) clipped: usize,
}

impl TimeRange {
    pub(super) fn of(values: &[f64], fences: &Fences, keep: &[f64]) -> TimeRange {
        let (min, max) = min_max(values.iter().copied());
        let fenced = fences.lower_outer.is_finite()
            && fences.upper_outer.is_finite()
            && fences.upper_outer > fences.lower_outer;
        let (mut lo, mut hi) = if fenced {
            (min.max(fences.lower_outer), max.min(fences.upper_outer))
        } else {
            (min, max)
        };
        for &k in keep.iter().filter(|k| k.is_finite()) {
            lo = lo.min(k);
            hi = hi.max(k);
        }
        let clipped = values.iter().filter(|&&v| v < lo || v > hi).count();
        TimeRange { lo, hi, clipped }
    }

    fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.lo, self.hi)
    }
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// Counts of `values` in `BINS` equal bins over `range` (values outside
/// it counted in the edge bins).
fn histogram(values: &[f64], range: &TimeRange, bins: usize) -> Vec<usize> {
    let mut counts = vec![0; bins];
    let width = (range.hi - range.lo) / bins as f64;
    for &v in values {
        let i = if width > 0.0 {
            ((range.clamp(v) - range.lo) / width) as usize
        } else {
            0
        };
        counts[i.min(bins - 1)] += 1;
    }
    counts
}

/// What the distribution chart marks.
#[derive(Debug)]
pub(super) struct Distribution<'a> {
    pub(super) per_iter: &'a [f64],
    pub(super) range: TimeRange,
    pub(super) headline: f64,
    pub(super) interval: Option<(f64, f64)>,
    pub(super) fences: Fences,
    /// `(label, value)`: p50 … p99.9.
    pub(super) percentiles: [(&'static str, f64); 5],
}

/// The histogram of per-iteration times with their CDF over it, the
/// percentiles marked on the CDF, the headline and its interval, and the
/// Tukey fences with the bins beyond them drawn as outliers.
pub(super) fn distribution(d: &Distribution<'_>) -> String {
    let counts = histogram(d.per_iter, &d.range, BINS);
    let total = d.per_iter.len().max(1) as f64;
    let top = counts.iter().copied().max().unwrap_or(0) as f64 / total;
    let x = Axis::linear(d.range.lo, d.range.hi);
    let mut chart =
        Chart::new(WIDE, TALL, x, Axis::linear(0.0, top * 1.08)).with_right_margin(52.0);
    chart.frame(
        &time,
        &percent_label,
        "time per iteration",
        "share of samples",
    );
    if let Some((lo, hi)) = d.interval {
        chart.x_band(lo, hi, "ci");
    }
    let width = (d.range.hi - d.range.lo) / BINS as f64;
    for (i, &count) in counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let x0 = d.range.lo + i as f64 * width;
        let centre = x0 + width / 2.0;
        let outlier = centre < d.fences.lower_inner || centre > d.fences.upper_inner;
        chart.rect(
            x0,
            x0 + width,
            0.0,
            count as f64 / total,
            if outlier { "bar outlier" } else { "bar" },
        );
    }
    for fence in [d.fences.lower_inner, d.fences.upper_inner] {
        if fence.is_finite() && fence > d.range.lo && fence < d.range.hi {
            chart.x_rule(fence, "fence", None);
        }
    }
    // The CDF through sorted samples, on a 0–100% axis on the right.
    let mut sorted: Vec<f64> = d
        .per_iter
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    sorted.sort_by(f64::total_cmp);
    let cdf_axis = Axis::linear(0.0, 1.0);
    if !sorted.is_empty() {
        let n = sorted.len();
        let steps = CDF_POINTS.min(n);
        let points = (0..=steps).map(|k| {
            let rank = (k * (n - 1)) / steps.max(1);
            (d.range.clamp(sorted[rank]), (rank + 1) as f64 / n as f64)
        });
        chart.line_on(cdf_axis, points, "cdf");
    }
    chart.right_axis(cdf_axis, &|v| format!("{:.0}%", v * 100.0), "CDF");
    // A CDF level on the chart's own vertical axis (same pixel height).
    let y = chart.y_axis();
    let height = |p: f64| y.lo() + p * (y.hi() - y.lo());
    // p90 … p99.9 crowd the top of the CDF: from the top down, each label
    // sits at least a line below the one above it.
    let mut below = f64::NEG_INFINITY;
    for (i, (label, value)) in d.percentiles.iter().enumerate().rev() {
        if !value.is_finite() {
            continue;
        }
        let level = [0.5, 0.9, 0.95, 0.99, 0.999][i];
        let (px, py) = (chart.px(d.range.clamp(*value)), chart.py(height(level)));
        chart.raw(&format!(
            r#"<circle class="pct" cx="{px:.1}" cy="{py:.1}" r="2.5"/>"#
        ));
        let row = (py + 3.0).max(below + 13.0);
        below = row;
        chart.label(px - 5.0, row, label, "end");
    }
    chart.x_rule(d.headline, "headline", Some("time"));
    chart.finish("distribution of the time per iteration, with its CDF")
}

/// What the timeline chart marks.
#[derive(Debug)]
pub(super) struct Timeline<'a> {
    pub(super) per_iter: &'a [f64],
    /// Each sample's timed length, for the horizontal axis.
    pub(super) elapsed: &'a [f64],
    pub(super) range: TimeRange,
    pub(super) slice_starts: &'a [usize],
    /// When each slice was handed out (first sample index, seconds since
    /// the run's first slice); empty when unknown.
    pub(super) slice_clock: &'a [(usize, f64)],
    /// Where each block begins, and its median.
    pub(super) blocks: Vec<(usize, f64)>,
    pub(super) headline: f64,
    pub(super) interval: Option<(f64, f64)>,
    pub(super) fences: Fences,
    /// The warm-up's length in ns, its discarded samples, and whether it
    /// settled.
    pub(super) warm_up: (f64, usize, bool),
}

/// Where each sample (and the end of the last) sits on the horizontal axis,
/// in ms: on the run's clock when the slices' times are known (a slice's
/// start, plus the timed length of its samples before this one), else on
/// the benchmark's own measuring time from 0.
pub(super) fn sample_times(elapsed: &[f64], slice_clock: &[(usize, f64)]) -> Vec<f64> {
    let mut at = Vec::with_capacity(elapsed.len() + 1);
    let mut clock = 0.0;
    let mut slice = 0;
    for i in 0..=elapsed.len() {
        // The last slice handed out before sample i was recorded.
        let mut next = slice;
        while next < slice_clock.len() && slice_clock[next].0 <= i && i < elapsed.len() {
            next += 1;
        }
        if next > slice {
            clock = slice_clock[next - 1].1 * 1e9;
            slice = next;
        }
        at.push(clock / 1e6);
        if let Some(&e) = elapsed.get(i) {
            clock += e.max(0.0);
        }
    }
    at
}

/// Every sample's time per iteration against when it was taken (the run's
/// clock, or the benchmark's measuring time), slice boundaries, each
/// block's median, the headline with its interval, and the warm-up before
/// the first sample, shaded.
pub(super) fn timeline(t: &Timeline<'_>) -> String {
    let n = t.per_iter.len();
    let at = sample_times(t.elapsed, t.slice_clock);
    let on_run_clock = !t.slice_clock.is_empty();
    let warm = t.warm_up.0 / 1e6;
    let (first, last) = (at[0], at[n]);
    let x = Axis::linear(first - warm, last.max(first + 1e-3));
    let y = Axis::padded(t.range.lo, t.range.hi, 0.04);
    let mut chart = Chart::new(WIDE, TALL, x, y);
    let seconds = last - (first - warm) > 5000.0;
    chart.frame(
        &|ms| {
            if seconds {
                format!("{} s", ms / 1000.0)
            } else {
                format!("{ms} ms")
            }
        },
        &time,
        if on_run_clock {
            "when it was taken, since the run's first slice; warm-up shaded before"
        } else {
            "this benchmark's measuring time; warm-up shaded before"
        },
        "time per iteration",
    );
    if warm > 0.0 {
        // At least a few pixels wide, so that a short warm-up is seen.
        let (a, b) = (chart.px(first - warm), chart.px(first));
        let (top, bottom) = (chart.py(y.hi()), chart.py(y.lo()));
        chart.raw(&format!(
            r#"<rect class="{}" x="{:.1}" y="{top:.1}" width="{:.1}" height="{:.1}"/>"#,
            if t.warm_up.2 {
                "warm"
            } else {
                "warm unsettled"
            },
            a.min(b - 4.0),
            (b - a).max(4.0),
            bottom - top
        ));
        let label = format!(
            "warm-up: {} samples{}",
            t.warm_up.1,
            if t.warm_up.2 { "" } else { ", not settled" }
        );
        let (px, py) = (chart.px(first - warm) + 3.0, chart.py(y.hi()) + 22.0);
        chart.label(px, py, &label, "start");
    }
    if let Some((lo, hi)) = t.interval {
        chart.y_band(lo, hi, "ci");
    }
    for &s in t.slice_starts.iter().filter(|&&s| s > 0 && s < n) {
        chart.x_rule(at[s], "slice", None);
    }
    let outlier = |v: f64| v < t.fences.lower_inner || v > t.fences.upper_inner;
    let clamp = |v: f64| v.clamp(y.lo(), y.hi());
    let (mut normal, mut odd) = (Vec::new(), Vec::new());
    let mut push = |i: usize, v: f64| {
        let point = (at[i], clamp(v));
        if outlier(v) || v != point.1 {
            odd.push(point);
        } else {
            normal.push(point);
        }
    };
    if n <= TIMELINE_POINTS {
        for (i, &v) in t.per_iter.iter().enumerate() {
            push(i, v);
        }
    } else {
        // Thinned: each run of consecutive samples keeps its fastest and
        // slowest, so drift and spikes stay visible.
        let runs = TIMELINE_POINTS / 2;
        for r in 0..runs {
            let (a, b) = (r * n / runs, ((r + 1) * n / runs).max(r * n / runs + 1));
            let run = &t.per_iter[a..b.min(n)];
            let lowest = (0..run.len()).min_by(|&i, &j| run[i].total_cmp(&run[j]));
            let highest = (0..run.len()).max_by(|&i, &j| run[i].total_cmp(&run[j]));
            for i in [lowest, highest].into_iter().flatten() {
                push(a + i, run[i]);
            }
        }
    }
    chart.dots(normal, "sample");
    chart.dots(odd, "sample outlier");
    for (k, &(start, median)) in t.blocks.iter().enumerate() {
        let end = t.blocks.get(k + 1).map_or(n, |b| b.0);
        if start < end && median.is_finite() {
            chart.segment(at[start], at[end], clamp(median), "block");
        }
    }
    chart.segment(x.lo(), x.hi(), clamp(t.headline), "headline");
    chart.finish("each sample's time per iteration in the order taken")
}

/// Two distributions on the same bins: the baseline's and this run's,
/// with both headlines.
pub(super) fn overlay(
    old: &[f64],
    new: &[f64],
    range: TimeRange,
    old_headline: f64,
    new_headline: f64,
) -> String {
    let old_counts = histogram(old, &range, BINS);
    let new_counts = histogram(new, &range, BINS);
    let share = |counts: &[usize], total: usize| -> Vec<f64> {
        counts
            .iter()
            .map(|&c| c as f64 / total.max(1) as f64)
            .collect()
    };
    let (old_shares, new_shares) = (share(&old_counts, old.len()), share(&new_counts, new.len()));
    let top = old_shares
        .iter()
        .chain(&new_shares)
        .copied()
        .fold(0.0, f64::max);
    let mut chart = Chart::new(
        WIDE,
        TALL,
        Axis::linear(range.lo, range.hi),
        Axis::linear(0.0, top * 1.08),
    );
    chart.frame(
        &time,
        &percent_label,
        "time per iteration",
        "share of samples",
    );
    let width = (range.hi - range.lo) / BINS as f64;
    let steps = |shares: &[f64]| -> Vec<(f64, f64)> {
        let mut points = vec![(range.lo, 0.0)];
        for (i, &s) in shares.iter().enumerate() {
            let x0 = range.lo + i as f64 * width;
            points.push((x0, s));
            points.push((x0 + width, s));
        }
        points.push((range.hi, 0.0));
        points
    };
    chart.line(&steps(&old_shares), "old");
    chart.line(&steps(&new_shares), "new");
    chart.x_rule(old_headline, "old-headline", Some("baseline"));
    chart.x_rule(new_headline, "headline", Some("this run"));
    chart.finish("this run's distribution over the baseline's")
}

/// One row of an interval chart: a name, a value and its interval.
#[derive(Debug)]
pub(super) struct IntervalRow {
    pub(super) name: String,
    pub(super) value: f64,
    pub(super) interval: (f64, f64),
    /// CSS class: `slower`, `faster` or `same`.
    pub(super) class: &'static str,
}

/// Values with their intervals, one row each, against a reference line
/// (`reference`: 1 for ratios, 0 for changes) and a noise band around it
/// (`band`, none when empty).
pub(super) fn intervals(
    rows: &[IntervalRow],
    reference: f64,
    band: Option<(f64, f64)>,
    label: &dyn Fn(f64) -> String,
    title: &str,
) -> String {
    let ends = rows
        .iter()
        .flat_map(|r| [r.value, r.interval.0, r.interval.1])
        .chain([reference])
        .chain(band.into_iter().flat_map(|(a, b)| [a, b]))
        .filter(|v| v.is_finite());
    let (lo, hi) = min_max(ends);
    let height = 52.0 + 34.0 * rows.len().max(1) as f64;
    let mut chart = Chart::new(
        WIDE,
        height,
        Axis::padded(lo, hi, 0.08),
        Axis::linear(0.0, 1.0),
    );
    chart.frame(label, &|_| String::new(), title, "");
    if let Some((a, b)) = band {
        chart.x_band(a, b, "noise");
    }
    chart.x_rule(reference, "reference", None);
    let x = chart.x_axis();
    for (i, row) in rows.iter().enumerate() {
        let py = chart.row_px(i, rows.len());
        let clamp = |v: f64| {
            chart.px(if v.is_finite() {
                v.clamp(x.lo(), x.hi())
            } else if v > 0.0 {
                x.hi()
            } else {
                x.lo()
            })
        };
        let (a, b, v) = (
            clamp(row.interval.0),
            clamp(row.interval.1),
            clamp(row.value),
        );
        chart.raw(&format!(
            r#"<line class="whisker {c}" x1="{a:.1}" y1="{py:.1}" x2="{b:.1}" y2="{py:.1}"/><circle class="point {c}" cx="{v:.1}" cy="{py:.1}" r="4"/>"#,
            c = row.class
        ));
        // The name beside the interval, on a side with room for it (about
        // 6 px a character), else above it from the left edge.
        let text = format!("{} {}", row.name, label(row.value));
        let needed = 6.0 * text.chars().count() as f64 + 10.0;
        let (left, right) = (chart.px(x.lo()), chart.px(x.hi()));
        if right - b >= needed {
            chart.label(b + 8.0, py + 4.0, &text, "start");
        } else if a - left >= needed {
            chart.label(a - 8.0, py + 4.0, &text, "end");
        } else {
            chart.label(left + 4.0, py - 9.0, &text, "start");
        }
    }
    chart.finish(title)
}

/// Time against n on log–log axes: the measured points, and the fitted
/// curve `c·g(n)` when the fit names a class ([`Fit::established`]).
pub(super) fn complexity(points: &[(f64, f64)], fit: Option<&Fit>) -> String {
    let positive: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|&(n, t)| n > 0.0 && t > 0.0)
        .collect();
    let (n_lo, n_hi) = min_max(positive.iter().map(|p| p.0));
    let named = fit.and_then(Fit::named);
    let curve: Vec<(f64, f64)> = match named {
        Some(fit) if n_lo.is_finite() => (0..=60)
            .map(|k| {
                let n = n_lo * (n_hi / n_lo).powf(k as f64 / 60.0);
                (n, fit.predict(n))
            })
            .filter(|&(_, t)| t > 0.0 && t.is_finite())
            .collect(),
        _ => Vec::new(),
    };
    let (t_lo, t_hi) = min_max(positive.iter().chain(&curve).map(|p| p.1));
    let mut chart = Chart::new(WIDE, TALL, Axis::log(n_lo, n_hi), Axis::log(t_lo, t_hi));
    chart.frame(
        &|n| format!("{n}"),
        &time,
        "n (log scale)",
        "time (log scale)",
    );
    chart.line(&curve, "fit");
    chart.dots(positive, "sample big");
    chart.finish(if named.is_some() {
        "time against n, log–log, with the fitted growth class"
    } else {
        "time against n, log–log"
    })
}

fn percent_label(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fences(lo: f64, hi: f64) -> Fences {
        Fences {
            q1: lo,
            q3: hi,
            lower_outer: lo - 3.0 * (hi - lo),
            lower_inner: lo - 1.5 * (hi - lo),
            upper_inner: hi + 1.5 * (hi - lo),
            upper_outer: hi + 3.0 * (hi - lo),
        }
    }

    #[test]
    fn a_far_outlier_is_cut_at_the_outer_fence_and_counted() {
        let mut values: Vec<f64> = (0..100).map(|i| 10.0 + (i % 10) as f64 * 0.1).collect();
        values.push(1000.0);
        let range = TimeRange::of(&values, &fences(10.2, 10.7), &[]);
        assert!(range.hi < 20.0, "{range:?}");
        assert_eq!(range.clipped, 1);
        let counts = histogram(&values, &range, BINS);
        assert_eq!(
            counts.iter().sum::<usize>(),
            values.len(),
            "nothing dropped"
        );
    }

    #[test]
    fn the_range_keeps_the_headline_in_view() {
        let values = [10.0, 11.0, 12.0];
        let range = TimeRange::of(&values, &fences(10.5, 11.5), &[9.0, 13.0]);
        assert_eq!((range.lo, range.hi), (9.0, 13.0));
    }

    #[test]
    fn samples_sit_at_their_slices_time_on_the_runs_clock() {
        // Two slices of 2 samples of 1 ms each, handed out at 0.5 s and
        // 3 s (an empty slice of warm-up at 0.1 s before them).
        let elapsed = [1e6; 4];
        let clock = [(0, 0.1), (0, 0.5), (2, 3.0)];
        let at = sample_times(&elapsed, &clock);
        assert_eq!(at, [500.0, 501.0, 3000.0, 3001.0, 3002.0]);
        // Unknown slice times: the benchmark's own measuring time.
        assert_eq!(sample_times(&elapsed, &[]), [0.0, 1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn a_long_timeline_is_thinned_but_keeps_its_spike() {
        let mut per_iter = vec![10.0; 50_000];
        per_iter[31_234] = 90.0;
        let elapsed = vec![1000.0; per_iter.len()];
        let f = fences(10.0, 10.0);
        let svg = timeline(&Timeline {
            per_iter: &per_iter,
            elapsed: &elapsed,
            range: TimeRange {
                lo: 10.0,
                hi: 90.0,
                clipped: 0,
            },
            slice_starts: &[0],
            slice_clock: &[],
            blocks: vec![(0, 10.0)],
            headline: 10.0,
            interval: Some((9.9, 10.1)),
            fences: f,
            warm_up: (1e6, 12, true),
        });
        let dots = svg.matches("h0").count();
        assert!(dots <= TIMELINE_POINTS, "{dots} dots");
        assert!(
            svg.contains(r#"class="sample outlier""#),
            "the spike is drawn"
        );
    }
}
