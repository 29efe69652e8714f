//! Command line: libtest-compatible where libtest has the flag.
//!
//! `cargo bench` passes `--bench`; `cargo test --benches` passes nothing, and
//! then every benchmark body runs once as a smoke test.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;

use bench_runtime::TimerChoice;

use crate::run::Schedule;

/// What the user asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// Substring filters on the full name, OR-ed; empty selects everything.
    pub filters: Vec<String>,
    /// Filters and skips match the whole name instead of a substring.
    pub exact: bool,
    /// Names containing any of these are left out.
    pub skip: Vec<String>,
    pub ignored: Ignored,
    pub action: Action,
    pub list_format: ListFormat,
    pub color: Color,
    pub timer: TimerChoice,
    pub warm_up_time: Option<f64>,
    pub measure_time: Option<f64>,
    pub max_time: Option<f64>,
    pub min_samples: Option<usize>,
    /// `--precision PCT` as a fraction; 0 turns the precision rule off.
    pub precision: Option<f64>,
    pub schedule: Option<Schedule>,
    pub warm_up_window: Option<usize>,
    /// `--warm-up-cv PCT` as a fraction.
    pub warm_up_cv: Option<f64>,
    /// `--details`: percentiles, intervals and warm-up under each row.
    pub details: bool,
    /// `--flat`: one row per benchmark under its full name, not a tree.
    pub flat: bool,
    /// `--complexity`: fit a growth class for every benchmark with numeric
    /// `args`, not only those marked `complexity`.
    pub complexity: bool,
    /// `--seed N`: the interleaved schedule's shuffles.
    pub seed: Option<u64>,
    /// `--format`: what the measured run writes (to stdout, or `--output`).
    pub format: OutputFormat,
    /// `--output FILE`: the `--format` output goes there; stdout shows the table.
    pub output: Option<PathBuf>,
    /// `--save-baseline NAME`.
    pub save_baseline: Option<String>,
    /// `--baseline NAME`: compare with this saved run.
    pub baseline: Option<String>,
    /// `--noise-threshold PCT` as a fraction: smaller changes are no change.
    pub noise_threshold: f64,
    /// `--fail-on-regression`: exit with 1 when any benchmark regressed.
    pub fail_on_regression: bool,
    /// `--counters`: hardware and software counters for every benchmark.
    pub counters: bool,
    /// `--pin CPU`: the measuring threads run on this CPU only.
    pub pin: Option<usize>,
    /// `--cold`: evict the caches before each sample.
    pub cold: bool,
    /// `--forks N`: each benchmark is measured in N child processes.
    pub forks: Option<usize>,
}

/// What a measured run writes (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// The colour table.
    Pretty,
    Json,
    Csv,
    Markdown,
    /// libtest's `test NAME ... bench: N ns/iter (+/- M)` lines.
    Bencher,
}

/// The most processes `--forks` starts per benchmark.
pub const MAX_FORKS: usize = 1000;

/// The default `--noise-threshold`: changes under 2% count as no change.
pub const DEFAULT_NOISE_THRESHOLD: f64 = 0.02;

/// What the run does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `--bench`: measure and report.
    Bench,
    /// No `--bench` (as under `cargo test --benches`), or `--test`: run each
    /// body once and report pass/fail.
    Test,
    /// `--list`: print the selected names.
    List,
    /// `--help`.
    Help,
    /// `--list-baselines`.
    ListBaselines,
}

/// Which benchmarks `#[benchmark(ignore)]` leaves in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ignored {
    /// The default: ignored benchmarks are skipped (and shown as ignored).
    Skip,
    /// `--ignored`: only the ignored ones.
    Only,
    /// `--include-ignored`: all of them.
    Include,
}

