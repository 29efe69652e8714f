//! A small SVG plotting kit: linear and logarithmic axes with readable
//! ticks, and the marks the report's charts are made of (lines, points,
//! bars, bands, labels). Colours and line styles are CSS classes, styled
//! once by the page, so a chart is geometry only.
//!
//! Why not `plotters`: its SVG backend alone added 4 crates and more build
//! time than this file (see docs/ARCHITECTURE.md), and the report needs
//! none of its backends, fonts or layout engine.

use std::fmt::Write;

/// One axis: the data range it shows, linear or logarithmic.
#[derive(Debug, Clone, Copy)]
pub(super) struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    /// A linear axis over `[lo, hi]`, widened when the range is empty or
    /// not finite so that a constant series still draws.
    pub(super) fn linear(lo: f64, hi: f64) -> Axis {
        let (lo, hi) = finite_range(lo, hi);
        if hi > lo {
            Axis { lo, hi, log: false }
        } else {
            let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.05 };
            Axis {
                lo: lo - pad,
                hi: hi + pad,
                log: false,
            }
        }
    }

    /// A linear axis over `[lo, hi]` with `fraction` of the range added on
    /// each side.
    pub(super) fn padded(lo: f64, hi: f64, fraction: f64) -> Axis {
        let axis = Axis::linear(lo, hi);
        let pad = (axis.hi - axis.lo) * fraction;
        Axis {
            lo: axis.lo - pad,
            hi: axis.hi + pad,
            log: false,
        }
    }

    /// A logarithmic axis over `[lo, hi]` (both above zero), widened to
    /// whole powers of ten.
    pub(super) fn log(lo: f64, hi: f64) -> Axis {
        let lo = if lo > 0.0 && lo.is_finite() { lo } else { 1.0 };
        let hi = if hi > lo && hi.is_finite() {
            hi
        } else {
            lo * 10.0
        };
        Axis {
            lo: 10f64.powf(lo.log10().floor()),
            hi: 10f64.powf(hi.log10().ceil()),
            log: true,
        }
    }

    pub(super) fn lo(&self) -> f64 {
        self.lo
    }

    pub(super) fn hi(&self) -> f64 {
        self.hi
    }

    /// Where `value` falls, from 0 (`lo`) to 1 (`hi`).
    fn fraction(&self, value: f64) -> f64 {
        if self.log {
            let v = value.max(f64::MIN_POSITIVE).log10();
            (v - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (value - self.lo) / (self.hi - self.lo)
        }
    }

    /// Round values to label: 1, 2 or 5 times a power of ten apart on a
    /// linear axis (about `wanted` of them), the powers of ten on a
    /// logarithmic one.
    pub(super) fn ticks(&self, wanted: usize) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            let step = ((b - a) as usize).div_ceil(wanted.max(1)).max(1);
            return (a..=b).step_by(step).map(|e| 10f64.powi(e)).collect();
        }
        let raw = (self.hi - self.lo) / wanted.max(1) as f64;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|&s| s >= raw)
            .unwrap_or(10.0 * magnitude);
        let first = (self.lo / step).ceil() as i64;
        let last = (self.hi / step).floor() as i64;
        (first..=last).map(|i| i as f64 * step).collect()
    }
}

fn finite_range(lo: f64, hi: f64) -> (f64, f64) {
    match (lo.is_finite(), hi.is_finite()) {
        (true, true) => (lo.min(hi), lo.max(hi)),
        (true, false) => (lo, lo),
        (false, true) => (hi, hi),
        (false, false) => (0.0, 1.0),
    }
}

/// Space around the plotting area for tick labels: at least this much on
/// the left, more for wide labels (see [`Chart::frame`]).
const LEFT: f64 = 64.0;
const RIGHT: f64 = 26.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 38.0;
/// About how wide a character of the 11 px tick text is, a little more
/// than system fonts draw, so that estimated boxes hold the real ones.
const TICK_CHAR: f64 = 6.6;
/// The same for the 10 px labels, and a label line's height.
const LABEL_CHAR: f64 = 6.2;
const LABEL_LINE: f64 = 13.0;

