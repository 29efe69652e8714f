//! File-system helpers: the harness's own files (baselines, their kept
//! executables, `--output`, the report) are written atomically, the
//! history is appended to and read only as a regular file
//! ([`append_regular`], [`read_regular`]), so an interrupted or
//! failed run never leaves a truncated file, and two runs writing the same
//! file at once leave one whole file. `--output` may also name what is not
//! a file (`/dev/null`, a FIFO, `/dev/stdout`): that is written in place,
//! never replaced.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How `--output PATH` is written, decided by what `PATH` is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Destination {
    /// A regular file, or nothing yet: replaced atomically (this path, or
    /// the file a symbolic link leads to, so the link stays).
    Replace(PathBuf),
    /// Anything else (a character device, a FIFO, a socket, a descriptor's
    /// link `/dev/fd/N`, `/proc/self/fd/N`, `/dev/stdout`): opened and
    /// written in place, appending, as a shell's `>>` would.
    InPlace(PathBuf),
}

/// What `path` is, and so how it is written; an error for a directory.
pub(crate) fn destination(path: &Path) -> io::Result<Destination> {
    let metadata = match fs::symlink_metadata(path) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Ok(Destination::Replace(path.to_path_buf()))
        }
        Err(error) => return Err(file_in_the_way(directory_of(path)).unwrap_or(error)),
        Ok(metadata) => metadata,
    };
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(Destination::Replace(path.to_path_buf()));
    }
    if kind.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory",
        ));
    }
    if kind.is_symlink() && !is_descriptor_link(path) {
        // A link the user made: the file it leads to is what they mean.
        if let Ok(target) = fs::canonicalize(path) {
            if !is_descriptor_link(&target) {
                return match fs::metadata(&target) {
                    Ok(m) if m.is_dir() => Err(io::Error::new(
                        io::ErrorKind::IsADirectory,
                        "it leads to a directory",
                    )),
                    Ok(m) if !m.is_file() => Ok(Destination::InPlace(path.to_path_buf())),
                    _ => Ok(Destination::Replace(target)),
                };
            }
        }
    }
    Ok(Destination::InPlace(path.to_path_buf()))
}

/// `/dev/stdout`, `/dev/fd/N`, `/proc/PID/fd/N` and the like: names of an
/// open descriptor, whatever it is, never to be replaced.
fn is_descriptor_link(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// Checks, before any work, that `path` can be written as [`write_output`]
/// will: a temporary file can be made beside a file to be replaced (its
/// directory is created), and anything else but a FIFO can be opened for
/// writing (a FIFO is only checked to exist: opening it would end a
/// waiting reader's input).
pub(crate) fn check_writable(path: &Path) -> io::Result<()> {
    match destination(path)? {
        Destination::Replace(path) => {
            let dir = directory_of(&path);
            create_directories(dir)?;
            let probe = temporary_beside(dir, &path);
            fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&probe)?;
            fs::remove_file(&probe)
        }
        Destination::InPlace(path) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                // Opening a FIFO (or a pipe's /dev/fd/N) and closing it again
                // would hand a waiting reader its end of file: not probed.
                if fs::metadata(&path)?.file_type().is_fifo() {
                    return Ok(());
                }
            }
            let mut options = fs::OpenOptions::new();
            options.append(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                // Never wait on a device that is not ready.
                options.custom_flags(libc::O_NONBLOCK);
            }
            match options.open(&path) {
                #[cfg(unix)]
                Err(error) if error.raw_os_error() == Some(libc::ENXIO) => Ok(()),
                other => other.map(drop),
            }
        }
    }
}

/// Writes `--output`: atomically over a regular file (or where there is
/// none), in place into anything else (see [`Destination`]).
pub(crate) fn write_output(path: &Path, contents: &[u8]) -> io::Result<()> {
    match destination(path)? {
        Destination::Replace(path) => write_atomically(&path, contents),
        Destination::InPlace(path) => {
            let mut file = open_in_place(&path)?;
            match file.write_all(contents).and_then(|()| file.flush()) {
                // A reader that stopped early (`| head`), as on stdout.
                Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                other => other,
            }
        }
    }
}