/// `--list --format terse` drops the closing count line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    Pretty,
    Terse,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    Auto,
    Always,
    Never,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            filters: Vec::new(),
            exact: false,
            skip: Vec::new(),
            ignored: Ignored::Skip,
            action: Action::Test,
            list_format: ListFormat::Pretty,
            color: Color::Auto,
            timer: TimerChoice::Auto,
            warm_up_time: None,
            measure_time: None,
            max_time: None,
            min_samples: None,
            precision: None,
            schedule: None,
            warm_up_window: None,
            warm_up_cv: None,
            details: false,
            flat: false,
            complexity: false,
            seed: None,
            format: OutputFormat::Pretty,
            output: None,
            save_baseline: None,
            baseline: None,
            noise_threshold: DEFAULT_NOISE_THRESHOLD,
            fail_on_regression: false,
            counters: false,
            pin: None,
            cold: false,
            forks: None,
        }
    }
}

/// A command line the harness cannot run. Its `Display` is one line that
/// names the flag and value and says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(String);

impl fmt::Display for CliError {
    /// One line, whatever the user typed: control characters in the echoed
    /// values (a newline, found by the fuzz test) are escaped, `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        write!(f, "; run with --help to see the flags")
    }
}

impl std::error::Error for CliError {}

impl From<lexopt::Error> for CliError {
    fn from(error: lexopt::Error) -> Self {
        CliError(match error {
            lexopt::Error::UnexpectedOption(flag) => format!("unknown flag '{flag}'"),
            lexopt::Error::MissingValue { option: Some(flag) } => format!("'{flag}' needs a value"),
            lexopt::Error::NonUnicodeValue(value) => {
                format!("argument {value:?} is not valid UTF-8")
            }
            lexopt::Error::UnexpectedValue { option, value } => {
                format!("'{option}' takes no value, got {value:?}")
            }
            other => other.to_string(),
        })
    }
}

/// The text `--help` prints.
pub const HELP: &str = "\
Usage: BENCH_BINARY [OPTIONS] [FILTER]...

Runs the benchmarks whose full name contains any FILTER (all of them without
one). Under `cargo bench` each is measured and reported; under
`cargo test --benches` (no --bench flag) each body runs once as a smoke test.

Selection:
  FILTER                  substring of the full name (e.g. `arith::int_add`); several are OR-ed
  --exact                 FILTER and --skip match the whole name, not a substring
  --skip PATTERN          leave out names containing PATTERN (repeatable)
  --ignored               run only #[benchmark(ignore)] benchmarks
  --include-ignored       run ignored benchmarks too
  --list                  print `NAME: benchmark` for each selected benchmark
  --format terse          with --list: the names only, no count line

Mode:
  --bench                 measure (cargo bench passes this)
  --test                  run each benchmark once and report pass/fail

Measurement:
  --timer auto|os|cycles  clock: auto (default) uses the cycle counter where it is
                          usable (invariant TSC on x86_64), else the OS monotonic clock
  --precision PCT         stop once the time's 95% confidence interval is within
                          ±PCT% [default: 1]; 0 stops at --measure-time instead
  --measure-time SECS     minimum measuring time per benchmark before the precision
                          rule may stop it (with --precision 0: the budget) [default: 0.3]
  --max-time SECS         hard bound per benchmark: set-up, calibration, warm-up and
                          measurement [default: 2, or 3× warm-up + measure time if larger]
  --min-samples N         samples to record before stopping [default: 10]
  --warm-up-time SECS     cap on warm-up per benchmark, calibration included, set-up
                          not [default: 0.1]
  --warm-up-window N      samples in the rolling window that detects steady state [default: 10]
  --warm-up-cv PCT        steady once the window's coefficient of variation is below
                          PCT% [default: 5]
  --schedule interleaved|sequential
                          interleaved (default): rounds of short slices in a shuffled
                          order, so every benchmark sees the same machine noise;
                          sequential: each benchmark in one go
  --seed N                seed of the interleaved shuffles [default: random, printed
                          in the header]

