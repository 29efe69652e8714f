//! The model of a `#[benchmark]` function: which function, how the runner
//! calls it, and with which options. Input that does not fit the model is
//! reported here, on the token the user must change; `validate` then checks
//! the options against the signature, so that expansion only ever sees a
//! benchmark that works.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{
    Error, FnArg, GenericParam, Ident, Item, ItemFn, PatType, ReturnType, Signature, TraitItemFn,
    Type,
};

use crate::errors::Errors;
use crate::options::{self, Options};

/// A `#[benchmark]` function that parsed; `validate` checks that its
/// options and signature agree.
pub(crate) struct Benchmark {
    /// The user's function, emitted unchanged: users may call it.
    pub(crate) function: ItemFn,
    pub(crate) call: Call,
    pub(crate) options: Options,
}

/// How the runner calls the function, from its signature.
pub(crate) struct Call {
    /// `b: &mut Bencher` first: the function runs the bencher itself.
    /// This is the `Bencher` the parameter's type names, as written, so that
    /// a `Bencher` other than bench-harness's is reported on it. Without
    /// it, the function is the routine given to `Bencher::iter`, which
    /// black-boxes what it returns.
    pub(crate) bencher: Option<Ident>,
    /// The parameter each `args` value is passed to.
    pub(crate) arg: Option<ArgParam>,
    /// The type parameter `types` instantiates.
    pub(crate) generic: Option<Ident>,
    /// `async fn`: each iteration awaits the future on the built-in executor.
    pub(crate) is_async: bool,
}

/// The parameter receiving each `args` value.
pub(crate) struct ArgParam {
    /// The parameter as written, where type errors are reported.
    pub(crate) param: PatType,
    /// `&T`: the value is lent; otherwise it is copied (and must be `Copy`).
    pub(crate) by_ref: bool,
}

const SIGNATURES: &str = "a benchmark is `fn()`, `fn() -> T` or `fn(&mut Bencher)`, \
                          with one more parameter for `args`";

pub(crate) fn benchmark(args: TokenStream, item: TokenStream) -> syn::Result<Benchmark> {
    let options = options::parse(args, options::Site::Attribute);
    let function = free_function(item).and_then(|function| Ok((call(&function.sig)?, function)));
    match (options, function) {
        (Ok(options), Ok((call, function))) => Ok(Benchmark {
            function,
            call,
            options,
        }),
        (Err(mut options), Err(function)) => {
            options.combine(function);
            Err(options)
        }
        (Err(error), Ok(_)) | (Ok(_), Err(error)) => Err(error),
    }
}

fn free_function(item: TokenStream) -> syn::Result<ItemFn> {
    let (kind, head) = match syn::parse2(item)? {
        Item::Fn(function) => return Ok(function),
        Item::Struct(s) => ("a struct", head(s.struct_token, &s.ident)),
        Item::Enum(e) => ("an enum", head(e.enum_token, &e.ident)),
        Item::Union(u) => ("a union", head(u.union_token, &u.ident)),
        Item::Const(c) => ("a const", head(c.const_token, &c.ident)),
        Item::Static(s) => ("a static", head(s.static_token, &s.ident)),
        Item::Type(t) => ("a type alias", head(t.type_token, &t.ident)),
        Item::Trait(t) => ("a trait", head(t.trait_token, &t.ident)),
        Item::Impl(i) => ("an impl block", head(i.impl_token, &i.self_ty)),
        Item::Mod(m) => ("a module", head(m.mod_token, &m.ident)),
        Item::Use(u) => ("a `use`", u.into_token_stream()),
        // A trait's or an extern block's `fn name();` reaches us unparsed.
        Item::Verbatim(tokens) => match syn::parse2::<TraitItemFn>(tokens.clone()) {
            Ok(function) => (
                "a function without a body",
                head(function.sig.fn_token, &function.sig.ident),
            ),
            Err(_) => ("this item", tokens),
        },
        other => ("this item", other.into_token_stream()),
    };
    Err(Error::new_spanned(
        head,
        format!("#[benchmark] goes on a free function, not on {kind}"),
    ))
}

