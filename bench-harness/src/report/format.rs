//! Number formatting shared by reporters, and the escaping of text from
//! outside the program (`text::escape`, re-exported).

use bench_runtime::counter::Event;
use bench_runtime::{StopReason, Throughput};

use crate::analysis::compare::{Comparison, PairedComparison, Ratio, Verdict};
use crate::instruments::{AllocRates, Extras};
use crate::results::comparison::GROUP_NOISE_THRESHOLD;
use crate::results::RunInfo;
use crate::settings::{BytesUnit, Schedule};
pub(crate) use crate::text::{escape, percent};

/// What every output of a run stopped by Ctrl-C says of it (the JSON
/// document has `"partial": true`), so that no format reads as a whole run.
pub(crate) const PARTIAL_RUN: &str = "interrupted: partial results (measuring stopped at \
     Ctrl-C; benchmarks not yet measured are missing, and the one under way has fewer \
     samples than asked for)";

pub(crate) use crate::results::HEADLINE_METHOD;

/// How the run ordered its samples, in the method sentence of the
/// terminal's header and the HTML page: `interleaved rounds (--seed 42)`,
/// `sequential`.
pub(crate) fn schedule_words(info: &RunInfo) -> String {
    match info.schedule {
        Schedule::Interleaved => format!("interleaved rounds (--seed {})", info.seed),
        Schedule::Sequential => "sequential".to_string(),
    }
}

/// When sampling stopped, in the same sentence: `until the time is known
/// to ±1.00%`, `for --measure-time`.
pub(crate) fn stop_words(info: &RunInfo) -> String {
    if info.target_precision > 0.0 {
        format!(
            "until the time is known to ±{}",
            percent(info.target_precision)
        )
    } else {
        "for --measure-time".to_string()
    }
}

/// The loop overhead taken out of every sample, in the same sentence:
/// `loop overhead subtracted: 30.00 ns per sample + 500.0 ps ± 0.000 ps per
/// iteration`.
pub(crate) fn overhead_words(info: &RunInfo) -> String {
    format!(
        "loop overhead subtracted: {} per sample + {} ± {} per iteration",
        time(info.overhead.per_sample.0),
        time(info.overhead.per_iter.0),
        time(info.overhead.per_iter_uncertainty.0),
    )
}

/// `text` followed by spaces up to `width` characters: what `{:<w$}`
/// does, for a width known only at run time. std panics on a width above
/// 65,535 (`Formatting argument out of range`), and a column as wide as a
/// benchmark's name can be wider, so no runtime width goes through a format
/// string (`report::tests` holds that rule over the source).
pub(crate) fn pad_end(text: &str, width: usize) -> String {
    let fill = width.saturating_sub(text.chars().count());
    let mut padded = String::with_capacity(text.len() + fill);
    padded.push_str(text);
    padded.extend(std::iter::repeat_n(' ', fill));
    padded
}

/// Spaces up to `width` characters, then `text`: `{:>w$}` for a width
/// known only at run time (see [`pad_end`]).
pub(crate) fn pad_start(text: &str, width: usize) -> String {
    let fill = width.saturating_sub(text.chars().count());
    let mut padded = String::with_capacity(text.len() + fill);
    padded.extend(std::iter::repeat_n(' ', fill));
    padded.push_str(text);
    padded
}

pub(crate) use crate::analysis::Headline;

/// How [`Headline`] reads in every output for people.
impl Headline {
    /// `m`'s headline as it reads.
    pub(crate) fn of(m: &crate::results::Measured) -> Headline {
        let interval = m.estimate.interval.map(|ci| (ci.lower, ci.upper));
        Headline::new(m.headline(), interval)
    }

    /// The time column: `25.31 ns`, `<2.750 ps`, `≈0 ps`. Never negative,
    /// and always a value and a unit, for whoever splits a table on white
    /// space.
    pub(crate) fn time(&self) -> String {
        match *self {
            Headline::Time { nanos, .. } => time(nanos),
            Headline::AtMost { upper } => format!("<{}", time(upper)),
            Headline::Zero => "≈0 ps".to_string(),
        }
    }

