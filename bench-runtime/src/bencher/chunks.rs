//! A long sample timed in chunks, so that what its iterations return does
//! not pile up until the clock stops.

use crate::clock::{median, Clock};
use crate::units::Nanos;

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
pub(super) struct Chunks {
    clock: Clock,
    /// The fastest time per iteration seen.
    per_iter: Option<Nanos>,
    read_pair: Option<Nanos>,
}

impl Chunks {
    pub(super) fn new(clock: Clock) -> Chunks {
        Chunks {
            clock,
            per_iter: None,
            read_pair: None,
        }
    }

    /// Runs `iters` iterations as chunks, `time_chunk(n)` timing `n` of
    /// them, and returns their total elapsed time, as if timed in one go.
    pub(super) fn sample(&mut self, iters: u64, mut time_chunk: impl FnMut(u64) -> Nanos) -> Nanos {
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
    Nanos(median(&mut pairs))
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
