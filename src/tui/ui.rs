//! Drawing: a pure function of `App` (and the time, for the clocks).

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use shakmaty::{Color, Move, Piece, Position, Role, Square};

use crate::book::BookMove;
use crate::config::PieceStyle;
use crate::engine::{MoveSource, Score};
use crate::game::notation::san_line;
use crate::tablebase::TbProbe;

use super::app::{App, Confirm, NewGameForm, Overlay, PROMOTION_ROLES, Tone};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH, Screen};
use super::save::Players;
use super::theme::Theme;

/// The glyph of a piece: filled Unicode symbols for both sides (coloured),
/// which read better at terminal sizes than the outlined white set; or a
/// letter, upper case for White.
pub fn glyph(piece: Piece, style: PieceStyle) -> char {
    match style {
        PieceStyle::Unicode => match piece.role {
            Role::King => '♚',
            Role::Queen => '♛',
            Role::Rook => '♜',
            Role::Bishop => '♝',
            Role::Knight => '♞',
            Role::Pawn => '♟',
        },
        PieceStyle::Ascii => piece.char(),
    }
}

pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    let area = frame.area();
    let theme = Theme::get(app.settings.theme);
    let Some(screen) = layout::screen(area) else {
        draw_too_small(frame, area);
        return;
    };
    draw_top(frame, app, screen.top, &theme);
    draw_board(frame, app, &screen, &theme);
    if app.analysing() {
        super::analysis_ui::draw_panel(frame, app, screen.panel, &theme);
    } else {
        draw_panel(frame, app, screen.panel, &theme, now);
    }
    draw_status(frame, app, screen.status, &theme);
    draw_input(frame, app, screen.input, &theme);
    draw_overlay(frame, app, area, &theme);
}

fn draw_too_small(frame: &mut Frame, area: Rect) {
    let text = vec![
        Line::from("kibitz needs a bigger terminal"),
        Line::from(format!("at least {MIN_WIDTH} x {MIN_HEIGHT}")),
        Line::from(format!("this one is {} x {}", area.width, area.height)),
        Line::from("(Ctrl-C quits; a game in progress is saved)"),
    ];
    let y = area.height.saturating_sub(6) / 2;
    let rect = Rect::new(area.x, area.y + y, area.width, area.height.min(6));
    frame.render_widget(
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        rect,
    );
}

fn side_name(color: Color) -> &'static str {
    if color.is_white() { "White" } else { "Black" }
}

