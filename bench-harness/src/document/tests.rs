//! The JSON document of a fixed run (`crate::testing::fixed_run`): its
//! exact text against `tests/golden/report.json`, the document read back
//! equal to what was written, the figures in it recomputed from its raw
//! samples as docs/json-schema.md says, and the loader's errors, one line
//! naming the file and what is wrong with it.

use std::fs;
use std::path::PathBuf;

use super::load::parse;
use super::{Document, LoadError, MeasurementRecord};
use crate::document;
use crate::results::{BenchResult, ComplexityReport};
use crate::testing::fixed_run::{
    environment, formats_run, group_reports, info, interleaved, measured,
};
use crate::testing::{golden, Scratch};

/// The fixed run compared with a baseline, with throughput and an A/B
/// group: every section a run of the harness writes but `against`.
fn doc() -> Document {
    let (results, baseline) = formats_run();
    let mut doc = document::assemble(&environment(), &info(), &results, &[], None, None);
    doc.comparison = Some(document::comparison(&baseline, &results));
    doc.groups = document::groups(&group_reports());
    doc
}

/// The document as `document::write` writes it.
fn to_string(doc: &Document) -> String {
    let mut bytes = Vec::new();
    document::write(&mut bytes, doc).unwrap();
    String::from_utf8(bytes).unwrap()
}

fn json_text() -> String {
    to_string(&doc())
}

#[test]
fn json_matches_its_golden_file() {
    golden("report.json", &json_text());
}

// ---------------------------------------------------------------------------
// Format details the golden file relies on
// ---------------------------------------------------------------------------

#[test]
fn json_packs_the_samples_and_ends_with_a_newline() {
    let text = json_text();
    assert!(text.ends_with("}\n"));
    assert!(text.starts_with("{\n  \"schema_version\": 5,\n  \"harness\": \"bench-harness\","));
    // The fixed run's clock ticks at 2.6 GHz. `kernels::sort_1k`'s samples
    // (10530 ns, ...) are whole ticks: written as such, ten to a line.
    assert!(text.contains(concat!(
        "\n        \"samples\": {\n",
        "          \"iters\": [[1000, 48]],\n",
        "          \"ns_per_tick\": 0.38461538461538464,\n",
        "          \"ticks\": [\n",
        "            27378, 27638, 27118, 27508, 27378, 27248, 27638, 27378, 27898, 28158,\n",
    )));
    // The empty body's 2078 ns are not (5402.8 ticks): nanoseconds.
    assert!(text.contains(concat!(
        "\n        \"samples\": {\n",
        "          \"iters\": [[4096, 20]],\n",
        "          \"elapsed_ns\": [\n",
        "            2078.0, 2078.0,",
    )));
    assert!(text.contains("\n        \"slice_starts\": [0, 8, 16, 24, 32, 40],\n"));
    assert!(text.contains("\n  \"raw_samples\": \"full\",\n"));
    // Undefined figures are null, never NaN (which JSON cannot hold).
    assert!(!text.contains("NaN"));
    let doc = doc();
    let empty = measurement(&doc, "empty");
    assert_eq!(empty.summary.mean_ns, 0.0);
    assert_eq!(empty.summary.coefficient_of_variation, None);
}

/// A clock's samples are whole ticks: written as integers with the tick,
/// they read back as the very nanoseconds measured.
#[test]
fn samples_of_whole_ticks_are_written_as_integers_and_read_back_exactly() {
    let mut info = info();
    info.clock_hz = 2_599_998_003.868_963_2;
    let tick = 1e9 / info.clock_hz;
    let mut m = interleaved();
    for (i, sample) in m.samples.iter_mut().enumerate() {
        sample.elapsed = bench_runtime::Nanos((26_000 + 37 * i) as f64 * tick);
    }
    let results = [measured("ticks", m)];
    let doc = document::assemble(&environment(), &info, &results, &[], None, None);
    let text = to_string(&doc);
    assert!(
        text.contains(&format!("\"ns_per_tick\": {tick},\n")),
        "{text}"
    );
    assert!(text.contains("\"ticks\": [\n            26000, 26037, 26074,"));
    let read = parse(&text).unwrap();
    assert_eq!(read, doc);
    let (written, read) = (measurement(&doc, "ticks"), measurement(&read, "ticks"));
    for (w, r) in written.samples.iter().zip(read.samples.iter()) {
        assert_eq!(w.elapsed_ns.to_bits(), r.elapsed_ns.to_bits());
    }
}

