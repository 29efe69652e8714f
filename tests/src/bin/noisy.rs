//! Benchmarks that do what the harness's outputs must survive: print to
//! stdout, change the working directory, close stdout; for the end-to-end
//! tests of `--format` on stdout, `--output` and baselines.

use std::time::Duration;

use bench_harness::{benchmark, black_box, Bencher};

/// Prints a line on stdout every iteration.
#[benchmark]
fn prints() -> u64 {
    println!("a benchmark's own line on stdout");
    black_box(1)
}

/// Its `args` expression prints too, before anything is measured.
#[benchmark(args = printed_sizes())]
fn prints_its_args(n: u64) -> u64 {
    black_box(n) + 1
}

fn printed_sizes() -> Vec<u64> {
    println!("the args expression's line on stdout");
    vec![8]
}

/// Moves the process into `$NOISY_CHDIR` (when set) during its set-up.
#[benchmark]
fn changes_directory(b: &mut Bencher) {
    if let Some(dir) = std::env::var_os("NOISY_CHDIR") {
        std::env::set_current_dir(dir).expect("NOISY_CHDIR exists");
    }
    b.iter(|| black_box(2u64) * 3)
}

/// Closes the process's standard output (fd 1) during its set-up.
#[benchmark]
fn closes_stdout(b: &mut Bencher) {
    extern "C" {
        fn close(fd: i32) -> i32;
    }
    if std::env::var_os("NOISY_CLOSE_STDOUT").is_some() {
        // SAFETY: closing a descriptor number touches no memory; whatever
        // used fd 1 fails from now on, which is the point.
        unsafe { close(1) };
    }
    b.iter(|| black_box(3u64) + 4)
}

/// Takes a second per call: a Ctrl-C sent while it runs stops the smoke
/// test after it.
#[benchmark]
fn a_second_long() {
    std::thread::sleep(Duration::from_secs(1));
}

#[benchmark]
fn quiet() -> u64 {
    black_box(5)
}

bench_harness::main!();
