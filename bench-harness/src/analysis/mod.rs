//! Statistics over a benchmark's samples: the numbers the harness reports.
//!
//! Everything here is pure: slices of per-iteration times in nanoseconds go
//! in, plain values come out. Nothing is printed, nothing is removed from the
//! caller's data; filtering returns a new vector so the report can show both
//! the filtered and the full picture.
//!
//! - [`block_estimate`] is the headline: the mean cost of a call over the
//!   blocks the machine did not disturb, with a 95% interval that allows for the
//!   dependence between neighbouring blocks.
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
//! Eight samples near 100 ns, one of them 250 ns: [`summarize`] gives a
//! median of 100.5 ns, which the slow sample barely moves, and
//! [`outliers::classify`] counts that sample as a high severe outlier (the
//! test `tests::the_documented_example_has_one_severe_outlier`).

mod anova;
mod blocks;
pub(crate) mod compare;
pub(crate) mod complexity;
mod dependence;
mod distributions;
mod heterogeneity;
mod interval;
pub(crate) mod levels;
pub(crate) mod modality;
mod moments;
pub(crate) mod outliers;
mod overhead;
mod percentile;
mod reading;
mod special;
mod summary;
#[cfg(test)]
mod tests;

pub(crate) use anova::one_way_anova;
pub(crate) use blocks::{
    block_estimate, block_starts, within_block, within_block_relative, BlockEstimate,
    BlockEvidence, Body, BLOCKS_IN_ONE_GO, PROBE_SLOWER,
};
pub(crate) use distributions::students_t_quantile;
pub(crate) use heterogeneity::cochran_q_p_value;
pub(crate) use interval::{mean_interval, Interval, CONFIDENCE_LEVEL};
pub(crate) use moments::{mean, sample_variance};
pub(crate) use overhead::{loop_overhead, loop_overhead_of, Overhead};
pub(crate) use percentile::percentile;
pub(crate) use reading::Headline;
pub(crate) use summary::{summarize, Summary};