/// One chart being drawn: a plotting area, its two axes and the SVG
/// elements so far.
#[derive(Debug)]
pub(super) struct Chart {
    width: f64,
    height: f64,
    x: Axis,
    y: Axis,
    /// Room on the left for the vertical axis' labels and title.
    left: f64,
    /// Extra room on the right for a second axis' labels.
    right: f64,
    /// The boxes of the labels placed so far, `[left, top, right, bottom]`
    /// in pixels: a new label moves off them.
    placed: Vec<[f64; 4]>,
    body: String,
}

impl Chart {
    pub(super) fn new(width: f64, height: f64, x: Axis, y: Axis) -> Chart {
        Chart {
            width,
            height,
            x,
            y,
            left: LEFT,
            right: RIGHT,
            placed: Vec::new(),
            body: String::new(),
        }
    }

    /// Leaves room on the right for [`Chart::right_axis`]'s labels.
    pub(super) fn with_right_margin(mut self, margin: f64) -> Chart {
        self.right = margin;
        self
    }

    pub(super) fn x_axis(&self) -> Axis {
        self.x
    }

    pub(super) fn y_axis(&self) -> Axis {
        self.y
    }

    /// The horizontal pixel of data value `x`.
    pub(super) fn px(&self, x: f64) -> f64 {
        self.left + self.x.fraction(x) * (self.width - self.left - self.right)
    }

    /// The vertical pixel of data value `y` (up is larger).
    pub(super) fn py(&self, y: f64) -> f64 {
        self.height - BOTTOM - self.y.fraction(y) * (self.height - TOP - BOTTOM)
    }

    fn left_px(&self) -> f64 {
        self.left
    }

    fn right_px(&self) -> f64 {
        self.width - self.right
    }

    fn top_px(&self) -> f64 {
        TOP
    }

    fn bottom_px(&self) -> f64 {
        self.height - BOTTOM
    }

    /// Grid lines and tick labels of both axes, and their titles; the
    /// first thing drawn, since the left margin grows to fit the vertical
    /// axis' widest label beside its title.
    pub(super) fn frame(
        &mut self,
        x_label: &dyn Fn(f64) -> String,
        y_label: &dyn Fn(f64) -> String,
        x_title: &str,
        y_title: &str,
    ) {
        debug_assert!(self.body.is_empty(), "the frame is drawn first");
        let widest = self
            .y
            .ticks(5)
            .into_iter()
            .map(|y| y_label(y).chars().count())
            .max()
            .unwrap_or(0);
        // Labels end 4 px left of the area; the rotated title's line is
        // centred 12 px from the edge.
        self.left = LEFT.max(TICK_CHAR * widest as f64 + 4.0 + 26.0);
        let (l, r, t, b) = (
            self.left_px(),
            self.right_px(),
            self.top_px(),
            self.bottom_px(),
        );
        for x in self.x.ticks(6) {
            let px = self.px(x);
            self.occupy(px, b + 18.0, &x_label(x), "middle");
            let _ = write!(
                self.body,
                r#"<line class="grid" x1="{px:.1}" y1="{t:.1}" x2="{px:.1}" y2="{b:.1}"/><text class="tick" x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                b + 18.0,
                escape(&x_label(x))
            );
        }
        for y in self.y.ticks(5) {
            let py = self.py(y);
            self.occupy(l - 4.0, py + 4.0, &y_label(y), "end");
            let _ = write!(
                self.body,
                r#"<line class="grid" x1="{l:.1}" y1="{py:.1}" x2="{r:.1}" y2="{py:.1}"/><text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                l - 4.0,
                py + 4.0,
                escape(&y_label(y))
            );
        }
        let _ = write!(
            self.body,
            r#"<rect class="frame" x="{l:.1}" y="{t:.1}" width="{:.1}" height="{:.1}"/><text class="axis" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text><text class="axis" x="{:.1}" y="{:.1}" text-anchor="middle" transform="rotate(-90 {:.1} {:.1})">{}</text>"#,
            r - l,
            b - t,
            (l + r) / 2.0,
            self.height - 5.0,
            escape(x_title),
            12.0,
            (t + b) / 2.0,
            12.0,
            (t + b) / 2.0,
            escape(y_title),
        );
    }

