//! The empty loop is read as the overhead is: its row in a one-process run
//! shows what every row had taken out, even where interrupts lift its mean
//! as far as a body's amortised work would lift a body's.

use bench_runtime::{
    Measurement, Nanos, Sample, SamplerConfig, StopReason, TimerPrecision, WarmUp,
};

use crate::analysis::{loop_overhead_of, Body, Overhead};
use crate::instruments::Evidence;
use crate::results::{Context, Measured};

/// Twenty slices of twenty samples of ten iterations: 1 ns an iteration,
/// every tenth sample 2.1 ns (its mean 11% above its median).
fn lifted() -> Measurement {
    let samples: Vec<Sample> = (0..400)
        .map(|i| Sample {
            iters: 10,
            elapsed: Nanos(if i % 10 == 9 { 21.0 } else { 10.0 }),
        })
        .collect();
    Measurement {
        samples,
        stop: StopReason::TimeBudget,
        warm_up: WarmUp {
            time: Nanos(1e6),
            samples: 5,
            steady: true,
            final_cv: Some(0.01),
        },
        rewarm_samples: 0,
        setup_time: Nanos::ZERO,
        slice_starts: (0..20).map(|slice| slice * 20).collect(),
        total_time: Nanos(5e6),
        wall_capped: false,
    }
}

#[test]
fn the_loops_row_reads_what_was_taken_out_where_a_body_would_read_its_mean() {
    let context = Context {
        overhead: Overhead::NONE,
        timer: TimerPrecision {
            resolution: Nanos(1.0),
            overhead: Nanos(20.0),
        },
        probe_level: None,
    };
    let config = SamplerConfig::default;
    let body = Measured::analyse(lifted(), config(), &context, Evidence::default());
    assert!(!body.estimate.steady);
    assert!(
        (body.estimate.estimate - 1.11).abs() < 1e-9,
        "{:?}",
        body.estimate
    );
    let the_loop = Measured::analyse_as(
        Body::Stateless,
        lifted(),
        config(),
        &context,
        Evidence::default(),
    );
    let taken_out = loop_overhead_of(
        &lifted().samples,
        &lifted().slice_starts,
        Nanos::ZERO,
        &[],
        &|_, _| Default::default(),
    );
    assert!(the_loop.estimate.steady);
    assert!((the_loop.estimate.estimate - 1.0).abs() < 1e-9);
    assert_eq!(the_loop.estimate.estimate, taken_out.per_iter.0);
}
