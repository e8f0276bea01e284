//! Which pages of a bot's memory were written since a point in time:
//! Linux's asynchronous userfaultfd write protection (Linux 5.7, with
//! `UFFD_FEATURE_WP_ASYNC` and `UFFD_FEATURE_WP_UNPOPULATED`: 6.4), read
//! back with the `PAGEMAP_SCAN` ioctl (6.7). An in-place reset
//! ([`crate::snapshot::Snapshot::reset`]) then copies back only the pages
//! the bot wrote since its start-up snapshot was given it, instead of
//! comparing the whole memory with the snapshot (about 3 ms for CPython's
//! 16 MiB, bound by memory bandwidth).
//!
//! The protection is asynchronous: a write to a protected page is let
//! through by the kernel, which marks the page written; no thread waits
//! on the userfaultfd, and a bot sees no difference. It is kept per range,
//! so threads tracking memories of their own do not disturb one another
//! (the soft-dirty bits are cleared process-wide, so they cannot serve).
//!
//! One userfaultfd and one `/proc/self/pagemap` descriptor serve the whole
//! process, opened on first use and kept; each tracked memory is a range
//! registered on that userfaultfd, forgotten by the kernel when wasmtime
//! unmaps the memory. Where the kernel cannot track (older than 6.7,
//! userfaultfd forbidden, not Linux) or `PITBOSS_WRITE_TRACKING=off`,
//! [`Tracker::start`] gives `None` and the reset compares, as before: the
//! same result, slower.

use std::ops::Range;

/// Region entries read per `PAGEMAP_SCAN` call; a scan that fills them
/// goes on from where it stopped.
const REGIONS: usize = 256;

/// Tracks the writes to one bot memory: its address range.
#[derive(Debug)]
pub(crate) struct Tracker {
    start: u64,
    end: u64,
}

impl Tracker {
    /// Write-protects all of `memory` (a bot's whole linear memory) and
    /// tracks the writes to it from now on; `None` where the kernel cannot.
    pub(crate) fn start(memory: &mut [u8]) -> Option<Tracker> {
        let kernel = sys::kernel()?;
        let start = memory.as_mut_ptr() as u64;
        let page = sys::page_size()?;
        if memory.is_empty() || !start.is_multiple_of(page) || !(memory.len() as u64).is_multiple_of(page) {
            return None;
        }
        let tracker = Tracker { start, end: start + memory.len() as u64 };
        kernel.register(start, memory.len() as u64).ok()?;
        tracker.protect().ok()?;
        Some(tracker)
    }

    /// Whether `memory` is the one tracked (a memory that moved or grew
    /// is not).
    pub(crate) fn tracks(&self, memory: &[u8]) -> bool {
        memory.as_ptr() as u64 == self.start && self.start + memory.len() as u64 == self.end
    }

    /// The byte ranges (offsets into the memory) written since the last
    /// [`Tracker::protect`], in ascending order, into `out`.
    pub(crate) fn written(&self, out: &mut Vec<Range<usize>>) -> Result<(), String> {
        let kernel = sys::kernel().ok_or("no write tracking")?;
        out.clear();
        let mut regions = [sys::PageRegion::default(); REGIONS];
        let mut from = self.start;
        while from < self.end {
            let (filled, walk_end) = kernel.scan(from, self.end, Some(&mut regions))?;
            for region in &regions[..filled] {
                if region.start < from || region.end > self.end || region.start >= region.end {
                    return Err(format!("PAGEMAP_SCAN gave the region {:#x}..{:#x}", region.start, region.end));
                }
                out.push((region.start - self.start) as usize..(region.end - self.start) as usize);
            }
            if walk_end <= from {
                return Err("PAGEMAP_SCAN made no progress".into());
            }
            from = walk_end;
        }
        Ok(())
    }

    /// Write-protects the whole memory again: only writes after this show
    /// in [`Tracker::written`].
    pub(crate) fn protect(&self) -> Result<(), String> {
        let kernel = sys::kernel().ok_or("no write tracking")?;
        match kernel.scan(self.start, self.end, None)? {
            (_, end) if end >= self.end => Ok(()),
            (_, end) => Err(format!("PAGEMAP_SCAN protected up to {end:#x} of {:#x}", self.end)),
        }
    }
}

/// The kernel interface: `userfaultfd(2)` and `ioctl_pagemap_scan(2)`,
/// with the constants of `linux/userfaultfd.h` and `linux/fs.h` (the C
/// library's headers here predate `PAGEMAP_SCAN`).
#[cfg(target_os = "linux")]
mod sys {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::sync::OnceLock;

