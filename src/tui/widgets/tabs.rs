//! The row of tabs above the optional panel of a compact terminal: the
//! panels that take turns there, the one shown highlighted, and the key.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::fitted::fitted;
use crate::tui::layout::Panel;
use crate::tui::theme::Theme;

pub struct Tabs<'a> {
    pub available: &'a [Panel],
    pub shown: Option<Panel>,
    pub theme: &'a Theme,
}

/// A panel's name on its tab.
pub fn tab_name(panel: Panel) -> &'static str {
    match panel {
        Panel::Tablebase => "Tablebase",
        Panel::Book => "Book",
        Panel::Explorer => "Explorer",
        Panel::EvalGraph => "Review",
        Panel::Breakdown => "Terms",
        Panel::Stats | Panel::StatsLine => "Stats",
        _ => "",
    }
}

impl Tabs<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let dim = Style::default().fg(self.theme.dim);
        let mut spans = vec![Span::styled("Tab ", dim)];
        for (i, panel) in self.available.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", dim));
            }
            let style = if Some(*panel) == self.shown {
                Style::default()
                    .fg(self.theme.accent)
                    .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            } else {
                dim
            };
            spans.push(Span::styled(tab_name(*panel), style));
        }
        frame.render_widget(fitted(Line::from(spans), area.width), area);
    }
}
