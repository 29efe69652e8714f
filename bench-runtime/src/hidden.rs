//! The bodies of the harness's own hidden benchmarks: the empty loop, whose
//! time per iteration is the loop overhead subtracted from every sample, and
//! the machine reference kernel.
//!
//! They live here, in the measurement core, rather than in the runner, so
//! that their timed loops are compiled as the benchmarks' are: even a
//! project that builds `bench-harness` with another opt-level (which the
//! harness warns against) measures the overhead of the loop its own
//! benchmarks run.

use crate::Bencher;

/// The empty loop: `b.iter(|| ())`.
pub fn loop_overhead(b: &mut Bencher<'_>) {
    b.iter(|| ())
}

/// A chain of 1,000 dependent multiplies whose cost depends only on the
/// machine.
pub fn machine_reference(b: &mut Bencher<'_>) {
    b.iter(|| crate::clock::known_cost::imul_chain::<1000>(std::hint::black_box(3)))
}
