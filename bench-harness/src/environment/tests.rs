//! The environment as read from `/proc` and `/sys`: each fact parsed from
//! fixture copies of real machines' files (tests/fixtures/, described in
//! its README), and from small trees written here for the odd cases:
//! missing files are `None`, never an error; trailing newlines, cache sizes
//! in `K` and `M`, mixed governors. The real capture on this machine agrees
//! with the files it came from. Also the dates and the small parsers the
//! capture is made of.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use super::*;
use crate::audit::{audit, header};
use crate::testing::machines::released_on;
use crate::testing::{fixture, Scratch};

/// A `/` written for one test: `files` are (path, contents).
fn tree(name: &str, files: &[(&str, &str)]) -> Scratch {
    let root = Scratch::new(&format!("environment-{name}"));
    for (path, contents) in files {
        let path = root.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
    root
}

/// A checkout whose `core.fsmonitor` hook writes a marker file: reading its
/// commit and state runs no hook and leaves `.git/index` as it was.
#[test]
fn git_runs_no_repository_hook_and_writes_no_index() {
    let scratch = Scratch::new("git-hooks");
    let dir = scratch.path().to_path_buf();
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(&dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", &dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !git(&["init", "-q"]) {
        eprintln!("skipped: git is not available");
        return;
    }
    std::fs::write(dir.join("tracked"), "one").unwrap();
    assert!(git(&["add", "tracked"]));
    assert!(git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qm",
        "init"
    ]));
    let hook = dir.join("hook.sh");
    let marker = dir.join("marker");
    std::fs::write(
        &hook,
        format!("#!/bin/sh\necho ran >> '{}'\nexit 1\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    assert!(git(&["config", "core.fsmonitor", hook.to_str().unwrap()]));
    // A tracked file rewritten with the same size: its stat data is stale,
    // which `git status` refreshes and writes back unless told not to.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(dir.join("tracked"), "two").unwrap();
    let index = dir.join(".git/index");
    let before = (
        std::fs::read(&index).unwrap(),
        std::fs::metadata(&index).unwrap().modified().unwrap(),
    );

    let commit = git_commit(&dir).expect("a commit");
    assert_eq!(commit.len(), 40);
    assert_eq!(git_dirty(&dir), Some(true));

    assert!(!marker.exists(), "the fsmonitor hook ran");
    let after = (
        std::fs::read(&index).unwrap(),
        std::fs::metadata(&index).unwrap().modified().unwrap(),
    );
    assert!(before == after, ".git/index was rewritten");
}

// ---------------------------------------------------------------------------
// Dates, CPU lists and cache sizes
// ---------------------------------------------------------------------------

/// `HEAD` read from `.git` itself agrees with git: on a branch with a loose
/// ref, after `git pack-refs` moves it to `packed-refs`, detached, and in a
/// linked worktree (a `.git` file, refs in the common directory).
#[test]
fn head_read_from_the_repository_agrees_with_git() {
    let scratch = Scratch::new("git-head");
    let dir = scratch.path().join("main");
    fs::create_dir_all(&dir).unwrap();
    let git = |at: &Path, args: &[&str]| -> Option<String> {
        let output = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(at)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", at)
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        Some(String::from_utf8(output.stdout).unwrap().trim().to_string())
    };
    if git(&dir, &["init", "-q"]).is_none() {
        eprintln!("skipped: git is not available");
        return;
    }
    fs::write(dir.join("f"), "1").unwrap();
    git(&dir, &["add", "f"]).unwrap();
    git(&dir, &["commit", "-qm", "one"]).unwrap();
    let head = || git(&dir, &["rev-parse", "HEAD"]).unwrap();
    assert_eq!(read_head(&dir), Some(head()), "loose ref");
    fs::write(dir.join("f"), "2").unwrap();
    git(&dir, &["commit", "-qam", "two"]).unwrap();
    git(&dir, &["pack-refs", "--all"]).unwrap();
    assert_eq!(read_head(&dir.join("sub/dir")), Some(head()), "packed");
    let worktree = scratch.path().join("linked");
    git(
        &dir,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "side",
            worktree.to_str().unwrap(),
        ],
    )
    .unwrap();
    fs::write(worktree.join("f"), "3").unwrap();
    git(&worktree, &["commit", "-qam", "three"]).unwrap();
    let side = git(&worktree, &["rev-parse", "HEAD"]).unwrap();
    assert_ne!(side, head());
    assert_eq!(read_head(&worktree), Some(side), "worktree");
    git(&dir, &["checkout", "-q", "--detach", "HEAD~1"]).unwrap();
    assert_eq!(read_head(&dir), Some(head()), "detached");
}

#[test]
fn known_dates() {
    assert_eq!(format_unix_seconds(0), "1970-01-01T00:00:00Z");
    assert_eq!(format_unix_seconds(1_795_254_600), "2026-11-21T09:50:00Z");
    assert_eq!(format_unix_seconds(951_782_400), "2000-02-29T00:00:00Z");
    assert_eq!(format_unix_seconds(951_782_399), "2000-02-28T23:59:59Z");
    assert_eq!(format_unix_seconds(1_000_000_000), "2001-09-09T01:46:40Z");
    // 2100 is not a leap year: February 28th is followed by March 1st.
    assert_eq!(format_unix_seconds(4_107_542_400), "2100-03-01T00:00:00Z");
    assert_eq!(format_unix_seconds(4_107_542_399), "2100-02-28T23:59:59Z");
    assert_eq!(format_unix_seconds(-1), "1969-12-31T23:59:59Z");
    assert_eq!(format_unix_seconds(-11_676_096_000), "1600-01-01T00:00:00Z");
}

