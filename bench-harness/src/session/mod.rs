//! One run of the harness, in named phases:
//!
//! parse ([`crate::cli`]) → select ([`crate::select`]) → plan ([`plan`]) →
//! collect and analyse ([`collect`]) → verdicts ([`verdicts`]) → outputs
//! ([`outputs`]).
//!
//! The command line's [`Args`] are split here, once, into the parts the
//! stages below take (the filter, the settings, the output and baseline
//! options); nothing below this module reads the command line. Every line
//! the user sees is written by [`crate::report`].

mod against;
mod collect;
mod forks;
mod html;
mod list;
mod outputs;
mod plan;
mod profile;
mod rows;
mod show_history;
mod smoke;
mod verdicts;
mod warm;
mod worker;

/// The hidden flag that carries an `--against` worker's token.
use std::ffi::OsString;
use std::io::IsTerminal;
use std::time::Instant;

use termcolor::{ColorChoice, NoColor, StandardStream, WriteColor};

use crate::analysis::compare::Verdict;
use crate::audit;
use crate::baseline;
use crate::cli::{self, Action, Args, Color, OutputFormat};
use crate::console;
use crate::environment::Environment;
use crate::history;
use crate::registry;
use crate::report::terminal::{text, Terminal};
use crate::report::{self, progress};
use crate::results::{BenchResult, Compared, Outcome};
use crate::select;
use rows::{exit_code, Selection, EXIT_REGRESSED, EXIT_USAGE};

