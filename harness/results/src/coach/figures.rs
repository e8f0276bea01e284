//! The coach's figures, declared once: each row of [`FIGURES`] is a
//! figure's JSON key, its label, what it means in plain words, how it is
//! shown and how it is read from a [`Coached`]. `pitboss coach`'s text and
//! the report's HTML (which the server's coach page shows) are drawn from
//! this list, and a test checks every key against the JSON, so a new figure
//! is one row here plus computing it.

use super::Coached;

/// How a figure is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// With its sign, to this many decimals (`+0.123`).
    Signed(usize),
    /// Without a sign, to this many decimals (`0.12`).
    Plain(usize),
    /// A whole number (a count of chips or rounds).
    Whole,
}

impl Format {
    /// `x` as text, with an ASCII minus (the HTML swaps in a true one).
    pub fn show(self, x: f64) -> String {
        match self {
            Format::Signed(places) => format!("{x:+.places$}"),
            Format::Plain(places) => format!("{x:.places$}"),
            Format::Whole => format!("{x:.0}"),
        }
    }
}

/// Which block of the report a figure belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The bot's result and the EV it gave away.
    Result,
    /// Its bets against the edge: the card counters' figures.
    Betting,
}

/// How a number is read from a bot's entry.
pub type Read = fn(&Coached) -> f64;

/// One figure of the coach's report on a bot.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    /// Its path in a bot's entry of the JSON (`luck_adjusted.ev`).
    pub key: &'static str,
    /// Its name in the text and on the page.
    pub label: &'static str,
    /// What it means, in plain words.
    pub what: &'static str,
    /// How it is shown.
    pub format: Format,
    /// Its block.
    pub part: Part,
    /// Reads it from a bot's entry.
    pub value: Read,
    /// Its 95 % interval's half-width, if it has one: the key and a reader.
    pub interval: Option<(&'static str, Read)>,
}

impl Figure {
    /// The figure's value for `c`, as text.
    pub fn show(&self, c: &Coached) -> String {
        self.format.show((self.value)(c))
    }

    /// `± half-width`, or nothing.
    pub fn show_interval(&self, c: &Coached) -> Option<String> {
        self.interval.map(|(_, ci)| format!("± {:.3}", ci(c)))
    }

    /// Every JSON key the figure is read from: its own and its interval's.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.key).chain(self.interval.map(|(key, _)| key))
    }
}

