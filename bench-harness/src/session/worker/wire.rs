//! What a worker's `measure` sends back, as JSON: the sampler's whole
//! measurement and everything measured beside it, field for field, so that
//! the parent analyses a process's samples exactly as that process would
//! have (nothing is dropped on the way, as a report's document drops the
//! refusals, the deallocation counts or the slice clock).

use std::ops::Range;

use serde_json::Value;

use bench_runtime::clock::cpu::CpuTime;
use bench_runtime::counter::alloc::AllocCounts;
use bench_runtime::counter::{Event, Refusal};
use bench_runtime::{Measurement, Nanos, Sample, StopReason, Throughput, WarmUp};

use crate::analysis::Overhead;
use crate::document::{self, StopKind};
use crate::failure::Failure;
use crate::instruments::{AllocRates, Extras, SliceEvidence};
use crate::json::{self, json_struct, Fields, Json, Writer};

/// One benchmark as a worker measured it, before any analysis.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Raw {
    pub measurement: Measurement,
    pub extras: Extras,
}

/// The most samples one line carries: at the longest a sample is written
/// (`[18446744073709551615,1.2345678901234567e300]`, 46 bytes and a comma)
/// 100,000 of them are 4.7 MB, well inside the 16 MiB a line of a
/// worker's output may hold; the sampler keeps up to 1,000,000.
pub(crate) const SAMPLES_PER_LINE: usize = 100_000;

impl Raw {
    /// Takes all but the last [`SAMPLES_PER_LINE`] (or fewer) samples out,
    /// in lines of that many, to be sent before the rest: put back in
    /// order with [`Raw::put_back`].
    pub(crate) fn take_leading_samples(&mut self) -> Vec<Vec<Sample>> {
        let samples = &mut self.measurement.samples;
        let lines = samples.len().saturating_sub(1) / SAMPLES_PER_LINE;
        let rest = samples.split_off(lines * SAMPLES_PER_LINE);
        let leading = std::mem::replace(samples, rest);
        leading
            .chunks(SAMPLES_PER_LINE)
            .map(<[Sample]>::to_vec)
            .collect()
    }

    /// Puts the samples that came before it (`leading`, in order) back in
    /// front of its own.
    pub(crate) fn put_back(&mut self, mut leading: Vec<Sample>) {
        leading.append(&mut self.measurement.samples);
        self.measurement.samples = leading;
    }
}

/// What a worker's measurement of the loop left for its benchmarks: the
/// overhead to take out of their samples, and the harness's own
/// allocations per sample, to take out of theirs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Loop {
    pub overhead: Overhead,
    pub harness_allocations: AllocRates,
}

json_struct!(Raw {
    measurement,
    extras
});
json_struct!(Loop {
    overhead,
    harness_allocations
});
json_struct!(Overhead {
    per_sample,
    per_iter,
    per_iter_uncertainty
});
json_struct!(AllocRates {
    allocations,
    deallocations,
    reallocations,
    bytes_allocated
});
json_struct!(Failure { message, location });
json_struct!(Measurement {
    samples,
    stop,
    warm_up,
    rewarm_samples,
    setup_time,
    slice_starts,
    total_time,
    wall_capped
});
json_struct!(WarmUp {
    time,
    samples,
    steady,
    final_cv
});
json_struct!(Extras {
    iterations,
    samples,
    counters,
    refusals,
    multiplexed,
    allocations,
    cpu,
    other_threads_cpu: default,
    cpus,
    throughput,
    self_timed,
    slice_clock,
    slices,
    preempted,
    rounds
});
json_struct!(AllocCounts {
    allocations,
    deallocations,
    reallocations,
    bytes_allocated,
    bytes_deallocated
});
json_struct!(CpuTime { user, system });
json_struct!(SliceEvidence {
    first_sample,
    samples,
    probe,
    pause: skip,
    faults: skip
});
json_struct!(Refusal { events, reason });

impl Json for Nanos {
    fn read(value: &Value) -> Result<Nanos, json::Error> {
        f64::read(value).map(Nanos)
    }
    fn write(&self, w: &mut Writer) {
        self.0.write(w);
    }
}

/// A sample as `[iterations, nanoseconds]`: a measurement holds thousands.
impl Json for Sample {
    fn read(value: &Value) -> Result<Sample, json::Error> {
        let (iters, elapsed) = <(u64, f64)>::read(value)?;
        Ok(Sample {
            iters,
            elapsed: Nanos(elapsed),
        })
    }
    fn write(&self, w: &mut Writer) {
        (self.iters, self.elapsed.0).write(w);
    }
}

/// A range as `[start, end]`.
impl Json for Range<usize> {
    fn read(value: &Value) -> Result<Range<usize>, json::Error> {
        let (start, end) = <(usize, usize)>::read(value)?;
        Ok(start..end)
    }
    fn write(&self, w: &mut Writer) {
        (self.start, self.end).write(w);
    }
}

/// An event by its name.
impl Json for Event {
    fn read(value: &Value) -> Result<Event, json::Error> {
        let name = String::read(value)?;
        Event::ALL
            .into_iter()
            .find(|event| event.name() == name)
            .ok_or_else(|| json::Error::new(format!("unknown counter `{name}`")))
    }
    fn write(&self, w: &mut Writer) {
        w.str(self.name());
    }
}

