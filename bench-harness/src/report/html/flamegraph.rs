//! A flame graph as one self-contained SVG file: each frame a box as wide
//! as its share of the samples, callers below callees, a tooltip with its
//! figures, and a search (click "Search", type a regular expression:
//! matching frames turn purple and the share they cover is shown). The
//! one inline script is the search; nothing is loaded from elsewhere.
//!
//! A differential graph colours each frame by the change of its time per
//! iteration against the other build: red grew, blue shrank, white about
//! the same; full colour at 10 points of this build's time.

use std::collections::HashMap;
use std::fmt::Write;

use super::svg::escape;
use crate::profile::{diff::Change, Folded};
use crate::report::format;

/// What one flame graph shows.
#[derive(Debug)]
pub(crate) struct Graph<'a> {
    pub title: &'a str,
    pub subtitle: &'a str,
    pub folded: &'a Folded,
    /// For a differential graph, each stack prefix's change in points.
    pub change: Option<&'a HashMap<Vec<String>, f64>>,
}

const WIDTH: f64 = 1200.0;
const MARGIN: f64 = 10.0;
const FRAME: f64 = 16.0;
const TOP: f64 = 56.0;
/// Frames narrower than this many pixels are left out.
const MIN_WIDTH: f64 = 0.3;
/// Points of change drawn at full colour.
const FULL_COLOUR_POINTS: f64 = 10.0;

/// A frame and its callees, with the samples under it.
#[derive(Debug, Default)]
struct Node<'a> {
    name: &'a str,
    samples: u64,
    children: Vec<Node<'a>>,
}

impl<'a> Node<'a> {
    fn add(&mut self, stack: &'a [String], n: u64) {
        self.samples += n;
        let Some((first, rest)) = stack.split_first() else {
            return;
        };
        let at = match self.children.iter().position(|c| c.name == first) {
            Some(at) => at,
            None => {
                self.children.push(Node {
                    name: first,
                    ..Node::default()
                });
                self.children.len() - 1
            }
        };
        self.children[at].add(rest, n);
    }

    fn depth(&self) -> usize {
        1 + self.children.iter().map(Node::depth).max().unwrap_or(0)
    }
}

