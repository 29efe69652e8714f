//! One benchmark's section: its headline, the distribution and timeline
//! charts, the overlay with the baseline and the change, and the figures,
//! counters, allocations, CPU time and notes as text.

use std::fmt::Write;

use super::charts::{self, Distribution, IntervalRow, TimeRange, Timeline};
use super::svg::escape;
use super::trend::{self, HistoryPoint};
use super::Baseline;
use crate::analysis::compare::Verdict;
use crate::analysis::{self, Interval};
use crate::report::format::{
    allocation_words, compared_words, count, counter_parts, headline_time, p_value, percent,
    result_rate, stop_word, time, too_fast_to_compare, Headline,
};
use crate::results::{BenchResult, Compared, Measured, Outcome};

/// The section of `result`, anchored at `id`.
pub(super) fn section(
    out: &mut String,
    id: &str,
    result: &BenchResult,
    baseline: Option<&Baseline<'_>>,
    history: &[HistoryPoint],
    flamegraph: Option<&str>,
) {
    let group = result
        .group
        .as_deref()
        .map(|g| format!(r#" <span class="group">group {}</span>"#, escape(g)))
        .unwrap_or_default();
    let _ = write!(
        out,
        r##"<section class="bench" id="{id}"><h2><a href="#{id}">{}</a>{group}</h2>"##,
        escape(&result.name)
    );
    match &result.outcome {
        Outcome::Measured(m) => measured(out, result, m, baseline, history),
        Outcome::Failed(failure) => {
            let _ = write!(
                out,
                r#"<p class="failed">FAILED: {}{}</p>"#,
                escape(&failure.message),
                failure
                    .location
                    .as_deref()
                    .map(|l| format!(" (at {})", escape(l)))
                    .unwrap_or_default()
            );
        }
        Outcome::Ignored => out.push_str(r#"<p class="muted">ignored: not run</p>"#),
        Outcome::Passed => out.push_str(r#"<p class="muted">ran once (test mode)</p>"#),
    }
    if let Some(href) = flamegraph {
        let _ = write!(
            out,
            r#"<p><a href="{}">Flame graph</a> of its routine, from the last --flamegraph run</p>"#,
            escape(href)
        );
    }
    out.push_str("</section>\n");
}

fn measured(
    out: &mut String,
    result: &BenchResult,
    m: &Measured,
    baseline: Option<&Baseline<'_>>,
    history: &[HistoryPoint],
) {
    let interval = m.estimate.interval.map(|i| (i.lower, i.upper));
    let headline = Headline::of(m);
    let ci = match headline.plus_minus() {
        Some(p) => p,
        None if headline.is_bound() => {
            r#"<span class="warn">(a bound: the interval reaches zero)</span>"#.to_string()
        }
        None => "no interval".to_string(),
    };
    let mark = if m.reliable() {
        ""
    } else {
        r#" <span class="warn">(unreliable)</span>"#
    };
    let _ = write!(
        out,
        r#"<p class="headline"><b>{}</b> {ci}{mark}{}{}</p>"#,
        escape(&headline.time()),
        interval
            .map(|(lo, hi)| format!(" · 95% CI [{}, {}]", time(lo), time(hi)))
            .unwrap_or_default(),
        result_rate(result)
            .map(|rate| format!(" · {}", escape(&rate)))
            .unwrap_or_default(),
    );

    let old = baseline.and_then(|b| b.per_iter(&result.name));
    let mut keep = vec![m.headline()];
    keep.extend(interval.iter().flat_map(|&(a, b)| [a, b]));
    keep.extend(&m.estimate.block_means);
    let range = TimeRange::of(&m.per_iter, &m.outliers.fences, &keep);
    let p = &m.summary.percentiles;
    out.push_str(r#"<div class="plots"><figure>"#);
    out.push_str(&charts::distribution(&Distribution {
        per_iter: &m.per_iter,
        range,
        headline: m.headline(),
        interval,
        fences: m.outliers.fences,
        percentiles: [
            ("p50", p.p50),
            ("p90", p.p90),
            ("p95", p.p95),
            ("p99", p.p99),
            ("p99.9", p.p99_9),
        ],
    }));
    let _ = write!(
        out,
        "<figcaption>Distribution of {} samples' time per iteration (bars), their CDF \
         (line) with p50–p99.9, the headline (time) and its 95% CI (band); bars beyond \
         the Tukey fences are outliers{}.</figcaption></figure><figure>",
        m.summary.n,
        if range.clipped > 0 {
            format!(
                "; {} samples beyond the outer fences are counted at the edge (max {})",
                range.clipped,
                time(m.summary.max)
            )
        } else {
            String::new()
        }
    );
    let elapsed: Vec<f64> = m.measurement.samples.iter().map(|s| s.elapsed.0).collect();
    let starts = analysis::block_starts(m.per_iter.len(), &m.measurement.slice_starts);
    let warm = &m.measurement.warm_up;
    out.push_str(&charts::timeline(&Timeline {
        per_iter: &m.per_iter,
        elapsed: &elapsed,
        range,
        slice_starts: &m.measurement.slice_starts,
        slice_clock: &m.extras.slice_clock,
        blocks: starts
            .iter()
            .copied()
            .zip(m.estimate.block_means.iter().copied())
            .collect(),
        headline: m.headline(),
        interval,
        fences: m.outliers.fences,
        warm_up: (warm.time.0, warm.samples, warm.steady),
    }));
    let _ = write!(
        out,
        "<figcaption>Each sample against {}: {} slices (thin lines), each block's mean (short bars), the headline and its CI; the \
         warm-up's {} samples ({}) were discarded and are shaded, not drawn{}.</figcaption></figure>",
        if m.extras.slice_clock.is_empty() {
            "this benchmark's own measuring time (the slices' times are not known)"
        } else {
            "when it was taken, since the run's first slice (gaps: other benchmarks ran)"
        },
        m.measurement.slice_starts.len(),
        warm.samples,
        time(warm.time.0),
        if m.per_iter.len() > charts::TIMELINE_POINTS {
            format!(
                "; {} samples thinned to the fastest and slowest of each run of {}",
                m.per_iter.len(),
                m.per_iter.len().div_ceil(charts::TIMELINE_POINTS / 2)
            )
        } else {
            String::new()
        }
    );
    if let (Some(Compared::Against(c)), Some(b)) = (&result.comparison, baseline) {
        if let Some((old, old_fences)) = &old {
            // Both runs' samples in view, each cut at its own outer fences.
            let mut keep = keep.clone();
            keep.extend([c.old, c.new]);
            let old_range = TimeRange::of(old, old_fences, &keep);
            let new_range = TimeRange::of(&m.per_iter, &m.outliers.fences, &keep);
            let range = TimeRange {
                lo: old_range.lo.min(new_range.lo),
                hi: old_range.hi.max(new_range.hi),
                clipped: 0,
            };
            out.push_str("<figure>");
            out.push_str(&charts::overlay(old, &m.per_iter, range, c.old, c.new));
            let _ = write!(
                out,
                "<figcaption>This run (blue) over baseline '{}' (grey): the share of \
                 samples per bin (samples beyond each run's outer fences counted at the \
                 edges), and both headlines.</figcaption></figure>",
                escape(b.name)
            );
        }
        match &c.ratio {
            Some(r) => {
                let class = verdict_class(r.verdict);
                out.push_str("<figure>");
                out.push_str(&charts::intervals(
                    &[IntervalRow {
                        name: "change".into(),
                        value: r.change,
                        interval: r.change_interval,
                        class,
                    }],
                    0.0,
                    Some((-b.threshold, b.threshold)),
                    &signed_percent,
                    "change against the baseline, 95% CI, noise band shaded",
                ));
                let _ = write!(
                    out,
                    r#"<figcaption>{} → {}: change {} [{}, {}] against '{}': <b class="{class}">{}</b> (noise band ±{}; p-value Welch {}).</figcaption></figure>"#,
                    time(c.old),
                    time(c.new),
                    signed_percent(r.change),
                    signed_percent(r.change_interval.0),
                    signed_percent(r.change_interval.1),
                    escape(b.name),
                    escape(&compared_words(c, r)),
                    percent(b.threshold),
                    p_value(r.p_welch),
                );
            }
            None => {
                let _ = write!(
                    out,
                    r#"<p class="muted">{}</p>"#,
                    escape(&too_fast_to_compare(
                        ("this run", c.new),
                        ("the baseline", c.old)
                    ))
                );
            }
        }
    } else if let Some(Compared::New) = &result.comparison {
        out.push_str(r#"<p class="muted">New: not in the baseline.</p>"#);
    }
    if history.len() >= 2 {
        if let Some(chart) = trend::trend(history) {
            out.push_str("<figure>");
            out.push_str(&chart);
            let steps = history.iter().filter(|p| p.is_change_point).count();
            let _ = write!(
                out,
                "<figcaption>History: this benchmark's last {} runs on record (latest \
                 last), each headline with its 95% CI, labelled by commit; {} change \
                 point{} (red) where the time stepped by more than the runs' intervals \
                 and the machine's own change explain (E-divisive with means).</figcaption></figure>",
                history.len(),
                steps,
                if steps == 1 { "" } else { "s" },
            );
        }
    }
    out.push_str("</div>");
    facts(out, m);
}

/// The figures beside the plots.
fn facts(out: &mut String, m: &Measured) {
    let s = &m.summary;
    let p = &s.percentiles;
    let interval = |ci: Option<Interval>| {
        ci.map_or("-".to_string(), |ci| {
            format!("[{}, {}]", time(ci.lower), time(ci.upper))
        })
    };
    let o = &m.outliers;
    let w = &m.measurement.warm_up;
    let mut rows: Vec<(&str, String)> = vec![
        (
            "time",
            format!(
                "{} (mean cost of a call over {} of {} blocks; {})",
                headline_time(m),
                m.estimate.kept_blocks,
                m.estimate.block_means.len(),
                if m.estimate.kept_all_disturbed {
                    "the machine was disturbed nearly throughout, so all count"
                } else {
                    "the rest the machine disturbed"
                }
            ),
        ),
        (
            "pooled",
            format!(
                "median {} {} · mean {} {} · std dev {} · CV {}",
                time(s.median),
                interval(s.median_interval),
                time(s.mean),
                interval(s.mean_interval),
                time(s.std_dev),
                percent(s.coefficient_of_variation),
            ),
        ),
        (
            "percentiles",
            format!(
                "p50 {} · p90 {} · p95 {} · p99 {} · p99.9 {} · min {} · max {}",
                time(p.p50),
                time(p.p90),
                time(p.p95),
                time(p.p99),
                time(p.p99_9),
                time(s.min),
                time(s.max)
            ),
        ),
        (
            "outliers",
            format!(
                "{} low severe, {} low mild, {} high mild, {} high severe (fences {} .. {}); {} beyond 3σ",
                o.low_severe,
                o.low_mild,
                o.high_mild,
                o.high_severe,
                time(o.fences.lower_inner),
                time(o.fences.upper_inner),
                o.beyond_3_sigma
            ),
        ),
        (
            "spread",
            format!(
                "within slices {}{}",
                percent(m.within_slice_spread),
                m.drift
                    .map(|d| format!(" · between slices (drift) {}", percent(d)))
                    .unwrap_or_default()
            ),
        ),
        (
            "sampling",
            format!(
                "{} samples, {} iterations · warm-up {} in {} samples, {} · {} re-warm samples discarded · {} in all · stopped: {}",
                s.n,
                count(m.total_iters()),
                time(w.time.0),
                w.samples,
                match (w.steady, w.final_cv) {
                    (true, Some(cv)) => format!("steady (CV {})", percent(cv)),
                    (false, Some(cv)) => format!("not steady (CV {})", percent(cv)),
                    (_, None) => "not steady".to_string(),
                },
                m.measurement.rewarm_samples,
                time(m.measurement.total_time.0),
                stop_word(m.measurement.stop),
            ),
        ),
    ];
    let extras = &m.extras;
    if let Some(parts) = counter_parts(extras) {
        rows.push(("counters / iter", parts.join(" · ")));
    }
    if let Some(a) = m.allocations() {
        rows.push(("allocations / iter", allocation_words(&a)));
    }
    if let Some((cpu, wall)) = extras.cpu {
        let cpus: Vec<String> = extras.cpus.iter().map(usize::to_string).collect();
        rows.push((
            "CPU time",
            format!(
                "{} user + {} system of {} wall ({}) · on CPU {}",
                time(cpu.user.0),
                time(cpu.system.0),
                time(wall.0),
                percent(extras.cpu_ratio().unwrap_or(0.0)),
                cpus.join(", ")
            ),
        ));
    }
    if let Some(forks) = &m.forks {
        let times: Vec<String> = forks.process_estimates.iter().map(|&t| time(t)).collect();
        rows.push((
            "processes",
            format!(
                "{} · between {} · within {}{}",
                times.join(", "),
                percent(forks.between),
                percent(forks.within),
                forks
                    .p_value
                    .map(|p| format!(" · p-value {}", p_value(p)))
                    .unwrap_or_default()
            ),
        ));
    }
    out.push_str(r#"<table class="facts">"#);
    for (key, value) in rows {
        let _ = write!(
            out,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(key),
            escape(&value)
        );
    }
    out.push_str("</table>");
    if !m.notes.is_empty() {
        out.push_str(r#"<ul class="notes">"#);
        for note in &m.notes {
            let _ = write!(out, "<li>{}</li>", escape(&note.to_string()));
        }
        out.push_str("</ul>");
    }
}

pub(super) fn verdict_class(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Slower => "slower",
        Verdict::Faster => "faster",
        Verdict::NoDifference | Verdict::Unclear => "same",
    }
}

/// `+3.21%`, `-0.50%`.
pub(super) fn signed_percent(change: f64) -> String {
    if change.is_finite() {
        format!("{:+.2}%", change * 100.0)
    } else if change > 0.0 {
        "+∞".to_string()
    } else {
        "n/a".to_string()
    }
}
