//! How a document is written: serde_json's pretty layout, with the long
//! arrays of numbers kept short on the page.

use std::io::{self, Write};

use serde::Serialize;

use super::Document;

/// Writes `doc` pretty-printed (two-space indent, samples packed ten to a
/// line), ending with a newline.
pub(crate) fn write(out: &mut dyn Write, doc: &Document) -> io::Result<()> {
    let mut buffered = io::BufWriter::new(out);
    let mut serializer = serde_json::Serializer::with_formatter(&mut buffered, Layout::default());
    doc.serialize(&mut serializer)?;
    buffered.write_all(b"\n")?;
    buffered.flush()
}

/// Arrays of numbers (and of short names) written on one line.
const INLINE_ARRAYS: [&str; 6] = [
    "slice_starts",
    "block_medians_ns",
    "load_average",
    "cpus",
    "note_kinds",
    "iters",
];

/// The packed samples' arrays: [`PER_LINE`] numbers to a line.
const PACKED_ARRAYS: [&str; 2] = ["ticks", "elapsed_ns"];

/// Numbers on a line of a packed array: about 90 characters of ticks.
const PER_LINE: usize = 10;

/// A container open outside one-line elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Object,
    /// An array with each element on a line of its own.
    Array,
    /// A packed array: [`PER_LINE`] elements to a line; how many so far.
    Packed(usize),
}

/// serde_json's pretty layout, except that the arrays in
/// [`INLINE_ARRAYS`] take one line, and those in [`PACKED_ARRAYS`] (a
/// benchmark's samples: hundreds of thousands of numbers) take
/// [`PER_LINE`] numbers a line instead of one.
#[derive(Default)]
struct Layout {
    pretty: serde_json::ser::PrettyFormatter<'static>,
    open: Vec<Open>,
    /// Nesting depth inside a one-line element (0: not in one).
    inline: usize,
    in_key: bool,
    key: String,
}

impl Layout {
    /// Whether a container starting now is one-line (or inside one).
    fn starts_inline(&self) -> bool {
        self.inline > 0
    }
}

impl serde_json::ser::Formatter for Layout {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.starts_inline() {
            self.inline += 1;
            return w.write_all(b"[");
        }
        let key = if self.open.last() == Some(&Open::Object) {
            self.key.as_str()
        } else {
            ""
        };
        if INLINE_ARRAYS.contains(&key) {
            self.inline += 1;
            return w.write_all(b"[");
        }
        self.open.push(if PACKED_ARRAYS.contains(&key) {
            Open::Packed(0)
        } else {
            Open::Array
        });
        self.key.clear();
        self.pretty.begin_array(w)
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            self.inline -= 1;
            return w.write_all(b"]");
        }
        self.open.pop();
        self.pretty.end_array(w)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.inline > 0 {
            return if first { Ok(()) } else { w.write_all(b", ") };
        }
        if let Some(Open::Packed(count)) = self.open.last_mut() {
            *count += 1;
            if *count % PER_LINE != 1 {
                return w.write_all(b", ");
            }
        }
        self.pretty.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            return Ok(());
        }
        self.pretty.end_array_value(w)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.starts_inline() {
            self.inline += 1;
            return w.write_all(b"{");
        }
        self.open.push(Open::Object);
        self.key.clear();
        self.pretty.begin_object(w)
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            self.inline -= 1;
            return w.write_all(b"}");
        }
        self.open.pop();
        self.key.clear();
        self.pretty.end_object(w)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.inline > 0 {
            return if first { Ok(()) } else { w.write_all(b", ") };
        }
        self.in_key = true;
        self.key.clear();
        self.pretty.begin_object_key(w, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.in_key = false;
        if self.inline > 0 {
            return Ok(());
        }
        self.pretty.end_object_key(w)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            return w.write_all(b": ");
        }
        self.pretty.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.inline > 0 {
            return Ok(());
        }
        self.key.clear();
        self.pretty.end_object_value(w)
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        w.write_all(fragment.as_bytes())
    }
}
