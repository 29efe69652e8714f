//! The attribute's arguments: `#[benchmark(name = "...", ignore, ...)]`.
//!
//! Parsed in two steps: syntax into a list of `key [= value]`, then each
//! option's value checked on its own, so that one build reports every
//! mistaken option rather than the first.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{token, Error, Expr, ExprLit, Ident, Lit, LitStr, Path, Token};

use crate::parse::Errors;

/// Options written in the attribute; `None` means "the command line's value".
#[derive(Default)]
pub struct Options {
    /// `crate = path`: where bench-harness is when it was renamed.
    pub krate: Option<Path>,
    pub name: Option<LitStr>,
    pub ignore: bool,
    /// Seconds, more than 0 and finite.
    pub warm_up_time: Option<f64>,
    pub measure_time: Option<f64>,
    pub max_time: Option<f64>,
    /// At least 1.
    pub min_samples: Option<usize>,
    /// `group = "sort"`: benchmarks reported together.
    pub group: Option<LitStr>,
    /// `baseline`: the group's reference in an in-run A/B comparison.
    pub baseline: bool,
    /// `counters`: measure hardware and software counters.
    pub counters: bool,
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
    Crate,
}

impl Key {
    const ALL: [Key; 10] = [
        Key::Name,
        Key::Ignore,
        Key::WarmUpTime,
        Key::MeasureTime,
        Key::MaxTime,
        Key::MinSamples,
        Key::Group,
        Key::Baseline,
        Key::Counters,
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
            Key::Crate => "crate",
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
            Key::Crate => "crate = bench_harness",
        }
    }

    fn from_ident(key_ident: &Ident) -> syn::Result<Key> {
        let key = key_ident.unraw().to_string();
        if let Some(known) = Key::ALL.into_iter().find(|known| known.as_str() == key) {
            return Ok(known);
        }
        // Names other benchmark harnesses (criterion, divan) use for these.
        let meant = match key.as_str() {
            "sample_size" | "samples" | "sample_count" => Some(Key::MinSamples),
            "measurement_time" | "measure" => Some(Key::MeasureTime),
            "warmup_time" | "warm_up" | "warmup" => Some(Key::WarmUpTime),
            "timeout" | "max_duration" => Some(Key::MaxTime),
            "ignored" | "skip" => Some(Key::Ignore),
            _ => None,
        };
        let message = match meant {
            Some(meant) => format!(
                "unknown #[benchmark] option `{key}`; did you mean `{}`?",
                meant.as_str()
            ),
            None => {
                let known: Vec<String> = Key::ALL
                    .iter()
                    .map(|known| format!("`{}`", known.as_str()))
                    .collect();
                format!(
                    "unknown #[benchmark] option `{key}`; expected one of {}",
                    known.join(", ")
                )
            }
        };
        Err(Error::new_spanned(key_ident, message))
    }
}

/// `key` or `key = value`, as written.
struct RawOption {
    key: Ident,
    value: Option<(Token![=], Expr)>,
}

impl Parse for RawOption {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if !input.peek(Ident::peek_any) {
            return Err(input.error(
                "expected a #[benchmark] option, like `name = \"sort_small\"` or `ignore`",
            ));
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
        let value = input.parse()?;
        Ok(RawOption {
            key,
            value: Some((eq, value)),
        })
    }
}

pub fn parse(args: TokenStream) -> syn::Result<Options> {
    let raw = Punctuated::<RawOption, Token![,]>::parse_terminated.parse2(args)?;
    let mut options = Options::default();
    let mut errors = Errors::default();
    let mut seen = Vec::new();
    let mut max_time_value = None;
    let mut baseline_key = None;
    for option in &raw {
        let key = match errors.record(Key::from_ident(&option.key)) {
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
            Key::Crate => options.krate = errors.record(value().and_then(crate_path)),
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
    errors.finish()?;
    Ok(options)
}

impl RawOption {
    fn value(&self, key: Key) -> syn::Result<&Expr> {
        match &self.value {
            Some((_, value)) => Ok(ungroup(value)),
            None => Err(Error::new_spanned(
                &self.key,
                format!("`{}` needs a value, like `{}`", key.as_str(), key.example()),
            )),
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

fn group(value: &Expr) -> syn::Result<LitStr> {
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

fn seconds(key: Key, value: &Expr) -> syn::Result<f64> {
    let not_positive = || {
        Error::new_spanned(
            value,
            format!("`{}` must be more than 0 seconds", key.as_str()),
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
    if secs <= 0.0 {
        return Err(not_positive());
    }
    if !secs.is_finite() {
        return Err(Error::new_spanned(
            value,
            format!("`{}` is too large", key.as_str()),
        ));
    }
    Ok(secs)
}

fn min_samples(value: &Expr) -> syn::Result<usize> {
    let too_few = || Error::new_spanned(value, "`min_samples` must be at least 1");
    let samples = match number(value) {
        Some(Lit::Int(samples)) => samples.base10_parse::<usize>()?,
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
    if samples == 0 {
        return Err(too_few());
    }
    Ok(samples)
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
