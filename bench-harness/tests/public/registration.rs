//! What `#[benchmark]` registers: names, places, options, and a runner that
//! drives the body.

use std::sync::atomic::{AtomicU64, Ordering};

use bench_harness::__private::{
    inventory, BenchEntry, BenchOptions, BytesUnit, Clock, Driver, GroupEntry, Nanos, Settings,
};
use bench_harness::{benchmark, black_box, Bencher};

extern crate bench_harness as renamed;

static RETURNS_A_VALUE_CALLS: AtomicU64 = AtomicU64::new(0);
static TAKES_A_BENCHER_CALLS: AtomicU64 = AtomicU64::new(0);
static TAKES_A_BENCHER_SETUPS: AtomicU64 = AtomicU64::new(0);
static RETURNS_NOTHING_CALLS: AtomicU64 = AtomicU64::new(0);
/// Held by the tests that call the counted bodies, so one does not count
/// the other's calls (libtest runs them on parallel threads).
static COUNTING: std::sync::Mutex<()> = std::sync::Mutex::new(());

const RETURNS_A_VALUE_LINE: u32 = line!() + 2;
#[benchmark]
fn returns_a_value() -> u64 {
    RETURNS_A_VALUE_CALLS.fetch_add(1, Ordering::SeqCst);
    black_box(20) * 2
}

const TAKES_A_BENCHER_LINE: u32 = line!() + 2;
#[benchmark(min_samples = 20)]
fn takes_a_bencher(b: &mut Bencher) {
    TAKES_A_BENCHER_SETUPS.fetch_add(1, Ordering::SeqCst);
    b.iter(|| TAKES_A_BENCHER_CALLS.fetch_add(1, Ordering::SeqCst))
}

// The line is the function name's, wherever the attribute is.
const RENAMED_LINE: u32 = line!() + 12;
#[benchmark(
    name = "custom_name",
    ignore,
    warm_up_time = 0.5,
    measure_time = 2,
    max_time = 10,
    min_samples = 3,
    group = "renamed",
    baseline,
    counters
)]
const fn renamed_with_every_option() {}

// The group's settings, under its members' own.
const GROUP_LINE: u32 = line!() + 1;
bench_harness::group!(
    name = "renamed",
    measure_time = 3,
    min_samples = 7,
    bytes_unit = "binary"
);

mod nested {
    use super::*;

    pub const INNER_LINE: u32 = line!() + 2;
    #[benchmark(crate = renamed, max_time = 1.5)]
    pub fn inner(b: &mut renamed::Bencher<'_>) {
        b.iter(|| RETURNS_NOTHING_CALLS.fetch_add(1, Ordering::SeqCst));
    }
}

/// Runs the routine once, with one iteration.
struct OneIteration;

impl Driver for OneIteration {
    fn drive(&mut self, routine: &mut (dyn FnMut(u64) -> Nanos + '_)) {
        routine(1);
    }
}

fn registered() -> Vec<&'static BenchEntry> {
    let mut entries: Vec<_> = inventory::iter::<BenchEntry>
        .into_iter()
        .filter(|entry| entry.module_path.starts_with(module_path!()))
        .collect();
    entries.sort_by_key(|entry| entry.full_name());
    entries
}

fn entry(full_name: &str) -> &'static BenchEntry {
    registered()
        .into_iter()
        .find(|entry| entry.full_name() == full_name)
        .unwrap_or_else(|| panic!("no benchmark named {full_name}"))
}

#[test]
fn every_benchmark_is_registered_once_under_its_full_name() {
    let names: Vec<String> = registered().iter().map(|e| e.full_name()).collect();
    assert_eq!(
        names,
        [
            "registration::nested::inner",
            "registration::returns_a_value",
            "registration::takes_a_bencher",
            // The group's name first, as criterion's `group/function`.
            "renamed/registration::custom_name",
        ]
    );
}

