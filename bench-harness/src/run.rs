//! Running benchmarks: once as a smoke test, or measured by a sampler.
//!
//! Each benchmark body runs inside `catch_unwind`, so one that panics (in its
//! set-up or its routine) is reported as failed and the run goes on.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use bench_runtime::{Bencher, Clock, Driver, Measurement, Routine, Sampler, SamplerConfig};

use crate::registry::BenchEntry;

/// Why a benchmark did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    /// `file:line:column` of the panic, when it was one.
    pub location: Option<String>,
}

/// Runs the body once, with one iteration of its routine.
pub fn run_once(entry: &BenchEntry, clock: Clock) -> Result<(), Failure> {
    struct Once;
    impl Driver for Once {
        fn drive(&mut self, routine: &mut Routine<'_>) {
            routine(1);
        }
    }
    call(entry, &mut Once, clock)
}

/// Measures the body with a sampler configured by `config`.
pub fn measure(
    entry: &BenchEntry,
    clock: Clock,
    config: SamplerConfig,
) -> Result<Measurement, Failure> {
    let mut driver = Sampling {
        sampler: Sampler::new(config),
        clock,
    };
    call(entry, &mut driver, clock)?;
    Ok(driver
        .sampler
        .finish()
        .expect("the sampling driver runs its sampler until it is done"))
}

/// Runs a sampler to completion over the routine.
struct Sampling {
    sampler: Sampler,
    clock: Clock,
}

impl Driver for Sampling {
    fn drive(&mut self, routine: &mut Routine<'_>) {
        while let Some(iters) = self.sampler.next_iters() {
            let before = self.clock.start();
            let elapsed = routine(iters);
            let wall = self.clock.elapsed(before, self.clock.stop());
            self.sampler.record(elapsed, wall);
        }
    }
}

fn call(entry: &BenchEntry, driver: &mut dyn Driver, clock: Clock) -> Result<(), Failure> {
    install_panic_hook();
    let mut bencher = Bencher::new(driver, clock);
    let result = panic::catch_unwind(AssertUnwindSafe(|| (entry.run)(&mut bencher)));
    match result {
        Ok(()) if bencher.has_iterated() => Ok(()),
        Ok(()) => Err(Failure {
            message: "the benchmark returned without calling Bencher::iter; \
                      call b.iter(|| ...) once with the code to measure"
                .to_string(),
            location: Some(format!("{}:{}", entry.file, entry.line)),
        }),
        Err(payload) => Err(LAST_PANIC
            .with(|last| last.borrow_mut().take())
            .unwrap_or_else(|| Failure {
                message: panic_message(payload.as_ref()),
                location: None,
            })),
    }
}

thread_local! {
    /// The message and location of the last panic on this thread, recorded by
    /// the hook so the report can show them in place of a backtrace.
    static LAST_PANIC: RefCell<Option<Failure>> = const { RefCell::new(None) };
}

/// Replaces the default panic output (a message and a backtrace hint on
/// stderr, in the middle of the table) with a record the report prints.
fn install_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let failure = Failure {
                message: panic_message(info.payload()),
                location: info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())),
            };
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(failure));
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "the benchmark panicked with a non-string payload".to_string()
    }
}
