//! How to measure: one settings type for the file (`main!(...)`), a group
//! (`group!(...)`), the attribute and the command line.
//!
//! Every field is optional: `None` means "not said here". A benchmark's
//! settings are, field by field, the command line's, else its attribute's,
//! else its group's, else the file's, else the defaults
//! ([`Settings::overridden_by`], applied by `BenchEntry::settings` and the
//! plan), and are resolved once, here, into what the sampler and the
//! scheduler need ([`Settings::sampler_config`] and the `*_or_default`
//! readers). A new measuring option is a field here, a
//! branch in the attribute's parser and a flag in the command line's parser
//! (whose inverse, the child command line of `--forks`, sits beside it).

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

/// Measuring settings, from the attribute or the command line.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Settings {
    /// `--timer`: which clock (run-wide).
    pub timer: Option<TimerChoice>,
    /// Cap on warm-up, calibration included, in seconds.
    pub warm_up_time: Option<f64>,
    /// Measuring time before the precision rule may stop, in seconds.
    pub measure_time: Option<f64>,
    /// Hard bound on one benchmark, set-up included, in seconds.
    pub max_time: Option<f64>,
    /// Samples to record before stopping.
    pub min_samples: Option<usize>,
    /// The precision rule's target, as a fraction: the relative half-width
    /// of the headline's 95% CI; 0 turns the rule off.
    pub precision: Option<f64>,
    /// `--schedule` (run-wide).
    pub schedule: Option<Schedule>,
    /// Samples in the rolling window that detects steady state.
    pub warm_up_window: Option<usize>,
    /// Steady once the window's coefficient of variation is below this
    /// fraction.
    pub warm_up_cv: Option<f64>,
    /// Read hardware and software counters around each sample.
    pub counters: Option<bool>,
    /// `--pin CPU`: the measuring threads run on this CPU only (run-wide).
    pub pin: Option<usize>,
    /// `--cold`: evict the caches before each sample (run-wide).
    pub cold: Option<bool>,
    /// `--seed`: the interleaved schedule's shuffles (run-wide).
    pub seed: Option<u64>,
    /// `--bytes-unit`: how byte rates are printed (GB/s or GiB/s).
    pub bytes_unit: Option<BytesUnit>,
}

impl Settings {
    /// Nothing said: usable in a `static` initialiser.
    pub const NONE: Settings = Settings {
        timer: None,
        warm_up_time: None,
        measure_time: None,
        max_time: None,
        min_samples: None,
        precision: None,
        schedule: None,
        warm_up_window: None,
        warm_up_cv: None,
        counters: None,
        pin: None,
        cold: None,
        seed: None,
        bytes_unit: None,
    };

    /// These settings, with every field `other` says replaced by `other`'s:
    /// the command line overrides the attribute.
    pub fn overridden_by(self, other: Settings) -> Settings {
        Settings {
            timer: other.timer.or(self.timer),
            warm_up_time: other.warm_up_time.or(self.warm_up_time),
            measure_time: other.measure_time.or(self.measure_time),
            max_time: other.max_time.or(self.max_time),
            min_samples: other.min_samples.or(self.min_samples),
            precision: other.precision.or(self.precision),
            schedule: other.schedule.or(self.schedule),
            warm_up_window: other.warm_up_window.or(self.warm_up_window),
            warm_up_cv: other.warm_up_cv.or(self.warm_up_cv),
            counters: other.counters.or(self.counters),
            pin: other.pin.or(self.pin),
            cold: other.cold.or(self.cold),
            seed: other.seed.or(self.seed),
            bytes_unit: other.bytes_unit.or(self.bytes_unit),
        }
    }

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
