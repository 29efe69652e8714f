//! The benchmark's sampling budgets and limits as the document records
//! them: the record, its JSON layout and both directions between it and
//! the sampler's [`SamplerConfig`], in one place. A new `SamplerConfig`
//! field is recorded by a field here, a line in each direction and a key
//! in the layout (docs/json-schema.md lists the keys). Baselines written
//! before the key existed lack it: they are read with the key's `default`
//! in the layout, or as an `Option` (`precision_target`), where 0 would
//! not mean the sampler's default.

use bench_runtime::{Nanos, SamplerConfig, StopRule};

use crate::json::{json_enum, json_struct};
use crate::settings::DEFAULT_PRECISION;

/// The benchmark's sampling budgets and limits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ConfigRecord {
    pub warm_up_time_s: f64,
    pub warm_up_window: usize,
    pub warm_up_cv: f64,
    pub measure_time_s: f64,
    pub stop_rule: StopRuleKind,
    /// Under the precision rule, its target (a fraction). Documents written
    /// before it was recorded lack it; they are read with the default
    /// target, which only the "not precise" note's text shows.
    pub precision_target: Option<f64>,
    pub max_time_s: f64,
    pub min_samples: usize,
    pub max_samples: usize,
    pub min_sample_time_ns: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopRuleKind {
    Precision,
    TimeBudget,
}

json_struct!(ConfigRecord {
    warm_up_time_s,
    warm_up_window,
    warm_up_cv,
    measure_time_s,
    stop_rule,
    precision_target: skip,
    max_time_s,
    min_samples,
    max_samples,
    min_sample_time_ns,
});
json_enum!(StopRuleKind { Precision = "precision", TimeBudget = "time_budget" });

impl ConfigRecord {
    /// What the sampler ran with, as the document records it.
    pub(crate) fn new(config: &SamplerConfig) -> ConfigRecord {
        let secs = |nanos: Nanos| nanos.0 / 1e9;
        ConfigRecord {
            warm_up_time_s: secs(config.warm_up_time),
            warm_up_window: config.warm_up_window,
            warm_up_cv: config.warm_up_cv,
            measure_time_s: secs(config.measure_time),
            stop_rule: match config.stop_rule {
                StopRule::Precision { .. } => StopRuleKind::Precision,
                StopRule::TimeBudget => StopRuleKind::TimeBudget,
            },
            precision_target: config.stop_rule.precision_target(),
            max_time_s: secs(config.max_time),
            min_samples: config.min_samples,
            max_samples: config.max_samples,
            min_sample_time_ns: config.min_sample_time.0,
        }
    }

    /// The sampler's settings back: what a baseline's measurements are
    /// analysed again with.
    pub(crate) fn sampler_config(&self) -> SamplerConfig {
        SamplerConfig {
            warm_up_time: Nanos::from_secs(self.warm_up_time_s),
            warm_up_window: self.warm_up_window,
            warm_up_cv: self.warm_up_cv,
            measure_time: Nanos::from_secs(self.measure_time_s),
            stop_rule: match self.stop_rule {
                StopRuleKind::Precision => StopRule::Precision {
                    target: self.precision_target.unwrap_or(DEFAULT_PRECISION),
                },
                StopRuleKind::TimeBudget => StopRule::TimeBudget,
            },
            max_time: Nanos::from_secs(self.max_time_s),
            min_samples: self.min_samples,
            max_samples: self.max_samples,
            min_sample_time: Nanos(self.min_sample_time_ns),
        }
    }
}
