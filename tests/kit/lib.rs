//! Helpers that the tests of several crates share instead of each keeping
//! a copy: the crates' unit tests (`pitboss-server`, `pitboss-cluster`)
//! and the integration tests (`tests/integration/`, through
//! `pitboss-tests`). A crate of its own, with no dependencies, taken only
//! as a dev-dependency: a `testkit` feature on one of the crates would be
//! switched on for every crate a test build links, so each would be built
//! twice, once for the binary and once for the tests.

use std::path::PathBuf;

/// An empty folder for one test: `pitboss-AREA-PID-NAME` in the system's
/// temporary folder, emptied first if an earlier run left it. `area` keeps
/// one file's (or crate's) tests apart from another's, `name` one test
/// from another, the process id one run from another.
pub fn scratch(area: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitboss-{area}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_folder_is_new_and_empty_each_time() {
        let dir = scratch("testkit", "again");
        std::fs::write(dir.join("left"), "x").unwrap();
        assert_eq!(scratch("testkit", "again"), dir);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "emptied");
        assert_ne!(scratch("testkit", "other"), dir);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
