//! Hands of the session: the hand viewer's controls and felt. Its rounds
//! travel as JSON at the end of the page (`viewer::data`), and
//! `assets/report.js` draws them.

use maud::{Markup, html};

use crate::context::Context;

pub fn section(cx: &Context) -> Markup {
    html! {
        section #hands {
            h2 { "Hands of session " (cx.session) }
            p.note {
                "The session's deciding hands (largest swing of one bot's chips) and its opening rounds, recorded "
                "while the league played, event for event as " code { "pitboss replay --log" } " writes them. "
                "Step with the buttons or the arrow keys."
            }
            (viewer())
        }
    }
}

/// The viewer's controls, felt and caption, which `assets/report.js`
/// fills from the page's `hand-data`.
pub fn viewer() -> Markup {
    html! {
        div #viewer {
            div.controls {
                select #round-pick aria-label="round" {}
                button #prev title="step back (←)" { "◀ step" }
                button #next title="step forward (→)" { "step ▶" }
                button #end title="whole round" { "to the end ▶▶" }
                span #counter {}
            }
            div #felt {}
            p #caption {}
        }
    }
}
