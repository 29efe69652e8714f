//! The attribute's arguments: `#[benchmark(name = "...", ignore, ...)]`.
//!
//! Parsed in two steps: syntax into a list of `key [= value]`, then each
//! option's value checked on its own, so that one build reports every
//! mistaken option rather than the first.

use std::ops::RangeInclusive;

use proc_macro2::{Literal, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{bracketed, token, Error, Expr, ExprLit, Ident, Lit, LitStr, Path, Token, Type};

use crate::errors::Errors;

/// Where options are written: each place takes its own set of keys.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Site {
    /// `#[benchmark(...)]`: every key.
    Attribute,
    /// `group!(name = "...", ...)`: the group's name and the measuring
    /// settings its members share.
    Group,
    /// `main!(...)`: the measuring settings of the whole file.
    Main,
}

impl Site {
    fn describe(self) -> &'static str {
        match self {
            Site::Attribute => "#[benchmark]",
            Site::Group => "group!",
            Site::Main => "main!",
        }
    }

    fn allows(self, key: Key) -> bool {
        let setting = matches!(
            key,
            Key::WarmUpTime
                | Key::MeasureTime
                | Key::MaxTime
                | Key::MinSamples
                | Key::Precision
                | Key::Counters
                | Key::BytesUnit
        );
        match self {
            Site::Attribute => true,
            Site::Group => setting || matches!(key, Key::Name | Key::Crate),
            Site::Main => setting,
        }
    }
}

/// Options written in the attribute; `None` means "the command line's value".
#[derive(Default)]
pub(crate) struct Options {
    /// `crate = path`: where bench-harness is when it was renamed.
    pub(crate) krate: Option<Path>,
    pub(crate) name: Option<LitStr>,
    pub(crate) ignore: bool,
    /// Seconds, more than 0 and at most `MAX_SECONDS`.
    pub(crate) warm_up_time: Option<f64>,
    pub(crate) measure_time: Option<f64>,
    pub(crate) max_time: Option<f64>,
    /// In `SAMPLES`.
    pub(crate) min_samples: Option<usize>,
    /// `group = "sort"`: benchmarks reported together.
    pub(crate) group: Option<LitStr>,
    /// `baseline`: the group's reference in an in-run A/B comparison.
    pub(crate) baseline: bool,
    /// `counters`: measure hardware and software counters.
    pub(crate) counters: bool,
    /// `precision = PCT`: the target half-width of the 95% interval, as a
    /// fraction (the attribute takes a percentage, like `--precision`).
    pub(crate) precision: Option<f64>,
    /// `args = EXPR`, with its key: one benchmark per value.
    pub(crate) args: Option<(Ident, Expr)>,
    /// `types = [T, ...]`, with its key: one benchmark per type.
    pub(crate) types: Option<(Ident, Vec<Type>)>,
    /// `bytes = N` or `items = N`: work per iteration.
    pub(crate) throughput: Option<(ThroughputKind, Expr)>,
    /// `complexity`, with its key: fit a growth class over the `args`.
    pub(crate) complexity: Option<Ident>,
    /// `bytes_unit = "binary"` or `"decimal"`: how byte rates are printed.
    pub(crate) bytes_unit: Option<BytesUnit>,
}

/// `bytes_unit`'s values, as `--bytes-unit` takes them.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum BytesUnit {
    Decimal,
    Binary,
}

