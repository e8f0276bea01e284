//! Coaches a built-in bot and prints the figures and the time they took:
//! `cargo run --release -p pitboss-coach --example coach -- basic north-american 10000`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bot = args.get(1).map_or("basic", String::as_str);
    let variant = args.get(2).map_or("north-american", String::as_str);
    let rounds: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = pitboss_engine::Rules::for_variant(pitboss_engine::Rules::variant_by_id(variant).unwrap());
    let spec = pitboss_coach::CoachSpec::new(rules, rounds, seed);
    let start = Instant::now();
    let c = pitboss_coach::coach(&spec, bot, &pitboss_league::bots::Bot::builtin(bot).unwrap()).unwrap();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{bot} {variant}: {} rounds, {} decisions in {secs:.2} s ({:.2} s per 10^5 decisions)\n  ev {:+.3} ± {:.3}, given away {:.4} (off the top {:.4}), optimal {:+.3}, identity gap {:+.4} ± {:.4}",
        c.rounds,
        c.decisions,
        secs / c.decisions.max(1) as f64 * 1e5,
        c.ev,
        c.ci95,
        c.ev_given_away,
        c.ev_given_away_off_top,
        c.ev_optimal,
        c.identity_gap,
        c.identity_ci95
    );
    println!(
        "  luck-adjusted {:+.3} ± {:.3} ({:.2}x narrower); identity with the luck out {:+.3} ± {:.3}",
        c.luck_adjusted.ev,
        c.luck_adjusted.ci95,
        c.ci95 / c.luck_adjusted.ci95,
        c.identity_adjusted.ev,
        c.identity_adjusted.ci95
    );
    for g in c.situations.iter().take(0) {
        println!(
            "  {:>10} {:>16} v {}: {:.4} ({} of {}), {} not {}, round {}",
            g.decision, g.hand, g.up, g.ev_given_away, g.mistakes, g.count, g.choice, g.best, g.example_round
        );
    }
}
