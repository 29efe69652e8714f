//! What identifies a benchmark's code in its history: a hash of the machine
//! code its routine runs, read from this executable's file
//! (`/proc/self/exe`), so that a step between two runs whose code hashes
//! agree is a step of the machine or of the layout, not of the code.
//!
//! The hash starts at the benchmark's generated runner (the function
//! pointer the attribute registers), found by address in the ELF symbol
//! table, and follows every direct call and jump (`call rel32`,
//! `jmp rel32`) that lands on the start of another function symbol, and
//! every address taken with `lea` of a function or of a table of function
//! pointers in read-only memory (read from this process's memory,
//! `/proc/self/mem`, where the loader has filled them in): the timed loop
//! is a closure reached through its vtable, with the body inlined into it.
//! So it covers what the benchmark runs out of line too: the body, the
//! library function it calls, and what that calls.
//!
//! What moves when only the layout changes is left out: a followed
//! function is hashed as its place in the walk, and the 32-bit
//! displacement of every call or jump into the code (a PLT stub, say) and
//! of every RIP-relative operand (constants, statics, the GOT) is skipped.
//! Such operands are told apart without a disassembler: a ModRM byte of
//! RIP-relative addressing whose displacement lands inside this image, or
//! an `E8`/`E9` byte whose target lands in its code (a random four bytes
//! would, about one time in a thousand). Jumps within a function are
//! relative to it and stay. Measured on two builds of
//! `tests/benches/against.rs` that differ in two bodies: the six other
//! benchmarks keep their hashes, the two changed ones do not (and the
//! 1000-multiply body has the same hash as `unchanged`, which is the same
//! code).
//!
//! Not covered (the hash is the same though the behaviour may differ):
//! data read through RIP-relative operands (a constant table's contents),
//! code reached only through pointers made at run time (a `dyn` object
//! built elsewhere, a shared library through the PLT), and functions past
//! the walk's bound ([`MAX_FUNCTIONS`]). The commit and the dirty flag in
//! the same record say when the sources changed at all.
//!
//! Only x86-64 ELF is read; elsewhere, and for a binary without a symbol
//! table (stripped), there is no hash and no step is labelled by it.
//! Cost, after measuring: 0.4–0.7 ms for the 8 benchmarks of the optimised
//! `against` fixture (the symbol table read once, each function scanned
//! once per run however many benchmarks reach it); 160 ms for 21 in the
//! unoptimised test fixture.

use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};

/// The most functions one benchmark's walk hashes: past it, the rest of
/// the call graph (deep in std's formatting, say) is not covered.
const MAX_FUNCTIONS: usize = 4096;
/// The most bytes one function may have to be read (a symbol larger than
/// this is damaged or not code).
const MAX_FUNCTION_BYTES: u64 = 1 << 20;
/// The most symbols read: a symbol table larger than this is not read.
const MAX_SYMBOLS: u64 = 4 << 20;
/// A function's bytes hashed and the functions it reaches, in order;
/// `None` when its bytes cannot be read.
type Scan = Option<(u64, Vec<usize>)>;

/// The words read where a `lea` points, for function pointers: a vtable's
/// drop, size, alignment and first methods.
const TABLE_WORDS: usize = 8;
/// ELF's `e_machine` for x86-64.
const EM_X86_64: u16 = 62;

/// This executable, as far as the code hashes need it.
pub(crate) struct Image {
    file: File,
    /// This process's memory (`/proc/self/mem`), where the tables of
    /// function pointers are read with their relocations applied. Without
    /// it the walk would stop short of the body (reached through the timed
    /// loop's vtable), and two bodies could share a hash: no hash then.
    memory: File,
    /// Function symbols (start, size), by start address, link-time.
    functions: Vec<(u64, u64)>,
    /// The loadable segments: (link-time address, size in the file, file
    /// offset).
    segments: Vec<(u64, u64, u64)>,
    /// The executable segments: (link-time address, size in memory).
    code_ranges: Vec<(u64, u64)>,
    /// The lowest and highest link-time addresses loaded.
    extent: (u64, u64),
    /// What is read-only once loaded: (link-time address, size). Tables of
    /// function pointers are read only there, where no run can change
    /// them (vtables sit in RELRO).
    read_only: Vec<(u64, u64)>,
    /// What to add to a link-time address for the address in memory.
    bias: u64,
    /// Each function scanned so far ([`Image::scan`]), by index; `None`
    /// until it is.
    scanned: Vec<Option<Scan>>,
}

