//! The run's state as the progress display reads it: each job's [`Phase`]
//! and [`JobClock`], the [`Status`] a [`Source`] (`run::Watch`) gives the
//! display (`report::progress`), and the line a worker relays it
//! in. Here, not in the display, because the run computes them.
//!
//! The estimate of the time left (see [`remaining`]) works from each job's
//! budget (`--warm-up-time` + `--measure-time`) and, for jobs past their
//! budget that wait on the precision rule, from how far the interval still
//! is from the target: a 95% half-width `h` shrinks with the square root of
//! the measuring time, so reaching the target `t` takes `(h/t)²` times the
//! measuring time so far, at most `--max-time`.

/// What starts a relayed status line: no line a program prints starts with
/// the ASCII record separator.
const RELAY_MARK: char = '\u{1e}';

/// The line a worker writes to relay `status`: the mark, then
/// counter, name and stage separated by the unit separator (any separator
/// or line break inside them replaced).
pub(crate) fn relay_line(status: &Status) -> String {
    let clean = |text: &str| text.replace(['\u{1e}', '\u{1f}', '\n', '\r'], " ");
    format!(
        "{RELAY_MARK}{}\u{1f}{}\u{1f}{}\n",
        clean(&status.counter),
        clean(&status.name),
        clean(&status.stage)
    )
}

/// The status a worker relayed in `line` (without its line break), or
/// `None` for any other line.
pub(crate) fn relayed(line: &str) -> Option<[String; 3]> {
    let mut fields = line.strip_prefix(RELAY_MARK)?.split('\u{1f}');
    let mut next = || fields.next().map(str::to_string);
    Some([next()?, next()?, next()?])
}

/// Where a job is, as its worker last said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Not started yet (or its set-up is running).
    Waiting,
    /// Calibrating the sample size and warming up.
    WarmUp,
    /// Recording samples within its measuring budget.
    Measuring,
    /// Past its budget, recording until the precision target is met.
    Precision,
    Done,
}

impl Phase {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Phase::Waiting => "setting up",
            Phase::WarmUp => "warming up",
            Phase::Measuring => "measuring",
            Phase::Precision => "narrowing the interval",
            Phase::Done => "done",
        }
    }
}

/// One job as the estimate of the time left sees it (seconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct JobClock {
    pub(crate) phase: Phase,
    /// Time spent on it so far.
    pub(crate) spent: f64,
    /// Of which recording samples.
    pub(crate) measuring: f64,
    /// The precision rule's last relative half-width.
    pub(crate) half_width: Option<f64>,
    /// The precision target; `None` under a time budget.
    pub(crate) target: Option<f64>,
    /// The least it takes when nothing waits on precision: the warm-up cap
    /// and the measuring time.
    pub(crate) budget: f64,
    /// The most it takes: `--max-time`.
    pub(crate) max: f64,
}

impl JobClock {
    /// The whole time this job should take, from its precision so far;
    /// `None` before the rule has a half-width to go on.
    fn predicted_total(&self) -> Option<f64> {
        match (self.phase, self.half_width, self.target) {
            (Phase::Done, ..) => Some(self.spent),
            (Phase::Precision, Some(h), Some(t)) if t > 0.0 && h.is_finite() => {
                let more = self.measuring * ((h / t).powi(2) - 1.0).max(0.0);
                Some((self.spent + more).min(self.max).max(self.spent))
            }
            _ => None,
        }
    }
}

/// Seconds left for jobs measured one at a time (the in-process schedule),
/// `elapsed` seconds into measuring.
///
/// Each job needs its budget; a job with a precision target needs more
/// when its interval is still wide: its own prediction once it has one
/// ([`JobClock::predicted_total`]), else its budget stretched by the mean
/// ratio of total to budget of the precision jobs predicted or done so far.
/// The sum is scaled by the run's wall time per second of the jobs' own
/// (the harness's work between samples and slices), between 1 and 3.
pub(crate) fn remaining(jobs: &[JobClock], elapsed: f64) -> f64 {
    let left: f64 = jobs_left(jobs).iter().sum();
    let spent: f64 = jobs.iter().map(|job| job.spent).sum();
    let overhead = if spent > 0.5 {
        (elapsed / spent).clamp(1.0, 3.0)
    } else {
        1.0
    };
    left * overhead
}

/// Rounds of slices of `slice` seconds the interleaved schedule still
/// needs: every unfinished job takes one slice a round, so the job with
/// the most time left decides.
pub(crate) fn rounds_left(jobs: &[JobClock], slice: f64) -> usize {
    let most = jobs_left(jobs).into_iter().fold(0.0, f64::max);
    if slice > 0.0 {
        (most / slice).ceil() as usize
    } else {
        0
    }
}

/// Each job's own time left (see [`remaining`]).
fn jobs_left(jobs: &[JobClock]) -> Vec<f64> {
    let stretches: Vec<f64> = jobs
        .iter()
        .filter(|job| job.target.is_some() && job.budget > 0.0)
        .filter_map(|job| Some(job.predicted_total()? / job.budget))
        .collect();
    let stretch = if stretches.is_empty() {
        1.0
    } else {
        (stretches.iter().sum::<f64>() / stretches.len() as f64).max(1.0)
    };
    jobs.iter()
        .map(|job| {
            let total = job.predicted_total().unwrap_or_else(|| {
                let budget = if job.target.is_some() {
                    job.budget * stretch
                } else {
                    job.budget
                };
                budget.min(job.max)
            });
            (total - job.spent).max(0.0)
        })
        .collect()
}

