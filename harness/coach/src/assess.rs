//! One round valued: each decision's EV given away (best − chosen, in
//! chips) and the round's optimal EV, from a [`RoundLog`].
//!
//! **The optimal EV of a round** is the exact expectation, from the
//! cards left at the round's start, of optimal play (the bot's own bet,
//! then the best side bet, insurance, even money and play). Computing it
//! exactly needs every up card and two-card hand valued from that
//! composition, about a second of analysis, so a round's figure is
//! instead estimated without bias: the exact optimal value of the deal
//! the round actually got (valued from the composition after it), less
//! that deal's luck measured by the deal table, a fixed table of every
//! deal's optimal value off the top whose expectation from the round's
//! start is computed exactly (a control variate). Its expectation is the
//! exact optimal EV whatever the table holds; the table only makes its
//! spread small.

use pitboss_sdk::{Action, SideBet};
use pitboss_strategy::deck::{ACE, Hand, RANKS};

use crate::luck::DealerValues;
use crate::track::{Choice, Play, RoundLog};
use crate::value::{Counts, Valuer};

/// What a decision was about, for grouping.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Situation {
    /// `play`, `insurance`, `even money` or `side bet`.
    pub decision: &'static str,
    /// The hand: `hard 16`, `soft 18`, `pair 8,8`, with `, 3+ cards` or
    /// `, split` when so; empty for a side bet.
    pub hand: String,
    /// The up card (`A`, `2`–`9`, `T`); empty for a side bet.
    pub up: String,
}

/// One valued decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Valued {
    /// What it was about.
    pub situation: Situation,
    /// What the bot did.
    pub chosen: String,
    /// The best choice.
    pub best: String,
    /// EV given away, in chips (0 when the bot chose the best).
    pub chips: f64,
    /// The same valued off the top of a full shoe: what the choice costs
    /// whatever the count (a strategy error rather than a missed
    /// deviation).
    pub off_top: f64,
}

/// A valued round.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Assessed {
    /// The bot's stake.
    pub bet: i64,
    /// Chips won.
    pub net: i64,
    /// The round's optimal EV, in chips (the unbiased estimate above).
    pub optimal: f64,
    /// The exact optimal value of the round once dealt, in chips.
    pub dealt_optimal: f64,
    /// Every decision, valued.
    pub decisions: Vec<Valued>,
    /// The luck of the round's cards, in chips (see `luck`).
    pub luck: f64,
    /// The player's edge at the round's start, per unit bet (see
    /// `betting`): the deal table's exact expectation from the starting
    /// shoe, plus the best side bet's exact EV from it.
    pub edge: f64,
    /// The Hi-Lo true count at the round's start, rounded down, −4 to +4.
    pub true_count: i32,
}

/// The Hi-Lo true count of the cards gone from a shoe whose unseen cards
/// are `unseen` (rank 0 the ace … 9 the tens): the running count of the
/// cards seen (the tags of a full shoe sum to zero, so it is minus the
/// unseen cards' tags) per deck left, rounded down and held to −4..=4.
pub fn true_count(unseen: &Counts) -> i32 {
    let tag = |rank: usize| match rank {
        1..=5 => 1,
        0 | 9 => -1,
        _ => 0,
    };
    let running: i64 = -unseen.iter().enumerate().map(|(r, &n)| tag(r) * i64::from(n)).sum::<i64>();
    let left: i64 = unseen.iter().map(|&n| i64::from(n)).sum();
    if left == 0 {
        return 0;
    }
    (running as f64 * 52.0 / left as f64).floor().clamp(-4.0, 4.0) as i32
}

impl Assessed {
    /// EV given away over the round, in chips.
    pub fn given_away(&self) -> f64 {
        self.decisions.iter().map(|d| d.chips).sum()
    }

    /// EV given away over the round valued off the top, in chips.
    pub fn given_away_off_top(&self) -> f64 {
        self.decisions.iter().map(|d| d.off_top).sum()
    }
}

/// The symbol of a rank index.
pub fn symbol(rank: usize) -> &'static str {
    ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"][rank.min(RANKS - 1)]
}

fn hand_label(hand: &Hand, from_split: bool) -> String {
    let pair = (hand.len == 2).then(|| hand.counts.iter().position(|&n| n == 2)).flatten();
    let mut label = match pair {
        Some(p) => format!("pair {},{}", symbol(p), symbol(p)),
        None if hand.is_soft() => format!("soft {}", hand.best()),
        None => format!("hard {}", hand.best()),
    };
    if hand.len > 2 {
        label.push_str(", 3+ cards");
    } else if from_split {
        label.push_str(", split");
    }
    label
}

fn side_name(side: Option<(SideBet, i64)>) -> String {
    match side {
        None | Some((SideBet::None, _)) => "none".into(),
        Some((SideBet::Over, a)) => format!("over {a}"),
        Some((SideBet::Under, a)) => format!("under {a}"),
    }
}

/// The most chips a bet of `bet` may insure under `rules`.
pub fn insurance_max(bet: i64) -> i64 {
    bet / 2
}

