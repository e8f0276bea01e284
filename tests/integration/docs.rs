//! The documents stay true to the code and to the checkout:
//! `docs/rules.md` shows what `pitboss rules` prints for each rule set,
//! the worked request in `sdk/ABI.md` is the bytes the engine writes,
//! every relative link in a Markdown file resolves inside the repository,
//! and every `pitboss …` command the docs show parses with the real
//! command line definition (`pitboss_cli::Cli`).
//!
//! `PITBOSS_BLESS=1` rewrites the generated blocks of `docs/rules.md`,
//! `leagues/README.md` and `docs/server.md` (the competition file's keys)
//! instead of failing; the prose around them is for a person to update.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use pitboss_engine::{FnPlayer, Request, Rules};
use pitboss_sdk::{Action, Decision, Variant, abi};
use pitboss_tests::{boxed, play_stacked};

/// Closes every generated block.
const END: &str = "<!-- end -->";

fn repo() -> PathBuf {
    Path::new(tests_dir!()).parent().expect("tests/ sits in the repository").to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text between `start` and the next [`END`], as a range of `doc`.
fn block(doc: &str, start: &str) -> Option<Range<usize>> {
    let from = doc.find(start)? + start.len();
    let len = doc[from..].find(END)?;
    Some(from..from + len)
}

#[test]
fn rules_doc_shows_what_pitboss_rules_prints() {
    let path = repo().join("docs/rules.md");
    let mut doc = read(&path);
    let mut stale = Vec::new();
    for variant in Variant::ALL {
        let id = variant.id();
        let marker = format!("<!-- pitboss rules {id} -->");
        let range = block(&doc, &marker).unwrap_or_else(|| panic!("docs/rules.md lacks a `{marker}` … `{END}` block"));
        let section = doc[..range.start].rfind("\n## ").map_or("", |at| doc[at + 1..].lines().next().unwrap_or(""));
        assert!(section.contains(&format!("`{id}`")), "the `{id}` block of docs/rules.md sits under `{section}`");
        // Exactly the lines of `pitboss rules ID`.
        let lines: String = Rules::for_variant(variant).describe().iter().map(|line| format!("- {line}\n")).collect();
        let want = format!("\n{lines}");
        if doc[range.clone()] != want {
            stale.push(id);
            doc.replace_range(range, &want);
        }
    }
    if std::env::var_os("PITBOSS_BLESS").is_some_and(|v| v == "1") {
        if !stale.is_empty() {
            std::fs::write(&path, &doc).unwrap();
        }
        return;
    }
    assert!(
        stale.is_empty(),
        "docs/rules.md no longer shows what `pitboss rules` prints for {}: update the section's text, then \
         rewrite the blocks with `PITBOSS_BLESS=1 cargo test -p pitboss-tests -- docs`",
        stale.join(", ")
    );
}

/// Rewrites the block after `marker` in the file at `path` to `want`
/// under `PITBOSS_BLESS=1`; otherwise fails if it is not `want` already.
fn generated_block(path: &Path, marker: &str, want: &str) {
    let mut doc = read(path);
    let name = path.strip_prefix(repo()).unwrap_or(path).display().to_string();
    let range = block(&doc, marker).unwrap_or_else(|| panic!("{name} lacks a `{marker}` … `{END}` block"));
    if doc[range.clone()] == *want {
        return;
    }
    if std::env::var_os("PITBOSS_BLESS").is_some_and(|v| v == "1") {
        doc.replace_range(range, want);
        std::fs::write(path, &doc).unwrap();
        return;
    }
    panic!(
        "the `{marker}` block of {name} is stale: rewrite it with `PITBOSS_BLESS=1 cargo test -p pitboss-tests -- docs`"
    );
}

#[test]
fn rule_field_tables_come_from_the_one_declaration() {
    let toml = format!("\n```toml\n{}```\n", pitboss_results::rules::league_file_block());
    generated_block(&repo().join("leagues/README.md"), "<!-- rule fields: league file -->", &toml);
    let table = format!("\n{}", pitboss_results::rules::fields_table());
    generated_block(&repo().join("docs/rules.md"), "<!-- rule fields -->", &table);
}

#[test]
fn competition_key_tables_come_from_the_one_declaration() {
    use pitboss_server::competition::keys_table;
    let path = repo().join("docs/server.md");
    let others = format!("\n{}", keys_table(|table| table != "server", "what it sets"));
    generated_block(&path, "<!-- competition keys -->", &others);
    let server = format!("\n{}", keys_table(|table| table == "server", "past it"));
    generated_block(&path, "<!-- competition keys: [server] -->", &server);
}

/// The request of the worked example in `sdk/ABI.md`, as the engine
/// writes it: `ACT` in round 1 at a `north-american` table, the hand 10, 6
/// against a dealer 9, a bet of 10 out of 1,000 chips. Only the bytes the
/// request defines: the header, the hand's cards and the events.
fn worked_request() -> (Vec<u8>, Range<usize>) {
    let requests = Arc::new(Mutex::new(Vec::new()));
    let keep = requests.clone();
    let bot = FnPlayer(move |r: &Request<'_>| match r.header.kind {
        Decision::Bet => 10,
        Decision::Act => {
            let mut buf = vec![0; abi::BUFFER_LEN];
            r.encode_part(0, &mut buf);
            buf.truncate(abi::offset::EVENTS + 4 * r.events.len());
            keep.lock().unwrap().push((buf, r.hand.len()));
            Action::Stand as i64
        }
        _ => 0,
    });
    // The box's first card, the dealer's up card, the box's second card,
    // the hole card.
    play_stacked(Rules::north_american(), "T 9 6 8", vec![boxed(bot)], 1);
    let mut requests = requests.lock().unwrap();
    assert_eq!(requests.len(), 1, "one ACT request");
    let (bytes, cards) = requests.pop().unwrap();
    (bytes, abi::offset::HAND + cards..abi::offset::EVENTS)
}

