//! The analysis lines: the engine's best few lines for the position on
//! the board, best first, numbered for the keys that play them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::{Chess, Position};

use crate::tui::engine_line::EngineLine;
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::{fit, human_count, score_text, section};

pub struct EngineLines<'a> {
    pub position: &'a Chess,
    pub lines: &'a [EngineLine],
    /// How many lines were asked for.
    pub multipv: usize,
    /// The analysis runs (a toggles it).
    pub on: bool,
    /// The threat (`t`): what the side not to move would play if it were its
    /// turn, from the position with the turn passed.
    pub threat: Option<(&'a Chess, &'a EngineLine)>,
    /// The analysis stopped at its limit, with lines of this depth (0:
    /// none yet).
    pub stopped: Option<u32>,
    pub theme: &'a Theme,
}

impl EngineLines<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let dim = Style::default().fg(self.theme.dim);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let title = if !self.on {
            " Engine off (a) ".to_string()
        } else {
            match self.lines.first() {
                Some(l) => format!(" Engine · depth {} · {} n/s ", l.depth, human_count(l.nps)),
                None => " Engine ".to_string(),
            }
        };
        let inner = section(frame, title, area, self.theme);
        let mut lines = Vec::new();
        if !self.on {
            lines.push(Line::styled("a starts the analysis", dim));
        } else if self.position.legal_moves().is_empty() {
            lines.push(Line::styled("the game is over here", dim));
        } else {
            // The number and the score take 9 columns; the line gets the
            // rest, cut after its last whole move with "…".
            let room = usize::from(inner.width).saturating_sub(9);
            for i in 0..self.multipv {
                match self.lines.get(i) {
                    Some(l) => lines.push(Line::from(vec![
                        Span::styled(format!("{} ", i + 1), dim),
                        Span::styled(format!("{:>6} ", score_text(l.score)), bold),
                        Span::raw(fit(&numbered_line(self.position, &l.san), room)),
                    ])),
                    None if i == 0 => lines.push(Line::styled("thinking…", dim)),
                    None => lines.push(Line::default()),
                }
            }
        }
        if let Some((passed, line)) = self.threat {
            let room = usize::from(inner.width).saturating_sub(9);
            lines.push(Line::from(vec![
                Span::styled("t ", dim),
                Span::styled(format!("{:>6} ", score_text(line.score)), bold),
                Span::raw(fit(
                    &format!("threat: {}", numbered_line(passed, &line.san)),
                    room,
                )),
            ]));
        }
        if self.on
            && let Some(depth) = self.stopped
        {
            let text = match depth {
                0 => "stopped at its limit · a goes on".to_string(),
                d => format!("stopped at depth {d} · a goes on"),
            };
            lines.push(Line::styled(text, dim));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}

/// A line in SAN with move numbers: `12. Nf3 Nc6 13. d4`.
fn numbered_line(position: &Chess, san: &[String]) -> String {
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