impl Image {
    /// Reads this executable's symbol table; `None` where it cannot (not
    /// Linux, not x86-64 ELF, stripped, unreadable).
    pub(crate) fn open() -> Option<Image> {
        let file = File::open("/proc/self/exe").ok()?;
        let header = read_at(&file, 0, 64)?;
        let elf64_le = header.starts_with(b"\x7fELF") && header[4] == 2 && header[5] == 1;
        if !elf64_le || u16_at(&header, 0x12) != EM_X86_64 {
            return None;
        }
        let Segments {
            file_ranges: segments,
            code_ranges,
            read_only,
        } = segments(&file, &header)?;
        let extent = code_ranges
            .iter()
            .chain(&read_only)
            .chain(&segments.iter().map(|&(a, s, _)| (a, s)).collect::<Vec<_>>())
            .fold((u64::MAX, 0), |(low, high), &(start, size)| {
                (low.min(start), high.max(start + size))
            });
        let functions = functions(&file, &header)?;
        let bias = load_bias(&file, &segments)?;
        Some(Image {
            file,
            memory: File::open("/proc/self/mem").ok()?,
            functions,
            segments,
            code_ranges,
            extent,
            read_only,
            bias,
            scanned: Vec::new(),
        })
    }

    /// The hash of the code that the function at `address` (in memory)
    /// runs, 16 hex digits; `None` when no function symbol holds it or a
    /// function it reaches cannot be read.
    pub(crate) fn identity(&mut self, address: usize) -> Option<String> {
        let start = (address as u64).checked_sub(self.bias)?;
        let first = self.function_containing(start)?;
        let mut hash = Fnv::new();
        let mut seen = vec![first];
        let mut next = 0;
        while let Some(&function) = seen.get(next) {
            next += 1;
            let (bytes, followed) = self.scan(function)?;
            hash.write(&bytes.to_le_bytes());
            for callee in followed {
                // A callee's place in the walk, not its address.
                let place = match seen.iter().position(|&s| s == callee) {
                    Some(place) => place,
                    None if seen.len() < MAX_FUNCTIONS => {
                        seen.push(callee);
                        seen.len() - 1
                    }
                    None => usize::MAX,
                };
                hash.write(&(place as u64).to_le_bytes());
            }
        }
        Some(format!("{:016x}", hash.0))
    }

    /// One function's bytes, hashed without what only the layout changes,
    /// and the functions it reaches, in order; computed once per run (the
    /// benchmarks share much of what they call).
    fn scan(&mut self, function: usize) -> Scan {
        if let Some(Some(scanned)) = self.scanned.get(function) {
            return scanned.clone();
        }
        let (start, size) = self.functions[function];
        let scanned = self.code(start, size).map(|code| {
            let mut hash = Fnv::new();
            hash.write(&size.to_le_bytes());
            let mut followed = Vec::new();
            let mut i = 0;
            while i < code.len() {
                let byte = code[i];
                let displacement = code
                    .get(i + 1..i + 5)
                    .and_then(|d| d.try_into().ok())
                    .map(i32::from_le_bytes);
                let at = |end: usize| {
                    let next = start + end as u64;
                    displacement.map(|d| next.wrapping_add_signed(i64::from(d)))
                };
                hash.write(&[byte]);
                if matches!(byte, 0xE8 | 0xE9) {
                    let target = at(i + 5).filter(|&t| self.in_code(t));
                    if let Some(target) = target {
                        // A direct call or jump: the callee followed, or
                        // (a PLT stub, the middle of a function) only its
                        // displacement left out.
                        followed.extend(self.function_starting(target));
                        i += 5;
                        continue;
                    }
                }
                // A ModRM byte of RIP-relative addressing (mod 00, r/m 101)
                // whose displacement lands in this image (a random one
                // would, 1 time in about a thousand).
                let rip_relative =
                    byte & 0xC7 == 0x05 && i > 0 && at(i + 5).is_some_and(|t| self.in_image(t));
                if rip_relative {
                    // A constant, a static or a table: its place is not
                    // the code. An address taken (`lea`) of a function, or
                    // of a table of them (a closure's vtable, which is how
                    // the timed loop reaches the body), is followed.
                    if code[i - 1] == 0x8D {
                        if let Some(target) = at(i + 5) {
                            followed.extend(self.functions_at(target));
                        }
                    }
                    i += 5;
                    continue;
                }
                i += 1;
            }
            (hash.0, followed)
        });
        if self.scanned.len() <= function {
            self.scanned.resize(function + 1, None);
        }
        self.scanned[function] = Some(scanned.clone());
        scanned
    }

