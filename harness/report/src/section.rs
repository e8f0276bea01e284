//! The page's sections, in page order. Each is one module with one
//! `section` function from the [`Context`] to its markup; a new section is
//! a new module here and a line in [`all`] (plus its styles in
//! `assets/report.css`, if it needs any).

use maud::{Markup, html};

use crate::context::Context;

mod balances;
pub(crate) mod coach;
mod cost;
mod ev;
mod faults;
pub(crate) mod hands;
mod play;
mod standings;

/// Every section, in page order.
pub fn all(cx: &Context) -> Markup {
    html! {
        (standings::section(cx))
        (ev::section(cx))
        (balances::section(cx))
        (play::section(cx))
        @if !cx.coach.is_empty() { (coach::section(cx.coach)) }
        (cost::section(cx))
        (faults::section(cx))
        (hands::section(cx))
    }
}
