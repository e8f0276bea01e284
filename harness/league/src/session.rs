//! One session of a league: its tables, all dealt from the session's seed,
//! played in lockstep round by round, so each bot's per-round result can be
//! paired with every other bot's (the paired difference of a duplicate
//! format is far tighter than two separate intervals).

use std::sync::Arc;

use anyhow::Result;
use pitboss_engine::{Recorder, Rules, ShoeExhausted, Table, TableEvent, derive_seed};
use pitboss_results::luck::LuckSums;
use pitboss_strategy::luck::LuckTable;
use rayon::prelude::*;

use crate::bots::Bot;
use crate::file::LeagueFile;
use crate::luck::LuckLog;
use crate::setup::TableSpec;
use pitboss_results::pairs::Layout;
pub use pitboss_results::seating::{Seating, rotated_seating};
pub use pitboss_results::session::{SessionBot, SessionResult};
use pitboss_results::tally::SeatLog;
pub use pitboss_results::{EVENTS_PER_ROUND, KEY_ROUNDS, LOG_BYTES_PER_ROUND, OPENING_ROUNDS, STORED_SESSIONS};
pub use pitboss_results::{HandRecord, KeyRound, series_rounds};

/// Events a round's buffer is made for at first (a full table's round has
/// about a hundred), so it rarely grows.
const ROUND_CAPACITY: usize = 128;

/// Rounds each table plays between two merges of a session's per-round
/// sums: large enough to amortise handing tables to threads, small enough
/// that the balances kept meanwhile stay a few hundred KiB.
const BLOCK: u64 = 2048;

/// Keeps the `KEY_ROUNDS` largest swings, largest first, earlier rounds
/// (then lower tables) first among equals.
fn keep_key_round(keys: &mut Vec<KeyRound>, key: KeyRound) {
    if keys.len() == KEY_ROUNDS && keys.last().is_some_and(|k| k.swing >= key.swing) {
        return;
    }
    let at = keys.iter().position(|k| k.swing < key.swing).unwrap_or(keys.len());
    keys.insert(at, key);
    keys.truncate(KEY_ROUNDS);
}

/// What every session of a league plays with, so that playing a session
/// and replaying one of its tables take the same few things: the rules,
/// the bots (in league order), the league's seed, the rounds, chips and
/// fault limit, and the luck table where the league measures luck.
#[derive(Clone, Copy)]
pub struct LeaguePlay<'a> {
    /// The rule set, overrides applied.
    pub rules: &'a Rules,
    /// The bots, in league order; a table's seats index them.
    pub bots: &'a [(String, Bot)],
    /// The league's seed: session `s` deals from `derive_seed(seed, s)`.
    pub seed: u64,
    /// Rounds of each session.
    pub rounds: u64,
    /// Chips each bot starts a session with.
    pub bankroll: i64,
    /// Faults after which a bot is disqualified; 0 = never.
    pub fault_limit: u64,
    /// Each bot's luck-adjusted round results are summed too (`crate::luck`).
    pub luck: Option<&'a Arc<LuckTable>>,
}

impl<'a> LeaguePlay<'a> {
    /// The play of `league` (its seed, rounds, bankroll and fault limit)
    /// with these rules, bots and luck table.
    pub fn of(
        league: &LeagueFile,
        rules: &'a Rules,
        bots: &'a [(String, Bot)],
        luck: Option<&'a Arc<LuckTable>>,
    ) -> LeaguePlay<'a> {
        let (seed, rounds, bankroll, fault_limit) = (league.seed, league.rounds, league.bankroll, league.fault_limit);
        LeaguePlay { rules, bots, seed, rounds, bankroll, fault_limit, luck }
    }

    /// The seed session `session`'s tables are dealt from.
    pub fn session_seed(&self, session: u64) -> u64 {
        derive_seed(self.seed, session)
    }

    /// Everything but the bots that decides a table of `session`.
    fn table(&self, session: u64) -> TableSpec<'a> {
        let (rules, bankroll, fault_limit) = (self.rules, self.bankroll, self.fault_limit);
        TableSpec { rules, seed: self.session_seed(session), stacked: None, bankroll, fault_limit }
    }
}

