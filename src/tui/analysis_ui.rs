//! Drawing the analysis board's panel (evaluation bar, engine lines, review
//! graph, evaluation breakdown, move tree), the game list and the open-file
//! dialog. The panel's layout and the move list's rows are pure functions
//! of the state, so mouse clicks find what was drawn where.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as TermColor, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use shakmaty::{Color, Position};

use crate::engine::Score;
use crate::engine::eval;
use crate::game::annotations;
use crate::review::{self, Class};

use super::app::{Analysis, App, GameList, OpenDialog};
use super::theme::Theme;
use super::ui::{human_count, popup, score_text, section};

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
    let mut builder = RowBuilder {
        rows: vec![Vec::new()],
        width: width.max(12),
        x: 0,
        depth: 0,
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
    if white {
        b.push(format!("{number}."), None, Kind::Number);
    } else if force_number {
        b.push(format!("{number}..."), None, Kind::Number);
    }
    let mut text = n.san.clone();
    for nag in &n.nags {
        text.push_str(&nag_text(*nag));
    }
    if let Some(verdict) = analysis.verdict(node)
        && let Some(class) = verdict.class
        && !n.nags.iter().any(|x| (1..=6).contains(x))
    {
        text.push_str(class.symbol());
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

/// The line continuing from `node`, which is `ply` plies from the start.
fn line(analysis: &Analysis, node: usize, mut ply: u32, b: &mut RowBuilder, mut need_number: bool) {
    let tree = &analysis.tree;
    let mut at = node;
    while let Some((&first, rest)) = tree.nodes[at].children.split_first() {
        move_token(analysis, first, ply, b, need_number);
        need_number = !tree.nodes[first].comments.is_empty();
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
                !tree.nodes[variation].comments.is_empty(),
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

/// Where the analysis panel's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PanelLayout {
    pub bar: Rect,
    /// The engine lines, one row each, below a title row.
    pub engine: Rect,
    pub tablebase: Option<Rect>,
    pub book: Option<Rect>,
    pub graph: Option<Rect>,
    pub breakdown: Option<Rect>,
    /// The move list (below its title row).
    pub moves: Rect,
}

const GRAPH_HEIGHT: u16 = 5;

pub fn panel_layout(app: &App, area: Rect) -> PanelLayout {
    let Some(analysis) = &app.analysis else {
        return PanelLayout::default();
    };
    let mut y = area.y;
    let take = |height: u16, y: &mut u16| {
        let h = height.min(area.bottom().saturating_sub(*y));
        let rect = Rect::new(area.x, *y, area.width, h);
        *y += h;
        rect
    };
    let bar = take(1, &mut y);
    let engine_rows = if analysis.engine_on {
        analysis.multipv as u16
    } else {
        1
    };
    let engine = take(engine_rows + 1, &mut y);
    let room = |y: u16| area.bottom().saturating_sub(y);
    let tablebase = match app.tablebase_view() {
        Some((_, moves)) if room(y) >= 10 => Some(take(moves.len().min(2) as u16 + 2, &mut y)),
        _ => None,
    };
    let book_moves = app.book_moves().len();
    let book =
        (book_moves > 0 && room(y) >= 10).then(|| take(book_moves.min(3) as u16 + 1, &mut y));
    let graph = (analysis.review.is_some() && room(y) >= GRAPH_HEIGHT + 5)
        .then(|| take(GRAPH_HEIGHT + 1, &mut y));
    let breakdown = (analysis.breakdown && room(y) >= 8).then(|| {
        // A row a term, the header and the total.
        let terms = eval::Term::ALL.len() as u16;
        take((terms + 2).min(room(y) - 4), &mut y)
    });
    let moves = take(room(y), &mut y);
    PanelLayout {
        bar,
        engine,
        tablebase,
        book,
        graph,
        breakdown,
        moves,
    }
}

/// The evaluation shown in the bar: the engine's best line, or the
/// review's evaluation of this position.
fn shown_score(analysis: &Analysis) -> Option<Score> {
    if let Some(line) = analysis.lines.first() {
        return Some(line.score);
    }
    let review = analysis.review.as_ref()?;
    let ply = analysis.tree.ply(analysis.cursor);
    let on_main = analysis.tree.on_mainline(analysis.cursor);
    let eval = review.evals.get(ply)?.as_ref().filter(|_| on_main)?;
    Some(eval.score)
}

pub fn draw_panel(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let Some(analysis) = &app.analysis else {
        return;
    };
    let layout = panel_layout(app, area);
    let dim = Style::default().fg(theme.dim);
    let bold = Style::default().add_modifier(Modifier::BOLD);

    // The evaluation bar: White's share of the winning chances.
    let position = app.game.position();
    let score = shown_score(analysis);
    let (chance, label) = match (position.legal_moves().is_empty(), score) {
        (true, _) if position.is_check() => {
            let white_mated = position.turn().is_white();
            (if white_mated { 0.0 } else { 100.0 }, "mate".to_string())
        }
        (true, _) => (50.0, "stalemate".to_string()),
        (false, Some(score)) => (review::win_chance(score), score_text(score)),
        (false, None) => (50.0, "…".to_string()),
    };
    let bar_width = layout.bar.width.saturating_sub(9) as usize;
    let filled = ((chance / 100.0) * bar_width as f64).round() as usize;
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(
                "█".repeat(filled),
                Style::default().fg(theme.white_piece).bg(theme.black_piece),
            ),
            Span::styled(
                " ".repeat(bar_width.saturating_sub(filled)),
                Style::default().bg(TermColor::DarkGray),
            ),
            Span::styled(format!(" {label:>7}"), bold),
        ])),
        layout.bar,
    );

    // Engine lines.
    let title = if !analysis.engine_on {
        " Engine off (a) ".to_string()
    } else {
        match analysis.lines.first() {
            Some(l) => format!(" Engine · depth {} · {} n/s ", l.depth, human_count(l.nps)),
            None => " Engine ".to_string(),
        }
    };
    let inner = section(frame, title, layout.engine, theme);
    let mut lines = Vec::new();
    if !analysis.engine_on {
        lines.push(Line::styled("a starts the analysis", dim));
    } else if position.legal_moves().is_empty() {
        lines.push(Line::styled("the game is over here", dim));
    } else {
        for i in 0..analysis.multipv {
            match analysis.lines.get(i) {
                Some(l) => lines.push(Line::from(vec![
                    Span::styled(format!("{} ", i + 1), dim),
                    Span::styled(format!("{:>6} ", score_text(l.score)), bold),
                    Span::raw(numbered_line(position, &l.san)),
                ])),
                None if i == 0 => lines.push(Line::styled("thinking…", dim)),
                None => lines.push(Line::default()),
            }
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);

    if let (Some(rect), Some((probe, moves))) = (layout.tablebase, app.tablebase_view()) {
        super::ui::draw_tablebase(frame, app, probe, moves, rect, theme);
    }
    if let Some(rect) = layout.book {
        super::ui::draw_book(frame, app, &app.book_moves(), rect, theme);
    }
    if let Some(rect) = layout.graph {
        draw_graph(frame, analysis, rect, theme);
    }
    if let Some(rect) = layout.breakdown {
        draw_breakdown(frame, app, rect, theme);
    }
    draw_moves(frame, analysis, layout.moves, theme);
}