#[test]
fn entries_say_where_the_function_is() {
    let expected = [
        (
            "registration::returns_a_value",
            "returns_a_value",
            module_path!(),
            RETURNS_A_VALUE_LINE,
        ),
        (
            "registration::takes_a_bencher",
            "takes_a_bencher",
            module_path!(),
            TAKES_A_BENCHER_LINE,
        ),
        (
            "renamed/registration::custom_name",
            "custom_name",
            module_path!(),
            RENAMED_LINE,
        ),
        (
            "registration::nested::inner",
            "inner",
            concat!(module_path!(), "::nested"),
            nested::INNER_LINE,
        ),
    ];
    for (full_name, name, module_path, line) in expected {
        let entry = entry(full_name);
        assert_eq!(entry.name, name);
        assert_eq!(entry.module_path, module_path);
        assert_eq!(entry.file, file!());
        assert_eq!(entry.line, line, "line of {full_name}");
    }
    // The column of the function's name (1-based), which orders entries on
    // one line: `fn returns_a_value` and `    pub fn inner`.
    assert_eq!(entry("registration::returns_a_value").column, 4);
    assert_eq!(entry("registration::nested::inner").column, 12);
}

#[test]
fn options_are_registered_as_written() {
    assert_eq!(
        entry("registration::returns_a_value").options,
        BenchOptions::DEFAULT
    );
    assert_eq!(
        entry("registration::takes_a_bencher").options,
        BenchOptions {
            settings: Settings {
                min_samples: Some(20),
                ..Settings::NONE
            },
            ..BenchOptions::DEFAULT
        }
    );
    assert_eq!(
        entry("renamed/registration::custom_name").options,
        BenchOptions {
            ignore: true,
            group: Some("renamed"),
            baseline: true,
            settings: Settings {
                warm_up_time: Some(0.5),
                measure_time: Some(2.0),
                max_time: Some(10.0),
                min_samples: Some(3),
                counters: Some(true),
                ..Settings::NONE
            },
            ..BenchOptions::DEFAULT
        }
    );
    assert_eq!(
        entry("registration::nested::inner").options,
        BenchOptions {
            settings: Settings {
                max_time: Some(1.5),
                ..Settings::NONE
            },
            ..BenchOptions::DEFAULT
        }
    );
}

#[test]
fn running_an_entry_drives_its_body() {
    let _serial = COUNTING.lock().unwrap_or_else(|e| e.into_inner());
    let counters = [
        ("registration::returns_a_value", &RETURNS_A_VALUE_CALLS),
        ("registration::takes_a_bencher", &TAKES_A_BENCHER_CALLS),
        ("registration::nested::inner", &RETURNS_NOTHING_CALLS),
    ];
    for (full_name, calls) in counters {
        let before = calls.load(Ordering::SeqCst);
        let mut driver = OneIteration;
        let mut bencher = Bencher::new(&mut driver, Clock::os());
        entry(full_name).plain().run(&mut bencher);
        assert!(bencher.has_iterated(), "{full_name} called Bencher::iter");
        assert_eq!(
            calls.load(Ordering::SeqCst),
            before + 1,
            "{full_name} ran once"
        );
    }
    assert_eq!(TAKES_A_BENCHER_SETUPS.load(Ordering::SeqCst), 1);

    let mut driver = OneIteration;
    let mut bencher = Bencher::new(&mut driver, Clock::os());
    entry("renamed/registration::custom_name")
        .plain()
        .run(&mut bencher);
    assert!(bencher.has_iterated());
}

#[test]
fn the_function_stays_callable() {
    let _serial = COUNTING.lock().unwrap_or_else(|e| e.into_inner());
    assert_eq!(returns_a_value(), 40);
    renamed_with_every_option();
}

#[test]
fn a_group_registers_its_settings_under_its_members_own() {
    let group = inventory::iter::<GroupEntry>
        .into_iter()
        .find(|group| group.name == "renamed")
        .expect("group! registers the group");
    assert_eq!((group.file, group.line), (file!(), GROUP_LINE));
    assert_eq!(
        group.settings,
        Settings {
            measure_time: Some(3.0),
            min_samples: Some(7),
            bytes_unit: Some(BytesUnit::Binary),
            ..Settings::NONE
        }
    );
    // The member's attribute wins where it speaks; the group fills the rest.
    let merged = entry("renamed/registration::custom_name").settings();
    assert_eq!(merged.measure_time, Some(2.0));
    assert_eq!(merged.min_samples, Some(3));
    assert_eq!(merged.bytes_unit, Some(BytesUnit::Binary));
    // Outside the group, none of it.
    let outside = entry("registration::returns_a_value").settings();
    assert_eq!(outside.bytes_unit, None);
}
