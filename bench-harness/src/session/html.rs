//! The HTML report at the end of a measured run: where it goes, writing
//! it, and the line that says where it went.

use std::path::{Path, PathBuf};

use crate::baseline::{self, Store};
use crate::cli::OutputOptions;
use crate::console;
use crate::fs;
use crate::history;
use crate::report::html::{self, HistoryPoint, Place};
use crate::results::BenchResult;

/// Where this run's report goes: `--report PATH`, else `report/` beside
/// the baseline store (`target/bench-harness/report/`); `None` with
/// `--no-report`.
pub(super) fn place(output: &OutputOptions, store: &Store) -> Option<Place> {
    if output.no_report {
        return None;
    }
    Some(match &output.report {
        Some(path) => Place::of(std::path::absolute(path).unwrap_or_else(|_| path.clone())),
        None => Place::Directory(default_dir(store)),
    })
}

pub(super) fn default_dir(store: &Store) -> PathBuf {
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
    if let Err(foreign) = check_ours(place) {
        return Err(format!(
            "cannot write --report {}: {foreign}",
            path.display()
        ));
    }
    let result = fs::check_writable(&probe);
    result.map_err(|e| {
        format!(
            "cannot write --report {}: {e}; give a writable directory or .html file, or --no-report",
            path.display()
        )
    })
}

/// The file a report directory holds to say bench-harness writes it: a
/// directory with it is the harness's to write in.
const MARKER: &str = ".bench-harness-report";

/// What the marker says to whoever finds it.
const MARKER_TEXT: &str = "bench-harness writes the HTML reports in this directory, and \
                           replaces index.html and TARGET/index.html at each run.\n";

/// The benchmarks of `results` with a flame graph beside the page at
/// `place` (written by an earlier `--flamegraph` run into `flamegraph/`),
/// with its path relative to the page.
pub(super) fn flamegraph_links(place: &Place, results: &[BenchResult]) -> Vec<(String, String)> {
    let dir = match place {
        Place::File(file) => file.parent().map(PathBuf::from).unwrap_or_default(),
        Place::Directory(dir) => dir.join(baseline::target_name()),
    };
    results
        .iter()
        .filter_map(|result| {
            let href = format!("flamegraph/{}.svg", super::profile::file_name(&result.name));
            dir.join(&href)
                .is_file()
                .then(|| (result.name.clone(), href))
        })
        .collect()
}

/// Marks `dir` as a directory of reports (as writing a report there does),
/// for the flame graphs written into it before any report.
pub(super) fn claim(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let marker = dir.join(MARKER);
    if std::fs::symlink_metadata(&marker).is_err() {
        crate::fs::write_atomically(&marker, MARKER_TEXT.as_bytes())?;
    }
    Ok(())
}

/// Checks that writing the report to `place` overwrites nothing the harness
/// did not write: a directory is new, empty, holds the [`MARKER`], or holds
/// only reports (an index of targets and targets' pages, as a version
/// before the marker left them); a file is new or a report page. Else the
/// error says what is in the way and the fix.
fn check_ours(place: &Place) -> Result<(), String> {
    match place {
        Place::File(file) => match is_report_page(file) {
            Ok(true) => Ok(()),
            Ok(false) => Err(format!(
                "{} is not a report bench-harness wrote, and would be replaced; give a new \
                 .html path, or remove it",
                file.display()
            )),
            Err(error) => Err(format!(
                "{}: {error}; give a new .html path",
                file.display()
            )),
        },
        Place::Directory(dir) => {
            let entries = match std::fs::read_dir(dir) {
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
                // Not a directory, or unreadable: writing says what.
                Err(_) => return Ok(()),
                Ok(entries) => entries,
            };
            let marked = std::fs::symlink_metadata(dir.join(MARKER)).is_ok_and(|m| m.is_file());
            if marked {
                return Ok(());
            }
            let mut foreign: Vec<String> = Vec::new();
            for entry in entries.flatten() {
                let path = entry.path();
                let ours = match entry.file_type() {
                    Ok(kind) if kind.is_dir() => is_target_dir(&path),
                    Ok(kind) if kind.is_file() => {
                        entry.file_name() == "index.html" && is_report_page(&path).unwrap_or(false)
                    }
                    _ => false,
                };
                if !ours {
                    foreign.push(entry.file_name().to_string_lossy().into_owned());
                }
            }
            if foreign.is_empty() {
                return Ok(());
            }
            foreign.sort();
            let shown: Vec<String> = foreign
                .iter()
                .take(3)
                .map(|name| crate::report::format::escape(name).into_owned())
                .collect();
            Err(format!(
                "{} holds files bench-harness did not write ({}{}), and its index.html would be \
                 replaced; give a new or empty directory, or one it wrote (it holds {MARKER})",
                dir.display(),
                shown.join(", "),
                if foreign.len() > shown.len() {
                    ", …"
                } else {
                    ""
                }
            ))
        }
    }
}

