//! `perf script`'s samples folded into stacks: one thread's samples only,
//! each stack from the thread's root to the sampled frame, counted.

use std::collections::HashMap;
use std::io::BufRead;

/// The frame that runs a benchmark's routine under `--profile-time`: the
/// frames below it are the routine's.
pub(crate) const DRIVER_FRAME: &str = "bench_harness::run::profile::BackToBack";

/// One thread's samples, folded.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Folded {
    /// Each distinct stack, root first, and how many samples ended in it;
    /// sorted by stack.
    pub stacks: Vec<(Vec<String>, u64)>,
    /// Samples of the thread.
    pub samples: u64,
    /// Samples of other threads and processes, left out.
    pub others: u64,
}

/// The longest line read from `perf script`: a longer one (a symbol
/// name gone wild) is cut there, so memory stays bounded.
const MAX_LINE: usize = 4096;

/// The most frames kept of one sample: deeper recursion is cut at the
/// root end.
const MAX_DEPTH: usize = 512;

impl Folded {
    /// Folds the samples of thread `tid` from `perf script -F tid,ip,sym`
    /// output: a line with the thread id, then one line per frame, the
    /// sampled one first, then a blank line.
    pub(crate) fn read(text: impl BufRead, tid: u32) -> std::io::Result<Folded> {
        let mut counts: HashMap<Vec<String>, u64> = HashMap::new();
        let mut folded = Folded::default();
        let mut current: Option<Vec<String>> = None;
        let mut mine = false;
        let mut end = |frames: Option<Vec<String>>, mine: bool, folded: &mut Folded| {
            let Some(mut frames) = frames else { return };
            if !mine {
                folded.others += 1;
                return;
            }
            frames.truncate(MAX_DEPTH);
            frames.reverse();
            folded.samples += 1;
            *counts.entry(frames).or_insert(0) += 1;
        };
        for line in lines(text) {
            let line = line?;
            if line.trim().is_empty() {
                end(current.take(), mine, &mut folded);
            } else if line.starts_with('\t') {
                if let Some(frames) = current.as_mut() {
                    frames.push(frame_name(&line));
                }
            } else {
                end(current.take(), mine, &mut folded);
                mine = line.trim().parse::<u32>() == Ok(tid);
                current = Some(Vec::new());
            }
        }
        end(current.take(), mine, &mut folded);
        folded.stacks = counts.into_iter().collect();
        folded.stacks.sort();
        Ok(folded)
    }

    /// Samples in the benchmark's routine: below the `--profile-time`
    /// driver's frame.
    pub(crate) fn in_routine(&self) -> u64 {
        self.stacks
            .iter()
            .filter(|(stack, _)| {
                let driver = stack.iter().position(|f| f.contains(DRIVER_FRAME));
                driver.is_some_and(|at| at + 1 < stack.len())
            })
            .map(|(_, n)| n)
            .sum()
    }

    /// The folded text, one `root;...;leaf COUNT` line per stack (the
    /// format flamegraph.pl, inferno and speedscope read); `;` within a
    /// name (`[u8; 4]`) becomes `:`.
    pub(crate) fn text(&self) -> String {
        let mut text = String::new();
        for (stack, count) in &self.stacks {
            let names: Vec<String> = stack.iter().map(|f| f.replace(';', ":")).collect();
            text.push_str(&names.join(";"));
            text.push_str(&format!(" {count}\n"));
        }
        text
    }
}

/// The lines of `text`, each cut at [`MAX_LINE`] bytes.
fn lines(mut text: impl BufRead) -> impl Iterator<Item = std::io::Result<String>> {
    std::iter::from_fn(move || {
        let mut line = Vec::new();
        loop {
            let buffer = match text.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Some(Err(e)),
            };
            if buffer.is_empty() {
                return (!line.is_empty()).then(|| Ok(String::from_utf8_lossy(&line).into_owned()));
            }
            let (taken, done) = match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            };
            let room = MAX_LINE.saturating_sub(line.len());
            line.extend_from_slice(&buffer[..taken.min(room)]);
            text.consume(taken);
            if done {
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                return Some(Ok(String::from_utf8_lossy(&line).into_owned()));
            }
        }
    })
}

/// A frame line's symbol: `\t  ADDRESS SYMBOL (DSO)` without the address
/// (and the DSO, where perf prints one); `[unknown]` where perf has none.
fn frame_name(line: &str) -> String {
    let rest = line.trim();
    let symbol = rest.split_once(' ').map_or("", |(_, s)| s).trim();
    let symbol = match symbol.rfind(" (") {
        Some(at) if symbol.ends_with(')') => &symbol[..at],
        _ => symbol,
    };
    if symbol.is_empty() {
        "[unknown]".to_string()
    } else {
        symbol.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "\
 42 
\tffffffff8158c3e1 next_uptodate_folio
\t          2015b0 suite::scaling::make_data
\t           8212b main

 7 
\t          2015b0 other_thread

 42 
\t          2015c0 core::slice::sort::heapsort<[u8; 4]>
\t           8212b main

 42 
\t          2015c0 core::slice::sort::heapsort<[u8; 4]>
\t           8212b main
";

    #[test]
    fn samples_of_the_thread_are_folded_root_first_and_counted() {
        let folded = Folded::read(SCRIPT.as_bytes(), 42).unwrap();
        assert_eq!((folded.samples, folded.others), (3, 1));
        assert_eq!(
            folded.text(),
            "main;core::slice::sort::heapsort<[u8: 4]> 2\n\
             main;suite::scaling::make_data;next_uptodate_folio 1\n"
        );
    }

    #[test]
    fn a_line_too_long_is_cut_not_kept_whole() {
        let long = format!(" 1 \n\t 1 {}\n", "x".repeat(100_000));
        let folded = Folded::read(long.as_bytes(), 1).unwrap();
        assert_eq!(folded.stacks.len(), 1);
        assert!(folded.stacks[0].0[0].len() < MAX_LINE);
    }

    #[test]
    fn samples_under_the_driver_are_the_routines() {
        let driver = format!("<{DRIVER_FRAME} as bench_runtime::Driver>::drive");
        let script =
            format!(" 5 \n\t 1 sort\n\t 2 {driver}\n\t 3 main\n\n 5 \n\t 2 {driver}\n\t 3 main\n");
        let folded = Folded::read(script.as_bytes(), 5).unwrap();
        assert_eq!((folded.samples, folded.in_routine()), (2, 1));
    }
}
