//! `--format bmf`: the Bencher Metric Format, the JSON that bencher.dev's
//! `json` adapter reads (`bencher run --adapter json --file results.json`),
//! so results from many machines and branches can be tracked there:
//!
//! ```text
//! {
//!   "kernels::sort_1k": {
//!     "latency": { "value": 7078.12, "lower_value": 7001.5, "upper_value": 7150.2 },
//!     "throughput": { "value": 144678.1, "lower_value": 143210.0, "upper_value": 146260.3 },
//!     "ratio": { "value": 1.012, "lower_value": 1.004, "upper_value": 1.020 }
//!   }
//! }
//! ```
//!
//! One object per measured benchmark, keyed by its full name; failed and
//! ignored benchmarks have no figures and are left out. `latency` is
//! Bencher's built-in measure in nanoseconds: the headline and its 95%
//! interval (`lower_value`/`upper_value` left out without one). A
//! benchmark that declared its work adds the rate at the headline, the
//! interval's ends turned into rates: `throughput` (Bencher's built-in
//! measure, operations per second) for `items`, and `bytes-per-second`,
//! a measure Bencher creates on first upload, for `bytes`, so that bytes
//! are not shown as operations.
//!
//! No figure is negative: a time cannot be, and what is left of an empty
//! body once the loop's cost is taken out can read a little below zero,
//! so a value or bound below zero is written as 0 (its rate's upper bound,
//! which would be infinite, is then left out).
//!
//! A comparison adds `ratio`, a measure Bencher creates on first upload:
//! this run's time over the baseline's (`--baseline`, the change's
//! interval as its bounds) or this build's over the other's (`--against`,
//! [`write_against`], the paired rounds' interval), so that a pull
//! request's change can be tracked, not only its times. `--against`'s
//! `latency` is this build's mean slice median, without bounds (the pairing
//! gives an interval for the ratio only).

use std::io::{self, Write};

use serde_json::{json, Map, Value};

use bench_runtime::Throughput;

use crate::json::Writer;
use crate::results::against::{AgainstOutcome, AgainstReport};
use crate::results::{BenchResult, Compared, RunInfo};

/// Writes the results as one BMF JSON object, each with its comparison
/// with the baseline when it has one.
pub(crate) fn write(
    out: &mut dyn Write,
    info: &RunInfo,
    results: &[BenchResult],
) -> io::Result<()> {
    let mut benchmarks = Map::new();
    for result in results {
        if let Some(mut measures) = measures(result) {
            if info.partial {
                // BMF has no field for the run: each benchmark of a run
                // stopped by Ctrl-C carries a measure that says so, which
                // bencher.dev shows beside its latency.
                measures.insert(PARTIAL_MEASURE.into(), metric(1.0, None));
            }
            benchmarks.insert(result.name.clone(), Value::Object(measures));
        }
    }
    emit(out, benchmarks)
}

/// Writes `--against`'s comparison as one BMF JSON object: each benchmark
/// compared in both builds, this build's `latency` and the `ratio`.
pub(crate) fn write_against(out: &mut dyn Write, report: &AgainstReport) -> io::Result<()> {
    let mut benchmarks = Map::new();
    for row in &report.rows {
        let AgainstOutcome::Compared(p) = &row.outcome else {
            continue;
        };
        let c = &p.comparison;
        if !p.new_ns.is_finite() || !c.ratio.is_finite() {
            continue;
        }
        let mut measures = Map::new();
        measures.insert("latency".into(), metric(p.new_ns, None));
        measures.insert("ratio".into(), metric(c.ratio, finite(c.ratio_interval)));
        if report.partial {
            measures.insert(PARTIAL_MEASURE.into(), metric(1.0, None));
        }
        benchmarks.insert(row.name.clone(), Value::Object(measures));
    }
    emit(out, benchmarks)
}

fn emit(out: &mut dyn Write, benchmarks: Map<String, Value>) -> io::Result<()> {
    let mut text = Vec::new();
    Writer::pretty(&mut text).value(&Value::Object(benchmarks));
    text.push(b'\n');
    out.write_all(&text)?;
    out.flush()
}

/// The measure every benchmark of an interrupted run carries (value 1).
pub(crate) const PARTIAL_MEASURE: &str = "partial-run";

