//! What the command line asks for: the types [`super::parse`] fills, and
//! the error it gives.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::select::Filter;
use crate::settings::Settings;

/// What the user asked for.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Args {
    pub(crate) action: Action,
    /// Which benchmarks: filters, `--exact`, `--skip`, `--ignored`.
    pub(crate) filter: Filter,
    pub(crate) list_format: ListFormat,
    /// How to measure.
    pub(crate) settings: Settings,
    /// What the run shows and writes.
    pub(crate) output: OutputOptions,
    /// Saving and comparing baselines.
    pub(crate) baselines: BaselineOptions,
    /// `--forks N`: the benchmarks are measured in N worker processes (0: in
    /// this one, as JMH's `-f 0`); `None` when not given (the run's default
    /// then applies).
    pub(crate) forks: Option<usize>,
    /// `--profile-time` and `--flamegraph`: profile instead of measuring.
    pub(crate) profile: ProfileOptions,
    /// `--quick`: short budgets, rough figures (the budgets are in
    /// `settings`; this is for the note that says so).
    pub(crate) quick: bool,
    /// Lines to print before the run: flags accepted with a note, such as
    /// criterion's `--noplot`.
    pub(crate) notes: Vec<String>,
}

/// What the run shows and writes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct OutputOptions {
    pub(crate) color: Color,
    /// `--format`: what the measured run writes (to stdout, or `--output`).
    pub(crate) format: OutputFormat,
    /// `--output FILE`: the `--format` output goes there; stdout shows the table.
    pub(crate) path: Option<PathBuf>,
    /// `--details`: the full table (every statistic, percentiles,
    /// intervals and warm-up under each row, each note in full), not the
    /// compact one that fits the terminal.
    pub(crate) details: bool,
    /// `--no-machine-warnings` (or `BENCH_HARNESS_NO_MACHINE_WARNINGS=1`):
    /// the machine's warnings (load, hypervisor, ASLR, ...) are not printed.
    pub(crate) no_machine_warnings: bool,
    /// `--flat`: one row per benchmark under its full name, not a tree.
    pub(crate) flat: bool,
    /// `--complexity`: fit a growth class for every benchmark with numeric
    /// `args`, not only those marked `complexity`.
    pub(crate) complexity: bool,
    /// `--samples`: whether `--format json` carries the raw samples.
    pub(crate) samples: Samples,
    /// `--report PATH`: where the HTML report goes instead of
    /// `target/bench-harness/report/`.
    pub(crate) report: Option<PathBuf>,
    /// `--no-report`: no HTML report.
    pub(crate) no_report: bool,
    /// `-q`, `--quiet`: the table and errors only: no progress, notes,
    /// machine warnings or lines saying where files were written.
    pub(crate) quiet: bool,
    /// `-v`, `--verbose`: the whole header before the table (the machine,
    /// the clock, the loop's cost, the seed) and each machine warning with
    /// its remedy; by default a line each.
    pub(crate) verbose: bool,
    /// `--no-history`: append nothing to the history file.
    pub(crate) no_history: bool,
    /// `--logfile PATH` (libtest's): one line per benchmark as libtest
    /// logs a result (see `report::logfile`).
    pub(crate) logfile: Option<PathBuf>,
}

/// `--samples none|full`: the raw samples in `--format json` (baselines
/// always keep them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Samples {
    /// Every figure, no raw samples: a few kilobytes a benchmark.
    #[default]
    None,
    /// Every raw sample too, packed: every figure can be recomputed.
    Full,
}

impl FromStr for Samples {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, ()> {
        match text {
            "none" => Ok(Samples::None),
            "full" => Ok(Samples::Full),
            _ => Err(()),
        }
    }
}

/// Profiling instead of measuring: `--profile-time SECS` runs each
/// selected routine back to back for a profiler; `--flamegraph` runs this
/// program under `perf` so, and draws what it found.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct ProfileOptions {
    /// `--profile-time SECS`.
    pub(crate) time: Option<f64>,
    /// `--flamegraph`.
    pub(crate) flamegraph: bool,
}

