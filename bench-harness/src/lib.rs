//! bench-harness: micro-benchmarks whose numbers you can trust.
//!
//! Annotate functions with [`#[benchmark]`](benchmark), end the bench file
//! with [`main!`], and declare the bench target with `harness = false`:
//!
//! ```no_run
//! use bench_harness::{benchmark, black_box, Bencher};
//!
//! fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
//!
//! #[benchmark]
//! fn fib_20() -> u64 {
//!     fib(black_box(20)) // the return value is sunk through black_box
//! }
//!
//! #[benchmark]
//! fn sort_1k(b: &mut Bencher) {
//!     let data: Vec<u32> = (0..1000).rev().collect(); // set-up, not timed
//!     b.iter(|| {
//!         let mut v = data.clone();
//!         v.sort();
//!         v
//!     })
//! }
//!
//! bench_harness::main!();
//! ```
//!
//! `cargo bench --bench suite` measures every benchmark and prints a table;
//! `cargo bench --bench suite -- fib` runs those whose name contains `fib`;
//! `cargo test --benches` runs each body once as a smoke test.
//!
//! The run is a pipeline of named phases (see docs/ARCHITECTURE.md): the
//! command line is parsed, the benchmarks selected, a plan made, the plan's
//! jobs measured and analysed, verdicts drawn against baselines and A/B
//! groups, and the outputs written. [`results`] is the result model every
//! report reads; [`run_suite`] hands it to a bench target that wants to
//! post-process its figures.
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

mod analysis;
mod audit;
mod baseline;
mod cli;
mod console;
mod document;
mod environment;
mod failure;
mod fs;
mod history;
mod instruments;
mod json;
mod profile;
mod registry;
mod report;
pub mod results;
mod run;
mod select;
mod session;
mod settings;
mod supervisor;
#[cfg(test)]
mod testing;
mod text;

use std::ffi::OsString;

pub use bench_macros::{benchmark, group};
pub use bench_runtime::clock::known_cost;
pub use bench_runtime::counter::alloc::CountingAlloc;
pub use bench_runtime::{black_box, Bencher, Throughput};
// What the result model's public types expose: [`results::Measured`]'s
// samples and settings, and the durations in its notes.
pub use bench_runtime::{Measurement, Nanos, Sample, SamplerConfig, StopReason, StopRule, WarmUp};

use results::BenchResult;

/// Items the `#[benchmark]` attribute's expansion refers to. Not a public
/// API: they change without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::registry::{
        all as benchmarks, arg_owned, arg_ref, collect_args, set_file_settings, ArgName,
        ArgNameByDebug, ArgNameByDisplay, BenchEntry, BenchFn, BenchOptions, Benchmark, FromArg,
        FromOwnedArg, GroupEntry,
    };
    pub use crate::settings::{BytesUnit, Settings};
    pub use bench_macros::file_settings;
    pub use bench_runtime::{black_box, Bencher, Clock, Driver, Nanos, Routine, Throughput};
    pub use inventory;
    pub use std::string::String;
    pub use std::vec::Vec;
}

/// Declares `fn main` for a bench target with `harness = false`: the last
/// line of a bench file, with settings for every benchmark in the file, if
/// any.
///
/// ```no_run
/// use bench_harness::{benchmark, black_box};
///
/// #[benchmark]
/// fn add() -> u64 {
///     black_box(1u64) + black_box(2u64)
/// }
///
/// bench_harness::main!(measure_time = 1, min_samples = 50);
/// ```
///
/// The keys are the attribute's measuring options (see [`benchmark`]). For
/// each setting a benchmark uses, in order of precedence: the command
/// line's flag, its `#[benchmark(...)]`, its [`group!`]'s, this, the
/// default. `bench_harness::main!();` takes the
/// defaults.
#[macro_export]
macro_rules! main {
    () => {
        fn main() {
            $crate::main()
        }
    };
    ($($option:tt)+) => {
        fn main() {
            $crate::__private::set_file_settings(
                $crate::__private::file_settings!(($crate) $($option)+)
            );
            $crate::main()
        }
    };
}

/// Runs the benchmarks registered in this binary as the command line says,
/// then exits: 0 on success, 101 when a benchmark failed, 2 on bad input,
/// 1 when a benchmark regressed under `--fail-on-regression`, 130 when
/// Ctrl-C stopped the run.
///
/// The same as [`main!`], for a `main` that does something first (a
/// library's benchmarks need a call that keeps their module linked):
///
/// ```no_run
/// # mod my_library { pub mod benches { pub fn link() {} } }
/// // benches/library.rs
/// fn main() {
///     my_library::benches::link();
///     bench_harness::main();
/// }
/// ```
pub fn main() {
    let run = run_suite(std::env::args_os().skip(1));
    std::process::exit(run.exit_code);
}

/// What [`run_suite`] did: the exit code [`main()`] would use and every
/// benchmark's result, for a bench target that wants to post-process them
/// (the calibration target prints ratios of its estimates).
#[derive(Debug)]
#[non_exhaustive]
pub struct SuiteRun {
    /// What [`main()`] would exit with.
    pub exit_code: i32,
    /// Empty when nothing was measured or run (`--list`, `--help`, errors).
    pub results: Vec<BenchResult>,
}

/// The whole pipeline for one command line (the arguments after the
/// program name): prints the report and returns the results.
///
/// ```no_run
/// use bench_harness::{benchmark, black_box};
///
/// #[benchmark]
/// fn add() -> u64 {
///     black_box(1u64) + black_box(2u64)
/// }
///
/// fn main() {
///     let run = bench_harness::run_suite(std::env::args_os().skip(1));
///     for result in &run.results {
///         println!("{}", result.name);
///     }
///     std::process::exit(run.exit_code);
/// }
/// ```
pub fn run_suite(args: impl IntoIterator<Item = OsString>) -> SuiteRun {
    let mut results = Vec::new();
    // PERF: collected here so that the session is compiled once, in this
    // crate, not again in the user's for each kind of iterator.
    let exit_code = session::run(args.into_iter().collect(), &mut results);
    SuiteRun { exit_code, results }
}
