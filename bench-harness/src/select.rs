//! Selection: which registered benchmarks this run touches.

use crate::cli::{Args, Ignored};

/// A benchmark chosen by the filters, and whether it actually runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected<T> {
    pub name: String,
    pub bench: T,
    /// Ignored by `#[benchmark(ignore)]` and not brought back by
    /// `--ignored`/`--include-ignored`: listed as ignored, not run.
    pub ignored: bool,
}

/// Keeps the benchmarks whose name matches any filter (all, without filters)
/// and no `--skip` pattern, sorted by name. `candidates` yields
/// `(full name, is ignored, benchmark)`.
pub fn select<T>(
    args: &Args,
    candidates: impl IntoIterator<Item = (String, bool, T)>,
) -> Vec<Selected<T>> {
    let matches = |name: &str, pattern: &str| {
        if args.exact {
            name == pattern
        } else {
            name.contains(pattern)
        }
    };
    let mut selected: Vec<Selected<T>> = candidates
        .into_iter()
        .filter(|(name, _, _)| {
            args.filters.is_empty() || args.filters.iter().any(|f| matches(name, f))
        })
        .filter(|(name, _, _)| !args.skip.iter().any(|s| matches(name, s)))
        .filter_map(|(name, ignore, bench)| {
            let ignored = match args.ignored {
                Ignored::Skip => ignore,
                Ignored::Only if !ignore => return None,
                Ignored::Only | Ignored::Include => false,
            };
            Some(Selected {
                name,
                bench,
                ignored,
            })
        })
        .collect();
    selected.sort_by(|a, b| a.name.cmp(&b.name));
    selected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli;

    const SUITE: &[(&str, bool)] = &[
        ("fib_20", false),
        ("fib_30", true),
        ("sort::sort_1k", false),
        ("sort::sort_10k", false),
        ("hash::fnv", false),
    ];

    fn run(args: &[&str]) -> Vec<(String, bool)> {
        let args = cli::parse(args.iter().copied()).unwrap();
        let candidates = SUITE.iter().map(|&(n, i)| (n.to_string(), i, ()));
        select(&args, candidates)
            .into_iter()
            .map(|s| (s.name, s.ignored))
            .collect()
    }

    fn names(args: &[&str]) -> Vec<String> {
        run(args).into_iter().map(|(n, _)| n).collect()
    }

    #[test]
    fn no_filter_selects_all_sorted_by_name() {
        assert_eq!(
            names(&[]),
            [
                "fib_20",
                "fib_30",
                "hash::fnv",
                "sort::sort_10k",
                "sort::sort_1k"
            ]
        );
    }

    #[test]
    fn filters_are_substrings_and_ored() {
        assert_eq!(names(&["fib_2", "fnv"]), ["fib_20", "hash::fnv"]);
        assert_eq!(names(&["sort::"]), ["sort::sort_10k", "sort::sort_1k"]);
    }

    #[test]
    fn exact_matches_the_whole_name() {
        assert_eq!(names(&["--exact", "sort::sort_1k"]), ["sort::sort_1k"]);
        assert!(names(&["--exact", "sort_1k"]).is_empty());
    }

    #[test]
    fn skip_removes_matches() {
        assert_eq!(names(&["sort", "--skip", "10k"]), ["sort::sort_1k"]);
        assert_eq!(names(&["--skip", "sort", "--skip", "fib"]), ["hash::fnv"]);
    }

    #[test]
    fn ignored_benchmarks_are_listed_but_not_run_by_default() {
        assert_eq!(
            run(&["fib"]),
            [("fib_20".into(), false), ("fib_30".into(), true)]
        );
        assert_eq!(run(&["--ignored"]), [("fib_30".into(), false)]);
        assert_eq!(
            run(&["fib", "--include-ignored"]),
            [("fib_20".into(), false), ("fib_30".into(), false)]
        );
    }

    #[test]
    fn a_filter_matching_nothing_selects_nothing() {
        assert!(names(&["nope"]).is_empty());
    }
}