/// Seconds left for a sequence of units of similar cost (processes under
/// `--forks`, benchmarks under `--against`): `pending` units not started,
/// one under way for `current` seconds (if any), each expected to take the
/// mean of the `finished` units' durations, or `prior` before any finished.
pub(crate) fn remaining_units(
    finished: &[f64],
    pending: usize,
    current: Option<f64>,
    prior: f64,
) -> f64 {
    let each = if finished.is_empty() {
        prior
    } else {
        finished.iter().sum::<f64>() / finished.len() as f64
    };
    let under_way = current.map_or(0.0, |spent| (each - spent).max(0.0));
    pending as f64 * each + under_way
}

/// What the live line shows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Status {
    /// `[3/19]`, or `3/19 done` when benchmarks run interleaved.
    pub(crate) counter: String,
    /// The benchmark running now (empty between benchmarks).
    pub(crate) name: String,
    /// Its phase, or the round (`round 41 of ~80`), or the process.
    pub(crate) stage: String,
    /// Seconds since measuring began.
    pub(crate) elapsed: f64,
    /// Estimated seconds left for the whole run.
    pub(crate) remaining: Option<f64>,
}

/// Where a [`Progress`] display reads the run's state from.
pub(crate) trait Source: Send + Sync {
    fn status(&self) -> Status;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(phase: Phase, spent: f64) -> JobClock {
        JobClock {
            phase,
            spent,
            measuring: 0.0,
            half_width: None,
            target: Some(0.01),
            budget: 0.4,
            max: 2.0,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn jobs_not_started_need_their_budget() {
        let jobs = [job(Phase::Waiting, 0.0), job(Phase::Waiting, 0.0)];
        assert!(close(remaining(&jobs, 0.0), 0.8));
    }

    #[test]
    fn a_job_part_way_through_its_budget_needs_the_rest() {
        let jobs = [job(Phase::Measuring, 0.3), job(Phase::Waiting, 0.0)];
        assert!(close(remaining(&jobs, 0.3), 0.1 + 0.4));
    }

    #[test]
    fn a_job_waiting_on_precision_needs_the_square_of_its_distance_to_the_target() {
        // ±2% after 0.3 s of measuring, target ±1%: four times the
        // measuring time in all, so 0.9 s more.
        let waiting = JobClock {
            measuring: 0.3,
            half_width: Some(0.02),
            ..job(Phase::Precision, 0.4)
        };
        assert!(close(remaining(&[waiting], 0.4), 0.9));
        // Never past --max-time.
        let far = JobClock {
            half_width: Some(0.1),
            ..waiting
        };
        assert!(close(remaining(&[far], 0.4), 2.0 - 0.4));
    }

    #[test]
    fn jobs_not_yet_judged_are_stretched_as_the_others_were() {
        // One job done in 1.2 s against a 0.4 s budget (3×): the next one
        // is expected to take as long.
        let jobs = [job(Phase::Done, 1.2), job(Phase::Waiting, 0.0)];
        assert!(close(remaining(&jobs, 1.2), 1.2));
        // Jobs under a time budget are not stretched.
        let budget_only = JobClock {
            target: None,
            ..job(Phase::Waiting, 0.0)
        };
        let jobs = [job(Phase::Done, 1.2), budget_only];
        assert!(close(remaining(&jobs, 1.2), 0.4));
    }

    #[test]
    fn the_harness_s_own_time_scales_the_estimate() {
        // 2 s of wall time for 1 s of the jobs' own: twice the rest.
        let jobs = [job(Phase::Done, 0.4), job(Phase::Measuring, 0.6)];
        let rest = remaining(&jobs, 1.0);
        assert!(close(remaining(&jobs, 2.0), 2.0 * rest), "{rest}");
        // ... but never more than three times.
        assert!(close(remaining(&jobs, 100.0), 3.0 * rest));
    }

    #[test]
    fn the_job_with_the_most_left_decides_the_rounds() {
        // 0.4 s and 0.1 s left, slices of 5 ms: 80 rounds.
        let jobs = [job(Phase::Waiting, 0.0), job(Phase::Measuring, 0.3)];
        assert_eq!(rounds_left(&jobs, 0.005), 80);
        assert_eq!(rounds_left(&[job(Phase::Done, 0.4)], 0.005), 0);
    }

    #[test]
    fn finished_jobs_need_nothing() {
        assert_eq!(remaining(&[job(Phase::Done, 1.0)], 1.0), 0.0);
        assert_eq!(remaining(&[], 0.0), 0.0);
    }

    #[test]
    fn units_take_as_long_as_the_finished_ones_did() {
        assert!(close(remaining_units(&[], 3, None, 2.5), 7.5));
        assert!(close(remaining_units(&[1.0, 3.0], 2, Some(0.5), 9.0), 5.5));
        // A unit past the mean needs nothing more by this estimate.
        assert!(close(remaining_units(&[1.0], 0, Some(4.0), 9.0), 0.0));
    }
}
