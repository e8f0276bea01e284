//! Who is slow, on the organiser's page: the latest run's cost of each
//! entrant's decisions, the one taking most of the run marked.

use super::{Site, wasm};
use axum::http::StatusCode;

/// `tests/bots/burner.wat`: plays as the smallest bot, burning about
/// 30,000 fuel a call.
fn burner() -> Vec<u8> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/bots/burner.wat")).unwrap();
    wat::parse_str(text).unwrap()
}

/// The entrant's row of the organiser's entrants table.
fn row<'a>(page: &'a str, name: &str) -> &'a str {
    let from = page.find(&format!("id=\"entrant-{name}\"")).unwrap_or_else(|| panic!("no row for {name}: {page}"));
    let row = &page[from..];
    &row[..row.find("</tr>").unwrap()]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organisers_page_shows_each_entrants_cost_and_marks_the_one_taking_most_of_the_run() {
    let site = Site::new();
    let bots = [("alice", "basic.wasm", wasm("basic")), ("bob", "never_bust.wasm", wasm("never_bust"))];
    for (name, file, bytes) in bots.into_iter().chain([("carol", "burner.wasm", burner())]) {
        let token = site.entrant(name);
        let answer = site.upload(&token, file, bytes).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    }
    let (organiser, _) = site.session(None);
    let before = site.get("/admin", &[("cookie", &organiser)]).await;
    assert!(!before.body.contains("id=\"cost-legend\""), "no run, no cost: {}", before.body);
    site.play_run().await;
    let page = site.get("/admin", &[("cookie", &organiser)]).await.body;
    assert!(page.contains(">Cost</th>") && page.contains("id=\"cost-legend\""), "{page}");
    let carol = row(&page, "carol");
    assert!(carol.contains("class=\"hog\"") && carol.contains(" · ") && carol.contains("fuel a decision"), "{carol}");
    let share: f64 = {
        let cell = &carol[carol.find(" · ").unwrap() + " · ".len()..];
        cell[..cell.find(" %").unwrap()].parse().unwrap()
    };
    assert!(share > 50.0, "carol's share {share} %: {carol}");
    for name in ["alice", "bob"] {
        let r = row(&page, name);
        assert!(r.contains(" · ") && !r.contains("class=\"hog\""), "{r}");
    }
    // The leaderboard's API keeps the figures for the page.
    let api = site.get("/api/leaderboard", &[]).await.json();
    let league = &api["latest"]["leagues"][0];
    assert_eq!(league["fuel_per_decision"].as_u64(), Some(1_000_000), "{league}");
    let rows = league["rows"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["cost"]["decisions"].as_u64().is_some_and(|d| d > 0)), "{league}");
}
