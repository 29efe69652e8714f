//! Tokens for a valid benchmark: the function as written, then one
//! registration with the runner per instantiation (one, or one per type of
//! `types = [...]`).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, Type};

use crate::options::{Options, ThroughputKind};
use crate::parse::{Benchmark, Call};

pub(crate) fn benchmark(benchmark: &Benchmark) -> TokenStream {
    let Benchmark {
        function,
        call,
        options,
    } = benchmark;
    let ident = &function.sig.ident;
    let private = match &options.krate {
        Some(krate) => quote!(#krate::__private),
        None => quote!(::bench_harness::__private),
    };
    let name = match &options.name {
        Some(name) => quote!(#name),
        None => {
            let name = ident.unraw().to_string();
            quote!(#name)
        }
    };
    // `line!()` spanned at the function's name expands to that name's line.
    let line = quote_spanned!(ident.span()=> ::core::line!());
    let column = quote_spanned!(ident.span()=> ::core::column!());
    let bench_options = bench_options(&private, options);

    let instances: Vec<Option<&Type>> = match &options.types {
        Some((_, types)) => types.iter().map(Some).collect(),
        None => vec![None],
    };
    let registrations = instances.into_iter().enumerate().map(|(type_index, ty)| {
        let type_index = type_index as u32;
        let target = match ty {
            Some(ty) => quote!(#ident::<#ty>),
            None => quote!(#ident),
        };
        let type_name = match ty {
            Some(ty) => {
                let text = type_name(ty);
                quote!(::core::option::Option::Some(#text))
            }
            None => quote!(::core::option::Option::None),
        };
        let run = match &options.args {
            None => plain(&private, call, &target),
            Some((_, args)) => with_args(&private, call, &target, args),
        };
        quote! {
            const _: () = {
                #run
                #private::inventory::submit! {
                    #private::BenchEntry {
                        name: #name,
                        type_name: #type_name,
                        type_index: #type_index,
                        module_path: ::core::module_path!(),
                        file: ::core::file!(),
                        line: #line,
                        column: #column,
                        options: #bench_options,
                        run: __BENCH_HARNESS_RUN,
                    }
                }
            };
        }
    });

    quote! {
        #function
        #(#registrations)*
    }
}

/// `__BENCH_HARNESS_RUN` for a benchmark without `args`.
fn plain(private: &TokenStream, call: &Call, target: &TokenStream) -> TokenStream {
    // Mixed-site hygiene: a benchmark named `bencher` still resolves.
    let bencher = Ident::new("bencher", Span::mixed_site());
    match (&call.bencher, call.is_async) {
        (None, false) => quote! {
            const __BENCH_HARNESS_RUN: #private::BenchFn =
                #private::BenchFn::Plain(|#bencher| #bencher.iter(#target));
        },
        (None, true) => quote! {
            const __BENCH_HARNESS_RUN: #private::BenchFn =
                #private::BenchFn::Plain(|#bencher| #bencher.iter_future(#target));
        },
        // The coercion is spanned at the `Bencher` the user wrote, so one
        // that is not bench-harness's (criterion's, their own) is reported
        // there rather than inside generated code.
        (Some(written), _) => {
            let span = written.span();
            let target = located_at(target.clone(), span);
            quote_spanned! {span=>
                const __BENCH_HARNESS_RUN: #private::BenchFn = #private::BenchFn::Plain(#target);
            }
        }
    }
}

/// `__BENCH_HARNESS_RUN` for a benchmark with `args = EXPR`: one function
/// that evaluates `EXPR` and either names its values or runs one of them.
/// Both happen in one body so that the values' type is inferred once, from
/// the parameter they are passed to (`args = [10, 100]` with `n: u64`).
fn with_args(private: &TokenStream, call: &Call, target: &TokenStream, args: &Expr) -> TokenStream {
    let arg_param = call.arg.as_ref().expect("`args` comes with a parameter");
    let [run, bencher, index, values, value, pass] =
        ["run", "bencher", "index", "values", "value", "pass"]
            .map(|name| Ident::new(name, Span::mixed_site()));
    let values_expr = quote_spanned!(args.span()=> #private::collect_args(#args));
    let ty = &arg_param.param.ty;
    // The bencher's own function gets the value once: moved out of the
    // list, or lent from it. A routine gets it every iteration: lent, or
    // copied, so the parameter's type must then be `Copy` (reported on it).
    // A type error in passing is reported on the parameter.
    let passed = match (&call.bencher, arg_param.by_ref) {
        (_, true) => quote!(#private::arg_ref(&#values, #index)),
        (Some(_), false) => located_at(
            quote!(#private::FromOwnedArg::from_owned_arg(#private::arg_owned(#values, #index))),
            ty.span(),
        ),
        (None, false) => located_at(
            quote!(#private::FromArg::from_arg(#private::arg_ref(&#values, #index))),
            ty.span(),
        ),
    };
    // A value that has neither `Display` nor `Debug` is reported on `args`.
    let names = located_at(
        quote!(#values.iter().map(|#value| (&#private::ArgName(#value)).arg_name()).collect()),
        args.span(),
    );
    let measure = match (&call.bencher, call.is_async) {
        (Some(written), _) => {
            let target = located_at(target.clone(), written.span());
            quote!(#target(#bencher, #private::black_box(#pass)))
        }
        (None, false) => {
            quote!(#bencher.iter(move || #target(#private::black_box(#pass))))
        }
        (None, true) => {
            quote!(#bencher.iter_future(move || #target(#private::black_box(#pass))))
        }
    };
    quote! {
        fn __bench_harness_args(
            #run: ::core::option::Option<(&mut #private::Bencher<'_>, usize)>,
        ) -> #private::Vec<#private::String> {
            let #values = #values_expr;
            if let ::core::option::Option::Some((#bencher, #index)) = #run {
                let #pass = #passed;
                #measure;
                return #private::Vec::new();
            }
            #[allow(unused_imports)]
            use #private::{ArgNameByDebug as _, ArgNameByDisplay as _};
            #names
        }
        const __BENCH_HARNESS_RUN: #private::BenchFn =
            #private::BenchFn::Args(__bench_harness_args);
    }
}

/// The tokens, reported at `span` but resolved as before (hygiene kept).
fn located_at(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            proc_macro2::TokenTree::Group(group) => {
                let mut located =
                    proc_macro2::Group::new(group.delimiter(), located_at(group.stream(), span));
                located.set_span(group.span().located_at(span));
                located.into()
            }
            mut token => {
                token.set_span(token.span().located_at(span));
                token
            }
        })
        .collect()
}

/// A type as it reads in a benchmark's name: `Vec<u8>`, `&'static str`,
/// with a space only between two words.
fn type_name(ty: &Type) -> String {
    let spaced = ty.to_token_stream().to_string();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let chars: Vec<char> = spaced.chars().collect();
    let mut name = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let before = name.chars().last();
            let after = chars.get(i + 1).copied();
            if !(before.is_some_and(word) && after.is_some_and(word)) {
                continue;
            }
        }
        name.push(c);
    }
    name
}

/// `group!(name = "...", ...)`: the group's settings, registered for the
/// runner to find by the name.
pub(crate) fn group(options: &Options) -> TokenStream {
    let private = match &options.krate {
        Some(krate) => quote!(#krate::__private),
        None => quote!(::bench_harness::__private),
    };
    let name = options.name.as_ref().expect("validated: group! has a name");
    let settings = settings(&private, options);
    quote! {
        const _: () = {
            #private::inventory::submit! {
                #private::GroupEntry {
                    name: #name,
                    file: ::core::file!(),
                    line: ::core::line!(),
                    settings: #settings,
                }
            }
        };
    }
}

/// `main!(...)`'s settings for the whole file, as a `Settings` value.
pub(crate) fn file_settings(private: &TokenStream, options: &Options) -> TokenStream {
    settings(private, options)
}

/// The measuring settings written in `options`, as a `Settings` value.
fn settings(private: &TokenStream, options: &Options) -> TokenStream {
    let fields = options.settings(private).into_iter().map(|(field, value)| {
        let field = Ident::new(field, Span::call_site());
        quote!(#field: ::core::option::Option::Some(#value),)
    });
    quote! {
        #private::Settings {
            #(#fields)*
            ..#private::Settings::NONE
        }
    }
}

fn bench_options(private: &TokenStream, options: &Options) -> TokenStream {
    let ignore = options.ignore;
    let settings = settings(private, options);
    let group = match &options.group {
        Some(group) => quote!(::core::option::Option::Some(#group)),
        None => quote!(::core::option::Option::None),
    };
    let baseline = options.baseline;
    let complexity = options.complexity.is_some();
    let throughput = match &options.throughput {
        Some((kind, work)) => {
            let kind = match kind {
                ThroughputKind::Bytes => quote!(Bytes),
                ThroughputKind::Items => quote!(Items),
            };
            // `as u64` so that a `usize` constant works too; a block, so the
            // lint a `u64` value would raise can be allowed.
            let work = quote_spanned! {work.span()=>
                {
                    #[allow(clippy::unnecessary_cast, trivial_numeric_casts)]
                    const WORK: u64 = (#work) as u64;
                    WORK
                }
            };
            quote!(::core::option::Option::Some(#private::Throughput::#kind(#work)))
        }
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #private::BenchOptions {
            ignore: #ignore,
            group: #group,
            baseline: #baseline,
            throughput: #throughput,
            complexity: #complexity,
            settings: #settings,
        }
    }
}