/// Plays session `session` of `play`: `seating` tables of its bots, each
/// bot starting with its bankroll, every table dealt from the session's
/// seed; `progress` hears how many more rounds are done, now and then.
pub fn play_session(
    play: &LeaguePlay<'_>,
    session: u64,
    seating: &Seating,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SessionResult> {
    let LeaguePlay { rules, bots, rounds, bankroll, luck, .. } = *play;
    let spec = play.table(session);
    let seed = spec.seed;
    let mut tables = seating.iter().map(|seats| spec.seat(bots, seats)).collect::<Result<Vec<_>>>()?;
    let per = rules.boxes_per_player as usize;
    let stored = session < STORED_SESSIONS;
    let mut captures: Vec<TableRec> = seating
        .iter()
        .map(|seats| TableRec {
            capture: Capture {
                on: stored,
                events: Vec::with_capacity(if stored { ROUND_CAPACITY } else { 0 }),
                ..Capture::default()
            },
            luck: luck.map(|t| Luck::new(t, rules, seats.len())),
        })
        .collect();
    let mut logs: Vec<SeatLog<'_, TableRec>> =
        seating.iter().zip(captures.iter_mut()).map(|(seats, c)| SeatLog::new(c, seats.len(), per)).collect();
    let mut sums = Sums::new(bots.len(), seating, bankroll, rounds);
    // Tables never affect each other, so each block of rounds is played on
    // all tables in parallel, each writing its seats' balance after every
    // round; the per-round sums are then taken in (round, table) order, so
    // the thread count never changes a byte.
    let mut balances: Vec<Vec<i64>> = seating.iter().map(|s| vec![0; BLOCK as usize * s.len()]).collect();
    let mut done = 0;
    while done < rounds {
        let len = BLOCK.min(rounds - done);
        let block = Block { done, len, keys: &sums.key_rounds };
        let failed = tables
            .par_iter_mut()
            .zip(logs.par_iter_mut())
            .zip(balances.par_iter_mut())
            .zip(sums.before.par_iter())
            .enumerate()
            .filter_map(|(t, (((table, log), out), start))| block.play(t, table, log, out, start).err())
            .min_by_key(|(r, t, _)| (*r, *t));
        if let Some((r, _, e)) = failed {
            return Err(anyhow::Error::new(e).context(format!("session {session}, round {}", done + r as u64 + 1)));
        }
        for r in 0..len as usize {
            sums.add_round(done + r as u64, seating, &balances, r);
        }
        for (t, log) in logs.iter_mut().enumerate() {
            log.inner().capture.forget_all_but(t, &sums.key_rounds);
        }
        done += len;
        progress(len);
    }
    let series = std::mem::take(&mut sums.series);
    let key_rounds = std::mem::take(&mut sums.key_rounds);
    let mut result = SessionResult {
        session,
        seed,
        bots: vec![SessionBot::default(); bots.len()],
        pairs: sums.pairs(seating),
        key_rounds,
        hands: None,
    };
    for (t, ((table, seats), log)) in tables.iter().zip(seating).zip(logs).enumerate() {
        session_bots(&mut result, t, table, seats, log, bankroll);
    }
    for (bot, s) in result.bots.iter_mut().zip(series) {
        bot.series = s;
    }
    if stored {
        let captures: Vec<&Capture> = captures.iter().map(|c| &c.capture).collect();
        result.hands = Some(stored_hands(&captures, &result.key_rounds, rounds));
    }
    Ok(result)
}

/// Each bot of table `t` as the session ends: its statistics, chips,
/// status, tally and first faults.
fn session_bots(
    result: &mut SessionResult,
    t: usize,
    table: &Table,
    seats: &[usize],
    mut log: SeatLog<'_, TableRec>,
    bankroll: i64,
) {
    let luck = log.inner().luck.as_ref().map(|l| l.sums.clone());
    for (k, ((seat, &b), (tally, mut faults))) in table.players().iter().zip(seats).zip(log.finish()).enumerate() {
        for f in &mut faults {
            f.session = result.session;
            f.table = t;
        }
        result.bots[b] = SessionBot {
            stats: seat.stats,
            net: seat.balance - bankroll,
            rounds: table.rounds(),
            disqualified: seat.disqualified,
            broke: !seat.disqualified && table.out_for_good(k),
            fault_log: faults,
            series: Vec::new(),
            tally,
            luck: luck.as_ref().map(|l| l[k]),
            cost: seat.spent().map(pitboss_results::Cost::from),
        };
    }
}

/// One block of a session's rounds, as each table plays it.
struct Block<'a> {
    /// Rounds the session played before this block.
    done: u64,
    /// Rounds in this block.
    len: u64,
    /// The session's key rounds so far.
    keys: &'a Vec<KeyRound>,
}

