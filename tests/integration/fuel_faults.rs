//! A decision that runs out of fuel is diagnosed: asked again from the same
//! state with 16 times the fuel, it either returns (an expensive decision:
//! the fuel it needs, and how to raise the cap) or does not (an endless
//! loop, whatever the cap; a Python bot's line), in `pitboss check` and
//! `pitboss replay`, while results stay the plain run's, byte for byte.

use std::path::{Path, PathBuf};

use pitboss_tests::{Ran, pitboss};

fn scratch(name: &str) -> PathBuf {
    pitboss_tests::scratch("fuel-faults", name)
}

/// Loops forever whenever it is asked to play a hand.
const LOOPS: &str = include_str!(concat!(tests_dir!(), "/bots/hostile/loop-decide.wat"));

/// Counts to 400,000 whenever it is asked to play a hand: about 3 million
/// fuel, three times the default cap and far under 16 times it.
const EXPENSIVE: &str = r#"(module
  (memory (export "memory") 1)
  (func (export "pitboss_abi_version") (result i32) i32.const 1)
  (func (export "pitboss_buffer") (result i32) i32.const 1024)
  (func (export "pitboss_decide") (param $kind i32) (result i64)
    (local $i i32)
    (if (i32.eq (local.get $kind) (i32.const 4))
      (then (loop $burn
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $burn (i32.lt_u (local.get $i) (i32.const 400000))))))
    (if (result i64) (i32.eq (local.get $kind) (i32.const 1))
      (then (i64.load (i32.const 1056)))
      (else (i64.const 0)))))
"#;

/// A Python bot whose `act` never returns; the loop's body is line 9.
const SPINS: &str = "import pitboss
from pitboss import STAND


class Spins(pitboss.Bot):
    def act(self, r):
        n = 0
        while True:
            n += 1
        return STAND


pitboss.play(Spins())
";

const LOOP_SAYS: &str = "never returned, even with 16× the fuel (16000000): an endless loop?";

fn succeeds(ran: Ran, what: &str) -> String {
    assert_eq!(ran.code, Some(0), "{what}: {ran:?}");
    ran.stdout
}

/// The line of `pitboss check`'s table about `file`.
fn line<'a>(stdout: &'a str, file: &str) -> &'a str {
    let start = format!("FAIL  {file} ");
    stdout.lines().find(|l| l.starts_with(&start)).unwrap_or_else(|| panic!("no FAIL line for {file}: {stdout}"))
}

#[test]
fn check_tells_an_endless_loop_from_an_expensive_decision_at_any_cap() {
    let dir = scratch("check");
    std::fs::write(dir.join("loops.wat"), LOOPS).unwrap();
    std::fs::write(dir.join("expensive.wat"), EXPENSIVE).unwrap();
    let ran = pitboss(&dir, &["check", "loops.wat", "expensive.wat", "--variant", "north-american"]);
    assert_eq!(ran.code, Some(1), "{ran:?}");
    let loops = line(&ran.stdout, "loops.wat");
    assert!(loops.contains(&format!("act: {LOOP_SAYS} (fuel cap: 1000000 per decision)")), "{loops}");
    let expensive = line(&ran.stdout, "expensive.wat");
    let needs = expensive.split("act: needs about ").nth(1).unwrap_or_else(|| panic!("{expensive}"));
    let fuel: u64 = needs.split(' ').next().unwrap().parse().unwrap();
    assert!((2_000_000..6_000_000).contains(&fuel), "about three times the cap: {expensive}");
    assert!(
        needs.contains(" fuel, over the cap of 1000000 per decision: make the decision cheaper (the cap: raise it with --max-fuel-per-decision N"),
        "{expensive}"
    );
    // The same words on every run (fuel, not time, decides them), and in
    // the JSON.
    let again = pitboss(&dir, &["check", "loops.wat", "expensive.wat", "--variant", "north-american"]);
    assert_eq!(again.stdout, ran.stdout);
    let json = pitboss(&dir, &["check", "expensive.wat", "--variant", "north-american", "--json", "-"]);
    let parsed: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let message = parsed[0]["rule_sets"][0]["first_fault"]["message"].as_str().unwrap();
    assert!(message.starts_with(&format!("needs about {fuel} fuel")), "{message}");

    // Raising the cap cures the expensive decision, not the loop.
    let raised = pitboss(
        &dir,
        &["check", "loops.wat", "expensive.wat", "--variant", "north-american", "--max-fuel-per-decision", "8000000"],
    );
    let loops = line(&raised.stdout, "loops.wat");
    let said = "never returned, even with 16× the fuel (128000000): an endless loop? (fuel cap: 8000000 per decision)";
    assert!(loops.contains(said), "{loops}");
    assert!(raised.stdout.lines().any(|l| l.starts_with("OK    expensive.wat ")), "{}", raised.stdout);
}

