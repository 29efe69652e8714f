//! The values flags take: each parser checks one kind of value and says,
//! in one line, what was wrong with it.

use std::ffi::OsString;
use std::str::FromStr;

use super::CliError;
use crate::settings::{MAX_COUNT, MAX_SECONDS};

pub(super) fn utf8(what: &str, value: OsString) -> Result<String, CliError> {
    value
        .into_string()
        .map_err(|value| CliError(format!("{what} {value:?} is not valid UTF-8")))
}

/// One of an enumeration's words, by its `FromStr`.
pub(super) fn choice<T: FromStr>(
    flag: &str,
    value: OsString,
    choices: &str,
) -> Result<T, CliError> {
    let text = utf8(flag, value)?;
    text.parse().map_err(|_| bad_choice(flag, &text, choices))
}

pub(super) fn bad_choice(flag: &str, value: &str, choices: &str) -> CliError {
    CliError(format!("{flag} must be {choices}, got '{value}'"))
}

/// Seconds: a finite decimal number, at most a day; zero only where allowed.
pub(super) fn seconds(flag: &str, value: OsString, zero_ok: bool) -> Result<f64, CliError> {
    let text = utf8(flag, value)?;
    let secs: f64 = text.trim().parse().map_err(|_| {
        CliError(format!(
            "{flag} needs a number of seconds such as 0.5, got '{text}'"
        ))
    })?;
    let lower_ok = if zero_ok { secs >= 0.0 } else { secs > 0.0 };
    if !secs.is_finite() || !lower_ok || secs > MAX_SECONDS {
        let range = if zero_ok { "0" } else { "more than 0" };
        return Err(CliError(format!(
            "{flag} must be {range} and at most {MAX_SECONDS} seconds, got '{text}'"
        )));
    }
    Ok(secs)
}

/// A baseline's name: a file name under the baselines directory, so letters,
/// digits, `-`, `_` and `.`, not starting with `.`.
pub(super) fn baseline_name(flag: &str, value: OsString) -> Result<String, CliError> {
    let name = utf8(flag, value)?;
    if name.starts_with('-') {
        // `cargo bench -- --save-baseline` hands over `--bench` as its value.
        return Err(missing_baseline_name(flag));
    }
    let valid = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if valid {
        Ok(name)
    } else {
        Err(CliError(format!(
            "{flag} '{name}' is not a baseline name: use letters, digits, '-', '_' and '.' \
             (like main or before-refactor)"
        )))
    }
}

/// A percentage given as `PCT` (`1` or `0.5`, an optional `%`), returned as a
/// fraction; zero only where allowed, at most 100.
pub(super) fn percentage(flag: &str, value: OsString, zero_ok: bool) -> Result<f64, CliError> {
    let text = utf8(flag, value)?;
    let number = text.trim().trim_end_matches('%');
    let pct: f64 = number.parse().map_err(|_| {
        CliError(format!(
            "{flag} needs a percentage such as 1 or 0.5, got '{text}'"
        ))
    })?;
    let lower_ok = if zero_ok { pct >= 0.0 } else { pct > 0.0 };
    if !pct.is_finite() || !lower_ok || pct > 100.0 {
        let range = if zero_ok { "from 0" } else { "more than 0 and" };
        return Err(CliError(format!(
            "{flag} must be a percentage {range} up to 100, got '{text}'"
        )));
    }
    Ok(pct / 100.0)
}

/// The text [`percentage`] reads back as exactly `fraction`: `fraction ×
/// 100` is not always it (0.07 × 100 prints 7.000000000000001), so the
/// neighbours of that product are tried too.
pub(super) fn percentage_text(fraction: f64) -> String {
    let pct = fraction * 100.0;
    let neighbour = |step: i64| f64::from_bits(pct.to_bits().wrapping_add_signed(step));
    [
        pct,
        neighbour(1),
        neighbour(-1),
        neighbour(2),
        neighbour(-2),
    ]
    .into_iter()
    .find(|candidate| candidate / 100.0 == fraction)
    .unwrap_or(pct)
    .to_string()
}

/// A count: a whole number from 1 to [`MAX_COUNT`].
pub(super) fn count(flag: &str, value: OsString) -> Result<usize, CliError> {
    let text = utf8(flag, value)?;
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok(n),
        _ => Err(CliError(format!(
            "{flag} needs a whole number from 1 to {MAX_COUNT}, got '{text}'"
        ))),
    }
}

/// A whole number of type `T` (`--pin`, `--seed`), or `what` in the error.
pub(super) fn number<T: FromStr>(flag: &str, value: OsString, what: &str) -> Result<T, CliError> {
    let text = utf8(flag, value)?;
    text.trim()
        .parse()
        .map_err(|_| CliError(format!("{flag} needs {what}, got '{text}'")))
}

/// A baseline flag given no name.
pub(super) fn missing_baseline_name(flag: &str) -> CliError {
    CliError(format!(
        "{flag} needs a baseline name right after it, like `{flag} main`"
    ))
}
