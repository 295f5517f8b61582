//! Teach mode's caption: what the step just did and why, in words.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::modes::teach::{Record, Teach};
use crate::tui::theme::Theme;

use crate::tui::widgets::section;

pub struct Caption<'a> {
    pub teach: &'a Teach,
    pub theme: &'a Theme,
}

impl Caption<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let teach = self.teach;
        let inner = section(frame, " What happened ", area, theme);
        let mut lines = Vec::new();
        match &teach.record {
            Record::Making { .. } => {
                lines.push(Line::from(
                    "Recording the engine's search of this position…",
                ));
            }
            Record::Failed(why) => {
                lines.push(Line::styled(why.clone(), Style::default().fg(theme.check)));
            }
            Record::Ready { replay, step } => {
                if let Some(note) = &teach.note {
                    lines.push(Line::styled(note.clone(), Style::default().fg(theme.accent)));
                }
                if step.applied == 0
                    && let Some(description) = &teach.description
                {
                    lines.push(Line::styled(
                        description.clone(),
                        Style::default().fg(theme.dim),
                    ));
                }
                lines.push(Line::from(crate::teach::caption::caption(replay, step)));
                let predict = &teach.predict;
                if predict.on {
                    let position = step.current().map(|node| &node.position);
                    let text = match (predict.question, position) {
                        (Some(question), Some(position)) => {
                            super::predict::Predict::text(question, position)
                        }
                        _ => match &predict.verdict {
                            Some(verdict) => verdict.clone(),
                            None => format!("Predict mode: score {} of {}.", predict.right, predict.asked),
                        },
                    };
                    lines.push(Line::styled(text, Style::default().fg(theme.accent)));
                }
            }
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
    }
}
