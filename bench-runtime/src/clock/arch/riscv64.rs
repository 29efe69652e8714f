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
#[inline(always)]
pub(crate) fn imul_chain<const N: usize>(mut v: u64) -> u64 {
    // SAFETY: MUL (the M extension, part of every riscv64gc target) and
    // FENCE are user-mode instructions; the block only reads and writes
    // `v`'s register and neither accesses memory nor the stack (FENCE
    // orders accesses, it makes none). It is not `pure`, so the compiler
    // keeps every instance and its fence.
    unsafe {
        asm!(
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
