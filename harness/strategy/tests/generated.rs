//! The charts checked in for the bots (`bots/chart/src/generated.rs`) are
//! exactly what the analyzer computes today; `PITBOSS_BLESS=1` rewrites
//! them.

use std::path::Path;

#[test]
fn checked_in_charts_equal_the_analyzers_output() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots/chart/src/generated.rs");
    let fresh = pitboss_strategy::codegen::generated_source().unwrap();
    if std::env::var_os("PITBOSS_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "{} is stale: regenerate with PITBOSS_BLESS=1 cargo test --release -p pitboss-strategy --test generated",
        path.display()
    );
}
