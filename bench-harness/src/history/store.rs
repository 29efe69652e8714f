//! The history file: `TARGET_DIR/bench-harness/history/TARGET.jsonl`, one
//! JSON record per line, appended to and never rewritten.
//!
//! Safe against concurrent runs and kills by construction, not by locks:
//!
//! - A run's lines are written with one `write` on a file opened with
//!   `O_APPEND`. The kernel moves to the end and writes under the file's
//!   lock, so two runs appending at once put their batches one after the
//!   other, never interleaved (on local file systems; NFS does not promise
//!   `O_APPEND`).
//! - A kill cannot stop a `write` to a regular file halfway short of a
//!   fatal signal arriving in a huge write, a full disk or a power loss;
//!   then the last line is cut. The reader skips any line that is not a
//!   whole record, with a note, and the next run starts its batch on a new
//!   line when the file does not end with one, so a cut line costs only
//!   itself.
//! - No `fsync`: the records are a by-product of a run, the kernel writes
//!   them back within seconds, and what a power loss can leave (a cut or
//!   zero-filled tail) the reader already skips. Syncing would cost every
//!   run a disk flush (milliseconds to tens of milliseconds on CI disks).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use super::record::{Record, FORMAT_VERSION};
use crate::console;
use crate::json::{Json, Writer};

/// The history directory under the target directory.
const HISTORY_DIR: &str = "history";

/// Bench target `bench_target`'s history file under `target_dir`.
pub(crate) fn file(target_dir: &Path, bench_target: &str) -> PathBuf {
    target_dir
        .join("bench-harness")
        .join(HISTORY_DIR)
        .join(format!("{bench_target}.jsonl"))
}

/// Appends `records` to the history file at `path` in one write, creating
/// the file and its directory when missing.
pub(crate) fn append(path: &Path, records: &[Record]) -> io::Result<()> {
    if records.is_empty() {
        return Ok(());
    }
    let mut batch = Vec::with_capacity(records.len() * 320);
    for record in records {
        record.write(&mut Writer::compact(&mut batch));
        batch.push(b'\n');
    }
    // Never through a planted symbolic link, never into a FIFO or a
    // device: only a regular file is appended to.
    crate::fs::append_regular(path, &batch, &mut |file| {
        // A cut line of a killed run: start on a line of our own.
        Ok(if ends_with_newline(file)? {
            Vec::new()
        } else {
            vec![b'\n']
        })
    })
}

/// Whether `file` is empty or ends with a newline.
fn ends_with_newline(file: &File) -> io::Result<bool> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        let mut last = [0u8];
        file.read_exact_at(&mut last, len - 1)?;
        Ok(last[0] == b'\n')
    }
    #[cfg(not(unix))]
    {
        Ok(true)
    }
}

/// A history file read back.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Parsed {
    /// The whole records, in file order (oldest first).
    pub(crate) records: Vec<Record>,
    /// Lines that are not a record this version reads: 1-based line
    /// numbers.
    pub(crate) skipped: Vec<usize>,
    /// The last line has no newline: a run was cut short while writing.
    pub(crate) cut_at_end: bool,
}

/// Parses a history file's text; never fails: lines that are not a whole
/// record of a version this reads are counted in `skipped`.
pub(crate) fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed {
        cut_at_end: !text.is_empty() && !text.ends_with('\n'),
        ..Parsed::default()
    };
    for (index, line) in text.split('\n').enumerate() {
        // Zero bytes: what a power loss can leave of a tail.
        let line = line.trim_matches(|c: char| c == '\0' || c.is_whitespace());
        if line.is_empty() {
            continue;
        }
        match crate::json::from_str::<Record>(line) {
            Ok(record) if record.v <= FORMAT_VERSION && record.is_plausible() => {
                parsed.records.push(record)
            }
            _ => parsed.skipped.push(index + 1),
        }
    }
    parsed
}

/// Bench target `bench_target`'s history under `target_dir`, oldest
/// first; none when it has no file yet. Lines that are not whole records
/// (a run killed while writing, a later version's) are skipped with a note
/// on stderr. An unreadable file is an error naming it.
pub(crate) fn load(target_dir: &Path, bench_target: &str) -> Result<Vec<Record>, String> {
    let path = file(target_dir, bench_target);
    let bytes = match crate::fs::read_regular(&path, MAX_HISTORY_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(Vec::new()),
        Err(error) => {
            return Err(format!(
                "cannot read the history {}: {error}; check its permissions, or remove it to \
                 start a new history",
                path.display()
            ))
        }
    };
    let parsed = parse(&String::from_utf8_lossy(&bytes));
    if let Some(note) = skipped_note(&path, &parsed) {
        console::note(&note);
    }
    Ok(parsed.records)
}

/// The largest history read: about three million records, years of runs
/// of a large suite; a bound for a file that is not what it seems.
pub(crate) const MAX_HISTORY_BYTES: u64 = 1 << 30;

/// How many skipped lines the note names: it stays one short line however
/// many there are.
const NAMED_LINES: usize = 5;

/// The note for the lines `parsed` skipped, if any: how many, the first
/// few line numbers.
pub(crate) fn skipped_note(path: &Path, parsed: &Parsed) -> Option<String> {
    let count = parsed.skipped.len();
    if count == 0 {
        return None;
    }
    let mut lines: Vec<String> = parsed
        .skipped
        .iter()
        .take(NAMED_LINES)
        .map(ToString::to_string)
        .collect();
    if count > NAMED_LINES {
        lines.push("…".to_string());
    }
    Some(format!(
        "history {}: skipped {count} line{} that {} not a whole record (line{} {}){}",
        path.display(),
        if count == 1 { "" } else { "s" },
        if count == 1 { "is" } else { "are" },
        if count == 1 { "" } else { "s" },
        lines.join(", "),
        if parsed.cut_at_end {
            "; the last was cut short by a run that was killed while writing"
        } else {
            ""
        }
    ))
}