/// Runs the command line `args` (after the program name), prints the
/// report, fills `results` and returns the exit code.
pub(crate) fn run(args: Vec<OsString>, results: &mut Vec<BenchResult>) -> i32 {
    // Before any thread of the harness's: the bodies allocate as on `main`.
    bench_runtime::heap::allocate_as_main_thread();
    // Processes of its own re-run this binary with a command line of the
    // run's: only a `main` that hands the harness its own arguments
    // answers them as this call would (not a test calling `run_suite`
    // with others), so any other call measures in this process unless
    // `--forks` says.
    let own_command_line = args == std::env::args_os().skip(1).collect::<Vec<_>>();
    let mut args = match cli::parse(args) {
        Ok(args) => args,
        Err(error) => return usage_error(&error),
    };
    if !own_command_line && args.forks.is_none() {
        args.forks = Some(0);
    }
    console::set_quiet(args.output.quiet);
    for note in &args.notes {
        console::note(note);
    }
    if worker::is_worker() {
        // Started by a run (its processes, or a paired comparison): serve
        // its requests.
        return worker::serve(&args.settings);
    }
    if args.action == Action::Help {
        return match console::help(&cli::HELP) {
            Ok(()) => 0,
            Err(error) => usage_error(&format_args!("cannot write --help to stdout: {error}")),
        };
    }
    // Every output path is absolute from here: a benchmark that changes
    // the working directory cannot move where the results go.
    args.output.path = args
        .output
        .path
        .take()
        .map(|path| std::path::absolute(&path).unwrap_or(path));
    args.output.logfile = args
        .output
        .logfile
        .take()
        .map(|path| std::path::absolute(&path).unwrap_or(path));
    if args.action == Action::Bench {
        // Before any code of the benchmarks runs (an `args` expression may
        // print too).
        let on_stdout = args.output.path.is_none();
        let set_aside = match args.output.format {
            OutputFormat::Pretty if on_stdout => outputs::check_stdout(),
            OutputFormat::Pretty => Ok(()),
            _ if on_stdout => outputs::keep_stdout_for_results(),
            _ => Ok(()),
        };
        if let Err(error) = set_aside {
            return usage_error(&error);
        }
    }
    if matches!(args.action, Action::Bench | Action::Test) {
        bench_runtime::signal::install();
    }

    if let Err(error) = registry::check_groups() {
        return usage_error(&error);
    }
    let registered = registry::all();
    if registered.is_empty() {
        return usage_error(
            &"no benchmarks are registered in this binary; mark functions with \
             #[benchmark] in this bench target, or, for benchmarks in a library's src/, \
             call a function of their module (like `your_crate::benches::link()`) from the \
             bench target's main so the linker keeps them (see \"Benchmarks inside a library\" in docs/writing-benchmarks.md)",
        );
    }
    let selected = select::select(
        &args.filter,
        registered
            .iter()
            .map(|bench| (bench.full_name(), bench.entry.options.ignore, bench.clone())),
    );
    let names = registered
        .iter()
        .map(|bench| bench.full_name())
        .collect::<Vec<_>>();
    for silent in select::silent_regexes(&args.filter, names.iter().map(String::as_str)) {
        console::note(&match silent.invalid {
            None => format!(
                "the filter '{}' matched no benchmark, as a substring or as a regular \
                 expression; run with --list to see the names",
                silent.pattern
            ),
            Some(why) => format!(
                "the filter '{}' matched no benchmark as a substring, and is not a regular \
                 expression ({why}); run with --list to see the names",
                silent.pattern
            ),
        });
    }
    let filtered_out = registered.len() - selected.len();
    // Two benchmarks of one name could not be told apart in a baseline,
    // BMF, the history or `--against`: refused before anything runs (a
    // list shows them, to find them by).
    let runs = matches!(args.action, Action::Bench | Action::Test);
    if let Err(error) = registry::check_unique(
        selected
            .iter()
            .filter(|s| runs && !s.ignored)
            .map(|s| &s.bench),
    ) {
        return usage_error(&error);
    }

    // The table goes to stdout, unless stdout carries a machine format.
    let mut table: Box<dyn WriteColor> = if args.action == Action::Bench
        && args.output.format != OutputFormat::Pretty
        && args.output.path.is_none()
    {
        Box::new(NoColor::new(std::io::sink()))
    } else {
        Box::new(StandardStream::stdout(color_choice(args.output.color)))
    };
    let mut out = Terminal::new(&mut *table, selected.iter().map(|s| s.name.as_str()))
        .with_view(text::stdout_width(), args.output.details)
        .with_verbose(args.output.verbose);
    let written = match args.action {
        Action::List => list::names(&selected, args.list_format),
        Action::ListBaselines => list::baselines(&locate_store()),
        Action::History => show_history::show(&locate_store(), &selected),
        Action::Test => Ok(smoke::run(
            &mut out,
            &selected,
            filtered_out,
            args.list_format == cli::ListFormat::Terse,
            results,
        )),
        Action::Bench => {
            let renamed: Vec<(String, String)> = registered
                .iter()
                .filter_map(|b| Some((b.name_without_group()?, b.full_name())))
                .collect();
            bench(&mut out, &args, &selected, &names, &renamed, results)
        }
        Action::Help => unreachable!("handled above"),
    };
    let mut code = written.unwrap_or_else(|error| usage_error(&error));
    // An `--against` run writes its own log (`against::run`).
    let logfile = (args.output.logfile.as_ref()).filter(|_| args.baselines.against.is_none());
    if let Some(path) = logfile {
        let log = match args.action {
            Action::List => report::logfile::list(selected.iter().map(|s| s.name.as_str())),
            _ => report::logfile::results(results, bench_runtime::signal::interrupted()),
        };
        if let Err(error) = outputs::write_logfile(path, &log) {
            console::error(&error);
            code = if code == 0 { EXIT_USAGE } else { code };
        }
    }
    match console::take_stdout_error() {
        Some(error) => usage_error(&format_args!("cannot write to stdout: {error}")),
        None => code,
    }
}

