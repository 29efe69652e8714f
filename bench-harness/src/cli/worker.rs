//! The inverse of the parser for the measuring settings: the command line
//! of a worker (a `--forks` or default run's process, or either build of
//! `--against`), which must measure exactly as its run would. Every
//! [`Settings`] field is printed here, generated from the settings' table
//! as the parser is; the property test below parses what this prints and
//! must get the same settings back. The hidden flag of a worker is named
//! here too, for the parser to accept (so `session` imports `cli`, not the
//! other way round).

use std::ffi::OsString;

use super::values::percentage_text;
use crate::settings::{settings_table, Settings};

/// The hidden flag (without its `--`) that carries the token of a worker's
/// environment (`session::worker::WORKER_ENV`) on its command line: a
/// process is a worker only when both are there and equal, so the variable
/// alone changes nothing.
pub(crate) const WORKER_TOKEN_FLAG: &str = "against-worker-token";

/// The command line of a worker: a measured run with `settings` (the
/// worker takes its requests on standard input).
pub(crate) fn worker_args(settings: &Settings) -> Vec<OsString> {
    let mut argv: Vec<OsString> = ["--bench", "--color", "never"]
        .iter()
        .map(OsString::from)
        .collect();
    argv.extend(setting_args(settings).into_iter().map(OsString::from));
    argv
}

