//! aarch64: the generic timer's virtual counter, `CNTVCT_EL0`, and the
//! known-cost chain of `mul`s ended by `isb`.
//!
//! It ticks at a fixed rate, stated in `CNTFRQ_EL0` (which firmware sets and
//! sometimes sets wrong, so calibration checks it), and Linux and macOS let
//! user code read it.

use core::arch::asm;

use crate::clock::ClockError;
use crate::units::Ticks;

pub(crate) const NAME: &str = "cntvct_el0";

/// The counter is always readable from user mode on the systems we run on.
pub(crate) fn check_usable() -> Result<(), ClockError> {
    Ok(())
}

/// The rate firmware stored in `CNTFRQ_EL0`, unless it left it zero.
pub(crate) fn reported_frequency_hz() -> Option<f64> {
    let hz: u64;
    // SAFETY: CNTFRQ_EL0 is readable at EL0 wherever CNTVCT_EL0 is; the read
    // only writes the output register.
    unsafe {
        asm!(
            "mrs {hz}, cntfrq_el0",
            hz = out(reg) hz,
            options(nomem, nostack, preserves_flags),
        );
    }
    (hz != 0).then_some(hz as f64)
}

#[inline(always)]
pub(crate) fn read_start() -> Ticks {
    read()
}

#[inline(always)]
pub(crate) fn read_stop() -> Ticks {
    read()
}

/// Reads the counter after all earlier instructions.
#[inline(always)]
fn read() -> Ticks {
    let ticks: u64;
    // PERF: the architecture lets the counter be read out of order, before
    // the timed code has finished; ISB is the cheapest barrier that prevents
    // it (Linux's vDSO uses it too; divan omits it).
    // SAFETY: CNTVCT_EL0 is readable at EL0 (`check_usable`); the read only
    // writes the output register. Not marking the block `nomem` keeps the
    // compiler from moving memory accesses across the read.
    unsafe {
        asm!(
            "isb",
            "mrs {ticks}, cntvct_el0",
            ticks = out(reg) ticks,
            options(nostack, preserves_flags),
        );
    }
    Ticks(ticks)
}

/// `N` dependent `mul`s, then `isb`, so that the next call's chain cannot
/// start before this one has finished (see `clock::known_cost`). Chains
/// longer than [`UNROLLED`](super::super::known_cost::UNROLLED) loop over
/// a block of that many, so the code stays in the instruction cache.
#[inline(always)]
pub(crate) fn imul_chain<const N: usize>(mut v: u64) -> u64 {
    use super::super::known_cost::UNROLLED;
    // SAFETY: MUL, SUBS, B.NE and ISB are base AArch64 instructions
    // available at EL0; the blocks only read and write `v`'s register, the
    // loop counter's and (the loop's SUBS) NZCV, and touch neither memory
    // nor the stack. They are not `pure`, so the compiler keeps every
    // instance and its barrier.
    unsafe {
        if N <= UNROLLED {
            asm!(
                ".rept {n}",
                "mul {v}, {v}, {v}",
                ".endr",
                "isb",
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
                "subs {count}, {count}, #1",
                "b.ne 2b",
                ".rept {rest}",
                "mul {v}, {v}, {v}",
                ".endr",
                "isb",
                v = inout(reg) v,
                count = inout(reg) N / UNROLLED => _,
                block = const UNROLLED,
                rest = const N % UNROLLED,
                options(nomem, nostack),
            );
        }
    }
    v
}
