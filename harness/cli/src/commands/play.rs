//! `pitboss play`: bots at one table for seeded (or stacked) rounds, the
//! results table, a replay command for each bot's first fault.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use pitboss_cli::tables;
use pitboss_league::PlayOptions;
use pitboss_league::file::LimitChoice;
use pitboss_results::output;

use crate::common::{LimitFlags, warn_stale};

/// Seat bots at one table and play seeded (or stacked) rounds.
#[derive(clap::Args)]
pub struct Args {
    /// Rule set: north-american, swedish, danish or norwegian-home.
    #[arg(long, default_value = "north-american")]
    variant: String,
    /// A bot: path to a .wasm file (or a Python bot's .py source), or builtin:basic, builtin:hilo, builtin:random, builtin:mimic-dealer, builtin:never-bust, builtin:template. Repeat for more seats.
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// Rounds to play, 1 to 10^10 [default: 100000; with --shoe, until the shoe runs out].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=pitboss_league::file::MAX_ROUNDS))]
    rounds: Option<u64>,
    /// Seed of the shoe.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stacked shoe: a text file of ranks in deal order (A 2-9 T J Q K, # comments).
    #[arg(long)]
    shoe: Option<PathBuf>,
    /// Chips each bot starts with, 1 to 10^12.
    #[arg(long, default_value_t = pitboss_league::DEFAULT_BANKROLL, value_parser = clap::value_parser!(i64).range(1..=pitboss_engine::MAX_BANKROLL))]
    bankroll: i64,
    /// Print every deal, decision and payout.
    #[arg(long)]
    transcript: bool,
    /// Print round R's transcript alone (the rounds before it are played,
    /// unprinted; --rounds defaults to R).
    #[arg(long, value_name = "R", conflicts_with = "json", value_parser = clap::value_parser!(u64).range(1..=pitboss_league::file::MAX_ROUNDS))]
    only_round: Option<u64>,
    /// Disqualify a bot at this many faults (0: never).
    #[arg(long, default_value_t = pitboss_league::file::DEFAULT_FAULT_LIMIT)]
    fault_limit: u64,
    /// Also write the results as JSON to this file, with each bot's tally
    /// (counted only then).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Play under this league file's [limits] (a Python or Go bot's
    /// league.toml); its rules and bots are not used.
    #[arg(long, value_name = "FILE.toml")]
    league: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitFlags,
}

/// Plays the match and prints its results.
pub fn run(args: Args) -> Result<()> {
    let Args { variant, bots, rounds, seed, shoe, bankroll, transcript, only_round, fault_limit, json, league, limits } =
        args;
    if let (Some(r), Some(n)) = (only_round, rounds)
        && r > n
    {
        anyhow::bail!("--only-round {r} is past --rounds {n}");
    }
    let rounds = rounds.or(only_round.filter(|_| shoe.is_none()));
    let transcript = transcript || only_round.is_some();
    let given = league.is_some();
    let limits = LimitChoice { league, raised: limits.raised() };
    for bot in bots.iter().filter(|b| !b.starts_with("builtin:")) {
        warn_stale(std::path::Path::new(bot));
    }
    let tally = json.is_some();
    let opts = PlayOptions { variant, bots, rounds, seed, shoe, bankroll, transcript, fault_limit, limits, tally };
    let mut stdout = std::io::stdout().lock();
    let mut one = only_round.map(|round| OnlyRound::new(std::io::stdout().lock(), round));
    let out: &mut dyn Write = match &mut one {
        Some(one) => one,
        None => &mut stdout,
    };
    let (report, elapsed) = match pitboss_league::play(&opts, out) {
        Ok(played) => played,
        Err(e) => {
            // A bot over a cap its scaffold's league.toml raises: say so.
            let text = format!("{e:#}");
            let hint = opts
                .bots
                .iter()
                .find_map(|b| crate::common::league_beside(std::path::Path::new(b), Some(&text), given, "play --bot"));
            return Err(match hint {
                Some(hint) => anyhow::anyhow!("{text}\n{hint}"),
                None => e,
            });
        }
    };
    if let (Some(one), Some(round)) = (one, only_round) {
        if !one.finish()? {
            anyhow::bail!("--only-round {round}: the match ended after {} rounds", report.table.rounds);
        }
        eprintln!("round {round} of {} played", report.table.rounds);
        return Ok(());
    }
    out!("{}", tables::results_table(&report.table.bots));
    for bot in &report.table.bots {
        if let Some(f) = bot.fault_log.first() {
            out!(
                "{}: {} fault{}, the first in round {}, {}: {} ({})\n  replay: {}",
                pitboss_host::text::excerpt(&bot.name, 200),
                bot.faults,
                if bot.faults == 1 { "" } else { "s" },
                f.round,
                f.decision,
                pitboss_host::text::excerpt(&f.message, 500),
                f.kind,
                pitboss_league::replay_command(&opts, f.round)
            );
        }
    }
    if let Some(why) = &report.table.stopped {
        out!("stopped after {} rounds: {why}", report.table.rounds);
    }
    let secs = elapsed.as_secs_f64().max(1e-9);
    eprintln!("{} rounds in {:.2} s ({:.0} rounds/s)", report.table.rounds, secs, report.table.rounds as f64 / secs);
    if let Some(path) = json {
        output::write_json(&path, &report)?;
    }
    Ok(())
}

