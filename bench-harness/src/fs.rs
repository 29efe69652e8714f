//! File-system helpers: the harness's own files (baselines, their kept
//! executables, `--output`) are written atomically, so an interrupted or
//! failed run never leaves a truncated file, and two runs writing the same
//! file at once leave one whole file.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Writes `contents` to `path` so that readers see the old file or the new
/// one, never a part: a temporary file beside it, flushed, then renamed.
pub(crate) fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    replace_atomically(path, |file| file.write_all(contents))
}

/// Copies the file `from` to `to` as [`write_atomically`] writes, with
/// `from`'s permission bits (an executable stays executable); returns the
/// bytes copied.
pub(crate) fn copy_atomically(from: &Path, to: &Path) -> io::Result<u64> {
    let mut source = fs::File::open(from)?;
    let permissions = source.metadata()?.permissions();
    let mut copied = 0;
    replace_atomically(to, |file| {
        copied = io::copy(&mut source, file)?;
        file.set_permissions(kept_permissions(permissions))
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
/// renames it over `path`; on any failure the temporary is removed.
fn replace_atomically(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let temporary = temporary_beside(dir, path);
    let written = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        fill(&mut file)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// `.NAME.PID.NANOS.N.tmp` in `dir`: hidden, so no listing takes it for a
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
        ".{file_name}.{}.{unique}.{call}.tmp",
        std::process::id()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