impl Block<'_> {
    /// Plays the block on table `t`, writing its seats' balance after each
    /// round into `out` (`start`: their balances before the block) and
    /// keeping the events of rounds that may be key rounds. A failure is
    /// the round (in the block) and table it happened at.
    fn play(
        &self,
        t: usize,
        table: &mut Table,
        log: &mut SeatLog<'_, TableRec>,
        out: &mut [i64],
        start: &[i64],
    ) -> Result<(), (usize, usize, ShoeExhausted)> {
        let seats = table.players().len();
        // The key rounds as this table alone can know them: a round that
        // does not enter this list cannot be a key round of the session,
        // so its events need not be kept.
        let mut keys = self.keys.clone();
        for r in 0..self.len as usize {
            table.play_round(log).map_err(|e| (r, t, e))?;
            for (slot, seat) in out[r * seats..(r + 1) * seats].iter_mut().zip(table.players()) {
                *slot = seat.balance;
            }
            if let Some(luck) = &mut log.inner().luck {
                let before = if r == 0 { start } else { &out[(r - 1) * seats..r * seats] };
                luck.end_round(table, &out[r * seats..(r + 1) * seats], before);
            }
            if log.inner().capture.on {
                let round = self.done + r as u64 + 1;
                let prev = |k: usize| if r == 0 { start[k] } else { out[(r - 1) * seats + k] };
                let swing = (0..seats).map(|k| (out[r * seats + k] - prev(k)).abs()).max().unwrap_or(0);
                let key = KeyRound { round, table: t, swing };
                if swing > 0 {
                    keep_key_round(&mut keys, key);
                }
                if keys.contains(&key) || (t == 0 && round <= OPENING_ROUNDS) {
                    log.inner().capture.keep(round);
                }
            }
        }
        Ok(())
    }
}

/// What a session sums round by round, in (round, table) order: each
/// bot's balance, the paired products of net chips (every pair, or in a
/// large league each table's, as [`Layout`] says), the sampled series
/// and the key rounds.
struct Sums {
    layout: Layout,
    bankroll: i64,
    /// Each table's seats' balances after the last round summed.
    before: Vec<Vec<i64>>,
    /// Each bot's net chips this round (only `moved` bots are non-zero).
    net: Vec<i64>,
    /// The bots whose balance moved this round, table by table, and where
    /// each table's begin.
    moved: Vec<usize>,
    tables_moved: Vec<usize>,
    pairs: Vec<i128>,
    sample_at: Vec<u64>,
    next_sample: usize,
    series: Vec<Vec<i64>>,
    key_rounds: Vec<KeyRound>,
}

impl Sums {
    fn new(n: usize, seating: &Seating, bankroll: i64, rounds: u64) -> Sums {
        let sample_at = series_rounds(rounds);
        let layout = Layout::new(n, seating);
        Sums {
            bankroll,
            before: seating.iter().map(|s| vec![bankroll; s.len()]).collect(),
            net: vec![0; n],
            moved: Vec::with_capacity(n),
            tables_moved: Vec::with_capacity(seating.len() + 1),
            pairs: vec![0; layout.len()],
            layout,
            series: vec![Vec::with_capacity(sample_at.len()); n],
            sample_at,
            next_sample: 0,
            key_rounds: Vec::with_capacity(KEY_ROUNDS + 1),
        }
    }

