use bench_harness::benchmark;

#[benchmark(bytes = 64, items = 8)]
fn both() {}

#[benchmark(bytes = 0)]
fn nothing() {}

#[benchmark(items = 1.5)]
fn fraction() {}

#[benchmark(bytes)]
fn no_value() {}

#[benchmark(precision = 150)]
fn too_precise() {}

fn main() {}
