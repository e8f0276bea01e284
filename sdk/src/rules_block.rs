//! The rules block every request carries (32 bytes at
//! [`crate::abi::offset::RULES`]) and its flag bits; re-exported from
//! [`crate::abi`], whose layout it is part of.

/// Bits of [`RulesBlock::flags`].
pub mod rule_flag {
    /// The dealer takes a hidden hole card and peeks for blackjack.
    pub const HOLE_CARD: u8 = 1 << 0;
    /// The dealer hits soft 17.
    pub const HITS_SOFT_17: u8 = 1 << 1;
    /// Late surrender is offered.
    pub const SURRENDER: u8 = 1 << 2;
    /// Doubling after a split is allowed.
    pub const DOUBLE_AFTER_SPLIT: u8 = 1 << 3;
    /// Aces may be split again.
    pub const RESPLIT_ACES: u8 = 1 << 4;
    /// Even money is offered on a blackjack against an ace.
    pub const EVEN_MONEY: u8 = 1 << 5;
    /// The Over/Under 13 side bet is offered.
    pub const OVER_UNDER_13: u8 = 1 << 6;
    /// A dealer blackjack takes only the original bets (else all bets).
    pub const ORIGINAL_BETS_ONLY: u8 = 1 << 7;
}

/// Bits of [`RulesBlock::flags2`].
pub mod rule_flag2 {
    /// A soft two-card hand may double (if its hard total qualifies).
    pub const DOUBLE_SOFT: u8 = 1 << 0;
    /// After doubling a soft hand, its aces count 1.
    pub const ACES_LOW_AFTER_SOFT_DOUBLE: u8 = 1 << 1;
    /// Back bets are allowed.
    pub const BACK_BETS: u8 = 1 << 2;
}

/// The rules in force, as every request carries them (32 bytes at
/// [`crate::abi::offset::RULES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RulesBlock {
    /// Decks in the shoe.
    pub decks: u8,
    /// Boxes at the table.
    pub boxes: u8,
    /// Most hands a box may split into; 0 = unlimited.
    pub max_split_hands: u8,
    /// [`rule_flag`] bits.
    pub flags: u8,
    /// Cards behind the cut card.
    pub cut_card: u16,
    /// Blackjack pays `num:den`.
    pub blackjack_num: u8,
    /// See `blackjack_num`.
    pub blackjack_den: u8,
    /// Insurance offered on: 0 never, 1 an ace, 2 an ace or a ten.
    pub insurance_on: u8,
    /// Insurance stake: 0 exactly half the bet, 1 any amount up to half.
    pub insurance_up_to_half: u8,
    /// Equal totals up to this one go to the dealer (0 = every tie pushes).
    pub dealer_wins_ties_to: u8,
    /// Bit `t` set: a two-card hand with hard total `t` (aces 1) may double.
    pub double_totals: u32,
    /// More [`rule_flag2`] bits.
    pub flags2: u8,
    /// Boxes one player may hold.
    pub boxes_per_player: u8,
}

impl RulesBlock {
    /// Any total may double.
    pub const DOUBLE_ANY: u32 = u32::MAX;

    pub(crate) fn write(&self, b: &mut [u8]) {
        b[0] = self.decks;
        b[1] = self.boxes;
        b[2] = self.max_split_hands;
        b[3] = self.flags;
        b[4..6].copy_from_slice(&self.cut_card.to_le_bytes());
        b[6] = self.blackjack_num;
        b[7] = self.blackjack_den;
        b[8] = self.insurance_on;
        b[9] = self.insurance_up_to_half;
        b[10] = self.dealer_wins_ties_to;
        b[11] = self.flags2;
        b[12..16].copy_from_slice(&self.double_totals.to_le_bytes());
        b[16] = self.boxes_per_player;
        b[17..32].fill(0);
    }

    #[inline]
    pub(crate) fn read(b: &[u8]) -> RulesBlock {
        RulesBlock {
            decks: b[0],
            boxes: b[1],
            max_split_hands: b[2],
            flags: b[3],
            cut_card: u16::from_le_bytes([b[4], b[5]]),
            blackjack_num: b[6],
            blackjack_den: b[7],
            insurance_on: b[8],
            insurance_up_to_half: b[9],
            dealer_wins_ties_to: b[10],
            double_totals: u32::from_le_bytes([b[12], b[13], b[14], b[15]]),
            flags2: b[11],
            boxes_per_player: b[16],
        }
    }

    /// Is a [`rule_flag`] set?
    #[inline]
    pub const fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}
