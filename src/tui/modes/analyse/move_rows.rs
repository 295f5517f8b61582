//! The move tree as rows of tokens: the main line flows like text, each
//! variation on its own row, comments inline. Drawing and mouse clicks both
//! use these rows, so a click finds the move drawn there.

use shakmaty::Position;

use crate::game::annotations;
use crate::tui::modes::analyse::Analysis;

/// What a piece of the move list is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Number,
    Move,
    Comment,
    Paren,
}

/// One piece of text in the move list.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// Column from the list's left edge.
    pub x: u16,
    pub text: String,
    /// The tree node a move token stands for.
    pub node: Option<usize>,
    pub kind: Kind,
    /// Nesting depth (0 = main line).
    pub depth: usize,
}

/// The move list as rows of tokens, `width` columns wide: the main line
/// flows like text; each variation starts on its own row, indented by its
/// depth, in parentheses; comments sit inline after their move.
pub fn move_rows(analysis: &Analysis, width: u16) -> Vec<Vec<Token>> {
    move_rows_marked(analysis, width, false)
}

/// [`move_rows`], the cursor's move in brackets (`[Nf3]`) when `marked`:
/// where there is no colour (`NO_COLOR`) its shape shows it, whatever
/// the terminal does with bold and underline.
pub fn move_rows_marked(analysis: &Analysis, width: u16, marked: bool) -> Vec<Vec<Token>> {
    let mut builder = RowBuilder {
        rows: vec![Vec::new()],
        width: width.max(12),
        x: 0,
        depth: 0,
        marked: marked.then_some(analysis.cursor),
    };
    let tree = &analysis.tree;
    for comment in &tree.nodes[0].comments {
        builder.words(&annotations::text(comment), Kind::Comment);
    }
    line(analysis, 0, 0, &mut builder, true);
    if builder.rows.last().is_some_and(Vec::is_empty) {
        builder.rows.pop();
    }
    builder.rows
}

struct RowBuilder {
    rows: Vec<Vec<Token>>,
    width: u16,
    x: u16,
    depth: usize,
    /// The node whose move is drawn in brackets, if any.
    marked: Option<usize>,
}

impl RowBuilder {
    fn indent(&self) -> u16 {
        (self.depth as u16 * 2).min(self.width / 2)
    }

    fn new_row(&mut self) {
        if self.rows.last().is_some_and(|r| !r.is_empty()) {
            self.rows.push(Vec::new());
        }
        self.x = self.indent();
    }

    fn push(&mut self, text: String, node: Option<usize>, kind: Kind) {
        let len = text.chars().count() as u16;
        let row_empty = self.rows.last().is_none_or(Vec::is_empty);
        if !row_empty && self.x + len > self.width {
            self.rows.push(Vec::new());
            self.x = self.indent();
        }
        if self.rows.last().is_none_or(Vec::is_empty) {
            self.x = self.indent();
        }
        let token = Token {
            x: self.x,
            text,
            node,
            kind,
            depth: self.depth,
        };
        self.x += len + 1;
        if let Some(row) = self.rows.last_mut() {
            row.push(token);
        }
    }

    /// Start a new row unless `len` more columns fit on this one (a move
    /// number and its move stay together).
    fn keep_room(&mut self, len: u16) {
        let row_empty = self.rows.last().is_none_or(Vec::is_empty);
        if !row_empty && self.x + len > self.width {
            self.rows.push(Vec::new());
            self.x = self.indent();
        }
    }

    fn words(&mut self, text: &str, kind: Kind) {
        for word in text.split_whitespace() {
            self.push(word.to_string(), None, kind);
        }
    }
}

