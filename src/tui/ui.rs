//! Drawing the whole screen: a pure function of `App` (and the time, for
//! the clocks). The mode says which panels go beside the board; each panel
//! and dialog draws itself.

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use shakmaty::{Move, Position, Square};

use super::app::App;
use super::heatmap::HeatMap;
use super::layout::Panel;
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH, Screen};
use super::overlays::{self, Overlay};
use super::shared::{Tone, destination};
use super::theme::{MapPalette, Theme};
use super::widgets::board::{Board, numbers_fit};
use super::widgets::book::Book;
use super::widgets::map_legend::MapLegend;
use super::widgets::stats::{StatsLine, StatsPanel};
use super::widgets::tablebase::Tablebase;
use super::widgets::tabs::Tabs;
use super::widgets::{fit, fit_parts};
use crate::tui::widgets::fitted::fitted;

pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    draw_screen(frame, app, now);
    if app.cx.no_color {
        without_colour(frame);
    }
}

/// Under `NO_COLOR` the terminal library writes every change of colour as
/// an empty attribute sequence (`ESC[;m`), which the terminal reads as
/// "reset everything": the bold or underline set just before it was lost
/// at random, wherever a colour changed. The frame keeps no colour at all,
/// so none is written and the attributes stay as drawn.
fn without_colour(frame: &mut Frame) {
    use ratatui::style::Color;
    for cell in &mut frame.buffer_mut().content {
        cell.fg = Color::Reset;
        cell.bg = Color::Reset;
        cell.underline_color = Color::Reset;
    }
}

fn draw_screen(frame: &mut Frame, app: &App, now: Instant) {
    let area = frame.area();
    let cx = &app.cx;
    let theme = Theme::for_terminal(cx.services.settings.theme, cx.true_colour);
    // The frame is the terminal's real size, which a resize storm may have
    // changed since the last resize event the board heard of.
    let Some(screen) = app.screen_in(area) else {
        draw_too_small(frame, area);
        return;
    };
    draw_top(frame, app, screen.top, &theme);
    let map = Map {
        heat: app.heat_shown(),
        palette: MapPalette::new(cx.services.settings.theme, cx.no_color),
    };
    draw_board(frame, app, &screen, &theme, &map);
    let mode = app.mode.get();
    for (panel, rect) in layout::stack(screen.panel, &mode.panels(cx)) {
        draw_panel(frame, app, panel, rect, &theme, now);
    }
    for (panel, rect) in layout::stack(screen.below, &mode.below((area.width, area.height))) {
        draw_panel(frame, app, panel, rect, &theme, now);
    }
    draw_status(frame, app, screen.status, &theme);
    draw_input(frame, app, &screen, &theme, &map);
    draw_overlay(frame, app, area, &theme, now);
}

/// The move-table map as drawn this frame.
struct Map {
    heat: Option<HeatMap>,
    palette: MapPalette,
}

/// One panel beside or under the board: the mode's own, or one every
/// mode draws alike from the shared state.
fn draw_panel(frame: &mut Frame, app: &App, panel: Panel, rect: Rect, theme: &Theme, now: Instant) {
    let cx = &app.cx;
    if app
        .mode
        .get()
        .draw_panel(cx, frame, panel, rect, theme, now)
    {
        return;
    }
    // The position the panels are about (a game looked back at: the one
    // on the board).
    let position = app.mode.get().panel_position(cx);
    match panel {
        Panel::Tablebase => {
            if let Some((probe, moves)) = cx.tablebase_view() {
                Tablebase {
                    position,
                    probe,
                    moves,
                    first: cx.side.tablebase_first,
                    theme,
                }
                .draw(frame, rect);
            }
        }
        Panel::Book => Book {
            position,
            moves: &cx.book_moves_at(position),
            theme,
        }
        .draw(frame, rect),
        Panel::Stats => {
            if let Some(stats) = &cx.stats {
                StatsPanel { stats, theme }.draw(frame, rect);
            }
        }
        Panel::StatsLine => {
            if let Some(stats) = &cx.stats {
                StatsLine { stats, theme }.draw(frame, rect);
            }
        }
        Panel::Tabs => {
            let available = app.mode.get().extras(cx);
            Tabs {
                shown: cx.side.shown(&available),
                available: &available,
                theme,
            }
            .draw(frame, rect);
        }
        // The modes' own panels: a mode that lists one draws it.
        _ => {}
    }
}

/// The squares of a move as a person sees them (castling: king to king).
fn squares(m: Option<Move>) -> Vec<Square> {
    m.map(|m| {
        [m.from(), Some(destination(m))]
            .into_iter()
            .flatten()
            .collect()
    })
    .unwrap_or_default()
}