    const UFFD_API: u64 = 0xAA;
    const UFFD_USER_MODE_ONLY: libc::c_int = 1;
    const UFFD_FEATURE_WP_UNPOPULATED: u64 = 1 << 13;
    const UFFD_FEATURE_WP_ASYNC: u64 = 1 << 15;
    const UFFDIO_REGISTER_MODE_WP: u64 = 1 << 1;
    /// `_IOWR(0xAA, 0x3F, struct uffdio_api)`.
    const UFFDIO_API: libc::c_ulong = 0xC018_AA3F;
    /// `_IOWR(0xAA, 0x00, struct uffdio_register)`.
    const UFFDIO_REGISTER: libc::c_ulong = 0xC020_AA00;
    /// `_IOWR('f', 16, struct pm_scan_arg)`.
    const PAGEMAP_SCAN: libc::c_ulong = 0xC060_6610;
    const PM_SCAN_WP_MATCHING: u64 = 1 << 0;
    const PM_SCAN_CHECK_WPASYNC: u64 = 1 << 1;
    const PAGE_IS_WRITTEN: u64 = 1 << 1;

    #[repr(C)]
    struct UffdioApi {
        api: u64,
        features: u64,
        ioctls: u64,
    }

    #[repr(C)]
    struct UffdioRegister {
        start: u64,
        len: u64,
        mode: u64,
        ioctls: u64,
    }

    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    pub(super) struct PageRegion {
        pub(super) start: u64,
        pub(super) end: u64,
        categories: u64,
    }

    #[repr(C)]
    #[derive(Default)]
    struct PmScanArg {
        size: u64,
        flags: u64,
        start: u64,
        end: u64,
        walk_end: u64,
        vec: u64,
        vec_len: u64,
        max_pages: u64,
        category_inverted: u64,
        category_mask: u64,
        category_anyof_mask: u64,
        return_mask: u64,
    }

    pub(super) struct Kernel {
        uffd: OwnedFd,
        pagemap: OwnedFd,
    }

    /// The process's descriptors, opened on first use; `None` where the
    /// kernel cannot track writes or tracking is turned off.
    pub(super) fn kernel() -> Option<&'static Kernel> {
        static KERNEL: OnceLock<Option<Kernel>> = OnceLock::new();
        KERNEL.get_or_init(open).as_ref()
    }

    pub(super) fn page_size() -> Option<u64> {
        // SAFETY: sysconf reads a constant.
        u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok().filter(|p| *p > 0)
    }

    fn open() -> Option<Kernel> {
        if std::env::var_os("PITBOSS_WRITE_TRACKING").is_some_and(|v| v == "off") {
            return None;
        }
        let flags = libc::O_CLOEXEC | libc::O_NONBLOCK;
        // User-mode faults only: what unprivileged processes may ask for
        // (the asynchronous protection resolves every fault in the kernel).
        // SAFETY: a system call that returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_userfaultfd, flags | UFFD_USER_MODE_ONLY) };
        // SAFETY: a descriptor just opened, owned from here on.
        let uffd = unsafe { OwnedFd::from_raw_fd(libc::c_int::try_from(fd).ok().filter(|fd| *fd >= 0)?) };
        let wanted = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED;
        let mut api = UffdioApi { api: UFFD_API, features: wanted, ioctls: 0 };
        // SAFETY: the ioctl reads and writes the struct it is given.
        if unsafe { libc::ioctl(uffd.as_raw_fd(), UFFDIO_API, &mut api) } != 0 || api.features & wanted != wanted {
            return None;
        }
        let pagemap = std::fs::File::open("/proc/self/pagemap").ok()?.into();
        Some(Kernel { uffd, pagemap })
    }

    impl Kernel {
        /// Registers `[start, start + len)` for write protection.
        pub(super) fn register(&self, start: u64, len: u64) -> Result<(), String> {
            let mut register = UffdioRegister { start, len, mode: UFFDIO_REGISTER_MODE_WP, ioctls: 0 };
            // SAFETY: the ioctl reads and writes the struct it is given; it
            // changes no memory's contents.
            match unsafe { libc::ioctl(self.uffd.as_raw_fd(), UFFDIO_REGISTER, &mut register) } {
                0 => Ok(()),
                _ => Err(format!("UFFDIO_REGISTER: {}", std::io::Error::last_os_error())),
            }
        }

        /// Scans `[start, end)` for written pages: into `regions` (their
        /// count is returned, with where the walk ended), or, without
        /// regions, write-protecting them all. Fails on a page not under
        /// asynchronous protection.
        pub(super) fn scan(
            &self,
            start: u64,
            end: u64,
            regions: Option<&mut [PageRegion]>,
        ) -> Result<(usize, u64), String> {
            let (vec, vec_len, flags) = match regions {
                Some(r) => (r.as_mut_ptr() as u64, r.len() as u64, PM_SCAN_CHECK_WPASYNC),
                None => (0, 0, PM_SCAN_CHECK_WPASYNC | PM_SCAN_WP_MATCHING),
            };
            let mut arg = PmScanArg {
                size: std::mem::size_of::<PmScanArg>() as u64,
                flags,
                start,
                end,
                vec,
                vec_len,
                category_mask: PAGE_IS_WRITTEN,
                return_mask: PAGE_IS_WRITTEN,
                ..PmScanArg::default()
            };
            // SAFETY: the kernel writes at most `vec_len` regions to `vec`
            // (a live, exclusively borrowed slice) and the walk's end to
            // `arg`; it changes no memory's contents.
            let filled = unsafe { libc::ioctl(self.pagemap.as_raw_fd(), PAGEMAP_SCAN, &mut arg) };
            match usize::try_from(filled) {
                Ok(n) if n as u64 <= vec_len => Ok((n, arg.walk_end)),
                _ => Err(format!("PAGEMAP_SCAN: {}", std::io::Error::last_os_error())),
            }
        }
    }
}

