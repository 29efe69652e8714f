//! Counters as the harness uses them: software events count what a routine
//! does, hardware events the kernel cannot give are refused with their cause
//! and leave the rest counting, and a read pair costs (almost) nothing.
//!
//! The development machine is a VM without a virtual PMU: hardware events
//! are refused there, software events open. On a machine with a PMU the
//! hardware tests check plausible values instead. Counting is per thread, so
//! tests running in parallel do not disturb each other's counts.

use bench_runtime::counter::{Counters, Event};

const HARDWARE: [Event; 8] = [
    Event::Cycles,
    Event::Instructions,
    Event::Branches,
    Event::BranchMisses,
    Event::CacheReferences,
    Event::CacheMisses,
    Event::L1dReadAccesses,
    Event::L1dReadMisses,
];

#[test]
fn events_have_perf_names_and_hardware_comes_first() {
    let names: Vec<&str> = Event::ALL.iter().map(|e| e.name()).collect();
    assert_eq!(
        names,
        [
            "cycles",
            "instructions",
            "branches",
            "branch-misses",
            "cache-references",
            "cache-misses",
            "L1d-read-accesses",
            "L1d-read-misses",
            "page-faults",
            "context-switches",
            "task-clock",
        ]
    );
    let hardware: Vec<Event> = Event::ALL.into_iter().filter(|e| e.is_hardware()).collect();
    assert_eq!(hardware, HARDWARE);
    assert_eq!(Event::TaskClock.to_string(), "task-clock");
}

