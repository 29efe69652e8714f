//! What `#[benchmark]` registers, and how the runner finds it.
//!
//! The attribute expands to an `inventory::submit!` of a [`BenchEntry`];
//! inventory collects them before `main` runs. Generated code names these
//! items only through `::bench_harness::__private`, so they can change
//! without breaking users.

use std::fmt::{Debug, Display};
use std::sync::OnceLock;

use bench_runtime::{Bencher, Throughput};

use crate::settings::Settings;

/// A registered benchmark function, as the attribute describes it: one
/// benchmark, or one per value of its `args`.
#[derive(Debug)]
pub struct BenchEntry {
    /// The function's name, or the attribute's `name = "..."`.
    pub name: &'static str,
    /// The type `types = [...]` instantiated this entry with, as written.
    pub type_name: Option<&'static str>,
    /// That type's position in `types` (0 without `types`).
    pub type_index: u32,
    /// `module_path!()` at the function: its first segment is the crate.
    pub module_path: &'static str,
    /// `file!()` at the function: where a failure without a panic points.
    pub file: &'static str,
    /// The line of the function's name, wherever the attribute is.
    pub line: u32,
    /// The column of the function's name: with `file` and `line`, where it
    /// is defined, the order `--list` and the table follow.
    pub column: u32,
    /// Per-benchmark options from the attribute.
    pub options: BenchOptions,
    /// Runs the benchmark body with a bencher.
    pub run: BenchFn,
}

