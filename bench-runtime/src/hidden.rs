//! The bodies of the harness's own hidden benchmarks: the empty loop, whose
//! time per iteration is the loop overhead subtracted from every sample, and
//! the machine reference kernel.
//!
//! They live here, in the measurement core, rather than in the runner, so
//! that their timed loops are compiled as the benchmarks' are: even a
//! project that builds `bench-harness` with another opt-level (which the
//! harness warns against) measures the overhead of the loop its own
//! benchmarks run.

use crate::bencher::Bencher;

/// The empty loop: `b.iter(|| ())`.
pub fn loop_overhead(b: &mut Bencher<'_>) {
    b.iter(|| ())
}

/// A chain of 1,000 dependent multiplies whose cost depends only on the
/// machine.
pub fn machine_reference(b: &mut Bencher<'_>) {
    b.iter(|| crate::clock::known_cost::imul_chain::<1000>(std::hint::black_box(3)))
}

/// Iterations of the empty loop in one run of [`speed_probe`]: about 2 µs
/// here, 40 ticks of the coarsest clock the harness accepts.
const PROBE_ITERATIONS: u32 = 4000;

/// Runs of [`speed_probe`], of which it keeps the median: one interrupt
/// cannot make the machine look slow.
const PROBE_RUNS: usize = 5;

/// The machine's speed next to a slice of measurement, in nanoseconds per
/// iteration of the empty loop (the median of five runs of 4,000): the
/// evidence the headline uses to tell the machine's slow spells from the
/// benchmark's own slow phases. The empty loop leans on the core's
/// front end and store forwarding, which another thread on the same core
/// (the host's, on a virtual machine) slows: here it read 0.33 ns when the
/// core was quiet and 0.68 ns when it was shared, beside benchmarks that
/// slowed 1.7–1.8× (a 1,000-integer sum, a 64-byte allocation) in the same
/// slices, while a chain of dependent multiplies barely moved.
pub fn speed_probe(clock: &crate::clock::Clock) -> f64 {
    let mut runs = [0.0; PROBE_RUNS];
    for run in &mut runs {
        let start = clock.start();
        for _ in 0..PROBE_ITERATIONS {
            std::hint::black_box(());
        }
        let end = clock.stop();
        *run = clock.elapsed(start, end).0 / f64::from(PROBE_ITERATIONS);
    }
    crate::clock::median(&mut runs)
}