    /// Tick labels on the right for a second vertical scale `axis`
    /// (sharing the plotting area's height).
    pub(super) fn right_axis(&mut self, axis: Axis, label: &dyn Fn(f64) -> String, title: &str) {
        let r = self.right_px();
        let height = self.bottom_px() - self.top_px();
        for v in axis.ticks(4) {
            let py = self.bottom_px() - axis.fraction(v) * height;
            self.occupy(r + 4.0, py + 4.0, &label(v), "start");
            let _ = write!(
                self.body,
                r#"<text class="tick cdf" x="{:.1}" y="{:.1}">{}</text>"#,
                r + 4.0,
                py + 4.0,
                escape(&label(v))
            );
        }
        // Turned a quarter clockwise, the line's ascent points right.
        let x = self.width - 14.0;
        let y = (self.top_px() + self.bottom_px()) / 2.0;
        let _ = write!(
            self.body,
            r#"<text class="axis cdf" x="{x:.1}" y="{y:.1}" text-anchor="middle" transform="rotate(90 {x:.1} {y:.1})">{}</text>"#,
            escape(title)
        );
    }

    /// A polyline through `points` (data coordinates) in pixel space.
    pub(super) fn line(&mut self, points: &[(f64, f64)], class: &str) {
        let mut d = String::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { "L" },
                self.px(x),
                self.py(y)
            );
        }
        if !d.is_empty() {
            let _ = write!(self.body, r#"<path class="{class}" d="{d}"/>"#);
        }
    }

    /// A polyline whose vertical values are on `axis` instead of the
    /// chart's own (the CDF beside a histogram).
    pub(super) fn line_on(
        &mut self,
        axis: Axis,
        points: impl IntoIterator<Item = (f64, f64)>,
        class: &str,
    ) {
        let height = self.bottom_px() - self.top_px();
        let mut d = String::new();
        for (i, (x, y)) in points.into_iter().enumerate() {
            let py = self.bottom_px() - axis.fraction(y) * height;
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { "L" },
                self.px(x),
                py
            );
        }
        if !d.is_empty() {
            let _ = write!(self.body, r#"<path class="{class}" d="{d}"/>"#);
        }
    }

    /// Small circles at `points`, one path for all of them (a few thousand
    /// points stay a few hundred kilobytes).
    pub(super) fn dots(&mut self, points: impl IntoIterator<Item = (f64, f64)>, class: &str) {
        let mut d = String::new();
        for (x, y) in points {
            let _ = write!(d, "M{:.1},{:.1}h0", self.px(x), self.py(y));
        }
        if !d.is_empty() {
            let _ = write!(self.body, r#"<path class="{class}" d="{d}"/>"#);
        }
    }

    /// A rectangle between data coordinates, clipped to the plotting area.
    pub(super) fn rect(&mut self, x0: f64, x1: f64, y0: f64, y1: f64, class: &str) {
        let clamp_x = |p: f64| p.clamp(self.left_px(), self.right_px());
        let clamp_y = |p: f64| p.clamp(self.top_px(), self.bottom_px());
        let (a, b) = (clamp_x(self.px(x0)), clamp_x(self.px(x1)));
        let (c, d) = (clamp_y(self.py(y0)), clamp_y(self.py(y1)));
        let (left, width) = (a.min(b), (a - b).abs());
        let (top, height) = (c.min(d), (c - d).abs());
        let _ = write!(
            self.body,
            r#"<rect class="{class}" x="{left:.1}" y="{top:.1}" width="{width:.1}" height="{height:.1}"/>"#
        );
    }

    /// A band over the whole height between `x0` and `x1`.
    pub(super) fn x_band(&mut self, x0: f64, x1: f64, class: &str) {
        let (lo, hi) = (self.y.lo, self.y.hi);
        self.rect(x0, x1, lo, hi, class);
    }

    /// A band over the whole width between `y0` and `y1`.
    pub(super) fn y_band(&mut self, y0: f64, y1: f64, class: &str) {
        let (lo, hi) = (self.x.lo, self.x.hi);
        self.rect(lo, hi, y0, y1, class);
    }

    /// A vertical line at `x` over the whole height, with an optional label
    /// at its top.
    pub(super) fn x_rule(&mut self, x: f64, class: &str, label: Option<&str>) {
        let px = self.px(x);
        if !(self.left_px() - 0.5..=self.right_px() + 0.5).contains(&px) {
            return;
        }
        let (t, b) = (self.top_px(), self.bottom_px());
        let _ = write!(
            self.body,
            r#"<line class="{class}" x1="{px:.1}" y1="{t:.1}" x2="{px:.1}" y2="{b:.1}"/>"#
        );
        if let Some(label) = label {
            self.label(px + 3.0, t + 10.0, label, "start");
        }
    }

    /// A horizontal line at `y` from `x0` to `x1`.
    pub(super) fn segment(&mut self, x0: f64, x1: f64, y: f64, class: &str) {
        self.line(&[(x0, y), (x1, y)], class);
    }

    /// Text at a pixel position (its baseline), kept inside the plotting
    /// area's width and moved to the nearest line free of the labels and
    /// ticks placed before it.
    pub(super) fn label(&mut self, px: f64, py: f64, text: &str, anchor: &str) {
        let width = LABEL_CHAR * text.chars().count() as f64;
        let x0 = match anchor {
            "end" => px - width,
            "middle" => px - width / 2.0,
            _ => px,
        };
        let x0 = x0
            .min(self.right_px() - width - 2.0)
            .max(self.left_px() + 2.0);
        let at = |y: f64| [x0, y - LABEL_LINE + 3.0, x0 + width, y + 3.0];
        let free = |b: [f64; 4], placed: &[[f64; 4]]| {
            placed
                .iter()
                .all(|p| b[2] <= p[0] || p[2] <= b[0] || b[3] <= p[1] || p[3] <= b[1])
        };
        let fits = |y: f64| y + 3.0 <= self.height && y - LABEL_LINE + 3.0 >= 0.0;
        let mut py = py;
        for step in (0..24).flat_map(|k| [k as f64, -(k as f64)]) {
            let y = py + step * LABEL_LINE;
            if fits(y) && free(at(y), &self.placed) {
                py = y;
                break;
            }
        }
        self.placed.push(at(py));
        let _ = write!(
            self.body,
            r#"<text class="label" x="{x0:.1}" y="{py:.1}">{}</text>"#,
            escape(text)
        );
    }

    /// Marks a tick label's box as taken, for [`Chart::label`].
    fn occupy(&mut self, x: f64, y: f64, text: &str, anchor: &str) {
        let width = TICK_CHAR * text.chars().count() as f64;
        let x0 = match anchor {
            "end" => x - width,
            "middle" => x - width / 2.0,
            _ => x,
        };
        self.placed
            .push([x0, y - LABEL_LINE + 2.0, x0 + width, y + 4.0]);
    }

    /// A pixel row's vertical position inside the plotting area (for
    /// charts that place categories, not values, on the vertical axis).
    pub(super) fn row_px(&self, row: usize, rows: usize) -> f64 {
        let height = self.bottom_px() - self.top_px();
        self.top_px() + height * (row as f64 + 0.5) / rows.max(1) as f64
    }

    /// Raw SVG, for marks this kit has no method for.
    pub(super) fn raw(&mut self, svg: &str) {
        self.body.push_str(svg);
    }

    /// The finished `<svg>` element; `title` is its accessible name.
    pub(super) fn finish(self, title: &str) -> String {
        format!(
            r#"<svg class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{t}"><title>{t}</title>{body}</svg>"#,
            w = self.width,
            h = self.height,
            t = escape(title),
            body = self.body
        )
    }
}

