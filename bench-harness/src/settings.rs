//! How to measure: one settings type for the file (`main!(...)`), a group
//! (`group!(...)`), the attribute and the command line.
//!
//! Every field is optional: `None` means "not said here". A benchmark's
//! settings are, field by field, the command line's, else its attribute's,
//! else its group's, else the file's, else the defaults
//! ([`Settings::overridden_by`], applied by `BenchEntry::settings` and the
//! plan), and are resolved once, here, into what the sampler and the
//! scheduler need ([`Settings::sampler_config`] and the `*_or_default`
//! readers). Each setting is defined once, as a row of [`settings_table!`],
//! from which the struct, its merge, the command line's flags, their
//! `--help` lines and the child command line of `--forks` are generated.

use std::fmt;
use std::str::FromStr;

use bench_runtime::{Nanos, SamplerConfig, StopRule, TimerChoice};

/// The longest time any time setting accepts: a day. The attribute's parser
/// in bench-macros enforces the same bound at compile time.
pub(crate) const MAX_SECONDS: f64 = 86_400.0;

/// The largest count (`min_samples`, `--warm-up-window`). The attribute's
/// parser enforces the same bound.
pub(crate) const MAX_COUNT: usize = 10_000_000;

/// The headline's 95% CI must be within ±1% (`--precision`).
pub(crate) const DEFAULT_PRECISION: f64 = 0.01;

/// Interleaving is the default: see docs/ARCHITECTURE.md for the run-to-run
/// spread it was chosen on.
pub(crate) const DEFAULT_SCHEDULE: Schedule = Schedule::Interleaved;

/// Every measuring setting, defined once: the field of [`Settings`] (with
/// its type and doc), its command-line flag (without `--`), the kind of
/// value the flag takes and the `--help` section and lines that describe
/// it. `settings_table!(generate)` expands to `generate! { rows }`, and
/// each surface generates its part from the rows: the struct and its merge
/// (below), the flags' parsing and `--help` (`cli/mod.rs`, `cli/help.rs`),
/// and the inverse, the command line of a `--forks` child (`cli/child.rs`).
/// A new measuring setting is a row here (and, if the sampler uses it, a
/// line in [`Settings::sampler_config`]).
///
/// The value kinds: `(switch)`, `(seconds)` (more than 0), `(seconds
/// zero_ok)`, `(count)` (1 to [`MAX_COUNT`]), `(count_from N "why")`,
/// `(percentage)` (more than 0), `(percentage zero_ok)`, `(choice
/// CHOICES)` (the type's `FromStr` words) and `(number "what")` (any
/// value of the type). The rows are in `--help`'s order.
macro_rules! settings_table {
    ($generate:ident) => {
        $generate! {
            /// `--timer`: which clock (run-wide).
            timer: bench_runtime::TimerChoice {
                flag: "timer",
                value: (choice "auto, os or cycles"),
                help: Measurement "  --timer auto|os|cycles  clock: auto (default) uses the cycle counter where it is
                          usable (invariant TSC on x86_64), else the OS monotonic clock
",
            }
            /// The precision rule's target, as a fraction: the relative half-width
            /// of the headline's 95% CI; 0 turns the rule off.
            precision: f64 {
                flag: "precision",
                value: (percentage zero_ok),
                help: Measurement "  --precision PCT         stop once the time's 95% confidence interval is within
                          ±PCT% [default: 1]; 0 stops at --measure-time instead
",
            }
            /// Measuring time before the precision rule may stop, in seconds.
            measure_time: f64 {
                flag: "measure-time",
                value: (seconds),
                help: Measurement "  --measure-time SECS     minimum measuring time per benchmark before the precision
                          rule may stop it (with --precision 0: the budget) [default: 0.3]
",
            }
            /// Hard bound on one benchmark, set-up included, in seconds.
            max_time: f64 {
                flag: "max-time",
                value: (seconds),
                help: Measurement "  --max-time SECS         hard bound per benchmark: set-up, calibration, warm-up and
                          measurement [default: 2, or 3× warm-up + measure time if larger]
",
            }
            /// Samples to record before stopping.
            min_samples: usize {
                flag: "min-samples",
                value: (count),
                help: Measurement "  --min-samples N         samples to record before stopping [default: 10]
",
            }
            /// Cap on warm-up, calibration included, in seconds.
            warm_up_time: f64 {
                flag: "warm-up-time",
                value: (seconds zero_ok),
                help: Measurement "  --warm-up-time SECS     cap on warm-up per benchmark, calibration included, set-up
                          not [default: 0.1]
",
            }
            /// Samples in the rolling window that detects steady state.
            warm_up_window: usize {
                flag: "warm-up-window",
                value: (count_from 2 "samples to judge variation"),
                help: Measurement "  --warm-up-window N      samples in the rolling window that detects steady state [default: 10]
",
            }
            /// Steady once the window's coefficient of variation is below this
            /// fraction.
            warm_up_cv: f64 {
                flag: "warm-up-cv",
                value: (percentage),
                help: Measurement "  --warm-up-cv PCT        steady once the window's coefficient of variation is below
                          PCT% [default: 5]
",
            }
            /// `--schedule` (run-wide).
            schedule: crate::settings::Schedule {
                flag: "schedule",
                value: (choice crate::settings::Schedule::CHOICES),
                help: Measurement "  --schedule interleaved|sequential
                          interleaved (default): rounds of short slices in a shuffled
                          order, so every benchmark sees the same machine noise;
                          sequential: each benchmark in one go
",
            }
            /// `--seed`: the interleaved schedule's shuffles (run-wide).
            seed: u64 {
                flag: "seed",
                value: (number format!("a whole number from 0 to {}", u64::MAX)),
                help: Measurement "  --seed N                seed of the interleaved shuffles [default: random, printed
                          in the header with -v]
",
            }
            /// `--bytes-unit`: how byte rates are printed (GB/s or GiB/s).
            bytes_unit: crate::settings::BytesUnit {
                flag: "bytes-unit",
                value: (choice crate::settings::BytesUnit::CHOICES),
                help: Output "  --bytes-unit decimal|binary
                          byte rates in KB/s, MB/s, GB/s [default: decimal] or in
                          KiB/s, MiB/s, GiB/s, as criterion prints them
",
            }
            /// Read hardware and software counters around each sample.
            counters: bool {
                flag: "counters",
                value: (switch),
                help: Machine "  --counters              hardware and software counters per iteration (cycles,
                          instructions, branches, cache, page faults, context
                          switches, task clock) where the kernel allows them
",
            }
            /// `--pin CPU`: the measuring threads run on this CPU only (run-wide).
            pin: usize {
                flag: "pin",
                value: (number "a CPU number such as 0 (see `nproc`)"),
                help: Machine "  --pin CPU               run the measuring threads on CPU only, and say so
",
            }
            /// `--cold`: evict the caches before each sample (run-wide).
            cold: bool {
                flag: "cold",
                value: (switch),
                help: Machine "  --cold                  evict the caches before each sample (a buffer larger than
                          the last-level cache is walked, untimed): cold-cache figures
",
            }
        }
    };
}
pub(crate) use settings_table;

