//! The warm pass: a benchmark whose interleaved slices cost more the
//! longer it was paused before them (`Note::ColdAfterPause`: its caches and
//! TLB cooled while the others ran) is measured again, in one stretch per
//! process (the sequential schedule), so that its time is the warm cost a
//! loop running it alone reads. Its note keeps what the interleaved run
//! showed, and its time there.
//!
//! A pointer chase through 128 MiB read 1.2-1.5x its plain loop
//! interleaved with five others, and 0.99-1.05x in one stretch (issue 24;
//! docs/ARCHITECTURE.md, *Decisions*).

use std::time::Instant;

use super::collect;
use super::plan::{self, Processes, Reference};
use super::rows::Selection;
use crate::cli;
use crate::console;
use crate::report::progress;
use crate::results::{BenchResult, Note, Outcome};
use crate::settings::{Schedule, Settings};
use bench_runtime::Nanos;

/// Measures again, in one stretch per process, each of `results` (the
/// run's rows of `selected`, measured interleaved under `settings`) whose
/// note says it cooled between slices, and replaces its measurement with
/// that one; a failure there fails the row. Not the rows the run's A/B
/// units pair (`paired`: their comparison pairs interleaved rounds), nor
/// under `--cold`, where each sample starts cold by request, nor a name
/// two benchmarks share (`--forks 0` allows it), which cannot be told
/// apart. After Ctrl-C the rows keep their interleaved measurements; the
/// caller reads the interruption once every pass has ended.
pub(super) fn remeasure(
    settings: &Settings,
    selected: &Selection,
    results: &mut [BenchResult],
    (forks, paired): (usize, &[String]),
    quiet: bool,
) {
    if settings.schedule_or_default() != Schedule::Interleaved || settings.cold_or_default() {
        return;
    }
    let cooled = |r: &BenchResult| match &r.outcome {
        Outcome::Measured(m) => {
            !paired.contains(&r.name)
                && m.notes
                    .iter()
                    .any(|n| matches!(n, Note::ColdAfterPause { .. }))
        }
        _ => false,
    };
    let unique = |r: &BenchResult| results.iter().filter(|o| o.name == r.name).count() == 1;
    let names: Vec<&str> = (results.iter().filter(|r| cooled(r) && unique(r)))
        .map(|r| r.name.as_str())
        .collect();
    if names.is_empty() {
        return;
    }
    let again: Vec<_> = (selected.iter())
        .filter(|s| names.contains(&s.name.as_str()))
        .cloned()
        .collect();
    console::status(&format_args!(
        "measuring again in one stretch, warm: {} (its slices cost more after longer pauses)",
        names.join(", ")
    ));
    let warm = Settings {
        schedule: Some(Schedule::Sequential),
        ..*settings
    };
    let plan = match plan::plan(&warm, &again, None, Reference::Off, Processes::forks(forks)) {
        Ok(plan) => plan,
        Err(why) => return console::status(&format_args!("not measured again: {why}")),
    };
    let collected = collect::collect(
        &plan,
        &again,
        forks,
        &cli::worker_args(&warm),
        (progress::Mode::for_stderr(quiet), Instant::now()),
    );
    if collected.info.partial {
        return;
    }
    for warm in collected.results {
        let Some(row) = results.iter_mut().find(|r| r.name == warm.name) else {
            continue;
        };
        let mut warm_m = match warm.outcome {
            Outcome::Measured(warm_m) => warm_m,
            // It failed this time: the row says so, and the run fails.
            failed @ Outcome::Failed(_) => {
                row.outcome = failed;
                continue;
            }
            _ => continue,
        };
        let Outcome::Measured(cold_m) = &row.outcome else {
            continue;
        };
        // Its note, now with the interleaved time.
        let time = Nanos(cold_m.headline());
        let cooled = cold_m.notes.iter().cloned().filter_map(|mut note| {
            let Note::ColdAfterPause { interleaved, .. } = &mut note else {
                return None;
            };
            *interleaved = Some(time);
            Some(note)
        });
        warm_m.notes.extend(cooled);
        row.outcome = Outcome::Measured(warm_m);
    }
}
