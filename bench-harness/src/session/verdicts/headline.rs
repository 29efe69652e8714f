//! What a comparison between runs takes of each side: the headline its row
//! prints, with its own interval ([`Headline`]). A baseline's
//! benchmarks are analysed again from their raw samples, as this run
//! analyses its own, so that both sides are the same estimator's figures
//! whichever harness saved the baseline.

use bench_runtime::{Measurement, Nanos, TimerPrecision};

use crate::analysis::compare::Headline;
use crate::document::{Document, EstimateRecord, MeasurementRecord};
use crate::instruments::{self, Evidence, SliceEvidence};
use crate::results::{Context, Measured};

/// A headline a document recorded without its samples (the machine
/// reference): its interval at the normal quantile, and the clock's
/// quantum over the fewest iterations a sample of that time can have had
/// (the sample floor's worth).
pub(super) fn recorded(estimate: &EstimateRecord, document: &Document) -> Headline {
    let methodology = &document.methodology;
    let time = estimate.time_ns;
    let half_width = estimate
        .ci_low_ns
        .zip(estimate.ci_high_ns)
        .map(|(low, high)| (time - low).max(high - time));
    let iterations = (methodology.sample_floor_ns / time).max(1.0);
    Headline {
        time,
        half_width,
        df: f64::INFINITY,
        resolution: methodology.overhead.overhead().resolution().0,
        quantum: methodology.resolution_ns / iterations,
    }
}

/// The baseline's measurement `record` analysed as this run analyses its
/// own: with the loop overhead the baseline took out, and under `--forks`
/// process by process, pooled as the parent pooled them. `None` without
/// samples.
pub(super) fn rebuild(document: &Document, record: &MeasurementRecord) -> Option<Measured> {
    if record.samples.is_empty() {
        return None;
    }
    let methodology = &document.methodology;
    let context = Context {
        overhead: record.overhead(methodology.overhead.overhead()),
        timer: TimerPrecision {
            resolution: Nanos(methodology.resolution_ns),
            overhead: Nanos(methodology.read_pair_ns),
        },
        probe_level: None,
    };
    let config = record.sampler_config();
    let raw = record.raw();
    let evidence = record.evidence();
    if let Some(processes) = processes(record, &raw, &context) {
        // Each process's blocks judged by its own probe, as the parent
        // judged them.
        let measured = processes
            .into_iter()
            .map(|(measurement, context, range)| {
                let slices: Vec<SliceEvidence> = (evidence.iter())
                    .filter(|s| range.contains(&s.first_sample))
                    .map(|s| SliceEvidence {
                        first_sample: s.first_sample - range.start,
                        ..*s
                    })
                    .collect();
                let preempted: Vec<usize> = (record.preempted.iter())
                    .filter(|i| range.contains(i))
                    .map(|i| i - range.start)
                    .collect();
                let context = Context {
                    probe_level: instruments::probe_level(slices.iter()),
                    ..context
                };
                let judged = Evidence {
                    slices: &slices,
                    preempted: &preempted,
                };
                let mut m = Measured::analyse(measurement, config.clone(), &context, judged);
                m.extras.slices = slices;
                m.extras.preempted = preempted;
                m
            })
            .collect();
        return Some(Measured::pool(measured, &context));
    }
    // The blocks the run marked as disturbed, as it marked them (the probe
    // level it judged them by is the whole run's): a block of the recorded
    // ones reads as a probe twice its level, the others at it. Each block
    // keeps the page faults its slices counted.
    let disturbed = &record.estimate.disturbed_blocks;
    let n = raw.samples.len();
    let starts = crate::analysis::block_starts(n, &raw.slice_starts);
    let marked: Vec<SliceEvidence> = (starts.iter().enumerate())
        .map(|(block, &first_sample)| {
            let samples = starts.get(block + 1).copied().unwrap_or(n) - first_sample;
            let end = first_sample + samples;
            let faults = instruments::block_evidence(&evidence, None, first_sample, end).faults;
            SliceEvidence {
                first_sample,
                samples,
                probe: if disturbed.contains(&block) { 2.0 } else { 1.0 },
                pause: None,
                faults,
            }
        })
        .collect();
    let context = Context {
        probe_level: Some(1.0),
        ..context
    };
    let judged = Evidence {
        slices: &marked,
        preempted: &record.preempted,
    };
    Some(Measured::analyse(raw, config, &context, judged))
}

/// Under `--forks`, each process's samples and slices with its own loop
/// overhead; `None` for a measurement of one process, or a document that
/// did not record where each process's samples begin.
fn processes(
    record: &MeasurementRecord,
    raw: &Measurement,
    context: &Context,
) -> Option<Vec<(Measurement, Context, std::ops::Range<usize>)>> {
    let forks = record.forks.as_ref()?;
    let starts = &forks.process_sample_starts;
    let n = raw.samples.len();
    let valid = starts.len() >= 2
        && starts.len() == forks.process_overheads.len()
        && starts[0] == 0
        && starts.windows(2).all(|w| w[0] < w[1])
        && starts.last().is_some_and(|&s| s < n);
    if !valid {
        return None;
    }
    let ends = starts.iter().skip(1).copied().chain([n]);
    let mut template = raw.clone();
    template.samples = Vec::new();
    let parts = starts
        .iter()
        .zip(ends)
        .zip(&forks.process_overheads)
        .map(|((&start, end), overhead)| {
            let measurement = Measurement {
                samples: raw.samples[start..end].to_vec(),
                slice_starts: raw
                    .slice_starts
                    .iter()
                    .filter(|&&s| s >= start && s < end)
                    .map(|s| s - start)
                    .collect(),
                ..template.clone()
            };
            let context = Context {
                overhead: record.overhead(overhead.overhead()),
                ..*context
            };
            (measurement, context, start..end)
        })
        .collect();
    Some(parts)
}
