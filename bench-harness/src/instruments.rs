//! What a benchmark's worker measures besides time: hardware and software
//! counters (`--counters`), allocations (with `CountingAlloc` installed),
//! CPU time against wall time, the CPUs it ran on, and the cache eviction of
//! `--cold`. Everything here happens outside the timed region: before and
//! after each sample, and around each slice.

use bench_runtime::clock::cpu::{
    process_cpu_nanos, switches, thread_cpu_nanos, thread_cpu_time, CpuTime, Switches,
};
use bench_runtime::counter::alloc::{self, AllocCounts};
use bench_runtime::counter::{Counters, Event, Reading, Refusal};
use bench_runtime::{affinity, Nanos, Sample};

use crate::analysis::BlockEvidence;
use std::sync::{Arc, Mutex};

/// Totals over a benchmark's recorded samples, and how it ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Extras {
    /// Iterations over the recorded samples: the divisor of per-iteration
    /// figures.
    pub iterations: u64,
    /// Recorded samples: the counters' and allocations' own cost is
    /// subtracted once per sample.
    pub samples: u64,
    /// Counter totals over the recorded samples, the cost of the reads
    /// themselves subtracted, for the events that opened.
    pub counters: Vec<(Event, f64)>,
    /// Counters the kernel refused, with why.
    pub refusals: Vec<Refusal>,
    /// Whether any counter was multiplexed (scaled from part of the time).
    pub multiplexed: bool,
    /// Allocation totals over the recorded samples, when `CountingAlloc` is
    /// the global allocator.
    pub allocations: Option<AllocCounts>,
    /// CPU time of the benchmark's thread over its slices, and their wall
    /// time.
    pub cpu: Option<(CpuTime, Nanos)>,
    /// CPU time of the process's other threads over the same slices: the
    /// body's own threads, for a body that runs some.
    pub other_threads_cpu: Nanos,
    /// The CPUs its slices ran on, ascending.
    pub cpus: Vec<usize>,
    /// What the body set with `Bencher::throughput`, if it did.
    pub throughput: Option<bench_runtime::Throughput>,
    /// The body timed itself (`Bencher::iter_custom`): no overhead is
    /// subtracted from its samples.
    pub self_timed: bool,
    /// When the scheduler handed this benchmark each of its slices: the
    /// index of the first sample the slice could record, and seconds since
    /// the run's first slice (the report's timeline puts samples on the
    /// run's clock with it). Empty when not known (`--forks` pools).
    pub slice_clock: Vec<(usize, f64)>,
    /// What was measured beside each slice that recorded samples: the
    /// machine's evidence the headline rests on, in time order.
    pub slices: Vec<SliceEvidence>,
    /// The recorded samples during which (or since the sample before, in
    /// the same slice) the thread was preempted, ascending: their time
    /// holds another program's, and the headline leaves them out.
    pub preempted: Vec<usize>,
    /// For a member of an A/B group, the samples each round of its group
    /// recorded (`run::RoundLog`): what pairs it with the other members.
    pub rounds: Option<Vec<Option<std::ops::Range<usize>>>>,
}

/// The machine's evidence beside one slice of a benchmark's samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SliceEvidence {
    /// The index of the slice's first recorded sample.
    pub first_sample: usize,
    /// The samples it recorded.
    pub samples: usize,
    /// The speed probe's slower reading, before or after the slice, in
    /// nanoseconds per iteration of the empty loop
    /// (`bench_runtime::hidden::speed_probe`).
    pub probe: f64,
    /// How long the benchmark was paused before the slice: from the end
    /// of its previous slice (other benchmarks' slices ran meanwhile) to
    /// this one's start. `None` for its first slice.
    pub pause: Option<Nanos>,
    /// The thread's page faults over the slice's recorded samples, each
    /// read with its context switches, one `getrusage` after the sample
    /// (so the harness's own work since the reading before is in, and so
    /// is what `iter_batched` does per input between its timed calls; the
    /// set-up before `b.iter`, the warm-up and the probe are not): the
    /// program touching memory the kernel had to map. `None` where not
    /// counted, and in documents from before they were. Summed as samples
    /// are recorded: the precision rule reads an open slice's.
    pub faults: Option<u64>,
}