impl Options {
    /// The measuring settings the attribute gives, as `(field, value)`:
    /// each becomes the field of that name in bench-harness's `Settings`
    /// (`Some(value)`), so a new measuring option is parsed here and needs
    /// nothing in the expansion.
    pub(crate) fn settings(&self, private: &TokenStream) -> Vec<(&'static str, TokenStream)> {
        let seconds =
            |value: Option<f64>| value.map(|v| Literal::f64_suffixed(v).into_token_stream());
        let settings = [
            ("warm_up_time", seconds(self.warm_up_time)),
            ("measure_time", seconds(self.measure_time)),
            ("max_time", seconds(self.max_time)),
            (
                "min_samples",
                self.min_samples
                    .map(|n| Literal::usize_suffixed(n).into_token_stream()),
            ),
            ("precision", seconds(self.precision)),
            ("counters", self.counters.then(|| quote!(true))),
            (
                "bytes_unit",
                self.bytes_unit.map(|unit| match unit {
                    BytesUnit::Decimal => quote!(#private::BytesUnit::Decimal),
                    BytesUnit::Binary => quote!(#private::BytesUnit::Binary),
                }),
            ),
        ];
        settings
            .into_iter()
            .filter_map(|(field, value)| Some((field, value?)))
            .collect()
    }
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum ThroughputKind {
    Bytes,
    Items,
}

#[derive(Clone, Copy, PartialEq)]
enum Key {
    Name,
    Ignore,
    WarmUpTime,
    MeasureTime,
    MaxTime,
    MinSamples,
    Group,
    Baseline,
    Counters,
    Precision,
    Args,
    Types,
    Bytes,
    Items,
    Complexity,
    Crate,
    BytesUnit,
}

impl Key {
    const ALL: [Key; 17] = [
        Key::Name,
        Key::Args,
        Key::Types,
        Key::Ignore,
        Key::WarmUpTime,
        Key::MeasureTime,
        Key::MaxTime,
        Key::MinSamples,
        Key::Precision,
        Key::Group,
        Key::Baseline,
        Key::Bytes,
        Key::Items,
        Key::Complexity,
        Key::Counters,
        Key::BytesUnit,
        Key::Crate,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Key::Name => "name",
            Key::Ignore => "ignore",
            Key::WarmUpTime => "warm_up_time",
            Key::MeasureTime => "measure_time",
            Key::MaxTime => "max_time",
            Key::MinSamples => "min_samples",
            Key::Group => "group",
            Key::Baseline => "baseline",
            Key::Counters => "counters",
            Key::Precision => "precision",
            Key::Args => "args",
            Key::Types => "types",
            Key::Bytes => "bytes",
            Key::Items => "items",
            Key::Complexity => "complexity",
            Key::Crate => "crate",
            Key::BytesUnit => "bytes_unit",
        }
    }

    /// How the option is written, for error messages.
    fn example(self) -> &'static str {
        match self {
            Key::Name => "name = \"sort_small\"",
            Key::Ignore => "ignore",
            Key::WarmUpTime => "warm_up_time = 0.5",
            Key::MeasureTime => "measure_time = 2",
            Key::MaxTime => "max_time = 10",
            Key::MinSamples => "min_samples = 20",
            Key::Group => "group = \"sort\"",
            Key::Baseline => "baseline",
            Key::Counters => "counters",
            Key::Precision => "precision = 0.5",
            Key::Args => "args = [10, 100, 1000]",
            Key::Types => "types = [u32, u64, String]",
            Key::Bytes => "bytes = 4096",
            Key::Items => "items = 1000",
            Key::Complexity => "complexity",
            Key::Crate => "crate = bench_harness",
            Key::BytesUnit => "bytes_unit = \"binary\"",
        }
    }

    fn from_ident(key_ident: &Ident, site: Site) -> syn::Result<Key> {
        let key = key_ident.unraw().to_string();
        let allowed = || {
            let keys: Vec<String> = Key::ALL
                .iter()
                .filter(|known| site.allows(**known))
                .map(|known| format!("`{}`", known.as_str()))
                .collect();
            keys.join(", ")
        };
        if let Some(known) = Key::ALL.into_iter().find(|known| known.as_str() == key) {
            if site.allows(known) {
                return Ok(known);
            }
            return Err(Error::new_spanned(
                key_ident,
                format!(
                    "`{key}` is an option of each #[benchmark], not of {}; {} takes {}",
                    site.describe(),
                    site.describe(),
                    allowed()
                ),
            ));
        }
        // Names other benchmark harnesses (criterion, divan) use for these.
        let meant = match key.as_str() {
            "sample_size" | "samples" | "sample_count" => Some(Key::MinSamples),
            "measurement_time" | "measure" => Some(Key::MeasureTime),
            "warmup_time" | "warm_up" | "warmup" => Some(Key::WarmUpTime),
            "timeout" | "max_duration" => Some(Key::MaxTime),
            "ignored" | "skip" => Some(Key::Ignore),
            "consts" | "arg" | "params" | "inputs" => Some(Key::Args),
            "type" | "generic_types" => Some(Key::Types),
            "throughput" | "byte_count" => Some(Key::Bytes),
            "item_count" | "elements" => Some(Key::Items),
            "confidence" | "target_precision" => Some(Key::Precision),
            "bytes_decimal" | "binary" | "unit" => Some(Key::BytesUnit),
            _ => None,
        };
        let site_name = site.describe();
        let message = match meant.filter(|meant| site.allows(*meant)) {
            Some(meant) => format!(
                "unknown {site_name} option `{key}`; did you mean `{}`?",
                meant.as_str()
            ),
            None => format!(
                "unknown {site_name} option `{key}`; expected one of {}",
                allowed()
            ),
        };
        Err(Error::new_spanned(key_ident, message))
    }
}

/// `key` or `key = value`, as written.
struct RawOption {
    key: Ident,
    value: Option<(Token![=], Value)>,
}

/// An option's value: an expression, or for `types` a list of types (which
/// are not expressions: `Vec<u8>`).
enum Value {
    Expr(Expr),
    Types(token::Bracket, Punctuated<Type, Token![,]>),
}

impl quote::ToTokens for Value {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Value::Expr(expr) => expr.to_tokens(tokens),
            Value::Types(bracket, types) => {
                bracket.surround(tokens, |inner| types.to_tokens(inner))
            }
        }
    }
}

