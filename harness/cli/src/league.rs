//! League files (minimal format, see `leagues/README.md`): which bots play
//! which rules for how many rounds from which seed, and the standings.

use std::path::Path;

use anyhow::{Context, Result, bail};
use pitboss_engine::{Banker, InsuranceOn, Rules, derive_seed};
use pitboss_host::Sandbox;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::bots::Bot;
use crate::matchplay::{BotResult, MatchSpec, play_table};

/// How bots are seated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every bot at one table, sharing the shoe, in file order.
    #[default]
    Table,
    /// Duplicate: each bot alone at its own table, all tables dealt from
    /// the same seed, so luck is shared and only skill differs.
    Solo,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Table => "table",
            Format::Solo => "solo",
        })
    }
}

/// A league file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueFile {
    /// Display name.
    pub name: String,
    /// Rule set id, e.g. `north-american`.
    pub variant: String,
    /// Rounds per table.
    pub rounds: u64,
    /// Master seed.
    pub seed: u64,
    /// Chips each bot starts with.
    pub bankroll: i64,
    /// Seating.
    #[serde(default)]
    pub format: Format,
    /// Faults after which a bot is disqualified (0 = never).
    #[serde(default = "default_fault_limit")]
    pub fault_limit: u64,
    /// Overrides of the rule set's defaults.
    #[serde(default)]
    pub rules: RuleOverrides,
    /// The bots.
    #[serde(rename = "bot")]
    pub bots: Vec<BotEntry>,
}

/// `[rules]`: any rule field of the variant, overridden. Each value keeps
/// its place in the file so a refusal can point at it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOverrides {
    decks: Option<Spanned<u8>>,
    cut_card: Option<Spanned<u16>>,
    boxes: Option<Spanned<u8>>,
    hole_card: Option<Spanned<bool>>,
    dealer_hits_soft_17: Option<Spanned<bool>>,
    insurance: Option<Spanned<String>>,
    insurance_up_to_half: Option<Spanned<bool>>,
    late_surrender: Option<Spanned<bool>>,
    double_totals: Option<Spanned<Vec<u8>>>,
    double_after_split: Option<Spanned<bool>>,
    max_split_hands: Option<Spanned<u8>>,
    resplit_aces: Option<Spanned<bool>>,
    blackjack_pays: Option<Spanned<String>>,
    min_bet: Option<Spanned<i64>>,
    max_bet: Option<Spanned<i64>>,
    bet_unit: Option<Spanned<i64>>,
    double_soft: Option<Spanned<bool>>,
    aces_low_after_soft_double: Option<Spanned<bool>>,
    dealer_wins_ties_to: Option<Spanned<u8>>,
    original_bets_only: Option<Spanned<bool>>,
    even_money: Option<Spanned<bool>>,
    over_under_13: Option<Spanned<bool>>,
    back_bets: Option<Spanned<bool>>,
    boxes_per_player: Option<Spanned<u8>>,
    shuffle_every_round: Option<Spanned<bool>>,
    banker: Option<Spanned<String>>,
}

