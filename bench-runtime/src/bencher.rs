//! The handle a benchmark body receives, and the interface to whoever runs it.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

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
            throughput: None,
        }
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

    fn start_iterating(&mut self) {
        assert!(
            !self.iterated,
            "the bencher was asked to measure twice in one benchmark; \
             call one of b.iter, b.iter_batched, b.iter_batched_ref or b.iter_future once"
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
    /// # Panics
    /// When called a second time in one benchmark: each benchmark measures
    /// one routine.
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

/// How much work's outputs (and, for the batched methods, inputs) a sample
/// keeps alive at once: a chunk of iterations lasts about this long.
///
/// Outputs are kept so that their destructors run outside the timed region;
/// kept for a whole sample, they pile up. An A/B group member's sample lasts
/// at least 1 ms: a routine returning a 256 KB map (10,000 entries) then
/// held every map of the sample (2 to 8, by the machine's speed), faulted
/// 80 fresh pages per iteration and ran 1.3–2.2× slower than alone, where a
/// sample of one iteration holds one map.
///
/// A chunk of 100 µs holds about what an ordinary sample holds (samples
/// last 1–2 sample floors, 10–60 µs), which it leaves unsplit, and splits a
/// group member's 1 ms sample into about ten, each split costing one more
/// read pair (see [`Chunks`]). Chunks of 25 and 50 µs measured the same:
/// the `sort` group's members (4 KB outputs) 9–14% faster than unsplit, the
/// ungrouped `format_int` and `format_float` (`String`s) unchanged.
///
/// Time, not `size_of`, bounds the chunk: `size_of` does not see what an
/// output owns on the heap, while what a routine can allocate and touch
/// grows with the time it runs.
const CHUNK_TIME: Nanos = Nanos(100_000.0);

/// Rounds of empty read pairs timed to learn what one split costs; the
/// median is kept.
const READ_PAIR_ROUNDS: usize = 101;

/// Splits a sample into chunks of iterations, each timed between its own
/// two clock reads, with what it kept alive dropped between chunks, outside
/// the timed region. The chunk's size is [`CHUNK_TIME`] over the fastest
/// time per iteration of the samples so far (at least one iteration): the
/// fastest, because one preempted sample must not cut the next into
/// single iterations. A first sample, with no time yet, is not split.
///
/// The sample's elapsed time is the chunks' sum minus one read pair per
/// extra chunk: every chunk's timed region includes the cost of a start/stop
/// pair, and the harness subtracts only one pair per sample (its per-sample
/// overhead, an empty `iter` sample). The pair's cost is measured here, as
/// the median of empty pairs, the first time a sample splits; at one split
/// per 100 µs a 10% error in it moves the result by 0.003%.
struct Chunks {
    clock: Clock,
    /// The fastest time per iteration seen.
    per_iter: Option<Nanos>,
    read_pair: Option<Nanos>,
}

impl Chunks {
    fn new(clock: Clock) -> Chunks {
        Chunks {
            clock,
            per_iter: None,
            read_pair: None,
        }
    }

    /// Runs `iters` iterations as chunks, `time_chunk(n)` timing `n` of
    /// them, and returns their total elapsed time, as if timed in one go.
    fn sample(&mut self, iters: u64, mut time_chunk: impl FnMut(u64) -> Nanos) -> Nanos {
        let size = chunk_size(iters, self.per_iter);
        let mut elapsed = time_chunk(size);
        let mut done = size;
        let mut splits = 0;
        while done < iters {
            let n = size.min(iters - done);
            elapsed += time_chunk(n);
            done += n;
            splits += 1;
        }
        if splits > 0 {
            let read_pair = *self
                .read_pair
                .get_or_insert_with(|| read_pair_cost(self.clock));
            elapsed = Nanos((elapsed - read_pair * splits as f64).0.max(0.0));
        }
        if iters > 0 {
            let this = elapsed / iters as f64;
            self.per_iter = Some(
                self.per_iter
                    .map_or(this, |fastest| Nanos(fastest.0.min(this.0))),
            );
        }
        elapsed
    }
}

/// Iterations per chunk: those that fit in [`CHUNK_TIME`] at `per_iter`
/// each, at least one, at most the whole sample; the whole sample while the
/// time per iteration is unknown.
fn chunk_size(iters: u64, per_iter: Option<Nanos>) -> u64 {
    match per_iter {
        // `as` saturates: a tiny time per iteration gives `u64::MAX`.
        Some(per_iter) if per_iter.0 > 0.0 => {
            ((CHUNK_TIME.0 / per_iter.0) as u64).max(1).min(iters)
        }
        _ => iters,
    }
}

/// The median elapsed time of an empty timed region: what each extra chunk
/// adds to a sample.
fn read_pair_cost(clock: Clock) -> Nanos {
    let mut pairs: Vec<f64> = (0..READ_PAIR_ROUNDS)
        .map(|_| {
            let start = clock.start();
            let end = clock.stop();
            clock.elapsed(start, end).0
        })
        .collect();
    pairs.sort_by(f64::total_cmp);
    Nanos(pairs[pairs.len() / 2])
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_holds_100_us_of_iterations_and_at_least_one() {
        let micros = |us: f64| Some(Nanos(us * 1000.0));
        assert_eq!(chunk_size(40, None), 40, "unknown cost: not split");
        assert_eq!(chunk_size(40, micros(30.0)), 3);
        assert_eq!(chunk_size(40, micros(250.0)), 1);
        assert_eq!(chunk_size(40, micros(0.001)), 40, "never past the sample");
        assert_eq!(chunk_size(0, micros(30.0)), 0);
        assert_eq!(chunk_size(40, Some(Nanos::ZERO)), 40);
    }

    #[test]
    fn a_split_sample_carries_one_read_pair_like_an_unsplit_one() {
        let read_pair = Nanos(30.0);
        let mut chunks = Chunks::new(Clock::os());
        chunks.read_pair = Some(read_pair);
        chunks.per_iter = Some(Nanos(25_000.0));
        let mut sizes = Vec::new();
        // Each chunk: 25 µs per iteration plus its own pair of reads.
        let elapsed = chunks.sample(10, |n| {
            sizes.push(n);
            Nanos(25_000.0 * n as f64) + read_pair
        });
        assert_eq!(sizes, [4, 4, 2]);
        assert_eq!(elapsed, Nanos(250_000.0) + read_pair);
    }

    #[test]
    fn a_preempted_sample_does_not_shrink_the_next_chunks() {
        let mut chunks = Chunks::new(Clock::os());
        chunks.read_pair = Some(Nanos::ZERO);
        chunks.sample(1, |_| Nanos(25_000.0));
        chunks.sample(1, |_| Nanos(2_500_000.0));
        assert_eq!(chunks.per_iter, Some(Nanos(25_000.0)), "the fastest so far");
        assert_eq!(chunk_size(10, chunks.per_iter), 4);
        chunks.sample(1, |_| Nanos(20_000.0));
        assert_eq!(chunk_size(10, chunks.per_iter), 5);
    }

    #[test]
    fn an_unsplit_sample_reads_no_extra_pairs() {
        let mut chunks = Chunks::new(Clock::os());
        let elapsed = chunks.sample(8, |n| Nanos(10.0 * n as f64));
        assert_eq!(elapsed, Nanos(80.0));
        assert_eq!(
            chunks.read_pair, None,
            "nothing to correct, nothing measured"
        );
    }
}
