//! What the audit says about an environment: when each warning triggers,
//! its exact wording, the unoptimised build first and loud; and the header,
//! the machine in one line.

use super::*;
use crate::environment::{Build, Environment};
use crate::testing::fixture;
use crate::testing::machines::{debug, release, released_on, unknown_machine};

fn messages(warnings: &[Warning]) -> Vec<&str> {
    warnings.iter().map(|w| w.message.as_str()).collect()
}

const GOVERNOR_POWERSAVE: &str = "cpufreq governor is `powersave`: the clock speed moves under \
     load; `sudo cpupower frequency-set -g performance` for stable figures";
const TURBO: &str = "turbo boost is on: the clock rises while the chip is cool and falls as it \
     heats, so figures depend on what ran before; disable with \
     `echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost` \
     (intel_pstate: `echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo`)";
const LOAD_5_ON_4: &str = "load average 5 on 4 cores: other work competes with the benchmark \
     for the CPU; stop it, or wait for the load to fall (a build that just finished counts \
     for a minute)";
const HYPERVISOR: &str = "running under a hypervisor: another guest can steal time; expect \
     noise, prefer interleaved runs (the default) and in-run comparisons (A/B groups)";
const ASLR_2: &str = "ASLR is on (randomize_va_space 2): memory layout, and with it alignment, \
     changes between runs; run under `setarch -R cargo bench`, or \
     `echo 0 | sudo tee /proc/sys/kernel/randomize_va_space` and restore it afterwards";
const UNOPTIMISED: &str = "this benchmark binary is an unoptimised build (debug assertions on, \
     opt-level 0): figures mean nothing; run `cargo bench`, not `cargo test`, or set opt-level \
     in [profile.bench]";

// ---------------------------------------------------------------------------
// Warnings
// ---------------------------------------------------------------------------

#[test]
fn the_tuned_machine_raises_no_warning() {
    let environment = released_on(&fixture("bare-metal-performance"));
    assert_eq!(audit(&environment), []);
}

#[test]
fn the_laptop_raises_governor_turbo_load_and_aslr_in_that_order() {
    let warnings = audit(&released_on(&fixture("laptop")));
    assert_eq!(
        messages(&warnings),
        [GOVERNOR_POWERSAVE, TURBO, LOAD_5_ON_4, ASLR_2]
    );
    assert!(warnings.iter().all(|w| !w.loud));
}

#[test]
fn the_vm_raises_hypervisor_and_aslr() {
    let warnings = audit(&released_on(&fixture("vm-2core")));
    assert_eq!(messages(&warnings), [HYPERVISOR, ASLR_2]);
}

#[test]
fn an_unoptimised_build_comes_first_and_loud() {
    let environment = Environment {
        build: debug(),
        ..released_on(&fixture("laptop"))
    };
    let warnings = audit(&environment);
    assert_eq!(
        warnings[0],
        Warning {
            loud: true,
            message: UNOPTIMISED.to_string(),
            short: "unoptimised build".to_string(),
        }
    );
    assert_eq!(
        messages(&warnings[1..]),
        [GOVERNOR_POWERSAVE, TURBO, LOAD_5_ON_4, ASLR_2]
    );
    assert_eq!(warnings.iter().filter(|w| w.loud).count(), 1);
}

#[test]
fn a_harness_compiled_below_opt_level_2_under_optimised_benchmarks_is_warned_of() {
    let build = |opt_level: &str, harness: Option<&str>| {
        let build = Build {
            debug_assertions: false,
            opt_level: opt_level.to_string(),
            profile: "release".to_string(),
            harness_opt_level: harness.map(str::to_string),
        };
        audit(&unknown_machine(build))
    };
    assert_eq!(
        build("3", Some("0")),
        [Warning {
            loud: true,
            message: "bench-harness is built at opt-level 0, the benchmarks at 3: the std code \
                      it shares with them (sorts, parsing) runs unoptimised in their figures; \
                      remove opt-level from [profile.*.package.bench-harness]"
                .to_string(),
            short: "bench-harness at opt-level 0".to_string(),
        }]
    );
    for (benchmarks, harness) in [("2", "1"), ("2", "s"), ("3", "z"), ("s", "0"), ("1", "0")] {
        assert_eq!(
            build(benchmarks, Some(harness)).len(),
            1,
            "{benchmarks} {harness}"
        );
    }
    // An optimised harness shares nothing; benchmarks at 0 have their own,
    // louder warning.
    assert_eq!(build("3", Some("2")), []);
    assert_eq!(build("3", None), []);
    assert_eq!(build("0", Some("1")).len(), 1, "the unoptimised build's");
    assert!(build("0", Some("1"))[0]
        .message
        .contains("unoptimised build"));
}

