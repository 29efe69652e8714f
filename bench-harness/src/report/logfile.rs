//! `--logfile PATH`, libtest's: one line per benchmark, as libtest logs a
//! test's result (`ok NAME`, `failed NAME`, `ignored NAME`, and for a
//! measured benchmark its `N ns/iter (+/- M)` figures before the name), or
//! `benchmark NAME` per listed benchmark under `--list`. Names are escaped
//! as in every output (a line break cannot split a line).

use super::bencher::ns_per_iter;
use super::format::escape;
use crate::results::{BenchResult, Outcome};

/// The log of a run or a smoke test: one line per result.
pub(crate) fn results(results: &[BenchResult]) -> String {
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
    log
}

/// The log of `--list`: `benchmark NAME` per name.
pub(crate) fn list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names
        .into_iter()
        .map(|name| format!("benchmark {}\n", escape(name)))
        .collect()
}
