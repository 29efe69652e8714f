//! The result model every reporter consumes: what was run, what it
//! measured, the statistics over it and the notes a reader needs.
//! Statistics are computed here, once; reporters only format them.

use bench_runtime::{Measurement, SamplerConfig, StopReason, TimerPrecision};

use crate::analysis::{self, Summary};
use crate::report::format::time;
use crate::run::Failure;

/// Facts about the whole run, printed in the header.
#[derive(Debug, Clone)]
pub struct RunInfo {
    pub harness_version: &'static str,
    pub clock_name: &'static str,
    pub clock_hz: f64,
    pub precision: TimerPrecision,
    /// The shortest sample the timer allows (1,000 resolutions, 100 read pairs).
    pub sample_floor: bench_runtime::Nanos,
}

/// One benchmark's line in the report.
#[derive(Debug, Clone)]
pub struct BenchResult {
    pub name: String,
    pub outcome: Outcome,
}

impl BenchResult {
    /// The measurement, when there is one.
    pub fn measured(&self) -> Option<&Measured> {
        match &self.outcome {
            Outcome::Measured(measured) => Some(measured),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Outcome {
    /// Measured under `cargo bench`.
    Measured(Box<Measured>),
    /// Ran once under `cargo test --benches`.
    Passed,
    Failed(Failure),
    Ignored,
}

/// A measured benchmark: the raw samples stay next to their summary.
#[derive(Debug, Clone)]
pub struct Measured {
    pub measurement: Measurement,
    pub config: SamplerConfig,
    /// Nanoseconds per iteration of each sample, in the order taken.
    pub per_iter: Vec<f64>,
    pub summary: Summary,
    /// Things the reader must know to trust (or distrust) the figures.
    pub notes: Vec<String>,
}

impl Measured {
    pub fn analyse(measurement: Measurement, config: SamplerConfig) -> Measured {
        let per_iter: Vec<f64> = measurement.samples.iter().map(|s| s.per_iter().0).collect();
        let summary = analysis::summarize(&per_iter)
            .expect("a finished sampler has recorded at least one sample");
        let notes = notes(&measurement, &config);
        Measured {
            measurement,
            config,
            per_iter,
            summary,
            notes,
        }
    }

    /// The headline estimate, in nanoseconds per iteration: the median of
    /// the samples. Comparisons and ratios use this figure.
    pub fn headline(&self) -> f64 {
        self.summary.median
    }

    /// Iterations over all recorded samples.
    pub fn total_iters(&self) -> u64 {
        self.measurement.samples.iter().map(|s| s.iters).sum()
    }
}

fn notes(measurement: &Measurement, config: &SamplerConfig) -> Vec<String> {
    let mut notes = Vec::new();
    let n = measurement.samples.len();
    if measurement.stop == StopReason::MaxTime && n < config.min_samples {
        let one = measurement
            .samples
            .last()
            .map(|s| s.per_iter())
            .unwrap_or_default();
        notes.push(format!(
            "stopped at --max-time ({}) with {n} of {} samples: one iteration takes {}; \
             raise --max-time for more samples",
            time(config.max_time.0),
            config.min_samples,
            time(one.0),
        ));
    }
    if n == 1 {
        notes.push(
            "1 sample: mean, median, min and max are that sample; no spread can be estimated"
                .to_string(),
        );
    }
    notes
}
