//! The CPUs the calling thread may run on (`sched_setaffinity`,
//! `sched_getaffinity`) and the one it runs on now (`sched_getcpu`).

use super::last_errno;

/// How many CPUs a `cpu_set_t` can name: CPU numbers are below this.
pub(crate) const CPU_SET_SIZE: usize = libc::CPU_SETSIZE as usize;

/// Restricts the calling thread to `cpu`, or returns the `errno` (`EINVAL`
/// for a `cpu` of [`CPU_SET_SIZE`] or more, which no set can name).
pub(crate) fn pin_current_thread(cpu: usize) -> Result<(), i32> {
    if cpu >= CPU_SET_SIZE {
        return Err(libc::EINVAL);
    }
    // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET writes inside it
    // (cpu < CPU_SETSIZE, checked above); sched_setaffinity reads
    // `size_of::<cpu_set_t>()` bytes of it for the calling thread (pid 0).
    let result = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set)
    };
    if result == 0 {
        Ok(())
    } else {
        Err(last_errno())
    }
}

/// The CPU the calling thread is running on now.
pub(crate) fn current_cpu() -> Option<usize> {
    // SAFETY: sched_getcpu takes no arguments and only returns a number.
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).ok()
}

/// The CPUs the calling thread may run on, in increasing order.
pub(crate) fn allowed_cpus() -> Option<Vec<usize>> {
    // SAFETY: a zeroed cpu_set_t is valid; sched_getaffinity fills
    // `size_of::<cpu_set_t>()` bytes of it; CPU_ISSET reads inside it for
    // every index below CPU_SETSIZE.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        Some(
            (0..CPU_SET_SIZE)
                .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
                .collect(),
        )
    }
}
