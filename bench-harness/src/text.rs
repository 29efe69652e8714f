//! The characters of text from outside the program (benchmark names and
//! `args` values, saved files, panic messages) that must never reach a
//! reader raw, in any output: they move a terminal's cursor, clear its
//! screen, end a line of a one-per-line list, or reverse how a browser
//! shows the rest of a name (U+202E makes `rtl\u{202e}txt.exe` read
//! `rtlexe.txt`). Each output writes them as an escape of its own kind:
//! `\u{1b}` for people ([`escape`]), `\u001b` in JSON.

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