/// `cargo bench`: measure the selected benchmarks on the schedule, then
/// report them, compare them and write the outputs.
fn bench(
    out: &mut Terminal<'_>,
    args: &Args,
    selected: &Selection,
    registered: &[String],
    renamed: &[(String, String)],
    results: &mut Vec<BenchResult>,
) -> Result<i32, String> {
    // Bad input stops the run before anything is measured: a missing or
    // unreadable baseline is reported, and nothing is written.
    let store = locate_store();
    let baseline = match &args.baselines.compare {
        Some(name) => Some(verdicts::load_baseline(
            &store,
            name,
            args.baselines.fail_on_regression,
        )?),
        None => None,
    };
    if let (Some(name), Some(baseline)) = (&args.baselines.compare, &baseline) {
        verdicts::note_group_renames(name, baseline, renamed, registered);
    }
    if selected.is_empty() {
        let nothing = format!("no benchmark matches {}", describe_filters(args));
        if args.baselines.save.is_some() || args.baselines.fail_on_regression {
            // A typo in a CI filter must not pass the gate or save nothing.
            return Err(format!(
                "{nothing}: there is nothing to save or compare; run with --list to see the names"
            ));
        }
        console::status(&format_args!("{nothing}; run with --list to see the names"));
        return Ok(0);
    }
    plan::check_pin(args.settings.pin)?;
    outputs::check_output(args.output.path.as_deref())?;
    let report = html::place(&args.output, &store);
    html::check(&args.output, report.as_ref())?;
    if args.profile.flamegraph {
        return profile::flamegraphs(args, selected, &store, report.as_ref());
    }
    if let Some(seconds) = args.profile.time {
        return profile::profile_time(selected, seconds);
    }
    if let Some(other) = &args.baselines.against {
        return against::run(out, args, other, selected, registered, report.as_ref());
    }

    let environment = Environment::capture();
    let cold_bytes = args
        .settings
        .cold_or_default()
        .then(|| plan::cold_buffer_bytes(&environment));
    show_machine(out, args, &environment, cold_bytes);
    let started = Instant::now();
    let compares = args.baselines.compare.is_some() || args.baselines.save.is_some();
    // The machine's reference kernel: for a baseline, and for the history,
    // where its runs show the machine's own drift.
    let records_history = !args.output.no_history;
    // Several processes unless told: each process has its own memory
    // layout, and only the spread between them makes the ± hold for the
    // next run.
    let forks = args.forks.unwrap_or(forks::DEFAULT_PROCESSES);
    if forks > 0 && !cfg!(unix) {
        return Err(
            "--forks needs worker processes, which this platform cannot run (they keep their \
             replies apart from what benchmarks print by POSIX descriptors): run with --forks 0"
                .into(),
        );
    }
    let reference = match (compares, records_history) {
        (true, _) => plan::Reference::ForBaseline,
        (false, true) => plan::Reference::ForHistory,
        (false, false) => plan::Reference::Off,
    };
    let processes = plan::Processes::forks(forks);
    let plan = plan::plan(&args.settings, selected, cold_bytes, reference, processes)?;
    let worker_args = cli::worker_args(&args.settings);
    let collect::Collected {
        mut info,
        results: measured,
        machine_reference,
        loop_overhead,
        round_logs,
    } = collect::collect(
        &plan,
        selected,
        forks,
        &worker_args,
        (progress::Mode::for_stderr(args.output.quiet), started),
    );
    *results = measured;
    for result in results.iter_mut() {
        if let Some(s) = selected.iter().find(|s| s.name == result.name) {
            result.bytes_unit = s
                .bench
                .entry
                .settings()
                .overridden_by(args.settings)
                .bytes_unit_or_default();
        }
    }
    if !info.partial {
        // Rows whose slices cooled between them, measured again warm.
        let pairs = (forks, &plan.paired_rows[..]);
        warm::remeasure(&args.settings, selected, results, pairs, args.output.quiet);
    }
    // Whether the run is whole, read once every measuring pass has ended:
    // a Ctrl-C during the warm pass makes it partial too (no history, no
    // baseline, the table says so).
    info.partial = bench_runtime::signal::interrupted();

    let reports = verdicts::complexity_reports(args.output.complexity, selected, results);
    // Compared first: the table shows each benchmark's change.
    let clock = info.precision.resolution.0;
    let comparison = baseline.as_ref().map(|baseline| {
        verdicts::compare(baseline, machine_reference.as_ref(), &args.baselines, clock)
    });
    // How this run measured: what the comparison and the history's series
    // both read.
    let method = verdicts::Method {
        schedule: info.schedule,
        cold: info.cold,
        paired: &plan.paired_rows,
    };
    if let Some((baseline, comparison)) = baseline.as_ref().zip(comparison.as_ref()) {
        for result in results.iter_mut() {
            result.comparison =
                verdicts::compare_with(baseline, result, comparison.threshold, clock, method);
        }
        if let Some(name) = &args.baselines.compare {
            verdicts::note_methods_differ(name, baseline, results, method);
        }
    }
    // The history as it stood before this run, read once: for the drift
    // line, and with this run's records for the report's charts.
    let mut past = if records_history || report.is_some() {
        history::load(&history::target_dir(&store), &baseline::target_name()).unwrap_or_default()
    } else {
        Vec::new()
    };
    // This run against the history's recent runs of this machine and
    // configuration: the machine's speed (the drift line), and how far a
    // rerun may move each row, from its own recent runs of the same code
    // (the table's rerun figure: the answer should hold on the next run).
    let against_past = records_history && !info.partial;
    let (cold, paired) = (method.cold, method.paired);
    let sequential = method.schedule == crate::settings::Schedule::Sequential;
    let series = against_past.then(|| history::series(&environment, cold, false));
    let series = series
        .as_ref()
        .map(|(machine, config)| (machine.as_str(), config.as_str()));
    // A row measured in one stretch is of another series.
    let stretch = history::series(&environment, cold, true);
    let drift = machine_reference
        .as_ref()
        .zip(series)
        .and_then(|(reference, series)| history::drift(&past, series, reference.headline()));
    // Each benchmark's code, for its past runs and its history records.
    let codes = if against_past {
        history::code_identities(
            selected
                .iter()
                .filter(|s| results.iter().any(|r| r.name == s.name))
                .map(|s| (s.name.as_str(), s.bench.entry.run.address())),
        )
    } else {
        Vec::new()
    };
    if let Some(series) = series {
        for result in results.iter_mut() {
            let code = codes.iter().find(|(name, _)| *name == result.name);
            if let (Outcome::Measured(m), Some((_, code))) = (&mut result.outcome, code) {
                let bench = history::Benchmark {
                    name: &result.name,
                    code,
                };
                let paired = paired.contains(&result.name);
                let series = if history::one_stretch(sequential, paired, m) {
                    (stretch.0.as_str(), stretch.1.as_str())
                } else {
                    series
                };
                m.rerun = history::rerun_half_width(&past, series, bench, m.headline());
            }
        }
    }
    let mut table = TableWrites::default();
    table.check(out.bench_table(&info, results, &reports, outputs::layout(args.output.flat)));
    let mut groups = Vec::new();
    if !info.partial {
        // (After Ctrl-C the rows of jobs that never started are gone, and
        // the rounds no longer line up with the rows.) Each process pairs
        // its own rounds; the processes' rounds are pooled.
        groups = verdicts::group_reports(&plan.jobs, &plan.job_rows, &round_logs, results, clock);
        for group in &groups {
            table.check(out.group_table(group));
        }
    } else if !plan.paired_groups.is_empty() {
        console::note(&format_args!(
            "A/B groups ({}) have no ratios: the run was interrupted before their rounds \
             ended; run them again to the end",
            plan.paired_groups.join(", ")
        ));
    }
    if let (Some(name), Some(baseline), Some(comparison)) =
        (&args.baselines.compare, &baseline, &comparison)
    {
        table.check(out.comparison_table(
            name,
            baseline,
            results,
            registered,
            comparison.machine_change.as_ref(),
            comparison.threshold,
        ));
    }
    let seconds = started.elapsed().as_secs_f64();
    table.check(out.bench_summary(results, seconds, info.partial));
    if let Some(drift) = &drift {
        show_drift(args, drift);
    }
    if args.quick {
        console::note(&format_args!(
            "--quick: each benchmark was measured for about {} s with no precision target, \
             so these figures are rough; run without --quick before comparing or saving them",
            args.settings
                .measure_time
                .unwrap_or(cli::QUICK_MEASURE_SECS)
        ));
    }
    let threshold = comparison.as_ref().map(|c| c.threshold);
    let baseline_report = baseline
        .as_ref()
        .zip(comparison)
        .map(|(b, c)| verdicts::report(&args.baselines, b, c, registered));

    let written = outputs::Run {
        environment: &environment,
        info: &info,
        results,
        complexity: &reports,
        machine_reference: machine_reference.as_ref(),
        loop_overhead: loop_overhead.as_ref(),
        baseline: baseline_report.as_ref(),
        groups: &groups,
        registered,
        seconds,
    };
    let mut errors = outputs::write(args, &store, &written);
    if records_history && !info.partial {
        // A by-product of the run: a history that cannot be written is
        // warned about, and does not fail the run.
        let run = history::RunRecords {
            environment: &environment,
            results,
            machine_reference: machine_reference.as_ref(),
            cold,
            sequential,
            paired,
            codes: &codes,
        };
        match history::append_run(&store, &run) {
            Ok(appended) => past.extend(appended),
            Err(error) => console::status(&format_args!("warning: {error}")),
        }
    }
    if let Some(place) = &report {
        let history = html::history_points(&past);
        let flamegraphs = html::flamegraph_links(place, results);
        let page = crate::report::html::render(&crate::report::html::Page {
            target: &baseline::target_name(),
            environment: &environment,
            info: &info,
            results,
            complexity: &reports,
            groups: &groups,
            baseline: baseline
                .as_ref()
                .zip(threshold)
                .map(|(document, threshold)| crate::report::html::Baseline {
                    name: args.baselines.compare.as_deref().unwrap_or(""),
                    document,
                    threshold,
                }),
            history: &history,
            flamegraphs: &flamegraphs,
        });
        errors.extend(html::write(&args.output, place, &page));
    }
    if let Some(error) = table.failed {
        errors.push(format!("cannot write the table to stdout: {error}"));
    }
    for error in &errors {
        console::error(error);
    }
    // `unclear` passes the gate: see docs/comparing.md.
    let regressed = results.iter().any(|r| {
        matches!(&r.comparison, Some(Compared::Against(c)) if c.verdict() == Some(Verdict::Slower))
    });
    if info.partial {
        console::status(
            &"interrupted: the results above are partial (measuring stopped at Ctrl-C); \
             any outputs written say \"partial\": true",
        );
        return Ok(bench_runtime::signal::EXIT_INTERRUPTED);
    }
    let gate = args.baselines.fail_on_regression;
    if let (true, Some(name), Some(baseline)) = (gate, &args.baselines.compare, &baseline) {
        // (Only when some are new: a filter selecting a few of the
        // baseline's benchmarks is no news.)
        gate_coverage(name, baseline, results);
    }
    let uncovered = match (&args.baselines.compare, &baseline) {
        (Some(name), Some(b)) => verdicts::coverage(name, b, results, registered, gate),
        _ => false,
    };
    Ok(match exit_code(results) {
        0 if !errors.is_empty() => EXIT_USAGE,
        0 if uncovered => EXIT_REGRESSED,
        0 if regressed && args.baselines.fail_on_regression => EXIT_REGRESSED,
        code => code,
    })
}