#[test]
fn opening_nothing_gives_nothing() {
    let (counters, refusals) = Counters::open(&[]);
    assert!(counters.is_none());
    assert!(refusals.is_empty());
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
#[test]
fn everything_is_refused_off_linux() {
    let (counters, refusals) = Counters::open(&Event::ALL);
    assert!(counters.is_none());
    assert_eq!(refusals.len(), 1);
    assert_eq!(refusals[0].events, Event::ALL);
    assert!(refusals[0].reason.contains("need Linux's perf_event_open"));
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod linux {
    use std::hint::black_box;
    use std::thread::sleep;
    use std::time::{Duration, Instant};

    use bench_runtime::counter::{Reading, Refusal};

    use super::*;

    /// True where the kernel does not implement perf_event_open at all (as
    /// under qemu-user, which runs these tests for other architectures):
    /// then the harness refuses every event, as `everything_is_refused`
    /// checks off Linux, and these tests of the real path have nothing to
    /// measure. Anywhere the syscall exists they run.
    fn perf_event_open_missing() -> bool {
        let (opened, refusals) = Counters::open(&[Event::TaskClock]);
        let missing = opened.is_none()
            && refusals
                .iter()
                .any(|r| r.reason.starts_with("perf_event_open is not available"));
        if missing {
            eprintln!("skipped: perf_event_open is not implemented here (user-mode emulation?)");
        }
        missing
    }

    /// Opens `events` and expects at least one to open.
    fn open(events: &[Event]) -> (Counters, Vec<Refusal>) {
        let (counters, refusals) = Counters::open(events);
        let counters = counters.unwrap_or_else(|| panic!("nothing opened: {refusals:?}"));
        (counters, refusals)
    }

    /// How `event` changed while `work` ran.
    fn delta(counters: &mut Counters, event: Event, work: impl FnOnce()) -> f64 {
        let before = counters.read();
        work();
        let after = counters.read();
        after.since(&before).get(event).unwrap()
    }

    /// Keeps the CPU busy until this thread has run for `busy`, by the
    /// scheduler's own account (so that a loaded machine does not shorten it),
    /// or for `busy` of wall time where that account is unavailable.
    fn spin(busy: Duration) {
        let start = Instant::now();
        let Some(cpu_start) = thread_cpu_nanos() else {
            while start.elapsed() < busy {
                black_box(());
            }
            return;
        };
        let busy = busy.as_nanos() as u64;
        while thread_cpu_nanos().is_some_and(|now| now - cpu_start < busy)
            && start.elapsed() < Duration::from_secs(10)
        {
            for _ in 0..10_000 {
                black_box(());
            }
        }
    }

    /// Nanoseconds this thread has been on a CPU, from the scheduler's
    /// statistics, which do not go through perf.
    fn thread_cpu_nanos() -> Option<u64> {
        let schedstat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        schedstat.split_whitespace().next()?.parse().ok()
    }

    fn refused_events(refusals: &[Refusal]) -> Vec<Event> {
        refusals.iter().flat_map(|r| r.events.clone()).collect()
    }

    /// Each reason is one line that names a cause the module knows.
    fn assert_reasons_name_the_cause(refusals: &[Refusal]) {
        for refusal in refusals {
            let reason = &refusal.reason;
            assert!(!reason.contains('\n'), "not one line: {reason}");
            assert!(
                [
                    "no hardware performance counters",
                    "perf_event_paranoid",
                    "perf_event_open",
                    "counters for one group",
                ]
                .iter()
                .any(|cause| reason.contains(cause)),
                "names no cause: {reason}"
            );
        }
    }

    #[test]
    fn page_faults_count_newly_touched_pages() {
        if perf_event_open_missing() {
            return;
        }
        const LEN: usize = 64 << 20;
        const PAGE: usize = 4096;
        let (mut counters, _) = open(&[Event::PageFaults]);
        // Zeroed memory this large is mapped lazily: each page faults on its
        // first write.
        let mut memory = vec![0u8; LEN];
        let faults = delta(&mut counters, Event::PageFaults, || {
            for page in memory.chunks_mut(PAGE) {
                page[0] = 1;
            }
            black_box(&mut memory);
        });
        // With transparent huge pages always on, one fault may map 2 MiB.
        let page = if huge_pages_always() { 2 << 20 } else { PAGE };
        let pages = (LEN / page) as f64;
        assert!(faults >= pages / 2.0, "{faults} faults for {pages} pages");
        assert!(faults <= LEN as f64 / PAGE as f64 * 2.0, "{faults} faults");
    }

    fn huge_pages_always() -> bool {
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .is_ok_and(|setting| setting.contains("[always]"))
    }

    #[test]
    fn context_switches_count_sleeps_or_are_refused_by_paranoia() {
        if perf_event_open_missing() {
            return;
        }
        let (counters, refusals) = Counters::open(&[Event::ContextSwitches]);
        let Some(mut counters) = counters else {
            // Counting them needs kernel-side counting (paranoid <= 1).
            assert_eq!(refusals.len(), 1);
            assert!(
                refusals[0].reason.contains("perf_event_paranoid"),
                "{refusals:?}"
            );
            return;
        };
        let switches = delta(&mut counters, Event::ContextSwitches, || {
            for _ in 0..10 {
                sleep(Duration::from_millis(1));
            }
        });
        assert!(switches >= 10.0, "{switches} context switches");
        assert!(switches <= 1000.0, "{switches} context switches");
    }

    #[test]
    fn task_clock_advances_by_the_busy_time() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) = open(&[Event::TaskClock]);
        let nanos = delta(&mut counters, Event::TaskClock, || {
            spin(Duration::from_millis(20))
        });
        assert!(
            (10e6..=200e6).contains(&nanos),
            "{nanos} ns on the CPU for 20 ms of spinning"
        );
    }

    #[test]
    fn task_clock_does_not_count_sleep() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) = open(&[Event::TaskClock]);
        let nanos = delta(&mut counters, Event::TaskClock, || {
            sleep(Duration::from_millis(50))
        });
        assert!(nanos < 25e6, "{nanos} ns on the CPU while sleeping 50 ms");
    }

    #[test]
    fn hardware_events_are_refused_with_the_cause_or_count_plausibly() {
        if perf_event_open_missing() {
            return;
        }
        let (counters, refusals) = Counters::open(&HARDWARE);
        assert_reasons_name_the_cause(&refusals);
        let Some(mut counters) = counters else {
            // A VM without a PMU (this development machine), or paranoia.
            assert_eq!(refused_events(&refusals), HARDWARE);
            return;
        };
        for event in refused_events(&refusals) {
            assert!(!counters.events().contains(&event));
        }
        let before = counters.read();
        let sum = (0..100_000u64).fold(0u64, |acc, i| black_box(acc.wrapping_add(i * i)));
        black_box(sum);
        let after = counters.read().since(&before);
        if let Some(instructions) = after.get(Event::Instructions) {
            assert!(instructions > 100_000.0, "{instructions} instructions");
        }
        if let Some(cycles) = after.get(Event::Cycles) {
            assert!(cycles > 10_000.0, "{cycles} cycles");
        }
        for event in counters.events() {
            assert!(after.get(*event).is_some_and(|v| v >= 0.0), "{event}");
        }
    }

    #[test]
    fn hardware_refusal_on_a_vm_says_there_is_no_pmu() {
        if perf_event_open_missing() {
            return;
        }
        let (counters, refusals) = Counters::open(&[Event::Cycles]);
        if counters.is_some() || !no_pmu() {
            return;
        }
        assert_eq!(refusals.len(), 1);
        assert_eq!(refusals[0].events, [Event::Cycles]);
        assert!(
            refusals[0]
                .reason
                .contains("no hardware performance counters here"),
            "{refusals:?}"
        );
        assert!(refusals[0].reason.contains("software events still work"));
    }

    /// True when the kernel lists no CPU PMU (no `cpu` or `armv8_*` event
    /// source), as in a VM without a virtual PMU.
    fn no_pmu() -> bool {
        std::fs::read_dir("/sys/bus/event_source/devices").is_ok_and(|devices| {
            !devices.flatten().any(|d| {
                let name = d.file_name().to_string_lossy().into_owned();
                name == "cpu" || name.starts_with("cpu_") || name.starts_with("armv")
            })
        })
    }

    #[test]
    fn a_mix_opens_what_it_can_and_refuses_the_rest() {
        if perf_event_open_missing() {
            return;
        }
        let (counters, refusals) = open(&Event::ALL);
        assert_reasons_name_the_cause(&refusals);
        let refused = refused_events(&refusals);
        // Every event is either counted or refused, once.
        for event in Event::ALL {
            let counted = counters.events().contains(&event);
            assert!(counted != refused.contains(&event), "{event}");
        }
        assert_eq!(counters.events().len() + refused.len(), Event::ALL.len());
        // Software events open wherever perf_event_open works.
        assert!(counters.events().contains(&Event::PageFaults));
        assert!(counters.events().contains(&Event::TaskClock));
        // Refusals are grouped: one per reason.
        for (i, a) in refusals.iter().enumerate() {
            assert!(refusals[i + 1..].iter().all(|b| b.reason != a.reason));
        }
        if refused.contains(&Event::Cycles) && refused.contains(&Event::Instructions) {
            // No PMU: the hardware events share one refusal.
            let cycles = refusals.iter().find(|r| r.events.contains(&Event::Cycles));
            assert!(cycles.unwrap().events.contains(&Event::Instructions));
        }
    }

    #[test]
    fn a_mix_still_counts_the_software_events() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) = open(&Event::ALL);
        let nanos = delta(&mut counters, Event::TaskClock, || {
            spin(Duration::from_millis(20))
        });
        assert!((10e6..=200e6).contains(&nanos), "{nanos} ns");
    }

    #[test]
    fn asking_twice_counts_once() {
        if perf_event_open_missing() {
            return;
        }
        let (counters, refusals) = open(&[Event::PageFaults, Event::PageFaults]);
        assert_eq!(counters.events(), [Event::PageFaults]);
        assert!(refusals.is_empty());
    }

    #[test]
    fn overhead_of_a_read_pair_is_small_and_not_negative() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) =
            open(&[Event::PageFaults, Event::ContextSwitches, Event::TaskClock]);
        let overhead = counters.overhead(101);
        let faults = overhead.get(Event::PageFaults).unwrap();
        assert!((0.0..=1.0).contains(&faults), "{faults} page faults");
        if let Some(switches) = overhead.get(Event::ContextSwitches) {
            assert!((0.0..=1.0).contains(&switches), "{switches} switches");
        }
        let nanos = overhead.get(Event::TaskClock).unwrap();
        assert!((0.0..1e6).contains(&nanos), "{nanos} ns for a read pair");
        assert!(!overhead.multiplexed());
        assert_eq!(overhead.get(Event::Cycles), None);
    }

    #[test]
    fn overhead_of_zero_pairs_still_measures_one() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) = open(&[Event::PageFaults]);
        assert!(counters.overhead(0).get(Event::PageFaults).is_some());
    }

    #[test]
    fn readings_count_up_and_difference_per_event() {
        if perf_event_open_missing() {
            return;
        }
        let events = [Event::PageFaults, Event::TaskClock];
        let (mut counters, refusals) = open(&events);
        assert!(refusals.is_empty(), "{refusals:?}");
        assert_eq!(counters.events(), events);
        let first = counters.read();
        spin(Duration::from_millis(2));
        let second = counters.read();
        for event in events {
            let (a, b) = (first.get(event).unwrap(), second.get(event).unwrap());
            assert!(b >= a, "{event}: {a} then {b}");
            assert_eq!(second.since(&first).get(event), Some(b - a));
            assert_eq!(first.since(&first).get(event), Some(0.0));
        }
        assert!(second.get(Event::TaskClock) > first.get(Event::TaskClock));
        // Events not in the group read as None, also in a difference.
        assert_eq!(second.get(Event::Cycles), None);
        assert_eq!(second.since(&first).get(Event::ContextSwitches), None);
    }

    #[test]
    fn a_small_software_group_is_not_multiplexed() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) =
            open(&[Event::PageFaults, Event::ContextSwitches, Event::TaskClock]);
        let first = counters.read();
        spin(Duration::from_millis(2));
        let second = counters.read();
        assert!(!first.multiplexed());
        assert!(!second.multiplexed());
        assert!(!second.since(&first).multiplexed());
    }

    #[test]
    fn counting_is_per_thread() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) = open(&[Event::TaskClock]);
        let nanos = delta(&mut counters, Event::TaskClock, || {
            std::thread::spawn(|| spin(Duration::from_millis(50)))
                .join()
                .unwrap();
        });
        assert!(nanos < 25e6, "{nanos} ns counted for another thread's spin");
    }

    #[test]
    fn readings_are_plain_values() {
        if perf_event_open_missing() {
            return;
        }
        let (mut counters, _) = open(&[Event::PageFaults]);
        let reading: Reading = counters.read();
        let copy = reading;
        assert_eq!(copy, reading);
    }
}
