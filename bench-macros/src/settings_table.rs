// Every measuring setting, defined once. bench-harness's `Settings` and
// every surface of a setting are generated from these rows: the struct and
// its merge, the command line's flags, their `--help` lines and the child
// command line of `--forks` (bench-harness/src/settings.rs, cli/), and the
// keys and checks of `#[benchmark]`, `group!` and `main!` (options.rs).
// Each crate defines a `settings_table!` macro that generates its part and
// reads this file: bench-macros with `include!`, bench-harness through the
// hidden `__settings_table!` proc macro, which hands it these tokens.
//
// `bounds`: the largest number of seconds and the largest count any
// setting takes (the flag and the attribute accept the same values).
//
// A row: the field of `Settings` (its doc and type, which names what the
// bench-harness modules that expand the table have in scope), then
// - `flag`: the command-line flag, without `--`;
// - `value`: the kind of value, which the flag and the attribute check
//   alike: `(switch)`, `(seconds)` (more than 0), `(seconds zero_ok)`,
//   `(count)` (1 to `max_count`), `(count_from N "why")`, `(percentage)`
//   (more than 0, up to 100), `(percentage zero_ok "what 0 means")`,
//   `(choice CHOICES)` (the type's `FromStr` words; CHOICES names them for
//   errors) or `(number "what")` (any value of the type; not an attribute
//   option);
// - `attribute`: `()` for a flag only, else `("example" [aliases])` for an
//   option of the attribute, `group!` and `main!` (the aliases are other
//   harnesses' names for it), with `words Type [Variant "word" "shown",
//   ...]` for a choice;
// - `help`: the `--help` section (Measurement, Output or Machine) and the
//   lines, in the rows' order;
// - `sampler`: `(field)`, the `bench_runtime::SamplerConfig` field the
//   setting sets, its value converted by the two types (seconds to
//   `Nanos`, else as is; `FromSetting` in bench-harness/src/settings.rs),
//   or `()` for one the sampler does not take as it is (`precision` is
//   the stop rule, made in `Settings::sampler_config`).
settings_table! {
    bounds: { max_seconds: 86_400.0, max_count: 10_000_000 }

    /// `--timer`: which clock (run-wide).
    timer: bench_runtime::TimerChoice {
        flag: "timer",
        value: (choice "auto, os or cycles"),
        attribute: (),
        help: Measurement "  --timer auto|os|cycles  clock: auto (default) uses the cycle counter where it is
                          usable (invariant TSC on x86_64), else the OS monotonic clock
",
        sampler: (),
    }
    /// The precision rule's target, as a fraction: the relative half-width
    /// of the headline's 95% CI; 0 turns the rule off.
    precision: f64 {
        flag: "precision",
        value: (percentage zero_ok "no precision rule"),
        attribute: ("precision = 0.5" ["confidence", "target_precision"]),
        help: Measurement "  --precision PCT         stop once the time's 95% confidence interval is within
                          ±PCT% [default: 1]; 0 stops at --measure-time instead
",
        sampler: (),
    }
    /// Measuring time before the precision rule may stop, in seconds.
    measure_time: f64 {
        flag: "measure-time",
        value: (seconds),
        attribute: ("measure_time = 2" ["measurement_time", "measure"]),
        help: Measurement "  --measure-time SECS     minimum measuring time per benchmark before the precision
                          rule may stop it (with --precision 0: the budget) [default: 0.3]
",
        sampler: (measure_time),
    }
    /// Hard bound on one benchmark, set-up included, in seconds.
    max_time: f64 {
        flag: "max-time",
        value: (seconds),
        attribute: ("max_time = 10" ["timeout", "max_duration"]),
        help: Measurement "  --max-time SECS         hard bound per benchmark: set-up, calibration, warm-up and
                          measurement [default: 2, or 3× warm-up + measure time if larger]
",
        sampler: (max_time),
    }
    /// Samples to record before stopping.
    min_samples: usize {
        flag: "min-samples",
        value: (count),
        attribute: ("min_samples = 20" ["sample_size", "samples", "sample_count"]),
        help: Measurement "  --min-samples N         samples to record before stopping [default: 10]
",
        sampler: (min_samples),
    }
    /// Cap on warm-up, calibration included, in seconds.
    warm_up_time: f64 {
        flag: "warm-up-time",
        value: (seconds zero_ok),
        attribute: ("warm_up_time = 0.5" ["warmup_time", "warm_up", "warmup"]),
        help: Measurement "  --warm-up-time SECS     cap on warm-up per benchmark, calibration included, set-up
                          not [default: 0.1]
",
        sampler: (warm_up_time),
    }
    /// Samples in the rolling window that detects steady state.
    warm_up_window: usize {
        flag: "warm-up-window",
        value: (count_from 2 "samples to judge variation"),
        attribute: (),
        help: Measurement "  --warm-up-window N      samples in the rolling window that detects steady state [default: 10]
",
        sampler: (warm_up_window),
    }
    /// Steady once the window's coefficient of variation is below this
    /// fraction.
    warm_up_cv: f64 {
        flag: "warm-up-cv",
        value: (percentage),
        attribute: (),
        help: Measurement "  --warm-up-cv PCT        steady once the window's coefficient of variation is below
                          PCT% [default: 5]
",
        sampler: (warm_up_cv),
    }
    /// `--schedule` (run-wide).
    schedule: Schedule {
        flag: "schedule",
        value: (choice Schedule::CHOICES),
        attribute: (),
        help: Measurement "  --schedule interleaved|sequential
                          interleaved (default): rounds of short slices in a shuffled
                          order, so every benchmark sees the same machine noise (one
                          whose slices cool between them is timed again in one go,
                          for its budget once more); sequential: each benchmark in
                          one go
",
        sampler: (),
    }
    /// `--seed`: the interleaved schedule's shuffles (run-wide).
    seed: u64 {
        flag: "seed",
        value: (number format!("a whole number from 0 to {}", u64::MAX)),
        attribute: (),
        help: Measurement "  --seed N                seed of the interleaved shuffles [default: random, printed
                          in the header with -v]
",
        sampler: (),
    }
    /// Read hardware and software counters around each sample.
    counters: bool {
        flag: "counters",
        value: (switch),
        attribute: ("counters" []),
        help: Machine "  --counters              hardware and software counters per iteration (cycles,
                          instructions, branches, cache, page faults, context
                          switches, task clock) where the kernel allows them
