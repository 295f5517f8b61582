//! Teach mode's header: which algorithm is running, where the replay is,
//! and the seven switches with their keys, so the screen always says
//! exactly what search is being watched; in predict mode, the score.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::teach::values::count_text;
use crate::tui::modes::teach::{Record, SPEEDS, TOGGLES, Teach};
use crate::tui::theme::Theme;

pub struct TeachHeader<'a> {
    pub teach: &'a Teach,
    pub theme: &'a Theme,
}

impl TeachHeader<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let teach = self.teach;
        let theme = self.theme;
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let dim = Style::default().fg(theme.dim);
        let progress = match &teach.record {
            Record::Making { .. } => "recording the search…".to_string(),
            Record::Failed(_) => "no record (see below)".to_string(),
            Record::Ready { replay, step } => {
                let mut text = format!(
                    "step {} of {}",
                    count_text(step.applied as u64),
                    count_text(replay.len() as u64)
                );
                if teach.playing.is_some() {
                    text.push_str(&format!(" · playing {}/s", SPEEDS[teach.speed]));
                }
                text
            }
        };
        // Two rows: alpha-beta and what makes it cheaper, then the rest.
        let mut rows = [vec![Span::raw(" ")], vec![Span::raw(" ")]];
        for (i, (name, on)) in TOGGLES.iter().zip(teach.toggles()).enumerate() {
            // On or off is said in text, not only in colour.
            let (mark, style) = if !teach.applies(i) {
                // Plain minimax runs: the switch is kept for when alpha-beta
                // is back, but does nothing now.
                ("·", dim.add_modifier(Modifier::CROSSED_OUT))
            } else if on {
                (
                    "+",
                    Style::default()
                        .fg(theme.accent)
                        .add_modifier(Modifier::BOLD),
                )
            } else {
                ("-", dim)
            };
            // On a narrow screen the long name would push the last switches
            // out of the header's rows; chess programmers' "TT" fits.
            let name = if i == 2 && area.width < 48 {
                "TT"
            } else if i == 1 {
                teach.toggle_name(1)
            } else {
                *name
            };
            let row = &mut rows[usize::from(i >= 3)];
            row.push(Span::styled(format!("{}{mark}{name}", i + 1), style));
            row.push(Span::raw("  "));
        }
        let [first, second] = rows;
        let mut lines = vec![
            Line::from(vec![
                Span::styled(format!(" {progress}"), bold),
                Span::styled(
                    if teach.applies(1) {
                        "  · 1-7 switch:"
                    } else {
                        "  · plain minimax: 2-7 do not apply"
                    },
                    dim,
                ),
            ]),
            Line::from(first),
            Line::from(second),
        ];
        // Predict mode's running score, on the row left free.
        if teach.predict.on {
            lines.push(Line::from(Span::styled(
                format!(" Predict {}", teach.predict.score.text().to_lowercase()),
                Style::default().fg(theme.accent),
            )));
        }
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
    }
}
