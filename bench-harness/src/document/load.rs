//! Reading a document back, and why a file could not be read: one line
//! naming the file, what is wrong with it and what to do.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Document, HARNESS_TAG, SCHEMA_VERSION};

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
            LoadError::Io { path, .. } => Some(path),
            LoadError::Empty { path }
            | LoadError::Syntax { path, .. }
            | LoadError::NotOurs { path, .. }
            | LoadError::NewerSchema { path, .. }
            | LoadError::Shape { path, .. } => path.as_deref(),
        }
    }

    /// The same error about the file at `file`.
    pub(crate) fn with_path(mut self, file: &Path) -> LoadError {
        match &mut self {
            LoadError::Io { path, .. } => *path = file.to_path_buf(),
            LoadError::Empty { path }
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
pub(crate) fn load(path: &Path) -> Result<Document, LoadError> {
    let bytes = std::fs::read(path).map_err(|error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        LoadError::Syntax {
            path: Some(path.to_path_buf()),
            message: format!("not UTF-8 text: {error}"),
            line,
            column: String::from_utf8_lossy(&valid[line_start..])
                .chars()
                .count()
                + 1,
        }
    })?;
    parse(text).map_err(|error| error.with_path(path))
}

/// Reads a document from JSON text.
///
/// In order: empty text, invalid JSON, JSON that is not ours, a newer
/// schema version (checked before the rest, so a future document is
/// reported as such and not as malformed), then the fields.
///
/// Numbers are read exactly (serde_json's `float_roundtrip` feature): a
/// document read back equals the one written.
pub(crate) fn parse(text: &str) -> Result<Document, LoadError> {
    if text.trim().is_empty() {
        return Err(LoadError::Empty { path: None });
    }
    let value = serde_json::from_str::<Value>(text).map_err(|error| LoadError::Syntax {
        path: None,
        message: without_position(&error),
        line: error.line(),
        column: error.column(),
    })?;
    check_version(&value)?;
    serde_json::from_value::<Document>(value).map_err(|error| {
        // The value has no positions; parsing the text again finds the same
        // error with its line and column.
        let positioned = serde_json::from_str::<Document>(text).err();
        let error = positioned.as_ref().unwrap_or(&error);
        LoadError::Shape {
            path: None,
            message: without_position(error),
            line: error.line(),
            column: error.column(),
        }
    })
}

/// Is `value` a bench-harness document of a version this code reads?
fn check_version(value: &Value) -> Result<(), LoadError> {
    let not_ours = |reason: String| LoadError::NotOurs { path: None, reason };
    let Value::Object(fields) = value else {
        return Err(not_ours(format!(
            "the top level is {}, not an object",
            kind(value)
        )));
    };
    match fields.get("harness") {
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
    let version = match fields.get("schema_version") {
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
fn without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    message
        .strip_suffix(&suffix)
        .map_or(message.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

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