/// The keyword and name that start an item: where to point at it.
fn head(keyword: impl ToTokens, name: impl ToTokens) -> TokenStream {
    quote!(#keyword #name)
}

/// Checks everything about the signature and reports every mistake at once.
fn call(sig: &Signature) -> syn::Result<Call> {
    let mut errors = Errors::default();
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.push(Error::new_spanned(
            unsafety,
            "a benchmark cannot be an `unsafe fn`: the runner cannot uphold its safety \
             contract; call the unsafe code from an `unsafe` block in a safe function",
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(Error::new_spanned(
            abi,
            format!(
                "a benchmark uses the Rust ABI: remove `{}`",
                abi.to_token_stream()
            ),
        ));
    }
    // Lifetime parameters are harmless; one type parameter is instantiated
    // by `types`.
    let mut generic = None;
    for param in &sig.generics.params {
        match param {
            GenericParam::Lifetime(_) => {}
            GenericParam::Type(ty) if generic.is_none() => generic = Some(ty.ident.clone()),
            GenericParam::Type(ty) => errors.push(Error::new_spanned(
                ty,
                "a benchmark has at most one type parameter, instantiated by `types = [...]`",
            )),
            GenericParam::Const(constant) => errors.push(Error::new_spanned(
                constant,
                "a benchmark cannot have const parameters: pass the values as an \
                 ordinary parameter with `args = [...]`",
            )),
        }
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(Error::new_spanned(
            variadic,
            "a benchmark cannot be variadic",
        ));
    }

    if let Some(receiver) = sig.receiver() {
        errors.push(Error::new_spanned(
            receiver,
            "#[benchmark] goes on a free function, not on a method taking `self`",
        ));
    }
    let mut params = sig
        .inputs
        .iter()
        .filter_map(|param| match param {
            FnArg::Typed(param) => Some(param),
            FnArg::Receiver(_) => None, // reported above
        })
        .peekable();
    let mut bencher = None;
    if let Some(first) = params.next_if(|param| names_bencher(&param.ty)) {
        bencher = errors.record(bencher_param(first));
        if !returns_unit(sig) {
            errors.push(Error::new_spanned(
                &sig.output,
                "a benchmark taking `&mut Bencher` returns nothing: return the measured \
                 value from the closure passed to `b.iter` instead",
            ));
        }
        if let Some(asyncness) = &sig.asyncness {
            errors.push(Error::new_spanned(
                asyncness,
                "an `async fn` benchmark is the routine itself and cannot take the bencher: \
                 remove `b: &mut Bencher`, or make it a plain `fn` that calls \
                 `b.iter_future(|| ...)`",
            ));
        }
    }
    let arg = params.next().map(|param| {
        if names_bencher(&param.ty) {
            errors.push(Error::new_spanned(
                param,
                "the bencher comes first: `fn name(b: &mut Bencher, n: usize)`",
            ));
        }
        ArgParam {
            param: param.clone(),
            by_ref: matches!(ungroup(&param.ty), Type::Reference(_)),
        }
    });
    if let Some(late) = params.next_if(|param| names_bencher(&param.ty)) {
        errors.push(Error::new_spanned(
            late,
            "the bencher comes first: `fn name(b: &mut Bencher, n: usize)`",
        ));
    }
    let extra: TokenStream = params.map(ToTokens::to_token_stream).collect();
    if !extra.is_empty() {
        errors.push(Error::new_spanned(
            extra,
            format!("too many parameters: {SIGNATURES}"),
        ));
    }
    errors.finish()?;
    Ok(Call {
        bencher,
        arg,
        generic,
        is_async: sig.asyncness.is_some(),
    })
}

/// Whether a parameter's type is a `Bencher` in any form (`&mut Bencher`,
/// `&Bencher`, `Bencher`): the bencher parameter, right or wrong.
fn names_bencher(ty: &Type) -> bool {
    match ungroup(ty) {
        Type::Reference(reference) => bencher_name(&reference.elem).is_some(),
        ty => bencher_name(ty).is_some(),
    }
}

/// Accepts `b: &mut Bencher` with any path ending in `Bencher`, and returns
/// that `Bencher`: whether it is bench-harness's is left to the type checker
/// (see `expand`).
fn bencher_param(param: &PatType) -> syn::Result<Ident> {
    match ungroup(&param.ty) {
        Type::Reference(reference) => match (bencher_name(&reference.elem), reference.mutability) {
            (Some(bencher), Some(_)) => Ok(bencher.clone()),
            (Some(_), None) => Err(Error::new_spanned(
                &param.ty,
                "the bencher must be borrowed mutably: `&mut Bencher`",
            )),
            (None, _) => unreachable!("only called on a parameter that names a Bencher"),
        },
        _ => Err(Error::new_spanned(
            &param.ty,
            "take the bencher by mutable reference: `&mut Bencher`",
        )),
    }
}

/// The last segment of a path type, if it is `Bencher`.
fn bencher_name(ty: &Type) -> Option<&Ident> {
    match ungroup(ty) {
        Type::Path(ty) if ty.qself.is_none() => ty
            .path
            .segments
            .last()
            .map(|segment| &segment.ident)
            .filter(|ident| *ident == "Bencher"),
        _ => None,
    }
}

fn returns_unit(sig: &Signature) -> bool {
    match &sig.output {
        ReturnType::Default => true,
        ReturnType::Type(_, ty) => {
            matches!(ungroup(ty), Type::Tuple(tuple) if tuple.elems.is_empty())
        }
    }
}

/// Sees through the invisible groups `macro_rules!` puts around `$t:ty` and
/// through parentheses.
fn ungroup(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => ungroup(&group.elem),
        Type::Paren(paren) => ungroup(&paren.elem),
        ty => ty,
    }
}