/// How the runner calls a registered function.
#[derive(Debug, Clone, Copy)]
pub enum BenchFn {
    /// One benchmark.
    Plain(fn(&mut Bencher<'_>)),
    /// One benchmark per value of `args`. Called with `None`, evaluates the
    /// values and returns their names; with `Some((bencher, i))`, evaluates
    /// them again and runs the `i`-th.
    Args(fn(Option<(&mut Bencher<'_>, usize)>) -> Vec<String>),
}

impl BenchFn {
    /// Where the registered function is in memory: where its machine code
    /// starts (`history::code_identities` hashes it).
    pub(crate) fn address(&self) -> usize {
        match *self {
            BenchFn::Plain(run) => run as usize,
            BenchFn::Args(run) => run as usize,
        }
    }
}

/// Options written in the attribute.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BenchOptions {
    /// `#[benchmark(ignore)]`: skipped unless `--ignored` or `--include-ignored`.
    pub ignore: bool,
    /// `group = "name"`: reported together; with a `baseline` member, the
    /// members are measured as an in-run A/B comparison.
    pub group: Option<&'static str>,
    /// `baseline`: the group's reference.
    pub baseline: bool,
    /// `bytes = N` or `items = N`: work per iteration, reported as a rate.
    pub throughput: Option<Throughput>,
    /// `complexity`: fit a growth class over the numeric `args`.
    pub complexity: bool,
    /// The measuring settings (`measure_time`, `precision`, `counters`, ...);
    /// `None` fields are the command line's or the defaults.
    pub settings: Settings,
}

impl BenchOptions {
    /// The defaults, usable in a `static` initialiser.
    pub const DEFAULT: BenchOptions = BenchOptions {
        ignore: false,
        group: None,
        baseline: false,
        throughput: None,
        complexity: false,
        settings: Settings::NONE,
    };
}

inventory::collect!(BenchEntry);

/// Settings for every member of a group, from `bench_harness::group!(name
/// = "...", ...)`: the members' attributes override them.
#[derive(Debug)]
pub struct GroupEntry {
    /// The group's name, as its members' `group = "..."` says it.
    pub name: &'static str,
    /// `file!()` at the macro: where a duplicate is reported.
    pub file: &'static str,
    /// `line!()` at the macro.
    pub line: u32,
    /// The group's measuring settings.
    pub settings: Settings,
}

inventory::collect!(GroupEntry);

/// The settings `main!(...)` gave for the whole bench file.
static FILE_SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Used by `main!(...)`'s expansion: the whole file's settings, under its
/// groups', attributes' and the command line's. The first call wins.
pub fn set_file_settings(settings: Settings) {
    let _ = FILE_SETTINGS.set(settings);
}

fn file_settings() -> Settings {
    FILE_SETTINGS.get().copied().unwrap_or(Settings::NONE)
}

/// Every `group!` declaration, in registration order.
fn groups() -> impl Iterator<Item = &'static GroupEntry> {
    inventory::iter::<GroupEntry>.into_iter()
}

/// Declarations that cannot be right, found before anything runs: a group
/// configured twice, or a `group!` that names no benchmark's group (a typo
/// that would drop its settings without a word).
pub(crate) fn check_groups() -> Result<(), String> {
    let groups: Vec<&GroupEntry> = groups().collect();
    let entries: Vec<&BenchEntry> = entries().collect();
    check_group_list(&groups, &entries)
}

fn check_group_list(groups: &[&GroupEntry], entries: &[&BenchEntry]) -> Result<(), String> {
    for (i, group) in groups.iter().enumerate() {
        if let Some(twice) = groups[..i].iter().find(|g| g.name == group.name) {
            return Err(format!(
                "group `{}` is configured twice, by group! at {}:{} and at {}:{}; keep one",
                group.name, twice.file, twice.line, group.file, group.line
            ));
        }
        if !entries
            .iter()
            .any(|entry| entry.options.group == Some(group.name))
        {
            return Err(format!(
                "group! at {}:{} configures group `{}`, but no benchmark has \
                 #[benchmark(group = \"{}\")]; correct the name or add the group to its members",
                group.file, group.line, group.name, group.name
            ));
        }
    }
    Ok(())
}

impl BenchEntry {
    /// The module path below the crate root: `kernels` for
    /// `suite::kernels`, empty at the root of the bench file.
    pub fn module(&self) -> &'static str {
        self.module_path
            .split_once("::")
            .map_or("", |(_crate, rest)| rest)
    }

    /// The name users see, filter on and compare across runs, without an
    /// argument: the group, the module path below the crate root joined
    /// with the benchmark name, and its type, for example `arith::int_add`
    /// (`fib_20` at the root of the bench file, `hash/u32` for
    /// `types = [u32]`, `find_byte/naive` in `group = "find_byte"`).
    ///
    /// The parts of a benchmark's id are joined with `/`, as criterion
    /// joins `group/function/parameter`; `::` stays the module path's own
    /// separator. The group comes first because a group is named across
    /// modules (one group's members may sit in several), so its members
    /// share one prefix: `-- find_byte/` selects exactly them.
    pub fn full_name(&self) -> String {
        let mut name = match self.module() {
            "" => self.name.to_string(),
            module => format!("{module}::{}", self.name),
        };
        if let Some(group) = self.options.group {
            name = format!("{group}/{name}");
        }
        if let Some(type_name) = self.type_name {
            name = format!("{name}/{type_name}");
        }
        name
    }

    /// This entry's measuring settings, before the command line's: the
    /// attribute's, else its group's (`group!`), else the file's (`main!`).
    pub fn settings(&self) -> Settings {
        let group = self
            .options
            .group
            .and_then(|name| groups().find(|g| g.name == name))
            .map_or(Settings::NONE, |g| g.settings);
        file_settings()
            .overridden_by(group)
            .overridden_by(self.options.settings)
    }

    /// A plain entry's one benchmark.
    pub fn plain(&'static self) -> Benchmark {
        Benchmark {
            entry: self,
            arg: None,
            args_failed: None,
        }
    }

    /// The benchmarks this entry stands for: itself, or one per value of
    /// its `args`. Evaluating the `args` is user code and can panic: the
    /// entry then stands for one benchmark that fails with that panic.
    pub fn benchmarks(&'static self) -> Vec<Benchmark> {
        let BenchFn::Args(args) = self.run else {
            return vec![self.plain()];
        };
        match crate::failure::catching_panics(|| args(None)) {
            Ok(names) => names
                .into_iter()
                .enumerate()
                .map(|(index, name)| Benchmark {
                    entry: self,
                    arg: Some(Arg { index, name }),
                    args_failed: None,
                })
                .collect(),
            Err(failure) => vec![Benchmark {
                entry: self,
                arg: None,
                args_failed: Some(failure),
            }],
        }
    }
}

/// One benchmark: a registered function, with one of its `args` values.
#[derive(Debug, Clone, PartialEq)]
pub struct Benchmark {
    /// The registered function.
    pub entry: &'static BenchEntry,
    /// The `args` value it runs with; `None` without `args`.
    pub arg: Option<Arg>,
    /// Evaluating the entry's `args` panicked: this benchmark stands for
    /// all of them, and fails with that panic.
    pub args_failed: Option<crate::failure::Failure>,
}

/// One value of a benchmark's `args`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// Its position in the list.
    pub index: usize,
    /// Its `Display` (or else `Debug`) text.
    pub name: String,
}

impl PartialEq for BenchEntry {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Benchmark {
    /// Where the benchmark sits in the report's tree: module path segments,
    /// the function, its type, its argument.
    pub fn path(&self) -> Vec<String> {
        let entry = self.entry;
        let mut path: Vec<String> = entry
            .module()
            .split("::")
            .filter(|segment| !segment.is_empty())
            .map(str::to_string)
            .collect();
        path.push(entry.name.to_string());
        path.extend(entry.type_name.map(str::to_string));
        path.extend(self.arg.as_ref().map(|arg| arg.name.clone()));
        path
    }