/// How often a wait for a FIFO's reader looks at Ctrl-C.
#[cfg(unix)]
const READER_POLL: Duration = Duration::from_millis(50);

/// Opens what is not a regular file for appending. A FIFO with no reader
/// yet is waited for as a shell's `>` waits, but in short steps: the first
/// Ctrl-C ends the wait (an `Interrupted` error), and a line says what the
/// run is waiting for once it has waited a second.
fn open_in_place(path: &Path) -> io::Result<fs::File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let started = std::time::Instant::now();
        let mut said = false;
        loop {
            let opened = fs::OpenOptions::new()
                .append(true)
                .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
                .open(path);
            match opened {
                Ok(probe) => {
                    // A reader is there: opened again to be written as any
                    // file is, blocking (the probe, held meanwhile, keeps
                    // the FIFO open).
                    let file = fs::OpenOptions::new()
                        .append(true)
                        .custom_flags(libc::O_NOCTTY)
                        .open(path);
                    drop(probe);
                    return file;
                }
                // A FIFO nobody reads yet.
                Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
                    if bench_runtime::signal::interrupted() {
                        return Err(io::Error::new(
                            io::ErrorKind::Interrupted,
                            "no reader opened the FIFO before Ctrl-C, so nothing was written",
                        ));
                    }
                    if !said && started.elapsed() >= Duration::from_secs(1) {
                        said = true;
                        crate::console::status(&format_args!(
                            "waiting for a reader of the FIFO {} to write the results (Ctrl-C \
                             stops)",
                            path.display()
                        ));
                    }
                    std::thread::sleep(READER_POLL);
                }
                Err(error) => return Err(error),
            }
        }
    }
    #[cfg(not(unix))]
    {
        fs::OpenOptions::new().append(true).open(path)
    }
}

/// Writes `contents` to `path` so that readers see the old file or the new
/// one, never a part: a temporary file beside it, flushed, then renamed.
pub(crate) fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    replace_atomically(path, &mut |file| file.write_all(contents))
}

/// Copies the file `from` to `to` as [`write_atomically`] writes, with
/// `from`'s permission bits (an executable stays executable); returns the
/// bytes copied.
pub(crate) fn copy_atomically(from: &Path, to: &Path) -> io::Result<u64> {
    let mut source = fs::File::open(from)?;
    let permissions = source.metadata()?.permissions();
    let mut copied = 0;
    replace_atomically(to, &mut |file| {
        copied = io::copy(&mut source, file)?;
        file.set_permissions(kept_permissions(permissions.clone()))
    })?;
    Ok(copied)
}

/// The source's permissions without set-user-ID, set-group-ID and sticky
/// bits: a copy runs as whoever starts it.
#[cfg(unix)]
fn kept_permissions(permissions: fs::Permissions) -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    fs::Permissions::from_mode(permissions.mode() & 0o777)
}

#[cfg(not(unix))]
fn kept_permissions(permissions: fs::Permissions) -> fs::Permissions {
    permissions
}

/// Fills a temporary file beside `path` with `fill`, flushes it to disk and
/// renames it over `path`; on any failure the temporary is removed. An
/// existing file's permission bits (and, where allowed, owner) are kept,
/// unless `fill` sets its own. Temporaries that killed writers left in the
/// directory are removed first.
fn replace_atomically(
    path: &Path,
    fill: &mut dyn FnMut(&mut fs::File) -> io::Result<()>,
) -> io::Result<()> {
    let dir = directory_of(path);
    create_directories(dir)?;
    remove_stale_temporaries(dir, path);
    let existing = fs::metadata(path).ok().filter(fs::Metadata::is_file);
    let temporary = temporary_beside(dir, path);
    let written = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        if let Some(existing) = &existing {
            keep_mode_and_owner(&file, existing)?;
        }
        fill(&mut file)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// A new directory in the temporary directory, named `PREFIX{pid}-{16 hex
/// digits}`, readable by this user only, under a name no other process has
/// taken (a name taken is tried again, up to 16 times).
fn private_temp_dir(prefix: &str) -> io::Result<PathBuf> {
    let base = std::env::temp_dir();
    let mut last_error = None;
    for _ in 0..16 {
        let dir = base.join(format!(
            "{prefix}{}-{:016x}",
            std::process::id(),
            fastrand::u64(..)
        ));
        let mut builder = fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last_error = Some(error),
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)))
}