/// The machine's header (to stderr when stdout carries a machine format),
/// and its warnings, always to stderr: the table stays the results, and
/// `--no-machine-warnings` or `BENCH_HARNESS_NO_MACHINE_WARNINGS=1`
/// silences them, but for the loud ones (an unoptimised build).
fn show_machine(
    out: &mut Terminal<'_>,
    args: &Args,
    environment: &Environment,
    cold_bytes: Option<usize>,
) {
    let header = match args.output.verbose || args.output.details {
        true => audit::header(environment),
        false => audit::short_header(environment),
    };
    let silenced = warnings_silenced(args);
    let warnings: Vec<_> = audit::audit(environment)
        .into_iter()
        .filter(|w| w.loud || !silenced)
        .collect();
    let pin = args.settings.pin;
    let mut stream = StandardStream::stderr(stderr_color_choice(args.output.color));
    let mut stderr = stderr_view(&mut stream, args);
    let _ = stderr.warnings(&warnings);
    if args.output.format != OutputFormat::Pretty && args.output.path.is_none() {
        let _ = stderr.machine(&header, pin, cold_bytes);
    } else {
        let _ = out.machine(&header, pin, cold_bytes);
    }
}

/// Whether the machine's warnings are left out: `--quiet`, or silenced
/// ([`machine_warnings_silenced`]).
fn warnings_silenced(args: &Args) -> bool {
    args.output.quiet
        || machine_warnings_silenced(
            args.output.no_machine_warnings,
            std::env::var_os(NO_MACHINE_WARNINGS).as_deref(),
        )
}

