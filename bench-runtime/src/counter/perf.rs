//! Linux's `perf_event_open`: one group of counters for the calling thread,
//! read with a single `read()`.
//!
//! Events count user space only (`exclude_kernel`, `exclude_hv`), which
//! `perf_event_paranoid` 2, the usual default, allows without privileges;
//! context switches are the exception, since they only ever happen in the
//! kernel (counted user-only they are always 0).
//!
//! The system calls themselves, and the kernel's structure and constants,
//! are in `sys::perf_event`; this file decides what to open and what a
//! refusal means.

use std::io;
use std::os::fd::OwnedFd;

use super::{Event, Reading};
use crate::sys::perf_event::{
    self, PerfEventAttr, ATTR_DISABLED, ATTR_EXCLUDE_HV, ATTR_EXCLUDE_KERNEL, PERF_ATTR_SIZE_VER0,
    PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_MISSES, PERF_COUNT_HW_CACHE_L1D,
    PERF_COUNT_HW_CACHE_MISSES, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_REFERENCES,
    PERF_COUNT_HW_CACHE_RESULT_ACCESS, PERF_COUNT_HW_CACHE_RESULT_MISS, PERF_COUNT_HW_CPU_CYCLES,
    PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_PAGE_FAULTS,
    PERF_COUNT_SW_TASK_CLOCK, PERF_FORMAT_GROUP, PERF_FORMAT_ID, PERF_FORMAT_TOTAL_TIME_ENABLED,
    PERF_FORMAT_TOTAL_TIME_RUNNING, PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE, PERF_TYPE_SOFTWARE,
};

/// `read()`'s layout with `PERF_FORMAT_GROUP`: `nr`, `time_enabled`,
/// `time_running`, then `{ value, id }` per event.
const READ_HEADER: usize = 3;
const READ_PER_EVENT: usize = 2;

/// An open group: the leader's descriptor first.
#[derive(Debug)]
pub(super) struct Group {
    fds: Vec<OwnedFd>,
    events: Vec<Event>,
    /// The kernel's id of each event, in the order of `events`.
    ids: Vec<u64>,
    /// Reused by every read, sized for the group.
    buf: Vec<u64>,
}

impl Group {
    /// Opens each of `events` (no duplicates) that the kernel accepts; the
    /// first to open leads, the others join it. Returns the group, enabled,
    /// and each refused event with its reason.
    pub(super) fn open(events: &[Event]) -> (Option<Group>, Vec<(Event, String)>) {
        let mut fds: Vec<OwnedFd> = Vec::new();
        let mut opened = Vec::new();
        let mut ids = Vec::new();
        let mut refused = Vec::new();
        for &event in events {
            let leader = fds.first();
            match open_event(event, leader).and_then(|fd| Ok((perf_event::id(&fd)?, fd))) {
                Ok((id, fd)) => {
                    fds.push(fd);
                    opened.push(event);
                    ids.push(id);
                }
                Err(errno) => refused.push((event, refusal_reason(event, errno, leader))),
            }
        }
        let Some(leader) = fds.first() else {
            return (None, refused);
        };
        if let Err(errno) = perf_event::reset_and_enable_group(leader) {
            let reason = refusal_reason(opened[0], errno, None);
            refused.extend(opened.into_iter().map(|event| (event, reason.clone())));
            return (None, refused);
        }
        let buf = vec![0; READ_HEADER + READ_PER_EVENT * opened.len()];
        let group = Group {
            fds,
            events: opened,
            ids,
            buf,
        };
        (Some(group), refused)
    }

    pub(super) fn events(&self) -> &[Event] {
        &self.events
    }

    // PERF: one read() for the whole group into a buffer allocated at open,
    // so that reading allocates nothing (the allocation counters stay exact).
    #[inline]
    pub(super) fn read(&mut self) -> Reading {
        let len = size_of_val(self.buf.as_slice());
        match perf_event::read(&self.fds[0], &mut self.buf) {
            Ok(read) if read == len => {}
            result => read_failed(result, len),
        }
        let (header, entries) = self.buf.split_at(READ_HEADER);
        let [nr, time_enabled, time_running] = [header[0], header[1], header[2]];
        // A group of another size would have failed the read (ENOSPC) or
        // come up short.
        debug_assert_eq!(nr as usize, self.events.len());
        let mut reading = Reading::new(time_enabled as f64, time_running as f64);
        for entry in entries.chunks_exact(READ_PER_EVENT) {
            let (value, id) = (entry[0], entry[1]);
            if let Some(i) = self.ids.iter().position(|&known| known == id) {
                reading.counts[self.events[i].index()] = Some(value as f64);
            }
        }
        reading
    }
}