/// A transcript's lines of one round alone: from its `-- round R` line
/// to the next round's (a full shuffle's line, printed just before the
/// round it opens, goes with that round).
struct OnlyRound<W> {
    out: W,
    round: u64,
    /// The round the lines are of, as far as read.
    at: u64,
    line: Vec<u8>,
    /// The round's header was met.
    met: bool,
}

impl<W: Write> OnlyRound<W> {
    fn new(out: W, round: u64) -> OnlyRound<W> {
        OnlyRound { out, round, at: 0, line: Vec::new(), met: false }
    }

    fn take_line(&mut self) -> std::io::Result<()> {
        let line = std::mem::take(&mut self.line);
        if let Some(n) = line.strip_prefix(b"-- round ") {
            let n = std::str::from_utf8(n).ok().and_then(|n| n.trim_end().parse().ok());
            self.at = n.unwrap_or(self.at);
        }
        let of = if line.starts_with(b"shuffle (full)") { self.at + 1 } else { self.at };
        if of == self.round {
            self.met |= line.starts_with(b"-- round ");
            self.out.write_all(&line)?;
        }
        Ok(())
    }

    /// Prints what is left; whether the round was played.
    fn finish(mut self) -> std::io::Result<bool> {
        if !self.line.is_empty() {
            self.line.push(b'\n');
            self.take_line()?;
        }
        self.out.flush()?;
        Ok(self.met)
    }
}

impl<W: Write> Write for OnlyRound<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            self.line.push(b);
            if b == b'\n' {
                self.take_line()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    #[test]
    fn only_round_keeps_one_round_and_the_shuffle_that_opens_it() {
        let text = "shuffle (full)\n-- round 1\nbox 0: bets 2\nshuffle (full)\n-- round 2\nbox 0: bets 4\n\
                    shuffle (discards)\n-- round 3\nbox 0: bets 6";
        for (round, shown, met) in [
            (1, "shuffle (full)\n-- round 1\nbox 0: bets 2\n", true),
            (2, "shuffle (full)\n-- round 2\nbox 0: bets 4\nshuffle (discards)\n", true),
            (3, "-- round 3\nbox 0: bets 6\n", true),
            (4, "", false),
        ] {
            let mut out = Vec::new();
            let mut one = super::OnlyRound::new(&mut out, round);
            for chunk in text.as_bytes().chunks(5) {
                one.write_all(chunk).unwrap();
            }
            assert_eq!(one.finish().unwrap(), met);
            assert_eq!(String::from_utf8(out).unwrap(), shown, "round {round}");
        }
    }
}
