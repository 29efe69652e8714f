//! How a benchmark's raw samples are written: packed, and exactly.
//!
//! A run of the example suite records about 300,000 samples. Written as
//! one object per sample (`{"iters": 1024, "elapsed_ns": 17034.23076923077}`
//! on a line of its own, schema versions 1 and 2) they took 63 bytes each,
//! 95% of the document. Schema version 3 packs them into columns:
//!
//! ```json
//! "samples": {
//!   "iters": [[1024, 6262]],
//!   "ns_per_tick": 0.38461567990126766,
//!   "ticks": [
//!     44289, 44301, ...
//!   ]
//! }
//! ```
//!
//! - `iters`, run-length encoded as `[value, count]` pairs: a benchmark's
//!   samples almost always share one iteration count.
//! - `ticks`, the clock's whole ticks, when every sample's `elapsed_ns` is
//!   exactly `ticks × ns_per_tick` in IEEE-754 double precision (the clock
//!   converts ticks so: every sample of a plain `iter`), with that
//!   `ns_per_tick`; about 7 bytes a sample.
//! - `elapsed_ns` otherwise (a sample timed in chunks has the chunks'
//!   clock reads taken out, no whole number of ticks), each the shortest
//!   decimal that reads back as the same double.
//!
//! Either way a sample reads back as the very double that was measured, so
//! every figure recomputes from a document to the last bit. The reader also
//! takes the array of objects of versions 1 and 2.

use std::ops::{Deref, DerefMut};

use serde_json::Value;

use super::SampleRecord;
use crate::json::{self, Fields, Json, Writer};

/// A benchmark's samples in the order taken. Written packed (see the
/// module's documentation); `tick_ns` is only a hint for writing: the
/// clock's tick, tried first (and its neighbouring doubles) as
/// `ns_per_tick`. Two records are equal when their samples are.
#[derive(Debug, Clone, Default)]
pub(crate) struct SamplesRecord {
    samples: Vec<SampleRecord>,
    tick_ns: Option<f64>,
}

impl SamplesRecord {
    /// `samples`, to be written in whole ticks of `tick_ns` where exact.
    pub(crate) fn new(samples: Vec<SampleRecord>, tick_ns: Option<f64>) -> SamplesRecord {
        SamplesRecord { samples, tick_ns }
    }
}

impl From<Vec<SampleRecord>> for SamplesRecord {
    fn from(samples: Vec<SampleRecord>) -> SamplesRecord {
        SamplesRecord::new(samples, None)
    }
}

impl PartialEq for SamplesRecord {
    fn eq(&self, other: &SamplesRecord) -> bool {
        self.samples == other.samples
    }
}

impl Deref for SamplesRecord {
    type Target = Vec<SampleRecord>;

    fn deref(&self) -> &Vec<SampleRecord> {
        &self.samples
    }
}

impl DerefMut for SamplesRecord {
    fn deref_mut(&mut self) -> &mut Vec<SampleRecord> {
        &mut self.samples
    }
}

/// The scale near `tick_ns` (it or a neighbouring double: a tick computed
/// as `1e9 / (1e9 / tick)` may be an ulp or two off) in which every sample
/// is a whole number of ticks, exactly; with it, the ticks.
fn whole_ticks(samples: &[SampleRecord], tick_ns: f64) -> Option<(f64, Vec<u64>)> {
    if !(tick_ns.is_finite() && tick_ns > 0.0) {
        return None;
    }
    // 2^53: above it not every whole number is a double.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    let ticks_in = |scale: f64| -> Option<Vec<u64>> {
        samples
            .iter()
            .map(|s| {
                let ticks = (s.elapsed_ns / scale).round();
                // `as` is exact here: a whole, non-negative double below 2^53.
                ((0.0..EXACT).contains(&ticks) && ticks * scale == s.elapsed_ns)
                    .then_some(ticks as u64)
            })
            .collect()
    };
    let bits = tick_ns.to_bits();
    [0i64, -1, 1, -2, 2].into_iter().find_map(|step| {
        let scale = f64::from_bits(bits.checked_add_signed(step)?);
        (scale.is_finite() && scale > 0.0)
            .then(|| ticks_in(scale))
            .flatten()
            .map(|ticks| (scale, ticks))
    })
}

