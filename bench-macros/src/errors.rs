//! Collects `syn::Error`s so that one build reports every mistake at once,
//! not only the first.

use syn::Error;

/// The errors found so far, combined into one with `Error::combine`.
#[derive(Default)]
pub(crate) struct Errors(Option<Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: Error) {
        match &mut self.0 {
            Some(errors) => errors.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// The result's value, or `None` with its error recorded.
    pub(crate) fn record<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }

    pub(crate) fn finish(self) -> syn::Result<()> {
        match self.0 {
            Some(errors) => Err(errors),
            None => Ok(()),
        }
    }
}
