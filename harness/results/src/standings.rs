//! Standings: bots ranked by chips, with each one's EV and its interval,
//! whether it is significantly ahead of the next, and the verdict in words.

use pitboss_engine::Stats;

use crate::pairs::Cross;
use crate::schema::{BotResult, LeagueResult, Standing, Status};
use crate::sequential::{Basis, Gap, Resolution};

/// Ranks results: bots in play by final chips, highest first (ties by
/// name; in a resolved league with luck, by `luck_net`), then broke bots,
/// then disqualified ones. Adds each bot's EV (net
/// per 100 chips initially staked, over its own rounds) with its 95 %
/// interval, and, between two consecutive bots in play, whether the upper
/// one is significantly ahead (paired per-round difference of chips over
/// the league's `rounds`, 95 %), from `cross(i, j)`, the two bots'
/// summed products of net chips.
pub fn rank_with_intervals(
    results: Vec<BotResult>,
    stats: &[Stats],
    cross: &dyn Fn(usize, usize) -> Cross,
    rounds: u64,
) -> Vec<Standing> {
    let n = results.len();
    let status = |r: &BotResult| {
        if r.disqualified {
            Status::Disqualified
        } else if r.broke {
            Status::Broke
        } else {
            Status::Active
        }
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&results[a], &results[b]);
        let by = match (ra.luck_net, rb.luck_net) {
            (Some(a), Some(b)) => b.total_cmp(&a),
            _ => rb.balance.cmp(&ra.balance),
        };
        status(ra).cmp(&status(rb)).then(by).then_with(|| ra.name.cmp(&rb.name))
    });
    let rounds_f = rounds.max(1) as f64;
    let mean = |i: usize| stats[i].net as f64 / rounds_f;
    order
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let in_play = |j: usize| status(&results[j]) == Status::Active;
            let ahead_of_next = order.get(k + 1).filter(|&&j| in_play(i) && in_play(j)).map(|&j| {
                let d = mean(i) - mean(j);
                let e_d2 = match cross(i, j) {
                    Cross::Exact(c) => (stats[i].net_sq + stats[j].net_sq - 2 * c) as f64 / rounds_f,
                    Cross::Estimated(c) => ((stats[i].net_sq + stats[j].net_sq) as f64 - 2.0 * c) / rounds_f,
                };
                let se = ((e_d2 - d * d).max(0.0) / rounds_f).sqrt();
                // Ranked by chips, d is never negative; ranked by
                // luck-adjusted results, chips behind are not ahead.
                se == 0.0 && d > 0.0 || se > 0.0 && d / se > 1.96
            });
            let r = &results[i];
            Standing {
                rank: k + 1,
                status: status(r),
                ev_pct: r.ev * 100.0,
                ev_ci95_pct: 1.96 * r.ev_se * 100.0,
                ahead_of_next,
                luck_ev_pct: r.luck_ev.map(|ev| ev * 100.0),
                luck_ci95_pct: r.luck_ev_se.map(|se| 1.96 * se * 100.0),
                result: r.clone(),
            }
        })
        .collect()
}

/// What `>` and `≈` and the EV column mean, in one line.
pub const LEGEND: &str = "EV: net chips per 100 chips initially staked (box and back bets; side bets, insurance, \
doubles and splits count in the net only), over the rounds the bot played; ± is the 95 % interval. \
> : significantly ahead of the next bot in play (paired test of round-by-round chips, 95 %); ≈ : the gap could be luck.";

/// What the luck-adjusted EV means, in one line.
pub const LUCK_LEGEND: &str = "Luck-adjusted EV: the chips less the luck of each card revealed (its value to the hand \
less the value expected before it; docs/luck.md): the same EV, far less spread. Chips stay the ranking.";

/// The line under standings with luck-adjusted figures: [`LUCK_LEGEND`]
/// and the parts of a round whose luck stays in (`None` for results
/// without them: a league with `luck = false`, or older files). The one
/// spelling the table, the report and the server show.
pub fn luck_note(uncorrected: Option<&[String]>) -> Option<String> {
    let parts = uncorrected?;
    Some(match parts {
        [] => LUCK_LEGEND.to_string(),
        _ => format!("{LUCK_LEGEND} Not corrected (their luck stays in): {}.", parts.join(", ")),
    })
}

