//! Selection: which registered benchmarks this run touches.

/// Which names the run selects: the command line's filters, `--exact`,
/// `--skip` and the `ignore` handling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    /// Substrings of the full name, OR-ed; empty selects everything.
    pub patterns: Vec<String>,
    /// Patterns and skips match the whole name instead of a substring.
    pub exact: bool,
    /// Names containing any of these are left out.
    pub skip: Vec<String>,
    /// What `#[benchmark(ignore)]` leaves in.
    pub ignored: Ignored,
}

/// Which benchmarks `#[benchmark(ignore)]` leaves in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Ignored {
    /// The default: ignored benchmarks are skipped (and shown as ignored).
    #[default]
    Skip,
    /// `--ignored`: only the ignored ones.
    Only,
    /// `--include-ignored`: all of them.
    Include,
}

/// A benchmark chosen by the filters, and whether it actually runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Selected<T> {
    pub name: String,
    pub bench: T,
    /// Ignored by `#[benchmark(ignore)]` and not brought back by
    /// `--ignored`/`--include-ignored`: listed as ignored, not run.
    pub ignored: bool,
}

/// Keeps the benchmarks whose name matches any filter (all, without filters)
/// and no `--skip` pattern, in natural order of their names (`sort/2`
/// before `sort/10`, see [`natural_cmp`]). `candidates` yields
/// `(full name, is ignored, benchmark)`.
pub(crate) fn select<T>(
    filter: &Filter,
    candidates: impl IntoIterator<Item = (String, bool, T)>,
) -> Vec<Selected<T>> {
    let matches = |name: &str, pattern: &str| {
        if filter.exact {
            name == pattern
        } else {
            name.contains(pattern)
        }
    };
    let mut selected: Vec<Selected<T>> = candidates
        .into_iter()
        .filter(|(name, _, _)| {
            filter.patterns.is_empty() || filter.patterns.iter().any(|f| matches(name, f))
        })
        .filter(|(name, _, _)| !filter.skip.iter().any(|s| matches(name, s)))
        .filter_map(|(name, ignore, bench)| {
            let ignored = match filter.ignored {
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
    selected.sort_by(|a, b| natural_cmp(&a.name, &b.name));
    selected
}

/// Compares names as people read them: runs of digits by their numeric
/// value (`sort/2` < `sort/10` < `sort/100`), everything else by character.
/// Numbers that are equal in value but written differently (`007`, `7`)
/// fall back to plain order, so the order is total.
pub(crate) fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut a_rest, mut b_rest) = (a, b);
    loop {
        let (a_chunk, a_tail) = chunk(a_rest);
        let (b_chunk, b_tail) = chunk(b_rest);
        if a_chunk.is_empty() || b_chunk.is_empty() {
            return a_chunk.len().cmp(&b_chunk.len()).then_with(|| a.cmp(b));
        }
        let is_number = |c: &str| c.starts_with(|ch: char| ch.is_ascii_digit());
        let order = if is_number(a_chunk) && is_number(b_chunk) {
            let (a_digits, b_digits) = (
                a_chunk.trim_start_matches('0'),
                b_chunk.trim_start_matches('0'),
            );
            a_digits
                .len()
                .cmp(&b_digits.len())
                .then_with(|| a_digits.cmp(b_digits))
        } else {
            a_chunk.cmp(b_chunk)
        };
        if order.is_ne() {
            return order;
        }
        (a_rest, b_rest) = (a_tail, b_tail);
    }
}

/// The leading run of digits, or of non-digits, and what follows it.
fn chunk(text: &str) -> (&str, &str) {
    let digits = text.starts_with(|c: char| c.is_ascii_digit());
    let end = text
        .find(|c: char| c.is_ascii_digit() != digits)
        .unwrap_or(text.len());
    text.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE: &[(&str, bool)] = &[
        ("fib_20", false),
        ("fib_30", true),
        ("sort::sort_1k", false),
        ("sort::sort_10k", false),
        ("hash::fnv", false),
    ];

    /// The filter a command line's words describe: patterns, and `--exact`,
    /// `--skip X`, `--ignored`, `--include-ignored`.
    fn filter(words: &[&str]) -> Filter {
        let mut filter = Filter::default();
        let mut words = words.iter();
        while let Some(&word) = words.next() {
            match word {
                "--exact" => filter.exact = true,
                "--skip" => filter.skip.push(words.next().unwrap().to_string()),
                "--ignored" => filter.ignored = Ignored::Only,
                "--include-ignored" => filter.ignored = Ignored::Include,
                pattern => filter.patterns.push(pattern.to_string()),
            }
        }
        filter
    }

    fn run(words: &[&str]) -> Vec<(String, bool)> {
        let args = filter(words);
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
    fn no_filter_selects_all_in_natural_order() {
        assert_eq!(
            names(&[]),
            [
                "fib_20",
                "fib_30",
                "hash::fnv",
                "sort::sort_1k",
                "sort::sort_10k"
            ]
        );
    }

    #[test]
    fn filters_are_substrings_and_ored() {
        assert_eq!(names(&["fib_2", "fnv"]), ["fib_20", "hash::fnv"]);
        assert_eq!(names(&["sort::"]), ["sort::sort_1k", "sort::sort_10k"]);
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

    #[test]
    fn numbers_in_names_sort_by_value() {
        let mut names = vec![
            "sort/1000",
            "sort/10",
            "sort/2",
            "sort/100",
            "sort_by/5",
            "hash/u64",
            "hash/u32",
            "hash/u8",
            "sort/007",
            "sort/7",
        ];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            [
                "hash/u8",
                "hash/u32",
                "hash/u64",
                "sort/2",
                "sort/007",
                "sort/7",
                "sort/10",
                "sort/100",
                "sort/1000",
                "sort_by/5",
            ]
        );
    }

    #[test]
    fn natural_order_is_total_and_agrees_with_equality() {
        use std::cmp::Ordering;
        let names = ["a", "a1", "a01", "a1b", "a10", "b", "", "1", "01", "z9z"];
        for x in names {
            for y in names {
                let order = natural_cmp(x, y);
                assert_eq!(order == Ordering::Equal, x == y, "{x} vs {y}");
                assert_eq!(natural_cmp(y, x), order.reverse(), "{x} vs {y}");
            }
        }
    }
}
