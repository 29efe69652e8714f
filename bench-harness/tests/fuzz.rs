//! Fuzzing, proptest-style, of the two places untrusted input enters: the
//! command line and saved results files. Neither may panic on any input;
//! every refusal is one line. `FUZZ_CASES` sets the number of inputs per
//! property (CI runs the default, 4096).

use std::ffi::OsString;

use bench_harness::cli;
use bench_harness::document;
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4096)
}

/// Every flag the parser knows, and some it does not.
const FLAGS: &[&str] = &[
    "--bench",
    "--test",
    "--list",
    "--exact",
    "--ignored",
    "--include-ignored",
    "--skip",
    "--format",
    "--timer",
    "--precision",
    "--measure-time",
    "--max-time",
    "--min-samples",
    "--warm-up-time",
    "--warm-up-window",
    "--warm-up-cv",
    "--schedule",
    "--seed",
    "--output",
    "-o",
    "--details",
    "--flat",
    "--complexity",
    "--counters",
    "--pin",
    "--cold",
    "--save-baseline",
    "--baseline",
    "--list-baselines",
    "--noise-threshold",
    "--fail-on-regression",
    "--color",
    "--help",
    "-h",
    "--nocapture",
    "--show-output",
    "-q",
    "--quiet",
    "--test-threads",
    "--",
    "-",
    "--bogus",
    "-x",
    "--precision=",
    "--seed=-1",
];

/// Values that make parsers stumble.
const VALUES: &[&str] = &[
    "",
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "1e309",
    "NaN",
    "inf",
    "-inf",
    "18446744073709551616",
    "99999999999999999999999",
    "0x10",
    " 1",
    "1 ",
    "json",
    "pretty",
    "csv",
    "bencher",
    "markdown",
    "terse",
    "auto",
    "os",
    "cycles",
    "interleaved",
    "sequential",
    "always",
    "never",
    "main",
    "../escape",
    "a/b",
    "name with space",
    "é",
    "\u{0}",
    "--bench",
];

fn argument() -> impl Strategy<Value = OsString> {
    prop_oneof![
        4 => prop::sample::select(FLAGS).prop_map(OsString::from),
        4 => prop::sample::select(VALUES).prop_map(OsString::from),
        1 => "\\PC{0,12}".prop_map(OsString::from),
        1 => prop::collection::vec(any::<u8>(), 0..8).prop_map(non_utf8),
    ]
}

/// Raw bytes as an argument: on Unix any bytes can be one.
#[cfg(unix)]
fn non_utf8(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes)
}

#[cfg(not(unix))]
fn non_utf8(bytes: Vec<u8>) -> OsString {
    OsString::from(String::from_utf8_lossy(&bytes).into_owned())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_command_line_parser_never_panics_and_refuses_in_one_line(
        args in prop::collection::vec(argument(), 0..8)
    ) {
        match cli::parse(args.clone()) {
            Ok(parsed) => {
                // What it accepted is in range.
                if let Some(precision) = parsed.precision {
                    prop_assert!((0.0..=1.0).contains(&precision), "{args:?}");
                }
                for secs in [parsed.measure_time, parsed.max_time].into_iter().flatten() {
                    prop_assert!(secs.is_finite() && secs > 0.0, "{args:?}: {secs}");
                }
                // No warm-up is a choice.
                if let Some(secs) = parsed.warm_up_time {
                    prop_assert!(secs.is_finite() && secs >= 0.0, "{args:?}: {secs}");
                }
            }
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.is_empty());
                prop_assert!(!message.contains('\n'), "{args:?}: {message}");
            }
        }
    }
}

/// A valid document to mutate: the golden file the JSON reporter writes.
fn golden() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/report.json"
    ))
    .expect("the golden JSON exists")
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
            ("\"schema_version\": 1", "\"schema_version\": 2"),
            (
                "\"harness\": \"bench-harness\"",
                "\"harness\": \"criterion\"",
            ),
            ("\"benchmarks\"", "\"benches\""),
            ("\"time_ns\"", "\"time\""),
            ("\"samples\"", "\"sample\""),
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
        match document::parse(&text) {
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
