//! The `#[benchmark]` attribute of bench-harness. Use it through
//! `bench_harness::benchmark`; the generated code names the runtime only
//! through `bench_harness::__private`.
#![forbid(unsafe_code)]

mod expand;
mod options;
mod parse;

use proc_macro::TokenStream;

/// Registers a function as a benchmark.
///
/// ```rust,ignore
/// use bench_harness::{benchmark, black_box, Bencher};
///
/// // Timed as a whole; what it returns goes through `black_box`.
/// #[benchmark]
/// fn fib_20() -> u64 {
///     fib(black_box(20))
/// }
///
/// // Set-up first, then the timed routine.
/// #[benchmark(min_samples = 20)]
/// fn sort_1k(b: &mut Bencher) {
///     let data: Vec<u32> = (0..1000).rev().collect();
///     b.iter(|| {
///         let mut v = data.clone();
///         v.sort();
///         v
///     })
/// }
/// ```
///
/// Signatures: `fn()`, `fn() -> T` and `fn(&mut Bencher)`. The function is
/// kept as written, so it can still be called.
///
/// Options, all optional, override the command line for this benchmark:
/// - `name = "..."`: the name to report instead of the function's (no
///   whitespace or `/`);
/// - `ignore`: skipped unless run with `--ignored` or `--include-ignored`;
/// - `warm_up_time = SECS`, `measure_time = SECS`, `max_time = SECS`: an
///   integer or decimal number of seconds, more than 0;
/// - `min_samples = N`: at least 1;
/// - `crate = path`: where bench-harness is, when it was renamed in
///   `Cargo.toml` or re-exported by another crate.
#[proc_macro_attribute]
pub fn benchmark(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    match parse::benchmark(args.into(), item.clone()) {
        Ok(benchmark) => expand::benchmark(&benchmark),
        // The item is kept as written so that only the attribute's mistakes
        // are reported, not every use of a function that vanished.
        Err(error) => {
            let error = error.into_compile_error();
            quote::quote!(#item #error)
        }
    }
    .into()
}
