use bench_harness::benchmark;

#[benchmark]
fn fib_20() {}

// `group` is each benchmark's, and `min_samples` needs at least one.
bench_harness::main!(group = "fib", min_samples = 0);