impl Parse for RawOption {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if !input.peek(Ident::peek_any) {
            return Err(input
                .error("expected an option, like `name = \"sort_small\"` or `min_samples = 20`"));
        }
        let key = input.call(Ident::parse_any)?;
        if input.peek(token::Paren) {
            let list: TokenTree = input.parse()?;
            return Err(Error::new_spanned(
                quote!(#key #list),
                format!("options are written `key` or `key = value`, not `{key}(...)`"),
            ));
        }
        if !input.peek(Token![=]) {
            return Ok(RawOption { key, value: None });
        }
        let eq: Token![=] = input.parse()?;
        if input.is_empty() || input.peek(Token![,]) {
            return Err(Error::new_spanned(
                eq,
                format!("expected a value after `{key} =`"),
            ));
        }
        let value = if key.unraw() == "types" && input.peek(token::Bracket) {
            let list;
            let bracket = bracketed!(list in input);
            Value::Types(bracket, list.parse_terminated(Type::parse, Token![,])?)
        } else {
            Value::Expr(input.parse()?)
        };
        Ok(RawOption {
            key,
            value: Some((eq, value)),
        })
    }
}

pub(crate) fn parse(args: TokenStream, site: Site) -> syn::Result<Options> {
    let raw = Punctuated::<RawOption, Token![,]>::parse_terminated.parse2(args)?;
    let mut options = Options::default();
    let mut errors = Errors::default();
    let mut seen = Vec::new();
    let mut max_time_value = None;
    let mut baseline_key = None;
    for option in &raw {
        let key = match errors.record(Key::from_ident(&option.key, site)) {
            Some(key) => key,
            None => continue,
        };
        if seen.contains(&key) {
            errors.push(Error::new_spanned(
                &option.key,
                format!("`{}` is given twice", key.as_str()),
            ));
            continue;
        }
        seen.push(key);
        let value = || option.value(key);
        match key {
            Key::Name if site == Site::Group => {
                options.name = errors.record(value().and_then(group));
            }
            Key::Name => options.name = errors.record(value().and_then(name)),
            Key::Ignore => options.ignore = errors.record(option.flag(key)).is_some(),
            Key::WarmUpTime => {
                options.warm_up_time = errors.record(value().and_then(|v| seconds(key, v)));
            }
            Key::MeasureTime => {
                options.measure_time = errors.record(value().and_then(|v| seconds(key, v)));
            }
            Key::MaxTime => {
                options.max_time = errors.record(value().and_then(|v| seconds(key, v)));
                max_time_value = value().ok();
            }
            Key::MinSamples => options.min_samples = errors.record(value().and_then(min_samples)),
            Key::Group => options.group = errors.record(value().and_then(group)),
            Key::Baseline => {
                options.baseline = errors.record(option.flag(key)).is_some();
                baseline_key = Some(&option.key);
            }
            Key::Counters => options.counters = errors.record(option.flag(key)).is_some(),
            Key::Precision => options.precision = errors.record(value().and_then(precision)),
            Key::Args => {
                options.args = errors
                    .record(value().and_then(arg_values))
                    .map(|args| (option.key.clone(), args));
            }
            Key::Types => {
                options.types = errors
                    .record(option.types())
                    .map(|types| (option.key.clone(), types));
            }
            Key::Bytes | Key::Items => {
                let kind = match key {
                    Key::Bytes => ThroughputKind::Bytes,
                    _ => ThroughputKind::Items,
                };
                if let Some((earlier, _)) = options.throughput {
                    if earlier != kind {
                        errors.push(Error::new_spanned(
                            &option.key,
                            "give either `bytes` or `items`, not both: the report shows one rate",
                        ));
                        continue;
                    }
                }
                options.throughput = errors
                    .record(value().and_then(|v| work(key, v)))
                    .map(|work| (kind, work));
            }
            Key::Complexity => {
                options.complexity = errors.record(option.flag(key)).map(|()| option.key.clone());
            }
            Key::Crate => options.krate = errors.record(value().and_then(crate_path)),
            Key::BytesUnit => options.bytes_unit = errors.record(value().and_then(bytes_unit)),
        }
    }
    if let (Some(max_time), Some(value)) = (options.max_time, max_time_value) {
        let needed = options.warm_up_time.unwrap_or(0.0) + options.measure_time.unwrap_or(0.0);
        if max_time < needed {
            errors.push(Error::new_spanned(
                value,
                format!(
                    "`max_time` is shorter than `warm_up_time` + `measure_time` ({needed} s): \
                     the benchmark would always stop before measuring as asked"
                ),
            ));
        }
    }
    if let (Some(key), None) = (baseline_key, &options.group) {
        errors.push(Error::new_spanned(
            key,
            "`baseline` marks the reference of a group: add `group = \"...\"` naming the \
             benchmarks it is compared with",
        ));
    }
    if site == Site::Group && options.name.is_none() && seen.iter().all(|k| *k != Key::Name) {
        errors.push(Error::new(
            proc_macro2::Span::call_site(),
            "group! needs the name its members give in `group = \"...\"`, like \
             `group!(name = \"find_byte\", min_samples = 50)`",
        ));
    }
    errors.finish()?;
    Ok(options)
}

