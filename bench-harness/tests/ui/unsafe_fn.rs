use bench_harness::benchmark;

#[benchmark]
unsafe fn read_raw() -> u8 {
    let x = 1u8;
    unsafe { std::ptr::read(&x) }
}

#[benchmark]
extern "C" fn ffi_callback() {}

fn main() {}
