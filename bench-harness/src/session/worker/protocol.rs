//! The worker protocol: one JSON object per line, requests on the worker's
//! standard input, replies on its standard output (what its benchmarks
//! print goes to its standard error instead).
//!
//! The worker speaks first, with [`Reply::Hello`]: its protocol version and
//! its benchmarks. Then each request gets exactly one reply, except
//! `measure`, which gets one `result` per benchmark and then `measured`.
//!
//! Version 2 (version 1 had no `measure`):
//!
//! | request | reply |
//! |---|---|
//! | (none: the worker starts) | `{"type":"hello","worker":"bench-harness","protocol":2,"harness_version":"…","benchmarks":["…"]}` |
//! | `{"type":"open","name":"…","overhead_per_sample_ns":21.0,"overhead_per_iter_ns":0.25}` | `{"type":"opened","shared_overhead":true}` or `{"type":"error","message":"…"}` |
//! | `{"type":"slice","nanos":15000000.0}` | `{"type":"slice","per_iter_ns":12.3,"samples":812}` (`per_iter_ns` null while warming up), `{"type":"stopped"}` or `{"type":"failed","message":"…"}` |
//! | `{"type":"close"}` | `{"type":"closed"}` |
//! | `{"type":"measure","benchmarks":[["…",false]],"seed":7,"share":3}` | per benchmark `{"type":"result","name":"…","measurement":{…},"extras":{…}}` or `{"type":"result","name":"…","failed":{"message":"…","location":"…"}}` (none for one stopped by Ctrl-C before its first sample; a long one's samples first in lines of `{"type":"samples","samples":[[iters,ns],…]}`), then `{"type":"measured","overhead":{…},"harness_allocations":{…}}` |
//!
//! End of input ends the worker.
//!
//! The overhead fields of `open` are optional: the loop overhead the worker
//! takes out of this benchmark's samples instead of its own. The parent
//! sends its own, so that both builds' times have the same overhead taken
//! out (two estimates of it differ by a few picoseconds, which was a 3%
//! "difference" between a sub-nanosecond benchmark and itself). A worker
//! of an earlier build ignores them, and says so by leaving
//! `shared_overhead` out of its `opened`.
//!
//! `measure` is what a run's own processes answer (`--forks`, and the
//! default run): the benchmarks named, interleaved as a run in one process
//! measures them, with the seed given, each for its share of the budgets
//! (one of `share` processes), beside the worker's own loop-overhead job.
//! Each `result` carries the sampler's whole measurement and everything
//! measured beside it ([`super::wire`]), raw: the parent analyses them.
//! Ctrl-C (SIGINT, from the parent) stops the measuring at a sample
//! boundary, and what was recorded is sent as usual.

use serde_json::Value;

use bench_runtime::Nanos;

use super::wire::{Loop, Raw};
use crate::analysis::Overhead;
use crate::failure::Failure;
use crate::json::{self, Fields, Json, Writer};

/// The version this build speaks; a worker that says another is refused.
pub(crate) const PROTOCOL_VERSION: u32 = 2;

