//! Where and when a run happened: the facts a saved result needs so that a
//! later reader can tell whether two runs are comparable (same compiler,
//! same machine, same commit).
//!
//! Everything here is best effort: a fact that cannot be found is `None`,
//! never an error, and nothing here reads a clock the benchmarks use.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The machine, toolchain and source a run measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// When the run started, UTC, RFC 3339 to the second:
    /// `2026-11-21T09:50:00Z`.
    pub timestamp: String,
    /// The bench-harness version that measured.
    pub harness_version: String,
    /// `rustc -V` of the compiler that built bench-harness, which in one
    /// `cargo bench` build is the one that built the benchmarks:
    /// `rustc 1.95.0 (59807616e 2026-04-14)`, or `unknown`.
    pub rustc_version: String,
    /// The target triple built for: `x86_64-unknown-linux-gnu`.
    pub target: String,
    /// The operating system, as `std::env::consts::OS` names it: `linux`.
    pub os: String,
    /// The kernel release (`/proc/sys/kernel/osrelease`), where available.
    pub os_release: Option<String>,
    /// The CPU's model name (`/proc/cpuinfo`), where available.
    pub cpu_model: Option<String>,
    /// Logical cores this process may use
    /// (`std::thread::available_parallelism`).
    pub logical_cores: Option<usize>,
    /// `git rev-parse HEAD` of the benched crate's checkout; `None` when git
    /// is missing or the crate is not in a checkout.
    pub git_commit: Option<String>,
    /// Whether tracked files differ from that commit
    /// (`git status --porcelain --untracked-files=no` prints anything).
    pub git_dirty: Option<bool>,
}

impl Environment {
    /// The environment of this process, now.
    pub fn capture() -> Environment {
        let checkout = benched_crate_dir();
        let git_commit = checkout.as_deref().and_then(git_commit);
        let git_dirty = git_commit
            .as_ref()
            .and(checkout.as_deref())
            .and_then(git_dirty);
        Environment {
            timestamp: utc_timestamp(SystemTime::now()),
            harness_version: env!("CARGO_PKG_VERSION").to_string(),
            rustc_version: env!("BENCH_HARNESS_RUSTC_VERSION").to_string(),
            target: env!("BENCH_HARNESS_TARGET").to_string(),
            os: std::env::consts::OS.to_string(),
            os_release: read_trimmed("/proc/sys/kernel/osrelease"),
            cpu_model: std::fs::read_to_string("/proc/cpuinfo")
                .ok()
                .and_then(|text| cpu_model(&text)),
            logical_cores: std::thread::available_parallelism().ok().map(|n| n.get()),
            git_commit,
            git_dirty,
        }
    }
}

/// `time` in UTC as RFC 3339 to the second (`2026-11-21T09:50:00Z`). Times
/// before 1970 are written as 1970-01-01T00:00:00Z.
pub fn utc_timestamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs().min(i64::MAX as u64) as i64);
    format_unix_seconds(secs)
}

/// Seconds since 1970-01-01T00:00:00Z (negative before) as RFC 3339 UTC.
pub fn format_unix_seconds(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let of_day = secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`: eras of 400 years, years starting on March 1st so the
/// leap day is the last day of the year).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097); // [0, 146096]
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365; // [0, 399]
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100); // [0, 365]
    let month_from_march = (5 * day_of_year + 2) / 153; // [0, 11]
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32; // [1, 31]
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32; // [1, 12]
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The benched crate's directory: `CARGO_MANIFEST_DIR` as cargo sets it for
/// the bench binary it runs, else the current directory.
fn benched_crate_dir() -> Option<PathBuf> {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
}

fn git_commit(dir: &Path) -> Option<String> {
    let head = git(dir, &["rev-parse", "HEAD"])?;
    let head = head.trim();
    let is_hash = head.len() >= 40 && head.chars().all(|c| c.is_ascii_hexdigit());
    is_hash.then(|| head.to_string())
}

fn git_dirty(dir: &Path) -> Option<bool> {
    git(dir, &["status", "--porcelain", "--untracked-files=no"]).map(|out| !out.trim().is_empty())
}

/// `git ARGS` in `dir`: its standard output if it ran and succeeded.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8(output.stdout).ok())
        .flatten()
}

fn read_trimmed(path: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The first `model name` of a `/proc/cpuinfo` text.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = value.trim();
        (key.trim() == "model name" && !value.is_empty()).then(|| value.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn known_dates() {
        assert_eq!(format_unix_seconds(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_unix_seconds(1_795_254_600), "2026-11-21T09:50:00Z");
        assert_eq!(format_unix_seconds(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_unix_seconds(951_782_399), "2000-02-28T23:59:59Z");
        assert_eq!(format_unix_seconds(1_000_000_000), "2001-09-09T01:46:40Z");
        // 2100 is not a leap year: February 28th is followed by March 1st.
        assert_eq!(format_unix_seconds(4_107_542_400), "2100-03-01T00:00:00Z");
        assert_eq!(format_unix_seconds(4_107_542_399), "2100-02-28T23:59:59Z");
        assert_eq!(format_unix_seconds(-1), "1969-12-31T23:59:59Z");
        assert_eq!(format_unix_seconds(-11_676_096_000), "1600-01-01T00:00:00Z");
    }

    #[test]
    fn consecutive_days_advance_the_date_by_one() {
        let mut previous = civil_from_days(-800_000);
        for days in -799_999..800_000 {
            let (y, m, d) = civil_from_days(days);
            let (py, pm, pd) = previous;
            let next_day = (y, m) == (py, pm) && d == pd + 1;
            let next_month = y == py && m == pm + 1 && d == 1 && pd >= 28;
            let next_year = y == py + 1 && (m, d, pm, pd) == (1, 1, 12, 31);
            assert!(
                next_day || next_month || next_year,
                "{previous:?} → {y}-{m}-{d}"
            );
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            if next_month {
                let length = match pm {
                    2 if leap => 29,
                    2 => 28,
                    4 | 6 | 9 | 11 => 30,
                    _ => 31,
                };
                assert_eq!(pd, length, "{previous:?}");
            }
            previous = (y, m, d);
        }
    }

    #[test]
    fn system_times_before_the_epoch_are_clamped() {
        let before = UNIX_EPOCH - Duration::from_secs(10);
        assert_eq!(utc_timestamp(before), "1970-01-01T00:00:00Z");
        let later = UNIX_EPOCH + Duration::from_millis(1_795_254_600_999);
        assert_eq!(utc_timestamp(later), "2026-11-21T09:50:00Z");
    }

    #[test]
    fn cpu_model_is_the_first_model_name() {
        let text = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.60GHz\n\nprocessor\t: 1\nmodel name\t: other\n";
        assert_eq!(
            cpu_model(text).as_deref(),
            Some("Intel(R) Xeon(R) CPU @ 2.60GHz")
        );
        assert_eq!(cpu_model("processor\t: 0\nBogoMIPS\t: 50.00\n"), None);
    }

    #[test]
    fn capture_never_fails_and_outside_a_checkout_has_no_commit() {
        let environment = Environment::capture();
        assert!(environment.timestamp.ends_with('Z'));
        assert_eq!(environment.harness_version, env!("CARGO_PKG_VERSION"));
        assert!(!environment.target.is_empty());
        assert_eq!(
            environment.git_dirty.is_some(),
            environment.git_commit.is_some()
        );
        // No such directory: git cannot run there, and that is None, not an error.
        assert_eq!(git_commit(Path::new("/nonexistent/directory")), None);
        assert_eq!(git_dirty(Path::new("/nonexistent/directory")), None);
    }
}