    /// The entry's full name, with `/arg` for an `args` value: `sort/1000`.
    pub fn full_name(&self) -> String {
        match &self.arg {
            Some(arg) => format!("{}/{}", self.entry.full_name(), arg.name),
            None => self.entry.full_name(),
        }
    }

    /// The name this benchmark had before group names became part of their
    /// members' names (`naive/1024` for `find_byte/naive/1024`); `None`
    /// outside a group. Baselines saved by older versions use it.
    pub(crate) fn name_without_group(&self) -> Option<String> {
        let group = self.entry.options.group?;
        Some(self.full_name()[group.len() + 1..].to_string())
    }

    /// Runs the body with `bencher`.
    pub fn run(&self, bencher: &mut Bencher<'_>) {
        match (self.entry.run, &self.arg) {
            (BenchFn::Plain(run), _) => run(bencher),
            (BenchFn::Args(run), Some(arg)) => {
                run(Some((bencher, arg.index)));
            }
            (BenchFn::Args(_), None) => {
                unreachable!("a benchmark whose `args` panicked is not run")
            }
        }
    }

    /// The argument as a number, for the complexity fit: `1000` for
    /// `sort/1000`.
    pub fn numeric_arg(&self) -> Option<f64> {
        self.arg.as_ref()?.name.parse::<f64>().ok()
    }
}

/// Used by the expansion of `args = EXPR`: the values, in order.
pub fn collect_args<I: IntoIterator>(values: I) -> Vec<I::Item> {
    values.into_iter().collect()
}

const ARGS_CHANGED: &str = "the `args` expression gave fewer values than when the benchmarks \
                            were listed; it must give the same values every time";

/// The `index`-th value, lent.
pub fn arg_ref<T>(values: &[T], index: usize) -> &T {
    values.get(index).expect(ARGS_CHANGED)
}

/// The `index`-th value, moved out.
pub fn arg_owned<T>(values: Vec<T>, index: usize) -> T {
    values.into_iter().nth(index).expect(ARGS_CHANGED)
}

/// A parameter taken by value, copied from a value of `args` for every
/// iteration: from `&T`, or from `&&T` when the values are references (a
/// `const` slice's elements).
#[diagnostic::on_unimplemented(
    message = "a benchmark parameter taken by value must be `Copy`, and `{Self}` is not",
    label = "this parameter gets a copy of each `args` value in every iteration",
    note = "take the parameter by reference (`&{Self}`), or take `b: &mut Bencher` first \
            and receive each value once"
)]
pub trait FromArg<A>: Sized {
    /// The parameter's value for one iteration.
    fn from_arg(value: A) -> Self;
}

impl<T: Copy> FromArg<&T> for T {
    fn from_arg(value: &T) -> T {
        *value
    }
}

impl<T: Copy> FromArg<&&T> for T {
    fn from_arg(value: &&T) -> T {
        **value
    }
}

/// A parameter taken by value next to a bencher: each value of `args`
/// moved in, or copied from a reference (a `const` slice's elements).
#[diagnostic::on_unimplemented(
    message = "the `args` values cannot be passed as `{Self}`",
    label = "each `args` value is passed to this parameter"
)]
pub trait FromOwnedArg<A>: Sized {
    /// The parameter's value.
    fn from_owned_arg(value: A) -> Self;
}

impl<T> FromOwnedArg<T> for T {
    fn from_owned_arg(value: T) -> T {
        value
    }
}

impl<T: Copy> FromOwnedArg<&T> for T {
    fn from_owned_arg(value: &T) -> T {
        *value
    }
}

/// Names an `args` value by `Display` where it has one, else by `Debug`:
/// `(&ArgName(&value)).arg_name()` finds [`ArgNameByDisplay`] first, at the
/// receiver's own type, and [`ArgNameByDebug`] only one reference further.
#[derive(Debug)]
pub struct ArgName<'a, T>(pub &'a T);

