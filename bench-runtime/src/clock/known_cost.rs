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
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn chain<const N: usize>(mut v: u64) -> u64 {
        // SAFETY: IMUL and LFENCE exist on every x86_64 CPU; the block only
        // reads and writes `v`'s register and the flags (IMUL sets CF and OF,
        // so the flags are not preserved), and touches neither memory nor
        // the stack. It is not `pure`, so the compiler keeps every instance
        // and its fence.
        unsafe {
            core::arch::asm!(
                ".rept {n}",
                "imul {v}, {v}",
                ".endr",
                "lfence",
                v = inout(reg) v,
                n = const N,
                options(nomem, nostack),
            );
        }
        v
    }

    #[cfg(target_arch = "aarch64")]
    #[inline(always)]
    fn chain<const N: usize>(mut v: u64) -> u64 {
        // SAFETY: MUL and ISB are base AArch64 instructions available at EL0;
        // the block only reads and writes `v`'s register (MUL leaves NZCV
        // alone) and touches neither memory nor the stack. It is not `pure`,
        // so the compiler keeps every instance and its barrier.
        unsafe {
            core::arch::asm!(
                ".rept {n}",
                "mul {v}, {v}, {v}",
                ".endr",
                "isb",
                v = inout(reg) v,
                n = const N,
                options(nomem, nostack, preserves_flags),
            );
        }
        v
    }

    #[cfg(target_arch = "riscv64")]
    #[inline(always)]
    fn chain<const N: usize>(mut v: u64) -> u64 {
        // SAFETY: MUL (the M extension, part of every riscv64gc target) and
        // FENCE are user-mode instructions; the block only reads and writes
        // `v`'s register and neither accesses memory nor the stack (FENCE
        // orders accesses, it makes none). It is not `pure`, so the compiler
        // keeps every instance and its fence.
        unsafe {
            core::arch::asm!(
                ".rept {n}",
                "mul {v}, {v}, {v}",
                ".endr",
                "fence",
                v = inout(reg) v,
                n = const N,
                options(nomem, nostack, preserves_flags),
            );
        }
        v
    }

    // The same value, at a cost that is not known exactly (module docs).
    #[cfg(not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )))]
    #[inline(always)]
    fn chain<const N: usize>(mut v: u64) -> u64 {
        for _ in 0..N {
            v = v.wrapping_mul(v);
        }
        v
    }

    chain::<N>(x)
}
