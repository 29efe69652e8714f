//! File-system helpers: the harness's own files (baselines, `--output`) are
//! written atomically, so an interrupted or failed run never leaves a
//! truncated file, and two runs writing the same file at once leave one
//! whole file.

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Writes `contents` to `path` so that readers see the old file or the new
/// one, never a part: a temporary file beside it, flushed, then renamed.
pub(crate) fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let unique = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let file_name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy());
    let temporary = dir.join(format!(".{file_name}.{}.{unique}.tmp", std::process::id()));
    let written = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
}
