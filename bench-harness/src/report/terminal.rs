//! The terminal report: a header, one aligned row per benchmark as it
//! finishes, notes under the rows that need them, and a closing count.
//! Smoke tests (`cargo test --benches`) print libtest's format instead.

use std::io;

use termcolor::{Color, ColorSpec, WriteColor};

use super::format::{count, p_value, percent, rate, stop_word, time};
use super::tree::{self, Line};
use bench_runtime::counter::Event;

use crate::analysis::compare::{Comparison, Verdict};
use crate::analysis::Summary;
use crate::audit::Warning;
use crate::document::Document;
use crate::results::{
    BenchResult, Compared, ComplexityReport, ForkSpread, GroupReport, Measured, Outcome, RunInfo,
    HIGH_CV, MACHINE_DRIFT,
};
use crate::settings::Schedule;

const TIME_WIDTH: usize = 10;
const SHORT_WIDTH: usize = 7;
/// The label of the line under a row that repeats its figures without
/// outliers; the name column is at least this wide.
const FILTERED_LABEL: &str = "  without outliers";

/// Writes the report to any colour-aware writer (stdout, or a buffer in tests).
pub(crate) struct Terminal<W: WriteColor> {
    out: W,
    name_width: usize,
    /// The throughput column's width; 0 when no row has a rate.
    rate_width: usize,
}

/// How [`Terminal::bench_table`] lays out the names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// A tree by group, module, function, type and argument.
    Tree,
    /// One row per benchmark under its full name (`--flat`).
    Flat,
}

impl<W: WriteColor> std::fmt::Debug for Terminal<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terminal")
            .field("name_width", &self.name_width)
            .finish_non_exhaustive()
    }
}

