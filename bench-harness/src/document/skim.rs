//! `--list-baselines`' read of a baseline: its [`Header`] from a stream,
//! every other value skipped.

use std::fs::File;
use std::io::{self, Read};

use serde_json::Value;

use super::load::{without_position, Header, LoadError};
use crate::json;

/// Why [`Skim`] stopped.
pub(super) enum Skimmed {
    Io(io::Error),
    Syntax(LoadError),
}

/// Reads a JSON text's [`Header`] from a stream, keeping only the few
/// small values it needs: a baseline of a hundred megabytes is listed in a
/// few kilobytes of memory. The skipped values are checked for their
/// structure (brackets, strings, literals), enough to tell a truncated or
/// corrupt file; the kept ones are parsed by serde_json.
pub(super) struct Skim {
    file: io::Take<File>,
    buffer: Box<[u8]>,
    at: usize,
    end: usize,
    line: usize,
    column: usize,
    /// The bytes of the value being kept, while one is.
    kept: Option<Vec<u8>>,
}

/// Nesting deeper than this is refused, as serde_json does.
const MAX_DEPTH: usize = 128;

impl Skim {
    pub(super) fn new(file: io::Take<File>) -> Skim {
        Skim {
            file,
            buffer: vec![0; 64 * 1024].into_boxed_slice(),
            at: 0,
            end: 0,
            line: 1,
            column: 0,
            kept: None,
        }
    }

    fn error(&self, message: &str) -> Skimmed {
        Skimmed::Syntax(LoadError::Syntax {
            path: None,
            message: message.to_string(),
            line: self.line,
            column: self.column,
        })
    }

    fn peek(&mut self) -> Result<Option<u8>, Skimmed> {
        if self.at == self.end {
            self.end = loop {
                match self.file.read(&mut self.buffer) {
                    Ok(n) => break n,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => return Err(Skimmed::Io(error)),
                }
            };
            self.at = 0;
        }
        Ok((self.at < self.end).then(|| self.buffer[self.at]))
    }

    /// The next byte; `eof` names what was being read when there is none.
    fn next(&mut self, eof: &str) -> Result<u8, Skimmed> {
        let Some(byte) = self.peek()? else {
            return Err(self.error(eof));
        };
        self.at += 1;
        if byte == b'\n' {
            self.line += 1;
            self.column = 0;
        } else {
            self.column += 1;
        }
        if let Some(kept) = &mut self.kept {
            kept.push(byte);
        }
        Ok(byte)
    }

    /// The next byte that is not white space, not consumed.
    fn token(&mut self) -> Result<Option<u8>, Skimmed> {
        while let Some(byte) = self.peek()? {
            if !byte.is_ascii_whitespace() {
                return Ok(Some(byte));
            }
            self.next("")?;
        }
        Ok(None)
    }

    fn expect_token(&mut self, eof: &str) -> Result<u8, Skimmed> {
        match self.token()? {
            Some(byte) => Ok(byte),
            None => Err(self.error(eof)),
        }
    }

