//! How a document is laid out in JSON: each type's fields in the order
//! they are written and how each is read (the `json_struct!` and
//! `json_enum!` lists below; the sampler's budgets' record has its own in
//! `config.rs`), in serde_json's pretty layout with the long arrays of
//! numbers kept short on the page ([`lines`]).

use std::io::{self, Write};

use serde_json::Value;

use super::*;
use crate::json::{json_enum, json_struct, Fields, Json, Lines, Writer};

/// Writes `doc` pretty-printed (two-space indent, fields in declaration
/// order, samples packed ten to a line), ending with a newline.
pub(crate) fn write(out: &mut dyn Write, doc: &Document) -> io::Result<()> {
    let mut text = Vec::with_capacity(64 * 1024);
    doc.write(&mut Writer::laid_out(&mut text, lines));
    text.push(b'\n');
    out.write_all(&text)?;
    out.flush()
}

/// Arrays written on one line (numbers and short names).
const INLINE_ARRAYS: [&str; 8] = [
    "slice_starts",
    "block_means_ns",
    "block_medians_ns",
    "disturbed_blocks",
    "load_average",
    "cpus",
    "note_kinds",
    "iters",
];

/// The packed samples' arrays ([`super::SamplesRecord`]): [`PER_LINE`]
/// numbers to a line.
const PACKED_ARRAYS: [&str; 2] = ["ticks", "elapsed_ns"];

/// Numbers on a line of a packed array: about 90 characters of ticks.
const PER_LINE: usize = 10;

/// How the array under `key` is laid out: [`INLINE_ARRAYS`] on one line,
/// [`PACKED_ARRAYS`] [`PER_LINE`] to a line, the others one element a line.
fn lines(key: &str) -> Lines {
    if INLINE_ARRAYS.contains(&key) {
        Lines::One
    } else if PACKED_ARRAYS.contains(&key) {
        Lines::Packed(PER_LINE)
    } else {
        Lines::Each
    }
}