/// The `worker` field of a hello: what tells a bench-harness worker from a
/// program that happens to print JSON.
pub(crate) const WORKER_NAME: &str = "bench-harness";

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Request {
    /// Start measuring this benchmark (by full name); set-up runs now. Its
    /// samples get `overhead` taken out when given, else the worker's own.
    Open {
        name: String,
        overhead: Option<Overhead>,
    },
    /// Measure the open benchmark for this long (nanoseconds).
    Slice { nanos: f64 },
    /// Stop the open benchmark.
    Close,
    /// Measure these benchmarks (by full name, and whether the benchmark
    /// is one `#[benchmark(ignore)]` marks: two of one name differ there)
    /// interleaved, with this seed, each for its share of the budgets as
    /// one of `share` processes.
    Measure {
        benchmarks: Vec<(String, bool)>,
        seed: u64,
        share: usize,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reply {
    Hello {
        worker: String,
        protocol: u32,
        harness_version: String,
        benchmarks: Vec<String>,
    },
    /// Set up; `shared_overhead` when the worker takes out the overhead
    /// the request sent (a worker of an earlier build leaves it out).
    Opened {
        shared_overhead: bool,
    },
    /// The slice's median time per iteration (preempted samples left out),
    /// the loop overhead taken out; `None` while the sampler calibrates or
    /// warms up.
    Slice {
        per_iter_ns: Option<f64>,
        samples: usize,
    },
    /// The sampler stopped (its sample cap): no more slices.
    Stopped,
    /// The benchmark failed (it panicked, in set-up or in its routine).
    Failed {
        message: String,
    },
    Closed,
    /// The request made no sense (no such benchmark, nothing open).
    Error {
        message: String,
    },
    /// The next of a `measure` result's samples, in order, before the
    /// `result` that holds the rest: a long measurement is sent in lines
    /// of at most [`super::wire::SAMPLES_PER_LINE`] samples.
    Samples(Vec<bench_runtime::Sample>),
    /// One benchmark of a `measure`: what the sampler recorded and what
    /// was measured beside it, or why it failed.
    Result {
        name: String,
        result: Result<Box<Raw>, Failure>,
    },
    /// The end of a `measure`: the loop overhead the worker measured
    /// beside its benchmarks, to take out of their samples.
    Measured(Loop),
}

impl Request {
    pub(crate) fn line(&self) -> String {
        json::to_string(self) + "\n"
    }
}

impl Reply {
    pub(crate) fn line(&self) -> String {
        json::to_string(self) + "\n"
    }

    /// Its `type` tag, as a message names a reply out of step (the reply
    /// itself may hold every benchmark's name).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Reply::Hello { .. } => "hello",
            Reply::Opened { .. } => "opened",
            Reply::Slice { .. } => "slice",
            Reply::Stopped => "stopped",
            Reply::Failed { .. } => "failed",
            Reply::Closed => "closed",
            Reply::Error { .. } => "error",
            Reply::Samples(_) => "samples",
            Reply::Result { .. } => "result",
            Reply::Measured(_) => "measured",
        }
    }
}

/// Reads a message's `type` tag.
fn tag(value: &Value) -> Result<(Fields<'_>, String), json::Error> {
    let fields = Fields::of(value)?;
    let tag = fields.req("type")?;
    Ok((fields, tag))
}

fn unknown(tag: &str) -> json::Error {
    json::Error::new(format!("unknown variant `{tag}`"))
}

impl Json for Request {
    fn read(value: &Value) -> Result<Request, json::Error> {
        let (fields, tag) = tag(value)?;
        Ok(match tag.as_str() {
            "open" => Request::Open {
                name: fields.req("name")?,
                overhead: match (
                    fields.req::<Option<f64>>("overhead_per_sample_ns")?,
                    fields.req::<Option<f64>>("overhead_per_iter_ns")?,
                ) {
                    // Its uncertainty is not sent: taking it out of a
                    // sample needs only these two.
                    (Some(per_sample), Some(per_iter)) => Some(Overhead {
                        per_sample: Nanos(per_sample),
                        per_iter: Nanos(per_iter),
                        per_iter_uncertainty: Nanos::ZERO,
                    }),
                    _ => None,
                },
            },
            "slice" => Request::Slice {
                nanos: fields.req("nanos")?,
            },
            "close" => Request::Close,
            "measure" => Request::Measure {
                benchmarks: fields.req("benchmarks")?,
                seed: fields.req("seed")?,
                share: fields.req("share")?,
            },
            other => return Err(unknown(other)),
        })
    }

    fn write(&self, w: &mut Writer) {
        w.begin_object();
        w.key("type");
        match self {
            Request::Open { name, overhead } => {
                w.str("open");
                w.key("name");
                w.str(name);
                if let Some(overhead) = overhead {
                    w.key("overhead_per_sample_ns");
                    w.f64(overhead.per_sample.0);
                    w.key("overhead_per_iter_ns");
                    w.f64(overhead.per_iter.0);
                }
            }
            Request::Slice { nanos } => {
                w.str("slice");
                w.key("nanos");
                w.f64(*nanos);
            }
            Request::Close => w.str("close"),
            Request::Measure {
                benchmarks,
                seed,
                share,
            } => {
                w.str("measure");
                w.key("benchmarks");
                benchmarks.write(w);
                w.key("seed");
                seed.write(w);
                w.key("share");
                share.write(w);
            }
        }
        w.end_object();
    }
}