/// The table's view on stderr, where the machine's lines go.
fn stderr_view<'a>(stream: &'a mut StandardStream, args: &Args) -> Terminal<'a> {
    Terminal::new(stream, std::iter::empty())
        .with_view(
            bench_runtime::stdio::stderr_columns().unwrap_or_else(text::stdout_width),
            args.output.details,
        )
        .with_verbose(args.output.verbose)
}

/// The machine against its recent runs, on stderr with the machine's other
/// lines: its warning silenced with them, the line that it is as fast as
/// before only by `--quiet`.
fn show_drift(args: &Args, drift: &history::Drift) {
    if args.output.quiet || (drift.beyond && warnings_silenced(args)) {
        return;
    }
    let mut stream = StandardStream::stderr(stderr_color_choice(args.output.color));
    let _ = stderr_view(&mut stream, args).machine_drift(drift);
}

/// The environment variable that silences the machine's warnings, as
/// `--no-machine-warnings` does (for CI, where the flags are shared).
const NO_MACHINE_WARNINGS: &str = "BENCH_HARNESS_NO_MACHINE_WARNINGS";

/// Whether the machine's warnings are silenced: by the flag, or by the
/// variable set to anything but empty or `0`.
fn machine_warnings_silenced(flag: bool, variable: Option<&std::ffi::OsStr>) -> bool {
    flag || variable.is_some_and(|v| !v.is_empty() && v != "0")
}

