//! Every SDK's decision codes against the one declaration (`decisions!` in
//! `src/abi.rs`): the Python and JavaScript SDKs, the C, Zig, AssemblyScript and Go
//! examples (the scaffold writes them into new bots), the Go template and
//! ABI.md's table. A file that defines decision constants and is not in
//! this list fails too, so a new SDK cannot be forgotten.

use pitboss_sdk::Decision;
use std::path::{Path, PathBuf};

/// How a language spells a decision's constant (each with the prefix
/// `kind`), from its report name (`banker-draw`).
#[derive(Clone, Copy)]
enum Case {
    /// `KIND_BANKER_DRAW`
    Screaming,
    /// `kindBankerDraw`
    Camel,
    /// `kind_banker_draw`
    Snake,
}

fn spell(case: Case, name: &str) -> String {
    match case {
        Case::Screaming => format!("KIND_{}", name.replace('-', "_").to_uppercase()),
        Case::Snake => format!("kind_{}", name.replace('-', "_")),
        Case::Camel => {
            let mut out = String::from("kind");
            for word in name.split('-') {
                let mut chars = word.chars();
                out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                out.push_str(chars.as_str());
            }
            out
        }
    }
}

/// The files with decision constants, each with its spelling.
const FILES: [(&str, Case); 6] = [
    ("sdk/examples/c/bot.c", Case::Screaming),
    ("sdk/examples/c-wasi/bot.c", Case::Screaming),
    ("sdk/examples/assemblyscript/bot.ts", Case::Screaming),
    ("sdk/examples/zig/bot.zig", Case::Snake),
    ("sdk/examples/go-wasi/bot.go", Case::Camel),
    ("harness/scaffold/templates/bot.go.in", Case::Camel),
];

/// The Python SDK: `OBSERVE, BET, … = range(n)`.
const PYTHON: &str = "sdk/python/pitboss.py";
/// The JavaScript SDK: `const [OBSERVE, BET, …] = range(n);`.
const JAVASCRIPT: &str = "sdk/javascript/pitboss.js";
/// ABI.md's "Decisions and answers" table: `| code | NAME | answer |`.
const ABI_MD: &str = "sdk/ABI.md";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(file: &str) -> String {
    std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn screaming(d: Decision) -> String {
    d.name().replace('-', "_").to_uppercase()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `IDENT = 123` in `text` whose identifier starts with `prefix`
/// (`IDENT = 1;`, `IDENT = 1,`, `const IDENT = 1`…), in order.
fn assignments(text: &str, prefix: &str) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices(prefix) {
        if text[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let ident: String = text[at..].chars().take_while(|&c| is_ident(c)).collect();
        let rest = text[at + ident.len()..].trim_start_matches([' ', '\t']);
        let Some(rest) = rest.strip_prefix('=').filter(|r| !r.starts_with('=')) else { continue };
        let digits: String = rest.trim_start_matches([' ', '\t']).chars().take_while(char::is_ascii_digit).collect();
        if let Ok(code) = digits.parse() {
            out.push((ident, code));
        }
    }
    out
}

/// Compares one file's `(constant, code)` table with the declaration:
/// every decision present with its code, nothing else, no repeats.
fn compare(file: &str, found: &[(String, i64)], spelled: impl Fn(Decision) -> String) -> Vec<String> {
    let mut errors = Vec::new();
    for d in Decision::ALL {
        let want = spelled(d);
        match found.iter().filter(|(ident, _)| *ident == want).collect::<Vec<_>>()[..] {
            [] => errors.push(format!("{file}: no {want} (decision {} is code {})", d.name(), d as u8)),
            [(_, code)] if *code == i64::from(d as u8) => {}
            [(_, code)] => {
                errors.push(format!("{file}: {want} is {code}, the SDK's decision {} is {}", d.name(), d as u8))
            }
            _ => errors.push(format!("{file}: {want} defined more than once")),
        }
    }
    for (ident, code) in found {
        if !Decision::ALL.iter().any(|&d| spelled(d) == *ident) {
            errors.push(format!("{file}: {ident} = {code} is no decision of the SDK"));
        }
    }
    errors
}

fn check_file(file: &str, case: Case) -> Vec<String> {
    let prefix = spell(case, "");
    let prefix = prefix.trim_end_matches('_');
    compare(file, &assignments(&read(file), prefix), |d| spell(case, d.name()))
}

/// `OBSERVE, BET, … = range(n)`: the names in order, code = position.
fn python_table(text: &str) -> Result<Vec<(String, i64)>, String> {
    let first = screaming(Decision::ALL[0]);
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{first},")) || l.starts_with(&format!("{first} =")))
        .ok_or(format!("no line `{first}, … = range(n)`"))?;
    let (names, value) = line.split_once('=').ok_or(format!("`{line}` assigns nothing"))?;
    let names: Vec<&str> = names.split(',').map(str::trim).collect();
    let n = value.trim().strip_prefix("range(").and_then(|v| v.strip_suffix(')'));
    if n.and_then(|n| n.parse::<usize>().ok()) != Some(names.len()) {
        return Err(format!("`{line}`: the value is not range({})", names.len()));
    }
    Ok(names.iter().zip(0..).map(|(name, code)| (name.to_string(), code)).collect())
}

/// `const [OBSERVE, BET, …] = range(n);`: the names in order, code = position.
fn javascript_table(text: &str) -> Result<Vec<(String, i64)>, String> {
    let first = format!("const [{},", screaming(Decision::ALL[0]));
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with(&first))
        .ok_or(format!("no line `{first} …] = range(n);`"))?;
    let (names, value) = line.split_once("] =").ok_or(format!("`{line}` assigns nothing"))?;
    let names: Vec<&str> = names.trim_start_matches("const [").split(',').map(str::trim).collect();
    let n = value.trim().strip_prefix("range(").and_then(|v| v.strip_suffix(");"));
    if n.and_then(|n| n.parse::<usize>().ok()) != Some(names.len()) {
        return Err(format!("`{line}`: the value is not range({})", names.len()));
    }
    Ok(names.iter().zip(0..).map(|(name, code)| (name.to_string(), code)).collect())
}

/// ABI.md's rows `| 8 | BANKER_DRAW | … |` under "### Decisions and answers".
fn abi_md_table(text: &str) -> Vec<(String, i64)> {
    let section = text.split("### Decisions and answers").nth(1).unwrap_or("");
    let section = section.split("\n#").next().unwrap_or("");
    section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let code = cells.get(1)?.parse().ok()?;
            Some((cells.get(2)?.to_string(), code))
        })
        .collect()
}

