//! The banker game, `norwegian-home` (RULES.md section 4): one banker
//! against the other players, a hidden first card, bets after seeing it,
//! the banker's double, naturals, drawing rounds, the banker's free draw
//! from 17, ties to the banker. Shares the table's players, shoe, requests,
//! faults and events with the dealer games.
//!
//! **Invariant:** no player's request ever carries another player's hidden
//! card, and the banker's carries none before the showdown.

use pitboss_sdk::abi::{Header, event_kind};
use pitboss_sdk::{Action, ActionSet, Card, Decision, Total, is_natural};

use crate::id::{BoxId, PlayerId, ids};
use crate::player::{Fault, FaultKind};
use crate::record::{Outcome, Recorder, TableEvent};
use crate::rules::Banker;
use crate::shoe::ShoeExhausted;
use crate::table::Table;

/// A player's hand in the banker game.
#[derive(Clone, Copy)]
struct Stake {
    player: PlayerId,
    stake: i64,
    hidden: Card,
    cards: [Card; 24],
    len: usize,
    /// Still taking part (not settled yet).
    open: bool,
    /// Has stood (standing is final).
    stood: bool,
}

impl Stake {
    /// The player's box: in the banker game, the one with its number.
    fn box_id(&self) -> BoxId {
        self.player.sole_box()
    }

    fn cards(&self) -> &[Card] {
        &self.cards[..self.len]
    }

    fn best(&self) -> u8 {
        Total::of(self.cards()).best()
    }
}

/// Who banks this round: a player, or the house (`None`).
fn choose_banker(table: &Table) -> Option<PlayerId> {
    let n = table.player_count;
    let can_cover = |p: PlayerId| {
        let others = i64::from(n) - 1;
        let state = &table.players[p];
        !state.disqualified && state.balance >= 4 * table.rules.max_bet * others
    };
    match table.rules.banker {
        Banker::House => None,
        Banker::Player(p) => Some(PlayerId(p)).filter(|&p| p.0 < n && can_cover(p)),
        Banker::Rotate => {
            let first = (table.round - 1) % u64::from(n);
            let first = u8::try_from(first).expect("a remainder below the player count, a u8");
            (0..n).map(|i| PlayerId((first + i) % n)).find(|&p| can_cover(p))
        }
    }
}

/// A request to player `p` about its own cards. Every request of the
/// banker game shows the player's one hand (a player's, from its hidden
/// card on, or the banker's), so it says one hand; the table's header
/// counts the dealer games' hands, which the banker game leaves empty.
fn header_for(table: &Table, p: PlayerId, kind: Decision, bet: i64, limits: (i64, i64, i64)) -> Header {
    Header { hand_count: 1, ..table.header(p.sole_box(), kind, bet, limits) }
}

impl Table {
    /// Plays one round of the banker game. A deck that runs dry voids the
    /// round: every stake goes back and play goes on.
    pub(crate) fn play_banker_round<R: Recorder>(&mut self, rec: &mut R) -> Result<(), ShoeExhausted> {
        self.begin_round(rec);
        let house = self.house;
        match round(self, rec) {
            Ok(()) => {}
            Err(_) if self.shoe.is_seeded() => self.void_round(house, rec),
            // A stacked deck is never reshuffled: play ends, and
            // `Table::play_round` voids the round.
            Err(e) => return Err(e),
        }
        self.end_round(rec);
        Ok(())
    }
}

/// Settles a stake already off the player's balance: `returned` chips
/// (stake included) go back to the player, and the banker (a player, or the
/// house) gains `stake - returned` — negative when it pays out.
fn settle<R: Recorder>(
    table: &mut Table,
    banker: Option<PlayerId>,
    st: &Stake,
    stake: i64,
    returned: i64,
    outcome: Outcome,
    rec: &mut R,
) {
    table.players[st.player].balance += returned;
    match banker {
        Some(b) => table.players[b].balance += stake - returned,
        None => table.house += stake - returned,
    }
    rec.record(&TableEvent::Settled { seat: st.box_id().0, hand: 0, bet: stake, returned, outcome });
}