impl Extras {
    /// A counter per iteration.
    pub(crate) fn per_iteration(&self, event: Event) -> Option<f64> {
        let total = self.counters.iter().find(|(e, _)| *e == event)?.1;
        (self.iterations > 0).then(|| total / self.iterations as f64)
    }

    /// Allocations per iteration, less `overhead_per_sample` (what the
    /// harness itself allocates around a sample).
    pub(crate) fn allocations_per_iteration(
        &self,
        overhead_per_sample: AllocRates,
    ) -> Option<AllocRates> {
        let per_sample = rates(self.allocations?, self.samples);
        let samples = self.samples as f64;
        let n = self.iterations.max(1) as f64;
        let rate =
            |per_sample: f64, overhead: f64| ((per_sample - overhead) * samples / n).max(0.0);
        Some(AllocRates {
            allocations: rate(per_sample.allocations, overhead_per_sample.allocations),
            deallocations: rate(per_sample.deallocations, overhead_per_sample.deallocations),
            reallocations: rate(per_sample.reallocations, overhead_per_sample.reallocations),
            bytes_allocated: rate(
                per_sample.bytes_allocated,
                overhead_per_sample.bytes_allocated,
            ),
        })
    }

    /// The harness's own allocations (`per_sample` of them) taken out of
    /// the totals: for a process's figures pooled with others', which
    /// share no one measurement of the harness's own.
    pub(crate) fn without_harness(&mut self, per_sample: AllocRates) {
        let samples = self.samples as f64;
        if let Some(counts) = &mut self.allocations {
            let less = |total: &mut u64, per_sample: f64| {
                *total = (*total as f64 - per_sample * samples).max(0.0).round() as u64;
            };
            less(&mut counts.allocations, per_sample.allocations);
            less(&mut counts.deallocations, per_sample.deallocations);
            less(&mut counts.reallocations, per_sample.reallocations);
            less(&mut counts.bytes_allocated, per_sample.bytes_allocated);
        }
    }

    /// Allocations per sample: measured on the empty loop, the harness's
    /// own.
    pub(crate) fn allocations_per_sample(&self) -> AllocRates {
        rates(self.allocations.unwrap_or_default(), self.samples)
    }

    /// Adds the totals of another run of the same benchmark (another
    /// process, `--forks`).
    pub(crate) fn add(&mut self, other: &Extras) {
        self.iterations += other.iterations;
        self.samples += other.samples;
        for &(event, total) in &other.counters {
            match self.counters.iter_mut().find(|(e, _)| *e == event) {
                Some((_, sum)) => *sum += total,
                None => self.counters.push((event, total)),
            }
        }
        if self.refusals.is_empty() {
            self.refusals = other.refusals.clone();
        }
        self.multiplexed |= other.multiplexed;
        self.self_timed |= other.self_timed;
        if let Some(counts) = other.allocations {
            add_counts(&mut self.allocations, counts);
        }
        if let Some((cpu, wall)) = other.cpu {
            let (sum, sum_wall) = self.cpu.get_or_insert_with(Default::default);
            sum.user += cpu.user;
            sum.system += cpu.system;
            *sum_wall += wall;
        }
        self.other_threads_cpu += other.other_threads_cpu;
        for &cpu in &other.cpus {
            if !self.cpus.contains(&cpu) {
                self.cpus.push(cpu);
            }
        }
        self.cpus.sort_unstable();
        self.throughput = self.throughput.or(other.throughput);
    }

    /// CPU time over wall time of the benchmark's slices.
    pub(crate) fn cpu_ratio(&self) -> Option<f64> {
        let (cpu, wall) = self.cpu?;
        (wall.0 > 0.0).then(|| cpu.total().0 / wall.0)
    }

