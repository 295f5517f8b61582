//! The move-table map's legend: one line naming the table and the view,
//! the bands from most to least, what a blank square means, and the keys.
//! Parts that do not fit the width are left off, the least needed first,
//! with "…" at the end.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::fitted::fitted;
use crate::engine::movetables::Scope;
use crate::tui::heatmap::{BANDS, HeatMap, MapSource, MapTable, history_label, words};
use crate::tui::theme::{MapPalette, Theme};

pub struct MapLegend<'a> {
    pub heat: &'a HeatMap,
    pub palette: MapPalette,
    pub theme: &'a Theme,
    /// Whether the board's squares have room for the numbers.
    pub numbers_fit: bool,
    /// The square under the cursor, where its band's mark is hidden (the
    /// cursor's brackets take the piece's row and the numbers the row
    /// above): the legend says it instead.
    pub hidden_mark: Option<shakmaty::Square>,
}

impl MapLegend<'_> {
    /// The legend's parts in the order they are drawn, each with its rank
    /// (0 the most needed): the parts that fit are kept by rank, whole, so
    /// the keys stay where the link has no room.
    fn parts(&self) -> Vec<(u8, Vec<Span<'static>>)> {
        let heat = self.heat;
        let dim = Style::default().fg(self.theme.dim);
        let sep = || Span::styled(" · ", dim);
        // What the view counts, exactly (after the scale, which the map
        // cannot be read without).
        // The history's title names its score: no more to say.
        let counts = words::counts(heat.source, heat.view);
        // An overlay's title names its tables by their codes ("wn ∩ bq"):
        // its count of shared squares and links need the room.
        let table = match heat.table {
            MapTable::Overlay(a, b) => format!("{} ∩ {}", a.code(), b.code()),
            table => table.name(),
        };
        let title = match heat.source {
            MapSource::Tables => format!(
                " Map: {table} · {}{}",
                heat.view.title(),
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
                table,
                history_label(heat.view)
            ),
            MapSource::Counter => " Counter-move".to_string(),
        };
        let mut parts = vec![(
            0,
            vec![Span::styled(
                title,
                Style::default().add_modifier(Modifier::BOLD),
            )],
        )];
        if let Some(counter) = &heat.counter {
            parts.push((1, vec![sep(), Span::raw(counter.clone())]));
            parts.extend(self.note());
            parts.push((2, vec![sep(), Span::styled(":map tables returns", dim)]));
            return parts;
        }
        // (A mode's note says why there is nothing yet, as "learning…"
        // does: then it speaks instead.)
        if !heat.learned && heat.note.is_empty() {
            parts.push((1, vec![sep(), Span::raw("nothing learned")]));
        }
        // An overlay's shared squares and links, short ("61 shared · 12
        // links") to fit 80 columns beside the scale, which ranks above
        // them: the map cannot be read without it.
        if let Some(counts) = words::overlay_short(heat) {
            parts.push((2, vec![sep(), Span::raw(counts)]));
        }
        if heat.show_numbers && !self.numbers_fit {
            // Said early: on a small screen it is why # shows nothing. An
            // overlay's legend keeps its scale and counts first.
            let rank = if heat.overlay.is_some() { 2 } else { 1 };
            parts.push((rank, vec![sep(), Span::raw("no room for numbers")]));
        }
        let (most, least) = match heat.diverging() {
            true => ("gained", "lost"),
            false => ("most", "least"),
        };
        let mut scale = vec![sep()];
        match self.palette {
            MapPalette::Digits => scale.push(Span::raw(match heat.diverging() {
                true => "+3 most gained … -3 most lost".to_string(),
                false => "1 most … 6 least".to_string(),
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
                    let text = match (self.palette.digits(), heat.diverging()) {
                        (true, true) => heat
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
        parts.push((1, scale));
        if let Some(square) = self.hidden_mark
            && let Some(band) = heat.bands[square.to_usize()]
        {
            parts.push((
                1,
                vec![
                    sep(),
                    Span::raw(format!("{square} {}", heat.band_label(band))),
                ],
            ));
        }
        // Which tables these are (learnt over the game, at which ply):
        // after the scale, which the map cannot be read without.
        parts.extend(self.note());
        if heat.show_numbers && self.numbers_fit {
            let what = match heat.table {
                MapTable::One(_) => "numbers",
                MapTable::All => "numbers: sums",
                MapTable::Overlay(..) => "numbers: the smaller",
            };
            parts.push((6, vec![sep(), Span::raw(what)]));
        }
        if let Some(value) = words::overlay_value(heat) {
            parts.push((3, vec![sep(), Span::raw(value)]));
        }
        if !counts.is_empty() {
            parts.push((4, vec![sep(), Span::raw(counts)]));
        }
        parts.push((5, vec![sep(), Span::raw(words::blank(heat))]));
        if let Some(link) = &heat.link {
            // An overlay's keys go before its strongest link.
            let rank = if heat.overlay.is_some() { 4 } else { 3 };
            parts.push((rank, vec![sep(), Span::raw(format!("link {link}"))]));
        }
        parts.push((
            // An overlay's counts and value go before the keys.
            if heat.overlay.is_some() { 3 } else { 2 },
            vec![sep(), Span::styled("m next, M view, # numbers", dim)],
        ));
        parts
    }

    /// The mode's note on the tables shown: its first part as needed as
    /// the scale, the rest before the keys (which the help has too).
    fn note(&self) -> Vec<(u8, Vec<Span<'static>>)> {
        let dim = Style::default().fg(self.theme.dim);
        self.heat
            .note
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let rank = if i == 0 { 1 } else { 2 };
                (
                    rank,
                    vec![Span::styled(" · ", dim), Span::raw(text.clone())],
                )
            })
            .collect()
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let spans = self.line(usize::from(area.width));
        frame.render_widget(fitted(Line::from(spans), area.width), area);
    }

    /// The legend in `width` columns: the parts kept by rank while they
    /// fit whole, drawn in their order; " …" says where some were left
    /// off (where even it fits).
    fn line(&self, width: usize) -> Vec<Span<'static>> {
        const MORE: &str = " …";
        let parts = self.parts();
        let len = |part: &Vec<Span<'static>>| -> usize {
            part.iter().map(|s| s.content.chars().count()).sum()
        };
        let total: usize = parts.iter().map(|(_, p)| len(p)).sum();
        // Room for the "…" only when something must go.
        let room = if total <= width {
            width
        } else {
            width.saturating_sub(MORE.chars().count())
        };
        let mut order: Vec<usize> = (0..parts.len()).collect();
        order.sort_by_key(|&i| parts[i].0);
        let mut kept = vec![false; parts.len()];
        let mut used = 0;
        for i in order {
            let n = len(&parts[i].1);
            if used + n <= room {
                used += n;
                kept[i] = true;
            }
        }
        let mut spans = Vec::new();
        let mut left_off = false;
        for ((_, part), keep) in parts.into_iter().zip(kept) {
            if keep {
                spans.extend(part);
            } else {
                left_off = true;
            }
        }
        if left_off && used + MORE.chars().count() <= width {
            spans.push(Span::styled(MORE, Style::default().fg(self.theme.dim)));
        }
        spans
    }
}
