//! Benchmarks whose cost is known in advance: `cargo bench --bench calibration`
//! measures them, then prints how far the harness's estimates are from the
//! truth.
//!
//! - `empty` has an empty body: ideally it costs nothing, so its estimate is
//!   what the harness fails to remove of its own loop (target: under 0.5 ns).
//! - `imul_N` runs [`imul_chain::<N>`](bench_harness::known_cost::imul_chain):
//!   `N` dependent 64-bit multiplies ended by a fence (`lfence` on x86_64,
//!   `isb` on aarch64) so that consecutive iterations cannot overlap. Each
//!   multiply waits for the previous one (3 cycles on x86_64), so an
//!   iteration costs `3N` cycles plus a small constant `c` (the fence, the
//!   loop, the input and output through `black_box`).
//!
//! After the table, with `est(N)` the headline time of `imul_N`:
//!
//! - `(est(10000) − est(100)) / (est(1000) − est(100))`: the constant
//!   cancels, so the truth is exactly 9900 / 900 = 11;
//! - `est(1020) / est(1000)` and `est(1050) / est(1000)`: the truth is 1.02
//!   and 1.05 up to the constant's share, which the block estimates from the
//!   data (slope per multiply from `imul_100` and `imul_10000`, then
//!   `c = est(100) − 100 × slope`) and shows with how much it moves them.
//!
//! Each figure is printed with its ± (95%, from the estimates' own
//! intervals, treated as independent, which overstates it a little for
//! kernels measured in the same rounds) and compared with its truth against
//! a 0.5% target. These are
//! benchmark figures for a person to read, not a timed test: nothing fails
//! on a miss. Under `cargo test --benches` each kernel runs once and nothing
//! more is printed, nor when a filter leaves any of the six out.
//!
//! The group `ab` is an in-run A/B comparison of the same kernels: its
//! baseline `ab::same_1000` against an identical member `ab::same_1000_again`
//! (truth: ratio 1, not flagged) and against `ab::plus_2pct_1020` and
//! `ab::plus_5pct_1050` (truth: 1.02 and 1.05 up to the constant's share,
//! to be detected). The ratio table follows the main table.
//!
//! The cost is only known where the chain is asm (x86_64, aarch64,
//! riscv64); elsewhere it is a plain-Rust stand-in and the figures mean
//! little.

use bench_harness::known_cost::imul_chain;
use bench_harness::results::BenchResult;
use bench_harness::{benchmark, black_box};

mod ab {
    use super::*;

    #[benchmark(group = "ab", baseline)]
    fn same_1000() -> u64 {
        imul_chain::<1000>(black_box(3))
    }

    #[benchmark(group = "ab")]
    fn same_1000_again() -> u64 {
        imul_chain::<1000>(black_box(3))
    }

    #[benchmark(group = "ab")]
    fn plus_2pct_1020() -> u64 {
        imul_chain::<1020>(black_box(3))
    }

    #[benchmark(group = "ab")]
    fn plus_5pct_1050() -> u64 {
        imul_chain::<1050>(black_box(3))
    }
}

#[benchmark]
fn empty() {}

#[benchmark]
fn imul_100() -> u64 {
    imul_chain::<100>(black_box(3))
}

#[benchmark]
fn imul_1000() -> u64 {
    imul_chain::<1000>(black_box(3))
}

#[benchmark]
fn imul_1020() -> u64 {
    imul_chain::<1020>(black_box(3))
}

#[benchmark]
fn imul_1050() -> u64 {
    imul_chain::<1050>(black_box(3))
}

#[benchmark]
fn imul_10000() -> u64 {
    imul_chain::<10000>(black_box(3))
}

/// Every figure must be this close to its truth, in percent.
const TARGET_PERCENT: f64 = 0.5;
/// The empty benchmark's estimate must be below this, in nanoseconds.
const EMPTY_TARGET_NS: f64 = 0.5;

/// The figures must come out within 0.5% of truth, so each estimate is
/// pinned down to ±0.25% by default, with up to 5 s each to get there;
/// flags on the command line come later and win.
const DEFAULT_ARGS: [&str; 4] = ["--precision", "0.25", "--max-time", "5"];

fn main() {
    let args = DEFAULT_ARGS
        .iter()
        .map(std::ffi::OsString::from)
        .chain(std::env::args_os().skip(1));
    let run = bench_harness::run_suite(args);
    if let Some(estimates) = Estimates::from_results(&run.results) {
        print!("{}", estimates.report());
    }
    std::process::exit(run.exit_code);
}