/// A measured benchmark's measures; `None` without figures.
fn measures(result: &BenchResult) -> Option<Map<String, Value>> {
    let measured = result.measured()?;
    let time = measured.headline();
    if !time.is_finite() {
        return None;
    }
    let interval = finite(
        measured
            .estimate
            .interval
            .map_or((f64::NAN, f64::NAN), |i| (i.lower, i.upper)),
    );
    let mut measures = Map::new();
    measures.insert("latency".into(), metric(time, interval));
    if let Some((throughput, rate)) = result.rate().filter(|(_, rate)| rate.is_finite()) {
        let (slug, work) = match throughput {
            Throughput::Items(n) => ("throughput", n as f64),
            Throughput::Bytes(n) => ("bytes-per-second", n as f64),
        };
        // A rate is work over time: the interval's slow end is the low rate.
        let rates = interval
            .filter(|(lower, _)| *lower > 0.0)
            .map(|(lower, upper)| (work / (upper * 1e-9), work / (lower * 1e-9)));
        measures.insert(slug.into(), metric(rate, rates));
    }
    if let Some(Compared::Against(c)) = &result.comparison {
        // Not for a row measured two ways: its ratio is the method's as
        // much as the code's, and bencher.dev's thresholds would alert.
        let ratio = (c.ratio.as_ref()).filter(|r| !c.two_ways && r.change.is_finite());
        if let Some(r) = ratio {
            let (low, high) = r.change_interval;
            measures.insert(
                "ratio".into(),
                metric(1.0 + r.change, finite((1.0 + low, 1.0 + high))),
            );
        }
    }
    Some(measures)
}

/// Both ends when both are finite.
fn finite((lower, upper): (f64, f64)) -> Option<(f64, f64)> {
    (lower.is_finite() && upper.is_finite()).then_some((lower, upper))
}

