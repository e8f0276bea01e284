//! One module per `pitboss` command: its arguments (a clap `Args`, whose
//! doc comment is the command's help) and a `run` that calls the library
//! and prints.

pub mod bench;
pub mod check;
pub mod cluster;
pub mod coach;
pub mod merge;
pub mod new;
pub mod play;
pub mod replay;
pub mod report;
pub mod rules;
pub mod run;
pub mod season;
pub mod serve;
pub mod standings;
pub mod strategy;
pub mod submissions;
pub mod submit;
pub mod verify;
