//! Reading a document back, and why a file could not be read: one line
//! naming the file, what is wrong with it and what to do.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::skim;
use super::{Document, OutcomeKind, RawSamples, HARNESS_TAG, SCHEMA_VERSION};
use crate::json::{self, Json};

/// Why a file could not be read as a document. Each says what is wrong with
/// which file, in one line, and what to do.
#[derive(Debug)]
pub(crate) enum LoadError {
    /// The file could not be read (missing, unreadable).
    Io { path: PathBuf, error: io::Error },
    /// The file is empty (or only white space).
    Empty { path: Option<PathBuf> },
    /// Not valid JSON: truncated (the message starts with `EOF`) or corrupt.
    Syntax {
        path: Option<PathBuf>,
        message: String,
        line: usize,
        column: usize,
    },
    /// Valid JSON, but not a bench-harness document: no `"harness":
    /// "bench-harness"` tag or no `schema_version`.
    NotOurs {
        path: Option<PathBuf>,
        reason: String,
    },
    /// A bench-harness document of a newer schema than this version reads.
    NewerSchema {
        path: Option<PathBuf>,
        found: u64,
        supported: u32,
    },
    /// Not a regular file: a FIFO, a device, a directory.
    NotAFile { path: PathBuf, kind: &'static str },
    /// Larger than a baseline can be.
    TooBig { path: PathBuf, bytes: u64 },
    /// A document written without its raw samples (`--samples none`),
    /// given as a baseline, which needs them.
    NoSamples { path: PathBuf },
    /// A whole document whose figures no run writes (see [`validate`]).
    Invalid {
        path: Option<PathBuf>,
        message: String,
    },
    /// A bench-harness document of a known version whose fields are missing
    /// or mistyped. `line` and `column` are 0 when unknown.
    Shape {
        path: Option<PathBuf>,
        message: String,
        line: usize,
        column: usize,
    },
}

impl LoadError {
    /// The file the error is about; `None` for text given to [`parse`].
    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            LoadError::Io { path, .. }
            | LoadError::NotAFile { path, .. }
            | LoadError::NoSamples { path }
            | LoadError::TooBig { path, .. } => Some(path),
            LoadError::Invalid { path, .. }
            | LoadError::Empty { path }
            | LoadError::Syntax { path, .. }
            | LoadError::NotOurs { path, .. }
            | LoadError::NewerSchema { path, .. }
            | LoadError::Shape { path, .. } => path.as_deref(),
        }
    }

    /// The same error about the file at `file`.
    pub(crate) fn with_path(mut self, file: &Path) -> LoadError {
        match &mut self {
            LoadError::Io { path, .. }
            | LoadError::NotAFile { path, .. }
            | LoadError::NoSamples { path }
            | LoadError::TooBig { path, .. } => *path = file.to_path_buf(),
            LoadError::Invalid { path, .. }
            | LoadError::Empty { path }
            | LoadError::Syntax { path, .. }
            | LoadError::NotOurs { path, .. }
            | LoadError::NewerSchema { path, .. }
            | LoadError::Shape { path, .. } => *path = Some(file.to_path_buf()),
        }
        self
    }

    fn describe(&self) -> String {
        let subject = match self.path() {
            Some(path) => format!("file {}", path.display()),
            None => "the JSON text".to_string(),
        };
        const AGAIN: &str = "delete it or write it again (--save-baseline, or --format json)";
        let at = |line: &usize, column: &usize| {
            if *line == 0 {
                String::new()
            } else {
                format!(" at line {line}, column {column}")
            }
        };
        match self {
            LoadError::Io { error, .. } => format!("cannot read {subject}: {error}"),
            LoadError::NotAFile { kind, .. } => format!(
                "{subject} is {kind}, not a regular file, so it was not read: a baseline is a \
                 file written by --save-baseline; remove it from the baselines directory"
            ),
            LoadError::TooBig { bytes, .. } => format!(
                "{subject} is {}, more than the {} a baseline may have, so it was not read: \
                 it is not a file --save-baseline wrote; remove it",
                crate::text::size_text(*bytes),
                crate::text::size_text(MAX_BASELINE_BYTES)
            ),
            LoadError::NoSamples { .. } => format!(
                "{subject} was written without its raw samples (--format json --samples \
                 none), which a baseline needs to recompute its figures: save baselines with \
                 --save-baseline, or write the JSON with --samples full"
            ),
            LoadError::Invalid { message, .. } => format!(
                "{subject} is a bench-harness document with impossible figures ({message}): \
                 it was edited or damaged; {AGAIN}"
            ),
            LoadError::Empty { .. } => {
                format!("{subject} is empty, not a bench-harness results document: {AGAIN}")
            }
            LoadError::Syntax {
                message,
                line,
                column,
                ..
            } => {
                let what = if message.starts_with("EOF") {
                    "is truncated"
                } else {
                    "is corrupt, not valid JSON"
                };
                format!("{subject} {what} ({message}{}): {AGAIN}", at(line, column))
            }
            LoadError::NotOurs { reason, .. } => format!(
                "{subject} is JSON but not a bench-harness results document ({reason}): give \
                 the path of a file written by --save-baseline or --format json"
            ),
            LoadError::NewerSchema {
                found, supported, ..
            } => format!(
                "{subject} has schema version {found}, newer than the version {supported} that \
                 bench-harness {} reads: upgrade bench-harness, or write the file again with \
                 this version",
                env!("CARGO_PKG_VERSION")
            ),
            LoadError::Shape {
                message,
                line,
                column,
                ..
            } => format!(
                "{subject} is a bench-harness document with missing or mistyped fields \
                 ({message}{}): it was edited or damaged; {AGAIN}",
                at(line, column)
            ),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, whatever the file name or the parser put in.
        let text = self.describe().replace(['\n', '\r'], " ");
        f.write_str(&text)
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads the document at `path`; see [`parse`].
/// Only a regular file of at most [`MAX_BASELINE_BYTES`] is read, as
/// [`load_baseline`] reads.
pub(crate) fn load(path: &Path) -> Result<Document, LoadError> {
    from_bytes(&read_regular(path)?).map_err(|error| error.with_path(path))
}

/// The bytes of `path`, when it is a regular file of at most
/// [`MAX_BASELINE_BYTES`] ([`open_regular`]).
fn read_regular(path: &Path) -> Result<Vec<u8>, LoadError> {
    let (file, length) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(length as usize);
    file.take(length)
        .read_to_end(&mut bytes)
        .map_err(|error| LoadError::Io {
            path: path.to_path_buf(),
            error,
        })?;
    Ok(bytes)
}

/// Reads a saved baseline at `path`: only a regular file (a FIFO or a
/// device, `/dev/zero` behind a symlink, is refused without reading it) of
/// at most [`MAX_BASELINE_BYTES`], parsed as [`parse`] does and then
/// checked for values no run can have ([`validate`]).
pub(crate) fn load_baseline(path: &Path) -> Result<Document, LoadError> {
    let document = load(path)?;
    if document.raw_samples == RawSamples::None {
        return Err(LoadError::NoSamples {
            path: path.to_path_buf(),
        });
    }
    validate(&document).map_err(|message| LoadError::Invalid {
        path: Some(path.to_path_buf()),
        message,
    })?;
    Ok(document)
}

/// The largest baseline read: a bound for a file that is not what it
/// seems (a sparse file of terabytes), well above real ones (a run of 100
/// benchmarks at the default budgets saves a few megabytes).
pub(crate) const MAX_BASELINE_BYTES: u64 = 1 << 30;

/// Opens `path` if it is a regular file (following symlinks) of at most
/// [`MAX_BASELINE_BYTES`]; returns it with its length. Opened without
/// blocking, so that a FIFO cannot hang the open itself, and checked on the
/// open file, so that nothing is swapped in between.
fn open_regular(path: &Path) -> Result<(File, u64), LoadError> {
    let io = |error: io::Error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    };
    // Stat first, so that a device is not even opened (opening some has
    // effects); the open file is checked again below.
    let metadata = std::fs::metadata(path).map_err(io)?;
    if !metadata.is_file() {
        return Err(LoadError::NotAFile {
            path: path.to_path_buf(),
            kind: file_kind(&metadata),
        });
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() {
        return Err(LoadError::NotAFile {
            path: path.to_path_buf(),
            kind: file_kind(&metadata),
        });
    }
    if metadata.len() > MAX_BASELINE_BYTES {
        return Err(LoadError::TooBig {
            path: path.to_path_buf(),
            bytes: metadata.len(),
        });
    }
    Ok((file, metadata.len()))
}

/// What a file that is not a regular one is, in words.
fn file_kind(metadata: &std::fs::Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// What `--list-baselines` shows of a baseline, read without keeping its
/// samples: the file is parsed as a stream, each benchmark skipped over and
/// counted, so memory stays a few kilobytes whatever the file's size.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Summary {
    /// When it was saved, as written (`environment.timestamp`).
    pub timestamp: String,
    /// How many benchmark records it holds.
    pub benchmarks: usize,
    /// Whether an interrupted run wrote it.
    pub partial: bool,
}

/// Reads [`Summary`] of the baseline at `path`: a regular file of at most
/// [`MAX_BASELINE_BYTES`], as [`load_baseline`] opens it.
pub(crate) fn summarize(path: &Path) -> Result<Summary, LoadError> {
    let (file, length) = open_regular(path)?;
    if length == 0 {
        return Err(LoadError::Empty {
            path: Some(path.to_path_buf()),
        });
    }
    let header = skim::header(file.take(length), path)?;
    check_version(&header).map_err(|error| error.with_path(path))?;
    let shape = |message: &str| {
        LoadError::Shape {
            path: None,
            message: message.to_string(),
            line: 0,
            column: 0,
        }
        .with_path(path)
    };
    Ok(Summary {
        timestamp: header
            .timestamp
            .ok_or_else(|| shape("no \"environment\".\"timestamp\" string"))?,
        benchmarks: header
            .benchmarks
            .ok_or_else(|| shape("no \"benchmarks\" list"))?,
        partial: header.partial.unwrap_or(false),
    })
}

/// [`parse`] of bytes that should be UTF-8 text.
fn from_bytes(bytes: &[u8]) -> Result<Document, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        LoadError::Syntax {
            path: None,
            message: format!("not UTF-8 text: {error}"),
            line,
            column: String::from_utf8_lossy(&valid[line_start..])
                .chars()
                .count()
                + 1,
        }
    })?;
    parse(text)
}

