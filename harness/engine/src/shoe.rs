//! The shoe: seeded shuffles (part of the replay format), the cut card,
//! discards, the mid-round "shoe ran dry" rule, and stacked shoes.
//!
//! The shuffle is our own Fisher–Yates over `rand_pcg::Pcg64` output with an
//! unbiased bounded draw, seeded through our own SplitMix64 expansion, so no
//! dependency upgrade can change a replay. A golden test pins it; the
//! chi-square tests in `fairness` look for bias (`docs/shuffle-fairness.md`).

use pitboss_sdk::Card;
use rand_core::Rng;
use rand_pcg::Pcg64;

/// SplitMix64: expands one `u64` seed into well-mixed words.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Derives an independent seed for sub-stream `index` of `seed` (a table, a
/// session), so tables never share cards by accident.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut s = seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03);
    splitmix64(&mut s)
}

/// The PCG generator for a seed.
pub fn rng_for(seed: u64) -> Pcg64 {
    let mut s = seed;
    let words = [splitmix64(&mut s), splitmix64(&mut s), splitmix64(&mut s), splitmix64(&mut s)];
    let state = u128::from(words[0]) << 64 | u128::from(words[1]);
    let stream = u128::from(words[2]) << 64 | u128::from(words[3]);
    Pcg64::new(state, stream)
}

/// A uniform draw from `0..n` (`n > 0`): Lemire's multiply-and-reject, so
/// no value is favoured.
pub fn below(rng: &mut Pcg64, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if low_half(m) < n {
        let threshold = n.wrapping_neg() % n;
        while low_half(m) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    high_half(m)
}

/// The low 32 bits of `m` (Lemire's method rejects on them).
#[inline]
fn low_half(m: u64) -> u32 {
    let [a, b, c, d, ..] = m.to_le_bytes();
    u32::from_le_bytes([a, b, c, d])
}

/// The high 32 bits of `m`: the draw.
#[inline]
fn high_half(m: u64) -> u32 {
    let [.., e, f, g, h] = m.to_le_bytes();
    u32::from_le_bytes([e, f, g, h])
}

/// A shoe position or length as `below` takes it: a shoe holds far fewer
/// than 2^32 cards.
#[inline]
pub(crate) fn draw_bound(n: usize) -> u32 {
    u32::try_from(n).expect("a shoe holds fewer than 2^32 cards")
}

/// A draw from `below` as an index (`usize` has at least 32 bits).
#[inline]
pub(crate) fn draw_index(x: u32) -> usize {
    usize::try_from(x).expect("usize holds a u32")
}

/// Fisher–Yates: every permutation equally likely.
pub fn shuffle(cards: &mut [Card], rng: &mut Pcg64) {
    // The generator in a local keeps the loop in registers (this runs for
    // every card of every shoe), and the position walks the slice itself
    // (its front and its last card), so only the draw is bounds-checked;
    // the same draws, in the same order. `draw_bound` refuses a shoe of
    // 2^32 cards, so every front's length fits a `u32`.
    let mut local = rng.clone();
    draw_bound(cards.len());
    let mut rest = cards;
    while let [front @ .., last] = rest
        && !front.is_empty()
    {
        let j = draw_index(below(&mut local, front.len() as u32 + 1));
        if let Some(other) = front.get_mut(j) {
            std::mem::swap(other, last);
        }
        rest = front;
    }
    *rng = local;
}

/// Why the shoe was (re)shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShuffleKind {
    /// Every card back in, shuffled and cut.
    Full,
    /// The shoe ran dry mid-round: only earlier rounds' discards were
    /// shuffled; this round's cards stay out.
    Discards,
}

/// A stacked shoe ran out of cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the stacked shoe ran out after {dealt} cards")]
pub struct ShoeExhausted {
    /// Cards dealt from it in all.
    pub dealt: usize,
}

enum Source {
    Seeded { rng: Pcg64, pack: Vec<Card>, cut_card: u16 },
    Stacked,
}

