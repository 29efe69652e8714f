//! Selection: which registered benchmarks this run touches.

/// Which names the run selects: the command line's filters, `--exact`,
/// `--skip` and the `ignore` handling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    /// Patterns of the full name, OR-ed; empty selects everything. Each is
    /// a substring, or, written as one, a regular expression (see
    /// [`Pattern`]).
    pub patterns: Vec<String>,
    /// Patterns and skips match the whole name instead.
    pub exact: bool,
    /// Names containing any of these are left out (substrings, as
    /// libtest's `--skip`).
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

/// One filter pattern: it selects a name that contains it (libtest's
/// filters) or, when it is written with a regular expression's syntax,
/// a name the expression matches anywhere in (criterion's filters, so
/// `'sort/10+$'` selects `sort/100` and not `sort/1001`). Both are tried:
/// a name that holds a `.` or a `(` is still found by itself.
struct Pattern<'a> {
    text: &'a str,
    regex: Option<regex_lite::Regex>,
}

impl<'a> Pattern<'a> {
    fn new(text: &'a str) -> Self {
        let regex = looks_like_regex(text)
            .then(|| regex_lite::Regex::new(text).ok())
            .flatten();
        Pattern { text, regex }
    }

    fn matches(&self, name: &str) -> bool {
        name.contains(self.text) || self.regex.as_ref().is_some_and(|r| r.is_match(name))
    }
}

/// Whether `pattern` uses a regular expression's syntax; otherwise the
/// expression would mean the substring itself.
fn looks_like_regex(pattern: &str) -> bool {
    pattern.contains(|c: char| "\\.^$*+?()[]{}|".contains(c))
}

/// Keeps the benchmarks whose name matches any filter (all, without filters)
/// and no `--skip` pattern, in the order of `candidates`, which yields
/// `(full name, is ignored, benchmark)`.
pub(crate) fn select<T>(
    filter: &Filter,
    candidates: impl IntoIterator<Item = (String, bool, T)>,
) -> Vec<Selected<T>> {
    let patterns: Vec<Pattern<'_>> = filter.patterns.iter().map(|p| Pattern::new(p)).collect();
    let selects = |name: &str| {
        patterns.is_empty()
            || patterns.iter().any(|p| match filter.exact {
                true => name == p.text,
                false => p.matches(name),
            })
    };
    let skips = |name: &str| match filter.exact {
        true => filter.skip.iter().any(|s| name == s),
        false => filter.skip.iter().any(|s| name.contains(s.as_str())),
    };
    candidates
        .into_iter()
        .filter(|(name, _, _)| selects(name) && !skips(name))
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
        .collect()
}

/// A filter written as a regular expression that matched no name: worth
/// saying, since it would otherwise select nothing in silence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SilentRegex {
    pub pattern: String,
    /// Why it is not read as a regular expression, when it is not one.
    pub invalid: Option<String>,
}

/// The patterns of `filter` that look like regular expressions and match
/// none of `names` (with `--exact`, none: they are names there).
pub(crate) fn silent_regexes<'a>(
    filter: &Filter,
    names: impl Iterator<Item = &'a str> + Clone,
) -> Vec<SilentRegex> {
    if filter.exact {
        return Vec::new();
    }
    filter
        .patterns
        .iter()
        .filter(|text| looks_like_regex(text))
        .filter(|text| {
            let pattern = Pattern::new(text);
            !names.clone().any(|name| pattern.matches(name))
        })
        .map(|text| SilentRegex {
            pattern: text.clone(),
            invalid: regex_lite::Regex::new(text).err().map(|e| regex_error(&e)),
        })
        .collect()
}

/// The reason in a regex error, without its picture of the pattern.
fn regex_error(error: &regex_lite::Error) -> String {
    let text = error.to_string();
    let reason = text.lines().rev().find(|line| !line.trim().is_empty());
    let reason = reason.unwrap_or(&text).trim();
    reason.strip_prefix("error: ").unwrap_or(reason).to_string()
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
    fn no_filter_selects_all_in_the_given_order() {
        assert_eq!(
            names(&[]),
            [
                "fib_20",
                "fib_30",
                "sort::sort_1k",
                "sort::sort_10k",
                "hash::fnv"
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

    fn sizes(words: &[&str]) -> Vec<String> {
        let candidates = [
            "scaling::sort/10",
            "scaling::sort/100",
            "scaling::sort/1000",
        ]
        .into_iter()
        .chain(["scaling::sort/10000", "scaling::sort/1001", "sort/10x"])
        .map(|name| (name.to_string(), false, ()));
        select(&filter(words), candidates)
            .into_iter()
            .map(|s| s.name)
            .collect()
    }

    #[test]
    fn a_filter_in_regex_syntax_matches_as_criterion_s_do() {
        // `0+` is one zero or more: `sort/10` too, as in criterion.
        assert_eq!(
            sizes(&["sort/10+$"]),
            [
                "scaling::sort/10",
                "scaling::sort/100",
                "scaling::sort/1000",
                "scaling::sort/10000"
            ]
        );
        assert_eq!(
            sizes(&["sort/100+$"]),
            [
                "scaling::sort/100",
                "scaling::sort/1000",
                "scaling::sort/10000"
            ]
        );
        assert_eq!(sizes(&["^sort"]), ["sort/10x"]);
        assert_eq!(
            sizes(&["sort/1.0?0$", "x$"]),
            ["scaling::sort/100", "scaling::sort/1000", "sort/10x"]
        );
    }

    #[test]
    fn a_pattern_is_still_found_as_a_substring() {
        let candidates =
            ["parse/(1, 2)", "parse/[3]", "parse/1.5"].map(|name| (name.to_string(), false, ()));
        let found = |pattern: &str| {
            select(&filter(&[pattern]), candidates.clone())
                .into_iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
        };
        // Not valid as a regex, or a regex that misses the literal text.
        assert_eq!(found("(1, 2"), ["parse/(1, 2)"]);
        assert_eq!(found("(1, 2)"), ["parse/(1, 2)"]);
        assert_eq!(found("[3]"), ["parse/[3]"]);
        assert_eq!(found("1.5"), ["parse/1.5"]);
    }

    #[test]
    fn exact_names_are_not_regexes() {
        assert!(sizes(&["--exact", "scaling::sort/10+"]).is_empty());
        assert_eq!(sizes(&["--exact", "sort/10x"]), ["sort/10x"]);
    }

    #[test]
    fn a_regex_that_matched_nothing_is_reported() {
        let names = ["find_byte/naive/1024", "find_byte/memchr/1024"];
        let silent = |words: &[&str]| silent_regexes(&filter(words), names.iter().copied());
        assert!(silent(&["find_byte/.*/1024", "nope"]).is_empty());
        assert_eq!(
            silent(&["find_byte/.*/4096", "naive"]),
            [SilentRegex {
                pattern: "find_byte/.*/4096".into(),
                invalid: None
            }]
        );
        let broken = silent(&["find_byte/(naive"]);
        assert_eq!(broken.len(), 1);
        assert!(
            broken[0]
                .invalid
                .as_deref()
                .is_some_and(|e| e.contains("without closing ')'")),
            "{broken:?}"
        );
        assert!(silent(&["--exact", "find.*"]).is_empty());
    }
}
