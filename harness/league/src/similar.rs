//! Behavioural similarity: whether two bots decide alike beyond what two
//! independent bots of the same strategy would, read from their answers
//! alone (students submit compiled code, which no source check reads).
//!
//! [`fingerprint`] plays a bot alone for [`ROUNDS`] rounds of a league's
//! rules from the fixed seed [`SEED`] (every bot is dealt from the same
//! shoes) and records each answer by its situation ([`Situation`]: the
//! decision, the hand's best total, softness, pair and card count up to
//! three, the up card's value and the legal actions — exactly the key
//! `basic` names, `pitboss_sdk::key::part::SUMMARY | UP_VALUE | LEGAL`),
//! beside the answer the built-in `basic` gives to the very same request.
//! The bot is asked every decision, as `pitboss check` audits keys: a key
//! coarser than the situation would hide answers. A bot that faults (a
//! trap, out of fuel) keeps the situations recorded up to the fault, and
//! the fingerprint says where it stopped.
//!
//! [`compare`] sets two fingerprints side by side on the situations both
//! met, by each one's most frequent answer there. Agreeing with `basic`
//! is what any sound bot does, so it is no evidence; what counts is
//! agreement where at least one of the two departs from `basic`. Two
//! bots are [`Verdict::Alike`] when each departs from `basic` in at least
//! [`MIN_DEPARTURES`] situations and they answer alike in at least
//! [`ALIKE_PERCENT`] % of the situations where either departs; two that
//! each agree with `basic` in at least [`BASIC_PERCENT`] % of their
//! situations [`Verdict::BothBasic`]: expected, not evidence. Cheap:
//! a fingerprint is a few thousand decisions, the comparison a merge of
//! two sorted lists.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use anyhow::{Result, bail};
use pitboss_engine::{Fault, FaultKind, Native, Player, Request, Rules};
use pitboss_sdk::{Action, ActionSet, Decision, Variant};
use serde::{Deserialize, Serialize};

use crate::bots::{Bot, seat_seed};
use crate::setup::TableSpec;

/// The seed every fingerprint is dealt from: the same shoes for every bot,
/// whatever the league's own seed (a constant, so a fingerprint can be
/// kept and compared with one made later).
pub const SEED: u64 = 0x5349_4d49_4c41_5231;
/// Rounds a fingerprint plays: about 600 distinct situations for `basic`
/// under the casino rule sets, most met several times.
pub const ROUNDS: u64 = 2_000;
/// Chips the bot starts a fingerprint with: enough that a bot betting the
/// table maximum seldom goes broke in [`ROUNDS`] rounds.
pub const BANKROLL: i64 = 10_000_000;
/// The version of [`Fingerprint`]; a kept fingerprint of another is made
/// again.
pub const FORMAT: u32 = 1;
/// Situations each bot must depart from `basic` in before agreement on
/// them is evidence: fewer is a bot that plays `basic` with a quirk or two.
pub const MIN_DEPARTURES: u32 = 20;
/// Agreement (percent) on the situations where either bot departs from
/// `basic` at or above which two bots are alike. Two bots written apart
/// rarely depart from `basic` the same way in one situation in two; a copy
/// with a decision or two changed agrees in nearly all.
pub const ALIKE_PERCENT: u64 = 90;
/// Agreement with `basic` (percent of a bot's own situations) at or above
/// which a bot is said to play `basic`.
pub const BASIC_PERCENT: u64 = 98;
/// Situations a comparison lists as evidence.
pub const EXAMPLES: usize = 6;
/// Distinct answers kept per situation (a bot answering at random is not
/// given a list per situation that grows with the rounds).
const ANSWERS_KEPT: usize = 8;

/// A decision as `basic` keys it: what it decides on, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Situation {
    /// The decision's code (`Decision`: act, insurance, even money).
    pub kind: u8,
    /// The hand's best total.
    pub total: u8,
    /// The hand is soft.
    pub soft: bool,
    /// The value of a two-card pair (0: none).
    pub pair: u8,
    /// The hand's cards, up to 3.
    pub cards: u8,
    /// The dealer's up card's value (ace 1, every ten 10; 0: none).
    pub up: u8,
    /// The legal actions (`ActionSet` bits).
    pub legal: u8,
}

/// A situation met: how often each answer was given, and `basic`'s answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// The situation.
    pub situation: Situation,
    /// Each answer (normalised: [`normalise`]) and how often it was given,
    /// at most [`ANSWERS_KEPT`] of them.
    pub answers: Vec<(i64, u32)>,
    /// What `basic` answers here.
    pub basic: i64,
}

