//! What the environment says about the figures before they are measured:
//! a one-line header of the machine's state, and warnings about whatever
//! makes figures slow or noisy, each with the command that fixes it.
//!
//! Nothing here changes a setting: the remedies are for the user to run.

use crate::environment::{Build, Environment};

/// One thing wrong with the environment, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Warning {
    /// The figures are meaningless, not just noisy: show it first and
    /// prominently.
    pub loud: bool,
    /// What is wrong, then the remedy, on one line.
    pub message: String,
    /// What is wrong in a few words (`load 2.2 on 2 cores`), for the
    /// one line the compact view gives the machine's warnings.
    pub short: String,
}

/// The warnings `environment` calls for, most serious first: an
/// unoptimised build, a governor other than `performance`, turbo, a load
/// that leaves no core idle, a hypervisor, ASLR. Facts that are unknown
/// raise nothing.
pub(crate) fn audit(environment: &Environment) -> Vec<Warning> {
    let checks: [fn(&Environment) -> Option<Warning>; 7] = [
        |e| unoptimised_build(&e.build),
        |e| unoptimised_harness(&e.build),
        governor,
        boost,
        load,
        hypervisor,
        aslr,
    ];
    checks
        .iter()
        .filter_map(|check| check(environment))
        .collect()
}

fn unoptimised_build(build: &Build) -> Option<Warning> {
    let message = match (build.opt_level.as_str(), build.debug_assertions) {
        ("0", debug_assertions) => format!(
            "this benchmark binary is an unoptimised build ({}opt-level 0): figures mean \
             nothing; run `cargo bench`, not `cargo test`, or set opt-level in [profile.bench]",
            if debug_assertions {
                "debug assertions on, "
            } else {
                ""
            }
        ),
        (opt_level, true) => format!(
            "this benchmark binary has debug assertions on (opt-level {opt_level}): the checks \
             a release build leaves out are timed too; set debug-assertions = false in \
             [profile.bench]"
        ),
        (_, false) => return None,
    };
    let short = match build.opt_level.as_str() {
        "0" => "unoptimised build",
        _ => "debug assertions on",
    };
    Some(Warning {
        loud: true,
        message,
        short: short.to_string(),
    })
}

/// bench-harness compiled at another opt-level than the benchmarks (a
/// per-package profile override), one that shares generics: at 0, 1, `s`
/// and `z` a crate exports its copies of generic code, and the benchmarks'
/// crate links to an upstream copy instead of compiling its own for a
/// function that is never inlined (`#[inline(never)]`, as std's sorts
/// are), at any opt-level of its own: `sort_unstable` on `u32` and
/// `parse::<u64>` in the example suite ran 7.4 and 7.8 times slower with
/// the harness at 0. Benchmarks at 0 get the louder warning instead.
fn unoptimised_harness(build: &Build) -> Option<Warning> {
    let harness = build.harness_opt_level.as_deref()?;
    let shares_generics = matches!(harness, "0" | "1" | "s" | "z");
    if !shares_generics || matches!(build.opt_level.as_str(), "0" | "unknown") {
        return None;
    }
    Some(Warning {
        loud: true,
        message: format!(
            "bench-harness is built at opt-level {harness}, the benchmarks at {}: the std code \
             it shares with them (sorts, parsing) runs unoptimised in their figures; remove \
             opt-level from [profile.*.package.bench-harness]",
            build.opt_level
        ),
        short: format!("bench-harness at opt-level {harness}"),
    })
}

fn governor(environment: &Environment) -> Option<Warning> {
    let governor = environment.governor.as_deref()?;
    let what = if governor.contains('/') {
        format!("cpufreq governors differ between CPUs (`{governor}`)")
    } else if governor != "performance" {
        format!("cpufreq governor is `{governor}`")
    } else {
        return None;
    };
    quiet(
        format!(
            "{what}: the clock speed moves under load; `sudo cpupower frequency-set -g \
             performance` for stable figures"
        ),
        format!("governor {governor}"),
    )
}

fn boost(environment: &Environment) -> Option<Warning> {
    if environment.boost != Some(true) {
        return None;
    }
    quiet(
        "turbo boost is on: the clock rises while the chip is cool and falls as it heats, so \
         figures depend on what ran before; disable with \
         `echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost` \
         (intel_pstate: `echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo`)"
            .to_string(),
        "turbo on".to_string(),
    )
}

/// The benchmark needs one core; other work should fit in the rest.
fn load(environment: &Environment) -> Option<Warning> {
    let [one_minute, ..] = environment.load_average?;
    let cores = environment.logical_cores?;
    if one_minute <= cores as f64 - 1.0 {
        return None;
    }
    let cores = format!("{cores} {}", plural(cores, "core"));
    quiet(
        format!(
            "load average {one_minute} on {cores}: other work competes with the benchmark for \
             the CPU; stop it, or wait for the load to fall (a build that just finished counts \
             for a minute)"
        ),
        format!("load {one_minute} on {cores}"),
    )
}

fn hypervisor(environment: &Environment) -> Option<Warning> {
    if environment.hypervisor != Some(true) {
        return None;
    }
    quiet(
        "running under a hypervisor: another guest can steal time; expect noise, prefer \
         interleaved runs (the default) and in-run comparisons (A/B groups)"
            .to_string(),
        "hypervisor".to_string(),
    )
}

fn aslr(environment: &Environment) -> Option<Warning> {
    let aslr = environment.aslr.filter(|&level| level > 0)?;
    quiet(
        format!(
            "ASLR is on (randomize_va_space {aslr}): memory layout, and with it alignment, \
             changes between runs; run under `setarch -R cargo bench`, or \
             `echo 0 | sudo tee /proc/sys/kernel/randomize_va_space` and restore it afterwards"
        ),
        "ASLR on".to_string(),
    )
}

