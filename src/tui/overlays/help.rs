//! The keys of the mode on screen (any key closes it).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::theme::Theme;

use super::popup;

pub fn draw(frame: &mut Frame, keys: &[(&str, &str)], area: Rect, theme: &Theme) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let inner = popup(
        frame,
        area,
        80,
        keys.len() as u16 + 2,
        "Keys (any key closes)",
        theme,
    );
    let lines: Vec<Line> = keys
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
