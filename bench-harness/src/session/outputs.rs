//! Outputs: the `--format` output (to `--output` or stdout) and the saved
//! baseline with its copy of the executable, written independently so that
//! one failing does not lose the other.
//!
//! A machine format on stdout is written to the process's original
//! standard output, kept aside by [`keep_stdout_for_results`] before any
//! benchmark runs: what benchmarks print goes to stderr meanwhile.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Mutex, OnceLock, PoisonError};

use termcolor::NoColor;

use crate::audit;
use crate::baseline::{self, Store};
use crate::cli::{Args, OutputFormat, Samples};
use crate::console;
use crate::document::{self, Document};
use crate::environment::Environment;
use crate::fs;
use crate::report::terminal::{text, Layout, Terminal};
use crate::report::{self, markdown};
use crate::results::against::AgainstReport;
use crate::results::comparison::BaselineReport;
use crate::results::{BenchResult, ComplexityReport, GroupReport, Measured, Outcome, RunInfo};

/// Everything a run's outputs are made of.
pub(super) struct Run<'a> {
    pub(super) environment: &'a Environment,
    pub(super) info: &'a RunInfo,
    pub(super) results: &'a [BenchResult],
    pub(super) complexity: &'a [ComplexityReport],
    pub(super) machine_reference: Option<&'a Measured>,
    pub(super) loop_overhead: Option<&'a Measured>,
    /// `--baseline NAME`: what every verdict against it shares.
    pub(super) baseline: Option<&'a BaselineReport>,
    /// The in-run A/B groups' comparisons.
    pub(super) groups: &'a [GroupReport],
    /// Every benchmark this binary has, by full name, selected or not.
    pub(super) registered: &'a [String],
    /// The run's wall time so far, for the table's closing line.
    pub(super) seconds: f64,
}

impl Run<'_> {
    /// The results document: what `--format json` writes and a baseline
    /// saves, the same in both, verdicts included.
    fn document(&self) -> Document {
        let mut document = document::assemble(
            self.environment,
            self.info,
            self.results,
            self.complexity,
            self.machine_reference,
            self.loop_overhead,
        );
        document.comparison = self
            .baseline
            .map(|report| document::comparison(report, self.results));
        document.groups = document::groups(self.groups);
        document
    }

    /// The page `--format markdown` writes and a job summary gets.
    fn markdown(&self, out: &mut dyn Write) -> io::Result<()> {
        let machine = audit::machine_line(self.environment);
        let heading = markdown::Heading {
            target: &baseline::target_name(),
            machine: &machine,
        };
        markdown::write(
            out,
            heading,
            self.info,
            self.results,
            self.baseline,
            self.groups,
        )
    }
}

/// Writes the `--format` output and the baseline the command line asks
/// for; returns what went wrong, one line each.
pub(super) fn write(args: &Args, store: &Store, run: &Run<'_>) -> Vec<String> {
    let mut errors = Vec::new();
    if let Err(error) = write_output(args, run) {
        errors.push(error);
    }
    if !run.info.partial {
        errors.extend(append_step_summary(&|out| run.markdown(out)));
    }
    if let Some(name) = &args.baselines.save {
        if run.info.partial || bench_runtime::signal::interrupted() {
            // A partial run would replace a whole baseline and turn the
            // benchmarks it missed into `new` at the next gated run.
            console::status(&format_args!(
                "baseline '{name}' not saved: the run was interrupted; {}",
                if store.path(name).exists() {
                    "the one saved before is kept"
                } else {
                    "run again to save it"
                }
            ));
            return errors;
        }
        match save_baseline(store, name, args.baselines.keep_exe, run) {
            Ok(message) => console::written(&message),
            Err(error) => errors.push(error),
        }
    }
    errors
}

