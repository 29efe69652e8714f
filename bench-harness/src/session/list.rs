//! `--list` and `--list-baselines`.

use crate::baseline::{self, Store};
use crate::cli::ListFormat;
use crate::report::console;

use super::rows::Selection;

/// `--list`: libtest's `NAME: benchmark` lines.
pub(super) fn names(selected: &Selection, format: ListFormat) -> Result<i32, String> {
    let names = selected.iter().map(|s| s.name.as_str());
    console::list(names, format == ListFormat::Pretty)
        .map_err(|e| format!("cannot write the list: {e}"))?;
    Ok(0)
}

/// `--list-baselines`: each saved baseline with its date, its number of
/// benchmarks and the size of the executable it keeps for this target.
pub(super) fn baselines(store: &Store) -> Result<i32, String> {
    let names = store.names();
    if names.is_empty() {
        console::baseline_line(&format_args!(
            "no baselines saved in {}; save one with --save-baseline NAME",
            store.dir().display()
        ));
        return Ok(0);
    }
    let target = baseline::target_name();
    for name in names {
        match store.load(&name) {
            Ok(document) => console::baseline_line(&format_args!(
                "{name}: saved {}, {} benchmarks, {}",
                document.environment.timestamp,
                document.benchmarks.len(),
                match store.executable_size(&name, &target) {
                    Some(bytes) => format!("executable kept ({})", baseline::size_text(bytes)),
                    None => "no executable for this target".to_string(),
                }
            )),
            Err(error) => console::baseline_line(&format_args!("{name}: unreadable: {error}")),
        }
    }
    Ok(0)
}