/// `--samples none`: the raw samples are left out, and said to be; every
/// figure computed from them stays.
#[test]
fn a_document_without_samples_keeps_every_figure() {
    let full = doc();
    let lean = full.clone().without_samples();
    let text = to_string(&lean);
    assert!(!text.contains("\"samples\": {") && !text.contains("\"ticks\""));
    assert!(text.contains("\n  \"raw_samples\": \"none\",\n"));
    assert!(text.len() < to_string(&full).len());
    let read = parse(&text).unwrap();
    assert_eq!(read, lean);
    assert_eq!(read.raw_samples, document::RawSamples::None);
    for (full, lean) in full.benchmarks.iter().zip(&read.benchmarks) {
        let (Some(f), Some(l)) = (&full.measurement, &lean.measurement) else {
            assert_eq!(full.measurement.is_none(), lean.measurement.is_none());
            continue;
        };
        assert!(l.samples.is_empty());
        assert_eq!(
            (&f.estimate, &f.summary, f.slice_starts.clone()),
            (&l.estimate, &l.summary, l.slice_starts.clone())
        );
    }
    assert_eq!(read.comparison, full.comparison);
}

/// A document of schema version 2 (one object per sample) still loads,
/// with every sample as written.
#[test]
fn a_version_2_document_with_samples_as_objects_loads() {
    let doc = doc();
    let mut value: serde_json::Value = serde_json::from_str(&to_string(&doc)).unwrap();
    value["schema_version"] = 2.into();
    value.as_object_mut().unwrap().remove("raw_samples");
    for (bench, record) in value["benchmarks"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .zip(&doc.benchmarks)
    {
        if let Some(m) = &record.measurement {
            let objects: Vec<serde_json::Value> = m
                .samples
                .iter()
                .map(|s| serde_json::json!({"iters": s.iters, "elapsed_ns": s.elapsed_ns}))
                .collect();
            bench["measurement"]["samples"] = objects.into();
        }
    }
    let text = serde_json::to_string_pretty(&value).unwrap();
    assert!(
        text.contains("\"elapsed_ns\": 10530.0,\n"),
        "objects, one per sample"
    );
    let read = parse(&text).unwrap();
    assert_eq!(read.schema_version, 2);
    assert_eq!(read.raw_samples, document::RawSamples::Full);
    assert_eq!(read.benchmarks, doc.benchmarks);
}

// ---------------------------------------------------------------------------
// Reading documents back
// ---------------------------------------------------------------------------

#[test]
fn json_reads_back_equal() {
    let doc = doc();
    let text = to_string(&doc);
    let read = parse(&text).unwrap();
    assert_eq!(read, doc);
    assert_eq!(to_string(&read), text);
}

#[test]
fn a_self_timed_measurement_says_so_and_no_other_does() {
    let mut doc = doc();
    let m = doc.benchmarks[2].measurement.as_mut().unwrap();
    m.self_timed = true;
    let text = to_string(&doc);
    assert_eq!(text.matches("\"self_timed\": true").count(), 1, "{text}");
    assert_eq!(
        text.matches("\"self_timed\"").count(),
        1,
        "written only when true"
    );
    let read = parse(&text).unwrap();
    assert_eq!(read, doc);
    let m = read.benchmarks[2].measurement.as_ref().unwrap();
    let written = crate::analysis::Overhead {
        per_iter: bench_runtime::Nanos(0.25),
        ..crate::analysis::Overhead::NONE
    };
    assert_eq!(m.overhead(written), crate::analysis::Overhead::NONE);
    let other = read.benchmarks[0].measurement.as_ref().unwrap();
    assert_eq!(other.overhead(written), written);
}

#[test]
fn numbers_of_seventeen_digits_read_back_exactly() {
    // Shortest-form floats often need 17 significant digits, which a
    // fast float parser may get one unit in the last place wrong.
    let mut doc = doc();
    let mut rng = fastrand::Rng::with_seed(1);
    let m = doc.benchmarks[2].measurement.as_mut().unwrap();
    for s in m.samples.iter_mut() {
        s.elapsed_ns = 10_000.0 + rng.f64() * 1_000.0;
    }
    m.estimate.block_means_ns = (0..1000).map(|_| rng.f64() * 1e-3).collect();
    let read = parse(&to_string(&doc)).unwrap();
    assert_eq!(read, doc);
}

/// `--format json` and baselines both write what
/// `assemble` builds: complexity fits and the reference kernel included.
#[test]
fn the_assembled_document_carries_complexity_fits_and_the_machine_reference() {
    let results: Vec<BenchResult> = ["1", "2", "4"]
        .into_iter()
        .map(|arg| BenchResult {
            arg: Some(arg.to_string()),
            ..measured(&format!("grow/{arg}"), interleaved())
        })
        .collect();
    let fits = [ComplexityReport::fit("grow", &results).unwrap()];
    let reference = results[0].measured().unwrap();
    let doc = document::assemble(
        &environment(),
        &info(),
        &results,
        &fits,
        Some(reference),
        None,
    );
    assert_eq!(doc.complexity.len(), 1);
    assert_eq!(doc.complexity[0].function, "grow");
    assert_eq!(doc.complexity[0].points.len(), 3);
    assert_eq!(
        doc.machine_reference.as_ref(),
        Some(&doc.benchmarks[0].measurement.as_ref().unwrap().estimate)
    );
    assert_eq!(parse(&to_string(&doc)).unwrap(), doc, "read back equal");
}

/// The best class is recorded whether or not the data establish it, with
/// `established` and the runner-up, so a reader names a class only where
/// the report does.
#[test]
fn a_complexity_record_says_whether_its_class_is_established() {
    let report = |points: &[(f64, f64)]| ComplexityReport {
        function: "sum".to_string(),
        path: vec!["sum".to_string()],
        group: None,
        points: points.to_vec(),
        fit: crate::analysis::complexity::fit(points).map_err(|e| e.to_string()),
    };
    // A time per element rising from 0.08 to 0.4 ns over n = 10³ … 10⁷.
    let cached: Vec<(f64, f64)> = [1e3, 1e4, 1e5, 1e6, 1e7]
        .into_iter()
        .zip([0.08, 0.08, 0.1, 0.25, 0.4])
        .map(|(n, cost)| (n, n * cost))
        .collect();
    let record = super::assemble::complexity(&report(&cached));
    assert_eq!(record.class.as_deref(), Some("linearithmic"));
    assert_eq!(record.established, Some(false));
    let runner_up = record.runner_up.as_ref().unwrap();
    assert_eq!(
        (runner_up.class.as_str(), runner_up.label.as_str()),
        ("linear", "O(n)")
    );
    assert!((runner_up.rms - 0.4557).abs() < 1e-4, "{runner_up:?}");
    let text = crate::json::to_string(&record);
    assert!(text.contains(r#""established":false"#), "{text}");
    assert!(text.contains(r#""runner_up":{"class":"linear","#), "{text}");
    assert_eq!(
        crate::json::from_str::<super::ComplexityRecord>(&text).unwrap(),
        record
    );

    let linear = report(&[(10.0, 30.0), (100.0, 300.0), (1000.0, 3000.0)]);
    let record = super::assemble::complexity(&linear);
    assert_eq!(
        (record.label.as_deref(), record.established),
        (Some("O(n)"), Some(true))
    );
    // No fit: neither.
    let record = super::assemble::complexity(&report(&cached[..2]));
    assert_eq!((record.established, record.runner_up), (None, None));
    assert!(record.error.is_some());
}

#[test]
fn each_note_is_stored_with_its_kind() {
    let doc = doc();
    let m = measurement(&doc, "fib_20");
    assert_eq!(m.note_kinds, ["not_precise", "warm_up_unsettled"]);
    assert!(m.notes[0].starts_with("not precise: "));
    for bench in &doc.benchmarks {
        if let Some(m) = &bench.measurement {
            assert_eq!(m.note_kinds.len(), m.notes.len(), "{}", bench.name);
        }
    }
}

#[test]
fn a_document_written_before_note_kinds_still_loads() {
    let mut value: serde_json::Value = serde_json::from_str(&json_text()).unwrap();
    for bench in value["benchmarks"].as_array_mut().unwrap() {
        if let Some(m) = bench["measurement"].as_object_mut() {
            m.remove("note_kinds");
        }
    }
    let read = parse(&value.to_string()).unwrap();
    let m = measurement(&read, "fib_20");
    assert_eq!(m.notes.len(), 2);
    assert!(m.note_kinds.is_empty());
}

// ---------------------------------------------------------------------------
// Verdicts: the baseline comparison and the A/B groups
// ---------------------------------------------------------------------------

/// The comparison with a saved baseline, as CI reads it: each benchmark's
/// verdict with its change, interval, tests and effect size, the threshold
/// used and the machine's own change, read back as written.
#[test]
fn the_baseline_comparison_is_recorded_and_reads_back_equal() {
    let doc = doc();
    let read = parse(&to_string(&doc)).unwrap();
    assert_eq!(read, doc);
    let comparison = read.comparison.as_ref().unwrap();
    assert_eq!(comparison.baseline, "main");
    assert_eq!(comparison.baseline_timestamp, "2026-11-20T17:04:00Z");
    assert_eq!(comparison.noise_threshold_percent, 2.0);
    let machine = comparison.machine_change.as_ref().unwrap();
    let (low, high) = (machine.ci_low.unwrap(), machine.ci_high.unwrap());
    assert!((machine.change.unwrap() - 0.005).abs() < 1e-12);
    assert!(low < 0.005 && 0.005 < high);
    // The threshold used is --noise-threshold widened by the machine's
    // change, the farther end of its interval.
    let threshold = comparison.threshold_percent.unwrap();
    assert!((threshold - (2.0 + 100.0 * low.abs().max(high.abs()))).abs() < 1e-9);
    let status: Vec<(&str, &str, Option<&str>)> = comparison
        .benchmarks
        .iter()
        .map(|b| (b.name.as_str(), b.status.as_str(), b.verdict.as_deref()))
        .collect();
    assert_eq!(
        status,
        [
            ("empty", "compared", Some("faster")),
            ("fib_20", "compared", Some("slower")),
            ("kernels::sort_1k", "compared", Some("no difference")),
            ("slow::one_sample", "new", None),
            ("parse::gone", "gone", None),
        ]
    );
    let fib = &comparison.benchmarks[1];
    // The change between the two headlines written beside it.
    let (old, new) = (fib.old_ns.unwrap(), fib.new_ns.unwrap());
    assert_eq!(fib.change.unwrap(), new / old - 1.0, "{fib:?}");
    assert!((fib.change.unwrap() - 0.2).abs() < 1e-9, "{fib:?}");
    assert!(fib.ci_low.unwrap() > threshold / 100.0);
    assert!(fib.p_welch.unwrap() < 0.05 && fib.welch_df.unwrap() >= 1.0);
    // A benchmark that is new or gone has no figures.
    let new = &comparison.benchmarks[3];
    assert_eq!((new.change, new.p_welch, new.old_ns), (None, None, None));
}

/// Both times below the loop's resolution: `too_fast`, with the
/// two times and no ratio, tests or verdict.
#[test]
fn a_benchmark_too_fast_to_compare_has_its_times_and_no_verdict() {
    let (mut results, baseline) = formats_run();
    let empty = &mut results[0];
    let Some(crate::results::Compared::Against(c)) = &mut empty.comparison else {
        panic!("compared: {:?}", empty.comparison)
    };
    c.old = 0.01;
    c.ratio = None;
    let record = document::comparison(&baseline, &results);
    let too_fast = &record.benchmarks[0];
    assert_eq!(too_fast.status, "too_fast");
    assert_eq!((too_fast.old_ns, too_fast.new_ns), (Some(0.01), Some(0.0)));
    assert_eq!((too_fast.verdict.as_deref(), too_fast.change), (None, None));
}

#[test]
fn the_ab_groups_are_recorded_and_read_back_equal() {
    let doc = doc();
    let text = to_string(&doc);
    assert_eq!(parse(&text).unwrap(), doc);
    let [group] = &doc.groups[..] else {
        panic!("one group: {:?}", doc.groups)
    };
    assert_eq!(group.group, "sort");
    assert_eq!(group.baseline, "kernels::sort_1k");
    assert_eq!(group.pairing, "slices");
    assert_eq!(group.noise_threshold_percent, 1.0);
    let members: Vec<(&str, &str, Option<&str>)> = group
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.status.as_str(), m.verdict.as_deref()))
        .collect();
    assert_eq!(
        members,
        [
            ("kernels::sort_unstable_1k", "compared", Some("faster")),
            ("kernels::sort_by_key", "compared", Some("unclear")),
            ("kernels::sort_1k_pdq", "not_compared", None),
        ]
    );
    let faster = &group.members[0];
    let (ratio, low, high) = (
        faster.ratio.unwrap(),
        faster.ci_low.unwrap(),
        faster.ci_high.unwrap(),
    );
    assert!(low < ratio && ratio < high && high < 0.51, "{faster:?}");
    assert_eq!((faster.rounds, faster.skipped), (Some(12), Some(0)));
    assert!(faster.p_t.unwrap() < 0.05 && faster.p_wilcoxon.unwrap() < 0.05);
    assert_eq!(
        group.members[2].reason.as_deref(),
        Some("kernels::sort_1k_pdq failed")
    );
    assert!(
        text.contains("\n  \"groups\": [\n"),
        "written after the benchmarks"
    );
}

/// `--against`: each compared benchmark carries the paired tests' p-values
/// beside its ratio, and reads back equal.
#[test]
fn against_records_carry_the_paired_tests() {
    use crate::analysis::compare::{compare_paired, Verdict};
    use crate::results::against::{AgainstOutcome, AgainstReport, AgainstRow, Paired};
    let old: Vec<f64> = (0..10).map(|i| 100.0 + f64::from(i % 3)).collect();
    let new: Vec<f64> = old.iter().map(|t| t * 1.1).collect();
    let report = AgainstReport {
        baseline: "main".to_string(),
        protocol_version: 1,
        noise_threshold: 0.01,
        rows: vec![
            AgainstRow {
                name: "fib_20".to_string(),
                outcome: AgainstOutcome::Compared(Paired {
                    comparison: compare_paired(&old, &new),
                    verdict: Verdict::Slower,
                    new_ns: 110.0,
                    old_ns: 100.0,
                }),
            },
            AgainstRow {
                name: "gone".to_string(),
                outcome: AgainstOutcome::Gone,
            },
            AgainstRow {
                name: "empty".to_string(),
                outcome: AgainstOutcome::TooFast {
                    new_ns: 0.002,
                    old_ns: -0.001,
                    rounds: 10,
                },
            },
        ],
        own_overhead: false,
        partial: false,
    };
    let doc = document::assemble_against(&environment(), &info(), &report);
    let text = to_string(&doc);
    assert_eq!(parse(&text).unwrap(), doc);
    assert!(
        !text.contains("other_took_own_overhead"),
        "written only when true"
    );
    let too_fast = &doc.against.as_ref().unwrap().benchmarks[2];
    assert_eq!(
        (too_fast.status.as_str(), too_fast.rounds, too_fast.ratio),
        ("too_fast", Some(10), None)
    );
    let older = document::assemble_against(
        &environment(),
        &info(),
        &AgainstReport {
            own_overhead: true,
            ..report.clone()
        },
    );
    let text = to_string(&older);
    assert!(text.contains("\"other_took_own_overhead\": true"), "{text}");
    assert_eq!(parse(&text).unwrap(), older);
    let against = doc.against.as_ref().unwrap();
    let compared = &against.benchmarks[0];
    assert!(compared.p_t.unwrap() < 0.05, "{compared:?}");
    assert!(compared.p_wilcoxon.unwrap() < 0.05, "{compared:?}");
    assert_eq!(
        (against.benchmarks[1].p_t, against.benchmarks[1].p_wilcoxon),
        (None, None)
    );
}

/// Documents written before the verdicts were recorded have neither
/// section; they load, and a run without `--baseline` or A/B groups
/// writes neither.
#[test]
fn a_document_without_verdicts_loads_and_writes_none() {
    let mut value: serde_json::Value = serde_json::from_str(&json_text()).unwrap();
    let object = value.as_object_mut().unwrap();
    assert!(object.remove("comparison").is_some());
    assert!(object.remove("groups").is_some());
    let read = parse(&value.to_string()).unwrap();
    assert_eq!(read.comparison, None);
    assert!(read.groups.is_empty());
    let text = to_string(&read);
    assert!(!text.contains("\"comparison\"") && !text.contains("\"groups\""));
}

fn measurement<'a>(doc: &'a Document, name: &str) -> &'a MeasurementRecord {
    doc.benchmark(name)
        .and_then(|b| b.measurement.as_ref())
        .unwrap_or_else(|| panic!("{name} is measured"))
}

/// The type-7 percentile of ascending `sorted`, as docs/json-schema.md says.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p / 100.0;
    let i = h.floor() as usize;
    if i + 1 >= sorted.len() {
        return sorted[sorted.len() - 1];
    }
    let value = sorted[i] + (h - h.floor()) * (sorted[i + 1] - sorted[i]);
    value.max(sorted[i]).min(sorted[i + 1])
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut values = values.to_vec();
    values.sort_by(f64::total_cmp);
    values
}