/// Elsewhere the kernel tracks nothing, and resets compare.
#[cfg(not(target_os = "linux"))]
mod sys {
    #[derive(Clone, Copy, Default)]
    pub(super) struct PageRegion {
        pub(super) start: u64,
        pub(super) end: u64,
    }

    pub(super) struct Kernel;

    pub(super) fn kernel() -> Option<&'static Kernel> {
        None
    }

    pub(super) fn page_size() -> Option<u64> {
        None
    }

    impl Kernel {
        pub(super) fn register(&self, _: u64, _: u64) -> Result<(), String> {
            Err("not Linux".into())
        }

        pub(super) fn scan(&self, _: u64, _: u64, _: Option<&mut [PageRegion]>) -> Result<(usize, u64), String> {
            Err("not Linux".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An anonymous mapping of `len` bytes, as wasmtime makes a memory.
    struct Mapping(*mut u8, usize);

    impl Mapping {
        fn new(len: usize) -> Mapping {
            let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
            // SAFETY: a fresh private mapping, unmapped on drop.
            let at = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, flags, -1, 0) };
            assert_ne!(at, libc::MAP_FAILED);
            Mapping(at.cast(), len)
        }

        fn bytes(&mut self) -> &mut [u8] {
            // SAFETY: the mapping is live and only this value reaches it.
            unsafe { std::slice::from_raw_parts_mut(self.0, self.1) }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: unmaps what `new` mapped.
            unsafe { libc::munmap(self.0.cast(), self.1) };
        }
    }

    #[test]
    fn the_pages_written_since_protection_are_found_and_no_others() {
        // No skip: where the kernel cannot track writes, the host resets by
        // copying, and this test says so by failing.
        assert!(sys::kernel().is_some(), "this kernel cannot track writes (Linux 6.7 and userfaultfd needed)");
        let mut memory = Mapping::new(16 << 20);
        memory.bytes()[..1 << 20].fill(1);
        let tracker = Tracker::start(memory.bytes()).expect("tracking starts");
        assert!(tracker.tracks(memory.bytes()));
        let mut written = Vec::new();
        tracker.written(&mut written).unwrap();
        assert_eq!(written, []);
        let data = memory.bytes();
        data[5 * 4096 + 3] = 7; // a page written before
        data[9 << 20] = 1; // two pages never touched
        data[(9 << 20) + 4096] = 1;
        let _ = std::hint::black_box(data[12 << 20]); // a read
        data[(16 << 20) - 1] = 2; // the last byte
        tracker.written(&mut written).unwrap();
        assert_eq!(written, [5 * 4096..6 * 4096, (9 << 20)..(9 << 20) + 8192, (16 << 20) - 4096..16 << 20]);
        tracker.protect().unwrap();
        tracker.written(&mut written).unwrap();
        assert_eq!(written, []);
        // More regions than one scan reads: every other page.
        let data = memory.bytes();
        for page in 0..(REGIONS * 3) {
            data[page * 8192] = 3;
        }
        tracker.written(&mut written).unwrap();
        assert_eq!(written.len(), REGIONS * 3);
        assert!(written.iter().enumerate().all(|(i, r)| *r == (i * 8192..i * 8192 + 4096)));
    }
}
