//! The commands that live inside PGN comments: `[%eval 0.35]`,
//! `[%eval #-3]` and `[%clk 1:02:03]`, as lichess, ChessBase and most
//! analysis tools write them. They are read for the evaluation graph and the
//! clocks in the move list, kept in the comment when it is saved, and left
//! out when the comment is shown as text.

use std::time::Duration;

/// An evaluation from White's point of view, as written in a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentEval {
    Centipawns(i32),
    /// Mate in n moves: positive when White mates.
    Mate(i32),
}

impl std::fmt::Display for CommentEval {
    /// The `[%eval]` argument: pawns with two decimals, or `#n`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            CommentEval::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                write!(f, "{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
            }
            CommentEval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// The argument of the first `[%name ...]` command in `comment`.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let tag = format!("[%{name}");
    let start = comment.find(&tag)? + tag.len();
    let rest = &comment[start..];
    // The name must end here (`[%evaluation` is not `[%eval`).
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let end = rest.find(']')?;
    rest[..end].split_whitespace().next()
}

/// The `[%eval]` of a comment, if it has a readable one.
pub fn eval(comment: &str) -> Option<CommentEval> {
    let arg = command(comment, "eval")?;
    if let Some(mate) = arg.strip_prefix('#') {
        return mate.parse().ok().map(CommentEval::Mate);
    }
    let pawns: f64 = arg.parse().ok()?;
    pawns.is_finite().then(|| {
        CommentEval::Centipawns((pawns * 100.0).round().clamp(-100_000.0, 100_000.0) as i32)
    })
}

/// The `[%clk]` of a comment: the time left after the move.
pub fn clock(comment: &str) -> Option<Duration> {
    let arg = command(comment, "clk")?;
    if arg.split(':').count() > 3 {
        return None;
    }
    let mut seconds = 0.0;
    for part in arg.split(':') {
        let value: f64 = part.parse().ok()?;
        if !(0.0..1e7).contains(&value) {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

/// The comment without its `[%...]` commands, for showing as text.
pub fn text(comment: &str) -> String {
    let mut out = String::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%") {
        out.push_str(&rest[..start]);
        match rest[start..].find(']') {
            Some(end) => rest = &rest[start + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `comment` with its `[%eval]` set to `eval` (replaced, or added in front).
pub fn with_eval(comment: &str, eval: CommentEval) -> String {
    let command = format!("[%eval {eval}]");
    match comment.find("[%eval ") {
        Some(start) => match comment[start..].find(']') {
            Some(end) => format!(
                "{}{command}{}",
                &comment[..start],
                &comment[start + end + 1..]
            ),
            None => format!("{command} {comment}"),
        },
        None if comment.trim().is_empty() => command,
        None => format!("{command} {}", comment.trim()),
    }
}

/// The sign of a move-quality NAG: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`,
/// 6 `?!` (others have none).
pub fn mark_symbol(nag: u8) -> Option<&'static str> {
    match nag {
        1 => Some("!"),
        2 => Some("?"),
        3 => Some("!!"),
        4 => Some("??"),
        5 => Some("!?"),
        6 => Some("?!"),
        _ => None,
    }
}

/// Set the `[%eval]` of a move's comments: in its first comment, or in a
/// new first one where it has none or the first holds movetext the reader
/// could not read (kept apart, as it was).
pub fn set_eval(comments: &mut Vec<String>, eval: CommentEval) {
    match comments.first_mut() {
        Some(first) if !first.starts_with(super::import::UNREAD_PREFIX) => {
            *first = with_eval(first, eval);
        }
        _ => comments.insert(0, with_eval("", eval)),
    }
}

/// A clock reading as `h:mm:ss` (or `m:ss` under an hour).
pub fn format_clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_evals_and_clocks() {
        assert_eq!(eval("[%eval 0.35]"), Some(CommentEval::Centipawns(35)));
        assert_eq!(
            eval("Good. [%eval -1.2] [%clk 0:03:00]"),
            Some(CommentEval::Centipawns(-120))
        );
        assert_eq!(eval("[%eval #-3]"), Some(CommentEval::Mate(-3)));
        assert_eq!(eval("[%eval x]"), None);
        assert_eq!(eval("[%evaluation 1]"), None);
        assert_eq!(eval("no command"), None);
        assert_eq!(clock("[%clk 1:02:03]"), Some(Duration::from_secs(3723)));
        assert_eq!(clock("[%clk 0:00:09.5]"), Some(Duration::from_millis(9500)));
        assert_eq!(clock("[%clk 1:xx]"), None);
        assert_eq!(clock("[%clk 1:0:0:0:0:0:0:0:0:0:0:0]"), None);
        assert_eq!(clock("[%clk 99999999:59:59]"), None);
    }

    #[test]
    fn text_leaves_out_commands() {
        assert_eq!(
            text("[%eval 0.3] A fine move. [%clk 0:01:00]"),
            "A fine move."
        );
        assert_eq!(text("[%clk 0:01:00]"), "");
        assert_eq!(text("broken [%eval"), "broken");
    }

    #[test]
    fn evals_write_back_the_way_they_read() {
        for e in [
            CommentEval::Centipawns(0),
            CommentEval::Centipawns(-5),
            CommentEval::Centipawns(1234),
            CommentEval::Mate(-2),
        ] {
            assert_eq!(eval(&with_eval("", e)), Some(e), "{e}");
            assert_eq!(eval(&with_eval("[%eval 9.99] text", e)), Some(e));
        }
        assert_eq!(
            with_eval("nice", CommentEval::Centipawns(-5)),
            "[%eval -0.05] nice"
        );
    }
}
