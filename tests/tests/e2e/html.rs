//! The HTML report: written by every measured run where the user expects
//! it, and opened in a real browser (Debian's `chromium`, headless): it
//! loads from `file://` with no console message and no network request,
//! every benchmark has its charts, and a benchmark's section is drawn
//! (its screenshot is not blank). Where chromium is absent, the browser's
//! checks are skipped with a message and the rest still runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bench_tests::{run_with_env, scratch_dir, suite_binary, Run, QUICK};

/// The example suite with quick budgets and CARGO_TARGET_DIR=`target`.
fn suite(target: &Path, args: &[&str]) -> Run {
    let mut all = QUICK.to_vec();
    all.extend_from_slice(args);
    run_with_env(
        suite_binary(),
        &all,
        &[("CARGO_TARGET_DIR", target.as_os_str())],
    )
}

/// The path a run announced: `wrote the report to PATH` on stderr.
fn announced(out: &Run) -> PathBuf {
    let line = out
        .stderr
        .lines()
        .find_map(|line| line.strip_prefix("wrote the report to "))
        .unwrap_or_else(|| panic!("the report's path is announced: {out:?}"));
    PathBuf::from(line)
}

/// Each benchmark section of a page (or DOM): its heading's name and how
/// many charts it holds.
fn sections(html: &str) -> Vec<(String, usize)> {
    html.split(r#"<section class="bench""#)
        .skip(1)
        .map(|section| {
            let section = section.split("</section>").next().unwrap_or("");
            let name = section
                .split("\">")
                .nth(2)
                .and_then(|rest| rest.split("</a>").next())
                .unwrap_or("")
                .to_string();
            (name, section.matches("<svg").count())
        })
        .collect()
}

#[test]
fn every_measured_run_writes_a_report_under_the_target_directory() {
    let dir = scratch_dir("html-default");
    let target = dir.join("target");
    let out = suite(&target, &["primitives::int_add"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let page = announced(&out);
    let report = target.join("bench-harness").join("report");
    assert_eq!(page, report.join("suite").join("index.html"));
    let html = std::fs::read_to_string(&page).expect("the page was written");
    assert_eq!(sections(&html), [("primitives::int_add".to_string(), 2)]);
    let index = std::fs::read_to_string(report.join("index.html")).expect("an index of targets");
    assert!(index.contains(r#"href="suite/index.html""#), "{index}");

    std::fs::remove_file(&page).expect("the page is there");
    let out = suite(&target, &["primitives::int_add", "--no-report"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!out.stderr.contains("wrote the report"), "{}", out.stderr);
    assert!(!page.exists(), "--no-report writes no page");

    let smoke = run_with_env(
        suite_binary(),
        &["primitives::int_add"],
        &[("CARGO_TARGET_DIR", target.as_os_str())],
    );
    assert_eq!(smoke.code, Some(0), "{smoke:?}");
    assert!(!page.exists(), "a smoke run writes no report");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_report_path_is_refused_before_measuring() {
    let dir = scratch_dir("html-unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let inside = file.join("report");
    let out = suite(
        &dir.join("target"),
        &["primitives::int_add", "--report", inside.to_str().unwrap()],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("cannot write --report"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stdout.contains("measured"),
        "nothing ran: {}",
        out.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What headless Chromium made of a page.
pub(super) struct Rendered {
    /// The DOM after loading.
    pub(super) dom: String,
    /// Console messages (`CONSOLE` lines of its log).
    pub(super) console: Vec<String>,
    /// URLs the page itself asked the network for (Blink's resource
    /// loader), from Chromium's net log; the browser's own background
    /// requests are not the page's.
    pub(super) requests: Vec<String>,
}

pub(super) fn chromium() -> Option<&'static str> {
    let found = Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    found.then_some("chromium")
}

/// Chromium with the flags that keep it quiet and offline; every host
/// resolves to nothing, so a request to the network would fail (and
/// still show in the net log).
fn headless(profile: &Path) -> Command {
    let mut command = Command::new("chromium");
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    command
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

pub(super) fn render(page: &Path, scratch: &Path) -> Rendered {
    let net_log = scratch.join("net-log.json");
    let Output { stdout, stderr, .. } = headless(&scratch.join("profile"))
        .args(["--enable-logging=stderr", "--v=0", "--dump-dom"])
        .arg(format!("--log-net-log={}", net_log.display()))
        .arg(file_url(page))
        .output()
        .expect("chromium starts");
    let stderr = String::from_utf8_lossy(&stderr);
    let console = stderr
        .lines()
        .filter(|line| line.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    let log = std::fs::read_to_string(&net_log).unwrap_or_default();
    // Blink's resource loads carry the traffic annotation of
    // "blink_resource_loader" (its hash, 101845102).
    let requests = log
        .split(r#""traffic_annotation":101845102,"url":""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect();
    Rendered {
        dom: String::from_utf8_lossy(&stdout).into_owned(),
        console,
        requests,
    }
}

/// A screenshot of the top `height` pixels of `page`, decoded to RGB rows.
pub(super) fn screenshot(page: &Path, scratch: &Path, height: u32) -> (u32, u32, Vec<[u8; 3]>) {
    let png = scratch.join("shot.png");
    let out = headless(&scratch.join("profile"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size=1200,{height}"))
        .arg(file_url(page))
        .output()
        .expect("chromium starts");
    assert!(
        png.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).expect("a frame");
    let channels = info.color_type.samples();
    let pixels = buffer[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, pixels)
}

#[test]
fn the_report_opens_offline_in_chromium_with_every_chart() {
    let dir = scratch_dir("html-chromium");
    let target = dir.join("target");
    // A baseline first, so that the report compares: every view at once
    // (distribution, timeline, overlay, change; the sort group's ratios;
    // scaling::sort's complexity fit).
    // 0.1 s, not the quick 0.02: the sort group's members take 60 rounds
    // of their share a process, and at 0.02 a round could hold too few
    // samples to pair ("fewer than 2 rounds in common", so no ratio
    // chart): 3 runs in 51 here, one of them in CI (0 in 35 of the build
    // before, not a difference these counts can tell).
    let filters = ["kernels::sort", "scaling::sort", "--measure-time", "0.1"];
    let mut args = filters.to_vec();
    args.extend(["--save-baseline", "html"]);
    let saved = suite(&target, &args);
    assert_eq!(saved.code, Some(0), "{saved:?}");
    let reports = dir.join("reports");
    let mut args = filters.to_vec();
    args.extend(["--baseline", "html", "--report", reports.to_str().unwrap()]);
    let out = suite(&target, &args);
    assert_eq!(out.code, Some(0), "{out:?}");
    let page = announced(&out);
    assert_eq!(page, reports.join("suite").join("index.html"));
    let html = std::fs::read_to_string(&page).unwrap();
    for external in ["http://", "https://", "<script", "<link", "@import", "url("] {
        assert!(!html.contains(external), "the page refers to {external}");
    }
    let expected: Vec<(String, usize)> = [
        "sort/kernels::sort_1k",
        "sort/kernels::sort_unstable_1k",
        "scaling::sort/100",
        "scaling::sort/1000",
        "scaling::sort/10000",
    ]
    .iter()
    .map(|name| (name.to_string(), 5))
    .collect();
    assert_eq!(
        sections(&html),
        expected,
        "each: distribution, timeline, overlay, change, and the history of the two runs"
    );
    assert!(
        html.contains(r#"<section id="groups">"#) && html.contains(r#"<section id="complexity">"#)
    );

    if chromium().is_none() {
        println!(
            "skipped the browser checks: chromium is not installed (apt-get install chromium)"
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    // The checks below can fail: a page with a script error and an image
    // from the network trips both.
    let control = dir.join("control.html");
    std::fs::write(
        &control,
        r#"<!DOCTYPE html><p>x</p><img src="http://example.invalid/x.png"><script>nothing()</script>"#,
    )
    .unwrap();
    let bad = render(&control, &dir.join("control"));
    assert_eq!(bad.console.len(), 1, "the control's error is seen");
    assert_eq!(
        bad.requests,
        ["http://example.invalid/x.png"],
        "the control's request is seen"
    );

    let rendered = render(&page, &dir.join("render"));
    assert_eq!(rendered.console, Vec::<String>::new(), "no console message");
    assert_eq!(
        rendered.requests,
        Vec::<String>::new(),
        "no network request"
    );
    assert_eq!(
        sections(&rendered.dom),
        expected,
        "the browser's DOM has every chart"
    );
    let charts_elsewhere = rendered.dom.matches("<svg").count() - 5 * expected.len();
    assert_eq!(
        charts_elsewhere,
        5 + expected.len(),
        "the group's members and ratio charts, scaling::sort's time and throughput against \
         its argument, the complexity fit, and a sparkline per summary row"
    );

    // One benchmark's page, drawn: its section is most of the screenshot,
    // under the header, the one-row summary and the machine.
    let one = dir.join("one.html");
    let out = suite(
        &target,
        &[
            "--exact",
            "sort/kernels::sort_1k",
            "--report",
            one.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(announced(&out), one);
    let (width, height, pixels) = screenshot(&one, &dir.join("shot"), 1400);
    assert_eq!(pixels.len(), (width * height) as usize);
    let below = &pixels[(width * height / 3) as usize..];
    let inked = below.iter().filter(|p| **p != [255, 255, 255]).count();
    // The charts' blue bars and samples: text alone is grey or black.
    let blue = below
        .iter()
        .filter(|[r, g, b]| *b as i32 > *r as i32 + 40 && *b as i32 > *g as i32 + 10)
        .count();
    assert!(
        inked > 20_000,
        "the section is drawn: {inked} non-background pixels"
    );
    assert!(blue > 2_000, "its charts are drawn: {blue} blue pixels");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_against_run_writes_its_ratio_chart() {
    let dir = scratch_dir("html-against");
    let (this, other) = bench_tests::against_builds();
    let page = dir.join("against.html");
    let out = bench_tests::run(
        this,
        &[
            "--bench",
            "--against-exe",
            other.to_str().unwrap(),
            "--measure-time",
            "0.05",
            "--report",
            page.to_str().unwrap(),
            "unchanged",
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(announced(&out), page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<svg").count(), 1, "one ratio chart");
    assert!(
        html.contains("<th>unchanged</th>"),
        "its row names the benchmark"
    );
    assert!(html.contains("noise threshold"), "the band is explained");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Added to a copy of a page before chromium renders it: the boxes of
/// every non-empty SVG text, as the browser laid them out, checked against
/// each other (no two in one chart overlap) and against their chart (none
/// reaches outside it, where the SVG clips it); the findings go into the
/// DOM as JSON, for `--dump-dom`.
const TEXT_BOXES: &str = r#"<script>
(function () {
  const problems = [];
  const boxes = Array.from(document.querySelectorAll('svg text'))
    .filter(t => t.textContent.trim() !== '')
    .map(t => ({ t, svg: t.ownerSVGElement, r: t.getBoundingClientRect(),
                 s: t.ownerSVGElement.getBoundingClientRect() }));
  const name = b => JSON.stringify(b.t.textContent) + ' in '
    + JSON.stringify(b.svg.getAttribute('aria-label'));
  for (const b of boxes) {
    if (b.r.left < b.s.left - 0.5 || b.r.right > b.s.right + 0.5
        || b.r.top < b.s.top - 0.5 || b.r.bottom > b.s.bottom + 0.5) {
      problems.push('clipped: ' + name(b));
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], c = boxes[j];
      if (a.svg !== c.svg) continue;
      const w = Math.min(a.r.right, c.r.right) - Math.max(a.r.left, c.r.left);
      const h = Math.min(a.r.bottom, c.r.bottom) - Math.max(a.r.top, c.r.top);
      if (w > 0.5 && h > 0.5) {
        problems.push('overlap: ' + name(a) + ' and ' + JSON.stringify(c.t.textContent));
      }
    }
  }
  const pre = document.createElement('pre');
  pre.id = 'text-boxes';
  pre.textContent = JSON.stringify({ texts: boxes.length, problems });
  document.body.appendChild(pre);
})();
</script>"#;

/// How many texts the page's charts have, and which overlap or are
/// clipped, as chromium lays them out at 1200 pixels wide; and the DOM.
fn text_boxes(page: &Path, scratch: &Path) -> (u64, Vec<String>, String) {
    std::fs::create_dir_all(scratch).unwrap();
    let html = std::fs::read_to_string(page).unwrap();
    let checked = scratch.join("checked.html");
    std::fs::write(
        &checked,
        html.replace("</body>", &format!("{TEXT_BOXES}</body>")),
    )
    .unwrap();
    let out = headless(&scratch.join("profile"))
        .args(["--window-size=1200,900", "--dump-dom"])
        .arg(file_url(&checked))
        .output()
        .expect("chromium starts");
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = dom
        .split_once(r#"<pre id="text-boxes">"#)
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(json, _)| json.replace("&quot;", "\"").replace("&amp;", "&"))
        .unwrap_or_else(|| panic!("the script ran: {}", String::from_utf8_lossy(&out.stderr)));
    let found: serde_json::Value = serde_json::from_str(&json).expect("the script's JSON");
    let problems = found["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p.as_str()
                .unwrap()
                .replace("&lt;", "<")
                .replace("&gt;", ">")
        })
        .collect();
    (found["texts"].as_u64().unwrap(), problems, dom)
}

/// The functions among `names` with two or more numeric arguments.
fn functions_with_sizes<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut functions: Vec<(&str, usize)> = Vec::new();
    for name in names {
        let Some((function, arg)) = name.rsplit_once('/') else {
            continue;
        };
        if arg.parse::<f64>().is_err() {
            continue;
        }
        match functions.iter_mut().find(|(f, _)| *f == function) {
            Some((_, count)) => *count += 1,
            None => functions.push((function, 1)),
        }
    }
    functions
        .into_iter()
        .filter(|(_, count)| *count >= 2)
        .map(|(f, _)| f)
        .collect()
}

#[test]
fn the_suites_report_compares_groups_and_sizes_with_no_text_overlapping_or_clipped() {
    let dir = scratch_dir("html-compares");
    let target = dir.join("target");
    let reports = dir.join("reports");
    // (scaling::sort/10000 left out: under heavy load this debug build
    // sometimes records a NaN time for it and the analysis panics, before
    // and after this test's changes alike; `sort` keeps two sizes.)
    let out = suite(
        &target,
        &[
            "--report",
            reports.to_str().unwrap(),
            "--skip",
            "sort/10000",
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let page = announced(&out);
    let html = std::fs::read_to_string(&page).unwrap();
    // Each A/B group the run compared, by its table's title line.
    let groups: Vec<&str> = out
        .stdout
        .lines()
        .filter_map(|line| line.strip_prefix("group ")?.split(" · ").next())
        .collect();
    assert!(groups.len() >= 2, "{}", out.stdout);
    let listed = bench_tests::run(suite_binary(), &["--list", "--format", "terse"]);
    let functions = functions_with_sizes(&listed.listed());
    for expected in ["scaling::sort", "scaling::fnv1a_bytes"] {
        assert!(functions.contains(&expected), "{functions:?}");
    }
    let charts = |html: &str| {
        let group_charts: Vec<bool> = groups
            .iter()
            .map(|g| {
                html.contains(&format!(
                    r#"aria-label="members of group {g} side by side""#
                ))
            })
            .collect();
        let size_charts: Vec<bool> = functions
            .iter()
            .flat_map(|f| {
                ["time", "throughput"].map(|what| {
                    html.contains(&format!(
                        r#"aria-label="{what} against the argument of {f}, log–log""#
                    ))
                })
            })
            .collect();
        (group_charts, size_charts)
    };
    let (group_charts, size_charts) = charts(&html);
    assert!(
        group_charts.iter().all(|&c| c),
        "{groups:?}: {group_charts:?}"
    );
    // Both sized functions of the suite declare their work: two charts each.
    assert!(
        size_charts.iter().all(|&c| c),
        "{functions:?}: {size_charts:?}"
    );

    if chromium().is_none() {
        println!(
            "skipped the browser checks: chromium is not installed (apt-get install chromium)"
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    // The check can fail: two texts on one spot, one outside its chart.
    let control = dir.join("control.html");
    std::fs::write(
        &control,
        r#"<!DOCTYPE html><body><svg width="100" height="40" aria-label="c"><text x="5" y="20">one</text><text x="8" y="22">two</text><text x="90" y="20">cut off</text></svg></body>"#,
    )
    .unwrap();
    let (texts, problems, _) = text_boxes(&control, &dir.join("control"));
    assert_eq!(texts, 3);
    assert_eq!(
        problems,
        [
            r#"clipped: "cut off" in "c""#,
            r#"overlap: "one" in "c" and "two""#
        ]
    );

    let (texts, problems, dom) = text_boxes(&page, &dir.join("render"));
    assert!(texts > 500, "{texts} texts: the charts are laid out");
    assert_eq!(
        problems,
        Vec::<String>::new(),
        "overlapping or clipped text"
    );
    assert_eq!(
        charts(&dom),
        (group_charts, size_charts),
        "in the browser's DOM"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
