//! The analysis of measurements as the harness makes it, on scripted
//! samples whose figures were computed independently: one process's
//! (`Measured::analyse`), and several processes' pooled under `--forks`
//! (`Measured::pool`).

mod fake_clock_analysis;
mod forks_pooling;
mod group_vs_alone;
mod loop_reading;
