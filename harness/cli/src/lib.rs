//! The `pitboss` command's own code: the text tables it prints.
//! Everything about competitions lives in `pitboss_league`, the HTML
//! report in `pitboss_report`, scaffolding new bots in `pitboss_scaffold`;
//! `main.rs` parses arguments and prints.

pub mod tables;
