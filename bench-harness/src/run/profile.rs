//! `--profile-time SECS`: a benchmark's routine back to back for SECS, for
//! a profiler, with nothing else running: no calibration, warm-up,
//! statistics, loop-overhead job, history or outputs. The body's set-up
//! runs once, before its `iter` call hands over the routine; the routine
//! runs on a thread named after the benchmark, so a profiler's samples of
//! that thread are the benchmark's.

use std::time::{Duration, Instant};

use bench_runtime::{Clock, Driver, Routine};

use crate::failure::Failure;
use crate::registry::Benchmark;

/// What one `--profile-time` run did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Profiled {
    /// Iterations of the routine run.
    pub iterations: u64,
    /// Wall time from the first call of the routine to the end of the
    /// last, in seconds.
    pub seconds: f64,
    /// The kernel's id of the thread that ran the routine (Linux), which a
    /// profiler's samples carry.
    pub thread_id: Option<u32>,
    /// Ctrl-C stopped it early.
    pub interrupted: bool,
}

/// Each call of the routine lasts about this long once it has grown: long
/// enough that the loop's own code is a negligible part of the profile,
/// short enough that the time given is kept to within a few milliseconds
/// and Ctrl-C is answered at once.
const CALL: Duration = Duration::from_millis(10);

/// Runs `bench`'s routine back to back for `seconds` on a thread named
/// after it.
pub(crate) fn profile_for(
    bench: &Benchmark,
    clock: Clock,
    seconds: f64,
) -> Result<Profiled, Failure> {
    let name = bench.full_name();
    let bench = bench.clone();
    let spawned = std::thread::Builder::new()
        .name(name.clone())
        .spawn(move || {
            let mut driver = BackToBack {
                budget: Duration::from_secs_f64(seconds),
                profiled: Profiled {
                    iterations: 0,
                    seconds: 0.0,
                    thread_id: current_thread_id(),
                    interrupted: false,
                },
            };
            let _watch = super::ExitWatch::arm(&super::early_exit_message(&bench));
            super::call(&bench, &mut driver, clock).map(|_| driver.profiled)
        });
    match spawned {
        Ok(thread) => thread.join().unwrap_or_else(|_| {
            Err(Failure {
                message: "the profiling thread panicked outside the benchmark".to_string(),
                location: None,
            })
        }),
        Err(error) => Err(Failure {
            message: format!("could not start a thread for {name}: {error}"),
            location: None,
        }),
    }
}

/// The driver: calls of the routine that double in iterations until one
/// lasts [`CALL`], until the budget is spent or Ctrl-C.
struct BackToBack {
    budget: Duration,
    profiled: Profiled,
}

impl Driver for BackToBack {
    fn drive(&mut self, routine: &mut Routine<'_>) {
        let started = Instant::now();
        let mut iterations = 1u64;
        loop {
            let call = Instant::now();
            routine(iterations);
            self.profiled.iterations += iterations;
            let took = call.elapsed();
            if bench_runtime::signal::interrupted() {
                self.profiled.interrupted = true;
                break;
            }
            if started.elapsed() >= self.budget {
                break;
            }
            let left = self.budget.saturating_sub(started.elapsed());
            if took * 2 <= CALL.min(left) && iterations < 1 << 40 {
                iterations *= 2;
            }
        }
        self.profiled.seconds = started.elapsed().as_secs_f64();
    }
}

/// This thread's id as the kernel knows it (`/proc/thread-self` links to
/// `PID/task/TID`); `None` elsewhere.
fn current_thread_id() -> Option<u32> {
    let link = std::fs::read_link("/proc/thread-self").ok()?;
    link.file_name()?.to_str()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn each_thread_has_its_own_id_and_none_is_the_process_id() {
        let ids: Vec<u32> = (0..2)
            .map(|_| {
                std::thread::spawn(current_thread_id)
                    .join()
                    .unwrap()
                    .expect("Linux has /proc/thread-self")
            })
            .collect();
        assert_ne!(ids[0], ids[1]);
        assert!(!ids.contains(&std::process::id()), "{ids:?}");
    }
}
