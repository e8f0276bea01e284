//! `pitboss report RESULTS.json -o report.html`: one self-contained page
//! (inline CSS, SVG and a little JavaScript; nothing fetched) with the
//! standings, every bot's chips over the rounds, EV with its interval,
//! what each bot did, its faults, and a hand viewer that steps through
//! replayed rounds card by card.
//!
//! Charts are drawn here, in Rust, as SVG. The page's size does not grow
//! with rounds: each session keeps [`pitboss_league::results::SERIES_POINTS`]
//! balance samples per bot, and the viewer holds a handful of rounds. The
//! page is made from the results file alone: the viewer's rounds are the
//! events stored in it while the league played.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use pitboss_engine::{FaultKind, Outcome};
use pitboss_sdk::{Action, Decision};
use serde_json::Value;

use pitboss_league::results::{OPENING_ROUNDS, STORED_SESSIONS};
use pitboss_league::results::{ResultsFile, SessionRecord};
use pitboss_league::results::{Standing, Status};
use pitboss_league::tally::{Tally, Wager};

/// What to report.
#[derive(Clone, Debug)]
pub struct ReportRequest {
    /// The league's `results.json`.
    pub results: PathBuf,
    /// The session whose hands the viewer shows (0-based).
    pub session: u64,
    /// Opening rounds of the session's first table shown beside its
    /// deciding hands (of the [`OPENING_ROUNDS`] stored).
    pub opening_rounds: u64,
}

/// Per-session balance charts drawn one by one; later sessions count in
/// the "all sessions" chart only, so the page stays small however many
/// sessions a league has.
const SESSION_CHARTS: usize = 24;

/// One round for the viewer.
#[derive(serde::Serialize)]
struct ViewRound<'a> {
    table: usize,
    round: u64,
    label: String,
    events: &'a [serde_json::Map<String, Value>],
}

/// Builds the report page from the results file alone: no league or bot
/// file is read (the viewer's hands are stored in the results). A session
/// whose hands are not stored gets the page without the viewer, and the
/// returned warning says why.
pub fn report(req: &ReportRequest) -> Result<(String, Option<String>)> {
    let path = &req.results;
    let results = pitboss_league::results::read(path)?;
    results
        .check()
        .map_err(|why| anyhow::anyhow!("{} is not a consistent Pitboss results file: {why}", path.display()))?;
    if req.session >= results.result.sessions {
        bail!(
            "--session {} is outside the league: it has {} session(s), counted from 0",
            req.session,
            results.result.sessions
        );
    }
    let (viewer, warning) = match hand_data(req, &results) {
        Ok(data) => (data, None),
        Err(e) => {
            let reason = format!("{e:#}");
            (serde_json::json!({ "unavailable": reason }), Some(format!("hand viewer left out: {reason}")))
        }
    };
    let results_name =
        req.results.file_name().map_or_else(|| "results.json".into(), |n| n.to_string_lossy().into_owned());
    Ok((page(&results, &viewer, req.session, &results_name), warning))
}