/// A private scratch directory ([`private_temp_dir`]) that this process
/// holds locked (an exclusive `flock` on a file in it) until it is
/// dropped, when it is removed with everything in it. A run killed before
/// it could remove its own leaves it unlocked (the kernel releases the
/// lock of a process that ended), and the next run of the same prefix
/// removes it: a lock, unlike a pid, means the same in every PID namespace.
#[derive(Debug)]
pub(crate) struct Scratch {
    path: PathBuf,
    _lock: fs::File,
}

/// The file a [`Scratch`] holds locked.
const SCRATCH_LOCK: &str = ".lock";

/// How old a scratch directory with no lock file must be to be taken for
/// one an older harness, or a run killed as it created it, left behind.
const UNLOCKED_AGE: std::time::Duration = std::time::Duration::from_secs(600);

impl Scratch {
    pub(crate) fn new(prefix: &str) -> io::Result<Scratch> {
        let path = private_temp_dir(prefix)?;
        let lock = fs::File::create(path.join(SCRATCH_LOCK)).and_then(|file| {
            if bench_runtime::signal::try_lock(&file) {
                Ok(file)
            } else {
                Err(io::Error::other("its lock is taken"))
            }
        });
        let lock = match lock {
            Ok(lock) => lock,
            Err(error) => {
                let _ = fs::remove_dir_all(&path);
                return Err(error);
            }
        };
        remove_stale(&std::env::temp_dir(), prefix, &path);
        Ok(Scratch { path, _lock: lock })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// Removes the scratch directories of `prefix` in `base` that no live
/// process holds: directories, not symbolic links, owned by this user (as
/// `mine` is), whose lock file is unlocked, or which have none and are
/// older than [`UNLOCKED_AGE`].
fn remove_stale(base: &Path, prefix: &str, mine: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(me) = fs::symlink_metadata(mine).map(|m| m.uid()) else {
            return;
        };
        let Ok(entries) = fs::read_dir(base) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let named = entry
                .file_name()
                .to_str()
                .and_then(|name| name.strip_prefix(prefix))
                .and_then(|rest| rest.split_once('-'))
                .is_some_and(|(pid, random)| {
                    pid.parse::<u32>().is_ok()
                        && random.len() == 16
                        && random.bytes().all(|b| b.is_ascii_hexdigit())
                });
            let Ok(metadata) = fs::symlink_metadata(&path) else {
                continue;
            };
            if !named || path == mine || !metadata.file_type().is_dir() || metadata.uid() != me {
                continue;
            }
            let stale = match fs::File::open(path.join(SCRATCH_LOCK)) {
                // Taken: a live run holds it. Free: it ended.
                Ok(lock) => bench_runtime::signal::try_lock(&lock),
                Err(_) => metadata
                    .modified()
                    .ok()
                    .and_then(|at| at.elapsed().ok())
                    .is_some_and(|age| age > UNLOCKED_AGE),
            };
            if stale {
                let _ = fs::remove_dir_all(&path);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (base, prefix, mine);
}

/// Reads the regular file at `path`, at most `limit` bytes of it: `None`
/// when there is none. Anything else where a regular file is meant is an
/// error naming what it is, found without reading it: a symbolic link
/// (never followed: a planted link must not lead a read or a write
/// elsewhere), a FIFO (opening one waits for a writer), a device
/// (`/dev/zero` never ends), a directory. A file larger than `limit` is an
/// error too: a bound for a file that is not what it seems.
pub(crate) fn read_regular(path: &Path, limit: u64) -> io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let file = match open_regular(path, OpenMode::Read) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        other => other?,
    };
    let length = file.metadata()?.len();
    if length > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "it holds {length} bytes, more than the {limit} this reads (it is not what \
                 bench-harness writes)"
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(length as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// The first `n` bytes (or fewer) of the regular file at `path`, opened as
/// [`read_regular`] opens it; `None` when there is none.
pub(crate) fn read_prefix(path: &Path, n: u64) -> io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let file = match open_regular(path, OpenMode::Read) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        other => other?,
    };
    let mut bytes = Vec::new();
    file.take(n).read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// Appends `bytes` to the regular file at `path` (created, with its
/// directory, when missing) with one `write` on a file opened with
/// `O_APPEND`, never through a symbolic link and never into a FIFO, a
/// device or a directory (see [`read_regular`]); `before` is given the
/// open file first (to look at its end).
pub(crate) fn append_regular(
    path: &Path,
    bytes: &[u8],
    before: &mut dyn FnMut(&fs::File) -> io::Result<Vec<u8>>,
) -> io::Result<()> {
    create_directories(directory_of(path))?;
    let mut file = open_regular(path, OpenMode::Append)?;
    let mut batch = before(&file)?;
    batch.extend_from_slice(bytes);
    file.write_all(&batch)
}

#[derive(Clone, Copy, PartialEq)]
enum OpenMode {
    Read,
    Append,
}

/// Opens `path` as a regular file, refusing anything else (see
/// [`read_regular`]) without blocking and without following a final
/// symbolic link, and checked on the open file, so that nothing is swapped
/// in between the look and the open.
fn open_regular(path: &Path, mode: OpenMode) -> io::Result<fs::File> {
    match fs::symlink_metadata(path) {
        Ok(metadata) if !metadata.file_type().is_file() => {
            return Err(not_a_regular_file(&metadata))
        }
        Err(error) if !(mode == OpenMode::Append && error.kind() == io::ErrorKind::NotFound) => {
            return Err(error)
        }
        _ => {}
    }
    let mut options = fs::OpenOptions::new();
    match mode {
        OpenMode::Read => options.read(true),
        OpenMode::Append => options.read(true).append(true).create(true),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(|error| {
        #[cfg(unix)]
        if error.raw_os_error() == Some(libc::ELOOP) {
            return io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is a symbolic link, which is never followed here; remove it",
            );
        }
        error
    })?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(not_a_regular_file(&metadata));
    }
    Ok(file)
}

/// The error for something other than a regular file where one is meant.
fn not_a_regular_file(metadata: &fs::Metadata) -> io::Error {
    let kind = metadata.file_type();
    let what = if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link, which is never followed here"
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() {
                "a FIFO"
            } else if kind.is_char_device() || kind.is_block_device() {
                "a device"
            } else if kind.is_socket() {
                "a socket"
            } else {
                "not a regular file"
            }
        }
        #[cfg(not(unix))]
        {
            "not a regular file"
        }
    };
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {what}, not a regular file; remove it"),
    )
}

