//! A worker's side of the schedule: its sampler run slice by slice, and the
//! precision stopping rule applied at slice ends.

use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

use bench_runtime::{Clock, Driver, Measurement, Nanos, Routine, Sample, Sampler};

use super::watch::Reporter;
use crate::analysis::{self, Overhead};
use crate::failure::Failure;
use crate::instruments::{self, Evidence, Extras, Instruments};

pub(super) enum Command {
    /// Measure for this long, then pause (or finish). `new_block`: this
    /// slice starts a new block of the headline (and may re-warm).
    Run { slice: Nanos, new_block: bool },
}

pub(super) enum Reply {
    /// `recorded` samples so far; `latest`: those the last slice recorded,
    /// and which of them (indices into `latest`) were preempted.
    Paused {
        recorded: usize,
        latest: Vec<Sample>,
        preempted: Vec<usize>,
    },
    Finished(Box<Result<(Measurement, Extras), Failure>>),
}

/// The worker's side: runs its sampler slice by slice.
pub(super) struct Slices {
    pub(super) sampler: Sampler,
    pub(super) clock: Clock,
    /// When the body started: set-up time counts against `max_time`.
    pub(super) started: bench_runtime::Ticks,
    pub(super) slice: Nanos,
    pub(super) inbox: Receiver<Command>,
    pub(super) outbox: Sender<Reply>,
    pub(super) precision: PrecisionCheck,
    pub(super) instruments: Instruments,
    /// For the empty loop's job: where to publish the loop overhead.
    pub(super) publish: Option<Arc<Mutex<Overhead>>>,
    /// The sample count at which the overhead is next published.
    pub(super) publish_at: usize,
    /// What the progress display is told.
    pub(super) reporter: Reporter,
}

impl Driver for Slices {
    fn drive(&mut self, routine: &mut Routine<'_>) {
        let clock = self.clock;
        let now = || clock.elapsed(bench_runtime::Ticks(0), clock.start());
        let setup = clock.elapsed(self.started, clock.start());
        self.sampler.charge(setup);
        self.reporter.spend(setup);
        // When the previous slice ended: the pause before the next is the
        // time other benchmarks ran meanwhile.
        let mut ended: Option<Nanos> = None;
        loop {
            let slice_start = now();
            let before = self.sampler.samples().len();
            let probe = bench_runtime::hidden::speed_probe(&clock);
            let pause = ended.map(|ended| slice_start - ended);
            self.instruments.slice_started(before, probe, pause);
            run_slice(
                &mut self.sampler,
                routine,
                &mut || now(),
                self.slice,
                &mut self.precision,
                &mut self.instruments,
                &mut self.reporter,
            );
            let probe = bench_runtime::hidden::speed_probe(&clock);
            let recorded = self.sampler.samples().len();
            let end = now();
            self.instruments
                .slice_ended(end - slice_start, recorded, probe);
            ended = Some(end);
            self.publish_overhead();
            let samples = self.sampler.samples();
            let first = before.min(samples.len());
            let reply = Reply::Paused {
                recorded: samples.len(),
                latest: samples[first..].to_vec(),
                preempted: (self.instruments.extras.preempted.iter())
                    .filter(|&&i| i >= first)
                    .map(|i| i - first)
                    .collect(),
            };
            if self.sampler.is_done() || self.outbox.send(reply).is_err() {
                return;
            }
            match self.inbox.recv() {
                Ok(Command::Run { slice, new_block }) => {
                    self.slice = slice;
                    if new_block {
                        self.sampler.resume();
                    }
                }
                Err(_) => return self.sampler.abandon(),
            }
        }
    }
}

impl Slices {
    /// For the empty loop's job: the loop overhead of the samples so far,
    /// for the other jobs' precision rule. Recomputed, like the precision
    /// check, once the samples have grown by a tenth (it sorts them all),
    /// and when the job is done, so the last value is the report's.
    fn publish_overhead(&mut self) {
        let Some(publish) = &self.publish else {
            return;
        };
        let samples = self.sampler.samples();
        if samples.is_empty() || (samples.len() < self.publish_at && !self.sampler.is_done()) {
            return;
        }
        self.publish_at = samples.len() + (samples.len() / 10).max(1);
        let mut overhead = publish.lock().unwrap_or_else(|e| e.into_inner());
        let evidence = self.instruments.extras.evidence();
        let level = instruments::probe_level(evidence.slices.iter());
        let judge = |start, end| evidence.block(level, start, end);
        *overhead = analysis::loop_overhead_of(
            samples,
            self.sampler.slice_starts(),
            overhead.per_sample,
            evidence.preempted,
            &judge,
        );
    }
}

