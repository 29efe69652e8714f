//! The HTML report at the end of a measured run: where it goes, writing
//! it, and the line that says where it went.

use std::path::{Path, PathBuf};

use crate::baseline::{self, Store};
use crate::cli::OutputOptions;
use crate::fs;
use crate::history;
use crate::report::console;
use crate::report::html::{self, HistoryPoint, Place};

/// Where this run's report goes: `--report PATH`, else `report/` beside
/// the baseline store (`target/bench-harness/report/`); `None` with
/// `--no-report` or in a `--forks` child (its parent writes the report).
pub(super) fn place(output: &OutputOptions, store: &Store) -> Option<Place> {
    if output.no_report || crate::forks::is_child() {
        return None;
    }
    Some(match &output.report {
        Some(path) => Place::of(std::path::absolute(path).unwrap_or_else(|_| path.clone())),
        None => Place::Directory(default_dir(store)),
    })
}

fn default_dir(store: &Store) -> PathBuf {
    store
        .dir()
        .parent()
        .map_or_else(|| PathBuf::from("report"), |dir| dir.join("report"))
}

/// Checks, before measuring, that an explicit `--report` can be written (a
/// typo fails in a second, not after the run).
pub(super) fn check(output: &OutputOptions, place: Option<&Place>) -> Result<(), String> {
    let (Some(path), Some(place)) = (&output.report, place) else {
        return Ok(());
    };
    let probe = match place {
        Place::File(file) => file.clone(),
        Place::Directory(dir) => dir.join("index.html"),
    };
    let result = fs::check_writable(&probe);
    result.map_err(|e| {
        format!(
            "cannot write --report {}: {e}; give a writable directory or .html file, or --no-report",
            path.display()
        )
    })
}

/// Writes `html` to `place` and says where; returns an error line when an
/// explicit `--report` could not be written. The default place failing
/// (a read-only target directory) is a warning, not a failed run.
pub(super) fn write(output: &OutputOptions, place: &Place, html: &str) -> Option<String> {
    let target = baseline::target_name();
    match html::write(place, &target, html) {
        Ok(path) => {
            console::status(&format_args!("wrote the report to {}", path.display()));
            None
        }
        Err(error) if output.report.is_some() => Some(format!(
            "cannot write --report {}: {error}; give a writable directory or .html file",
            output.report.as_deref().unwrap_or(Path::new("")).display()
        )),
        Err(error) => {
            console::status(&format_args!(
                "warning: cannot write the report under {}: {error}; give --report DIR, or \
                 --no-report",
                match place {
                    Place::Directory(dir) | Place::File(dir) => dir.display(),
                }
            ));
            None
        }
    }
}

/// The most runs a benchmark's history chart draws (the change points are
/// found over all of them).
const HISTORY_RUNS: usize = 30;

/// Each benchmark's runs from this bench target's history, for the report:
/// those of its latest run's series (the same machine and configuration:
/// a debug build's or another machine's runs are another history), change
/// points found over all of them, the last [`HISTORY_RUNS`] kept. Empty when there is no history (or it cannot be read: the run
/// already said so when it appended).
pub(super) fn history_points(store: &Store) -> Vec<Vec<HistoryPoint>> {
    let records =
        history::load(&history::target_dir(store), &baseline::target_name()).unwrap_or_default();
    // PERF: sorted and grouped rather than collected into a map by name:
    // each BTreeMap type costs ~5,000 lines of IR on every clean build.
    // The sort is stable, so each benchmark's runs stay oldest first.
    let mut by_name: Vec<&history::Record> = records.iter().collect();
    by_name.sort_by(|a, b| a.name.cmp(&b.name));
    by_name
        .chunk_by(|a, b| a.name == b.name)
        .map(|runs| {
            let mut runs = runs.to_vec();
            if let Some(latest) = runs.last().map(|r| r.series_key()) {
                runs.retain(|r| r.series_key() == latest);
            }
            let changes = history::change_points(&runs);
            let skip = runs.len().saturating_sub(HISTORY_RUNS);
            runs.iter()
                .enumerate()
                .skip(skip)
                .map(|(i, r)| HistoryPoint {
                    name: r.name.clone(),
                    commit: r.commit.clone().unwrap_or_default(),
                    timestamp: r.timestamp.clone(),
                    headline: r.time_ns,
                    lo: r.lower_ns.unwrap_or(r.time_ns),
                    hi: r.upper_ns.unwrap_or(r.time_ns),
                    is_change_point: changes.contains(&i),
                })
                .collect()
        })
        .collect()
}