/// Reads a document from JSON text.
///
/// In order: empty text, invalid JSON, JSON that is not ours, a newer
/// schema version (checked before the rest, so a future document is
/// reported as such and not as malformed), then the fields.
///
/// The text is parsed once into a JSON value, its top level checked, and
/// the document read from the value; a field that is missing or mistyped
/// is named by its place in the document (`benchmarks[2].measurement`).
///
/// Numbers are read exactly (serde_json's `float_roundtrip` feature): a
/// document read back equals the one written.
pub(crate) fn parse(text: &str) -> Result<Document, LoadError> {
    if text.trim().is_empty() {
        return Err(LoadError::Empty { path: None });
    }
    let value = json::parse(text).map_err(|error| LoadError::Syntax {
        path: None,
        message: without_position(&error),
        line: error.line(),
        column: error.column(),
    })?;
    check_version(&Header::of(&value))?;
    Document::read(&value).map_err(|error| LoadError::Shape {
        path: None,
        message: error.to_string(),
        line: 0,
        column: 0,
    })
}

/// The top level of a JSON text, as far as telling a document from other
/// JSON and listing it needs: its kind, its `harness` and `schema_version`,
/// and (for [`summarize`]) the timestamp, `partial` and the number of
/// benchmarks. Everything else is skipped without being kept.
#[derive(Debug, Default)]
pub(super) struct Header {
    /// `Some` of the top level's kind when it is not an object.
    pub not_an_object: Option<&'static str>,
    pub harness: Option<Value>,
    pub schema_version: Option<Value>,
    pub timestamp: Option<String>,
    pub partial: Option<bool>,
    pub benchmarks: Option<usize>,
}