/// One headline estimate and the half-width of its 95% interval, in
/// nanoseconds per iteration.
#[derive(Clone, Copy)]
struct Est {
    value: f64,
    half: f64,
}

/// The headline estimates.
struct Estimates {
    empty: Est,
    imul_100: Est,
    imul_1000: Est,
    imul_1020: Est,
    imul_1050: Est,
    imul_10000: Est,
}

impl Estimates {
    /// `None` unless all six benchmarks were measured.
    fn from_results(results: &[BenchResult]) -> Option<Estimates> {
        let est = |name: &str| {
            let m = results
                .iter()
                .find(|r| r.name == name)
                .and_then(BenchResult::measured)?;
            Some(Est {
                value: m.headline(),
                half: m.precision.unwrap_or(f64::NAN) * m.reference,
            })
        };
        Some(Estimates {
            empty: est("empty")?,
            imul_100: est("imul_100")?,
            imul_1000: est("imul_1000")?,
            imul_1020: est("imul_1020")?,
            imul_1050: est("imul_1050")?,
            imul_10000: est("imul_10000")?,
        })
    }

    fn report(&self) -> String {
        // `half` is the ratio's 95% half-width, propagated from the
        // estimates' (first-order, as if independent).
        let ratio = |label: &str, value: f64, half: f64, truth: f64, truth_text: &str| {
            let error = (value / truth - 1.0) * 100.0;
            let plus_minus = half / value * 100.0;
            let mark = if error.abs() <= TARGET_PERCENT {
                "within"
            } else {
                "MISS, target"
            };
            format!(
                "  {label:<30} {value:>9.4} ±{plus_minus:>5.2}%   truth {truth_text:<5} \
                 {error:>+7.2}%   {mark} {TARGET_PERCENT}%\n"
            )
        };
        let (e100, e1000, e10000) = (self.imul_100, self.imul_1000, self.imul_10000);
        let quotient = |top: Est, bottom: Est| {
            let value = top.value / bottom.value;
            let half = value * (top.half / top.value).hypot(bottom.half / bottom.value);
            (value, half)
        };
        // (a − c)/(b − c): ∂/∂a = 1/(b − c), ∂/∂b = −(a − c)/(b − c)²,
        // ∂/∂c = (a − b)/(b − c)².
        let span = e1000.value - e100.value;
        let slope_ratio = (e10000.value - e100.value) / span;
        let slope_ratio_half = (e10000.half / span)
            .hypot(slope_ratio * e1000.half / span)
            .hypot((e10000.value - e1000.value) / span / span * e100.half);
        let (r1020, h1020) = quotient(self.imul_1020, e1000);
        let (r1050, h1050) = quotient(self.imul_1050, e1000);
        let (e100, e1000, e10000) = (e100.value, e1000.value, e10000.value);

        // cost(N) = slope × N + constant, fitted through N = 100 and 10000.
        let slope = (e10000 - e100) / 9900.0;
        let constant = e100 - 100.0 * slope;
        let share = constant / e1000;
        // With the constant, the truth of est(k)/est(1000) is
        // (k·slope + c) / (1000·slope + c) = k/1000 × (1 − share × (k − 1000)/k).
        let shift = |k: f64| -share * (k - 1000.0) / k * 100.0;

        let mut out = String::from(
            "\ncalibration: kernels of known cost (est = time per iteration, the headline)\n",
        );
        let empty_ok = self.empty.value < EMPTY_TARGET_NS;
        out += &format!(
            "  {:<30} {:>9.4} ns ±{:.4} ns   target < {EMPTY_TARGET_NS} ns     {}\n",
            "empty",
            self.empty.value,
            self.empty.half,
            if empty_ok { "met" } else { "MISS" }
        );
        out += &ratio(
            "ratio (10000−100)/(1000−100)",
            slope_ratio,
            slope_ratio_half,
            11.0,
            "11",
        );
        out += &ratio("ratio 1020/1000", r1020, h1020, 1.02, "1.02");
        out += &ratio("ratio 1050/1000", r1050, h1050, 1.05, "1.05");
        out += &format!(
            "  slope {slope:.5} ns per multiply; constant est(100) − 100 × slope = {constant:.2} ns, \
             {:.2}% of est(1000):\n  it moves the truths of 1020/1000 and 1050/1000 by \
             {:+.3}% and {:+.3}%\n",
            share * 100.0,
            shift(1020.0),
            shift(1050.0),
        );
        out
    }
}
