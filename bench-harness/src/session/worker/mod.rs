//! The one worker layer: everything a run measures outside its own process
//! is measured by a worker, a bench binary started by the run's supervisor
//! and speaking [`protocol`] over pipes. A run's own processes (`--forks`,
//! and the default run's several) ask their worker to `measure` the run's
//! benchmarks and get them back raw ([`wire`]); a paired comparison
//! (`--against`) asks both builds' workers for one slice at a time.
//!
//! - [`peer`]: the parent's side: starting a worker (this run's token, a
//!   random environment size), its replies read with a time limit, Ctrl-C
//!   killing it or passed on to it;
//! - [`serve`]: the worker's side;
//! - [`protocol`] and [`wire`]: what they say to each other.
//!
//! A process is a worker only when it was started with this run's token
//! both in [`WORKER_ENV`] and after `--`[`TOKEN_FLAG`] on its command
//! line: the variable alone, left in a shell, is ignored with a note.

mod peer;
mod protocol;
mod serve;
mod wire;

pub(crate) use peer::{Gone, Peer};
pub(crate) use protocol::{Reply, Request, PROTOCOL_VERSION};
pub(crate) use serve::{serve, Side};
pub(crate) use wire::{Loop, Raw};

/// Set in a worker's environment, to the run's token: the bench binary
/// serves the protocol instead of running. A worker does not start workers
/// of its own, and ends when the run that started it does. Named for
/// `--against`, whose workers came first: a build of an earlier
/// bench-harness answers to this name and [`TOKEN_FLAG`], and serves a
/// comparison with protocol 1.
pub(crate) const WORKER_ENV: &str = "BENCH_HARNESS_AGAINST_WORKER";

pub(crate) use crate::cli::WORKER_TOKEN_FLAG as TOKEN_FLAG;

/// Set in each worker's environment, a run of spaces of a random length:
/// the environment sits at the top of the stack, so its size moves where
/// the stack begins, one of the layout effects fresh processes sample.
const PAD_ENV: &str = "BENCH_HARNESS_LAYOUT_PAD";

/// Whether this process was started as a worker by a run of this harness
/// (`--forks`, the default run's processes, or `--against`): the run's
/// token in [`WORKER_ENV`] and on the command line, the same.
pub(crate) fn is_worker() -> bool {
    crate::supervisor::started_with_token(WORKER_ENV, TOKEN_FLAG, "--forks or --against")
}