/// The first choice of [`ArgName`]'s lookup: the value's `Display`.
pub trait ArgNameByDisplay {
    /// The value's name in the benchmark's full name.
    fn arg_name(&self) -> String;
}

impl<T: Display> ArgNameByDisplay for ArgName<'_, T> {
    fn arg_name(&self) -> String {
        self.0.to_string()
    }
}

/// The fallback of [`ArgName`]'s lookup: the value's `Debug`.
pub trait ArgNameByDebug {
    /// The value's name in the benchmark's full name.
    fn arg_name(&self) -> String;
}

impl<T: Debug> ArgNameByDebug for &ArgName<'_, T> {
    fn arg_name(&self) -> String {
        format!("{:?}", self.0)
    }
}

/// The harness's own reference kernel: a chain of 1,000 dependent
/// multiplies whose cost depends only on the machine. It is measured
/// alongside the user's benchmarks when a run saves or compares a baseline
/// or writes the history, where its runs show the machine's drift.
pub(crate) static MACHINE_REFERENCE: BenchEntry = BenchEntry {
    name: "machine_reference",
    module_path: "bench_harness",
    file: file!(),
    line: line!(),
    column: column!(),
    type_name: None,
    type_index: 0,
    options: BenchOptions::DEFAULT,
    run: BenchFn::Plain(bench_runtime::hidden::machine_reference),
};

/// The empty loop, measured alongside the user's benchmarks: its time per
/// iteration is the loop overhead subtracted from every sample. Its body is
/// in `bench_runtime::hidden`, compiled with the measurement core.
pub(crate) static LOOP_OVERHEAD: BenchEntry = BenchEntry {
    name: "loop_overhead",
    module_path: "bench_harness",
    file: file!(),
    line: line!(),
    column: column!(),
    type_name: None,
    type_index: 0,
    options: BenchOptions::DEFAULT,
    run: BenchFn::Plain(bench_runtime::hidden::loop_overhead),
};

/// Every benchmark function linked into this binary, in registration order.
pub(crate) fn entries() -> impl Iterator<Item = &'static BenchEntry> {
    inventory::iter::<BenchEntry>.into_iter()
}

/// Every benchmark linked into this binary, in the order they are defined
/// (see `in_definition_order`), each entry's `args` in their order.
pub fn all() -> Vec<Benchmark> {
    let mut entries: Vec<&'static BenchEntry> = entries().collect();
    in_definition_order(&mut entries);
    entries
        .into_iter()
        .flat_map(BenchEntry::benchmarks)
        .collect()
}

/// Sorts `entries` as they are written, criterion's order (the order of
/// its calls): by file, line and column, each group's members together at
/// its first member's place, and one attribute's `types` in their order.
/// inventory's own order is the linker's.
fn in_definition_order(entries: &mut [&BenchEntry]) {
    let site = |entry: &BenchEntry| (entry.file, entry.line, entry.column, entry.type_index);
    let mut group_sites: std::collections::HashMap<&str, (&str, u32, u32, u32)> =
        Default::default();
    for entry in entries.iter() {
        if let Some(group) = entry.options.group {
            let first = group_sites.entry(group).or_insert(site(entry));
            *first = (*first).min(site(entry));
        }
    }
    let place = |entry: &BenchEntry| {
        let at = entry.options.group.map_or(site(entry), |g| group_sites[g]);
        (at, site(entry))
    };
    entries.sort_by_key(|entry| place(entry));
}

/// Refuses two of `benchmarks` with one full name: a name is what selects,
/// compares, saves and records a benchmark, so two of one name would save
/// a baseline its own loader refuses, and drop one from BMF and the
/// history. The error names both definitions.
pub(crate) fn check_unique<'a>(
    benchmarks: impl IntoIterator<Item = &'a Benchmark>,
) -> Result<(), String> {
    let mut seen: std::collections::HashMap<String, &Benchmark> = Default::default();
    for bench in benchmarks {
        let name = bench.full_name();
        if let Some(first) = seen.get(&name) {
            return Err(format!(
                "two benchmarks are named '{}': {} and {}; give them distinct names (args \
                 whose Display differs, or #[benchmark(name = \"...\")])",
                crate::text::escape(&name),
                first.definition(),
                bench.definition()
            ));
        }
        seen.insert(name, bench);
    }
    Ok(())
}

