//! riscv64: the `time` CSR, read with `rdtime`, and the known-cost chain of
//! `mul`s ended by `fence`.
//!
//! `rdcycle` would count cycles, but Linux 6.6 and later trap it in user
//! mode; `rdtime` stays readable and ticks at a fixed platform rate that
//! user code cannot query, so it is calibrated.

use core::arch::asm;

use crate::clock::ClockError;
use crate::units::Ticks;

pub(crate) const NAME: &str = "rdtime";

/// Linux lets user code read the `time` CSR (`scounteren.TM`).
pub(crate) fn check_usable() -> Result<(), ClockError> {
    Ok(())
}

/// The rate is in the device tree, not in any register user code can read.
pub(crate) fn reported_frequency_hz() -> Option<f64> {
    None
}

#[inline(always)]
pub(crate) fn read_start() -> Ticks {
    read()
}

#[inline(always)]
pub(crate) fn read_stop() -> Ticks {
    read()
}

#[inline(always)]
fn read() -> Ticks {
    let ticks: u64;
    // SAFETY: the `time` CSR is readable in user mode under Linux; `rdtime`
    // only writes the output register. Not marking the block `nomem` keeps
    // the compiler from moving memory accesses across the read.
    unsafe {
        asm!(
            "rdtime {ticks}",
            ticks = out(reg) ticks,
            options(nostack, preserves_flags),
        );
    }
    Ticks(ticks)
}

/// `N` dependent `mul`s, then `fence`, which orders memory accesses but is
/// not an execution barrier: user mode has none (see `clock::known_cost`).
/// Chains longer than [`UNROLLED`](super::super::known_cost::UNROLLED)
/// loop over a block of that many, so the code stays in the instruction
/// cache.
#[inline(always)]
pub(crate) fn imul_chain<const N: usize>(mut v: u64) -> u64 {
    use super::super::known_cost::UNROLLED;
    // SAFETY: MUL (the M extension, part of every riscv64gc target), ADDI,
    // BNEZ and FENCE are user-mode instructions; the blocks only read and
    // write `v`'s register and the loop counter's, and neither access
    // memory nor the stack (FENCE orders accesses, it makes none). They
    // are not `pure`, so the compiler keeps every instance and its fence.
    unsafe {
        if N <= UNROLLED {
            asm!(
                ".rept {n}",
                "mul {v}, {v}, {v}",
                ".endr",
                "fence",
                v = inout(reg) v,
                n = const N,
                options(nomem, nostack, preserves_flags),
            );
        } else {
            asm!(
                "2:",
                ".rept {block}",
                "mul {v}, {v}, {v}",
                ".endr",
                "addi {count}, {count}, -1",
                "bnez {count}, 2b",
                ".rept {rest}",
                "mul {v}, {v}, {v}",
                ".endr",
                "fence",
                v = inout(reg) v,
                count = inout(reg) N / UNROLLED => _,
                block = const UNROLLED,
                rest = const N % UNROLLED,
                options(nomem, nostack, preserves_flags),
            );
        }
    }
    v
}
