//! The environment as read from `/proc` and `/sys`, and what the audit says
//! about it.
//!
//! - Each fact parsed from fixture copies of real machines' files
//!   (tests/fixtures/, described in its README), and from small trees
//!   written here for the odd cases: missing files are `None`, never an
//!   error; trailing newlines, cache sizes in `K` and `M`, mixed governors.
//! - The warnings: when each one triggers, its exact wording, and the
//!   unoptimised build first and loud.
//! - The real capture on this machine agrees with the files it came from.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use bench_harness::audit::{audit, header, Warning};
use bench_harness::environment::{Build, Environment, Sysfs};

fn fixture(machine: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(machine)
}

/// A `/` written for one test: `files` are (path, contents).
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("environment")
        .join(name);
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).unwrap();
    for (path, contents) in files {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
    root
}

fn release() -> Build {
    Build {
        debug_assertions: false,
        opt_level: "3".to_string(),
        profile: "release".to_string(),
    }
}

fn debug() -> Build {
    Build {
        debug_assertions: true,
        opt_level: "0".to_string(),
        profile: "debug".to_string(),
    }
}

/// The machine's facts from `root`, as a release build would record them.
fn released_on(root: &Path) -> Environment {
    Environment {
        build: release(),
        ..Environment::capture_from(root)
    }
}

/// An environment where nothing about the machine is known.
fn unknown_machine(build: Build) -> Environment {
    Environment {
        build,
        os_release: None,
        cpu_model: None,
        logical_cores: None,
        last_level_cache_bytes: None,
        governor: None,
        boost: None,
        aslr: None,
        load_average: None,
        hypervisor: None,
        perf_event_paranoid: None,
        ..Environment::capture_from(Path::new("/nonexistent/root"))
    }
}

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
// Parsing the fixtures
// ---------------------------------------------------------------------------

#[test]
fn the_tuned_machine_reads_as_tuned() {
    let machine = Sysfs::at(fixture("bare-metal-performance"));
    assert_eq!(
        machine.cpu_model().as_deref(),
        Some("AMD Ryzen 7 5800X 8-Core Processor")
    );
    assert_eq!(machine.online_cpus(), Some(8));
    assert_eq!(machine.governor().as_deref(), Some("performance"));
    assert_eq!(machine.boost(), Some(false));
    assert_eq!(machine.aslr(), Some(0));
    assert_eq!(machine.load_average(), Some([0.02, 0.05, 0.01]));
    assert_eq!(machine.hypervisor(), Some(false));
    assert_eq!(machine.perf_event_paranoid(), Some(-1));
    assert_eq!(machine.os_release().as_deref(), Some("6.1.0-18-amd64"));
    assert_eq!(machine.last_level_cache_bytes(), Some(32 << 20));
}

#[test]
fn the_laptop_reads_as_powersaving_turbo_and_busy() {
    let machine = Sysfs::at(fixture("laptop"));
    assert_eq!(
        machine.cpu_model().as_deref(),
        Some("11th Gen Intel(R) Core(TM) i5-1135G7 @ 2.40GHz")
    );
    assert_eq!(machine.online_cpus(), Some(4));
    assert_eq!(machine.governor().as_deref(), Some("powersave"));
    // No cpufreq/boost under intel_pstate: no_turbo 0 means turbo is on.
    assert_eq!(machine.boost(), Some(true));
    assert_eq!(machine.aslr(), Some(2));
    assert_eq!(machine.load_average(), Some([5.0, 3.1, 2.05]));
    assert_eq!(machine.hypervisor(), Some(false));
    assert_eq!(machine.perf_event_paranoid(), Some(4));
    assert_eq!(machine.last_level_cache_bytes(), Some(8 << 20));
}

#[test]
fn the_vm_copy_has_no_cpufreq_and_a_hypervisor() {
    let machine = Sysfs::at(fixture("vm-2core"));
    assert_eq!(
        machine.cpu_model().as_deref(),
        Some("Intel(R) Xeon(R) Processor")
    );
    assert_eq!(machine.online_cpus(), Some(2));
    assert_eq!(machine.governor(), None);
    assert_eq!(machine.boost(), None);
    assert_eq!(machine.aslr(), Some(2));
    assert_eq!(machine.load_average(), Some([0.58, 0.97, 0.88]));
    assert_eq!(machine.hypervisor(), Some(true));
    assert_eq!(machine.perf_event_paranoid(), Some(2));
    assert_eq!(machine.os_release().as_deref(), Some("6.18.44-fc-v669"));
    // L3 as the host reports it: 491520K.
    assert_eq!(machine.last_level_cache_bytes(), Some(491_520 * 1024));
}

