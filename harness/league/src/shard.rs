//! Sharded leagues: `pitboss run --shard I/N` plays the sessions with
//! `s % N == I` and writes everything needed to merge them exactly;
//! `pitboss merge` checks the shards belong together and assembles the
//! very results file a single run writes. Integers that may pass 2^53
//! travel as decimal strings, so no JSON reader can round them. A shard
//! file embeds the league like a results file (and shares its record
//! types), so merging needs no league file either.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use pitboss_engine::Stats;
use pitboss_host::files;
use serde::{Deserialize, Serialize};

use crate::file::Skipped;
use crate::league::{self};
use crate::results::{BotSource, LeagueResult, ResultsFile};
use crate::results::{HandRecord, KeyRound};
use crate::results::{LeagueRecord, SCHEMA_VERSION};
use crate::session::{SessionBot, SessionResult};
use crate::tally::FaultRecord;
use crate::tally::Tally;

/// A shard file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardFile {
    /// The results schema version ([`SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// "I/N".
    pub shard: String,
    /// The league, embedded as in a results file.
    pub league: LeagueRecord,
    /// The bots and their hashes.
    pub bots: Vec<BotSource>,
    /// The sessions this shard played.
    pub sessions: Vec<ShardSession>,
    /// Folder and glob entries left out, for the command to warn about
    /// (not written).
    #[serde(skip)]
    pub skipped: Vec<Skipped>,
}

/// One session, losslessly.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardSession {
    /// 0-based.
    pub session: u64,
    /// Shoe seed.
    pub seed: u64,
    /// Per bot.
    pub bots: Vec<ShardBot>,
    /// Σ net_i × net_j, row-major, as decimal strings.
    pub pairs: Vec<String>,
    /// The rounds with the largest swings.
    pub key_rounds: Vec<KeyRound>,
    /// The stored hands, as in a results file.
    pub hands: Option<Vec<HandRecord>>,
}

/// One bot's session, losslessly.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardBot {
    /// Stats sums: rounds, wagered, net, net², net×bet, bet², faults.
    pub stats: [String; 7],
    /// Net chips.
    pub net: i64,
    /// Rounds its table played.
    pub rounds: u64,
    /// Disqualified.
    pub disqualified: bool,
    /// Ended unable to stake the minimum.
    pub broke: bool,
    /// First faults.
    pub fault_log: Vec<FaultRecord>,
    /// Net chips at the league's sample rounds.
    pub series: Vec<i64>,
    /// Counts.
    pub tally: Tally,
}

fn to_data(s: &SessionResult) -> ShardSession {
    ShardSession {
        session: s.session,
        seed: s.seed,
        pairs: s.pairs.iter().map(i128::to_string).collect(),
        bots: s
            .bots
            .iter()
            .map(|b| {
                let t = &b.stats;
                ShardBot {
                    stats: [
                        t.rounds.to_string(),
                        t.wagered.to_string(),
                        t.net.to_string(),
                        t.net_sq.to_string(),
                        t.net_bet.to_string(),
                        t.bet_sq.to_string(),
                        t.faults.to_string(),
                    ],
                    net: b.net,
                    rounds: b.rounds,
                    disqualified: b.disqualified,
                    broke: b.broke,
                    fault_log: b.fault_log.clone(),
                    series: b.series.clone(),
                    tally: b.tally,
                }
            })
            .collect(),
        key_rounds: s.key_rounds.clone(),
        hands: s.hands.clone(),
    }
}

fn from_data(d: &ShardSession) -> Result<SessionResult> {
    let big = |s: &String| s.parse::<i128>().with_context(|| format!("`{s}` is not an integer"));
    let mut bots = Vec::with_capacity(d.bots.len());
    for b in &d.bots {
        let s = &b.stats;
        let stats = Stats {
            rounds: s[0].parse().with_context(|| format!("`{}` is not a count", s[0]))?,
            wagered: big(&s[1])?,
            net: big(&s[2])?,
            net_sq: big(&s[3])?,
            net_bet: big(&s[4])?,
            bet_sq: big(&s[5])?,
            faults: s[6].parse().with_context(|| format!("`{}` is not a count", s[6]))?,
        };
        bots.push(SessionBot {
            stats,
            net: b.net,
            rounds: b.rounds,
            disqualified: b.disqualified,
            broke: b.broke,
            fault_log: b.fault_log.clone(),
            series: b.series.clone(),
            tally: b.tally,
        });
    }
    let pairs = d.pairs.iter().map(big).collect::<Result<Vec<_>>>()?;
    Ok(SessionResult {
        session: d.session,
        seed: d.seed,
        bots,
        pairs,
        key_rounds: d.key_rounds.clone(),
        hands: d.hands.clone(),
    })
}

