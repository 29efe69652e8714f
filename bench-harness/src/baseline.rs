//! Saved runs: `target/bench-harness/baselines/NAME.json` (under
//! `$CARGO_TARGET_DIR` when it is set), each a JSON results document, and
//! beside it `NAME.TARGET.exe`, a copy of the bench executable of target
//! TARGET that saved it, so that a later build can be measured against it.
//!
//! Writes are atomic: each file goes to a temporary file in the same
//! directory, is flushed to disk, then renamed over the old one, so an
//! interrupted or failed run never leaves a truncated baseline, and two runs
//! saving the same name at once leave one whole document.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::document::{self, Document, LoadError};
use crate::fs::{copy_atomically, write_atomically};

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
    /// The baseline was saved without an executable for this bench target.
    NoExecutable { name: String, target: String },
    /// The document was saved, but the copy of the executable failed.
    KeepExecutable {
        name: String,
        path: PathBuf,
        error: io::Error,
    },
    /// Saved with `--no-keep-exe`, but an earlier save's executable, which
    /// is not this run's build, could not be removed.
    StaleExecutable {
        name: String,
        path: PathBuf,
        error: io::Error,
    },
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
            BaselineError::NoExecutable { name, target } => write!(
                f,
                "baseline '{name}' has no stored executable for bench target '{target}' \
                 (saved with --no-keep-exe, by another target, or by an older version); \
                 save it again with --save-baseline {name}"
            ),
            BaselineError::KeepExecutable { name, path, error } => write!(
                f,
                "baseline '{name}' is saved, but not its executable: cannot copy this bench \
                 executable to {}: {error}; check the free space of the target directory, or \
                 save with --no-keep-exe to skip the copy",
                path.display()
            ),
            BaselineError::StaleExecutable { name, path, error } => write!(
                f,
                "baseline '{name}' is saved without its executable (--no-keep-exe), but the \
                 one an earlier save kept, {}, cannot be removed: {error}; remove it by hand",
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

    /// Where baseline `name` keeps the executable of bench target `target`.
    pub(crate) fn executable_path(&self, name: &str, target: &str) -> PathBuf {
        self.dir.join(format!("{name}.{target}.exe"))
    }

    /// Reads baseline `name`.
    pub(crate) fn load(&self, name: &str) -> Result<Document, BaselineError> {
        let path = self.path(name);
        if !path.exists() {
            return Err(self.missing(name));
        }
        document::load(&path).map_err(BaselineError::Unreadable)
    }

    /// The executable baseline `name` keeps for this binary's bench target.
    pub(crate) fn executable(&self, name: &str) -> Result<PathBuf, BaselineError> {
        self.executable_of(name, &target_name())
    }

    fn executable_of(&self, name: &str, target: &str) -> Result<PathBuf, BaselineError> {
        if !self.path(name).exists() {
            return Err(self.missing(name));
        }
        let path = self.executable_path(name, target);
        if path.is_file() {
            Ok(path)
        } else {
            Err(BaselineError::NoExecutable {
                name: name.to_string(),
                target: target.to_string(),
            })
        }
    }

    /// The size in bytes of the executable baseline `name` keeps for bench
    /// target `target`, if it keeps one.
    pub(crate) fn executable_size(&self, name: &str, target: &str) -> Option<u64> {
        fs::metadata(self.executable_path(name, target))
            .ok()
            .filter(fs::Metadata::is_file)
            .map(|metadata| metadata.len())
    }

    fn missing(&self, name: &str) -> BaselineError {
        BaselineError::Missing {
            name: name.to_string(),
            path: self.path(name),
            existing: self.names(),
        }
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

    /// Keeps a copy of this running executable as baseline `name`'s, for
    /// this binary's bench target, atomically; returns its size in bytes.
    /// Call it after [`Store::save`]: when the copy fails, an earlier save's
    /// copy is removed too, since it is not the build the document measured.
    pub(crate) fn keep_this_executable(&self, name: &str) -> Result<u64, BaselineError> {
        self.keep_executable(name, &target_name(), std::env::current_exe())
    }

    fn keep_executable(
        &self,
        name: &str,
        target: &str,
        exe: io::Result<PathBuf>,
    ) -> Result<u64, BaselineError> {
        let path = self.executable_path(name, target);
        exe.and_then(|exe| copy_atomically(&exe, &path))
            .map_err(|error| {
                let _ = fs::remove_file(&path);
                BaselineError::KeepExecutable {
                    name: name.to_string(),
                    path,
                    error,
                }
            })
    }

    /// Removes the executable an earlier save of baseline `name` kept for
    /// this binary's bench target (the run saved with `--no-keep-exe`, and
    /// that executable is not its build).
    pub(crate) fn drop_this_executable(&self, name: &str) -> Result<(), BaselineError> {
        self.drop_executable(name, &target_name())
    }

    fn drop_executable(&self, name: &str, target: &str) -> Result<(), BaselineError> {
        let path = self.executable_path(name, target);
        match fs::remove_file(&path) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => {
                Err(BaselineError::StaleExecutable {
                    name: name.to_string(),
                    path,
                    error,
                })
            }
            _ => Ok(()),
        }
    }
}

/// This binary's bench target: the executable's file name without cargo's
/// `-<16 hex digits>` hash (`suite-e2bfe2658dc91f16` is target `suite`);
/// a name without that hash is used whole.
pub(crate) fn target_name() -> String {
    std::env::current_exe()
        .ok()
        .or_else(|| std::env::args_os().next().map(PathBuf::from))
        .map_or_else(|| "bench".to_string(), |exe| target_name_of(&exe))
}

