//! `mimic-dealer`: plays the dealer's own rule — hit below 17, never double,
//! split, surrender or insure. It overrides nothing: every decision is the
//! SDK's default, which makes it the smallest possible bot.

#![cfg_attr(target_arch = "wasm32", no_std)]

/// The dealer's rule, from the SDK's defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mimic;

impl pitboss_sdk::Strategy for Mimic {}

pitboss_sdk::export_bot!(Mimic, Mimic);
