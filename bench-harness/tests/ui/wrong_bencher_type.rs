use bench_harness::{benchmark, Bencher};

#[benchmark]
fn shared(b: &Bencher) {
    let _ = b;
}

#[benchmark]
fn by_value(b: Bencher) {
    let _ = b;
}

mod own {
    // A type of the user's that happens to be called `Bencher`, like
    // criterion's `Bencher` left over from a migration.
    pub struct Bencher;

    #[bench_harness::benchmark]
    fn not_ours(b: &mut Bencher) {
        let _ = b;
    }
}

fn main() {}
