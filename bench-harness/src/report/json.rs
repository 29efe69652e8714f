//! `--format json`: the run's results document ([`crate::document`]), the
//! same document a baseline saves and a `--forks` child sends back.

use std::io::{self, Write};

/// Writes `document` as `--format json` prints it.
pub fn write(out: &mut dyn Write, document: &Document) -> io::Result<()> {
    crate::document::write(out, document)
}

// Shims: the document moved to `crate::document`; these old paths are kept
// so that lib.rs and forks.rs compile unchanged, and are removed once they
// use the new ones.
pub(crate) use crate::document::{complexity, estimate};
pub use crate::document::{
    load, parse, to_string, AllocationsRecord, BenchRecord, ComplexityRecord, ConfigRecord,
    CpuRecord, Document, EstimateRecord, FailureRecord, FencesRecord, ForksRecord, IntervalRecord,
    LoadError, MeasurementRecord, Methodology, OutcomeKind, OutliersRecord, OverheadRecord,
    PercentilesRecord, RunStopRule, SampleRecord, ScheduleKind, StopKind, StopRuleKind,
    SummaryRecord, Throughput, ThroughputUnit, WarmUpRecord, HARNESS_TAG, SCHEMA_VERSION,
};

/// The document of a run without complexity fits or reference kernel:
/// [`crate::document::assemble`] with neither.
pub fn document(
    environment: &crate::environment::Environment,
    info: &crate::results::RunInfo,
    results: &[crate::results::BenchResult],
) -> Document {
    crate::document::assemble(environment, info, results, &[], None)
}