/// A shoe. Cards `[..next]` of `cards` are dealt (those from
/// `round_start` on belong to the current round, earlier ones are the
/// discard pile); `[next..]` are still to come.
pub struct Shoe {
    source: Source,
    cards: Vec<Card>,
    next: usize,
    round_start: usize,
    cut_at: usize,
    reshuffle_due: bool,
    /// Cards dealt before `next` last went back: `dealt_before + next`
    /// dealt in all.
    dealt_before: usize,
    /// Below this, `next` deals without reaching the shoe's end or the
    /// cut card (`cut_at - 1`, at most `cards.len()`): [`Shoe::deal`]'s one
    /// check on the path of every card.
    fast_end: usize,
}

impl Shoe {
    /// A shoe of `decks` decks shuffled from `seed`, the cut card
    /// `cut_card` cards from the end. Shuffles on the first round.
    pub fn seeded(decks: u8, cut_card: u16, seed: u64) -> Shoe {
        let mut pack = Vec::with_capacity(usize::from(decks) * 52);
        for _ in 0..usize::from(decks) * 4 {
            pack.extend((1..=13).filter_map(Card::new));
        }
        Shoe::seeded_pack(pack, cut_card, seed)
    }

    /// A seeded shoe of any pack of cards (a short pack, a Spanish deck,
    /// a test pack), shuffled from `seed` in the given starting order.
    pub fn seeded_pack(pack: Vec<Card>, cut_card: u16, seed: u64) -> Shoe {
        Shoe {
            cards: Vec::with_capacity(pack.len()),
            source: Source::Seeded { rng: rng_for(seed), pack, cut_card },
            next: 0,
            round_start: 0,
            cut_at: usize::MAX,
            reshuffle_due: true,
            dealt_before: 0,
            fast_end: 0,
        }
    }

    /// A stacked shoe: `cards` dealt exactly in this order, never shuffled.
    pub fn stacked(cards: Vec<Card>) -> Shoe {
        Shoe {
            source: Source::Stacked,
            fast_end: cards.len(),
            cards,
            next: 0,
            round_start: 0,
            cut_at: usize::MAX,
            reshuffle_due: false,
            dealt_before: 0,
        }
    }

    /// Call before each round: moves the last round's cards to the discards
    /// and, if the cut card came out (or the shoe is new), shuffles every
    /// card. Returns whether it shuffled.
    #[inline]
    pub fn start_round(&mut self) -> bool {
        self.round_start = self.next;
        self.reshuffle_due && self.shuffle_all()
    }

    /// Shuffles every card of a seeded shoe (a stacked one has nothing to
    /// shuffle: false). Every few dozen rounds: out of line.
    #[inline(never)]
    fn shuffle_all(&mut self) -> bool {
        let Source::Seeded { rng, pack, cut_card } = &mut self.source else { return false };
        self.cards.clear();
        self.cards.extend_from_slice(pack);
        shuffle(&mut self.cards, rng);
        // The cut: a seeded point splits the pack and the halves swap.
        let cut = draw_index(below(rng, draw_bound(self.cards.len())));
        self.cards.rotate_left(cut);
        self.cut_at = self.cards.len().saturating_sub(usize::from(*cut_card));
        self.dealt_before += self.next;
        self.next = 0;
        self.round_start = 0;
        self.reshuffle_due = false;
        self.set_fast_end();
        true
    }

    fn set_fast_end(&mut self) {
        self.fast_end = self.cut_at.saturating_sub(1).min(self.cards.len());
    }

    /// Cards dealt in all.
    fn dealt(&self) -> usize {
        self.dealt_before + self.next
    }

    /// Deals one card. A seeded shoe that runs dry shuffles the earlier
    /// rounds' discards and goes on (reported through `on_shuffle`); a
    /// stacked shoe that runs out is an error.
    #[inline]
    pub fn deal(&mut self, on_shuffle: impl FnMut(ShuffleKind)) -> Result<Card, ShoeExhausted> {
        if self.next < self.fast_end {
            let card = self.cards[self.next];
            self.next += 1;
            return Ok(card);
        }
        self.deal_at_the_end(on_shuffle)
    }

