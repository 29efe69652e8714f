//! Fitting text to the terminal's width: how wide the terminal is, names
//! shortened in the middle, long lines wrapped at their separators, and a
//! list of names cut to the first few.
//!
//! Widths are counted in characters: everything the table prints (names
//! escaped by [`crate::report::format::escape`], units, `±`, `µ`, the
//! tree's box-drawing characters) is one column per character.

use std::borrow::Cow;

/// The width used when neither the terminal nor `COLUMNS` says one.
pub(crate) const DEFAULT_WIDTH: usize = 100;

/// Below this, no layout fits; a narrower terminal gets lines this wide.
pub(crate) const MIN_WIDTH: usize = 40;

/// The width of the table on standard output: the terminal's, else the
/// `COLUMNS` variable's, else [`DEFAULT_WIDTH`].
pub(crate) fn stdout_width() -> usize {
    let terminal = bench_runtime::stdio::stdout_columns();
    width_from(terminal, std::env::var("COLUMNS").ok().as_deref())
}

/// The width of a table written to a file: `COLUMNS`, else
/// [`DEFAULT_WIDTH`] (the terminal the command runs in does not read it).
pub(crate) fn file_width() -> usize {
    width_from(None, std::env::var("COLUMNS").ok().as_deref())
}

/// The terminal's width when it has one, else `COLUMNS` when it is a
/// positive number, else [`DEFAULT_WIDTH`]; never below [`MIN_WIDTH`].
pub(crate) fn width_from(terminal: Option<usize>, columns: Option<&str>) -> usize {
    terminal
        .filter(|&w| w > 0)
        .or_else(|| columns?.trim().parse().ok().filter(|&w: &usize| w > 0))
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// The width of `text` in columns.
pub(crate) fn columns(text: &str) -> usize {
    text.chars().count()
}

/// `text` in at most `width` columns, its middle replaced by `…` when it is
/// longer: `kernels::parse_f64` in 12 is `kernel…e_f64`. The start names
/// the module and the end the argument, so both are kept; the start gets
/// the odd column.
pub(crate) fn shorten_middle(text: &str, width: usize) -> Cow<'_, str> {
    let length = columns(text);
    if length <= width {
        return Cow::Borrowed(text);
    }
    if width == 0 {
        return Cow::Borrowed("");
    }
    let kept = width - 1;
    let tail = kept / 2;
    let head = kept - tail;
    let mut shortened: String = text.chars().take(head).collect();
    shortened.push('…');
    shortened.extend(text.chars().skip(length - tail));
    Cow::Owned(shortened)
}

/// `text` in at most `width` columns, its end replaced by `…` when it is
/// longer.
pub(crate) fn shorten_end(text: &str, width: usize) -> Cow<'_, str> {
    if columns(text) <= width {
        return Cow::Borrowed(text);
    }
    if width == 0 {
        return Cow::Borrowed("");
    }
    let mut shortened: String = text.chars().take(width - 1).collect();
    shortened.push('…');
    Cow::Owned(shortened)
}

/// `text` as lines of at most `width` columns, the lines after the first
/// starting with `indent`. A line breaks at a ` · ` separator where it can
/// (the separator is dropped), else at a space; a word longer than a line
/// is cut.
pub(crate) fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    wrap_after(text, width, width, indent)
}

/// [`wrap`], with a first line of `first` columns (the rest of a line
/// whose start is already written).
pub(crate) fn wrap_after(text: &str, first: usize, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = text.trim_end();
    let mut prefix = "";
    loop {
        let room = if lines.is_empty() {
            first
        } else {
            width.saturating_sub(columns(prefix))
        }
        .max(1);
        if columns(rest) <= room {
            lines.push(format!("{prefix}{rest}"));
            return lines;
        }
        // The byte offset just past the first `room` characters: a break
        // at or before it leaves a line of at most `room` columns.
        let limit = rest.char_indices().nth(room).map_or(rest.len(), |(i, _)| i);
        let last_before = |pattern: &str| {
            rest.match_indices(pattern)
                .map(|(i, _)| i)
                .filter(|&i| i > 0 && i <= limit)
                .last()
        };
        // A separator unless it would leave the line less than a third full.
        let separator = last_before(" · ").filter(|&at| columns(&rest[..at]) * 3 >= room);
        let (line, next) = match (separator, last_before(" ")) {
            (Some(at), _) => (&rest[..at], &rest[at + " · ".len()..]),
            (None, Some(at)) => (&rest[..at], &rest[at + 1..]),
            (None, None) => rest.split_at(limit),
        };
        // A break at a space beside a separator leaves none of it behind.
        lines.push(format!(
            "{prefix}{}",
            line.trim_end().trim_end_matches(" ·")
        ));
        rest = next.trim_start().trim_start_matches("· ");
        prefix = indent;
        if rest.is_empty() {
            return lines;
        }
    }
}

