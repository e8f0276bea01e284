//! The editor of a Python bot's `bot.py`, shown on the student's page
//! (`/me`) and on a Try's page: a plain textarea whose line numbers are
//! an image served by the server ([`LINES_PATH`], drawn behind the text
//! and scrolling with it), so it needs no outside asset and no script (a
//! small one of the server's, [`SCRIPT_PATH`], makes Tab indent);
//! a league and a number of rounds; and two buttons, **Try** (`POST
//! /me/try`: checks and plays it against `basic`, makes no submission)
//! and **Submit** (`POST /me/submit`: an upload of `bot.py`). Both are
//! one form posting the session's CSRF token; the handlers are in
//! `tries.rs`.

use axum::http::{HeaderValue, header};
use axum::response::Response;
use maud::{Markup, html};

use crate::db::{Outcome, Submission};
use crate::state::App;

/// Where the editor's line numbers are served.
pub const LINES_PATH: &str = "/editor/lines.svg";
/// Where the starter `bot.py` (the scaffold's, what the editor starts
/// from) is served.
pub const STARTER_PATH: &str = "/download/bot.py";
/// Where the editor's keys (Tab, Enter) are served.
pub const SCRIPT_PATH: &str = "/editor/editor.js";
/// The editor's keys: Tab indents, Enter keeps the indent.
pub const SCRIPT: &str = include_str!("editor.js");
/// Most bytes of source the editor takes (or the competition's
/// `max_kib`, if lower): a bot's source is a few KB, and a form's body is
/// read before the Try waits its turn.
pub const MAX_SOURCE: usize = 256 << 10;
/// Most rounds a Try plays.
pub const MAX_TRY_ROUNDS: u64 = 2_000;
/// The rounds a Try plays unless asked for others.
pub const TRY_ROUNDS: u64 = 300;
/// Lines numbered in the editor's gutter (a longer source still works).
const NUMBERED: usize = 3_000;
/// Height of a line in the editor, in CSS pixels (the gutter's too).
const LINE_PX: usize = 20;
/// The textarea's top padding, in CSS pixels.
const TOP_PX: usize = 6;

/// What the editor shows.
pub struct Editing<'a> {
    pub csrf: &'a str,
    pub source: &'a str,
    /// The competition's league names, in order.
    pub leagues: &'a [String],
    /// The league chosen, from 1.
    pub league: usize,
    pub rounds: u64,
    /// The competition's largest upload, in bytes.
    pub max_bytes: usize,
}

const STYLE: &str = "#editor textarea{display:block;width:100%;box-sizing:border-box;min-height:24em;margin:.3em 0;\
    font:14px/20px ui-monospace,Menlo,Consolas,monospace;padding:6px 6px 6px 46px;white-space:pre;overflow:auto;\
    tab-size:4;resize:vertical;border:1px solid #999;\
    background:#fff url(LINES) no-repeat left top local}\
    #editor .bar{display:flex;flex-wrap:wrap;gap:.4em .8em;align-items:center}\
    #editor select,#editor input{max-width:100%}";

/// The editor's form.
pub fn form(e: &Editing<'_>) -> Markup {
    html! {
        style { (maud::PreEscaped(STYLE.replace("LINES", LINES_PATH))) }
        form #editor method="post" action="/me/try" {
            input type="hidden" name="csrf" value=(e.csrf);
            label for="source" { "Or write your bot here: " code { "bot.py" } " (Python; at most " (max_source(e.max_bytes) >> 10) " KiB)" }
            // A textarea drops one newline right after its start tag.
            textarea #source name="source" rows="24" wrap="off" spellcheck="false" autocapitalize="off"
                autocomplete="off" aria-label="bot.py" { "\n" (e.source) }
            div.bar {
                label { "League " select name="league" aria-label="league" {
                    @for (k, name) in e.leagues.iter().enumerate() { option value=(k + 1) selected[k + 1 == e.league] { (name) } } } }
                label { "Rounds " input type="number" name="rounds" min="1" max=(MAX_TRY_ROUNDS) value=(e.rounds) aria-label="rounds"; }
                button #try formaction="/me/try" { "Try" }
                button #send-source formaction="/me/submit" { "Submit" }
            }
            script src=(SCRIPT_PATH) defer {}
            p.small { "Try checks it as an upload is checked and plays it against " code { "basic" } " on the same cards \
                (at most " (MAX_TRY_ROUNDS) " rounds), without making a submission; Submit uploads it as " code { "bot.py" } "." }
        }
    }
}

/// The most bytes of source the editor takes, under a largest upload of
/// `max_bytes`.
pub fn max_source(max_bytes: usize) -> usize {
    max_bytes.min(MAX_SOURCE)
}

/// A page holding the editor, whose policy also lets the editor's own
/// script ([`SCRIPT_PATH`], from this server only) run.
pub fn with_script(mut page: Response) -> Response {
    let policy = format!("{}; script-src 'self'", crate::answer::PAGE_POLICY);
    if let Ok(value) = HeaderValue::from_str(&policy) {
        page.headers_mut().insert(header::CONTENT_SECURITY_POLICY, value);
    }
    page
}

/// The source the editor starts from: the latest Python submission of
/// `subs` whose source is kept (only passing ones are), else the
/// scaffold's `bot.py` (blocking: reads a file).
pub fn latest_source(app: &App, subs: &[Submission]) -> String {
    let kept = subs
        .iter()
        .filter(|s| s.outcome == Outcome::Passed && pitboss_host::is_python_source(&s.file_name))
        .filter_map(|s| s.sha256.as_deref())
        .map(|sha| crate::paths::module_path(&app.dir, sha))
        .find(|path| pitboss_host::is_python_source(&path.to_string_lossy()) && path.is_file());
    kept.and_then(|path| std::fs::read(path).ok())
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_else(|| pitboss_scaffold::python_bot("bot"))
}

/// The editor's gutter: the numbers 1 to [`NUMBERED`], one a line, as an
/// SVG image as tall as that many lines of the textarea.
pub fn lines_svg() -> String {
    let height = TOP_PX + NUMBERED * LINE_PX;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"{height}\">\
         <rect width=\"40\" height=\"{height}\" fill=\"#eee\"/>\
         <g font-family=\"monospace\" font-size=\"12\" fill=\"#777\" text-anchor=\"end\">"
    );
    for n in 1..=NUMBERED {
        svg += &format!("<text x=\"34\" y=\"{}\">{n}</text>", TOP_PX + (n - 1) * LINE_PX + 15);
    }
    svg + "</g></svg>"
}