    /// [`Shoe::deal`] at the shoe's end or the cut card: a few cards a
    /// shoe, out of line.
    #[inline(never)]
    fn deal_at_the_end(&mut self, mut on_shuffle: impl FnMut(ShuffleKind)) -> Result<Card, ShoeExhausted> {
        if self.next == self.cards.len() {
            self.reshuffle_discards()?;
            on_shuffle(ShuffleKind::Discards);
        }
        let card = self.cards[self.next];
        self.next += 1;
        if self.next >= self.cut_at {
            self.reshuffle_due = true;
        }
        Ok(card)
    }

    /// The shoe ran dry mid-round: this round's cards move to the front
    /// (still dealt), the earlier discards behind them are shuffled and
    /// dealt on. A full shuffle follows after the round.
    fn reshuffle_discards(&mut self) -> Result<(), ShoeExhausted> {
        let Source::Seeded { rng, .. } = &mut self.source else {
            return Err(ShoeExhausted { dealt: self.dealt() });
        };
        let in_play = self.next - self.round_start;
        if self.round_start == 0 {
            // Every card is in this round: nothing to reshuffle. Only
            // reachable with absurd tables (a 1-deck shoe and 7 boxes
            // splitting to the limit); refuse rather than invent cards.
            return Err(ShoeExhausted { dealt: self.dealt() });
        }
        self.cards.rotate_left(self.round_start);
        shuffle(&mut self.cards[in_play..], rng);
        self.round_start = 0;
        self.dealt_before += self.next - in_play;
        self.next = in_play;
        self.cut_at = usize::MAX;
        self.reshuffle_due = true;
        self.set_fast_end();
        Ok(())
    }

    /// Makes the next round start with a full shuffle (a seeded shoe
    /// only; a stacked shoe is never shuffled).
    pub fn force_shuffle(&mut self) {
        if matches!(self.source, Source::Seeded { .. }) {
            self.reshuffle_due = true;
        }
    }

    /// Is this a seeded (not a stacked) shoe?
    pub fn is_seeded(&self) -> bool {
        matches!(self.source, Source::Seeded { .. })
    }

    /// Cards still to deal before the shoe runs dry.
    pub fn remaining(&self) -> usize {
        self.cards.len() - self.next
    }

    /// Will the next round start with a full shuffle?
    pub fn reshuffle_due(&self) -> bool {
        self.reshuffle_due
    }
}

/// Parses a stacked-shoe file: ranks `A 2-9 T J Q K` (or `10`) separated by
/// whitespace or commas; `#` starts a comment to the end of the line.
/// A bad token is reported with its line and column (1-based).
pub fn parse_stacked(text: &str) -> Result<Vec<Card>, StackedShoeError> {
    let mut cards = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("");
        for token in content.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() {
                continue;
            }
            // Where the token starts in `content`: separators may be wider
            // than a byte (U+0085 is whitespace and two bytes).
            let start = token.as_ptr() as usize - content.as_ptr() as usize;
            match Card::parse(token) {
                Some(card) => cards.push(card),
                None => {
                    return Err(StackedShoeError {
                        line: line_no + 1,
                        column: content[..start].chars().count() + 1,
                        token: token.to_string(),
                    });
                }
            }
        }
    }
    Ok(cards)
}

/// A token in a shoe file that is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: `{token}` is not a card (use A 2 3 4 5 6 7 8 9 T J Q K)")]
pub struct StackedShoeError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The offending text.
    pub token: String,
}

