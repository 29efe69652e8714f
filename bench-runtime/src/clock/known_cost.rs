//! Kernels whose cost is known in advance, to check the harness's estimates
//! against (the `calibration` bench target of the example suite).
//!
//! [`imul_chain::<N>`](imul_chain) runs `N` 64-bit multiplications, each
//! taking the previous one's result as both operands, so none can start
//! before the one before it has finished: the chain costs `N` times the
//! core's multiply latency (3 cycles for `imul r64, r64` on Intel Core since
//! Nehalem and on AMD Zen; more on some others, such as Atom-class cores),
//! plus a small constant for what surrounds it. The constant cancels in
//! differences, so figures such as
//! `(est(10000) − est(100)) / (est(1000) − est(100))` have an exact truth
//! (11) that does not depend on the clock rate or on the harness's overhead.
//! Each architecture's chain lives beside its cycle counter, in `arch/`.
//!
//! # Why the fence
//!
//! A benchmark runs the kernel many times in a loop, and consecutive calls
//! are independent: each starts again from its input. An out-of-order core
//! would start the next chain while the current one is still running (a
//! chain of a few hundred multiplies fits in its reorder buffer), and a loop
//! of short chains would then cost less than the sum of their latencies.
//! The chain therefore ends with a barrier that later instructions cannot
//! pass before the chain is done: `lfence` on x86_64 (it lets no later
//! instruction start before every earlier one has completed), `isb` on
//! aarch64 (it flushes the pipeline). Their cost is part of the constant.
//!
//! # Caveats
//!
//! - riscv64 ends the chain with `fence`, which orders memory accesses but is
//!   not an execution barrier (user mode has none); the in-order cores most
//!   RISC-V boards have do not overlap the chains anyway.
//! - Other architectures get a plain-Rust chain of `wrapping_mul`: the
//!   compiler schedules it freely and nothing stops consecutive calls from
//!   overlapping, so its cost is *not* known exactly there; it is a stand-in
//!   that computes the same value.
//! - The value settles quickly (an odd input reaches 1 and an even one 0
//!   within 64 multiplies). x86_64 multipliers take the same time whatever
//!   the operands; a core whose multiplier finishes early on small operands
//!   would make the chain cheaper than `N` latencies.

/// The longest chain written out in full; longer ones loop over a block
/// of this many multiplies. Written out, `imul_10000` was 40 KB of code,
/// more than a 32 KB L1 instruction cache holds, and cost 0.1–0.5% more
/// per multiply than `imul_1000` on an AMD EPYC guest, which the
/// calibration's ratio (truth 11) read as an error of the harness.
pub(crate) const UNROLLED: usize = 1000;

/// Squares `x` `N` times, each multiply depending on the previous one, then
/// waits until the chain has completed (see the [module](self) docs).
///
/// Returns `x` to the power `2^N`, modulo `2^64`. Where the chain is asm,
/// every call runs it, even with a constant input and an unused result; the
/// plain-Rust stand-in of other architectures can be folded, so benchmarks
/// pass the input and the result through `black_box`.
///
/// ```
/// use bench_runtime::clock::known_cost::imul_chain;
///
/// assert_eq!(imul_chain::<3>(3), 6561); // 3^8
/// ```
#[inline(always)]
pub fn imul_chain<const N: usize>(x: u64) -> u64 {
    super::arch::imul_chain::<N>(x)
}
