//! The `#[benchmark]` attribute. INTERIM: the real parser lands next.
use proc_macro::TokenStream;

#[proc_macro_attribute]
pub fn benchmark(_args: TokenStream, item: TokenStream) -> TokenStream {
    item
}
