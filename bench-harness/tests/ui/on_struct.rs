use bench_harness::benchmark;

#[benchmark]
struct Fib {
    n: u64,
}

#[benchmark]
impl Fib {
    fn run(&self) {}
}

fn main() {}
