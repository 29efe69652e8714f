//! The measuring settings the attribute, `group!` and `main!` take: the
//! rows of the settings' table (`settings_table.rs`, which bench-harness
//! generates its `Settings` and flags from too) and the checks of their
//! values, by kind.

use syn::{Error, Expr, ExprLit, Lit};

/// A measuring setting's value, checked.
#[derive(Clone, Copy)]
pub(crate) enum SettingValue {
    /// A switch given.
    True,
    /// Seconds, or a percentage as a fraction.
    Number(f64),
    Count(usize),
    /// A choice: the type and its variant, in bench-harness's `__private`.
    Word(&'static str, &'static str),
}

/// A measuring setting the attribute, `group!` and `main!` take, from the
/// settings' table.
pub(crate) struct Setting {
    /// The key, which is the field of `Settings` it sets.
    pub(crate) key: &'static str,
    pub(crate) example: &'static str,
    /// Other harnesses' names for it.
    pub(crate) aliases: &'static [&'static str],
    pub(crate) kind: Kind,
}

/// What a setting's value is, as the table's `value` says.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Switch,
    Seconds {
        zero_ok: bool,
    },
    Count {
        least: usize,
    },
    /// With what 0 means, where 0 is allowed.
    Percentage {
        zero: Option<&'static str>,
    },
    /// The type, and its variants: each with its word and what it shows.
    Words(
        &'static str,
        &'static [(&'static str, &'static str, &'static str)],
    ),
}

/// Generates [`SETTINGS`] and the bounds from the settings' table.
macro_rules! settings_table {
    (
        bounds: { max_seconds: $max_seconds:literal, max_count: $max_count:literal }
        $(
            $(#[$doc:meta])*
            $field:ident: $ty:ty {
                flag: $flag:literal,
                value: $value:tt,
                attribute: $attribute:tt,
                help: $section:ident $lines:literal,
                sampler: $sampler:tt,
            }
        )*
    ) => {
        /// The longest time in seconds any time setting accepts.
        const MAX_SECONDS: f64 = $max_seconds;

        /// The largest count (`min_samples`).
        const MAX_COUNT: usize = $max_count;

        /// The settings of the table; `None` for those the attribute does
        /// not take (flags only).
        pub(crate) const SETTINGS: &[Option<Setting>] = &[$(setting!($field $value $attribute)),*];
    };
}

/// One row of the table as a [`Setting`], if the attribute takes it.
macro_rules! setting {
    ($field:ident $value:tt ()) => {
        None
    };
    ($field:ident $value:tt ($example:literal [$($alias:literal),*] $($words:tt)*)) => {
        Some(Setting {
            key: stringify!($field),
            example: $example,
            aliases: &[$($alias),*],
            kind: kind!($value $($words)*),
        })
    };
}

/// The [`Kind`] of a row's `value`.
macro_rules! kind {
    ((switch)) => {
        Kind::Switch
    };
    ((seconds)) => {
        Kind::Seconds { zero_ok: false }
    };
    ((seconds zero_ok)) => {
        Kind::Seconds { zero_ok: true }
    };
    ((count)) => {
        Kind::Count { least: 1 }
    };
    ((count_from $least:literal $why:literal)) => {
        Kind::Count { least: $least }
    };
    ((percentage)) => {
        Kind::Percentage { zero: None }
    };
    ((percentage zero_ok $zero:literal)) => {
        Kind::Percentage { zero: Some($zero) }
    };
    ((choice $($choices:tt)*) words $type:ident [$($variant:ident $word:literal $shown:literal),* $(,)?]) => {
        Kind::Words(stringify!($type), &[$((stringify!($variant), $word, $shown)),*])
    };
}

include!("settings_table.rs");

/// The setting at `index` of [`SETTINGS`], which the attribute takes.
pub(crate) fn setting(index: usize) -> &'static Setting {
    SETTINGS[index]
        .as_ref()
        .expect("a key of an attribute setting")
}

impl Setting {
    /// The checked value `value` gives this setting, by its kind (a
    /// switch's, which takes none, is checked by the caller).
    pub(crate) fn check(&self, value: &Expr) -> syn::Result<SettingValue> {
        let key = self;
        match self.kind {
            Kind::Switch => Ok(SettingValue::True),
            Kind::Seconds { zero_ok } => seconds(key, zero_ok, value).map(SettingValue::Number),
            Kind::Count { least } => count(key, least, value).map(SettingValue::Count),
            Kind::Percentage { zero } => percentage(key, zero, value).map(SettingValue::Number),
            Kind::Words(ty, words) => {
                self::words(key, words, value).map(|variant| SettingValue::Word(ty, variant))
            }
        }
    }
}

