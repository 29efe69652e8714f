//! bench-harness: micro-benchmarks whose numbers you can trust.
#![forbid(unsafe_code)]

pub mod analysis;
mod registry;

pub use bench_macros::benchmark;
pub use bench_runtime::{black_box, Bencher};

/// Items the `#[benchmark]` attribute's expansion refers to. Not a public
/// API: they change without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::registry::{BenchEntry, BenchOptions};
    pub use bench_runtime::{Bencher, Clock, Driver, Nanos};
    pub use inventory;
}
