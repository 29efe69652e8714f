//! The summary statistics, outliers and modality over samples: checked
//! against certified and independently computed values, and by the
//! properties every summary must have.

mod statistics;
mod statistics_props;

use super::{outliers, summarize};

/// The example of the module's documentation.
#[test]
fn the_documented_example_has_one_severe_outlier() {
    let nanos = [102.0, 99.0, 101.0, 100.0, 98.0, 250.0, 100.0, 101.0];
    let summary = summarize(&nanos).expect("at least one sample");
    assert_eq!(summary.median, 100.5);

    let counts = outliers::classify(&nanos);
    assert_eq!(counts.high_severe, 1); // the 250 ns sample
}