impl Json for Reply {
    fn read(value: &Value) -> Result<Reply, json::Error> {
        let (fields, tag) = tag(value)?;
        Ok(match tag.as_str() {
            "hello" => Reply::Hello {
                worker: fields.req("worker")?,
                protocol: fields.req("protocol")?,
                harness_version: fields.req("harness_version")?,
                benchmarks: fields.req("benchmarks")?,
            },
            "opened" => Reply::Opened {
                shared_overhead: fields.or_default("shared_overhead")?,
            },
            "slice" => Reply::Slice {
                per_iter_ns: fields.req("per_iter_ns")?,
                samples: fields.req("samples")?,
            },
            "stopped" => Reply::Stopped,
            "failed" => Reply::Failed {
                message: fields.req("message")?,
            },
            "closed" => Reply::Closed,
            "error" => Reply::Error {
                message: fields.req("message")?,
            },
            "result" => Reply::Result {
                name: fields.req("name")?,
                result: match fields.req::<Option<Failure>>("failed")? {
                    Some(failure) => Err(failure),
                    None => Ok(Box::new(Raw::read(value)?)),
                },
            },
            "measured" => Reply::Measured(Loop::read(value)?),
            "samples" => Reply::Samples(fields.req("samples")?),
            other => return Err(unknown(other)),
        })
    }

    fn write(&self, w: &mut Writer) {
        w.begin_object();
        w.key("type");
        // The tag `kind` names: written once, never out of step with it.
        w.str(self.kind());
        match self {
            Reply::Hello {
                worker,
                protocol,
                harness_version,
                benchmarks,
            } => {
                w.key("worker");
                w.str(worker);
                w.key("protocol");
                protocol.write(w);
                w.key("harness_version");
                w.str(harness_version);
                w.key("benchmarks");
                benchmarks.write(w);
            }
            Reply::Opened { shared_overhead } => {
                if *shared_overhead {
                    w.key("shared_overhead");
                    w.raw("true");
                }
            }
            Reply::Slice {
                per_iter_ns,
                samples,
            } => {
                w.key("per_iter_ns");
                per_iter_ns.write(w);
                w.key("samples");
                samples.write(w);
            }
            Reply::Stopped | Reply::Closed => {}
            Reply::Failed { message } => {
                w.key("message");
                w.str(message);
            }
            Reply::Error { message } => {
                w.key("message");
                w.str(message);
            }
            Reply::Result { name, result } => {
                w.key("name");
                w.str(name);
                match result {
                    Ok(raw) => {
                        w.key("measurement");
                        raw.measurement.write(w);
                        w.key("extras");
                        raw.extras.write(w);
                    }
                    Err(failure) => {
                        w.key("failed");
                        failure.write(w);
                    }
                }
            }
            Reply::Samples(samples) => {
                w.key("samples");
                samples.write(w);
            }
            Reply::Measured(measured) => {
                w.key("overhead");
                measured.overhead.write(w);
                w.key("harness_allocations");
                measured.harness_allocations.write(w);
            }
        }
        w.end_object();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_json_line_each_and_read_back() {
        let requests = [
            Request::Open {
                name: "a::b/10".into(),
                overhead: None,
            },
            Request::Open {
                name: "c".into(),
                overhead: Some(Overhead {
                    per_sample: Nanos(21.5),
                    per_iter: Nanos(0.25),
                    per_iter_uncertainty: Nanos::ZERO,
                }),
            },
            Request::Slice { nanos: 1.5e7 },
            Request::Close,
            // Names no command line could carry (a NUL), a line break, one
            // that looks like a flag, a long one: still one line each.
            Request::Measure {
                benchmarks: vec![
                    ("a::x".into(), false),
                    ("nul\0byte".into(), true),
                    ("two\nlines\r".into(), false),
                    ("--list".into(), false),
                    ("n".repeat(200_000), true),
                ],
                seed: u64::MAX,
                share: 3,
            },
        ];
        for request in requests {
            let line = request.line();
            assert_eq!(line.matches('\n').count(), 1, "{line}");
            assert_eq!(json::from_str::<Request>(&line).unwrap(), request);
        }
        let reply = Reply::Slice {
            per_iter_ns: None,
            samples: 0,
        };
        assert_eq!(
            reply.line(),
            "{\"type\":\"slice\",\"per_iter_ns\":null,\"samples\":0}\n"
        );
        // A worker of an earlier build says only "opened": it took out its
        // own overhead.
        let opened = Reply::Opened {
            shared_overhead: true,
        };
        assert_eq!(json::from_str::<Reply>(&opened.line()).unwrap(), opened);
        assert_eq!(
            json::from_str::<Reply>("{\"type\":\"opened\"}").unwrap(),
            Reply::Opened {
                shared_overhead: false
            }
        );
    }
}
