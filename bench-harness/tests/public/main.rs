//! The crate as its users see it, in one test binary that links once: what
//! `#[benchmark]` expands to and registers, the schedule a run follows, and
//! the compile errors of its misuse (`tests/ui/`).
//!
//! Every `#[benchmark]` of these modules lands in the binary's one
//! registry, and each one's full name starts with its module (`expansion::`,
//! `registration::`, ...): a test finds its own benchmarks by module path,
//! and a test that runs the suite filters it down to its module.

mod expansion;
mod registration;
mod schedule;
mod ui;