/// `fs::create_dir_all`, with an error that names the culprit when a
/// file stands where a directory must be (`create_dir_all` says only "File
/// exists" or "Not a directory"): kind `NotADirectory`, message
/// "PATH is a file, not a directory".
fn create_directories(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir).map_err(|error| file_in_the_way(dir).unwrap_or(error))
}

/// The error for a file standing where `dir` or one of its parents must be
/// a directory, if one does.
fn file_in_the_way(dir: &Path) -> Option<io::Error> {
    let file = dir
        .ancestors()
        .filter(|ancestor| !ancestor.as_os_str().is_empty())
        .find(|ancestor| fs::metadata(ancestor).is_ok_and(|m| !m.is_dir()))?;
    Some(io::Error::new(
        io::ErrorKind::NotADirectory,
        format!("{} is a file, not a directory", file.display()),
    ))
}

fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Gives `file` the permissions of the `existing` file it will replace, and
/// its owner where this process may (root replacing a user's file).
fn keep_mode_and_owner(file: &fs::File, existing: &fs::Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(existing.uid()), Some(existing.gid()));
    }
    file.set_permissions(existing.permissions())
}

/// How old a dead writer's temporary must be before it is removed: a
/// writer on another machine or in another PID namespace (a shared
/// directory) looks dead from here, but finishes well within this.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// The end of this harness's temporaries' names: a user's own
/// `.notes.txt.4000001.17.tmp` is never taken for one.
const TEMPORARY_SUFFIX: &str = ".bench-harness.tmp";