/// `iters` of each sample as `[value, count]` runs.
fn runs(samples: &[SampleRecord]) -> Vec<(u64, usize)> {
    let mut runs: Vec<(u64, usize)> = Vec::new();
    for sample in samples {
        match runs.last_mut() {
            Some((iters, count)) if *iters == sample.iters => *count += 1,
            _ => runs.push((sample.iters, 1)),
        }
    }
    runs
}

impl Json for SamplesRecord {
    fn write(&self, w: &mut Writer) {
        let ticks = self
            .tick_ns
            .and_then(|tick_ns| whole_ticks(&self.samples, tick_ns));
        w.begin_object();
        w.key("iters");
        runs(&self.samples).write(w);
        match ticks {
            Some((scale, ticks)) => {
                w.key("ns_per_tick");
                w.f64(scale);
                w.key("ticks");
                ticks.write(w);
            }
            None => {
                w.key("elapsed_ns");
                w.begin_array();
                for sample in &self.samples {
                    w.f64(sample.elapsed_ns);
                }
                w.end_array();
            }
        }
        w.end_object();
    }

    /// Packed (an object), or the array of objects of schema versions 1
    /// and 2: `[{"iters": N, "elapsed_ns": T}, ...]`.
    fn read(value: &Value) -> Result<SamplesRecord, json::Error> {
        if let Value::Array(_) = value {
            return Vec::<SampleRecord>::read(value).map(SamplesRecord::from);
        }
        let fields = Fields::of(value)
            .map_err(|_| json::Error::invalid(value, "packed samples (an object) or an array"))?;
        let packed = Packed {
            iters: fields.req("iters")?,
            ns_per_tick: fields.req("ns_per_tick")?,
            ticks: fields.req("ticks")?,
            elapsed_ns: fields.req("elapsed_ns")?,
        };
        packed
            .unpack()
            .map_err(|why| json::Error::new(format!("samples: {why}")))
    }

    fn is_absent(&self) -> bool {
        self.is_empty()
    }
}

