//! The move-table map's legend: one line naming the table and the view,
//! the bands from most to least, what a blank square means, and the keys.
//! Parts that do not fit the width are left off from the end, with "…".

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::fitted::fitted;
use crate::engine::movetables::MapView;
use crate::tui::heatmap::{BANDS, HeatMap, MapTable};
use crate::tui::theme::{MapPalette, Theme};

pub struct MapLegend<'a> {
    pub heat: &'a HeatMap,
    pub palette: MapPalette,
    pub theme: &'a Theme,
    /// Whether the board's squares have room for the numbers.
    pub numbers_fit: bool,
}

impl MapLegend<'_> {
    /// The legend's parts, most important first; each is kept whole or
    /// left off.
    fn parts(&self) -> Vec<Vec<Span<'static>>> {
        let heat = self.heat;
        let dim = Style::default().fg(self.theme.dim);
        let sep = || Span::styled(" · ", dim);
        let mut parts = vec![vec![Span::styled(
            format!(" Map: {} · {}", heat.table.name(), heat.view.name()),
            Style::default().add_modifier(Modifier::BOLD),
        )]];
        if !heat.learned {
            parts.push(vec![sep(), Span::raw("nothing learned yet")]);
        }
        if heat.show_numbers && !self.numbers_fit {
            // Said early: on a small screen it is why # shows nothing.
            parts.push(vec![sep(), Span::raw("no room for numbers")]);
        }
        let mut scale = vec![sep()];
        match self.palette {
            MapPalette::Digits => scale.push(Span::raw("1 most … 6 least")),
            MapPalette::Indexed | MapPalette::Basic => {
                // The swatches say which colour is which: 80 columns have
                // no room for the six names.
                scale.push(Span::raw("most "));
                for band in 0..BANDS as u8 {
                    let mut style = Style::default();
                    if let Some(bg) = self.palette.colour(band) {
                        style = style.bg(bg);
                    }
                    if let Some(fg) = self.palette.text(band) {
                        style = style.fg(fg);
                    }
                    let text = if self.palette.digits() {
                        format!("{}", band + 1)
                    } else {
                        " ".into()
                    };
                    scale.push(Span::styled(text, style));
                }
                scale.push(Span::raw(" least"));
            }
        }
        parts.push(scale);
        if heat.show_numbers && self.numbers_fit {
            let what = match (heat.table, heat.view) {
                (MapTable::One(_), MapView::Importance) => "numbers: weight",
                (MapTable::One(_), MapView::Best) => "numbers: positive weight",
                (MapTable::All, MapView::Importance) => "numbers: sum of |weight|",
                (MapTable::All, MapView::Best) => "numbers: sum of positive weights",
            };
            parts.push(vec![sep(), Span::raw(what)]);
        }
        let blank = match heat.view {
            MapView::Importance => "blank never considered",
            // A square that lost as much as it gained is blank here too.
            MapView::Best => "blank no net gain",
        };
        parts.push(vec![sep(), Span::raw(blank)]);
        parts.push(vec![sep(), Span::styled("m next, M view, # numbers", dim)]);
        parts
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let width = usize::from(area.width);
        let mut spans = Vec::new();
        let mut used = 0;
        for part in self.parts() {
            let len: usize = part.iter().map(|s| s.content.chars().count()).sum();
            if used + len > width {
                // (The ellipsis is clipped where even it does not fit.)
                if used < width {
                    spans.push(Span::styled(" …", Style::default().fg(self.theme.dim)));
                }
                break;
            }
            used += len;
            spans.extend(part);
        }
        frame.render_widget(fitted(Line::from(spans), area.width), area);
    }
}
