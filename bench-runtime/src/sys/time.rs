//! Clocks the kernel keeps: `CLOCK_MONOTONIC_RAW`, the calling thread's
//! CPU time (`CLOCK_THREAD_CPUTIME_ID`, `getrusage(RUSAGE_THREAD)`) and the
//! whole process's (`CLOCK_PROCESS_CPUTIME_ID`).

use std::mem::MaybeUninit;
use std::time::Duration;

use super::last_errno;

/// `CLOCK_MONOTONIC_RAW` in nanoseconds, or the `errno` of the refusal.
// PERF: since Linux 5.3 `CLOCK_MONOTONIC_RAW` is served by the vDSO without a
// system call, like `CLOCK_MONOTONIC`. This runs inside the timed region (a
// sample's stop read), so it returns a bare u64 rather than a `Duration`,
// whose constructor would add a branch there.
#[inline(always)]
pub(crate) fn monotonic_raw_nanos() -> Result<u64, i32> {
    let mut ts = MaybeUninit::<libc::timespec>::uninit();
    // SAFETY: `ts` is valid for writes of one `timespec`, which is all
    // clock_gettime writes.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC_RAW, ts.as_mut_ptr()) };
    if rc != 0 {
        return Err(last_errno());
    }
    // SAFETY: clock_gettime returned 0, so it filled in `ts`.
    let ts = unsafe { ts.assume_init() };
    Ok(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// The calling thread's run time, `CLOCK_THREAD_CPUTIME_ID`: the
/// scheduler's exact account.
pub(crate) fn thread_cpu_time() -> Option<Duration> {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The run time of every thread of the process, `CLOCK_PROCESS_CPUTIME_ID`.
pub(crate) fn process_cpu_time() -> Option<Duration> {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn cpu_clock(clock: libc::clockid_t) -> Option<Duration> {
    let mut now = MaybeUninit::<libc::timespec>::uninit();
    // SAFETY: `now` is valid for writes of one `timespec`, which is all
    // clock_gettime writes.
    if unsafe { libc::clock_gettime(clock, now.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: clock_gettime returned 0, so it filled in `now`.
    let now = unsafe { now.assume_init() };
    Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// The calling thread's context switches, `getrusage(RUSAGE_THREAD)`'s
/// `ru_nivcsw` (preempted) and `ru_nvcsw` (a wait the thread chose: a
/// sleep, a lock), and its page faults (`ru_minflt` + `ru_majflt`).
/// Returns `(involuntary, voluntary, faults)`.
pub(crate) fn thread_switches() -> Option<(u64, u64, u64)> {
    let mut usage = MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: `usage` is valid for writes of one `rusage`, which getrusage
    // fills completely when it returns 0.
    if unsafe { libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: getrusage returned 0, so it filled in `usage`.
    let usage = unsafe { usage.assume_init() };
    Some((
        u64::try_from(usage.ru_nivcsw).ok()?,
        u64::try_from(usage.ru_nvcsw).ok()?,
        u64::try_from(usage.ru_minflt).ok()? + u64::try_from(usage.ru_majflt).ok()?,
    ))
}

/// The calling thread's user and system time, `getrusage(RUSAGE_THREAD)`:
/// figures the kernel samples at the timer tick.
pub(crate) fn thread_user_and_system_time() -> Option<(Duration, Duration)> {
    let mut usage = MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: `usage` is valid for writes of one `rusage`, which getrusage
    // fills completely when it returns 0.
    if unsafe { libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: getrusage returned 0, so it filled in `usage`.
    let usage = unsafe { usage.assume_init() };
    let duration = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Some((duration(usage.ru_utime), duration(usage.ru_stime)))
}
