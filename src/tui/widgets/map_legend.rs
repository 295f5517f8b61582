//! The move-table map's legend: one line naming the table and the view,
//! the bands from most to least, what a blank square means, and the keys.
//! Parts that do not fit the width are left off from the end, with "…".

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::fitted::fitted;
use crate::engine::movetables::{MapView, Scope};
use crate::tui::heatmap::{BANDS, HeatMap, MapSource, MapTable};
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
        // What the view counts, exactly (after the scale, which the map
        // cannot be read without).
        let counts = match (heat.source, heat.view) {
            (MapSource::Tables, MapView::Importance) => "times considered",
            (MapSource::Tables, MapView::Net) => "gains - losses",
            (MapSource::Tables, MapView::Best) => "net gains",
            (MapSource::History, MapView::Importance) => "|score|",
            (MapSource::History, MapView::Net) => "score by destination",
            (MapSource::History, MapView::Best) => "positive score",
            (MapSource::Counter, _) => "",
        };
        let title = match heat.source {
            MapSource::Tables => format!(
                " Map: {} · {}{}",
                heat.table.name(),
                heat.view.name(),
                match heat.scope {
                    Scope::Game => "",
                    Scope::Search => " · this search",
                }
            ),
            MapSource::History => format!(
                " History{}: {} · {}",
                if heat.history_at_end {
                    " at the search's end"
                } else {
                    ""
                },
                heat.table.name(),
                heat.view.name()
            ),
            MapSource::Counter => " Counter-move".to_string(),
        };
        let mut parts = vec![vec![Span::styled(
            title,
            Style::default().add_modifier(Modifier::BOLD),
        )]];
        if let Some(counter) = &heat.counter {
            parts.push(vec![sep(), Span::raw(counter.clone())]);
            parts.push(vec![sep(), Span::styled(":map tables returns", dim)]);
            return parts;
        }
        if !heat.learned {
            parts.push(vec![sep(), Span::raw("nothing learned")]);
        }
        if heat.show_numbers && !self.numbers_fit {
            // Said early: on a small screen it is why # shows nothing.
            parts.push(vec![sep(), Span::raw("no room for numbers")]);
        }
        let (most, least) = match heat.view {
            MapView::Net => ("gained", "lost"),
            MapView::Importance | MapView::Best => ("most", "least"),
        };
        let mut scale = vec![sep()];
        match self.palette {
            MapPalette::Digits => scale.push(Span::raw(match heat.view {
                MapView::Net => "+3 most gained … -3 most lost".to_string(),
                _ => "1 most … 6 least".to_string(),
            })),
            MapPalette::Indexed | MapPalette::Basic => {
                // The swatches say which colour is which: 80 columns have
                // no room for the six names.
                scale.push(Span::raw(format!("{most} ")));
                for band in 0..BANDS as u8 {
                    let mut style = Style::default();
                    if let Some(bg) = self.palette.colour(band) {
                        style = style.bg(bg);
                    }
                    if let Some(fg) = self.palette.text(band) {
                        style = style.fg(fg);
                    }
                    let text = match (self.palette.digits(), heat.view) {
                        (true, MapView::Net) => heat
                            .band_label(band)
                            .chars()
                            .last()
                            .map_or_else(String::new, |c| c.to_string()),
                        (true, _) => heat.band_label(band),
                        (false, _) => " ".into(),
                    };
                    scale.push(Span::styled(text, style));
                }
                scale.push(Span::raw(format!(" {least}")));
            }
        }
        parts.push(scale);
        if heat.show_numbers && self.numbers_fit {
            let what = match heat.table {
                MapTable::One(_) => "numbers",
                MapTable::All => "numbers: sums",
            };
            parts.push(vec![sep(), Span::raw(what)]);
        }
        if !counts.is_empty() {
            parts.push(vec![sep(), Span::raw(format!("counts: {counts}"))]);
        }
        let blank = match heat.view {
            MapView::Importance => "blank never considered",
            MapView::Net => "blank 0 or never",
            // A square that lost as much as it gained is blank here too.
            MapView::Best => "blank no net gain",
        };
        parts.push(vec![sep(), Span::raw(blank)]);
        if let Some(link) = &heat.link {
            parts.push(vec![sep(), Span::raw(link.clone())]);
        }
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
