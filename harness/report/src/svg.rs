//! The report's charts as SVG, drawn in Rust from plain numbers: a line
//! chart of chips over rounds and a bar chart of EV with its interval,
//! with the scales they share (round ticks, a zoom that leaves out
//! outliers). Nothing here knows the results file; the sections hand in
//! [`Line`]s and [`Bar`]s.

use maud::{Markup, html};

use crate::format::{colour, short};

/// The width of every chart's view box; the page scales it to fit.
const W: f64 = 960.0;

/// One bot's line: its colour index, name and value at each round.
pub struct Line<'a> {
    pub bot: usize,
    pub name: &'a str,
    pub ys: &'a [i64],
}

/// One bot's EV bar.
pub struct Bar {
    /// Colour index.
    pub bot: usize,
    /// The label beside the bar.
    pub label: String,
    /// The name in the bar's tooltip.
    pub title: String,
    /// EV and the half-width of its 95 % interval, in %.
    pub ev: f64,
    pub ci95: f64,
    /// Out of play: greyed.
    pub out: bool,
}

/// `x` to no decimal places.
fn d0(x: f64) -> String {
    format!("{x:.0}")
}

/// `x` to one decimal place: enough for a 960-unit-wide chart.
fn d1(x: f64) -> String {
    format!("{x:.1}")
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

/// A vertical grid line from `top` to `base` at `x`, labelled below.
fn x_tick(class: &str, x: f64, top: f64, base: f64, label: &str) -> Markup {
    html! {
        line class=(class) x1=(d1(x)) x2=(d1(x)) y1=(top) y2=(d1(base)) {}
        text.tick x=(d1(x)) y=(d1(base + 16.0)) text-anchor="middle" { (label) }
    }
}

/// The line chart's frame: the view box's height and the plot's margins.
const LINE_H: f64 = 340.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 34.0;

/// The vertical axis of one range (`full` or `zoom`; the page shows one).
fn y_axis((lo, hi): (f64, f64), class: &str) -> Markup {
    let py = |y: f64| TOP + (hi - y) / (hi - lo) * (LINE_H - TOP - BOTTOM);
    html! {
        g class=(format!("yaxis {class}")) {
            @for t in ticks(lo, hi, 6) {
                @let y = d1(py(t));
                line class=(if t == 0.0 { "zero" } else { "grid" }) x1=(LEFT) x2=(d0(W - RIGHT)) y1=(y) y2=(y) {}
                text.tick x=(d0(LEFT - 6.0)) y=(d1(py(t) + 4.0)) text-anchor="end" { (short(t)) }
            }
        }
    }
}

/// A line chart of net chips over rounds, one line per bot. The lines are
/// drawn once, in an inner SVG whose view box the page switches between
/// the full range and the zoomed one (see [`zoom_range`]); each range has
/// its own axis labels.
pub fn line_chart(rounds: &[u64], lines: &[Line<'_>]) -> Markup {
    let (pw, ph) = (W - LEFT - RIGHT, LINE_H - TOP - BOTTOM);
    let x_max = rounds.last().copied().unwrap_or(1).max(1) as f64;
    let items: Vec<(f64, f64, f64)> = lines
        .iter()
        .map(|l| {
            let lo = l.ys.iter().copied().min().unwrap_or(0).min(0) as f64;
            let hi = l.ys.iter().copied().max().unwrap_or(0).max(0) as f64;
            (lo, hi, l.ys.last().copied().unwrap_or(0) as f64)
        })
        .collect();
    let full = padded(items.iter().map(|i| i.0).fold(0f64, f64::min), items.iter().map(|i| i.1).fold(0f64, f64::max));
    let zoom = zoom_range(&items).map(|(lo, hi)| padded(lo, hi));
    // Inner y unit: the full range spans 10 000 units, so integers suffice.
    let unit = (full.1 - full.0) / 10_000.0;
    let iy = |v: f64| -v / unit;
    let view = |(lo, hi): (f64, f64)| format!("0 {:.0} {pw:.0} {:.0}", iy(hi), (hi - lo) / unit);
    let points = |ys: &[i64]| {
        let mut s = String::from("0,0");
        for (x, y) in rounds.iter().zip(ys) {
            s.push_str(&format!(" {:.0},{:.0}", *x as f64 / x_max * pw, iy(*y as f64)));
        }
        s
    };
    let left_out = zoom.map(|(lo, hi)| items.iter().filter(|i| i.0 < lo || i.1 > hi).count());
    html! {
        svg class=(if zoom.is_some() { "chart zoomable zoomed" } else { "chart" })
            viewBox=(format!("0 0 {W} {LINE_H}")) role="img" aria-label="net chips over rounds" {
            (y_axis(full, "full"))
            @if let Some(zoom) = zoom { (y_axis(zoom, "zoom")) }
            // Rounds are whole numbers: no tick between two of them.
            @for t in ticks(0.0, x_max, 8).into_iter().filter(|t| t.fract() == 0.0) {
                (x_tick("grid", LEFT + t / x_max * pw, TOP, LINE_H - BOTTOM, &short(t)))
            }
            text.axis x=(d1(W - RIGHT)) y=(d1(LINE_H - 2.0)) text-anchor="end" { "rounds" }
            svg.plot x=(LEFT) y=(TOP) width=(pw) height=(ph) preserveAspectRatio="none"
                viewBox=(view(zoom.unwrap_or(full))) data-full=(view(full)) data-zoom=[zoom.map(view)] {
                @for l in lines {
                    polyline.line data-bot=(l.bot) stroke=(colour(l.bot)) vector-effect="non-scaling-stroke"
                        points=(points(l.ys)) {
                        title { (l.name) }
                    }
                }
            }
            @if let Some(out) = left_out {
                text.axis.zoom x=(d0(LEFT + 8.0)) y=(d0(TOP + 14.0)) {
                    (out) " line" (if out == 1 { "" } else { "s" }) " leave" (if out == 1 { "s" } else { "" })
                    " this range: tick “full range” to see " (if out == 1 { "it" } else { "them" })
                }
            }
        }
    }
}

/// The EV chart's frame.
const ROW: f64 = 24.0;
const LABEL_W: f64 = 190.0;
const EV_RIGHT: f64 = 90.0;
const EV_TOP: f64 = 8.0;
const EV_BOTTOM: f64 = 40.0;

/// EV (net per 100 chips initially staked) with its 95 % interval, one
/// bar per bot in the order given; bots out of play are greyed. Outliers
/// far beyond the rest are cut at the edge (marked, with their true value
/// beside them) so the rest stay readable.
pub fn ev_chart(bars: &[Bar]) -> Markup {
    let h = EV_TOP + EV_BOTTOM + ROW * bars.len() as f64;
    let items: Vec<(f64, f64, f64)> = bars.iter().map(|b| (b.ev - b.ci95, b.ev + b.ci95, b.ev)).collect();
    let full = (items.iter().map(|i| i.0).fold(0f64, f64::min), items.iter().map(|i| i.1).fold(0f64, f64::max));
    let (lo, hi) = zoom_range(&items).unwrap_or(full);
    let (lo, hi) = if hi - lo < 1e-6 { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
    let pad = (hi - lo) * 0.03;
    let scale = Scale { lo: lo - pad, hi: hi + pad };
    html! {
        svg.chart viewBox=(format!("0 0 {W} {h:.0}")) role="img" aria-label="EV, % of the initial stakes" {
            @for t in ticks(scale.lo, scale.hi, 8) {
                (x_tick(if t == 0.0 { "zero" } else { "grid" }, scale.px(t), EV_TOP, h - EV_BOTTOM, &short(t)))
            }
            text.axis x=(d1(W - 4.0)) y=(d1(h - 2.0)) text-anchor="end" { "EV, % of the initial stakes" }
            @for (k, bar) in bars.iter().enumerate() {
                (ev_bar(bar, EV_TOP + ROW * k as f64, &scale))
            }
        }
    }
}

/// The EV chart's horizontal scale, clamped to the range shown.
struct Scale {
    lo: f64,
    hi: f64,
}

impl Scale {
    fn px(&self, x: f64) -> f64 {
        LABEL_W + (x.clamp(self.lo, self.hi) - self.lo) / (self.hi - self.lo) * (W - LABEL_W - EV_RIGHT)
    }
}

/// One bar of the EV chart, its top at `y`.
fn ev_bar(bar: &Bar, y: f64, scale: &Scale) -> Markup {
    let (a, b) = (scale.px(0.0).min(scale.px(bar.ev)), scale.px(0.0).max(scale.px(bar.ev)));
    let (w_lo, w_hi) = (scale.px(bar.ev - bar.ci95), scale.px(bar.ev + bar.ci95));
    let cy = y + ROW / 2.0;
    let cut = bar.ev < scale.lo || bar.ev > scale.hi;
    let zig = (if bar.ev < scale.lo { a + 6.0 } else { b - 6.0 }) - 2.0;
    html! {
        g class=(if bar.out { "bar out" } else { "bar" }) data-bot=(bar.bot) {
            title { (bar.title) ": " (format!("{:+.3} % ± {:.3}", bar.ev, bar.ci95)) }
            text.label x=(d1(LABEL_W - 8.0)) y=(d1(cy + 4.0)) text-anchor="end" { (bar.label) }
            rect x=(d1(a)) y=(d1(y + 5.0)) width=(d1((b - a).max(1.0))) height=(d1(ROW - 10.0))
                fill=(if bar.out { "#bbb".to_string() } else { colour(bar.bot) }) {}
            @if cut {
                // A zig-zag where the bar leaves the chart.
                path.cut d=(format!("M{zig:.1} {:.1} l4 4 l-4 4 l4 4 l-4 4", y + 4.0)) {}
            } @else {
                line.whisker x1=(d1(w_lo)) x2=(d1(w_hi)) y1=(d1(cy)) y2=(d1(cy)) {}
                line.whisker x1=(d1(w_lo)) x2=(d1(w_lo)) y1=(d1(cy - 6.0)) y2=(d1(cy + 6.0)) {}
                line.whisker x1=(d1(w_hi)) x2=(d1(w_hi)) y1=(d1(cy - 6.0)) y2=(d1(cy + 6.0)) {}
            }
            text.value x=(d1(if cut { b.max(scale.px(0.0)) } else { w_hi.max(b) } + 6.0)) y=(d1(cy + 4.0)) {
                (format!("{:+.3} %", bar.ev)) @if cut { " (off the scale)" }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn names_in_charts_are_escaped() {
        let ys = [0, 5, -3];
        let chart = line_chart(&[1, 2, 3], &[Line { bot: 0, name: "<b>\"x\" & y</b>", ys: &ys }]).into_string();
        assert!(chart.contains("<title>&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;</title>"), "{chart}");
    }
}