/// A target's report directory of an earlier run: nothing in it but a
/// report page `index.html`.
fn is_target_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().all(|entry| {
            entry.file_name() == "index.html"
                && entry.file_type().is_ok_and(|t| t.is_file())
                && is_report_page(&entry.path()).unwrap_or(false)
        })
    })
}

/// Whether `path` is missing or a page bench-harness wrote (its title says
/// so, in its first bytes); an error for what is not a regular file.
fn is_report_page(path: &Path) -> Result<bool, std::io::Error> {
    let Some(start) = fs::read_prefix(path, 4096)? else {
        return Ok(true);
    };
    let start = String::from_utf8_lossy(&start);
    Ok(start.starts_with("<!DOCTYPE html>")
        && start
            .split_once("<title>")
            .and_then(|(_, title)| title.split_once("</title>"))
            .is_some_and(|(title, _)| {
                title.ends_with("bench-harness report") || title.ends_with("bench-harness reports")
            }))
}

/// Writes the [`MARKER`] into a report directory that has none.
fn mark(dir: &Path) -> std::io::Result<()> {
    let marker = dir.join(MARKER);
    if std::fs::symlink_metadata(&marker).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    fs::write_atomically(&marker, MARKER_TEXT.as_bytes())
}

/// Writes `html` to `place` and says where; returns an error line when an
/// explicit `--report` could not be written. The default place failing
/// (a read-only target directory) is a warning, not a failed run.
pub(super) fn write(output: &OutputOptions, place: &Place, html: &str) -> Option<String> {
    let target = baseline::target_name();
    // Checked again: the run took a while.
    if let Err(foreign) = check_ours(place) {
        return match &output.report {
            Some(given) => Some(format!(
                "cannot write --report {}: {foreign}",
                given.display()
            )),
            None => {
                console::status(&format_args!(
                    "warning: the report was not written: {foreign}; or give --report DIR, or \
                     --no-report"
                ));
                None
            }
        };
    }
    let written = match place {
        Place::Directory(dir) => mark(dir),
        Place::File(_) => Ok(()),
    }
    .and_then(|()| html::write(place, &target, html));
    match written {
        Ok(path) => {
            console::written(&format_args!(
                "wrote the report to {}",
                shown(&path).display()
            ));
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

/// Each benchmark's runs in `records` (this bench target's history, this
/// run's records included), for the report: those of its latest run's
/// series (the same machine and configuration: a debug build's or another
/// machine's runs are another history), change points found over all of
/// them, the last [`HISTORY_RUNS`] kept. Empty when there is no history
/// (or it cannot be read).
pub(super) fn history_points(records: &[history::Record]) -> Vec<Vec<HistoryPoint>> {
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
            let changes = history::steps(&runs);
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
                    is_change_point: changes.iter().any(|s| s.at == i),
                    code_unchanged: changes
                        .iter()
                        .any(|s| s.at == i && s.code == history::CodeAcross::Unchanged),
                })
                .collect()
        })
        .collect()
}

/// `path` relative to the working directory when it is below it (the
/// default report's `target/bench-harness/report/...`), else as it is.
fn shown(path: &Path) -> &Path {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok())
        .unwrap_or(path)
}
