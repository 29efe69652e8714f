//! The machine-readable outputs of a run compared with a saved baseline
//! that has an in-run A/B group: the fixture's `by_size` group over `args`
//! (`src/bin/fixture.rs`: `twice` does `once`'s work twice, and has a 4096
//! that `once` lacks). What CI reads: the verdicts in the JSON, the tables
//! in the Markdown, and the raw samples only when asked for.

use std::path::Path;

use bench_tests::{run_with_env, scratch_dir, Run, QUICK};
use serde_json::Value;

use crate::common::fixture_binary;

/// The `by_size` group with budgets long enough for its paired rounds,
/// baselines under `target`.
fn by_size(target: &Path, args: &[&str]) -> Run {
    fixture(
        target,
        &[&["--ignored", "by_size", "--measure-time", "0.2"], args].concat(),
    )
}

/// `once/16` of the `by_size` group alone.
fn once_16(target: &Path, args: &[&str]) -> Run {
    fixture(target, &[&["--ignored", "once/16"], args].concat())
}

/// The fixture with quick budgets, baselines under `target`.
fn fixture(target: &Path, args: &[&str]) -> Run {
    let mut all = QUICK.to_vec();
    all.extend_from_slice(args);
    run_with_env(
        fixture_binary(),
        &all,
        &[("CARGO_TARGET_DIR", target.as_os_str())],
    )
}