/// Saves the run as baseline `name`, then (with `keep_exe`) a copy of this
/// executable beside it, unless a benchmark failed: a partial run would
/// replace a good baseline and turn its benchmarks into `new`, silently
/// disabling the regression gate.
fn save_baseline(
    store: &Store,
    name: &str,
    keep_exe: bool,
    run: &Run<'_>,
) -> Result<String, String> {
    let failed: Vec<&str> = run
        .results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Failed(_)))
        .map(|r| r.name.as_str())
        .collect();
    if !failed.is_empty() {
        return Err(format!(
            "baseline '{name}' not saved, the old one is kept: {} failed ({}); fix it or leave it out with --skip",
            if failed.len() == 1 { "a benchmark" } else { "benchmarks" },
            failed.join(", ")
        ));
    }
    let left_out = left_out_of(store, name, run)?;
    if !left_out.is_empty() {
        let shown: Vec<&str> = left_out.iter().map(String::as_str).take(3).collect();
        return Err(format!(
            "baseline '{name}' not saved, the old one is kept: it holds {} benchmark{} of this \
             binary that this run did not measure ({}{}), and saving would drop {} from it; save \
             without the filter (or --skip, or with the same ignore flags), or under another \
             name",
            left_out.len(),
            if left_out.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if left_out.len() > shown.len() {
                ", …"
            } else {
                ""
            },
            if left_out.len() == 1 { "it" } else { "them" },
        ));
    }
    // The document first: when it cannot be written, the old baseline
    // stays whole, its executable included.
    let path = store
        .save(name, &run.document())
        .map_err(|e| e.to_string())?;
    let saved = format!("saved baseline '{name}' to {}", path.display());
    if keep_exe {
        let bytes = store
            .keep_this_executable(name)
            .map_err(|e| e.to_string())?;
        Ok(format!(
            "{saved} (executable kept: {})",
            crate::text::size_text(bytes)
        ))
    } else {
        store
            .drop_this_executable(name)
            .map_err(|e| e.to_string())?;
        Ok(format!("{saved} (no executable kept: --no-keep-exe)"))
    }
}

/// The benchmarks saved baseline `name` holds that this binary still has
/// but this run did not measure (a filter, `--skip` or the ignore flags
/// left them out): saving the run over it would shrink it without a word,
/// and the next gated run would compare only what is left. None when there
/// is no such baseline yet. Its names are read without the checks a
/// comparison makes, so that a baseline only a comparison would refuse
/// still protects what it holds; one that cannot be read at all is not
/// replaced either (it failed open once: a fresh `--forks` baseline the
/// checks refused was overwritten by a filtered save).
fn left_out_of(store: &Store, name: &str, run: &Run<'_>) -> Result<Vec<String>, String> {
    let path = store.path(name);
    let existing = match document::load(&path) {
        Ok(existing) => existing,
        // Nothing there (a file where a directory should be is for the
        // write to report): nothing to keep.
        Err(document::LoadError::Io { .. }) if path.symlink_metadata().is_err() => {
            return Ok(Vec::new())
        }
        Err(error) => {
            return Err(format!(
                "baseline '{name}' not saved, the old one is kept: {error}; or save under \
                 another name"
            ))
        }
    };
    Ok(existing
        .benchmarks
        .into_iter()
        .map(|b| b.name)
        .filter(|held| run.registered.contains(held))
        .filter(|held| {
            !run.results
                .iter()
                .any(|r| r.name == *held && r.measured().is_some())
        })
        .collect())
}

/// An `--against` run: what it compared and where.
pub(super) struct Against<'a> {
    pub(super) environment: &'a Environment,
    pub(super) info: &'a RunInfo,
    pub(super) report: &'a AgainstReport,
}

impl Against<'_> {
    /// The page `--format markdown` writes and a job summary gets.
    fn markdown(&self, out: &mut dyn Write) -> io::Result<()> {
        let machine = audit::machine_line(self.environment);
        let heading = markdown::Heading {
            target: &baseline::target_name(),
            machine: &machine,
        };
        markdown::write_against(out, heading, self.report)
    }
}

/// An `--against` run's outputs: its comparison in the `--format` asked
/// for, to `--output` or stdout (nothing more with the default table,
/// already printed), and the job summary; returns what went wrong, one
/// line each.
pub(super) fn write_against(args: &Args, run: &Against<'_>) -> Vec<String> {
    let mut errors = Vec::new();
    let output = &args.output;
    let mut bytes = Vec::new();
    let rendered = match output.format {
        // The parser refuses a table to --output and the bencher format.
        OutputFormat::Pretty | OutputFormat::Bencher => None,
        OutputFormat::Json => {
            let document = document::assemble_against(run.environment, run.info, run.report);
            Some(report::json::write(&mut bytes, &document))
        }
        OutputFormat::Csv => Some(report::csv::write_against(&mut bytes, run.report)),
        OutputFormat::Markdown => Some(run.markdown(&mut bytes)),
        OutputFormat::Bmf => Some(report::bmf::write_against(&mut bytes, run.report)),
    };
    let written = match rendered {
        None => Ok(()),
        Some(Err(e)) => Err(format!("cannot render the results: {e}")),
        Some(Ok(())) => deliver(output.path.as_deref(), &bytes),
    };
    errors.extend(written.err());
    if !run.info.partial {
        errors.extend(append_step_summary(&|out| run.markdown(out)));
    }
    errors
}

