//! The attribute's arguments: `#[benchmark(name = "...", ignore, ...)]`.
//!
//! Parsed in two steps: syntax into a list of `key [= value]`, then each
//! option's value checked on its own, so that one build reports every
//! mistaken option rather than the first.

use proc_macro2::{Literal, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{bracketed, token, Error, Expr, ExprLit, Ident, Lit, LitStr, Path, Token, Type};

use crate::errors::Errors;
use crate::settings::{is_negated, number, setting, Kind, SettingValue, SETTINGS};

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
        let setting = matches!(key, Key::Setting(_));
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
    /// The measuring settings given, as the field of bench-harness's
    /// `Settings` each sets and its checked value.
    pub(crate) settings: Vec<(&'static str, SettingValue)>,
    /// `group = "sort"`: benchmarks reported together.
    pub(crate) group: Option<LitStr>,
    /// `baseline`: the group's reference in an in-run A/B comparison.
    pub(crate) baseline: bool,
    /// `args = EXPR`, with its key: one benchmark per value.
    pub(crate) args: Option<(Ident, Expr)>,
    /// `types = [T, ...]`, with its key: one benchmark per type.
    pub(crate) types: Option<(Ident, Vec<Type>)>,
    /// `bytes = N` or `items = N`: work per iteration.
    pub(crate) throughput: Option<(ThroughputKind, Expr)>,
    /// `complexity`, with its key: fit a growth class over the `args`.
    pub(crate) complexity: Option<Ident>,
}

impl Options {
    /// The measuring settings the attribute gives, as `(field, value)`:
    /// each becomes the field of that name in bench-harness's `Settings`
    /// (`Some(value)`), so a new measuring option (a row of the settings'
    /// table) needs nothing in the expansion.
    pub(crate) fn settings(&self, private: &TokenStream) -> Vec<(&'static str, TokenStream)> {
        let value = |value: SettingValue| match value {
            SettingValue::True => quote!(true),
            SettingValue::Number(n) => Literal::f64_suffixed(n).into_token_stream(),
            SettingValue::Count(n) => Literal::usize_suffixed(n).into_token_stream(),
            SettingValue::Word(ty, variant) => {
                let ty = Ident::new(ty, proc_macro2::Span::call_site());
                let variant = Ident::new(variant, proc_macro2::Span::call_site());
                quote!(#private::#ty::#variant)
            }
        };
        self.settings
            .iter()
            .map(|&(field, setting)| (field, value(setting)))
            .collect()
    }

    /// The number a setting was given, if it was.
    fn number(&self, field: &str) -> Option<f64> {
        self.settings.iter().find_map(|(key, value)| match value {
            SettingValue::Number(n) if *key == field => Some(*n),
            _ => None,
        })
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
    /// A measuring setting: its index in [`SETTINGS`].
    Setting(usize),
    Group,
    Baseline,
    Args,
    Types,
    Bytes,
    Items,
    Complexity,
    Crate,
}

impl Key {
    /// Every key, in the order errors list them: the measuring settings in
    /// the table's.
    fn all() -> impl Iterator<Item = Key> {
        let settings = (0..SETTINGS.len())
            .filter(|&i| SETTINGS[i].is_some())
            .map(Key::Setting);
        [Key::Name, Key::Args, Key::Types, Key::Ignore]
            .into_iter()
            .chain(settings)
            .chain([
                Key::Group,
                Key::Baseline,
                Key::Bytes,
                Key::Items,
                Key::Complexity,
                Key::Crate,
            ])
    }

    fn as_str(self) -> &'static str {
        match self {
            Key::Name => "name",
            Key::Ignore => "ignore",
            Key::Setting(i) => setting(i).key,
            Key::Group => "group",
            Key::Baseline => "baseline",
            Key::Args => "args",
            Key::Types => "types",
            Key::Bytes => "bytes",
            Key::Items => "items",
            Key::Complexity => "complexity",
            Key::Crate => "crate",
        }
    }

    /// How the option is written, for error messages.
    fn example(self) -> &'static str {
        match self {
            Key::Name => "name = \"sort_small\"",
            Key::Ignore => "ignore",
            Key::Setting(i) => setting(i).example,
            Key::Group => "group = \"sort\"",
            Key::Baseline => "baseline",
            Key::Args => "args = [10, 100, 1000]",
            Key::Types => "types = [u32, u64, String]",
            Key::Bytes => "bytes = 4096",
            Key::Items => "items = 1000",
            Key::Complexity => "complexity",
            Key::Crate => "crate = bench_harness",
        }
    }

    fn from_ident(key_ident: &Ident, site: Site) -> syn::Result<Key> {
        let key = key_ident.unraw().to_string();
        let allowed = || {
            let keys: Vec<String> = Key::all()
                .filter(|known| site.allows(*known))
                .map(|known| format!("`{}`", known.as_str()))
                .collect();
            keys.join(", ")
        };
        if let Some(known) = Key::all().find(|known| known.as_str() == key) {
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
        let setting = Key::all().find(|known| match known {
            Key::Setting(i) => setting(*i).aliases.contains(&key.as_str()),
            _ => false,
        });
        let meant = setting.or(match key.as_str() {
            "ignored" | "skip" => Some(Key::Ignore),
            "consts" | "arg" | "params" | "inputs" => Some(Key::Args),
            "type" | "generic_types" => Some(Key::Types),
            "throughput" | "byte_count" => Some(Key::Bytes),
            "item_count" | "elements" => Some(Key::Items),
            _ => None,
        });
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
            Key::Setting(i) => {
                let setting = setting(i);
                let checked = match setting.kind {
                    Kind::Switch => option.flag(key).map(|()| SettingValue::True),
                    _ => value().and_then(|v| setting.check(v)),
                };
                if let Some(checked) = errors.record(checked) {
                    options.settings.push((setting.key, checked));
                }
                if setting.key == "max_time" {
                    max_time_value = value().ok();
                }
            }
            Key::Group => options.group = errors.record(value().and_then(group)),
            Key::Baseline => {
                options.baseline = errors.record(option.flag(key)).is_some();
                baseline_key = Some(&option.key);
            }
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
        }
    }
    if let (Some(max_time), Some(value)) = (options.number("max_time"), max_time_value) {
        let needed = options.number("warm_up_time").unwrap_or(0.0)
            + options.number("measure_time").unwrap_or(0.0);
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

/// Sees through the invisible group `macro_rules!` puts around `$e:expr`.
fn ungroup(value: &Expr) -> &Expr {
    match value {
        Expr::Group(group) => ungroup(&group.expr),
        value => value,
    }
}