    /// The CPU time of the process's other threads over the benchmark's
    /// slices, as a share of its own thread's and of the slices' wall time.
    pub(crate) fn other_threads_share(&self) -> Option<(f64, f64)> {
        let (cpu, wall) = self.cpu?;
        let others = self.other_threads_cpu.0;
        (cpu.total().0 > 0.0 && wall.0 > 0.0).then(|| (others / cpu.total().0, others / wall.0))
    }
}

/// Allocations per iteration (or per sample).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct AllocRates {
    pub allocations: f64,
    pub deallocations: f64,
    pub reallocations: f64,
    pub bytes_allocated: f64,
}

/// `totals` spread over `over` samples.
fn rates(totals: AllocCounts, over: u64) -> AllocRates {
    let n = over.max(1) as f64;
    AllocRates {
        allocations: totals.allocations as f64 / n,
        deallocations: totals.deallocations as f64 / n,
        reallocations: totals.reallocations as f64 / n,
        bytes_allocated: totals.bytes_allocated as f64 / n,
    }
}

/// The instruments of one worker.
#[derive(Debug, Default)]
pub(crate) struct Instruments {
    counters: Option<Counters>,
    counter_overhead: Option<Reading>,
    counters_before: Option<Reading>,
    alloc_before: Option<AllocCounts>,
    cold: Option<Arc<Mutex<Vec<u8>>>>,
    slice_cpu: Option<CpuTime>,
    /// The process's CPU time when the slice started.
    slice_process_cpu: Option<Nanos>,
    /// The thread's context switches at the last reading.
    switches: Option<Switches>,
    /// A slice is open: its entry, last in `extras.slices`, takes each
    /// recorded sample's page faults as it comes, so that the precision
    /// rule at the slice's end reads them as the analysis will.
    slice_open: bool,
    /// The thread's CPU time just before the sample running.
    sample_cpu: Option<Nanos>,
    /// The recorded samples that were descheduled (preempted, or their
    /// call's wall time beyond their CPU time: [`CLOCKS_AGREE`]) while their thread
    /// never waited, with the thread's CPU time over each: what they cost.
    cpu_timed: Vec<(usize, Nanos)>,
    /// The CPU time around a sample beyond its timed region, summed over
    /// the samples neither descheduled nor waiting whose CPU time is at or
    /// above their wall time (by under [`CLOCKS_AGREE`]), and their count:
    /// the harness's own share of a CPU reading.
    cpu_margin: (f64, u32),
    pub extras: Extras,
}

impl Instruments {
    /// Nothing but time (the tests' fake clock, the smoke test).
    pub(crate) fn none() -> Instruments {
        Instruments::default()
    }

    /// Opens what was asked on the calling (worker) thread: the counters,
    /// and the run's buffer to walk before each sample (`--cold`).
    pub(crate) fn open(counters: bool, cold: Option<Arc<Mutex<Vec<u8>>>>) -> Instruments {
        let mut instruments = Instruments::none();
        if counters {
            let (opened, refusals) = Counters::open(&Event::ALL);
            instruments.extras.refusals = refusals;
            if let Some(mut opened) = opened {
                instruments.counter_overhead = Some(opened.overhead(101));
                instruments.extras.counters = opened.events().iter().map(|&e| (e, 0.0)).collect();
                instruments.counters = Some(opened);
            }
        }
        instruments.cold = cold;
        instruments
    }

    /// Before a slice whose first sample will be `first_sample`, with the
    /// speed probe read just before it and the pause since the benchmark's
    /// previous slice: where the thread runs, and its CPU time so far.
    pub(crate) fn slice_started(&mut self, first_sample: usize, probe: f64, pause: Option<Nanos>) {
        // Open until the slice ends: the precision rule, applied at the
        // slice's end, judges its samples by the probe before it.
        self.extras.slices.push(SliceEvidence {
            first_sample,
            samples: usize::MAX - first_sample,
            probe,
            pause,
            faults: None,
        });
        self.switches = switches();
        self.slice_open = true;
        if let Some(open) = self.extras.slices.last_mut() {
            open.faults = self.switches.map(|_| 0);
        }
        if let Some(cpu) = affinity::current_cpu() {
            if let Err(at) = self.extras.cpus.binary_search(&cpu) {
                self.extras.cpus.insert(at, cpu);
            }
        }
        self.slice_process_cpu = process_cpu_nanos();
        self.slice_cpu = thread_cpu_time();
    }

