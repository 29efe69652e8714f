//! `--history`: the last runs of each selected benchmark, as the history
//! file holds them, change points marked.
//!
//! ```text
//! kernels::sort_1k: 14 runs, the last 10
//!   2026-11-23T10:02:11Z  1c9e0a4d        7.078 µs  ±0.8%
//!   2026-11-23T10:40:53Z  5e6f7a8b dirty  8.512 µs  ±0.9%  ◆ change point: +20.3%
//! ```
//!
//! The change is the new level's median against the old one's (from
//! [`crate::history::steps`]). When a benchmark's runs come from several
//! machines or configurations, each line names its series.

use std::io::{self, Write};

use super::format::escape;
use crate::history::{CodeAcross, Record, Step};

/// How many runs `--history` shows per benchmark.
pub(crate) const SHOWN_RUNS: usize = 10;

/// One benchmark's runs, oldest first, and the change points among them.
pub(crate) struct Shown<'a> {
    pub(crate) name: &'a str,
    pub(crate) runs: Vec<&'a Record>,
    pub(crate) changes: Vec<Step>,
}

/// Writes each benchmark's last [`SHOWN_RUNS`] runs; `path` is the file
/// they come from, named when there is nothing to show.
pub(crate) fn write(
    out: &mut dyn Write,
    path: &std::path::Path,
    benchmarks: &[Shown<'_>],
) -> io::Result<()> {
    if benchmarks.iter().all(|b| b.runs.is_empty()) {
        return writeln!(
            out,
            "no history for the selected benchmarks in {}: every measured run adds to it \
             (unless --no-history)",
            escape(&path.display().to_string())
        );
    }
    for (n, benchmark) in benchmarks.iter().enumerate() {
        if n > 0 {
            writeln!(out)?;
        }
        let total = benchmark.runs.len();
        let name = escape(benchmark.name);
        if total == 0 {
            writeln!(out, "{name}: no runs recorded")?;
            continue;
        }
        let first = total.saturating_sub(SHOWN_RUNS);
        match total {
            1 => writeln!(out, "{name}: 1 run")?,
            _ if first == 0 => writeln!(out, "{name}: {total} runs")?,
            _ => writeln!(out, "{name}: {total} runs, the last {SHOWN_RUNS}")?,
        }
        let several_series = benchmark
            .runs
            .iter()
            .any(|r| r.series_key() != benchmark.runs[0].series_key());
        for (index, run) in benchmark.runs.iter().enumerate().skip(first) {
            let commit = run.commit.as_deref().map_or("(no git)".into(), |c| {
                escape(&first_chars(c, 8)).into_owned()
            });
            let dirty = if run.dirty == Some(true) { "dirty" } else { "" };
            // As the run's table printed it: a bound where the interval
            // reaches zero.
            let headline = run.headline();
            let spread = match headline.relative_half_width() {
                Some(spread) if spread > 0.0 => format!("±{:.1}%", spread * 100.0),
                _ => String::new(),
            };
            let mut line = format!(
                "  {}  {commit:<8} {dirty:<5}  {:>10}  {spread:<6}",
                escape(&run.timestamp),
                headline.time(),
            );
            if several_series {
                line.push_str(&format!(
                    "  [{} {}]",
                    escape(&first_chars(&run.machine, 8)),
                    escape(&run.config)
                ));
            }
            if let Some(step) = benchmark.changes.iter().find(|s| s.at == index) {
                line.push_str(&format!("  ◆ change point: {:+.1}%", step.change * 100.0));
                line.push_str(code_words(step.code));
            }
            writeln!(out, "{}", line.trim_end())?;
        }
    }
    out.flush()
}

/// What a change point's line says of the code across it.
pub(crate) fn code_words(code: CodeAcross) -> &'static str {
    match code {
        CodeAcross::Unchanged => ", code unchanged: a step of the machine or the layout",
        CodeAcross::Changed => ", code changed",
        CodeAcross::Unknown => "",
    }
}

/// The first `n` characters of `text` (not bytes: a record read back may
/// hold any text).
fn first_chars(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(timestamp: &str, time_ns: f64, interval: (f64, f64)) -> Record {
        Record {
            v: 1,
            run: "1-1".to_string(),
            timestamp: timestamp.to_string(),
            commit: Some("1c9e0a4d5e6f".to_string()),
            dirty: Some(false),
            code: None,
            machine: "m".to_string(),
            config: "release/3".to_string(),
            harness: "0.1.0".to_string(),
            name: "empty".to_string(),
            time_ns,
            lower_ns: Some(interval.0),
            upper_ns: Some(interval.1),
            throughput: None,
            reference_ns: None,
        }
    }

    /// A run whose interval reaches zero lists its bound, as its table
    /// printed it, not a time and a ±.
    #[test]
    fn a_run_whose_interval_reaches_zero_is_listed_as_a_bound() {
        let bound = run("2026-11-23T10:02:11Z", 0.001063, (-0.00062, 0.00275));
        let time = run("2026-11-23T10:40:53Z", 7078.0, (7021.0, 7135.0));
        let shown = [Shown {
            name: "empty",
            runs: vec![&bound, &time],
            changes: vec![],
        }];
        let mut out = Vec::new();
        write(&mut out, std::path::Path::new("history.jsonl"), &shown).unwrap();
        let text = String::from_utf8(out).unwrap();
        let line = |timestamp: &str| text.lines().find(|l| l.contains(timestamp)).unwrap();
        let bound = line("10:02:11Z");
        assert!(bound.trim_end().ends_with("<2.750 ps"), "{text}");
        assert!(!bound.contains('±'), "{text}");
        assert!(line("10:40:53Z").contains("7.078 µs  ±0.8%"), "{text}");
    }
}