impl RawOption {
    fn value(&self, key: Key) -> syn::Result<&Expr> {
        match &self.value {
            Some((_, Value::Expr(value))) => Ok(ungroup(value)),
            Some((_, value @ Value::Types(..))) => Err(Error::new_spanned(
                value,
                format!("expected a value, like `{}`", key.example()),
            )),
            None => Err(self.missing(key)),
        }
    }

    fn missing(&self, key: Key) -> Error {
        Error::new_spanned(
            &self.key,
            format!("`{}` needs a value, like `{}`", key.as_str(), key.example()),
        )
    }

    fn types(&self) -> syn::Result<Vec<Type>> {
        match &self.value {
            Some((_, Value::Types(bracket, types))) => {
                if types.is_empty() {
                    return Err(Error::new(
                        bracket.span.join(),
                        "`types` needs at least one type, like `types = [u32, u64, String]`",
                    ));
                }
                Ok(types.iter().cloned().collect())
            }
            Some((_, value)) => Err(Error::new_spanned(
                value,
                format!(
                    "expected a list of types in brackets, like `{}`",
                    Key::Types.example()
                ),
            )),
            None => Err(self.missing(Key::Types)),
        }
    }

    fn flag(&self, key: Key) -> syn::Result<()> {
        match &self.value {
            None => Ok(()),
            Some((eq, value)) => Err(Error::new_spanned(
                quote!(#eq #value),
                format!(
                    "`{}` takes no value: write `{}`",
                    key.as_str(),
                    key.example()
                ),
            )),
        }
    }
}

fn name(value: &Expr) -> syn::Result<LitStr> {
    let name = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(name),
            ..
        }) => name,
        _ => {
            return Err(Error::new_spanned(
                value,
                format!("expected a string, like `{}`", Key::Name.example()),
            ))
        }
    };
    let text = name.value();
    if text.is_empty() {
        return Err(Error::new_spanned(name, "a benchmark name cannot be empty"));
    }
    if text.contains(|c: char| c.is_whitespace() || c == '/') {
        return Err(Error::new_spanned(
            name,
            "a benchmark name cannot contain whitespace or `/`",
        ));
    }
    Ok(name.clone())
}

