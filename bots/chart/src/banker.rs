//! The banker's draw from 17 in the banker game: draw when drawing (and
//! then playing on the same way, two cards deep) beats standing, summed
//! over the standing players. A player's hidden card is weighed by the
//! unseen cards of each rank, keeping only those with which the player
//! would have stood by the chart (if none agree, all unseen cards count).
//! Ties and lower totals lose to the banker.

use pitboss_sdk::{Total, Variant, View};

use crate::Basic;
use crate::table::{Table, rank};

/// A standing player as the banker sees it.
#[derive(Clone, Copy, Default)]
struct Player {
    /// Chance of each final total 0–21 (index), given what is seen.
    beats: [f32; 22],
}

/// Ranks 0–9 as cards' values (ace 1).
const fn card_value(rank: usize) -> u8 {
    rank as u8 + 1
}

fn unseen(basic: &Basic, view: &View<'_>) -> [u8; 10] {
    let decks = view.rules().decks.max(1);
    let mut left = [4 * decks; 10];
    left[9] = 16 * decks;
    for (l, s) in left.iter_mut().zip(&basic.seen) {
        *l = l.saturating_sub(*s);
    }
    for &c in view.hand() {
        left[rank(c)] = left[rank(c)].saturating_sub(1);
    }
    left
}

/// The chance each banker total 0–21 loses to this player (the player's
/// total is higher).
fn player(table: &Table, shown: u8, count: u8, ace: bool, up: usize, left: &[u8; 10]) -> Player {
    let mut weights = [0u32; 22];
    let mut any = [0u32; 22];
    for (h, &n) in left.iter().enumerate() {
        let t = Total { hard: shown + card_value(h), has_ace: ace || h == 0 };
        if t.is_bust() || n == 0 || (count == 1 && t.best() == 21) {
            continue;
        }
        let (soft, best) = (t.is_soft(), t.best());
        let hits =
            if count == 1 { table.two_cards(soft, best, up).hits() } else { table.more_cards_hit(soft, best, up) };
        any[best as usize] += u32::from(n);
        if !hits || best == 21 {
            weights[best as usize] += u32::from(n);
        }
    }
    let w = if weights.iter().sum::<u32>() > 0 { weights } else { any };
    let total = w.iter().sum::<u32>().max(1) as f32;
    let mut out = Player::default();
    // beats[b]: chance the player's total is above b.
    let mut above = 0.0;
    for b in (0..22).rev() {
        out.beats[b] = above;
        above += w[b] as f32 / total;
    }
    out
}

/// The banker's value of standing on `best` against `players`, per stake.
fn stand(best: u8, players: &[Player; 16], n: usize) -> f32 {
    players[..n].iter().map(|p| 1.0 - 2.0 * p.beats[best as usize]).sum()
}

/// The banker's value holding `t`, choosing to draw or stand `depth` more
/// times.
fn value(t: Total, left: &[u8; 10], players: &[Player; 16], n: usize, depth: u8) -> f32 {
    if t.is_bust() {
        return -(n as f32);
    }
    let best = t.best();
    let standing = stand(best, players, n);
    if best == 21 || depth == 0 {
        return standing;
    }
    let drawing = draw_value(t, left, players, n, depth);
    if best < 17 { drawing } else { standing.max(drawing) }
}

fn draw_value(t: Total, left: &[u8; 10], players: &[Player; 16], n: usize, depth: u8) -> f32 {
    let cards: u32 = left.iter().map(|&c| u32::from(c)).sum();
    if cards == 0 {
        return stand(t.best(), players, n);
    }
    let mut ev = 0.0;
    for r in 0..10 {
        if left[r] == 0 {
            continue;
        }
        let mut rest = *left;
        rest[r] -= 1;
        let next = Total { hard: t.hard + card_value(r), has_ace: t.has_ace || r == 0 };
        ev += f32::from(left[r]) / cards as f32 * value(next, &rest, players, n, depth - 1);
    }
    ev
}

/// Draw from 17 or more?
pub fn draw(basic: &Basic, view: &View<'_>) -> bool {
    let mine = view.total();
    if mine.best() < 17 {
        return true;
    }
    if mine.best() >= 21 {
        return false;
    }
    let table = Table::for_variant(Variant::NorwegianHome);
    let up = view.hand().get(1).map_or(9, |&c| rank(c));
    let left = unseen(basic, view);
    let mut players = [Player::default(); 16];
    let mut n = 0;
    for seat in 0..16 {
        if basic.count[seat] == 0 || basic.out & 1 << seat != 0 || seat == view.seat() as usize {
            continue;
        }
        let ace = basic.aces & 1 << seat != 0;
        players[n] = player(table, basic.shown[seat], basic.count[seat], ace, up, &left);
        n += 1;
    }
    if n == 0 {
        return false;
    }
    draw_value(mine, &left, &players, n, 2) > stand(mine.best(), &players, n)
}