/// What `>`, `≈` and `<` mean where the marks read luck-adjusted results
/// (`Standing::mark`), in one line.
pub const LUCK_VS_NEXT: &str = "vs next (luck-adjusted): paired test of the luck-adjusted results session by \
session (Student's t, 95 %) — > : significantly ahead of the next bot in play; < : significantly behind it (the chips \
rank the two the wrong way round); ≈ : the gap could be luck.";

/// What the "vs next" marks of `standings` read: `Some(basis)` where they
/// come from the session-by-session test (`BotResult::vs_next`), `None`
/// where from the chips' round-by-round one.
pub fn vs_next_basis(standings: &[Standing]) -> Option<Basis> {
    standings.iter().find_map(|s| s.result.vs_next.map(|v| v.on))
}

/// The legend of the standings: [`LEGEND`], the marks' meaning replaced by
/// [`LUCK_VS_NEXT`] where they read luck-adjusted results.
pub fn legend(standings: &[Standing]) -> String {
    match vs_next_basis(standings) {
        Some(Basis::LuckAdjusted) => {
            let ev = LEGEND.split(" > : ").next().unwrap_or(LEGEND);
            format!("{ev} {LUCK_VS_NEXT}")
        }
        Some(Basis::Chips) => LEGEND.replace(
            "(paired test of round-by-round chips, 95 %)",
            "(paired test of net chips session by session, Student's t, 95 %)",
        ),
        None => LEGEND.to_string(),
    }
}

/// [`luck_note`] for a league's results: a resolved league with luck
/// ranks by the luck-adjusted results, not by chips, and says so.
pub fn league_luck_note(result: &LeagueResult) -> Option<String> {
    let note = luck_note(result.luck_uncorrected.as_deref())?;
    Some(match &result.resolution {
        Some(r) if r.on == Basis::LuckAdjusted => note.replace(
            "Chips stay the ranking.",
            "This league plays until resolved: it ranks by the luck-adjusted results (the sum of each bot's), which \
             its test reads.",
        ),
        _ => note,
    })
}

/// The standings in one sentence of words, e.g. "basic leads; its lead
/// over hilo is not significant at 95 %".
pub fn verdict(standings: &[Standing]) -> String {
    let active: Vec<&Standing> = standings.iter().filter(|s| s.status == Status::Active).collect();
    let luck = vs_next_basis(standings) == Some(Basis::LuckAdjusted);
    match active.as_slice() {
        [] => "no bot finished in play: every one went broke or was disqualified".to_string(),
        [only] => format!("{} leads; no other bot finished in play", only.result.name),
        [first, second, ..] if first.result.vs_next.is_some_and(|v| v.gap == Gap::Behind) => format!(
            "{} leads on chips, but {}'s luck-adjusted results are significantly better (95 %)",
            first.result.name, second.result.name
        ),
        [first, second, ..] => format!(
            "{} leads; {}its lead over {} is {}significant at 95 %",
            first.result.name,
            if luck { "by luck-adjusted results " } else { "" },
            second.result.name,
            if first.mark() == ">" { "" } else { "not " },
        ),
    }
}

/// How a resolved league ended, in one line, e.g. "Resolved: every one of
/// the 2 adjacent pairs separated after 4 of at most 40 sessions …".
pub fn resolution_note(r: &Resolution) -> String {
    let on = match r.on {
        Basis::LuckAdjusted => "luck-adjusted results",
        Basis::Chips => "net chips",
    };
    let how = if r.resolved {
        format!("Resolved: all {} adjacent pairs in play separated", r.pairs)
    } else {
        format!("Not resolved at the cap: {} of {} adjacent pairs in play separated", r.pairs_resolved, r.pairs)
    };
    format!(
        "{how} after look {} of {} ({} of at most {} sessions, {} rounds a table), each look a paired test of \
         {on} session by session at 5 % / {} (Bonferroni over the planned looks: at most a 5 % chance of a false \
         \"better\" for any pair).",
        r.looks, r.looks_planned, r.sessions, r.cap_sessions, r.rounds, r.looks_planned
    )
}