impl Benchmark {
    /// Where it is defined, for an error: `benches/a.rs:12`, with its
    /// `args` value's position.
    fn definition(&self) -> String {
        let at = format!("the one at {}:{}", self.entry.file, self.entry.line);
        match &self.arg {
            Some(arg) => format!("{at} (args value {})", arg.index + 1),
            None => at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn group(name: &'static str, line: u32) -> GroupEntry {
        GroupEntry {
            name,
            file: "benches/port.rs",
            line,
            settings: Settings::NONE,
        }
    }

    static MEMBER: BenchEntry = BenchEntry {
        name: "naive",
        type_name: None,
        type_index: 0,
        module_path: "port",
        file: "benches/port.rs",
        line: 9,
        column: 4,
        options: BenchOptions {
            group: Some("find_byte"),
            ..BenchOptions::DEFAULT
        },
        run: BenchFn::Plain(|b| b.iter(|| ())),
    };
    static FIND_BYTE: GroupEntry = group("find_byte", 3);
    static FIND_BYTE_AGAIN: GroupEntry = group("find_byte", 5);
    static TYPO: GroupEntry = group("find_bytes", 7);

    #[test]
    fn a_group_member_is_named_group_first() {
        assert_eq!(MEMBER.full_name(), "find_byte/naive");
        let bench = Benchmark {
            entry: &MEMBER,
            arg: Some(Arg {
                index: 0,
                name: "1024".to_string(),
            }),
            args_failed: None,
        };
        assert_eq!(bench.full_name(), "find_byte/naive/1024");
        assert_eq!(bench.name_without_group().as_deref(), Some("naive/1024"));
        // The report's tree still has the group as a node of its own.
        assert_eq!(bench.path(), ["naive", "1024"]);
    }

    const fn defined(
        name: &'static str,
        group: Option<&'static str>,
        file: &'static str,
        line: u32,
    ) -> BenchEntry {
        BenchEntry {
            name,
            type_name: None,
            type_index: 0,
            module_path: "port",
            file,
            line,
            column: 4,
            options: BenchOptions {
                group,
                ..BenchOptions::DEFAULT
            },
            run: BenchFn::Plain(|b| b.iter(|| ())),
        }
    }

    static FIRST: BenchEntry = defined("zeta", None, "benches/a.rs", 5);
    static NAIVE: BenchEntry = defined("naive", Some("find"), "benches/a.rs", 10);
    static LATER: BenchEntry = defined("alpha", None, "benches/a.rs", 12);
    static FAST: BenchEntry = defined("fast", Some("find"), "benches/a.rs", 20);
    static ELSEWHERE: BenchEntry = defined("beta", None, "benches/b.rs", 1);
    static AS_U64: BenchEntry = BenchEntry {
        type_name: Some("u64"),
        type_index: 1,
        ..defined("parse", None, "benches/a.rs", 7)
    };
    static AS_U8: BenchEntry = BenchEntry {
        type_name: Some("u8"),
        type_index: 0,
        ..defined("parse", None, "benches/a.rs", 7)
    };

    #[test]
    fn entries_go_in_definition_order_with_each_group_together() {
        let mut entries = vec![&ELSEWHERE, &AS_U64, &FAST, &LATER, &NAIVE, &AS_U8, &FIRST];
        in_definition_order(&mut entries);
        let names: Vec<String> = entries.iter().map(|e| e.full_name()).collect();
        // `types = [u8, u64]` on line 7.
        assert_eq!(
            names,
            [
                "zeta",
                "parse/u8",
                "parse/u64",
                "find/naive",
                "find/fast",
                "alpha",
                "beta"
            ]
        );
    }

    #[test]
    fn a_group_configured_twice_or_for_no_benchmark_is_refused() {
        assert_eq!(check_group_list(&[&FIND_BYTE], &[&MEMBER]), Ok(()));
        let twice = check_group_list(&[&FIND_BYTE, &FIND_BYTE_AGAIN], &[&MEMBER]).unwrap_err();
        assert_eq!(
            twice,
            "group `find_byte` is configured twice, by group! at benches/port.rs:3 and at \
             benches/port.rs:5; keep one"
        );
        let typo = check_group_list(&[&FIND_BYTE, &TYPO], &[&MEMBER]).unwrap_err();
        assert!(
            typo.starts_with("group! at benches/port.rs:7 configures group `find_bytes`, but no"),
            "{typo}"
        );
    }
}
