//! Counters read once per sample, beside the clock: hardware and software
//! events through Linux's `perf_event_open` (this module), and allocation
//! counts ([`alloc`]).
//!
//! [`Counters::open`] opens a group of [`Event`]s for the calling thread and
//! says which ones the kernel refused and why ([`Refusal`]); the harness reads
//! the group before and after each sample, outside the timed region, and
//! takes the difference ([`Reading::since`]). [`Counters::overhead`] measures
//! what a read pair itself adds, to be subtracted.
//!
//! The Linux backend lives in `perf.rs`, the one for other systems (which
//! refuses everything) in `unsupported.rs`; this module picks one by `cfg`
//! and is the only code that does.
//!
//! ```
//! use bench_runtime::counter::{Counters, Event};
//!
//! let (counters, refusals) = Counters::open(&[Event::PageFaults, Event::Cycles]);
//! for refusal in &refusals {
//!     eprintln!("note: {:?} not counted: {}", refusal.events, refusal.reason);
//! }
//! if let Some(mut counters) = counters {
//!     let before = counters.read();
//!     let pages = vec![1u8; 1 << 20];
//!     let after = counters.read();
//!     std::hint::black_box(pages);
//!     for &event in counters.events() {
//!         let delta = after.since(&before).get(event).unwrap_or(0.0);
//!         println!("{}: {delta}", event.name());
//!     }
//! }
//! ```

pub mod alloc;

#[cfg(any(target_os = "linux", target_os = "android"))]
#[path = "perf.rs"]
mod backend;

#[cfg(not(any(target_os = "linux", target_os = "android")))]
#[path = "unsupported.rs"]
mod backend;

use std::fmt;

/// An event a [`Counters`] group can count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// CPU cycles (hardware).
    Cycles,
    /// Instructions retired (hardware).
    Instructions,
    /// Branch instructions retired (hardware).
    Branches,
    /// Mispredicted branches (hardware).
    BranchMisses,
    /// Last-level cache references, as the CPU defines them (hardware).
    CacheReferences,
    /// Last-level cache misses, as the CPU defines them (hardware).
    CacheMisses,
    /// Level-1 data cache read accesses (hardware cache event).
    L1dReadAccesses,
    /// Level-1 data cache read misses (hardware cache event).
    L1dReadMisses,
    /// Page faults taken in user space (software).
    PageFaults,
    /// Times the thread was switched out (software; counted in the kernel).
    ContextSwitches,
    /// Time the thread was on a CPU, in nanoseconds (software).
    TaskClock,
}

impl Event {
    /// Every event, hardware first, in the order reports list them.
    pub const ALL: [Event; 11] = [
        Event::Cycles,
        Event::Instructions,
        Event::Branches,
        Event::BranchMisses,
        Event::CacheReferences,
        Event::CacheMisses,
        Event::L1dReadAccesses,
        Event::L1dReadMisses,
        Event::PageFaults,
        Event::ContextSwitches,
        Event::TaskClock,
    ];

    /// The name `perf` uses for the event.
    pub fn name(self) -> &'static str {
        match self {
            Event::Cycles => "cycles",
            Event::Instructions => "instructions",
            Event::Branches => "branches",
            Event::BranchMisses => "branch-misses",
            Event::CacheReferences => "cache-references",
            Event::CacheMisses => "cache-misses",
            Event::L1dReadAccesses => "L1d-read-accesses",
            Event::L1dReadMisses => "L1d-read-misses",
            Event::PageFaults => "page-faults",
            Event::ContextSwitches => "context-switches",
            Event::TaskClock => "task-clock",
        }
    }

    /// True for events the CPU's performance monitoring unit counts, which a
    /// virtual machine often lacks; false for the kernel's software events.
    pub fn is_hardware(self) -> bool {
        !matches!(
            self,
            Event::PageFaults | Event::ContextSwitches | Event::TaskClock
        )
    }

    /// The event's slot in a [`Reading`].
    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Events the kernel would not count, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The refused events, in the order they were asked for.
    pub events: Vec<Event>,
    /// One line naming the cause and the fix.
    pub reason: String,
}

impl Refusal {
    /// One refusal per distinct reason, in the order the reasons first came up.
    fn grouped(refused: Vec<(Event, String)>) -> Vec<Refusal> {
        let mut refusals: Vec<Refusal> = Vec::new();
        for (event, reason) in refused {
            match refusals.iter_mut().find(|r| r.reason == reason) {
                Some(refusal) => refusal.events.push(event),
                None => refusals.push(Refusal {
                    events: vec![event],
                    reason,
                }),
            }
        }
        refusals
    }
}

