//! x86_64: the time-stamp counter, read with RDTSC and RDTSCP, and the
//! known-cost chain of `imul`s ended by `lfence`.
//!
//! Only an invariant TSC (constant rate across frequency changes, running in
//! every sleep state) measures time; CPUID says whether this one is.

use core::arch::asm;
use core::arch::x86_64::{__cpuid, CpuidResult};

use crate::clock::ClockError;
use crate::units::Ticks;

pub(crate) const NAME: &str = "rdtsc (invariant TSC)";

/// CPUID leaf 0x8000_0001 EDX: RDTSCP is supported.
const RDTSCP: u32 = 1 << 27;
/// CPUID leaf 0x8000_0007 EDX: the TSC is invariant.
const INVARIANT_TSC: u32 = 1 << 8;

/// Ok when the TSC is invariant and RDTSCP exists.
// `__cpuid` is a safe function on recent Rust but unsafe on our MSRV (1.85).
#[allow(unused_unsafe)]
pub(crate) fn check_usable() -> Result<(), ClockError> {
    tsc_usability(|leaf| {
        // SAFETY: every x86_64 CPU has CPUID, and `tsc_usability` asks only
        // for leaves the CPU reports supporting.
        unsafe { __cpuid(leaf) }
    })
}

/// The decision, over what `cpuid` answers for a leaf: a CPU that lacks a
/// leaf lacks its features, and leaves past the maximum are never asked
/// (Intel CPUs answer them with another leaf's data).
fn tsc_usability(cpuid: impl Fn(u32) -> CpuidResult) -> Result<(), ClockError> {
    let max_extended_leaf = cpuid(0x8000_0000).eax;
    let edx = |leaf: u32| {
        if leaf <= max_extended_leaf {
            cpuid(leaf).edx
        } else {
            0
        }
    };
    if edx(0x8000_0007) & INVARIANT_TSC == 0 {
        Err(ClockError::NoInvariantTsc)
    } else if edx(0x8000_0001) & RDTSCP == 0 {
        Err(ClockError::NoRdtscp)
    } else {
        Ok(())
    }
}

/// The TSC's nominal rate is not reliably reported; it is calibrated.
pub(crate) fn reported_frequency_hz() -> Option<f64> {
    None
}

/// Reads the TSC once all earlier instructions have completed, and before
/// any later one starts.
#[inline(always)]
pub(crate) fn read_start() -> Ticks {
    let low: u32;
    let high: u32;
    // PERF: LFENCE before RDTSC waits for earlier instructions (set-up) to
    // finish; the one after keeps the timed code from starting before the
    // read (Intel SDM, RDTSC). Cheaper than serialising with CPUID.
    // SAFETY: LFENCE and RDTSC exist on every x86_64 CPU and only write EAX
    // and EDX; not marking the block `nomem` keeps the compiler from moving
    // memory accesses across the read.
    unsafe {
        asm!(
            "lfence",
            "rdtsc",
            "lfence",
            out("eax") low,
            out("edx") high,
            options(nostack, preserves_flags),
        );
    }
    Ticks(u64::from(high) << 32 | u64::from(low))
}

/// Reads the TSC once the timed code has completed, and before any later
/// instruction starts.
#[inline(always)]
pub(crate) fn read_stop() -> Ticks {
    let low: u32;
    let high: u32;
    // PERF: RDTSCP waits for earlier instructions to complete; LFENCE keeps
    // later ones from starting before the read.
    // SAFETY: `check_usable` confirmed RDTSCP exists before a `Clock` of
    // this kind was made; it and LFENCE only write EAX, EDX and ECX.
    unsafe {
        asm!(
            "rdtscp",
            "lfence",
            out("eax") low,
            out("edx") high,
            out("ecx") _,
            options(nostack, preserves_flags),
        );
    }
    Ticks(u64::from(high) << 32 | u64::from(low))
}

/// `N` dependent `imul`s, then `lfence`, so that the next call's chain
/// cannot start before this one has finished (see `clock::known_cost`).
/// Chains longer than [`UNROLLED`](super::super::known_cost::UNROLLED)
/// loop over a block of that many, so the code stays in the L1
/// instruction cache; the loop's counter and branch run beside the chain,
/// off its critical path.
#[inline(always)]
pub(crate) fn imul_chain<const N: usize>(mut v: u64) -> u64 {
    use super::super::known_cost::UNROLLED;
    // SAFETY: IMUL, DEC, JNZ and LFENCE exist on every x86_64 CPU; the
    // blocks only read and write `v`'s register, the loop counter's and
    // the flags (IMUL and DEC set them, so they are not preserved), and
    // touch neither memory nor the stack. They are not `pure`, so the
    // compiler keeps every instance and its fence.
    unsafe {
        if N <= UNROLLED {
            asm!(
                ".rept {n}",
                "imul {v}, {v}",
                ".endr",
                "lfence",
                v = inout(reg) v,
                n = const N,
                options(nomem, nostack),
            );
        } else {
            asm!(
                "2:",
                ".rept {block}",
                "imul {v}, {v}",
                ".endr",
                "dec {count}",
                "jnz 2b",
                ".rept {rest}",
                "imul {v}, {v}",
                ".endr",
                "lfence",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU answering CPUID with these EDX values, and `max_extended_leaf`
    /// for leaf 0x8000_0000; asking beyond that leaf fails the test.
    fn cpu(
        max_extended_leaf: u32,
        features_edx: u32,
        power_edx: u32,
    ) -> impl Fn(u32) -> CpuidResult {
        move |leaf| {
            assert!(
                leaf == 0x8000_0000 || leaf <= max_extended_leaf,
                "asked for unsupported leaf {leaf:#x}"
            );
            let edx = match leaf {
                0x8000_0001 => features_edx,
                0x8000_0007 => power_edx,
                _ => 0,
            };
            CpuidResult {
                eax: if leaf == 0x8000_0000 {
                    max_extended_leaf
                } else {
                    0
                },
                ebx: 0,
                ecx: 0,
                edx,
            }
        }
    }

    #[test]
    fn invariant_tsc_with_rdtscp_is_usable() {
        assert_eq!(
            tsc_usability(cpu(0x8000_0008, RDTSCP, INVARIANT_TSC)),
            Ok(())
        );
    }

    #[test]
    fn tsc_without_the_invariant_bit_is_refused_with_advice() {
        let refusal = tsc_usability(cpu(0x8000_0008, RDTSCP, 0)).unwrap_err();
        assert_eq!(refusal, ClockError::NoInvariantTsc);
        assert_eq!(
            refusal.to_string(),
            "the cycle counter is not usable here: the CPU does not report an \
             invariant TSC; use --timer os (or --timer auto to fall back)"
        );
    }

    #[test]
    fn cpu_without_the_power_management_leaf_is_refused_without_asking_it() {
        assert_eq!(
            tsc_usability(cpu(0x8000_0004, RDTSCP, INVARIANT_TSC)),
            Err(ClockError::NoInvariantTsc)
        );
    }

    #[test]
    fn invariant_tsc_without_rdtscp_is_refused() {
        let refusal = tsc_usability(cpu(0x8000_0008, 0, INVARIANT_TSC)).unwrap_err();
        assert_eq!(refusal, ClockError::NoRdtscp);
        assert!(refusal.to_string().contains("RDTSCP"));
        assert!(refusal.to_string().contains("--timer os"));
    }
}
