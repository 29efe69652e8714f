use bench_harness::{benchmark, Bencher};

// An async benchmark is the routine itself.
#[benchmark]
async fn fetch(b: &mut Bencher<'_>) {
    b.iter(|| 1);
}

fn main() {}
