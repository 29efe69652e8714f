//! The runtime's integration tests, in one binary so that they link once.
//! The counting allocator's test is a program of its own (`alloc.rs`, run
//! without libtest): its counts are process-wide, and libtest's threads
//! allocate.

mod bencher;
mod clock;
mod counters;
mod known_cost;
mod sampler;