/// Runs samples until the sampler is done or `slice` of wall time is spent
/// (a slice that is measuring ends only once it has recorded a sample), and
/// applies the precision rule: at the end of a bounded slice, so the last
/// block is whole, or as the sample count grows in an unbounded one. `now`
/// reads the wall clock (a fake one in tests).
fn run_slice(
    sampler: &mut Sampler,
    routine: &mut Routine<'_>,
    now: &mut dyn FnMut() -> Nanos,
    slice: Nanos,
    precision: &mut PrecisionCheck,
    instruments: &mut Instruments,
    reporter: &mut Reporter,
) {
    let bounded = slice.0.is_finite();
    let recorded_before = sampler.samples().len();
    let start = now();
    let mut before = start;
    while let Some(iters) = sampler.next_iters() {
        if bench_runtime::signal::interrupted() {
            // Ctrl-C: stop at this sample boundary with what is recorded.
            sampler.abandon();
            break;
        }
        let samples_before = sampler.samples().len();
        instruments.sample_starting();
        let routine_start = now();
        let elapsed = routine(iters);
        // Read before anything else runs: the harness's own work (the
        // sampler growing its sample list) must not count as the benchmark's.
        let reading = instruments.sample_done();
        let after = now();
        sampler.spend(routine_start - before);
        sampler.record(elapsed, after - routine_start);
        reporter.spend(routine_start - before);
        reporter.sample(sampler, after - routine_start);
        let recorded = sampler.samples().len() > samples_before;
        instruments.account(reading, iters, elapsed, after - routine_start, recorded);
        let recorded = sampler.samples().len() > recorded_before;
        if bounded {
            if (after - start).0 >= slice.0 && (recorded || !sampler.is_measuring()) {
                precision.apply(sampler, instruments.extras.evidence());
                reporter.precision(precision.last);
                break;
            }
        } else {
            precision.apply(sampler, instruments.extras.evidence());
            reporter.precision(precision.last);
        }
        // The check's own sorting is not part of the next sample's cost.
        before = now();
    }
}

/// The precision stopping rule: the 95% confidence interval of the headline
/// (the mean cost of a call over the undisturbed blocks, see
/// [`analysis::block_estimate`]) must be
/// narrower than `target` relative to the headline, or to the loop's own
/// cost per iteration when the body is cheaper than that (an empty body can
/// be precise too). Checked when the sample count has grown by a tenth since
/// the last check, so the sorting stays a small share of the run.
#[derive(Debug, Clone)]
pub(crate) struct PrecisionCheck {
    target: f64,
    /// What the job times (the harness's own kernels are read as stateless).
    body: analysis::Body,
    /// The loop overhead as known now (see `run::Plan::overhead`).
    overhead: Arc<Mutex<Overhead>>,
    next_at: usize,
    /// The last relative half-width computed.
    pub last: Option<f64>,
}

impl PrecisionCheck {
    /// A check against a fixed loop overhead.
    #[cfg(test)]
    pub(crate) fn new(target: f64, overhead: Overhead) -> PrecisionCheck {
        let overhead = Arc::new(Mutex::new(overhead));
        PrecisionCheck::sharing(target, overhead, analysis::Body::Program)
    }

    /// A check of a job timing `body` against the loop overhead as the run
    /// learns it.
    pub(crate) fn sharing(
        target: f64,
        overhead: Arc<Mutex<Overhead>>,
        body: analysis::Body,
    ) -> PrecisionCheck {
        PrecisionCheck {
            target,
            body,
            overhead,
            next_at: 0,
            last: None,
        }
    }

    /// Stops `sampler` if it waits on this rule, the check is due and the
    /// estimate is precise.
    fn apply(&mut self, sampler: &mut Sampler, evidence: Evidence<'_>) {
        if sampler.wants_precision_check()
            && sampler.samples().len() >= self.next_at
            && self.check(sampler.samples(), sampler.slice_starts(), evidence)
        {
            sampler.stop_precise();
        }
    }

    /// True when the samples, cut into blocks at `slice_starts` and judged
    /// by the machine's `evidence` beside their slices, pin the headline
    /// down to the target.
    pub(crate) fn check(
        &mut self,
        samples: &[Sample],
        slice_starts: &[usize],
        evidence: Evidence<'_>,
    ) -> bool {
        self.next_at = samples.len() + (samples.len() / 10).max(1);
        let overhead = *self.overhead.lock().unwrap_or_else(|e| e.into_inner());
        let half_width =
            headline_now(self.body, samples, slice_starts, overhead, evidence).and_then(|(_, h)| h);
        self.last = half_width;
        half_width.is_some_and(|h| h <= self.target)
    }
}

