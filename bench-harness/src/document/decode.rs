//! The way back from a document to the result model: a saved baseline's
//! raw samples, analysed again with this build's estimator.

use bench_runtime::{Measurement, Nanos, Sample, SamplerConfig, StopReason, WarmUp};

use super::{MeasurementRecord, OverheadRecord, StopKind};
use crate::analysis::Overhead;
use crate::instruments::SliceEvidence;

impl MeasurementRecord {
    /// The sampler's measurement back, as [`super::assemble()`] wrote it
    /// (all but `wall_capped`, which the document does not carry).
    pub(crate) fn raw(&self) -> Measurement {
        Measurement {
            samples: self
                .samples
                .iter()
                .map(|s| Sample {
                    iters: s.iters,
                    elapsed: Nanos(s.elapsed_ns),
                })
                .collect(),
            stop: stop_reason(self.stop),
            warm_up: WarmUp {
                time: Nanos(self.warm_up.time_ns),
                samples: self.warm_up.samples,
                steady: self.warm_up.steady,
                final_cv: self.warm_up.final_cv,
            },
            rewarm_samples: self.rewarm_samples,
            setup_time: Nanos(self.setup_time_ns),
            slice_starts: self.slice_starts.clone(),
            total_time: Nanos(self.total_time_ns),
            wall_capped: false,
        }
    }

    /// The machine's evidence beside each slice, as the worker recorded it.
    pub(crate) fn evidence(&self) -> Vec<SliceEvidence> {
        self.slices
            .iter()
            .map(|s| SliceEvidence {
                first_sample: s.first_sample,
                samples: s.samples,
                probe: s.probe_ns,
                pause: s.pause_ns.map(Nanos),
                faults: s.faults,
            })
            .collect()
    }

    /// The loop overhead to take out of these samples, given the
    /// document's: none when the body timed itself.
    pub(crate) fn overhead(&self, document: Overhead) -> Overhead {
        if self.self_timed {
            Overhead::NONE
        } else {
            document
        }
    }

    /// The sampler's settings back.
    pub(crate) fn sampler_config(&self) -> SamplerConfig {
        self.config.sampler_config()
    }
}

impl OverheadRecord {
    /// The overhead it records.
    pub(crate) fn overhead(&self) -> Overhead {
        Overhead {
            per_sample: Nanos(self.per_sample_ns),
            per_iter: Nanos(self.per_iter_ns),
            per_iter_uncertainty: Nanos(self.per_iter_uncertainty_ns.unwrap_or(0.0)),
        }
    }
}

/// The stop a document's name says.
pub(crate) fn stop_reason(stop: StopKind) -> StopReason {
    match stop {
        StopKind::Precise => StopReason::Precise,
        StopKind::TimeBudget => StopReason::TimeBudget,
        StopKind::SampleCap => StopReason::SampleCap,
        StopKind::MaxTime => StopReason::MaxTime,
        StopKind::Abandoned => StopReason::Abandoned,
        StopKind::ProcessCap => StopReason::ProcessCap,
    }
}
