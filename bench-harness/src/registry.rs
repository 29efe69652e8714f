//! What `#[benchmark]` registers, and how the runner finds it.
//!
//! The attribute expands to an `inventory::submit!` of a [`BenchEntry`];
//! inventory collects them before `main` runs. Generated code names these
//! items only through `::bench_harness::__private`, so they can change
//! without breaking users.

use bench_runtime::Bencher;

/// A registered benchmark, as the attribute describes it.
#[derive(Debug)]
pub struct BenchEntry {
    /// The function's name, or the attribute's `name = "..."`.
    pub name: &'static str,
    /// `module_path!()` at the function: its first segment is the crate.
    pub module_path: &'static str,
    pub file: &'static str,
    pub line: u32,
    /// Per-benchmark options from the attribute.
    pub options: BenchOptions,
    /// Runs the benchmark body with a bencher.
    pub run: fn(&mut Bencher<'_>),
}

/// Options written in the attribute; `None` means "the command line's value".
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BenchOptions {
    /// `#[benchmark(ignore)]`: skipped unless `--ignored` or `--include-ignored`.
    pub ignore: bool,
    /// `warm_up_time = SECS`
    pub warm_up_time: Option<f64>,
    /// `measure_time = SECS`
    pub measure_time: Option<f64>,
    /// `max_time = SECS`
    pub max_time: Option<f64>,
    /// `min_samples = N`
    pub min_samples: Option<usize>,
    /// `group = "name"`: reported together; with a `baseline` member, the
    /// members are measured as an in-run A/B comparison.
    pub group: Option<&'static str>,
    /// `baseline`: the group's reference.
    pub baseline: bool,
    /// `counters`: measure hardware and software counters (as `--counters`).
    pub counters: bool,
}

impl BenchOptions {
    /// The defaults, usable in a `static` initialiser.
    pub const DEFAULT: BenchOptions = BenchOptions {
        ignore: false,
        warm_up_time: None,
        measure_time: None,
        max_time: None,
        min_samples: None,
        group: None,
        baseline: false,
        counters: false,
    };
}

inventory::collect!(BenchEntry);

impl BenchEntry {
    /// The name users see, filter on and compare across runs: the module path
    /// below the crate root joined with the benchmark name, for example
    /// `arith::int_add` (`fib_20` at the root of the bench file).
    pub fn full_name(&self) -> String {
        match self.module_path.split_once("::") {
            Some((_crate, rest)) => format!("{rest}::{}", self.name),
            None => self.name.to_string(),
        }
    }
}

/// The harness's own reference kernel: a chain of 1,000 dependent
/// multiplies whose cost depends only on the machine. It is measured
/// alongside the user's benchmarks when a run saves or compares a baseline.
pub static MACHINE_REFERENCE: BenchEntry = BenchEntry {
    name: "machine_reference",
    module_path: "bench_harness",
    file: file!(),
    line: line!(),
    options: BenchOptions::DEFAULT,
    run: |b| {
        b.iter(|| bench_runtime::clock::known_cost::imul_chain::<1000>(std::hint::black_box(3)))
    },
};

/// The empty loop, measured alongside the user's benchmarks: its time per
/// iteration is the loop overhead subtracted from every sample.
pub static LOOP_OVERHEAD: BenchEntry = BenchEntry {
    name: "loop_overhead",
    module_path: "bench_harness",
    file: file!(),
    line: line!(),
    options: BenchOptions::DEFAULT,
    run: |b| b.iter(|| ()),
};

/// Every benchmark linked into this binary, in registration order.
pub fn all() -> impl Iterator<Item = &'static BenchEntry> {
    inventory::iter::<BenchEntry>.into_iter()
}
