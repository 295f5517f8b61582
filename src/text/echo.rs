//! Input written back in a message ("'…' is not a move"): what someone
//! typed or a program sent can be anything, so an echo neither passes on
//! control characters (a NUL or an ESC would reach the terminal, or split
//! a UCI line) nor repeats a 100 KB token whole.

/// Words longer than this are cut where a message repeats them.
pub const MAX_ECHOED_WORD: usize = 64;
/// What is kept of a word that is cut.
const KEPT: usize = 40;

/// `text` safe to write back: control characters escaped (`\u{1b}`; a
/// line break too unless `lines`), and each word of more than
/// [`MAX_ECHOED_WORD`] characters cut, with `…` and how long it was
/// ("'xxxx…' (100,000 characters)"). Quote marks and punctuation around a
/// word stay.
pub fn echo(text: &str, lines: bool) -> String {
    let mut out = String::with_capacity(text.len().min(4 * MAX_ECHOED_WORD));
    let mut word = String::new();
    for c in text.chars() {
        if c.is_whitespace() && !c.is_control() || (lines && c == '\n') {
            push_word(&mut out, &word);
            word.clear();
            out.push(c);
        } else if c.is_control() {
            word.extend(c.escape_default());
        } else {
            word.push(c);
        }
    }
    push_word(&mut out, &word);
    out
}

/// A word, cut when it is too long.
fn push_word(out: &mut String, word: &str) {
    let length = word.chars().count();
    if length <= MAX_ECHOED_WORD {
        out.push_str(word);
        return;
    }
    let is_mark = |c: char| {
        matches!(
            c,
            '\'' | '"' | '(' | ')' | '[' | ']' | ',' | '.' | ':' | ';'
        )
    };
    let open: String = word.chars().take_while(|&c| is_mark(c)).take(2).collect();
    let rest = &word[open.len()..];
    let close_len: usize = rest
        .chars()
        .rev()
        .take_while(|&c| is_mark(c))
        .take(3)
        .map(char::len_utf8)
        .sum();
    let (middle, close) = rest.split_at(rest.len() - close_len);
    let kept: String = middle.chars().take(KEPT).collect();
    out.push_str(&format!(
        "{open}{kept}…{close} ({} characters)",
        super::thousands(middle.chars().count() as u64)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_unchanged() {
        let text = "FEN field 2: 'x' is not a side to move (expected 'w' or 'b')";
        assert_eq!(echo(text, false), text);
        assert_eq!(echo("two\nlines", true), "two\nlines");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(echo("a\0b\u{1b}[2Jc", false), "a\\u{0}b\\u{1b}[2Jc");
        assert_eq!(echo("one\ntwo", false), "one\\ntwo");
        assert_eq!(echo("tab\there", false), "tab\\there");
    }

    #[test]
    fn a_long_word_is_cut_and_its_length_told() {
        let long = "x".repeat(100_000);
        let said = echo(&format!("move 1 '{long}' is not a move"), false);
        assert_eq!(
            said,
            format!(
                "move 1 '{}…' (100,000 characters) is not a move",
                "x".repeat(40)
            )
        );
        let said = echo(&format!("unexpected argument {long}\n\nUsage"), true);
        assert!(said.ends_with("… (100,000 characters)\n\nUsage"), "{said}");
        assert!(said.len() < 200);
        // Exactly the limit stays whole.
        let edge = "y".repeat(MAX_ECHOED_WORD);
        assert_eq!(echo(&edge, false), edge);
        assert_eq!(super::super::thousands(1_234_567), "1,234,567");
        assert_eq!(super::super::thousands(999), "999");
    }
}
