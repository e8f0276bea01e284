//! One session's figures, as play produces them and shard files keep
//! them losslessly: the integer sums as decimal strings (an `i128` does
//! not survive JSON numbers), everything else as results write it.

use pitboss_engine::Stats;
use serde::{Deserialize, Serialize};

use crate::cost::Cost;
use crate::luck::LuckSums;
use crate::pairs::{Layout, PAIRED_BOTS};
use crate::schema::{HandRecord, KeyRound, LeagueSpec};
use crate::seating::seating_for;
use crate::tally::{FaultRecord, Tally};

/// What one session produced, indexed by league bot; a shard file
/// keeps it as is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionResult {
    /// 0-based session number.
    pub session: u64,
    /// The shoe seed every table of the session was dealt from.
    pub seed: u64,
    /// Per bot (absent bots have empty stats).
    pub bots: Vec<SessionBot>,
    /// Σ over rounds of net_i × net_j, of the pairs the session keeps, as
    /// [`Layout`] lays them out (decimal strings in JSON).
    #[serde(with = "decimal_i128s")]
    pub pairs: Vec<i128>,
    /// The rounds with the largest swings.
    pub key_rounds: Vec<KeyRound>,
    /// The events of the key rounds and of table 0's opening rounds
    /// (sessions before [`crate::STORED_SESSIONS`] only).
    pub hands: Option<Vec<HandRecord>>,
}

impl SessionResult {
    /// Checks that a session read from a shard file agrees with its league
    /// and with itself: the figures the standings are built from (net, the
    /// integer sums, the balance samples, the paired sums) must tell one story,
    /// so a hand-edited `net` is refused rather than merged.
    pub fn check(&self, league: &LeagueSpec, bots: usize) -> Result<(), String> {
        use crate::tally::FAULT_LOG_CAP;
        use crate::{EVENTS_PER_ROUND, KEY_ROUNDS, OPENING_ROUNDS, STORED_SESSIONS, series_rounds};
        let s = self;
        if s.session >= league.sessions || s.seed != pitboss_engine::derive_seed(league.seed, s.session) {
            return Err(format!("seed {} is not the league's seed for session {}", s.seed, s.session));
        }
        let seating = if bots > PAIRED_BOTS {
            let rules = league.rules.rules(&league.variant).map_err(|e| e.to_string())?;
            seating_for(league.format, bots, &rules, s.session)
        } else {
            Vec::new()
        };
        let layout = Layout::new(bots, &seating);
        if s.bots.len() != bots || s.pairs.len() != layout.len() || s.key_rounds.len() > KEY_ROUNDS {
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
            } else if i128::from(b.net) < -i128::from(league.bankroll) || t.wagered < 0 || t.net_sq < 0 || t.bet_sq < 0
            {
                Some("it lost more than its bankroll, or a sum of squares is negative".into())
            } else if layout.index(i, i).and_then(|k| s.pairs.get(k)) != Some(&t.net_sq)
                || (b.fault_log.len() as u64) > t.faults.min(FAULT_LOG_CAP as u64)
                || !crate::tally::fault_texts_fit(&b.fault_log)
            {
                Some("its paired sums or fault log do not match its figures".into())
            } else if b.cost.is_some_and(|c| !c.adds_up()) {
                Some("its fuel does not add up (its largest decision against its sum and decisions)".into())
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(format!("bot {i}: {problem}"));
            }
        }
        if layout.mirrored(&seating).any(|(upper, lower)| s.pairs[upper] != s.pairs[lower]) {
            return Err("the paired sums of two bots differ in order".into());
        }
        Ok(())
    }
}

/// One bot's session.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionBot {
    /// Statistics (integer sums), in JSON as seven decimal strings:
    /// rounds, wagered, net, net², net×bet, bet², faults.
    #[serde(with = "stats_strings")]
    pub stats: Stats,
    /// Net chips this session.
    pub net: i64,
    /// Rounds its table played (bets or not).
    pub rounds: u64,
    /// Reached the fault limit.
    pub disqualified: bool,
    /// Ended the session unable to stake the table minimum.
    pub broke: bool,
    /// Its first faults.
    pub fault_log: Vec<FaultRecord>,
    /// Net chips after each of the league's `series_rounds`.
    pub series: Vec<i64>,
    /// What it did and how its hands ended.
    pub tally: Tally,
    /// Its luck-adjusted round results, summed (leagues with `luck`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<LuckSums>,
    /// The fuel of its decisions (wasm bots; absent for builtins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

/// `Vec<i128>` as decimal strings.
mod decimal_i128s {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[i128], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(i128::to_string))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i128>, D::Error> {
        let text = Vec::<String>::deserialize(d)?;
        text.iter().map(|t| t.parse().map_err(|_| D::Error::custom(format!("`{t}` is not an integer")))).collect()
    }
}

/// [`Stats`] as `[rounds, wagered, net, net², net×bet, bet², faults]`,
/// each a decimal string.
mod stats_strings {
    use pitboss_engine::Stats;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(t: &Stats, s: S) -> Result<S::Ok, S::Error> {
        [
            t.rounds.to_string(),
            t.wagered.to_string(),
            t.net.to_string(),
            t.net_sq.to_string(),
            t.net_bet.to_string(),
            t.bet_sq.to_string(),
            t.faults.to_string(),
        ]
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Stats, D::Error> {
        let s = <[String; 7]>::deserialize(d)?;
        let count = |t: &String| t.parse::<u64>().map_err(|_| D::Error::custom(format!("`{t}` is not a count")));
        let big = |t: &String| t.parse::<i128>().map_err(|_| D::Error::custom(format!("`{t}` is not an integer")));
        Ok(Stats {
            rounds: count(&s[0])?,
            wagered: big(&s[1])?,
            net: big(&s[2])?,
            net_sq: big(&s[3])?,
            net_bet: big(&s[4])?,
            bet_sq: big(&s[5])?,
            faults: count(&s[6])?,
        })
    }
}