    /// The cross sums as [`Layout`] lays them out: the summed upper
    /// triangles (lower bot index first) mirrored.
    fn pairs(mut self, seating: &Seating) -> Vec<i128> {
        for (upper, lower) in self.layout.mirrored(seating) {
            self.pairs[lower] = self.pairs[upper];
        }
        self.pairs
    }

    /// Adds round `round` (from 0), row `r` of each table's `balances`.
    fn add_round(&mut self, round: u64, seating: &Seating, balances: &[Vec<i64>], r: usize) {
        self.moved.clear();
        self.tables_moved.clear();
        for (t, seats) in seating.iter().enumerate() {
            self.tables_moved.push(self.moved.len());
            let mut swing = 0;
            let after = &balances[t][r * seats.len()..(r + 1) * seats.len()];
            for (k, &balance) in after.iter().enumerate() {
                let delta = balance - self.before[t][k];
                self.before[t][k] = balance;
                if delta != 0 {
                    let b = seats[k];
                    self.net[b] = delta;
                    self.moved.push(b);
                    swing = swing.max(delta.abs());
                }
            }
            if swing > 0 {
                keep_key_round(&mut self.key_rounds, KeyRound { round: round + 1, table: t, swing });
            }
        }
        self.tables_moved.push(self.moved.len());
        if self.sample_at.get(self.next_sample) == Some(&(round + 1)) {
            self.next_sample += 1;
            for (t, seats) in seating.iter().enumerate() {
                for (k, &b) in seats.iter().enumerate() {
                    self.series[b].push(self.before[t][k] - self.bankroll);
                }
            }
        }
        // Only bots whose balance moved add to the cross sums, each pair
        // once, in the upper triangle (mirrored by `pairs`): of all moved
        // bots, or of each table's.
        if self.layout.all() {
            self.add_all_products();
        } else {
            for t in 0..seating.len() {
                self.add_products(self.tables_moved[t], self.tables_moved[t + 1]);
            }
        }
        for &i in &self.moved {
            self.net[i] = 0;
        }
    }

    /// Adds the products of net chips of each pair of moved bots, every
    /// pair kept (`Layout::all`): at `lo * n + hi`, the lower bot index
    /// first. The moved bots in index order make each one's entries a row
    /// (a sum of integers: the order changes no result).
    fn add_all_products(&mut self) {
        self.moved.sort_unstable();
        let (moved, net, n) = (&self.moved, &self.net, self.net.len());
        for (x, &i) in moved.iter().enumerate() {
            let Some(row) = self.pairs.get_mut(i * n..(i + 1) * n) else { continue };
            let ni = i128::from(net[i]);
            for &j in &moved[x..] {
                if let Some(sum) = row.get_mut(j) {
                    *sum += ni * i128::from(net[j]);
                }
            }
        }
    }

    /// Adds the products of net chips of each pair of `moved[from..to]`
    /// (one table's, not every pair kept) at the upper triangle's entry
    /// (the lower bot index first).
    fn add_products(&mut self, from: usize, to: usize) {
        let (moved, net, pairs) = (&self.moved[from..to], &self.net, &mut self.pairs);
        for (x, &i) in moved.iter().enumerate() {
            for &j in &moved[x..] {
                let (lo, hi) = if i <= j { (i, j) } else { (j, i) };
                if let Some(sum) = self.layout.index(lo, hi).and_then(|k| pairs.get_mut(k)) {
                    *sum += net[i] as i128 * net[j] as i128;
                }
            }
        }
    }
}

/// What a league's table records besides the tallies: its stored hands
/// and, where the league measures it, its players' luck.
struct TableRec {
    capture: Capture,
    luck: Option<Luck>,
}

impl Recorder for TableRec {
    #[inline(always)]
    fn record(&mut self, event: &TableEvent) {
        self.capture.record(event);
        if let Some(luck) = &mut self.luck {
            luck.log.record(event);
        }
    }
}

/// One table's luck: the round's luck by player ([`LuckLog`]) and each
/// player's luck-adjusted results summed over the rounds its chips count.
struct Luck {
    log: LuckLog,
    sums: Vec<LuckSums>,
    /// Each player's rounds and chips wagered as of the last round.
    counted: Vec<(u64, i128)>,
}

