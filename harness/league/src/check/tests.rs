//! The check report's forms: one line per bot, the count, the JSON order.

use super::*;

fn report(file: &str, faults: u64, refusal: Option<&str>) -> CheckReport {
    let row = KindReport {
        decision: "act",
        asked: 10,
        faults,
        fuel_median: 300,
        fuel_max: 405,
        limit: 1_000_000,
        nanos_median: 250,
        nanos_max: 31_000,
    };
    let first_fault = (faults > 0).then(|| FirstFault {
        round: 3,
        decision: "act",
        kind: "trap",
        message: "wasm trap: unreachable".into(),
        log: None,
        replay: None,
    });
    let rule_set = RuleSetReport {
        rule_set: Variant::NorthAmerican,
        rounds: 2_000,
        reads_events: true,
        defaults: Vec::new(),
        keyed: Vec::new(),
        decisions: vec![row],
        first_fault,
        key_conflict: None,
        logged: 0,
        first_logs: Vec::new(),
    };
    CheckReport {
        file: file.into(),
        sha256: Some("00".into()),
        passed: faults == 0 && refusal.is_none(),
        refusal: refusal.map(String::from),
        abi_version: refusal.is_none().then_some(2),
        snapshot: None,
        rule_sets: if refusal.is_some() { vec![] } else { vec![rule_set] },
    }
}

#[test]
fn one_line_per_bot_and_a_count() {
    let reports = [
        report("a.wasm", 0, None),
        report("long-name.wasm", 0, Some("has 10003 functions; the cap is 10000")),
        report("b.wasm", 12, None),
    ];
    let lines: Vec<String> = reports.iter().map(|r| r.line(14)).collect();
    assert_eq!(lines[0], "OK    a.wasm           1 rule set, 0 faults, fuel max 405 / 1000000");
    assert_eq!(lines[1], "FAIL  long-name.wasm   refused: has 10003 functions; the cap is 10000");
    assert_eq!(
        lines[2],
        "FAIL  b.wasm           12 faults (first: north-american round 3, act: wasm trap: unreachable)"
    );
    assert_eq!(summary(&reports), "3 bots: 1 passed, 2 failed");
    assert_eq!(summary(&reports[..1]), "1 bot: 1 passed, 0 failed");
}

#[test]
fn json_fields_come_in_a_fixed_order() {
    let text = serde_json::to_string(&report("b.wasm", 1, None)).unwrap();
    let order = [
        "\"file\"",
        "\"sha256\"",
        "\"passed\"",
        "\"refusal\"",
        "\"abi_version\"",
        "\"rule_sets\"",
        "\"rule_set\":\"north-american\"",
    ];
    let at: Vec<usize> = order.iter().map(|k| text.find(k).unwrap_or_else(|| panic!("{k}: {text}"))).collect();
    assert!(at.is_sorted(), "{text}");
}