fn draw_top(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let mut spans = vec![Span::styled(" kibitz ", theme.highlight())];
    let who = match app.players {
        Players::VsEngine { human, level } => format!(
            " You ({}) vs kibitz level {}",
            side_name(human),
            level.get()
        ),
        Players::TwoHumans => " Two players".to_string(),
    };
    if let Some(analysis) = &app.analysis {
        let tag = |name: &str| {
            analysis
                .tree
                .headers
                .get(name)
                .filter(|v| !v.is_empty() && *v != "?")
                .map(str::to_string)
        };
        let position = app.game.position();
        let ply = analysis.tree.ply(analysis.cursor);
        spans.push(Span::styled(
            format!(
                " Analysis · ply {ply}, {} to move",
                side_name(position.turn())
            ),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        let mut text = String::new();
        if let (Some(white), Some(black)) = (tag("White"), tag("Black")) {
            text.push_str(&format!(" · {white} - {black} {}", analysis.tree.result));
        }
        if let Some(source) = &analysis.source {
            let name = source
                .path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            text.push_str(&format!(" · {name} #{}", source.number));
        }
        spans.push(Span::raw(text));
        if analysis.modified {
            spans.push(Span::styled(
                " · modified",
                Style::default().fg(theme.accent),
            ));
        }
        frame.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    }
    spans.push(Span::raw(who));
    spans.push(Span::styled(" · ", Style::default().fg(theme.dim)));
    spans.push(Span::raw(app.time_control.to_string()));
    spans.push(Span::styled(" · ", Style::default().fg(theme.dim)));
    let state = match app.end {
        Some(end) => format!("{} {}", end.result(), end.describe()),
        None if app.engine_thinking() => "kibitz is thinking".to_string(),
        None => {
            let position = app.game.position();
            let check = if position.is_check() {
                ", in check"
            } else {
                ""
            };
            format!("{} to move{check}", side_name(position.turn()))
        }
    };
    spans.push(Span::styled(
        state,
        Style::default().add_modifier(Modifier::BOLD),
    ));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_board(frame: &mut Frame, app: &App, screen: &Screen, theme: &Theme) {
    let geometry = screen.board;
    let position = app.game.position();
    let board = position.board();
    let last = app.game.moves().last().copied();
    let last_squares: Vec<Square> = last
        .map(|m| {
            [m.from(), Some(App::destination(m))]
                .into_iter()
                .flatten()
                .collect()
        })
        .unwrap_or_default();
    let hint_squares: Vec<Square> = app
        .hint
        .map(|m: Move| {
            [m.from(), Some(App::destination(m))]
                .into_iter()
                .flatten()
                .collect()
        })
        .unwrap_or_default();
    let check_square = position
        .is_check()
        .then(|| board.king_of(position.turn()))
        .flatten();
    let targets: Vec<Square> = app
        .selected
        .map(|from| {
            app.moves_from(from)
                .into_iter()
                .map(App::destination)
                .collect()
        })
        .unwrap_or_default();
    let buffer = frame.buffer_mut();
    for square in Square::ALL {
        let rect = geometry.square_rect(square, app.flipped);
        let light = (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1;
        let mut bg = if light { theme.light } else { theme.dark };
        if last_squares.contains(&square) {
            bg = theme.last_move;
        }
        if hint_squares.contains(&square) {
            bg = theme.hint;
        }
        if app.selected == Some(square) {
            bg = theme.selected;
        }
        if check_square == Some(square) {
            bg = theme.check;
        }
        let piece = board.piece_at(square);
        if piece.is_some() && targets.contains(&square) {
            bg = theme.target;
        }
        buffer.set_style(rect, Style::default().bg(bg));
        let cx = rect.x + rect.width / 2;
        let cy = rect.y + rect.height / 2;
        if let Some(piece) = piece {
            let fg = if piece.color.is_white() {
                theme.white_piece
            } else {
                theme.black_piece
            };
            buffer.set_string(
                cx,
                cy,
                glyph(piece, app.settings.pieces).to_string(),
                Style::default().fg(fg).bg(bg).add_modifier(Modifier::BOLD),
            );
        } else if targets.contains(&square) {
            buffer.set_string(cx, cy, "•", Style::default().fg(theme.target).bg(bg));
        }
        if app.cursor == square && app.overlay == Overlay::None {
            let style = Style::default()
                .fg(theme.cursor)
                .bg(bg)
                .add_modifier(Modifier::BOLD);
            buffer.set_string(rect.x, cy, "[", style);
            buffer.set_string(rect.right() - 1, cy, "]", style);
        }
    }
    // Rank labels left of the board, file labels under it.
    let label = Style::default().fg(theme.dim);
    for i in 0..8u16 {
        let rank = if app.flipped { i + 1 } else { 8 - i };
        let y = geometry.y + i * geometry.sq_h + geometry.sq_h / 2;
        buffer.set_string(screen.board_area.x, y, rank.to_string(), label);
        let file = if app.flipped { 7 - i } else { i };
        let letter = char::from(b'a' + file as u8).to_string();
        let x = geometry.x + i * geometry.sq_w + geometry.sq_w / 2;
        buffer.set_string(x, geometry.y + geometry.height(), letter, label);
    }
}

/// Piece values for the material count.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Pieces of `color` missing from the full set (captured), most valuable
/// first; a promoted piece makes up for a missing pawn.
fn captured(app: &App, color: Color) -> Vec<Piece> {
    let board = app.game.position().board();
    let full = [
        (Role::Queen, 1),
        (Role::Rook, 2),
        (Role::Bishop, 2),
        (Role::Knight, 2),
        (Role::Pawn, 8),
    ];
    let have = |role: Role| (board.by_role(role) & board.by_color(color)).count();
    // Pieces beyond the starting count came from promoted pawns.
    let promoted: usize = full[..4]
        .iter()
        .map(|&(role, count)| have(role).saturating_sub(count))
        .sum();
    let mut out = Vec::new();
    for (role, count) in full {
        let present = if role == Role::Pawn {
            have(role) + promoted
        } else {
            have(role)
        };
        for _ in present..count {
            out.push(Piece { color, role });
        }
    }
    out
}

fn material(app: &App) -> i32 {
    let board = app.game.position().board();
    Role::ALL
        .iter()
        .map(|&role| {
            let white = (board.by_role(role) & board.white()).count() as i32;
            let black = (board.by_role(role) & board.black()).count() as i32;
            value(role) * (white - black)
        })
        .sum()
}

/// Human-readable counts: 950, 12.3k, 4.56M.
pub fn human_count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

pub fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", -n),
    }
}

fn draw_panel(frame: &mut Frame, app: &App, area: Rect, theme: &Theme, now: Instant) {
    let mut lines = Vec::new();
    let (white_clock, black_clock) = app.clock_texts(now);
    let turn = app.game.position().turn();
    for (color, clock) in [(Color::White, white_clock), (Color::Black, black_clock)] {
        let active = app.end.is_none() && turn == color && app.started_game();
        let marker = if active { "▶ " } else { "  " };
        let clock_style = if active {
            theme.highlight()
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        };
        let mut name = app.players.name(color);
        if name == side_name(color) {
            name.clear();
        }
        let width = area.width as usize;
        let pad = width.saturating_sub(2 + 6 + name.chars().count() + clock.len() + 2);
        lines.push(Line::from(vec![
            Span::styled(marker, Style::default().fg(theme.accent)),
            Span::raw(format!("{:<6}", side_name(color))),
            Span::raw(name),
            Span::raw(" ".repeat(pad)),
            Span::styled(format!(" {clock} "), clock_style),
        ]));
    }
    let balance = material(app);
    let style = app.settings.pieces;
    let list =
        |pieces: Vec<Piece>| -> String { pieces.into_iter().map(|p| glyph(p, style)).collect() };
    let lead = match balance {
        0 => "even".to_string(),
        n if n > 0 => format!("White +{n}"),
        n => format!("Black +{}", -n),
    };
    lines.push(Line::from(vec![
        Span::styled("  Material ", Style::default().fg(theme.dim)),
        Span::raw(lead),
    ]));
    lines.push(Line::from(vec![
        Span::styled("  Taken by White ", Style::default().fg(theme.dim)),
        Span::raw(list(captured(app, Color::Black))),
    ]));
    lines.push(Line::from(vec![
        Span::styled("  Taken by Black ", Style::default().fg(theme.dim)),
        Span::raw(list(captured(app, Color::White))),
    ]));
    let top_height = lines.len() as u16;
    frame.render_widget(
        Paragraph::new(lines),
        Rect::new(area.x, area.y, area.width, top_height.min(area.height)),
    );

    let mut y = area.y + top_height + 1;
    let remaining = area.bottom().saturating_sub(y);
    let show_engine = matches!(app.players, Players::VsEngine { .. });
    if show_engine && remaining >= 6 {
        let engine_height = 5.min(remaining / 2).max(4);
        draw_engine(
            frame,
            app,
            Rect::new(area.x, y, area.width, engine_height),
            theme,
        );
        y += engine_height;
    }
    if let Some((probe, moves)) = app.tablebase_view() {
        let height = (moves.len().min(3) as u16 + 2).min(area.bottom().saturating_sub(y) / 2);
        if height >= 2 {
            draw_tablebase(
                frame,
                app,
                probe,
                moves,
                Rect::new(area.x, y, area.width, height),
                theme,
            );
            y += height;
        }
    }
    let book = app.book_moves();
    let book_height = (book.len().min(4) as u16 + 1).min(area.bottom().saturating_sub(y) / 2);
    if !book.is_empty() && book_height >= 2 {
        draw_book(
            frame,
            app,
            &book,
            Rect::new(area.x, y, area.width, book_height),
            theme,
        );
        y += book_height;
    }
    let rest = area.bottom().saturating_sub(y);
    if rest >= 3 {
        draw_moves(frame, app, Rect::new(area.x, y, area.width, rest), theme);
    }
}

fn draw_engine(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let inner = section(frame, " Engine ", area, theme);
    let lines = if !app.engine_panel {
        vec![Line::styled(
            "hidden (e shows it)",
            Style::default().fg(theme.dim),
        )]
    } else {
        match (&app.thinking, &app.engine_source) {
            (None, _) if app.engine_thinking() => vec![Line::from("thinking...")],
            (None, Some((san, MoveSource::Book { weight, total }))) => vec![
                Line::from(vec![
                    Span::styled("book move  ", Style::default().fg(theme.dim)),
                    Span::styled(san.clone(), Style::default().add_modifier(Modifier::BOLD)),
                ]),
                Line::from(format!(
                    "weight {weight} of {total} ({:.0}%)",
                    f64::from(*weight) * 100.0 / f64::from((*total).max(1))
                )),
            ],
            (None, _) => vec![Line::styled(
                "waiting for its turn",
                Style::default().fg(theme.dim),
            )],
            (Some(t), _) => {
                let state = if t.live { "thinking" } else { "last move" };
                vec![
                    Line::from(vec![
                        Span::styled(format!("{state}  "), Style::default().fg(theme.dim)),
                        Span::styled(
                            score_text(t.score),
                            Style::default().add_modifier(Modifier::BOLD),
                        ),
                        Span::raw(format!("  depth {}/{}", t.depth, t.seldepth)),
                    ]),
                    Line::from(format!(
                        "{} nodes  {} n/s  {:.1} s",
                        human_count(t.nodes),
                        human_count(t.nps),
                        t.elapsed.as_secs_f64()
                    )),
                    Line::from(vec![
                        Span::styled("pv ", Style::default().fg(theme.dim)),
                        Span::raw(t.pv.join(" ")),
                    ]),
                ]
            }
        }
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

/// The tables' verdict for the position and the best few moves.
pub(super) fn draw_tablebase(
    frame: &mut Frame,
    app: &App,
    probe: &TbProbe,
    moves: &[(shakmaty::Move, TbProbe)],
    area: Rect,
    theme: &Theme,
) {
    let inner = section(frame, " Tablebase ", area, theme);
    let position = app.game.position();
    let side = side_name(position.turn());
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{side}: "), Style::default().fg(theme.dim)),
        Span::styled(
            crate::cli::tb::describe(probe),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ])];
    for (m, outcome) in moves.iter().take(inner.height.saturating_sub(1) as usize) {
        let san = san_line(position, &[*m]).join("");
        lines.push(Line::from(format!(
            "{san:<7} {}",
            crate::cli::tb::describe(outcome)
        )));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The book's moves for the position, with their share as a bar.
pub(super) fn draw_book(
    frame: &mut Frame,
    app: &App,
    moves: &[BookMove],
    area: Rect,
    theme: &Theme,
) {
    let inner = section(frame, " Book ", area, theme);
    let position = app.game.position();
    let bar_width = inner.width.saturating_sub(16).min(24) as usize;
    let lines: Vec<Line> = moves
        .iter()
        .take(inner.height as usize)
        .map(|b| {
            let san = san_line(position, &[b.m]).join("");
            let filled = (b.share * bar_width as f64).round() as usize;
            Line::from(vec![
                Span::raw(format!("{san:<7}")),
                Span::styled("█".repeat(filled), Style::default().fg(theme.accent)),
                Span::styled(
                    "░".repeat(bar_width.saturating_sub(filled)),
                    Style::default().fg(theme.dim),
                ),
                Span::raw(format!(" {:>3.0}%", b.share * 100.0)),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_moves(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let inner = section(frame, " Moves ", area, theme);
    let start = app.game.start();
    let mut number = start.fullmoves().get();
    let mut rows: Vec<String> = Vec::new();
    let mut sans = app.game.sans().iter();
    if !start.turn().is_white()
        && let Some(first) = sans.next()
    {
        rows.push(format!("{number:>3}. {:<8}{first}", "..."));
        number += 1;
    }
    while let Some(white) = sans.next() {
        match sans.next() {
            Some(black) => rows.push(format!("{number:>3}. {white:<8}{black}")),
            None => rows.push(format!("{number:>3}. {white}")),
        }
        number += 1;
    }
    // Two columns of move pairs when the panel is wide enough.
    let columns = if inner.width >= 44 { 2 } else { 1 };
    let height = inner.height as usize;
    let capacity = height * columns;
    let skip = rows.len().saturating_sub(capacity);
    let shown = &rows[skip..];
    let mut lines = Vec::with_capacity(height);
    for row in 0..height.min(shown.len()) {
        let mut text = format!("{:<22}", shown[row]);
        if columns == 2
            && let Some(right) = shown.get(row + height)
        {
            text.push_str(right);
        }
        lines.push(Line::from(text));
    }
    if rows.is_empty() {
        lines.push(Line::styled("no moves yet", Style::default().fg(theme.dim)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    // The opening's name on the right, the latest message on the left.
    let opening = app
        .opening()
        .map(|o| format!("{} {} ", o.eco, o.name))
        .unwrap_or_default();
    let opening_width = (opening.chars().count() as u16).min(area.width / 2);
    if opening_width > 0 {
        let right = Rect::new(area.right() - opening_width, area.y, opening_width, 1);
        frame.render_widget(
            Paragraph::new(Line::styled(opening, Style::default().fg(theme.dim)))
                .alignment(Alignment::Right),
            right,
        );
    }
    let area = Rect::new(area.x, area.y, area.width - opening_width, 1);
    let line = match &app.message {
        Some((text, Tone::Error)) => Line::styled(
            format!(" {text}"),
            Style::default()
                .fg(theme.check)
                .add_modifier(Modifier::BOLD),
        ),
        Some((text, Tone::Info)) => Line::from(format!(" {text}")),
        None => Line::default(),
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_input(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let line = match &app.input {
        Some(text) => {
            let completions = app.completions();
            let prompt = if app.analysing() { " > " } else { " move> " };
            let mut spans = vec![
                Span::styled(prompt, Style::default().fg(theme.accent)),
                Span::raw(text.clone()),
                Span::styled("▏", Style::default().fg(theme.accent)),
            ];
            if !completions.is_empty() {
                spans.push(Span::styled(
                    format!("   {}", completions.join(" ")),
                    Style::default().fg(theme.dim),
                ));
            }
            Line::from(spans)
        }
        None if app.analysing() => Line::styled(
            " ←→ moves · ↑↓ variations · a engine · +/- lines · R review · g games · o open · s save · ? help",
            Style::default().fg(theme.dim),
        ),
        None => Line::styled(
            " arrows/mouse/: move · u takeback · i hint · d draw · f flip · ? help · q quit",
            Style::default().fg(theme.dim),
        ),
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// A panel section: a dim rule across the top with `title` in it. Draws it
/// and returns the area inside.
pub(super) fn section(
    frame: &mut Frame,
    title: impl Into<String>,
    area: Rect,
    theme: &Theme,
) -> Rect {
    let block = Block::default()
        .borders(Borders::TOP)
        .title(title.into())
        .border_style(Style::default().fg(theme.dim));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    inner
}

/// A box of `width` x `height` in the middle of `area`, cleared.
pub(super) fn popup(
    frame: &mut Frame,
    area: Rect,
    width: u16,
    height: u16,
    title: &str,
    theme: &Theme,
) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .border_style(Style::default().fg(theme.accent));
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    inner
}

pub const HELP: &[(&str, &str)] = &[
    ("arrows, h j k l", "move the cursor"),
    ("Enter, Space", "pick up a piece / put it down"),
    ("mouse", "click a piece then a square, or drag it"),
    (
        ": or /",
        "type a move (Nf3, exd5, O-O, e8=Q, g1f3); Tab completes",
    ),
    ("u", "take back your last move"),
    ("i", "hint: the engine's suggestion, shown on the board"),
    ("d", "offer a draw"),
    ("r", "resign"),
    ("n", "new game"),
    ("s", "save the game as PGN"),
    ("f", "flip the board"),
    ("e", "show or hide the engine panel"),
    ("Esc", "cancel a selection or a dialog"),
    ("?", "this help"),
    ("q, Ctrl-C", "quit (the game is autosaved)"),
    ("o, g", "open a PGN file; the games of the open file"),
    (":analyse", "take the finished game to the analysis board"),
];

pub const ANALYSIS_HELP: &[(&str, &str)] = &[
    (
        "← →, Home End",
        "back and forward along the line; to its start and end",
    ),
    ("↑ ↓", "the other moves played here (variations)"),
    (
        "h j k l, Enter",
        "board cursor, pick up / put down (or mouse, or :move)",
    ),
    ("a, + -", "engine analysis on/off; 1-5 lines"),
    ("1-5", "play the first move of that engine line"),
    (
        "p, x",
        "promote the variation; delete the move and what follows",
    ),
    (
        "c, :nag ?!",
        "comment on the move; set a mark (! ? !! ?? !? ?!)",
    ),
    (
        "R, n N",
        "review the game (:review MS); next / previous marked move",
    ),
    (
        ":annotate",
        "write the review into the game ([%eval], ?! ? ??, lines)",
    ),
    ("b", "the evaluation, term by term"),
    (
        "g, o",
        "the games of the file; open a file (or paste FEN/PGN)",
    ),
    (
        "s, :save PATH",
        "save into the file (all games); this game to PATH",
    ),
    (
        ":fen, :copy",
        "the position's FEN; the game's PGN (to the clipboard)",
    ),
    ("f, ?, q", "flip, this help, quit"),
];

fn draw_overlay(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let dim = Style::default().fg(theme.dim);
    match &app.overlay {
        Overlay::None => {}
        Overlay::GameList => {
            if let Some(list) = &app.game_list {
                super::analysis_ui::draw_game_list(frame, list, area, theme);
            }
        }
        Overlay::Open(dialog) => super::analysis_ui::draw_open(frame, dialog, area, theme),
        Overlay::Help => {
            let help = if app.analysing() { ANALYSIS_HELP } else { HELP };
            let inner = popup(
                frame,
                area,
                80,
                help.len() as u16 + 2,
                "Keys (any key closes)",
                theme,
            );
            let lines: Vec<Line> = help
                .iter()
                .map(|(key, what)| {
                    Line::from(vec![
                        Span::styled(format!(" {key:<17}"), bold.fg(theme.accent)),
                        Span::raw(*what),
                    ])
                })
                .collect();
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Overlay::NewGame(form) => draw_new_game(frame, form, app.started_game(), area, theme),
        Overlay::Resume(saved) => {
            let inner = popup(frame, area, 56, 8, "Unfinished game", theme);
            let who = match saved.players.as_str() {
                "two" => "two players".to_string(),
                side => format!("you played {side} against level {}", saved.level),
            };
            let lines = vec![
                Line::from(" Resume the game from your last session?"),
                Line::from(format!(
                    " {who}, {}, {} moves played",
                    saved.time_control,
                    saved.moves.len().div_ceil(2)
                )),
                Line::default(),
                Line::styled(" y resume · n new game", bold),
            ];
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Overlay::Promotion { choice, .. } => {
            let inner = popup(frame, area, 36, 5, "Promote to", theme);
            let color = app.game.position().turn();
            let mut spans = vec![Span::raw(" ")];
            for (index, role) in PROMOTION_ROLES.iter().enumerate() {
                let piece = Piece { color, role: *role };
                let text = format!(
                    " {} {} ",
                    glyph(piece, app.settings.pieces),
                    role.upper_char()
                );
                let style = if index == *choice {
                    bold.fg(theme.black_piece).bg(theme.accent)
                } else {
                    Style::default()
                };
                spans.push(Span::styled(text, style));
            }
            let lines = vec![
                Line::from(spans),
                Line::styled(" q r b n, or arrows + Enter; Esc cancels", dim),
            ];
            frame.render_widget(Paragraph::new(lines), inner);
        }
        Overlay::Confirm(question) => {
            let text = question.question(app.in_progress());
            let width = (text.chars().count() as u16 + 4).clamp(30, area.width);
            let title = match question {
                Confirm::DrawOffer => "Draw offer",
                _ => "Confirm",
            };
            let inner = popup(frame, area, width, 6, title, theme);
            let lines = vec![
                Line::from(format!(" {text}")),
                Line::styled(" y yes · n no", bold),
            ];
            frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
        }
        Overlay::GameOver => {
            let Some(end) = app.end else { return };
            let inner = popup(frame, area, 58, 7, "Game over", theme);
            let lines = vec![
                Line::styled(format!(" {}  {}", end.result(), end.describe()), bold),
                Line::from(format!(" after {} moves", app.game.len().div_ceil(2))),
                Line::default(),
                Line::styled(" n new game · s save · u takeback · a analyse · Esc", dim),
            ];
            frame.render_widget(Paragraph::new(lines), inner);
        }
    }
}

fn draw_new_game(frame: &mut Frame, form: &NewGameForm, started: bool, area: Rect, theme: &Theme) {
    let shown: Vec<usize> = (0..NewGameForm::FIELDS.len())
        .filter(|&f| form.shows(f))
        .collect();
    let inner = popup(frame, area, 50, shown.len() as u16 + 6, "New game", theme);
    let mut lines = Vec::new();
    for field in shown {
        let selected = field == form.field;
        let style = if selected {
            theme.highlight()
        } else {
            Style::default()
        };
        lines.push(Line::from(vec![
            Span::raw(format!(" {:<12}", NewGameForm::FIELDS[field])),
            Span::styled(format!(" ‹ {} › ", form.value(field)), style),
        ]));
    }
    lines.push(Line::default());
    lines.push(Line::styled(
        if started {
            " ↑↓ choose · ←→ change · Enter start · Esc back"
        } else {
            " ↑↓ choose · ←→ change · Enter start · Esc quit"
        },
        Style::default().fg(theme.dim),
    ));
    frame.render_widget(Paragraph::new(lines), inner);
}