impl Luck {
    fn new(table: &Arc<LuckTable>, rules: &Rules, players: usize) -> Luck {
        Luck {
            log: LuckLog::new(table.clone(), rules, players),
            sums: vec![LuckSums::default(); players],
            counted: vec![(0, 0); players],
        }
    }

    /// A round ended with the players' balances `after` (`before` it):
    /// each player whose chips count this round (its statistics took the
    /// round) adds its net chips less the round's luck.
    fn end_round(&mut self, table: &Table, after: &[i64], before: &[i64]) {
        for (k, seat) in table.players().iter().enumerate() {
            let s = &seat.stats;
            if s.rounds != self.counted[k].0 {
                let bet = i64::try_from(s.wagered - self.counted[k].1).unwrap_or(i64::MAX);
                let net = (after[k] - before[k]) as f64;
                self.sums[k].add(net - self.log.luck[k], bet);
                self.counted[k] = (s.rounds, s.wagered);
            }
        }
    }
}

/// One table's events, a round at a time, keeping those of the rounds that
/// may turn out to be key rounds and of the opening rounds: the hands the
/// report's viewer shows, recorded while the league plays so that neither
/// the report nor anyone reading the results needs the bots again. Off
/// for sessions whose hands are not stored.
#[derive(Default)]
struct Capture {
    on: bool,
    /// Inside a round.
    open: bool,
    /// A full shuffle is announced before the round it opens.
    pending_shuffle: Option<TableEvent>,
    /// This round's events so far.
    events: Vec<TableEvent>,
    /// This round had over [`EVENTS_PER_ROUND`] events, or over
    /// [`LOG_BYTES_PER_ROUND`] of bot logs.
    cut: bool,
    /// Bytes of bot log stored for this round.
    log_bytes: usize,
    /// This round's events hold a bot log or a fault (text of their own).
    owns_text: bool,
    /// Rounds kept: (round, events, cut).
    kept: Vec<(u64, Vec<TableEvent>, bool)>,
}

impl Capture {
    /// Keeps the round just played.
    fn keep(&mut self, round: u64) {
        let events = std::mem::replace(&mut self.events, Vec::with_capacity(ROUND_CAPACITY));
        self.kept.push((round, events, self.cut));
    }

    /// Forgets the kept rounds of table `table` that are neither among
    /// `keys` nor opening rounds of table 0.
    fn forget_all_but(&mut self, table: usize, keys: &[KeyRound]) {
        self.kept.retain(|(round, ..)| {
            (table == 0 && *round <= OPENING_ROUNDS) || keys.iter().any(|k| k.table == table && k.round == *round)
        });
    }

    /// A round starts or ends, or the shoe is shuffled.
    #[cold]
    #[inline(never)]
    fn edge(&mut self, event: &TableEvent) {
        match event {
            TableEvent::Shuffle(_) if !self.open => self.pending_shuffle = Some(event.copied()),
            TableEvent::RoundStart { .. } => {
                self.open = true;
                self.cut = false;
                self.log_bytes = 0;
                self.clear_events();
                self.events.extend(self.pending_shuffle.take());
                self.events.push(event.copied());
            }
            TableEvent::RoundEnd { .. } if self.open => {
                self.push(event);
                self.open = false;
            }
            _ if self.open => self.push(event),
            _ => {}
        }
    }

    /// Empties this round's events. Almost no round holds a bot log or a
    /// fault, and without one no event owns anything to drop: they are
    /// let go without visiting each (a full table's round is about a
    /// hundred events, in most sessions).
    fn clear_events(&mut self) {
        if std::mem::take(&mut self.owns_text) {
            self.events.clear();
        } else {
            // SAFETY: no event pushed since the last clear is a `BotLog` or
            // a `Fault` (`push` sets `owns_text` for those), and every other
            // variant holds only `Copy` fields (`TableEvent::copied`, whose
            // test checks it): dropping them would free nothing, so
            // forgetting them is the same, and length 0 is always valid.
            unsafe { self.events.set_len(0) };
        }
    }

