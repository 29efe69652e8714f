//! Compile-fail tests: each case in `tests/ui` is one mistake a user makes
//! with `#[benchmark]`, and its `.stderr` the error they get.
//!
//! Regenerate the expected output with `TRYBUILD=overwrite`, then read it.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