/// `names` as a list that fits in `room` columns: all of them
/// (`a, b, c`), else the first few and how many more (`a, b, … 12 more`),
/// else only the count (`14 benchmarks`); `None` when not even that fits.
pub(crate) fn fit_names(names: &[&str], room: usize) -> Option<String> {
    let all = names.join(", ");
    if columns(&all) <= room {
        return Some(all);
    }
    for shown in (1..names.len()).rev() {
        let list = format!(
            "{}, … {} more",
            names[..shown].join(", "),
            names.len() - shown
        );
        if columns(&list) <= room {
            return Some(list);
        }
    }
    let count = format!(
        "{} benchmark{}",
        names.len(),
        if names.len() == 1 { "" } else { "s" }
    );
    (columns(&count) <= room).then_some(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_comes_from_the_terminal_then_columns_then_a_default() {
        assert_eq!(width_from(Some(132), Some("80")), 132);
        assert_eq!(width_from(None, Some("80")), 80);
        assert_eq!(width_from(None, Some(" 120\n")), 120);
        assert_eq!(width_from(None, None), DEFAULT_WIDTH);
        assert_eq!(width_from(Some(0), Some("wide")), DEFAULT_WIDTH);
        assert_eq!(width_from(None, Some("0")), DEFAULT_WIDTH);
        assert_eq!(width_from(None, Some("-5")), DEFAULT_WIDTH);
        assert_eq!(width_from(Some(12), None), MIN_WIDTH);
    }

    #[test]
    fn a_long_name_keeps_its_start_and_its_end() {
        assert_eq!(shorten_middle("kernels::parse_f64", 12), "kernel…e_f64");
        assert_eq!(shorten_middle("kernels::parse_f64", 13), "kernel…se_f64");
        assert_eq!(
            shorten_middle("kernels::parse_f64", 18),
            "kernels::parse_f64"
        );
        assert_eq!(shorten_middle("sort/10000", 9), "sort…0000");
        assert_eq!(shorten_middle("µs±…é", 3), "µ…é");
        assert_eq!(shorten_middle("abc", 1), "…");
        assert_eq!(shorten_middle("abc", 0), "");
        for width in 1..30 {
            let short = shorten_middle("find_byte/naive/1024::with_long_tail", width);
            assert_eq!(columns(&short), width, "{short}");
        }
    }

    #[test]
    fn a_long_text_is_cut_at_its_end() {
        assert_eq!(shorten_end("O(n log n): 638 ps", 10), "O(n log n…");
        assert_eq!(shorten_end("short", 10), "short");
    }

    #[test]
    fn wrapping_breaks_at_separators_then_spaces_and_never_overflows() {
        let header = "machine: Intel Xeon · 2 cores · LLC 480 MiB · governor n/a · turbo n/a";
        assert_eq!(
            wrap(header, 40, "  "),
            [
                "machine: Intel Xeon · 2 cores",
                "  LLC 480 MiB · governor n/a · turbo n/a"
            ]
        );
        assert_eq!(
            wrap("raise --max-time or quieten the machine", 20, "    "),
            ["raise --max-time or", "    quieten the", "    machine"]
        );
        assert_eq!(wrap("short", 20, "  "), ["short"]);
        let cut = wrap("aaaaaaaaaaaaaaaaaaaaaaaaa", 10, "  ");
        assert_eq!(cut, ["aaaaaaaaaa", "  aaaaaaaa", "  aaaaaaa"]);
        for width in 8..60 {
            for line in wrap(header, width, "  ") {
                assert!(columns(&line) <= width, "{line:?} in {width}");
            }
        }
    }

    #[test]
    fn a_list_of_names_shows_the_first_few_and_counts_the_rest() {
        let names = ["fib_20", "kernels::parse_f64", "sort/10", "sort/100"];
        assert_eq!(
            fit_names(&names, 100).unwrap(),
            "fib_20, kernels::parse_f64, sort/10, sort/100"
        );
        assert_eq!(
            fit_names(&names, 40).unwrap(),
            "fib_20, kernels::parse_f64, … 2 more"
        );
        assert_eq!(fit_names(&names, 20).unwrap(), "fib_20, … 3 more");
        assert_eq!(fit_names(&names, 14).unwrap(), "4 benchmarks");
        assert_eq!(fit_names(&names, 5), None);
        assert_eq!(fit_names(&["fib_20"], 5), None);
    }
}