    /// After a slice of `wall` time that ended with `recorded` samples in
    /// all, with the speed probe read just after it.
    pub(crate) fn slice_ended(&mut self, wall: Nanos, recorded: usize, probe: f64) {
        if let (Some(before), Some(after)) = (self.slice_cpu.take(), thread_cpu_time()) {
            let (cpu, total_wall) = self
                .extras
                .cpu
                .get_or_insert((CpuTime::default(), Nanos::ZERO));
            let spent = after.since(before);
            cpu.user += spent.user;
            cpu.system += spent.system;
            *total_wall += wall;
            let process = (self.slice_process_cpu.take()).zip(process_cpu_nanos());
            if let Some((before, after)) = process {
                let others = (after - before) - spent.total();
                self.extras.other_threads_cpu += Nanos(others.0.max(0.0));
            }
        }
        self.slice_open = false;
        if let Some(open) = self.extras.slices.pop() {
            if recorded > open.first_sample {
                self.extras.slices.push(SliceEvidence {
                    samples: recorded - open.first_sample,
                    probe: open.probe.max(probe),
                    ..open
                });
            }
        }
    }

    /// Just before a sample: evict the caches (`--cold`), then read the
    /// thread's CPU time, the allocation count and the counters.
    pub(crate) fn sample_starting(&mut self) {
        if let Some(buffer) = &self.cold {
            // Uncontended: one benchmark runs at a time.
            evict(
                &mut buffer
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            );
        }
        // A system call: before the reads that must be nearest the sample.
        self.sample_cpu = thread_cpu_nanos();
        self.alloc_before = alloc::is_installed().then(alloc::snapshot);
        self.counters_before = self.counters.as_mut().map(Counters::read);
    }

    /// Right after a sample, before the harness does anything else: what
    /// the counters and the allocator saw during it.
    pub(crate) fn sample_done(&mut self) -> SampleReading {
        let counted = self.counters.as_mut().map(Counters::read);
        let cpu = (self.sample_cpu.take())
            .zip(thread_cpu_nanos())
            .map(|(before, after)| after - before);
        let allocated = self
            .alloc_before
            .take()
            .map(|before| alloc::snapshot().since(before));
        // One reading a sample: the period since the last one holds the
        // sample and the harness's own work before it.
        let now = switches();
        let (preempted, waited, faults) = match (self.switches, now) {
            (Some(a), Some(b)) => (
                b.involuntary > a.involuntary,
                b.voluntary > a.voluntary,
                Some(b.faults.saturating_sub(a.faults)),
            ),
            _ => (false, false, None),
        };
        self.switches = now;
        SampleReading {
            counted,
            allocated,
            preempted,
            faults,
            // A thread that waited spent time off the CPU of its own
            // accord: its CPU time is not what the sample cost.
            cpu: cpu.filter(|_| !waited),
        }
    }

    /// After the last sample: each descheduled sample whose thread never
    /// waited is timed by the thread's CPU time over it, less the harness's
    /// own share of a CPU reading (its mean over the other samples), when
    /// that is below its wall time, and is no longer left out. Its wall time
    /// held another program's run; leaving the sample out dropped the
    /// body's longest calls most (a map's rehash, a `Vec`'s growth: the
    /// samples most often preempted).
    pub(crate) fn time_preempted_by_cpu(&mut self, samples: &mut [Sample]) {
        let (sum, n) = self.cpu_margin;
        let margin = if n >= 5 { sum / f64::from(n) } else { 0.0 };
        let mut timed = Vec::new();
        for &(i, cpu) in &self.cpu_timed {
            let Some(sample) = samples.get_mut(i) else {
                continue;
            };
            let own = cpu.0 - margin;
            if own > 0.0 {
                sample.elapsed = Nanos(sample.elapsed.0.min(own));
                timed.push(i);
            }
        }
        (self.extras.preempted).retain(|i| timed.binary_search(i).is_err());
        self.cpu_timed.clear();
    }

