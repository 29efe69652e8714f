//! Command line: libtest-compatible where libtest has the flag.
//!
//! `cargo bench` passes `--bench`; `cargo test --benches` passes nothing, and
//! then every benchmark body runs once as a smoke test. [`parse`] reads the
//! arguments into [`Args`], which the session splits once into the parts
//! the stages below it take: the [`Filter`], the [`Settings`], and the
//! output and baseline options. [`worker_args`] is the inverse for the
//! measuring settings: the command line of a worker process.

mod args;
#[cfg(test)]
mod fuzz;
mod help;
mod values;
mod worker;

use std::ffi::OsString;
use std::path::PathBuf;

use crate::select::Ignored;
use crate::settings::{settings_table, BytesUnit, Schedule, Settings};

pub(crate) use args::*;
pub(crate) use help::HELP;
use values::{bad_choice, baseline_name, choice, count, number, percentage, seconds, utf8};
pub(crate) use worker::{worker_args, WORKER_TOKEN_FLAG};

/// Generates [`SETTING_FLAGS`] and [`parse_setting`] from the settings'
/// table.
macro_rules! setting_parser {
    (
        bounds: $bounds:tt
        $(
            $(#[$doc:meta])*
            $field:ident: $ty:ty { flag: $flag:literal, value: $value:tt, $($rest:tt)* }
        )*
    ) => {
        /// The measuring settings' flags, without their `--`.
        const SETTING_FLAGS: &[&str] = &[$($flag),*];

        /// Reads the value of `flag`, one of [`SETTING_FLAGS`] with its
        /// `--`, into its field of `settings`.
        fn parse_setting(
            settings: &mut Settings,
            flag: &str,
            parser: &mut lexopt::Parser,
        ) -> Result<(), CliError> {
            $(
                if flag[2..] == *$flag {
                    settings.$field = Some(setting_value!($value, flag, parser));
                }
            )*
            Ok(())
        }
    };
}

/// A setting's value, by the kind its row gives.
macro_rules! setting_value {
    ((switch), $flag:ident, $parser:ident) => {
        true
    };
    ((seconds), $flag:ident, $parser:ident) => {
        seconds($flag, $parser.value()?, false)?
    };
    ((seconds zero_ok), $flag:ident, $parser:ident) => {
        seconds($flag, $parser.value()?, true)?
    };
    ((count), $flag:ident, $parser:ident) => {
        count($flag, $parser.value()?)?
    };
    ((count_from $least:literal $why:literal), $flag:ident, $parser:ident) => {{
        let n = count($flag, $parser.value()?)?;
        if n < $least {
            return Err(CliError(format!(
                "{} needs at least {} {}, got '{n}'",
                $flag, $least, $why
            )));
        }
        n
    }};
    ((percentage), $flag:ident, $parser:ident) => {
        percentage($flag, $parser.value()?, false)?
    };
    ((percentage zero_ok $zero:literal), $flag:ident, $parser:ident) => {
        percentage($flag, $parser.value()?, true)?
    };
    ((choice $choices:expr), $flag:ident, $parser:ident) => {
        choice($flag, $parser.value()?, $choices)?
    };
    ((number $what:expr), $flag:ident, $parser:ident) => {
        number($flag, $parser.value()?, &$what)?
    };
}

settings_table!(setting_parser);

/// Parses the arguments after the program name.
pub(crate) fn parse<I>(args: I) -> Result<Args, CliError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    parse_args(args.into_iter().map(Into::into).collect())
}

