//! The verdicts of a run, as the document records them: each benchmark
//! against a saved baseline (`comparison`) and each A/B group's members
//! against the group's baseline member (`groups`). Both are optional
//! sections: a run without `--baseline` or without A/B groups has none,
//! and documents written before they were recorded load without them.

use crate::analysis::compare::{Comparison, PairedComparison};
use crate::json::json_struct;
use crate::results::comparison::{BaselineReport, GROUP_NOISE_THRESHOLD};
use crate::results::{BenchResult, Compared, GroupReport};

/// How an A/B group's members were paired: one slice of each member per
/// round, the members in a shuffled order in each round, and one ratio
/// member/baseline per round, of the two slices' median times per
/// iteration. (`rounds`, in documents before version 4: one sample of at
/// least 1 ms each per round.)
pub(crate) const PAIRING_SLICES: &str = "slices";

/// `--baseline NAME`: every benchmark against the saved run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ComparisonRecord {
    /// The baseline's name.
    pub baseline: String,
    /// When the baseline was saved (its `environment.timestamp`).
    pub baseline_timestamp: String,
    /// `--noise-threshold`, in percent.
    pub noise_threshold_percent: f64,
    /// The threshold the verdicts used, in percent: `noise_threshold_percent`
    /// plus the farther end of the machine's change interval; null when the
    /// machine's change is unknown (no verdict of change is then possible).
    pub threshold_percent: Option<f64>,
    /// The harness's reference kernel then and now: how much the machine
    /// itself changed speed; null when either run lacks it.
    pub machine_change: Option<MachineChangeRecord>,
    /// This run's benchmarks in report order, then those of the baseline
    /// this binary no longer has (`gone`).
    pub benchmarks: Vec<ComparedRecord>,
}

/// The machine reference kernel's change between the baseline and this run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MachineChangeRecord {
    /// `new/old − 1`, a fraction (0.05: the machine is 5% slower).
    pub change: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub p_welch: Option<f64>,
}

/// One benchmark against the baseline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ComparedRecord {
    pub name: String,
    /// `compared`, `too_fast` (both times below the loop's resolution: no
    /// ratio), `new` (not measured in the baseline) or `gone` (in
    /// the baseline, not in this binary). The figures are null unless
    /// `compared`, but for `too_fast`'s times.
    pub status: String,
    /// `slower`, `faster`, `no difference` or `unclear`.
    pub verdict: Option<String>,
    /// Measured otherwise here than in the baseline (in one stretch
    /// against interleaved, `--cold` against not): the verdict is then
    /// `unclear` whatever the interval says.
    pub measured_two_ways: bool,
    /// The baseline's headline and this run's, as their rows print them
    /// (the baseline's analysed again from its samples), in nanoseconds.
    pub old_ns: Option<f64>,
    pub new_ns: Option<f64>,
    /// `new/old − 1`, a fraction (0.05: 5% slower).
    pub change: Option<f64>,
    /// The change's 95% interval; null where unbounded.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Welch's test of the two headlines from their own intervals.
    pub p_welch: Option<f64>,
    pub welch_t: Option<f64>,
    /// Satterthwaite's degrees of freedom; null when infinite (neither
    /// side's known: the normal quantile).
    pub welch_df: Option<f64>,
}

/// An in-run A/B group (one per argument in a group with `args`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GroupRecord {
    pub group: String,
    /// The member marked `baseline`, whose ratio is 1.
    pub baseline: String,
    /// How the members were paired: [`PAIRING_SLICES`].
    pub pairing: String,
    /// The verdicts' noise threshold, in percent.
    pub noise_threshold_percent: f64,
    /// The other members, in report order.
    pub members: Vec<GroupMemberRecord>,
}

/// One member against its group's baseline.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GroupMemberRecord {
    pub name: String,
    /// `compared`, or `not_compared` with the `reason`; the figures are
    /// null unless `compared`.
    pub status: String,
    /// `slower`, `faster`, `no difference` or `unclear`.
    pub verdict: Option<String>,
    /// member/baseline: the geometric mean of the rounds' ratios (above 1:
    /// the member is slower).
    pub ratio: Option<f64>,
    /// The ratio's 95% interval.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// The paired t-test on the rounds' log ratios.
    pub p_t: Option<f64>,
    pub t: Option<f64>,
    pub df: Option<f64>,
    /// The Wilcoxon signed-rank test on the same.
    pub p_wilcoxon: Option<f64>,
    /// Rounds paired, rounds left out, and the effective number of
    /// independent rounds.
    pub rounds: Option<usize>,
    pub skipped: Option<usize>,
    pub n_eff: Option<f64>,
    /// Rounds left out of the mean log ratio at each end (a trimmed mean).
    pub trimmed: Option<usize>,
    /// Why there is no comparison.
    pub reason: Option<String>,
}