/// The session's deciding rounds and its first table's opening rounds, as
/// stored in the results, for the viewer.
fn hand_data(req: &ReportRequest, results: &ResultsFile) -> Result<Value> {
    let session = req.session;
    let record = &results.sessions[session as usize];
    let Some(hands) = &record.hands else {
        bail!(
            "the hands of session {session} are not stored in {} (only those of sessions 0 to {}); `pitboss replay` replays any round",
            req.results.display(),
            STORED_SESSIONS - 1
        );
    };
    let league = results.league_file(&req.results.display().to_string())?;
    let rules = pitboss_league::file::league_rules(&league)?;
    let seating = pitboss_league::league::seating_for(league.format, results.bots.len(), &rules, session);
    let opening = req.opening_rounds.min(OPENING_ROUNDS);
    let rounds: Vec<ViewRound<'_>> = hands
        .iter()
        .filter_map(|h| {
            let key = record.key_rounds.iter().find(|k| k.table == h.table && k.round == h.round);
            let label = match key {
                Some(k) => format!("round {} · table {} · swing {} chips", k.round, k.table, chips(k.swing)),
                None if h.table == 0 && h.round <= opening => format!("round {} · table 0", h.round),
                None => return None,
            };
            let label = if h.truncated { format!("{label} (cut short)") } else { label };
            Some(ViewRound { table: h.table, round: h.round, label, events: &h.events })
        })
        .collect();
    let tables: Vec<Vec<&str>> =
        seating.iter().map(|seats| seats.iter().map(|&b| results.bots[b].name.as_str()).collect()).collect();
    Ok(serde_json::json!({
        "session": session,
        "variant": results.result.variant,
        "per": rules.boxes_per_player,
        "tables": tables,
        "rounds": rounds,
    }))
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An integer with thousands separators.
fn chips(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    if n < 0 { format!("−{out}") } else { out }
}

/// A short axis label: 1.5k, 20M.
fn short(v: f64) -> String {
    let a = v.abs();
    let (x, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let s = if (x - x.round()).abs() < 1e-9 { format!("{}", x.round()) } else { format!("{x:.1}") };
    format!("{}{suffix}", s.replace('-', "−"))
}

/// A percentage of `part` in `whole`.
fn pct(part: u64, whole: u64) -> String {
    if whole == 0 { "–".into() } else { format!("{:.1} %", 100.0 * part as f64 / whole as f64) }
}

/// Bot `i`'s colour: hues spread by the golden angle.
fn colour(i: usize) -> String {
    let hue = (i as f64 * 137.508) % 360.0;
    format!("hsl({hue:.0},68%,{}%)", if (i / 7).is_multiple_of(2) { 40 } else { 30 })
}

/// Axis ticks: about `count` round numbers (1, 2 or 5 × 10ⁿ apart)
/// covering `lo..=hi`.
fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / count as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| span / s <= count as f64).unwrap_or(10.0 * mag);
    let mut out = Vec::new();
    let mut t = (lo / step).ceil() * step;
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

const W: f64 = 960.0;

/// The range most lines live in, when a few outliers (a bot that lost its
/// whole bankroll, say) would squash everyone else into a flat band.
/// Each item is a line's (lowest, highest, key) with `key` its final value;
/// lines whose key lies more than six median absolute deviations from the
/// median are left out. `None` when nothing is left out or the zoom would
/// gain little.
fn zoom_range(items: &[(f64, f64, f64)]) -> Option<(f64, f64)> {
    if items.len() < 3 {
        return None;
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if !n.is_multiple_of(2) { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
    };
    let mid = median(items.iter().map(|i| i.2).collect());
    let mad = median(items.iter().map(|i| (i.2 - mid).abs()).collect());
    if mad <= 0.0 {
        return None;
    }
    let kept: Vec<&(f64, f64, f64)> = items.iter().filter(|i| (i.2 - mid).abs() <= 6.0 * mad).collect();
    if kept.len() == items.len() || kept.is_empty() {
        return None;
    }
    let lo = kept.iter().map(|i| i.0).fold(0f64, f64::min);
    let hi = kept.iter().map(|i| i.1).fold(0f64, f64::max);
    let full_lo = items.iter().map(|i| i.0).fold(0f64, f64::min);
    let full_hi = items.iter().map(|i| i.1).fold(0f64, f64::max);
    ((hi - lo) * 3.0 < full_hi - full_lo && hi > lo).then_some((lo, hi))
}

/// Pads a range by 4 % (and widens an empty one).
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    let (lo, hi) = if hi - lo < 1.0 { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
    let pad = (hi - lo) * 0.04;
    (lo - pad, hi + pad)
}

/// A line chart of net chips over rounds, one line per bot. The lines are
/// drawn once, in an inner SVG whose view box the page switches between
/// the full range and the zoomed one (see [`zoom_range`]); each range has
/// its own axis labels.
fn line_chart(rounds: &[u64], lines: &[(usize, &str, Vec<i64>)]) -> String {
    let (h, left, right, top, bottom) = (340.0, 70.0, 12.0, 12.0, 34.0);
    let (pw, ph) = (W - left - right, h - top - bottom);
    let x_max = rounds.last().copied().unwrap_or(1).max(1) as f64;
    let items: Vec<(f64, f64, f64)> = lines
        .iter()
        .map(|(_, _, ys)| {
            let lo = ys.iter().copied().min().unwrap_or(0).min(0) as f64;
            let hi = ys.iter().copied().max().unwrap_or(0).max(0) as f64;
            (lo, hi, ys.last().copied().unwrap_or(0) as f64)
        })
        .collect();
    let full = padded(items.iter().map(|i| i.0).fold(0f64, f64::min), items.iter().map(|i| i.1).fold(0f64, f64::max));
    let zoom = zoom_range(&items).map(|(lo, hi)| padded(lo, hi));
    // Inner y unit: the full range spans 10 000 units, so integers suffice.
    let unit = (full.1 - full.0) / 10_000.0;
    let iy = |v: f64| -v / unit;
    let view = |(lo, hi): (f64, f64)| format!("0 {:.0} {pw:.0} {:.0}", iy(hi), (hi - lo) / unit);
    let mut s = String::new();
    let zoomed = zoom.is_some();
    let _ = write!(
        s,
        r#"<svg class="chart{}" viewBox="0 0 {W} {h}" role="img" aria-label="net chips over rounds">"#,
        if zoomed { " zoomable zoomed" } else { "" }
    );
    for (range, class) in [(Some(full), "full"), (zoom, "zoom")] {
        let Some((lo, hi)) = range else { continue };
        let py = |y: f64| top + (hi - y) / (hi - lo) * ph;
        let _ = write!(s, r#"<g class="yaxis {class}">"#);
        for t in ticks(lo, hi, 6) {
            let y = py(t);
            let line = if t == 0.0 { "zero" } else { "grid" };
            let _ = write!(
                s,
                r#"<line class="{line}" x1="{left}" x2="{:.0}" y1="{y:.1}" y2="{y:.1}"/><text class="tick" x="{:.0}" y="{:.1}" text-anchor="end">{}</text>"#,
                W - right,
                left - 6.0,
                y + 4.0,
                short(t)
            );
        }
        s.push_str("</g>");
    }
    // Rounds are whole numbers: no tick between two of them.
    for t in ticks(0.0, x_max, 8).into_iter().filter(|t| t.fract() == 0.0) {
        let x = left + t / x_max * pw;
        let _ = write!(
            s,
            r#"<line class="grid" x1="{x:.1}" x2="{x:.1}" y1="{top}" y2="{:.1}"/><text class="tick" x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            h - bottom,
            h - bottom + 16.0,
            short(t)
        );
    }
    let _ = write!(s, r#"<text class="axis" x="{:.1}" y="{:.1}" text-anchor="end">rounds</text>"#, W - right, h - 2.0);
    let _ = write!(
        s,
        r#"<svg class="plot" x="{left}" y="{top}" width="{pw}" height="{ph}" preserveAspectRatio="none" viewBox="{}" data-full="{}"{}>"#,
        view(if let Some(z) = zoom { z } else { full }),
        view(full),
        zoom.map(|z| format!(r#" data-zoom="{}""#, view(z))).unwrap_or_default()
    );
    for (i, name, ys) in lines {
        let _ = write!(
            s,
            r#"<polyline class="line" data-bot="{i}" stroke="{}" vector-effect="non-scaling-stroke" points="0,0"#,
            colour(*i)
        );
        for (x, y) in rounds.iter().zip(ys) {
            let _ = write!(s, " {:.0},{:.0}", *x as f64 / x_max * pw, iy(*y as f64));
        }
        let _ = write!(s, r#""><title>{}</title></polyline>"#, esc(name));
    }
    s.push_str("</svg>");
    if let Some((lo, hi)) = zoom {
        let out = items.iter().filter(|i| i.0 < lo || i.1 > hi).count();
        let _ = write!(
            s,
            r#"<text class="axis zoom" x="{:.0}" y="{:.0}">{out} line{} leave{} this range: tick “full range” to see {}</text>"#,
            left + 8.0,
            top + 14.0,
            if out == 1 { "" } else { "s" },
            if out == 1 { "s" } else { "" },
            if out == 1 { "it" } else { "them" }
        );
    }
    s.push_str("</svg>");
    s
}

/// EV (net per 100 chips initially staked) with its 95 % interval, one
/// bar per bot, in rank order; bots out of play are greyed and marked. Outliers far beyond the rest are cut at the edge (marked, with
/// their true value beside them) so the rest stay readable.
fn ev_chart(results: &ResultsFile, index: &dyn Fn(&str) -> usize) -> String {
    let row = 24.0;
    let (label_w, right, top, bottom) = (190.0, 90.0, 8.0, 40.0);
    let h = top + bottom + row * results.result.standings.len() as f64;
    let items: Vec<(f64, f64, f64)> = results
        .result
        .standings
        .iter()
        .map(|s| (s.ev_pct - s.ev_ci95_pct, s.ev_pct + s.ev_ci95_pct, s.ev_pct))
        .collect();
    let full = (items.iter().map(|i| i.0).fold(0f64, f64::min), items.iter().map(|i| i.1).fold(0f64, f64::max));
    let (lo, hi) = zoom_range(&items).unwrap_or(full);
    let (lo, hi) = if hi - lo < 1e-6 { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
    let pad = (hi - lo) * 0.03;
    let (lo, hi) = (lo - pad, hi + pad);
    let px = |x: f64| label_w + (x.clamp(lo, hi) - lo) / (hi - lo) * (W - label_w - right);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="chart" viewBox="0 0 {W} {h:.0}" role="img" aria-label="EV, % of the initial stakes">"#
    );
    for t in ticks(lo, hi, 8) {
        let x = px(t);
        let class = if t == 0.0 { "zero" } else { "grid" };
        let _ = write!(
            s,
            r#"<line class="{class}" x1="{x:.1}" x2="{x:.1}" y1="{top}" y2="{:.1}"/><text class="tick" x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            h - bottom,
            h - bottom + 16.0,
            short(t)
        );
    }
    let _ = write!(
        s,
        r#"<text class="axis" x="{:.1}" y="{:.1}" text-anchor="end">EV, % of the initial stakes</text>"#,
        W - 4.0,
        h - 2.0
    );
    for (k, st) in results.result.standings.iter().enumerate() {
        let i = index(&st.result.name);
        let y = top + row * k as f64;
        let (a, b) = (px(0.0).min(px(st.ev_pct)), px(0.0).max(px(st.ev_pct)));
        let out = st.status != Status::Active;
        let short_name: String = if st.result.name.chars().count() > 26 {
            st.result.name.chars().take(25).chain(['…']).collect()
        } else {
            st.result.name.clone()
        };
        let name = if out { format!("{} {short_name}", st.status.label()) } else { short_name };
        let (w_lo, w_hi) = (px(st.ev_pct - st.ev_ci95_pct), px(st.ev_pct + st.ev_ci95_pct));
        let cy = y + row / 2.0;
        let cut = st.ev_pct < lo || st.ev_pct > hi;
        let _ = write!(
            s,
            r#"<g class="bar{}" data-bot="{i}"><title>{}{}: {:+.3} % ± {:.3}</title><text class="label" x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect x="{a:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"/>"#,
            if out { " out" } else { "" },
            esc(&st.result.name),
            if out {
                format!(" ({})", if st.result.disqualified { "disqualified" } else { "broke" })
            } else {
                String::new()
            },
            st.ev_pct,
            st.ev_ci95_pct,
            label_w - 8.0,
            cy + 4.0,
            esc(&name),
            y + 5.0,
            (b - a).max(1.0),
            row - 10.0,
            if out { "#bbb".to_string() } else { colour(i) },
        );
        if cut {
            // A zig-zag where the bar leaves the chart.
            let x = if st.ev_pct < lo { a + 6.0 } else { b - 6.0 };
            let _ = write!(s, r#"<path class="cut" d="M{:.1} {:.1} l4 4 l-4 4 l4 4 l-4 4"/>"#, x - 2.0, y + 4.0);
        } else {
            let _ = write!(
                s,
                r#"<line class="whisker" x1="{w_lo:.1}" x2="{w_hi:.1}" y1="{cy:.1}" y2="{cy:.1}"/><line class="whisker" x1="{w_lo:.1}" x2="{w_lo:.1}" y1="{:.1}" y2="{:.1}"/><line class="whisker" x1="{w_hi:.1}" x2="{w_hi:.1}" y1="{:.1}" y2="{:.1}"/>"#,
                cy - 6.0,
                cy + 6.0,
                cy - 6.0,
                cy + 6.0,
            );
        }
        let _ = write!(
            s,
            r#"<text class="value" x="{:.1}" y="{:.1}">{:+.3} %{}</text></g>"#,
            if cut { b.max(px(0.0)) + 6.0 } else { w_hi.max(b) + 6.0 },
            cy + 4.0,
            st.ev_pct,
            if cut { " (off the scale)" } else { "" }
        );
    }
    s.push_str("</svg>");
    s
}

fn wager_cells(w: &Wager) -> String {
    if w.placed == 0 {
        return "<td class=n>0</td><td class=n>–</td><td class=n>–</td>".into();
    }
    format!(
        "<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>",
        chips(w.placed as i64),
        pct(w.won, w.placed),
        signed(w.net())
    )
}

fn signed(n: i64) -> String {
    if n > 0 { format!("+{}", chips(n)) } else { chips(n) }
}

/// The whole page.
fn page(r: &ResultsFile, viewer: &Value, session: u64, results_name: &str) -> String {
    // Colours follow the league's bot order (the order of each session's
    // `bots`), so a bot keeps its colour whatever its rank.
    let order: Vec<String> = r
        .sessions
        .first()
        .map(|s| s.bots.iter().map(|b| b.name.clone()).collect())
        .unwrap_or_else(|| r.result.standings.iter().map(|s| s.result.name.clone()).collect());
    let index = |name: &str| order.iter().position(|n| n == name).unwrap_or(0);
    let swatch = |name: &str| format!(r#"<span class="sw" style="background:{}"></span>"#, colour(index(name)));

    let mut h = String::with_capacity(256 * 1024);
    let _ = write!(
        h,
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{} — Pitboss report</title><style>{CSS}</style></head><body><main>"#,
        esc(&r.result.name)
    );
    let _ = write!(
        h,
        r#"<header><h1>{}</h1><p class="meta">{} · {} format · {} session{} × {} round{} · seed {} · {} bot{}</p></header>"#,
        esc(&r.result.name),
        esc(&r.result.variant),
        esc(&r.result.format.to_string()),
        r.result.sessions,
        if r.result.sessions == 1 { "" } else { "s" },
        chips(r.result.rounds as i64),
        if r.result.rounds == 1 { "" } else { "s" },
        r.result.seed,
        r.result.standings.len(),
        if r.result.standings.len() == 1 { "" } else { "s" }
    );

    // Standings.
    h.push_str(r#"<section id="standings"><h2>Standings</h2><table class="standings"><thead><tr><th>#</th><th class=l>bot</th><th>final chips</th><th>net chips</th><th>rounds played</th><th title="net chips per 100 chips initially staked, over the rounds the bot played; ± is the 95 % interval">EV % of stake (± 95 %)</th><th title="significantly ahead of the next bot in play (paired difference, 95 %)">vs next</th><th>faults</th></tr></thead><tbody>"#);
    let mut group = Status::Active;
    for s in &r.result.standings {
        if s.status != group {
            group = s.status;
            let title = match group {
                Status::Broke => "Broke in every session they played: out of play, not compared with the bots above",
                _ => {
                    "Disqualified at the fault limit: chips frozen for the rest of the league, not compared with the bots above"
                }
            };
            let _ = write!(h, r#"<tr class="group"><th colspan="8" class=l>{title}</th></tr>"#);
        }
        let rank = match s.status {
            Status::Active => s.rank.to_string(),
            out => format!("{} {}", s.rank, out.label()),
        };
        let mark = match s.ahead_of_next {
            Some(true) => r#"<span class="ahead" title="significantly ahead of the next bot">&gt;</span>"#,
            Some(false) => r#"<span title="not significantly ahead of the next bot">≈</span>"#,
            None => "",
        };
        let broke_note = match s.result.broke_sessions {
            0 => String::new(),
            k if s.status == Status::Active => {
                format!(r#" <span class="note">(broke in {k} session{})</span>"#, if k == 1 { "" } else { "s" })
            }
            _ => String::new(),
        };
        let _ = write!(
            h,
            r#"<tr{}><td>{rank}</td><td class=l>{}{}{broke_note}</td><td class=n>{}</td><td class="n {}">{}</td><td class=n>{}</td><td class=n>{:+.3} % ± {:.3}</td><td class=c>{mark}</td><td class=n>{}{}</td></tr>"#,
            if s.status != Status::Active { r#" class="dq""# } else { "" },
            swatch(&s.result.name),
            esc(&s.result.name),
            chips(s.result.balance),
            if s.result.net < 0 { "neg" } else { "pos" },
            signed(s.result.net),
            chips(s.result.rounds as i64),
            s.ev_pct,
            s.ev_ci95_pct,
            chips(s.result.faults as i64),
            if s.result.disqualified { " DQ" } else { "" }
        );
    }
    h.push_str("</tbody></table>");
    let _ = write!(
        h,
        r#"<p class="verdict">{}.</p><p class="note">{}</p>"#,
        esc(&pitboss_league::standings::verdict(&r.result.standings)),
        esc(pitboss_league::standings::LEGEND)
    );
    for w in &r.result.warnings {
        let _ = write!(h, r#"<p class="warning">Warning: {}</p>"#, esc(w));
    }
    h.push_str("</section>");

    // EV chart.
    h.push_str(r#"<section id="ev"><h2>EV, % of the initial stakes</h2><p class="note">Bars: net chips per 100 chips initially staked (box and back bets), over the rounds each bot played; whiskers: the 95 % confidence interval. Grey bars: bots out of play (broke or disqualified).</p>"#);
    h.push_str(&ev_chart(r, &index));
    h.push_str("</section>");

    // Balance charts.
    h.push_str(r#"<section id="balances"><h2>Chips over the rounds</h2>"#);
    if r.series_rounds.is_empty() || r.sessions.iter().all(|s| s.bots.iter().all(|b| b.series.is_empty())) {
        h.push_str(r#"<p class="note">This results file holds no balance series (written by an older Pitboss).</p>"#);
    } else {
        h.push_str(r#"<p class="note">Net chips of every bot, sampled at evenly spaced rounds. Every session starts from the bankroll; “all sessions” adds the sessions up round by round. <label>Show <select id="series-pick"><option value="all">all sessions (sum)</option>"#);
        let drawn = |s: &&SessionRecord| (s.session as usize) < SESSION_CHARTS || s.session == session;
        for s in r.sessions.iter().filter(drawn) {
            let _ = write!(h, r#"<option value="{0}">session {0}</option>"#, s.session);
        }
        h.push_str(r#"</select></label> <label><input type="checkbox" id="full-range"> full range</label> (by default the vertical axis leaves out far-off lines, such as a bot that lost its whole bankroll)</p>"#);
        let n = order.len();
        let mut sum = vec![vec![0i64; r.series_rounds.len()]; n];
        for s in &r.sessions {
            for (i, b) in s.bots.iter().enumerate().take(n) {
                for (acc, v) in sum[i].iter_mut().zip(&b.series) {
                    *acc = acc.saturating_add(*v);
                }
            }
        }
        let lines: Vec<(usize, &str, Vec<i64>)> =
            order.iter().enumerate().map(|(i, name)| (i, name.as_str(), sum[i].clone())).collect();
        let _ =
            write!(h, r#"<figure class="series" data-session="all">{}</figure>"#, line_chart(&r.series_rounds, &lines));
        if r.sessions.len() > SESSION_CHARTS {
            let _ = write!(
                h,
                r#"<p class="note">Sessions are drawn one by one up to session {}; the sum includes all {}.</p>"#,
                SESSION_CHARTS - 1,
                r.sessions.len()
            );
        }
        for s in r.sessions.iter().filter(drawn) {
            let lines: Vec<(usize, &str, Vec<i64>)> =
                s.bots.iter().enumerate().map(|(i, b)| (i, b.name.as_str(), b.series.clone())).collect();
            let _ = write!(
                h,
                r#"<figure class="series" data-session="{}" hidden>{}</figure>"#,
                s.session,
                line_chart(&r.series_rounds, &lines)
            );
        }
        h.push_str(r#"<ul class="legend">"#);
        for (i, name) in order.iter().enumerate() {
            let _ = write!(h, r#"<li data-bot="{i}">{}{}</li>"#, swatch(name), esc(name));
        }
        h.push_str("</ul>");
    }
    h.push_str("</section>");

    // Play.
    h.push_str(r#"<section id="play"><h2>How each bot played</h2><div class="scroll"><table><thead><tr><th class=l>bot</th><th>hands</th><th>won</th><th>pushed</th><th>lost</th><th>blackjacks</th><th>busts</th><th>doubles</th><th>splits</th><th>surrenders</th></tr></thead><tbody>"#);
    for s in &r.result.standings {
        let t = &s.result.tally;
        let hands = t.hands.total();
        let _ = write!(
            h,
            r#"<tr><td class=l>{}{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>"#,
            swatch(&s.result.name),
            esc(&s.result.name),
            chips(hands as i64),
            pct(t.hands.wins(), hands),
            pct(t.hands[Outcome::Push], hands),
            pct(t.hands.losses(), hands),
            chips((t.hands[Outcome::Blackjack] + t.hands[Outcome::EvenMoney]) as i64),
            chips(t.hands[Outcome::Bust] as i64),
            chips(t.actions[Action::Double] as i64),
            chips(t.actions[Action::Split] as i64),
            chips(t.actions[Action::Surrender] as i64),
        );
    }
    h.push_str("</tbody></table></div>");

    // Where each bot won and lost: net per 100 chips staked, by the
    // dealer's up card, as a heat map.
    if r.result.standings.iter().any(|s| s.result.tally.by_dealer_up.iter().any(|u| u.hands > 0)) {
        let rate = |u: &pitboss_league::tally::UpCard| (u.staked > 0).then(|| 100.0 * u.net as f64 / u.staked as f64);
        let scale = r
            .result
            .standings
            .iter()
            .flat_map(|s| s.result.tally.by_dealer_up.iter().filter_map(rate))
            .fold(1.0f64, |m, x| m.max(x.abs()))
            .min(100.0);
        h.push_str(r#"<h3>Where each bot won and lost</h3><p class="note">Net chips per 100 staked on the bot's hands, by the dealer's up card (the banker's face-up card in the banker game); green won, red lost. Hover a cell for the counts.</p><div class="scroll"><table class="heat"><thead><tr><th class=l>bot \ dealer shows</th>"#);
        for label in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"] {
            let _ = write!(h, "<th>{label}</th>");
        }
        h.push_str("</tr></thead><tbody>");
        for s in &r.result.standings {
            let _ = write!(h, "<tr><td class=l>{}{}</td>", swatch(&s.result.name), esc(&s.result.name));
            for u in &s.result.tally.by_dealer_up {
                match rate(u) {
                    None => h.push_str("<td class=c>–</td>"),
                    Some(x) => {
                        let a = (x.abs() / scale).min(1.0) * 0.75;
                        let bg = if x >= 0.0 {
                            format!("rgba(27,122,61,{a:.2})")
                        } else {
                            format!("rgba(179,38,30,{a:.2})")
                        };
                        let _ = write!(
                            h,
                            r#"<td class=c style="background:{bg}" title="{} hands, {} staked, net {}">{x:+.1}</td>"#,
                            chips(u.hands as i64),
                            chips(u.staked),
                            signed(u.net)
                        );
                    }
                }
            }
            h.push_str("</tr>");
        }
        h.push_str("</tbody></table></div>");
    }

    // Extra bets: only the kinds this league offered.
    type Bet = fn(&Tally) -> (u64, &Wager);
    let extras: [(&str, Bet); 3] = [
        ("insurance", |t| (t.decisions[Decision::Insurance], &t.insurance)),
        ("side bets", |t| (t.decisions[Decision::SideBet], &t.side_bets)),
        ("back bets", |t| (t.decisions[Decision::BackBet], &t.back_bets)),
    ];
    let offered: Vec<&(&str, Bet)> = extras
        .iter()
        .filter(|(_, get)| {
            r.result.standings.iter().any(|s| get(&s.result.tally).0 > 0 || get(&s.result.tally).1.placed > 0)
        })
        .collect();
    if !offered.is_empty() {
        h.push_str(r#"<h3>Insurance, side and back bets</h3><div class="scroll"><table><thead><tr><th class=l rowspan=2>bot</th>"#);
        for (name, _) in &offered {
            let _ = write!(h, "<th colspan=4>{name}</th>");
        }
        h.push_str("</tr><tr>");
        for _ in &offered {
            h.push_str("<th>offered</th><th>taken</th><th>won</th><th>net chips</th>");
        }
        h.push_str("</tr></thead><tbody>");
        for s in &r.result.standings {
            let _ = write!(h, "<tr><td class=l>{}{}</td>", swatch(&s.result.name), esc(&s.result.name));
            for (_, get) in &offered {
                let (asked, w) = get(&s.result.tally);
                let _ = write!(h, "<td class=n>{}</td>{}", chips(asked as i64), wager_cells(w));
            }
            h.push_str("</tr>");
        }
        h.push_str("</tbody></table></div>");
    }

    // Decisions by kind: only the kinds this league asked.
    type Get = fn(&Tally) -> u64;
    let kinds: [(&str, Get); 8] = [
        ("bet", |t| t.decisions[Decision::Bet]),
        ("side bet", |t| t.decisions[Decision::SideBet]),
        ("back bet", |t| t.decisions[Decision::BackBet]),
        ("insurance", |t| t.decisions[Decision::Insurance]),
        ("even money", |t| t.decisions[Decision::EvenMoney]),
        ("act", |t| t.decisions[Decision::Act]),
        ("banker double", |t| t.decisions[Decision::BankerDouble]),
        ("banker draw", |t| t.decisions[Decision::BankerDraw]),
    ];
    let asked: Vec<&(&str, Get)> =
        kinds.iter().filter(|(_, get)| r.result.standings.iter().any(|s| get(&s.result.tally) > 0)).collect();
    h.push_str(r#"<h3>Decisions by kind</h3><div class="scroll"><table><thead><tr><th class=l>bot</th>"#);
    for (name, _) in &asked {
        let _ = write!(h, "<th>{name}</th>");
    }
    h.push_str("<th>hit</th><th>stand</th><th>all</th></tr></thead><tbody>");
    for s in &r.result.standings {
        let _ = write!(h, "<tr><td class=l>{}{}</td>", swatch(&s.result.name), esc(&s.result.name));
        let mut all = 0;
        for (_, get) in &asked {
            all += get(&s.result.tally);
            let _ = write!(h, "<td class=n>{}</td>", chips(get(&s.result.tally) as i64));
        }
        let _ = write!(
            h,
            "<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
            chips(s.result.tally.actions[Action::Hit] as i64),
            chips(s.result.tally.actions[Action::Stand] as i64),
            chips(all as i64)
        );
    }
    h.push_str("</tbody></table></div></section>");

    // Faults.
    h.push_str(r#"<section id="faults"><h2>Faults</h2>"#);
    let faulty: Vec<&Standing> = r.result.standings.iter().filter(|s| s.result.faults > 0).collect();
    if faulty.is_empty() {
        h.push_str(r#"<p class="note">No bot faulted: every answer was legal and in time.</p>"#);
    }
    for s in faulty {
        let f = &s.result.tally.faults;
        let by_kind: Vec<String> = [
            ("illegal", f[FaultKind::Illegal]),
            ("trap", f[FaultKind::Trap]),
            ("out of fuel", f[FaultKind::OutOfFuel]),
            ("memory", f[FaultKind::Memory]),
            ("timeout", f[FaultKind::Timeout]),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{} {k}", chips(*n as i64)))
        .collect();
        let _ = write!(
            h,
            r#"<details class="fault"><summary>{}<b>{}</b>: {} fault{} ({}){}</summary><ol>"#,
            swatch(&s.result.name),
            esc(&s.result.name),
            chips(s.result.faults as i64),
            if s.result.faults == 1 { "" } else { "s" },
            by_kind.join(", "),
            if s.result.disqualified { " — disqualified at the fault limit" } else { "" }
        );
        for rec in s.result.fault_log.iter().take(10) {
            let _ = write!(
                h,
                "<li>session {}, table {}, round {}, {} ({}): {} <span class=\"note\">— replay: <code>pitboss replay {} --session {} --table {} --round {}</code></span></li>",
                rec.session,
                rec.table,
                chips(rec.round as i64),
                esc(&rec.decision),
                esc(&rec.kind),
                esc(&rec.message),
                esc(results_name),
                rec.session,
                rec.table,
                rec.round
            );
        }
        h.push_str("</ol></details>");
    }
    h.push_str("</section>");

    // Hand viewer.
    let _ = write!(
        h,
        r#"<section id="hands"><h2>Hands of session {session}</h2><p class="note">The session's deciding hands (largest swing of one bot's chips) and its opening rounds, recorded while the league played, event for event as <code>pitboss replay --log</code> writes them. Step with the buttons or the arrow keys.</p><div id="viewer"><div class="controls"><select id="round-pick" aria-label="round"></select><button id="prev" title="step back (←)">◀ step</button><button id="next" title="step forward (→)">step ▶</button><button id="end" title="whole round">to the end ▶▶</button><span id="counter"></span></div><div id="felt"></div><p id="caption"></p></div></section>"#
    );
    let _ = write!(
        h,
        r#"<footer><p>League <code>{}</code> (SHA-256 <code>{}</code>, embedded in its results) · re-run and compare: <code>pitboss verify results.json</code> · replay a hand: <code>pitboss replay results.json --session S --table T --round R</code> · Pitboss {}</p></footer>"#,
        esc(&r.league.file),
        esc(&r.league.sha256.chars().take(16).collect::<String>()),
        esc(&r.pitboss_version)
    );
    // No `<` at all inside the script element: `</script` would close it
    // early and `<!--` would change how the rest is parsed. In JSON a `<`
    // can only be inside a string, where `\u003c` means the same.
    let data = viewer.to_string().replace('<', "\\u003c");
    let _ = write!(
        h,
        r#"<script type="application/json" id="hand-data">{data}</script><script>{JS}</script></main></body></html>"#
    );
    h
}

/// Writes the report of `req` to `out` (atomically); returns the warning
/// about the hand viewer, if any.
pub fn write_report(req: &ReportRequest, out: &Path) -> Result<Option<String>> {
    let (html, warning) = report(req)?;
    pitboss_league::output::write_text(out, &html)?;
    Ok(warning)
}

const CSS: &str = r#"
:root{--ink:#1d2330;--muted:#5b6475;--line:#d9dde5;--felt:#0f5e3a;--bg:#f6f7f9}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1080px;margin:0 auto;padding:24px 20px 48px}
h1{margin:0 0 4px;font-size:28px}
h2{margin:0 0 10px;font-size:20px}
h3{margin:18px 0 8px;font-size:16px}
.meta,.note{color:var(--muted);margin:4px 0 12px}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:16px 18px;margin:18px 0}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{font-size:13px;color:var(--muted);font-weight:600}
th.l,td.l{text-align:left}
td.c{text-align:center}
td.neg{color:#b3261e} td.pos{color:#1b7a3d}
tr.dq td{color:var(--muted);text-decoration:line-through}
tr.dq td:first-child{text-decoration:none;font-weight:700;color:#b3261e}
.ahead{font-weight:700;color:#1b7a3d}
.scroll{overflow-x:auto}
table.heat td.c{font-size:13px}
.sw{display:inline-block;width:11px;height:11px;border-radius:3px;margin-right:7px;vertical-align:-1px}
svg.chart{width:100%;height:auto;display:block}
.grid{stroke:#eceef2;stroke-width:1}
.zero{stroke:#8a92a3;stroke-width:1;stroke-dasharray:4 3}
.tick{font-size:12px;fill:var(--muted)}
.axis{font-size:12px;fill:var(--muted)}
.label{font-size:13px;fill:var(--ink)}
.value{font-size:12px;fill:var(--ink)}
.whisker{stroke:#1d2330;stroke-width:1.3}
.cut{fill:none;stroke:#fff;stroke-width:2.5}
svg.zoomable:not(.zoomed) .zoom,svg.zoomed .full{display:none}
.line{fill:none;stroke-width:1.6;stroke-linejoin:round}
svg.dim .line{opacity:.15} svg.dim .line.hot{opacity:1;stroke-width:2.6}
figure{margin:0}
.legend{list-style:none;padding:0;margin:10px 0 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:13px}
.legend li{cursor:default}
details.fault{margin:6px 0} details.fault ol{margin:6px 0 6px 18px;color:var(--muted);font-size:13px}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef0f4;padding:1px 4px;border-radius:4px}
footer{color:var(--muted);font-size:13px}
.controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-bottom:10px}
.controls select{max-width:100%}
button{font:inherit;padding:4px 12px;border:1px solid #b8bfcc;border-radius:6px;background:#fff;cursor:pointer}
button:hover{background:#eef0f4}
#counter{color:var(--muted);font-size:13px}
#felt{background:radial-gradient(ellipse at top,#17804f,var(--felt));border-radius:14px;padding:16px;color:#fff;min-height:230px}
.dealer{display:flex;gap:16px;align-items:center;margin-bottom:18px;flex-wrap:wrap}
.who{font-weight:600;font-size:13px;opacity:.95}
.boxes{display:flex;gap:12px;flex-wrap:wrap}
.box{background:rgba(0,0,0,.18);border-radius:10px;padding:8px 10px;min-width:150px}
.box .who{margin-bottom:4px}
.hand{margin:4px 0}
.cards{display:flex;gap:4px;min-height:62px}
.card{width:42px;height:60px;border-radius:6px;background:#fff;color:#1d2330;border:1px solid #c9ced8;box-shadow:0 1px 2px rgba(0,0,0,.35);position:relative;font-weight:700}
.card .r{position:absolute;left:5px;top:3px;font-size:14px}
.card .m{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;font-size:22px}
.card.hidden{background:#fff6d9}
.card.back{background:repeating-linear-gradient(45deg,#2b4c9a,#2b4c9a 4px,#3c61b8 4px,#3c61b8 8px);border-color:#20397a}
.card.back *{display:none}
.card.new{outline:3px solid #ffd54a}
.info{font-size:12px;opacity:.9;margin-top:2px}
.res{display:inline-block;margin-left:6px;padding:0 6px;border-radius:8px;font-size:12px;background:rgba(255,255,255,.18)}
.res.win{background:#2e9d5b} .res.lose{background:#b3261e}
#caption{margin:10px 0 0;min-height:1.4em}
"#;

const JS: &str = r#"
(function(){
var pick=document.getElementById('series-pick'),fullRange=document.getElementById('full-range');
function setRange(){document.querySelectorAll('svg.zoomable').forEach(function(svg){var full=fullRange.checked;svg.classList.toggle('zoomed',!full);var p=svg.querySelector('svg.plot');p.setAttribute('viewBox',full?p.dataset.full:p.dataset.zoom);});}
if(fullRange){fullRange.addEventListener('change',setRange);}
function showSeries(){var v=pick?pick.value:'all';document.querySelectorAll('figure.series').forEach(function(f){f.hidden=f.dataset.session!==v;});}
if(pick){pick.addEventListener('change',showSeries);}
document.querySelectorAll('.legend li').forEach(function(li){
 li.addEventListener('mouseenter',function(){document.querySelectorAll('figure.series svg').forEach(function(s){s.classList.add('dim');s.querySelectorAll('.line').forEach(function(l){l.classList.toggle('hot',l.dataset.bot===li.dataset.bot);});});});
 li.addEventListener('mouseleave',function(){document.querySelectorAll('figure.series svg').forEach(function(s){s.classList.remove('dim');});});
});
var data=JSON.parse(document.getElementById('hand-data').textContent);
var felt=document.getElementById('felt'),cap=document.getElementById('caption'),sel=document.getElementById('round-pick'),counter=document.getElementById('counter');
if(data.unavailable){felt.textContent='Hand viewer unavailable: '+data.unavailable;['prev','next','end'].forEach(function(id){document.getElementById(id).disabled=true;});sel.disabled=true;return;}
data.rounds.forEach(function(r,i){var o=document.createElement('option');o.value=i;o.textContent=r.label;sel.appendChild(o);});
var ri=0,step=0;
function rank(c){return c==='T'?'10':c;}
var OUT={dealerblackjack:'dealer blackjack',evenmoney:'even money'};
function outcome(o){return OUT[o]||o;}
function who(r,box){var names=data.tables[r.table]||[];var n=names[Math.floor(box/data.per)];return (n||'?')+(data.per>1?' · box '+box:'');}
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=text;return e;}
function card(c){var d=el('div','card'+(c.down?' back':'')+(c.hidden?' hidden':'')+(c.fresh?' new':''));d.appendChild(el('span','r',rank(c.c)));d.appendChild(el('span','m',rank(c.c)));if(c.hidden)d.title='face down: only observers see it';return d;}
function describe(r,e){var b=e.box!==undefined?who(r,e.box):(e.seat!==undefined&&e.seat!==null?who(r,e.seat):'');
 switch(e.event){
 case 'round-start':return 'Round '+r.round+' begins.';
 case 'shuffle':return 'The shoe is shuffled ('+e.kind+').';
 case 'bet':return b+' bets '+e.amount+'.';
 case 'card':return b+' is dealt '+rank(e.card)+'.';
 case 'dealer-card':return e.face_down?'The dealer takes a hole card, face down.':'The dealer is dealt '+rank(e.card)+'.';
 case 'hole-revealed':return 'The hole card is turned up: '+rank(e.card)+'.';
 case 'hidden-card':return (e.seat===null?'The banker':b)+' takes a card face down ('+rank(e.card)+').';
 case 'revealed':return b+' shows the hidden '+rank(e.card)+'.';
 case 'asked':return b+' is asked: '+e.decision+(e.legal&&e.legal.length?' ('+e.legal.join(', ')+')':'')+' → '+(e.answer===null?'no answer':e.answer)+'.';
 case 'acted':return b+' '+(e.action==='hit'?'hits':e.action==='stand'?'stands':e.action==='double'?'doubles':e.action==='split'?'splits':'surrenders')+'.';
 case 'settled':return b+(data.per>1||e.hand>0?' hand '+e.hand:'')+': '+outcome(e.outcome)+', bet '+e.bet+', '+e.returned+' back ('+(e.returned-e.bet>=0?'+':'')+(e.returned-e.bet)+').';
 case 'insurance':return b+' insures for '+e.amount+'.';
 case 'insurance-settled':return b+': insurance returns '+e.returned+'.';
 case 'side-bet':return b+' bets '+e.amount+' on '+e.side+' 13.';
 case 'side-bet-settled':return b+': side bet returns '+e.returned+'.';
 case 'back-bet':return who(r,e.player*data.per)+' bets '+e.amount+' behind '+b+'.';
 case 'back-settled':return 'Back bet on '+b+' returns '+e.returned+' of '+e.stake+'.';
 case 'banker':return (e.seat===null?'The house':who(r,e.seat))+' holds the bank.';
 case 'banker-doubled':return 'The banker doubles every stake.';
 case 'fault':return b+' FAULT in '+e.decision+' ('+e.kind+'): '+e.message;
 case 'log':return b+' logs while deciding '+e.decision+': '+e.text;
 case 'disqualified':return b+' is disqualified.';
 case 'round-void':return 'The deck ran out: the round is void, stakes returned.';
 case 'round-end':return 'Round '+r.round+' ends.';
 }return e.event;}
function render(){
 var r=data.rounds[ri];if(!r){felt.textContent='No rounds recorded.';return;}
 var dealer=[],boxes={},order=[],banker=null,doubled=false;
 function box(i){if(!boxes[i]){boxes[i]={hands:[],bet:0,notes:[]};order.push(i);}return boxes[i];}
 // Every box of the table is on the felt from the start, in seat order.
 var seated=(data.tables[r.table]||[]).length*data.per;for(var sb=0;sb<seated;sb++)box(sb);
 function hand(bx,h){while(bx.hands.length<=h)bx.hands.push({cards:[],res:null});return bx.hands[h];}
 for(var i=0;i<step;i++){var e=r.events[i],fresh=i===step-1;
  switch(e.event){
  case 'bet':box(e.box).bet+=e.amount;break;
  case 'card':hand(box(e.box),e.hand).cards.push({c:e.card,fresh:fresh});break;
  case 'dealer-card':dealer.push({c:e.card,down:e.face_down,fresh:fresh});break;
  case 'hole-revealed':var d=dealer.filter(function(c){return c.down;})[0];if(d){d.down=false;d.fresh=fresh;}else dealer.push({c:e.card,fresh:fresh});break;
  case 'hidden-card':if(e.seat===null)dealer.push({c:e.card,down:true,fresh:fresh});else hand(box(e.seat),0).cards.push({c:e.card,hidden:true,fresh:fresh});break;
  case 'revealed':var hc=hand(box(e.seat),0).cards.filter(function(c){return c.hidden;})[0];if(hc){hc.hidden=false;hc.fresh=fresh;}break;
  case 'acted':var bx=box(e.box);if(e.action==='split'){var hh=hand(bx,e.hand);var moved=hh.cards.pop();bx.hands.splice(e.hand+1,0,{cards:[moved],res:null});}else if(e.action==='double'){hand(bx,e.hand).doubled=true;}break;
  case 'settled':hand(box(e.box),e.hand).res={o:e.outcome,net:e.returned-e.bet};break;
  case 'insurance':box(e.box).notes.push('insured '+e.amount);break;
  case 'insurance-settled':box(e.box).notes.push('insurance returns '+e.returned);break;
  case 'side-bet':box(e.box).notes.push(e.side+' 13: '+e.amount);break;
  case 'side-bet-settled':box(e.box).notes.push('side bet returns '+e.returned);break;
  case 'back-bet':box(e.box).notes.push(who(r,e.player*data.per)+' behind: '+e.amount);break;
  case 'back-settled':box(e.box).notes.push(who(r,e.player*data.per)+' behind gets back '+e.returned+' of '+e.stake);break;
  case 'fault':box(e.box).notes.push('fault: '+e.kind);break;
  case 'banker':banker=e.seat;break;
  case 'banker-doubled':doubled=true;break;
  }}
 felt.textContent='';
 var dl=el('div','dealer');var dn=data.variant==='norwegian-home'?(banker===null?'Banker: the house':'Banker: '+who(r,banker))+(doubled?' (doubled)':''):'Dealer';dl.appendChild(el('span','who',dn));
 var dc=el('div','cards');dealer.forEach(function(c){dc.appendChild(card(c));});dl.appendChild(dc);felt.appendChild(dl);
 var bs=el('div','boxes');order.sort(function(a,b){return a-b;}).forEach(function(i){var bx=boxes[i];if(data.variant==='norwegian-home'&&banker===+i)return;var d=el('div','box');d.appendChild(el('div','who',who(r,+i)+(bx.bet?' · bet '+bx.bet:'')));
  bx.hands.forEach(function(h){var hd=el('div','hand');var cs=el('div','cards');h.cards.forEach(function(c){cs.appendChild(card(c));});hd.appendChild(cs);
   if(h.doubled||h.res){var inf=el('div','info',h.doubled?'doubled':'');if(h.res){inf.appendChild(el('span','res '+(h.res.net>0?'win':h.res.net<0?'lose':''),outcome(h.res.o)+' '+(h.res.net>=0?'+':'')+h.res.net));}hd.appendChild(inf);}
   d.appendChild(hd);});
  bx.notes.forEach(function(n){d.appendChild(el('div','info',n));});bs.appendChild(d);});
 felt.appendChild(bs);
 cap.textContent=step===0?r.label+' — press step ▶':describe(r,r.events[step-1]);
 counter.textContent='event '+step+' of '+r.events.length;
}
function go(n){var r=data.rounds[ri];step=Math.max(0,Math.min(r.events.length,n));render();}
document.getElementById('next').onclick=function(){go(step+1);};
document.getElementById('prev').onclick=function(){go(step-1);};
document.getElementById('end').onclick=function(){go(1e9);};
sel.onchange=function(){ri=+sel.value;step=0;render();};
document.addEventListener('keydown',function(e){if(e.target.tagName==='SELECT')return;if(e.key==='ArrowRight')go(step+1);if(e.key==='ArrowLeft')go(step-1);});
render();
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chips_group_thousands_and_keep_the_sign() {
        assert_eq!(chips(0), "0");
        assert_eq!(chips(999), "999");
        assert_eq!(chips(1_234_567), "1,234,567");
        assert_eq!(chips(-1000), "−1,000");
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0, 5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        let t = ticks(-3300.0, 1200.0, 6);
        assert_eq!(t.first(), Some(&-3000.0));
        assert!(t.contains(&0.0));
    }

    #[test]
    fn the_zoom_leaves_out_only_far_off_lines() {
        // 25 lines within ±20k, five that lost 600k: zoom to the 25.
        let mut items: Vec<(f64, f64, f64)> =
            (0..25).map(|i| (-20_000.0 + i as f64, 5_000.0, -1_000.0 * i as f64)).collect();
        items.extend((0..5).map(|_| (-600_000.0, 0.0, -600_000.0)));
        let (lo, hi) = zoom_range(&items).expect("a zoom");
        assert!(lo > -30_000.0 && hi >= 5_000.0, "{lo}..{hi}");
        // Everyone alike, or a spread without outliers: no zoom.
        assert_eq!(zoom_range(&[(0.0, 1.0, 1.0); 5]), None);
        let spread: Vec<(f64, f64, f64)> = (0..10).map(|i| (-(i as f64) * 100.0, 0.0, -(i as f64) * 100.0)).collect();
        assert_eq!(zoom_range(&spread), None);
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(esc("<b>\"x\" & 'y'</b>"), "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;");
    }
}