#[test]
fn consecutive_days_advance_the_date_by_one() {
    let mut previous = civil_from_days(-800_000);
    for days in -799_999..800_000 {
        let (y, m, d) = civil_from_days(days);
        let (py, pm, pd) = previous;
        let next_day = (y, m) == (py, pm) && d == pd + 1;
        let next_month = y == py && m == pm + 1 && d == 1 && pd >= 28;
        let next_year = y == py + 1 && (m, d, pm, pd) == (1, 1, 12, 31);
        assert!(
            next_day || next_month || next_year,
            "{previous:?} → {y}-{m}-{d}"
        );
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if next_month {
            let length = match pm {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            assert_eq!(pd, length, "{previous:?}");
        }
        previous = (y, m, d);
    }
}

#[test]
fn system_times_before_the_epoch_are_clamped() {
    let before = UNIX_EPOCH - Duration::from_secs(10);
    assert_eq!(utc_timestamp(before), "1970-01-01T00:00:00Z");
    let later = UNIX_EPOCH + Duration::from_millis(1_795_254_600_999);
    assert_eq!(utc_timestamp(later), "2026-11-21T09:50:00Z");
}

#[test]
fn cpu_model_is_the_first_model_name() {
    let text = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.60GHz\n\nprocessor\t: 1\nmodel name\t: other\n";
    assert_eq!(
        cpu_model(text).as_deref(),
        Some("Intel(R) Xeon(R) CPU @ 2.60GHz")
    );
    assert_eq!(cpu_model("processor\t: 0\nBogoMIPS\t: 50.00\n"), None);
}

#[test]
fn cpu_lists_count_ranges_and_single_cpus() {
    assert_eq!(cpu_list_len("0"), Some(1));
    assert_eq!(cpu_list_len("0-3"), Some(4));
    assert_eq!(cpu_list_len("0-3,6,8-9"), Some(7));
    assert_eq!(cpu_list_len("3-1"), None);
    assert_eq!(cpu_list_len("zero"), None);
}

#[test]
fn cache_sizes_in_every_unit() {
    assert_eq!(cache_size_bytes("32K"), Some(32 * 1024));
    assert_eq!(cache_size_bytes("2048K"), Some(2 << 20));
    assert_eq!(cache_size_bytes("8M"), Some(8 << 20));
    assert_eq!(cache_size_bytes("1G"), Some(1 << 30));
    assert_eq!(cache_size_bytes("512"), Some(512));
    assert_eq!(cache_size_bytes("32 KB"), Some(32 * 1024));
    assert_eq!(cache_size_bytes("K"), None);
    assert_eq!(cache_size_bytes("32X"), None);
    assert_eq!(cache_size_bytes("99999999999999999999G"), None);
}

#[test]
fn capture_never_fails_and_outside_a_checkout_has_no_commit() {
    let environment = Environment::capture();
    assert!(environment.timestamp.ends_with('Z'));
    assert_eq!(environment.harness_version, env!("CARGO_PKG_VERSION"));
    assert!(!environment.target.is_empty());
    assert_eq!(
        environment.git_dirty.is_some(),
        environment.git_commit.is_some()
    );
    // No such directory: git cannot run there, and that is None, not an error.
    assert_eq!(git_commit(Path::new("/nonexistent/directory")), None);
    assert_eq!(git_dirty(Path::new("/nonexistent/directory")), None);
}

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
    let machine = Sysfs::at(root.path());
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
    assert_eq!(
        Sysfs::at(root.path()).last_level_cache_bytes(),
        Some(8 << 20)
    );

    let l2_only = tree("l2-only", &files[..9]);
    assert_eq!(
        Sysfs::at(l2_only.path()).last_level_cache_bytes(),
        Some(2 << 20)
    );

    // An instruction cache is not where data lives.
    let l1_only = tree("l1-instruction", &files[3..6]);
    assert_eq!(Sysfs::at(l1_only.path()).last_level_cache_bytes(), None);
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
    let machine = Sysfs::at(root.path());
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
        Sysfs::at(root.path()).governor().as_deref(),
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
    assert_eq!(Sysfs::at(root.path()).boost(), Some(false));
    let root = tree(
        "no-turbo",
        &[("sys/devices/system/cpu/intel_pstate/no_turbo", "1\n")],
    );
    assert_eq!(Sysfs::at(root.path()).boost(), Some(false));
    let root = tree(
        "policy-boost",
        &[("sys/devices/system/cpu/cpu0/cpufreq/boost", "1\n")],
    );
    assert_eq!(Sysfs::at(root.path()).boost(), Some(true));
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
    assert_eq!(Sysfs::at(xen.path()).hypervisor(), Some(true));
    // A flag that merely contains the word is not the flag.
    let metal = tree(
        "metal",
        &[(
            "proc/cpuinfo",
            "processor\t: 0\nflags\t\t: fpu not_hypervisor\n",
        )],
    );
    assert_eq!(Sysfs::at(metal.path()).hypervisor(), Some(false));
    // arm64 lists `Features`, not `flags`: unknown.
    let arm = tree(
        "arm64",
        &[("proc/cpuinfo", "processor\t: 0\nFeatures\t: fp asimd\n")],
    );
    assert_eq!(Sysfs::at(arm.path()).hypervisor(), None);
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
    assert_eq!(Sysfs::at(root.path()).online_cpus(), Some(2));
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
    let text = crate::json::to_string(&environment);
    let back: Environment = crate::json::from_str(&text).unwrap();
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
    let environment: Environment = crate::json::from_str(old).unwrap();
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