    /// Adds a sample of `iters` iterations, timed at `elapsed` (the body's
    /// own figure under `iter_custom`) in a call that took `wall` by the
    /// harness's clock, to the totals if the sampler `recorded` it (warm-up
    /// samples are not counted).
    pub(crate) fn account(
        &mut self,
        reading: SampleReading,
        iters: u64,
        elapsed: Nanos,
        wall: Nanos,
        recorded: bool,
    ) {
        let SampleReading {
            counted,
            allocated,
            preempted,
            faults,
            cpu,
        } = reading;
        let before = self.counters_before.take();
        if !recorded {
            return;
        }
        if self.slice_open {
            if let Some(open) = self.extras.slices.last_mut() {
                open.faults = open.faults.and_then(|sum| Some(sum + faults?));
                open.samples = self.extras.samples as usize + 1 - open.first_sample;
            }
        }
        let index = self.extras.samples as usize;
        // Off its CPU with no switch the kernel saw: the host took the
        // virtual CPU (steal), which the thread's CPU clock leaves out. By
        // the call's wall time, not `elapsed`: a body timing itself may
        // report work done on other threads or a device.
        let stolen = cpu.is_some_and(|cpu| (wall - cpu).0 > CLOCKS_AGREE.max(0.1 * wall.0));
        let preempted = preempted || stolen;
        match (preempted, cpu) {
            (true, Some(cpu)) => self.cpu_timed.push((index, cpu)),
            // The reads' own cost: CPU time over the wall time, never
            // under it (an interrupt, where the kernel leaves its time out
            // of the thread's, would lower the margin).
            (false, Some(cpu)) if (0.0..CLOCKS_AGREE).contains(&(cpu - elapsed).0) => {
                self.cpu_margin.0 += (cpu - elapsed).0;
                self.cpu_margin.1 += 1;
            }
            _ => {}
        }
        if preempted {
            self.extras.preempted.push(index);
        }
        self.extras.iterations += iters;
        self.extras.samples += 1;
        if let (Some(after), Some(before)) = (counted, before) {
            let delta = after.since(&before);
            self.extras.multiplexed |= delta.multiplexed();
            for (event, total) in &mut self.extras.counters {
                let own_cost = self
                    .counter_overhead
                    .as_ref()
                    .and_then(|o| o.get(*event))
                    .unwrap_or(0.0);
                *total += delta.get(*event).unwrap_or(0.0) - own_cost;
            }
        }
        if let Some(allocated) = allocated {
            add_counts(&mut self.extras.allocations, allocated);
        }
    }
}

/// How far a sample's wall time and the thread's CPU time over it may be
/// apart when nothing descheduled the thread: the reads' own cost, an
/// interrupt, the two clocks' disagreement. Beyond it, and beyond a tenth
/// of the wall time (a kernel that accounts interrupts apart leaves them
/// out of the thread's time, and the clocks' rates differ by about 1e-5),
/// wall time over CPU time is time the thread was off its CPU. On a virtual
/// machine the host can take the CPU with no context switch the guest
/// counts: here two busy loops, one a vCPU, timed in 13 µs chunks for
/// 30 s, had 28 chunks read 0.36–9.7 ms of wall time over 14–119 µs of CPU
/// time; one such 3.8 ms sample, the last of its slice, made a
/// 1,000-integer sum's process read 107.6 ns where the others read 74.5.
const CLOCKS_AGREE: f64 = 2e4;

fn add_counts(totals: &mut Option<AllocCounts>, more: AllocCounts) {
    let totals = totals.get_or_insert_with(AllocCounts::default);
    totals.allocations += more.allocations;
    totals.deallocations += more.deallocations;
    totals.reallocations += more.reallocations;
    totals.bytes_allocated += more.bytes_allocated;
    totals.bytes_deallocated += more.bytes_deallocated;
}

