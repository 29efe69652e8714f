//! One benchmark's row of the full table (`--details`): its figures or its
//! failure, the line without outliers, counters and allocations, the
//! processes of `--forks`, percentiles, intervals, outliers and sampling,
//! and its notes.

use std::io;

use termcolor::Color;

use super::{message_lines, Terminal, FILTERED_LABEL, SHORT_WIDTH, TIME_WIDTH};
use crate::analysis::Summary;
use crate::report::format::{
    allocation_words, count, counter_parts, escape, p_value, pad_end, pad_start, percent,
    result_rate, stop_word, time, Headline,
};
use crate::report::notes::bound_text;
use crate::results::{BenchResult, ForkSpread, Measured, Outcome, HIGH_CV};

impl Terminal<'_> {
    /// A row after its name: the figures, or the failure.
    pub(super) fn row_figures(&mut self, result: &BenchResult) -> io::Result<()> {
        match &result.outcome {
            Outcome::Measured(measured) => {
                let rate = result_rate(result);
                self.measured_row(measured, rate)
            }
            Outcome::Failed(failure) => {
                self.colour(Color::Red, true)?;
                write!(self.out, "  FAILED")?;
                self.out.reset()?;
                writeln!(self.out, ": {}", message_lines(&failure.message, "  "))?;
                if let Some(location) = &failure.location {
                    writeln!(self.out, "  at {}", escape(location))?;
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

    fn measured_row(&mut self, m: &Measured, rate: Option<String>) -> io::Result<()> {
        // An unreliable figure is not dressed like a precise one: yellow,
        // not bold green, and its ± marked. Nor is a bound (`<X`), which
        // has no ± of its own.
        let reliable = m.reliable();
        let headline = Headline::of(m);
        if reliable && !headline.is_bound() {
            self.colour(Color::Green, true)?;
        } else {
            self.colour(Color::Yellow, false)?;
        }
        write!(self.out, "  {:>TIME_WIDTH$}", headline.time())?;
        self.out.reset()?;
        let mark = if reliable { "" } else { "?" };
        let ci = headline
            .plus_minus()
            .map_or("-".to_string(), |p| format!("{p}{mark}"));
        write!(self.out, "  {ci:>SHORT_WIDTH$}")?;
        if self.rate_width > 0 {
            let rate = rate.unwrap_or_default();
            write!(self.out, "  {}", pad_start(&rate, self.rate_width))?;
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
            write!(self.out, "{}", pad_end(FILTERED_LABEL, self.name_width))?;
            write!(self.out, "  {:>TIME_WIDTH$}  {:>SHORT_WIDTH$}", "", "")?;
            if self.rate_width > 0 {
                write!(self.out, "  {}", pad_start("", self.rate_width))?;
            }
            self.figures(m, filtered, 0)?;
            writeln!(self.out)?;
            self.out.reset()?;
        }
        self.instrument_lines(m)?;
        self.details(m)?;

        let notes = m.notes.iter().map(ToString::to_string);
        for note in bound_text(m).into_iter().chain(notes) {
            self.colour(Color::Yellow, false)?;
            writeln!(self.out, "  note: {note}")?;
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

    /// Counters and allocations per iteration, when measured, and under
    /// `--details` the processes of `--forks`: dim lines under the row,
    /// wrapped to the width in the compact view.
    pub(super) fn instrument_lines(&mut self, m: &Measured) -> io::Result<()> {
        let extras = &m.extras;
        let mut lines = Vec::new();
        if let Some(parts) = counter_parts(extras) {
            lines.push(format!("  counters per iteration: {}", parts.join(" · ")));
        }
        if let Some(a) = m.allocations() {
            lines.push(format!(
                "  allocations per iteration: {}",
                allocation_words(&a)
            ));
        }
        if let Some(forks) = m.forks.as_ref().filter(|_| self.details) {
            lines.push(forks_line(forks));
        }
        self.dim()?;
        for line in &lines {
            for line in self.fitted_with(line, "    ") {
                writeln!(self.out, "{line}")?;
            }
        }
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
            "    95% CI       time {} over {} of {} blocks (undisturbed) · pooled median {} · pooled mean {}",
            interval(m.estimate.interval),
            m.estimate.kept_blocks,
            m.estimate.block_means.len(),
            interval(s.median_interval),
            interval(s.mean_interval),
        )?;
        if let Some(rerun) = crate::report::format::rerun_cell(m) {
            writeln!(
                self.out,
                "    rerun        {rerun}: {}",
                crate::report::format::RERUN_MEANS
            )?;
        }
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
}

/// `--forks`: each process's time, and the spread between processes
/// against the spread within them.
fn forks_line(forks: &ForkSpread) -> String {
    let times: Vec<String> = forks.process_estimates.iter().map(|&t| time(t)).collect();
    let differ = match forks.p_value {
        Some(p) if forks.process_effect() => {
            format!("processes differ (p-value {})", p_value(p))
        }
        Some(p) => format!("no process effect (p-value {})", p_value(p)),
        None => "process effect not testable".to_string(),
    };
    format!(
        "  {} processes: {} · spread between processes {} · within {} · {differ}",
        times.len(),
        times.join(", "),
        percent(forks.between),
        percent(forks.within),
    )
}
