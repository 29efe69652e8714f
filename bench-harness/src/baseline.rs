//! Saved runs, kept per bench target: `target/bench-harness/baselines/NAME/TARGET.json`
//! (under `$CARGO_TARGET_DIR` when it is set), a JSON results document, and
//! beside it `NAME/TARGET.exe`, a copy of the bench executable of target
//! TARGET that saved it, so that a later build can be measured against it.
//! `cargo bench -- --save-baseline main` runs every bench target of a
//! package, and each saves its own `main`.
//!
//! Older versions kept one `NAME.json` for every target (the last target
//! run won) and `NAME.TARGET.exe`: such a baseline is still read, when the
//! target has none of its own, and said to be one.
//!
//! Writes are atomic: each file goes to a temporary file in the same
//! directory, is flushed to disk, then renamed over the old one, so an
//! interrupted or failed run never leaves a truncated baseline, and two runs
//! saving the same name at once leave one whole document.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::document::{self, Document, LoadError, Summary};
use crate::fs::{copy_atomically, write_atomically};

/// The directory baselines live in, seen from one bench target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Store {
    dir: PathBuf,
    target: String,
}

/// A baseline that cannot be used or saved.
#[derive(Debug)]
pub(crate) enum BaselineError {
    /// No file for that name and this bench target.
    Missing {
        name: String,
        target: String,
        path: PathBuf,
        /// This target's saved baselines.
        existing: Vec<String>,
        /// The other bench targets that saved a baseline of that name.
        other_targets: Vec<String>,
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
                target,
                path,
                existing,
                other_targets,
            } => {
                write!(
                    f,
                    "no baseline '{name}' for bench target '{target}' at {}; ",
                    path.display()
                )?;
                if !other_targets.is_empty() {
                    write!(
                        f,
                        "'{name}' is saved by bench target{} {} only (each bench target keeps \
                         its own baselines); ",
                        if other_targets.len() == 1 { "" } else { "s" },
                        other_targets.join(", ")
                    )?;
                }
                if existing.is_empty() {
                    write!(f, "no baselines are saved for this target yet")?;
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

/// A baseline read for comparing.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub(crate) document: Document,
    /// The file it was read from.
    pub(crate) path: PathBuf,
    /// Saved by an older version as `NAME.json`, for every target at once.
    pub(crate) legacy: bool,
}

/// A baseline of this target as `--list-baselines` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) path: PathBuf,
    /// An older version's `NAME.json`, shared by every target.
    pub(crate) legacy: bool,
}

impl Store {
    /// The store of this benchmark binary: under `$CARGO_TARGET_DIR` when
    /// set, else the target directory the binary was built into
    /// (`<target>/<profile>/deps/NAME-HASH`), else `./target`.
    pub(crate) fn locate() -> Store {
        // Cargo resolves a relative CARGO_TARGET_DIR against the directory
        // it was started in, but runs a bench binary in the package's root:
        // the binary's own target directory is the one cargo meant.
        let target = match std::env::var_os("CARGO_TARGET_DIR").filter(|dir| !dir.is_empty()) {
            Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
            Some(dir) => target_dir_of_this_binary().unwrap_or_else(|| PathBuf::from(dir)),
            None => target_dir_of_this_binary().unwrap_or_else(|| PathBuf::from("target")),
        };
        Store::at(target.join("bench-harness").join("baselines"))
    }

    /// A store in `dir` for this binary's bench target.
    pub(crate) fn at(dir: impl Into<PathBuf>) -> Store {
        Store::for_target(dir, target_name())
    }

    /// A store in `dir` for bench target `target` (tests use a temporary
    /// one).
    pub(crate) fn for_target(dir: impl Into<PathBuf>, target: impl Into<String>) -> Store {
        Store {
            dir: dir.into(),
            target: target.into(),
        }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where this target keeps baseline `name`.
    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name).join(format!("{}.json", self.target))
    }

