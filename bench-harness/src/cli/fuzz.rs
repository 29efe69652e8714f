//! Fuzzing, proptest-style, of the command line: the parser may not panic
//! on any input, and every refusal is one line. `FUZZ_CASES` sets the
//! number of inputs (CI runs the default, 4096).

use std::ffi::OsString;

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
    "--no-machine-warnings",
    "--flat",
    "--complexity",
    "--counters",
    "--pin",
    "--cold",
    "--save-baseline",
    "--no-keep-exe",
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
        match super::parse(args.clone()) {
            Ok(parsed) => {
                // What it accepted is in range.
                if let Some(precision) = parsed.settings.precision {
                    prop_assert!((0.0..=1.0).contains(&precision), "{args:?}");
                }
                for secs in [parsed.settings.measure_time, parsed.settings.max_time].into_iter().flatten() {
                    prop_assert!(secs.is_finite() && secs > 0.0, "{args:?}: {secs}");
                }
                // No warm-up is a choice.
                if let Some(secs) = parsed.settings.warm_up_time {
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
