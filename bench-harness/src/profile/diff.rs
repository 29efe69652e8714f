//! Two builds' profiles of one benchmark, compared: how much of an
//! iteration's time each stack and each function took in either build.
//!
//! Samples come at a fixed rate of the thread's CPU time, so a build that
//! runs more iterations in the same time also takes more samples of every
//! function: each count is turned into CPU time per iteration (samples
//! per iteration times the CPU time one sample stands for) before the
//! builds are compared, and a change is said in points of this build's
//! time per iteration. (Not the wall time: on a busy machine a thread
//! waits for a CPU for a while, and no sample is taken meanwhile.)

use std::collections::HashMap;

use super::fold::Folded;

/// One build's profile of a benchmark.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side<'a> {
    pub folded: &'a Folded,
    /// Iterations the routine ran while profiled.
    pub iterations: u64,
    /// The thread's CPU time between two samples, in nanoseconds.
    pub sample_ns: f64,
}

impl Side<'_> {
    /// Nanoseconds per iteration that `samples` of the thread's stand for.
    fn per_iteration(&self, samples: u64) -> f64 {
        if self.iterations == 0 {
            return 0.0;
        }
        samples as f64 * self.sample_ns / self.iterations as f64
    }

    /// Nanoseconds per iteration of the whole thread.
    pub(crate) fn iteration(&self) -> f64 {
        self.per_iteration(self.folded.samples)
    }
}

/// A function's own time (samples in which it was the sampled frame) in
/// both builds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Change {
    pub function: String,
    /// Nanoseconds per iteration in this build.
    pub this: f64,
    /// Nanoseconds per iteration in the other build.
    pub other: f64,
    /// `this - other`, in points (percent) of this build's time per
    /// iteration.
    pub points: f64,
}

/// Every function's own time in both builds, most grown first.
pub(crate) fn functions(this: Side<'_>, other: Side<'_>) -> Vec<Change> {
    let mine = self_samples(this.folded);
    let theirs = self_samples(other.folded);
    let total = this.iteration();
    let mut names: Vec<&str> = mine.keys().chain(theirs.keys()).copied().collect();
    names.sort_unstable();
    names.dedup();
    let mut changes: Vec<Change> = names
        .into_iter()
        .map(|name| {
            let a = this.per_iteration(mine.get(name).copied().unwrap_or(0));
            let b = other.per_iteration(theirs.get(name).copied().unwrap_or(0));
            Change {
                function: name.to_string(),
                this: a,
                other: b,
                points: if total > 0.0 {
                    (a - b) / total * 100.0
                } else {
                    0.0
                },
            }
        })
        .collect();
    changes.sort_by(|x, y| y.points.total_cmp(&x.points));
    changes
}

/// Samples per function as the sampled (innermost) frame.
fn self_samples(folded: &Folded) -> HashMap<&str, u64> {
    let mut counts = HashMap::new();
    for (stack, n) in &folded.stacks {
        if let Some(leaf) = stack.last() {
            *counts.entry(leaf.as_str()).or_insert(0) += n;
        }
    }
    counts
}

/// For each stack prefix (root first) of this build, the change of its
/// time per iteration against the other build, in points of this build's
/// time per iteration: what colours a differential flame graph's frames.
pub(crate) fn prefixes(this: Side<'_>, other: Side<'_>) -> HashMap<Vec<String>, f64> {
    let mine = inclusive(this.folded);
    let theirs = inclusive(other.folded);
    let total = this.iteration();
    mine.into_iter()
        .map(|(prefix, n)| {
            let a = this.per_iteration(n);
            let b = other.per_iteration(theirs.get(&prefix).copied().unwrap_or(0));
            let points = if total > 0.0 {
                (a - b) / total * 100.0
            } else {
                0.0
            };
            (prefix, points)
        })
        .collect()
}

/// Samples per stack prefix.
fn inclusive(folded: &Folded) -> HashMap<Vec<String>, u64> {
    let mut counts = HashMap::new();
    for (stack, n) in &folded.stacks {
        for depth in 1..=stack.len() {
            *counts.entry(stack[..depth].to_vec()).or_insert(0) += n;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folded(stacks: &[(&str, u64)]) -> Folded {
        let stacks: Vec<(Vec<String>, u64)> = stacks
            .iter()
            .map(|(s, n)| (s.split(';').map(str::to_string).collect(), *n))
            .collect();
        Folded {
            samples: stacks.iter().map(|(_, n)| n).sum(),
            stacks,
            others: 0,
        }
    }

    #[test]
    fn a_helper_twice_as_slow_is_the_most_grown_and_iterations_are_normalised() {
        // Before: 100 ns an iteration, half in each helper. After: the
        // slow helper takes 100 ns, so an iteration 150 ns; the profile
        // ran the same time, so fewer iterations and as many samples.
        // (One sample a millisecond: 1,000 samples a second.)
        let before = folded(&[("main;fast", 500), ("main;slow", 500)]);
        let after = folded(&[("main;fast", 333), ("main;slow", 667)]);
        let this = Side {
            folded: &after,
            iterations: 6_666_667,
            sample_ns: 1e6,
        };
        let other = Side {
            folded: &before,
            iterations: 10_000_000,
            sample_ns: 1e6,
        };
        assert!((this.iteration() - 150.0).abs() < 1e-3);
        let changes = functions(this, other);
        assert_eq!(changes[0].function, "slow");
        assert!((changes[0].this - 100.05).abs() < 0.1, "{changes:?}");
        assert!((changes[0].other - 50.0).abs() < 0.1, "{changes:?}");
        assert!((changes[0].points - 33.4).abs() < 0.2, "{changes:?}");
        let fast = changes.iter().find(|c| c.function == "fast").unwrap();
        assert!(fast.points.abs() < 0.1, "{fast:?}");
        let prefixes = prefixes(this, other);
        let main = prefixes[&vec!["main".to_string()]];
        assert!(
            (main - 33.3).abs() < 0.2,
            "main grew by the helper's growth"
        );
    }

    #[test]
    fn a_build_against_itself_changes_nothing() {
        let profile = folded(&[("main;a", 10), ("main;b", 30)]);
        let side = Side {
            folded: &profile,
            iterations: 7,
            sample_ns: 1e6,
        };
        assert!(functions(side, side).iter().all(|c| c.points == 0.0));
    }
}