/// `{ "value", "lower_value", "upper_value" }`, the bounds only when known,
/// nothing below zero.
fn metric(value: f64, bounds: Option<(f64, f64)>) -> Value {
    let value = value.max(0.0);
    match bounds {
        Some((lower, upper)) => json!({
            "value": value,
            "lower_value": lower.clamp(0.0, value),
            "upper_value": upper.max(value),
        }),
        None => json!({ "value": value }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::fixed_run::{info, results};

    /// The example of https://bencher.dev/docs/reference/bencher-metric-format
    /// (as published in 2026).
    const BENCHER_SAMPLE: &str = r#"{
        "benchmark_name": {
            "latency": { "value": 88.0, "lower_value": 87.42, "upper_value": 88.88 },
            "throughput": { "value": 5.55, "lower_value": 3.14, "upper_value": 6.30 }
        },
        "/bin/sh -c ./my_build_script.sh": { "build-time": { "value": 87.0 } },
        "my_binary": { "file-size": { "value": 42.0 } }
    }"#;

    /// Bencher's published JSON Schema for BMF, checked by hand: an object
    /// of benchmarks (non-empty names), each an object of measures
    /// (non-empty names), each an object with a number `value` and
    /// optional numbers `lower_value` and `upper_value`. Returns what is
    /// wrong.
    fn bmf_violations(document: &Value) -> Vec<String> {
        let mut wrong = Vec::new();
        let Some(benchmarks) = document.as_object() else {
            return vec!["the document is not an object".into()];
        };
        for (name, measures) in benchmarks {
            if name.is_empty() {
                wrong.push("a benchmark has an empty name".into());
            }
            let Some(measures) = measures.as_object() else {
                wrong.push(format!("{name}: not an object of measures"));
                continue;
            };
            for (measure, metric) in measures {
                if measure.is_empty() {
                    wrong.push(format!("{name}: a measure has an empty name"));
                }
                let Some(metric) = metric.as_object() else {
                    wrong.push(format!("{name}/{measure}: not an object"));
                    continue;
                };
                if !metric.get("value").is_some_and(Value::is_number) {
                    wrong.push(format!("{name}/{measure}: no number `value`"));
                }
                for bound in ["lower_value", "upper_value"] {
                    if metric.get(bound).is_some_and(|v| !v.is_number()) {
                        wrong.push(format!("{name}/{measure}: `{bound}` is not a number"));
                    }
                }
                for key in metric.keys() {
                    if !["value", "lower_value", "upper_value"].contains(&key.as_str()) {
                        wrong.push(format!("{name}/{measure}: unknown key `{key}`"));
                    }
                }
            }
        }
        wrong
    }

    fn render(results: &[BenchResult]) -> Value {
        let mut out = Vec::new();
        write(&mut out, &info(), results).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn the_checker_accepts_bencher_s_own_sample_and_refuses_bad_shapes() {
        let sample: Value = serde_json::from_str(BENCHER_SAMPLE).unwrap();
        assert_eq!(bmf_violations(&sample), Vec::<String>::new());
        for bad in [
            r#"[]"#,
            r#"{"a": 1}"#,
            r#"{"a": {"latency": {"lower_value": 1.0}}}"#,
            r#"{"a": {"latency": {"value": "88"}}}"#,
            r#"{"a": {"latency": {"value": 1.0, "upper": 2.0}}}"#,
        ] {
            let bad: Value = serde_json::from_str(bad).unwrap();
            assert!(!bmf_violations(&bad).is_empty(), "{bad}");
        }
    }

    #[test]
    fn our_output_has_the_shape_of_bencher_s_sample() {
        let ours = render(&results());
        assert_eq!(bmf_violations(&ours), Vec::<String>::new(), "{ours:#}");
        // The same measure names and keys as the sample's first benchmark.
        let sample: Value = serde_json::from_str(BENCHER_SAMPLE).unwrap();
        let sample_latency = &sample["benchmark_name"]["latency"];
        let latency = &ours["kernels::sort_1k"]["latency"];
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(latency), keys(sample_latency));
    }

    #[test]
    fn latency_is_the_headline_and_its_interval_in_nanoseconds() {
        let results = results();
        let ours = render(&results);
        // Measured benchmarks only: the failed and the ignored are left out.
        let names: Vec<&String> = ours.as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            ["empty", "fib_20", "kernels::sort_1k", "slow::one_sample"]
        );
        let sort = results[2].measured().unwrap();
        let interval = sort.estimate.interval.unwrap();
        let latency = &ours["kernels::sort_1k"]["latency"];
        assert_eq!(latency["value"], sort.headline());
        assert_eq!(latency["lower_value"], interval.lower);
        assert_eq!(latency["upper_value"], interval.upper);
        // One sample: no interval, so no bounds.
        let one = ours["slow::one_sample"]["latency"].as_object().unwrap();
        assert_eq!(one.keys().collect::<Vec<_>>(), ["value"]);
    }

    #[test]
    fn declared_work_adds_a_rate_whose_bounds_come_from_the_time_s() {
        let mut results = results();
        results[2].throughput = Some(Throughput::Items(1000));
        results[1].throughput = Some(Throughput::Bytes(4096));
        let ours = render(&results);
        let sort = results[2].measured().unwrap();
        let interval = sort.estimate.interval.unwrap();
        let rate = &ours["kernels::sort_1k"]["throughput"];
        let per_second = |ns: f64| 1000.0 / (ns * 1e-9);
        assert_eq!(rate["value"], per_second(sort.headline()));
        assert_eq!(rate["lower_value"], per_second(interval.upper));
        assert_eq!(rate["upper_value"], per_second(interval.lower));
        assert!(ours["fib_20"]["bytes-per-second"]["value"].is_number());
        assert!(ours["fib_20"].get("throughput").is_none());
        assert!(ours["empty"].get("throughput").is_none());
        assert_eq!(bmf_violations(&ours), Vec::<String>::new());
    }

    /// An empty body's interval reaches below zero once the loop's cost is
    /// taken out (`lower_value: -3968` was written): no figure is.
    #[test]
    fn no_value_or_bound_is_negative() {
        let mut results = results();
        results[2].throughput = Some(Throughput::Items(1000));
        let crate::results::Outcome::Measured(sort) = &mut results[2].outcome else {
            panic!("kernels::sort_1k is measured");
        };
        let upper = sort.estimate.interval.unwrap().upper;
        sort.estimate.interval.as_mut().unwrap().lower = -3968.0;
        let ours = render(&results);
        assert_eq!(bmf_violations(&ours), Vec::<String>::new());
        let latency = &ours["kernels::sort_1k"]["latency"];
        assert_eq!(latency["lower_value"], 0.0);
        assert_eq!(latency["upper_value"], upper);
        // The rate's upper bound would be infinite: left out with the lower.
        let rate = ours["kernels::sort_1k"]["throughput"].as_object().unwrap();
        assert_eq!(rate.keys().collect::<Vec<_>>(), ["value"]);
        let negative = |v: &Value| v.as_f64().is_some_and(|n| n < 0.0);
        for measures in ours.as_object().unwrap().values() {
            for metric in measures.as_object().unwrap().values() {
                assert!(
                    !metric.as_object().unwrap().values().any(negative),
                    "{ours:#}"
                );
            }
        }
    }

    /// A comparison adds its ratio, the change's interval as its bounds.
    #[test]
    fn a_baseline_comparison_adds_the_ratio() {
        let (results, _) = crate::testing::fixed_run::formats_run();
        let ours = render(&results);
        assert_eq!(bmf_violations(&ours), Vec::<String>::new());
        let Some(crate::results::Compared::Against(c)) = &results[1].comparison else {
            panic!("fib_20 is compared");
        };
        let r = c.ratio.as_ref().unwrap();
        let ratio = &ours["fib_20"]["ratio"];
        assert_eq!(ratio["value"], 1.0 + r.change);
        assert_eq!(ratio["lower_value"], 1.0 + r.change_interval.0);
        assert_eq!(ratio["upper_value"], 1.0 + r.change_interval.1);
        // New in this run: nothing to compare with.
        assert!(ours["slow::one_sample"].get("ratio").is_none());
        // Measured two ways: its latency, no ratio.
        let mut results = results;
        if let Some(crate::results::Compared::Against(c)) = &mut results[1].comparison {
            c.two_ways = true;
        }
        let ours = render(&results);
        assert!(ours["fib_20"].get("latency").is_some(), "{ours:#}");
        assert!(ours["fib_20"].get("ratio").is_none(), "{ours:#}");
    }
}
