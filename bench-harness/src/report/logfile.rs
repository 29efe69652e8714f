//! `--logfile PATH`, libtest's: one line per benchmark, as libtest logs a
//! test's result (`ok NAME`, `failed NAME`, `ignored NAME`, and for a
//! measured benchmark its `N ns/iter (+/- M)` figures before the name), or
//! `benchmark NAME` per listed benchmark under `--list`; after Ctrl-C, a
//! last line saying the results are partial. Names are escaped
//! as in every output (a line break cannot split a line).

use super::bencher::ns_per_iter;
use super::format::{escape, PARTIAL_RUN};
use crate::results::against::{AgainstOutcome, AgainstReport};
use crate::results::{BenchResult, Outcome};

/// The log of a run or a smoke test: one line per result, and for a run
/// stopped by Ctrl-C (`partial`) a last line that says so.
pub(crate) fn results(results: &[BenchResult], partial: bool) -> String {
    let mut log = String::new();
    for result in results {
        let outcome = match &result.outcome {
            Outcome::Measured(m) => ns_per_iter(m),
            Outcome::Passed => "ok".to_string(),
            Outcome::Failed(_) => "failed".to_string(),
            Outcome::Ignored => "ignored".to_string(),
        };
        log.push_str(&format!("{outcome} {}\n", escape(&result.name)));
    }
    if partial {
        log.push_str(&format!("{PARTIAL_RUN}\n"));
    }
    log
}

/// The log of an `--against` run: per benchmark of either build its
/// verdict (`slower NAME`, `no difference NAME`, `unclear, up to +2.10%
/// NAME`), or `too fast to compare`, `new`, `gone`, `failed`; and the
/// partial line after Ctrl-C.
pub(crate) fn against(report: &AgainstReport) -> String {
    let mut log = String::new();
    for row in &report.rows {
        let outcome = match &row.outcome {
            AgainstOutcome::Compared(p) => p.verdict.to_string(),
            AgainstOutcome::TooFast { .. } => "too fast to compare".to_string(),
            AgainstOutcome::New => "new".to_string(),
            AgainstOutcome::Gone => "gone".to_string(),
            AgainstOutcome::Failed(_) => "failed".to_string(),
        };
        log.push_str(&format!("{outcome} {}\n", escape(&row.name)));
    }
    if report.partial {
        log.push_str(&format!("{PARTIAL_RUN}\n"));
    }
    log
}

/// The log of `--list`: `benchmark NAME` per name.
pub(crate) fn list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names
        .into_iter()
        .map(|name| format!("benchmark {}\n", escape(name)))
        .collect()
}
