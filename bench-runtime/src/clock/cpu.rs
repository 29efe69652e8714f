//! CPU time of the calling thread (and of its whole process): what it spent
//! running, as opposed to the wall time that also counts waiting and being
//! descheduled.

use crate::units::Nanos;

/// User and system CPU time of a thread.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct CpuTime {
    /// Time spent running the thread's own code.
    pub user: Nanos,
    /// Time the kernel spent on the thread's behalf (system calls, faults).
    pub system: Nanos,
}

impl CpuTime {
    /// User and system time together.
    pub fn total(self) -> Nanos {
        self.user + self.system
    }

    /// The CPU time spent since `earlier`.
    pub fn since(self, earlier: CpuTime) -> CpuTime {
        CpuTime {
            user: self.user - earlier.user,
            system: self.system - earlier.system,
        }
    }
}

/// The calling thread's CPU time so far, or `None` where the OS has no
/// per-thread figure.
///
/// The total is `CLOCK_THREAD_CPUTIME_ID` (the scheduler's exact run time);
/// `getrusage(RUSAGE_THREAD)` only splits it into user and system time. Its
/// own figures are sampled at the timer tick (4 ms at HZ=250), and over
/// slices of a few milliseconds they came out at 60% of the run time for a
/// benchmark that never left the CPU.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn thread_cpu_time() -> Option<CpuTime> {
    use crate::sys::time;
    use std::time::Duration;

    let (user, system) = time::thread_user_and_system_time()?;
    let total = time::thread_cpu_time()?;
    let micros = |t: Duration| t.as_secs() as f64 * 1e6 + f64::from(t.subsec_micros());
    let (user, system) = (micros(user), micros(system));
    let total = total.as_secs() as f64 * 1e9 + f64::from(total.subsec_nanos());
    let user_share = if user + system > 0.0 {
        user / (user + system)
    } else {
        1.0
    };
    Some(CpuTime {
        user: Nanos(total * user_share),
        system: Nanos(total * (1.0 - user_share)),
    })
}

/// The calling thread's context switches so far: how many times it was
/// preempted (involuntary) and how many times it waited (voluntary), or
/// `None` where the OS does not count them per thread. A sample during
/// which the first rose was descheduled: its time holds another program's.
/// The same call reads the thread's page faults.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn switches() -> Option<Switches> {
    let (involuntary, voluntary, faults) = crate::sys::time::thread_switches()?;
    Some(Switches {
        involuntary,
        voluntary,
        faults,
    })
}

/// The calling thread's context switches so far, or `None` where the OS
/// does not count them per thread.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn switches() -> Option<Switches> {
    None
}

/// A thread's context switches so far ([`switches`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches {
    /// Preempted: another thread was given the CPU.
    pub involuntary: u64,
    /// Waited: a sleep, a lock, I/O, a yield.
    pub voluntary: u64,
    /// Page faults, minor and major: the thread touched memory the kernel
    /// had to map (a first touch of a fresh page, memory given back and
    /// taken again). Mostly the program's own work, though the kernel can
    /// add some (reclaim, NUMA balancing, huge pages split or not).
    pub faults: u64,
}

/// The calling thread's exact CPU time so far in nanoseconds
/// (`CLOCK_THREAD_CPUTIME_ID`, about 0.8 µs to read on the development VM),
/// or `None` where the OS has no per-thread figure.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn thread_cpu_nanos() -> Option<Nanos> {
    crate::sys::time::thread_cpu_time().map(Nanos::from_duration)
}

/// The calling thread's exact CPU time so far, or `None` where the OS has
/// no per-thread figure.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn thread_cpu_nanos() -> Option<Nanos> {
    None
}

/// The CPU time of every thread of the process so far in nanoseconds
/// (`CLOCK_PROCESS_CPUTIME_ID`), or `None` where the OS has no such figure.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn process_cpu_nanos() -> Option<Nanos> {
    crate::sys::time::process_cpu_time().map(Nanos::from_duration)
}

/// The CPU time of every thread of the process so far, or `None` where the
/// OS has no such figure.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn process_cpu_nanos() -> Option<Nanos> {
    None
}

/// The calling thread's CPU time so far, or `None` where the OS has no
/// per-thread figure.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn thread_cpu_time() -> Option<CpuTime> {
    None
}
