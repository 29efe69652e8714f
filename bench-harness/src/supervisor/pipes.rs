//! A child's pipes, read on threads of their own and bounded: standard
//! error kept to its last [`STDERR_TAIL`] bytes, standard output read as
//! lines of at most [`LINE_LIMIT`] bytes. A child that floods either costs
//! this process little.

use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// The bytes of a child's standard error kept to explain its end.
pub(super) const STDERR_TAIL: usize = 64 * 1024;

/// The longest line read from a child's standard output; the rest of a
/// longer one is dropped, and what is passed on ends in
/// [`CUT_MARK`], so that no reply parses from it.
pub(super) const LINE_LIMIT: usize = 16 << 20;

/// What ends a line cut at [`LINE_LIMIT`].
pub(super) const CUT_MARK: &str = "…(cut: a line over 16 MiB)";

/// Takes a line of standard error before it is kept (true: taken).
pub(crate) type Relay = Box<dyn Fn(&str) -> bool + Send>;

/// The end of a child's standard error, at most about [`STDERR_TAIL`]
/// bytes.
#[derive(Debug, Default)]
pub(super) struct Tail {
    bytes: Vec<u8>,
    /// Whether the beginning (or for a capture, the end) was dropped.
    cut: bool,
    /// A capture of the whole output ([`read_all`]): at most this many
    /// bytes from the start, not the end.
    head: Option<usize>,
    /// Whether the reader reached the end (or could read no more).
    closed: bool,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        if let Some(limit) = self.head {
            let room = limit.saturating_sub(self.bytes.len());
            self.cut |= chunk.len() > room;
            self.bytes
                .extend_from_slice(&chunk[..chunk.len().min(room)]);
            return;
        }
        self.bytes.extend_from_slice(chunk);
        if self.bytes.len() > 2 * STDERR_TAIL {
            let drop = self.bytes.len() - STDERR_TAIL;
            self.bytes.drain(..drop);
            self.cut = true;
        }
    }

    /// The text kept, from the first whole line when the beginning was
    /// dropped.
    fn text(&self) -> String {
        let mut bytes = &self.bytes[self.bytes.len().saturating_sub(STDERR_TAIL)..];
        if self.cut || bytes.len() < self.bytes.len() {
            if let Some(newline) = bytes.iter().position(|&b| b == b'\n') {
                bytes = &bytes[newline + 1..];
            }
        }
        String::from_utf8_lossy(bytes).into_owned()
    }
}

/// The line of a child's standard error that says why it failed: the last
/// one that is not the runtime's boilerplate (`note: run with
/// RUST_BACKTRACE=1 …`, a backtrace's frames), else the last one.
fn telling_line(stderr: &str) -> Option<&str> {
    let lines = || {
        stderr
            .lines()
            .rev()
            .map(str::trim)
            .filter(|l| !l.is_empty())
    };
    let noise = |line: &str| {
        let frame = line
            .split_once(':')
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        line.starts_with("note: ") || line.starts_with("at ") || line == "stack backtrace:" || frame
    };
    lines().find(|line| !noise(line)).or_else(|| lines().next())
}

/// [`telling_line`] as a message quotes it: at most [`QUOTED`] characters
/// (a flood of one line would make the one-line error 64 KiB long).
pub(crate) fn last_words(stderr: &str) -> Option<String> {
    let line = telling_line(stderr)?;
    Some(match line.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    })
}

/// The most characters of a child's line a message quotes.
const QUOTED: usize = 300;

/// A child's [`Tail`], and the signal that its reader reached the end.
///
/// PERF: a condition variable, not a channel: each channel's message type
/// compiles all of `std::sync::mpmc` again (~8,000 lines of IR).
pub(super) type SharedTail = Arc<(Mutex<Tail>, Condvar)>;

/// Reads `stderr` into a shared [`Tail`] on a thread of its own, marking
/// it closed at the end. A whole line that `relay` takes (a status line a
/// worker relays) is not kept.
pub(super) fn read_tail(stderr: impl Read + Send + 'static, relay: Option<Relay>) -> SharedTail {
    read_into(stderr, Tail::default(), relay)
}

/// Reads `stdout` whole, at most `limit` bytes, on a thread of its own.
pub(super) fn read_all(stdout: impl Read + Send + 'static, limit: usize) -> SharedTail {
    let head = Tail {
        head: Some(limit),
        ..Tail::default()
    };
    read_into(stdout, head, None)
}

/// Reads `from` into `tail` on a thread of its own, line by line (a line
/// `relay` takes is not kept), and marks it closed at the end.
fn read_into(mut from: impl Read + Send + 'static, tail: Tail, relay: Option<Relay>) -> SharedTail {
    let tail: SharedTail = Arc::new((Mutex::new(tail), Condvar::new()));
    let kept = tail.clone();
    std::thread::spawn(move || {
        let (lock, closed) = &*kept;
        let mut buffer = vec![0; 16 * 1024];
        // The unfinished line, held back until its end shows whether it
        // was relayed; a line longer than the tail is no status.
        let mut line: Vec<u8> = Vec::new();
        let keep = |bytes: &[u8]| {
            lock.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(bytes)
        };
        loop {
            let n = match from.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            for chunk in buffer[..n].split_inclusive(|&b| b == b'\n') {
                line.extend_from_slice(chunk);
                if chunk.ends_with(b"\n") {
                    let text = String::from_utf8_lossy(&line[..line.len() - 1]);
                    if !relay.as_ref().is_some_and(|relay| relay(&text)) {
                        keep(&line);
                    }
                    line.clear();
                } else if line.len() > STDERR_TAIL {
                    keep(&line);
                    line.clear();
                }
            }
        }
        keep(&line);
        lock.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
        closed.notify_all();
    });
    tail
}

