//! What every section reads: the results, the session the viewer shows,
//! each bot's colour, and the coach's reports if any were given.

use maud::{Markup, html};
use pitboss_results::ResultsFile;
use pitboss_results::coach::Report;

use crate::format::colour;

/// The results and how the page names and colours their bots.
pub struct Context<'a> {
    pub results: &'a ResultsFile,
    /// The session whose hands the viewer shows.
    pub session: u64,
    /// The results file's name, as the page's `pitboss replay` lines give it.
    pub results_name: &'a str,
    /// The coach's reports given (none: no coach section).
    pub coach: &'a [Report],
    /// The league's bot order: a bot's colour is its place here.
    order: Vec<String>,
}

impl<'a> Context<'a> {
    pub fn new(results: &'a ResultsFile, session: u64, results_name: &'a str, coach: &'a [Report]) -> Self {
        // Colours follow the league's bot order (the order of each session's
        // `bots`), so a bot keeps its colour whatever its rank.
        let order = results
            .sessions
            .first()
            .map(|s| s.bots.iter().map(|b| b.name.clone()).collect())
            .unwrap_or_else(|| results.result.standings.iter().map(|s| s.result.name.clone()).collect());
        Context { results, session, results_name, coach, order }
    }

    /// The bots in the league's order.
    pub fn order(&self) -> &[String] {
        &self.order
    }

    /// Bot `name`'s colour index.
    pub fn index(&self, name: &str) -> usize {
        self.order.iter().position(|n| n == name).unwrap_or(0)
    }

    /// A small square of the bot's colour, to put before its name.
    pub fn swatch(&self, name: &str) -> Markup {
        html! { span.sw style=(format!("background:{}", colour(self.index(name)))) {} }
    }

    /// The first cell of a bot's row: its colour and name.
    pub fn bot_cell(&self, name: &str) -> Markup {
        html! { td.l { (self.swatch(name)) (name) } }
    }
}