/// The first error in writing the table to stdout, but for a reader that
/// stopped early (`| head`), which is not one.
#[derive(Default)]
struct TableWrites {
    failed: Option<std::io::Error>,
}

impl TableWrites {
    fn check(&mut self, written: std::io::Result<()>) {
        if let Err(error) = written {
            if error.kind() != std::io::ErrorKind::BrokenPipe && self.failed.is_none() {
                self.failed = Some(error);
            }
        }
    }
}

/// This binary's baseline store, its directory made absolute now: a
/// benchmark that changes the working directory cannot move it, and
/// messages show where files are.
fn locate_store() -> baseline::Store {
    let store = baseline::Store::locate();
    match std::path::absolute(store.dir()) {
        Ok(dir) => baseline::Store::at(dir),
        Err(_) => store,
    }
}

/// Under `--fail-on-regression`, when some benchmarks measured here are not
/// in the baseline, one line saying how much of it the gate rests on: how
/// many of its benchmarks were compared, and how many are new.
fn gate_coverage(name: &str, baseline: &crate::document::Document, results: &[BenchResult]) {
    let held = baseline
        .benchmarks
        .iter()
        .filter(|b| b.measurement.is_some())
        .count();
    let count = |new: bool| {
        results
            .iter()
            .filter(|r| match &r.comparison {
                Some(Compared::New) => new,
                Some(Compared::Against(_)) => !new,
                _ => false,
            })
            .count()
    };
    let new = count(true);
    if new == 0 {
        return;
    }
    console::status(&format_args!(
        "--fail-on-regression: {} of baseline '{name}''s {held} benchmark{} compared; {new} \
         measured here {} not in it (new)",
        count(false),
        if held == 1 { "" } else { "s" },
        if new == 1 { "is" } else { "are" }
    ));
}

fn usage_error(error: &dyn std::fmt::Display) -> i32 {
    console::error(error);
    EXIT_USAGE
}

fn color_choice(color: Color) -> ColorChoice {
    colour_for(color, std::io::stdout().is_terminal())
}

/// [`color_choice`] for standard error, which may be a terminal when
/// stdout is not (`cargo bench > table.txt`), or the other way round.
fn stderr_color_choice(color: Color) -> ColorChoice {
    colour_for(color, std::io::stderr().is_terminal())
}

fn colour_for(color: Color, terminal: bool) -> ColorChoice {
    match color {
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
        Color::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            if terminal && !no_color {
                ColorChoice::Auto
            } else {
                ColorChoice::Never
            }
        }
    }
}

fn describe_filters(args: &Args) -> String {
    let quoted: Vec<String> = args
        .filter
        .patterns
        .iter()
        .map(|f| format!("'{f}'"))
        .collect();
    match quoted.len() {
        0 => "the selection".to_string(),
        1 => format!("the filter {}", quoted[0]),
        _ => format!("the filters {}", quoted.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::machine_warnings_silenced;

    #[test]
    fn machine_warnings_are_silenced_by_the_flag_or_the_variable() {
        assert!(!machine_warnings_silenced(false, None));
        assert!(machine_warnings_silenced(true, None));
        assert!(machine_warnings_silenced(false, Some(OsStr::new("1"))));
        assert!(machine_warnings_silenced(false, Some(OsStr::new("yes"))));
        assert!(!machine_warnings_silenced(false, Some(OsStr::new("0"))));
        assert!(!machine_warnings_silenced(false, Some(OsStr::new(""))));
        assert!(machine_warnings_silenced(true, Some(OsStr::new("0"))));
    }
}
