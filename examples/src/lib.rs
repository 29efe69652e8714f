//! Code the example suite measures (`benches/suite.rs`). It lives in a
//! library so the benchmarks show the usual shape: a crate's own functions,
//! measured from its bench target.
#![forbid(unsafe_code)]

/// The n-th Fibonacci number, computed the slow recursive way on purpose.
pub fn fib(n: u64) -> u64 {
    if n < 2 {
        n
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

/// `len` pseudo-random numbers from a fixed seed (xorshift), so every run
/// sorts the same input.
pub fn make_data(len: usize) -> Vec<u32> {
    let mut state: u32 = 0x9E37_79B9;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        })
        .collect()
}

/// Sums a line of comma-separated unsigned integers; `None` on a bad field.
pub fn sum_csv_line(line: &str) -> Option<u64> {
    line.split(',')
        .map(|field| field.trim().parse::<u64>().ok())
        .sum()
}

/// FNV-1a, 64-bit: a small non-cryptographic hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
