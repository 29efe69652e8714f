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
//! `--help` lines and a worker's command line are generated.

use std::fmt;
use std::str::FromStr;

use bench_runtime::{Nanos, SamplerConfig, StopRule, TimerChoice};

/// The headline's 95% CI must be within ±1% (`--precision`).
pub(crate) const DEFAULT_PRECISION: f64 = 0.01;

/// Interleaving is the default: see docs/ARCHITECTURE.md for the run-to-run
/// spread it was chosen on.
pub(crate) const DEFAULT_SCHEDULE: Schedule = Schedule::Interleaved;

/// Every measuring setting, defined once, in bench-macros's
/// `settings_table.rs`: `settings_table!(generate)` expands to `generate! {
/// rows }`, and each surface generates its part from the rows: the struct,
/// its merge and the bounds (below), the flags' parsing and `--help`
/// (`cli/mod.rs`, `cli/help.rs`), the inverse, the command line of a
/// worker (`cli/worker.rs`), and in bench-macros the attribute's
/// keys and checks, and the sampler's fields it sets (its `sampler`
/// column, [`Settings::sampler_config`]). A new measuring setting is a row
/// there.
pub(crate) use bench_macros::__settings_table as settings_table;

/// Generates [`Settings`], [`Settings::NONE`], [`Settings::overridden_by`]
/// and the bounds from the table.
macro_rules! settings_struct {
    (
        bounds: { max_seconds: $max_seconds:literal, max_count: $max_count:literal }
        $(
            $(#[$doc:meta])*
            $field:ident: $ty:ty { $($row:tt)* }
        )*
    ) => {
        /// The longest time any time setting accepts, flag or attribute.
        pub(crate) const MAX_SECONDS: f64 = $max_seconds;

        /// The largest count (`min_samples`, `--warm-up-window`), flag or
        /// attribute.
        pub(crate) const MAX_COUNT: usize = $max_count;

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
    /// `sample_floor`. Each setting with a `sampler` column in the table
    /// sets its field (`set_sampler_fields`); the rest is said here.
    pub(crate) fn sampler_config(&self, sample_floor: Nanos) -> SamplerConfig {
        let mut config = SamplerConfig {
            stop_rule: match self.precision_or_default() {
                0.0 => StopRule::TimeBudget,
                target => StopRule::Precision { target },
            },
            min_sample_time: sample_floor,
            ..SamplerConfig::default()
        };
        self.set_sampler_fields(&mut config);
        // By default the hard bound leaves room for the budgets three times over.
        if self.max_time.is_none() {
            config.max_time = config
                .max_time
                .max((config.warm_up_time + config.measure_time) * 3.0);
        }
        config
    }
}

/// A setting's value as the sampler's field of the table's `sampler`
/// column takes it, chosen by the two types.
trait FromSetting<S> {
    fn from_setting(value: S) -> Self;
}

/// Seconds, as the sampler's nanoseconds.
impl FromSetting<f64> for Nanos {
    fn from_setting(seconds: f64) -> Nanos {
        Nanos::from_secs(seconds)
    }
}

/// A count or a fraction, as it is.
impl<T> FromSetting<T> for T {
    fn from_setting(value: T) -> T {
        value
    }
}

/// Generates `Settings::set_sampler_fields` from the table's `sampler`
/// column.
macro_rules! sampler_fields {
    (
        bounds: $bounds:tt
        $(
            $(#[$doc:meta])*
            $field:ident: $ty:ty {
                flag: $flag:literal,
                value: $value:tt,
                attribute: $attribute:tt,
                help: $section:ident $lines:literal,
                sampler: ($($target:ident)?),
            }
        )*
    ) => {
        impl Settings {
            /// Each setting said here with a `sampler` column, into its
            /// field of `config`.
            fn set_sampler_fields(&self, config: &mut SamplerConfig) {
                $($(
                    if let Some(value) = self.$field {
                        config.$target = FromSetting::from_setting(value);
                    }
                )?)*
            }
        }
    };
}

settings_table!(sampler_fields);

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