/// Removes the temporaries of `path` (`.NAME.PID.NANOS.N.bench-harness.tmp`,
/// NAME its file name) in `dir` that a writer killed before its rename left
/// behind: those of a process that no longer exists, untouched for
/// [`STALE_AFTER`]. Nothing else is touched: not another file's, not a
/// name that only looks like one (a user's `.x.1.2.tmp`). Best effort:
/// where processes cannot be looked up (no `/proc`), nothing is removed.
pub(crate) fn remove_stale_temporaries(dir: &Path, path: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| writer_of_temporary(name, file_name))
        else {
            continue;
        };
        if pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists() {
            continue;
        }
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let old = metadata
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if metadata.is_file() && old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process that wrote temporary `name` of file `file_name`
/// (`.FILE_NAME.PID.NANOS.N.bench-harness.tmp`); `None` for any other name.
fn writer_of_temporary(name: &str, file_name: &str) -> Option<u32> {
    let inner = name
        .strip_prefix('.')?
        .strip_prefix(file_name)?
        .strip_prefix('.')?
        .strip_suffix(TEMPORARY_SUFFIX)?;
    let is_number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match inner.split('.').collect::<Vec<_>>().as_slice() {
        [pid, nanos, call] if is_number(pid) && is_number(nanos) && is_number(call) => {
            pid.parse().ok()
        }
        _ => None,
    }
}