    /// Keeps an event of the open round: a plain one (almost every event)
    /// inline, with one length check; one that owns text out of line.
    #[inline(always)]
    fn push(&mut self, event: &TableEvent) {
        if matches!(event, TableEvent::BotLog { .. } | TableEvent::Fault { .. }) {
            self.push_text(event);
        } else if self.events.len() < EVENTS_PER_ROUND {
            self.events.push(event.copied());
        } else {
            self.cut = true;
        }
    }

    /// Keeps a bot's log or a fault of the open round, within the round's
    /// caps.
    #[cold]
    #[inline(never)]
    fn push_text(&mut self, event: &TableEvent) {
        if let TableEvent::BotLog { text, .. } = event {
            // Logs are up to 1 KiB a decision: a round of them could
            // outweigh every other stored hand together.
            self.log_bytes += text.len();
            if self.log_bytes > LOG_BYTES_PER_ROUND {
                self.cut = true;
                return;
            }
        }
        if self.events.len() < EVENTS_PER_ROUND {
            self.owns_text = true;
            self.events.push(event.clone());
        } else {
            self.cut = true;
        }
    }
}

impl Recorder for Capture {
    #[inline(always)]
    fn record(&mut self, event: &TableEvent) {
        match event {
            TableEvent::RoundStart { .. } | TableEvent::RoundEnd { .. } | TableEvent::Shuffle(_) if self.on => {
                self.edge(event);
            }
            // Only a capture that is on opens a round (so an edge of one
            // that is off ends here too).
            TableEvent::RoundStart { .. } | TableEvent::RoundEnd { .. } | TableEvent::Shuffle(_) => {}
            _ if self.open => self.push(event),
            _ => {}
        }
    }
}

/// The hands a session stores: its key rounds (largest swing first), then
/// the first [`OPENING_ROUNDS`] rounds of table 0, each once, as the JSON
/// events `pitboss replay --log` writes.
fn stored_hands(captures: &[&Capture], keys: &[KeyRound], rounds: u64) -> Vec<HandRecord> {
    let find = |table: usize, round: u64| {
        let (_, events, cut) = captures.get(table)?.kept.iter().find(|k| k.0 == round)?;
        let events = events
            .iter()
            .map(|e| match crate::transcript::event_json(e) {
                serde_json::Value::Object(fields) => fields,
                _ => serde_json::Map::new(),
            })
            .collect();
        Some(HandRecord { table, round, events, truncated: *cut })
    };
    let mut out: Vec<HandRecord> = keys.iter().filter_map(|k| find(k.table, k.round)).collect();
    for round in 1..=OPENING_ROUNDS.min(rounds) {
        if !keys.iter().any(|k| k.table == 0 && k.round == round) {
            out.extend(find(0, round));
        }
    }
    out
}

/// Replays the table of `session` that seats `seats` round by round for
/// `rounds` rounds, showing round `round` to `rec` and every round to
/// `log`. Tables never affect each other, so one table replays alone
/// exactly as it played.
pub fn replay_table<R: Recorder, L: Recorder>(
    play: &LeaguePlay<'_>,
    session: u64,
    seats: &[usize],
    (round, rounds): (u64, u64),
    rec: &mut R,
    log: &mut L,
) -> Result<()> {
    let mut table = play.table(session).seat(play.bots, seats)?;
    for r in 1..=rounds.max(round) {
        if r == round {
            table.play_round(&mut Both(rec, &mut *log))?;
        } else {
            table.play_round(log)?;
        }
    }
    Ok(())
}