/// [`parse`], compiled once: PERF: the parser is this crate's largest
/// function, and a generic one is compiled again for every kind of
/// iterator it is called with (in a user's crate too, through
/// [`crate::run_suite`]).
fn parse_args(args: Vec<OsString>) -> Result<Args, CliError> {
    use lexopt::prelude::*;

    let mut parsed = Args::default();
    let mut list = false;
    let mut bench = false;
    let mut help = false;
    let mut list_baselines = false;
    let mut history = false;
    let mut format = None;
    let mut samples_given = false;
    let mut in_process = false;
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next()? {
        let settings = &mut parsed.settings;
        let output = &mut parsed.output;
        let baselines = &mut parsed.baselines;
        let filter = &mut parsed.filter;
        match arg {
            Value(pattern) => filter.patterns.push(utf8("a filter", pattern)?),
            Long("exact") => filter.exact = true,
            Long("skip") => filter.skip.push(utf8("--skip", parser.value()?)?),
            Long("ignored") => filter.ignored = Ignored::Only,
            Long("include-ignored") => filter.ignored = Ignored::Include,
            Long("list") => list = true,
            Long("format") => format = Some(utf8("--format", parser.value()?)?),
            Long("bench") => bench = true,
            Long("test") => bench = false,
            Short('h') | Long("help") => help = true,
            Long("color") | Long("colour") => {
                output.color = choice("--color", parser.value()?, "auto, always or never")?
            }
            // Measuring settings, from the table (their inverse: `child.rs`).
            Long(flag) if SETTING_FLAGS.contains(&flag) => {
                let flag = format!("--{flag}");
                parse_setting(settings, &flag, &mut parser)?
            }
            Long("quick") => parsed.quick = true,
            Long("profile-time") => {
                parsed.profile.time = Some(seconds("--profile-time", parser.value()?, false)?)
            }
            Long("flamegraph") => parsed.profile.flamegraph = true,
            // criterion's; it asks for no plot output, and ours are in the
            // HTML report (--no-report), so the run goes on (a hint would
            // only make a ported CI script fail).
            Long("noplot") => parsed.notes.push(
                "--noplot is criterion's and is ignored: the plots here are in the HTML report \
                 (target/bench-harness/report/), which --no-report skips"
                    .to_string(),
            ),
            Long("details") => output.details = true,
            Short('v') | Long("verbose") => output.verbose = true,
            Long("no-machine-warnings") => output.no_machine_warnings = true,
            Long("flat") => output.flat = true,
            Long("complexity") => output.complexity = true,
            Long("samples") => {
                output.samples = choice("--samples", parser.value()?, "none or full")?;
                samples_given = true;
            }
            Long("report") => {
                let path = PathBuf::from(parser.value()?);
                if path.as_os_str().is_empty() {
                    return Err(CliError(
                        "--report needs a directory or a .html file".into(),
                    ));
                }
                output.report = Some(path);
            }
            Long("no-report") => output.no_report = true,
            Long("no-history") => output.no_history = true,
            Long("history") => history = true,
            Long("output") | Short('o') => {
                let path = PathBuf::from(parser.value()?);
                if path.as_os_str().is_empty() {
                    return Err(CliError("--output needs a file name".into()));
                }
                // `-o -`: standard output, as without -o.
                output.path = (path.as_os_str() != "-").then_some(path);
            }
            Long("save-baseline") => {
                baselines.save = Some(baseline_name(
                    "--save-baseline",
                    named(&mut parser, "--save-baseline")?,
                )?)
            }
            Long("no-keep-exe") => baselines.keep_exe = false,
            Long("baseline") => {
                baselines.compare = Some(baseline_name(
                    "--baseline",
                    named(&mut parser, "--baseline")?,
                )?)
            }
            Long("list-baselines") => list_baselines = true,
            Long("noise-threshold") => {
                baselines.noise_threshold = percentage("--noise-threshold", parser.value()?, true)?;
                baselines.noise_threshold_given = true;
            }
            Long("against") => {
                let name = baseline_name("--against", named(&mut parser, "--against")?)?;
                set_against(&mut baselines.against, Against::Baseline(name))?;
            }
            Long("against-exe") => {
                let path = PathBuf::from(parser.value()?);
                if path.as_os_str().is_empty() {
                    return Err(CliError(
                        "--against-exe needs the path of a bench executable".into(),
                    ));
                }
                set_against(&mut baselines.against, Against::Exe(path))?;
            }
            Long("fail-on-regression") => baselines.fail_on_regression = true,
            Long("forks") => {
                let text = utf8("--forks", parser.value()?)?;
                parsed.forks = Some(match text.trim().parse::<usize>() {
                    Ok(n) if (0..=MAX_FORKS).contains(&n) => n,
                    _ => {
                        return Err(CliError(format!(
                        "--forks needs a number of processes from 0 (this one) to {MAX_FORKS}, \
                         got '{text}'"
                    )))
                    }
                });
            }
            // Hidden: a worker's token, read by `worker::is_worker`.
            Long(WORKER_TOKEN_FLAG) => drop(parser.value()?),
            // libtest flags with no meaning here.
            Short('q') | Long("quiet") => output.quiet = true,
            Long("nocapture") | Long("show-output") => {}
            Long("logfile") => {
                let path = PathBuf::from(parser.value()?);
                if path.as_os_str().is_empty() {
                    return Err(CliError("--logfile needs a file name".into()));
                }
                output.logfile = Some(path);
            }
            // libtest's, for tests built with panic=abort (which it runs in
            // processes of their own): benchmarks run in this process
            // already, unless --forks asks otherwise.
            Long("force-run-in-process") => in_process = true,
            Long("test-threads") => {
                count("--test-threads", parser.value()?)?;
            }
            // libtest's `-Z unstable-options`, which `--format json` needs
            // there; nothing is unstable here.
            Short('Z') => {
                let value = utf8("-Z", parser.value()?)?;
                if value != "unstable-options" {
                    return Err(CliError(format!(
                        "-Z takes only unstable-options (as libtest's does), got '{value}'"
                    )));
                }
            }
            Long(flag) => {
                return Err(match criterion_hint(flag) {
                    Some(hint) => CliError(format!("'--{flag}' is criterion's flag; {hint}")),
                    None => arg.unexpected().into(),
                })
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    if parsed.quick {
        parsed.settings = quick_settings().overridden_by(parsed.settings);
    }

    if let Some(format) = format {
        match (list, format.as_str()) {
            (true, "terse") => parsed.list_format = ListFormat::Terse,
            (true, "pretty") => parsed.list_format = ListFormat::Pretty,
            (true, other) => {
                return Err(bad_choice("--format", other, "pretty or terse with --list"))
            }
            (false, "terse") if bench => {
                return Err(CliError(
                    "'--format terse' goes with --list or a smoke test (no --bench); a measured \
                     run writes pretty, json, csv, markdown, bencher or bmf"
                        .into(),
                ))
            }
            (false, "terse") => parsed.list_format = ListFormat::Terse,
            (false, other) => {
                parsed.output.format = other
                    .parse()
                    .map_err(|()| bad_choice("--format", other, OutputFormat::CHOICES))?
            }
        }
    }
    if samples_given && parsed.output.format != OutputFormat::Json {
        return Err(CliError(
            "--samples goes with --format json: it says whether the JSON output carries the \
             raw samples (a saved baseline always keeps them)"
                .into(),
        ));
    }
    if !parsed.baselines.keep_exe && parsed.baselines.save.is_none() {
        return Err(CliError(
            "--no-keep-exe goes with --save-baseline NAME: it saves the baseline without \
             a copy of this executable"
                .into(),
        ));
    }
    if parsed.baselines.fail_on_regression
        && parsed.baselines.compare.is_none()
        && parsed.baselines.against.is_none()
    {
        return Err(CliError(
            "--fail-on-regression needs --baseline NAME or --against NAME to compare with".into(),
        ));
    }
    if parsed.baselines.against.is_some() {
        let format = parsed.output.format;
        if format == OutputFormat::Bencher
            || (format == OutputFormat::Pretty && parsed.output.path.is_some())
        {
            return Err(CliError(format!(
                "--against writes its comparison as json, csv, markdown or bmf: use one of \
                 those with --output, not --format {format}"
            )));
        }
        let clash = [
            (parsed.baselines.compare.is_some(), "--baseline"),
            (parsed.baselines.save.is_some(), "--save-baseline"),
            (parsed.forks.is_some(), "--forks"),
        ]
        .into_iter()
        .find(|(given, _)| *given);
        if let Some((_, flag)) = clash {
            return Err(CliError(format!(
                "--against compares two builds in one paired run and does not go with {flag}; \
                 run them separately"
            )));
        }
    }
    if in_process {
        // libtest's meaning: in this process, which is `--forks 0`.
        if parsed.forks.is_some_and(|n| n > 0) {
            return Err(CliError(
                "--force-run-in-process and --forks N contradict each other: --forks measures \
                 in processes of their own; keep one"
                    .into(),
            ));
        }
        // A smoke test or a list runs here anyway: nothing to change.
        if bench {
            parsed.forks = Some(0);
        }
    }
    if parsed.output.logfile.is_some() && (list_baselines || history) {
        return Err(CliError(
            "--logfile logs a run, a smoke test or --list, as libtest does; not \
             --list-baselines or --history"
                .into(),
        ));
    }
    check_profile(&parsed)?;
    if parsed.output.no_report && parsed.output.report.is_some() {
        return Err(CliError(
            "--report PATH and --no-report contradict each other: keep one".into(),
        ));
    }
    let measuring_flag = [
        (parsed.baselines.against.is_some(), "--against"),
        (parsed.profile.time.is_some(), "--profile-time"),
        (parsed.profile.flamegraph, "--flamegraph"),
        (parsed.output.report.is_some(), "--report"),
        (parsed.forks.is_some(), "--forks"),
        (parsed.output.path.is_some(), "--output"),
        (parsed.baselines.save.is_some(), "--save-baseline"),
        (parsed.baselines.compare.is_some(), "--baseline"),
    ]
    .into_iter()
    .find(|(given, _)| *given);
    if let Some((_, flag)) = measuring_flag {
        if list || list_baselines || history {
            return Err(CliError(format!(
                "{flag} goes with a measured run, not with --list, --list-baselines or --history"
            )));
        }
        if !bench && !help {
            return Err(CliError(format!(
                "{flag} goes with a measured run: add --bench (as `cargo bench` does); \
                 without it each benchmark only runs once as a test"
            )));
        }
    }
    let format = parsed.output.format;
    if format != OutputFormat::Pretty && history {
        return Err(CliError(format!(
            "--history prints a table only, not --format {format}; the history file itself \
             is JSON Lines (see docs/history.md)"
        )));
    }
    if format != OutputFormat::Pretty && !(bench || list || list_baselines || help) {
        // libtest's JSON test events are not written: a tool reading them
        // would get human text instead.
        return Err(CliError(format!(
            "--format {format} writes a measured run's results: add --bench (as `cargo bench` \
             does); without it each benchmark only runs once as a test, whose output is \
             libtest's text (pretty or terse), not libtest's JSON events"
        )));
    }
    parsed.action = if help {
        Action::Help
    } else if list_baselines {
        Action::ListBaselines
    } else if history {
        Action::History
    } else if list {
        Action::List
    } else if bench {
        Action::Bench
    } else {
        Action::Test
    };
    Ok(parsed)
}

/// `--quick`: about a sixth of the default measuring time, no precision
/// target, and a hard bound of half a second per benchmark. Flags given on
/// the command line still win over these.
pub(crate) fn quick_settings() -> Settings {
    Settings {
        warm_up_time: Some(QUICK_WARM_UP_SECS),
        measure_time: Some(QUICK_MEASURE_SECS),
        max_time: Some(QUICK_MAX_SECS),
        precision: Some(0.0),
        ..Settings::NONE
    }
}

pub(crate) const QUICK_WARM_UP_SECS: f64 = 0.02;
pub(crate) const QUICK_MEASURE_SECS: f64 = 0.05;
pub(crate) const QUICK_MAX_SECS: f64 = 0.5;

/// What to use instead of one of criterion's flags (`flag` without its
/// dashes), or `None` for a flag criterion does not have either. Flags that
/// mean the same in both (`--warm-up-time`, `--save-baseline`,
/// `--baseline`, `--noise-threshold`, `--list`, `--exact`) are parsed as
/// ours; `--quick` is ours too; `--noplot` is accepted with a note.
fn criterion_hint(flag: &str) -> Option<&'static str> {
    Some(match flag {
        "sample-size" => "use --min-samples N (samples to record before stopping)",
        "measurement-time" => "use --measure-time SECS (measuring time per benchmark)",
        "warmup-time" => "use --warm-up-time SECS",
        "load-baseline" => {
            "compare this build with a saved run with --baseline NAME, or with the kept \
             executable of one with --against NAME"
        }
        "discard-baseline" => {
            "nothing is saved unless --save-baseline NAME is given: drop the flag"
        }
        "baseline-lenient" => {
            "use --baseline NAME: benchmarks missing from it are listed as new, not errors"
        }
        "significance-level" | "confidence-level" | "nresamples" => {
            "intervals here are 95% and not resampled; --noise-threshold PCT sets the \
             change that counts"
        }
        "plotting-backend" => {
            "the plots are in the HTML report, drawn as inline SVG: drop the flag"
        }
        "output-format" => "use --format bencher (or json, csv, markdown)",
        _ => return None,
    })
}

/// The value of a flag that takes a baseline name; the one-line error
/// when the command line ends without one.
fn named(parser: &mut lexopt::Parser, flag: &str) -> Result<OsString, CliError> {
    parser
        .value()
        .map_err(|_| values::missing_baseline_name(flag))
}

/// `--profile-time` and `--flamegraph` profile instead of measuring: the
/// flags that save, compare or write a measured run's results do not go
/// with them (`--against`, or `--baseline` whose executable was kept, goes
/// with `--flamegraph`: a differential flame graph).
fn check_profile(parsed: &Args) -> Result<(), CliError> {
    let profile = parsed.profile;
    if !profile.profiles() {
        return Ok(());
    }
    let flag = if profile.flamegraph {
        "--flamegraph"
    } else {
        "--profile-time"
    };
    let clash = [
        (parsed.baselines.save.is_some(), "--save-baseline"),
        (
            parsed.baselines.compare.is_some() && !profile.flamegraph,
            "--baseline",
        ),
        (parsed.forks.is_some(), "--forks"),
        (parsed.output.path.is_some(), "--output"),
        (
            parsed.baselines.against.is_some() && !profile.flamegraph,
            "--against",
        ),
        (
            parsed.baselines.against.is_some() && parsed.baselines.compare.is_some(),
            "--baseline and --against together",
        ),
        (parsed.output.format != OutputFormat::Pretty, "--format"),
        (
            parsed.output.report.is_some() && !profile.flamegraph,
            "--report",
        ),
    ]
    .into_iter()
    .find(|(given, _)| *given);
    match clash {
        Some((_, other)) => Err(CliError(format!(
            "{flag} profiles the benchmarks instead of measuring them and does not go with \
             {other}; run them separately"
        ))),
        None => Ok(()),
    }
}

/// `--against` and `--against-exe` name one other build.
fn set_against(slot: &mut Option<Against>, against: Against) -> Result<(), CliError> {
    if slot.is_some() {
        return Err(CliError(
            "--against and --against-exe name the one build to compare with: give one of them, once"
                .into(),
        ));
    }
    *slot = Some(against);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_runtime::TimerChoice;

    #[test]
    fn help_mentions_every_flag_the_parser_accepts() {
        let source = include_str!("mod.rs");
        let mut flags = 0;
        let parsed = source.split("Long(\"").skip(1);
        let names = parsed.map(|piece| &piece[..piece.find('"').unwrap()]);
        for name in names.chain(SETTING_FLAGS.iter().copied()) {
            // `--colour` is `--color`'s British spelling.
            if name != "colour" {
                let flag = format!("--{name}");
                assert!(HELP.contains(&flag), "--help lacks {flag}");
                flags += 1;
            }
        }
        assert!(flags > 30, "found only {flags} flags in the parser");
    }

    fn parse_ok(args: &[&str]) -> Args {
        parse(args.iter().copied()).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    fn parse_err(args: &[&str]) -> String {
        parse(args.iter().copied()).unwrap_err().to_string()
    }

    #[test]
    fn report_flags_choose_where_the_html_report_goes() {
        let args = parse_ok(&["--bench"]);
        assert_eq!((args.output.report, args.output.no_report), (None, false));
        let args = parse_ok(&["--bench", "--report", "out/r.html"]);
        assert_eq!(args.output.report, Some(PathBuf::from("out/r.html")));
        assert!(parse_ok(&["--bench", "--no-report"]).output.no_report);
        assert!(parse_err(&["--bench", "--report", "x", "--no-report"]).contains("contradict"));
        assert!(parse_err(&["--bench", "--report", ""]).contains("--report needs"));
        assert!(parse_err(&["--report", "x"]).contains("add --bench"));
    }

    /// Every comparison in every format: `--against` writes what a
    /// measured run does but libtest's lines, which hold no comparison,
    /// and a table to a file.
    #[test]
    fn against_takes_every_format_that_holds_a_comparison() {
        for format in ["json", "csv", "markdown", "bmf"] {
            let args = parse_ok(&[
                "--bench",
                "--against",
                "main",
                "--format",
                format,
                "-o",
                "x",
            ]);
            assert_eq!(args.output.format.to_string(), format);
        }
        for refused in [&["--format", "bencher"][..], &["-o", "x"]] {
            let args = [&["--bench", "--against", "main"][..], refused].concat();
            assert!(
                parse_err(&args).contains("use one of those with --output"),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn no_bench_flag_means_smoke_test() {
        assert_eq!(parse_ok(&[]).action, Action::Test);
        assert_eq!(parse_ok(&["--bench"]).action, Action::Bench);
        assert_eq!(parse_ok(&["--bench", "--test"]).action, Action::Test);
    }

    #[test]
    fn positional_arguments_are_filters() {
        let args = parse_ok(&["fib", "--bench", "sort"]);
        assert_eq!(args.filter.patterns, ["fib", "sort"]);
    }

    #[test]
    fn skip_is_repeatable() {
        let args = parse_ok(&["--skip", "a", "--skip=b"]);
        assert_eq!(args.filter.skip, ["a", "b"]);
    }

    #[test]
    fn list_and_help_win_over_bench() {
        assert_eq!(parse_ok(&["--bench", "--list"]).action, Action::List);
        assert_eq!(parse_ok(&["--bench", "--help"]).action, Action::Help);
        assert_eq!(parse_ok(&["-h"]).action, Action::Help);
    }

    #[test]
    fn history_lists_runs_and_no_history_turns_recording_off() {
        // `cargo bench -- --history` passes --bench too.
        assert_eq!(parse_ok(&["--bench", "--history"]).action, Action::History);
        assert!(!parse_ok(&["--bench"]).output.no_history);
        assert!(parse_ok(&["--bench", "--no-history"]).output.no_history);
        assert_eq!(
            parse_ok(&["--bench", "--format", "bmf"]).output.format,
            OutputFormat::Bmf
        );
        assert!(parse_err(&["--history", "--format", "json"])
            .starts_with("--history prints a table only, not --format json"),);
        assert!(parse_err(&["--bench", "--history", "--save-baseline", "x"])
            .starts_with("--save-baseline goes with a measured run, not with --list, --list-baselines or --history"));
    }

    #[test]
    fn list_terse_format() {
        let args = parse_ok(&["--list", "--format", "terse"]);
        assert_eq!(args.list_format, ListFormat::Terse);
    }

    #[test]
    fn libtest_terse_and_json_flags_in_a_smoke_test() {
        // libtest's `--format terse` works in a smoke test as there.
        let args = parse_ok(&["--format", "terse"]);
        assert_eq!(
            (args.action, args.list_format),
            (Action::Test, ListFormat::Terse)
        );
        // `-Z unstable-options` (which libtest's json needs) is accepted, in
        // both spellings; json itself needs --bench.
        for z in [&["-Z", "unstable-options"][..], &["-Zunstable-options"]] {
            let mut args = z.to_vec();
            args.extend(["--bench", "--format", "json"]);
            assert_eq!(parse_ok(&args).output.format, OutputFormat::Json);
        }
    }

    #[test]
    fn libtest_logfile_and_force_run_in_process_are_accepted() {
        let args = parse_ok(&["--bench", "--logfile", "log.txt", "--force-run-in-process"]);
        assert_eq!(args.output.logfile, Some(PathBuf::from("log.txt")));
        // In this process, as libtest means it.
        assert_eq!(args.forks, Some(0));
        assert!(parse_ok(&["--list", "--logfile", "l"])
            .output
            .logfile
            .is_some());
        assert!(parse_err(&["--logfile", ""]).contains("--logfile needs a file name"));
        // `cargo test --benches -- --force-run-in-process`: a smoke test,
        // in this process already (the review's failure 29, test mode).
        assert_eq!(parse_ok(&["--force-run-in-process"]).forks, None);
        assert_eq!(parse_ok(&["--list", "--force-run-in-process"]).forks, None);
        let clash = parse_err(&["--bench", "--force-run-in-process", "--forks", "2"]);
        assert!(clash.contains("contradict"), "{clash}");
        assert!(parse_err(&["--history", "--logfile", "l"]).contains("not --list-baselines"));
    }

    #[test]
    fn libtest_flags_are_accepted_and_ignored() {
        let args = parse_ok(&["--nocapture", "--show-output", "--test-threads", "2"]);
        assert_eq!(args, Args::default());
    }

    #[test]
    fn quiet_turns_progress_off_in_either_spelling() {
        assert!(!parse_ok(&["--bench"]).output.quiet);
        assert!(parse_ok(&["--bench", "-q"]).output.quiet);
        assert!(parse_ok(&["--bench", "--quiet"]).output.quiet);
    }

    #[test]
    fn budgets_and_timer_are_parsed() {
        let args = parse_ok(&[
            "--warm-up-time",
            "0",
            "--measure-time=0.25",
            "--max-time",
            "3",
            "--min-samples",
            "20",
            "--timer",
            "os",
            "--color",
            "never",
        ]);
        assert_eq!(args.settings.warm_up_time, Some(0.0));
        assert_eq!(args.settings.measure_time, Some(0.25));
        assert_eq!(args.settings.max_time, Some(3.0));
        assert_eq!(args.settings.min_samples, Some(20));
        assert_eq!(args.settings.timer, Some(TimerChoice::Os));
        assert_eq!(args.output.color, Color::Never);
    }

    #[test]
    fn bad_input_is_one_line_naming_the_flag_and_value() {
        let cases: &[(&[&str], &str)] = &[
            (&["--frobnicate"], "unknown flag '--frobnicate'"),
            (
                &["--bench", "--against", "main", "--baseline", "main"],
                "--against compares two builds in one paired run and does not go with --baseline",
            ),
            (
                &["--bench", "--against", "a", "--against-exe", "b"],
                "give one of them, once",
            ),
            (
                &["--bench", "--against", "main", "--format", "bencher"],
                "--against writes its comparison as json, csv, markdown or bmf",
            ),
            (
                &["--against", "main"],
                "--against goes with a measured run: add --bench",
            ),
            (
                &["--bench", "--against", "../x"],
                "--against '../x' is not a baseline name",
            ),
            (&["--measure-time"], "'--measure-time' needs a value"),
            (
                &["--measure-time", "abc"],
                "--measure-time needs a number of seconds such as 0.5, got 'abc'",
            ),
            (
                &["--measure-time", "-1"],
                "--measure-time must be more than 0",
            ),
            (
                &["--measure-time", "0"],
                "--measure-time must be more than 0",
            ),
            (
                &["--measure-time", "NaN"],
                "--measure-time must be more than 0",
            ),
            (
                &["--measure-time", "1e9"],
                "at most 86400 seconds, got '1e9'",
            ),
            (&["--warm-up-time", "-0.5"], "--warm-up-time must be 0"),
            (
                &["--min-samples", "0"],
                "--min-samples needs a whole number from 1 to 10000000, got '0'",
            ),
            (&["--min-samples", "2.5"], "got '2.5'"),
            (
                &["--timer", "tsc"],
                "--timer must be auto, os or cycles, got 'tsc'",
            ),
            (
                &["--color", "sometimes"],
                "--color must be auto, always or never, got 'sometimes'",
            ),
            (
                &["--format", "yaml"],
                "--format must be pretty, json, csv, markdown, bencher or bmf, got 'yaml'",
            ),
            (
                &["--bench", "--format", "terse"],
                "'--format terse' goes with --list or a smoke test (no --bench)",
            ),
            (
                &["--format", "json"],
                "--format json writes a measured run's results: add --bench",
            ),
            (
                &["-Z", "unstable-options", "--format", "csv"],
                "--format csv writes a measured run's results: add --bench",
            ),
            (
                &["-Z", "no-such-thing"],
                "-Z takes only unstable-options (as libtest's does), got 'no-such-thing'",
            ),
            (
                &["--list", "--format", "json"],
                "--format must be pretty or terse with --list",
            ),
            (
                &["--list", "--format", "xml"],
                "--format must be pretty or terse with --list, got 'xml'",
            ),
            (
                &["--save-baseline", "../etc"],
                "--save-baseline '../etc' is not a baseline name",
            ),
            (&["--baseline", ""], "--baseline '' is not a baseline name"),
            // `cargo bench -- --save-baseline`: cargo's `--bench` comes last.
            (
                &["--save-baseline", "--bench"],
                "--save-baseline needs a baseline name right after it, like `--save-baseline main`",
            ),
            (
                &["--bench", "--save-baseline"],
                "--save-baseline needs a baseline name right after it",
            ),
            (
                &["--against"],
                "--against needs a baseline name right after it",
            ),
            (&["--baseline", "a b"], "is not a baseline name"),
            (
                &["--fail-on-regression"],
                "--fail-on-regression needs --baseline NAME",
            ),
            (
                &["--bench", "--no-keep-exe"],
                "--no-keep-exe goes with --save-baseline NAME",
            ),
            (
                &["--list-baselines", "--no-keep-exe"],
                "--no-keep-exe goes with --save-baseline NAME",
            ),
            (
                &["--baseline", "main"],
                "--baseline goes with a measured run: add --bench",
            ),
            (
                &["--format", "json", "-o", "x.json"],
                "--output goes with a measured run: add --bench",
            ),
            (
                &["--list", "--save-baseline", "x"],
                "--save-baseline goes with a measured run",
            ),
            (&["--output", ""], "--output needs a file name"),
            (
                &["--noise-threshold", "-2"],
                "--noise-threshold must be a percentage from 0",
            ),
            (
                &["--pin", "first"],
                "--pin needs a CPU number such as 0 (see `nproc`), got 'first'",
            ),
            (&["--pin", "-1"], "--pin needs a CPU number"),
            (&["--exact=yes"], "'--exact' takes no value"),
            (
                &["--precision", "-1"],
                "--precision must be a percentage from 0 up to 100, got '-1'",
            ),
            (
                &["--precision", "fine"],
                "--precision needs a percentage such as 1 or 0.5, got 'fine'",
            ),
            (
                &["--warm-up-cv", "0"],
                "--warm-up-cv must be a percentage more than 0",
            ),
            (
                &["--warm-up-window", "1"],
                "--warm-up-window needs at least 2 samples",
            ),
            (
                &["--schedule", "random"],
                "--schedule must be interleaved or sequential, got 'random'",
            ),
            (&["--seed", "-4"], "--seed needs a whole number from 0 to"),
        ];
        for (args, expected) in cases {
            let message = parse_err(args);
            assert!(message.contains(expected), "{args:?}: {message}");
            assert!(
                message.ends_with("run with --help to see the flags"),
                "{message}"
            );
            assert!(!message.contains('\n'), "{message}");
        }
    }

    #[test]
    fn profile_flags_profile_instead_of_measuring() {
        let args = parse_ok(&["--bench", "--profile-time", "2.5"]);
        assert_eq!(args.profile.time, Some(2.5));
        assert!(args.profile.profiles() && !args.profile.flamegraph);
        let args = parse_ok(&["--bench", "--flamegraph", "--against", "main"]);
        assert!(args.profile.flamegraph && args.profile.profiles());
        assert!(
            parse_ok(&["--bench", "--flamegraph", "--baseline", "main"])
                .profile
                .flamegraph
        );
        assert!(!parse_ok(&["--bench"]).profile.profiles());
        for (args, clash) in [
            (
                &["--bench", "--profile-time", "1", "--against", "x"][..],
                "--against",
            ),
            (
                &["--bench", "--profile-time", "1", "--baseline", "x"],
                "--baseline",
            ),
            (
                &["--bench", "--profile-time", "1", "--report", "r"],
                "--report",
            ),
            (&["--bench", "--flamegraph", "--forks", "2"], "--forks"),
            (&["--bench", "--flamegraph", "-o", "x.json"], "--output"),
        ] {
            let message = parse_err(args);
            assert!(
                message.contains(&format!("does not go with {clash}")),
                "{message}"
            );
        }
        assert!(parse_err(&["--profile-time", "1"]).contains("add --bench"));
    }

    #[test]
    fn the_view_flags_are_off_unless_given() {
        let default = parse_ok(&[]);
        assert!(!default.output.details);
        assert!(!default.output.no_machine_warnings);
        let args = parse_ok(&["--details", "--no-machine-warnings"]);
        assert!(args.output.details);
        assert!(args.output.no_machine_warnings);
    }

    #[test]
    fn statistics_flags_are_parsed_as_fractions() {
        let args = parse_ok(&[
            "--precision",
            "0.5%",
            "--warm-up-cv",
            "2",
            "--warm-up-window",
            "20",
            "--schedule",
            "sequential",
            "--seed",
            "7",
            "--details",
        ]);
        assert_eq!(args.settings.precision, Some(0.005));
        assert_eq!(args.settings.warm_up_cv, Some(0.02));
        assert_eq!(args.settings.warm_up_window, Some(20));
        assert_eq!(args.settings.schedule, Some(Schedule::Sequential));
        assert_eq!(args.settings.seed, Some(7));
        assert!(args.output.details);
        assert_eq!(
            parse_ok(&["--precision", "0"]).settings.precision,
            Some(0.0)
        );
    }

    #[test]
    fn output_and_baseline_flags() {
        let args = parse_ok(&[
            "--bench",
            "--format",
            "json",
            "-o",
            "out.json",
            "--save-baseline",
            "main",
            "--baseline",
            "v1.2",
            "--noise-threshold",
            "5",
            "--fail-on-regression",
        ]);
        assert_eq!(args.output.format, OutputFormat::Json);
        assert_eq!(args.output.path, Some(PathBuf::from("out.json")));
        assert_eq!(args.baselines.save.as_deref(), Some("main"));
        assert!(args.baselines.keep_exe, "kept unless --no-keep-exe");
        assert_eq!(args.baselines.compare.as_deref(), Some("v1.2"));
        assert_eq!(args.baselines.noise_threshold, 0.05);
        assert!(args.baselines.fail_on_regression);
        assert_eq!(
            parse_ok(&["--list-baselines"]).action,
            Action::ListBaselines
        );
        let without = parse_ok(&["--bench", "--save-baseline", "main", "--no-keep-exe"]);
        assert!(!without.baselines.keep_exe);
    }

    #[test]
    fn samples_choose_the_raw_samples_of_json_output() {
        let default = parse_ok(&["--bench", "--format", "json"]);
        assert_eq!(default.output.samples, Samples::None);
        let full = parse_ok(&["--bench", "--format", "json", "--samples", "full"]);
        assert_eq!(full.output.samples, Samples::Full);
        let none = parse_ok(&["--bench", "--samples=none", "--format=json", "-o", "r.json"]);
        assert_eq!(none.output.samples, Samples::None);
        assert_eq!(
            parse_err(&["--bench", "--format", "json", "--samples", "some"]),
            "--samples must be none or full, got 'some'; run with --help to see the flags"
        );
        for args in [
            &["--bench", "--samples", "full"][..],
            &["--bench", "--format", "csv", "--samples", "none"],
            &["--bench", "--save-baseline", "main", "--samples", "none"],
        ] {
            let message = parse_err(args);
            assert!(
                message.starts_with("--samples goes with --format json"),
                "{args:?}: {message}"
            );
        }
    }

    #[test]
    fn control_characters_in_a_value_stay_on_one_line() {
        let error = parse(["--format", "a\nb\u{7}"].iter().copied()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--format must be pretty, json, csv, markdown, bencher or bmf, got 'a\\nb\\u{7}'; \
             run with --help to see the flags"
        );
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_filter_is_an_error() {
        use std::os::unix::ffi::OsStringExt;
        let arg = OsString::from_vec(vec![b'f', 0xff]);
        let message = parse(vec![arg]).unwrap_err().to_string();
        assert!(message.contains("not valid UTF-8"), "{message}");
    }
}
