//! The headline is the mean cost of a call, whatever the program's own
//! state does to it (issue 24): bodies whose every tenth call does ten
//! times the work, whose cost is random, that run in and out of the cache,
//! that grow a map or a vector, against the same bodies timed in a plain
//! loop over whole cycles of their state (`program_cost --truth NAME`);
//! and the notes of the same run name what each body does (issue 24:
//! notes fire by their evidence).

use std::ffi::OsStr;
use std::path::Path;

use bench_tests::{
    alone, program_cost_binary, quick_bench, read_json, run_with_env, scratch_dir, Alone, QUICK,
};

use crate::common::{fixture_binary, COOLING};

/// The bodies of `tests/benches/program_cost.rs` whose cost varies and
/// whose plain loop holds still: the headline within 10% of one loop
/// process after the run (ten runs here: 0.98-1.03x and 0.95-1.00x).
const VARYING: [&str; 2] = ["every_tenth_call_ten_times", "random_cost_per_call"];

/// The bodies whose plain loop does not hold still: page faults, which
/// the machine prices, moved one loop's map 83-202 ns a call from one
/// cycle of its inserts to the next, and six loop processes around one run
/// spread 0.72-1.39x of their mean (the map), 0.86-1.19x (the `Vec`, 48-53%
/// of its CPU time in the kernel) and 0.83-1.19x (cache phases), in 8 runs
/// here. So each is timed by loop processes before and after the run, and
/// its headline must hold the body's slow calls: at least half the lowest
/// loop's cost, at most twice the highest's. Within 10% of their span is
/// not asserted: the harness read 0.89-1.24x their mean in 10 runs here,
/// and a clean-clone CI run read the map at 111.1 ns and the `Vec` at 10.59
/// ns between loops of 72.1-79.9 and 8.6-8.9 ns. A loop in the same process
/// just before the harness's run is no steadier a truth: 10 runs so, the
/// map read 0.75-1.18x its loops and the `Vec` 1.02-1.24x; in 6 runs of
/// the two alone, every process's time equalled the mean cost of a call
/// over all its blocks to 0.1 ns (the map's cost a call moves with its
/// heap's history, not with the estimator). The estimator the issue replaced read these bodies at
/// 0.18-0.44x their loops. Issue 24's closing notes have the figures.
const MEMORY: [&str; 3] = ["cache_phases", "growing_map", "growing_vec"];

/// Loop processes per memory-bound body on each side of the run.
const BRACKET: usize = 2;

/// The fixed-cost body, whose truth is its undisturbed cost (from short
/// runs of its calls), as a steady body's headline is: the headline must
/// be within 1% of it (3% in a second sitting, on a busy machine), and how
/// far it is off is how far the machine moved between the run and the
/// loops, which the other bodies' tolerance allows for.
const REFERENCE: &str = "reference";