/// Why the sampler stopped, by the name the results document gives it.
impl Json for StopReason {
    fn read(value: &Value) -> Result<StopReason, json::Error> {
        StopKind::read(value).map(document::stop_reason)
    }
    fn write(&self, w: &mut Writer) {
        document::stop_kind(*self).write(w);
    }
}

/// What the body set, as `{"bytes": N}` or `{"items": N}`.
impl Json for Throughput {
    fn read(value: &Value) -> Result<Throughput, json::Error> {
        let fields = Fields::of(value)?;
        match (fields.req("bytes")?, fields.req("items")?) {
            (Some(bytes), None) => Ok(Throughput::Bytes(bytes)),
            (None, Some(items)) => Ok(Throughput::Items(items)),
            _ => Err(json::Error::invalid(value, "bytes or items")),
        }
    }
    fn write(&self, w: &mut Writer) {
        let (key, n) = match *self {
            Throughput::Bytes(n) => ("bytes", n),
            Throughput::Items(n) => ("items", n),
        };
        w.begin_object();
        w.key(key);
        n.write(w);
        w.end_object();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field that a report's document drops comes back as it was.
    #[test]
    fn a_measurement_and_its_extras_read_back_whole() {
        let raw = Raw {
            measurement: Measurement {
                samples: vec![
                    Sample {
                        iters: 3,
                        elapsed: Nanos(12.5),
                    },
                    Sample {
                        iters: 1 << 40,
                        elapsed: Nanos(1e12 + 0.25),
                    },
                ],
                stop: StopReason::ProcessCap,
                warm_up: WarmUp {
                    time: Nanos(1e6),
                    samples: 7,
                    steady: false,
                    final_cv: Some(0.031),
                },
                rewarm_samples: 2,
                setup_time: Nanos(17.0),
                slice_starts: vec![0, 1],
                total_time: Nanos(2e9),
                wall_capped: true,
            },
            extras: Extras {
                iterations: (1 << 40) + 3,
                samples: 2,
                counters: vec![(Event::ALL[3], 1.5e9)],
                refusals: vec![Refusal {
                    events: vec![Event::ALL[0], Event::ALL[1]],
                    reason: "no PMU: use software events".into(),
                }],
                multiplexed: true,
                allocations: Some(AllocCounts {
                    allocations: 4,
                    deallocations: 3,
                    reallocations: 2,
                    bytes_allocated: 1 << 33,
                    bytes_deallocated: 99,
                }),
                cpu: Some((
                    CpuTime {
                        user: Nanos(10.0),
                        system: Nanos(2.0),
                    },
                    Nanos(13.0),
                )),
                other_threads_cpu: Nanos(5.0),
                cpus: vec![0, 1],
                throughput: Some(Throughput::Items(64)),
                self_timed: true,
                slice_clock: vec![(0, 0.0), (1, 0.125)],
                slices: vec![SliceEvidence {
                    first_sample: 1,
                    samples: 1,
                    probe: 0.33,
                    pause: Some(Nanos(2.5e6)),
                    faults: Some(3),
                }],
                preempted: vec![1],
                rounds: Some(vec![Some(0..1), None, Some(1..2)]),
            },
        };
        let reply = super::super::protocol::Reply::Result {
            name: "a::b/1".into(),
            result: Ok(Box::new(raw.clone())),
        };
        let line = reply.line();
        assert_eq!(line.matches('\n').count(), 1, "{line}");
        match json::from_str(&line).unwrap() {
            super::super::protocol::Reply::Result {
                result: Ok(back), ..
            } => assert_eq!(*back, raw),
            other => panic!("{other:?}"),
        }
        // A long measurement goes in lines of a bounded size, and back.
        let mut long = raw.clone();
        long.measurement.samples = (0..2 * SAMPLES_PER_LINE as u64 + 7)
            .map(|i| Sample {
                iters: u64::MAX - i,
                elapsed: Nanos(1.234_567_890_123_456_7e300 / (i + 1) as f64),
            })
            .collect();
        let whole = long.clone();
        let leading = long.take_leading_samples();
        assert_eq!(leading.len(), 2);
        assert_eq!(long.measurement.samples.len(), 7);
        let mut back = json::from_str::<Raw>(&json::to_string(&long)).unwrap();
        let mut before = Vec::new();
        for line in leading {
            let reply = super::super::protocol::Reply::Samples(line).line();
            assert!(reply.len() < 16 << 20, "{}", reply.len());
            match json::from_str(&reply).unwrap() {
                super::super::protocol::Reply::Samples(mut chunk) => before.append(&mut chunk),
                other => panic!("{other:?}"),
            }
        }
        back.put_back(before);
        assert_eq!(back, whole);
        let stops = [
            StopReason::Precise,
            StopReason::TimeBudget,
            StopReason::SampleCap,
            StopReason::MaxTime,
            StopReason::Abandoned,
            StopReason::ProcessCap,
        ];
        for stop in stops {
            assert_eq!(
                json::from_str::<StopReason>(&json::to_string(&stop)),
                Ok(stop)
            );
        }
    }
}