impl ProfileOptions {
    /// How long `--flamegraph` profiles each benchmark without
    /// `--profile-time`.
    pub(crate) const DEFAULT_FLAMEGRAPH_SECS: f64 = 2.0;

    /// Whether the run profiles rather than measures.
    pub(crate) fn profiles(&self) -> bool {
        self.time.is_some() || self.flamegraph
    }
}

/// Saving and comparing baselines.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BaselineOptions {
    /// `--save-baseline NAME`.
    pub(crate) save: Option<String>,
    /// Whether a saved baseline keeps a copy of this executable (unless
    /// `--no-keep-exe`).
    pub(crate) keep_exe: bool,
    /// `--baseline NAME`: compare with this saved run.
    pub(crate) compare: Option<String>,
    /// `--noise-threshold PCT` as a fraction: the smallest change that counts.
    pub(crate) noise_threshold: f64,
    /// `--fail-on-regression`: exit with 1 when any benchmark is slower.
    pub(crate) fail_on_regression: bool,
    /// `--noise-threshold` was given (paired comparisons have a default of
    /// their own).
    pub(crate) noise_threshold_given: bool,
    /// `--against NAME` or `--against-exe PATH`: compare with another build,
    /// paired slice by slice.
    pub(crate) against: Option<Against>,
}

/// The other build of a paired comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Against {
    /// `--against NAME`: the executable kept with baseline NAME.
    Baseline(String),
    /// `--against-exe PATH`: any bench executable built with this harness.
    Exe(PathBuf),
}

impl Default for BaselineOptions {
    fn default() -> Self {
        BaselineOptions {
            save: None,
            keep_exe: true,
            compare: None,
            noise_threshold: DEFAULT_NOISE_THRESHOLD,
            fail_on_regression: false,
            noise_threshold_given: false,
            against: None,
        }
    }
}

/// What a measured run writes (`--format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    /// The colour table.
    #[default]
    Pretty,
    Json,
    Csv,
    Markdown,
    /// libtest's `test NAME ... bench: N ns/iter (+/- M)` lines.
    Bencher,
    /// The Bencher Metric Format (bencher.dev) JSON.
    Bmf,
}

impl OutputFormat {
    pub(super) const CHOICES: &'static str = "pretty, json, csv, markdown, bencher or bmf";
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputFormat::Pretty => "pretty",
            OutputFormat::Json => "json",
            OutputFormat::Csv => "csv",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Bencher => "bencher",
            OutputFormat::Bmf => "bmf",
        })
    }
}

impl FromStr for OutputFormat {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, ()> {
        [
            OutputFormat::Pretty,
            OutputFormat::Json,
            OutputFormat::Csv,
            OutputFormat::Markdown,
            OutputFormat::Bencher,
            OutputFormat::Bmf,
        ]
        .into_iter()
        .find(|format| format.to_string() == text)
        .ok_or(())
    }
}

/// The most processes `--forks` starts per benchmark.
pub(crate) const MAX_FORKS: usize = 1000;

/// The default `--noise-threshold`: changes under 2% count as no difference.
pub(crate) const DEFAULT_NOISE_THRESHOLD: f64 = 0.02;

/// What the run does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Action {
    /// `--bench`: measure and report.
    Bench,
    /// No `--bench` (as under `cargo test --benches`), or `--test`: run each
    /// body once and report pass/fail.
    #[default]
    Test,
    /// `--list`: print the selected names.
    List,
    /// `--help`.
    Help,
    /// `--list-baselines`.
    ListBaselines,
    /// `--history`: the last runs of each selected benchmark, from the
    /// history file.
    History,
}

/// `--format terse`: with `--list` the closing count line is dropped; in a
/// smoke test (no `--bench`) each benchmark is one character, as libtest's
/// terse format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum ListFormat {
    #[default]
    Pretty,
    Terse,
}

/// `--color`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

impl FromStr for Color {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, ()> {
        match text {
            "auto" => Ok(Color::Auto),
            "always" => Ok(Color::Always),
            "never" => Ok(Color::Never),
            _ => Err(()),
        }
    }
}

/// A command line the harness cannot run. Its `Display` is one line that
/// names the flag and value and says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CliError(pub(super) String);

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
