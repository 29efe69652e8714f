//! The text `--help` prints: the measuring settings' lines come from the
//! settings' table, each in the section its row names.

use std::sync::LazyLock;

use crate::settings::settings_table;

/// The text `--help` prints.
pub(crate) static HELP: LazyLock<String> = LazyLock::new(|| {
    let mut help = TEMPLATE.to_string();
    for section in ["Measurement", "Output", "Machine"] {
        let lines: String = SETTING_HELP
            .iter()
            .filter(|(of, _)| *of == section)
            .map(|(_, lines)| *lines)
            .collect();
        help = help.replace(&format!("{{{}}}\n", section.to_lowercase()), &lines);
    }
    help
});

/// Generates [`SETTING_HELP`] from the settings' table.
macro_rules! setting_help {
    (
        bounds: $bounds:tt
        $(
            $(#[$doc:meta])*
            $field:ident: $ty:ty {
                flag: $flag:literal,
                value: $value:tt,
                attribute: $attribute:tt,
                help: $section:ident $lines:literal,
                sampler: $sampler:tt,
            }
        )*
    ) => {
        /// Each setting's `--help` section and lines, in the table's order.
        const SETTING_HELP: &[(&str, &str)] = &[$((stringify!($section), $lines)),*];
    };
}

settings_table!(setting_help);

/// `--help` but for the settings' lines: `{section}` lines stand for the
/// lines of the settings of that section.
const TEMPLATE: &str = "\
Usage: BENCH_BINARY [OPTIONS] [FILTER]...

Runs the benchmarks whose full name contains or matches any FILTER (all of
them without one). Under `cargo bench` each is measured and reported; under
`cargo test --benches` (no --bench flag) each body runs once as a smoke test.

Selection:
  FILTER                  substring of the full name (e.g. `kernels::parse_f64`, or
                          `find_byte/` for a group's members), or a regex as in
                          criterion (`'sort/10+$'`); several are OR-ed
  --exact                 FILTER and --skip match the whole name, not a substring
  --skip PATTERN          leave out names containing PATTERN (repeatable)
  --ignored               run only #[benchmark(ignore)] benchmarks
  --include-ignored       run ignored benchmarks too
  --list                  print `NAME: benchmark` for each selected benchmark
  --format terse          with --list: the same lines without the count line (as
                          libtest's, which cargo-nextest reads); in a smoke test
                          (no --bench): one character per benchmark, as libtest

Mode:
  --bench                 measure (cargo bench passes this)
  --test                  run each benchmark once and report pass/fail

Measurement:
{measurement}
  --quick                 short budgets (warm-up 0.02 s, measuring 0.05 s, at most
                          0.5 s per benchmark, no precision target): rough figures
                          for a quick look, not for baselines

Profiling (see docs/profiling.md):
  --profile-time SECS     run each selected benchmark's routine back to back for
                          SECS on a thread named after it, for a profiler (perf,
                          samply, cargo flamegraph): nothing is measured or written
  --flamegraph            profile each selected benchmark under `perf record` (for
                          --profile-time SECS, default 2) and write a flame graph
                          of its routine's thread (SVG) beside the HTML report; with
                          --against or --baseline NAME, a differential one: red
                          grew, blue shrank

Output:
  --format pretty|json|csv|markdown|bencher|bmf
                          what the run writes [default: pretty, the colour table];
                          bencher is libtest's `test NAME ... bench: N ns/iter (+/- M)`;
                          bmf is the Bencher Metric Format JSON of bencher.dev;
                          markdown is a page for a pull request, also appended
                          to $GITHUB_STEP_SUMMARY when that is set (GitHub Actions)
  --samples none|full     with --format json: leave the raw samples out (none, the
                          default: a few kB per benchmark, every figure kept) or
                          write them all, packed (full); baselines keep them all
  -o, --output FILE       write the --format output to FILE (a file is replaced
                          atomically; a device, FIFO or /dev/stdout is written in
                          place); the table still goes to stdout
{output}
  --details               the full table: every statistic (median, mean, spread,
                          outliers, samples, stop), percentiles, intervals and
                          warm-up under each row, and each note in full; the
                          default table fits the terminal (COLUMNS, else 100)
  --no-machine-warnings   do not print the machine's warnings (load, hypervisor,
                          ASLR, ...) to stderr; they stay in the JSON; also
                          BENCH_HARNESS_NO_MACHINE_WARNINGS=1
  --flat                  one row per benchmark under its full name, instead of a
                          tree by group, module, function and argument (for grep)
  --complexity            fit O(1) … O(n³) over every benchmark with numeric args,
                          not only those marked #[benchmark(complexity)]
  --report PATH           write the HTML report (charts of every benchmark, one
                          self-contained file per target) to directory PATH, or to
                          PATH alone when it ends in .html [default:
                          target/bench-harness/report/TARGET/index.html]
  --no-report             write no HTML report
  -q, --quiet             the table and errors only: no progress (by default a live
                          line on a terminal, else a line per finished benchmark),
                          notes, machine warnings or lines naming files written
  -v, --verbose           the whole header before the table (machine, clock, loop
                          cost, seed) and each machine warning with its remedy;
                          by default a line each (--details has them too)
  --history               print the last runs of each selected benchmark from the
                          history, change points marked (nothing is measured)
  --no-history            do not append this run's results to the history
                          (target/bench-harness/history/TARGET.jsonl, see docs/history.md)
  --logfile PATH          libtest's log: one line per benchmark (`ok NAME`,
                          `failed NAME`, `ignored NAME`, `N ns/iter (+/- M) NAME`;
                          `benchmark NAME` under --list), replaced atomically
  --color auto|always|never   colour the table [default: auto; NO_COLOR=1 turns auto off]

Machine:
{machine}
  --forks N               measure in N fresh processes of this binary, one after
                          another, each measuring every benchmark for 1/N of the
                          budget; the ± covers the spread between their memory
                          layouts [default: 3]. 1: one process (expensive set-up);
                          0: in this process (live progress, no crash isolation)

Baselines (saved under target/bench-harness/baselines/, or $CARGO_TARGET_DIR's):
  --save-baseline NAME    save this run as baseline NAME (after comparing, if
                          --baseline is given too), each bench target its own
                          (NAME/TARGET.json), with a copy of this executable beside it
  --no-keep-exe           with --save-baseline: save without the executable's copy
  --baseline NAME         compare this run with baseline NAME: change, 95% CI,
                          p-values, effect size and a verdict per benchmark
  --list-baselines        list the saved baselines, with the size of the executable
                          each keeps for this bench target
  --against NAME          compare this build with the executable kept with baseline
                          NAME: both run, slice by slice in turn, one ratio each
  --against-exe PATH      the same with any bench executable built with this harness
  --noise-threshold PCT   a change whose whole 95% CI lies within ±PCT% is no
                          difference, one wholly beyond it slower or faster,
                          others unclear [default: 2; with --against: 1]
  --fail-on-regression    exit with code 1 when any benchmark is slower (not
                          when unclear; or, with --against, when nothing was
                          compared)

Other:
  -h, --help              print this help

Accepted for libtest compatibility and ignored: --nocapture, --show-output,
--test-threads N, -Z unstable-options, --force-run-in-process (benchmarks run in
this process unless --forks is given; the two together are refused); criterion's --noplot, with a
note (the plots are in the HTML report; --no-report skips it). Criterion's --sample-size, --measurement-time and
other flags of its own are refused with the flag to use instead. --format json
and the other machine formats need --bench: libtest's JSON test events are not
written.
";