/// The 95% half-width of the mean of `x` (time order) as
/// docs/json-schema.md describes it: lag-1 correlation of the ranks, to
/// Pearson's scale by 2 sin(πr/6), plus (1.5 + 5.5ρ)/k, or of the values
/// clipped to five robust standard deviations, plus (1 + 4ρ)/k, whichever
/// is larger, clamped to 0…0.95;
/// f = 1 + 2Σ(1 − j/k)ρ^j, g = max(1 − 2Σ(k − j)ρ^j / (k(k − 1)), 0.2);
/// t(0.975, max(k/f − 1, 1)) · √(s²/g · f/k).
/// The element at index len/2 of sorted `values`: the dependence rule's
/// median.
fn upper_median(sorted: &[f64]) -> f64 {
    sorted[sorted.len() / 2]
}

fn dependent_half_width(x: &[f64]) -> f64 {
    let k = x.len();
    let n = k as f64;
    let mean = x.iter().sum::<f64>() / n;
    let s2 = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let rho = if k < 4 {
        0.0
    } else {
        let ranks: Vec<f64> = x
            .iter()
            .map(|v| {
                let below = x.iter().filter(|w| *w < v).count() as f64;
                let equal = x.iter().filter(|w| *w == v).count() as f64;
                below + (equal + 1.0) / 2.0
            })
            .collect();
        let c: Vec<f64> = ranks.iter().map(|r| r - (n + 1.0) / 2.0).collect();
        let variance = c.iter().map(|v| v * v).sum::<f64>();
        // A constant series has no correlation to estimate.
        let spearman = if variance > 0.0 {
            c.windows(2).map(|w| w[0] * w[1]).sum::<f64>() / variance
        } else {
            0.0
        };
        let pearson = 2.0 * (std::f64::consts::PI * spearman / 6.0).sin();
        let from_ranks = (pearson + (1.5 + 5.5 * pearson) / n).clamp(0.0, 0.95);
        // The values' own lag-1 correlation, clipped to 5 × 1.4826 MADs
        // around the median, plus (1 + 4ρ)/k; the larger of the two counts.
        let median = upper_median(&sorted(x));
        let deviations: Vec<f64> = x.iter().map(|v| (v - median).abs()).collect();
        let bound = 5.0 * 1.4826 * upper_median(&sorted(&deviations));
        let clipped: Vec<f64> = x
            .iter()
            .map(|&v| {
                if bound > 0.0 {
                    v.clamp(median - bound, median + bound)
                } else {
                    v
                }
            })
            .collect();
        let clipped_mean = clipped.iter().sum::<f64>() / n;
        let c: Vec<f64> = clipped.iter().map(|v| v - clipped_mean).collect();
        let variance = c.iter().map(|v| v * v).sum::<f64>();
        let from_values = if variance > 0.0 {
            let r = c.windows(2).map(|w| w[0] * w[1]).sum::<f64>() / variance;
            (r + (1.0 + 4.0 * r) / n).clamp(0.0, 0.95)
        } else {
            0.0
        };
        from_ranks.max(from_values)
    };
    let (mut f, mut g_sum) = (1.0, 0.0);
    for j in 1..k {
        let power = rho.powi(j as i32);
        f += 2.0 * (1.0 - j as f64 / n) * power;
        g_sum += (n - j as f64) * power;
    }
    let g = (1.0 - 2.0 * g_sum / (n * (n - 1.0))).max(0.2);
    let t = crate::analysis::students_t_quantile(0.975, (n / f - 1.0).max(1.0));
    t * (s2 / g * f / n).sqrt()
}