",
        sampler: (),
    }
    /// `--pin CPU`: the measuring threads run on this CPU only (run-wide).
    pin: usize {
        flag: "pin",
        value: (number "a CPU number such as 0 (see `nproc`)"),
        attribute: (),
        help: Machine "  --pin CPU               run the measuring threads on CPU only, and say so
",
        sampler: (),
    }
    /// `--cold`: evict the caches before each sample (run-wide).
    cold: bool {
        flag: "cold",
        value: (switch),
        attribute: (),
        help: Machine "  --cold                  evict the caches before each sample (a buffer larger than
                          the last-level cache is walked, untimed): cold-cache figures
",
        sampler: (),
    }
    /// `--bytes-unit`: how byte rates are printed (GB/s or GiB/s).
    bytes_unit: BytesUnit {
        flag: "bytes-unit",
        value: (choice BytesUnit::CHOICES),
        attribute: ("bytes_unit = \"binary\"" ["bytes_decimal", "binary", "unit"] words BytesUnit [
            Decimal "decimal" "KB/s, MB/s, GB/s",
            Binary "binary" "KiB/s, MiB/s, GiB/s",
        ]),
        help: Output "  --bytes-unit decimal|binary
                          byte rates in KB/s, MB/s, GB/s [default: decimal] or in
                          KiB/s, MiB/s, GiB/s, as criterion prints them
",
        sampler: (),
    }
}