    /// Where an older version kept baseline `name`, for every target.
    fn legacy_path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// The file baseline `name` is read from for this target, and whether
    /// it is an older version's shared one. Anything at the path counts,
    /// a FIFO too, so that reading it says what it is.
    fn find(&self, name: &str) -> Option<(PathBuf, bool)> {
        let present = |path: &Path| fs::symlink_metadata(path).is_ok();
        let path = self.path(name);
        if present(&path) {
            return Some((path, false));
        }
        let legacy = self.legacy_path(name);
        present(&legacy).then_some((legacy, true))
    }

    /// This target's saved baselines, sorted by name; none when the
    /// directory is missing. A name saved both ways is listed once, as the
    /// target's own.
    pub(crate) fn entries(&self) -> Vec<Entry> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut found: Vec<Entry> = entries
            .filter_map(|entry| {
                let entry = entry.ok()?;
                let file_name = entry.file_name();
                let file_name = file_name.to_str()?;
                if file_name.starts_with('.') {
                    return None;
                }
                if let Some(name) = file_name.strip_suffix(".json") {
                    return Some(Entry {
                        name: name.to_string(),
                        path: entry.path(),
                        legacy: true,
                    });
                }
                let path = self.path(file_name);
                fs::symlink_metadata(&path).ok()?;
                Some(Entry {
                    name: file_name.to_string(),
                    path,
                    legacy: false,
                })
            })
            .collect();
        // The target's own first, so that dedup keeps it.
        found.sort_by(|a, b| a.name.cmp(&b.name).then(a.legacy.cmp(&b.legacy)));
        found.dedup_by(|later, earlier| later.name == earlier.name);
        found
    }

    /// The saved baselines' names, sorted; none when the directory is
    /// missing.
    pub(crate) fn names(&self) -> Vec<String> {
        self.entries().into_iter().map(|e| e.name).collect()
    }

    /// The other bench targets that saved a baseline `name`.
    fn other_targets(&self, name: &str) -> Vec<String> {
        let Ok(entries) = fs::read_dir(self.dir.join(name)) else {
            return Vec::new();
        };
        let mut targets: Vec<String> = entries
            .filter_map(|entry| {
                let file_name = entry.ok()?.file_name();
                let target = file_name.to_str()?.strip_suffix(".json")?;
                (!target.starts_with('.') && target != self.target).then(|| target.to_string())
            })
            .collect();
        targets.sort();
        targets
    }

    /// Where baseline `name` keeps the executable of bench target `target`.
    pub(crate) fn executable_path(&self, name: &str, target: &str) -> PathBuf {
        self.dir.join(name).join(format!("{target}.exe"))
    }

    /// Where an older version kept it.
    fn legacy_executable_path(&self, name: &str, target: &str) -> PathBuf {
        self.dir.join(format!("{name}.{target}.exe"))
    }

    /// Reads baseline `name` of this target (or an older version's shared
    /// one), refusing anything but a regular file and figures no run writes.
    pub(crate) fn load(&self, name: &str) -> Result<Loaded, BaselineError> {
        let (path, legacy) = self.find(name).ok_or_else(|| self.missing(name))?;
        let document = document::load_baseline(&path).map_err(BaselineError::Unreadable)?;
        Ok(Loaded {
            document,
            path,
            legacy,
        })
    }

    /// What `--list-baselines` shows of `entry`, without reading its samples.
    pub(crate) fn summary(&self, entry: &Entry) -> Result<Summary, LoadError> {
        document::summarize(&entry.path)
    }

    /// The executable baseline `name` keeps for this binary's bench target.
    pub(crate) fn executable(&self, name: &str) -> Result<PathBuf, BaselineError> {
        let (_, legacy) = self.find(name).ok_or_else(|| self.missing(name))?;
        let path = if legacy {
            self.legacy_executable_path(name, &self.target)
        } else {
            self.executable_path(name, &self.target)
        };
        if path.is_file() {
            Ok(path)
        } else {
            Err(BaselineError::NoExecutable {
                name: name.to_string(),
                target: self.target.clone(),
            })
        }
    }

    /// The size in bytes of the executable baseline `name` keeps for this
    /// bench target, if it keeps one.
    pub(crate) fn executable_size(&self, name: &str) -> Option<u64> {
        let path = self.executable(name).ok()?;
        fs::metadata(path)
            .ok()
            .filter(fs::Metadata::is_file)
            .map(|metadata| metadata.len())
    }

    fn missing(&self, name: &str) -> BaselineError {
        BaselineError::Missing {
            name: name.to_string(),
            target: self.target.clone(),
            path: self.path(name),
            existing: self.names(),
            other_targets: self.other_targets(name),
        }
    }

    /// Saves `document` as this target's baseline `name`, atomically;
    /// returns its path.
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
        self.keep_executable(name, running_executable())
    }

    fn keep_executable(&self, name: &str, exe: io::Result<PathBuf>) -> Result<u64, BaselineError> {
        // An older version's copy is not read once the target has its own.
        let _ = fs::remove_file(self.legacy_executable_path(name, &self.target));
        let path = self.executable_path(name, &self.target);
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
        let _ = fs::remove_file(self.legacy_executable_path(name, &self.target));
        let path = self.executable_path(name, &self.target);
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

/// What to copy to keep the build that ran: on Linux `/proc/self/exe`,
/// which opens the running image itself, even after a rebuild replaced or
/// removed its file mid-run (`current_exe()` then names `NAME (deleted)`,
/// which does not exist, or the new build, which did not measure);
/// elsewhere the file `current_exe()` names.
fn running_executable() -> io::Result<PathBuf> {
    let image = Path::new("/proc/self/exe");
    if cfg!(target_os = "linux") && fs::metadata(image).is_ok() {
        return Ok(image.to_path_buf());
    }
    std::env::current_exe()
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
    let mut file_name = exe
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Linux names a running executable whose file was removed or replaced
    // (cargo rebuilt it mid-run) `NAME (deleted)`: the target is still NAME.
    if let Some(name) = file_name.strip_suffix(" (deleted)") {
        file_name = name.to_string();
    }
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
        let store = Store::for_target(&dir, "suite");
        write_atomically(&store.path("main"), b"{}").unwrap();
        write_atomically(&store.path("v1"), b"{}").unwrap();
        let message = store.load("nope").unwrap_err().to_string();
        assert!(
            message.contains("no baseline 'nope' for bench target 'suite' at "),
            "{message}"
        );
        assert!(message.contains("nope/suite.json"), "{message}");
        assert!(message.contains("saved baselines: main, v1"), "{message}");
        assert!(message.contains("--save-baseline nope"), "{message}");
        assert!(!message.contains('\n'));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn each_target_keeps_its_own_baseline_of_a_name() {
        let dir = temp_dir("per-target");
        let suite = Store::for_target(&dir, "suite");
        let calibration = Store::for_target(&dir, "calibration");
        write_atomically(&suite.path("main"), b"suite's").unwrap();
        write_atomically(&calibration.path("main"), b"calibration's").unwrap();
        assert_eq!(suite.path("main"), dir.join("main/suite.json"));
        assert_eq!(fs::read(suite.path("main")).unwrap(), b"suite's");
        assert_eq!(suite.names(), ["main"]);
        assert_eq!(calibration.names(), ["main"]);
        // A third target sees none, and is told who saved one.
        let other = Store::for_target(&dir, "library");
        assert!(other.names().is_empty());
        let message = other.load("main").unwrap_err().to_string();
        assert!(
            message.contains(
                "'main' is saved by bench targets calibration, suite only (each bench target \
                 keeps its own baselines); no baselines are saved for this target yet"
            ),
            "{message}"
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn an_older_versions_shared_baseline_is_found_until_the_target_saves_its_own() {
        let dir = temp_dir("legacy");
        let store = Store::for_target(&dir, "suite");
        write_atomically(&dir.join("main.json"), b"old").unwrap();
        write_atomically(&dir.join("main.suite.exe"), b"old build").unwrap();
        assert_eq!(
            store.entries(),
            [Entry {
                name: "main".to_string(),
                path: dir.join("main.json"),
                legacy: true
            }]
        );
        assert_eq!(store.find("main"), Some((dir.join("main.json"), true)));
        assert_eq!(
            store.executable("main").unwrap(),
            dir.join("main.suite.exe")
        );
        write_atomically(&store.path("main"), b"new").unwrap();
        assert_eq!(store.find("main"), Some((store.path("main"), false)));
        assert_eq!(store.entries().len(), 1);
        assert!(!store.entries()[0].legacy);
        // Its own document has no executable yet: the old one is not used.
        assert!(store.executable("main").is_err());
        let exe = dir.join("built");
        write_atomically(&exe, b"new build").unwrap();
        store.keep_executable("main", Ok(exe)).unwrap();
        assert!(!dir.join("main.suite.exe").exists(), "the old copy is gone");
        assert_eq!(
            store.executable("main").unwrap(),
            dir.join("main/suite.exe")
        );
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
        let replaced = "/t/release/deps/suite-e2bfe2658dc91f16 (deleted)";
        assert_eq!(target_name_of(Path::new(replaced)), "suite");
        assert!(!target_name().is_empty());
    }

    #[test]
    fn executables_sit_beside_the_document_and_are_not_baselines() {
        let dir = temp_dir("executables");
        let store = Store::for_target(&dir, "suite");
        assert_eq!(
            store.executable_path("v1.2", "suite"),
            dir.join("v1.2/suite.exe")
        );
        let exe = dir.join("built");
        write_atomically(&exe, &[7; 2500]).unwrap();
        write_atomically(&store.path("main"), b"{}").unwrap();
        assert_eq!(
            store.keep_executable("main", Ok(exe.clone())).unwrap(),
            2500
        );
        Store::for_target(&dir, "other")
            .keep_executable("main", Ok(exe))
            .unwrap();
        assert_eq!(store.names(), ["main"]);
        assert_eq!(store.executable_size("main"), Some(2500));
        assert_eq!(store.executable_size("v1"), None);
        assert_eq!(
            store.executable("main").unwrap(),
            dir.join("main/suite.exe")
        );
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_baseline_without_an_executable_says_how_to_keep_one() {
        let dir = temp_dir("no-executable");
        let store = Store::for_target(&dir, "suite");
        let message = store.executable("main").unwrap_err().to_string();
        assert!(message.contains("no baseline 'main' for "), "{message}");
        write_atomically(&store.path("main"), b"{}").unwrap();
        let message = store.executable("main").unwrap_err().to_string();
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
        let store = Store::for_target(&dir, "suite");
        write_atomically(&store.path("main"), b"{}").unwrap();
        let exe = dir.join("built");
        write_atomically(&exe, b"old build").unwrap();
        store.keep_executable("main", Ok(exe)).unwrap();
        let gone = io::Error::new(io::ErrorKind::NotFound, "no such file");
        let message = store
            .keep_executable("main", Err(gone))
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("baseline 'main' is saved, but not its executable"),
            "{message}"
        );
        assert!(message.contains("main/suite.exe"), "{message}");
        assert!(message.contains("--no-keep-exe"), "{message}");
        assert!(!message.contains('\n'));
        assert_eq!(store.executable_size("main"), None);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn saving_without_the_executable_removes_an_earlier_one() {
        let dir = temp_dir("drop");
        let store = Store::for_target(&dir, "suite");
        let other = Store::for_target(&dir, "other");
        store.drop_this_executable("main").unwrap();
        write_atomically(&store.path("main"), b"{}").unwrap();
        write_atomically(&other.path("main"), b"{}").unwrap();
        let exe = dir.join("built");
        write_atomically(&exe, b"old build").unwrap();
        store.keep_executable("main", Ok(exe.clone())).unwrap();
        other.keep_executable("main", Ok(exe)).unwrap();
        store.drop_this_executable("main").unwrap();
        assert_eq!(store.executable_size("main"), None);
        assert_eq!(other.executable_size("main"), Some(9));
        fs::remove_dir_all(dir).unwrap();
    }
}
