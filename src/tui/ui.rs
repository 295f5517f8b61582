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
use super::modes::Mode;
use super::modes::analyse::eval_graph::EvalGraph;
use super::modes::analyse::move_tree::MoveTree;
use super::modes::teach::caption::Caption;
use super::modes::teach::comparison::Comparison;
use super::modes::teach::header::TeachHeader;
use super::overlays::{self, Overlay};
use super::save::Players;
use super::shared::{Tone, destination};
use super::theme::{MapPalette, Theme};
use super::widgets::board::{Board, numbers_fit};
use super::widgets::book::Book;
use super::widgets::breakdown::Breakdown;
use super::widgets::engine::EnginePanel;
use super::widgets::engine_lines::EngineLines;
use super::widgets::eval_bar::EvalBar;
use super::widgets::map_legend::MapLegend;
use super::widgets::move_list::MoveList;
use super::widgets::node_moves::NodeMoves;
use super::widgets::players;
use super::widgets::search_path::SearchPath;
use super::widgets::stats::{StatsLine, StatsPanel};
use super::widgets::tablebase::Tablebase;
use super::widgets::tabs::Tabs;
use super::widgets::{fit, side_name};
use crate::tui::widgets::fitted::fitted;

pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    let area = frame.area();
    let theme = Theme::for_terminal(app.settings.theme, app.true_colour);
    let Some(screen) = app.screen() else {
        draw_too_small(frame, area);
        return;
    };
    draw_top(frame, app, screen.top, &theme);
    let map = Map {
        heat: heat_map(app),
        palette: MapPalette::new(app.settings.theme, app.no_color),
    };
    draw_board(frame, app, &screen, &theme, &map);
    for (panel, rect) in layout::stack(screen.panel, &app.mode.panels(&app.cx)) {
        draw_panel(frame, app, panel, rect, &theme, now);
    }
    for (panel, rect) in layout::stack(screen.below, &app.mode.below(app.size)) {
        draw_panel(frame, app, panel, rect, &theme, now);
    }
    draw_status(frame, app, screen.status, &theme);
    draw_input(frame, app, &screen, &theme, &map);
    draw_overlay(frame, app, area, &theme);
}

/// The move-table map as drawn this frame.
struct Map {
    heat: Option<HeatMap>,
    palette: MapPalette,
}

/// The map of the tables on show (see [`App::map_tables`]).
fn heat_map(app: &App) -> Option<HeatMap> {
    app.map.heat(app.map_tables())
}

