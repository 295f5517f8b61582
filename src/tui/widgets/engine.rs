//! The engine panel of a game: the engine's search for its move (score,
//! depth, counts, principal variation) or where its last move came from.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::engine::MoveSource;
use crate::game::GameEnd;
use crate::tui::engine_line::Thinking;
use crate::tui::theme::Theme;

use super::{fit, human_count, score_text, section};

/// Whether the engine's line and score, the book and the tablebase, which
/// tell the player's best move, are kept for after the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spoilers {
    /// Nothing to keep: the game is over, or not one against the engine.
    Free,
    /// Kept back during the game (`v` shows them).
    Hidden,
    /// Shown on request during the game (`v` hides them again).
    Shown,
}

/// The row that says what is kept back.
const HIDDEN: &str = "hidden: score, line, book, tablebase";

/// The key that shows and hides the spoilers in a game.
pub const SPOILER_KEY: char = 'v';

impl Spoilers {
    /// The panel's title, the longest of its forms that fits `width`.
    fn title(self, width: usize) -> String {
        let forms: &[&str] = match self {
            Spoilers::Free => &[" Engine "],
            Spoilers::Hidden => &[
                " Engine · spoilers hidden: engine line, book, tablebase · v shows ",
                " Engine · spoilers hidden · v shows ",
                " Engine · v shows spoilers ",
            ],
            Spoilers::Shown => &[
                " Engine · spoilers shown: engine line, book, tablebase · v hides ",
                " Engine · spoilers shown · v hides ",
                " Engine · v hides spoilers ",
            ],
        };
        forms
            .iter()
            .find(|form| form.chars().count() <= width)
            .or(forms.last())
            .map_or_else(String::new, |form| (*form).to_string())
    }
}

pub struct EnginePanel<'a> {
    /// The user hid the panel (e).
    pub hidden: bool,
    /// Whether the line and score are kept for after the game.
    pub spoilers: Spoilers,
    pub thinking: Option<&'a Thinking>,
    /// The engine's last move (SAN) and where it came from.
    pub source: Option<&'a (String, MoveSource)>,
    /// The engine searches for its move now.
    pub searching: bool,
    /// The game is over: its last search is history.
    pub end: Option<GameEnd>,
    pub theme: &'a Theme,
}

