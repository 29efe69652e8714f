//! `--list-baselines`' read of a baseline: its [`Header`] from a stream,
//! through serde_json's streaming parser and a visitor that keeps the few
//! small values the header needs and drops every other one as it is read.
//! A baseline of a hundred megabytes is listed in a few kilobytes of
//! memory; a truncated or corrupt one is still told, the whole text being
//! parsed, and nesting deeper than serde_json's limit (128) is refused.
//! (serde's `IgnoredAny` is not used for the values skipped: it has no
//! depth limit, and keeps a byte per level open.)

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

use serde_core::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::load::{without_position, Header, LoadError};

/// The [`Header`] of the JSON text `file` (at `path`) holds.
pub(super) fn header(file: impl Read, path: &Path) -> Result<Header, LoadError> {
    let buffered = io::BufReader::with_capacity(64 * 1024, file);
    let mut stream = serde_json::Deserializer::from_reader(buffered);
    let skimmed = Skim::Top
        .deserialize(&mut stream)
        .and_then(|skimmed| stream.end().map(|()| skimmed));
    let not_an_object = |kind| Header {
        not_an_object: Some(kind),
        ..Header::default()
    };
    match skimmed {
        Ok(Skimmed::Header(header)) => Ok(header),
        Ok(Skimmed::List(_)) => Ok(not_an_object("an array")),
        Ok(Skimmed::Other(kind)) => Ok(not_an_object(kind)),
        Ok(Skimmed::Kept(_)) => Ok(not_an_object("a value")),
        Err(error) if error.is_io() => Err(LoadError::Io {
            path: path.to_path_buf(),
            error: error.into(),
        }),
        Err(error) => Err(LoadError::Syntax {
            path: Some(path.to_path_buf()),
            message: without_position(&error),
            line: error.line(),
            column: error.column(),
        }),
    }
}

/// A value as far as the header needs it.
enum Skimmed {
    /// The top level's header fields.
    Header(Header),
    /// A value read whole ([`Skim::Keep`]).
    Kept(Value),
    /// An array of this many elements, each skipped.
    List(usize),
    /// Any other value, by its kind (`a string`).
    Other(&'static str),
}

impl Skimmed {
    /// The value [`Skim::Keep`] read.
    fn kept(self) -> Value {
        match self {
            Skimmed::Kept(value) => value,
            _ => Value::Null,
        }
    }
}

/// What to make of a value. One visitor does all three, the one
/// serde_json's parser is compiled for (its `Value` would be another).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Skim {
    /// The top level: an object's header fields are kept.
    Top,
    /// A header field's value (or a key): kept whole.
    Keep,
    /// Anything else: only its kind, or an array's length.
    Skip,
}

impl Skim {
    /// A scalar: `value()` when kept, else its `kind`.
    fn scalar<E>(self, value: impl FnOnce() -> Value, kind: &'static str) -> Result<Skimmed, E> {
        Ok(match self {
            Skim::Keep => Skimmed::Kept(value()),
            _ => Skimmed::Other(kind),
        })
    }
}

impl<'de> DeserializeSeed<'de> for Skim {
    type Value = Skimmed;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Skimmed, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skim {
    type Value = Skimmed;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Skimmed, E> {
        self.scalar(|| Value::Bool(v), "a boolean")
    }

    fn visit_i64<E>(self, v: i64) -> Result<Skimmed, E> {
        self.scalar(|| Value::from(v), "a number")
    }

    fn visit_u64<E>(self, v: u64) -> Result<Skimmed, E> {
        self.scalar(|| Value::from(v), "a number")
    }

    fn visit_f64<E>(self, v: f64) -> Result<Skimmed, E> {
        self.scalar(|| Value::from(v), "a number")
    }

    fn visit_str<E>(self, v: &str) -> Result<Skimmed, E> {
        self.scalar(|| Value::String(v.to_string()), "a string")
    }

    fn visit_unit<E>(self) -> Result<Skimmed, E> {
        self.scalar(|| Value::Null, "null")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skimmed, A::Error> {
        if self == Skim::Keep {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element_seed(Skim::Keep)? {
                items.push(item.kept());
            }
            return Ok(Skimmed::Kept(Value::Array(items)));
        }
        let mut n = 0;
        while seq.next_element_seed(Skim::Skip)?.is_some() {
            n += 1;
        }
        Ok(Skimmed::List(n))
    }

    /// At the top, the header's fields, each other value skipped; the few
    /// kept are small (`environment` is a few hundred bytes).
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skimmed, A::Error> {
        if self == Skim::Skip {
            while map.next_key_seed(Skim::Skip)?.is_some() {
                map.next_value_seed(Skim::Skip)?;
            }
            return Ok(Skimmed::Other("an object"));
        }
        let mut header = Header::default();
        let mut kept = Map::new();
        while let Some(key) = map.next_key_seed(Skim::Keep)? {
            // A JSON key is a string.
            let key = match key.kept() {
                Value::String(key) => key,
                _ => String::new(),
            };
            let mut keep = || map.next_value_seed(Skim::Keep).map(Skimmed::kept);
            match (self, key.as_str()) {
                (Skim::Keep, _) => {
                    kept.insert(key, keep()?);
                }
                (_, "benchmarks") => {
                    header.benchmarks = match map.next_value_seed(Skim::Skip)? {
                        Skimmed::List(n) => Some(n),
                        _ => None,
                    }
                }
                (_, "harness") => header.harness = Some(keep()?),
                (_, "schema_version") => header.schema_version = Some(keep()?),
                (_, "partial") => header.partial = keep()?.as_bool(),
                (_, "environment") => {
                    header.timestamp = keep()?
                        .get("timestamp")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                }
                _ => {
                    map.next_value_seed(Skim::Skip)?;
                }
            }
        }
        Ok(if self == Skim::Keep {
            Skimmed::Kept(Value::Object(kept))
        } else {
            Skimmed::Header(header)
        })
    }
}