/// Generates [`Settings`], [`Settings::NONE`] and
/// [`Settings::overridden_by`] from the table's rows.
macro_rules! settings_struct {
    ($(
        $(#[$doc:meta])*
        $field:ident: $ty:ty { $($row:tt)* }
    )*) => {
        /// Measuring settings, from the attribute or the command line.
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Settings {
            $(
                $(#[$doc])*
                pub $field: Option<$ty>,
            )*
        }

        impl Settings {
            /// Nothing said: usable in a `static` initialiser.
            pub const NONE: Settings = Settings { $($field: None,)* };

            /// These settings, with every field `other` says replaced by
            /// `other`'s: the command line overrides the attribute.
            pub fn overridden_by(self, other: Settings) -> Settings {
                Settings { $($field: other.$field.or(self.$field),)* }
            }
        }
    };
}

settings_table!(settings_struct);

impl Settings {
    /// The precision rule's target, 0 when the rule is off.
    pub(crate) fn precision_or_default(&self) -> f64 {
        self.precision.unwrap_or(DEFAULT_PRECISION)
    }

    pub(crate) fn schedule_or_default(&self) -> Schedule {
        self.schedule.unwrap_or(DEFAULT_SCHEDULE)
    }

    pub(crate) fn timer_or_default(&self) -> TimerChoice {
        self.timer.unwrap_or(TimerChoice::Auto)
    }

    pub(crate) fn counters_or_default(&self) -> bool {
        self.counters.unwrap_or(false)
    }

    pub(crate) fn bytes_unit_or_default(&self) -> BytesUnit {
        self.bytes_unit.unwrap_or(BytesUnit::Decimal)
    }

    pub(crate) fn cold_or_default(&self) -> bool {
        self.cold.unwrap_or(false)
    }

    /// The sampler's configuration; no sample is shorter than
    /// `sample_floor`.
    pub(crate) fn sampler_config(&self, sample_floor: Nanos) -> SamplerConfig {
        let defaults = SamplerConfig::default();
        let secs = |set: Option<f64>, default: Nanos| set.map(Nanos::from_secs).unwrap_or(default);
        let warm_up_time = secs(self.warm_up_time, defaults.warm_up_time);
        let measure_time = secs(self.measure_time, defaults.measure_time);
        // By default the hard bound leaves room for the budgets three times over.
        let default_max = defaults.max_time.max((warm_up_time + measure_time) * 3.0);
        SamplerConfig {
            warm_up_time,
            warm_up_window: self.warm_up_window.unwrap_or(defaults.warm_up_window),
            warm_up_cv: self.warm_up_cv.unwrap_or(defaults.warm_up_cv),
            measure_time,
            stop_rule: match self.precision_or_default() {
                0.0 => StopRule::TimeBudget,
                target => StopRule::Precision { target },
            },
            max_time: secs(self.max_time, default_max),
            min_samples: self.min_samples.unwrap_or(defaults.min_samples),
            max_samples: defaults.max_samples,
            min_sample_time: sample_floor,
        }
    }
}

/// How byte rates are printed (`--bytes-unit`, `bytes_unit = "..."`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BytesUnit {
    /// Powers of 1000: `KB/s`, `MB/s`, `GB/s` (the default).
    #[default]
    Decimal,
    /// Powers of 1024: `KiB/s`, `MiB/s`, `GiB/s`, as criterion prints
    /// `Throughput::Bytes`.
    Binary,
}

impl BytesUnit {
    /// The words `--bytes-unit` takes, for error messages.
    pub(crate) const CHOICES: &'static str = "decimal or binary";
}

impl fmt::Display for BytesUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BytesUnit::Decimal => "decimal",
            BytesUnit::Binary => "binary",
        })
    }
}

