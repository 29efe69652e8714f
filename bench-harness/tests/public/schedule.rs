//! The schedule as a user sees it: which benchmark runs when. Two benchmarks
//! log every switch between them; the interleaved schedule must alternate
//! many times, the sequential one never. The run is filtered to this
//! module's two: the test binary registers the other modules' too.

use std::ffi::OsString;
use std::sync::Mutex;

use bench_harness::{benchmark, black_box, Bencher};

static SWITCHES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

fn running(name: &'static str) {
    let mut log = SWITCHES.lock().unwrap();
    if log.last() != Some(&name) {
        log.push(name);
    }
}

fn work() -> u64 {
    (0..200u64).fold(0, |acc, x| acc.wrapping_add(black_box(x)))
}

#[benchmark]
fn schedule_alpha(b: &mut Bencher) {
    b.iter(|| {
        running("alpha");
        work()
    })
}

#[benchmark]
fn schedule_beta(b: &mut Bencher) {
    b.iter(|| {
        running("beta");
        work()
    })
}

fn switches(schedule: &str) -> Vec<&'static str> {
    SWITCHES.lock().unwrap().clear();
    let args = [
        "--bench",
        "--schedule",
        schedule,
        "--warm-up-time",
        "0.001",
        "--measure-time",
        "0.03",
        "--precision",
        "0",
        "--color",
        "never",
        "schedule::",
    ];
    let run = bench_harness::run_suite(args.map(OsString::from));
    assert_eq!(run.exit_code, 0);
    assert_eq!(run.results.len(), 2);
    std::mem::take(&mut *SWITCHES.lock().unwrap())
}

#[test]
fn interleaved_rounds_alternate_and_sequential_runs_each_once() {
    // One test: both runs share the switch log.
    let interleaved = switches("interleaved");
    // 60 rounds of two slices each: dozens of switches (the order within a
    // round is shuffled, so consecutive slices of one benchmark merge).
    assert!(interleaved.len() >= 30, "{} switches", interleaved.len());
    assert_eq!(switches("sequential"), ["alpha", "beta"]);
}
