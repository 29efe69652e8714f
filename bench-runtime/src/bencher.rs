//! The handle a benchmark body receives, and the interface to whoever runs it.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::Duration;

use crate::clock::Clock;
use crate::units::Nanos;

mod chunks;
use chunks::Chunks;

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
    self_timed: bool,
    throughput: Option<Throughput>,
}

/// How much work one iteration does, for reporting a rate beside the time:
/// set with `#[benchmark(bytes = N)]`, `#[benchmark(items = N)]`, or
/// [`Bencher::throughput`] when it is known only at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Throughput {
    /// Bytes processed per iteration: reported in B/s, KB/s, MB/s, GB/s.
    Bytes(u64),
    /// Items (elements, messages, requests) per iteration: items/s … G items/s.
    Items(u64),
}

impl std::fmt::Debug for Bencher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bencher")
            .field("clock", &self.clock)
            .field("iterated", &self.iterated)
            .field("throughput", &self.throughput)
            .finish_non_exhaustive()
    }
}

impl<'a> Bencher<'a> {
    /// Used by the harness: a bencher whose samples `driver` decides and
    /// `clock` times.
    #[doc(hidden)]
    pub fn new(driver: &'a mut dyn Driver, clock: Clock) -> Bencher<'a> {
        Bencher {
            driver,
            clock,
            iterated: false,
            self_timed: false,
            throughput: None,
        }
    }

    /// Used by the harness: true when the body timed itself with
    /// [`Bencher::iter_custom`], whose durations get no overhead correction.
    #[doc(hidden)]
    pub fn is_self_timed(&self) -> bool {
        self.self_timed
    }

    /// Used by the harness: true once one of the `iter` methods has run.
    #[doc(hidden)]
    pub fn has_iterated(&self) -> bool {
        self.iterated
    }

    /// Sets how much work one iteration does, so the report shows a rate
    /// (bytes or items per second) beside the time. Overrides the
    /// attribute's `bytes = N` or `items = N`.
    ///
    /// ```ignore
    /// #[benchmark(args = [64, 4096])]
    /// fn checksum(b: &mut Bencher, len: usize) {
    ///     let data = vec![7u8; len];
    ///     b.throughput(Throughput::Bytes(len as u64));
    ///     b.iter(|| fnv1a(&data))
    /// }
    /// ```
    pub fn throughput(&mut self, throughput: Throughput) {
        self.throughput = Some(throughput);
    }

    /// Used by the harness: what [`Bencher::throughput`] set, if it was
    /// called.
    #[doc(hidden)]
    pub fn throughput_set(&self) -> Option<Throughput> {
        self.throughput
    }

    // The public methods and this one are `#[track_caller]`, so a misuse
    // panics at the user's call, not in this file.
    #[track_caller]
    fn start_iterating(&mut self) {
        assert!(
            !self.iterated,
            "the bencher was asked to measure twice in one benchmark; call one of b.iter, \
             b.iter_batched, b.iter_batched_ref, b.iter_future or b.iter_custom once"
        );
        self.iterated = true;
    }

    /// Measures `routine`. Its return value goes through [`black_box`] so the
    /// work is not optimised away; values that need dropping are collected
    /// and dropped after the clock has stopped, so their destructors are not
    /// timed. A long sample keeps only about 100 µs of iterations' outputs
    /// alive at once, as a short one would: it is timed in chunks, with the
    /// outputs dropped between them.
    ///
    /// ```ignore
    /// #[benchmark]
    /// fn format_int(b: &mut Bencher) {
    ///     let n = black_box(123_456_789u64); // set-up, not timed
    ///     b.iter(|| n.to_string()) // the String is dropped untimed
    /// }
    /// ```
    ///
    /// # Panics
    /// When called a second time in one benchmark: each benchmark measures
    /// one routine.
    #[track_caller]
    pub fn iter<R, F>(&mut self, mut routine: F)
    where
        F: FnMut() -> R,
    {
        self.start_iterating();
        let clock = self.clock;
        let mut outputs: Vec<R> = Vec::new();
        if !std::mem::needs_drop::<R>() {
            // Nothing is kept alive, so nothing to split: one timed loop per
            // sample.
            self.driver
                .drive(&mut |iters| time_each(clock, iters, 0..iters, &mut outputs, |_| routine()));
            return;
        }
        let mut chunks = Chunks::new(clock);
        self.driver.drive(&mut |iters| {
            chunks.sample(iters, |n| {
                time_each(clock, n, 0..n, &mut outputs, |_| routine())
            })
        });
    }

    /// Measures `routine` on inputs built by `setup`, which is not timed:
    /// `setup` builds one input per iteration before the clock starts; the
    /// timed loop hands each to `routine` by value; what `routine` returns
    /// is dropped after the clock stops. Like [`Bencher::iter`], a long
    /// sample is timed in chunks of about 100 µs: inputs are built, and
    /// outputs dropped, a chunk at a time, so they do not pile up.
    ///
    /// ```ignore
    /// #[benchmark]
    /// fn sort_shuffled(b: &mut Bencher) {
    ///     b.iter_batched(|| shuffled(1000), |mut v| { v.sort(); v })
    /// }
    /// ```
    ///
    /// Set-up time counts against the benchmark's `max_time`, and the
    /// sampler keeps a sample's set-up within a share of the measuring
    /// budget: a set-up far slower than the routine makes samples of fewer
    /// iterations rather than a run that never ends.
    ///
    /// # Panics
    /// When the bencher already measured a routine in this benchmark.
    #[track_caller]
    pub fn iter_batched<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.start_iterating();
        let clock = self.clock;
        let mut chunks = Chunks::new(clock);
        let mut inputs: Vec<I> = Vec::new();
        let mut outputs: Vec<O> = Vec::new();
        self.driver.drive(&mut |iters| {
            chunks.sample(iters, |n| {
                inputs.extend((0..n).map(|_| setup()));
                time_each(clock, n, inputs.drain(..), &mut outputs, &mut routine)
            })
        });
    }

