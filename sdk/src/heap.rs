//! The bot's heap (feature `alloc`): a small size-class allocator that is
//! the `#[global_allocator]` of a bot built for wasm32 with the feature on,
//! so that `Vec`, `String`, `Box` and `BTreeMap` work in a `no_std` bot.
//!
//! Why our own and not a crate: `pitboss new` writes this SDK into every
//! new bot, which then builds with no network at all; an allocator from
//! crates.io would have to be downloaded on the first build. And a bot asks
//! little of one: a single thread, short calls, 16 MiB of memory at most.
//!
//! How: every block is a power of two of at least 8 bytes and starts at a
//! multiple of its size, so it suits any alignment up to its size. A freed
//! block goes onto the free list of its size and is the next one handed out
//! at that size, so allocating and freeing cost a few instructions. New
//! blocks are cut from the top of the heap, which grows by whole 64 KiB
//! pages; the gap that alignment leaves below a new block is cut into
//! smaller blocks for the free lists, so none of it is lost. Blocks are
//! never split or merged: a request fills more than half of its block, and
//! memory freed at one size is reused at that size only (a `Vec` doubles
//! its capacity, so its sizes are exactly these).

use core::alloc::Layout;

/// Bytes in a wasm page: the heap grows by whole pages.
pub(crate) const PAGE: usize = 65536;

/// The smallest block: room for a free list's link.
const MIN_BLOCK: usize = 8;

/// The size class of `layout`: its block is `1 << class` bytes. `None`
/// when no block could hold it.
pub(crate) fn class_of(layout: Layout) -> Option<u32> {
    let size = layout.size().max(layout.align()).max(MIN_BLOCK);
    size.checked_next_power_of_two().map(usize::trailing_zeros)
}

/// The free lists and the top of the heap. Addresses are plain `usize`s,
/// 0 meaning none.
pub(crate) struct Heap {
    /// `free[k]`: the first free block of `1 << k` bytes; each free block
    /// holds the address of the next in its first word.
    free: [usize; usize::BITS as usize],
    /// The first byte not yet cut into blocks.
    top: usize,
    /// The end of the memory the heap owns; `top..end` is uncut.
    end: usize,
}

impl Heap {
    pub(crate) const fn new() -> Self {
        Heap { free: [0; usize::BITS as usize], top: 0, end: 0 }
    }

    /// The address of a free block of `1 << class` bytes, or 0 when memory
    /// is exhausted. `grow(bytes)` adds `bytes` (whole pages) of fresh
    /// memory and returns its start, or `None` when it cannot.
    ///
    /// # Safety
    /// `class` is below `usize::BITS`; the blocks on the free lists were
    /// handed out by this heap; `grow` returns memory nobody else uses.
    pub(crate) unsafe fn take(&mut self, class: u32, mut grow: impl FnMut(usize) -> Option<usize>) -> usize {
        let head = self.free[class as usize];
        if head != 0 {
            // SAFETY: a free block holds the next free block's address.
            self.free[class as usize] = unsafe { (head as *const usize).read() };
            return head;
        }
        let size = 1usize << class;
        loop {
            let Some(block) = self.top.checked_next_multiple_of(size) else { return 0 };
            let Some(block_end) = block.checked_add(size) else { return 0 };
            if block_end <= self.end {
                // SAFETY: `top..block` is uncut memory of this heap.
                unsafe { self.cut(self.top, block) };
                self.top = block_end;
                return block;
            }
            let Some(bytes) = (block_end - self.end).checked_next_multiple_of(PAGE) else { return 0 };
            let Some(fresh) = grow(bytes) else { return 0 };
            if fresh != self.end {
                // Not contiguous (someone else grew memory): keep what is
                // left below as blocks and start again at the fresh memory.
                // SAFETY: `top..end` is uncut memory of this heap.
                unsafe { self.cut(self.top, self.end) };
                self.top = fresh;
            }
            self.end = fresh + bytes;
        }
    }

    /// Puts the block at `block` of `1 << class` bytes on its free list.
    ///
    /// # Safety
    /// The block is one [`Heap::take`] handed out (or a cut of the heap's
    /// own memory), naturally aligned, and no longer used.
    pub(crate) unsafe fn give(&mut self, block: usize, class: u32) {
        // SAFETY: the block is at least 8 bytes, aligned, and unused.
        unsafe { (block as *mut usize).write(self.free[class as usize]) };
        self.free[class as usize] = block;
    }

    /// Cuts `from..to` (multiples of 8) into naturally aligned blocks for
    /// the free lists, each as large as its address allows.
    ///
    /// # Safety
    /// `from..to` is memory of this heap that nothing uses.
    unsafe fn cut(&mut self, mut from: usize, to: usize) {
        while from < to {
            let room = 1usize << (to - from).ilog2(); // the largest block that fits
            let align = from & from.wrapping_neg(); // the largest `from` is a multiple of
            let size = if align == 0 { room } else { room.min(align) };
            // SAFETY: `from..from + size` is unused heap memory, aligned to its size.
            unsafe { self.give(from, size.trailing_zeros()) };
            from += size;
        }
    }
}

/// The global allocator itself: [`Heap`] over the wasm memory.
#[cfg(all(feature = "alloc", target_arch = "wasm32"))]
mod global {
    use core::alloc::{GlobalAlloc, Layout};
    use core::cell::UnsafeCell;

    use super::{Heap, PAGE, class_of};

    struct BotHeap(UnsafeCell<Heap>);