    /// The ± column: `±0.45%`; `None` for a bound or without an interval.
    pub(crate) fn plus_minus(&self) -> Option<String> {
        self.relative_half_width()
            .map(|p| format!("±{}", percent(p)))
    }
}

/// The rerun column of `m`: `±12.0%`, where a rerun's time falls (95%),
/// from its history ([`Headline::rerun_plus_minus`]); `None` where the
/// history gave no term or the row is a bound.
pub(crate) fn rerun_cell(m: &crate::results::Measured) -> Option<String> {
    let rerun = Headline::of(m).rerun_plus_minus(m.rerun?)?;
    Some(format!("±{}", percent(rerun)))
}

/// Whether some row of `results` has a rerun column.
pub(crate) fn rerun_term(results: &[crate::results::BenchResult]) -> bool {
    results
        .iter()
        .filter_map(crate::results::BenchResult::measured)
        .any(|m| rerun_cell(m).is_some())
}

/// What the rerun figure is, for the headers and the `--details` line.
pub(crate) const RERUN_MEANS: &str =
    "where 95% of reruns' times fall, from this benchmark's last runs of the same code";

/// What a row's ± covers, in full and short: the processes measured (their
/// memory layouts).
pub(crate) fn what_the_interval_covers(info: &RunInfo) -> (String, String) {
    match info.forks {
        Some(1) => (
            "for one process (one memory layout; --forks 1)".to_string(),
            "for 1 process".to_string(),
        ),
        Some(processes) => (
            format!("over {processes} processes (their memory layouts; --forks), this machine"),
            format!("over {processes} processes"),
        ),
        None => (
            "for this process (one memory layout; --forks 0)".to_string(),
            "for this process".to_string(),
        ),
    }
}

/// [`Headline::time`] of `m`.
pub(crate) fn headline_time(m: &crate::results::Measured) -> String {
    Headline::of(m).time()
}

/// A time in nanoseconds with four significant digits and a unit scaled to
/// the value: `412.0 ps`, `25.31 ns`, `1.204 µs`, `15.00 ms`, `2.000 s`.
pub(crate) fn time(nanos: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (1e-3, "ps"),
        (1.0, "ns"),
        (1e3, "µs"),
        (1e6, "ms"),
        (1e9, "s"),
    ];
    if !nanos.is_finite() {
        return format!("{nanos} ns");
    }
    let magnitude = nanos.abs();
    let (scale, unit) = UNITS
        .iter()
        .rev()
        .find(|(scale, _)| magnitude >= *scale)
        .copied()
        .unwrap_or(UNITS[0]);
    format!("{} {unit}", significant(nanos / scale))
}

/// A ratio in at most 6 characters, for the compact tables: 4 decimals
/// below 10, fewer above (`1.0003`, `12.346`, `178.57`, `2500`, `3e6`).
pub(crate) fn ratio(r: f64) -> String {
    let a = r.abs();
    if r.is_nan() {
        "?".to_string()
    } else if a < 9.99995 {
        format!("{r:.4}")
    } else if a < 99.9995 {
        format!("{r:.3}")
    } else if a < 999.995 {
        format!("{r:.2}")
    } else if a < 999_999.5 {
        format!("{r:.0}")
    } else {
        format!("{r:.0e}")
    }
}

/// A ratio and its interval in at most 6 + 16 characters: `1.0003`,
/// `[0.9998, 1.0009]`.
pub(crate) fn ratio_and_interval(r: f64, (low, high): (f64, f64)) -> (String, String) {
    (ratio(r), format!("[{}, {}]", ratio(low), ratio(high)))
}

/// A verdict as the reports print it: `unclear` with the largest change
/// its interval still allows (`unclear, up to +3.58%`), the others as
/// their names.
pub(crate) fn verdict_words(verdict: Verdict, largest_change: f64) -> String {
    match verdict {
        Verdict::Unclear if largest_change.is_finite() => {
            format!("unclear, up to {:+.2}%", largest_change * 100.0)
        }
        other => other.to_string(),
    }
}