#[test]
fn capture_from_a_fixture_fills_every_machine_fact() {
    let environment = Environment::capture_from(&fixture("laptop"));
    assert_eq!(environment.logical_cores, Some(4));
    assert_eq!(environment.governor.as_deref(), Some("powersave"));
    assert_eq!(environment.boost, Some(true));
    assert_eq!(environment.aslr, Some(2));
    assert_eq!(environment.load_average, Some([5.0, 3.1, 2.05]));
    assert_eq!(environment.hypervisor, Some(false));
    assert_eq!(environment.perf_event_paranoid, Some(4));
    assert_eq!(environment.last_level_cache_bytes, Some(8 << 20));
    assert_eq!(environment.os_release.as_deref(), Some("6.5.0-14-generic"));
}

#[test]
fn reading_a_fixture_changes_none_of_its_files() {
    fn contents(dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                contents(&path, into);
            } else {
                into.insert(path.clone(), fs::read(&path).unwrap());
            }
        }
    }
    let root = fixture("laptop");
    let mut before = BTreeMap::new();
    contents(&root, &mut before);
    let environment = released_on(&root);
    let _ = (audit(&environment), header(&environment));
    let mut after = BTreeMap::new();
    contents(&root, &mut after);
    assert_eq!(before, after);
}

// ---------------------------------------------------------------------------
// Missing and odd files
// ---------------------------------------------------------------------------

#[test]
fn missing_files_are_none_not_errors() {
    let machine = Sysfs::at("/nonexistent/root");
    assert_eq!(machine.os_release(), None);
    assert_eq!(machine.cpu_model(), None);
    assert_eq!(machine.online_cpus(), None);
    assert_eq!(machine.governor(), None);
    assert_eq!(machine.boost(), None);
    assert_eq!(machine.aslr(), None);
    assert_eq!(machine.load_average(), None);
    assert_eq!(machine.hypervisor(), None);
    assert_eq!(machine.perf_event_paranoid(), None);
    assert_eq!(machine.last_level_cache_bytes(), None);

    let environment = Environment::capture_from(Path::new("/nonexistent/root"));
    assert_eq!(environment.logical_cores, None);
    assert_eq!(environment.governor, None);
    assert_eq!(environment.load_average, None);
}

#[test]
fn trailing_newlines_and_spaces_are_ignored() {
    let root = tree(
        "trailing",
        &[
            ("proc/loadavg", "0.50 0.40 0.30 1/100 42\n\n"),
            ("proc/sys/kernel/randomize_va_space", "1\n\n"),
            ("proc/sys/kernel/perf_event_paranoid", " -1 \n"),
            ("proc/sys/kernel/osrelease", "6.1.0\n"),
            (
                "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
                "schedutil\n\n",
            ),
            ("sys/devices/system/cpu/cpufreq/boost", "1\n"),
            ("sys/devices/system/cpu/online", "0-1,4\n"),
        ],
    );
    let machine = Sysfs::at(&root);
    assert_eq!(machine.load_average(), Some([0.5, 0.4, 0.3]));
    assert_eq!(machine.aslr(), Some(1));
    assert_eq!(machine.perf_event_paranoid(), Some(-1));
    assert_eq!(machine.os_release().as_deref(), Some("6.1.0"));
    assert_eq!(machine.governor().as_deref(), Some("schedutil"));
    assert_eq!(machine.boost(), Some(true));
    assert_eq!(machine.online_cpus(), Some(3));
}

