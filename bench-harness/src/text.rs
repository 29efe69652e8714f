//! The characters of text from outside the program (benchmark names and
//! `args` values, saved files, panic messages) that must never reach a
//! reader raw, in any output: they move a terminal's cursor, clear its
//! screen, end a line of a one-per-line list, or reverse how a browser
//! shows the rest of a name (U+202E makes `rtl\u{202e}txt.exe` read
//! `rtlexe.txt`). Each output writes them as an escape of its own kind:
//! `\u{1b}` for people ([`escape`]), `\u001b` in JSON. And [`size_text`],
//! a file's size as every output writes it.

use std::borrow::Cow;

/// Control characters (C0, DEL, C1), the line and paragraph separators
/// and the bidirectional marks, embeddings, overrides and isolates.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Text from outside the program (benchmark names and `args` values, a
/// baseline file's fields, filters, panic messages) as it may be printed on
/// a terminal: control characters (C0, DEL, C1), the line and paragraph
/// separators and the bidirectional overrides are written as Rust escapes
/// (`\n`, `\u{1b}`, `\u{202e}`), so nothing from a file or a benchmark
/// can move the cursor, clear the screen or break a one-per-line list.
/// Everything else, backslashes included, is kept as it is.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            c if needs_escape(c) => escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// A file size in decimal units with three significant digits at most:
/// `812 B`, `48.2 kB`, `12.3 MB`, `1.20 GB`.
pub(crate) fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 999.5 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    let decimals = if value >= 99.95 {
        0
    } else if value >= 9.995 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {}", UNITS[unit])
}

/// A ratio as a percentage with two decimals below 10%, else one.
pub(crate) fn percent(ratio: f64) -> String {
    let pct = ratio * 100.0;
    if pct.abs() < 10.0 {
        format!("{pct:.2}%")
    } else {
        format!("{pct:.1}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_decimal_units() {
        let cases = [
            (0, "0 B"),
            (999, "999 B"),
            (1000, "1.00 kB"),
            (48_213, "48.2 kB"),
            (999_499, "999 kB"),
            (999_500, "1.00 MB"),
            (12_345_678, "12.3 MB"),
            (123_456_789, "123 MB"),
            (1_200_000_000, "1.20 GB"),
            (u64::MAX, "18446744 TB"),
        ];
        for (bytes, text) in cases {
            assert_eq!(size_text(bytes), text, "{bytes}");
        }
    }
}
