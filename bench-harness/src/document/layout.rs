//! How a document is written: serde_json's pretty layout, with the long
//! arrays of numbers kept short on the page ([`Writer::document`]).

use std::io::{self, Write};

use super::Document;
use crate::json::{Json, Writer};

/// Writes `doc` pretty-printed (two-space indent, fields in declaration
/// order, samples packed ten to a line), ending with a newline.
pub(crate) fn write(out: &mut dyn Write, doc: &Document) -> io::Result<()> {
    let mut text = Vec::with_capacity(64 * 1024);
    doc.write(&mut Writer::document(&mut text));
    text.push(b'\n');
    out.write_all(&text)?;
    out.flush()
}
