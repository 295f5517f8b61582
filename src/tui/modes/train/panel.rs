//! Train mode's panel: where the position comes from, the question, the
//! last verdict or hint, and the counts. Lines wrap: nothing is cut.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use shakmaty::Position;

use crate::game::notation::{parse_uci, san_line};
use crate::train::{Exercise, Kind};
use crate::tui::theme::Theme;
use crate::tui::widgets::side_name;

use super::{Stage, Train};

pub struct TrainPanel<'a> {
    pub train: &'a Train,
    pub theme: &'a Theme,
}

impl Train {
    /// What is asked about the position shown, in one sentence.
    pub fn question_line(&self) -> String {
        let (Some(exercise), Some(position)) = (self.exercise(), self.position()) else {
            return "Nothing is due.".to_string();
        };
        let side = side_name(position.turn());
        match exercise.kind {
            Kind::Mistake => {
                let played = exercise
                    .played
                    .as_deref()
                    .and_then(|m| parse_uci(&position, m).ok())
                    .map(|m| san_line(&position, &[m]).join(""));
                let dots = if position.turn().is_white() { "." } else { "..." };
                match played {
                    Some(san) => format!(
                        "{side} to move: find a better move than {}{dots} {san}.",
                        position.fullmoves()
                    ),
                    None => format!("{side} to move: find a better move than the one played."),
                }
            }
            Kind::Puzzle => match &exercise.theme {
                Some(theme) => format!("{side} to play and win ({theme})."),
                None => format!("{side} to play and win."),
            },
            Kind::Repertoire => format!("{side} to move: your move in the repertoire."),
        }
    }
}

impl TrainPanel<'_> {
    pub fn draw(&self, frame: &mut Frame, rect: Rect) {
        let train = self.train;
        let dim = Style::default().fg(self.theme.dim);
        let mut lines = Vec::new();
        match (train.stage, train.exercise()) {
            (Stage::Finished, _) | (_, None) => {
                if train.queue.is_empty() {
                    lines.push(Line::raw(
                        "Nothing is due. Add positions with kibitz review --pgn FILE --train, or kibitz train --puzzles FILE.",
                    ));
                } else {
                    lines.push(Line::raw("Every position due is done."));
                }
                lines.push(Line::default());
                lines.push(Line::raw(train.summary()));
                if let Some(error) = &train.unsaved {
                    lines.push(Line::default());
                    lines.push(Line::styled(
                        error.clone(),
                        Style::default().fg(self.theme.check),
                    ));
                }
            }
            (_, Some(exercise)) => {
                lines.push(Line::styled(source_line(exercise), dim));
                if !exercise.line.is_empty() {
                    lines.push(Line::styled(format!("after {}", exercise.line.join(" ")), dim));
                }
                lines.push(Line::default());
                lines.push(Line::styled(
                    train.question_line(),
                    Style::default().add_modifier(Modifier::BOLD),
                ));
                if let Some(error) = &train.unsaved {
                    lines.push(Line::default());
                    lines.push(Line::styled(
                        error.clone(),
                        Style::default().fg(self.theme.check),
                    ));
                }
                if let Some(said) = &train.said {
                    lines.push(Line::default());
                    lines.push(Line::raw(said.clone()));
                }
                lines.push(Line::default());
                lines.push(Line::styled(
                    format!(
                        "{} solved, {} failed · {} of {} due",
                        train.solved,
                        train.failed,
                        train.at + 1,
                        train.queue.len()
                    ),
                    dim,
                ));
            }
        }
        if let Some(problem) = &train.problem {
            lines.push(Line::default());
            lines.push(Line::raw(problem.clone()));
        }
        let block = Block::default().borders(Borders::TOP).title(" Training ");
        frame.render_widget(
            Paragraph::new(lines).block(block).wrap(Wrap { trim: false }),
            rect,
        );
    }
}

/// Where the exercise comes from, its kind named once ("puzzle of
/// p2.jsonl, game 1 ply 6", not "puzzle · puzzle of …").
fn source_line(exercise: &Exercise) -> String {
    let kind = exercise.kind.name();
    if exercise.source.starts_with(kind) {
        exercise.source.clone()
    } else {
        format!("{kind} · {}", exercise.source)
    }
}
