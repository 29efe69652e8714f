//! Outputs: the `--format` output (to `--output` or stdout) and the saved
//! baseline with its copy of the executable, written independently so that
//! one failing does not lose the other.

use std::io::{self, Write};

use termcolor::NoColor;

use crate::baseline::{self, Store};
use crate::cli::{Args, OutputFormat};
use crate::document::{self, Document};
use crate::environment::Environment;
use crate::fs;
use crate::report::terminal::{Layout, Terminal};
use crate::report::{self, console};
use crate::results::{BenchResult, ComplexityReport, Measured, Outcome, RunInfo};

/// Everything a run's outputs are made of.
pub(super) struct Run<'a> {
    pub(super) environment: &'a Environment,
    pub(super) info: &'a RunInfo,
    pub(super) results: &'a [BenchResult],
    pub(super) complexity: &'a [ComplexityReport],
    pub(super) machine_reference: Option<&'a Measured>,
    pub(super) loop_overhead: Option<&'a Measured>,
}

impl Run<'_> {
    /// The results document: what `--format json` writes and a baseline
    /// saves, the same in both.
    fn document(&self) -> Document {
        document::assemble(
            self.environment,
            self.info,
            self.results,
            self.complexity,
            self.machine_reference,
            self.loop_overhead,
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
    if let Some(name) = &args.baselines.save {
        match save_baseline(store, name, args.baselines.keep_exe, run) {
            Ok(message) => console::status(&message),
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
            baseline::size_text(bytes)
        ))
    } else {
        store
            .drop_this_executable(name)
            .map_err(|e| e.to_string())?;
        Ok(format!("{saved} (no executable kept: --no-keep-exe)"))
    }
}

/// An `--against` run's output: its document, as JSON, to `--output` or
/// stdout; nothing more with the default table (already printed).
pub(super) fn write_document(args: &Args, document: &Document) -> Result<(), String> {
    let output = &args.output;
    // The parser allows only these two with --against.
    if output.format != OutputFormat::Json {
        return Ok(());
    }
    let mut bytes = Vec::new();
    report::json::write(&mut bytes, document)
        .map_err(|e| format!("cannot render the results: {e}"))?;
    deliver(output.path.as_deref(), &bytes)
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
                OutputFormat::Json => report::json::write(&mut bytes, &run.document()),
                OutputFormat::Csv => report::csv::write(&mut bytes, run.info, run.results),
                OutputFormat::Markdown => {
                    report::markdown::write(&mut bytes, run.info, run.results)
                }
                OutputFormat::Bencher => report::bencher::write(&mut bytes, run.info, run.results),
                OutputFormat::Pretty => unreachable!("handled above"),
            };
            written.map(|()| bytes)
        }
    };
    let bytes = rendered.map_err(|e| format!("cannot render the results: {e}"))?;
    deliver(output.path.as_deref(), &bytes)
}

/// Writes `bytes` to `path` (atomically) or to stdout.
fn deliver(path: Option<&std::path::Path>, bytes: &[u8]) -> Result<(), String> {
    match path {
        Some(path) => fs::write_atomically(path, bytes).map_err(|e| {
            format!(
                "cannot write --output {}: {e}; check the directory exists and is writable",
                path.display()
            )
        }),
        None => match io::stdout().write_all(bytes) {
            // A reader that stopped early (`| head`) is not an error.
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                Err(format!("cannot write the results to stdout: {e}"))
            }
            _ => Ok(()),
        },
    }
}

/// The table as plain text, for `--output` with `--format pretty`.
fn render_table(run: &Run<'_>, layout: Layout, details: bool) -> io::Result<Vec<u8>> {
    let mut table = Terminal::new(NoColor::new(Vec::new()), std::iter::empty());
    table.bench_table(run.info, run.results, run.complexity, layout, details)?;
    table.bench_summary(run.results, 0.0)?;
    Ok(table.into_inner().into_inner())
}

/// The table's layout: `--flat` or a tree.
pub(super) fn layout(flat: bool) -> Layout {
    if flat {
        Layout::Flat
    } else {
        Layout::Tree
    }
}