/// The headline time per iteration and the relative half-width of its
/// interval, with `overhead` (the loop overhead as known now) taken out and
/// the blocks judged by the machine's `evidence` beside their slices
/// (against this benchmark's own probe level, as the run knows it yet):
/// the figures the report prints, as far as the run knows them yet.
fn headline_now(
    body: analysis::Body,
    samples: &[Sample],
    slice_starts: &[usize],
    overhead: Overhead,
    evidence: Evidence<'_>,
) -> Option<(f64, Option<f64>)> {
    let estimate = estimate_now(body, samples, slice_starts, overhead, evidence)?;
    let half_width = estimate.half_width_relative_to(overhead.reference(estimate.estimate));
    Some((estimate.estimate, half_width))
}

/// [`headline_now`]'s estimate with its interval (ns), as the report's row
/// reads it.
pub(crate) fn estimate_now(
    body: analysis::Body,
    samples: &[Sample],
    slice_starts: &[usize],
    overhead: Overhead,
    evidence: Evidence<'_>,
) -> Option<analysis::BlockEstimate> {
    let values: Vec<f64> = samples
        .iter()
        .map(|s| overhead.corrected_per_iter(s))
        .collect();
    let iters: Vec<u64> = samples.iter().map(|s| s.iters).collect();
    let level = instruments::probe_level(evidence.slices.iter());
    let judge = |start, end| evidence.block(level, start, end);
    // The interval the report prints: the same estimate, with the loop
    // overhead's uncertainty (as known while measuring) in it.
    Some(
        analysis::block_estimate(
            body,
            &values,
            &iters,
            evidence.preempted,
            slice_starts,
            overhead.per_iter.0,
            &judge,
        )?
        .with_subtracted_uncertainty(overhead.per_iter_uncertainty.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_runtime::{SamplerConfig, StopReason, StopRule};
    use std::cell::Cell;

    /// Budgets of a few milliseconds on a fake clock.
    // Every field is said; one added later takes its default.
    #[allow(clippy::needless_update)]
    fn config() -> SamplerConfig {
        SamplerConfig {
            warm_up_time: Nanos(100_000.0),
            warm_up_window: 10,
            warm_up_cv: 0.05,
            measure_time: Nanos(2_000_000.0),
            stop_rule: StopRule::Precision { target: 0.01 },
            max_time: Nanos(50_000_000.0),
            min_samples: 10,
            max_samples: 1_000_000,
            min_sample_time: Nanos(10_000.0),
            ..SamplerConfig::default()
        }
    }

    /// Runs `sampler` in slices of `slice` ns on a fake clock where the
    /// per-iteration cost of the k-th sample is `cost(k, slice number)`.
    fn drive(
        sampler: &mut Sampler,
        slice: f64,
        cost: impl Fn(usize, usize) -> f64,
    ) -> PrecisionCheck {
        drive_probed(sampler, slice, cost, |_| 1.0)
    }

    /// [`drive`], with the speed probe beside slice `s` reading `probe(s)`.
    fn drive_probed(
        sampler: &mut Sampler,
        slice: f64,
        cost: impl Fn(usize, usize) -> f64,
        probe: impl Fn(usize) -> f64,
    ) -> PrecisionCheck {
        let now = Cell::new(0.0);
        let sample = Cell::new(0);
        let slice_number = Cell::new(0);
        let mut precision = PrecisionCheck::new(0.01, Overhead::NONE);
        let mut routine = |iters: u64| {
            let elapsed = cost(sample.get(), slice_number.get()) * iters as f64;
            sample.set(sample.get() + 1);
            now.set(now.get() + elapsed + 100.0);
            Nanos(elapsed)
        };
        let mut clock = || Nanos(now.get());
        let mut instruments = Instruments::none();
        while !sampler.is_done() {
            let speed = probe(slice_number.get());
            instruments.slice_started(sampler.samples().len(), speed, None);
            run_slice(
                sampler,
                &mut routine,
                &mut clock,
                Nanos(slice),
                &mut precision,
                &mut instruments,
                &mut Reporter::none(),
            );
            instruments.slice_ended(Nanos(slice), sampler.samples().len(), speed);
            slice_number.set(slice_number.get() + 1);
            sampler.resume();
        }
        precision
    }

    #[test]
    fn a_steady_benchmark_stops_precise_once_the_budget_is_spent() {
        // ±0.5% alternating noise around 10 ns: precise at the first check.
        let mut sampler = Sampler::new(config());
        let precision = drive(&mut sampler, 100_000.0, |k, _| {
            10.0 * if k % 2 == 0 { 1.005 } else { 0.995 }
        });
        let m = sampler.finish().unwrap();
        assert_eq!(m.stop, StopReason::Precise);
        assert!(precision.last.unwrap() <= 0.01);
        // Twenty 100 µs slices make the 2 ms budget: it stops right there.
        assert!(
            m.slice_starts.len() >= 20 && m.slice_starts.len() <= 22,
            "{}",
            m.slice_starts.len()
        );
    }

    #[test]
    fn slices_at_two_close_speeds_need_many_more_slices_to_be_precise() {
        // Each slice runs at one speed; odd slices are 8% slower (two turbo
        // levels, both in the fast regime) and the pattern never settles:
        // the estimate's interval stays wide for longer.
        let mut sampler = Sampler::new(config());
        let precision = drive(&mut sampler, 100_000.0, |k, slice| {
            let level = if slice % 2 == 0 { 10.0 } else { 10.8 };
            level * if k % 2 == 0 { 1.001 } else { 0.999 }
        });
        let m = sampler.finish().unwrap();
        // Precise only once enough slices pin the mean of the two levels
        // down: block medians 10 and 10.8 (sd 0.4 around 10.4) need
        // k ≥ (1.99 × 0.4 / 0.104)² ≈ 59 slices for ±1%, where the steady
        // benchmark above needed about 20.
        assert_eq!(m.stop, StopReason::Precise);
        assert!(precision.last.unwrap() <= 0.01);
        let slices = m.slice_starts.len();
        assert!((55..80).contains(&slices), "{slices} slices");
    }

    #[test]
    fn slow_episodes_the_probe_saw_are_left_out_and_do_not_hold_the_run() {
        // Odd slices are 20% slower, and the speed probe beside them 60%
        // slower (another thread on the core): they are left out, and the
        // rest pins the time down as soon as the budget is spent.
        let level = |slice: usize| if slice % 2 == 0 { 10.0 } else { 12.0 };
        let mut sampler = Sampler::new(config());
        let precision = drive_probed(
            &mut sampler,
            100_000.0,
            |k, slice| level(slice) * if k % 2 == 0 { 1.001 } else { 0.999 },
            |slice| if slice % 2 == 0 { 0.33 } else { 0.53 },
        );
        let m = sampler.finish().unwrap();
        assert_eq!(m.stop, StopReason::Precise);
        assert!(precision.last.unwrap() <= 0.01);
        let probed = m.slice_starts.len();
        assert!(probed <= 24, "{probed}");
        // The same slow slices with a steady probe, from a body steady
        // within its slices: its fast regime leaves them out all the same.
        let mut sampler = Sampler::new(config());
        drive(&mut sampler, 100_000.0, |k, slice| {
            level(slice) * if k % 2 == 0 { 1.001 } else { 0.999 }
        });
        let m = sampler.finish().unwrap();
        assert!(m.slice_starts.len() <= 24, "{}", m.slice_starts.len());
    }

    #[test]
    fn samples_within_one_slice_do_not_count_as_independent() {
        // The same data as one slice per speed change: 10 long slices, each
        // at one of two close speeds. The pooled median's interval would
        // call this precise at once; the block estimate does not.
        let mut sampler = Sampler::new(SamplerConfig {
            max_time: Nanos(4_000_000.0),
            ..config()
        });
        let precision = drive(&mut sampler, 400_000.0, |_, slice| {
            if slice % 2 == 0 {
                10.0
            } else {
                10.8
            }
        });
        let m = sampler.finish().unwrap();
        assert_eq!(m.stop, StopReason::MaxTime);
        assert!(precision.last.unwrap() > 0.02, "{:?}", precision.last);
    }

    #[test]
    fn overhead_is_subtracted_per_sample_and_per_iteration() {
        let overhead = Overhead {
            per_sample: Nanos(30.0),
            per_iter: Nanos(0.5),
            per_iter_uncertainty: Nanos::ZERO,
        };
        let sample = Sample {
            iters: 1000,
            elapsed: Nanos(1000.0 * 10.5 + 30.0),
        };
        assert_eq!(overhead.corrected_per_iter(&sample), 10.0);
    }
}