/// Bencher's published JSON Schema for BMF (bencher.dev/bmf.json), checked
/// rule by rule: an object of benchmarks (names matching `.+`), each an
/// object of measures (names matching `.+`), each an object with a number
/// `value` (required) and numbers `lower_value` and `upper_value`; and,
/// beyond the schema, no figure below zero (a time or a rate cannot be).
/// Returns what is wrong. (`.ci/run` validates the golden BMF files with a
/// JSON Schema validator too.)
pub(crate) fn bmf_violations(document: &Value) -> Vec<String> {
    let mut wrong = Vec::new();
    let Some(benchmarks) = document.as_object() else {
        return vec!["the document is not an object".into()];
    };
    for (name, measures) in benchmarks {
        let Some(measures) = measures.as_object().filter(|_| !name.is_empty()) else {
            wrong.push(format!("{name:?}: not a named object of measures"));
            continue;
        };
        for (measure, metric) in measures {
            let Some(metric) = metric.as_object().filter(|_| !measure.is_empty()) else {
                wrong.push(format!("{name}/{measure:?}: not a named object"));
                continue;
            };
            if !metric.get("value").is_some_and(Value::is_number) {
                wrong.push(format!("{name}/{measure}: no number `value`"));
            }
            for key in ["value", "lower_value", "upper_value"] {
                match metric.get(key) {
                    Some(v) if !v.is_number() => {
                        wrong.push(format!("{name}/{measure}: `{key}` is not a number"))
                    }
                    Some(v) if v.as_f64().unwrap() < 0.0 => {
                        wrong.push(format!("{name}/{measure}: `{key}` is negative: {v}"))
                    }
                    _ => {}
                }
            }
        }
    }
    wrong
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn names(document: &Value) -> Vec<&str> {
    document["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect()
}

#[test]
fn json_and_markdown_carry_the_baseline_comparison_and_the_ab_groups() {
    let target = scratch_dir("formats-verdicts");
    let saved = by_size(&target, &["--save-baseline", "main"]);
    assert_eq!(saved.code, Some(0), "{saved:?}");

    let results = target.join("results.json");
    let out = by_size(
        &target,
        &[
            "--baseline",
            "main",
            "--format",
            "json",
            "-o",
            results.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let document = json(&results);
    let benchmarks = names(&document);
    assert_eq!(benchmarks.len(), 5, "{benchmarks:?}");

    // Every benchmark against the baseline, with its figures and verdict.
    let comparison = &document["comparison"];
    assert_eq!(comparison["baseline"], "main", "{comparison}");
    assert!(comparison["baseline_timestamp"].is_string());
    assert_eq!(comparison["noise_threshold_percent"], 2.0);
    let threshold = comparison["threshold_percent"].as_f64().unwrap();
    assert!(threshold >= 2.0, "{comparison}");
    let machine = &comparison["machine_change"];
    assert!(machine["change"].is_f64(), "{comparison}");
    let compared = comparison["benchmarks"].as_array().unwrap();
    let compared_names: Vec<&str> = compared
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(compared_names, benchmarks);
    for b in compared {
        assert_eq!(b["status"], "compared", "{b}");
        let verdict = b["verdict"].as_str().unwrap();
        assert!(
            ["slower", "faster", "no difference", "unclear"].contains(&verdict),
            "{b}"
        );
        let (low, change, high) = (
            b["ci_low"].as_f64().unwrap(),
            b["change"].as_f64().unwrap(),
            b["ci_high"].as_f64().unwrap(),
        );
        assert!(low <= change && change <= high, "{b}");
        assert!((0.0..=1.0).contains(&b["p_welch"].as_f64().unwrap()), "{b}");
        // The change is the one between the two headlines written beside
        // it, the rows' times.
        let (old, new) = (b["old_ns"].as_f64().unwrap(), b["new_ns"].as_f64().unwrap());
        assert!((change - (new / old - 1.0)).abs() < 1e-12, "{b}");
    }

    // One A/B table per argument the baseline runs at: `twice` about 2×
    // `once`; `twice/4096` listed with no baseline to pair with.
    let groups = document["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{groups:?}");
    for (group, n) in groups.iter().zip(["16", "1024"]) {
        assert_eq!(group["group"], "by_size");
        assert_eq!(group["pairing"], "slices");
        let baseline = group["baseline"].as_str().unwrap();
        assert!(baseline.ends_with(&format!("once/{n}")), "{group}");
        let member = &group["members"][0];
        assert!(
            member["name"]
                .as_str()
                .unwrap()
                .ends_with(&format!("twice/{n}")),
            "{group}"
        );
        assert_eq!(member["status"], "compared", "{member}");
        let ratio = member["ratio"].as_f64().unwrap();
        assert!((1.4..3.0).contains(&ratio), "{member}");
        assert_eq!(member["verdict"], "slower", "{member}");
        assert!(member["rounds"].as_u64().unwrap() >= 2, "{member}");
        assert!(member["p_t"].as_f64().unwrap() < 0.05, "{member}");
    }
    let unpaired = groups[1]["members"].as_array().unwrap().last().unwrap();
    assert!(unpaired["name"].as_str().unwrap().ends_with("twice/4096"));
    assert_eq!(unpaired["status"], "not_compared");
    assert!(
        unpaired["reason"]
            .as_str()
            .unwrap()
            .starts_with("no baseline at this argument"),
        "{unpaired}"
    );

    // The JSON leaves the raw samples out unless asked; every figure stays.
    assert_eq!(document["raw_samples"], "none");
    for b in document["benchmarks"].as_array().unwrap() {
        let m = &b["measurement"];
        assert!(m.get("samples").is_none(), "{}", b["name"]);
        assert!(m["estimate"]["block_means_ns"].as_array().unwrap().len() >= 2);
        assert!(m["summary"]["n"].as_u64().unwrap() >= 2);
    }

    // The Markdown a pull request gets: the same verdicts counted first,
    // then the rows that changed, the rest folded.
    let out = by_size(&target, &["--baseline", "main", "--format", "markdown"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let markdown = &out.stdout;
    let first = markdown.lines().next().unwrap();
    assert!(first.starts_with("`fixture`: **"), "{markdown}");
    // (The threshold is this run's: the machine's change widens it.)
    assert!(
        first.contains("** against baseline `main` (threshold ±"),
        "{markdown}"
    );
    // `twice` is about twice `once` at each argument.
    assert!(
        first.contains("** in A/B group `by_size` (threshold ±1.00%)"),
        "{markdown}"
    );
    assert!(first.contains("also 1 not compared"), "{markdown}");
    let folded = markdown.find("\n<details><summary>").unwrap();
    for name in &benchmarks {
        let row = format!("\n| `{name}` | ");
        assert!(markdown.matches(&row).count() >= 1, "{name}: {markdown}");
    }
    // The group's slower members are in the table, above the fold.
    for n in ["16", "1024"] {
        let member = format!("twice/{n}` | ");
        let at = markdown.find(&member).unwrap();
        assert!(at < folded, "{markdown}");
        let line = markdown[at..].lines().next().unwrap();
        assert!(line.contains(" | **slower** vs `"), "{line}");
    }
    assert!(markdown[folded..].contains(" | no comparison: no baseline at this argument"));

    // BMF: each benchmark's latency and its ratio to the baseline.
    let bmf = target.join("results.bmf.json");
    let out = by_size(
        &target,
        &[
            "--baseline",
            "main",
            "--format",
            "bmf",
            "-o",
            bmf.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let bmf = json(&bmf);
    assert_eq!(bmf_violations(&bmf), Vec::<String>::new(), "{bmf:#}");
    for name in &benchmarks {
        let ratio = &bmf[name]["ratio"];
        let value = ratio["value"].as_f64().unwrap();
        assert!(
            ratio["lower_value"].as_f64().unwrap() <= value
                && value <= ratio["upper_value"].as_f64().unwrap(),
            "{name}: {bmf:#}"
        );
        assert!(bmf[name]["latency"]["value"].as_f64().unwrap() > 0.0);
    }
    let _ = std::fs::remove_dir_all(&target);
}

/// `--samples full` writes every raw sample, packed; such a document is a
/// whole baseline. One without samples is refused as a baseline, in one
/// line that says how to write one.
#[test]
fn raw_samples_are_written_on_request_and_baselines_need_them() {
    let target = scratch_dir("formats-samples");
    let full = target.join("full.json");
    let out = once_16(
        &target,
        &[
            "--format",
            "json",
            "--samples",
            "full",
            "-o",
            full.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    let document = json(&full);
    assert_eq!(document["raw_samples"], "full");
    let m = &document["benchmarks"][0]["measurement"];
    let samples = &m["samples"];
    let times = samples
        .get("ticks")
        .or_else(|| samples.get("elapsed_ns"))
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("ticks or nanoseconds: {samples}"));
    let counted: u64 = samples["iters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| run[1].as_u64().unwrap())
        .sum();
    assert_eq!(times.len() as u64, counted);
    assert_eq!(counted, m["summary"]["n"].as_u64().unwrap());

    // Put where a baseline lives, it serves as one; without samples, not.
    let store = target.join("bench-harness/baselines");
    let lean = target.join("lean.json");
    let out = once_16(&target, &["--format", "json", "-o", lean.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    for (name, file) in [("copied", &full), ("lean", &lean)] {
        let dir = store.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(file, dir.join("fixture.json")).unwrap();
    }
    let out = once_16(&target, &["--baseline", "copied"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stdout.contains("compared with baseline 'copied'"),
        "{}",
        out.stdout
    );
    let out = once_16(&target, &["--baseline", "lean"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("was written without its raw samples (--format json --samples none)")
            && out.stderr.contains("--save-baseline"),
        "{}",
        out.stderr
    );
    let _ = std::fs::remove_dir_all(&target);
}