#[test]
fn every_sdk_has_the_declared_decision_codes() {
    let mut errors = Vec::new();
    for (file, case) in FILES {
        errors.extend(check_file(file, case));
    }
    match python_table(&read(PYTHON)) {
        Ok(table) => errors.extend(compare(PYTHON, &table, screaming)),
        Err(e) => errors.push(format!("{PYTHON}: {e}")),
    }
    match javascript_table(&read(JAVASCRIPT)) {
        Ok(table) => errors.extend(compare(JAVASCRIPT, &table, screaming)),
        Err(e) => errors.push(format!("{JAVASCRIPT}: {e}")),
    }
    errors.extend(compare(ABI_MD, &abi_md_table(&read(ABI_MD)), screaming));
    assert!(errors.is_empty(), "decision codes differ from sdk/src/abi.rs's `decisions!`:\n{}", errors.join("\n"));
}

/// Every file under the SDK, the scaffold's templates and the bots that
/// defines a decision constant is one the test above reads.
#[test]
fn no_sdk_file_defines_decisions_unchecked() {
    let mut checked: Vec<&str> = FILES.iter().map(|(f, _)| *f).collect();
    checked.extend([PYTHON, JAVASCRIPT, ABI_MD]);
    let mut unchecked = Vec::new();
    let mut dirs: Vec<PathBuf> =
        ["sdk", "harness/scaffold/templates", "bots", "tests/bots"].map(|d| root().join(d)).into();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(name, "target" | "node_modules" | "__pycache__" | "zig-cache" | ".zig-cache") {
                    dirs.push(path);
                }
                continue;
            }
            // Rust uses the enum itself; the compiler checks it.
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            if name.ends_with(".rs") {
                continue;
            }
            let relative = path.strip_prefix(root()).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            let defines = [Case::Screaming, Case::Camel, Case::Snake].into_iter().any(|case| {
                Decision::ALL.iter().any(|&d| {
                    assignments(&text, &spell(case, d.name())).iter().any(|(i, _)| *i == spell(case, d.name()))
                })
            }) || python_table(&text).is_ok()
                || javascript_table(&text).is_ok();
            if defines && !checked.contains(&relative.as_str()) {
                unchecked.push(relative);
            }
        }
    }
    assert!(
        unchecked.is_empty(),
        "files define decision codes the test does not check; add them to FILES: {unchecked:?}"
    );
}

/// The checker itself: a changed code, a missing and an unknown constant
/// are each named with their file.
#[test]
fn a_changed_constant_is_named() {
    let mut c = String::new();
    for d in Decision::ALL {
        c.push_str(&format!("    {} = {},\n", spell(Case::Screaming, d.name()), d as u8));
    }
    assert!(compare("x.c", &assignments(&c, "KIND"), |d| spell(Case::Screaming, d.name())).is_empty());
    let changed = c.replace("KIND_BANKER_DRAW = 8", "KIND_BANKER_DRAW = 9");
    let errors = compare("x.c", &assignments(&changed, "KIND"), |d| spell(Case::Screaming, d.name()));
    assert_eq!(errors, ["x.c: KIND_BANKER_DRAW is 9, the SDK's decision banker-draw is 8"]);
    let missing = c.replace("    KIND_BET = 1,\n", "    KIND_BETS = 1,\n");
    let errors = compare("x.c", &assignments(&missing, "KIND"), |d| spell(Case::Screaming, d.name()));
    assert_eq!(errors, ["x.c: no KIND_BET (decision bet is code 1)", "x.c: KIND_BETS = 1 is no decision of the SDK"]);
    assert_eq!(spell(Case::Camel, "banker-draw"), "kindBankerDraw");
    assert_eq!(spell(Case::Snake, "banker-draw"), "kind_banker_draw");
    let py = "OBSERVE, BET = range(3)\n";
    assert!(python_table(py).is_err());
}

/// The declaration keeps ABI version 6's codes, names and defaults.
#[test]
fn the_declaration_keeps_the_abi() {
    let names: Vec<_> = Decision::ALL.iter().map(|d| (*d as u8, d.name())).collect();
    let want =
        ["observe", "bet", "insurance", "even-money", "act", "side-bet", "back-bet", "banker-double", "banker-draw"];
    assert_eq!(names, want.iter().enumerate().map(|(i, n)| (i as u8, *n)).collect::<Vec<_>>());
    assert_eq!(pitboss_sdk::abi::DEFAULTABLE_MASK, 0b1110_1110);
    assert_eq!(Decision::from_code(8), Some(Decision::BankerDraw));
    assert_eq!(Decision::from_code(9), None);
    let answers: Vec<_> = Decision::ALL.map(|d| pitboss_sdk::abi::default_answer(d, 100, 10)).into();
    assert_eq!(answers, [0, 10, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(pitboss_sdk::abi::default_answer(Decision::Bet, 9, 10), 0);
}