#[test]
fn cache_sizes_in_k_and_m_and_the_highest_level_wins() {
    let index = |i: u32, level: &str, kind: &str, size: &str| {
        [
            (
                format!("sys/devices/system/cpu/cpu0/cache/index{i}/level"),
                level.to_string(),
            ),
            (
                format!("sys/devices/system/cpu/cpu0/cache/index{i}/type"),
                kind.to_string(),
            ),
            (
                format!("sys/devices/system/cpu/cpu0/cache/index{i}/size"),
                size.to_string(),
            ),
        ]
    };
    let files: Vec<(String, String)> = [
        index(0, "1\n", "Data\n", "48K\n"),
        index(1, "1\n", "Instruction\n", "32K\n"),
        // Larger than the L3 below, but a lower level.
        index(2, "2\n", "Unified\n", "2048K\n"),
        index(3, "3\n", "Unified\n", "8M\n"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let root = tree("caches", &files);
    assert_eq!(Sysfs::at(&root).last_level_cache_bytes(), Some(8 << 20));

    let l2_only = tree("l2-only", &files[..9]);
    assert_eq!(Sysfs::at(&l2_only).last_level_cache_bytes(), Some(2 << 20));

    // An instruction cache is not where data lives.
    let l1_only = tree("l1-instruction", &files[3..6]);
    assert_eq!(Sysfs::at(&l1_only).last_level_cache_bytes(), None);
}

#[test]
fn unreadable_values_are_none() {
    let root = tree(
        "garbage",
        &[
            ("proc/loadavg", "0.50 0.40\n"),
            ("proc/sys/kernel/randomize_va_space", "on\n"),
            ("proc/sys/kernel/perf_event_paranoid", "\n"),
            ("sys/devices/system/cpu/cpufreq/boost", "2\n"),
            ("sys/devices/system/cpu/online", "0-\n"),
            ("sys/devices/system/cpu/cpu0/cache/index0/level", "1\n"),
            ("sys/devices/system/cpu/cpu0/cache/index0/type", "Data\n"),
            ("sys/devices/system/cpu/cpu0/cache/index0/size", "lots\n"),
        ],
    );
    let machine = Sysfs::at(&root);
    assert_eq!(machine.load_average(), None);
    assert_eq!(machine.aslr(), None);
    assert_eq!(machine.perf_event_paranoid(), None);
    assert_eq!(machine.boost(), None);
    assert_eq!(machine.online_cpus(), None);
    assert_eq!(machine.last_level_cache_bytes(), None);
}

#[test]
fn governors_that_differ_are_listed_once_each_in_cpu_order() {
    let governor = |cpu: u32| format!("sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor");
    let paths = [governor(0), governor(2), governor(10), governor(1)];
    let root = tree(
        "mixed-governors",
        &[
            (paths[0].as_str(), "performance\n"),
            (paths[1].as_str(), "performance\n"),
            // cpu10 comes after cpu2, though not in name order.
            (paths[2].as_str(), "schedutil\n"),
            (paths[3].as_str(), "powersave\n"),
        ],
    );
    assert_eq!(
        Sysfs::at(&root).governor().as_deref(),
        Some("performance/powersave/schedutil")
    );
}

#[test]
fn the_global_boost_switch_comes_before_intel_pstate() {
    let root = tree(
        "boost-both",
        &[
            ("sys/devices/system/cpu/cpufreq/boost", "0\n"),
            ("sys/devices/system/cpu/intel_pstate/no_turbo", "0\n"),
        ],
    );
    assert_eq!(Sysfs::at(&root).boost(), Some(false));
    let root = tree(
        "no-turbo",
        &[("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n")],
    );
    assert_eq!(Sysfs::at(&root).boost(), Some(false));
    let root = tree(
        "policy-boost",
        &[("sys/devices/system/cpu/cpu0/cpufreq/boost", "1\n")],
    );
    assert_eq!(Sysfs::at(&root).boost(), Some(true));
}

#[test]
fn hypervisor_from_sys_hypervisor_or_the_cpu_flag() {
    let xen = tree(
        "xen",
        &[
            ("sys/hypervisor/type", "xen\n"),
            ("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme\n"),
        ],
    );
    assert_eq!(Sysfs::at(&xen).hypervisor(), Some(true));
    // A flag that merely contains the word is not the flag.
    let metal = tree(
        "metal",
        &[(
            "proc/cpuinfo",
            "processor\t: 0\nflags\t\t: fpu not_hypervisor\n",
        )],
    );
    assert_eq!(Sysfs::at(&metal).hypervisor(), Some(false));
    // arm64 lists `Features`, not `flags`: unknown.
    let arm = tree(
        "arm64",
        &[("proc/cpuinfo", "processor\t: 0\nFeatures\t: fp asimd\n")],
    );
    assert_eq!(Sysfs::at(&arm).hypervisor(), None);
}

#[test]
fn without_an_online_list_the_cpuinfo_processors_are_counted() {
    let root = tree(
        "no-online",
        &[(
            "proc/cpuinfo",
            "processor\t: 0\nmodel name\t: X\n\nprocessor\t: 1\nmodel name\t: X\n\n",
        )],
    );
    assert_eq!(Sysfs::at(&root).online_cpus(), Some(2));
}

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
        }
    );
    assert_eq!(
        messages(&warnings[1..]),
        [GOVERNOR_POWERSAVE, TURBO, LOAD_5_ON_4, ASLR_2]
    );
    assert_eq!(warnings.iter().filter(|w| w.loud).count(), 1);
}