/// A baseline comparison's verdict as the reports print it: as
/// [`verdict_words`] says it, or `unclear, measured two ways` for a row
/// measured otherwise in the baseline ([`Comparison::two_ways`]), whose
/// interval is the method's as much as the code's.
pub(crate) fn compared_words(c: &Comparison, r: &Ratio) -> String {
    if c.two_ways {
        "unclear, measured two ways".to_string()
    } else {
        verdict_words(r.verdict, r.largest_change())
    }
}

/// The verdicts counted, as every summary line says them: `2 slower,
/// 1 faster, 16 no difference` (slower, faster, unclear, no difference;
/// the kinds none reached left out), or `none compared`.
pub(crate) fn verdict_counts(verdicts: impl IntoIterator<Item = Verdict>) -> String {
    let verdicts: Vec<Verdict> = verdicts.into_iter().collect();
    let counted: Vec<String> = [
        Verdict::Slower,
        Verdict::Faster,
        Verdict::Unclear,
        Verdict::NoDifference,
    ]
    .into_iter()
    .map(|kind| (kind, verdicts.iter().filter(|v| **v == kind).count()))
    .filter(|(_, n)| *n > 0)
    .map(|(kind, n)| format!("{n} {kind}"))
    .collect();
    if counted.is_empty() {
        "none compared".to_string()
    } else {
        counted.join(", ")
    }
}

/// An A/B member's verdict at the groups' threshold, and as the reports
/// print it.
pub(crate) fn group_verdict(p: &PairedComparison) -> (Verdict, String) {
    let verdict = p.verdict(GROUP_NOISE_THRESHOLD);
    (verdict, verdict_words(verdict, p.largest_change()))
}

/// A paired comparison with no ratio: both sides' times within the loop
/// overhead's noise (`analysis::compare::compare_replicated`), each named.
pub(crate) fn too_fast_to_compare((a, a_ns): (&str, f64), (b, b_ns): (&str, f64)) -> String {
    format!(
        "too fast to compare: {a} {}, {b} {} an iteration, both within the loop overhead's \
         noise; give each iteration more work",
        time(a_ns),
        time(b_ns)
    )
}

/// A result's rate, in the byte unit chosen for it (`--bytes-unit`,
/// `bytes_unit`), when it has one.
pub(crate) fn result_rate(result: &crate::results::BenchResult) -> Option<String> {
    let (throughput, per_second) = result.rate()?;
    Some(rate_in(throughput, per_second, result.bytes_unit))
}

/// Work per second with four significant digits and a unit scaled to the
/// value: `512.0 B/s`, `3.215 GB/s`, `12.00 items/s`, `4.100 M items/s`;
/// bytes in steps of 1024 (`KiB/s`, `MiB/s`, `GiB/s`) under
/// [`BytesUnit::Binary`], items always in steps of 1000.
pub(crate) fn rate_in(throughput: Throughput, per_second: f64, bytes: BytesUnit) -> String {
    const BYTES: [&str; 5] = ["B/s", "KB/s", "MB/s", "GB/s", "TB/s"];
    const BINARY_BYTES: [&str; 5] = ["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"];
    const ITEMS: [&str; 5] = [
        "items/s",
        "K items/s",
        "M items/s",
        "G items/s",
        "T items/s",
    ];
    let (units, step) = match (throughput, bytes) {
        (Throughput::Bytes(_), BytesUnit::Decimal) => (BYTES, 1000.0),
        (Throughput::Bytes(_), BytesUnit::Binary) => (BINARY_BYTES, 1024.0),
        (Throughput::Items(_), _) => (ITEMS, 1000.0),
    };
    if !per_second.is_finite() {
        return format!("{per_second} {}", units[0]);
    }
    let mut value = per_second;
    let mut unit = 0;
    // At 1000 and above the next unit, in either system: 1010 B/s is
    // `0.986 KiB/s`, so a figure never has more than three digits before
    // its point.
    while value >= 1000.0 && unit + 1 < units.len() {
        value /= step;
        unit += 1;
    }
    format!("{} {}", significant(value), units[unit])
}

