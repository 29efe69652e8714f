//! What a child of this harness runs, and how it knows it is one: this
//! process's own file, held open, and the run's token.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::console;

/// This run's token: random, the same for every worker of the run.
pub(crate) fn token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        format!(
            "{:016x}{:016x}",
            fastrand::u64(..) ^ nanos,
            fastrand::u64(..) ^ u64::from(std::process::id())
        )
    })
}

/// Whether this process was started by a run of this harness with this
/// run's token both in variable `env` and after hidden flag `--FLAG` on the
/// command line (before any `--`), and equal: how a worker knows it is
/// one. A variable left in a shell's
/// environment alone changes nothing: it is ignored with a note, once;
/// `by` names what sets it.
pub(crate) fn started_with_token(env: &'static str, flag: &str, by: &str) -> bool {
    let Some(token) = std::env::var_os(env) else {
        return false;
    };
    let flag = format!("--{flag}");
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let given = args
        .iter()
        .take_while(|arg| *arg != "--")
        .position(|arg| *arg == *flag)
        .and_then(|at| args.get(at + 1));
    let started = !token.is_empty() && given == Some(&token);
    if !started {
        static NOTED: std::sync::Mutex<Vec<&str>> = std::sync::Mutex::new(Vec::new());
        let mut noted = NOTED.lock().unwrap_or_else(|e| e.into_inner());
        if !noted.contains(&env) {
            noted.push(env);
            console::note(&format_args!(
                "{env} is set in the environment, but this process was not started by \
                 {by}: the variable is ignored (unset it to silence this note)"
            ));
        }
    }
    started
}

/// The executable a run's own processes run: this process's own file, held open
/// (Linux: `/proc/self/exe`, started through `/proc/PID/fd/N`, this process's
/// descriptor, which a child of a child, as perf's, can open too), so a
/// rebuild of the path during the run cannot pool two programs. Where it
/// cannot be held, the path, with the file's identity checked before each
/// child.
pub(crate) struct Program {
    /// What is executed.
    run: PathBuf,
    /// The path as this process knows it: the children's `argv[0]`, and
    /// what messages name.
    path: PathBuf,
    /// Keeps `run` valid.
    _held: Option<File>,
    /// Where the file is not held: its identity when the run started.
    identity: Option<Identity>,
}

/// Device, inode, size and modification time: a rebuilt file differs in
/// at least one.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity(u64, u64, u64, Option<std::time::SystemTime>);

impl Identity {
    fn of(path: &Path) -> std::io::Result<Identity> {
        let metadata = std::fs::metadata(path)?;
        #[cfg(unix)]
        let (dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (dev, ino) = (0, 0);
        Ok(Identity(dev, ino, metadata.len(), metadata.modified().ok()))
    }
}

impl Program {
    /// This process's own file.
    pub(crate) fn open() -> Result<Program, String> {
        let path = std::env::current_exe().map_err(|error| {
            format!("cannot find this program's file to start it again: {error}")
        })?;
        Program::held(path, Path::new("/proc/self/exe"))
    }

    /// The executable at `path` (`--against`'s other build), held the same
    /// way: both builds' workers are started alike, and a rebuild of the
    /// path during a comparison cannot slip a third program into its pairs.
    pub(crate) fn at(path: &Path) -> Result<Program, String> {
        Program::held(path.to_path_buf(), path)
    }

    /// `path`, held open through `file` (the same file) where the system
    /// allows, else checked by identity before each start. A script is
    /// never started through its descriptor: its interpreter would be
    /// given a `/proc/PID/fd` path that may be closed when it reads it.
    fn held(path: PathBuf, file: &Path) -> Result<Program, String> {
        #[cfg(target_os = "linux")]
        if let Ok(file) = File::open(file) {
            use std::io::Read;
            use std::os::fd::AsRawFd;
            let run = PathBuf::from(format!(
                "/proc/{}/fd/{}",
                std::process::id(),
                file.as_raw_fd()
            ));
            let mut magic = [0u8; 4];
            let elf = (&file).read_exact(&mut magic).is_ok() && magic == *b"\x7fELF";
            if elf && run.exists() {
                return Ok(Program {
                    run,
                    path,
                    _held: Some(file),
                    identity: None,
                });
            }
        }
        let identity = Identity::of(&path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        Ok(Program {
            run: path.clone(),
            path,
            _held: None,
            identity: Some(identity),
        })
    }

    /// What to execute, and the path that names it in messages.
    pub(crate) fn paths(&self) -> (&Path, &Path) {
        (&self.run, &self.path)
    }

    /// Refuses a file that is no longer the one this process runs.
    pub(crate) fn check(&self) -> Result<(), String> {
        let Some(identity) = &self.identity else {
            return Ok(());
        };
        match Identity::of(&self.path) {
            Ok(now) if now == *identity => Ok(()),
            _ => Err(format!(
                "{} changed since this run started (rebuilt?), and its processes would \
                 measure another program; run again",
                self.path.display()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_replaced_at_the_path_is_refused_where_it_is_not_held() {
        // The fallback where /proc/self/exe cannot be held open.
        let path = std::env::temp_dir().join(format!(
            "bench-harness-forks-exe-{}-{:x}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::write(&path, "the program").unwrap();
        let program = Program {
            run: path.clone(),
            path: path.clone(),
            _held: None,
            identity: Some(Identity::of(&path).unwrap()),
        };
        assert_eq!(program.check(), Ok(()));
        // Rebuilt: a new file renamed over the old one.
        let new = path.with_extension("new");
        std::fs::write(&new, "another program").unwrap();
        std::fs::rename(&new, &path).unwrap();
        let refused = program.check().unwrap_err();
        assert!(
            refused.starts_with(&format!(
                "{} changed since this run started",
                path.display()
            )),
            "{refused}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_script_is_started_by_its_path_and_checked_an_executable_through_its_descriptor() {
        let scratch = crate::testing::Scratch::new("against-script");
        let path = scratch.path().join("worker.sh");
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
        let script = Program::at(&path).unwrap();
        assert_eq!(script.paths(), (path.as_path(), path.as_path()));
        std::fs::write(&path, "#!/bin/sh\nexit 10\n").unwrap();
        assert!(script.check().is_err());
        #[cfg(target_os = "linux")]
        {
            let exe = std::env::current_exe().unwrap();
            let held = Program::at(&exe).unwrap();
            assert!(
                held.paths()
                    .0
                    .starts_with(format!("/proc/{}/fd/", std::process::id())),
                "{:?}",
                held.paths()
            );
            assert_eq!(held.check(), Ok(()));
        }
    }
}
