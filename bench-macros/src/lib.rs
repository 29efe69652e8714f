//! The `#[benchmark]` attribute of bench-harness. Use it through
//! `bench_harness::benchmark`; the generated code names the runtime only
//! through `bench_harness::__private`, so this crate is not meant to be a
//! dependency of its own:
//!
//! ```toml
//! [dev-dependencies]
//! bench-harness = "0.1"
//! ```
//!
//! ```rust,ignore
//! use bench_harness::{benchmark, black_box};
//!
//! #[benchmark]
//! fn add() -> u64 {
//!     black_box(1u64) + black_box(2u64)
//! }
//!
//! bench_harness::main!();
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

mod errors;
mod expand;
mod options;
mod parse;
mod settings;
mod validate;

use proc_macro::TokenStream;

/// Registers a function as a benchmark.
///
/// ```rust,ignore
/// use bench_harness::{benchmark, black_box, Bencher, Throughput};
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
///
/// // One benchmark per value (`sort_sizes/100` ...), a rate, a growth class.
/// #[benchmark(args = [100, 1_000, 10_000], complexity)]
/// fn sort_sizes(b: &mut Bencher, len: usize) {
///     b.throughput(Throughput::Items(len as u64));
///     b.iter_batched_ref(|| make_data(len), |v| v.sort_unstable());
/// }
///
/// // One benchmark per type (`parse_int/u32` ...).
/// #[benchmark(types = [u32, u64, i128])]
/// fn parse_int<T: std::str::FromStr>() -> Option<T> {
///     black_box("123456789").parse::<T>().ok()
/// }
/// ```
///
/// Signatures:
/// - `fn()` and `fn() -> T`: the body is the routine, timed once per
///   iteration; what it returns goes through `black_box` and is dropped
///   after the clock stops.
/// - `fn(&mut Bencher)`: the code before `b.iter`, `b.iter_batched`,
///   `b.iter_batched_ref` or `b.iter_future` (exactly one, once) is untimed
///   set-up; returns `()`.
/// - With `args`, one more parameter after the bencher, or as the only one:
///   `fn(n: T) -> R` copies each value for every iteration (`T: Copy`) or
///   lends it (`&T`); `fn(b: &mut Bencher, n: T)` moves it in once or lends
///   it.
/// - `async fn`, with or without an `args` parameter: each iteration awaits
///   the future on a built-in executor (no reactor; for tokio, build a
///   runtime before `b.iter` and call `runtime.block_on` inside it).
/// - With `types`, one type parameter (lifetimes are fine; no const
///   parameters).
///
/// The function is kept as written, so it can still be called.
///
/// Options, all optional:
/// - `name = "..."`: the name to report instead of the function's (not
///   empty, no whitespace or `/`);
/// - `args = EXPR`: any `IntoIterator` (an array, a `const` slice, an
///   iterator call); one benchmark per value, named `function/value` by its
///   `Display`, else `Debug`, text; the value goes through `black_box`;
/// - `types = [T, ...]`: one benchmark per type, named `function/T`;
/// - `ignore`: skipped unless run with `--ignored` or `--include-ignored`;
/// - `warm_up_time = SECS`, `measure_time = SECS`, `max_time = SECS`: an
///   integer or decimal number of seconds, more than 0 and at most 86400 (a
///   day), with `max_time` no less than `warm_up_time + measure_time`;
/// - `min_samples = N`: from 1 to 10000000;
/// - `precision = PCT`: the stop rule's target, a percentage above 0 and at
///   most 100 (`precision = 0.5` is ±0.5%);
/// - `group = "..."`: reported together, the group's name first in each
///   member's name (`find_byte/naive/1024`, as criterion's ids); with a
///   `baseline` member, an in-run A/B comparison; `group!` gives the group
///   settings of its own;
/// - `baseline`: the group's reference (needs `group`);
/// - `bytes = N` or `items = N` (not both): work per iteration, a constant
///   whole number above 0, reported as a rate; `Bencher::throughput`
///   overrides it at run time;
/// - `complexity`: fit a growth class, O(1) to O(n³), over the numeric
///   `args` (needs `args`);
/// - `counters`: hardware and software counters for this benchmark, as
///   `--counters`;
/// - `bytes_unit = "binary"` (or `"decimal"`, the default): byte rates in
///   KiB/s, MiB/s, GiB/s, as `--bytes-unit binary`;
/// - `crate = path`: where bench-harness is, when it was renamed in
///   `Cargo.toml` or re-exported by another crate.
///
/// The measuring options are the settings a flag also sets (`min_samples`
/// and `--min-samples`; docs/writing-benchmarks.md lists them all). The
/// command line's flag overrides the attribute's option (a switch such as
/// `counters` it can only turn on); the attribute overrides its group's
/// `group!(...)`, which overrides the file's `main!(...)`. An unknown or
/// repeated option, a value of the wrong kind and a signature that cannot
/// work are compile errors on the token to change.
#[proc_macro_attribute]
pub fn benchmark(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    match generate(args.into(), item.clone()) {
        Ok(tokens) => tokens,
        // The item is kept as written so that only the attribute's mistakes
        // are reported, not every use of a function that vanished.
        Err(error) => {
            let error = error.into_compile_error();
            quote::quote!(#item #error)
        }
    }
    .into()
}

/// Settings shared by every member of a group: `group = "NAME"` in each
/// member's `#[benchmark(...)]` names the group, and
///
/// ```rust,ignore
/// bench_harness::group!(name = "find_byte", min_samples = 50, measure_time = 1);
/// ```
///
/// anywhere in the bench target sets what its members measure with, as
/// criterion's `group.sample_size(..)` does. It takes `name` (required),
/// the attribute's measuring options (see [`macro@benchmark`]) and
/// `crate`. A member's own attribute overrides the group, and the command
/// line overrides both. A `group!` whose name no benchmark uses, or a
/// second `group!` for one name, stops the run with an error.
#[proc_macro]
pub fn group(input: TokenStream) -> TokenStream {
    options::parse(input.into(), options::Site::Group)
        .map(|options| expand::group(&options))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `main!(...)`'s expansion: `(PATH) options` with PATH bench-harness's
/// `$crate`. Not for direct use.
#[doc(hidden)]
#[proc_macro]
pub fn file_settings(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    let mut tokens = input.into_iter();
    let krate = match tokens.next() {
        Some(proc_macro2::TokenTree::Group(krate)) => krate.stream(),
        _ => {
            return syn::Error::new(
                proc_macro2::Span::call_site(),
                "use bench_harness::main!(...), not file_settings! itself",
            )
            .into_compile_error()
            .into()
        }
    };
    let private = quote::quote!(#krate::__private);
    match options::parse(tokens.collect(), options::Site::Main) {
        Ok(options) => expand::file_settings(&private, &options),
        // In expression position: the errors, then a value of the type.
        Err(error) => {
            let errors = error.into_compile_error();
            quote::quote!({ #errors #private::Settings::NONE })
        }
    }
    .into()
}

fn generate(
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> syn::Result<proc_macro2::TokenStream> {
    let benchmark = parse::benchmark(args, item)?;
    validate::benchmark(&benchmark)?;
    Ok(expand::benchmark(&benchmark))
}

/// The settings' table (`settings_table.rs`) for bench-harness, which
/// generates its `Settings` and its flags from it: `__settings_table!(gen)`
/// is `gen! { rows }`. Not for direct use.
#[doc(hidden)]
#[proc_macro]
pub fn __settings_table(generate: TokenStream) -> TokenStream {
    let table: proc_macro2::TokenStream = include_str!("settings_table.rs")
        .parse()
        .expect("the settings' table is Rust tokens");
    // The table is `settings_table! { rows }`: the rows are its last tree.
    let rows = table.into_iter().last();
    let generate = proc_macro2::TokenStream::from(generate);
    quote::quote!(#generate! #rows).into()
}