/// One move's tokens; `before` is the number of plies played before it.
fn move_token(
    analysis: &Analysis,
    node: usize,
    before: u32,
    b: &mut RowBuilder,
    force_number: bool,
) {
    let tree = &analysis.tree;
    let n = &tree.nodes[node];
    // The move number comes from the ply count (cheaper than replaying).
    let start = &tree.start;
    let ply = before + u32::from(start.turn().is_black());
    let number = start.fullmoves().get() + ply / 2;
    let white = ply.is_multiple_of(2);
    let mut text = n.san.to_string();
    for nag in &n.nags {
        text.push_str(&nag_text(*nag));
    }
    if let Some(verdict) = analysis.verdict(node)
        && let Some(class) = verdict.class
        && !n.nags.iter().any(|x| (1..=6).contains(x))
    {
        text.push_str(class.symbol());
    }
    if b.marked == Some(node) {
        text = format!("[{text}]");
    }
    let number = if white {
        Some(format!("{number}."))
    } else if force_number {
        Some(format!("{number}..."))
    } else {
        None
    };
    if let Some(number) = number {
        // The number never ends a row with its move on the next.
        let both = number.chars().count() + 1 + text.chars().count();
        b.keep_room(u16::try_from(both).unwrap_or(u16::MAX));
        b.push(number, None, Kind::Number);
    }
    b.push(text, Some(node), Kind::Move);
    for comment in &n.comments {
        let mut shown = annotations::text(comment);
        if let Some(clock) = annotations::clock(comment) {
            shown = format!("[{}] {shown}", annotations::format_clock(clock));
        }
        b.words(&shown, Kind::Comment);
    }
}

/// Whether the move list shows words after `node`'s move (a comment's
/// text or a clock): Black's move after them takes its number again
/// (`4. c4 {text} 4... c6`). A comment holding only an `[%eval]`, as a kept
/// engine line's first move has, shows nothing, so the move after it reads
/// on without one (`4. c4 c6`).
fn shows_comment(analysis: &Analysis, node: usize) -> bool {
    analysis.tree.nodes[node].comments.iter().any(|comment| {
        !annotations::text(comment).trim().is_empty() || annotations::clock(comment).is_some()
    })
}

/// The line continuing from `node`, which is `ply` plies from the start.
fn line(analysis: &Analysis, node: usize, mut ply: u32, b: &mut RowBuilder, mut need_number: bool) {
    let tree = &analysis.tree;
    let mut at = node;
    while let Some((&first, rest)) = tree.nodes[at].children.split_first() {
        move_token(analysis, first, ply, b, need_number);
        need_number = shows_comment(analysis, first);
        for &variation in rest {
            b.depth += 1;
            b.new_row();
            b.push("(".into(), None, Kind::Paren);
            b.x -= 1;
            move_token(analysis, variation, ply, b, true);
            line(
                analysis,
                variation,
                ply + 1,
                b,
                shows_comment(analysis, variation),
            );
            // Close the parenthesis on the variation's last token (a nested
            // variation may have left an empty row after it).
            if let Some(last) = b.rows.iter_mut().rev().find_map(|row| row.last_mut()) {
                last.text.push(')');
            }
            b.depth -= 1;
            b.new_row();
            need_number = true;
        }
        at = first;
        ply += 1;
    }
}

/// A NAG as people write it.
pub fn nag_text(nag: u8) -> String {
    match nag {
        1 => "!".into(),
        2 => "?".into(),
        3 => "!!".into(),
        4 => "??".into(),
        5 => "!?".into(),
        6 => "?!".into(),
        10 => " =".into(),
        14 => " +=".into(),
        15 => " =+".into(),
        16 => " ±".into(),
        17 => " ∓".into(),
        18 => " +-".into(),
        19 => " -+".into(),
        n => format!(" ${n}"),
    }
}

/// The first row to show so that the cursor's row is on screen.
pub fn scroll(rows: &[Vec<Token>], cursor: usize, height: usize) -> usize {
    let row = rows
        .iter()
        .position(|r| r.iter().any(|t| t.node == Some(cursor)))
        .unwrap_or(0);
    if rows.len() <= height || row < height / 2 {
        0
    } else {
        (row - height / 2).min(rows.len() - height)
    }
}