/// Writes `--logfile`'s `log` to `path` (replaced atomically, as
/// `--output`); the error is one line naming the file and the fix.
pub(super) fn write_logfile(path: &Path, log: &str) -> Result<(), String> {
    crate::fs::write_output(path, log.as_bytes()).map_err(|error| {
        format!(
            "cannot write --logfile {}: {error}; check the directory exists and is writable",
            path.display()
        )
    })
}

/// The variable GitHub Actions sets to the file a step's summary is
/// appended to.
const STEP_SUMMARY: &str = "GITHUB_STEP_SUMMARY";

/// Under GitHub Actions (`GITHUB_STEP_SUMMARY` set), appends the run's
/// Markdown page to the step's summary, so that a workflow shows the
/// results without a script; nothing without it. Each bench target that
/// `cargo bench` runs appends its own page, a blank line between them.
fn append_step_summary(render: &dyn Fn(&mut dyn Write) -> io::Result<()>) -> Option<String> {
    let path = std::env::var_os(STEP_SUMMARY).filter(|p| !p.is_empty())?;
    let path = Path::new(&path);
    let mut page = Vec::new();
    if let Err(e) = render(&mut page) {
        return Some(format!("cannot render the job summary: {e}"));
    }
    // Markdown ends an HTML block (the page's `</details>`) at a blank line
    // only: what follows on the next line would be swallowed into it.
    let mut separate = |file: &std::fs::File| -> io::Result<Vec<u8>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = file;
        let length = file.metadata()?.len();
        if length == 0 {
            return Ok(Vec::new());
        }
        let mut tail = [0u8; 2];
        let n = tail.len().min(length as usize);
        file.seek(SeekFrom::End(-(n as i64)))?;
        file.read_exact(&mut tail[..n])?;
        Ok(match &tail[..n] {
            [.., b'\n', b'\n'] => Vec::new(),
            [.., b'\n'] => b"\n".to_vec(),
            _ => b"\n\n".to_vec(),
        })
    };
    fs::append_regular(path, &page, &mut separate)
        .err()
        .map(|e| {
            format!(
                "cannot append the results to {STEP_SUMMARY} ({}): {e}; point it at a \
                 regular file, or unset it",
                path.display()
            )
        })
}

/// The `--format` output: to `--output` (atomically) or to stdout.
fn write_output(args: &Args, run: &Run<'_>) -> Result<(), String> {
    let output = &args.output;
    let rendered = match (output.format, &output.path) {
        // The table is on stdout already.
        (OutputFormat::Pretty, None) => return Ok(()),
        (OutputFormat::Pretty, Some(_)) => render_table(run, layout(output.flat), output.details),
        (format, _) => {
            let mut bytes = Vec::new();
            let written = match format {
                OutputFormat::Json => {
                    let document = match output.samples {
                        Samples::Full => run.document(),
                        Samples::None => run.document().without_samples(),
                    };
                    report::json::write(&mut bytes, &document)
                }
                OutputFormat::Csv => {
                    report::csv::write(&mut bytes, run.info, run.results, run.baseline)
                }
                OutputFormat::Markdown => run.markdown(&mut bytes),
                OutputFormat::Bencher => report::bencher::write(&mut bytes, run.info, run.results),
                OutputFormat::Bmf => report::bmf::write(&mut bytes, run.info, run.results),
                OutputFormat::Pretty => unreachable!("handled above"),
            };
            written.map(|()| bytes)
        }
    };
    let bytes = rendered.map_err(|e| format!("cannot render the results: {e}"))?;
    deliver(output.path.as_deref(), &bytes)
}

/// Where a machine format on stdout goes: the original standard output,
/// once [`keep_stdout_for_results`] has set it aside.
static RESULTS: OnceLock<Mutex<File>> = OnceLock::new();