/// The truth of `name`, in ns: its mean cost of a call in a plain loop
/// (the reference's: its undisturbed cost).
fn truth(alone: &Alone, binary: &Path, name: &str) -> f64 {
    let run = alone.run(binary, &["--truth", name]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.stdout.trim().parse().expect("the truth is a number")
}

/// What the notes say of each body: the kind that must fire on it; on the
/// fixed-cost reference neither of those that name the program's own
/// variation (`levels`, `speed_changed`; `high_spread` may be the
/// machine's). In 13 runs of this file here each kind fired on its body
/// 13 times, and no note at all on the reference; `cold_after_pause` on
/// `cache_phases` in 20 runs of 20 (its sign test's z 6.2-12.7, against
/// the threshold's 4).
const SCRIPTED_NOTES: [(&str, &str); 6] = [
    ("every_tenth_call_ten_times", "levels"),
    ("random_cost_per_call", "high_spread"),
    ("cache_phases", "levels"),
    ("cache_phases", "cold_after_pause"),
    ("growing_map", "speed_changed"),
    ("growing_vec", "speed_changed"),
];

/// One sitting's figures: how far the reference moved between the
/// harness's run and the plain loops, each varying body's headline and
/// truth in ns, each memory-bound body's row and its loops, and each
/// body's note kinds.
struct Sitting {
    machine: f64,
    varying: Vec<(&'static str, f64, f64)>,
    memory: Vec<Bracketed>,
    notes: Vec<(String, Vec<String>)>,
}

/// A memory-bound body's row, in ns, and its plain loops around the run.
struct Bracketed {
    name: &'static str,
    headline: f64,
    interval: (f64, f64),
    not_precise: bool,
    loops: Vec<f64>,
}

impl Bracketed {
    /// The lowest and highest of its loops.
    fn span(&self) -> (f64, f64) {
        let low = self.loops.iter().copied().fold(f64::INFINITY, f64::min);
        (low, self.loops.iter().copied().fold(0.0, f64::max))
    }

    /// Whether the headline holds the body's slow calls, as far as its
    /// loops know them: at least half the lowest loop's cost, at most twice
    /// the highest's.
    fn holds(&self) -> bool {
        let (low, high) = self.span();
        0.5 * low <= self.headline && self.headline <= 2.0 * high
    }
}

impl std::fmt::Display for Bracketed {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let (from, to) = self.interval;
        let loops: Vec<String> = self.loops.iter().map(|ns| format!("{ns:.1}")).collect();
        write!(
            f,
            "{}: {:.2} ns [{from:.1}, {to:.1}]{} against loops of {} ns",
            self.name,
            self.headline,
            if self.not_precise { " not precise" } else { "" },
            loops.join(", ")
        )
    }
}

/// One sitting, with nothing else of the tests running from the first
/// plain loop to the last.
fn sitting(dir: &Path) -> Sitting {
    // Built first: a build waits for the machine too.
    let binary = program_cost_binary();
    let alone = alone();
    let mut loops: Vec<Vec<f64>> = vec![Vec::new(); MEMORY.len()];
    let bracket = |loops: &mut Vec<Vec<f64>>| {
        for _ in 0..BRACKET {
            for (name, times) in MEMORY.iter().zip(loops.iter_mut()) {
                times.push(truth(&alone, binary, name));
            }
        }
    };
    bracket(&mut loops);
    // The lower of a reference loop before the run and one after: a slow
    // spell of the machine's can outlast one (one such loop here read 832
    // ns where the others read 816-820).
    let reference_before = truth(&alone, binary, REFERENCE);
    let json = dir.join("run.json");
    let run = alone.run(
        binary,
        &[
            "--bench",
            "--no-history",
            "--no-report",
            "-q",
            "--format",
            "json",
            "-o",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let document = read_json(&json);
    let row = |name: &str| {
        let mut rows = document["benchmarks"].as_array().unwrap().iter();
        let found = rows.find(|b| b["name"] == name);
        found.unwrap_or_else(|| panic!("no row for {name}"))["measurement"].clone()
    };
    let ns = |m: &serde_json::Value, key: &str| m["estimate"][key].as_f64().unwrap();
    let headline = |name: &str| ns(&row(name), "time_ns");
    let undisturbed = reference_before.min(truth(&alone, binary, REFERENCE));
    let machine = (headline(REFERENCE) / undisturbed - 1.0).abs();
    let varying = VARYING.map(|name| (name, headline(name), truth(&alone, binary, name)));
    bracket(&mut loops);
    let memory = MEMORY.iter().zip(loops).map(|(&name, loops)| {
        let m = row(name);
        let kinds = m["note_kinds"].as_array().unwrap();
        Bracketed {
            name,
            headline: ns(&m, "time_ns"),
            interval: (ns(&m, "ci_low_ns"), ns(&m, "ci_high_ns")),
            not_precise: kinds.contains(&"not_precise".into()),
            loops,
        }
    });
    let notes = document["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let kinds = b["measurement"]["note_kinds"].as_array();
            let kinds = kinds.into_iter().flatten().filter_map(|k| k.as_str());
            (
                b["name"].as_str().unwrap().to_string(),
                kinds.map(String::from).collect(),
            )
        })
        .collect();
    Sitting {
        machine,
        varying: varying.to_vec(),
        memory: memory.collect(),
        notes,
    }
}

#[test]
fn the_headline_is_the_mean_cost_of_a_call_whatever_the_programs_state() {
    // The fixed-cost reference within 1% of its undisturbed cost (against
    // a long loop's mean, which holds the machine's interrupts, it read
    // 1.0-2.2% low). Ten sittings here read it 0.1-0.7% off in eight, and
    // 1.2% and 1.9% in two: the machine slow for a whole sitting, its loops
    // at 838-848 ns, and one process of the run slow. Then the sitting is
    // measured again, and the second is held to 3%, as a loaded machine
    // allows.
    let dir = scratch_dir("program-cost");
    let mut sat = sitting(&dir);
    let mut allowed = 0.01;
    if sat.machine >= allowed {
        eprintln!("the reference moved {:.3}: measuring again", sat.machine);
        sat = sitting(&dir);
        allowed = 0.03;
    }
    let Sitting {
        machine,
        varying,
        memory,
        notes,
    } = sat;
    assert!(
        machine < allowed,
        "the reference moved {machine:.3} twice: the machine is too busy"
    );
    let report: Vec<String> = (varying.iter())
        .map(|(name, estimate, truth)| format!("{name}: {estimate:.2} ns against {truth:.2} ns"))
        .chain(memory.iter().map(ToString::to_string))
        .collect();
    eprintln!("the reference moved {machine:.3}\n{}", report.join("\n"));
    for (name, estimate, truth) in &varying {
        let off = (estimate / truth - 1.0).abs();
        assert!(
            off <= 0.10 + machine,
            "{name}: the headline is {estimate:.2} ns, a plain loop {truth:.2} ns ({:+.1}%)\n{}",
            100.0 * (estimate / truth - 1.0),
            report.join("\n")
        );
    }
    for body in &memory {
        assert!(body.holds(), "{body}\n{}", report.join("\n"));
    }
    // The notes name what the program does, where it does it.
    let kinds = |name: &str| {
        let found = notes.iter().find(|(n, _)| n == name);
        found.map(|(_, kinds)| kinds.clone()).unwrap_or_default()
    };
    for (name, kind) in SCRIPTED_NOTES {
        assert!(
            kinds(name).iter().any(|k| k == kind),
            "{name}: no `{kind}` note, only {:?}",
            kinds(name)
        );
    }
    let on_reference = kinds(REFERENCE);
    for (_, kind) in SCRIPTED_NOTES {
        if kind != "high_spread" {
            assert!(
                !on_reference.contains(&kind.to_string()),
                "the fixed-cost reference got `{kind}`: {on_reference:?}"
            );
        }
    }
}

/// The harness measures each body on a thread of its own, where glibc
/// would give it an allocator arena of its own: a map replaced every 2^18
/// inserts read 0.60-0.68x its plain loop in `main` then. The fixture's body
/// fails when its memory is not from the main thread's arena: in the run's
/// processes and in this one; and a user's own choice of arenas holds.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn a_body_allocates_from_the_main_threads_arena_unless_the_user_says() {
    let body = ["--ignored", "--exact", "allocates_from_the_main_arena"];
    for forks in ["3", "0"] {
        let out = quick_bench(fixture_binary(), &[&body[..], &["--forks", forks]].concat());
        assert_eq!(out.code, Some(0), "--forks {forks}: {out:?}");
        assert!(out.stdout.contains("1 measured, 0 failed"), "{out:?}");
    }
    // A bench target whose `main` started threads that allocate before the
    // harness's: its processes start on the one arena all the same (in
    // this process, under --forks 0, it is too late).
    let first = [("BENCH_FIXTURE_THREADS_FIRST", OsStr::new("1"))];
    let out = run_with_env(fixture_binary(), &[QUICK, &body[..]].concat(), &first);
    assert_eq!(out.code, Some(0), "{out:?}");
    let chosen = [("MALLOC_ARENA_MAX", OsStr::new("8"))];
    let out = run_with_env(fixture_binary(), &[QUICK, &body[..]].concat(), &chosen);
    assert_ne!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr
            .contains("allocated outside the main thread's arena")
            || out
                .stdout
                .contains("allocated outside the main thread's arena"),
        "{out:?}"
    );
}