/// A line in SAN with move numbers: `12. Nf3 Nc6 13. d4`.
fn numbered_line(position: &shakmaty::Chess, san: &[String]) -> String {
    let mut number = position.fullmoves().get();
    let mut white = position.turn().is_white();
    let mut out = Vec::new();
    for (i, m) in san.iter().enumerate() {
        if white {
            out.push(format!("{number}.{m}"));
        } else if i == 0 {
            out.push(format!("{number}...{m}"));
        } else {
            out.push(m.clone());
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    out.join(" ")
}

fn class_color(class: Class, theme: &Theme) -> TermColor {
    match class {
        Class::Inaccuracy => TermColor::Yellow,
        Class::Mistake => TermColor::Rgb(230, 140, 40),
        Class::Blunder => theme.check,
    }
}

/// The review's evaluation graph: White's winning chance over the game,
/// filled from the bottom; marked moves in their colour, the cursor's ply
/// highlighted.
fn draw_graph(frame: &mut Frame, analysis: &Analysis, area: Rect, theme: &Theme) {
    let Some(review) = &analysis.review else {
        return;
    };
    let side_counts = |color: Color| {
        let of = |class| {
            review
                .moves
                .iter()
                .filter(|m| m.mover == color && m.class == Some(class))
                .count()
        };
        format!(
            "{}?! {}? {}??",
            of(Class::Inaccuracy),
            of(Class::Mistake),
            of(Class::Blunder)
        )
    };
    let state = if review.done {
        String::new()
    } else {
        format!(" {}/{}", review.evaluated(), review.evals.len())
    };
    let title = format!(
        " Review{state} · W {} · B {} ",
        side_counts(Color::White),
        side_counts(Color::Black)
    );
    let inner = section(frame, title, area, theme);
    let plies = review.evals.len();
    if plies == 0 || inner.width == 0 || inner.height == 0 {
        return;
    }
    let cursor_ply = analysis
        .tree
        .on_mainline(analysis.cursor)
        .then(|| analysis.tree.ply(analysis.cursor));
    let width = inner.width as usize;
    let height = inner.height as usize;
    const EIGHTHS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let mut rows: Vec<Vec<Span>> = vec![Vec::new(); height];
    for col in 0..width.min(plies.max(1)) {
        // Columns stand for plies, squeezed when the game is longer.
        let ply = if plies <= width {
            col
        } else {
            col * (plies - 1) / (width - 1).max(1)
        };
        let chance = review.evals[ply]
            .as_ref()
            .map(|e| e.chance_for(Color::White));
        let class = review
            .moves
            .iter()
            .find(|m| m.ply == ply)
            .and_then(|m| m.class);
        let fg = class.map_or(theme.white_piece, |c| class_color(c, theme));
        let bg = if cursor_ply == Some(ply) {
            theme.accent
        } else {
            TermColor::Reset
        };
        let total = chance.map_or(0, |c| (c / 100.0 * (height * 8) as f64).round() as usize);
        for (r, row) in rows.iter_mut().enumerate() {
            // Row 0 is the top.
            let below = (height - 1 - r) * 8;
            let fill = total.saturating_sub(below).min(8);
            let ch = if chance.is_none() {
                '·'
            } else {
                EIGHTHS[fill]
            };
            row.push(Span::styled(ch.to_string(), Style::default().fg(fg).bg(bg)));
        }
    }
    let lines: Vec<Line> = rows.into_iter().map(Line::from).collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The static evaluation of the position, term by term.
fn draw_breakdown(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let breakdown = eval::breakdown(app.game.position());
    let inner = section(
        frame,
        format!(" Evaluation (White's view) · phase {}/24 ", breakdown.phase),
        area,
        theme,
    );
    let dim = Style::default().fg(theme.dim);
    let mut lines = vec![Line::styled(
        format!("{:<16}{:>7}{:>7}{:>8}", "term", "mg", "eg", "blend"),
        dim,
    )];
    for term in &breakdown.terms {
        lines.push(Line::from(format!(
            "{:<16}{:>7}{:>7}{:>8}",
            term.term.label(),
            term.middlegame,
            term.endgame,
            term.blended
        )));
    }
    lines.push(Line::styled(
        format!("{:<30}{:>8}", "total", breakdown.total),
        Style::default().add_modifier(Modifier::BOLD),
    ));
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_moves(frame: &mut Frame, analysis: &Analysis, area: Rect, theme: &Theme) {
    let title = match analysis.tree.nodes[analysis.cursor].comments.is_empty() {
        true => " Moves ".to_string(),
        false => " Moves (c edits the comment) ".to_string(),
    };
    let inner = section(frame, title, area, theme);
    let rows = move_rows(analysis, inner.width);
    if rows.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(
                "no moves: play one on the board",
                Style::default().fg(theme.dim),
            )),
            inner,
        );
        return;
    }
    let first = scroll(&rows, analysis.cursor, inner.height as usize);
    let mut lines = Vec::new();
    for row in rows.iter().skip(first).take(inner.height as usize) {
        let mut spans = Vec::new();
        let mut x = 0;
        for token in row {
            if token.x > x {
                spans.push(Span::raw(" ".repeat((token.x - x) as usize)));
            }
            let mut style = match token.kind {
                Kind::Number | Kind::Paren => Style::default().fg(theme.dim),
                Kind::Comment => Style::default().fg(TermColor::Cyan),
                Kind::Move if token.depth == 0 => Style::default().add_modifier(Modifier::BOLD),
                Kind::Move => Style::default(),
            };
            if let Some(node) = token.node {
                if node == analysis.cursor {
                    style = style
                        .fg(theme.black_piece)
                        .bg(theme.accent)
                        .add_modifier(Modifier::BOLD);
                } else if let Some(class) = analysis.verdict(node).and_then(|v| v.class) {
                    style = style.fg(class_color(class, theme));
                }
            }
            spans.push(Span::styled(token.text.clone(), style));
            x = token.x + token.text.chars().count() as u16;
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// A panel part without its title row (what `Block` with a top border
/// leaves inside).
fn below_title(rect: Rect) -> Rect {
    Rect::new(
        rect.x,
        rect.y.saturating_add(1),
        rect.width,
        rect.height.saturating_sub(1),
    )
}

/// The tree node of the move drawn at a terminal cell, if any.
pub fn move_at(app: &App, panel: Rect, column: u16, row: u16) -> Option<usize> {
    let analysis = app.analysis.as_ref()?;
    let inner = below_title(panel_layout(app, panel).moves);
    if !inner.contains((column, row).into()) {
        return None;
    }
    let rows = move_rows(analysis, inner.width);
    let first = scroll(&rows, analysis.cursor, inner.height as usize);
    let tokens = rows.get(first + usize::from(row - inner.y))?;
    let x = column - inner.x;
    tokens
        .iter()
        .find(|t| t.node.is_some() && x >= t.x && x < t.x + t.text.chars().count() as u16)
        .and_then(|t| t.node)
}

/// The engine line drawn at a terminal row, if any (0 = best).
pub fn line_at(app: &App, panel: Rect, column: u16, row: u16) -> Option<usize> {
    let analysis = app.analysis.as_ref()?;
    let inner = below_title(panel_layout(app, panel).engine);
    if !inner.contains((column, row).into()) {
        return None;
    }
    let index = usize::from(row - inner.y);
    (index < analysis.lines.len()).then_some(index)
}

pub fn draw_game_list(frame: &mut Frame, list: &GameList, area: Rect, theme: &Theme) {
    let width = area.width.saturating_sub(4).max(40);
    let height = area.height.saturating_sub(2).max(8);
    let name = list.path.file_name().map_or_else(
        || list.path.display().to_string(),
        |n| n.to_string_lossy().to_string(),
    );
    let state = if list.done {
        format!("{} games", list.games.len())
    } else {
        format!("{} games so far, reading…", list.games.len())
    };
    let inner = popup(
        frame,
        area,
        width,
        height,
        &format!("{name} · {state}"),
        theme,
    );
    let dim = Style::default().fg(theme.dim);
    let mut lines = vec![Line::from(vec![
        Span::styled(" search: ", dim),
        Span::raw(list.query.clone()),
        Span::styled("▏", Style::default().fg(theme.accent)),
        Span::styled(
            format!(
                "   {} shown · ↑↓ PgUp PgDn · Enter opens · Esc closes",
                list.shown.len()
            ),
            dim,
        ),
    ])];
    if let Some(error) = &list.error {
        lines.push(Line::styled(
            format!(" {error}"),
            Style::default().fg(theme.check),
        ));
    }
    let w = inner.width as usize;
    // Columns: number, White, Black, result, plies, date, event, opening.
    let name_w = (w.saturating_sub(40) / 4).clamp(8, 22);
    lines.push(Line::styled(
        format!(
            "  {:>4} {:<nw$} {:<nw$} {:<7} {:>4} {:<10} {}",
            "#",
            "White",
            "Black",
            "Result",
            "ply",
            "Date",
            "Event / opening",
            nw = name_w
        ),
        dim.add_modifier(Modifier::BOLD),
    ));
    let rows = (inner.height as usize).saturating_sub(lines.len());
    let first = if list.selected >= rows {
        list.selected + 1 - rows
    } else {
        0
    };
    for (i, &index) in list.shown.iter().enumerate().skip(first).take(rows) {
        let g = &list.games[index];
        let clip = |s: &str, n: usize| s.chars().take(n).collect::<String>();
        let about = match (g.event.is_empty(), g.opening.is_empty()) {
            (false, false) => format!("{} · {}", g.event, g.opening),
            (false, true) => g.event.clone(),
            _ => g.opening.clone(),
        };
        let pointer = if i == list.selected { "▶" } else { " " };
        let mark = if g.error.is_some() { "!" } else { " " };
        let text = format!(
            "{pointer}{mark}{:>4} {:<nw$} {:<nw$} {:<7} {:>4} {:<10} {}",
            g.number,
            clip(&g.white, name_w),
            clip(&g.black, name_w),
            g.result,
            g.plies,
            clip(&g.date, 10),
            about,
            nw = name_w
        );
        let text: String = text.chars().take(w).collect();
        let style = if i == list.selected {
            theme.highlight()
        } else {
            Style::default()
        };
        lines.push(Line::styled(text, style));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

pub fn draw_open(frame: &mut Frame, dialog: &OpenDialog, area: Rect, theme: &Theme) {
    let width = area.width.saturating_sub(8).clamp(40, 90);
    let inner = popup(frame, area, width, 14, "Open a PGN file", theme);
    let dim = Style::default().fg(theme.dim);
    let mut lines = vec![
        Line::from(vec![
            Span::styled(" path: ", Style::default().fg(theme.accent)),
            Span::raw(dialog.input.clone()),
            Span::styled("▏", Style::default().fg(theme.accent)),
        ]),
        Line::styled(
            if dialog.input.is_empty() {
                " recent files (type a path; Tab completes; Enter opens)"
            } else {
                " matching folders and .pgn files (Tab completes; Enter opens)"
            },
            dim,
        ),
    ];
    let rows = inner.height.saturating_sub(2) as usize;
    let first = dialog.selected.map_or(0, |s| (s + 1).saturating_sub(rows));
    for (i, choice) in dialog.choices.iter().enumerate().skip(first).take(rows) {
        let style = if Some(i) == dialog.selected {
            theme.highlight()
        } else {
            Style::default()
        };
        lines.push(Line::styled(format!("  {choice}"), style));
    }
    if dialog.choices.is_empty() {
        lines.push(Line::styled("  (nothing matches)", dim));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
