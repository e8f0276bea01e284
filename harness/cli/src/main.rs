//! `pitboss`: play blackjack bots against the dealer and run leagues.
//! The parser and every command live in the library (`pitboss_cli`).

use std::process::ExitCode;

use clap::Parser;
use pitboss_cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    pitboss_host::on_compile(|name, bytes| {
        eprintln!(
            "pitboss: compiling {name} ({:.1} MiB of wasm; about two seconds of CPU a MiB, once: later runs find it in \
             the compile cache)",
            bytes as f64 / (1 << 20) as f64
        )
    });
    cli.run()
}
