//! riscv64: the `time` CSR, read with `rdtime`.
//!
//! `rdcycle` would count cycles, but Linux 6.6 and later trap it in user
//! mode; `rdtime` stays readable and ticks at a fixed platform rate that
//! user code cannot query, so it is calibrated.

use core::arch::asm;

use super::ClockError;
use crate::units::Ticks;

pub(super) const NAME: &str = "rdtime";

/// Linux lets user code read the `time` CSR (`scounteren.TM`).
pub(super) fn check_usable() -> Result<(), ClockError> {
    Ok(())
}

/// The rate is in the device tree, not in any register user code can read.
pub(super) fn reported_frequency_hz() -> Option<f64> {
    None
}

#[inline(always)]
pub(super) fn read_start() -> Ticks {
    read()
}

#[inline(always)]
pub(super) fn read_stop() -> Ticks {
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