/// Why sampling stopped, in one word: the table's `stop` column and CSV's.
pub(crate) fn stop_word(stop: StopReason) -> &'static str {
    match stop {
        StopReason::Precise => "precise",
        StopReason::TimeBudget => "budget",
        StopReason::SampleCap => "cap",
        StopReason::MaxTime => "max-time",
        StopReason::Abandoned => "stopped",
        StopReason::ProcessCap => "processes",
    }
}

/// A count with a metric suffix: `950`, `12.3K`, `4.19M`, `1.07G`.
pub(crate) fn count(n: u64) -> String {
    let n = n as f64;
    match n {
        n if n < 1e3 => format!("{n}"),
        n if n < 1e6 => format!("{}K", significant3(n / 1e3)),
        n if n < 1e9 => format!("{}M", significant3(n / 1e6)),
        n => format!("{}G", significant3(n / 1e9)),
    }
}

/// Four significant digits for values in [0, 1000).
fn significant(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude >= 100.0 {
        format!("{value:.1}")
    } else if magnitude >= 10.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

fn significant3(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// A p-value: `0.0012`, `<0.0001`.
pub(crate) fn p_value(p: f64) -> String {
    if !p.is_finite() {
        "-".to_string()
    } else if p < 1e-4 {
        "<0.0001".to_string()
    } else {
        format!("{p:.4}")
    }
}

/// The counters per iteration, for every view that shows them (the
/// terminal under the row, the HTML page): `1.20K instructions · 0.0020
/// page-faults · IPC 2.10 · 1.50% branch-miss rate`. `None` when none were
/// counted.
pub(crate) fn counter_parts(extras: &Extras) -> Option<Vec<String>> {
    if extras.counters.is_empty() {
        return None;
    }
    let per = |e: Event| extras.per_iteration(e);
    let mut parts: Vec<String> = extras
        .counters
        .iter()
        .map(|(event, _)| {
            let value = per(*event).unwrap_or(0.0);
            match event {
                Event::TaskClock => format!("{} {}", time(value), event.name()),
                _ => format!("{} {}", amount(value), event.name()),
            }
        })
        .collect();
    if let (Some(i), Some(c)) = (per(Event::Instructions), per(Event::Cycles)) {
        parts.push(format!("IPC {:.2}", i / c.max(f64::MIN_POSITIVE)));
    }
    for (misses, of, what) in [
        (Event::BranchMisses, Event::Branches, "branch-miss rate"),
        (
            Event::CacheMisses,
            Event::CacheReferences,
            "cache-miss rate",
        ),
        (
            Event::L1dReadMisses,
            Event::L1dReadAccesses,
            "L1d-miss rate",
        ),
    ] {
        if let (Some(m), Some(o)) = (per(misses), per(of)) {
            if o > 0.0 {
                parts.push(format!("{} {what}", percent(m / o)));
            }
        }
    }
    if extras.multiplexed {
        parts.push("(multiplexed: scaled)".to_string());
    }
    Some(parts)
}

/// Allocations per iteration, for every view that shows them: `3.00
/// allocs · 3.00 deallocs · 0.00 reallocs · 1.20K bytes`, a rare one kept
/// to two significant digits ([`amount`]).
pub(crate) fn allocation_words(a: &AllocRates) -> String {
    format!(
        "{} allocs · {} deallocs · {} reallocs · {} bytes",
        amount(a.allocations),
        amount(a.deallocations),
        amount(a.reallocations),
        amount(a.bytes_allocated),
    )
}

/// A count per iteration: `0.00`, `0.0020`, `12.50`, `3.20K`. Positive
/// values under 0.01 keep two significant digits (a page fault every 512
/// calls is 0.0020, not 0.00); negative ones, left over from subtracting
/// the reads' own counts, do not.
pub(crate) fn amount(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let magnitude = value.abs();
    if value > 0.0 && magnitude < 0.01 {
        let decimals = |v: f64| (1.0 - v.log10().floor()).clamp(2.0, 15.0) as i32;
        let scale = 10f64.powi(decimals(magnitude));
        // Rounded first: 0.00999 is 0.010, and then takes the usual form.
        let rounded = (magnitude * scale).round() / scale;
        if rounded == 0.0 {
            return "0.00".to_string();
        }
        if rounded < 0.01 {
            return format!("{rounded:.*}", decimals(rounded) as usize);
        }
    }
    if magnitude < 1000.0 {
        format!("{value:.2}")
    } else if value < 0.0 {
        format!("-{}", count(magnitude.round() as u64))
    } else {
        count(value.round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn rate(throughput: Throughput, per_second: f64) -> String {
        rate_in(throughput, per_second, BytesUnit::Decimal)
    }

    #[test]
    fn ratios_fit_six_characters_at_any_size() {
        for (r, text) in [
            (1.00031, "1.0003"),
            (0.0368, "0.0368"),
            (12.3456, "12.346"),
            (178.571, "178.57"),
            (2500.4, "2500"),
            (3.2e6, "3e6"),
            (f64::NAN, "?"),
        ] {
            assert_eq!(ratio(r), text);
            assert!(text.chars().count() <= 6);
        }
        let (_, interval) = ratio_and_interval(178.0, (150.25, 9999.0));
        assert_eq!(interval, "[150.25, 9999]");
    }

    #[test]
    fn times_scale_their_unit_per_value() {
        assert_eq!(time(0.412), "412.0 ps");
        assert_eq!(time(0.0), "0.000 ps");
        assert_eq!(time(25.314), "25.31 ns");
        assert_eq!(time(999.94), "999.9 ns");
        assert_eq!(time(1_204.0), "1.204 µs");
        assert_eq!(time(15_000_000.0), "15.00 ms");
        assert_eq!(time(2e9), "2.000 s");
        assert_eq!(time(7.2e12), "7200.0 s");
        // Overhead-corrected estimates can dip below zero: scaled by magnitude.
        assert_eq!(time(-3.0), "-3.000 ns");
    }

    /// The empty body: 1.063 ps with the interval [−0.62, 2.75] ps
    /// printed `±0.55%`, relative to the loop's cost. Only the bound is a
    /// figure.
    #[test]
    fn an_interval_that_reaches_zero_prints_as_a_bound() {
        let empty = Headline::new(0.001063, Some((-0.00062, 0.00275)));
        assert_eq!(empty, Headline::AtMost { upper: 0.00275 });
        assert_eq!(empty.time(), "<2.750 ps");
        assert_eq!(empty.plus_minus(), None);
        assert!(empty.is_bound());
        // A ± wider than the time, on its upper side only.
        let lopsided = Headline::new(1.0, Some((0.5, 2.5)));
        assert_eq!(lopsided.time(), "<2.500 ns");
        // Below zero, with or without an interval.
        assert_eq!(Headline::new(-0.2, Some((-0.4, 0.1))).time(), "<100.0 ps");
        assert_eq!(Headline::new(-0.2, Some((-0.4, -0.1))).time(), "≈0 ps");
        assert_eq!(Headline::new(-0.2, None).time(), "≈0 ps");
        assert_eq!(Headline::new(0.0, Some((0.0, 0.0))).time(), "≈0 ps");
    }

    /// Elsewhere, the time and its half-width relative to it.
    #[test]
    fn an_interval_above_zero_prints_as_a_time_and_its_plus_minus() {
        let steady = Headline::new(25.314, Some((25.2, 25.428)));
        assert_eq!(steady.time(), "25.31 ns");
        assert_eq!(steady.plus_minus().as_deref(), Some("±0.45%"));
        assert!(!steady.is_bound());
        // Relative to the time, not to the loop's cost: 0.2 ± 0.1 ns.
        let cheap = Headline::new(0.2, Some((0.1, 0.3)));
        assert_eq!(cheap.plus_minus().as_deref(), Some("±50.0%"));
        let single = Headline::new(3.0, None);
        assert_eq!(
            (single.time(), single.plus_minus()),
            ("3.000 ns".to_string(), None)
        );
    }

    #[test]
    fn rates_scale_by_thousands() {
        assert_eq!(rate(Throughput::Bytes(1), 512.0), "512.0 B/s");
        assert_eq!(rate(Throughput::Bytes(1), 3.215e9), "3.215 GB/s");
        assert_eq!(rate(Throughput::Bytes(1), 45_600.0), "45.60 KB/s");
        assert_eq!(rate(Throughput::Items(1), 12.0), "12.00 items/s");
        assert_eq!(rate(Throughput::Items(1), 4.1e6), "4.100 M items/s");
        assert_eq!(rate(Throughput::Items(1), 2.5e9), "2.500 G items/s");
    }

    #[test]
    fn binary_byte_rates_step_by_1024() {
        let binary = |per_second| rate_in(Throughput::Bytes(1), per_second, BytesUnit::Binary);
        assert_eq!(binary(512.0), "512.0 B/s");
        assert_eq!(binary(1024.0), "1.000 KiB/s");
        assert_eq!(binary(3.0 * 1024.0 * 1024.0 * 1024.0), "3.000 GiB/s");
        assert_eq!(binary(1010.0), "0.986 KiB/s");
        // Items are counted in thousands whatever the byte unit.
        let items = rate_in(Throughput::Items(1), 4.1e6, BytesUnit::Binary);
        assert_eq!(items, "4.100 M items/s");
    }

    #[test]
    fn counts_use_metric_suffixes() {
        assert_eq!(count(950), "950");
        assert_eq!(count(12_345), "12.3K");
        assert_eq!(count(4_194_304), "4.19M");
        assert_eq!(count(1_073_741_824), "1.07G");
    }

    #[test]
    fn percentages() {
        assert_eq!(percent(0.0071), "0.71%");
        assert_eq!(percent(0.153), "15.3%");
    }

    #[test]
    fn outside_text_reaches_the_terminal_escaped() {
        assert!(matches!(escape("sort/1000 ✓ é"), Cow::Borrowed(_)));
        assert_eq!(escape("a\nb\r\tc"), "a\\nb\\r\\tc");
        assert_eq!(escape("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(escape("\u{7f}\u{9b}\0"), "\\u{7f}\\u{9b}\\u{0}");
        assert_eq!(escape("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(escape("x\u{2028}y"), "x\\u{2028}y");
        assert_eq!(escape("C:\\path"), "C:\\path");
    }

    #[test]
    fn a_rare_event_per_iteration_keeps_two_significant_digits() {
        // A `Vec` of u64 faults a page in every 512 pushes.
        assert_eq!(amount(1.0 / 512.0), "0.0020");
        assert_eq!(amount(5.2e-6), "0.0000052");
        assert_eq!(amount(0.0), "0.00");
        assert_eq!(amount(0.25), "0.25");
        assert_eq!(amount(3200.0), "3.20K");
        // Two digits after rounding, then the usual form from 0.01.
        assert_eq!(amount(0.00999), "0.01");
        assert_eq!(amount(0.00995), "0.01");
        assert_eq!(amount(0.00099999), "0.0010");
        assert_eq!(amount(0.01), "0.01");
        assert_eq!(amount(1e-13), "0.00000000000010");
        assert_eq!(amount(3e-16), "0.00");
        // What subtracting the reads' own counts leaves is no finer.
        assert_eq!(amount(-0.0003), "-0.00");
        assert_eq!(amount(-2500.0), "-2.50K");
        assert_eq!(amount(f64::NAN), "NaN");
    }
}