/// The SVG file's text.
pub(crate) fn render(graph: &Graph<'_>) -> String {
    let mut root = Node {
        name: "all",
        ..Node::default()
    };
    for (stack, n) in &graph.folded.stacks {
        root.add(stack, *n);
    }
    let depth = root.depth();
    let height = TOP + depth as f64 * FRAME + 2.0 * MARGIN;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<?xml version="1.0" standalone="no"?>
<svg version="1.1" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" xmlns="http://www.w3.org/2000/svg" font-family="Verdana, sans-serif" font-size="12">
<style>
.frame rect {{ stroke: white; stroke-width: 0.5; }}
.frame text {{ pointer-events: none; fill: #000; }}
.frame.match rect {{ fill: rgb(230, 0, 230) !important; }}
#search {{ cursor: pointer; fill: #555; }}
</style>
<rect width="100%" height="100%" fill="#f8f8f8"/>
<text x="{x}" y="22" font-size="17" text-anchor="middle">{title}</text>
<text x="{x}" y="42" fill="#555" text-anchor="middle">{subtitle}</text>
<text id="search" x="{right}" y="22" text-anchor="end">Search</text>
<text id="matched" x="{right}" y="42" text-anchor="end" fill="#555"></text>
"##,
        x = WIDTH / 2.0,
        right = WIDTH - MARGIN,
        title = escape(graph.title),
        subtitle = escape(graph.subtitle),
    );
    let total = root.samples.max(1) as f64;
    let scale = (WIDTH - 2.0 * MARGIN) / total;
    let mut path = Vec::new();
    let place = Place {
        scale,
        total,
        height,
    };
    draw(&mut svg, graph, &root, MARGIN, &place, &mut path);
    svg.push_str(SCRIPT);
    svg.push_str("</svg>\n");
    svg
}

/// Where frames go: pixels per sample, the samples of the whole graph,
/// and its height.
struct Place {
    scale: f64,
    total: f64,
    height: f64,
}

/// Draws `node` at `x`, one level above its caller (`path`: the frames
/// from the root to it), then its callees above it.
fn draw(
    svg: &mut String,
    graph: &Graph<'_>,
    node: &Node<'_>,
    x: f64,
    place: &Place,
    path: &mut Vec<String>,
) {
    let width = node.samples as f64 * place.scale;
    if width < MIN_WIDTH {
        return;
    }
    let y = place.height - MARGIN - (path.len() + 1) as f64 * FRAME;
    let share = node.samples as f64 / place.total;
    let (fill, change) = match graph.change {
        Some(changes) if !path.is_empty() => {
            let points = changes.get(path.as_slice()).copied().unwrap_or(0.0);
            (diff_colour(points), format!(", {points:+.1} points"))
        }
        Some(_) => ("rgb(245,245,245)".to_string(), String::new()),
        None => (warm_colour(node.name), String::new()),
    };
    let _ = writeln!(
        svg,
        r#"<g class="frame" data-n="{samples}"><title>{name} ({samples} samples, {share}{change})</title><rect x="{x:.2}" y="{y:.1}" width="{width:.2}" height="{h}" fill="{fill}"/>{label}</g>"#,
        samples = node.samples,
        name = escape(node.name),
        share = format::percent(share),
        h = FRAME - 1.0,
        label = label(node.name, x, y, width),
    );
    let mut child_x = x;
    for child in &node.children {
        path.push(child.name.to_string());
        draw(svg, graph, child, child_x, place, path);
        path.pop();
        child_x += child.samples as f64 * place.scale;
    }
}

/// The frame's name as far as it fits (about 7 pixels a character).
fn label(name: &str, x: f64, y: f64, width: f64) -> String {
    let fits = ((width - 6.0) / 7.0).floor() as usize;
    if fits < 3 {
        return String::new();
    }
    let count = name.chars().count();
    let shown: String = if count <= fits {
        name.to_string()
    } else {
        name.chars().take(fits - 2).chain("..".chars()).collect()
    };
    format!(
        r#"<text x="{:.2}" y="{:.1}">{}</text>"#,
        x + 3.0,
        y + FRAME - 4.5,
        escape(&shown)
    )
}

/// flamegraph.pl's "hot" palette, picked by the name so a function keeps
/// its colour from one graph to the next.
fn warm_colour(name: &str) -> String {
    let mut hash: u32 = 2166136261;
    for byte in name.bytes() {
        hash = (hash ^ u32::from(byte)).wrapping_mul(16777619);
    }
    let part = |shift: u32| f64::from((hash >> shift) & 0xff) / 255.0;
    format!(
        "rgb({},{},{})",
        (205.0 + 50.0 * part(0)) as u8,
        (230.0 * part(8)) as u8,
        (55.0 * part(16)) as u8
    )
}

/// Red for a frame that grew, blue for one that shrank, near white for no
/// change.
fn diff_colour(points: f64) -> String {
    let strength = (points.abs() / FULL_COLOUR_POINTS).min(1.0);
    let fade = |to: f64| (245.0 + (to - 245.0) * strength).round() as u8;
    if points >= 0.0 {
        format!("rgb({},{},{})", fade(220.0), fade(40.0), fade(40.0))
    } else {
        format!("rgb({},{},{})", fade(40.0), fade(90.0), fade(220.0))
    }
}

/// The search: a regular expression over the frames' names.
const SCRIPT: &str = r#"<script><![CDATA[
(function () {
  var search = document.getElementById("search");
  var matched = document.getElementById("matched");
  var frames = document.querySelectorAll(".frame");
  var total = frames.length ? +frames[0].getAttribute("data-n") : 0;
  search.addEventListener("click", function () {
    var term = window.prompt("Search for (a regular expression):", "");
    var covered = [];
    frames.forEach(function (g) {
      var name = g.querySelector("title").textContent.replace(/ \(\d+ samples.*$/, "");
      var hit = false;
      if (term) { try { hit = new RegExp(term).test(name); } catch (e) { hit = name.indexOf(term) >= 0; } }
      g.classList.toggle("match", hit);
      if (hit) {
        var r = g.querySelector("rect");
        covered.push([+r.getAttribute("x"), +r.getAttribute("x") + +r.getAttribute("width"), +g.getAttribute("data-n")]);
      }
    });
    // Nested matches are counted once: the outermost ones' samples.
    covered.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    var samples = 0, end = -1;
    covered.forEach(function (c) { if (c[0] >= end) { samples += c[2]; end = c[1]; } });
    matched.textContent = term ? "Matched: " + (100 * samples / total).toFixed(1) + "%" : "";
  });
})();
]]></script>
"#;

