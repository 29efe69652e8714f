//! A saved baseline keeps a copy of the bench executable that saved it,
//! `NAME/TARGET.exe` beside `NAME/TARGET.json`, one per bench target, unless
//! `--no-keep-exe`; `--list-baselines` says which are kept. Each test keeps
//! its baselines in a target directory of its own through CARGO_TARGET_DIR.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use bench_tests::{run, run_with_env, scratch_dir, suite_binary, Run, QUICK};

use crate::common::fixture_binary;

fn baselines_dir(target: &Path) -> PathBuf {
    target.join("bench-harness").join("baselines")
}

/// The files in the baselines directory and one level below
/// (`NAME/TARGET.json`), sorted.
fn files(target: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(baselines_dir(target)).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            for inner in std::fs::read_dir(entry.path()).unwrap() {
                let inner = inner.unwrap().file_name();
                names.push(format!("{name}/{}", inner.to_string_lossy()));
            }
        } else {
            names.push(name);
        }
    }
    names.sort();
    names
}

/// Runs `binary` with CARGO_TARGET_DIR=`target` and `args`.
fn run_in(target: &Path, binary: &Path, args: &[&str]) -> Run {
    run_with_env(binary, args, &[("CARGO_TARGET_DIR", target.as_os_str())])
}

/// Measures `benchmark` alone with quick budgets and `args`.
fn save(target: &Path, binary: &Path, benchmark: &str, args: &[&str]) -> Run {
    let mut all = QUICK.to_vec();
    all.extend_from_slice(&["--exact", benchmark]);
    all.extend_from_slice(args);
    run_in(target, binary, &all)
}

/// `suite-<16 hex digits>`, as cargo names a bench target's executable.
fn is_cargo_hashed(binary: &Path) -> bool {
    let name = binary.file_stem().unwrap().to_string_lossy();
    name.rsplit_once('-')
        .is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[test]
fn a_saved_baseline_keeps_a_runnable_executable_per_bench_target() {
    let target = scratch_dir("kept-exe-per-target");
    let suite = suite_binary();
    assert!(is_cargo_hashed(suite), "{}", suite.display());
    let out = save(
        &target,
        suite,
        "primitives::int_add",
        &["--save-baseline", "x"],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr.contains("saved baseline 'x' to ") && out.stderr.contains("(executable kept: "),
        "{}",
        out.stderr
    );
    // The same name saved by another bench target keeps its executable
    // beside the first, not over it.
    let out = save(
        &target,
        fixture_binary(),
        "passes",
        &["--save-baseline", "x"],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(
        files(&target),
        [
            "x/fixture.exe",
            "x/fixture.json",
            "x/suite.exe",
            "x/suite.json"
        ]
    );

    let kept = baselines_dir(&target).join("x/suite.exe");
    assert_eq!(
        std::fs::metadata(&kept).unwrap().len(),
        std::fs::metadata(suite).unwrap().len()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&kept).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{mode:o}");
    }
    // The copy is the suite: it runs and lists the same benchmarks.
    let original = run(suite, &["--list"]);
    let copy = run(&kept, &["--list"]);
    assert_eq!(copy.code, Some(0), "{copy:?}");
    assert!(original.listed().contains(&"primitives::int_add"));
    assert_eq!(copy.listed(), original.listed());
    // Each copy is tens of megabytes in a debug build.
    let _ = std::fs::remove_dir_all(&target);
}

#[test]
fn no_keep_exe_saves_the_document_alone_and_drops_an_earlier_copy() {
    let target = scratch_dir("kept-exe-skipped");
    let out = save(
        &target,
        fixture_binary(),
        "passes",
        &["--save-baseline", "y"],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(files(&target), ["y/fixture.exe", "y/fixture.json"]);
    // That copy is not this run's build: it goes with the document it
    // belonged to.
    let out = save(
        &target,
        fixture_binary(),
        "passes",
        &["--save-baseline", "y", "--no-keep-exe"],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(
        out.stderr.contains("(no executable kept: --no-keep-exe)"),
        "{}",
        out.stderr
    );
    assert_eq!(files(&target), ["y/fixture.json"]);
    let _ = std::fs::remove_dir_all(&target);
}

#[test]
fn a_failed_copy_keeps_the_document_and_says_which_part_failed() {
    let target = scratch_dir("kept-exe-copy-fails");
    // A directory where the copy should go: the rename onto it fails.
    let blocked = baselines_dir(&target).join("z/fixture.exe");
    std::fs::create_dir_all(blocked.join("inside")).unwrap();
    let out = save(
        &target,
        fixture_binary(),
        "passes",
        &["--save-baseline", "z"],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    let errors: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(errors.len(), 1, "{}", out.stderr);
    assert!(
        errors[0].contains("baseline 'z' is saved, but not its executable")
            && errors[0].contains("z/fixture.exe")
            && errors[0].contains("--no-keep-exe"),
        "{}",
        errors[0]
    );
    let document = std::fs::read(baselines_dir(&target).join("z/fixture.json")).unwrap();
    let document: serde_json::Value = serde_json::from_slice(&document).unwrap();
    assert_eq!(document["benchmarks"][0]["name"], "passes");
    assert_eq!(
        files(&target),
        ["z/fixture.exe", "z/fixture.json"],
        "no temporaries"
    );
    assert!(blocked.is_dir());
    let _ = std::fs::remove_dir_all(&target);
}

#[test]
fn list_baselines_says_which_keep_an_executable_and_its_size() {
    let target = scratch_dir("kept-exe-listed");
    let fixture = fixture_binary();
    let kept = save(&target, fixture, "passes", &["--save-baseline", "kept"]);
    assert_eq!(kept.code, Some(0), "{kept:?}");
    let without = save(
        &target,
        fixture,
        "passes",
        &["--save-baseline", "without", "--no-keep-exe"],
    );
    assert_eq!(without.code, Some(0), "{without:?}");

    let out = run_in(&target, fixture, &["--list-baselines"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "only the documents are baselines: {lines:?}"
    );
    assert!(lines[0].starts_with("kept: saved 20"), "{}", lines[0]);
    assert!(
        lines[0].contains(", 1 benchmark, executable kept (") && lines[0].ends_with("B)"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("without: saved 20")
            && lines[1].ends_with(", 1 benchmark, no executable for this target"),
        "{}",
        lines[1]
    );
    // Another bench target has none of these.
    let out = run_in(&target, suite_binary(), &["--list-baselines"]);
    assert!(
        out.stdout.starts_with("no baselines saved in ")
            && out.stdout.contains("for bench target 'suite'"),
        "{}",
        out.stdout
    );
    let _ = std::fs::remove_dir_all(&target);
}

#[test]
fn no_keep_exe_without_save_baseline_is_refused() {
    let target = scratch_dir("kept-exe-refused");
    for args in [
        &["--bench", "--no-keep-exe"][..],
        &["--list-baselines", "--no-keep-exe"],
    ] {
        let out = run_with_env(
            fixture_binary(),
            args,
            &[("CARGO_TARGET_DIR", OsStr::new(&target))],
        );
        assert_eq!(out.code, Some(2), "{out:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(
            out.stderr
                .contains("--no-keep-exe goes with --save-baseline NAME"),
            "{}",
            out.stderr
        );
        assert!(!out.stdout.contains("measured"), "{}", out.stdout);
    }
    assert!(!baselines_dir(&target).exists());
}
