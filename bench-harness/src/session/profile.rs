//! `--profile-time SECS` and `--flamegraph`: the selected benchmarks run
//! for a profiler instead of being measured. Nothing is saved, compared or
//! recorded in the history; `--flamegraph` writes one SVG (and its folded
//! stacks) per benchmark beside the HTML report.

use std::io::Write;
use std::path::{Path, PathBuf};

use bench_runtime::Clock;

use super::rows::{Selection, EXIT_FAILED};
use crate::baseline::{self, Store};
use crate::cli::{Against, Args, ProfileOptions};
use crate::console;
use crate::profile::{self, diff, Perf, ProfileError, Ran};
use crate::report::format;
use crate::report::html::{flamegraph, Place};
use crate::supervisor::Program;

/// `--profile-time SECS`: each selected benchmark's routine back to back
/// for SECS, one line each on stderr.
pub(super) fn profile_time(selected: &Selection, seconds: f64) -> Result<i32, String> {
    let clock = Clock::os();
    let record = profile::record_path();
    let mut code = 0;
    for s in selected.iter().filter(|s| !s.ignored) {
        let profiled = match crate::run::profile_for(&s.bench, clock, seconds) {
            Ok(profiled) => profiled,
            Err(failure) => {
                console::error(&format_args!(
                    "{} FAILED under --profile-time: {}",
                    format::escape(&s.name),
                    failure.message
                ));
                code = EXIT_FAILED;
                continue;
            }
        };
        console::status(&format_args!(
            "profiled {}: its routine ran {} iterations back to back for {:.2} s on thread \
             '{}'{}; nothing was measured or saved",
            format::escape(&s.name),
            format::count(profiled.iterations),
            profiled.seconds,
            format::escape(&s.name),
            profiled
                .thread_id
                .map(|t| format!(" (thread id {t})"))
                .unwrap_or_default()
        ));
        if let (Some(path), Some(thread_id)) = (&record, profiled.thread_id) {
            let ran = Ran {
                iterations: profiled.iterations,
                seconds: profiled.seconds,
                thread_id,
            };
            let written = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .and_then(|mut f| f.write_all(ran.line().as_bytes()));
            if let Err(error) = written {
                return Err(format!("cannot write {}: {error}", path.display()));
            }
        }
        if profiled.interrupted {
            console::status(&"interrupted: profiling stopped at Ctrl-C");
            return Ok(bench_runtime::signal::EXIT_INTERRUPTED);
        }
    }
    Ok(code)
}

/// `--flamegraph`: each selected benchmark profiled under perf in a
/// process of its own, and drawn; with `--against`, the other build too,
/// and drawn as the change between them.
pub(super) fn flamegraphs(
    args: &Args,
    selected: &Selection,
    store: &Store,
    report: Option<&Place>,
) -> Result<i32, String> {
    let seconds = args
        .profile
        .time
        .unwrap_or(ProfileOptions::DEFAULT_FLAMEGRAPH_SECS);
    // `--baseline NAME`: the executable kept with it.
    let kept = args.baselines.compare.clone().map(Against::Baseline);
    let other = match args.baselines.against.as_ref().or(kept.as_ref()) {
        Some(against) => Some(other_build(against, store)?),
        None => None,
    };
    let scratch = profile::scratch().map_err(message)?;
    let perf =
        Perf::locate(std::env::var_os("PATH").as_deref(), scratch.path()).map_err(message)?;
    // Both builds held open, as --forks and --against hold theirs: a
    // rebuild meanwhile cannot profile another program.
    let this = Program::open()?;
    let other = match other {
        Some((exe, name)) => Some((Program::at(&exe)?, name)),
        None => None,
    };
    let dir = flamegraph_dir(report, store);
    let mut written: Vec<PathBuf> = Vec::new();
    let mut code = 0;
    for (index, s) in selected.iter().filter(|s| !s.ignored).enumerate() {
        console::status(&format_args!(
            "profiling {} for {seconds} s under perf{}",
            format::escape(&s.name),
            if other.is_some() {
                ", in both builds"
            } else {
                ""
            }
        ));
        let started = this
            .check()
            .and_then(|()| other.as_ref().map_or(Ok(()), |(exe, _)| exe.check()))
            .map_err(|why| ProfileError::Unusable(format!("perf was not started: {why}")));
        let profiled = started
            .and_then(|()| {
                perf.profile(
                    this.paths().0,
                    &s.name,
                    seconds,
                    scratch.path(),
                    &format!("this-{index}"),
                )
            })
            .and_then(|mine| match &other {
                None => Ok((mine, None)),
                Some((exe, _)) => perf
                    .profile(
                        exe.paths().0,
                        &s.name,
                        seconds,
                        scratch.path(),
                        &format!("other-{index}"),
                    )
                    .map(|theirs| (mine, Some(theirs))),
            });
        let (mine, theirs) = match profiled {
            Ok(both) => both,
            Err(ProfileError::Interrupted) => {
                console::status(&"interrupted: profiling stopped at Ctrl-C");
                return Ok(bench_runtime::signal::EXIT_INTERRUPTED);
            }
            Err(ProfileError::Unusable(error)) => return Err(error),
            Err(ProfileError::Failed(error)) => {
                console::error(&format_args!(
                    "{} could not be profiled: {error}",
                    format::escape(&s.name)
                ));
                code = EXIT_FAILED;
                continue;
            }
        };
        if mine.folded.samples == 0 {
            console::error(&format_args!(
                "{}: perf took no sample of its routine's thread in {seconds} s; give a \
                 longer --profile-time",
                format::escape(&s.name)
            ));
            code = EXIT_FAILED;
            continue;
        }
        let title = format!("{} ({})", s.name, baseline::target_name());
        let (svg, table) = match (&theirs, &other) {
            (Some(theirs), Some((_, shown))) => {
                let prefixes = diff::prefixes(mine.side(), theirs.side());
                let changes = diff::functions(mine.side(), theirs.side());
                let svg = flamegraph::render(&flamegraph::Graph {
                    title: &title,
                    subtitle: &format!(
                        "against {shown}: red grew, blue shrank, in time per iteration \
                         ({} this build, {} the other)",
                        format::time(mine.side().iteration()),
                        format::time(theirs.side().iteration())
                    ),
                    folded: &mine.folded,
                    change: Some(&prefixes),
                });
                (
                    svg,
                    Some(flamegraph::change_table(&s.name, shown, &changes)),
                )
            }
            _ => {
                let routine = mine.folded.in_routine() as f64 / mine.folded.samples as f64;
                let svg = flamegraph::render(&flamegraph::Graph {
                    title: &title,
                    subtitle: &format!(
                        "{} samples of its thread, {} of them in the routine; {} iterations \
                         in {:.2} s",
                        format::count(mine.folded.samples),
                        format::percent(routine),
                        format::count(mine.iterations),
                        mine.seconds
                    ),
                    folded: &mine.folded,
                    change: None,
                });
                (svg, None)
            }
        };
        let path = dir.join(format!("{}.svg", file_name(&s.name)));
        let folded = path.with_extension("folded");
        let write = claim_report_dir(report, store)
            .and_then(|()| std::fs::create_dir_all(&dir))
            .and_then(|()| crate::fs::write_atomically(&folded, mine.folded.text().as_bytes()))
            .and_then(|()| crate::fs::write_atomically(&path, svg.as_bytes()));
        if let Err(error) = write {
            return Err(format!("cannot write {}: {error}", path.display()));
        }
        if let Some(table) = table {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(table.as_bytes());
        }
        written.push(path);
    }
    for path in &written {
        console::status(&format_args!("wrote the flame graph {}", path.display()));
    }
    Ok(code)
}

