//! Results written before: `pitboss verify` re-runs the results files an
//! earlier Pitboss wrote (`tests/compat/`, commit 24452f5, before issue 31's
//! performance work) and finds every byte the same, on each rule set.

use std::path::Path;

use pitboss_tests::pitboss;

#[test]
fn results_written_before_round_three_verify_byte_for_byte() {
    let dir = Path::new(tests_dir!()).join("compat");
    for variant in ["north-american", "swedish", "danish", "norwegian-home"] {
        let file = format!("{variant}.json");
        let ran = pitboss(&dir, &["verify", &file, "--threads", "2"]);
        assert_eq!(ran.code, Some(0), "{file}: {ran:?}");
        assert_eq!(ran.stdout.trim(), "verified: 1 session(s) identical, byte for byte", "{file}");
    }
}