Output:
  --format pretty|json|csv|markdown|bencher
                          what the run writes [default: pretty, the colour table];
                          bencher is libtest's `test NAME ... bench: N ns/iter (+/- M)`
  -o, --output FILE       write the --format output to FILE (atomically); the table
                          still goes to stdout
  --details               percentiles, confidence intervals, warm-up and stop reason
                          under each row
  --flat                  one row per benchmark under its full name, instead of a
                          tree by group, module, function and argument (for grep)
  --complexity            fit O(1) … O(n³) over every benchmark with numeric args,
                          not only those marked #[benchmark(complexity)]

Machine:
  --counters              hardware and software counters per iteration (cycles,
                          instructions, branches, cache, page faults, context
                          switches, task clock) where the kernel allows them
  --pin CPU               run the measuring threads on CPU only, and say so
  --cold                  evict the caches before each sample (a buffer larger than
                          the last-level cache is walked, untimed): cold-cache figures
  --forks N               measure each benchmark in N fresh processes of this binary,
                          pool their samples and report the spread between processes
                          (memory layout effects); a process that crashes fails only
                          its benchmark. Takes about N times as long

Baselines (saved under target/bench-harness/baselines/, or $CARGO_TARGET_DIR's):
  --save-baseline NAME    save this run as baseline NAME (after comparing, if
                          --baseline is given too)
  --baseline NAME         compare this run with baseline NAME: change, 95% CI,
                          p-values, effect size and a verdict per benchmark
  --list-baselines        list the saved baselines
  --noise-threshold PCT   changes whose whole 95% CI lies within ±PCT% are no change;
                          a verdict needs the whole CI beyond it [default: 2]
  --fail-on-regression    exit with code 1 when any benchmark regressed
  --color auto|always|never   colour the table [default: auto; NO_COLOR=1 turns auto off]
  -h, --help              print this help

Accepted for libtest compatibility and ignored: --nocapture, --show-output,
-q/--quiet, --test-threads N.
";

/// Parses the arguments after the program name.
pub fn parse<I>(args: I) -> Result<Args, CliError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    use lexopt::prelude::*;

    let mut parsed = Args::default();
    let mut list = false;
    let mut bench = false;
    let mut help = false;
    let mut list_baselines = false;
    let mut format = None;
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next()? {
        match arg {
            Value(filter) => parsed.filters.push(utf8("a filter", filter)?),
            Long("exact") => parsed.exact = true,
            Long("skip") => parsed.skip.push(utf8("--skip", parser.value()?)?),
            Long("ignored") => parsed.ignored = Ignored::Only,
            Long("include-ignored") => parsed.ignored = Ignored::Include,
            Long("list") => list = true,
            Long("format") => format = Some(utf8("--format", parser.value()?)?),
            Long("bench") => bench = true,
            Long("test") => bench = false,
            Short('h') | Long("help") => help = true,
            Long("color") | Long("colour") => {
                parsed.color = match utf8("--color", parser.value()?)?.as_str() {
                    "auto" => Color::Auto,
                    "always" => Color::Always,
                    "never" => Color::Never,
                    other => return Err(bad_choice("--color", other, "auto, always or never")),
                }
            }
            Long("timer") => {
                parsed.timer = match utf8("--timer", parser.value()?)?.as_str() {
                    "auto" => TimerChoice::Auto,
                    "os" => TimerChoice::Os,
                    "cycles" => TimerChoice::Cycles,
                    other => return Err(bad_choice("--timer", other, "auto, os or cycles")),
                }
            }
            Long("warm-up-time") => {
                parsed.warm_up_time = Some(seconds("--warm-up-time", parser.value()?, true)?)
            }
            Long("measure-time") => {
                parsed.measure_time = Some(seconds("--measure-time", parser.value()?, false)?)
            }
            Long("max-time") => {
                parsed.max_time = Some(seconds("--max-time", parser.value()?, false)?)
            }
            Long("min-samples") => {
                parsed.min_samples = Some(count("--min-samples", parser.value()?)?)
            }
            Long("precision") => {
                parsed.precision = Some(percentage("--precision", parser.value()?, true)?)
            }
            Long("schedule") => {
                parsed.schedule = match utf8("--schedule", parser.value()?)?.as_str() {
                    "interleaved" => Some(Schedule::Interleaved),
                    "sequential" => Some(Schedule::Sequential),
                    other => {
                        return Err(bad_choice("--schedule", other, "interleaved or sequential"))
                    }
                }
            }
            Long("warm-up-window") => {
                let window = count("--warm-up-window", parser.value()?)?;
                if window < 2 {
                    return Err(CliError(format!(
                        "--warm-up-window needs at least 2 samples to judge variation, got '{window}'"
                    )));
                }
                parsed.warm_up_window = Some(window);
            }
            Long("warm-up-cv") => {
                parsed.warm_up_cv = Some(percentage("--warm-up-cv", parser.value()?, false)?)
            }
            Long("details") => parsed.details = true,
            Long("flat") => parsed.flat = true,
            Long("complexity") => parsed.complexity = true,
            Long("output") | Short('o') => {
                let path = PathBuf::from(parser.value()?);
                if path.as_os_str().is_empty() {
                    return Err(CliError("--output needs a file name".into()));
                }
                parsed.output = Some(path);
            }
            Long("save-baseline") => {
                parsed.save_baseline = Some(baseline_name("--save-baseline", parser.value()?)?)
            }
            Long("baseline") => {
                parsed.baseline = Some(baseline_name("--baseline", parser.value()?)?)
            }
            Long("list-baselines") => list_baselines = true,
            Long("noise-threshold") => {
                parsed.noise_threshold = percentage("--noise-threshold", parser.value()?, true)?
            }
            Long("fail-on-regression") => parsed.fail_on_regression = true,
            Long("counters") => parsed.counters = true,
            Long("cold") => parsed.cold = true,
            Long("forks") => {
                let text = utf8("--forks", parser.value()?)?;
                parsed.forks = Some(match text.trim().parse::<usize>() {
                    Ok(n) if (1..=MAX_FORKS).contains(&n) => n,
                    _ => {
                        return Err(CliError(format!(
                        "--forks needs a number of processes from 1 to {MAX_FORKS}, got '{text}'"
                    )))
                    }
                });
            }
            Long("pin") => {
                let text = utf8("--pin", parser.value()?)?;
                parsed.pin = Some(text.trim().parse().map_err(|_| {
                    CliError(format!(
                        "--pin needs a CPU number such as 0 (see `nproc`), got '{text}'"
                    ))
                })?);
            }
            Long("seed") => {
                let text = utf8("--seed", parser.value()?)?;
                parsed.seed = Some(text.trim().parse().map_err(|_| {
                    CliError(format!(
                        "--seed needs a whole number from 0 to {}, got '{text}'",
                        u64::MAX
                    ))
                })?);
            }
            // libtest flags with no meaning here.
            Long("nocapture") | Long("show-output") | Short('q') | Long("quiet") => {}
            Long("test-threads") => {
                count("--test-threads", parser.value()?)?;
            }
            _ => return Err(arg.unexpected().into()),
        }
    }

    if let Some(format) = format {
        match (list, format.as_str()) {
            (true, "terse") => parsed.list_format = ListFormat::Terse,
            (true, "pretty") => parsed.list_format = ListFormat::Pretty,
            (true, other) => {
                return Err(bad_choice("--format", other, "pretty or terse with --list"))
            }
            (false, "pretty") => parsed.format = OutputFormat::Pretty,
            (false, "json") => parsed.format = OutputFormat::Json,
            (false, "csv") => parsed.format = OutputFormat::Csv,
            (false, "markdown") => parsed.format = OutputFormat::Markdown,
            (false, "bencher") => parsed.format = OutputFormat::Bencher,
            (false, "terse") => return Err(CliError("'--format terse' goes with --list".into())),
            (false, other) => {
                return Err(bad_choice(
                    "--format",
                    other,
                    "pretty, json, csv, markdown or bencher",
                ))
            }
        }
    }
    if parsed.fail_on_regression && parsed.baseline.is_none() {
        return Err(CliError(
            "--fail-on-regression needs --baseline NAME to compare with".into(),
        ));
    }
    let measuring_flag = [
        (parsed.forks.is_some(), "--forks"),
        (parsed.output.is_some(), "--output"),
        (parsed.save_baseline.is_some(), "--save-baseline"),
        (parsed.baseline.is_some(), "--baseline"),
    ]
    .into_iter()
    .find(|(given, _)| *given);
    if let Some((_, flag)) = measuring_flag {
        if list || list_baselines {
            return Err(CliError(format!(
                "{flag} goes with a measured run, not with --list or --list-baselines"
            )));
        }
        if !bench && !help {
            return Err(CliError(format!(
                "{flag} goes with a measured run: add --bench (as `cargo bench` does); \
                 without it each benchmark only runs once as a test"
            )));
        }
    }
    parsed.action = if help {
        Action::Help
    } else if list_baselines {
        Action::ListBaselines
    } else if list {
        Action::List
    } else if bench {
        Action::Bench
    } else {
        Action::Test
    };
    Ok(parsed)
}

