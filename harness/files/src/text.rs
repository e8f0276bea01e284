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

#[cfg(test)]
mod tests {
    use super::{excerpt, printable};

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
