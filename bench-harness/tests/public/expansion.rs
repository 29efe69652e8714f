//! Every supported signature expands, registers under the names a user
//! sees, and receives its `args` values and `types` as written.

use std::cell::RefCell;

use bench_harness::__private::{benchmarks, Benchmark, Clock, Driver, Nanos, Throughput};
use bench_harness::{benchmark, black_box, Bencher};

thread_local! {
    /// What the bodies run on this thread saw, in order.
    static SEEN: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn saw(what: String) {
    SEEN.with(|seen| seen.borrow_mut().push(what));
}

#[benchmark(args = [10, 100, 1000])]
fn by_value(n: usize) -> usize {
    saw(format!("by_value {n}"));
    n * 2
}

#[benchmark(args = [3, 1_000_000_000_000])]
fn with_bencher(b: &mut Bencher, n: u64) {
    saw(format!("with_bencher {n}"));
    b.iter(|| black_box(n) + 1);
}

#[benchmark(args = ["short", "a b"])]
fn borrowed_str(text: &str) -> usize {
    saw(format!("borrowed_str {text}"));
    text.len()
}

#[benchmark(args = [vec![1u8, 2], vec![3]])]
fn owned_vec(b: &mut Bencher, data: Vec<u8>) {
    saw(format!("owned_vec {data:?}"));
    b.iter(|| data.iter().map(|&x| u32::from(x)).sum::<u32>());
}

#[benchmark(args = [String::from("x"), String::from("yz")])]
fn lent_string(text: &String) -> usize {
    saw(format!("lent_string {text}"));
    text.len()
}

const SIZES: &[usize] = &[2, 20];

#[benchmark(args = SIZES)]
fn const_slice(n: usize) -> usize {
    saw(format!("const_slice {n}"));
    n
}

#[benchmark(args = SIZES)]
fn const_slice_with_bencher(b: &mut Bencher, n: usize) {
    saw(format!("const_slice_with_bencher {n}"));
    b.iter(|| n);
}

fn powers_of_two() -> impl Iterator<Item = u32> {
    (1..=3).map(|k| 1 << k)
}

#[benchmark(args = powers_of_two())]
fn from_iterator(n: u32) -> u32 {
    saw(format!("from_iterator {n}"));
    n
}

/// No `Display`: named by `Debug`.
#[derive(Debug, Clone, Copy)]
enum Mode {
    Fast,
    Careful,
}

#[benchmark(args = [Mode::Fast, Mode::Careful])]
fn debug_named(mode: Mode) {
    saw(format!("debug_named {mode:?}"));
}

#[benchmark(types = [u32, String, Vec<u8>])]
fn generic<T: Default>() -> T {
    saw(format!("generic {}", std::any::type_name::<T>()));
    T::default()
}

#[benchmark(types = [u8, u64], args = [1, 2])]
fn generic_with_args<T: From<u8> + std::fmt::Display>(b: &mut Bencher, n: u8) {
    saw(format!("generic_with_args {}", T::from(n)));
    b.iter(|| T::from(n));
}

#[benchmark]
async fn async_plain() -> u32 {
    saw("async_plain".to_string());
    yield_once().await;
    7
}

#[benchmark(args = [5, 6])]
async fn async_with_args(n: u32) -> u32 {
    saw(format!("async_with_args {n}"));
    n
}

#[benchmark(bytes = 4096)]
fn bytes_per_iteration() {}

const ITEMS: usize = 1000;

#[benchmark(items = ITEMS)]
fn items_per_iteration() {}

#[benchmark(args = [64, 128])]
fn throughput_at_run_time(b: &mut Bencher, len: u64) {
    b.throughput(Throughput::Bytes(len));
    b.iter(|| len);
}

#[benchmark(precision = 0.5, complexity, args = [1, 2, 3])]
fn precise(n: u8) -> u8 {
    n
}

/// A future that is pending once, and wakes itself: the executor must poll
/// it again rather than hang.
fn yield_once() -> impl std::future::Future<Output = ()> {
    let mut yielded = false;
    std::future::poll_fn(move |cx| {
        if yielded {
            std::task::Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
}

/// Runs the routine once, with one iteration.
struct OneIteration;

impl Driver for OneIteration {
    fn drive(&mut self, routine: &mut (dyn FnMut(u64) -> Nanos + '_)) {
        routine(1);
    }
}

fn ours() -> Vec<Benchmark> {
    benchmarks()
        .into_iter()
        .filter(|b| b.entry.module_path == module_path!())
        .collect()
}

/// What a benchmark's full name says below this module, `by_value/10` of
/// `expansion::by_value/10`: the module is the same for all of them.
fn name_in_module(bench: &Benchmark) -> String {
    let full_name = bench.full_name();
    full_name
        .strip_prefix("expansion::")
        .unwrap_or_else(|| panic!("{full_name} is not in this module"))
        .to_string()
}

fn find(name: &str) -> Benchmark {
    ours()
        .into_iter()
        .find(|b| name_in_module(b) == name)
        .unwrap_or_else(|| panic!("no benchmark named {name}"))
}

/// Runs one benchmark once and returns what its body saw.
fn run(name: &str) -> (Vec<String>, Option<Throughput>) {
    let bench = find(name);
    let mut driver = OneIteration;
    let mut bencher = Bencher::new(&mut driver, Clock::os());
    SEEN.with(|seen| seen.borrow_mut().clear());
    bench.run(&mut bencher);
    assert!(bencher.has_iterated(), "{name} measured something");
    let seen = SEEN.with(|seen| seen.take());
    (seen, bencher.throughput_set())
}

#[test]
fn args_and_types_make_one_benchmark_each_named_by_value() {
    let mut names: Vec<String> = ours().iter().map(name_in_module).collect();
    names.sort();
    let expected = [
        "async_plain",
        "async_with_args/5",
        "async_with_args/6",
        "borrowed_str/a b",
        "borrowed_str/short",
        "by_value/10",
        "by_value/100",
        "by_value/1000",
        "bytes_per_iteration",
        "const_slice/2",
        "const_slice/20",
        "const_slice_with_bencher/2",
        "const_slice_with_bencher/20",
        "debug_named/Careful",
        "debug_named/Fast",
        "from_iterator/2",
        "from_iterator/4",
        "from_iterator/8",
        "generic/String",
        "generic/Vec<u8>",
        "generic/u32",
        "generic_with_args/u64/1",
        "generic_with_args/u64/2",
        "generic_with_args/u8/1",
        "generic_with_args/u8/2",
        "items_per_iteration",
        "lent_string/x",
        "lent_string/yz",
        "owned_vec/[1, 2]",
        "owned_vec/[3]",
        "precise/1",
        "precise/2",
        "precise/3",
        "throughput_at_run_time/128",
        "throughput_at_run_time/64",
        "with_bencher/1000000000000",
        "with_bencher/3",
    ];
    assert_eq!(names, expected);
}

#[test]
fn each_benchmark_receives_its_own_value() {
    let cases: &[(&str, &str)] = &[
        ("by_value/100", "by_value 100"),
        ("with_bencher/1000000000000", "with_bencher 1000000000000"),
        ("borrowed_str/a b", "borrowed_str a b"),
        ("owned_vec/[3]", "owned_vec [3]"),
        ("lent_string/yz", "lent_string yz"),
        ("const_slice/20", "const_slice 20"),
        ("const_slice_with_bencher/2", "const_slice_with_bencher 2"),
        ("from_iterator/8", "from_iterator 8"),
        ("debug_named/Careful", "debug_named Careful"),
        ("generic/Vec<u8>", "generic alloc::vec::Vec<u8>"),
        ("generic/u32", "generic u32"),
        ("generic_with_args/u64/2", "generic_with_args 2"),
        ("async_plain", "async_plain"),
        ("async_with_args/6", "async_with_args 6"),
    ];
    for &(name, expected) in cases {
        let (seen, _) = run(name);
        // One iteration of a routine, or one call of a bencher's function.
        assert_eq!(seen, [expected], "{name}");
    }
}

#[test]
fn throughput_comes_from_the_attribute_or_the_bencher() {
    let options = |name: &str| find(name).entry.options;
    assert_eq!(
        options("bytes_per_iteration").throughput,
        Some(Throughput::Bytes(4096))
    );
    assert_eq!(
        options("items_per_iteration").throughput,
        Some(Throughput::Items(1000))
    );
    assert_eq!(options("by_value/10").throughput, None);
    assert_eq!(
        run("throughput_at_run_time/128").1,
        Some(Throughput::Bytes(128))
    );
}

#[test]
fn precision_and_complexity_are_registered() {
    let options = find("precise/2").entry.options;
    assert_eq!(options.settings.precision, Some(0.005));
    assert!(options.complexity);
    assert_eq!(find("precise/2").numeric_arg(), Some(2.0));
    assert_eq!(find("debug_named/Fast").numeric_arg(), None);
}

#[test]
fn the_functions_stay_callable() {
    assert_eq!(by_value(4), 8);
    assert_eq!(generic::<u32>(), 0);
    assert_eq!(borrowed_str("abc"), 3);
}