fn bytes_unit(value: &Expr) -> syn::Result<BytesUnit> {
    let wrong = || {
        Error::new_spanned(
            value,
            "`bytes_unit` is \"decimal\" (KB/s, MB/s, GB/s) or \"binary\" (KiB/s, MiB/s, GiB/s)",
        )
    };
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(unit),
            ..
        }) => match unit.value().as_str() {
            "decimal" => Ok(BytesUnit::Decimal),
            "binary" => Ok(BytesUnit::Binary),
            _ => Err(wrong()),
        },
        _ => Err(wrong()),
    }
}

pub(crate) fn group(value: &Expr) -> syn::Result<LitStr> {
    let group = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(group),
            ..
        }) => group,
        _ => {
            return Err(Error::new_spanned(
                value,
                format!("expected a string, like `{}`", Key::Group.example()),
            ))
        }
    };
    let text = group.value();
    if text.is_empty() || text.contains(|c: char| c.is_whitespace() || c == '/') {
        return Err(Error::new_spanned(
            group,
            "a group name must be non-empty, without whitespace or `/`",
        ));
    }
    Ok(group.clone())
}

// The bounds of the numbers. Their twin is the command line's parsing, in
// bench-harness/src/cli.rs (`seconds`, `count`, `percentage`): an option
// accepts what its flag accepts, so that moving a setting between the two
// never turns a valid value into an error. Change both together.
//
// Zero is valid where the flag takes it: `warm_up_time = 0` (no warm-up)
// and `precision = 0` (no precision rule: stop at `measure_time`).

/// `warm_up_time` (0 allowed), `measure_time` and `max_time`: more than 0
/// and at most a day of seconds.
const MAX_SECONDS: f64 = 86_400.0;

/// `min_samples`: from 1 to 10 million.
const SAMPLES: RangeInclusive<usize> = 1..=10_000_000;

/// `precision`: a percentage from 0 (no precision rule) to 100.
const MAX_PERCENT: f64 = 100.0;