impl<W: WriteColor> Terminal<W> {
    /// A reporter whose name column fits every name in `names`.
    pub(crate) fn new<'a>(out: W, names: impl IntoIterator<Item = &'a str>) -> Self {
        let name_width = names
            .into_iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(FILTERED_LABEL.len());
        Terminal {
            out,
            name_width,
            rate_width: 0,
        }
    }

    pub(crate) fn into_inner(self) -> W {
        self.out
    }

    /// Before measuring: the machine in one line, then what makes its figures
    /// less trustworthy (the loud ones first), and how the run was set up.
    pub(crate) fn machine(
        &mut self,
        header: &str,
        warnings: &[Warning],
        pin: Option<usize>,
        cold_bytes: Option<usize>,
    ) -> io::Result<()> {
        for warning in warnings.iter().filter(|w| w.loud) {
            self.colour(Color::Red, true)?;
            writeln!(self.out, "warning: {}", warning.message)?;
            self.out.reset()?;
        }
        self.dim()?;
        writeln!(self.out, "machine: {header}")?;
        self.out.reset()?;
        for warning in warnings.iter().filter(|w| !w.loud) {
            self.colour(Color::Yellow, false)?;
            writeln!(self.out, "warning: {}", warning.message)?;
            self.out.reset()?;
        }
        let mut setup = Vec::new();
        if let Some(cpu) = pin {
            setup.push(format!("measuring threads pinned to CPU {cpu}"));
        }
        if let Some(bytes) = cold_bytes {
            setup.push(format!(
                "cold caches: {} MiB walked before each sample, untimed",
                bytes >> 20
            ));
        }
        if !setup.is_empty() {
            writeln!(self.out, "{}", setup.join(" · "))?;
        }
        Ok(())
    }

    /// The whole table: the header, then the rows laid out as `layout`
    /// says, each complexity fit under its function's rows.
    pub(crate) fn bench_table(
        &mut self,
        info: &RunInfo,
        results: &[BenchResult],
        reports: &[ComplexityReport],
        layout: Layout,
        details: bool,
    ) -> io::Result<()> {
        let lines = match layout {
            Layout::Tree => tree::tree(results, reports),
            Layout::Flat => tree::flat(results, reports),
        };
        self.name_width = lines
            .iter()
            .map(Line::width)
            .max()
            .unwrap_or(0)
            .max(FILTERED_LABEL.len());
        self.rate_width = results
            .iter()
            .filter_map(BenchResult::rate)
            .map(|(throughput, per_second)| rate(throughput, per_second).chars().count())
            .max()
            .map_or(0, |width| width.max("throughput".len()));
        self.bench_header(info)?;
        for line in &lines {
            match line {
                Line::Node { prefix, label } => {
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    writeln!(self.out, "{label}")?;
                }
                Line::Row {
                    prefix,
                    label,
                    index,
                } => {
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    let width = self.name_width - prefix.chars().count();
                    write!(self.out, "{label:<width$}")?;
                    self.row_figures(&results[*index], details)?;
                }
                Line::Complexity { prefix, index } => {
                    let report = &reports[*index];
                    let text = match (&report.fit, layout) {
                        (Ok(fit), Layout::Tree) => format!("complexity: {}", fit.describe()),
                        (Ok(fit), Layout::Flat) => {
                            format!("complexity of {}: {}", report.function, fit.describe())
                        }
                        (Err(why), _) => format!("complexity of {}: {why}", report.function),
                    };
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    self.colour(Color::Cyan, false)?;
                    writeln!(self.out, "{text}")?;
                    self.out.reset()?;
                }
            }
        }
        Ok(())
    }

    /// The run's header: what clock measures, how finely, what is subtracted,
    /// the stop rule, and the table's column titles.
    pub(crate) fn bench_header(&mut self, info: &RunInfo) -> io::Result<()> {
        self.dim()?;
        writeln!(
            self.out,
            "bench-harness {} · timer: {} at {:.3} GHz · resolution {} · read pair {} · samples ≥ {}",
            info.harness_version,
            info.clock_name,
            info.clock_hz / 1e9,
            time(info.precision.resolution.0),
            time(info.precision.overhead.0),
            time(info.sample_floor.0),
        )?;
        let (schedule, unit) = match info.schedule {
            Schedule::Interleaved => (
                format!("interleaved rounds (--seed {})", info.seed),
                "slice",
            ),
            Schedule::Sequential => ("sequential".to_string(), "twentieth of the run"),
        };
        let mut stop = if info.target_precision > 0.0 {
            format!(
                "until the time is known to ±{}",
                percent(info.target_precision)
            )
        } else {
            "for --measure-time".to_string()
        };
        if let Some(processes) = info.forks {
            stop.push_str(&format!(
                " · each benchmark in {processes} process{} (--forks), samples pooled",
                if processes == 1 { "" } else { "es" }
            ));
        }
        writeln!(
            self.out,
            "time: mean over each {unit}'s median, ± its 95% CI · loop overhead subtracted: {} per sample + {} per iteration · {schedule}, {stop}",
            time(info.overhead.per_sample.0),
            time(info.overhead.per_iter.0),
        )?;
        self.out.reset()?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        write!(self.out, "{:<w$}", "benchmark", w = self.name_width)?;
        write!(self.out, "  {:>TIME_WIDTH$}  {:>SHORT_WIDTH$}", "time", "±")?;
        if self.rate_width > 0 {
            write!(self.out, "  {:>w$}", "throughput", w = self.rate_width)?;
        }
        for column in ["median", "mean", "std dev"] {
            write!(self.out, "  {column:>TIME_WIDTH$}")?;
        }
        write!(self.out, "  {:>SHORT_WIDTH$}", "spread")?;
        for column in ["min", "max"] {
            write!(self.out, "  {column:>TIME_WIDTH$}")?;
        }
        writeln!(
            self.out,
            "  {:>8}  {:>8}  {:>7}  {:<8}",
            "outliers", "samples", "iters", "stop"
        )?;
        self.out.reset()
    }

    /// A row after its name: the figures, or the failure.
    fn row_figures(&mut self, result: &BenchResult, details: bool) -> io::Result<()> {
        match &result.outcome {
            Outcome::Measured(measured) => {
                let rate = result.rate().map(|(t, per_second)| rate(t, per_second));
                self.measured_row(measured, rate, details)
            }
            Outcome::Failed(failure) => {
                self.colour(Color::Red, true)?;
                write!(self.out, "  FAILED")?;
                self.out.reset()?;
                writeln!(self.out, ": {}", failure.message)?;
                if let Some(location) = &failure.location {
                    writeln!(self.out, "  at {location}")?;
                }
                Ok(())
            }
            Outcome::Ignored => {
                self.colour(Color::Yellow, false)?;
                writeln!(self.out, "  ignored")?;
                self.out.reset()
            }
            Outcome::Passed => writeln!(self.out, "  ok"),
        }
    }

    fn measured_row(
        &mut self,
        m: &Measured,
        rate: Option<String>,
        details: bool,
    ) -> io::Result<()> {
        self.colour(Color::Green, true)?;
        write!(self.out, "  {:>TIME_WIDTH$}", time(m.headline()))?;
        self.out.reset()?;
        let ci = m
            .precision
            .map_or("-".to_string(), |p| format!("±{}", percent(p)));
        write!(self.out, "  {ci:>SHORT_WIDTH$}")?;
        if self.rate_width > 0 {
            let rate = rate.unwrap_or_default();
            write!(self.out, "  {rate:>w$}", w = self.rate_width)?;
        }
        self.figures(m, &m.summary, m.outliers.tukey_total())?;
        writeln!(
            self.out,
            "  {:>7}  {:<8}",
            count(m.total_iters()),
            stop_word(m.measurement.stop)
        )?;
        if let Some(filtered) = &m.filtered {
            self.dim()?;
            write!(self.out, "{:<w$}", FILTERED_LABEL, w = self.name_width)?;
            write!(self.out, "  {:>TIME_WIDTH$}  {:>SHORT_WIDTH$}", "", "")?;
            if self.rate_width > 0 {
                write!(self.out, "  {:>w$}", "", w = self.rate_width)?;
            }
            self.figures(m, filtered, 0)?;
            writeln!(self.out)?;
            self.out.reset()?;
        }
        self.instrument_lines(m)?;
        if details {
            self.details(m)?;
        }

        for note in &m.notes {
            self.colour(Color::Yellow, false)?;
            writeln!(self.out, "  note: {note}")?;
            self.out.reset()?;
        }
        Ok(())
    }

    /// After the table: each benchmark against baseline `name`, the
    /// machine's own change of speed, and the verdicts by kind.
    pub(crate) fn comparison_table(
        &mut self,
        name: &str,
        baseline: &Document,
        results: &[BenchResult],
        registered: &[String],
        machine_change: Option<&Comparison>,
        threshold: f64,
    ) -> io::Result<()> {
        writeln!(self.out)?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        writeln!(
            self.out,
            "compared with baseline '{name}' (saved {})",
            baseline.environment.timestamp
        )?;
        self.out.reset()?;
        match machine_change {
            Some(m) => writeln!(
                self.out,
                "the machine itself: {} [{}, {}] (the harness's reference kernel), so a verdict needs the whole interval beyond ±{}",
                signed_percent(m.change),
                signed_percent(m.change_interval.0),
                signed_percent(m.change_interval.1),
                percent(threshold),
            )?,
            None => writeln!(
                self.out,
                "the baseline has no machine reference: verdicts use ±{} and cannot tell a slower machine from slower code",
                percent(threshold),
            )?,
        }
        let width = results
            .iter()
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(0)
            .max("benchmark".len());
        writeln!(
            self.out,
            "  {:<width$}  {:>8}  {:>20}  {:>9}  {:>9}  {:>6}  verdict",
            "benchmark", "change", "95% CI", "p (Welch)", "p (MW)", "d"
        )?;
        let mut tally: Vec<(Verdict, Vec<&str>)> = [
            Verdict::Regressed,
            Verdict::Improved,
            Verdict::NoChange,
            Verdict::WithinNoise,
        ]
        .map(|v| (v, Vec::new()))
        .into();
        let mut new = Vec::new();
        for result in results {
            match &result.comparison {
                Some(Compared::Against(c)) => {
                    match c.verdict {
                        Verdict::Regressed => self.colour(Color::Red, true)?,
                        Verdict::Improved => self.colour(Color::Green, true)?,
                        Verdict::NoChange | Verdict::WithinNoise => {}
                    }
                    writeln!(
                        self.out,
                        "  {:<width$}  {:>8}  [{:>8}, {:>8}]  {:>9}  {:>9}  {:>6.2}  {}",
                        result.name,
                        signed_percent(c.change),
                        signed_percent(c.change_interval.0),
                        signed_percent(c.change_interval.1),
                        p_value(c.p_welch),
                        p_value(c.p_mann_whitney),
                        c.cohens_d,
                        c.verdict,
                    )?;
                    self.out.reset()?;
                    if let Some((_, names)) = tally.iter_mut().find(|(v, _)| *v == c.verdict) {
                        names.push(&result.name);
                    }
                }
                Some(Compared::New) => {
                    writeln!(
                        self.out,
                        "  {:<width$}  new: not measured in the baseline",
                        result.name
                    )?;
                    new.push(result.name.as_str());
                }
                None => {}
            }
        }
        let gone: Vec<&str> = baseline
            .benchmarks
            .iter()
            .filter(|b| b.measurement.is_some() && !registered.contains(&b.name))
            .map(|b| b.name.as_str())
            .collect();
        let counts: Vec<String> = tally
            .iter()
            .map(|(verdict, names)| format!("{} {verdict}", names.len()))
            .collect();
        write!(self.out, "  {}", counts.join(" · "))?;
        if !new.is_empty() {
            write!(self.out, " · {} new", new.len())?;
        }
        if !gone.is_empty() {
            write!(
                self.out,
                " · gone (in the baseline, no longer in this binary): {}",
                gone.join(", ")
            )?;
        }
        writeln!(self.out)?;
        let regressed = &tally[0].1;
        if !regressed.is_empty() {
            self.colour(Color::Red, true)?;
            writeln!(self.out, "  regressed: {}", regressed.join(", "))?;
            self.out.reset()?;
        }
        Ok(())
    }

    /// An A/B group's ratio table: each member against the baseline member,
    /// from samples paired round by round. Pairing cancels the machine's
    /// drift, so a member is called slower or faster as soon as the paired
    /// test is significant and the interval excludes a ratio of 1.
    pub(crate) fn group_table(&mut self, group: &GroupReport) -> io::Result<()> {
        writeln!(self.out)?;
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        writeln!(
            self.out,
            "group {} · in-run A/B against {} (samples paired round by round)",
            group.group, group.baseline
        )?;
        self.out.reset()?;
        let width = group
            .members
            .iter()
            .map(|(name, _)| name.chars().count())
            .chain([group.baseline.chars().count(), "member".len()])
            .max()
            .unwrap_or(0);
        writeln!(
            self.out,
            "  {:<width$}  {:>8}  {:>21}  {:>9}  {:>9}  {:>6}  verdict",
            "member", "ratio", "95% CI", "p (t)", "p (W)", "rounds"
        )?;
        writeln!(
            self.out,
            "  {:<width$}  {:>8}  (baseline)",
            group.baseline, "1.0000"
        )?;
        if group.members.is_empty() {
            writeln!(self.out, "  no other member of the group ran")?;
        }
        for (name, paired) in &group.members {
            let p = match paired {
                Ok(p) => p,
                Err(why) => {
                    writeln!(self.out, "  {name:<width$}  no comparison: {why}")?;
                    continue;
                }
            };
            let verdict = p.verdict(0.0);
            match verdict {
                Verdict::Regressed => self.colour(Color::Red, true)?,
                Verdict::Improved => self.colour(Color::Green, true)?,
                _ => {}
            }
            writeln!(
                self.out,
                "  {name:<width$}  {:>8.4}  [{:>8.4}, {:>8.4}]  {:>9}  {:>9}  {:>6}  {}",
                p.ratio,
                p.ratio_interval.0,
                p.ratio_interval.1,
                p_value(p.p_t),
                p_value(p.p_wilcoxon),
                p.rounds,
                ab_words(verdict),
            )?;
            self.out.reset()?;
        }
        Ok(())
    }

    /// Median, mean, std dev, spread, min, max, outliers and samples of a
    /// summary of `m`'s samples.
    fn figures(&mut self, m: &Measured, s: &Summary, outliers: usize) -> io::Result<()> {
        for value in [s.median, s.mean, s.std_dev] {
            write!(self.out, "  {:>TIME_WIDTH$}", time(value))?;
        }
        let spread = m.spread(s);
        // Outliers inflate the pooled spread of every row; the colour marks
        // rows whose spread within slices (the note's figure) is high.
        if m.within_slice_spread > HIGH_CV {
            self.colour(Color::Yellow, false)?;
        }
        write!(self.out, "  {:>SHORT_WIDTH$}", percent(spread))?;
        self.out.reset()?;
        for value in [s.min, s.max] {
            write!(self.out, "  {:>TIME_WIDTH$}", time(value))?;
        }
        write!(self.out, "  {outliers:>8}  {:>8}", s.n)
    }

    /// Counters and allocations per iteration, when measured.
    fn instrument_lines(&mut self, m: &Measured) -> io::Result<()> {
        let extras = &m.extras;
        if !extras.counters.is_empty() {
            let per = |e: Event| extras.per_iteration(e);
            let mut parts: Vec<String> = extras
                .counters
                .iter()
                .map(|(event, _)| {
                    let value = per(*event).unwrap_or(0.0);
                    match event {
                        Event::TaskClock => format!("{} {}", time(value), event.name()),
                        _ => format!("{} {}", amount(value), event.name()),
                    }
                })
                .collect();
            if let (Some(i), Some(c)) = (per(Event::Instructions), per(Event::Cycles)) {
                parts.push(format!("IPC {:.2}", i / c.max(f64::MIN_POSITIVE)));
            }
            for (misses, of, what) in [
                (Event::BranchMisses, Event::Branches, "branch-miss rate"),
                (
                    Event::CacheMisses,
                    Event::CacheReferences,
                    "cache-miss rate",
                ),
                (
                    Event::L1dReadMisses,
                    Event::L1dReadAccesses,
                    "L1d-miss rate",
                ),
            ] {
                if let (Some(m), Some(o)) = (per(misses), per(of)) {
                    if o > 0.0 {
                        parts.push(format!("{} {what}", percent(m / o)));
                    }
                }
            }
            if extras.multiplexed {
                parts.push("(multiplexed: scaled)".to_string());
            }
            self.dim()?;
            writeln!(self.out, "  counters per iteration: {}", parts.join(" · "))?;
            self.out.reset()?;
        }
        if let Some(a) = m.allocations() {
            self.dim()?;
            writeln!(
                self.out,
                "  allocations per iteration: {} allocs · {} deallocs · {} reallocs · {} bytes",
                amount(a.allocations),
                amount(a.deallocations),
                amount(a.reallocations),
                amount(a.bytes_allocated),
            )?;
            self.out.reset()?;
        }
        if let Some(forks) = &m.forks {
            self.forks_line(forks)?;
        }
        Ok(())
    }

    /// `--forks`: each process's time, and the spread between processes
    /// against the spread within them.
    fn forks_line(&mut self, forks: &ForkSpread) -> io::Result<()> {
        let times: Vec<String> = forks.process_estimates.iter().map(|&t| time(t)).collect();
        let differ = match forks.p_value {
            Some(p) if forks.process_effect() => {
                format!("processes differ (p-value {})", p_value(p))
            }
            Some(p) => format!("no process effect (p-value {})", p_value(p)),
            None => "process effect not testable".to_string(),
        };
        self.dim()?;
        writeln!(
            self.out,
            "  {} processes: {} · spread between processes {} · within {} · {differ}",
            times.len(),
            times.join(", "),
            percent(forks.between),
            percent(forks.within),
        )?;
        self.out.reset()
    }

    /// `--details`: percentiles, intervals, outlier classes, warm-up, stop.
    fn details(&mut self, m: &Measured) -> io::Result<()> {
        let s = &m.summary;
        let p = &s.percentiles;
        self.dim()?;
        writeln!(
            self.out,
            "    percentiles  p50 {} · p90 {} · p95 {} · p99 {} · p99.9 {} · MAD {}",
            time(p.p50),
            time(p.p90),
            time(p.p95),
            time(p.p99),
            time(p.p99_9),
            time(s.median_absolute_deviation),
        )?;
        let interval = |ci: Option<crate::analysis::Interval>| {
            ci.map_or("-".to_string(), |ci| {
                format!(
                    "[{}, {}] ({} coverage)",
                    time(ci.lower),
                    time(ci.upper),
                    percent(ci.confidence)
                )
            })
        };
        writeln!(
            self.out,
            "    95% CI       time {} over {} slices · pooled median {} · pooled mean {}",
            interval(m.estimate.interval),
            m.estimate.block_medians.len(),
            interval(s.median_interval),
            interval(s.mean_interval),
        )?;
        let o = &m.outliers;
        writeln!(
            self.out,
            "    outliers     {} low severe, {} low mild, {} high mild, {} high severe (Tukey fences {} .. {}); {} beyond 3σ",
            o.low_severe,
            o.low_mild,
            o.high_mild,
            o.high_severe,
            time(o.fences.lower_inner),
            time(o.fences.upper_inner),
            o.beyond_3_sigma,
        )?;
        let w = &m.measurement.warm_up;
        let steady = match (w.steady, w.final_cv) {
            (true, Some(cv)) => format!("steady (rolling CV {})", percent(cv)),
            (false, Some(cv)) => format!("not steady (rolling CV {})", percent(cv)),
            (_, None) => "not steady (window never filled)".to_string(),
        };
        if let Some((cpu, wall)) = m.extras.cpu {
            let cpus: Vec<String> = m.extras.cpus.iter().map(usize::to_string).collect();
            writeln!(
                self.out,
                "    machine      CPU time {} user + {} system of {} wall ({}) · ran on CPU {}",
                time(cpu.user.0),
                time(cpu.system.0),
                time(wall.0),
                percent(m.extras.cpu_ratio().unwrap_or(0.0)),
                cpus.join(", "),
            )?;
        }
        let iters = m.measurement.samples.first().map_or(0, |s| s.iters);
        writeln!(
            self.out,
            "    sampling     warm-up {} in {} samples, {steady} · {} samples × {} iterations · {} re-warm samples discarded · {} in all · stopped: {}",
            time(w.time.0),
            w.samples,
            s.n,
            count(iters),
            m.measurement.rewarm_samples,
            time(m.measurement.total_time.0),
            stop_word(m.measurement.stop),
        )?;
        self.out.reset()
    }

    /// The closing line of a measured run.
    pub(crate) fn bench_summary(
        &mut self,
        results: &[BenchResult],
        seconds: f64,
    ) -> io::Result<()> {
        let tally = Tally::of(results);
        writeln!(self.out)?;
        let refused = results.iter().find_map(|r| {
            let refusals = &r.measured()?.extras.refusals;
            (!refusals.is_empty()).then_some(refusals)
        });
        for refusal in refused.into_iter().flatten() {
            let events: Vec<&str> = refusal.events.iter().map(|e| e.name()).collect();
            self.colour(Color::Yellow, false)?;
            writeln!(
                self.out,
                "note: counters not measured ({}): {}",
                events.join(", "),
                refusal.reason
            )?;
            self.out.reset()?;
        }
        let mut drifts: Vec<f64> = results.iter().filter_map(|r| r.measured()?.drift).collect();
        drifts.sort_by(f64::total_cmp);
        let drifted = drifts.iter().filter(|&&d| d > MACHINE_DRIFT).count();
        if drifted > 0 {
            self.colour(Color::Yellow, false)?;
            writeln!(
                self.out,
                "note: the machine's speed changed during the run: slice medians varied by more than {} (CV) in {drifted} of {} benchmarks (median {}); each time averages over the speeds it saw, so compare implementations within one interleaved run rather than across runs",
                percent(MACHINE_DRIFT),
                drifts.len(),
                percent(drifts[drifts.len() / 2]),
            )?;
            self.out.reset()?;
        }
        writeln!(
            self.out,
            "{} measured, {} failed, {} ignored in {seconds:.1} s",
            tally.measured, tally.failed, tally.ignored
        )?;
        self.failure_list(results)
    }

    /// libtest's opening line.
    pub(crate) fn test_header(&mut self, n: usize) -> io::Result<()> {
        let plural = if n == 1 { "" } else { "s" };
        writeln!(self.out, "\nrunning {n} benchmark{plural}")
    }

    /// libtest's `test NAME ... ok` line.
    pub(crate) fn test_line(&mut self, result: &BenchResult) -> io::Result<()> {
        write!(self.out, "test {} ... ", result.name)?;
        let (colour, word) = match &result.outcome {
            Outcome::Passed | Outcome::Measured(_) => (Color::Green, "ok"),
            Outcome::Failed(_) => (Color::Red, "FAILED"),
            Outcome::Ignored => (Color::Yellow, "ignored"),
        };
        self.colour(colour, false)?;
        write!(self.out, "{word}")?;
        self.out.reset()?;
        writeln!(self.out)
    }

    /// libtest's failure details and `test result:` line, which CI tools
    /// that read cargo test output understand.
    pub(crate) fn test_summary(
        &mut self,
        results: &[BenchResult],
        filtered_out: usize,
        seconds: f64,
    ) -> io::Result<()> {
        let failures: Vec<_> = failures(results).collect();
        if !failures.is_empty() {
            writeln!(self.out, "\nfailures:\n")?;
            for (name, failure) in &failures {
                writeln!(self.out, "---- {name} ----")?;
                match &failure.location {
                    Some(location) => writeln!(self.out, "{} (at {location})\n", failure.message)?,
                    None => writeln!(self.out, "{}\n", failure.message)?,
                }
            }
            writeln!(self.out, "failures:")?;
            for (name, _) in &failures {
                writeln!(self.out, "    {name}")?;
            }
        }
        let tally = Tally::of(results);
        let ok = tally.failed == 0;
        write!(self.out, "\ntest result: ")?;
        self.colour(if ok { Color::Green } else { Color::Red }, false)?;
        write!(self.out, "{}", if ok { "ok" } else { "FAILED" })?;
        self.out.reset()?;
        writeln!(
            self.out,
            ". {} passed; {} failed; {} ignored; 0 measured; {filtered_out} filtered out; finished in {seconds:.2}s\n",
            tally.passed + tally.measured,
            tally.failed,
            tally.ignored
        )
    }

    fn failure_list(&mut self, results: &[BenchResult]) -> io::Result<()> {
        let names: Vec<_> = failures(results).map(|(name, _)| name).collect();
        if !names.is_empty() {
            self.colour(Color::Red, true)?;
            writeln!(self.out, "failed: {}", names.join(", "))?;
            self.out.reset()?;
        }
        Ok(())
    }

    fn colour(&mut self, colour: Color, bold: bool) -> io::Result<()> {
        self.out
            .set_color(ColorSpec::new().set_fg(Some(colour)).set_bold(bold))
    }

    fn dim(&mut self) -> io::Result<()> {
        self.out.set_color(ColorSpec::new().set_dimmed(true))
    }
}

