//! Fuzzing, proptest-style, of saved results files (the command line's
//! fuzzing is `cli/fuzz.rs`): the loader may not panic on any input; every
//! refusal is one line. `FUZZ_CASES` sets the number of inputs per property
//! (CI runs the default, 4096).

use super::load::parse;
use crate::document;
use crate::testing::golden_path;
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4096)
}

/// A valid document to mutate: the golden file the JSON reporter writes.
fn golden() -> String {
    std::fs::read_to_string(golden_path("report.json")).expect("the golden JSON exists")
}

/// Mutations of a valid document: truncations, byte flips, insertions,
/// field renames, and JSON of the wrong shape.
fn mutated(original: String) -> impl Strategy<Value = String> {
    let len = original.len();
    let truncated = {
        let text = original.clone();
        (0..len).prop_map(move |cut| String::from_utf8_lossy(&text.as_bytes()[..cut]).into_owned())
    };
    let flipped = {
        let text = original.clone();
        (prop::collection::vec((0..len, any::<u8>()), 1..6)).prop_map(move |edits| {
            let mut bytes = text.clone().into_bytes();
            for (at, byte) in edits {
                bytes[at] = byte;
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let spliced = {
        let text = original.clone();
        (
            0..len,
            prop::sample::select(vec![
                "null",
                "[]",
                "{}",
                "\"x\"",
                "-1",
                "1e999",
                ",",
                "\"schema_version\": 99,",
                "}",
            ]),
        )
            .prop_map(move |(at, insert)| {
                let mut at = at;
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                format!("{}{insert}{}", &text[..at], &text[at..])
            })
    };
    let renamed = {
        let text = original;
        prop::sample::select(vec![
            ("\"schema_version\": 5", "\"schema_version\": 6"),
            (
                "\"harness\": \"bench-harness\"",
                "\"harness\": \"criterion\"",
            ),
            ("\"benchmarks\"", "\"benches\""),
            ("\"time_ns\"", "\"time\""),
            ("\"samples\"", "\"sample\""),
            ("\"ticks\"", "\"tick\""),
            ("\"iters\"", "\"iterations\""),
        ])
        .prop_map(move |(from, to)| text.replacen(from, to, 1))
    };
    let shapes = prop_oneof![
        Just(String::new()),
        Just("[]".to_string()),
        Just("null".to_string()),
        Just("{\"schema_version\": 1}".to_string()),
        "\\PC{0,64}",
    ];
    prop_oneof![truncated, flipped, spliced, renamed, shapes]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_results_loader_never_panics_and_refuses_in_one_line(text in mutated(golden())) {
        match parse(&text) {
            Ok(read) => {
                // Whatever it accepts is a document of ours.
                prop_assert_eq!(read.schema_version, document::SCHEMA_VERSION);
                prop_assert_eq!(read.harness.as_str(), document::HARNESS_TAG);
            }
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.is_empty());
                prop_assert!(!message.contains('\n'), "{message}");
            }
        }
    }
}
