//! The inverse of the parser for the measuring settings: the command line
//! of a `--forks` child, which must measure exactly as its parent would.
//! Every [`Settings`] field is printed here, generated from the settings'
//! table as the parser is; the property test below parses what this prints
//! and must get the same settings back. The hidden
//! flags of a `--forks` child and an `--against` worker are named here too,
//! for the parser to accept (so `forks` and `session` import `cli`, not the
//! other way round).

use std::ffi::OsString;
use std::path::Path;

use super::values::percentage_text;
use crate::settings::{settings_table, Settings};

/// The hidden flag (without its `--`) that carries the token of a
/// `--forks` child's environment (`forks::CHILD_ENV`) on its command line:
/// a process is a child only when both are there and equal, so a variable
/// left in a shell's environment changes nothing.
pub(crate) const FORK_TOKEN_FLAG: &str = "fork-child-token";

/// The hidden flag (without its `--`) that tells a child it is one of N
/// processes: each of its benchmarks measures for 1/N of the budgets.
pub(crate) const FORK_SHARE_FLAG: &str = "fork-share";

/// The hidden flag (without its `--`) that names the file of the names a
/// child measures.
pub(crate) const FORK_NAMES_FLAG: &str = "fork-names";

/// The hidden flag (without its `--`) that carries the token of an
/// `--against` worker's environment (`protocol::WORKER_ENV`) on its command
/// line: a process is a worker only when both are there and equal, so the
/// variable alone changes nothing.
pub(crate) const WORKER_TOKEN_FLAG: &str = "against-worker-token";

/// The command line of the child that measures the benchmarks whose names
/// [`write_names`] put in the file `names` (interleaved, as a run does) with `settings`, each for its `share` of
/// the budgets (one of `share` processes), and writes its JSON document to
/// `output`. Selection, baseline and output flags are the parent's
/// business and are not passed on.
pub(crate) fn child_args(
    settings: &Settings,
    names: &Path,
    share: usize,
    output: &Path,
) -> Vec<OsString> {
    let fixed = [
        "--bench",
        "--exact",
        "--include-ignored",
        "--color",
        "never",
        "--format",
        "json",
        // The parent pools the child's raw samples.
        "--samples",
        "full",
    ];
    let mut argv: Vec<OsString> = fixed.iter().map(OsString::from).collect();
    argv.extend(setting_args(settings).into_iter().map(OsString::from));
    argv.push("--output".into());
    argv.push(output.as_os_str().to_owned());
    if share > 1 {
        argv.push(format!("--{}", FORK_SHARE_FLAG).into());
        argv.push(share.to_string().into());
    }
    // The names in a file: a name may hold what a command line cannot (a
    // NUL), or be longer than it allows.
    argv.push(format!("--{}", FORK_NAMES_FLAG).into());
    argv.push(names.as_os_str().to_owned());
    argv
}

/// The names a child measures, written for it to `path` (a JSON array).
pub(crate) fn write_names(path: &Path, names: &[String]) -> std::io::Result<()> {
    crate::fs::write_atomically(path, crate::json::to_string(&names.to_vec()).as_bytes())
}