/// One panel beside the board, from the state it shows.
fn draw_panel(frame: &mut Frame, app: &App, panel: Panel, rect: Rect, theme: &Theme, now: Instant) {
    let position = app.game.position();
    let analysis = app.analysis();
    match panel {
        Panel::Players => players::Players {
            players: app.players,
            start: app.game.start(),
            position,
            clocks: app.clock_texts(now),
            running: app.end.is_none() && app.started_game(),
            pieces: app.settings.pieces,
            theme,
        }
        .draw(frame, rect),
        Panel::Engine => EnginePanel {
            hidden: !app.engine_panel,
            thinking: app.thinking.as_ref(),
            source: app.engine_source.as_ref(),
            searching: app.engine_thinking(),
            end: app.end,
            theme,
        }
        .draw(frame, rect),
        Panel::Tablebase => {
            if let Some((probe, moves)) = app.tablebase_view() {
                Tablebase {
                    position,
                    probe,
                    moves,
                    first: app.side.tablebase_first,
                    theme,
                }
                .draw(frame, rect);
            }
        }
        Panel::Book => Book {
            position,
            moves: &app.book_moves(),
            theme,
        }
        .draw(frame, rect),
        Panel::MoveList => MoveList {
            game: &app.game,
            theme,
        }
        .draw(frame, rect),
        Panel::Breakdown => Breakdown { position, theme }.draw(frame, rect),
        Panel::EvalBar => EvalBar {
            position,
            score: analysis.and_then(|a| a.shown_score()),
            theme,
        }
        .draw(frame, rect),
        Panel::EngineLines => {
            if let Some(a) = analysis {
                EngineLines {
                    position,
                    lines: &a.lines.shown,
                    multipv: a.multipv,
                    on: a.engine_on,
                    theme,
                }
                .draw(frame, rect);
            }
        }
        Panel::EvalGraph => {
            if let Some(a) = analysis
                && let Some(review) = &a.review
            {
                EvalGraph {
                    review,
                    cursor_ply: a.mainline_ply(),
                    theme,
                }
                .draw(frame, rect);
            }
        }
        Panel::MoveTree => {
            if let Some(analysis) = analysis {
                MoveTree { analysis, theme }.draw(frame, rect);
            }
        }
        Panel::Stats => {
            if let Some(teach) = app.mode.teach() {
                if let Some(stats) = teach.stats() {
                    StatsPanel {
                        stats: &stats,
                        theme,
                    }
                    .draw(frame, rect);
                }
            } else if let Some(stats) = &app.stats {
                StatsPanel { stats, theme }.draw(frame, rect);
            }
        }
        Panel::TeachHeader => {
            if let Some(teach) = app.mode.teach() {
                TeachHeader { teach, theme }.draw(frame, rect);
            }
        }
        Panel::SearchPath => SearchPath {
            step: app.mode.teach().and_then(|t| t.ready()).map(|(_, s)| s),
            theme,
        }
        .draw(frame, rect),
        Panel::NodeMoves => NodeMoves {
            step: app.mode.teach().and_then(|t| t.ready()).map(|(_, s)| s),
            theme,
        }
        .draw(frame, rect),
        Panel::Caption => {
            if let Some(teach) = app.mode.teach() {
                Caption { teach, theme }.draw(frame, rect);
            }
        }
        Panel::Comparison => {
            if let Some(teach) = app.mode.teach() {
                Comparison { teach, theme }.draw(frame, rect);
            }
        }
        Panel::StatsLine => {
            if let Some(stats) = &app.stats {
                StatsLine { stats, theme }.draw(frame, rect);
            }
        }
        Panel::Tabs => {
            let available = app.mode.extras(&app.cx);
            Tabs {
                shown: app.side.shown(&available),
                available: &available,
                theme,
            }
            .draw(frame, rect);
        }
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
    if let Some(teach) = app.mode.teach() {
        // The node being searched, the move that led there, the move tried.
        let (position, arrived, trying) = teach.board();
        Board {
            position,
            last_move: squares(arrived),
            hint: squares(trying),
            selected: None,
            targets: Vec::new(),
            cursor: None,
            flipped: app.flipped,
            pieces: app.settings.pieces,
            theme,
            heat: map.heat.as_ref(),
            palette: map.palette,
        }
        .draw(frame, screen.board, screen.board_area);
        return;
    }
    let targets = app
        .selected
        .map(|from| app.moves_from(from).into_iter().map(destination).collect())
        .unwrap_or_default();
    Board {
        position: app.game.position(),
        last_move: squares(app.game.moves().last().copied()),
        hint: squares(app.hint),
        selected: app.selected,
        targets,
        cursor: (app.overlay == Overlay::None).then_some(app.cursor),
        flipped: app.flipped,
        pieces: app.settings.pieces,
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
    if app.input.is_none()
        && let Some(heat) = &map.heat
    {
        MapLegend {
            heat,
            palette: map.palette,
            theme,
            numbers_fit: numbers_fit(screen.board.sq_h),
        }
        .draw(frame, area);
        return;
    }
    let line = match &app.input {
        Some(text) => {
            let completions = app.completions();
            let mut spans = vec![
                Span::styled(app.mode.prompt(), Style::default().fg(theme.accent)),
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
        None => {
            let keys = match (&app.mode, app.end) {
                (Mode::Play, Some(end)) => super::modes::play::game_over_key_line(end),
                _ => app.mode.key_line(&app.cx),
            };
            Line::styled(keys, Style::default().fg(theme.dim))
        }
    };
    frame.render_widget(fitted(line, area.width), area);
}

fn draw_overlay(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    match &app.overlay {
        Overlay::None => {}
        Overlay::GameList => {
            if let Some(list) = &app.game_list {
                list.draw(frame, area, theme);
            }
        }
        Overlay::Open(dialog) => dialog.draw(frame, area, theme),
        Overlay::TeachPositions(picker) => {
            let opened_on = app
                .mode
                .teach()
                .map_or("this position", |t| match &*t.back {
                    Mode::Analyse(_) => "the analysis board's position",
                    Mode::Play | Mode::Teach(_) => "the game's position",
                });
            picker.draw(frame, opened_on, &crate::teach::positions(), area, theme);
        }
        Overlay::Help(first) => overlays::help::draw(frame, app.mode.help(), *first, area, theme),
        Overlay::Describe(view) => view.draw(frame, area, theme),
        Overlay::NewGame(form) => form.draw(frame, app.started_game(), area, theme),
        Overlay::Resume(saved) => overlays::resume::draw(frame, saved, area, theme),
        Overlay::Promotion { choice, .. } => overlays::promotion::draw(
            frame,
            *choice,
            app.game.position().turn(),
            app.settings.pieces,
            area,
            theme,
        ),
        Overlay::Confirm(question) => question.draw(frame, app.in_progress(), area, theme),
        Overlay::GameOver => {
            if let Some(end) = app.end {
                overlays::game_over::draw(frame, end, app.game.len(), area, theme);
            }
        }
    }
}

/// The game list or the resume question is open before any game or
/// analysis: the screen behind it describes nothing yet.
fn before_anything(app: &App) -> bool {
    matches!(app.overlay, Overlay::GameList | Overlay::Resume(_))
        && !app.started_game()
        && app.analysis().is_none()
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
    if let Some(teach) = app.mode.teach() {
        spans.push(Span::styled(
            format!(
                " Teach · {} · {} · {}",
                teach.depth_text(),
                teach.title,
                teach.algorithm()
            ),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        frame.render_widget(fitted(Line::from(spans), area.width), area);
        return;
    }
    // Before the first game, the header follows the new-game dialog rather
    // than describe a game nobody has started.
    if let Overlay::NewGame(form) = &app.overlay
        && !app.started_game()
        && app.analysis().is_none()
    {
        spans.push(Span::raw(format!(" New game: {}", form.summary())));
        frame.render_widget(fitted(Line::from(spans), area.width), area);
        return;
    }
    // Before anything is open, the game list and the resume question are
    // all there is: no header of a game that does not exist yet.
    if before_anything(app) {
        let what = match app.overlay {
            Overlay::Resume(_) => " An unfinished game",
            _ => " Choose a game",
        };
        spans.push(Span::raw(what));
        frame.render_widget(fitted(Line::from(spans), area.width), area);
        return;
    }
    let who = match app.players {
        Players::VsEngine { human, level } => format!(
            " You ({}) vs kibitz level {}",
            side_name(human),
            level.get()
        ),
        Players::TwoHumans => " Two players".to_string(),
    };
    if let Some(analysis) = app.analysis() {
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
        frame.render_widget(fitted(Line::from(spans), area.width), area);
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
    frame.render_widget(fitted(Line::from(spans), area.width), area);
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect, theme: &Theme) {
    // The opening's name on the right, the latest message on the left.
    let opening = app.opening();
    let (message, opening) = status_parts(
        area.width.into(),
        app.message.as_ref().map_or("", |(text, _)| text.as_str()),
        opening.as_ref().map(|o| (o.eco.as_str(), o.name.as_str())),
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
    let line = match &app.message {
        Some((_, Tone::Error)) => Line::styled(
            message,
            Style::default()
                .fg(theme.check)
                .add_modifier(Modifier::BOLD),
        ),
        Some((_, Tone::Info)) => Line::from(message),
        None => Line::default(),
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
        return (fit(&message, width), String::new());
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
    (fit(&message, left), opening)
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