    /// Like [`Bencher::iter_batched`], but `routine` borrows each input
    /// mutably, and the inputs are dropped after the clock stops: for
    /// benchmarks whose input is expensive to drop, or that measure an
    /// operation in place.
    ///
    /// ```ignore
    /// #[benchmark]
    /// fn sort_in_place(b: &mut Bencher) {
    ///     b.iter_batched_ref(|| shuffled(1000), |v| v.sort())
    /// }
    /// ```
    ///
    /// # Panics
    /// When the bencher already measured a routine in this benchmark.
    #[track_caller]
    pub fn iter_batched_ref<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        self.start_iterating();
        let clock = self.clock;
        let mut chunks = Chunks::new(clock);
        let mut inputs: Vec<I> = Vec::new();
        let mut outputs: Vec<O> = Vec::new();
        self.driver.drive(&mut |iters| {
            chunks.sample(iters, |n| {
                inputs.extend((0..n).map(|_| setup()));
                let elapsed = time_each(clock, n, inputs.iter_mut(), &mut outputs, &mut routine);
                inputs.clear();
                elapsed
            })
        });
    }

    /// Measures an `async` routine: each iteration awaits the future `make`
    /// returns, on a minimal executor that polls it on this thread and parks
    /// while it is pending. `#[benchmark] async fn` uses this.
    ///
    /// The executor has no reactor: a future that waits on I/O or timers
    /// needs its runtime. Build the runtime outside the timed region and
    /// block on it inside, so that only the future is measured:
    ///
    /// ```ignore
    /// #[benchmark]
    /// fn fetch(b: &mut Bencher) {
    ///     let runtime = tokio::runtime::Builder::new_current_thread()
    ///         .enable_all()
    ///         .build()
    ///         .unwrap(); // set-up, not timed
    ///     b.iter(|| runtime.block_on(fetch_one()))
    /// }
    /// ```
    ///
    /// # Panics
    /// When the bencher already measured a routine in this benchmark.
    #[track_caller]
    pub fn iter_future<F, M>(&mut self, mut make: M)
    where
        M: FnMut() -> F,
        F: Future,
    {
        // One waker for the whole benchmark: no allocation per iteration.
        let waker = Waker::from(Arc::new(Unpark(thread::current())));
        let mut context = Context::from_waker(&waker);
        self.iter(move || block_on(make(), &mut context))
    }
}

