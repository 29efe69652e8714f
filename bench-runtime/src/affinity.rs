//! Where the measuring thread runs: pinning it to one CPU (`--pin`), and
//! asking which CPU it is on.

/// Pins the calling thread to `cpu` (`sched_setaffinity`). The error says
/// why, in a sentence that names the CPU.
#[cfg(target_os = "linux")]
pub fn pin_current_thread(cpu: usize) -> Result<(), String> {
    if cpu >= crate::sys::affinity::CPU_SET_SIZE {
        return Err(format!("CPU {cpu} is beyond what the OS can address"));
    }
    crate::sys::affinity::pin_current_thread(cpu).map_err(|errno| {
        format!(
            "cannot pin to CPU {cpu}: {} (the CPUs this process may use: {})",
            std::io::Error::from_raw_os_error(errno),
            allowed_cpus().map_or("unknown".to_string(), |cpus| {
                cpus.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
        )
    })
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
    crate::sys::affinity::current_cpu()
}

/// Not known off Linux.
#[cfg(not(target_os = "linux"))]
pub fn current_cpu() -> Option<usize> {
    None
}

/// The CPUs the calling thread may run on.
#[cfg(target_os = "linux")]
pub fn allowed_cpus() -> Option<Vec<usize>> {
    crate::sys::affinity::allowed_cpus()
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