/// Generates [`setting_args`] from the settings' table.
macro_rules! setting_args {
    (
        bounds: $bounds:tt
        $(
            $(#[$doc:meta])*
            $field:ident: $ty:ty { flag: $flag:literal, value: $value:tt, $($rest:tt)* }
        )*
    ) => {
        /// The flags that say `settings`, field by field.
        fn setting_args(settings: &Settings) -> Vec<String> {
            let mut argv = Vec::new();
            $(setting_text!($value, settings.$field, concat!("--", $flag), argv);)*
            argv
        }
    };
}

/// The flag that says one setting's value, if it is set, by its kind.
macro_rules! setting_text {
    // Switches: only `true` can be said on a command line.
    ((switch), $value:expr, $flag:expr, $argv:ident) => {
        if $value == Some(true) {
            $argv.push($flag.to_string());
        }
    };
    (($kind:ident $($how:tt)*), $value:expr, $flag:expr, $argv:ident) => {
        if let Some(value) = $value {
            $argv.push($flag.to_string());
            $argv.push(setting_text!(@$kind value));
        }
    };
    (@percentage $value:ident) => {
        percentage_text($value)
    };
    (@$kind:ident $value:ident) => {
        $value.to_string()
    };
}

settings_table!(setting_args);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{self, Action};
    use crate::settings::{BytesUnit, Schedule, MAX_COUNT, MAX_SECONDS};
    use proptest::prelude::*;

    /// A worker's command line parsed.
    fn worker_of(settings: &Settings) -> cli::Args {
        cli::parse(worker_args(settings)).unwrap()
    }

    #[test]
    fn a_worker_measures_as_the_parent_would_and_nothing_else() {
        let parent = cli::parse([
            "--bench",
            "--timer",
            "os",
            "--warm-up-time",
            "0.05",
            "--measure-time",
            "0.7",
            "--max-time",
            "3",
            "--min-samples",
            "12",
            "--precision",
            "0.25",
            "--schedule",
            "sequential",
            "--warm-up-window",
            "7",
            "--warm-up-cv",
            "3",
            "--seed",
            "41",
            "--bytes-unit",
            "binary",
            "--counters",
            "--pin",
            "1",
            "--cold",
            "--forks",
            "3",
            "--save-baseline",
            "main",
            "--format",
            "csv",
            "-o",
            "out.csv",
            "--skip",
            "slow",
            "sort",
        ])
        .unwrap();
        let worker = worker_of(&parent.settings);
        // The parent's measurement settings, exactly.
        assert_eq!(worker.action, Action::Bench);
        assert_eq!(worker.settings, parent.settings);
        assert_eq!(worker.settings.precision, Some(0.0025));
        // No filters, skips, forks, baselines or outputs of its own.
        assert!(worker.filter.patterns.is_empty());
        assert!(worker.filter.skip.is_empty());
        assert_eq!(
            (
                worker.forks,
                worker.baselines.save,
                worker.baselines.compare
            ),
            (None, None, None)
        );
        assert_eq!(worker.output.path, None);
    }

    #[test]
    fn a_parent_with_defaults_starts_workers_with_defaults() {
        let parent = cli::parse(["--bench", "--forks", "2"]).unwrap();
        assert_eq!(worker_of(&parent.settings).settings, parent.settings);
    }

    #[test]
    fn the_token_a_parent_adds_changes_nothing_else() {
        // `worker::Peer::start` starts every worker with the hidden token
        // flag after its settings.
        let plain = worker_args(&Settings::NONE);
        let mut tokened = plain.clone();
        tokened.extend([format!("--{WORKER_TOKEN_FLAG}").into(), "0123abcd".into()]);
        assert_eq!(cli::parse(tokened).unwrap(), cli::parse(plain).unwrap());
        // And it is not a flag --help shows.
        assert!(!cli::HELP.contains(WORKER_TOKEN_FLAG));
    }

    #[test]
    fn percentages_that_do_not_multiply_back_exactly_still_round_trip() {
        // 0.07 × 100 = 7.000000000000001 in binary floating point.
        for fraction in [0.07, 0.0025, 0.03, 0.0, 1.0, 0.001] {
            let settings = Settings {
                precision: Some(fraction),
                ..Settings::NONE
            };
            assert_eq!(worker_of(&settings).settings, settings);
        }
    }

    /// A percentage as the parser makes it: a decimal percentage / 100.
    fn fraction(zero_ok: bool) -> impl Strategy<Value = f64> {
        let low = if zero_ok { 0.0 } else { f64::MIN_POSITIVE };
        (low..=100.0f64).prop_map(|pct| pct / 100.0)
    }

    fn seconds(zero_ok: bool) -> impl Strategy<Value = f64> {
        let low = if zero_ok { 0.0 } else { f64::MIN_POSITIVE };
        low..=MAX_SECONDS
    }

    /// The values of a type that `choices` ("a, b or c") names.
    fn choice<T: std::str::FromStr + Clone + std::fmt::Debug + 'static>(
        choices: &str,
    ) -> impl Strategy<Value = T> {
        let values: Vec<T> = choices
            .split([',', ' '])
            .filter(|word| !word.is_empty() && *word != "or")
            .map(|word| word.parse().ok().expect("a choice the type parses"))
            .collect();
        proptest::sample::select(values)
    }

    /// Generates [`settings`], every field its kind's values or none.
    macro_rules! settings_strategy {
        (
            bounds: $bounds:tt
            $(
                $(#[$doc:meta])*
                $field:ident: $ty:ty { flag: $flag:literal, value: $value:tt, $($rest:tt)* }
            )*
        ) => {
            fn settings() -> impl Strategy<Value = Settings> {
                let strategy = Just(Settings::NONE).boxed();
                $(
                    let strategy = (strategy, value_strategy!($value, $ty))
                        .prop_map(|(mut settings, value)| {
                            settings.$field = value;
                            settings
                        })
                        .boxed();
                )*
                strategy
            }
        };
    }

    /// A setting's values as its flag's parser gives them, or none.
    macro_rules! value_strategy {
        ((switch), $ty:ty) => {
            prop_oneof![Just(None), Just(Some(true))]
        };
        ((seconds), $ty:ty) => {
            proptest::option::of(seconds(false))
        };
        ((seconds zero_ok), $ty:ty) => {
            proptest::option::of(seconds(true))
        };
        ((count), $ty:ty) => {
            proptest::option::of(1..=MAX_COUNT)
        };
        ((count_from $least:literal $why:literal), $ty:ty) => {
            proptest::option::of($least..=MAX_COUNT)
        };
        ((percentage), $ty:ty) => {
            proptest::option::of(fraction(false))
        };
        ((percentage zero_ok $zero:literal), $ty:ty) => {
            proptest::option::of(fraction(true))
        };
        ((choice $choices:expr), $ty:ty) => {
            proptest::option::of(choice::<$ty>($choices))
        };
        ((number $what:expr), $ty:ty) => {
            proptest::option::of(any::<$ty>())
        };
    }

    settings_table!(settings_strategy);

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// Parsing the worker's command line gives back the parent's
        /// settings, every field of them.
        #[test]
        fn parsing_the_worker_command_line_gives_back_the_settings(settings in settings()) {
            prop_assert_eq!(worker_of(&settings).settings, settings);
        }
    }
}
