//! How a document is written: serde_json's pretty layout, with the long
//! arrays of numbers kept short on the page ([`lines`]).

use std::io::{self, Write};

use super::Document;
use crate::json::{Json, Lines, Writer};

/// Writes `doc` pretty-printed (two-space indent, fields in declaration
/// order, samples packed ten to a line), ending with a newline.
pub(crate) fn write(out: &mut dyn Write, doc: &Document) -> io::Result<()> {
    let mut text = Vec::with_capacity(64 * 1024);
    doc.write(&mut Writer::laid_out(&mut text, lines));
    text.push(b'\n');
    out.write_all(&text)?;
    out.flush()
}

/// Arrays written on one line (numbers and short names).
const INLINE_ARRAYS: [&str; 8] = [
    "slice_starts",
    "block_means_ns",
    "block_medians_ns",
    "disturbed_blocks",
    "load_average",
    "cpus",
    "note_kinds",
    "iters",
];

/// The packed samples' arrays ([`super::SamplesRecord`]): [`PER_LINE`]
/// numbers to a line.
const PACKED_ARRAYS: [&str; 2] = ["ticks", "elapsed_ns"];

/// Numbers on a line of a packed array: about 90 characters of ticks.
const PER_LINE: usize = 10;

/// How the array under `key` is laid out: [`INLINE_ARRAYS`] on one line,
/// [`PACKED_ARRAYS`] [`PER_LINE`] to a line, the others one element a line.
fn lines(key: &str) -> Lines {
    if INLINE_ARRAYS.contains(&key) {
        Lines::One
    } else if PACKED_ARRAYS.contains(&key) {
        Lines::Packed(PER_LINE)
    } else {
        Lines::Each
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_arrays_go_on_one_line_or_ten_to_a_line() {
        let value = serde_json::json!({
            "cpus": [0, 1],
            "iters": [[1024, 12]],
            "ticks": (1..=12).collect::<Vec<u32>>(),
            "other": [1],
        });
        let mut out = Vec::new();
        Writer::laid_out(&mut out, lines).value(&value);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\n  \"cpus\": [0, 1],\n  \"iters\": [[1024, 12]],\n  \"other\": [\n    1\n  ],\n  \
             \"ticks\": [\n    1, 2, 3, 4, 5, 6, 7, 8, 9, 10,\n    11, 12\n  ]\n}"
        );
    }
}
