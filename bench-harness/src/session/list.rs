//! `--list` and `--list-baselines`.

use crate::baseline::{self, Store};
use crate::cli::ListFormat;
use crate::console;

use super::rows::Selection;

/// `--list`: libtest's `NAME: benchmark` lines.
pub(super) fn names(selected: &Selection, format: ListFormat) -> Result<i32, String> {
    let names = selected.iter().map(|s| s.name.as_str());
    console::list(names, format == ListFormat::Pretty)
        .map_err(|e| format!("cannot write the list: {e}"))?;
    Ok(0)
}

/// `--list-baselines`: each baseline this bench target reads, with its
/// date, its number of benchmarks and the size of the executable it keeps
/// for this target. Each is read as a stream for those few figures, its
/// samples skipped, never kept; a FIFO, a device or a file too big to be a
/// baseline is named as such, not read.
pub(super) fn baselines(store: &Store) -> Result<i32, String> {
    let entries = store.entries();
    if entries.is_empty() {
        console::baseline_line(&format_args!(
            "no baselines saved in {} for bench target '{}'; save one with --save-baseline NAME",
            store.dir().display(),
            baseline::target_name()
        ));
        return Ok(0);
    }
    for entry in entries {
        let name = &entry.name;
        match store.summary(&entry) {
            Ok(summary) => console::baseline_line(&format_args!(
                "{name}: saved {}, {} benchmark{}, {}{}{}",
                summary.timestamp,
                summary.benchmarks,
                if summary.benchmarks == 1 { "" } else { "s" },
                match store.executable_size(name) {
                    Some(bytes) => format!("executable kept ({})", crate::text::size_text(bytes)),
                    None => "no executable for this target".to_string(),
                },
                if summary.partial {
                    ", PARTIAL (an interrupted run saved it; it cannot gate)"
                } else {
                    ""
                },
                if entry.legacy {
                    ", from before per-target baselines (shared by every target)"
                } else {
                    ""
                }
            )),
            Err(error) => console::baseline_line(&format_args!("{name}: unreadable: {error}")),
        }
    }
    Ok(0)
}
