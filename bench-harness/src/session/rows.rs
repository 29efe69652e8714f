//! The report's rows (one per selected benchmark, in report order) and
//! the exit code they add up to.

use crate::registry::Benchmark;
use crate::results::{BenchResult, Outcome};
use crate::select::Selected;

/// Exit codes: libtest's for failures and bad input, 1 for a regression
/// under `--fail-on-regression`.
pub(super) const EXIT_FAILED: i32 = 101;
pub(super) const EXIT_USAGE: i32 = 2;
pub(super) const EXIT_REGRESSED: i32 = 1;

/// The selected benchmarks, in report order.
pub(super) type Selection = [Selected<Benchmark>];

/// A benchmark's row, with its place in the tree, group and throughput.
pub(super) fn result_of(s: &Selected<Benchmark>, outcome: Outcome) -> BenchResult {
    let throughput = match &outcome {
        Outcome::Measured(m) => m.extras.throughput,
        _ => None,
    };
    BenchResult {
        path: s.bench.path(),
        type_name: s.bench.entry.type_name.map(str::to_string),
        arg: s.bench.arg.as_ref().map(|arg| arg.name.clone()),
        group: s.bench.entry.options.group.map(str::to_string),
        throughput: throughput.or(s.bench.entry.options.throughput),
        ..BenchResult::new(s.name.clone(), outcome)
    }
}

/// 101 when a benchmark failed, else 0.
pub(super) fn exit_code(results: &[BenchResult]) -> i32 {
    let failed = results
        .iter()
        .any(|r| matches!(r.outcome, Outcome::Failed(_)));
    if failed {
        EXIT_FAILED
    } else {
        0
    }
}
