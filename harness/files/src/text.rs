//! Quoting text that came from outside — a file's contents, a path, a
//! bot's message — in one short line: control bytes escaped, so a hostile
//! input cannot move the terminal's cursor or hide a line, and long text
//! cut, so it cannot flood a log.

/// `text` with control characters (and the Unicode bidi overrides)
/// escaped as `\u{..}` and cut to at most `max` characters, marking a
/// cut with `…`.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        match c {
            '\t' => out.push(' '),
            c if c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c) || ('\u{2066}'..='\u{2069}').contains(&c) => {
                out.push_str(&c.escape_unicode().to_string())
            }
            c => out.push(c),
        }
    }
    out
}

/// Outside text shown as lines (a verdict, a check report, a log): as
/// [`excerpt`], but line breaks stay breaks.
pub fn printable(text: &str, max: usize) -> String {
    let mut left = max;
    let mut out = Vec::new();
    for line in text.split('\n') {
        let n = line.chars().count();
        out.push(excerpt(line, left));
        if n >= left {
            break;
        }
        left -= n + 1;
    }
    out.join("\n")
}

/// A bot's log with what a failure writes — a Rust panic (`panicked at
/// …`, after std's `thread '…' `), a Python traceback — on a line of its
/// own where the bot's own text before it did not end its line
/// (`log("thinking")`, then a panic): the latest such start.
pub fn failure_apart(text: &str) -> std::borrow::Cow<'_, str> {
    let panic = text.rfind("panicked at ").map(|at| {
        let line = text[..at].rfind('\n').map_or(0, |nl| nl + 1);
        // std's hook: `thread 'main' panicked at …`.
        match text[line..at].rfind("thread '") {
            Some(t) if text[line + t..at].ends_with("' ") => line + t,
            _ => at,
        }
    });
    let traceback = text.rfind("Traceback (most recent call last):");
    match panic.into_iter().chain(traceback).max() {
        Some(at) if at > 0 && !text[..at].ends_with('\n') => format!("{}\n{}", &text[..at], &text[at..]).into(),
        _ => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{excerpt, failure_apart, printable};

    #[test]
    fn a_failure_after_a_line_not_ended_starts_its_own() {
        assert_eq!(failure_apart("thinkingpanicked at src/lib.rs:3: boom"), "thinking\npanicked at src/lib.rs:3: boom");
        assert_eq!(
            failure_apart("x\nthinkingthread 'main' panicked at a.rs:1:2:\nboom"),
            "x\nthinking\nthread 'main' panicked at a.rs:1:2:\nboom"
        );
        assert_eq!(
            failure_apart("total 12Traceback (most recent call last):\n  File"),
            "total 12\nTraceback (most recent call last):\n  File"
        );
        for kept in ["thinking\npanicked at a.rs:1: x", "panicked at a.rs:1: x", "just a log", ""] {
            assert_eq!(failure_apart(kept), kept);
        }
    }

    #[test]
    fn printable_text_keeps_its_line_breaks_only() {
        assert_eq!(printable("a\nb\u{1b}[2J\r\n", 80), "a\nb\\u{1b}[2J\\u{d}\n");
        assert_eq!(printable("abc\ndef", 5), "abc\nd…");
    }

    #[test]
    fn control_bytes_are_escaped_and_long_text_cut() {
        assert_eq!(excerpt("a\u{1b}[2Jb\0c", 80), "a\\u{1b}[2Jb\\u{0}c");
        assert_eq!(excerpt("line\nnext", 80), "line\\u{a}next");
        assert_eq!(excerpt(&"x".repeat(5_000_000), 10), format!("{}…", "x".repeat(10)));
        assert_eq!(excerpt("fine text", 80), "fine text");
    }
}