impl RuleOverrides {
    /// `rules` with these overrides, validated. An error names the field
    /// and the byte offset of its value.
    pub fn apply(&self, mut rules: Rules) -> Result<Rules, (usize, String)> {
        fn set<T: Clone>(slot: &mut T, value: &Option<Spanned<T>>) {
            if let Some(v) = value {
                *slot = v.get_ref().clone();
            }
        }
        let at = |v: &Option<Spanned<String>>| v.as_ref().map_or(0, |s| s.span().start);
        set(&mut rules.decks, &self.decks);
        set(&mut rules.cut_card, &self.cut_card);
        set(&mut rules.boxes, &self.boxes);
        set(&mut rules.hole_card, &self.hole_card);
        set(&mut rules.dealer_hits_soft_17, &self.dealer_hits_soft_17);
        set(&mut rules.insurance_up_to_half, &self.insurance_up_to_half);
        set(&mut rules.late_surrender, &self.late_surrender);
        set(&mut rules.double_after_split, &self.double_after_split);
        set(&mut rules.max_split_hands, &self.max_split_hands);
        set(&mut rules.resplit_aces, &self.resplit_aces);
        set(&mut rules.min_bet, &self.min_bet);
        set(&mut rules.max_bet, &self.max_bet);
        set(&mut rules.bet_unit, &self.bet_unit);
        set(&mut rules.double_soft, &self.double_soft);
        set(&mut rules.aces_low_after_soft_double, &self.aces_low_after_soft_double);
        set(&mut rules.dealer_wins_ties_to, &self.dealer_wins_ties_to);
        set(&mut rules.original_bets_only, &self.original_bets_only);
        set(&mut rules.even_money, &self.even_money);
        set(&mut rules.over_under_13, &self.over_under_13);
        set(&mut rules.back_bets, &self.back_bets);
        set(&mut rules.boxes_per_player, &self.boxes_per_player);
        set(&mut rules.shuffle_every_round, &self.shuffle_every_round);
        if let Some(v) = &self.banker {
            let text = v.get_ref().as_str();
            rules.banker = match text {
                "house" => Banker::House,
                "rotate" => Banker::Rotate,
                _ => match text.strip_prefix("seat:").and_then(|n| n.parse().ok()) {
                    Some(seat) => Banker::Seat(seat),
                    None => {
                        let msg = format!("rule `banker`: `{text}` is not one of house, rotate, seat:N");
                        return Err((at(&self.banker), msg));
                    }
                },
            };
        }
        if let Some(v) = &self.insurance {
            rules.insurance_on = match v.get_ref().as_str() {
                "never" => InsuranceOn::Never,
                "ace" => InsuranceOn::Ace,
                "ace-or-ten" => InsuranceOn::AceOrTen,
                other => {
                    let msg = format!("rule `insurance`: `{other}` is not one of never, ace, ace-or-ten");
                    return Err((at(&self.insurance), msg));
                }
            };
        }
        if let Some(v) = &self.double_totals {
            let mut mask = 0u32;
            for &t in v.get_ref() {
                if !(2..=21).contains(&t) {
                    return Err((v.span().start, format!("rule `double_totals`: {t} is no two-card total (2 to 21)")));
                }
                mask |= 1 << t;
            }
            rules.double_totals = mask;
        }
        if let Some(v) = &self.blackjack_pays {
            let parsed =
                v.get_ref().split_once(':').and_then(|(n, d)| Some((n.trim().parse().ok()?, d.trim().parse().ok()?)));
            match parsed {
                Some(pays) => rules.blackjack_pays = pays,
                None => {
                    let msg = format!("rule `blackjack_pays`: `{}` is not a ratio like \"3:2\"", v.get_ref());
                    return Err((at(&self.blackjack_pays), msg));
                }
            }
        }
        rules.validate().map_err(|e| (self.offset_of(e.field), e.to_string()))?;
        Ok(rules)
    }

    /// Where the value of `field` is in the file (0 if not overridden).
    fn offset_of(&self, field: &str) -> usize {
        fn start<T>(v: &Option<Spanned<T>>) -> Option<usize> {
            v.as_ref().map(|s| s.span().start)
        }
        let found = match field {
            "decks" => start(&self.decks),
            "cut_card" => start(&self.cut_card),
            "boxes" => start(&self.boxes),
            "hole_card" => start(&self.hole_card),
            "max_split_hands" => start(&self.max_split_hands),
            "blackjack_pays" => start(&self.blackjack_pays),
            "min_bet" => start(&self.min_bet),
            "max_bet" => start(&self.max_bet),
            "bet_unit" => start(&self.bet_unit),
            "boxes_per_player" => start(&self.boxes_per_player),
            "original_bets_only" => start(&self.original_bets_only),
            "dealer_wins_ties_to" => start(&self.dealer_wins_ties_to),
            "banker" => start(&self.banker),
            _ => None,
        };
        found.unwrap_or(0)
    }
}

/// Faults after which a bot is disqualified unless a league says otherwise.
pub const DEFAULT_FAULT_LIMIT: u64 = 100;

fn default_fault_limit() -> u64 {
    DEFAULT_FAULT_LIMIT
}

/// One `[[bot]]` entry: a name and either a wasm path or a builtin.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// Display name, unique within the league.
    pub name: String,
    /// Path to a `.wasm` file, relative to the league file.
    pub path: Option<String>,
    /// Name of a builtin strategy.
    pub builtin: Option<String>,
}

/// One row of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based rank by final balance.
    pub rank: usize,
    /// The bot's result.
    #[serde(flatten)]
    pub result: BotResult,
}