fn message(error: ProfileError) -> String {
    match error {
        ProfileError::Unusable(text) | ProfileError::Failed(text) => text,
        ProfileError::Interrupted => "interrupted".to_string(),
    }
}

/// The other build's executable and how to name it.
fn other_build(against: &Against, store: &Store) -> Result<(PathBuf, String), String> {
    match against {
        Against::Baseline(name) => store
            .executable(name)
            .map(|exe| (exe, format!("baseline '{name}'")))
            .map_err(|e| e.to_string()),
        Against::Exe(given) => {
            // As --against's own: a bare name is this directory's, never
            // one found on $PATH.
            let path = std::path::absolute(given).unwrap_or_else(|_| Path::new(".").join(given));
            if path.is_file() {
                Ok((path, given.display().to_string()))
            } else {
                Err(format!(
                    "--against-exe {}: no such file; give the path of a bench executable \
                     (target/release/deps/NAME-HASH, as `cargo bench --no-run` prints)",
                    given.display()
                ))
            }
        }
    }
}

/// Where the flame graphs go: `flamegraph/` in the HTML report's
/// directory for this target (the default report's without one).
fn flamegraph_dir(report: Option<&Place>, store: &Store) -> PathBuf {
    let target = baseline::target_name();
    match report {
        Some(Place::File(file)) => file
            .parent()
            .map_or_else(|| PathBuf::from("flamegraph"), |d| d.join("flamegraph")),
        Some(Place::Directory(dir)) => dir.join(&target).join("flamegraph"),
        None => super::html::default_dir(store)
            .join(target)
            .join("flamegraph"),
    }
}

/// Marks the report directory the flame graphs go into as the harness's,
/// as a report would (a `--report FILE.html`'s directory is the user's).
fn claim_report_dir(report: Option<&Place>, store: &Store) -> std::io::Result<()> {
    match report {
        Some(Place::File(_)) => Ok(()),
        Some(Place::Directory(dir)) => super::html::claim(dir),
        None => super::html::claim(&super::html::default_dir(store)),
    }
}

/// A benchmark's name as a file name: `::` and `/` become `.` and `-`,
/// anything else but letters, digits, `_` and `-` becomes `_`.
pub(super) fn file_name(name: &str) -> String {
    name.replace("::", ".")
        .replace('/', "-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .trim_start_matches('.')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::file_name;

    #[test]
    fn benchmark_names_become_plain_file_names() {
        assert_eq!(file_name("scaling::sort/1000"), "scaling.sort-1000");
        assert_eq!(file_name("sort/kernels::sort_1k"), "sort-kernels.sort_1k");
        assert_eq!(file_name("../x y"), "-x_y");
    }
}