impl Bencher<'_> {
    /// Measures code that times itself: `routine(iters)` runs `iters`
    /// iterations and returns the time they took, measured however the code
    /// needs (across threads, on a device, with the device's own clock).
    /// Each call is one sample of `iters` iterations; the harness chooses
    /// `iters` and stops as for [`Bencher::iter`] (sample floor, precision
    /// rule, `max_time`), and a smoke test (`cargo test --benches`) calls it
    /// once with `iters = 1`.
    ///
    /// ```ignore
    /// #[benchmark]
    /// fn parallel_sum(b: &mut Bencher) {
    ///     let data: Vec<u64> = (0..1 << 20).collect();
    ///     b.iter_custom(|iters| {
    ///         let start = std::time::Instant::now();
    ///         for _ in 0..iters {
    ///             black_box(sum_on_4_threads(&data));
    ///         }
    ///         start.elapsed()
    ///     })
    /// }
    /// ```
    ///
    /// The durations are taken as they are: the harness subtracts no timer
    /// or loop overhead from them (it cannot know what the routine's clock
    /// reads cost), outputs are not kept or dropped for it, and `--cold`,
    /// counters and allocation counts cover the whole call, set-up
    /// included. Set-up done inside the call but outside the returned time
    /// still counts against `max_time`. Under `--forks` each process's loop
    /// overhead (a few nanoseconds per sample) is still subtracted.
    ///
    /// # Panics
    /// When the bencher already measured a routine in this benchmark.
    #[track_caller]
    pub fn iter_custom<F>(&mut self, mut routine: F)
    where
        F: FnMut(u64) -> Duration,
    {
        self.start_iterating();
        self.self_timed = true;
        self.driver
            .drive(&mut |iters| Nanos(routine(iters).as_secs_f64() * 1e9));
    }
}

/// The timed loop of every `iter` method whose outputs or inputs need
/// keeping: `routine` on each of `items` (`iters` of them) between two clock
/// reads. Outputs that need dropping are kept and dropped after the clock
/// has stopped, so destructors are not timed; any other output only goes
/// through [`black_box`], with no store.
#[inline(always)]
fn time_each<T, O>(
    clock: Clock,
    iters: u64,
    items: impl Iterator<Item = T>,
    outputs: &mut Vec<O>,
    mut routine: impl FnMut(T) -> O,
) -> Nanos {
    if std::mem::needs_drop::<O>() {
        outputs.reserve_exact(iters as usize);
        let start = clock.start();
        // PERF: `extend` over a trusted-length iterator (a `Range`, a
        // `Drain`, an `IterMut`) writes into reserved capacity without a
        // per-element capacity check.
        outputs.extend(items.map(|item| black_box(routine(item))));
        let end = clock.stop();
        outputs.clear();
        clock.elapsed(start, end)
    } else {
        let start = clock.start();
        for item in items {
            black_box(routine(item));
        }
        let end = clock.stop();
        clock.elapsed(start, end)
    }
}

/// Wakes a parked thread.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` to completion on this thread, parking while it is
/// pending. A spurious wake-up only costs one more poll.
fn block_on<F: Future>(future: F, context: &mut Context<'_>) -> F::Output {
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(context) {
            return output;
        }
        thread::park();
    }
}
