//! bench-harness compiled below the benchmarks' opt-level
//! (`[profile.release.package.bench-harness] opt-level = 0`), a recipe
//! that halves a clean build. It is unsafe: an optimised crate links to an
//! unoptimised dependency's copy of a never-inlined generic function
//! (std's sorts), so the benchmarks' own code ran up to 7.8 times slower.
//! The run says so on every run, loudly; the timed loops and the hidden
//! empty loop are compiled with bench-runtime, so the overhead at least is
//! right.

use bench_tests::{lean_harness_build, run};

#[test]
fn a_harness_built_without_optimisation_is_warned_of() {
    let run = run(
        lean_harness_build(),
        &[
            "--bench",
            "--quick",
            "--format",
            "json",
            "--no-history",
            "--no-report",
            "--no-machine-warnings",
            "unchanged",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let document: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON on stdout");
    let build = &document["environment"]["build"];
    assert_eq!(build["opt_level"], "3", "{build}");
    assert_eq!(build["harness_opt_level"], "0", "{build}");
    // Said even with the machine's warnings silenced; the document keeps
    // the fact.
    let warning = "bench-harness is built at opt-level 0, the benchmarks at 3";
    assert!(run.stderr.contains(warning), "{}", run.stderr);
    assert!(!run.stderr.contains("unoptimised build"), "{}", run.stderr);
    // An empty loop compiled at opt-level 0 costs about 5.6 ns an iteration
    // on this kind of machine (it did when the hidden loop was compiled
    // with the harness); an optimised one well under 1 ns.
    let overhead = document["methodology"]["overhead"]["per_iter_ns"]
        .as_f64()
        .expect("the loop overhead");
    assert!(overhead < 2.0, "loop overhead {overhead} ns an iteration");
}