impl FromStr for BytesUnit {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, ()> {
        match text {
            "decimal" => Ok(BytesUnit::Decimal),
            "binary" => Ok(BytesUnit::Binary),
            _ => Err(()),
        }
    }
}

/// How measured benchmarks share the run's time (`--schedule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Rounds of shuffled slices until every benchmark is done.
    Interleaved,
    /// One benchmark after the other, each in one go.
    Sequential,
}

impl Schedule {
    /// The words `--schedule` takes, for error messages.
    pub(crate) const CHOICES: &'static str = "interleaved or sequential";
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Schedule::Interleaved => "interleaved",
            Schedule::Sequential => "sequential",
        })
    }
}

impl FromStr for Schedule {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, ()> {
        match text {
            "interleaved" => Ok(Schedule::Interleaved),
            "sequential" => Ok(Schedule::Sequential),
            _ => Err(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_overrides_the_attribute_field_by_field() {
        let attribute = Settings {
            measure_time: Some(1.0),
            min_samples: Some(20),
            counters: Some(true),
            ..Settings::NONE
        };
        let command_line = Settings {
            measure_time: Some(0.5),
            precision: Some(0.0),
            ..Settings::NONE
        };
        let merged = attribute.overridden_by(command_line);
        assert_eq!(merged.measure_time, Some(0.5));
        assert_eq!(merged.min_samples, Some(20));
        assert_eq!(merged.counters, Some(true));
        assert_eq!(merged.precision, Some(0.0));
        assert_eq!(merged.max_time, None);
    }

    #[test]
    fn precision_zero_stops_at_the_budget() {
        let floor = Nanos(10_000.0);
        let off = Settings {
            precision: Some(0.0),
            ..Settings::NONE
        };
        assert_eq!(off.sampler_config(floor).stop_rule, StopRule::TimeBudget);
        let default = Settings::NONE.sampler_config(floor);
        assert_eq!(default.stop_rule, StopRule::Precision { target: 0.01 });
        assert_eq!(default.min_sample_time, floor);
    }

    #[test]
    fn the_default_hard_bound_covers_the_budgets_three_times() {
        let long = Settings {
            warm_up_time: Some(1.0),
            measure_time: Some(2.0),
            ..Settings::NONE
        };
        assert_eq!(
            long.sampler_config(Nanos::ZERO).max_time,
            Nanos::from_secs(9.0)
        );
        let bounded = Settings {
            max_time: Some(4.0),
            ..long
        };
        assert_eq!(
            bounded.sampler_config(Nanos::ZERO).max_time,
            Nanos::from_secs(4.0)
        );
    }

    #[test]
    fn schedule_names_round_trip() {
        for schedule in [Schedule::Interleaved, Schedule::Sequential] {
            assert_eq!(schedule.to_string().parse(), Ok(schedule));
        }
        assert_eq!("shuffled".parse::<Schedule>(), Err(()));
    }
}