#[cfg(test)]
mod fairness;

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols(cards: &[Card]) -> String {
        cards.iter().map(|c| c.symbol()).collect()
    }

    /// Golden: the replay format. If this changes, every recorded match
    /// replays differently — do not "fix" the expected string.
    #[test]
    fn golden_first_cards_of_seed_42() {
        let mut shoe = Shoe::seeded(6, 78, 42);
        assert!(shoe.start_round());
        let first: Vec<Card> = (0..32).map(|_| shoe.deal(|_| panic!()).unwrap()).collect();
        assert_eq!(symbols(&first), GOLDEN_SEED_42);
    }

    const GOLDEN_SEED_42: &str = "2T2QJ4456QKA4566Q5AK865AA2J859K3";

    #[test]
    fn a_full_shuffle_holds_every_card_once() {
        let mut shoe = Shoe::seeded(6, 78, 7);
        shoe.start_round();
        let mut counts = [0; 14];
        for _ in 0..312 {
            counts[usize::from(shoe.deal(|_| panic!()).unwrap().rank())] += 1;
        }
        assert!(counts[1..].iter().all(|&n| n == 24), "{counts:?}");
    }

    #[test]
    fn different_seeds_give_different_orders() {
        let mut a = Shoe::seeded(6, 78, 1);
        let mut b = Shoe::seeded(6, 78, 2);
        a.start_round();
        b.start_round();
        let da: Vec<Card> = (0..20).map(|_| a.deal(|_| ()).unwrap()).collect();
        let db: Vec<Card> = (0..20).map(|_| b.deal(|_| ()).unwrap()).collect();
        assert_ne!(da, db);
    }

    #[test]
    fn cut_card_finishes_the_round_then_shuffles() {
        let mut shoe = Shoe::seeded(1, 26, 3);
        assert!(shoe.start_round());
        for _ in 0..26 {
            shoe.deal(|_| panic!()).unwrap();
        }
        assert!(shoe.reshuffle_due(), "the cut card came out with the 26th card");
        // The round goes on from the same shoe ...
        shoe.deal(|_| panic!("no shuffle mid-round")).unwrap();
        assert_eq!(shoe.remaining(), 25);
        // ... and the next round starts with a full shoe.
        assert!(shoe.start_round());
        assert_eq!(shoe.remaining(), 52);
    }

    #[test]
    fn a_dry_shoe_reshuffles_only_earlier_rounds_discards() {
        // Cut card at the very end: it never triggers before the shoe is dry.
        let mut shoe = Shoe::seeded(1, 0, 9);
        shoe.start_round();
        let earlier: Vec<Card> = (0..40).map(|_| shoe.deal(|_| panic!()).unwrap()).collect();
        assert!(!shoe.start_round());
        for _ in 0..12 {
            shoe.deal(|_| panic!("12 cards remain")).unwrap();
        }
        let mut kinds = Vec::new();
        let after: Vec<Card> = (0..40).map(|_| shoe.deal(|k| kinds.push(k)).unwrap()).collect();
        assert_eq!(kinds, [ShuffleKind::Discards]);
        // Exactly the 40 earlier cards come back, in some order; this
        // round's 12 stay out.
        let (mut e, mut a) = (earlier.clone(), after.clone());
        e.sort();
        a.sort();
        assert_eq!(e, a);
        assert_eq!(shoe.remaining(), 0);
        // Dry again with no earlier round left: every card dealt is
        // counted, the redealt discards too.
        assert_eq!(shoe.deal(|_| ()), Err(ShoeExhausted { dealt: 92 }));
        // After that round a full shuffle of all 52 follows.
        assert!(shoe.start_round());
        assert_eq!(shoe.remaining(), 52);
    }

    #[test]
    fn stacked_shoe_deals_in_order_then_runs_out() {
        let cards = parse_stacked("6 T # comment\n5, q\nK 10").unwrap();
        assert_eq!(symbols(&cards), "6T5QKT");
        let mut shoe = Shoe::stacked(cards);
        shoe.start_round();
        let dealt: Vec<Card> = (0..6).map(|_| shoe.deal(|_| panic!()).unwrap()).collect();
        assert_eq!(symbols(&dealt), "6T5QKT");
        assert_eq!(shoe.deal(|_| ()), Err(ShoeExhausted { dealt: 6 }));
    }

    #[test]
    fn a_typo_in_a_shoe_file_names_line_and_column() {
        let e = parse_stacked("A K\n  7 X 9\n").unwrap_err();
        assert_eq!((e.line, e.column, e.token.as_str()), (2, 5, "X"));
        assert!(e.to_string().starts_with("line 2, column 5: `X`"), "{e}");
        // A separator two bytes wide (U+0085 is whitespace) counts as one column.
        let e = parse_stacked("A\u{85}\u{85}X").unwrap_err();
        assert_eq!((e.line, e.column, e.token.as_str()), (1, 4, "X"));
    }

    #[test]
    fn bounded_draw_covers_the_range_evenly() {
        let mut rng = rng_for(5);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[draw_index(below(&mut rng, 7))] += 1;
        }
        assert!(counts.iter().all(|&n| (9_000..11_000).contains(&n)), "{counts:?}");
    }
}
