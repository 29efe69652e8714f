//! Linux's `perf_event_open`: the kernel's `struct perf_event_attr` and
//! constants, and the calls a counter group needs (open an event, ask its
//! id, reset and enable the group, read it).
//!
//! libc 0.2 defines the system call's number and the `ioctl` encoding but not
//! `struct perf_event_attr` or the perf constants, so they are spelled out
//! here from `include/uapi/linux/perf_event.h`.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use super::last_errno;

/// The first published `struct perf_event_attr` (`PERF_ATTR_SIZE_VER0`,
/// Linux 2.6.31), which holds every field used here; the kernel takes the
/// fields after it as zero.
#[repr(C)]
#[derive(Default)]
pub(crate) struct PerfEventAttr {
    /// `type`: `PERF_TYPE_*`.
    pub(crate) kind: u32,
    pub(crate) size: u32,
    pub(crate) config: u64,
    pub(crate) sample_period: u64,
    pub(crate) sample_type: u64,
    pub(crate) read_format: u64,
    /// The bit fields `disabled`, `inherit`, ... (`ATTR_*`).
    pub(crate) flags: u64,
    pub(crate) wakeup_events: u32,
    pub(crate) bp_type: u32,
    pub(crate) config1: u64,
}

pub(crate) const PERF_ATTR_SIZE_VER0: u32 = 64;
const _: () = assert!(size_of::<PerfEventAttr>() == PERF_ATTR_SIZE_VER0 as usize);

pub(crate) const PERF_TYPE_HARDWARE: u32 = 0;
pub(crate) const PERF_TYPE_SOFTWARE: u32 = 1;
pub(crate) const PERF_TYPE_HW_CACHE: u32 = 3;

pub(crate) const PERF_COUNT_HW_CPU_CYCLES: u64 = 0;
pub(crate) const PERF_COUNT_HW_INSTRUCTIONS: u64 = 1;
pub(crate) const PERF_COUNT_HW_CACHE_REFERENCES: u64 = 2;
pub(crate) const PERF_COUNT_HW_CACHE_MISSES: u64 = 3;
pub(crate) const PERF_COUNT_HW_BRANCH_INSTRUCTIONS: u64 = 4;
pub(crate) const PERF_COUNT_HW_BRANCH_MISSES: u64 = 5;

pub(crate) const PERF_COUNT_HW_CACHE_L1D: u64 = 0;
pub(crate) const PERF_COUNT_HW_CACHE_OP_READ: u64 = 0;
pub(crate) const PERF_COUNT_HW_CACHE_RESULT_ACCESS: u64 = 0;
pub(crate) const PERF_COUNT_HW_CACHE_RESULT_MISS: u64 = 1;

pub(crate) const PERF_COUNT_SW_TASK_CLOCK: u64 = 1;
pub(crate) const PERF_COUNT_SW_PAGE_FAULTS: u64 = 2;
pub(crate) const PERF_COUNT_SW_CONTEXT_SWITCHES: u64 = 3;

pub(crate) const PERF_FORMAT_TOTAL_TIME_ENABLED: u64 = 1 << 0;
pub(crate) const PERF_FORMAT_TOTAL_TIME_RUNNING: u64 = 1 << 1;
pub(crate) const PERF_FORMAT_ID: u64 = 1 << 2;
pub(crate) const PERF_FORMAT_GROUP: u64 = 1 << 3;

pub(crate) const ATTR_DISABLED: u64 = 1 << 0;
pub(crate) const ATTR_EXCLUDE_KERNEL: u64 = 1 << 5;
pub(crate) const ATTR_EXCLUDE_HV: u64 = 1 << 6;

const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;

/// `ioctl` numbers: `_IO('$', n)` and `_IOR('$', 7, __u64 *)`.
const PERF_IOCTL_TYPE: u32 = b'$' as u32;
const PERF_EVENT_IOC_ENABLE: u32 = 0;
const PERF_EVENT_IOC_RESET: u32 = 3;
const PERF_EVENT_IOC_ID: u32 = 7;
const PERF_IOC_FLAG_GROUP: libc::c_ulong = 1 << 0;

/// Opens the event `attr` describes for the calling thread on any CPU,
/// joining `leader`'s group if given, or returns the `errno`.
pub(crate) fn open(attr: &PerfEventAttr, leader: Option<&OwnedFd>) -> Result<OwnedFd, i32> {
    let group_fd = leader.map_or(-1, |fd| fd.as_raw_fd());
    let (pid, cpu): (libc::pid_t, libc::c_int) = (0, -1);
    // SAFETY: `attr` is a `perf_event_attr` of the size its `size` field
    // declares, which the kernel only reads; the other arguments are plain
    // integers of the types the system call takes.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_perf_event_open,
            attr as *const PerfEventAttr,
            pid,
            cpu,
            group_fd,
            PERF_FLAG_FD_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(last_errno());
    }
    // SAFETY: perf_event_open returned a new descriptor that nothing else
    // owns; an fd fits in a c_int.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) })
}

/// The kernel's id for the event behind `fd`, which group reads carry.
pub(crate) fn id(fd: &OwnedFd) -> Result<u64, i32> {
    let mut id: u64 = 0;
    // SAFETY: PERF_EVENT_IOC_ID writes one u64 through the pointer, which
    // points to `id`.
    let rc = unsafe {
        libc::ioctl(
            fd.as_raw_fd(),
            libc::_IOR::<*mut u64>(PERF_IOCTL_TYPE, PERF_EVENT_IOC_ID),
            &mut id as *mut u64,
        )
    };
    if rc < 0 {
        return Err(last_errno());
    }
    Ok(id)
}

/// Zeroes the counts of `leader`'s group and starts it counting.
pub(crate) fn reset_and_enable_group(leader: &OwnedFd) -> Result<(), i32> {
    for request in [PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_ENABLE] {
        // SAFETY: these requests take an integer argument (the group flag)
        // and touch no memory of ours.
        let rc = unsafe {
            libc::ioctl(
                leader.as_raw_fd(),
                libc::_IO(PERF_IOCTL_TYPE, request),
                PERF_IOC_FLAG_GROUP,
            )
        };
        if rc < 0 {
            return Err(last_errno());
        }
    }
    Ok(())
}

/// Reads `fd` into `buf` with one `read()`: the bytes read, or the `errno`.
#[inline]
pub(crate) fn read(fd: &OwnedFd, buf: &mut [u64]) -> Result<usize, i32> {
    let len = size_of_val(buf);
    // SAFETY: `buf` is valid for writes of `len` bytes, its whole length,
    // and read() writes at most that many.
    let read = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), len) };
    usize::try_from(read).map_err(|_| last_errno())
}
