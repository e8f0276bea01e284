//! The charts checked in for the bots (`bots/chart/src/generated.rs`) and the
//! luck tables a league reads (`harness/strategy/src/stored/generated.rs`)
//! are exactly what the analyzer computes today; `PITBOSS_BLESS=1`
//! rewrites them.

use std::path::Path;

#[test]
fn checked_in_charts_equal_the_analyzers_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let fresh = pitboss_strategy::codegen::generated_sources().unwrap();
    let luck = pitboss_strategy::codegen::luck_source().unwrap();
    let bless = std::env::var_os("PITBOSS_BLESS").is_some();
    let mut stale = Vec::new();
    for (file, text) in
        [("bots/chart/src/generated.rs", &fresh.rust), ("harness/strategy/src/stored/generated.rs", &luck)]
    {
        let path = root.join(file);
        if bless {
            std::fs::write(&path, text).unwrap();
        } else if std::fs::read_to_string(&path).unwrap_or_default() != *text {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "stale: {}; regenerate with PITBOSS_BLESS=1 cargo test --release -p pitboss-strategy --test generated",
        stale.join(", ")
    );
}
