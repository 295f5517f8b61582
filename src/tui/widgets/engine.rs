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

pub struct EnginePanel<'a> {
    /// The user hid the panel (e).
    pub hidden: bool,
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
        let inner = section(frame, " Engine ", area, theme);
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
                (None, Some((san, MoveSource::Book { weight, total }))) => vec![
                    Line::from(vec![
                        Span::styled("book move  ", dim),
                        Span::styled(san.clone(), bold),
                    ]),
                    Line::from(format!(
                        "weight {weight} of {total} ({:.0}%)",
                        f64::from(*weight) * 100.0 / f64::from((*total).max(1))
                    )),
                ],
                (None, _) => vec![Line::styled("waiting for its turn", dim)],
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
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
    }
}