/// A member against its group's baseline: slower, faster, or no
/// difference the data can show.
fn ab_words(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Regressed => "slower",
        Verdict::Improved => "faster",
        Verdict::NoChange | Verdict::WithinNoise => "no difference found",
    }
}

/// A count per iteration: `0.00`, `12.5`, `3.20K`.
fn amount(value: f64) -> String {
    if value.abs() < 1000.0 {
        format!("{value:.2}")
    } else {
        count(value.round().max(0.0) as u64)
    }
}

/// `+3.21%`, `-0.50%`.
fn signed_percent(fraction: f64) -> String {
    if fraction.is_finite() {
        format!("{:+.2}%", fraction * 100.0)
    } else {
        "?".to_string()
    }
}

fn failures(results: &[BenchResult]) -> impl Iterator<Item = (&str, &crate::failure::Failure)> {
    results.iter().filter_map(|r| match &r.outcome {
        Outcome::Failed(failure) => Some((r.name.as_str(), failure)),
        _ => None,
    })
}

#[derive(Default)]
struct Tally {
    measured: usize,
    passed: usize,
    failed: usize,
    ignored: usize,
}

impl Tally {
    fn of(results: &[BenchResult]) -> Tally {
        let mut tally = Tally::default();
        for result in results {
            match result.outcome {
                Outcome::Measured(_) => tally.measured += 1,
                Outcome::Passed => tally.passed += 1,
                Outcome::Failed(_) => tally.failed += 1,
                Outcome::Ignored => tally.ignored += 1,
            }
        }
        tally
    }
}
