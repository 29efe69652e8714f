//! Reporters: they format the result model and never recompute statistics.

pub(crate) mod bencher;
pub(crate) mod bmf;
pub(crate) mod csv;
pub(crate) mod format;
pub(crate) mod history;
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod logfile;
pub(crate) mod markdown;
pub(crate) mod notes;
pub(crate) mod progress;
pub(crate) mod terminal;
#[cfg(test)]
mod tests;
pub(crate) mod tree;