/// One of a choice's words, as its variant.
fn words(
    key: &Setting,
    words: &[(&'static str, &'static str, &'static str)],
    value: &Expr,
) -> syn::Result<&'static str> {
    let wrong = || {
        let shown: Vec<String> = words
            .iter()
            .map(|(_, word, shown)| format!("\"{word}\" ({shown})"))
            .collect();
        let (last, rest) = shown.split_last().expect("a choice has words");
        let listed = match rest {
            [] => last.clone(),
            rest => format!("{} or {last}", rest.join(", ")),
        };
        Error::new_spanned(value, format!("`{}` is {listed}", key.key))
    };
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => words
            .iter()
            .find(|(_, word, _)| *word == text.value())
            .map(|(variant, _, _)| *variant)
            .ok_or_else(wrong),
        _ => Err(wrong()),
    }
}

// The bounds of the numbers are the table's (`MAX_SECONDS`, `MAX_COUNT`),
// which the command line's parsing uses too: an option accepts what its
// flag accepts, so that moving a setting between the two never turns a
// valid value into an error.
//
// Zero is valid where the flag takes it: `warm_up_time = 0` (no warm-up)
// and `precision = 0` (no precision rule: stop at `measure_time`).

/// A percentage's largest value.
const MAX_PERCENT: f64 = 100.0;

fn seconds(key: &Setting, zero_ok: bool, value: &Expr) -> syn::Result<f64> {
    let lowest = if zero_ok { "0 or more" } else { "more than 0" };
    let not_positive =
        || Error::new_spanned(value, format!("`{}` must be {lowest} seconds", key.key));
    let secs = match number(value) {
        Some(Lit::Int(secs)) => secs.base10_parse::<f64>()?,
        Some(Lit::Float(secs)) => secs.base10_parse::<f64>()?,
        _ if is_negated(value) => return Err(not_positive()),
        _ => {
            return Err(Error::new_spanned(
                value,
                format!("expected a number of seconds, like `{}`", key.example),
            ))
        }
    };
    if secs < 0.0 || (secs == 0.0 && !zero_ok) {
        return Err(not_positive());
    }
    // Also catches a literal too large for an `f64` (infinity).
    if secs > MAX_SECONDS {
        return Err(Error::new_spanned(
            value,
            format!(
                "`{}` must be {lowest} and at most {MAX_SECONDS} seconds",
                key.key
            ),
        ));
    }
    Ok(secs)
}

fn count(key: &Setting, fewest: usize, value: &Expr) -> syn::Result<usize> {
    let key_name = key.key;
    let most = MAX_COUNT;
    let too_few = || Error::new_spanned(value, format!("`{key_name}` must be at least {fewest}"));
    let too_many = || {
        Error::new_spanned(
            value,
            format!("`{key_name}` must be at least {fewest} and at most {most}"),
        )
    };
    let samples = match number(value) {
        // A literal's digits are decimal: they fail to parse only when the
        // number does not fit in a `usize`.
        Some(Lit::Int(samples)) => samples.base10_parse::<usize>().map_err(|_| too_many())?,
        _ if is_negated(value) => return Err(too_few()),
        _ => {
            return Err(Error::new_spanned(
                value,
                format!("expected a whole number of samples, like `{}`", key.example),
            ))
        }
    };
    if samples < fewest {
        return Err(too_few());
    }
    if samples > most {
        return Err(too_many());
    }
    Ok(samples)
}

fn percentage(key: &Setting, zero: Option<&str>, value: &Expr) -> syn::Result<f64> {
    let out_of_range = || {
        let from = match zero {
            Some(zero) => format!("from 0 ({zero})"),
            None => "more than 0 and up".to_string(),
        };
        Error::new_spanned(
            value,
            format!(
                "`{}` is a percentage {from} to {MAX_PERCENT}, like `{}`",
                key.key, key.example
            ),
        )
    };
    let percent = match number(value) {
        Some(Lit::Int(percent)) => percent.base10_parse::<f64>()?,
        Some(Lit::Float(percent)) => percent.base10_parse::<f64>()?,
        _ if is_negated(value) => return Err(out_of_range()),
        _ => {
            return Err(Error::new_spanned(
                value,
                format!("expected a percentage, like `{}`", key.example),
            ))
        }
    };
    let lowest_ok = if zero.is_some() {
        percent >= 0.0
    } else {
        percent > 0.0
    };
    if !lowest_ok || percent > MAX_PERCENT {
        return Err(out_of_range());
    }
    Ok(percent / 100.0)
}

pub(crate) fn number(value: &Expr) -> Option<&Lit> {
    match value {
        Expr::Lit(ExprLit {
            lit: lit @ (Lit::Int(_) | Lit::Float(_)),
            ..
        }) => Some(lit),
        _ => None,
    }
}

pub(crate) fn is_negated(value: &Expr) -> bool {
    matches!(value, Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Neg(_)))
}