/// The names [`write_names`] wrote to `path`, or what is wrong with it.
pub(crate) fn read_names(path: &Path) -> Result<Vec<String>, String> {
    let bytes = crate::fs::read_regular(path, 64 << 20)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?
        .ok_or_else(|| format!("{} does not exist", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8", path.display()))?;
    crate::json::from_str::<Vec<String>>(&text)
}

/// The command line of an `--against` worker: a measured run with
/// `settings` (the worker takes its requests on standard input).
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
    use crate::select::Ignored;
    use crate::settings::{BytesUnit, Schedule, MAX_COUNT, MAX_SECONDS};
    use proptest::prelude::*;

    /// A child's command line parsed, its names read from a file.
    fn child_of(settings: &Settings, name: &str) -> cli::Args {
        parsed_child(settings, &[name.to_string()], 1)
    }

    fn parsed_child(settings: &Settings, names: &[String], share: usize) -> cli::Args {
        let file = std::env::temp_dir().join(format!(
            "bench-harness-names-{}-{:x}.json",
            std::process::id(),
            fastrand::u64(..)
        ));
        write_names(&file, names).unwrap();
        let args = cli::parse(child_args(settings, &file, share, Path::new("o.json")));
        std::fs::remove_file(&file).unwrap();
        args.unwrap()
    }

    #[test]
    fn a_child_measures_one_benchmark_into_a_json_document() {
        let child = child_of(&Settings::NONE, "kernels::fib/20");
        assert_eq!(child.action, Action::Bench);
        assert!(child.filter.exact);
        assert_eq!(child.filter.patterns, ["kernels::fib/20"]);
        assert_eq!(child.filter.ignored, Ignored::Include);
        assert_eq!(child.output.format, cli::OutputFormat::Json);
        assert_eq!(child.output.path.as_deref(), Some(Path::new("o.json")));
        assert_eq!((child.baselines.save, child.forks), (None, None));
    }

    #[test]
    fn a_child_measures_as_the_parent_would_and_nothing_else() {
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
        let child = child_of(&parent.settings, "kernels::sort/100");
        // The parent's measurement settings, exactly.
        assert_eq!(child.settings, parent.settings);
        assert_eq!(child.settings.precision, Some(0.0025));
        // That one benchmark, ignored or not; no skips, forks or baselines.
        assert_eq!(child.filter.patterns, ["kernels::sort/100"]);
        assert!(child.filter.skip.is_empty());
        assert_eq!(child.filter.ignored, Ignored::Include);
        assert_eq!(
            (child.forks, child.baselines.save, child.baselines.compare),
            (None, None, None)
        );
        // Its document carries the raw samples the parent pools.
        assert_eq!(child.output.format, cli::OutputFormat::Json);
        assert_eq!(child.output.samples, cli::Samples::Full);
    }

    #[test]
    fn a_parent_with_defaults_starts_children_with_defaults() {
        let parent = cli::parse(["--bench", "--forks", "2"]).unwrap();
        let child = child_of(&parent.settings, "a");
        assert_eq!(child.settings, parent.settings);
    }

    #[test]
    fn the_token_a_parent_puts_first_changes_nothing_else() {
        // `forks::run_child` starts every child with the hidden token flag.
        let names =
            std::env::temp_dir().join(format!("bench-harness-token-{}", std::process::id()));
        write_names(&names, &["a".to_string()]).unwrap();
        let plain = child_args(&Settings::NONE, &names, 1, Path::new("o.json"));
        let mut tokened: Vec<OsString> =
            vec![format!("--{}", FORK_TOKEN_FLAG).into(), "0123abcd".into()];
        tokened.extend(plain.iter().cloned());
        assert_eq!(cli::parse(tokened).unwrap(), cli::parse(plain).unwrap());
        std::fs::remove_file(&names).unwrap();
        // And it is not a flag --help shows.
        assert!(!cli::HELP.contains(FORK_TOKEN_FLAG));
    }

    #[test]
    fn a_child_of_several_measures_every_name_for_its_share() {
        // A name no command line could carry (a NUL), one that looks like
        // a flag, and a long one.
        let names = [
            "a::x".to_string(),
            "--list".to_string(),
            "nul\0byte".to_string(),
            "n".repeat(200_000),
        ];
        let child = parsed_child(&Settings::NONE, &names, 3);
        assert_eq!(child.filter.patterns, names);
        assert!(child.filter.exact);
        assert_eq!(child.fork_share, 3);
        assert!(!cli::HELP.contains(FORK_SHARE_FLAG));
        assert!(!cli::HELP.contains(FORK_NAMES_FLAG));
    }

    #[test]
    fn a_name_that_looks_like_a_flag_stays_a_name() {
        let child = child_of(&Settings::NONE, "--list");
        assert_eq!(child.filter.patterns, ["--list"]);
        assert_eq!(child.action, Action::Bench);
    }

    #[test]
    fn percentages_that_do_not_multiply_back_exactly_still_round_trip() {
        // 0.07 × 100 = 7.000000000000001 in binary floating point.
        for fraction in [0.07, 0.0025, 0.03, 0.0, 1.0, 0.001] {
            let settings = Settings {
                precision: Some(fraction),
                ..Settings::NONE
            };
            assert_eq!(child_of(&settings, "a").settings, settings);
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

        /// Parsing the child's command line gives back the parent's
        /// settings, every field of them.
        #[test]
        fn parsing_the_child_command_line_gives_back_the_settings(settings in settings()) {
            prop_assert_eq!(child_of(&settings, "bench").settings, settings);
        }
    }
}