/// The packed form as written.
struct Packed {
    iters: Vec<(u64, usize)>,
    ns_per_tick: Option<f64>,
    ticks: Option<Vec<u64>>,
    elapsed_ns: Option<Vec<f64>>,
}
impl Packed {
    fn unpack(self) -> Result<SamplesRecord, String> {
        let (elapsed, tick_ns): (Vec<f64>, Option<f64>) =
            match (self.ticks, self.ns_per_tick, self.elapsed_ns) {
                (Some(ticks), Some(scale), None) => (
                    ticks.iter().map(|&t| t as f64 * scale).collect(),
                    Some(scale),
                ),
                (Some(_), None, _) => return Err("\"ticks\" without \"ns_per_tick\"".into()),
                (None, _, Some(elapsed)) => (elapsed, None),
                (Some(_), _, Some(_)) => {
                    return Err("both \"ticks\" and \"elapsed_ns\"".into());
                }
                (None, _, None) => return Err("neither \"ticks\" nor \"elapsed_ns\"".into()),
            };
        let counted: usize = self.iters.iter().map(|&(_, count)| count).sum();
        if counted != elapsed.len() {
            return Err(format!(
                "\"iters\" counts {counted} samples, the times {}",
                elapsed.len()
            ));
        }
        let iters = self
            .iters
            .iter()
            .flat_map(|&(iters, count)| std::iter::repeat_n(iters, count));
        let samples = iters
            .zip(elapsed)
            .map(|(iters, elapsed_ns)| SampleRecord { iters, elapsed_ns })
            .collect();
        Ok(SamplesRecord::new(samples, tick_ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(iters: u64, elapsed_ns: f64) -> SampleRecord {
        SampleRecord { iters, elapsed_ns }
    }

    fn round_trip(record: &SamplesRecord) -> (String, SamplesRecord) {
        let text = json::to_string(record);
        (text.clone(), json::from_str(&text).unwrap())
    }

    #[test]
    fn whole_ticks_are_written_as_integers_and_read_back_exactly() {
        // An rdtsc tick at 2.6 GHz, as the clock converts it.
        let tick = 1e9 / 2_599_998_003.868_963_2;
        let samples: Vec<SampleRecord> = [44_289u64, 44_301, 43_998, 52_000]
            .iter()
            .map(|&t| sample(1024, t as f64 * tick))
            .collect();
        let record = SamplesRecord::new(samples.clone(), Some(tick));
        let (text, read) = round_trip(&record);
        assert_eq!(
            text,
            format!(
                "{{\"iters\":[[1024,4]],\"ns_per_tick\":{tick},\"ticks\":[44289,44301,43998,52000]}}"
            )
        );
        assert_eq!(read, record);
        for (read, written) in read.iter().zip(&samples) {
            assert_eq!(read.elapsed_ns.to_bits(), written.elapsed_ns.to_bits());
        }
    }

    #[test]
    fn a_tick_an_ulp_off_still_finds_the_whole_ticks() {
        let tick = 0.384_615_679_901_267_66;
        let samples = vec![sample(1, 44_289.0 * tick), sample(1, 3.0 * tick)];
        let hint = f64::from_bits(tick.to_bits() + 1);
        let (text, read) = round_trip(&SamplesRecord::new(samples.clone(), Some(hint)));
        assert!(text.contains("\"ticks\":[44289,3]"), "{text}");
        assert_eq!(*read, samples);
    }

    #[test]
    fn times_that_are_no_whole_ticks_are_written_exactly_as_nanoseconds() {
        // A sample timed in chunks has their clock reads taken out.
        let tick = 0.384_615_679_901_267_66;
        let samples = vec![sample(100, 44_289.0 * tick), sample(100, 17_034.1)];
        let (text, read) = round_trip(&SamplesRecord::new(samples.clone(), Some(tick)));
        assert_eq!(
            text,
            format!(
                "{{\"iters\":[[100,2]],\"elapsed_ns\":[{},17034.1]}}",
                44_289.0 * tick
            )
        );
        assert_eq!(*read, samples);
        // No tick known: nanoseconds too.
        let (text, _) = round_trip(&SamplesRecord::from(samples));
        assert!(text.contains("\"elapsed_ns\""), "{text}");
    }

    #[test]
    fn iteration_counts_are_runs() {
        let samples = vec![
            sample(1, 1.0),
            sample(2, 2.0),
            sample(2, 2.0),
            sample(4, 4.0),
            sample(2, 2.0),
        ];
        assert_eq!(runs(&samples), [(1, 1), (2, 2), (4, 1), (2, 1)]);
        let (text, read) = round_trip(&SamplesRecord::new(samples.clone(), Some(1.0)));
        assert_eq!(
            text,
            "{\"iters\":[[1,1],[2,2],[4,1],[2,1]],\"ns_per_tick\":1.0,\"ticks\":[1,2,2,4,2]}"
        );
        assert_eq!(*read, samples);
    }

    #[test]
    fn the_array_of_older_versions_is_read() {
        let read: SamplesRecord = json::from_str(
            r#"[{"iters": 1000, "elapsed_ns": 10530.0}, {"iters": 1000, "elapsed_ns": 10630.5}]"#,
        )
        .unwrap();
        assert_eq!(*read, [sample(1000, 10_530.0), sample(1000, 10_630.5)]);
    }

    #[test]
    fn inconsistent_packing_is_refused_with_what_is_wrong() {
        for (text, why) in [
            (
                r#"{"iters": [[1, 3]], "ns_per_tick": 1.0, "ticks": [1, 2]}"#,
                "samples: \"iters\" counts 3 samples, the times 2",
            ),
            (
                r#"{"iters": [[1, 1]], "ticks": [1]}"#,
                "samples: \"ticks\" without \"ns_per_tick\"",
            ),
            (
                r#"{"iters": [[1, 1]], "ns_per_tick": 1.0, "ticks": [1], "elapsed_ns": [1.0]}"#,
                "samples: both \"ticks\" and \"elapsed_ns\"",
            ),
            (
                r#"{"iters": [[1, 1]]}"#,
                "samples: neither \"ticks\" nor \"elapsed_ns\"",
            ),
        ] {
            let error = json::from_str::<SamplesRecord>(text).unwrap_err();
            assert!(error.starts_with(why), "{error}");
        }
    }
}