impl Seen {
    /// The answer given most often (the lowest of a tie).
    pub fn answer(&self) -> Option<i64> {
        self.answers.iter().max_by_key(|&&(a, n)| (n, std::cmp::Reverse(a))).map(|&(a, _)| a)
    }

    /// Times the situation was met.
    pub fn met(&self) -> u32 {
        self.answers.iter().fold(0u32, |n, &(_, k)| n.saturating_add(k))
    }

    /// Its most frequent answer is not `basic`'s.
    pub fn departs(&self) -> bool {
        self.answer() != Some(self.basic)
    }
}

/// A bot's answers by situation over [`ROUNDS`] rounds from [`SEED`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// [`FORMAT`].
    pub format: u32,
    /// Rounds played.
    pub rounds: u64,
    /// Decisions recorded.
    pub decisions: u64,
    /// The situations met, in order.
    pub situations: Vec<Seen>,
    /// Why recording stopped early (a fault, a broke bot), if it did.
    pub stopped: Option<String>,
}

impl Fingerprint {
    /// Situations whose most frequent answer is `basic`'s, and all.
    pub fn with_basic(&self) -> (u32, u32) {
        let agree = self.situations.iter().filter(|s| !s.departs()).count();
        (agree as u32, self.situations.len() as u32)
    }

    /// Agrees with `basic` in at least [`BASIC_PERCENT`] % of its
    /// situations (and met some).
    pub fn plays_basic(&self) -> bool {
        let (agree, all) = self.with_basic();
        all > 0 && u64::from(agree) * 100 >= BASIC_PERCENT * u64::from(all)
    }
}

/// The answer to `kind` as compared: an act's code, insurance and even
/// money as taken (1) or not (0), whatever the stake.
pub fn normalise(kind: Decision, answer: i64) -> i64 {
    match kind {
        Decision::Act => answer,
        _ => i64::from(answer > 0),
    }
}

/// What a recording learned, shared with the caller (the table owns the
/// player).
#[derive(Default)]
struct Log {
    seen: BTreeMap<Situation, Seen>,
    decisions: u64,
    stopped: Option<String>,
}

/// A player that records each answer of the player it wraps, and `basic`'s
/// answer to the same request. It keys nothing, so every decision is asked.
struct Recording {
    bot: Box<dyn Player + Send>,
    basic: Native<basic::Basic>,
    log: Arc<Mutex<Log>>,
}

impl Recording {
    fn log(&self) -> std::sync::MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The situation of `request`, for the decisions a fingerprint records.
fn situation(request: &Request<'_>) -> Option<Situation> {
    let h = request.header;
    if !matches!(h.kind, Decision::Act | Decision::Insurance | Decision::EvenMoney) {
        return None;
    }
    let total = request.total;
    let pair = if pitboss_sdk::is_pair(request.hand) { request.hand[0].value() } else { 0 };
    Some(Situation {
        kind: h.kind as u8,
        total: total.best(),
        soft: total.is_soft(),
        pair,
        cards: request.hand.len().min(3) as u8,
        up: h.dealer_up.map_or(0, |c| c.value()),
        legal: h.legal.0,
    })
}

impl Player for Recording {
    fn decide(&mut self, request: &Request<'_>) -> Result<i64, Fault> {
        if let Some(why) = &self.log().stopped {
            return Err(Fault::new(FaultKind::Disqualified, why.clone()));
        }
        let answer = self.bot.decide(request);
        let Some(situation) = situation(request) else {
            if let Err(fault) = &answer {
                self.log().stopped = Some(stop_line(request, fault));
            }
            return answer;
        };
        let basic = self.basic.decide(request).map_or(-1, |a| normalise(request.header.kind, a));
        let mut log = self.log();
        match &answer {
            Ok(a) => {
                let a = normalise(request.header.kind, *a);
                log.decisions += 1;
                let seen = log.seen.entry(situation).or_insert(Seen { situation, answers: Vec::new(), basic });
                let full = seen.answers.len() >= ANSWERS_KEPT;
                match seen.answers.iter_mut().find(|(b, _)| *b == a) {
                    Some((_, n)) => *n = n.saturating_add(1),
                    None if !full => seen.answers.push((a, 1)),
                    None => {}
                }
            }
            Err(fault) => log.stopped = Some(stop_line(request, fault)),
        }
        answer
    }

    fn take_log(&mut self) -> Option<String> {
        self.bot.take_log()
    }

    fn wants_events(&self, variant: Variant) -> bool {
        self.bot.wants_events(variant)
    }