impl EnginePanel<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let dim = Style::default().fg(theme.dim);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let title = self
            .spoilers
            .title(usize::from(area.width.saturating_sub(2)));
        let inner = section(frame, title, area, theme);
        let lines = if self.hidden {
            vec![Line::styled("hidden (e shows it)", dim)]
        } else if let Some(end) = self.end {
            vec![
                Line::from(vec![
                    Span::styled("game over  ", dim),
                    Span::styled(end.result(), bold),
                ]),
                Line::from(end.describe()),
            ]
        } else {
            match (self.thinking, self.source) {
                (None, _) if self.searching => vec![Line::from("thinking...")],
                (None, Some((san, MoveSource::Book { weight, total }))) => {
                    let mut lines = vec![Line::from(vec![
                        Span::styled("book move  ", dim),
                        Span::styled(san.clone(), bold),
                    ])];
                    // The move is on the board; how the book weighs it is
                    // the book's knowledge, kept back with the book panel.
                    if self.spoilers != Spoilers::Hidden {
                        lines.push(Line::from(format!(
                            "weight {weight} of {total} ({:.0}%)",
                            f64::from(*weight) * 100.0 / f64::from((*total).max(1))
                        )));
                    }
                    lines
                }
                (None, _) => vec![Line::styled("waiting for its turn", dim)],
                // Spoiler-free: how hard it thought, not what it found.
                (Some(t), _) if self.spoilers == Spoilers::Hidden => {
                    let state = if t.live { "thinking" } else { "last move" };
                    let l = &t.line;
                    vec![
                        Line::from(vec![
                            Span::styled(format!("{state}  "), dim),
                            Span::raw(format!("depth {}/{}", l.depth, l.seldepth)),
                        ]),
                        Line::from(format!(
                            "{} nodes  {} n/s  {:.1} s",
                            human_count(l.nodes),
                            human_count(l.nps),
                            l.elapsed.as_secs_f64()
                        )),
                    ]
                }
                (Some(t), _) if t.other_choice().is_some() => {
                    // Below full strength the level picked another of the
                    // near-best moves: say what it played and what the
                    // search found best, rather than show a line it did not
                    // follow.
                    let mut lines = Vec::new();
                    if let Some(played) = t.other_choice() {
                        lines.push(Line::from(vec![
                            Span::styled("played  ", dim),
                            Span::styled(played.san.clone(), bold),
                            Span::raw(format!("  {}", score_text(played.score))),
                        ]));
                        lines.push(Line::styled(
                            match played.level {
                                Some(level) => format!("level {level} picks among near-best moves"),
                                None => "picked among near-best moves".to_string(),
                            },
                            dim,
                        ));
                    }
                    let label = format!("best {} ", t.line.score_label());
                    let room = usize::from(inner.width).saturating_sub(label.chars().count());
                    lines.push(Line::from(vec![
                        Span::styled(label, dim),
                        Span::raw(fit(&t.line.san.join(" "), room)),
                    ]));
                    lines
                }
                (Some(t), _) => {
                    let state = if t.live { "thinking" } else { "last move" };
                    let l = &t.line;
                    vec![
                        Line::from(vec![
                            Span::styled(format!("{state}  "), dim),
                            Span::styled(l.score_label(), bold),
                            Span::raw(format!("  depth {}/{}", l.depth, l.seldepth)),
                        ]),
                        Line::from(format!(
                            "{} nodes  {} n/s  {:.1} s",
                            human_count(l.nodes),
                            human_count(l.nps),
                            l.elapsed.as_secs_f64()
                        )),
                        // One row, cut after the last whole move that fits:
                        // at 80 x 24 the panel has no row to wrap into.
                        Line::from(vec![
                            Span::styled("pv ", dim),
                            Span::raw(fit(
                                &l.san.join(" "),
                                usize::from(inner.width).saturating_sub(3),
                            )),
                        ]),
                    ]
                }
            }
        };
        let mut lines = lines;
        // What is kept back, where the figures leave a row for it.
        if self.spoilers == Spoilers::Hidden && !self.hidden && lines.len() < 3 {
            lines.push(Line::styled(HIDDEN, dim));
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::config::ThemeName;

    /// The panel's text after the engine played a book move.
    fn after_a_book_move(spoilers: Spoilers) -> String {
        let theme = Theme::for_terminal(ThemeName::default(), false);
        let source = (
            "e4".to_string(),
            MoveSource::Book {
                weight: 3,
                total: 4,
            },
        );
        let panel = EnginePanel {
            hidden: false,
            spoilers,
            thinking: None,
            source: Some(&source),
            searching: false,
            end: None,
            theme: &theme,
        };
        let mut terminal = Terminal::new(TestBackend::new(40, 6)).expect("a test terminal");
        terminal
            .draw(|frame| panel.draw(frame, frame.area()))
            .expect("drawn");
        let buffer = terminal.backend().buffer();
        buffer
            .content()
            .chunks(usize::from(buffer.area.width))
            .map(|row| row.iter().map(|cell| cell.symbol()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_book_moves_weight_is_kept_back_with_the_book() {
        let hidden = after_a_book_move(Spoilers::Hidden);
        assert!(hidden.contains("book move  e4"), "{hidden}");
        assert!(!hidden.contains("weight"), "{hidden}");
        assert!(hidden.contains("hidden: score, line, book"), "{hidden}");
        let shown = after_a_book_move(Spoilers::Shown);
        assert!(shown.contains("weight 3 of 4 (75%)"), "{shown}");
    }
}