/// A group of counters for the thread that opened it, read all at once.
///
/// The counters count that thread only (not threads it spawns), whichever
/// CPU it runs on; open one group per worker thread.
#[derive(Debug)]
pub struct Counters {
    group: backend::Group,
}

impl Counters {
    /// Opens as many of `events` as the kernel allows, as one group for the
    /// calling thread, and starts it counting.
    ///
    /// Events count user space only, which unprivileged users may do by
    /// default; context switches, which happen in the kernel, are counted
    /// there. Returns the group (`None` if no event opened) and the refused
    /// events, grouped by reason. An event asked for twice is counted once.
    pub fn open(events: &[Event]) -> (Option<Counters>, Vec<Refusal>) {
        let mut wanted: Vec<Event> = Vec::with_capacity(events.len());
        for &event in events {
            if !wanted.contains(&event) {
                wanted.push(event);
            }
        }
        let (group, refused) = backend::Group::open(&wanted);
        (
            group.map(|group| Counters { group }),
            Refusal::grouped(refused),
        )
    }

    /// The events that opened, in group order.
    pub fn events(&self) -> &[Event] {
        self.group.events()
    }

    /// The group's counts so far: one system call, no allocation.
    ///
    /// # Panics
    /// If the kernel fails to read a group it opened, which it does not do
    /// short of a bug.
    #[inline]
    pub fn read(&mut self) -> Reading {
        self.group.read()
    }

    /// What a read pair with nothing between counts: the counters' own cost,
    /// to subtract from each sample's difference. Per event, the median over
    /// `n` pairs (at least one). The result is already scaled for
    /// multiplexing.
    pub fn overhead(&mut self, n: usize) -> Reading {
        let pairs: Vec<Reading> = (0..n.max(1))
            .map(|_| {
                let before = self.read();
                self.read().since(&before)
            })
            .collect();
        let duration = median(pairs.iter().map(|pair| pair.time_enabled).collect());
        let mut overhead = Reading::new(duration.unwrap_or(0.0), duration.unwrap_or(0.0));
        for &event in self.events() {
            overhead.counts[event.index()] =
                median(pairs.iter().filter_map(|pair| pair.get(event)).collect());
        }
        overhead
    }
}

/// The median of `values`, `None` if there are none.
fn median(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    match values.len() {
        0 => None,
        len if len % 2 == 1 => Some(values[mid]),
        _ => Some((values[mid - 1] + values[mid]) / 2.0),
    }
}

/// The counts of a group at one moment, or between two moments
/// ([`Reading::since`]).
///
/// The kernel shares the CPU's few hardware counters among groups in turn
/// when there are more than fit ("multiplexing"); a group then counts only
/// part of the time it is enabled, and [`Reading::get`] scales its counts up
/// by enabled time / running time.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Reading {
    /// Raw counts by [`Event::index`]; `None` for an event not in the group.
    counts: [Option<f64>; Event::ALL.len()],
    /// Nanoseconds the group was enabled.
    time_enabled: f64,
    /// Nanoseconds the group was counting (on a PMU), at most `time_enabled`.
    time_running: f64,
}

impl Reading {
    /// A reading with no counts yet.
    fn new(time_enabled: f64, time_running: f64) -> Reading {
        Reading {
            counts: [None; Event::ALL.len()],
            time_enabled,
            time_running,
        }
    }

    /// The count of `event` scaled for multiplexing (raw count × time
    /// enabled / time running); task-clock is in nanoseconds.
    ///
    /// `None` if the event is not in the group, or if the group was enabled
    /// but never ran, so that its count is unknown.
    pub fn get(&self, event: Event) -> Option<f64> {
        let raw = self.counts[event.index()]?;
        if self.time_running >= self.time_enabled {
            Some(raw)
        } else if self.time_running > 0.0 {
            Some(raw * self.time_enabled / self.time_running)
        } else {
            None
        }
    }

    /// The counts between `earlier` and this reading, per event; scaled, by
    /// [`Reading::get`], with the share of that interval the group ran.
    pub fn since(&self, earlier: &Reading) -> Reading {
        let mut delta = Reading::new(
            self.time_enabled - earlier.time_enabled,
            self.time_running - earlier.time_running,
        );
        for (slot, (now, then)) in delta
            .counts
            .iter_mut()
            .zip(self.counts.iter().zip(&earlier.counts))
        {
            *slot = now.zip(*then).map(|(now, then)| now - then);
        }
        delta
    }

    /// True if the group counted for only part of the time it was enabled,
    /// so that [`Reading::get`] extrapolates.
    pub fn multiplexed(&self) -> bool {
        self.time_running < self.time_enabled
    }
}
