//! What a sample keeps alive: outputs (and batched inputs) are dropped
//! outside the timed region, but a long sample does not hold all of them at
//! once, so a 1 ms sample of an A/B group measures what a short one does.
//!
//! These run on the OS clock with routines that spin for tens of
//! microseconds: a slower machine only makes chunks smaller, so the bounds
//! asserted here hold under load too.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use bench_runtime::{Bencher, Clock, Driver, Nanos, Routine};

/// Runs one sample per entry of `iters`, in order, and keeps what each
/// measured.
struct Script {
    iters: Vec<u64>,
    elapsed: Vec<Nanos>,
}

impl Script {
    fn new(iters: &[u64]) -> Script {
        Script {
            iters: iters.to_vec(),
            elapsed: Vec::new(),
        }
    }
}

impl Driver for Script {
    fn drive(&mut self, routine: &mut Routine<'_>) {
        for &iters in &self.iters {
            self.elapsed.push(routine(iters));
        }
    }
}

/// Counts the values alive and the most that ever were at once.
#[derive(Clone, Default)]
struct Census {
    alive: Rc<Cell<usize>>,
    most: Rc<Cell<usize>>,
    born: Rc<Cell<u64>>,
}

impl Census {
    fn birth(&self) -> Alive {
        self.alive.set(self.alive.get() + 1);
        self.most.set(self.most.get().max(self.alive.get()));
        self.born.set(self.born.get() + 1);
        Alive(self.clone())
    }
}

/// One counted value.
struct Alive(Census);

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.alive.set(self.0.alive.get() - 1);
    }
}

fn spin(time: Duration) {
    let start = Instant::now();
    while start.elapsed() < time {}
}

const ITERATION: Duration = Duration::from_micros(30);

/// A first sample of one iteration (the sampler's calibration starts
/// there), then a long one, as an A/B group member runs.
const SAMPLES: [u64; 2] = [1, 40];

#[test]
fn a_long_sample_keeps_only_about_100_us_of_outputs_alive() {
    let census = Census::default();
    let mut script = Script::new(&SAMPLES);
    Bencher::new(&mut script, Clock::os()).iter(|| {
        spin(ITERATION);
        census.birth()
    });
    // 100 µs of 30 µs iterations: 3 at most, where the whole sample is 40.
    assert!(
        census.most.get() <= 3,
        "{} outputs alive at once",
        census.most.get()
    );
    assert_eq!(census.born.get(), 41, "every iteration ran once");
    assert_eq!(census.alive.get(), 0, "every output was dropped");
}

#[test]
fn outputs_are_dropped_between_chunks_outside_the_timed_region() {
    struct SlowDrop;
    impl Drop for SlowDrop {
        fn drop(&mut self) {
            spin(Duration::from_millis(1));
        }
    }
    let mut script = Script::new(&SAMPLES);
    Bencher::new(&mut script, Clock::os()).iter(|| {
        spin(ITERATION);
        SlowDrop
    });
    // 40 iterations of 30 µs are 1.2 ms; their drops, 40 ms more. The
    // bound sits far from both, so a loaded machine's preemptions (a few
    // ms at load 9) cannot cross it.
    let elapsed = script.elapsed[1].0 / 1e6;
    assert!(elapsed >= 1.2, "the work is timed: {elapsed} ms");
    assert!(elapsed < 20.0, "the drops are not: {elapsed} ms");
}

#[test]
fn batched_inputs_are_built_a_chunk_at_a_time() {
    let census = Census::default();
    let mut script = Script::new(&SAMPLES);
    Bencher::new(&mut script, Clock::os()).iter_batched(
        || census.birth(),
        |input| {
            spin(ITERATION);
            input
        },
    );
    assert!(
        census.most.get() <= 3,
        "{} inputs alive at once",
        census.most.get()
    );
    assert_eq!(census.born.get(), 41, "one input per iteration");
    assert_eq!(census.alive.get(), 0);
}

#[test]
fn batched_ref_inputs_are_built_and_dropped_a_chunk_at_a_time() {
    let census = Census::default();
    let runs = Cell::new(0u64);
    let mut script = Script::new(&SAMPLES);
    Bencher::new(&mut script, Clock::os()).iter_batched_ref(
        || census.birth(),
        |_input| {
            spin(ITERATION);
            runs.set(runs.get() + 1);
        },
    );
    assert!(
        census.most.get() <= 3,
        "{} inputs alive at once",
        census.most.get()
    );
    assert_eq!(census.born.get(), 41, "one input per iteration");
    assert_eq!(runs.get(), 41, "every iteration ran once");
    assert_eq!(census.alive.get(), 0);
}

#[test]
fn a_sample_of_zero_iterations_runs_none() {
    let census = Census::default();
    let mut script = Script::new(&[1, 0, 3, 0]);
    Bencher::new(&mut script, Clock::os()).iter(|| {
        spin(ITERATION);
        census.birth()
    });
    assert_eq!(census.born.get(), 4);
}