/// The diagnosed message ([`pitboss_engine::Player::diagnose_fuel`]) of
/// the out-of-fuel fault of player `player` in round `round` of the table
/// [`replay_table`] replays, which follows `skip` such faults of the
/// player's in the rounds before: the table played again to it, with that
/// fault given more fuel. `None` if it does not fault there again (it
/// cannot tell).
pub fn fuel_diagnosis(
    play: &LeaguePlay<'_>,
    session: u64,
    seats: &[usize],
    round: u64,
    (player, skip): (u8, u32),
) -> Result<Option<String>> {
    let spec = play.table(session);
    let mut players = seats
        .iter()
        .enumerate()
        .map(|(i, &b)| play.bots[b].1.player_seeded(crate::bots::seat_seed(spec.seed, seats, i)))
        .collect::<Result<Vec<_>>>()?;
    let Some(diagnosed) = players.get_mut(usize::from(player)) else { return Ok(None) };
    diagnosed.diagnose_fuel(skip);
    let mut table = spec.seat_players(players)?;
    let mut found = None;
    for _ in 1..=round {
        table.play_round(&mut |e: &TableEvent| {
            if let TableEvent::Fault { player: p, round: at, fault, .. } = e
                && (*p, *at) == (player, round)
                && fault.kind == pitboss_engine::FaultKind::OutOfFuel
            {
                found.get_or_insert_with(|| fault.message.clone());
            }
        })?;
        if found.is_some() {
            break;
        }
    }
    Ok(found)
}

/// Two recorders in one.
struct Both<'a, A, B>(&'a mut A, &'a mut B);

impl<A: Recorder, B: Recorder> Recorder for Both<'_, A, B> {
    fn record(&mut self, event: &pitboss_engine::TableEvent) {
        self.0.record(event);
        self.1.record(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums `rounds` rounds of made-up balances at `seating` and compares
    /// every kept pair with the brute-force sum.
    fn sums_agree(seating: &Seating, n: usize) {
        let rounds = 40;
        let mut sums = Sums::new(n, seating, 100, rounds);
        let mut balances: Vec<Vec<i64>> = seating.iter().map(|s| vec![100; s.len() * rounds as usize]).collect();
        let mut step = 7i64;
        for (t, seats) in seating.iter().enumerate() {
            for r in 0..rounds as usize {
                for k in 0..seats.len() {
                    step = (step * 31 + 11) % 97;
                    let before = if r == 0 { 100 } else { balances[t][(r - 1) * seats.len() + k] };
                    balances[t][r * seats.len() + k] = before + if step % 3 == 0 { 0 } else { step - 48 };
                }
            }
        }
        for r in 0..rounds as usize {
            sums.add_round(r as u64, seating, &balances, r);
        }
        let layout = Layout::new(n, seating);
        let mut want = vec![0i128; layout.len()];
        let mut net = vec![0i64; n];
        for r in 0..rounds as usize {
            for (t, seats) in seating.iter().enumerate() {
                for (k, &b) in seats.iter().enumerate() {
                    let before = if r == 0 { 100 } else { balances[t][(r - 1) * seats.len() + k] };
                    net[b] = balances[t][r * seats.len() + k] - before;
                }
            }
            for i in 0..n {
                for j in 0..n {
                    if let Some(k) = layout.index(i, j) {
                        want[k] += net[i] as i128 * net[j] as i128;
                    }
                }
            }
        }
        assert_eq!(sums.pairs(seating), want);
    }

    #[test]
    fn the_cross_sums_are_every_pair_of_nets_summed_over_rounds() {
        // Two tables, five bots; some balances move, some do not.
        sums_agree(&vec![vec![3, 0, 4], vec![1, 2]], 5);
    }

    #[test]
    fn a_large_league_sums_the_pairs_of_each_table() {
        let n = pitboss_results::pairs::PAIRED_BOTS * 2 + 3;
        let seating = rotated_seating(n, 7, 5);
        assert!(!Layout::new(n, &seating).all());
        sums_agree(&seating, n);
    }

    #[test]
    fn key_rounds_keep_the_largest_swings_earliest_first() {
        let mut keys = Vec::new();
        for (round, swing) in [(1, 5), (2, 9), (3, 5), (4, 1), (5, 9), (6, 7), (7, 2), (8, 3), (9, 4), (10, 6)] {
            keep_key_round(&mut keys, KeyRound { round, table: 0, swing });
        }
        let rounds: Vec<u64> = keys.iter().map(|k| k.round).collect();
        assert_eq!(rounds, [2, 5, 6, 10, 1, 3, 9, 8]);
    }
}