/// `tail` once its reader reached the end, or after `grace` with what was
/// read by then.
fn settled(tail: &SharedTail, grace: Duration) -> std::sync::MutexGuard<'_, Tail> {
    let (lock, closed) = &**tail;
    let tail = lock.lock().unwrap_or_else(PoisonError::into_inner);
    closed
        .wait_timeout_while(tail, grace, |tail| !tail.closed)
        .unwrap_or_else(PoisonError::into_inner)
        .0
}

/// The text of `tail` once its reader reached the end, or after `grace`
/// with what was read by then.
pub(super) fn tail_text(tail: &SharedTail, grace: Duration) -> String {
    settled(tail, grace).text()
}

/// What [`read_all`] read, once it reached the end within `grace`; `None`
/// if it did not, or the output was longer than its limit.
pub(super) fn captured(all: &SharedTail, grace: Duration) -> Option<Vec<u8>> {
    let all = settled(all, grace);
    (all.closed && !all.cut).then(|| all.bytes.clone())
}

/// Writes the lines sent to `stdin` on a thread of its own, until a write
/// fails (the child ended) or the sender is dropped.
pub(super) fn write_lines(mut stdin: impl Write + Send + 'static) -> Sender<String> {
    let (lines, receiver) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in receiver {
            if stdin.write_all(line.as_bytes()).is_err() || stdin.flush().is_err() {
                return;
            }
        }
    });
    lines
}

/// Reads `stdout` as lines on a thread of its own: each line, without its
/// newline, as text (bytes that are not UTF-8 replaced), at most
/// [`LINE_LIMIT`] bytes of it. The receiver disconnects at the end.
pub(super) fn read_lines(mut stdout: impl Read + Send + 'static) -> Receiver<String> {
    let (lines, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = vec![0; 64 * 1024];
        let mut line: Vec<u8> = Vec::new();
        let mut cut = false;
        let send = |line: &[u8], cut: bool| {
            let mut text = String::from_utf8_lossy(line).into_owned();
            if cut {
                text.push_str(CUT_MARK);
            }
            lines.send(text).is_ok()
        };
        loop {
            let n = match stdout.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            for chunk in buffer[..n].split_inclusive(|&b| b == b'\n') {
                let (body, ends) = match chunk.strip_suffix(b"\n") {
                    Some(body) => (body, true),
                    None => (chunk, false),
                };
                let room = LINE_LIMIT.saturating_sub(line.len());
                if body.len() > room {
                    cut = true;
                }
                line.extend_from_slice(&body[..body.len().min(room)]);
                if ends {
                    if !send(&line, cut) {
                        return;
                    }
                    line.clear();
                    cut = false;
                }
            }
        }
        if !line.is_empty() {
            let _ = send(&line, cut);
        }
    });
    receiver
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_end_of_a_flood_of_stderr_is_kept() {
        let mut tail = Tail::default();
        let line = b"noise noise noise noise noise\n";
        for _ in 0..(16 << 20) / line.len() {
            tail.push(line);
            assert!(tail.bytes.len() <= 2 * STDERR_TAIL);
        }
        tail.push(b"memory allocation of 8 bytes failed\n");
        let text = tail.text();
        assert!(text.len() <= STDERR_TAIL, "{}", text.len());
        // Whole lines only.
        assert!(text.starts_with("noise"), "{}", &text[..40]);
        assert!(text.ends_with("memory allocation of 8 bytes failed\n"));
    }

    #[test]
    fn a_capture_keeps_the_whole_output_or_says_it_was_longer() {
        let all = read_all(std::io::Cursor::new(b"abc\0def\n".to_vec()), 8);
        assert_eq!(
            captured(&all, Duration::from_secs(5)).as_deref(),
            Some(&b"abc\0def\n"[..])
        );
        let long = read_all(std::io::Cursor::new(vec![b'x'; 9]), 8);
        assert_eq!(captured(&long, Duration::from_secs(5)), None);
    }

    #[test]
    fn a_flooded_line_is_quoted_short() {
        let flood = format!("{}\n", "a".repeat(70_000));
        let quoted = last_words(&flood).unwrap();
        assert_eq!(quoted.chars().count(), QUOTED + 1);
        assert!(quoted.ends_with('…'));
        assert_eq!(last_words("boom\n").as_deref(), Some("boom"));
    }

    #[test]
    fn the_telling_line_is_not_the_runtime_note() {
        let stderr = "thread 'main' panicked at src/lib.rs:3:5:\n\
                      memory allocation of 1024 bytes failed\n\
                      note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            telling_line(stderr),
            Some("memory allocation of 1024 bytes failed")
        );
        let backtrace = "boom\nstack backtrace:\n   0: std::panicking::begin\n             at /rustc/x.rs:1:2\n  12: main\n";
        assert_eq!(telling_line(backtrace), Some("boom"));
        // Only boilerplate: the last line still says something.
        assert_eq!(telling_line("note: a\nnote: b\n\n"), Some("note: b"));
        assert_eq!(telling_line(" \n"), None);
    }

    #[test]
    fn a_line_longer_than_the_limit_is_cut_and_marked_and_the_next_one_read() {
        let mut bytes = vec![b'x'; LINE_LIMIT + 5000];
        bytes.extend_from_slice(b"\n\xff{\"next\":1}\nlast");
        let lines: Vec<String> = read_lines(std::io::Cursor::new(bytes)).iter().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].len(), LINE_LIMIT + CUT_MARK.len());
        assert!(lines[0].ends_with(CUT_MARK));
        // Not UTF-8: replaced, never the end of the reading.
        assert_eq!(lines[1], "\u{fffd}{\"next\":1}");
        assert_eq!(lines[2], "last");
    }
}
