//! Statistics over a benchmark's samples: the numbers the harness reports.
//!
//! Everything here is pure: slices of per-iteration times in nanoseconds go
//! in, plain values come out. Nothing is printed, nothing is removed from the
//! caller's data; filtering returns a new vector so the report can show both
//! the filtered and the full picture.
//!
//! - [`block_estimate`] is the headline: the mean over blocks of machine time
//!   of each block's median, with its 95% interval (batch means).
//! - [`summarize`] gives the location, spread, percentiles and the 95%
//!   confidence intervals of the mean and of the median ([`Summary`]).
//! - [`outliers`] counts Tukey-fence and 3-sigma outliers and can produce a
//!   filtered copy of the samples.
//! - [`modality`] tells whether the samples look like they come from more
//!   than one distribution (two code paths, a frequency change, ...), in which
//!   case no single location statistic describes them.
//!
//! # Example
//!
//! ```
//! use bench_harness::analysis::{outliers, summarize};
//!
//! let nanos = [102.0, 99.0, 101.0, 100.0, 98.0, 250.0, 100.0, 101.0];
//! let summary = summarize(&nanos).expect("at least one sample");
//! assert_eq!(summary.median, 100.5);
//!
//! let counts = outliers::classify(&nanos);
//! assert_eq!(counts.high_severe, 1); // the 250 ns sample
//! ```

mod anova;
mod blocks;
pub mod compare;
pub mod complexity;
mod distributions;
mod interval;
pub mod modality;
mod moments;
pub mod outliers;
mod overhead;
mod percentile;
mod summary;
#[cfg(test)]
mod tests;

pub use anova::{one_way_anova, Anova};
pub use blocks::{
    block_estimate, block_starts, blocks, within_block, BlockEstimate, BLOCKS_IN_ONE_GO,
};
pub use interval::{mean_interval, median_interval, Interval, CONFIDENCE_LEVEL};
pub use overhead::{loop_overhead, Overhead};
pub use percentile::percentile;
pub use summary::{summarize, Percentiles, Summary, MAD_NORMAL_CONSISTENCY};
