//! Reporters: they format the result model and never recompute statistics.

pub mod format;
pub mod terminal;