/// What one sample's counters and allocations read.
#[derive(Debug)]
pub(crate) struct SampleReading {
    counted: Option<Reading>,
    allocated: Option<AllocCounts>,
    /// The thread was preempted since the last reading.
    preempted: bool,
    /// The thread's page faults since the last reading.
    faults: Option<u64>,
    /// The thread's CPU time over the sample, when it did not wait.
    cpu: Option<Nanos>,
}

/// Walks `buffer` a cache line at a time, writing, so that whatever the
/// caches held before is evicted.
fn evict(buffer: &mut [u8]) {
    for line in buffer.iter_mut().step_by(64) {
        *line = line.wrapping_add(1);
    }
    std::hint::black_box(buffer);
}

/// The machine's evidence about one benchmark's samples: the speed probe
/// beside each slice and the samples that were preempted.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Evidence<'a> {
    pub slices: &'a [SliceEvidence],
    pub preempted: &'a [usize],
}

impl Extras {
    /// What the instruments saw of the machine around the samples.
    pub(crate) fn evidence(&self) -> Evidence<'_> {
        Evidence {
            slices: &self.slices,
            preempted: &self.preempted,
        }
    }
}

impl Evidence<'_> {
    /// What the evidence says of the block of samples `start..end`, its
    /// probe judged against `level` (see [`block_evidence`]).
    pub(crate) fn block(&self, level: Option<f64>, start: usize, end: usize) -> BlockEvidence {
        block_evidence(self.slices, level, start, end)
    }
}

/// The percentile of the speed probe's readings taken as its fast level.
pub(crate) const PROBE_LEVEL_PERCENTILE: f64 = 2.0;

/// The speed probe's fast level over `slices` (of one benchmark, or of
/// every benchmark in the run): the 2nd percentile of its readings, what
/// the machine does when nothing slows it; `None` with no reading. Low,
/// because a busy machine can be slow for most of a run: with two
/// compilers beside it, 85–95% of the probes here read the slow level, and
/// a 10th percentile there made the slow level the norm.
pub(crate) fn probe_level<'a>(slices: impl Iterator<Item = &'a SliceEvidence>) -> Option<f64> {
    let mut probes: Vec<f64> = slices.map(|s| s.probe).filter(|p| *p > 0.0).collect();
    if probes.is_empty() {
        return None;
    }
    probes.sort_by(f64::total_cmp);
    Some(crate::analysis::percentile(&probes, PROBE_LEVEL_PERCENTILE))
}

