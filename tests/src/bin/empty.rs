//! A bench binary that registers nothing: the harness must say so.
bench_harness::main!();
