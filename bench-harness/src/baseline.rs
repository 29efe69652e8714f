//! Saved runs: `target/bench-harness/baselines/NAME.json` (under
//! `$CARGO_TARGET_DIR` when it is set), each a JSON results document.
//!
//! Writes are atomic: the document goes to a temporary file in the same
//! directory, is flushed to disk, then renamed over the old one, so an
//! interrupted or failed run never leaves a truncated baseline, and two runs
//! saving the same name at once leave one whole document.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::document::{self, Document, LoadError};
use crate::fs::write_atomically;

/// The directory baselines live in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Store {
    dir: PathBuf,
}

/// A baseline that cannot be used or saved.
#[derive(Debug)]
pub(crate) enum BaselineError {
    /// No file for that name.
    Missing {
        name: String,
        path: PathBuf,
        existing: Vec<String>,
    },
    /// The file is there but is not a usable document.
    Unreadable(LoadError),
    /// The document could not be written.
    Write { path: PathBuf, error: io::Error },
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaselineError::Missing {
                name,
                path,
                existing,
            } => {
                write!(f, "no baseline '{name}' at {}; ", path.display())?;
                if existing.is_empty() {
                    write!(f, "no baselines are saved there yet")?;
                } else {
                    write!(f, "saved baselines: {}", existing.join(", "))?;
                }
                write!(f, " (save one with --save-baseline {name})")
            }
            BaselineError::Unreadable(error) => write!(f, "{error}"),
            BaselineError::Write { path, error } => write!(
                f,
                "cannot write baseline {}: {error}; check that the target directory is \
                 writable, or set CARGO_TARGET_DIR",
                path.display()
            ),
        }
    }
}

impl std::error::Error for BaselineError {}

impl Store {
    /// The store of this benchmark binary: under `$CARGO_TARGET_DIR` when
    /// set, else the target directory the binary was built into
    /// (`<target>/<profile>/deps/NAME-HASH`), else `./target`.
    pub(crate) fn locate() -> Store {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
            .or_else(target_dir_of_this_binary)
            .unwrap_or_else(|| PathBuf::from("target"));
        Store::at(target.join("bench-harness").join("baselines"))
    }

    /// A store in `dir` (tests use a temporary one).
    pub(crate) fn at(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where baseline `name` is kept.
    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// The saved baselines' names, sorted; none when the directory is
    /// missing.
    pub(crate) fn names(&self) -> Vec<String> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                let name = path.file_name()?.to_str()?;
                let name = name.strip_suffix(".json")?;
                (!name.starts_with('.')).then(|| name.to_string())
            })
            .collect();
        names.sort();
        names
    }

    /// Reads baseline `name`.
    pub(crate) fn load(&self, name: &str) -> Result<Document, BaselineError> {
        let path = self.path(name);
        if !path.exists() {
            return Err(BaselineError::Missing {
                name: name.to_string(),
                path,
                existing: self.names(),
            });
        }
        document::load(&path).map_err(BaselineError::Unreadable)
    }

    /// Saves `document` as baseline `name`, atomically; returns its path.
    pub(crate) fn save(&self, name: &str, document: &Document) -> Result<PathBuf, BaselineError> {
        let path = self.path(name);
        let mut bytes = Vec::new();
        document::write(&mut bytes, document).expect("writing to memory cannot fail");
        write_atomically(&path, &bytes).map_err(|error| BaselineError::Write {
            path: path.clone(),
            error,
        })?;
        Ok(path)
    }
}

/// The target directory this binary was built into: the nearest ancestor
/// holding cargo's `CACHEDIR.TAG` (`<target>/[<triple>/]<profile>/deps/NAME`).
fn target_dir_of_this_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .skip(1)
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "bench-harness-baseline-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_missing_baseline_names_the_path_and_the_saved_ones() {
        let dir = temp_dir("missing");
        let store = Store::at(&dir);
        write_atomically(&store.path("main"), b"{}").unwrap();
        write_atomically(&store.path("v1"), b"{}").unwrap();
        let message = store.load("nope").unwrap_err().to_string();
        assert!(message.contains("no baseline 'nope' at "), "{message}");
        assert!(message.contains("nope.json"), "{message}");
        assert!(message.contains("saved baselines: main, v1"), "{message}");
        assert!(message.contains("--save-baseline nope"), "{message}");
        assert!(!message.contains('\n'));
        fs::remove_dir_all(dir).unwrap();
    }
}
