//! The `pitboss` command: its argument parser ([`Cli`], one clap `Args`
//! per command under `commands/`), the dispatch to each command's `run`,
//! and the text tables it prints. Argument parsing and printing only:
//! everything about competitions lives in `pitboss_league`, the HTML
//! report in `pitboss_report`, scaffolding new bots in `pitboss_scaffold`.
//! `main.rs` parses the command line and calls [`Cli::run`]; the parser is
//! public so the docs' test can check every `pitboss …` line they show.
// The arguments' doc comments are clap's `--help` text, written for a
// terminal: a `[limits]` or a bare URL there is meant literally.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::bare_urls)]

// The commands name this crate's tables as `pitboss_cli::tables`.
extern crate self as pitboss_cli;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// Prints a line to stdout; a closed pipe (`pitboss … | head`) ends the
/// program quietly instead of panicking.
macro_rules! out {
    () => { out_raw!("\n") };
    ($($arg:tt)*) => { out_raw!("{}\n", format_args!($($arg)*)) };
}

/// Prints to stdout, exiting quietly on a closed pipe and with an error
/// on any other failed write (`pitboss … > /dev/full`).
macro_rules! out_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("pitboss: error: cannot write to standard output: {e}");
            std::process::exit(1);
        }
    }};
}

mod commands;
mod common;
pub mod tables;

use commands::{bench, check, coach, merge, new, play, replay, report, rules, run, season, strategy, verify};
use commands::{serve, standings, submissions, submit};

#[derive(Parser)]
#[command(name = "pitboss", version, about = "A tournament harness for blackjack strategy bots written in WebAssembly")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Play(play::Args),
    Check(check::Args),
    Rules(rules::Args),
    Strategy(strategy::Args),
    Coach(coach::Args),
    Bench(bench::Args),
    Season(season::Args),
    Replay(replay::Args),
    Verify(verify::Args),
    Report(report::Args),
    New(new::Args),
    Run(run::Args),
    Merge(merge::Args),
    Serve(serve::Args),
    Submit(submit::Args),
    Standings(standings::Args),
    Submissions(submissions::Args),
}

impl Cli {
    /// Runs the parsed command and prints any error as escaped lines.
    pub fn run(self) -> ExitCode {
        match dispatch(self.command) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("pitboss: error: {}", quoted(&e));
                ExitCode::FAILURE
            }
        }
    }
}

/// Runs the command; the status is a failure where `check` says some bot
/// failed or `verify` found a difference (errors are the caller's to print).
fn dispatch(command: Command) -> Result<ExitCode> {
    if !matches!(
        command,
        Command::New(_)
            | Command::Report(_)
            | Command::Merge(_)
            | Command::Rules(_)
            | Command::Strategy(_)
            | Command::Submit(_)
            | Command::Submissions(_)
            | Command::Standings(_)
    ) {
        // Commands that load bots warn once, up front, about the cache.
        common::sandbox()?;
    }
    match command {
        Command::Check(args) => return Ok(if check::run(&args)? { ExitCode::SUCCESS } else { ExitCode::FAILURE }),
        Command::Verify(args) => return verify::run(args),
        Command::Submit(args) => return submit::run(args),
        Command::Play(args) => play::run(args)?,
        Command::Rules(args) => rules::run(args)?,
        Command::Strategy(args) => strategy::run(args)?,
        Command::Coach(args) => coach::run(args)?,
        Command::Bench(args) => bench::run(args)?,
        Command::Season(args) => season::run(args)?,
        Command::Replay(args) => replay::run(args)?,
        Command::Report(args) => report::run(args)?,
        Command::New(args) => new::run(args)?,
        Command::Run(args) => run::run(args)?,
        Command::Merge(args) => merge::run(args)?,
        Command::Serve(args) => serve::run(args)?,
        Command::Standings(args) => standings::run(args)?,
        Command::Submissions(args) => submissions::run(args)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// An error as one line of at most about a thousand characters, control
/// bytes escaped: errors quote paths, file contents and bot output, all of
/// which may be hostile.
fn quoted(e: &anyhow::Error) -> String {
    // An error may list several problems, one a line (every bot of a
    // league that cannot play): each line is quoted on its own.
    let text = format!("{e:#}");
    let mut lines: Vec<String> =
        text.lines().take(MAX_ERROR_LINES).map(|l| pitboss_host::text::excerpt(l, 1_000)).collect();
    if text.lines().count() > MAX_ERROR_LINES {
        lines.push(format!("  … and {} more", text.lines().count() - MAX_ERROR_LINES));
    }
    lines.join("\n")
}

/// Lines of one error printed at most.
const MAX_ERROR_LINES: usize = 100;