/// One round, phase by phase; an exhausted deck ends it early.
fn round<R: Recorder>(table: &mut Table, rec: &mut R) -> Result<(), ShoeExhausted> {
    let banker = choose_banker(table);
    rec.record(&TableEvent::Banker { seat: banker.map(|b| b.sole_box().0) });
    let mut stakes = deal_hidden(table, banker, rec)?;
    if stakes.is_empty() {
        return Ok(());
    }
    let banker_hidden = table.deal(rec)?;
    rec.record(&TableEvent::HiddenCard { seat: None, card: banker_hidden });
    take_stakes(table, &mut stakes, rec);
    stakes.retain(|st| st.stake > 0);
    if stakes.is_empty() {
        return Ok(());
    }
    let covered: i64 = stakes.iter().map(|st| st.stake).sum();
    if let Some(b) = banker {
        table.players[b].round_bet += covered;
    }
    if banker_doubles(table, banker, covered, banker_hidden, rec) {
        for st in &mut stakes {
            table.players[st.player].balance -= st.stake;
            st.stake *= 2;
        }
        rec.record(&TableEvent::BankerDoubled);
    }
    let banker_up = deal_open(table, &mut stakes, rec)?;
    let mut bank = vec![banker_hidden, banker_up];
    if settle_naturals(table, banker, &mut stakes, banker_hidden, banker_up, rec) {
        return Ok(());
    }
    drawing_rounds(table, banker, &mut stakes, banker_up, rec)?;
    // The banker turns up its hidden card and draws: to 17 by force, then
    // as it likes (never seeing the players' hidden cards).
    table.emit(event_kind::HOLE_CARD, 0, 0, banker_hidden);
    rec.record(&TableEvent::HoleRevealed { card: banker_hidden });
    if stakes.iter().any(|st| st.open) {
        banker_draws(table, banker, covered, &mut bank, rec)?;
    }
    showdown(table, banker, &stakes, &bank, rec);
    Ok(())
}

/// Deal 1: a hidden card to every player who can cover a bet (the banker
/// excepted), in order.
fn deal_hidden<R: Recorder>(
    table: &mut Table,
    banker: Option<PlayerId>,
    rec: &mut R,
) -> Result<Vec<Stake>, ShoeExhausted> {
    let mut stakes: Vec<Stake> = Vec::with_capacity(table.players.len());
    for player in ids(table.player_count, PlayerId) {
        if Some(player) == banker || table.players[player].disqualified || table.stake_cap(player) < table.rules.min_bet
        {
            continue;
        }
        let hidden = table.deal(rec)?;
        rec.record(&TableEvent::HiddenCard { seat: Some(player.sole_box().0), card: hidden });
        let mut cards = [Card::ACE; 24];
        cards[0] = hidden;
        stakes.push(Stake { player, stake: 0, hidden, cards, len: 1, open: true, stood: false });
    }
    Ok(stakes)
}

/// Bets, each player knowing only its own hidden card; a stake leaves the
/// player's balance at once.
fn take_stakes<R: Recorder>(table: &mut Table, stakes: &mut [Stake], rec: &mut R) {
    let (min, unit) = (table.rules.min_bet, table.rules.bet_unit);
    for st in stakes {
        let p = st.player;
        let max = table.stake_cap(p);
        let header = header_for(table, p, Decision::Bet, 0, (min, max, unit));
        let answer = table.ask(p, header, &[st.hidden], rec);
        st.stake = table.checked_bet(p, st.box_id(), answer, (min, max, unit), rec);
        if st.stake > 0 {
            table.players[p].balance -= st.stake;
            table.players[p].round_bet += st.stake;
            rec.record(&TableEvent::Bet { seat: st.box_id().0, amount: st.stake });
        }
    }
}

/// Whether the banker doubles every stake, knowing only its own hidden
/// card (the house never does).
fn banker_doubles<R: Recorder>(
    table: &mut Table,
    banker: Option<PlayerId>,
    covered: i64,
    banker_hidden: Card,
    rec: &mut R,
) -> bool {
    let Some(b) = banker else { return false };
    let header = header_for(table, b, Decision::BankerDouble, covered, (0, 1, 1));
    let answer = table.ask(b, header, &[banker_hidden], rec);
    table.checked_flag(b, b.sole_box(), Decision::BankerDouble, answer, rec)
}

/// Deal 2: one card face up to each player, then the banker's, which is
/// returned.
fn deal_open<R: Recorder>(table: &mut Table, stakes: &mut [Stake], rec: &mut R) -> Result<Card, ShoeExhausted> {
    for st in stakes {
        let card = table.deal(rec)?;
        st.cards[1] = card;
        st.len = 2;
        table.emit(event_kind::CARD, st.box_id().0, 0, card);
        rec.record(&TableEvent::Card { seat: st.box_id().0, hand: 0, card });
    }
    let banker_up = table.deal(rec)?;
    table.emit(event_kind::DEALER_CARD, 0, 0, banker_up);
    rec.record(&TableEvent::DealerCard { card: banker_up, hole: false });
    Ok(banker_up)
}