json_struct!(Document {
    schema_version,
    harness,
    environment,
    methodology,
    partial: default,
    raw_samples: default,
    benchmarks,
    machine_reference: skip,
    complexity: skip,
    against: skip,
    comparison: skip,
    groups: skip,
});
json_struct!(AgainstRecord {
    baseline,
    protocol_version,
    noise_threshold_percent,
    benchmarks,
    other_took_own_overhead: skip,
});
json_struct!(AgainstBenchRecord {
    name,
    status,
    ratio: default,
    ci_low: default,
    ci_high: default,
    verdict: default,
    rounds: default,
    p_t: skip,
    p_wilcoxon: skip,
    new_ns: default,
    old_ns: default,
    failure: default,
});
json_struct!(ComplexityRecord {
    function,
    group: default,
    points,
    class: default,
    label: default,
    coefficient_ns: default,
    rms: default,
    established: default,
    runner_up: default,
    error: default,
});
json_struct!(ClassFitRecord {
    class,
    label,
    coefficient_ns,
    rms,
});
json_enum!(RawSamples { Full = "full", None = "none" });
json_struct!(Methodology {
    clock,
    clock_hz,
    resolution_ns,
    read_pair_ns,
    sample_floor_ns,
    overhead,
    schedule,
    cold: default,
    stop_rule,
    seed,
    confidence_level,
    blocks_in_one_go,
    headline,
    percentiles,
});
json_struct!(OverheadRecord {
    subtracted,
    per_sample_ns,
    per_iter_ns,
    per_iter_uncertainty_ns: skip,
    measurement: skip,
});
json_enum!(ScheduleKind { Interleaved = "interleaved", Sequential = "sequential" });
json_struct!(BenchRecord {
    name,
    group: default,
    params: default,
    outcome,
    failure: default,
    measurement: default,
    throughput: default,
});
json_enum!(OutcomeKind {
    Measured = "measured",
    Passed = "passed",
    Failed = "failed",
    Ignored = "ignored",
});
json_struct!(FailureRecord { message, location });
json_struct!(Throughput {
    unit,
    per_iteration,
    per_second: default
});
json_enum!(ThroughputUnit { Bytes = "bytes", Items = "items" | "elements" });
json_struct!(MeasurementRecord {
    samples: skip,
    slice_starts,
    rewarm_samples,
    config,
    warm_up,
    stop,
    setup_time_ns,
    total_time_ns,
    estimate,
    summary,
    outliers,
    filtered,
    within_slice_spread,
    drift,
    rerun_half_width: skip,
    interleaved_ns: skip,
    notes,
    note_kinds: default,
    counters: default,
    allocations: default,
    cpu: default,
    cpus: default,
    forks: skip,
    self_timed: skip,
    slices: skip,
    preempted: skip,
    rounds: skip,
});
json_struct!(ForksRecord {
    process_estimates_ns,
    between_process_spread,
    within_process_spread,
    p_value,
    process_overheads: skip,
    process_sample_starts: skip,
});
json_struct!(AllocationsRecord {
    allocations,
    deallocations,
    reallocations,
    bytes_allocated
});
json_struct!(CpuRecord {
    user_ns,
    system_ns,
    wall_ns
});
json_struct!(SampleRecord { iters, elapsed_ns });
json_struct!(WarmUpRecord {
    time_ns,
    samples,
    steady,
    final_cv
});
json_enum!(StopKind {
    Precise = "precise",
    TimeBudget = "time_budget",
    SampleCap = "sample_cap",
    MaxTime = "max_time",
    Abandoned = "abandoned",
    ProcessCap = "process_cap",
});
json_struct!(EstimateRecord {
    time_ns,
    ci_low_ns,
    ci_high_ns,
    relative_half_width,
    reference_ns,
    block_means_ns: default,
    disturbed_blocks: skip,
    kept_blocks: default,
    steady: skip,
    block_medians_ns: skip,
});
json_struct!(SliceRecord {
    first_sample,
    samples,
    probe_ns,
    pause_ns: skip,
    faults: skip,
});
json_struct!(SummaryRecord {
    n,
    min_ns,
    max_ns,
    mean_ns,
    median_ns,
    std_dev_ns,
    coefficient_of_variation,
    mad_ns,
    percentiles,
    mean_ci,
    median_ci,
});
json_struct!(PercentilesRecord {
    p50_ns,
    p90_ns,
    p95_ns,
    p99_ns,
    p99_9_ns
});
json_struct!(IntervalRecord {
    low_ns,
    high_ns,
    confidence
});
json_struct!(OutliersRecord {
    fences,
    low_severe,
    low_mild,
    high_mild,
    high_severe,
    beyond_3_sigma,
});
json_struct!(FencesRecord {
    q1_ns,
    q3_ns,
    lower_outer_ns,
    lower_inner_ns,
    upper_inner_ns,
    upper_outer_ns,
});

/// Tagged by `rule`: `{"rule": "precision", "target": 0.01}`,
/// `{"rule": "time_budget"}`.
impl Json for RunStopRule {
    fn read(value: &Value) -> Result<RunStopRule, crate::json::Error> {
        let fields = Fields::of(value)?;
        let rule: String = fields.req("rule")?;
        match rule.as_str() {
            "precision" => Ok(RunStopRule::Precision {
                target: fields.req("target")?,
            }),
            "time_budget" => Ok(RunStopRule::TimeBudget),
            other => Err(crate::json::Error::new(format!(
                "unknown variant `{other}`, expected `precision` or `time_budget`"
            ))),
        }
    }
    fn write(&self, w: &mut Writer) {
        w.begin_object();
        w.key("rule");
        match self {
            RunStopRule::Precision { target } => {
                w.str("precision");
                w.key("target");
                w.f64(*target);
            }
            RunStopRule::TimeBudget => w.str("time_budget"),
        }
        w.end_object();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_arrays_go_on_one_line_or_ten_to_a_line() {
        let value = serde_json::json!({
            "cpus": [0, 1],
            "iters": [[1024, 12]],
            "ticks": (1..=12).collect::<Vec<u32>>(),
            "other": [1],
        });
        let mut out = Vec::new();
        Writer::laid_out(&mut out, lines).value(&value);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\n  \"cpus\": [0, 1],\n  \"iters\": [[1024, 12]],\n  \"other\": [\n    1\n  ],\n  \
             \"ticks\": [\n    1, 2, 3, 4, 5, 6, 7, 8, 9, 10,\n    11, 12\n  ]\n}"
        );
    }
}