#[test]
fn the_build_warning_names_what_is_wrong_with_the_build() {
    let build = |debug_assertions: bool, opt_level: &str| {
        let build = Build {
            debug_assertions,
            opt_level: opt_level.to_string(),
            profile: "custom".to_string(),
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

// ---------------------------------------------------------------------------
// This machine, and documents
// ---------------------------------------------------------------------------

fn read(path: &str) -> Option<String> {
    fs::read_to_string(path)
        .ok()
        .map(|text| text.trim().to_string())
}

#[test]
fn the_real_capture_agrees_with_the_files() {
    let environment = Environment::capture();
    let cores = environment.logical_cores.expect("cores are always known");
    assert!(cores >= 1);
    assert_eq!(
        cores,
        std::thread::available_parallelism().unwrap().get(),
        "the cores this process may use"
    );
    // The test binary is built with the test profile, and so is the harness.
    assert_eq!(environment.build.debug_assertions, cfg!(debug_assertions));
    assert_eq!(environment.build, Build::current());
    assert!(!environment.build.opt_level.is_empty());
    if !cfg!(target_os = "linux") {
        return;
    }
    assert_eq!(environment.os_release, read("/proc/sys/kernel/osrelease"));
    assert_eq!(
        environment.aslr,
        read("/proc/sys/kernel/randomize_va_space").and_then(|t| t.parse().ok())
    );
    assert_eq!(
        environment.perf_event_paranoid,
        read("/proc/sys/kernel/perf_event_paranoid").and_then(|t| t.parse().ok())
    );
    let [one, five, fifteen] = environment.load_average.expect("Linux has /proc/loadavg");
    assert!([one, five, fifteen]
        .iter()
        .all(|l| l.is_finite() && *l >= 0.0));
    let cpuinfo = read("/proc/cpuinfo").unwrap_or_default();
    let flagged = cpuinfo
        .lines()
        .find(|line| line.starts_with("flags"))
        .map(|line| line.split_whitespace().any(|flag| flag == "hypervisor"));
    let expected = if Path::new("/sys/hypervisor/type").exists() {
        Some(true)
    } else {
        flagged
    };
    assert_eq!(environment.hypervisor, expected);
    let has_governor = Path::new("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").exists();
    assert_eq!(environment.governor.is_some(), has_governor);
    if Path::new("/sys/devices/system/cpu/cpu0/cache").exists() {
        assert!(environment.last_level_cache_bytes.unwrap() >= 1024);
    }
}

#[test]
fn an_environment_reads_back_equal() {
    let environment = released_on(&fixture("laptop"));
    let text = serde_json::to_string(&environment).unwrap();
    let back: Environment = serde_json::from_str(&text).unwrap();
    assert_eq!(back, environment);
}

#[test]
fn an_environment_from_before_these_fields_reads_with_them_unknown() {
    let old = r#"{
        "timestamp": "2026-11-21T09:50:00Z",
        "harness_version": "0.1.0",
        "rustc_version": "rustc 1.95.0 (59807616e 2026-04-14)",
        "target": "x86_64-unknown-linux-gnu",
        "os": "linux",
        "os_release": "6.8.0-1012-gcp",
        "cpu_model": "Intel(R) Xeon(R) CPU @ 2.60GHz",
        "logical_cores": 2,
        "git_commit": null,
        "git_dirty": null
    }"#;
    let environment: Environment = serde_json::from_str(old).unwrap();
    assert_eq!(environment.build, Build::unknown());
    assert_eq!(environment.governor, None);
    assert_eq!(environment.boost, None);
    assert_eq!(environment.aslr, None);
    assert_eq!(environment.load_average, None);
    assert_eq!(environment.hypervisor, None);
    assert_eq!(environment.perf_event_paranoid, None);
    assert_eq!(environment.last_level_cache_bytes, None);
    assert_eq!(audit(&environment), []);
}