/// Runs a league of `bot` alone for a few rounds; its results.json.
fn league(dir: &Path, bot: &str) -> String {
    std::fs::write(
        dir.join("league.toml"),
        format!(
            "name = \"fuel\"\nvariant = \"north-american\"\nrounds = 3\nsessions = 1\nseed = 5\nbankroll = 1000\nformat = \"solo\"\n\n[[bot]]\npath = \"{bot}\"\n"
        ),
    )
    .unwrap();
    let ran = pitboss(dir, &["run", "league.toml", "--json", "results.json"]);
    assert_eq!(ran.code, Some(0), "{ran:?}");
    std::fs::read_to_string(dir.join("results.json")).unwrap()
}

/// The FAULT lines of `pitboss replay` of round 1.
fn replayed_faults(dir: &Path) -> Vec<String> {
    let out = succeeds(pitboss(dir, &["replay", "results.json", "--session", "0", "--round", "1"]), "replay");
    out.lines().filter(|l| l.contains(": FAULT in ")).map(str::to_string).collect()
}

#[test]
fn replay_tells_an_endless_loop_from_an_expensive_decision_and_results_stay_the_same() {
    for (bot, text, said) in [("loops.wat", LOOPS, LOOP_SAYS), ("expensive.wat", EXPENSIVE, "needs about ")] {
        let dir = scratch(bot);
        std::fs::write(dir.join(bot), text).unwrap();
        let results = league(&dir, bot);
        // The results keep the plain fault: the diagnosis is only words.
        assert!(results.contains("all fuel consumed by WebAssembly"), "{results}");
        assert!(!results.contains(said), "{results}");
        let faults = replayed_faults(&dir);
        assert!(!faults.is_empty(), "{bot}: round 1 faults");
        assert!(faults[0].contains(&format!("FAULT in act (out-of-fuel): {said}")), "{bot}: {faults:?}");
        // Its other faults in the round are the plain run's.
        assert!(faults[1..].iter().all(|f| f.contains("all fuel consumed")), "{bot}: {faults:?}");
        succeeds(pitboss(&dir, &["verify", "results.json"]), "verify");
    }
}

#[test]
fn a_python_endless_loop_names_its_line() {
    let dir = scratch("python");
    std::fs::write(dir.join("bot.py"), SPINS).unwrap();
    league(&dir, "bot.py");
    let faults = replayed_faults(&dir);
    let first = faults.first().expect("round 1 faults");
    assert!(first.contains("never returned, even with 16× the fuel ("), "{first}");
    assert!(first.contains(": an endless loop? (Python was at bot.py line 9) (fuel cap: "), "{first}");
}

#[test]
fn a_servers_verdict_tells_an_endless_loop_from_an_expensive_decision() {
    use crate::server::{Server, call, competition};
    let dir = scratch("server");
    let comp = competition(&dir, &["alice"], 1_000, 10);
    let server = Server::start(&comp, &dir.join("data"));
    let (url, alice) = (server.url.clone(), server.token("alice"));
    for (name, wat, said) in [
        ("loops.wasm", LOOPS, LOOP_SAYS),
        (
            "expensive.wasm",
            EXPENSIVE,
            " fuel, over the cap of 1000000 per decision: make the decision cheaper (the cap: this competition's limit",
        ),
    ] {
        let body = wat::parse_str(wat).unwrap();
        let (status, verdict) = call("POST", &format!("{url}/api/submissions?name={name}"), Some(&alice), Some(&body));
        assert_eq!((status, verdict["outcome"].as_str()), (422, Some("failed")), "{verdict}");
        assert!(verdict["verdict"].as_str().unwrap().contains(said), "{name}: {verdict}");
    }
}