/// Naturals: a banker natural takes every stake (doubled unless a player
/// also has one) and ends the round, returning `true`; else every player
/// natural is paid 2:1 and leaves the round.
fn settle_naturals<R: Recorder>(
    table: &mut Table,
    banker: Option<PlayerId>,
    stakes: &mut [Stake],
    banker_hidden: Card,
    banker_up: Card,
    rec: &mut R,
) -> bool {
    let any_player_natural = stakes.iter().any(|st| is_natural(st.cards()));
    if is_natural(&[banker_hidden, banker_up]) {
        reveal_all(table, stakes, banker_hidden, rec);
        for st in stakes.iter() {
            let extra = if any_player_natural { 0 } else { st.stake };
            table.players[st.player].balance -= extra;
            settle(table, banker, st, st.stake + extra, 0, Outcome::DealerBlackjack, rec);
        }
        return true;
    }
    for st in stakes.iter_mut().filter(|st| is_natural(st.cards())) {
        // Stake back plus twice the stake; out of the round.
        st.open = false;
        reveal(table, st, rec);
        settle(table, banker, st, st.stake, 3 * st.stake, Outcome::Blackjack, rec);
    }
    false
}

/// Drawing rounds: each player still drawing takes one card or stands
/// (final), round after round; a bust pays the banker at once.
fn drawing_rounds<R: Recorder>(
    table: &mut Table,
    banker: Option<PlayerId>,
    stakes: &mut [Stake],
    banker_up: Card,
    rec: &mut R,
) -> Result<(), ShoeExhausted> {
    loop {
        let mut drew = false;
        for st in stakes.iter_mut().filter(|st| st.open && !st.stood) {
            if st.best() >= 21 {
                st.stood = true;
                continue;
            }
            let action = ask_hit_or_stand(table, st, banker_up, rec);
            rec.record(&TableEvent::Acted { seat: st.box_id().0, hand: 0, action });
            if action == Action::Stand {
                st.stood = true;
                continue;
            }
            drew = true;
            let card = table.deal(rec)?;
            st.cards[st.len] = card;
            st.len += 1;
            table.emit(event_kind::CARD, st.box_id().0, 0, card);
            rec.record(&TableEvent::Card { seat: st.box_id().0, hand: 0, card });
            if Total::of(st.cards()).is_bust() {
                // A bust pays the banker at once and shows the hidden card.
                st.open = false;
                reveal(table, st, rec);
                settle(table, banker, st, st.stake, 0, Outcome::Bust, rec);
            }
        }
        if !drew {
            return Ok(());
        }
    }
}

/// Asks a player to hit or stand; anything else faults and stands.
fn ask_hit_or_stand<R: Recorder>(table: &mut Table, st: &Stake, banker_up: Card, rec: &mut R) -> Action {
    let mut header = header_for(table, st.player, Decision::Act, st.stake, (0, 0, 1));
    let legal = ActionSet::EMPTY.with(Action::Stand).with(Action::Hit);
    header.legal = legal;
    header.dealer_up = Some(banker_up);
    match table.ask(st.player, header, st.cards(), rec) {
        Ok(a) if a == Action::Hit as i64 => Action::Hit,
        Ok(a) if a == Action::Stand as i64 => Action::Stand,
        Ok(a) => {
            let message = crate::table::illegal_act(a, legal);
            let fault = Fault::new(FaultKind::Illegal, message);
            table.fault(st.player, st.box_id(), Decision::Act, fault, rec);
            Action::Stand
        }
        Err(f) => {
            table.fault(st.player, st.box_id(), Decision::Act, f, rec);
            Action::Stand
        }
    }
}

/// The banker draws to 17 by force, then as it likes (a player banker is
/// asked; the house stands).
fn banker_draws<R: Recorder>(
    table: &mut Table,
    banker: Option<PlayerId>,
    covered: i64,
    bank: &mut Vec<Card>,
    rec: &mut R,
) -> Result<(), ShoeExhausted> {
    loop {
        let best = Total::of(bank).best();
        let draw = if best < 17 {
            true
        } else if best >= 21 {
            false
        } else {
            match banker {
                None => false,
                Some(b) => {
                    let header = header_for(table, b, Decision::BankerDraw, covered, (0, 1, 1));
                    let answer = table.ask(b, header, bank, rec);
                    table.checked_flag(b, b.sole_box(), Decision::BankerDraw, answer, rec)
                }
            }
        };
        if !draw {
            return Ok(());
        }
        let card = table.deal(rec)?;
        bank.push(card);
        table.emit(event_kind::DEALER_CARD, 0, 0, card);
        rec.record(&TableEvent::DealerCard { card, hole: false });
    }
}