/// A finished league.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeagueResult {
    /// Display name.
    pub name: String,
    /// Rule set id.
    pub variant: String,
    /// Master seed.
    pub seed: u64,
    /// Rounds per table.
    pub rounds: u64,
    /// Seating.
    pub format: Format,
    /// Ranked by final balance (ties by name).
    pub standings: Vec<Standing>,
}

/// Reads and checks a league file; errors name the file (and, for syntax
/// and type errors, the line and column).
pub fn parse(path: &Path) -> Result<LeagueFile> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read league file {}", path.display()))?;
    let league: LeagueFile = toml::from_str(&text).map_err(|e| {
        let at = e.span().map(|s| line_col(&text, s.start)).map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default();
        anyhow::anyhow!("{}{at}: {}", path.display(), e.message())
    })?;
    let variant = Rules::variant_by_id(&league.variant).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let defaults = Rules::for_variant(variant).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if let Err((offset, problem)) = league.rules.apply(defaults) {
        let (line, col) = line_col(&text, offset);
        bail!("{}:{line}:{col}: {problem}", path.display());
    }
    if league.bots.is_empty() {
        bail!("{}: the league has no [[bot]] entries", path.display());
    }
    for (i, bot) in league.bots.iter().enumerate() {
        if league.bots[..i].iter().any(|b| b.name == bot.name) {
            bail!("{}: two bots are named `{}`", path.display(), bot.name);
        }
        if bot.path.is_some() == bot.builtin.is_some() {
            bail!("{}: bot `{}` needs exactly one of `path` or `builtin`", path.display(), bot.name);
        }
    }
    if league.bankroll <= 0 {
        bail!("{}: bankroll must be positive", path.display());
    }
    Ok(league)
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Runs a parsed league whose file is at `path` (bot paths are relative to
/// it).
pub fn run(league: &LeagueFile, path: &Path, sandbox: &Sandbox) -> Result<LeagueResult> {
    let variant = Rules::variant_by_id(&league.variant).with_context(|| path.display().to_string())?;
    let defaults = Rules::for_variant(variant).with_context(|| path.display().to_string())?;
    let rules = league.rules.apply(defaults).map_err(|(_, e)| anyhow::anyhow!("{}: {e}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut bots = Vec::new();
    for entry in &league.bots {
        let bot = match (&entry.path, &entry.builtin) {
            (Some(p), _) => Bot::resolve(p, base, sandbox),
            (_, Some(b)) => Bot::builtin(b),
            _ => unreachable!("checked by parse"),
        }
        .with_context(|| format!("{}: bot `{}`", path.display(), entry.name))?;
        bots.push((entry.name.clone(), bot));
    }
    let spec = MatchSpec {
        rules,
        rounds: league.rounds,
        seed: derive_seed(league.seed, 0),
        bankroll: league.bankroll,
        stacked: None,
        fault_limit: league.fault_limit,
    };
    let results: Vec<BotResult> = match league.format {
        Format::Table => {
            if bots.len() > spec.rules.boxes as usize {
                bail!(
                    "{}: {} bots do not fit one table of {} boxes; use format = \"solo\"",
                    path.display(),
                    bots.len(),
                    spec.rules.boxes
                );
            }
            play_table(&spec, &bots, &mut ())?.bots
        }
        Format::Solo => {
            // Tables are independent, so they run in parallel; each is
            // deterministic, so the thread count never changes a result.
            let tables: Vec<Result<BotResult>> = std::thread::scope(|s| {
                let handles: Vec<_> = bots
                    .iter()
                    .map(|bot| {
                        let spec = &spec;
                        s.spawn(move || play_table(spec, std::slice::from_ref(bot), &mut ()).map(|t| t.bots[0].clone()))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a table thread panicked")).collect()
            });
            tables.into_iter().collect::<Result<_>>()?
        }
    };
    Ok(LeagueResult {
        name: league.name.clone(),
        variant: league.variant.clone(),
        seed: league.seed,
        rounds: league.rounds,
        format: league.format,
        standings: rank(results),
    })
}

/// Ranks results by final balance, highest first, disqualified bots last;
/// ties by name.
pub fn rank(mut results: Vec<BotResult>) -> Vec<Standing> {
    results.sort_by(|a, b| {
        a.disqualified.cmp(&b.disqualified).then(b.balance.cmp(&a.balance)).then_with(|| a.name.cmp(&b.name))
    });
    results.into_iter().enumerate().map(|(i, result)| Standing { rank: i + 1, result }).collect()
}