    // SAFETY: wasm32 without threads (the host disables the proposal), and
    // the allocator never calls itself: one `&mut Heap` at a time.
    unsafe impl Sync for BotHeap {}

    #[global_allocator]
    static HEAP: BotHeap = BotHeap(UnsafeCell::new(Heap::new()));

    /// Appends `bytes` (whole pages) to the memory; its start, or `None`
    /// at the memory cap.
    fn grow(bytes: usize) -> Option<usize> {
        let old = core::arch::wasm32::memory_grow(0, bytes / PAGE);
        (old != usize::MAX).then(|| old * PAGE)
    }

    // SAFETY: `take` hands out blocks of at least `layout`'s size and
    // alignment, each to one owner until it is given back.
    unsafe impl GlobalAlloc for BotHeap {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let Some(class) = class_of(layout) else { return core::ptr::null_mut() };
            // SAFETY: see `Sync`; `grow` only adds fresh pages.
            unsafe { (*self.0.get()).take(class, grow) as *mut u8 }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if let Some(class) = class_of(layout) {
                // SAFETY: `ptr` came from `alloc` with this layout.
                unsafe { (*self.0.get()).give(ptr as usize, class) }
            }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let Ok(new) = Layout::from_size_align(new_size, layout.align()) else { return core::ptr::null_mut() };
            if class_of(new) == class_of(layout) {
                return ptr; // the block already fits
            }
            // SAFETY: as the trait's default: a new block, copy, free the old.
            unsafe {
                let moved = self.alloc(new);
                if !moved.is_null() {
                    core::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                moved
            }
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    /// A heap over an arena of `pages` pages; `grow` hands them out in order.
    struct Arena {
        heap: Heap,
        memory: Vec<u8>,
        next: usize,
        end: usize,
    }

    impl Arena {
        fn new(pages: usize) -> Self {
            let memory = std::vec![0u8; (pages + 1) * PAGE];
            let next = (memory.as_ptr() as usize).next_multiple_of(PAGE);
            Arena { heap: Heap::new(), memory, next, end: next + pages * PAGE }
        }

        fn take(&mut self, size: usize, align: usize) -> usize {
            let class = class_of(Layout::from_size_align(size, align).unwrap()).unwrap();
            let (next, end) = (&mut self.next, self.end);
            // SAFETY: the arena outlives the heap and is only handed out once.
            unsafe {
                self.heap.take(class, |bytes| {
                    let fresh = *next;
                    (fresh + bytes <= end).then(|| {
                        *next += bytes;
                        fresh
                    })
                })
            }
        }

        fn give(&mut self, block: usize, size: usize, align: usize) {
            let class = class_of(Layout::from_size_align(size, align).unwrap()).unwrap();
            // SAFETY: `block` came from `take` with this layout.
            unsafe { self.heap.give(block, class) }
        }
    }

    #[test]
    fn classes_round_up_to_a_power_of_two_of_at_least_eight() {
        let class = |size, align| class_of(Layout::from_size_align(size, align).unwrap());
        assert_eq!(class(1, 1), Some(3));
        assert_eq!(class(8, 8), Some(3));
        assert_eq!(class(9, 1), Some(4));
        assert_eq!(class(24, 64), Some(6));
        assert_eq!(class(65536, 1), Some(16));
    }

    #[test]
    fn a_freed_block_is_the_next_of_its_size() {
        let mut arena = Arena::new(4);
        let a = arena.take(100, 4);
        let b = arena.take(100, 4);
        assert_ne!(a, b);
        arena.give(a, 100, 4);
        assert_eq!(arena.take(128, 8), a);
    }

    #[test]
    fn blocks_are_aligned_disjoint_and_hold_their_bytes() {
        let mut arena = Arena::new(64);
        let mut live: Vec<(usize, usize, usize, u8)> = Vec::new(); // block, size, align, tag
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        };
        for step in 0..20_000 {
            if random(2) == 0 && !live.is_empty() {
                let (block, size, align, tag) = live.swap_remove(random(live.len() as u64));
                // SAFETY: a live block of `size` bytes inside the arena.
                let bytes = unsafe { core::slice::from_raw_parts(block as *const u8, size) };
                assert!(bytes.iter().all(|&b| b == tag), "block at {block:#x} was overwritten");
                arena.give(block, size, align);
            } else {
                let largest = if random(50) == 0 { 40_000 } else { 300 };
                let size = 1 + random(largest);
                let align = 1 << random(7);
                let block = arena.take(size, align);
                assert_ne!(block, 0, "the arena is large enough");
                assert_eq!(block % align, 0);
                assert!(block >= arena.memory.as_ptr() as usize && block + size <= arena.end);
                let tag = step as u8;
                // SAFETY: a fresh block of at least `size` bytes.
                unsafe { core::ptr::write_bytes(block as *mut u8, tag, size) };
                live.push((block, size, align, tag));
            }
        }
    }

    #[test]
    fn alignment_gaps_are_reused_and_exhaustion_returns_zero() {
        let mut arena = Arena::new(4);
        let small = arena.take(8, 8);
        let page = arena.take(PAGE, 8);
        assert_eq!(page % PAGE, 0);
        // The rest of the first page below `page` went onto the free lists,
        // one block of each size from 8 bytes to half a page.
        for class in 3..16 {
            let block = arena.take(1 << class, 8);
            assert!(small < block && block < page, "{} bytes at {block:#x}", 1 << class);
        }
        assert!(small < page);
        assert_eq!(arena.take(4 * PAGE, 8), 0, "more than the arena holds");
    }
}