#[test]
fn the_build_warning_names_what_is_wrong_with_the_build() {
    let build = |debug_assertions: bool, opt_level: &str| {
        let build = Build {
            debug_assertions,
            opt_level: opt_level.to_string(),
            profile: "custom".to_string(),
            harness_opt_level: None,
        };
        audit(&unknown_machine(build))
    };
    assert_eq!(
        build(false, "0"),
        [Warning {
            loud: true,
            message: "this benchmark binary is an unoptimised build (opt-level 0): figures mean \
                      nothing; run `cargo bench`, not `cargo test`, or set opt-level in \
                      [profile.bench]"
                .to_string(),
            short: "unoptimised build".to_string(),
        }]
    );
    assert_eq!(
        build(true, "3"),
        [Warning {
            loud: true,
            message: "this benchmark binary has debug assertions on (opt-level 3): the checks a \
                      release build leaves out are timed too; set debug-assertions = false in \
                      [profile.bench]"
                .to_string(),
            short: "debug assertions on".to_string(),
        }]
    );
    assert_eq!(build(false, "3"), []);
    assert_eq!(build(false, "s"), []);
    // A document from before builds were recorded.
    assert_eq!(audit(&unknown_machine(Build::unknown())), []);
}

#[test]
fn unknown_facts_raise_nothing() {
    assert_eq!(audit(&unknown_machine(release())), []);
}

#[test]
fn mixed_governors_are_called_out_even_with_performance_among_them() {
    let environment = Environment {
        governor: Some("performance/powersave".to_string()),
        ..unknown_machine(release())
    };
    assert_eq!(
        messages(&audit(&environment)),
        [
            "cpufreq governors differ between CPUs (`performance/powersave`): the clock speed \
          moves under load; `sudo cpupower frequency-set -g performance` for stable figures"
        ]
    );
}

#[test]
fn load_warns_only_when_no_core_is_left_idle() {
    let warns = |one_minute: f64, cores: usize| {
        let environment = Environment {
            load_average: Some([one_minute, 0.0, 0.0]),
            logical_cores: Some(cores),
            ..unknown_machine(release())
        };
        !audit(&environment).is_empty()
    };
    assert!(!warns(3.0, 4));
    assert!(warns(3.01, 4));
    assert!(!warns(0.99, 2));
    assert!(warns(1.5, 2));
    assert!(!warns(0.0, 1));
    assert!(warns(0.1, 1));
    let environment = Environment {
        load_average: Some([3.2, 0.0, 0.0]),
        logical_cores: Some(2),
        ..unknown_machine(release())
    };
    assert_eq!(
        messages(&audit(&environment)),
        [
            "load average 3.2 on 2 cores: other work competes with the benchmark for the CPU; \
          stop it, or wait for the load to fall (a build that just finished counts for a \
          minute)"
        ]
    );
}

#[test]
fn aslr_warns_from_level_1_and_boost_only_when_on() {
    let with = |aslr: u8, boost: bool| Environment {
        aslr: Some(aslr),
        boost: Some(boost),
        ..unknown_machine(release())
    };
    assert_eq!(audit(&with(0, false)), []);
    assert_eq!(
        messages(&audit(&with(1, false))),
        [
            "ASLR is on (randomize_va_space 1): memory layout, and with it alignment, changes \
          between runs; run under `setarch -R cargo bench`, or \
          `echo 0 | sudo tee /proc/sys/kernel/randomize_va_space` and restore it afterwards"
        ]
    );
    assert_eq!(messages(&audit(&with(0, true))), [TURBO]);
}

#[test]
fn every_warning_is_one_line() {
    let environment = Environment {
        build: debug(),
        hypervisor: Some(true),
        ..released_on(&fixture("laptop"))
    };
    let warnings = audit(&environment);
    assert_eq!(warnings.len(), 6);
    assert!(warnings.iter().all(|w| !w.message.contains('\n')));
}

// ---------------------------------------------------------------------------
// The header
// ---------------------------------------------------------------------------

#[test]
fn the_header_is_one_compact_line() {
    let on = |machine: &str| Environment {
        rustc_version: "rustc 1.95.0 (59807616e 2026-04-14)".to_string(),
        target: "x86_64-unknown-linux-gnu".to_string(),
        ..released_on(&fixture(machine))
    };
    assert_eq!(
        header(&on("vm-2core")),
        "Intel Xeon · 2 cores · LLC 480 MiB · governor n/a · turbo n/a · ASLR 2 · load 0.58 · \
         hypervisor · perf_event_paranoid 2 · Linux 6.18.44-fc-v669 · release (opt-level 3) · \
         rustc 1.95.0 · x86_64-unknown-linux-gnu"
    );
    assert_eq!(
        header(&on("laptop")),
        "11th Gen Intel Core i5-1135G7 · 4 cores · LLC 8 MiB · governor powersave · turbo on · \
         ASLR 2 · load 5 · bare metal · perf_event_paranoid 4 · Linux 6.5.0-14-generic · \
         release (opt-level 3) · rustc 1.95.0 · x86_64-unknown-linux-gnu"
    );
    let debug_build = Environment {
        rustc_version: "unknown".to_string(),
        target: "x86_64-unknown-linux-gnu".to_string(),
        os: "linux".to_string(),
        ..unknown_machine(debug())
    };
    assert_eq!(
        header(&debug_build),
        "CPU n/a · cores n/a · LLC n/a · governor n/a · turbo n/a · ASLR n/a · load n/a · \
         hypervisor n/a · perf_event_paranoid n/a · Linux n/a · debug (opt-level 0, debug \
         assertions) · unknown · x86_64-unknown-linux-gnu"
    );
}