/// `.NAME.PID.NANOS.N.bench-harness.tmp` in `dir`: hidden, so no listing takes it for a
/// baseline, and unique to this process and call, so writers of one file
/// never share a temporary.
fn temporary_beside(dir: &Path, path: &Path) -> PathBuf {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let unique = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let file_name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    dir.join(format!(
        ".{file_name}.{}.{unique}.{call}{TEMPORARY_SUFFIX}",
        std::process::id()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_directories_no_live_run_holds_are_removed_and_no_others() {
        let base = std::env::temp_dir().join(format!(
            "bench-harness-fs-unit-{}-{:x}",
            std::process::id(),
            fastrand::u64(..)
        ));
        fs::create_dir_all(&base).unwrap();
        let prefix = "bench-harness-unit-";
        let dir = |n: u64| base.join(format!("{prefix}{}-{n:016x}", std::process::id()));
        let with_lock = |path: &Path| {
            fs::create_dir(path).unwrap();
            fs::File::create(path.join(SCRATCH_LOCK)).unwrap()
        };
        let mine = dir(1);
        let _mine = with_lock(&mine);
        // A run that ended (its lock free), and a live one (in another PID
        // namespace its pid would name nothing here: the lock still tells).
        let ended = dir(2);
        drop(with_lock(&ended));
        let live = dir(3);
        let held = with_lock(&live);
        assert!(bench_runtime::signal::try_lock(&held));
        // No lock file: kept while young, removed once old.
        let young = dir(4);
        fs::create_dir(&young).unwrap();
        let old = dir(5);
        fs::create_dir(&old).unwrap();
        let long_ago = std::time::SystemTime::now() - 2 * UNLOCKED_AGE;
        fs::File::open(&old)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        // Another prefix, and a link named like a scratch directory.
        let other = base.join(format!("bench-harness-other-1-{:016x}", 6));
        drop(with_lock(&other));
        let link = dir(7);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&ended, &link).unwrap();

        remove_stale(&base, prefix, &mine);
        assert!(!ended.exists(), "the ended run's directory is gone");
        assert!(!old.exists(), "the old unlocked directory is gone");
        for kept in [&mine, &live, &young, &other] {
            assert!(kept.is_dir(), "{} was kept", kept.display());
        }
        #[cfg(unix)]
        assert!(link.symlink_metadata().is_ok(), "the link was kept");
        drop(held);
        fs::remove_dir_all(&base).unwrap();
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("bench-harness-fs-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporaries() {
        let dir = temp_dir("atomic");
        let path = dir.join("a.json");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let files: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(files.len(), 1, "{files:?}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn concurrent_writers_leave_one_whole_file() {
        let dir = temp_dir("concurrent");
        let path = dir.join("same.json");
        let contents: Vec<Vec<u8>> = (0..8u8).map(|i| vec![b'a' + i; 100_000]).collect();
        std::thread::scope(|scope| {
            for bytes in &contents {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..20 {
                        write_atomically(path, bytes).unwrap();
                    }
                });
            }
        });
        let result = fs::read(&path).unwrap();
        assert!(
            contents.contains(&result),
            "a torn file of {} bytes",
            result.len()
        );
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_copy_is_the_whole_file_and_leaves_no_temporaries() {
        let dir = temp_dir("copy");
        let from = dir.join("source");
        let contents: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        write_atomically(&from, &contents).unwrap();
        let to = dir.join("kept/copy.exe");
        write_atomically(&to, b"an older copy").unwrap();
        assert_eq!(copy_atomically(&from, &to).unwrap(), contents.len() as u64);
        assert_eq!(fs::read(&to).unwrap(), contents);
        let names: Vec<_> = fs::read_dir(to.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["copy.exe"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_copy_keeps_the_permission_bits() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("copy-mode");
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o7777;
        for wanted in [0o755, 0o700, 0o644] {
            let from = dir.join(format!("source-{wanted:o}"));
            write_atomically(&from, b"#!/bin/sh\n").unwrap();
            fs::set_permissions(&from, fs::Permissions::from_mode(wanted)).unwrap();
            let to = dir.join(format!("copy-{wanted:o}"));
            copy_atomically(&from, &to).unwrap();
            assert_eq!(mode(&to), wanted, "{}", to.display());
        }
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_copy_keeps_the_old_file_and_leaves_no_temporaries() {
        let dir = temp_dir("copy-fails");
        let to = dir.join("copy.exe");
        write_atomically(&to, b"the old copy").unwrap();
        let missing = dir.join("no-such-source");
        assert!(copy_atomically(&missing, &to).is_err());
        // A directory cannot be renamed over: the temporary is written, then
        // the rename fails.
        let source = dir.join("source");
        write_atomically(&source, b"new").unwrap();
        let occupied = dir.join("a-directory");
        fs::create_dir(&occupied).unwrap();
        fs::write(occupied.join("inside"), b"keeps it non-empty").unwrap();
        assert!(copy_atomically(&source, &occupied).is_err());
        assert_eq!(fs::read(&to).unwrap(), b"the old copy");
        let mut names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["a-directory", "copy.exe", "source"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permission_bits() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("keep-mode");
        let path = dir.join("out.json");
        write_atomically(&path, b"old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_output(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o640);
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_and_new_paths_are_replaced() {
        let dir = temp_dir("destination");
        let file = dir.join("file");
        write_atomically(&file, b"x").unwrap();
        let missing = dir.join("missing");
        assert_eq!(
            destination(&file).unwrap(),
            Destination::Replace(file.clone())
        );
        assert_eq!(
            destination(&missing).unwrap(),
            Destination::Replace(missing)
        );
        // A link to a file: the file is replaced, the link stays.
        let link = dir.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let target = fs::canonicalize(&file).unwrap();
        assert_eq!(destination(&link).unwrap(), Destination::Replace(target));
        write_output(&link, b"through the link").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&file).unwrap(), b"through the link");
        // Descriptors' names are never replaced, whatever they lead to.
        for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            let path = Path::new(name);
            if fs::symlink_metadata(path).is_ok() {
                assert_eq!(
                    destination(path).unwrap(),
                    Destination::InPlace(path.to_path_buf())
                );
            }
        }
        let error = check_writable(&dir).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::IsADirectory);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_where_a_directory_must_be_is_named() {
        let dir = temp_dir("file-as-directory");
        let file = dir.join("results.json");
        write_atomically(&file, b"x").unwrap();
        for path in [file.join("out.json"), file.join("deeper/out.json")] {
            let error = check_writable(&path).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::NotADirectory, "{path:?}");
            assert_eq!(
                error.to_string(),
                format!("{} is a file, not a directory", file.display())
            );
            let error = write_atomically(&path, b"y").unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::NotADirectory, "{path:?}");
        }
        assert_eq!(fs::read(&file).unwrap(), b"x", "the file is left alone");
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_read_or_appended_to() {
        let dir = temp_dir("regular");
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("history.jsonl");
        let none = |_: &fs::File| Ok(Vec::new());
        append_regular(&file, b"one\n", &mut { none }).unwrap();
        append_regular(&file, b"two\n", &mut { none }).unwrap();
        assert_eq!(read_regular(&file, 100).unwrap().unwrap(), b"one\ntwo\n");
        assert_eq!(read_prefix(&file, 3).unwrap().unwrap(), b"one");
        assert!(read_regular(&dir.join("missing"), 100).unwrap().is_none());
        let error = read_regular(&file, 4).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        // A link (even to a regular file), a FIFO, a directory: refused,
        // without blocking, the link's target untouched.
        let link = dir.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let fifo = dir.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        for (path, what) in [
            (&link, "symbolic link"),
            (&fifo, "a FIFO"),
            (&dir, "a directory"),
        ] {
            let read = read_regular(path, 100).unwrap_err().to_string();
            assert!(read.contains(what), "{read}");
            let appended = append_regular(path, b"x", &mut { none })
                .unwrap_err()
                .to_string();
            assert!(appended.contains(what), "{appended}");
        }
        assert_eq!(fs::read(&file).unwrap(), b"one\ntwo\n");
        fs::remove_dir_all(dir).unwrap();
    }

    /// A pipe whose reader has gone, named as `/dev/stdout` would be: no
    /// error, as on stdout.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_reader_that_stopped_early_is_no_error() {
        use std::os::unix::io::AsRawFd;
        let mut reader = std::process::Command::new("true")
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pipe = reader.stdin.take().unwrap();
        reader.wait().unwrap();
        let name = PathBuf::from(format!("/proc/self/fd/{}", pipe.as_raw_fd()));
        write_output(&name, &vec![b'x'; 1 << 20]).unwrap();
    }

    #[test]
    fn temporaries_name_their_writer() {
        let ours = ".main.json.4242.1700000000.0.bench-harness.tmp";
        assert_eq!(writer_of_temporary(ours, "main.json"), Some(4242));
        assert_eq!(
            writer_of_temporary(".out.4242.17.3.bench-harness.tmp", "out"),
            Some(4242)
        );
        // Another file's, or a user's file that only looks like one.
        assert_eq!(writer_of_temporary(ours, "main"), None);
        for other in [
            "main.json",
            ".main.json",
            ".main.json.4242.1700000000.0.tmp",
            ".main.json.4242.1700000000.tmp",
            ".main.json.x.1.2.bench-harness.tmp",
            ".main.json.1.2.bench-harness.tmp",
        ] {
            assert_eq!(writer_of_temporary(other, "main.json"), None, "{other}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_dead_writers_old_temporary_is_removed_on_the_next_write_and_nothing_else() {
        let dir = temp_dir("stale");
        fs::create_dir_all(&dir).unwrap();
        // A process that has ended: its PID is free (until reused, which
        // only keeps its temporary a while longer).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let long_ago = SystemTime::now() - Duration::from_secs(3600);
        let temporary = |pid: u32, age: SystemTime| {
            let nanos = age.duration_since(UNIX_EPOCH).unwrap().as_nanos();
            let path = dir.join(format!(".main.json.{pid}.{nanos}.0.bench-harness.tmp"));
            let file = fs::File::create(&path).unwrap();
            file.set_modified(age).unwrap();
            path
        };
        let stale = temporary(dead, long_ago);
        // What only looks like one: a user's file, or another file's.
        let look_alikes = [
            dir.join(format!(".main.json.{dead}.1700000000000000000.tmp")),
            dir.join(format!(".notes.txt.{dead}.17.bench-harness.tmp")),
        ];
        for path in &look_alikes {
            fs::File::create(path)
                .unwrap()
                .set_modified(long_ago)
                .unwrap();
        }
        // A live writer's (this process's), and a dead one's just written.
        let live = temporary(std::process::id(), long_ago);
        let recent = temporary(dead, SystemTime::now());
        write_atomically(&dir.join("main.json"), b"{}").unwrap();
        assert!(!stale.exists(), "{}", stale.display());
        for path in &look_alikes {
            assert!(path.exists(), "{}", path.display());
        }
        assert!(live.exists() && recent.exists());
        fs::remove_dir_all(dir).unwrap();
    }
}
