//! Pitboss integration tests, one module per area. They are the
//! `integration` target of `harness/cli` (so Cargo builds the `pitboss`
//! they run and names it in `CARGO_BIN_EXE_pitboss`); the helpers they
//! share are the `pitboss-tests` kit in this folder's `lib.rs`.
//!
//! Tiers: a test that needs a tool beyond Rust is
//! `#[ignore = "needs chromium" | "needs slurm" | "needs toolchains"]`, a
//! long one `#[ignore = "soak"]`; `cargo test --release` runs the rest and
//! `bash scripts/test` (CI) runs every tier, where a missing tool fails.

/// This folder's parent, `tests/`: where the test data lives.
macro_rules! tests_dir {
    () => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests")
    };
}

/// Writing bots: `pitboss new`, and the C, WAT and Zig bots of the guide.
mod authoring;
/// The compiled-module cache: trusted only under the user's key; limits.
mod cache;
/// The "vs next" mark on luck-adjusted results; leagues played until
/// every adjacent pair is separated (`until = "resolved"`).
mod certified;
/// `pitboss check` on a batch: lines and a count, JSON verdicts, checking
/// only what a league plays under its limits.
mod check;
/// The `pitboss` command: determinism, files, errors.
mod cli;
/// `pitboss coach` on a wasm bot: the report, its JSON, reruns, errors.
mod coach;
/// Results files an earlier Pitboss wrote still verify, byte for byte.
mod compat;
/// Who is slow: each bot's fuel a decision and share of the run, in
/// results, merged shards, `verify`, the printout and the report.
mod cost;
/// `danish` rules on stacked shoes, back bets included.
mod danish;
/// ABI v4: decisions asked once per key.
mod decision_keys;
/// The documents: rules text, the ABI's worked request, links.
mod docs;
/// A fault carries its cause: what a bot wrote while failing, in results,
/// replays and the report, past any log budget.
mod fault_causes;
/// Hostile paths and failing writes: FIFOs, devices, oversized files,
/// full disks, planted symlinks, concurrent writers.
mod files;
/// A decision out of fuel diagnosed: an endless loop or an expensive
/// decision, in `check` and `replay`; a Python loop's line.
mod fuel_faults;
/// Golden transcripts of each rule set, `tests/golden/`; `PITBOSS_BLESS=1`
/// rewrites them.
mod golden;
/// Hostile and broken bots: load-time refusals, run-time faults, DQ.
mod hostile;
/// Who is told what, in every rule set.
mod information;
/// JavaScript bots from source: the QuickJS runtime built into `pitboss`,
/// from `pitboss new` to a verified league of JavaScript, Python and wasm.
mod js_source;
/// League files through the library: ranking, errors, overrides, class
/// leagues, sessions, replays, seasons, shards.
mod league_cli;
/// Raising limits: `--league FILE` or `--max-…` for play, check and
/// replay; refusals that say how.
mod limits;
/// Messages in the author's words: action names, log lines, totals,
/// seats, build hints, stale modules.
mod messages;
/// `north-american` rules on stacked shoes.
mod north_american;
/// `norwegian-home`, the banker game.
mod norwegian_home;
/// Portable results: identical bytes from any folder and path spelling;
/// replay, report and verify from anywhere; the published schema.
mod portable;
/// Random answers: conservation, card integrity, refusal; reshuffles.
mod properties;
/// Python bots from source: the runtime built into `pitboss`, from
/// `pitboss new` to a verified league with nothing else installed.
mod python_source;
/// `pitboss report`: the HTML page, its hand viewer, Chromium.
mod report;
/// `pitboss serve`: uploads, verdicts, access, runs, crash, load.
mod server;
mod server_attacks;
/// A season walked in headless Chromium at 1280 and 390 px.
mod server_browser;
/// The student's editor: Try and Submit a `bot.py` written in the browser.
mod server_editor;
/// `pitboss serve`: a name removed and registered again inherits nothing.
mod server_identities;
/// `pitboss serve`: a run played as shards elsewhere, imported;
/// self-registration with the invite code.
mod server_import;
/// `pitboss serve` takes a JavaScript bot's `bot.js`: checked, kept as
/// `.js`, scored, its source on its page.
mod server_js;
/// Thirty entrants, two leagues and ten scrimmages at once.
mod server_load;
/// `pitboss serve` takes a Python bot's `bot.py`: checked, scored, played,
/// its source on its page.
mod server_python;
// Any round of a run replayed by the server, in the terminal and the browser.
mod server_replay;
/// A score for every passing submission; two submissions compared.
mod server_scores;
/// Scrimmages against chosen opponents, behind the official runs.
mod server_scrimmage;
/// Every page of a season at 1280 and 390 px in headless Chromium.
mod server_season;
/// The organiser's similarity check: copies flagged, basic bots not.
mod server_similarity;
mod server_soak;
mod server_status;
/// A student's first steps: registering in the browser, the starter `bot.py`.
mod server_student;
/// A class competition from its defaults: a relative data folder, scores
/// at start, uploads over the size limit, answers without server paths.
mod server_teacher;
/// docs/teaching.md followed as written, from its competition file to the
/// exported standings, with a bot in Python, Rust, C and Go.
mod server_teaching;
/// `pitboss run --slurm` on a real single-node Slurm started by the test.
mod slurm;
/// Honest standings: EV over own rounds, bots out of play, league-wide
/// DQ, legend, verdict, season rule.
mod standings;
/// `swedish` rules on stacked shoes.
mod swedish;
/// The test tiers: every ignored test names its tier, none skips itself,
/// and `bash scripts/test` runs every tier.
mod tiers;
/// Untrusted submissions: load-time caps, cap faults, quoted errors.
mod untrusted;
/// The WASI subset: each call, determinism, refusals, hostile WASI bots.
mod wasi;
/// Bots in C, Go, Rust `std` and Python on the WASI subset, built with
/// their toolchains, playing as their plain-ABI twins do.
mod wasi_languages;
/// The wasm host: loading, ABI checks, faults, wasm = native.
mod wasm;