fn utf8(what: &str, value: OsString) -> Result<String, CliError> {
    value
        .into_string()
        .map_err(|value| CliError(format!("{what} {value:?} is not valid UTF-8")))
}

fn bad_choice(flag: &str, value: &str, choices: &str) -> CliError {
    CliError(format!("{flag} must be {choices}, got '{value}'"))
}

/// Seconds: a finite decimal number, at most a day; zero only where allowed.
fn seconds(flag: &str, value: OsString, zero_ok: bool) -> Result<f64, CliError> {
    let text = utf8(flag, value)?;
    let secs: f64 = text.trim().parse().map_err(|_| {
        CliError(format!(
            "{flag} needs a number of seconds such as 0.5, got '{text}'"
        ))
    })?;
    let lower_ok = if zero_ok { secs >= 0.0 } else { secs > 0.0 };
    if !secs.is_finite() || !lower_ok || secs > 86_400.0 {
        let range = if zero_ok { "0" } else { "more than 0" };
        return Err(CliError(format!(
            "{flag} must be {range} and at most 86400 seconds, got '{text}'"
        )));
    }
    Ok(secs)
}

/// A baseline's name: a file name under the baselines directory, so letters,
/// digits, `-`, `_` and `.`, not starting with `.`.
fn baseline_name(flag: &str, value: OsString) -> Result<String, CliError> {
    let name = utf8(flag, value)?;
    let valid = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if valid {
        Ok(name)
    } else {
        Err(CliError(format!(
            "{flag} '{name}' is not a baseline name: use letters, digits, '-', '_' and '.' \
             (like main or before-refactor)"
        )))
    }
}