    /// The function at link-time address `target`, or the functions the
    /// first words of read-only memory there point at.
    fn functions_at(&self, target: u64) -> Vec<usize> {
        if let Some(function) = self.function_starting(target) {
            return vec![function];
        }
        let table = 8 * TABLE_WORDS as u64;
        let fixed = self
            .read_only
            .iter()
            .any(|&(start, size)| target >= start && target + table <= start + size);
        let mut words = [0u8; 8 * TABLE_WORDS];
        let read = match target.checked_add(self.bias) {
            Some(address) if fixed => self.memory.read_exact_at(&mut words, address),
            _ => return Vec::new(),
        };
        if read.is_err() {
            return Vec::new();
        }
        words
            .chunks_exact(8)
            .filter_map(|word| {
                let pointer = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                self.function_starting(pointer.checked_sub(self.bias)?)
            })
            .collect()
    }

    /// Whether link-time `address` is in an executable segment.
    fn in_code(&self, address: u64) -> bool {
        self.code_ranges
            .iter()
            .any(|&(start, size)| address >= start && address < start + size)
    }

    /// Whether link-time `address` is within the loaded image (a few bytes
    /// of slack: the displacement is read as if the instruction ended
    /// after it, before any immediate).
    fn in_image(&self, address: u64) -> bool {
        let (low, high) = self.extent;
        address.wrapping_add(8) >= low && address < high.saturating_add(8)
    }

    fn function_containing(&self, address: u64) -> Option<usize> {
        let after = self
            .functions
            .partition_point(|&(start, _)| start <= address);
        let index = after.checked_sub(1)?;
        let (start, size) = self.functions[index];
        (address < start + size.max(1)).then_some(index)
    }

    fn function_starting(&self, address: u64) -> Option<usize> {
        self.functions
            .binary_search_by_key(&address, |&(start, _)| start)
            .ok()
    }

    /// A function's bytes, through the segment that holds them.
    fn code(&self, start: u64, size: u64) -> Option<Vec<u8>> {
        if size > MAX_FUNCTION_BYTES {
            return None;
        }
        let &(vaddr, _, offset) = self
            .segments
            .iter()
            .find(|&&(vaddr, filesz, _)| start >= vaddr && start + size <= vaddr + filesz)?;
        read_at(&self.file, offset + (start - vaddr), size)
    }
}

/// What `segments` reads of the program headers.
struct Segments {
    /// The PT_LOAD segments: (link-time address, size in the file,
    /// offset).
    file_ranges: Vec<(u64, u64, u64)>,
    /// The executable ones: (link-time address, size in memory).
    code_ranges: Vec<(u64, u64)>,
    /// What is read-only once loaded: PT_LOAD segments without write
    /// permission and PT_GNU_RELRO (link-time address, size in memory).
    read_only: Vec<(u64, u64)>,
}