/// Before any benchmark runs, when the results go to stdout in a machine
/// format: keeps the original standard output for them and points the
/// process's stdout at stderr, so that nothing a benchmark prints (or a
/// program it starts, which inherits it) can corrupt them, and a benchmark
/// that closes its stdout cannot lose them. Refuses a closed stdout, where
/// the results would be lost.
pub(super) fn keep_stdout_for_results() -> Result<(), String> {
    check_stdout()?;
    if stdout_was_closed_at_start() {
        return Err(stdout_unusable(&io::Error::new(
            io::ErrorKind::NotConnected,
            "it was closed when the program started",
        )));
    }
    match bench_runtime::stdio::divert_stdout() {
        Ok(file) => {
            let _ = RESULTS.set(Mutex::new(file));
            Ok(())
        }
        // Nowhere to divert to on this platform: stdout as it is.
        Err(error) if error.kind() == io::ErrorKind::Unsupported => Ok(()),
        Err(error) => Err(stdout_unusable(&error)),
    }
}

/// Whether stdout is open, checked before measuring when the results go
/// there: on a closed one they would be lost without a word.
pub(super) fn check_stdout() -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .map_err(|error| stdout_unusable(&error))?;
    }
    Ok(())
}

/// Linux: fd 1 is `/dev/null` opened read-write, as Rust's runtime leaves
/// a standard descriptor it finds closed at start-up (`>&-`); a shell's
/// `>/dev/null` opens it write-only. Only a machine format's results are
/// refused on it: a table sent to a read-write `/dev/null` (Python's
/// `subprocess.DEVNULL`) is meant to be thrown away.
fn stdout_was_closed_at_start() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    let read_write = info
        .lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        // O_ACCMODE == 3, O_RDWR == 2.
        .is_some_and(|flags| flags & 3 == 2);
    target == Path::new("/dev/null") && read_write
}

fn stdout_unusable(error: &io::Error) -> String {
    format!(
        "standard output is closed or unusable ({error}), so the results would be lost: \
         give --output FILE, or run with stdout open"
    )
}

/// Checks, before anything is measured, that `--output` can be written: a
/// typo in its directory or a read-only place fails in a second, not after
/// minutes of measuring. A missing directory is refused, not created: a
/// typo would otherwise leave the results somewhere unexpected.
pub(super) fn check_output(path: Option<&Path>) -> Result<(), String> {
    let Some(path) = path else {
        return Ok(());
    };
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty());
    if let Some(dir) = dir {
        // (A file where a directory must be is `check_writable`'s to name.)
        let existing = dir
            .ancestors()
            .find(|a| a.as_os_str().is_empty() || a.exists());
        if !dir.exists() && existing.is_none_or(|a| a.as_os_str().is_empty() || a.is_dir()) {
            return Err(format!(
                "cannot write --output {}: directory {} does not exist; create it (mkdir -p {}) \
                 or give another path",
                path.display(),
                dir.display(),
                dir.display()
            ));
        }
    }
    fs::check_writable(path).map_err(|e| output_error(path, &e))
}

fn output_error(path: &Path, error: &io::Error) -> String {
    let remedy = if error.kind() == io::ErrorKind::NotADirectory {
        "give a path outside that file, or move the file away"
    } else if error.kind() == io::ErrorKind::Interrupted {
        "run again with a reader of it, or give a file"
    } else {
        "check the directory exists and is writable, or give another path"
    };
    format!(
        "cannot write --output {}: {error}; {remedy}",
        path.display()
    )
}

/// Writes `bytes` to `path` (see [`fs::write_output`]) or to stdout.
fn deliver(path: Option<&Path>, bytes: &[u8]) -> Result<(), String> {
    let written = match path {
        Some(path) => {
            return fs::write_output(path, bytes).map_err(|e| output_error(path, &e));
        }
        None => match RESULTS.get() {
            Some(kept) => {
                let mut file = kept.lock().unwrap_or_else(PoisonError::into_inner);
                file.write_all(bytes).and_then(|()| file.flush())
            }
            None => {
                let mut stdout = io::stdout().lock();
                stdout.write_all(bytes).and_then(|()| stdout.flush())
            }
        },
    };
    match written {
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the results to stdout: {e}"))
        }
        _ => Ok(()),
    }
}

/// The table as plain text, for `--output` with `--format pretty`.
fn render_table(run: &Run<'_>, layout: Layout, details: bool) -> io::Result<Vec<u8>> {
    let mut buffer = NoColor::new(Vec::new());
    let mut table =
        Terminal::new(&mut buffer, std::iter::empty()).with_view(text::file_width(), details);
    table.bench_table(run.info, run.results, run.complexity, layout)?;
    table.bench_summary(run.results, run.seconds, run.info.partial)?;
    Ok(buffer.into_inner())
}

/// The table's layout: `--flat` or a tree.
pub(super) fn layout(flat: bool) -> Layout {
    if flat {
        Layout::Flat
    } else {
        Layout::Tree
    }
}