/// `&`, `<`, `>` and quotes as entities: text and attribute values alike;
/// control characters and bidirectional overrides written as the
/// terminal writes them (`\u{1b}`, `\u{202e}`), so that a name can
/// neither hide in the page nor show reversed.
pub(super) fn escape(text: &str) -> String {
    let text = crate::report::format::escape(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_round_and_inside_the_range() {
        let ticks = Axis::linear(13.0, 87.0).ticks(5);
        assert_eq!(ticks, vec![20.0, 40.0, 60.0, 80.0]);
        let ticks = Axis::linear(0.0012, 0.0049).ticks(4);
        assert!(ticks.iter().all(|t| (0.0012..=0.0049).contains(t)));
        assert!(ticks.len() >= 3, "{ticks:?}");
    }

    #[test]
    fn a_constant_series_still_gets_a_range() {
        let axis = Axis::linear(5.0, 5.0);
        assert!(axis.lo() < 5.0 && axis.hi() > 5.0);
        let axis = Axis::linear(f64::NAN, f64::INFINITY);
        assert!(axis.lo() < axis.hi());
    }

    #[test]
    fn log_axes_span_whole_decades() {
        let axis = Axis::log(12.0, 3400.0);
        assert_eq!((axis.lo(), axis.hi()), (10.0, 10_000.0));
        assert_eq!(axis.ticks(6), vec![10.0, 100.0, 1000.0, 10_000.0]);
    }

    #[test]
    fn pixels_grow_right_and_up() {
        let chart = Chart::new(
            400.0,
            200.0,
            Axis::linear(0.0, 10.0),
            Axis::linear(0.0, 1.0),
        );
        assert!(chart.px(10.0) > chart.px(0.0));
        assert!(chart.py(1.0) < chart.py(0.0), "SVG's y grows downwards");
    }

    #[test]
    fn text_is_escaped() {
        let mut chart = Chart::new(100.0, 100.0, Axis::linear(0.0, 1.0), Axis::linear(0.0, 1.0));
        chart.label(1.0, 1.0, "<script>&", "start");
        let svg = chart.finish("a \"title\"");
        assert!(svg.contains("&lt;script&gt;&amp;"));
        assert!(svg.contains("a &quot;title&quot;"));
        assert!(!svg.contains("<script>"));
    }

    /// The pixel boxes of a chart's labels, from their `x` and `y`.
    fn label_positions(svg: &str) -> Vec<(f64, f64)> {
        svg.split(r#"<text class="label" x=""#)
            .skip(1)
            .map(|rest| {
                let x: f64 = rest.split('"').next().unwrap().parse().unwrap();
                let y: f64 = rest
                    .split(r#"y=""#)
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                (x, y)
            })
            .collect()
    }

    #[test]
    fn labels_on_one_spot_go_to_lines_of_their_own_inside_the_area() {
        let mut chart = Chart::new(300.0, 200.0, Axis::linear(0.0, 1.0), Axis::linear(0.0, 1.0));
        chart.frame(&|v| format!("{v}"), &|v| format!("{v}"), "x", "y");
        for text in ["p90", "p95", "p99"] {
            chart.label(150.0, 80.0, text, "end");
        }
        // Far past the left edge: kept inside the plotting area.
        chart.label(0.0, 120.0, "time", "end");
        let positions = label_positions(&chart.finish("t"));
        assert_eq!(positions.len(), 4);
        let rows: Vec<f64> = positions[..3].iter().map(|p| p.1).collect();
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[i + 1..] {
                assert!((a - b).abs() >= LABEL_LINE, "{rows:?}");
            }
        }
        assert!(positions[3].0 >= LEFT, "{positions:?}");
    }

    #[test]
    fn the_left_margin_grows_with_the_vertical_axis_labels() {
        let mut narrow = Chart::new(400.0, 200.0, Axis::linear(0.0, 1.0), Axis::linear(0.0, 1.0));
        narrow.frame(&|v| format!("{v:.1}"), &|v| format!("{v:.1}"), "x", "y");
        let mut wide = Chart::new(400.0, 200.0, Axis::linear(0.0, 1.0), Axis::linear(0.0, 1.0));
        wide.frame(
            &|v| format!("{v:.1}"),
            &|v| format!("{v:.1} G items/s"),
            "x",
            "y",
        );
        assert_eq!(narrow.px(0.0), LEFT);
        assert!(wide.px(0.0) >= TICK_CHAR * "1.0 G items/s".len() as f64 + 30.0);
    }
}
