//! The clocks as a benchmark sees them: they advance, agree with each other,
//! time a known interval, and refuse clearly where they cannot work.
//!
//! The machine running these may be a busy shared VM: bounds are loose except
//! for the cycle counter's rate, which must match the OS clock to 5%.

use std::thread::sleep;
use std::time::Duration;

use bench_runtime::clock::ClockError;
use bench_runtime::{Clock, ClockKind, Nanos, TimerChoice, TimerPrecision};

/// Every clock usable on this machine.
fn usable_clocks() -> Vec<Clock> {
    let mut clocks = vec![Clock::select(TimerChoice::Os).unwrap()];
    clocks.extend(Clock::cycles().ok());
    clocks
}

/// True on x86_64 Linux when the kernel saw an invariant TSC and RDTSCP.
fn cpuinfo_lists_invariant_tsc() -> bool {
    if std::env::consts::ARCH != "x86_64" {
        return false;
    }
    let Ok(cpuinfo) = std::fs::read_to_string("/proc/cpuinfo") else {
        return false;
    };
    let Some(flags) = cpuinfo.lines().find(|line| line.starts_with("flags")) else {
        return false;
    };
    let flags: Vec<&str> = flags.split_whitespace().collect();
    ["constant_tsc", "nonstop_tsc", "rdtscp"]
        .iter()
        .all(|flag| flags.contains(flag))
}

#[test]
fn os_clock_never_goes_backwards() {
    let clock = Clock::os();
    let mut previous = clock.start();
    for _ in 0..100_000 {
        let now = clock.stop();
        assert!(now >= previous, "{now:?} read after {previous:?}");
        previous = now;
    }
}

#[test]
fn cycle_counter_is_usable_where_cpuinfo_lists_an_invariant_tsc() {
    if !cpuinfo_lists_invariant_tsc() {
        eprintln!("skipped: /proc/cpuinfo does not list an invariant TSC");
        return;
    }
    let clock = Clock::cycles().unwrap();
    assert_eq!(clock.kind(), ClockKind::Cycles);
    assert_eq!(clock.name(), "rdtsc (invariant TSC)");
}

#[test]
fn cycle_counter_advances() {
    let Ok(clock) = Clock::cycles() else {
        eprintln!("skipped: no usable cycle counter");
        return;
    };
    let start = clock.start();
    sleep(Duration::from_millis(1));
    let end = clock.stop();
    assert!(end > start, "{end:?} read after {start:?}");
}

#[test]
fn calibrated_frequency_agrees_with_the_os_clock_over_100ms() {
    let Ok(cycles) = Clock::cycles() else {
        eprintln!("skipped: no usable cycle counter");
        return;
    };
    assert!((cycles.frequency_hz() * cycles.nanos_per_tick().0 - 1e9).abs() < 1.0);

    let os = Clock::os();
    let os_start = os.start();
    let cycles_start = cycles.start();
    sleep(Duration::from_millis(100));
    let cycles_end = cycles.stop();
    let os_end = os.stop();

    let by_cycles = cycles.elapsed(cycles_start, cycles_end);
    let by_os = os.elapsed(os_start, os_end);
    let ratio = by_cycles.0 / by_os.0;
    assert!(
        (0.95..=1.05).contains(&ratio),
        "{} measured {by_cycles:?}, the OS clock {by_os:?}",
        cycles.name()
    );
}

#[test]
fn elapsed_around_a_sleep_is_at_least_the_sleep() {
    let nap = Duration::from_millis(20);
    for clock in usable_clocks() {
        let start = clock.start();
        sleep(nap);
        let end = clock.stop();
        let elapsed = clock.elapsed(start, end);
        // `sleep` waits at least `nap` by CLOCK_MONOTONIC, which NTP may
        // slew by at most 0.05% against the clocks here.
        assert!(
            elapsed.0 >= Nanos::from_duration(nap).0 * 0.99,
            "{}: {elapsed:?}",
            clock.name()
        );
        assert!(elapsed.as_secs() < 2.0, "{}: {elapsed:?}", clock.name());
    }
}

#[test]
fn timer_precision_is_positive_and_fine_enough_to_time_a_sample() {
    for clock in usable_clocks() {
        let precision = TimerPrecision::measure(&clock);
        // Visible with --nocapture: what this machine's clocks can do.
        println!(
            "{}: {:.3} MHz, resolution {:.2} ns, read-pair overhead {:.2} ns",
            clock.name(),
            clock.frequency_hz() / 1e6,
            precision.resolution.0,
            precision.overhead.0
        );
        let TimerPrecision {
            resolution,
            overhead,
        } = precision;
        assert!(overhead.0 > 0.0 && overhead.0.is_finite(), "{precision:?}");
        // Consecutive reads differ by a whole number of ticks. A clock may
        // step by many ticks at once (under qemu-user, cntvct_el0 steps by
        // 1 µs at 62.5 MHz), so the resolution is bounded only loosely above.
        let one_tick = clock.nanos_per_tick().0;
        assert!(
            resolution.0 >= one_tick * 0.999 && resolution.0 <= 1e6,
            "{}: {precision:?}, one tick {one_tick} ns",
            clock.name()
        );
    }
}

#[test]
fn auto_takes_the_cycle_counter_where_usable() {
    let auto = Clock::select(TimerChoice::Auto).unwrap();
    match Clock::cycles() {
        Ok(_) => assert_eq!(auto.kind(), ClockKind::Cycles),
        Err(_) => assert_eq!(auto.kind(), ClockKind::Os),
    }
}

#[test]
fn asking_for_cycles_fails_exactly_where_they_are_unusable() {
    match (Clock::cycles(), Clock::select(TimerChoice::Cycles)) {
        (Ok(_), Ok(clock)) => assert_eq!(clock.kind(), ClockKind::Cycles),
        (Err(expected), Err(refusal)) => {
            assert_eq!(refusal, expected);
            assert!(refusal.to_string().contains("--timer os"), "{refusal}");
        }
        (direct, selected) => panic!("cycles() gave {direct:?}, select gave {selected:?}"),
    }
}

#[test]
fn os_clock_is_named_after_what_it_reads() {
    let name = Clock::os().name();
    if cfg!(any(target_os = "linux", target_os = "android")) {
        assert_eq!(name, "CLOCK_MONOTONIC_RAW");
    } else {
        assert_eq!(name, "Instant");
    }
}

#[test]
fn refusals_are_one_line_and_say_what_to_do() {
    let refusals = [
        ClockError::NoCycleCounter,
        ClockError::NoInvariantTsc,
        ClockError::NoRdtscp,
        ClockError::CounterStuck,
        ClockError::CounterWentBackwards,
        ClockError::UnstableFrequency {
            min_hz: 1.0e9,
            max_hz: 1.2e9,
        },
    ];
    for refusal in refusals {
        let message = refusal.to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains("--timer os"), "{message}");
    }
    let os_refusal = ClockError::OsClockUnreadable { errno: 1 }.to_string();
    assert!(!os_refusal.contains('\n'), "{os_refusal}");
    assert!(os_refusal.contains("allow clock_gettime"), "{os_refusal}");
}