/// A body that runs threads of its own shares the main arena with them
/// under the harness, where a program's threads would each have one: the
/// row says so, from the CPU time other threads spent beside it; a body
/// of one thread is not told; and where the user chose the arenas, there
/// is nothing to say.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn a_body_running_threads_is_told_they_share_the_arena() {
    let kinds = |names: &[&str], env: &[(&str, &OsStr)]| {
        let args = [&["--ignored", "--exact"], names].concat();
        let all = [QUICK, &args[..], &["--format", "json", "-q"]].concat();
        let out = run_with_env(fixture_binary(), &all, env);
        assert_eq!(out.code, Some(0), "{out:?}");
        let document: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        let benchmarks = document["benchmarks"].as_array().unwrap().iter();
        let noted = |b: &serde_json::Value| {
            b["measurement"]["note_kinds"]
                .as_array()
                .unwrap()
                .contains(&serde_json::json!("shared_arena"))
        };
        benchmarks
            .map(|b| (b["name"].as_str().unwrap().to_string(), noted(b)))
            .collect::<Vec<_>>()
    };
    // Each in a run of its own: the threads' exits cannot fall into the
    // other's slices.
    let threads = ["runs_two_threads"];
    let alone = ["allocates_from_the_main_arena"];
    assert_eq!(kinds(&threads, &[]), [(threads[0].to_string(), true)]);
    assert_eq!(kinds(&alone, &[]), [(alone[0].to_string(), false)]);
    let chosen = [("MALLOC_ARENA_MAX", OsStr::new("8"))];
    assert_eq!(kinds(&threads, &chosen), [(threads[0].to_string(), false)]);
}

