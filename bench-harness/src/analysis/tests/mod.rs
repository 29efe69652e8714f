//! The summary statistics, outliers and modality over samples: checked
//! against certified and independently computed values, and by the
//! properties every summary must have.

mod statistics;
mod statistics_props;