fn close(actual: f64, expected: f64, what: &str) {
    let tolerance = 1e-12 * expected.abs().max(1e-9);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: document says {actual}, recomputed {expected}"
    );
}

/// The recipe of docs/json-schema.md, "Recomputing the figures", applied to
/// the document as read back from its text.
#[test]
fn figures_recompute_from_the_raw_samples_as_documented() {
    let doc = parse(&json_text()).unwrap();
    let overhead = doc.methodology.overhead;
    assert!(overhead.subtracted);
    let mut checked = 0;
    for bench in &doc.benchmarks {
        let Some(m) = &bench.measurement else {
            continue;
        };
        let name = &bench.name;
        // 1. Per-iteration values.
        let values: Vec<f64> = m
            .samples
            .iter()
            .map(|s| {
                (s.elapsed_ns - overhead.per_sample_ns) / s.iters as f64 - overhead.per_iter_ns
            })
            .collect();
        // 2. Blocks: the slices, or blocks_in_one_go equal runs, merged
        //    in order until each holds at least 5 values (a short
        //    remainder joins the last block).
        let n = values.len();
        let starts: Vec<usize> = if m.slice_starts.len() >= 2 {
            m.slice_starts.clone()
        } else {
            let k = doc.methodology.blocks_in_one_go.min(n);
            (0..k).map(|i| i * n / k).collect()
        };
        let mut bounds: Vec<usize> = Vec::new();
        let mut open: Option<usize> = None;
        for (i, &start) in starts.iter().enumerate() {
            let begin = *open.get_or_insert(start);
            let end = starts.get(i + 1).copied().unwrap_or(n);
            if end - begin >= 5 {
                bounds.push(begin);
                open = None;
            }
        }
        if bounds.is_empty() && n > 0 {
            bounds.push(0);
        }
        bounds.push(n);
        // 3. Each block's value: its samples' time over their iterations,
        //    the preempted samples left out.
        let iters: Vec<f64> = m.samples.iter().map(|s| s.iters as f64).collect();
        let (mut means, mut medians, mut calls) = (Vec::new(), Vec::new(), Vec::new());
        for w in bounds.windows(2) {
            let kept: Vec<usize> = (w[0]..w[1]).filter(|i| !m.preempted.contains(i)).collect();
            let (time, n) = kept.iter().fold((0.0, 0.0), |(t, c), &i| {
                (t + values[i] * iters[i], c + iters[i])
            });
            means.push(time / n);
            medians.push(percentile(
                &sorted(&kept.iter().map(|&i| values[i]).collect::<Vec<_>>()),
                50.0,
            ));
            calls.push(n);
        }
        assert_eq!(m.estimate.block_means_ns, means, "{name}: block means");
        // 4. Steady or not (no disturbed blocks in this run): the calls'
        //    mean against the blocks' medians, the loop's cost added back.
        assert!(m.estimate.disturbed_blocks.is_empty());
        let o = overhead.per_iter_ns;
        let skew = (means.iter().zip(&calls))
            .map(|(m, c)| c * (m + o))
            .sum::<f64>()
            / (medians.iter().zip(&calls))
                .map(|(m, c)| c * (m + o))
                .sum::<f64>();
        let steady = (skew - 1.0).abs() <= 0.10;
        assert_eq!(m.estimate.steady, steady, "{name}: steady");
        // 5. The headline and the series its interval is drawn from: the
        //    fast regime's medians (in time order), or each block's
        //    deviation from the mean cost of a call weighted by its share
        //    of the iterations.
        let total: f64 = calls.iter().sum();
        let (headline, series) = if steady {
            let anchor = percentile(&sorted(&medians), 5.0) + o;
            let mut regime: Vec<f64> = medians
                .iter()
                .copied()
                .filter(|&v| anchor <= 0.0 || v <= anchor * 1.1 - o)
                .collect();
            if regime.len() < 2 {
                regime = medians.clone();
            }
            (regime.iter().sum::<f64>() / regime.len() as f64, regime)
        } else {
            let headline = means.iter().zip(&calls).map(|(m, c)| m * c).sum::<f64>() / total;
            let average = total / means.len() as f64;
            let deviations = (means.iter().zip(&calls))
                .map(|(m, c)| c / average * (m - headline))
                .collect();
            (headline, deviations)
        };
        close(m.estimate.time_ns, headline, &format!("{name}: headline"));
        // 6. Its interval: the AR(1) rule over that series, then the loop
        //    overhead's uncertainty in quadrature.
        if series.len() >= 2 {
            let half = dependent_half_width(&series)
                .hypot(overhead.per_iter_uncertainty_ns.unwrap_or(0.0));
            close(
                m.estimate.ci_low_ns.unwrap(),
                headline - half,
                &format!("{name}: ci low"),
            );
            close(
                m.estimate.ci_high_ns.unwrap(),
                headline + half,
                &format!("{name}: ci high"),
            );
        } else {
            assert_eq!(m.estimate.ci_low_ns, None);
        }
        // 7. The pooled summary.
        let all = sorted(&values);
        let summary = &m.summary;
        assert_eq!(summary.n, n);
        assert_eq!(summary.min_ns, all[0]);
        assert_eq!(summary.max_ns, all[n - 1]);
        assert_eq!(summary.median_ns, percentile(&all, 50.0), "{name}: median");
        for (p, value) in [
            (90.0, summary.percentiles.p90_ns),
            (95.0, summary.percentiles.p95_ns),
            (99.0, summary.percentiles.p99_ns),
            (99.9, summary.percentiles.p99_9_ns),
        ] {
            assert_eq!(value, percentile(&all, p), "{name}: p{p}");
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        close(summary.mean_ns, mean, "mean");
        if n >= 2 {
            let sd =
                (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
            assert!((summary.std_dev_ns - sd).abs() <= 1e-9 * mean.abs().max(1.0));
        }
        // 8. The outlier fences and counts.
        let fences = m.outliers.fences;
        let (q1, q3) = (percentile(&all, 25.0), percentile(&all, 75.0));
        assert_eq!((fences.q1_ns, fences.q3_ns), (q1, q3));
        let iqr = q3 - q1;
        let beyond_inner = values
            .iter()
            .filter(|&&x| x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr)
            .count();
        let o = &m.outliers;
        assert_eq!(
            o.low_mild + o.low_severe + o.high_mild + o.high_severe,
            beyond_inner
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}

// ---------------------------------------------------------------------------
// The loader's errors
// ---------------------------------------------------------------------------

/// Writes `contents` to a file in `scratch` and returns its path.
fn scratch_file(scratch: &Scratch, name: &str, contents: &[u8]) -> PathBuf {
    let path = scratch.path().join(format!("formats-{name}.json"));
    fs::write(&path, contents).unwrap();
    path
}

/// Loads `contents` from a file and returns the error, checking that its
/// message is one line naming the file.
fn load_error(name: &str, contents: &[u8]) -> (LoadError, String) {
    let scratch = Scratch::new(&format!("load-error-{name}"));
    let path = scratch_file(&scratch, name, contents);
    let error = document::load(&path).expect_err("the file is not a loadable document");
    let message = error.to_string();
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert_eq!(error.path(), Some(path.as_path()));
    (error, message)
}

#[test]
fn a_written_file_loads() {
    let scratch = Scratch::new("a-written-file-loads");
    let path = scratch_file(&scratch, "good", json_text().as_bytes());
    assert_eq!(document::load(&path).unwrap(), doc());
}

#[test]
fn an_empty_file_is_reported_as_empty() {
    for (name, contents) in [("empty", ""), ("blank", "  \n\n")] {
        let (error, message) = load_error(name, contents.as_bytes());
        assert!(matches!(error, LoadError::Empty { .. }), "{error:?}");
        assert!(message.contains("is empty"), "{message}");
    }
}

#[test]
fn a_truncated_file_is_reported_with_the_parse_position() {
    let text = json_text();
    // Cut within a line: at a line's end the column would be 0.
    let mut cut = text.len() / 2;
    while text.as_bytes()[cut - 1].is_ascii_whitespace() {
        cut -= 1;
    }
    let (error, message) = load_error("truncated", &text.as_bytes()[..cut]);
    let LoadError::Syntax {
        message: parse,
        line,
        column,
        ..
    } = &error
    else {
        panic!("{error:?}")
    };
    assert!(parse.starts_with("EOF while parsing"), "{parse}");
    assert!(*line > 10 && *column > 0);
    assert!(
        message.contains("is truncated (EOF while parsing"),
        "{message}"
    );
    assert!(
        message.contains(&format!("at line {line}, column {column}")),
        "{message}"
    );
}

#[test]
fn a_corrupt_file_is_reported_with_the_parse_error() {
    let (error, message) = load_error(
        "corrupt",
        br#"{"schema_version": 1,, "harness": "bench-harness"}"#,
    );
    assert!(
        matches!(error, LoadError::Syntax { line: 1, .. }),
        "{error:?}"
    );
    assert!(message.contains("is corrupt, not valid JSON"), "{message}");
    let (error, _) = load_error("not-utf8", b"{\"harness\": \"\xff\xfe\"}");
    assert!(matches!(error, LoadError::Syntax { .. }), "{error:?}");
}

#[test]
fn foreign_json_is_not_ours() {
    // What criterion writes to target/criterion/NAME/new/estimates.json.
    let criterion = br#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":16.1,"upper_bound":16.4},"point_estimate":16.2,"standard_error":0.07}}"#;
    for (name, contents) in [
        ("criterion", &criterion[..]),
        ("array", b"[1, 2, 3]"),
        (
            "other-harness",
            br#"{"harness": "criterion", "schema_version": 1}"#,
        ),
        (
            "no-version",
            br#"{"harness": "bench-harness", "benchmarks": []}"#,
        ),
    ] {
        let (error, message) = load_error(name, contents);
        assert!(
            matches!(error, LoadError::NotOurs { .. }),
            "{name}: {error:?}"
        );
        assert!(
            message.contains("not a bench-harness results document"),
            "{message}"
        );
    }
}

#[test]
fn a_newer_schema_is_reported_as_such_not_as_a_shape_error() {
    // Version 6 may have changed everything: only the version is read.
    let (error, message) = load_error(
        "future",
        br#"{"schema_version": 6, "harness": "bench-harness", "runs": "elsewhere"}"#,
    );
    assert!(
        matches!(
            error,
            LoadError::NewerSchema {
                found: 6,
                supported: 5,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        message.contains("schema version 6, newer than the version 5"),
        "{message}"
    );
}

#[test]
fn our_document_with_wrong_fields_is_a_shape_error() {
    let mut value: serde_json::Value = serde_json::from_str(&json_text()).unwrap();
    value["benchmarks"][2]["measurement"]["samples"]["iters"][0][0] = "many".into();
    let text = serde_json::to_string_pretty(&value).unwrap();
    let (error, message) = load_error("mistyped", text.as_bytes());
    let LoadError::Shape { message: shape, .. } = &error else {
        panic!("{error:?}")
    };
    assert!(shape.contains("invalid type: string \"many\""), "{shape}");
    // Where it is, by its place in the document.
    assert!(
        shape.starts_with("benchmarks[2].measurement.samples.iters[0][0]: "),
        "{shape}"
    );
    assert!(message.contains("missing or mistyped fields"), "{message}");

    let (error, _) = load_error(
        "missing-fields",
        br#"{"schema_version": 1, "harness": "bench-harness", "environment": {}}"#,
    );
    assert!(matches!(error, LoadError::Shape { .. }), "{error:?}");
    let (error, _) = load_error(
        "version-string",
        br#"{"schema_version": "1", "harness": "bench-harness"}"#,
    );
    assert!(matches!(error, LoadError::Shape { .. }), "{error:?}");
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let scratch = Scratch::new("no-such-file");
    let path = scratch.path().join("formats-no-such-file.json");
    let error = document::load(&path).unwrap_err();
    let LoadError::Io { error: io, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    let message = error.to_string();
    assert_eq!(message.lines().count(), 1);
    assert!(
        message.starts_with(&format!("cannot read file {}", path.display())),
        "{message}"
    );
}

#[test]
fn text_without_a_file_says_so() {
    let error = parse("[").unwrap_err();
    assert_eq!(error.path(), None);
    assert!(
        error.to_string().starts_with("the JSON text is truncated"),
        "{error}"
    );
}
