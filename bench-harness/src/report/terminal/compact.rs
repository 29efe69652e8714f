//! The default table: one line per benchmark that fits the terminal's
//! width (name, time, ±, throughput when declared, change against the
//! baseline when given, `*` for a row with a note that changes how to read
//! it: [`notes::marked`]), then each kind of note once. `--details` prints
//! the full table instead ([`super::rows`]).
//!
//! A figure that cannot be trusted as precise (its ± target missed, too few
//! samples, its slices mostly slow) is yellow rather than green and its ±
//! ends in `?`, so it reads differently without colour too.

use std::io;

use termcolor::{Color, ColorSpec};

use super::text::{columns, fit_names, shorten_end, shorten_middle, wrap, wrap_after};
use super::{complexity_text, signed_percent, Layout, Terminal};
use crate::analysis::compare::Verdict;
use crate::report::format::{escape, pad_end, pad_start, rerun_cell, result_rate, Headline};
use crate::report::notes::{self, NoteGroup};
use crate::report::tree::{self, Line};
use crate::results::{BenchResult, Compared, ComplexityReport, Measured, Note, Outcome};

/// The time column's width: `999.9 ms`, `<1.234 ns`.
const TIME_WIDTH: usize = 9;
/// The narrowest name column worth printing; below it the table overflows.
const MIN_NAME_WIDTH: usize = 12;
/// The tree is kept while every label keeps at least this many columns
/// beside its connectors; else the table is flat.
const MIN_LABEL_WIDTH: usize = 8;
/// The room for names on a note's line that must be wrapped anyway.
const FEW_NAMES: usize = 24;
/// Continuation lines of a wrapped line start with this.
pub(super) const INDENT: &str = "  ";

/// A row's figures as printed.
struct Cells {
    time: String,
    plus_minus: String,
    /// Where a rerun's time falls, from the history; empty without.
    rerun: String,
    rate: String,
    change: String,
    verdict: Option<Verdict>,
    credible: bool,
    marked: bool,
}

impl Cells {
    fn of(result: &BenchResult, m: &Measured) -> Cells {
        let headline = Headline::of(m);
        // A bound (`<X`) has no ± of its own: the cell is empty, or `?`.
        let credible = credible(m);
        let plus_minus = match (headline.plus_minus(), credible) {
            (Some(p), true) => p,
            (Some(p), false) => format!("{p}?"),
            (None, _) if headline.is_bound() => (if credible { "" } else { "?" }).to_string(),
            (None, _) => "-?".to_string(),
        };
        let (change, verdict) = match &result.comparison {
            // The verdict's word; how far an unclear change may reach, and
            // why a change is too fast to compare, the comparison table
            // below says.
            Some(Compared::Against(c)) => match &c.ratio {
                Some(r) => {
                    let word = match r.verdict {
                        Verdict::NoDifference => String::new(),
                        other => format!(" {other}"),
                    };
                    (
                        format!("{}{word}", signed_percent(r.change)),
                        Some(r.verdict),
                    )
                }
                None => ("too fast".to_string(), None),
            },
            Some(Compared::New) => ("new".to_string(), None),
            None => (String::new(), None),
        };
        Cells {
            time: headline.time(),
            plus_minus,
            rerun: rerun_cell(m).unwrap_or_default(),
            rate: result_rate(result).unwrap_or_default(),
            change,
            verdict,
            credible: credible && !headline.is_bound(),
            marked: notes::marked(m),
        }
    }
}

/// Whether `m`'s time can be read as precise: its ± target was reached,
/// it has enough samples for a spread, and the machine left most of its
/// slices undisturbed.
pub(crate) fn credible(m: &Measured) -> bool {
    m.reliable()
        && m.precision.is_some()
        && !m.notes.iter().any(|n| {
            matches!(
                n,
                Note::NotPrecise { .. } | Note::FewSamples { .. } | Note::OneSample
            )
        })
}

/// The widths of the columns after the name; 0 for a column not shown.
#[derive(Debug, Clone, Copy)]
struct Widths {
    name: usize,
    time: usize,
    plus_minus: usize,
    rerun: usize,
    rate: usize,
    change: usize,
    mark: usize,
}

impl Widths {
    /// The columns after the name, separators included (the mark's is
    /// one space).
    fn figures(&self) -> usize {
        let column = |w: usize| if w > 0 { 2 + w } else { 0 };
        column(self.time)
            + column(self.plus_minus)
            + self.mark * 2
            + column(self.rerun)
            + column(self.rate)
            + column(self.change)
    }
}