#[cold]
#[inline(never)]
fn read_failed(result: Result<usize, i32>, len: usize) -> ! {
    let why = match result {
        Err(errno) => io::Error::from_raw_os_error(errno).to_string(),
        Ok(read) => format!("{read} bytes instead of {len}"),
    };
    panic!("reading the perf_event counter group failed: {why}")
}

/// The kernel's description of `event`.
fn attr(event: Event, leads: bool) -> PerfEventAttr {
    let (kind, config) = match event {
        Event::Cycles => (PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
        Event::Instructions => (PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
        Event::Branches => (PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
        Event::BranchMisses => (PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES),
        Event::CacheReferences => (PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES),
        Event::CacheMisses => (PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES),
        Event::L1dReadAccesses => (
            PERF_TYPE_HW_CACHE,
            l1d_read(PERF_COUNT_HW_CACHE_RESULT_ACCESS),
        ),
        Event::L1dReadMisses => (
            PERF_TYPE_HW_CACHE,
            l1d_read(PERF_COUNT_HW_CACHE_RESULT_MISS),
        ),
        Event::PageFaults => (PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS),
        Event::ContextSwitches => (PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES),
        Event::TaskClock => (PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK),
    };
    let mut flags = ATTR_EXCLUDE_HV;
    if !counts_in_kernel(event) {
        flags |= ATTR_EXCLUDE_KERNEL;
    }
    // The leader starts disabled and is enabled, with its group, once every
    // member has joined; members follow the leader.
    if leads {
        flags |= ATTR_DISABLED;
    }
    PerfEventAttr {
        kind,
        size: PERF_ATTR_SIZE_VER0,
        config,
        read_format: PERF_FORMAT_GROUP
            | PERF_FORMAT_TOTAL_TIME_ENABLED
            | PERF_FORMAT_TOTAL_TIME_RUNNING
            | PERF_FORMAT_ID,
        flags,
        ..PerfEventAttr::default()
    }
}

fn l1d_read(result: u64) -> u64 {
    PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (result << 16)
}

/// Events that only ever happen in the kernel, so that user-only counting
/// would always read 0.
fn counts_in_kernel(event: Event) -> bool {
    event == Event::ContextSwitches
}

/// Opens `event` for the calling thread on any CPU, joining `leader`'s group
/// if given, or says the errno.
fn open_event(event: Event, leader: Option<&OwnedFd>) -> Result<OwnedFd, i32> {
    perf_event::open(&attr(event, leader.is_none()), leader)
}

/// One line naming why the kernel refused `event` and what to do, from the
/// errno and the system's settings.
fn refusal_reason(event: Event, errno: i32, leader: Option<&OwnedFd>) -> String {
    match errno {
        // ENODEV too: some architectures' perf code says so without a PMU.
        libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV if event.is_hardware() => {
            "no hardware performance counters here (a virtual machine without a virtual PMU?): \
             hardware events are unavailable; software events still work"
                .to_string()
        }
        libc::EACCES | libc::EPERM => denied_reason(event),
        libc::ENOSYS => {
            "perf_event_open is not available (a container blocking the syscall, or not Linux)"
                .to_string()
        }
        // A hardware event that opens alone but not in the group: the PMU
        // has no counter left for it.
        libc::EINVAL if leader.is_some() && open_event(event, None).is_ok() => {
            "more hardware events than the CPU has counters for one group: ask for fewer \
             (or free the counter the NMI watchdog holds: `sudo sysctl kernel.nmi_watchdog=0`)"
                .to_string()
        }
        _ => format!(
            "perf_event_open refused it: {}",
            io::Error::from_raw_os_error(errno)
        ),
    }
}

/// Why the kernel denied permission, from `perf_event_paranoid`: above 2 it
/// forbids unprivileged counting, above 1 counting in the kernel.
fn denied_reason(event: Event) -> String {
    let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .ok()
        .and_then(|level| level.trim().parse::<i32>().ok());
    match paranoid {
        Some(level) if level > 2 => format!(
            "perf_event_paranoid is {level}: allow user-space counting with \
             `sudo sysctl kernel.perf_event_paranoid=2` (or run with CAP_PERFMON)"
        ),
        Some(level) if level > 1 && counts_in_kernel(event) => format!(
            "perf_event_paranoid is {level}, and {} are counted in the kernel: allow that with \
             `sudo sysctl kernel.perf_event_paranoid=1` (or run with CAP_PERFMON)",
            event.name()
        ),
        Some(level) => format!(
            "perf_event_open was denied although perf_event_paranoid is {level} (a container's \
             seccomp profile or a security module?): allow perf_event_open there, or run with \
             CAP_PERFMON"
        ),
        None => "perf_event_open was denied (a container's seccomp profile or a security \
                 module?): allow perf_event_open there, or run with CAP_PERFMON"
            .to_string(),
    }
}
