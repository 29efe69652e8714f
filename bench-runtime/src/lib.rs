//! The measurement core of bench-harness: clocks, [`black_box`], the
//! [`Bencher`] a benchmark body receives, and the [`Sampler`] that decides
//! how many iterations each sample runs and when to stop.
//!
//! This crate does no statistics and prints nothing; users depend on
//! `bench-harness`, which re-exports what they need from here.
//!
//! The crate root holds the types a harness drives a benchmark with; the
//! modules hold the rest: [`clock`] (the OS clock, the cycle counter, a
//! thread's and its process's CPU time, kernels of known cost) and [`counter`] (perf_event
//! counters and allocation counts). The harness's own plumbing (`affinity`:
//! pinning the measuring thread; `heap`: the arena it allocates from;
//! `signal`: Ctrl-C; `stdio`; `early_exit`)
//! is public for bench-harness only and hidden from these docs: no API,
//! it changes with the harness. Every call into the OS goes through one
//! private module, `sys`; with the per-architecture clock code and the
//! counting allocator, it is the only code allowed `unsafe`.
//!
//! ```
//! use bench_runtime::{Sampler, SamplerConfig, Nanos};
//!
//! // Drive a sampler with a fake clock: every iteration costs 50 ns.
//! let mut sampler = Sampler::new(SamplerConfig::default());
//! while let Some(iters) = sampler.next_iters() {
//!     let elapsed = Nanos(50.0 * iters as f64);
//!     sampler.record(elapsed, elapsed);
//! }
//! let measurement = sampler.finish().unwrap();
//! assert!(measurement.samples.iter().all(|s| s.per_iter() == Nanos(50.0)));
//! ```

// `unsafe` is allowed only where it cannot be avoided, each place opting in
// with `#[allow(unsafe_code)]`: `sys` (calls into the OS), `clock::arch`
// (inline asm) and the counting allocator's `GlobalAlloc` impl.
#![deny(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

// `affinity`, `early_exit`, `heap`, `signal` and `stdio` are the harness's
// plumbing, public because bench-harness calls them: hidden, like `build`
// and `hidden`, so that they are no promise to anyone else.
#[doc(hidden)]
pub mod affinity;
#[doc(hidden)]
pub mod build;
pub mod clock;
pub mod counter;
#[doc(hidden)]
pub mod early_exit;
#[doc(hidden)]
pub mod heap;
#[doc(hidden)]
pub mod hidden;
#[doc(hidden)]
pub mod signal;
#[doc(hidden)]
pub mod stdio;

// Their public items are re-exported below, at the crate root.
mod bencher;
mod sampler;
mod units;

#[allow(unsafe_code)]
mod sys;

pub use bencher::{Bencher, Driver, Routine, Throughput};
pub use clock::{Clock, ClockError, ClockKind, TimerChoice, TimerPrecision};
pub use sampler::{Measurement, Sample, Sampler, SamplerConfig, StopReason, StopRule, WarmUp};
pub use std::hint::black_box;
pub use units::{Nanos, Ticks};
