//! `--format json`: the run's results document ([`crate::document`]), the
//! same document a baseline saves.

use std::io::{self, Write};

use crate::document::Document;

/// Writes `document` as `--format json` prints it.
pub(crate) fn write(out: &mut dyn Write, document: &Document) -> io::Result<()> {
    crate::document::write(out, document)
}
