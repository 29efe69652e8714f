use bench_harness::benchmark;

#[benchmark]
async fn fetch() -> u32 {
    1
}

fn main() {}