/// The bytes a dump lists, by offset. Each line is `OFFSET  HEX BYTES
/// note`, the three separated by at least two spaces; a line whose second
/// field is not hex bytes lists none.
fn dump_bytes(dump: &str) -> Vec<(usize, u8)> {
    let mut bytes = Vec::new();
    for line in dump.lines() {
        let Some((offset, rest)) = line.trim().split_once("  ") else { continue };
        let Ok(offset) = offset.parse::<usize>() else { continue };
        let field = rest.trim_start().split("  ").next().unwrap_or("");
        let hex: Option<Vec<u8>> =
            field.split(' ').map(|t| if t.len() == 2 { u8::from_str_radix(t, 16).ok() } else { None }).collect();
        for (i, byte) in hex.into_iter().flatten().enumerate() {
            bytes.push((offset + i, byte));
        }
    }
    bytes
}

#[test]
fn abi_worked_example_is_what_the_engine_writes() {
    let abi_md = read(&repo().join("sdk/ABI.md"));
    let marker = "<!-- worked request -->";
    let range = block(&abi_md, marker).unwrap_or_else(|| panic!("sdk/ABI.md lacks a `{marker}` … `{END}` block"));
    let listed = dump_bytes(&abi_md[range]);
    let (actual, unused) = worked_request();
    let hex: Vec<String> = actual
        .chunks(8)
        .enumerate()
        .map(|(i, row)| {
            format!("{:4}  {}", 8 * i, row.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" "))
        })
        .collect();
    let hex = hex.join("\n");
    let offsets: Vec<usize> = listed.iter().map(|&(at, _)| at).collect();
    let defined: Vec<usize> = (0..actual.len()).filter(|at| !unused.contains(at)).collect();
    assert_eq!(
        offsets, defined,
        "sdk/ABI.md's dump should list every defined byte once, in order; the request:\n{hex}"
    );
    for (at, byte) in listed {
        assert_eq!(byte, actual[at], "sdk/ABI.md's dump, byte {at}; the request:\n{hex}");
    }
}

/// The repository's files, relative to its root: tracked, or new and not
/// ignored (what a commit would hand a fresh clone). `None` outside a git
/// checkout.
fn repository_files() -> Option<Vec<String>> {
    let out = Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard"])
        .current_dir(repo())
        .output()
        .ok()?;
    let listed = String::from_utf8(out.stdout).expect("UTF-8 paths");
    // A file deleted but not yet committed is listed too: keep what exists.
    out.status.success().then(|| listed.lines().filter(|f| repo().join(f).exists()).map(String::from).collect())
}

/// The repository's Markdown files; outside a git checkout (a source
/// archive), every one outside build output and hidden folders.
fn markdown_files(files: Option<&[String]>) -> Vec<PathBuf> {
    if let Some(files) = files {
        return files.iter().filter(|f| f.ends_with(".md")).map(|f| repo().join(f)).collect();
    }
    let mut found = Vec::new();
    let mut folders = vec![repo()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().unwrap().is_dir() {
                if !name.starts_with('.') && name != "target" {
                    folders.push(path);
                }
            } else if name.ends_with(".md") {
                found.push(path);
            }
        }
    }
    found
}

/// A run of backticks at the start of `s`: its length.
fn backticks(s: &str) -> usize {
    s.len() - s.trim_start_matches('`').len()
}

