//! The checks that need both halves of the model: options that ask
//! something of the signature, and parts of the signature that need an
//! option. They run only once both halves parsed: an `args = []` already
//! reported as empty would otherwise be reported again as missing.

use syn::Error;

use crate::errors::Errors;
use crate::parse::Benchmark;

/// Reports every disagreement between the options and the signature.
pub(crate) fn benchmark(benchmark: &Benchmark) -> syn::Result<()> {
    let Benchmark { call, options, .. } = benchmark;
    let mut errors = Errors::default();
    match (&options.args, &call.arg) {
        (Some((key, _)), None) => errors.push(Error::new_spanned(
            key,
            "`args` needs a parameter to pass each value to: \
             `fn name(n: usize)` or `fn name(b: &mut Bencher, n: usize)`",
        )),
        (None, Some(arg)) => errors.push(Error::new_spanned(
            &arg.param,
            "this parameter has no values: add `args = [...]` to #[benchmark], \
             one benchmark per value",
        )),
        _ => {}
    }
    match (&options.types, &call.generic) {
        (Some((key, _)), None) => errors.push(Error::new_spanned(
            key,
            "`types` needs a type parameter to instantiate: `fn name<T>()`",
        )),
        (None, Some(generic)) => errors.push(Error::new_spanned(
            generic,
            "a generic benchmark needs `types = [...]` in #[benchmark]: \
             one benchmark per type, like `types = [u32, u64, String]`",
        )),
        _ => {}
    }
    if let (Some(key), None) = (&options.complexity, &options.args) {
        errors.push(Error::new_spanned(
            key,
            "`complexity` fits a growth class over numeric `args`: \
             add `args = [...]` with the input sizes",
        ));
    }
    errors.finish()
}
