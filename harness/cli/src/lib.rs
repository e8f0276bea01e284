//! The `pitboss` command's own code: the text tables it prints and the
//! project scaffolding of `pitboss new`. Everything about competitions
//! lives in `pitboss_league`, the HTML report in `pitboss_report`;
//! `main.rs` parses arguments and prints.

pub mod new;
pub mod tables;
