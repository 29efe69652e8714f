//! The handle a benchmark body receives, and the interface to whoever runs it.

#![forbid(unsafe_code)]

use std::hint::black_box;

use crate::clock::Clock;
use crate::units::Nanos;

/// A benchmark's timed routine: runs `iters` iterations, returns their total
/// elapsed time as measured between two clock reads.
pub type Routine<'a> = dyn FnMut(u64) -> Nanos + 'a;

/// Decides how a benchmark's routine is run: measured by a
/// [`Sampler`](crate::Sampler) or once as a smoke test. The harness provides
/// the implementations; [`Bencher::iter`] hands the routine over exactly once.
pub trait Driver {
    /// Runs the routine as many times as this driver wants.
    fn drive(&mut self, routine: &mut Routine<'_>);
}

/// Passed to `#[benchmark] fn name(b: &mut Bencher)`: everything before
/// [`Bencher::iter`] is set-up and is not timed.
///
/// Users reach it through `bench_harness`, which this crate cannot depend
/// on, so the example is not compiled here (the example suite compiles it):
///
/// ```ignore
/// use bench_harness::{benchmark, Bencher};
///
/// #[benchmark]
/// fn sort_1k(b: &mut Bencher) {
///     let data: Vec<u32> = (0..1000).rev().collect(); // set-up, not timed
///     b.iter(|| {
///         let mut v = data.clone();
///         v.sort();
///         v // returned values are dropped outside the timed region
///     })
/// }
/// ```
pub struct Bencher<'a> {
    driver: &'a mut dyn Driver,
    clock: Clock,
    iterated: bool,
}

impl std::fmt::Debug for Bencher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bencher")
            .field("clock", &self.clock)
            .field("iterated", &self.iterated)
            .finish_non_exhaustive()
    }
}

impl<'a> Bencher<'a> {
    /// Used by the harness: a bencher whose samples `driver` decides and
    /// `clock` times.
    pub fn new(driver: &'a mut dyn Driver, clock: Clock) -> Bencher<'a> {
        Bencher {
            driver,
            clock,
            iterated: false,
        }
    }

    /// True once [`Bencher::iter`] has run.
    pub fn has_iterated(&self) -> bool {
        self.iterated
    }

    /// Measures `routine`. Its return value goes through [`black_box`] so the
    /// work is not optimised away; values that need dropping are collected
    /// and dropped after the clock has stopped, so their destructors are not
    /// timed.
    ///
    /// # Panics
    /// When called a second time in one benchmark: each benchmark measures
    /// one routine.
    pub fn iter<R, F>(&mut self, mut routine: F)
    where
        F: FnMut() -> R,
    {
        assert!(
            !self.iterated,
            "Bencher::iter was called twice in one benchmark; measure one routine per benchmark"
        );
        self.iterated = true;
        let clock = self.clock;
        if std::mem::needs_drop::<R>() {
            let mut outputs: Vec<R> = Vec::new();
            self.driver.drive(&mut |iters| {
                outputs.reserve_exact(iters as usize);
                let start = clock.start();
                // PERF: `extend` over a `Range` writes into reserved capacity
                // without a per-element capacity check.
                outputs.extend((0..iters).map(|_| black_box(routine())));
                let end = clock.stop();
                outputs.clear();
                clock.elapsed(start, end)
            });
        } else {
            self.driver.drive(&mut |iters| {
                let start = clock.start();
                for _ in 0..iters {
                    black_box(routine());
                }
                let end = clock.stop();
                clock.elapsed(start, end)
            });
        }
    }
}
