//! Benchmarks defined inside the library (`src/lib.rs`, module `benches`),
//! run from this bench target: `cargo bench --features bench --bench library`.

fn main() {
    // Keeps the library's benchmark module in the link: without a use of
    // it, the linker drops its registrations and this binary finds none.
    bench_examples::benches::link();
    bench_harness::main();
}