/// Showdown: hidden cards up; a higher total wins 1:1, ties and lower
/// totals lose, a banker bust pays every standing player.
fn showdown<R: Recorder>(table: &mut Table, banker: Option<PlayerId>, stakes: &[Stake], bank: &[Card], rec: &mut R) {
    let bank_total = Total::of(bank);
    for st in stakes.iter().filter(|st| st.open) {
        reveal(table, st, rec);
        let wins = bank_total.is_bust() || st.best() > bank_total.best();
        let (returned, outcome) = if wins { (2 * st.stake, Outcome::Win) } else { (0, Outcome::Lose) };
        settle(table, banker, st, st.stake, returned, outcome, rec);
    }
}

/// Turns a player's hidden card face up for everyone.
fn reveal<R: Recorder>(table: &mut Table, st: &Stake, rec: &mut R) {
    table.emit(event_kind::REVEAL, st.box_id().0, 0, st.hidden);
    rec.record(&TableEvent::Revealed { seat: st.box_id().0, card: st.hidden });
}

fn reveal_all<R: Recorder>(table: &mut Table, stakes: &[Stake], banker_hidden: Card, rec: &mut R) {
    table.emit(event_kind::HOLE_CARD, 0, 0, banker_hidden);
    rec.record(&TableEvent::HoleRevealed { card: banker_hidden });
    for st in stakes {
        reveal(table, st, rec);
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::Decision;

    use super::choose_banker;
    use crate::id::PlayerId;
    use crate::record::{Outcome, TableEvent};
    use crate::rules::{Banker, Rules};
    use crate::testkit::{BANKROLL, Script, balances, chips, round, settled, stacked};

    // Deal order: a hidden card to each player, the banker's hidden card,
    // bets, one open card to each player, the banker's up card.

    #[test]
    fn a_house_natural_takes_every_stake_twice() {
        // Player 5 6 against the house's A K.
        let mut table = stacked(Rules::norwegian_home(), "5 A 6 K", vec![Script::new(10, &[]).boxed()]);
        let events = round(&mut table);
        assert_eq!(settled(&events), [(0, 0, 20, 0, Outcome::DealerBlackjack)]);
        assert_eq!((balances(&table), table.house()), (vec![BANKROLL - 20], 20));
    }

    #[test]
    fn a_player_natural_is_paid_two_to_one() {
        let mut table = stacked(Rules::norwegian_home(), "A 5 K 6", vec![Script::new(10, &[]).boxed()]);
        let events = round(&mut table);
        assert_eq!(settled(&events), [(0, 0, 10, 30, Outcome::Blackjack)]);
        assert_eq!(balances(&table), [BANKROLL + 20]);
    }

    #[test]
    fn a_doubling_player_banker_wins_ties_against_doubled_stakes() {
        // Player 1 holds 9 9 (stands); the banker 8 T, asked whether to
        // draw on 18, stands: the tie goes to the banker.
        let rules = Rules { banker: Banker::Player(0), max_bet: 10, ..Rules::norwegian_home() };
        let banker = Script::new(0, &[]).answer(Decision::BankerDouble, 1).boxed();
        let mut table = stacked(rules, "9 8 9 T", vec![banker, Script::new(5, &[]).boxed()]);
        let events = round(&mut table);
        assert!(events.contains(&TableEvent::Banker { seat: Some(0) }));
        assert!(events.contains(&TableEvent::BankerDoubled));
        assert_eq!(settled(&events), [(1, 0, 10, 0, Outcome::Lose)]);
        assert_eq!(balances(&table), [BANKROLL + 10, BANKROLL - 10]);
        assert_eq!(chips(&table), 2 * BANKROLL);
        assert_eq!(table.house(), 0, "a player banked");
    }

    #[test]
    fn the_bank_rotates_past_a_player_who_cannot_cover_it() {
        let rules = Rules { banker: Banker::Rotate, max_bet: 10, ..Rules::norwegian_home() };
        let players = (0..3).map(|_| Script::new(0, &[]).boxed()).collect();
        let mut table = stacked(rules, "", players);
        table.round = 2;
        assert_eq!(choose_banker(&table), Some(PlayerId(1)));
        // Covering the worst round takes 4 × 10 × 2 = 80 chips.
        table.players[PlayerId(1)].balance = 79;
        assert_eq!(choose_banker(&table), Some(PlayerId(2)));
    }
}