/// A body whose state cools while the others run (the fixture's
/// `cools_between_slices`: ten times the work for a quarter of each pause,
/// as a cache re-warms): interleaved, its slices cost more the longer it
/// was paused before them. The row says so and is timed again in one
/// stretch per process, warm, as a loop running it alone reads it (here:
/// its time under `--schedule sequential`); its steady neighbours are not
/// told, and a sequential run, with no pauses, has nothing to tell.
#[test]
fn a_body_that_cools_between_its_slices_is_told_and_timed_warm() {
    let names = &COOLING[3..6];
    let measure = |schedule: &str| {
        let args = [
            &COOLING[..],
            &["--schedule", schedule],
            &["--no-history", "--format", "json", "-q"],
        ]
        .concat();
        let out = bench_tests::run(fixture_binary(), &args);
        assert_eq!(out.code, Some(0), "{out:?}");
        let document: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
        let rows = document["benchmarks"].as_array().unwrap().iter().map(|b| {
            let m = &b["measurement"];
            let cooled = m["note_kinds"]
                .as_array()
                .unwrap()
                .contains(&"cold_after_pause".into());
            let time = m["estimate"]["time_ns"].as_f64().unwrap();
            (b["name"].as_str().unwrap().to_string(), (cooled, time))
        });
        (
            rows.collect::<std::collections::BTreeMap<_, _>>(),
            out.stderr,
        )
    };
    let (warm, _) = measure("sequential");
    let (interleaved, stderr) = cooled(
        || measure("interleaved"),
        |(rows, _)| rows["cools_between_slices"].0,
    );
    for &name in names {
        let cooled = name == "cools_between_slices";
        assert_eq!(interleaved[name].0, cooled, "{name}: {interleaved:?}");
        assert!(!warm[name].0, "{name}, sequential: {warm:?}");
    }
    assert!(
        stderr.contains("measuring again in one stretch, warm: cools_between_slices"),
        "{stderr}"
    );
    // Its slices after a 4 ms pause cost about 3x a warm call, after 8 ms 8x:
    // timed again warm, the row reads as the sequential run does.
    let (time, truth) = (
        interleaved["cools_between_slices"].1,
        warm["cools_between_slices"].1,
    );
    assert!(
        (time / truth - 1.0).abs() < 0.2,
        "timed again warm: {time:.1} ns; sequentially: {truth:.1} ns"
    );
}