fn quiet(message: String, short: String) -> Option<Warning> {
    Some(Warning {
        loud: false,
        message,
        short,
    })
}

/// The machine in a few words, for the compact view's first line: the
/// CPU, its cores and the build (`AMD EPYC · 2 cores · release
/// (opt-level 3)`); `-v` and `--details` print [`header`].
pub(crate) fn short_header(environment: &Environment) -> String {
    let e = environment;
    let cpu = e
        .cpu_model
        .as_deref()
        .map_or_else(|| "CPU n/a".to_string(), short_cpu_model);
    let mut parts = vec![cpu];
    parts.extend(
        e.logical_cores
            .map(|n| format!("{n} {}", plural(n, "core"))),
    );
    parts.push(build(&e.build));
    parts.join(" · ")
}

/// The environment on one line:
///
/// ```text
/// Intel Xeon · 2 cores · LLC 32 MiB · governor n/a · turbo n/a · ASLR 2 · load 0.4 · hypervisor · perf_event_paranoid 2 · Linux 6.8.0 · release (opt-level 3) · rustc 1.95.0 · x86_64-unknown-linux-gnu
/// ```
///
/// Unknown facts read `n/a`.
pub(crate) fn header(environment: &Environment) -> String {
    const NA: &str = "n/a";
    let e = environment;
    let or_na = |fact: Option<String>| fact.unwrap_or_else(|| NA.to_string());
    let parts = [
        e.cpu_model
            .as_deref()
            .map_or_else(|| format!("CPU {NA}"), short_cpu_model),
        e.logical_cores.map_or_else(
            || format!("cores {NA}"),
            |n| format!("{n} {}", plural(n, "core")),
        ),
        format!("LLC {}", or_na(e.last_level_cache_bytes.map(bytes))),
        format!("governor {}", e.governor.as_deref().unwrap_or(NA)),
        format!(
            "turbo {}",
            or_na(e.boost.map(|on| if on { "on" } else { "off" }.to_string()))
        ),
        format!("ASLR {}", or_na(e.aslr.map(|level| level.to_string()))),
        format!(
            "load {}",
            or_na(
                e.load_average
                    .map(|[one_minute, ..]| one_minute.to_string())
            )
        ),
        match e.hypervisor {
            Some(true) => "hypervisor".to_string(),
            Some(false) => "bare metal".to_string(),
            None => format!("hypervisor {NA}"),
        },
        format!(
            "perf_event_paranoid {}",
            or_na(e.perf_event_paranoid.map(|level| level.to_string()))
        ),
        format!(
            "{} {}",
            os_name(&e.os),
            e.os_release.as_deref().unwrap_or(NA)
        ),
        build(&e.build),
        short_rustc_version(&e.rustc_version),
        e.target.clone(),
    ];
    parts.join(" · ")
}

/// The machine in a few words, for a summary line (`Intel Xeon, 2 cores,
/// Linux 6.8.0-1012-gcp, hypervisor`): what tells one CI runner from
/// another; the header has the rest.
pub(crate) fn machine_line(environment: &Environment) -> String {
    let e = environment;
    let mut parts = vec![e
        .cpu_model
        .as_deref()
        .map_or_else(|| "CPU n/a".to_string(), short_cpu_model)];
    if let Some(n) = e.logical_cores {
        parts.push(format!("{n} {}", plural(n, "core")));
    }
    parts.push(match &e.os_release {
        Some(release) => format!("{} {release}", os_name(&e.os)),
        None => os_name(&e.os).to_string(),
    });
    if e.hypervisor == Some(true) {
        parts.push("hypervisor".to_string());
    }
    parts.join(", ")
}

/// `Intel(R) Xeon(R) CPU @ 2.60GHz` → `Intel Xeon`: without trademarks,
/// "CPU"/"Processor" and the nominal clock.
fn short_cpu_model(model: &str) -> String {
    let model = model.split(" @ ").next().unwrap_or(model);
    let words: Vec<&str> = model
        .split_whitespace()
        .filter(|word| !matches!(*word, "CPU" | "Processor"))
        .collect();
    let short = words
        .join(" ")
        .replace("(R)", "")
        .replace("(r)", "")
        .replace("(TM)", "")
        .replace("(tm)", "");
    let short = short.trim();
    if short.is_empty() {
        model.trim().to_string()
    } else {
        short.to_string()
    }
}

/// `491520K` as `480 MiB`; `1280K` as `1.2 MiB`.
fn bytes(n: u64) -> String {
    const MIB: u64 = 1 << 20;
    if n >= MIB {
        if n % MIB == 0 {
            format!("{} MiB", n / MIB)
        } else {
            format!("{:.1} MiB", n as f64 / MIB as f64)
        }
    } else if n >= 1024 && n % 1024 == 0 {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} B")
    }
}

fn build(build: &Build) -> String {
    if build.opt_level == "unknown" {
        return "build n/a".to_string();
    }
    let assertions = if build.debug_assertions {
        ", debug assertions"
    } else {
        ""
    };
    format!(
        "{} (opt-level {}{assertions})",
        build.profile, build.opt_level
    )
}

fn os_name(os: &str) -> &str {
    match os {
        "linux" => "Linux",
        "macos" => "macOS",
        "windows" => "Windows",
        "freebsd" => "FreeBSD",
        other => other,
    }
}

/// `rustc 1.95.0 (59807616e 2026-04-14)` → `rustc 1.95.0`.
fn short_rustc_version(version: &str) -> String {
    version.split(" (").next().unwrap_or(version).to_string()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

#[cfg(test)]
mod tests;
