//! Reporters: they format the result model and never recompute statistics.

pub mod bencher;
pub(crate) mod console;
pub mod csv;
pub mod format;
pub mod json;
pub mod markdown;
pub mod notes;
pub mod terminal;
#[cfg(test)]
mod tests;
pub mod tree;