    fn defaults(&self, variant: Variant) -> u32 {
        self.bot.defaults(variant)
    }
}

/// Where and why a fingerprint stopped at `fault`.
fn stop_line(request: &Request<'_>, fault: &Fault) -> String {
    let message = pitboss_host::text::excerpt(&fault.message, 200);
    format!(
        "stopped at round {} ({} decision): {}: {message}",
        request.header.round,
        request.header.kind.name(),
        fault.kind.name()
    )
}

/// Plays `bot` alone for `rounds` rounds of `rules` from [`SEED`] and
/// records its answers by situation. Refused (one line) for the banker
/// game, whose decisions `basic`'s chart does not key; a bot that faults
/// or goes broke gives the situations it met before.
pub fn fingerprint(rules: &Rules, bot: &Bot, rounds: u64) -> Result<Fingerprint> {
    let seed = seat_seed(SEED, &[0], 0);
    fingerprint_player(rules, bot.player_seeded(seed)?, rounds)
}

/// [`fingerprint`] of a player already made.
fn fingerprint_player(rules: &Rules, bot: Box<dyn Player + Send>, rounds: u64) -> Result<Fingerprint> {
    if rules.game != pitboss_engine::Game::Dealer {
        bail!("similarity compares the dealer games only; `{}` is the banker game", rules.variant.id());
    }
    rules.check_chip_range(BANKROLL, rounds, 1).map_err(|e| anyhow::anyhow!("similarity: {e}"))?;
    let log = Arc::new(Mutex::new(Log::default()));
    let player = Recording { bot, basic: Native::unkeyed(basic::Basic::default()), log: log.clone() };
    let spec = TableSpec { rules, seed: SEED, stacked: None, bankroll: BANKROLL, fault_limit: 0 };
    let mut table = spec.seat_players(vec![Box::new(player)])?;
    let mut stopped = None;
    while table.rounds() < rounds {
        if let Err(e) = table.play_round(&mut ()) {
            stopped = Some(format!("the shoe ran out: {e}"));
            break;
        }
        if log.lock().unwrap_or_else(|e| e.into_inner()).stopped.is_some() {
            break;
        }
        if table.out_for_good(0) {
            stopped = Some(format!("the bot went broke at round {}", table.rounds()));
            break;
        }
    }
    let played = table.rounds();
    drop(table);
    let log = std::mem::take(&mut *log.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Fingerprint {
        format: FORMAT,
        rounds: played,
        decisions: log.decisions,
        situations: log.seen.into_values().collect(),
        stopped: log.stopped.or(stopped),
    })
}

/// What a comparison concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Both depart from `basic` often and the same way: worth a look.
    Alike,
    /// Both play `basic`: agreement is expected, not evidence.
    BothBasic,
    /// Nothing beyond what independent bots share.
    Unlike,
}

/// One situation shown as evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The situation in words ("hard 16 v 10").
    pub situation: String,
    /// Each bot's most frequent answer there, in words.
    pub answers: [String; 2],
    /// `basic`'s answer, in words.
    pub basic: String,
    /// Times each bot met it.
    pub met: [u32; 2],
}

/// Two fingerprints side by side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// Situations both met.
    pub compared: u32,
    /// Of those, where both answered alike.
    pub agreed: u32,
    /// Of those, where at least one departs from `basic`.
    pub departures: u32,
    /// Of the departures, where both answered alike.
    pub departures_agreed: u32,
    /// Situations (of those compared) where each departs from `basic`.
    pub departs: [u32; 2],
    /// Each one's agreement with `basic` over its own situations: agreed,
    /// all ([`Fingerprint::with_basic`]).
    pub with_basic: [(u32, u32); 2],
    /// The conclusion.
    pub verdict: Verdict,
    /// Up to [`EXAMPLES`] departures: those answered alike, then up to two
    /// answered apart.
    pub examples: Vec<Example>,
}