impl Header {
    /// The header of a parsed text.
    fn of(value: &Value) -> Header {
        let Value::Object(map) = value else {
            return Header {
                not_an_object: Some(kind(value)),
                ..Header::default()
            };
        };
        Header {
            not_an_object: None,
            harness: map.get("harness").cloned(),
            schema_version: map.get("schema_version").cloned(),
            timestamp: map
                .get("environment")
                .and_then(|e| e.get("timestamp"))
                .and_then(Value::as_str)
                .map(str::to_string),
            partial: map.get("partial").and_then(Value::as_bool),
            benchmarks: map
                .get("benchmarks")
                .and_then(Value::as_array)
                .map(Vec::len),
        }
    }
}

/// Is the text whose top level `header` read a bench-harness document of a
/// version this code reads?
fn check_version(header: &Header) -> Result<(), LoadError> {
    let not_ours = |reason: String| LoadError::NotOurs { path: None, reason };
    if let Some(kind) = header.not_an_object {
        return Err(not_ours(format!("the top level is {kind}, not an object")));
    }
    match &header.harness {
        Some(Value::String(tag)) if tag == HARNESS_TAG => {}
        Some(Value::String(tag)) => {
            let tag: String = tag.chars().take(40).collect();
            return Err(not_ours(format!(
                "its \"harness\" is {tag:?}, not \"{HARNESS_TAG}\""
            )));
        }
        Some(other) => {
            return Err(not_ours(format!(
                "its \"harness\" is {}, not \"{HARNESS_TAG}\"",
                kind(other)
            )))
        }
        None => return Err(not_ours(format!("no \"harness\": \"{HARNESS_TAG}\" field"))),
    }
    let shape = |message: String| LoadError::Shape {
        path: None,
        message,
        line: 0,
        column: 0,
    };
    let version = match &header.schema_version {
        None => return Err(not_ours("no \"schema_version\" field".to_string())),
        Some(version) => version.as_u64().ok_or_else(|| {
            shape(format!(
                "\"schema_version\" is {}, not a positive integer",
                kind(version)
            ))
        })?,
    };
    if version > u64::from(SCHEMA_VERSION) {
        return Err(LoadError::NewerSchema {
            path: None,
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    if version == 0 {
        return Err(shape("schema version 0 does not exist".to_string()));
    }
    Ok(())
}

/// Checks a baseline's figures for what no run writes: no benchmarks, a
/// benchmark twice, a measured benchmark without samples or block values,
/// a sample of no iterations or of no (or a negative) time, block values
/// or process estimates that are all exactly zero, and one that is not
/// finite or is below minus the benchmark's reference (a body cannot cost less than nothing
/// minus the loop it runs in; a body cheaper than the loop's error does
/// come out slightly negative, so negative medians above that are kept).
/// Returns what is wrong, naming the benchmark.
pub(crate) fn validate(document: &Document) -> Result<(), String> {
    if document.benchmarks.is_empty() && document.against.is_none() {
        return Err("it holds no benchmarks".to_string());
    }
    let mut names: Vec<&str> = document
        .benchmarks
        .iter()
        .map(|b| b.name.as_str())
        .collect();
    names.sort_unstable();
    if let Some(pair) = names.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(format!("benchmark '{}' is recorded twice", pair[0]));
    }
    for record in &document.benchmarks {
        let name = &record.name;
        let Some(m) = &record.measurement else {
            if record.outcome == OutcomeKind::Measured {
                return Err(format!(
                    "benchmark '{name}' is measured but has no measurement"
                ));
            }
            continue;
        };
        if m.samples.is_empty() {
            return Err(format!("benchmark '{name}' has no samples"));
        }
        if let Some(s) = m
            .samples
            .iter()
            .find(|s| s.iters == 0 || !(s.elapsed_ns.is_finite() && s.elapsed_ns > 0.0))
        {
            return Err(format!(
                "benchmark '{name}' has a sample of {} iterations in {} ns, not a measured time",
                s.iters, s.elapsed_ns
            ));
        }
        // With --forks each process's blocks had its own loop cost taken
        // out, which can exceed the pooled reference (a process that
        // measured its loop slow under load): the floor is the largest.
        // (A reference that is no time is refused as such, below.)
        let reference = m.estimate.reference_ns;
        let floor = match &m.forks {
            Some(forks) if reference.is_finite() && reference > 0.0 => {
                (forks.process_overheads.iter())
                    .map(|o| o.per_iter_ns)
                    .filter(|v| v.is_finite())
                    .fold(reference, f64::max)
            }
            _ => reference,
        };
        check_times(name, "block value", m.estimate.block_values(), floor)?;
        if !m.estimate.time_ns.is_finite() {
            return Err(format!(
                "benchmark '{name}' has a time that is not a number"
            ));
        }
        if let Some(forks) = &m.forks {
            check_times(name, "process estimate", &forks.process_estimates_ns, floor)?;
        }
    }
    if let Some(reference) = &document.machine_reference {
        let values = reference.block_values();
        if values.is_empty() || values.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(
                "the machine reference's block values are missing, zero or negative".to_string(),
            );
        }
    }
    Ok(())
}

/// `values` (ns per iteration) of benchmark `name`: at least one, each
/// finite and above minus `reference` (which must be a positive time), and
/// not all exactly zero (a body as cheap as the loop still differs from
/// its estimate by some noise in every block; a list of zeros is no
/// measurement, and compares as an infinite change).
fn check_times(name: &str, what: &str, values: &[f64], reference: f64) -> Result<(), String> {
    if values.is_empty() {
        return Err(format!("benchmark '{name}' has an empty list of {what}s"));
    }
    if !(reference.is_finite() && reference > 0.0) {
        return Err(format!(
            "benchmark '{name}' has a reference time of {reference} ns, not a positive time"
        ));
    }
    if values.iter().all(|&v| v == 0.0) {
        return Err(format!(
            "benchmark '{name}' has {} {what}{} of exactly 0 ns, which no measurement gives",
            if values.len() == 1 { "a" } else { "only" },
            if values.len() == 1 { "" } else { "s" }
        ));
    }
    match values.iter().find(|&&v| !v.is_finite() || v <= -reference) {
        Some(v) => Err(format!(
            "benchmark '{name}' has a {what} of {v} ns, not a time (its reference is \
             {reference} ns)"
        )),
        None => Ok(()),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message without its ` at line L column C` suffix.
pub(super) fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    message
        .strip_suffix(&suffix)
        .map_or(message.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document;
    use crate::document::{ForksRecord, OverheadRecord};
    use crate::testing::fixed_run::{environment, info, results};
    use crate::testing::Scratch;

    fn doc() -> Document {
        document::assemble(&environment(), &info(), &results(), &[], None, None)
    }

    fn written(scratch: &Scratch, name: &str, doc: &Document) -> PathBuf {
        let mut bytes = Vec::new();
        document::write(&mut bytes, doc).unwrap();
        let path = scratch.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn a_written_baseline_is_valid_and_summarized_from_a_stream() {
        let scratch = Scratch::new("load-summary");
        let mut doc = doc();
        // The fixed run's scripted clock measures its empty body at exactly
        // the loop's cost in every block, as no real clock does.
        let message = validate(&doc).unwrap_err();
        assert_eq!(
            message,
            "benchmark 'empty' has only block values of exactly 0 ns, which no measurement gives"
        );
        for record in &mut doc.benchmarks {
            if let Some(m) = &mut record.measurement {
                m.estimate.block_means_ns[0] += 1e-3;
            }
        }
        assert_eq!(validate(&doc), Ok(()));
        let path = written(&scratch, "whole.json", &doc);
        assert_eq!(load_baseline(&path).unwrap(), doc);
        let summary = summarize(&path).unwrap();
        assert_eq!(
            summary,
            Summary {
                timestamp: doc.environment.timestamp.clone(),
                benchmarks: doc.benchmarks.len(),
                partial: false,
            }
        );
        doc.partial = true;
        let path = written(&scratch, "partial.json", &doc);
        assert!(summarize(&path).unwrap().partial);
        // Not ours, and not JSON: the same errors as a whole read.
        let other = scratch.path().join("other.json");
        std::fs::write(&other, "[1, 2]").unwrap();
        let message = summarize(&other).unwrap_err().to_string();
        assert!(message.contains("the top level is an array"), "{message}");
        std::fs::write(&other, "{\"harness\": \"bench-harness\", ").unwrap();
        let message = summarize(&other).unwrap_err().to_string();
        assert!(message.contains("is truncated"), "{message}");
        // Ours, but misshapen: not called corrupt JSON.
        let misshapen =
            "{\"harness\": \"bench-harness\", \"schema_version\": 2, \"environment\": 3}";
        std::fs::write(&other, misshapen).unwrap();
        let message = summarize(&other).unwrap_err().to_string();
        assert!(message.contains("missing or mistyped fields"), "{message}");
        let message = parse(misshapen).unwrap_err().to_string();
        assert!(message.contains("missing or mistyped fields"), "{message}");
    }

    #[test]
    fn a_summary_skims_the_benchmarks_but_still_tells_corrupt_json() {
        let scratch = Scratch::new("load-skim");
        let path = scratch.path().join("skim.json");
        let head = r#"{"harness": "bench-harness", "schema_version": 3,
            "environment": {"os": "linux", "timestamp": "2026-11-23T14:00:00Z"}, "#;
        let good = r#""benchmarks": [{"name": "a]\"}{", "x": [1, {"y": null}]}, [], -1.5e3],
            "partial": true}"#;
        std::fs::write(&path, format!("{head}{good}")).unwrap();
        assert_eq!(
            summarize(&path).unwrap(),
            Summary {
                timestamp: "2026-11-23T14:00:00Z".to_string(),
                benchmarks: 3,
                partial: true,
            }
        );
        for corrupt in [
            r#""benchmarks": [1,, 2]}"#,
            r#""benchmarks": [{"a" 1}]}"#,
            r#""benchmarks": [tru]}"#,
            r#""benchmarks": []} {}"#,
            r#""benchmarks": [], "partial": tru}"#,
            // Skipped, yet read as JSON: the hand-written skim let these by.
            r#""benchmarks": [{"x": 1-2}]}"#,
            r#""benchmarks": ["\q"]}"#,
        ] {
            std::fs::write(&path, format!("{head}{corrupt}")).unwrap();
            let message = summarize(&path).unwrap_err().to_string();
            assert!(
                message.contains("is corrupt, not valid JSON"),
                "{corrupt}: {message}"
            );
        }
        let deep = format!(
            "{head}\"benchmarks\": [{}{}]}}",
            "[".repeat(200),
            "]".repeat(200)
        );
        std::fs::write(&path, deep).unwrap();
        let message = summarize(&path).unwrap_err().to_string();
        assert!(message.contains("recursion limit exceeded"), "{message}");
    }

    #[test]
    fn a_body_cheaper_than_the_loop_keeps_its_slightly_negative_medians() {
        let mut doc = doc();
        let (name, reference) = {
            let record = doc
                .benchmarks
                .iter_mut()
                .find(|b| b.measurement.is_some())
                .unwrap();
            let m = record.measurement.as_mut().unwrap();
            let reference = m.estimate.reference_ns;
            m.estimate.block_means_ns = vec![-0.4 * reference, 0.1 * reference];
            (record.name.clone(), reference)
        };
        assert_eq!(validate(&doc), Ok(()));
        fn medians<'a>(doc: &'a mut Document, name: &str) -> &'a mut Vec<f64> {
            &mut doc
                .benchmarks
                .iter_mut()
                .find(|b| b.name == name)
                .unwrap()
                .measurement
                .as_mut()
                .unwrap()
                .estimate
                .block_means_ns
        }
        *medians(&mut doc, &name) = vec![1.0, -reference];
        let message = validate(&doc).unwrap_err();
        assert!(message.contains("not a time"), "{message}");
        *medians(&mut doc, &name) = vec![1.0, f64::INFINITY];
        assert!(validate(&doc).is_err());
        *medians(&mut doc, &name) = vec![1.0, 0.0];
        assert_eq!(validate(&doc), Ok(()), "one block at the loop's cost");
        *medians(&mut doc, &name) = vec![0.0, 0.0];
        assert!(validate(&doc).unwrap_err().contains("exactly 0 ns"));
    }

    /// Found under load: one of three processes measured its loop at
    /// 31.6 ns, the pooled reference read 18.5 ns, and that process's
    /// blocks (its own loop taken out) sat near -17.6 ns; a fresh baseline
    /// at -1.9x would have been refused by the run that wrote it.
    #[test]
    fn a_forked_process_whose_loop_measured_slow_keeps_its_negative_blocks() {
        let mut doc = doc();
        let m = doc
            .benchmarks
            .iter_mut()
            .find_map(|b| b.measurement.as_mut())
            .unwrap();
        let reference = m.estimate.reference_ns;
        m.estimate.block_means_ns = vec![-1.9 * reference, 0.5 * reference];
        assert!(validate(&doc).unwrap_err().contains("not a time"));
        let m = doc
            .benchmarks
            .iter_mut()
            .find_map(|b| b.measurement.as_mut())
            .unwrap();
        let overhead = |per_iter_ns| OverheadRecord {
            subtracted: true,
            per_sample_ns: 40.0,
            per_iter_ns,
            per_iter_uncertainty_ns: None,
            measurement: None,
        };
        m.forks = Some(ForksRecord {
            process_estimates_ns: vec![0.5 * reference, 0.5 * reference],
            between_process_spread: 0.0,
            within_process_spread: 0.0,
            p_value: None,
            process_overheads: vec![overhead(2.0 * reference), overhead(0.1 * reference)],
            process_sample_starts: vec![0, 1],
        });
        assert_eq!(validate(&doc), Ok(()));
        m_blocks(&mut doc)[0] = -2.0 * reference;
        assert!(validate(&doc).unwrap_err().contains("not a time"));
        // The processes' loops do not stand in for a reference that is no
        // time.
        m_blocks(&mut doc)[0] = 0.5 * reference;
        (doc.benchmarks.iter_mut())
            .find_map(|b| b.measurement.as_mut())
            .unwrap()
            .estimate
            .reference_ns = -1.0;
        assert!(validate(&doc)
            .unwrap_err()
            .contains("has a reference time of -1 ns"));
    }

    fn m_blocks(doc: &mut Document) -> &mut Vec<f64> {
        &mut doc
            .benchmarks
            .iter_mut()
            .find_map(|b| b.measurement.as_mut())
            .unwrap()
            .estimate
            .block_means_ns
    }

    #[test]
    fn a_document_without_raw_samples_is_no_baseline() {
        let scratch = Scratch::new("load-no-samples");
        let path = written(&scratch, "lean.json", &doc().without_samples());
        let message = load_baseline(&path).unwrap_err().to_string();
        assert_eq!(
            message,
            format!(
                "file {} was written without its raw samples (--format json --samples none), \
                 which a baseline needs to recompute its figures: save baselines with \
                 --save-baseline, or write the JSON with --samples full",
                path.display()
            )
        );
        // As a results document it reads.
        assert!(load(&path).is_ok());
    }

    #[test]
    fn a_directory_or_a_huge_file_is_not_read() {
        let scratch = Scratch::new("load-not-a-file");
        let message = load_baseline(scratch.path()).unwrap_err().to_string();
        assert!(
            message.contains("is a directory, not a regular file"),
            "{message}"
        );
        let sparse = scratch.path().join("sparse.json");
        let file = File::create(&sparse).unwrap();
        file.set_len(MAX_BASELINE_BYTES + 1).unwrap();
        let message = summarize(&sparse).unwrap_err().to_string();
        assert!(
            message.contains("is 1.07 GB, more than the 1.07 GB a baseline may have"),
            "{message}"
        );
    }

    #[test]
    fn floats_are_read_exactly() {
        let mut rng = fastrand::Rng::with_seed(7);
        let values: Vec<f64> = (0..20_000)
            .map(|i| {
                let scale = 10f64.powi(i % 24 - 12);
                rng.f64() * scale
            })
            .chain([0.1 + 0.2, 1.0 / 3.0, 123_456.789_012_345_67, -0.0, 5e-324])
            .collect();
        let text = serde_json::to_string(&values).unwrap();
        let Value::Array(read) = serde_json::from_str(&text).unwrap() else {
            panic!("an array")
        };
        for (written, read) in values.iter().zip(&read) {
            let read = read.as_f64().unwrap();
            assert_eq!(
                written.to_bits(),
                read.to_bits(),
                "{written} read as {read}"
            );
        }
    }
}
