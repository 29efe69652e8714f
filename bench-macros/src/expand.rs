//! Tokens for a valid benchmark: the function as written, then its
//! registration with the runner.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;

use crate::options::Options;
use crate::parse::{Benchmark, Runner};

pub fn benchmark(benchmark: &Benchmark) -> TokenStream {
    let Benchmark {
        function,
        runner,
        options,
    } = benchmark;
    let ident = &function.sig.ident;
    let private = match &options.krate {
        Some(krate) => quote!(#krate::__private),
        None => quote!(::bench_harness::__private),
    };

    let run = match runner {
        Runner::Iterate => {
            // Mixed-site hygiene: a benchmark named `bencher` still resolves.
            let bencher = Ident::new("bencher", Span::mixed_site());
            quote! {
                const __BENCH_HARNESS_RUN: fn(&mut #private::Bencher<'_>) =
                    |#bencher| #bencher.iter(#ident);
            }
        }
        // The coercion is spanned at the `Bencher` the user wrote, so one that
        // is not bench-harness's (criterion's, their own) is reported there
        // rather than inside generated code.
        Runner::Function { bencher } => {
            let span = bencher.span();
            let mut function = ident.clone();
            function.set_span(span);
            quote_spanned! {span=>
                const __BENCH_HARNESS_RUN: fn(&mut #private::Bencher<'_>) = #function;
            }
        }
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
    let bench_options = bench_options(&private, options);

    quote! {
        #function

        const _: () = {
            #run
            #private::inventory::submit! {
                #private::BenchEntry {
                    name: #name,
                    module_path: ::core::module_path!(),
                    file: ::core::file!(),
                    line: #line,
                    options: #bench_options,
                    run: __BENCH_HARNESS_RUN,
                }
            }
        };
    }
}

fn bench_options(private: &TokenStream, options: &Options) -> TokenStream {
    let ignore = options.ignore;
    let seconds = |secs: Option<f64>| optional(secs.map(Literal::f64_suffixed));
    let warm_up_time = seconds(options.warm_up_time);
    let measure_time = seconds(options.measure_time);
    let max_time = seconds(options.max_time);
    let min_samples = optional(options.min_samples.map(Literal::usize_suffixed));
    let group = match &options.group {
        Some(group) => quote!(::core::option::Option::Some(#group)),
        None => quote!(::core::option::Option::None),
    };
    let baseline = options.baseline;
    let counters = options.counters;
    quote! {
        #private::BenchOptions {
            ignore: #ignore,
            warm_up_time: #warm_up_time,
            measure_time: #measure_time,
            max_time: #max_time,
            min_samples: #min_samples,
            group: #group,
            baseline: #baseline,
            counters: #counters,
        }
    }
}

fn optional(value: Option<Literal>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}