/// Compares `a` and `b` on the situations both met.
pub fn compare(a: &Fingerprint, b: &Fingerprint) -> Comparison {
    let theirs: BTreeMap<Situation, &Seen> = b.situations.iter().map(|s| (s.situation, s)).collect();
    let (mut compared, mut agreed, mut departures, mut departures_agreed, mut departs) = (0, 0, 0, 0, [0u32; 2]);
    let mut evidence = Vec::new();
    for x in &a.situations {
        let Some(y) = theirs.get(&x.situation) else { continue };
        let alike = x.answer() == y.answer();
        compared += 1;
        agreed += u32::from(alike);
        let (dx, dy) = (x.departs(), y.departs());
        departs[0] += u32::from(dx);
        departs[1] += u32::from(dy);
        if dx || dy {
            departures += 1;
            departures_agreed += u32::from(alike);
            evidence.push((x, *y, alike));
        }
    }
    let with_basic = [a.with_basic(), b.with_basic()];
    let verdict = if a.plays_basic() && b.plays_basic() {
        Verdict::BothBasic
    } else if departs.iter().all(|&d| d >= MIN_DEPARTURES)
        && u64::from(departures_agreed) * 100 >= ALIKE_PERCENT * u64::from(departures)
    {
        Verdict::Alike
    } else {
        Verdict::Unlike
    };
    evidence.sort_by_key(|(x, y, alike)| (!alike, std::cmp::Reverse(x.met().min(y.met())), x.situation));
    // The departures answered alike, most met first, then up to two
    // answered apart (where a copy was changed), more if alike are few.
    let apart = evidence.iter().filter(|e| !e.2);
    let alike = evidence.iter().filter(|e| e.2).take(EXAMPLES - apart.clone().count().min(2));
    let examples = alike
        .chain(apart)
        .take(EXAMPLES)
        .map(|(x, y, _)| {
            let kind = Decision::from_code(x.situation.kind);
            let said = |s: &Seen| s.answer().map_or("none".to_string(), |a| answer_words(kind, a));
            Example {
                situation: situation_words(&x.situation),
                answers: [said(x), said(y)],
                basic: answer_words(kind, x.basic),
                met: [x.met(), y.met()],
            }
        })
        .collect();
    Comparison { compared, agreed, departures, departures_agreed, departs, with_basic, verdict, examples }
}

/// A card value in words: `A` for the ace.
fn value_words(v: u8) -> String {
    if v == 1 { "A".to_string() } else { v.to_string() }
}

/// A situation in words: "hard 16 v 10 (hit, stand, double)", "pair of 8s
/// v A …", "soft 18, 3+ cards v 6 …", "insurance on hard 20".
pub fn situation_words(s: &Situation) -> String {
    let hand = if s.pair > 0 {
        format!("pair of {}s", value_words(s.pair))
    } else {
        let soft = if s.soft { "soft" } else { "hard" };
        let more = if s.cards >= 3 { ", 3+ cards" } else { "" };
        format!("{soft} {}{more}", s.total)
    };
    match Decision::from_code(s.kind) {
        Some(Decision::Act) => {
            let legal: Vec<_> = ActionSet(s.legal).iter().map(Action::name).collect();
            format!("{hand} v {} ({})", value_words(s.up), legal.join(", "))
        }
        Some(Decision::Insurance) => format!("insurance on {hand} v {}", value_words(s.up)),
        Some(Decision::EvenMoney) => format!("even money on {hand} v {}", value_words(s.up)),
        _ => format!("decision {} on {hand}", s.kind),
    }
}

/// An answer to `kind` in words.
pub fn answer_words(kind: Option<Decision>, answer: i64) -> String {
    match (kind, answer) {
        (Some(Decision::Act), a) => Action::from_answer(a).map_or(format!("answer {a}"), |a| a.name().to_string()),
        (_, 0) => "decline".to_string(),
        (_, 1) => "take".to_string(),
        (_, a) => format!("answer {a}"),
    }
}

#[cfg(test)]
mod tests {
    use pitboss_sdk::{Strategy, View};

    use super::*;

    /// `basic`, except that it stands on every hard 12 to 16 (a quirk
    /// departing from `basic` in dozens of situations), and, if `changed`,
    /// doubles a hard 11 against an ace where it may (one decision more).
    struct Quirky {
        basic: basic::Basic,
        changed: bool,
    }

    impl Strategy for Quirky {
        fn act(&mut self, view: &View<'_>) -> Action {
            let (total, up) = (view.total(), view.dealer_up().map_or(0, |c| c.value()));
            if !total.is_soft() && (12..=16).contains(&total.best()) && !pitboss_sdk::is_pair(view.hand()) {
                return Action::Stand;
            }
            if self.changed && total.best() == 11 && up == 1 {
                return if view.legal().contains(Action::Double) { Action::Double } else { Action::Hit };
            }
            self.basic.act(view)
        }
    }

    fn quirky(changed: bool) -> Fingerprint {
        let player = Native::unkeyed(Quirky { basic: basic::Basic::default(), changed });
        fingerprint_player(&Rules::north_american(), Box::new(player), ROUNDS).unwrap()
    }

    fn builtin(name: &str) -> Fingerprint {
        fingerprint(&Rules::north_american(), &Bot::builtin(name).unwrap(), ROUNDS).unwrap()
    }

