//! `--history`: the selected benchmarks' last runs from this bench
//! target's history file, change points marked. Nothing is measured.

use std::io::{self, Write};

use crate::baseline::{self, Store};
use crate::history;
use crate::report::history::{self as shown, Shown};

use super::rows::Selection;

/// Prints each selected benchmark's last runs.
pub(super) fn show(store: &Store, selected: &Selection) -> Result<i32, String> {
    let target_dir = history::target_dir(store);
    let target = baseline::target_name();
    let records = history::load(&target_dir, &target)?;
    let benchmarks: Vec<Shown<'_>> = selected
        .iter()
        .map(|selection| {
            let runs: Vec<&history::Record> = records
                .iter()
                .filter(|r| r.name == selection.name)
                .collect();
            let changes = history::steps(&runs);
            Shown {
                name: &selection.name,
                runs,
                changes,
            }
        })
        .collect();
    let path = history::file(&target_dir, &target);
    let mut stdout = io::stdout().lock();
    match shown::write(&mut stdout, &path, &benchmarks).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the history to stdout: {error}"))
        }
        _ => Ok(0),
    }
}