/// What `slices` say of the block of samples `start..end`: the slowest
/// probe beside the slices that recorded any of them, over `level` (the
/// probe's fast level), and their page faults when every one of them lies
/// within the block and counted them.
pub(crate) fn block_evidence(
    slices: &[SliceEvidence],
    level: Option<f64>,
    start: usize,
    end: usize,
) -> BlockEvidence {
    let overlapping =
        || (slices.iter()).filter(|s| s.first_sample < end && s.first_sample + s.samples > start);
    let slowest = overlapping().map(|s| s.probe).reduce(f64::max);
    let within = |s: &SliceEvidence| s.first_sample >= start && s.first_sample + s.samples <= end;
    let faults = overlapping()
        .map(|s| s.faults.filter(|_| within(s)))
        .sum::<Option<u64>>()
        .filter(|_| overlapping().next().is_some());
    BlockEvidence {
        probe: level
            .filter(|l| *l > 0.0)
            .zip(slowest)
            .map(|(level, probe)| probe / level),
        faults,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(preempted: bool, cpu: Option<f64>) -> SampleReading {
        SampleReading {
            counted: None,
            allocated: None,
            preempted,
            faults: None,
            cpu: cpu.map(Nanos),
        }
    }

    /// Ten samples of 30 µs whose CPU readings run 0.5 µs over (the reads'
    /// own cost), then a rehash of 1 ms preempted for 4 ms, one preempted
    /// while it waited, one preempted between samples, one the host
    /// descheduled, and three that keep their time: one an interrupt
    /// slowed, one a little off its CPU, one a body timed itself.
    #[test]
    fn a_preempted_sample_is_timed_by_its_cpu_time_and_kept() {
        let mut instruments = Instruments::none();
        let mut samples = Vec::new();
        let mut timed = |instruments: &mut Instruments, elapsed: f64, wall: f64, reading| {
            instruments.account(reading, 1, Nanos(elapsed), Nanos(wall), true);
            samples.push(Sample {
                iters: 1,
                elapsed: Nanos(elapsed),
            });
        };
        let mut add = |instruments: &mut Instruments, wall: f64, reading| {
            timed(instruments, wall, wall, reading)
        };
        for _ in 0..10 {
            add(&mut instruments, 30e3, reading(false, Some(30.5e3)));
        }
        add(&mut instruments, 5e6, reading(true, Some(1.0005e6)));
        // It waited (a voluntary switch): its CPU time is not its cost.
        add(&mut instruments, 5e6, reading(true, None));
        // Preempted before the sample started: its wall time stands.
        add(&mut instruments, 30e3, reading(true, Some(30.6e3)));
        // The host took the CPU for 3.8 ms, no switch counted: the same.
        add(&mut instruments, 3.83e6, reading(false, Some(30.5e3)));
        // An interrupt of 15 µs: the wall time stands, as the sample's.
        add(&mut instruments, 45e3, reading(false, Some(30.5e3)));
        // 50 µs off a 1 ms sample: under a tenth, the clocks' own drift
        // or interrupts a kernel leaves out of the thread's time.
        add(&mut instruments, 1e6, reading(false, Some(0.95e6)));
        // A body timing itself reports 5 ms of work on other threads in a
        // call of 30 µs: its thread never left the CPU.
        timed(&mut instruments, 5e6, 30e3, reading(false, Some(30.5e3)));
        instruments.time_preempted_by_cpu(&mut samples);
        assert_eq!(samples[10].elapsed, Nanos(1e6));
        assert_eq!(samples[11].elapsed, Nanos(5e6));
        assert_eq!(samples[12].elapsed, Nanos(30e3));
        assert_eq!(samples[13].elapsed, Nanos(30e3));
        assert_eq!(samples[14].elapsed, Nanos(45e3));
        assert_eq!(samples[15].elapsed, Nanos(1e6));
        assert_eq!(samples[16].elapsed, Nanos(5e6));
        // Only the waiting one is still left out of the headline.
        assert_eq!(instruments.extras.preempted, [11]);
    }

    /// A slice's page faults are its recorded samples', and the open
    /// slice has them (and its samples) before it ends: the precision rule
    /// reads them there; a sample whose faults were not read leaves the
    /// slice's count unknown, and warm-up samples are not counted.
    #[test]
    fn a_slices_faults_are_its_recorded_samples_and_read_while_open() {
        let mut instruments = Instruments::none();
        let faulted = |faults| SampleReading {
            faults,
            ..reading(false, None)
        };
        instruments.slice_started(0, 0.3, None);
        let open = |i: &Instruments| i.extras.slices.last().map(|s| (s.samples, s.faults));
        instruments.account(faulted(Some(900)), 1, Nanos(1e3), Nanos(1e3), false);
        instruments.account(faulted(Some(3)), 1, Nanos(1e3), Nanos(1e3), true);
        instruments.account(faulted(Some(4)), 1, Nanos(1e3), Nanos(1e3), true);
        let switches_read = switches().is_some();
        if switches_read {
            assert_eq!(open(&instruments), Some((2, Some(7))));
        }
        instruments.slice_ended(Nanos(1e6), 2, 0.3);
        instruments.slice_started(2, 0.3, None);
        instruments.account(faulted(Some(5)), 1, Nanos(1e3), Nanos(1e3), true);
        instruments.account(faulted(None), 1, Nanos(1e3), Nanos(1e3), true);
        instruments.slice_ended(Nanos(1e6), 4, 0.3);
        let slices: Vec<_> = instruments
            .extras
            .slices
            .iter()
            .map(|s| (s.samples, s.faults))
            .collect();
        if switches_read {
            assert_eq!(slices, [(2, Some(7)), (2, None)]);
        } else {
            assert_eq!(slices, [(2, None), (2, None)]);
        }
    }
}