    /// The top level's header; every other value skipped.
    pub(super) fn header(mut self) -> Result<Header, Skimmed> {
        let first = self.expect_token("EOF while parsing a value")?;
        let mut header = Header::default();
        if first != b'{' {
            let kind = match first {
                b'[' => "an array",
                b'"' => "a string",
                b't' | b'f' => "a boolean",
                b'n' => "null",
                _ => "a number",
            };
            self.skip(0)?;
            header.not_an_object = Some(kind);
        } else {
            self.next("")?;
            let mut first = true;
            loop {
                let eof = "EOF while parsing an object";
                match self.expect_token(eof)? {
                    b'}' if first => {
                        self.next(eof)?;
                        break;
                    }
                    b'"' => {}
                    _ => return Err(self.error("key must be a string")),
                }
                self.kept = Some(Vec::new());
                self.skip_string()?;
                let key = self.kept.take().unwrap_or_default();
                if self.expect_token(eof)? != b':' {
                    return Err(self.error("expected `:`"));
                }
                self.next(eof)?;
                self.expect_token("EOF while parsing a value")?;
                match key.as_slice() {
                    b"\"benchmarks\"" => header.benchmarks = self.count()?,
                    b"\"harness\""
                    | b"\"schema_version\""
                    | b"\"partial\""
                    | b"\"environment\"" => {
                        self.kept = Some(Vec::new());
                        self.skip(1)?;
                        let text = self.kept.take().unwrap_or_default();
                        let text = std::str::from_utf8(&text)
                            .map_err(|error| self.error(&format!("not UTF-8 text: {error}")))?;
                        let value = json::parse(text)
                            .map_err(|error| self.error(&without_position(&error)))?;
                        match key.as_slice() {
                            b"\"harness\"" => header.harness = Some(value),
                            b"\"schema_version\"" => header.schema_version = Some(value),
                            b"\"partial\"" => header.partial = value.as_bool(),
                            _ => {
                                header.timestamp = value
                                    .get("timestamp")
                                    .and_then(Value::as_str)
                                    .map(str::to_string)
                            }
                        }
                    }
                    _ => self.skip(1)?,
                }
                first = false;
                match self.expect_token(eof)? {
                    b',' => {
                        self.next(eof)?;
                    }
                    b'}' => {
                        self.next(eof)?;
                        break;
                    }
                    _ => return Err(self.error("expected `,` or `}`")),
                }
            }
        }
        if self.token()?.is_some() {
            return Err(self.error("trailing characters"));
        }
        Ok(header)
    }

    /// The number of elements of the array that starts here (`None` for
    /// any other value), each skipped.
    fn count(&mut self) -> Result<Option<usize>, Skimmed> {
        if self.expect_token("EOF while parsing a value")? != b'[' {
            self.skip(1)?;
            return Ok(None);
        }
        self.next("")?;
        let eof = "EOF while parsing a list";
        let mut n = 0;
        if self.expect_token(eof)? == b']' {
            self.next(eof)?;
            return Ok(Some(0));
        }
        loop {
            self.skip(2)?;
            n += 1;
            match self.expect_token(eof)? {
                b',' => {
                    self.next(eof)?;
                }
                b']' => {
                    self.next(eof)?;
                    return Ok(Some(n));
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    /// Skips one value at nesting `depth`.
    fn skip(&mut self, depth: usize) -> Result<(), Skimmed> {
        if depth > MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        match self.expect_token("EOF while parsing a value")? {
            b'"' => self.skip_string(),
            open @ (b'[' | b'{') => {
                let (close, eof) = if open == b'[' {
                    (b']', "EOF while parsing a list")
                } else {
                    (b'}', "EOF while parsing an object")
                };
                self.next(eof)?;
                if self.expect_token(eof)? == close {
                    self.next(eof)?;
                    return Ok(());
                }
                loop {
                    if open == b'{' {
                        if self.expect_token(eof)? != b'"' {
                            return Err(self.error("key must be a string"));
                        }
                        self.skip_string()?;
                        if self.expect_token(eof)? != b':' {
                            return Err(self.error("expected `:`"));
                        }
                        self.next(eof)?;
                    }
                    self.skip(depth + 1)?;
                    match self.expect_token(eof)? {
                        b',' => {
                            self.next(eof)?;
                        }
                        byte if byte == close => {
                            self.next(eof)?;
                            return Ok(());
                        }
                        _ => return Err(self.error("expected `,` or a closing bracket")),
                    }
                }
            }
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            b'-' | b'0'..=b'9' => {
                while let Some(byte) = self.peek()? {
                    if !matches!(byte, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                        break;
                    }
                    self.next("")?;
                }
                Ok(())
            }
            _ => Err(self.error("expected value")),
        }
    }

    fn literal(&mut self, word: &str) -> Result<(), Skimmed> {
        for &expected in word.as_bytes() {
            if self.next("EOF while parsing a value")? != expected {
                return Err(self.error("expected value"));
            }
        }
        Ok(())
    }

    /// Skips the string that starts here, its quotes included.
    fn skip_string(&mut self) -> Result<(), Skimmed> {
        let eof = "EOF while parsing a string";
        self.next(eof)?;
        loop {
            match self.next(eof)? {
                b'"' => return Ok(()),
                b'\\' => {
                    self.next(eof)?;
                }
                byte if byte < 0x20 => {
                    return Err(self
                        .error("control character (\\u0000-\\u001F) found while parsing a string"))
                }
                _ => {}
            }
        }
    }
}