/// Checks that a session read from a shard file agrees with its league
/// and with itself: the figures the standings are built from (net, the
/// integer sums, the balance samples, the paired sums) must tell one story,
/// so a hand-edited `net` is refused rather than merged.
fn consistent(s: &SessionResult, league: &crate::file::LeagueFile, bots: usize) -> std::result::Result<(), String> {
    use crate::results::{EVENTS_PER_ROUND, KEY_ROUNDS, OPENING_ROUNDS, STORED_SESSIONS};
    use crate::session::series_rounds;
    use crate::tally::FAULT_LOG_CAP;
    if s.session >= league.sessions || s.seed != pitboss_engine::derive_seed(league.seed, s.session) {
        return Err(format!("seed {} is not the league's seed for session {}", s.seed, s.session));
    }
    if s.bots.len() != bots || s.pairs.len() != bots * bots || s.key_rounds.len() > KEY_ROUNDS {
        return Err(format!(
            "it has {} bots and {} paired sums for a league of {bots} bots",
            s.bots.len(),
            s.pairs.len()
        ));
    }
    if s.key_rounds.iter().any(|k| k.round == 0 || k.round > league.rounds) {
        return Err("a key round lies outside the session".into());
    }
    if s.hands.as_ref().is_some_and(|h| {
        h.len() > KEY_ROUNDS + OPENING_ROUNDS as usize
            || h.iter().any(|h| h.round == 0 || h.round > league.rounds || h.events.len() > EVENTS_PER_ROUND)
    }) {
        return Err("its stored hands are too many, too long, or outside the session".into());
    }
    if s.hands.is_some() != (s.session < STORED_SESSIONS) {
        return Err(format!("hands are stored for sessions 0 to {} only", STORED_SESSIONS - 1));
    }
    let samples = series_rounds(league.rounds).len();
    for (i, b) in s.bots.iter().enumerate() {
        let t = &b.stats;
        let problem = if t.net != i128::from(b.net) {
            Some(format!("net {} but its integer sums say {}", b.net, t.net))
        } else if b.series.len() != samples || b.series.last().is_some_and(|last| *last != b.net) {
            Some(format!("its {} balance samples do not end at its net {}", b.series.len(), b.net))
        } else if b.rounds != league.rounds || t.rounds > b.rounds {
            Some(format!("{} rounds played, {} with a bet, in a session of {}", b.rounds, t.rounds, league.rounds))
        } else if i128::from(b.net) < -i128::from(league.bankroll) || t.wagered < 0 || t.net_sq < 0 || t.bet_sq < 0 {
            Some("it lost more than its bankroll, or a sum of squares is negative".into())
        } else if s.pairs[i * bots + i] != t.net_sq || (b.fault_log.len() as u64) > t.faults.min(FAULT_LOG_CAP as u64) {
            Some("its paired sums or fault log do not match its figures".into())
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(format!("bot {i}: {problem}"));
        }
    }
    for i in 0..bots {
        for j in 0..i {
            if s.pairs[i * bots + j] != s.pairs[j * bots + i] {
                return Err(format!("paired sums of bots {i} and {j} differ"));
            }
        }
    }
    Ok(())
}

/// Parses "I/N" (0 ≤ I < N).
pub fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let parsed = text.split_once('/').and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((i, n)) if n > 0 && i < n => Ok((i, n)),
        _ => bail!("--shard `{text}` is not I/N with 0 <= I < N (e.g. 0/4)"),
    }
}

/// Runs one shard of the league at `path`.
pub fn run_shard(path: &Path, shard: (u64, u64), threads: Option<usize>) -> Result<ShardFile> {
    let league = crate::file::parse(path)?;
    let sandbox = crate::sandbox()?;
    let played = league::run_sessions(&league, path, &sandbox, threads, &|_| (), Some(shard))?;
    Ok(ShardFile {
        schema_version: SCHEMA_VERSION,
        shard: format!("{}/{}", shard.0, shard.1),
        league: league.record()?,
        bots: played.sources,
        sessions: played.sessions.iter().map(to_data).collect(),
        skipped: played.skipped,
    })
}

/// Merges shard files into the results of a single run. The league is the
/// one the shards embed: no league file is read.
pub fn merge(files: &[PathBuf]) -> Result<(LeagueResult, ResultsFile)> {
    let mut shards = Vec::new();
    for f in files {
        let text = files::read_text(f, files::Kind::Shard)?;
        let shard: ShardFile =
            serde_json::from_str(&text).with_context(|| format!("{} is not a Pitboss shard file", f.display()))?;
        if shard.schema_version != SCHEMA_VERSION {
            bail!(
                "{} is a shard of results schema {}; this Pitboss merges schema {SCHEMA_VERSION}: re-run the shard",
                f.display(),
                shard.schema_version
            );
        }
        shards.push((f, shard));
    }
    let Some((first_path, first)) = shards.first() else { bail!("no shard files given") };
    for (f, s) in &shards[1..] {
        if s.league != first.league || s.bots != first.bots {
            bail!("{} and {} come from different leagues or bot files", first_path.display(), f.display());
        }
    }
    let embedded = &first.league;
    if crate::bots::sha256_hex(embedded.text.as_bytes()) != embedded.sha256 {
        bail!("{}: the embedded league text does not match its SHA-256", first_path.display());
    }
    let origin = format!("{} (the league embedded in {})", embedded.file, first_path.display());
    let league = crate::file::parse_text(&embedded.text, &embedded.file, &origin)?;
    let mut sessions: Vec<SessionResult> =
        shards.iter().flat_map(|(_, s)| s.sessions.iter().map(from_data)).collect::<Result<_>>()?;
    for s in &sessions {
        consistent(s, &league, first.bots.len())
            .map_err(|why| anyhow::anyhow!("session {} of the shards does not add up: {why}", s.session))?;
    }
    sessions.sort_by_key(|s| s.session);
    let expected: Vec<u64> = (0..league.sessions).collect();
    let got: Vec<u64> = sessions.iter().map(|s| s.session).collect();
    if got != expected {
        bail!(
            "the shards hold sessions {got:?}, but the league has sessions 0..{}: some are missing or doubled",
            league.sessions
        );
    }
    league::assemble(&league, first.bots.clone(), &sessions)
}
