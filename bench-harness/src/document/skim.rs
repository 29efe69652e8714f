//! `--list-baselines`' read of a baseline: its [`Header`] from a stream,
//! through serde_json's streaming parser and a visitor that keeps the few
//! small values the header needs and drops every other one as it is read.
//! A baseline of a hundred megabytes is listed in a few kilobytes of
//! memory; a truncated or corrupt one is still told, the whole text being
//! parsed, and nesting deeper than serde_json's limit (128) is refused.
//! (serde's `IgnoredAny` is not used for the values skipped: it
//! has no depth limit, and keeps a byte per level open.)

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

use serde_core::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::load::{without_position, Header, LoadError};

/// The [`Header`] of the JSON text `file` (at `path`) holds.
pub(super) fn header(file: impl Read, path: &Path) -> Result<Header, LoadError> {
    let buffered = io::BufReader::with_capacity(64 * 1024, file);
    let mut stream = serde_json::Deserializer::from_reader(buffered);
    let skimmed = Skim { top: true }
        .deserialize(&mut stream)
        .and_then(|skimmed| stream.end().map(|()| skimmed));
    let not_an_object = |kind| Header {
        not_an_object: Some(kind),
        ..Header::default()
    };
    match skimmed {
        Ok(Skimmed::Object(header)) => Ok(header),
        Ok(Skimmed::List(_)) => Ok(not_an_object("an array")),
        Ok(Skimmed::Other(kind)) => Ok(not_an_object(kind)),
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
    /// An object: at the top level, its header fields; below, nothing.
    Object(Header),
    /// An array of this many elements, each skipped.
    List(usize),
    /// Any other value, by its kind (`a string`).
    Other(&'static str),
}

/// Reads one value as [`Skimmed`]; at the `top` level an object's header
/// fields are kept.
struct Skim {
    top: bool,
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

    fn visit_bool<E>(self, _: bool) -> Result<Skimmed, E> {
        Ok(Skimmed::Other("a boolean"))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skimmed, E> {
        Ok(Skimmed::Other("a number"))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skimmed, E> {
        Ok(Skimmed::Other("a number"))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skimmed, E> {
        Ok(Skimmed::Other("a number"))
    }

    fn visit_str<E>(self, _: &str) -> Result<Skimmed, E> {
        Ok(Skimmed::Other("a string"))
    }

    fn visit_unit<E>(self) -> Result<Skimmed, E> {
        Ok(Skimmed::Other("null"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skimmed, A::Error> {
        let mut n = 0;
        while seq.next_element_seed(Skim { top: false })?.is_some() {
            n += 1;
        }
        Ok(Skimmed::List(n))
    }

    /// The header's fields, each other value skipped; the few kept are
    /// small (`environment` is a few hundred bytes).
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skimmed, A::Error> {
        let mut header = Header::default();
        if !self.top {
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(Skim { top: false })?;
            }
            return Ok(Skimmed::Object(header));
        }
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "benchmarks" => {
                    header.benchmarks = match map.next_value_seed(Skim { top: false })? {
                        Skimmed::List(n) => Some(n),
                        _ => None,
                    }
                }
                "harness" => header.harness = Some(map.next_value()?),
                "schema_version" => header.schema_version = Some(map.next_value()?),
                "partial" => header.partial = map.next_value::<Value>()?.as_bool(),
                "environment" => {
                    let environment: Value = map.next_value()?;
                    header.timestamp = environment
                        .get("timestamp")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                }
                _ => {
                    map.next_value_seed(Skim { top: false })?;
                }
            }
        }
        Ok(Skimmed::Object(header))
    }
}