/// The coach's figures, in the order the text and the page show them.
pub const FIGURES: &[Figure] = &[
    Figure {
        key: "ev",
        label: "EV",
        what: "what it won; the true figure is within ± of it, 19 times in 20",
        format: Format::Signed(3),
        part: Part::Result,
        value: |c| c.ev,
        interval: Some(("ci95", |c| c.ci95)),
    },
    Figure {
        key: "ev_given_away",
        label: "EV given away",
        what: "what better choices would have won, knowing the cards left: best − chosen at each decision",
        format: Format::Plain(3),
        part: Part::Result,
        value: |c| c.ev_given_away,
        interval: None,
    },
    Figure {
        key: "ev_given_away_off_top",
        label: "of it off the top",
        what: "what it gives away even from a full shoe: plain mistakes, whatever the count",
        format: Format::Plain(3),
        part: Part::Result,
        value: |c| c.ev_given_away_off_top,
        interval: None,
    },
    Figure {
        key: "luck_adjusted.ev",
        label: "luck-adjusted EV",
        what: "the EV with the luck of the cards taken out, far more precise (AIVAT; docs/coach.md)",
        format: Format::Signed(3),
        part: Part::Result,
        value: |c| c.luck_adjusted.ev,
        interval: Some(("luck_adjusted.ci95", |c| c.luck_adjusted.ci95)),
    },
    Figure {
        key: "ev_optimal",
        label: "optimal EV",
        what: "what perfect play would have won with the same bets and cards left",
        format: Format::Signed(3),
        part: Part::Result,
        value: |c| c.ev_optimal,
        interval: None,
    },
    Figure {
        key: "identity_gap",
        label: "EV + given away − optimal",
        what: "a check on the figures, zero but for luck (the performance-difference identity)",
        format: Format::Signed(3),
        part: Part::Result,
        value: |c| c.identity_gap,
        interval: Some(("identity_ci95", |c| c.identity_ci95)),
    },
    Figure {
        key: "identity_adjusted.ev",
        label: "the same, luck out",
        what: "that check with the luck of the cards taken out: far sharper",
        format: Format::Signed(3),
        part: Part::Result,
        value: |c| c.identity_adjusted.ev,
        interval: Some(("identity_adjusted.ci95", |c| c.identity_adjusted.ci95)),
    },
    Figure {
        key: "betting.mean_bet",
        label: "mean bet",
        what: "chips bet a round",
        format: Format::Plain(2),
        part: Part::Betting,
        value: |c| c.betting.mean_bet,
        interval: None,
    },
    Figure {
        key: "betting.mean_edge",
        label: "edge at the start",
        what: "the player's edge at each round's start, per 100 chips bet",
        format: Format::Signed(3),
        part: Part::Betting,
        value: |c| c.betting.mean_edge,
        interval: None,
    },
    Figure {
        key: "betting.correlation",
        label: "bet–edge correlation",
        what: "−1 to 1: how closely the bet follows the edge",
        format: Format::Signed(3),
        part: Part::Betting,
        value: |c| c.betting.correlation,
        interval: None,
    },
    Figure {
        key: "betting.spread_ev",
        label: "the spread won",
        what: "chips per 100 rounds won by varying the bet",
        format: Format::Signed(3),
        part: Part::Betting,
        value: |c| c.betting.spread_ev,
        interval: None,
    },
    Figure {
        key: "betting.win_rate",
        label: "win rate",
        what: "chips per 100 rounds, with the luck out",
        format: Format::Signed(3),
        part: Part::Betting,
        value: |c| c.betting.win_rate,
        interval: None,
    },
    Figure {
        key: "betting.sd",
        label: "SD",
        what: "standard deviation of the chips won a round",
        format: Format::Plain(3),
        part: Part::Betting,
        value: |c| c.betting.sd,
        interval: None,
    },
    Figure {
        key: "betting.di",
        label: "DI",
        what: "desirability index: 1000 × win rate a round / SD",
        format: Format::Signed(2),
        part: Part::Betting,
        value: |c| c.betting.di,
        interval: None,
    },
    Figure {
        key: "betting.score",
        label: "SCORE",
        what: "(DI / 10)², signed as DI is",
        format: Format::Signed(3),
        part: Part::Betting,
        value: |c| c.betting.score,
        interval: None,
    },
    Figure {
        key: "betting.n0",
        label: "N0",
        what: "rounds for the expectation to reach one SD",
        format: Format::Whole,
        part: Part::Betting,
        value: |c| c.betting.n0,
        interval: None,
    },
    Figure {
        key: "betting.bankroll",
        label: "bankroll",
        what: "the chips the risk of ruin is for",
        format: Format::Whole,
        part: Part::Betting,
        value: |c| c.betting.bankroll as f64,
        interval: None,
    },
    Figure {
        key: "betting.risk_of_ruin",
        label: "risk of ruin",
        what: "the chance of losing that bankroll at this win rate and SD (1: it loses)",
        format: Format::Plain(4),
        part: Part::Betting,
        value: |c| c.betting.risk_of_ruin,
        interval: None,
    },
];

/// A bot entry's JSON value at a dotted `key`, if there is one.
pub fn lookup<'a>(bot: &'a serde_json::Value, key: &str) -> Option<&'a serde_json::Value> {
    key.split('.').try_fold(bot, |v, k| v.get(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_reads_the_json_key_it_names_and_labels_are_distinct() {
        // A bot's entry with every figure's key set to a number of its own:
        // each reader must return that number, so a key and its reader agree.
        let c = super::super::tests::report().bots.remove(0);
        let mut json = serde_json::to_value(&c).unwrap();
        let keys: Vec<&str> = FIGURES.iter().flat_map(Figure::keys).collect();
        for (i, key) in keys.iter().enumerate() {
            let slot = key.split('.').try_fold(&mut json, |v, k| v.get_mut(k)).unwrap_or_else(|| panic!("{key}"));
            assert!(slot.is_number(), "{key} is not a number in the JSON");
            *slot = serde_json::json!(i + 1);
        }
        let c: Coached = serde_json::from_value(json.clone()).unwrap();
        for f in FIGURES {
            assert_eq!(lookup(&json, f.key).and_then(serde_json::Value::as_f64), Some((f.value)(&c)), "{}", f.key);
            if let Some((key, ci)) = f.interval {
                assert_eq!(lookup(&json, key).and_then(serde_json::Value::as_f64), Some(ci(&c)), "{key}");
            }
        }
        let mut labels: Vec<&str> = FIGURES.iter().map(|f| f.label).collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), FIGURES.len(), "two figures share a label");
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len(), "two figures share a key");
    }
}