/// Values `log` (a round the bot bet in); `None` if the deal never
/// completed (a void round).
pub fn assess(v: &mut Valuer, dealer: &mut DealerValues, log: &RoundLog) -> Option<Assessed> {
    let (up, after) = (log.up?, log.after_deal?);
    let bet = log.bet as f64;
    let mut out = Assessed { bet: log.bet, net: log.net, ..Assessed::default() };
    let mut side_best = 0.0;
    if log.side_offered {
        let options = [None, Some((SideBet::Over, log.bet)), Some((SideBet::Under, log.bet))];
        let ev_from =
            |shoe: &Counts, s: Option<(SideBet, i64)>| s.map_or(0.0, |(side, a)| Valuer::side_bet(shoe, side, a));
        let best_from = |shoe: &Counts| {
            options.into_iter().max_by(|a, b| ev_from(shoe, *a).total_cmp(&ev_from(shoe, *b))).flatten()
        };
        let best = best_from(&log.start);
        side_best = ev_from(&log.start, best);
        let full = v.full();
        out.decisions.push(Valued {
            situation: Situation { decision: "side bet", hand: String::new(), up: String::new() },
            chosen: side_name(log.side),
            best: side_name(best),
            chips: side_best - ev_from(&log.start, log.side),
            off_top: ev_from(full, best_from(full)) - ev_from(full, log.side),
        });
    }
    let insurance = insurance_max(log.bet) as f64 / bet;
    out.dealt_optimal = bet * v.deal_value(&after, up, &log.dealt, insurance) + side_best;
    let expected = v.expected_deal(&log.start);
    out.optimal = out.dealt_optimal - bet * (v.deal_table(up, &log.dealt) - expected);
    out.edge = expected + side_best / bet;
    out.true_count = true_count(&log.start);
    for choice in &log.choices {
        let mut valued = value_choice(v, choice, up, log);
        let top = match choice {
            Choice::Act(play) => Choice::Act(Play { unseen: v.off_top(up, &play.hand), ..*play }),
            Choice::Insurance { stake, max, .. } => {
                Choice::Insurance { unseen: v.off_top(up, &log.dealt), stake: *stake, max: *max }
            }
            Choice::EvenMoney { took, .. } => Choice::EvenMoney { unseen: v.off_top(up, &log.dealt), took: *took },
        };
        valued.off_top = value_choice(v, &top, up, log).chips;
        out.decisions.push(valued);
    }
    out.luck = crate::luck::luck(v, dealer, log);
    v.end_round();
    Some(out)
}

fn situation(decision: &'static str, hand: &Hand, from_split: bool, up: usize) -> Situation {
    Situation { decision, hand: hand_label(hand, from_split), up: symbol(up).into() }
}

/// One decision valued from the composition it records.
fn value_choice(v: &mut Valuer, choice: &Choice, up: usize, log: &RoundLog) -> Valued {
    let bet = log.bet as f64;
    match choice {
        Choice::Act(play) => act(v, play, up, log.bet),
        Choice::Insurance { unseen, stake, max } => {
            let edge = 3.0 * Valuer::natural_chance(unseen, up) - 1.0;
            let best = if edge > 0.0 { *max } else { 0 };
            let name = |s: i64| if s == 0 { "decline".to_string() } else { format!("insure {s}") };
            Valued {
                situation: situation("insurance", &log.dealt, false, up),
                chosen: name(*stake),
                best: name(best),
                chips: edge * (best - stake) as f64,
                off_top: 0.0,
            }
        }
        Choice::EvenMoney { unseen, took } => {
            let p = Valuer::natural_chance(unseen, up);
            let take = bet;
            let ins = insurance_max(log.bet) as f64 * (3.0 * p - 1.0).max(0.0);
            let decline = bet * v.game().blackjack * (1.0 - p) + ins;
            let (best, most) = if take >= decline { ("take", take) } else { ("decline", decline) };
            Valued {
                situation: situation("even money", &log.dealt, false, ACE),
                chosen: if *took { "take" } else { "decline" }.into(),
                best: best.into(),
                chips: most - if *took { take } else { decline },
                off_top: 0.0,
            }
        }
    }
}

/// A play valued: every legal action from the composition the bot saw.
fn act(v: &mut Valuer, play: &Play, up: usize, stake: i64) -> Valued {
    let Play { unseen, hand, from_split, hands, legal, action } = play;
    let action = *action;
    let values = v.act(unseen, up, hand, *legal, u32::from(*hands));
    let (mut best, mut most) = (action, f64::NEG_INFINITY);
    for a in Action::ALL {
        if let Some(x) = values[a as usize]
            && x > most
        {
            (best, most) = (a, x);
        }
    }
    let chosen = values[action as usize].unwrap_or(most);
    Valued {
        situation: situation("play", hand, *from_split, up),
        chosen: action.name().into(),
        best: best.name().into(),
        chips: (most - chosen) * stake as f64,
        off_top: 0.0,
    }
}