    #[test]
    fn basic_agrees_with_itself_everywhere_and_meets_hundreds_of_situations() {
        let basic = builtin("basic");
        eprintln!("basic: {} situations, {} decisions", basic.situations.len(), basic.decisions);
        assert_eq!(basic.rounds, ROUNDS);
        assert!(basic.situations.len() > 300 && basic.stopped.is_none(), "{}", basic.situations.len());
        assert!(basic.situations.iter().all(|s| !s.departs()));
        let c = compare(&basic, &basic);
        assert_eq!((c.verdict, c.departures, c.agreed), (Verdict::BothBasic, 0, c.compared));
        assert_eq!(basic, builtin("basic"), "the same bot, the same fingerprint");
    }

    #[test]
    fn a_copy_with_one_decision_changed_is_alike_and_says_where() {
        let (quirky, copy) = (quirky(false), quirky(true));
        let c = compare(&quirky, &copy);
        eprintln!("{c:#?}");
        assert_eq!(c.verdict, Verdict::Alike);
        assert!(c.departs[0] >= MIN_DEPARTURES && c.departures > c.departures_agreed, "{c:?}");
        let first = &c.examples[0];
        assert_eq!(
            (first.answers[0].as_str(), first.answers[1].as_str(), first.basic.as_str()),
            ("stand", "stand", "hit")
        );
        assert!(first.situation.starts_with("hard 1"), "{first:?}");
        let changed = c.examples.iter().find(|e| e.answers[0] != e.answers[1]).expect("the changed decision shown");
        assert_eq!((changed.answers[0].as_str(), changed.answers[1].as_str()), ("hit", "double"), "{changed:?}");
        assert!(changed.situation.starts_with("hard 11") && changed.situation.contains(" v A "), "{changed:?}");
        assert!(!quirky.plays_basic());
    }

    #[test]
    fn strategies_written_apart_are_unlike_and_basic_clones_both_basic() {
        let (basic, hilo, never_bust, mimic, random) =
            (builtin("basic"), builtin("hilo"), builtin("never-bust"), builtin("mimic-dealer"), builtin("random"));
        let quirky = quirky(false);
        for (x, y, name) in [
            (&quirky, &never_bust, "quirky v never-bust"),
            (&never_bust, &mimic, "never-bust v mimic-dealer"),
            (&quirky, &basic, "quirky v basic"),
            (&random, &quirky, "random v quirky"),
        ] {
            let c = compare(x, y);
            eprintln!("{name}: {} of {} departures agreed", c.departures_agreed, c.departures);
            assert_eq!(c.verdict, Verdict::Unlike, "{name}: {c:?}");
        }
        // A counter plays basic's answer in most situations most often.
        assert_eq!(compare(&basic, &hilo).verdict, Verdict::BothBasic);
    }

    #[test]
    fn a_bot_that_traps_keeps_what_it_answered_and_says_where_it_stopped() {
        /// `basic`, faulting from its 51st question on.
        struct Faulting(Native<basic::Basic>, u32);
        impl Player for Faulting {
            fn decide(&mut self, request: &Request<'_>) -> Result<i64, Fault> {
                self.1 += 1;
                if self.1 > 50 {
                    return Err(Fault::new(FaultKind::OutOfFuel, "fuel ran out"));
                }
                self.0.decide(request)
            }
        }
        let player = Faulting(Native::unkeyed(basic::Basic::default()), 0);
        let f = fingerprint_player(&Rules::north_american(), Box::new(player), ROUNDS).unwrap();
        let stopped = f.stopped.as_deref().unwrap_or_default();
        assert!(stopped.contains("out-of-fuel") && stopped.contains("round"), "{stopped}");
        assert!(f.rounds < 50 && f.decisions > 0 && f.decisions < 50, "{f:?}");
        assert!(f.plays_basic(), "what it answered before the fault is kept");
    }

    #[test]
    fn the_banker_game_is_refused_in_one_line() {
        let e = fingerprint(&Rules::norwegian_home(), &Bot::builtin("basic").unwrap(), 10).unwrap_err().to_string();
        assert!(e.contains("dealer games only") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn situations_and_answers_read_as_words() {
        let s =
            Situation { kind: Decision::Act as u8, total: 16, soft: false, pair: 8, cards: 2, up: 1, legal: 0b1011 };
        assert_eq!(situation_words(&s), "pair of 8s v A (stand, hit, split)");
        let s = Situation { pair: 0, total: 18, soft: true, cards: 3, up: 6, legal: 0b11, ..s };
        assert_eq!(situation_words(&s), "soft 18, 3+ cards v 6 (stand, hit)");
        assert_eq!(answer_words(Some(Decision::Insurance), 1), "take");
        assert_eq!(answer_words(Some(Decision::Act), 9), "answer 9");
    }
}
