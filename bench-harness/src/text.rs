//! The characters of text from outside the program (benchmark names and
//! `args` values, saved files, panic messages) that must never reach a
//! reader raw, in any output: they move a terminal's cursor, clear its
//! screen, end a line of a one-per-line list, or reverse how a browser
//! shows the rest of a name (U+202E makes `rtl\u{202e}txt.exe` read
//! `rtlexe.txt`). Each output writes them as an escape of its own kind:
//! `\u{1b}` for people (`report::format::escape`), `\u001b` in JSON.

/// Control characters (C0, DEL, C1), the line and paragraph separators
/// and the bidirectional marks, embeddings, overrides and isolates.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}