/// The prose of a Markdown text: fenced code blocks and code spans removed.
fn prose(markdown: &str) -> String {
    let mut text = String::new();
    let mut fence: Option<&str> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        match fence {
            Some(f) if trimmed.starts_with(f) => fence = None,
            Some(_) => {}
            None if trimmed.starts_with("```") => fence = Some("```"),
            None if trimmed.starts_with("~~~") => fence = Some("~~~"),
            None => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    // A code span runs from a run of backticks to the next run of the same
    // length, across lines too.
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find('`') {
        out.push_str(&rest[..at]);
        let run = backticks(&rest[at..]);
        let after = &rest[at + run..];
        let mut close = None;
        let mut i = 0;
        while let Some(next) = after[i..].find('`') {
            let len = backticks(&after[i + next..]);
            if len == run {
                close = Some(i + next);
                break;
            }
            i += next + len;
        }
        match close {
            Some(end) => rest = &after[end + run..],
            None => {
                out.push_str(&rest[at..at + run]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of a Markdown text's links and images, `[text](target)`,
/// `![alt](target)` and `[label]: target`, outside code.
fn link_targets(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut targets = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        targets.push(after[..end].split_whitespace().next().unwrap_or("").to_string());
        rest = &after[end..];
    }
    for line in text.lines() {
        let line = line.trim_start();
        if let Some(label_end) = line.strip_prefix('[').and_then(|l| l.find("]:")) {
            targets.push(line[label_end + 3..].split_whitespace().next().unwrap_or("").to_string());
        }
    }
    targets.into_iter().map(|t| t.trim_start_matches('<').trim_end_matches('>').to_string()).collect()
}

#[test]
fn markdown_links_resolve_inside_the_repository() {
    let root = repo().canonicalize().unwrap();
    let files = repository_files();
    let markdown = markdown_files(files.as_deref());
    assert!(markdown.iter().any(|f| f.ends_with("docs/rules.md")), "found the Markdown files: {markdown:?}");
    // A clone has a path when it is one of the files or a folder of them.
    let in_clone = |path: &Path| {
        let Ok(relative) = path.strip_prefix(&root) else { return false };
        match &files {
            Some(files) => files.iter().any(|f| Path::new(f).starts_with(relative)),
            None => true,
        }
    };
    let mut broken = Vec::new();
    for file in &markdown {
        let text = read(file);
        let name = file.strip_prefix(repo()).unwrap_or(file).display().to_string();
        for outside in ["../shared", "RULES.md"] {
            if text.contains(outside) {
                broken.push(format!("{name}: mentions `{outside}`, which a clone of the repository lacks"));
            }
        }
        for target in link_targets(&text) {
            let path = target.split(['#', '?']).next().unwrap_or("");
            let external = ["http://", "https://", "mailto:"].iter().any(|scheme| target.starts_with(scheme));
            if external || path.is_empty() {
                continue;
            }
            let path = path.replace("%20", " ");
            let resolved = match path.strip_prefix('/') {
                Some(from_root) => root.join(from_root),
                None => file.parent().unwrap().join(&path),
            };
            match resolved.canonicalize() {
                Ok(found) if in_clone(&found) => {}
                Ok(found) => broken.push(format!("{name}: `{target}` is not in the repository ({})", found.display())),
                Err(_) => broken.push(format!("{name}: `{target}` does not exist")),
            }
        }
    }
    assert!(broken.is_empty(), "Markdown links that a fresh clone cannot follow:\n{}", broken.join("\n"));
}

#[test]
fn link_targets_skip_code_and_find_every_form() {
    let text = "See [the rules](docs/rules.md#north) and ![a shot](a.png \"title\").\n\
                `[not](a-link.md)` nor ``a `[tick](x.md)` span``\n\
                ```toml\n[rules]\nx = [1](y)\n```\n\
                [label]: ../sdk/ABI.md\n[split\ntext](split.md)\n";
    assert_eq!(link_targets(text), ["docs/rules.md#north", "a.png", "split.md", "../sdk/ABI.md"]);
}

/// The Markdown files whose commands a reader copies: README.md,
/// leagues/README.md, sdk/README.md and every file under docs/.
fn command_docs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        ["README.md", "leagues/README.md", "sdk/README.md"].iter().map(|f| repo().join(f)).collect();
    let mut folders = vec![repo().join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The `pitboss` command lines in the fenced code blocks of a Markdown
/// text, with their line numbers: each line that starts with `pitboss `
/// after an optional `$ ` prompt, joined with the next while it ends in
/// `\`; a line whose second word ends in a colon is output (`pitboss
/// serve: warning: …`) and left out.
fn command_lines(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fence: Option<&str> = None;
    let mut lines = markdown.lines().enumerate();
    while let Some((at, line)) = lines.next() {
        let trimmed = line.trim();
        match fence {
            Some(f) if trimmed.starts_with(f) => fence = None,
            None if trimmed.starts_with("```") => fence = Some("```"),
            None if trimmed.starts_with("~~~") => fence = Some("~~~"),
            None => {}
            Some(_) => {
                let command = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
                // `pitboss serve: warning: …` is what pitboss prints, not
                // a command: its first word ends in a colon.
                let first = command.split_whitespace().nth(1).unwrap_or("");
                if !command.starts_with("pitboss ") || first.ends_with(':') {
                    continue;
                }
                let mut command = command.to_string();
                while command.ends_with('\\') {
                    command.pop();
                    match lines.next() {
                        Some((_, next)) => command.push_str(next.trim()),
                        None => break,
                    }
                }
                found.push((at + 1, command));
            }
        }
    }
    found
}

/// A command line's words as a shell would split them, up to a `#` that
/// starts a word (a comment): blanks separate words, `'…'` and `"…"`
/// quote, `\` escapes the next character. Variables (`$W`) and globs
/// (`*.wasm`) stay as written, which clap takes as any other value.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '#' if word.is_none() => break,
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Whether a command line holds a placeholder for the reader to fill in,
/// `…` or `<WORD>`: such a line is prose in a code block and is not
/// parsed. (Prefer a real value, or an upper-case word like `FILE` or a
/// `$VARIABLE`, which parse as values and so keep the line tested.)
fn has_placeholder(line: &str) -> bool {
    line.contains('…')
        || line.split('<').skip(1).any(|rest| {
            rest.split_once('>').is_some_and(|(inside, _)| {
                !inside.is_empty() && inside.chars().all(|c| c.is_alphanumeric() || "_-. ".contains(c))
            })
        })
}

/// Why `pitboss_cli::Cli` refuses a command line, or `None` when it parses.
fn refusal(words: &[String]) -> Option<String> {
    use clap::Parser;
    let error = pitboss_cli::Cli::try_parse_from(words).err()?;
    // `--help` and `--version` stop the parse with an "error" too: they
    // are commands a reader may type.
    use clap::error::ErrorKind;
    if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        return None;
    }
    Some(error.render().to_string().lines().next().unwrap_or("").to_string())
}

#[test]
fn every_pitboss_command_in_the_docs_parses() {
    let mut parsed = 0;
    let mut broken = Vec::new();
    let mut readme = 0;
    for file in command_docs() {
        let name = file.strip_prefix(repo()).unwrap_or(&file).display().to_string();
        for (line, command) in command_lines(&read(&file)) {
            if has_placeholder(&command) {
                continue;
            }
            match refusal(&shell_words(&command)) {
                Some(why) => broken.push(format!("{name}:{line}: `{command}`: {why}")),
                None => parsed += 1,
            }
            readme += usize::from(name == "README.md");
        }
    }
    assert!(
        broken.is_empty(),
        "commands in the docs that `pitboss` would refuse (fix the doc, or the command):\n{}",
        broken.join("\n")
    );
    // The docs show a few dozen commands; finding none means this test
    // stopped looking.
    assert!(parsed >= 20 && readme >= 3, "found only {parsed} commands ({readme} in README.md)");
}

#[test]
fn the_command_check_refuses_what_pitboss_would() {
    assert_eq!(refusal(&shell_words("pitboss play --bot b.wasm --rounds 20 --transcript")), None);
    assert_eq!(refusal(&shell_words("pitboss run --help")), None);
    for wrong in [
        "pitboss play --bot b.wasm --no-such-flag",
        "pitboss plya --bot b.wasm",
        "pitboss play --bot b.wasm --rounds many",
        "pitboss merge",
    ] {
        assert!(refusal(&shell_words(wrong)).is_some(), "`{wrong}` should be refused");
    }
    assert_eq!(
        shell_words(r#"pitboss check 'my bot.wasm' "a \"b\"" c\ d --json - # a comment"#),
        ["pitboss", "check", "my bot.wasm", "a \"b\"", "c d", "--json", "-"]
    );
    let text = "Prose: `pitboss nothing`.\n```sh\n$ pitboss run a.toml \\\n  --json r.json   # both\necho pitboss\n```\n\
                pitboss outside\n~~~\npitboss rules\n~~~\n";
    assert_eq!(
        command_lines(text),
        [(3, "pitboss run a.toml --json r.json   # both".to_string()), (9, "pitboss rules".to_string())]
    );
    assert!(has_placeholder("pitboss play --bot <BOT> --rounds 10"));
    assert!(has_placeholder("pitboss play --bot x.wasm [--bot …]"));
    assert!(!has_placeholder("pitboss play --bot $W/basic.wasm --rounds 10"));
}