fn segments(file: &File, header: &[u8]) -> Option<Segments> {
    let (offset, size, count) = (
        u64_at(header, 0x20),
        u64::from(u16_at(header, 0x36)),
        u64::from(u16_at(header, 0x38)),
    );
    let table = read_at(file, offset, size.checked_mul(count)?)?;
    let entry = |k: u64| table.get(usize::try_from(k * size).ok()?..);
    let mut found = Segments {
        file_ranges: Vec::new(),
        code_ranges: Vec::new(),
        read_only: Vec::new(),
    };
    for k in 0..count {
        let e = entry(k)?;
        if e.len() < 56 {
            continue;
        }
        let (kind, flags) = (u32_at(e, 0), u32_at(e, 4));
        let in_memory = (u64_at(e, 16), u64_at(e, 40));
        if kind == 1 {
            found
                .file_ranges
                .push((u64_at(e, 16), u64_at(e, 32), u64_at(e, 8)));
            if flags & 1 != 0 {
                found.code_ranges.push(in_memory);
            }
        }
        if (kind == 1 && flags & 2 == 0) || kind == 0x6474_e552 {
            found.read_only.push(in_memory);
        }
    }
    Some(found)
}

/// The function symbols of `.symtab`, by start address.
fn functions(file: &File, header: &[u8]) -> Option<Vec<(u64, u64)>> {
    let (offset, size, count) = (
        u64_at(header, 0x28),
        u64::from(u16_at(header, 0x3A)),
        u64::from(u16_at(header, 0x3C)),
    );
    if size < 64 {
        return None;
    }
    let table = read_at(file, offset, size.checked_mul(count)?)?;
    let symtab = (0..count).find_map(|k| {
        let e = table.get(usize::try_from(k * size).ok()?..)?;
        (u32_at(e, 4) == 2).then(|| (u64_at(e, 24), u64_at(e, 32)))
    })?;
    let (offset, bytes) = symtab;
    if bytes / 24 > MAX_SYMBOLS {
        return None;
    }
    let symbols = read_at(file, offset, bytes)?;
    let mut functions: Vec<(u64, u64)> = symbols
        .chunks_exact(24)
        .filter(|s| s[4] & 0xF == 2 && u64_at(s, 8) != 0)
        .map(|s| (u64_at(s, 8), u64_at(s, 16)))
        .collect();
    functions.sort_unstable();
    functions.dedup_by_key(|&mut (start, _)| start);
    (!functions.is_empty()).then_some(functions)
}

/// Where this executable was loaded: the mapping of its file at offset 0
/// in `/proc/self/maps`, against the link-time address of its first
/// segment.
fn load_bias(file: &File, segments: &[(u64, u64, u64)]) -> Option<u64> {
    let inode = file.metadata().ok()?.ino();
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let start = maps.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (range, offset, node) = (fields.first()?, fields.get(2)?, fields.get(4)?);
        let ours = node.parse::<u64>().ok()? == inode && u64::from_str_radix(offset, 16).ok()? == 0;
        ours.then(|| u64::from_str_radix(range.split('-').next()?, 16).ok())
            .flatten()
    })?;
    let first = segments.iter().find(|&&(_, _, offset)| offset == 0)?;
    start.checked_sub(first.0 & !0xFFF)
}

fn read_at(file: &File, offset: u64, len: u64) -> Option<Vec<u8>> {
    let mut bytes = vec![0; usize::try_from(len).ok()?];
    file.read_exact_at(&mut bytes, offset).ok()?;
    Some(bytes)
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    bytes
        .get(at..at + 2)
        .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..at + 8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// 64-bit FNV-1a: small, and as good as any hash at telling two byte
/// strings apart when no one chooses them to collide.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn twice(n: u64) -> u64 {
        std::hint::black_box(n) * 2
    }

    fn thrice(n: u64) -> u64 {
        std::hint::black_box(n) * 3
    }

    /// This test binary's own functions: each has a hash, the same every
    /// time it is asked for, and two functions of different bodies differ.
    #[test]
    fn a_function_has_one_hash_and_another_body_another() {
        let Some(mut image) = Image::open() else {
            // Not x86-64 Linux, or a stripped binary: nothing to hash.
            return;
        };
        let a = image.identity(twice as fn(u64) -> u64 as usize);
        let b = image.identity(thrice as fn(u64) -> u64 as usize);
        assert!(a.is_some(), "no symbol holds a function of this binary");
        assert_eq!(a, image.identity(twice as fn(u64) -> u64 as usize));
        assert_ne!(a, b);
        assert_eq!(a.unwrap().len(), 16);
    }
}