fn draw_board(frame: &mut Frame, app: &App, screen: &Screen, theme: &Theme, map: &Map) {
    let cx = &app.cx;
    if app
        .mode
        .get()
        .draw_board_area(cx, frame, screen.board_area, theme)
    {
        return;
    }
    let shown = app.mode.get().board(cx);
    // Where the board is for moving: the piece picked up, its targets and
    // the cursor (not under a dialog).
    let interactive = shown.interactive;
    let targets = match (interactive, cx.board.selected) {
        (true, Some(from)) => cx
            .board
            .moves_from(from)
            .into_iter()
            .map(destination)
            .collect(),
        _ => Vec::new(),
    };
    Board {
        position: shown.position,
        last_move: squares(shown.last_move),
        hint: squares(shown.hint),
        selected: cx.board.selected.filter(|_| interactive),
        targets,
        cursor: (interactive && cx.overlay == Overlay::None).then_some(cx.board.cursor),
        flipped: cx.board.flipped,
        pieces: cx.services.settings.pieces,
        theme,
        heat: map.heat.as_ref(),
        palette: map.palette,
    }
    .draw(frame, screen.board, screen.board_area);
}

fn draw_input(frame: &mut Frame, app: &App, screen: &Screen, theme: &Theme, map: &Map) {
    let area = screen.input;
    // While the map is on, its legend stands in for the key line (the
    // widest row on every screen; `?` still lists the keys).
    if app.cx.input.is_none()
        && let Some(heat) = &map.heat
    {
        let fit = numbers_fit(screen.board.sq_h);
        // Under the cursor a band's digit has no row of its own where the
        // numbers take the row above the piece (or the square has one row).
        let hidden = map.palette.digits()
            && app.cx.overlay == Overlay::None
            && (screen.board.sq_h < 2 || (heat.show_numbers && fit));
        MapLegend {
            heat,
            palette: map.palette,
            theme,
            numbers_fit: fit,
            hidden_mark: hidden.then_some(app.cx.board.cursor),
        }
        .draw(frame, area);
        return;
    }
    let line = match &app.cx.input {
        Some(text) => {
            let completions = app.cx.completions();
            let mut spans = vec![
                Span::styled(app.mode.get().prompt(), Style::default().fg(theme.accent)),
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
        None if before_anything(app) => Line::default(),
        None => Line::styled(
            app.mode.get().key_line(&app.cx),
            Style::default().fg(theme.dim),
        ),
    };
    frame.render_widget(fitted(line, area.width), area);
}

fn draw_overlay(frame: &mut Frame, app: &App, area: Rect, theme: &Theme, now: Instant) {
    let cx = &app.cx;
    if app.mode.get().draw_dialog(cx, frame, area, theme) {
        return;
    }
    match &cx.overlay {
        Overlay::None => {}
        Overlay::GameList => {
            if let Some(list) = &cx.game_list {
                list.draw(frame, area, theme);
            }
        }
        Overlay::ReviewAll => {
            if let Some(review) = &cx.review_all {
                review.draw(frame, area, theme, now);
            }
        }
        Overlay::Open(dialog) => dialog.draw(frame, area, theme),
        Overlay::Help(first) => {
            overlays::help::draw(frame, app.mode.get().help(), *first, area, theme);
        }
        Overlay::Describe(view) => view.draw(frame, area, theme),
        Overlay::NewGame(form) => form.draw(frame, cx.started, area, theme),
        Overlay::Resume(saved) => {
            overlays::resume::draw(frame, saved, cx.services.unfinished.len(), area, theme)
        }
        Overlay::Promotion { choice, .. } => overlays::promotion::draw(
            frame,
            *choice,
            cx.board.game.position().turn(),
            cx.services.settings.pieces,
            area,
            theme,
        ),
        Overlay::Confirm(question) => question.draw(frame, app.in_progress(), area, theme),
        // A mode's own dialog, drawn by the mode.
        Overlay::GameOver | Overlay::TeachPositions(_) | Overlay::Course(_) => {}
    }
}

/// The game list or the resume question is open before any game or
/// analysis: the screen behind it describes nothing yet.
fn before_anything(app: &App) -> bool {
    matches!(app.cx.overlay, Overlay::GameList | Overlay::Resume(_)) && !app.cx.started
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

fn draw_top(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    let mut spans = vec![Span::styled(" kibitz ", theme.highlight())];
    // Before the first game, the header follows the new-game dialog rather
    // than describe a game nobody has started; before anything is open, the
    // game list and the resume question are all there is.
    match &app.cx.overlay {
        Overlay::NewGame(form) if !app.cx.started => {
            spans.push(Span::raw(format!(" {}", form.header())));
        }
        Overlay::Resume(_) if before_anything(app) => spans.push(Span::raw(" An unfinished game")),
        _ if before_anything(app) => spans.push(Span::raw(" Choose a game")),
        _ => spans.extend(app.mode.get().title(&app.cx, theme)),
    }
    frame.render_widget(fitted(Line::from(spans), area.width), area);
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    // The opening's name on the right, the latest message on the left; with
    // no message, how far background table making is. With one, the
    // making takes the right (near the tables the opening is long past).
    let opening = app.cx.board.opening();
    let making = &app.cx.services.making;
    let long = making.status();
    let short = making.short_status();
    let message = app.cx.message.as_ref().map(|(text, _)| text.as_str());
    let right = match (message, &short) {
        (Some(_), Some((percent, stop))) => Some((percent.as_str(), *stop)),
        _ => opening.as_ref().map(|o| (o.eco.as_str(), o.name.as_str())),
    };
    let (message, opening) = status_parts(
        area.width.into(),
        message.or(long.as_deref()).unwrap_or(""),
        right,
    );
    let opening_width = opening.chars().count() as u16;
    if opening_width > 0 {
        let right = Rect::new(area.right() - opening_width, area.y, opening_width, 1);
        frame.render_widget(
            Paragraph::new(Line::styled(opening, Style::default().fg(theme.dim))),
            right,
        );
    }
    let area = Rect::new(area.x, area.y, area.width - opening_width, 1);
    let line = match &app.cx.message {
        Some((_, Tone::Error)) => Line::styled(
            message,
            Style::default()
                .fg(theme.check)
                .add_modifier(Modifier::BOLD),
        ),
        Some((_, Tone::Info)) | None => Line::from(message),
    };
    frame.render_widget(fitted(line, area.width), area);
}

/// The status line's two texts for `width` columns: the message on the
/// left, the opening (ECO code and name) on the right, and at least two
/// blank columns between them. The message wins the room: the opening's
/// name is cut (with "…") or left at its code, and only a message longer
/// than the whole line is cut itself.
fn status_parts(width: usize, message: &str, opening: Option<(&str, &str)>) -> (String, String) {
    const GAP: usize = 2;
    let message = if message.is_empty() {
        String::new()
    } else {
        format!(" {message}")
    };
    let message_width = message.chars().count();
    let Some((eco, name)) = opening else {
        return (fit_parts(&message, width), String::new());
    };
    let gap = if message.is_empty() { 0 } else { GAP };
    let room = width.saturating_sub(message_width + gap);
    let full = format!("{eco} {name} ");
    let opening = if full.chars().count() <= room {
        full
    } else if room >= eco.chars().count() + 6 {
        // The code and as much of the name as fits.
        format!("{} ", fit(&format!("{eco} {name}"), room - 1))
    } else if room > eco.chars().count() {
        format!("{eco} ")
    } else {
        String::new()
    };
    let left = width.saturating_sub(opening.chars().count());
    (fit_parts(&message, left), opening)
}

#[cfg(test)]
mod tests {
    use super::status_parts;

    const SICILIAN: Option<(&str, &str)> = Some(("B40", "Sicilian Defense"));

    #[test]
    fn message_and_opening_keep_a_gap() {
        let (left, right) = status_parts(80, "Hint: Nf3 (+0.25)", SICILIAN);
        assert_eq!(left, " Hint: Nf3 (+0.25)");
        assert_eq!(right, "B40 Sicilian Defense ");
        // A long message: the name is cut first, then left at its code.
        let long = "Saved /home/someone/.local/share/kibitz/games/kibitz-20261123-201500.pgn";
        let (left, right) = status_parts(80, long, SICILIAN);
        assert_eq!(right, "B40 ");
        assert!(left.chars().count() + right.chars().count() <= 80);
        assert!(left.ends_with('…') || left.ends_with("pgn"), "{left}");
        let (_, right) = status_parts(55, "New game: You vs kibitz level 5, 5+3", SICILIAN);
        // Cut after a whole word.
        assert_eq!(right, "B40 Sicilian… ");
        // Never joined: at least two blanks between the texts.
        for width in 20..90 {
            let (left, right) = status_parts(width, long, SICILIAN);
            let used = left.chars().count() + right.chars().count();
            assert!(used <= width, "{width}: {left}|{right}");
            if !right.is_empty() {
                assert!(used + 2 <= width, "{width}: {left}|{right}");
            }
        }
    }

    #[test]
    fn without_an_opening_the_message_takes_the_line() {
        assert_eq!(status_parts(12, "No moves here", None).0, " No moves…");
        assert_eq!(status_parts(12, "", SICILIAN).1, "B40… ");
        assert_eq!(status_parts(16, "", SICILIAN).1, "B40 Sicilian… ");
    }
}
