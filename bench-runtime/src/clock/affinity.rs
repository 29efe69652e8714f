//! Where the measuring thread runs: pinning it to one CPU (`--pin`), and
//! asking which CPU it is on. Re-exported as `bench_runtime::affinity`.

/// Pins the calling thread to `cpu` (`sched_setaffinity`). The error says
/// why, in a sentence that names the CPU.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> Result<(), String> {
    if cpu >= libc::CPU_SETSIZE as usize {
        return Err(format!("CPU {cpu} is beyond what the OS can address"));
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
        Err(format!(
            "cannot pin to CPU {cpu}: {} (the CPUs this process may use: {})",
            std::io::Error::last_os_error(),
            allowed_cpus().map_or("unknown".to_string(), |cpus| {
                cpus.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
        ))
    }
}

/// Pinning needs Linux's `sched_setaffinity`.
#[cfg(not(target_os = "linux"))]
pub fn pin_current_thread(cpu: usize) -> Result<(), String> {
    Err(format!(
        "cannot pin to CPU {cpu}: pinning is only supported on Linux"
    ))
}

/// The CPU the calling thread is running on now.
#[cfg(target_os = "linux")]
pub fn current_cpu() -> Option<usize> {
    // SAFETY: sched_getcpu takes no arguments and only returns a number.
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).ok()
}

/// Not known off Linux.
#[cfg(not(target_os = "linux"))]
pub fn current_cpu() -> Option<usize> {
    None
}

/// The CPUs the calling thread may run on.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Option<Vec<usize>> {
    // SAFETY: a zeroed cpu_set_t is valid; sched_getaffinity fills
    // `size_of::<cpu_set_t>()` bytes of it; CPU_ISSET reads inside it for
    // every index below CPU_SETSIZE.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        Some(
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
                .collect(),
        )
    }
}

/// Not known off Linux.
#[cfg(not(target_os = "linux"))]
pub fn allowed_cpus() -> Option<Vec<usize>> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_thread_runs_where_it_was_pinned() {
        let cpus = allowed_cpus().expect("affinity is readable");
        let last = *cpus.last().unwrap();
        std::thread::spawn(move || {
            pin_current_thread(last).unwrap();
            for _ in 0..100 {
                assert_eq!(current_cpu(), Some(last));
                std::thread::yield_now();
            }
            assert_eq!(allowed_cpus(), Some(vec![last]));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn pinning_to_a_cpu_that_is_not_there_says_which() {
        let error = std::thread::spawn(|| pin_current_thread(1000).unwrap_err())
            .join()
            .unwrap();
        assert!(error.starts_with("cannot pin to CPU 1000:"), "{error}");
        assert!(
            error.contains("the CPUs this process may use: 0"),
            "{error}"
        );
    }
}