json_struct!(ComparisonRecord {
    baseline,
    baseline_timestamp,
    noise_threshold_percent,
    threshold_percent,
    machine_change,
    benchmarks,
});
json_struct!(MachineChangeRecord {
    change,
    ci_low,
    ci_high,
    p_welch
});
json_struct!(ComparedRecord {
    name,
    status,
    verdict: default,
    measured_two_ways: default,
    old_ns: default,
    new_ns: default,
    change: default,
    ci_low: default,
    ci_high: default,
    p_welch: default,
    welch_t: default,
    welch_df: default,
});
json_struct!(GroupRecord {
    group,
    baseline,
    pairing,
    noise_threshold_percent,
    members
});
json_struct!(GroupMemberRecord {
    name,
    status,
    verdict: default,
    ratio: default,
    ci_low: default,
    ci_high: default,
    p_t: default,
    t: default,
    df: default,
    p_wilcoxon: default,
    rounds: default,
    skipped: default,
    n_eff: default,
    trimmed: default,
    reason: default,
});

/// The `comparison` section of a run compared with `report`'s baseline.
pub(crate) fn comparison(report: &BaselineReport, results: &[BenchResult]) -> ComparisonRecord {
    let bare = |name: &str, status: &str| ComparedRecord {
        name: name.to_string(),
        status: status.to_string(),
        verdict: None,
        measured_two_ways: false,
        old_ns: None,
        new_ns: None,
        change: None,
        ci_low: None,
        ci_high: None,
        p_welch: None,
        welch_t: None,
        welch_df: None,
    };
    let compared = results.iter().filter_map(|result| {
        Some(match result.comparison.as_ref()? {
            Compared::Against(c) => {
                let times = |status: &str| ComparedRecord {
                    measured_two_ways: c.two_ways,
                    old_ns: finite(c.old),
                    new_ns: finite(c.new),
                    ..bare(&result.name, status)
                };
                match &c.ratio {
                    Some(r) => ComparedRecord {
                        verdict: Some(r.verdict.to_string()),
                        change: finite(r.change),
                        ci_low: finite(r.change_interval.0),
                        ci_high: finite(r.change_interval.1),
                        p_welch: finite(r.p_welch),
                        welch_t: finite(r.welch_t),
                        welch_df: finite(r.welch_df),
                        ..times("compared")
                    },
                    None => times("too_fast"),
                }
            }
            Compared::New => bare(&result.name, "new"),
        })
    });
    let gone = report.gone.iter().map(|name| bare(name, "gone"));
    ComparisonRecord {
        baseline: report.name.clone(),
        baseline_timestamp: report.saved.clone(),
        noise_threshold_percent: report.noise_threshold * 100.0,
        threshold_percent: finite(report.threshold * 100.0),
        machine_change: report.machine_change.as_ref().map(machine_change),
        benchmarks: compared.chain(gone).collect(),
    }
}

fn machine_change(c: &Comparison) -> MachineChangeRecord {
    let r = c.ratio.as_ref();
    MachineChangeRecord {
        change: r.and_then(|r| finite(r.change)),
        ci_low: r.and_then(|r| finite(r.change_interval.0)),
        ci_high: r.and_then(|r| finite(r.change_interval.1)),
        p_welch: r.and_then(|r| finite(r.p_welch)),
    }
}

/// The `groups` section: one record per A/B report.
pub(crate) fn groups(reports: &[GroupReport]) -> Vec<GroupRecord> {
    reports.iter().map(group).collect()
}

fn group(report: &GroupReport) -> GroupRecord {
    let members = report
        .members
        .iter()
        .map(|(name, paired)| {
            let bare = GroupMemberRecord {
                name: name.clone(),
                status: "not_compared".to_string(),
                verdict: None,
                ratio: None,
                ci_low: None,
                ci_high: None,
                p_t: None,
                t: None,
                df: None,
                p_wilcoxon: None,
                rounds: None,
                skipped: None,
                n_eff: None,
                trimmed: None,
                reason: None,
            };
            match paired {
                Ok(p) => paired_member(p, bare),
                Err(why) => GroupMemberRecord {
                    reason: Some(why.clone()),
                    ..bare
                },
            }
        })
        .collect();
    GroupRecord {
        group: report.group.clone(),
        baseline: report.baseline.clone(),
        pairing: PAIRING_SLICES.to_string(),
        noise_threshold_percent: GROUP_NOISE_THRESHOLD * 100.0,
        members,
    }
}

fn paired_member(p: &PairedComparison, bare: GroupMemberRecord) -> GroupMemberRecord {
    GroupMemberRecord {
        status: "compared".to_string(),
        verdict: Some(p.verdict(GROUP_NOISE_THRESHOLD).to_string()),
        ratio: finite(p.ratio),
        ci_low: finite(p.ratio_interval.0),
        ci_high: finite(p.ratio_interval.1),
        p_t: finite(p.p_t),
        t: finite(p.t),
        df: finite(p.df),
        p_wilcoxon: finite(p.p_wilcoxon),
        rounds: Some(p.rounds),
        skipped: Some(p.skipped),
        n_eff: finite(p.n_eff),
        trimmed: Some(p.trimmed),
        ..bare
    }
}

/// JSON has no NaN or infinity: an undefined figure is written as null.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}
