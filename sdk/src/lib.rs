//! Pitboss SDK: write a blackjack bot once, run it as WebAssembly in the
//! Pitboss sandbox or natively in tests.
//!
//! A bot is a type implementing [`Strategy`] (every method has a default)
//! plus one [`export_bot!`] line. On `wasm32` the macro generates the ABI
//! exports described in `sdk/ABI.md`; natively it generates nothing, and
//! the harness calls [`dispatch`] on the same type, so a strategy behaves
//! identically in both.
//!
//! ```
//! use pitboss_sdk::{Action, Strategy, View};
//!
//! #[derive(Default)]
//! pub struct Cautious;
//!
//! impl Strategy for Cautious {
//!     fn act(&mut self, view: &View<'_>) -> Action {
//!         if view.total().best() < 12 { Action::Hit } else { Action::Stand }
//!     }
//! }
//!
//! pitboss_sdk::export_bot!(Cautious, Cautious);
//! # fn main() {}
//! ```
//!
//! The crate is `#![no_std]` and needs no runtime on
//! `wasm32-unknown-unknown`. Its one feature, `alloc` (on in the template
//! that `pitboss new` copies), re-exports the `alloc` crate (`Vec`,
//! `String`, `Box`, `BTreeMap`, `vec!`, `format!`) and, on wasm32, installs
//! a small allocator of its own as the bot's global allocator (`heap.rs`).
//! It has no dependencies, so a scaffolded bot builds offline.

#![no_std]

/// The standard `alloc` crate: `alloc::vec::Vec`, `alloc::string::String`,
/// `alloc::boxed::Box`, `alloc::collections::{BTreeMap, BTreeSet, VecDeque}`,
/// `alloc::vec!` and `alloc::format!`. On wasm32 this SDK's allocator is
/// behind them; natively, the system's.
#[cfg(feature = "alloc")]
pub extern crate alloc;

pub mod abi;
pub mod card;
#[cfg(any(test, all(feature = "alloc", target_arch = "wasm32")))]
mod heap;
pub mod key;
mod rules_block;
mod strategy;
mod view;

pub use abi::{Action, ActionSet, Decision, Event, SideBet, Variant, View, event_kind};
pub use card::{Card, Total, is_natural, is_pair};
pub use strategy::{Strategy, defaulted, dispatch};