fn target_name_of(exe: &Path) -> String {
    let file_name = exe
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = file_name
        .strip_suffix(std::env::consts::EXE_SUFFIX)
        .filter(|stem| !stem.is_empty())
        .unwrap_or(&file_name);
    let is_hash = |hash: &str| {
        hash.len() == 16 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    };
    match stem.rsplit_once('-') {
        Some((target, hash)) if !target.is_empty() && is_hash(hash) => target.to_string(),
        _ if stem.is_empty() => "bench".to_string(),
        _ => stem.to_string(),
    }
}

/// A file size in decimal units with three significant digits at most:
/// `812 B`, `48.2 kB`, `12.3 MB`, `1.20 GB`.
pub(crate) fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 999.5 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    let decimals = if value >= 99.95 {
        0
    } else if value >= 9.995 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {}", UNITS[unit])
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

    #[test]
    fn the_target_is_the_file_name_without_cargos_hash() {
        let exe = |name: &str| format!("/t/release/deps/{name}{}", std::env::consts::EXE_SUFFIX);
        let cases = [
            ("suite-e2bfe2658dc91f16", "suite"),
            ("my-suite-e2bfe2658dc91f16", "my-suite"),
            ("fixture", "fixture"),
            ("my-suite", "my-suite"),
            // Not cargo's hash: 15 digits, upper case, nothing before it.
            ("suite-e2bfe2658dc91f1", "suite-e2bfe2658dc91f1"),
            ("suite-E2BFE2658DC91F16", "suite-E2BFE2658DC91F16"),
            ("-e2bfe2658dc91f16", "-e2bfe2658dc91f16"),
        ];
        for (file, target) in cases {
            assert_eq!(target_name_of(Path::new(&exe(file))), target, "{file}");
        }
        assert_eq!(target_name_of(Path::new("/")), "bench");
        assert!(!target_name().is_empty());
    }

    #[test]
    fn executables_sit_beside_the_document_and_are_not_baselines() {
        let dir = temp_dir("executables");
        let store = Store::at(&dir);
        assert_eq!(
            store.executable_path("v1.2", "suite"),
            dir.join("v1.2.suite.exe")
        );
        let exe = dir.join("built");
        write_atomically(&exe, &[7; 2500]).unwrap();
        write_atomically(&store.path("main"), b"{}").unwrap();
        assert_eq!(
            store
                .keep_executable("main", "suite", Ok(exe.clone()))
                .unwrap(),
            2500
        );
        store.keep_executable("main", "other", Ok(exe)).unwrap();
        assert_eq!(store.names(), ["main"]);
        assert_eq!(store.executable_size("main", "suite"), Some(2500));
        assert_eq!(store.executable_size("v1", "suite"), None);
        assert_eq!(
            store.executable_of("main", "suite").unwrap(),
            dir.join("main.suite.exe")
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_baseline_without_an_executable_says_how_to_keep_one() {
        let dir = temp_dir("no-executable");
        let store = Store::at(&dir);
        let message = store
            .executable_of("main", "suite")
            .unwrap_err()
            .to_string();
        assert!(message.contains("no baseline 'main' at "), "{message}");
        write_atomically(&store.path("main"), b"{}").unwrap();
        let message = store
            .executable_of("main", "suite")
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "baseline 'main' has no stored executable for bench target 'suite' (saved with \
             --no-keep-exe, by another target, or by an older version); save it again with \
             --save-baseline main"
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_copy_leaves_no_stale_executable_and_says_what_failed() {
        let dir = temp_dir("copy-fails");
        let store = Store::at(&dir);
        let exe = dir.join("built");
        write_atomically(&exe, b"old build").unwrap();
        store.keep_executable("main", "suite", Ok(exe)).unwrap();
        let gone = io::Error::new(io::ErrorKind::NotFound, "no such file");
        let message = store
            .keep_executable("main", "suite", Err(gone))
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("baseline 'main' is saved, but not its executable"),
            "{message}"
        );
        assert!(message.contains("main.suite.exe"), "{message}");
        assert!(message.contains("--no-keep-exe"), "{message}");
        assert!(!message.contains('\n'));
        assert_eq!(store.executable_size("main", "suite"), None);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn saving_without_the_executable_removes_an_earlier_one() {
        let dir = temp_dir("drop");
        let store = Store::at(&dir);
        store.drop_executable("main", "suite").unwrap();
        let exe = dir.join("built");
        write_atomically(&exe, b"old build").unwrap();
        store
            .keep_executable("main", "suite", Ok(exe.clone()))
            .unwrap();
        store.keep_executable("main", "other", Ok(exe)).unwrap();
        store.drop_executable("main", "suite").unwrap();
        assert_eq!(store.executable_size("main", "suite"), None);
        assert_eq!(store.executable_size("main", "other"), Some(9));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn sizes_read_in_decimal_units() {
        let cases = [
            (0, "0 B"),
            (999, "999 B"),
            (1000, "1.00 kB"),
            (48_213, "48.2 kB"),
            (999_499, "999 kB"),
            (999_500, "1.00 MB"),
            (12_345_678, "12.3 MB"),
            (123_456_789, "123 MB"),
            (1_200_000_000, "1.20 GB"),
            (u64::MAX, "18446744 TB"),
        ];
        for (bytes, text) in cases {
            assert_eq!(size_text(bytes), text, "{bytes}");
        }
    }
}