/// A percentage given as `PCT` (`1` or `0.5`, an optional `%`), returned as a
/// fraction; zero only where allowed, at most 100.
fn percentage(flag: &str, value: OsString, zero_ok: bool) -> Result<f64, CliError> {
    let text = utf8(flag, value)?;
    let number = text.trim().trim_end_matches('%');
    let pct: f64 = number.parse().map_err(|_| {
        CliError(format!(
            "{flag} needs a percentage such as 1 or 0.5, got '{text}'"
        ))
    })?;
    let lower_ok = if zero_ok { pct >= 0.0 } else { pct > 0.0 };
    if !pct.is_finite() || !lower_ok || pct > 100.0 {
        let range = if zero_ok { "from 0" } else { "more than 0 and" };
        return Err(CliError(format!(
            "{flag} must be a percentage {range} up to 100, got '{text}'"
        )));
    }
    Ok(pct / 100.0)
}

/// A count: a whole number from 1 to 10 million.
fn count(flag: &str, value: OsString) -> Result<usize, CliError> {
    let text = utf8(flag, value)?;
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=10_000_000).contains(&n) => Ok(n),
        _ => Err(CliError(format!(
            "{flag} needs a whole number from 1 to 10000000, got '{text}'"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_mentions_every_flag_the_parser_accepts() {
        let source = include_str!("cli.rs");
        let mut flags = 0;
        for piece in source.split("Long(\"").skip(1) {
            let name = &piece[..piece.find('"').unwrap()];
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
    fn no_bench_flag_means_smoke_test() {
        assert_eq!(parse_ok(&[]).action, Action::Test);
        assert_eq!(parse_ok(&["--bench"]).action, Action::Bench);
        assert_eq!(parse_ok(&["--bench", "--test"]).action, Action::Test);
    }

    #[test]
    fn positional_arguments_are_filters() {
        let args = parse_ok(&["fib", "--bench", "sort"]);
        assert_eq!(args.filters, ["fib", "sort"]);
    }

    #[test]
    fn skip_is_repeatable() {
        let args = parse_ok(&["--skip", "a", "--skip=b"]);
        assert_eq!(args.skip, ["a", "b"]);
    }

    #[test]
    fn list_and_help_win_over_bench() {
        assert_eq!(parse_ok(&["--bench", "--list"]).action, Action::List);
        assert_eq!(parse_ok(&["--bench", "--help"]).action, Action::Help);
        assert_eq!(parse_ok(&["-h"]).action, Action::Help);
    }

    #[test]
    fn list_terse_format() {
        let args = parse_ok(&["--list", "--format", "terse"]);
        assert_eq!(args.list_format, ListFormat::Terse);
    }

    #[test]
    fn libtest_flags_are_accepted_and_ignored() {
        let args = parse_ok(&["--nocapture", "--show-output", "-q", "--test-threads", "2"]);
        assert_eq!(args, Args::default());
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
        assert_eq!(args.warm_up_time, Some(0.0));
        assert_eq!(args.measure_time, Some(0.25));
        assert_eq!(args.max_time, Some(3.0));
        assert_eq!(args.min_samples, Some(20));
        assert_eq!(args.timer, TimerChoice::Os);
        assert_eq!(args.color, Color::Never);
    }

    #[test]
    fn bad_input_is_one_line_naming_the_flag_and_value() {
        let cases: &[(&[&str], &str)] = &[
            (&["--frobnicate"], "unknown flag '--frobnicate'"),
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
                "--format must be pretty, json, csv, markdown or bencher, got 'yaml'",
            ),
            (&["--format", "terse"], "'--format terse' goes with --list"),
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
            (&["--baseline", "a b"], "is not a baseline name"),
            (
                &["--fail-on-regression"],
                "--fail-on-regression needs --baseline NAME",
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
        assert_eq!(args.precision, Some(0.005));
        assert_eq!(args.warm_up_cv, Some(0.02));
        assert_eq!(args.warm_up_window, Some(20));
        assert_eq!(args.schedule, Some(Schedule::Sequential));
        assert_eq!(args.seed, Some(7));
        assert!(args.details);
        assert_eq!(parse_ok(&["--precision", "0"]).precision, Some(0.0));
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
        assert_eq!(args.format, OutputFormat::Json);
        assert_eq!(args.output, Some(PathBuf::from("out.json")));
        assert_eq!(args.save_baseline.as_deref(), Some("main"));
        assert_eq!(args.baseline.as_deref(), Some("v1.2"));
        assert_eq!(args.noise_threshold, 0.05);
        assert!(args.fail_on_regression);
        assert_eq!(
            parse_ok(&["--list-baselines"]).action,
            Action::ListBaselines
        );
    }

    #[test]
    fn control_characters_in_a_value_stay_on_one_line() {
        let error = parse(["--format", "a\nb\u{7}"].iter().copied()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--format must be pretty, json, csv, markdown or bencher, got 'a\\nb\\u{7}'; \
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