/// Sends `text` to the host's log (`pitboss.log`): `pitboss play
/// --transcript`, `pitboss check`, replays and the report's hand viewer
/// show it. The host keeps at most 1 KiB a decision and 64 KiB a table,
/// and each call costs 100 fuel plus one per byte. Natively it does
/// nothing.
pub fn log(text: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        #[link(wasm_import_module = "pitboss")]
        unsafe extern "C" {
            #[link_name = "log"]
            fn pitboss_log(ptr: *const u8, len: usize);
        }
        // SAFETY: the host reads `len` bytes at `ptr` from this module's
        // memory, bounds-checked, and keeps nothing pointing into it.
        unsafe { pitboss_log(text.as_ptr(), text.len()) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = text;
}

#[doc(hidden)]
pub mod __private {
    //! Support for [`crate::export_bot!`]; not a public API.
    use core::cell::UnsafeCell;

    /// The exchange buffer and the bot's state. wasm32 without threads is
    /// single-threaded, which is what makes the `Sync` claim true.
    #[repr(C, align(16))]
    pub struct Slot<T> {
        pub buf: UnsafeCell<[u8; crate::abi::BUFFER_LEN]>,
        pub state: UnsafeCell<Option<T>>,
    }

    // SAFETY: only instantiated on wasm32-unknown-unknown, which has no
    // threads (the host also disables the threads proposal).
    unsafe impl<T> Sync for Slot<T> {}

    impl<T> Default for Slot<T> {
        fn default() -> Self {
            Self::new()
        }
    }

    impl<T> Slot<T> {
        pub const fn new() -> Self {
            Slot { buf: UnsafeCell::new([0; crate::abi::BUFFER_LEN]), state: UnsafeCell::new(None) }
        }
    }

    /// Logs a panic as "panicked at FILE:LINE: MESSAGE" (at most 256
    /// bytes, no allocation), so the host's fault record says why the bot
    /// trapped.
    pub fn log_panic(info: &core::panic::PanicInfo<'_>) {
        use core::fmt::Write as _;
        struct Line {
            bytes: [u8; 256],
            len: usize,
        }
        impl core::fmt::Write for Line {
            fn write_str(&mut self, s: &str) -> core::fmt::Result {
                let mut n = s.len().min(self.bytes.len() - self.len);
                while !s.is_char_boundary(n) {
                    n -= 1; // Never cut a character: the line stays UTF-8.
                }
                self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
                self.len += n;
                Ok(())
            }
        }
        let mut line = Line { bytes: [0; 256], len: 0 };
        let _ = match info.location() {
            Some(at) => write!(line, "panicked at {}:{}: {}", at.file(), at.line(), info.message()),
            None => write!(line, "panicked: {}", info.message()),
        };
        crate::log(core::str::from_utf8(&line.bytes[..line.len]).unwrap_or("panicked"));
    }
}

/// Generates the ABI v6 exports for a [`Strategy`] type on `wasm32`:
/// `pitboss_abi_version`, `pitboss_buffer`, `pitboss_decide`,
/// `pitboss_wants_events` (from [`Strategy::observes`]),
/// `pitboss_defaults` (from [`Strategy::defaults`]),
/// `pitboss_decision_key` (from [`Strategy::decision_key`]),
/// `pitboss_count` (from [`Strategy::count`]) and a panic
/// handler (bots are `no_std` on wasm; not on `wasm32-wasip1`, where a bot
/// may use `std` and std's own handler prints to stderr, the bot's log).
/// `$init` builds the strategy on the first request; without it,
/// `export_bot!(MyBot)`, the strategy is `MyBot::default()`, so a struct
/// whose fields all have defaults (numbers, `Vec`s, `BTreeMap`s…) needs no
/// other line. Natively it expands to nothing.
///
/// ```
/// use pitboss_sdk::{Action, Strategy, View};
///
/// #[derive(Default)]
/// pub struct Counting {
///     hands: u32,
/// }
///
/// impl Strategy for Counting {
///     fn act(&mut self, _view: &View<'_>) -> Action {
///         self.hands += 1;
///         Action::Stand
///     }
/// }
///
/// pitboss_sdk::export_bot!(Counting);
/// ```
#[macro_export]
macro_rules! export_bot {
    ($ty:ty) => {
        $crate::export_bot!($ty, <$ty as ::core::default::Default>::default());
    };
    ($ty:ty, $init:expr) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            static SLOT: $crate::__private::Slot<$ty> = $crate::__private::Slot::new();

            #[unsafe(no_mangle)]
            pub extern "C" fn pitboss_abi_version() -> i32 {
                $crate::abi::ABI_VERSION as i32
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn pitboss_buffer() -> i32 {
                SLOT.buf.get() as usize as i32
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn pitboss_wants_events(variant: i32) -> i32 {
                // SAFETY: as in `pitboss_decide`.
                let state = unsafe { &mut *SLOT.state.get() };
                let strategy = state.get_or_insert_with(|| $init);
                let variant = u8::try_from(variant).ok().and_then($crate::Variant::from_code);
                variant.is_none_or(|v| $crate::Strategy::observes(strategy, v)) as i32
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn pitboss_defaults(variant: i32) -> i32 {
                // SAFETY: as in `pitboss_decide`.
                let state = unsafe { &mut *SLOT.state.get() };
                let strategy = state.get_or_insert_with(|| $init);
                match u8::try_from(variant).ok().and_then($crate::Variant::from_code) {
                    Some(v) => $crate::defaulted(strategy, v) as i32,
                    None => 0,
                }
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn pitboss_decision_key(variant: i32, kind: i32) -> i32 {
                // SAFETY: as in `pitboss_decide`.
                let state = unsafe { &mut *SLOT.state.get() };
                let strategy = state.get_or_insert_with(|| $init);
                let variant = u8::try_from(variant).ok().and_then($crate::Variant::from_code);
                let kind = u8::try_from(kind).ok().and_then($crate::Decision::from_code);
                match (variant, kind) {
                    (Some(v), Some(k)) => {
                        $crate::Strategy::decision_key(strategy, v, k).map_or(-1, |parts| parts as i32)
                    }
                    _ => -1,
                }
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn pitboss_count(variant: i32) -> i64 {
                // SAFETY: as in `pitboss_decide`.
                let state = unsafe { &mut *SLOT.state.get() };
                let strategy = state.get_or_insert_with(|| $init);
                match u8::try_from(variant).ok().and_then($crate::Variant::from_code) {
                    Some(v) => $crate::Strategy::count(strategy, v).map_or(0, |w| $crate::key::pack_weights(&w)),
                    None => 0,
                }
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn pitboss_decide(_kind: i32) -> i64 {
                // SAFETY: wasm32 is single-threaded and the host never
                // re-enters a bot, so these are the only live references.
                let (buf, state) = unsafe { (&*SLOT.buf.get(), &mut *SLOT.state.get()) };
                let strategy = state.get_or_insert_with(|| $init);
                $crate::dispatch(strategy, buf)
            }

            // On `wasm32-wasip1` a bot may use `std`, which brings its own
            // panic handler (it prints the message to stderr, which is the
            // bot's log); a `no_std` bot everywhere else needs this one.
            #[cfg(all(not(test), not(target_os = "wasi")))]
            #[panic_handler]
            fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
                $crate::__private::log_panic(info);
                core::arch::wasm32::unreachable()
            }
        };
    };
}