impl Terminal<'_> {
    /// The compact table: rows laid out as `layout` says (a tree falls back
    /// to flat names when its connectors leave no room), a function's
    /// complexity fit under its rows, then the notes by kind.
    pub(super) fn compact_table(
        &mut self,
        results: &[BenchResult],
        reports: &[ComplexityReport],
        layout: Layout,
    ) -> io::Result<()> {
        let cells: Vec<Option<Cells>> = results
            .iter()
            .map(|r| r.measured().map(|m| Cells::of(r, m)))
            .collect();
        let widest = |text: fn(&Cells) -> &str| {
            cells
                .iter()
                .flatten()
                .map(|c| columns(text(c)))
                .max()
                .unwrap_or(0)
        };
        let optional = |width: usize, title: &str| {
            if width > 0 {
                width.max(columns(title))
            } else {
                0
            }
        };
        let mut widths = Widths {
            name: 0,
            time: widest(|c| &c.time).max(TIME_WIDTH),
            plus_minus: widest(|c| &c.plus_minus).max(1),
            rerun: optional(widest(|c| &c.rerun), "rerun"),
            rate: optional(widest(|c| &c.rate), "throughput"),
            change: optional(widest(|c| &c.change), "change"),
            mark: usize::from(cells.iter().flatten().any(|c| c.marked)),
        };
        let room = self
            .width
            .saturating_sub(widths.figures())
            .max(MIN_NAME_WIDTH);
        let mut lines = match layout {
            Layout::Tree => tree::tree(results, reports),
            Layout::Flat => tree::flat(results, reports),
        };
        let cramped = |lines: &[Line]| {
            lines.iter().any(|line| match line {
                Line::Node { prefix, label } | Line::Row { prefix, label, .. } => {
                    columns(prefix) + columns(label).min(MIN_LABEL_WIDTH) > room
                }
                Line::Complexity { .. } => false,
            })
        };
        if layout == Layout::Tree && cramped(&lines) {
            lines = tree::flat(results, reports);
        }
        let natural = lines.iter().map(Line::width).max().unwrap_or(0);
        widths.name = natural.max("benchmark".len()).min(room);

        self.compact_header(&widths)?;
        for line in &lines {
            match line {
                Line::Node { prefix, label } => {
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    let room = widths.name.saturating_sub(columns(prefix));
                    writeln!(self.out, "{}", shorten_middle(label, room))?;
                }
                Line::Row {
                    prefix,
                    label,
                    index,
                } => {
                    self.dim()?;
                    write!(self.out, "{prefix}")?;
                    self.out.reset()?;
                    let room = widths.name.saturating_sub(columns(prefix));
                    let label = shorten_middle(label, room);
                    let result = &results[*index];
                    match &cells[*index] {
                        Some(cells) => {
                            write!(self.out, "{}", pad_end(&label, room))?;
                            self.compact_figures(cells, &widths)?;
                            if let Some(m) = result.measured() {
                                self.instrument_lines(m)?;
                            }
                        }
                        None => {
                            write!(self.out, "{label}")?;
                            let used = columns(prefix) + columns(&label);
                            self.compact_outcome(result, used)?;
                        }
                    }
                }
                Line::Complexity { prefix, index } => {
                    let text = complexity_text(&reports[*index], layout, prefix);
                    let room = self.width.saturating_sub(columns(prefix));
                    self.complexity_line(prefix, &shorten_end(&text, room))?;
                }
            }
        }
        self.note_lines(&notes::grouped(results))
    }

    fn compact_header(&mut self, widths: &Widths) -> io::Result<()> {
        self.out.set_color(ColorSpec::new().set_bold(true))?;
        let mut line = pad_end("benchmark", widths.name);
        line.push_str(&format!("  {}", pad_start("time", widths.time)));
        line.push_str(&format!("  {}", pad_end("±", widths.plus_minus)));
        line.push_str(&" ".repeat(widths.mark * 2));
        if widths.rerun > 0 {
            line.push_str(&format!("  {}", pad_end("rerun", widths.rerun)));
        }
        if widths.rate > 0 {
            line.push_str(&format!("  {}", pad_start("throughput", widths.rate)));
        }
        if widths.change > 0 {
            line.push_str(&format!("  {}", pad_end("change", widths.change)));
        }
        writeln!(self.out, "{}", line.trim_end())?;
        self.out.reset()
    }

    /// A measured row after its name: every column up to the last one
    /// with something in it, so no line ends in spaces.
    fn compact_figures(&mut self, cells: &Cells, widths: &Widths) -> io::Result<()> {
        let (rate, change) = (!cells.rate.is_empty(), !cells.change.is_empty());
        let rerun = !cells.rerun.is_empty();
        if cells.credible {
            self.colour(Color::Green, true)?;
        } else {
            self.colour(Color::Yellow, false)?;
        }
        write!(self.out, "  {}", pad_start(&cells.time, widths.time))?;
        self.out.reset()?;
        if !cells.credible {
            self.colour(Color::Yellow, false)?;
        }
        let more = rate || change;
        if more || rerun || cells.marked {
            write!(
                self.out,
                "  {}",
                pad_end(&cells.plus_minus, widths.plus_minus)
            )?;
        } else {
            write!(self.out, "  {}", cells.plus_minus)?;
        }
        self.out.reset()?;
        if widths.mark > 0 && (more || rerun || cells.marked) {
            self.colour(Color::Yellow, false)?;
            write!(self.out, " {}", if cells.marked { '*' } else { ' ' })?;
            self.out.reset()?;
        }
        if widths.rerun > 0 && more {
            write!(self.out, "  {}", pad_end(&cells.rerun, widths.rerun))?;
        } else if rerun {
            write!(self.out, "  {}", cells.rerun)?;
        }
        if widths.rate > 0 && more {
            write!(self.out, "  {}", pad_start(&cells.rate, widths.rate))?;
        }
        if widths.change > 0 && change {
            match cells.verdict {
                Some(Verdict::Slower) => self.colour(Color::Red, true)?,
                Some(Verdict::Faster) => self.colour(Color::Green, true)?,
                _ => {}
            }
            write!(self.out, "  {}", cells.change)?;
            self.out.reset()?;
        }
        writeln!(self.out)
    }

    /// A row that was not measured, after its name (`used` columns): why,
    /// a failure's message wrapped to the width.
    fn compact_outcome(&mut self, result: &BenchResult, used: usize) -> io::Result<()> {
        match &result.outcome {
            Outcome::Failed(failure) => {
                let indent = format!("{INDENT}{INDENT}");
                let message: Vec<_> = failure.message.lines().map(escape).collect();
                let text = format!("FAILED: {}", message.join(" "));
                // The first line beside the name, the rest under it.
                let first = self.width.saturating_sub(used + 2);
                let lines = wrap_after(&text, first, self.width, &indent);
                for (i, line) in lines.iter().enumerate() {
                    if i == 0 {
                        let (word, rest) = line.split_at("FAILED".len().min(line.len()));
                        self.colour(Color::Red, true)?;
                        write!(self.out, "  {word}")?;
                        self.out.reset()?;
                        writeln!(self.out, "{rest}")?;
                    } else {
                        writeln!(self.out, "{line}")?;
                    }
                }
                if let Some(location) = &failure.location {
                    let at = format!("{indent}at {}", escape(location));
                    writeln!(self.out, "{}", shorten_middle(&at, self.width))?;
                }
                Ok(())
            }
            Outcome::Ignored => {
                self.colour(Color::Yellow, false)?;
                writeln!(self.out, "  ignored")?;
                self.out.reset()
            }
            Outcome::Passed => writeln!(self.out, "  ok"),
            Outcome::Measured(_) => unreachable!("a measured row has cells"),
        }
    }

    /// Each kind of note once, under the table: `note: what: names; remedy`,
    /// as many names as fit and how many more.
    fn note_lines(&mut self, groups: &[NoteGroup]) -> io::Result<()> {
        for group in groups {
            self.colour(Color::Yellow, false)?;
            for line in note_line(group, self.width) {
                writeln!(self.out, "{line}")?;
            }
            self.out.reset()?;
        }
        Ok(())
    }
}

/// The line of one kind of note in `width` columns: as many names as fit,
/// else the count; wrapped only when not even the count fits.
pub(crate) fn note_line(group: &NoteGroup, width: usize) -> Vec<String> {
    let names: Vec<&str> = group.names.iter().map(String::as_str).collect();
    let frame = columns(&format!("note: {}: ; {}", group.summary, group.remedy));
    match fit_names(&names, width.saturating_sub(frame)) {
        Some(list) => vec![format!("note: {}: {list}; {}", group.summary, group.remedy)],
        None => {
            // Wrapped all the same: as few names as say which.
            let list = fit_names(&names, FEW_NAMES).unwrap_or_else(|| names.len().to_string());
            let text = format!("note: {}: {list}; {}", group.summary, group.remedy);
            wrap(&text, width, INDENT)
        }
    }
}
