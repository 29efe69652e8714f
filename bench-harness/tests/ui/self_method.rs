use bench_harness::benchmark;

struct Parser;

impl Parser {
    #[benchmark]
    fn parse(&self) -> usize {
        42
    }
}

fn main() {}
