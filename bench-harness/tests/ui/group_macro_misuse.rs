use bench_harness::benchmark;

// No name: the members cannot be found.
bench_harness::group!(min_samples = 50);

// `args` belongs to each benchmark, not to a group.
bench_harness::group!(name = "find_byte", args = [16, 1024]);

// A group name with a `/` would split the members' names.
bench_harness::group!(name = "find/byte");

// criterion's name for the unit.
bench_harness::group!(name = "copy", bytes_unit = "kibibytes");

#[benchmark(group = "find_byte")]
fn naive() {}

#[benchmark(group = "copy")]
fn memcpy() {}

fn main() {}