/// A body that fails in its warm pass (the fixture's set-up, after the
/// first pass's three processes) fails its row and the run, as in the
/// first pass; its neighbours keep their figures.
#[test]
fn a_body_that_fails_in_its_warm_pass_fails_its_row() {
    let dir = scratch_dir("warm-fails");
    let setups = dir.join("setups");
    let env = [
        ("BENCH_FIXTURE_SETUPS", setups.as_os_str()),
        ("BENCH_FIXTURE_FAIL_AFTER", OsStr::new("3")),
    ];
    // No process for precision beyond the three.
    let args = [&COOLING[..], &["--precision", "0", "--no-history"]].concat();
    let again = "measuring again in one stretch, warm: cools_between_slices";
    let out = cooled(
        || {
            let _ = std::fs::remove_file(&setups);
            run_with_env(fixture_binary(), &args, &env)
        },
        |out| out.stderr.contains(again),
    );
    assert!(
        out.stderr
            .contains("measuring again in one stretch, warm: cools_between_slices"),
        "{out:?}"
    );
    assert_eq!(out.code, Some(101), "{out:?}");
    assert!(
        out.stdout.contains("set up again: fails on purpose"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("2 measured, 1 failed"),
        "{}",
        out.stdout
    );
}

/// A baseline's rows measured one way and this run's the other (in one
/// stretch: the sequential schedule, or the warm pass; else interleaved)
/// are named, since their change holds the method's, and get no verdict
/// beyond unclear; the document says which rows the warm pass timed, with
/// their interleaved time.
#[test]
fn rows_measured_one_way_here_and_another_in_the_baseline_are_named() {
    let target = scratch_dir("warm-compare");
    let env = [("CARGO_TARGET_DIR", target.as_os_str())];
    let json = target.join("saved.json");
    let save = [
        &COOLING[..],
        &["--save-baseline", "warm", "--format", "json"],
        &["-o", json.to_str().unwrap()],
    ]
    .concat();
    let history = target.join("bench-harness/history/fixture.jsonl");
    let document = cooled(
        || {
            let _ = std::fs::remove_file(&history);
            let out = run_with_env(fixture_binary(), &save, &env);
            assert_eq!(out.code, Some(0), "{out:?}");
            read_json(&json)
        },
        |document| {
            let rows = document["benchmarks"].as_array().unwrap().iter();
            (rows.filter(|b| b["name"] == "cools_between_slices"))
                .any(|b| b["measurement"]["interleaved_ns"].is_number())
        },
    );
    let interleaved = |name: &str| {
        let mut rows = document["benchmarks"].as_array().unwrap().iter();
        let row = rows.find(|b| b["name"] == name).unwrap();
        row["measurement"]["interleaved_ns"].as_f64()
    };
    let cold = interleaved("cools_between_slices").expect("timed again");
    assert!(cold > 0.0, "{cold}");
    assert_eq!(interleaved("spins"), None);
    // Sequential: the cooling body in one stretch as in the baseline, the
    // other two not.
    let compare = [
        &COOLING[..],
        &["--schedule", "sequential", "--baseline", "warm"],
    ]
    .concat();
    let out = run_with_env(fixture_binary(), &compare, &env);
    assert_eq!(out.code, Some(0), "{out:?}");
    // In the history each row's records are in the series of the way it
    // was measured: the cooling body in one stretch both times, the
    // others only in the sequential run.
    let history = std::fs::read_to_string(&history).unwrap();
    let configs = |name: &str| -> Vec<bool> {
        let records = history
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap());
        let records = records.filter(|r| r["name"] == name);
        records
            .map(|r| r["config"].as_str().unwrap().contains(" one-stretch"))
            .collect()
    };
    assert_eq!(configs("cools_between_slices"), [true, true], "{history}");
    assert_eq!(configs("spins"), [false, true], "{history}");
    let both = "passes and 1 more measured in one stretch in one run and interleaved in the \
                other (baseline 'warm')";
    assert!(out.stderr.contains(both), "{}", out.stderr);
    assert!(
        !out.stderr.contains("cools_between_slices measured in one"),
        "{}",
        out.stderr
    );
    // Measured two ways: shown, and unclear whatever the interval says;
    // the cooling body, in one stretch both times, is compared as usual.
    let row = |out: &bench_tests::Run, name: &str| -> String {
        let mut lines = out
            .stdout
            .lines()
            .skip_while(|l| !l.starts_with("compared with"));
        let found = lines.find(|l| l.trim_start().starts_with(name));
        found
            .unwrap_or_else(|| panic!("{name} in {}", out.stdout))
            .to_string()
    };
    for name in ["spins", "passes"] {
        let two = row(&out, name);
        assert!(two.ends_with("unclear, measured two ways"), "{two}");
    }
    let cooling = row(&out, "cools_between_slices");
    assert!(!cooling.contains("measured two ways"), "{cooling}");
    // Cold against warm: every row; no regression for the gate; CSV's
    // last column says why.
    let csv = target.join("cold.csv");
    let cold = [
        &["--bench", "--exact", "spins", "--quick", "--cold"][..],
        &["--no-history", "--baseline", "warm", "--fail-on-regression"],
        &["--format", "csv", "-o", csv.to_str().unwrap()],
    ]
    .concat();
    let out = run_with_env(fixture_binary(), &cold, &env);
    assert_eq!(out.code, Some(0), "{out:?}");
    let one = "spins measured with the caches evicted (--cold) in one run and not in the other";
    assert!(out.stderr.contains(one), "{}", out.stderr);
    let spins = row(&out, "spins");
    assert!(spins.ends_with("unclear, measured two ways"), "{spins}");
    let csv = std::fs::read_to_string(&csv).unwrap();
    let spins = csv
        .lines()
        .find(|l| l.starts_with("spins,"))
        .expect("a CSV row");
    assert!(spins.ends_with(",unclear,complete,true"), "{csv}");
}

/// `run`, up to three times until `fired` says the cooling body got its
/// `cold_after_pause` note: its sign test needs pauses the machine does not
/// blur, and beside other work (load 3.6, the fixture on the CPU for half
/// its wall time) it missed. Quiet, it fired in every run here.
fn cooled<T>(mut run: impl FnMut() -> T, fired: impl Fn(&T) -> bool) -> T {
    for attempt in 1..3 {
        let out = run();
        if fired(&out) {
            return out;
        }
        eprintln!("no cold_after_pause note in run {attempt}: measuring again");
    }
    run()
}