fn seconds(key: Key, value: &Expr) -> syn::Result<f64> {
    // `warm_up_time = 0` turns warm-up off, as `--warm-up-time 0` does.
    let zero_ok = key == Key::WarmUpTime;
    let lowest = if zero_ok { "0 or more" } else { "more than 0" };
    let not_positive = || {
        Error::new_spanned(
            value,
            format!("`{}` must be {lowest} seconds", key.as_str()),
        )
    };
    let secs = match number(value) {
        Some(Lit::Int(secs)) => secs.base10_parse::<f64>()?,
        Some(Lit::Float(secs)) => secs.base10_parse::<f64>()?,
        _ if is_negated(value) => return Err(not_positive()),
        _ => {
            return Err(Error::new_spanned(
                value,
                format!("expected a number of seconds, like `{}`", key.example()),
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
                key.as_str()
            ),
        ));
    }
    Ok(secs)
}

fn min_samples(value: &Expr) -> syn::Result<usize> {
    let (fewest, most) = (*SAMPLES.start(), *SAMPLES.end());
    let too_few = || Error::new_spanned(value, format!("`min_samples` must be at least {fewest}"));
    let too_many = || {
        Error::new_spanned(
            value,
            format!("`min_samples` must be at least {fewest} and at most {most}"),
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
                format!(
                    "expected a whole number of samples, like `{}`",
                    Key::MinSamples.example()
                ),
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

fn precision(value: &Expr) -> syn::Result<f64> {
    let out_of_range = || {
        Error::new_spanned(
            value,
            format!(
                "`precision` is a percentage from 0 (no precision rule) to {MAX_PERCENT}, \
                 like `precision = 0.5`"
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
                format!("expected a percentage, like `{}`", Key::Precision.example()),
            ))
        }
    };
    if !(0.0..=MAX_PERCENT).contains(&percent) {
        return Err(out_of_range());
    }
    Ok(percent / 100.0)
}

/// `args` takes any expression whose value is `IntoIterator`; only an empty
/// array literal is certainly wrong.
fn arg_values(value: &Expr) -> syn::Result<Expr> {
    match value {
        Expr::Array(array) if array.elems.is_empty() => Err(Error::new_spanned(
            value,
            "`args` needs at least one value, like `args = [10, 100, 1000]`",
        )),
        _ => Ok(value.clone()),
    }
}

/// `bytes = N` or `items = N`: a constant expression of type `u64`; a
/// literal must be more than 0.
fn work(key: Key, value: &Expr) -> syn::Result<Expr> {
    let zero = || {
        Error::new_spanned(
            value,
            format!("`{}` must be more than 0 per iteration", key.as_str()),
        )
    };
    match number(value) {
        Some(Lit::Int(n)) if n.base10_parse::<u64>()? == 0 => Err(zero()),
        Some(Lit::Float(_)) => Err(Error::new_spanned(
            value,
            format!("expected a whole number, like `{}`", key.example()),
        )),
        _ if is_negated(value) => Err(zero()),
        _ => Ok(value.clone()),
    }
}

fn crate_path(value: &Expr) -> syn::Result<Path> {
    match value {
        Expr::Path(path) if path.qself.is_none() && path.attrs.is_empty() => Ok(path.path.clone()),
        _ => Err(Error::new_spanned(
            value,
            format!(
                "expected the path bench-harness is known by, like `{}`",
                Key::Crate.example()
            ),
        )),
    }
}

fn number(value: &Expr) -> Option<&Lit> {
    match value {
        Expr::Lit(ExprLit {
            lit: lit @ (Lit::Int(_) | Lit::Float(_)),
            ..
        }) => Some(lit),
        _ => None,
    }
}

fn is_negated(value: &Expr) -> bool {
    matches!(value, Expr::Unary(unary) if matches!(unary.op, syn::UnOp::Neg(_)))
}

/// Sees through the invisible group `macro_rules!` puts around `$e:expr`.
fn ungroup(value: &Expr) -> &Expr {
    match value {
        Expr::Group(group) => ungroup(&group.expr),
        value => value,
    }
}