/// The functions whose own time per iteration changed most, grown then
/// shrunk (at most five each, a change of at least half a point), as text
/// for the terminal.
pub(crate) fn change_table(name: &str, other: &str, changes: &[Change]) -> String {
    let grown: Vec<&Change> = changes.iter().filter(|c| c.points >= 0.5).take(5).collect();
    let shrunk: Vec<&Change> = changes
        .iter()
        .rev()
        .filter(|c| c.points <= -0.5)
        .take(5)
        .collect();
    let mut text =
        format!("\n{name}: own time per iteration by function, this build against {other}\n");
    if grown.is_empty() && shrunk.is_empty() {
        text.push_str("  no function changed by half a point of this build's time or more\n");
        return text;
    }
    let width = grown
        .iter()
        .chain(&shrunk)
        .map(|c| c.function.chars().count().min(60))
        .max()
        .unwrap_or(0)
        .max(8);
    let _ = writeln!(
        text,
        "  {}  {:>10}  {:>10}  {:>8}",
        format::pad_end("function", width),
        "this",
        "other",
        "change"
    );
    for (heading, rows) in [("grown", &grown), ("shrunk", &shrunk)] {
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(text, "  {heading}");
        for c in rows.iter() {
            let shown: String = c.function.chars().take(60).collect();
            let _ = writeln!(
                text,
                "  {}  {:>10}  {:>10}  {:>+7.1}%",
                format::pad_end(&shown, width),
                format::time(c.this),
                format::time(c.other),
                c.points
            );
        }
    }
    text.push_str("  (change: points of this build's time per iteration)\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folded(stacks: &[(&str, u64)]) -> Folded {
        let stacks: Vec<(Vec<String>, u64)> = stacks
            .iter()
            .map(|(s, n)| (s.split(';').map(str::to_string).collect(), *n))
            .collect();
        Folded {
            samples: stacks.iter().map(|(_, n)| n).sum(),
            stacks,
            others: 0,
        }
    }

    #[test]
    fn each_frame_is_a_box_as_wide_as_its_samples_with_its_name() {
        let profile = folded(&[("main;sort<T>", 3), ("main;make", 1)]);
        let svg = render(&Graph {
            title: "t & <x>",
            subtitle: "s",
            folded: &profile,
            change: None,
        });
        assert!(svg.contains("t &amp; &lt;x&gt;"));
        assert!(svg.contains("<title>sort&lt;T&gt; (3 samples, 75"), "{svg}");
        assert!(svg.contains("<title>main (4 samples, 100"));
        assert!(!svg.contains("http://") || svg.matches("http://").count() == 1);
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn the_differential_colours_grown_red_and_shrunk_blue() {
        assert_eq!(diff_colour(10.0), "rgb(220,40,40)");
        assert_eq!(diff_colour(-20.0), "rgb(40,90,220)");
        assert_eq!(diff_colour(0.0), "rgb(245,245,245)");
    }

    #[test]
    fn the_table_lists_grown_then_shrunk_and_skips_small_changes() {
        let change = |f: &str, points| Change {
            function: f.to_string(),
            this: 100.0,
            other: 50.0,
            points,
        };
        let changes = [
            change("slow", 30.0),
            change("same", 0.1),
            change("fast", -3.0),
        ];
        let table = change_table("b", "x", &changes);
        let slow = table.find("slow").unwrap();
        let fast = table.find("fast").unwrap();
        assert!(slow < fast && !table.contains("same"), "{table}");
        assert!(change_table("b", "x", &[change("same", 0.2)]).contains("no function changed"));
    }
}
