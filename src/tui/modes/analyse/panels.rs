//! The analysis board's panels beside the board: which it shows, how high,
//! and which take turns in a compact terminal.

use crate::engine::eval;
use crate::tui::layout::panels::{self as modes, Panel, Slot};
use crate::tui::shared::Shared;

use super::{Analysis, GRAPH_HEIGHT, TIME_CHART_HEIGHT};

impl Analysis {
    /// The panels beside the board, top to bottom, and how high each is
    /// for the room left below it.
    pub fn slots(&self, cx: &Shared) -> Vec<Slot> {
        let engine_rows = self.engine_rows();
        // The tablebase panel's list: the verdict, then every move.
        let tablebase_rows = cx.tablebase_view().map_or(0, |(_, moves)| moves.len() + 1);
        let book_moves = cx.book_moves().len();
        let review = self.review.is_some();
        // The move-time chart's rows, where the game has clocks.
        let graph_height = GRAPH_HEIGHT
            + self
                .review
                .as_ref()
                .and_then(|r| r.times.as_ref())
                .map_or(0, |_| TIME_CHART_HEIGHT);
        let breakdown = self.breakdown;
        // The explorer: its title and what it wants below it.
        let side_width = crate::tui::layout::screen(ratatui::layout::Rect::new(
            0, 0, cx.size.0, cx.size.1,
        ))
        .map_or(cx.size.0 / 2, |s| s.panel.width);
        let explorer = cx
            .explorer
            .shown
            .then(|| crate::tui::widgets::explorer::wanted_rows(&cx.explorer, side_width) + 1);
        // The title, the header, the total, the note on the engine's
        // scores, and a row a term.
        let terms = eval::Term::ALL.len() as u16 + 4;
        let mut slots = vec![
            Slot::new(Panel::EvalBar, |_| Some(1)),
            Slot::new(Panel::EngineLines, move |_| Some(engine_rows + 1)),
        ];
        if modes::compact(cx.size) {
            // One optional panel at a time; the move tree keeps 6 rows.
            slots.extend(modes::tabbed(
                &cx.side,
                &self.tab_panels(cx),
                6,
                |panel, keep| {
                    let rule = move |room: u16, wanted: u16, least: u16| {
                        let height = wanted.min(room.saturating_sub(keep));
                        (height >= least).then_some(height)
                    };
                    match panel {
                        Panel::Stats => modes::stats_slots(
                            cx.stats.as_deref(),
                            cx.stats_shown(true),
                            cx.size.0,
                            keep,
                        )
                        .into(),
                        Panel::Tablebase => vec![Slot::new(Panel::Tablebase, move |room| {
                            modes::list_height(tablebase_rows, room, keep, 3)
                        })],
                        Panel::Book => vec![Slot::new(Panel::Book, move |room| {
                            modes::list_height(book_moves, room, keep, 2)
                        })],
                        Panel::Explorer => vec![Slot::new(Panel::Explorer, move |room| {
                            explorer.and_then(|wanted| rule(room, wanted, 3))
                        })],
                        Panel::EvalGraph => vec![Slot::new(Panel::EvalGraph, move |room| {
                            rule(room, graph_height + 1, 3)
                        })],
                        Panel::Breakdown => vec![Slot::new(Panel::Breakdown, move |room| {
                            rule(room, terms, 4)
                        })],
                        _ => Vec::new(),
                    }
                },
            ));
        } else {
            // The move tree keeps at least 8 rows below the statistics.
            let [stats_full, stats_line] =
                modes::stats_slots(cx.stats.as_deref(), cx.stats_shown(true), cx.size.0, 8);
            slots.push(Slot::new(Panel::Explorer, move |room| {
                // The move tree keeps 8 rows.
                explorer.and_then(|wanted| {
                    let height = wanted.min(room.saturating_sub(8));
                    (height >= 3).then_some(height)
                })
            }));
            slots.extend([
                stats_full,
                stats_line,
                Slot::new(Panel::Tablebase, move |room| {
                    modes::list_height(tablebase_rows, room, 8, 3)
                }),
                Slot::new(Panel::Book, move |room| {
                    (book_moves > 0 && room >= 10).then(|| book_moves.min(3) as u16 + 1)
                }),
                Slot::new(Panel::EvalGraph, move |room| {
                    (review && room >= GRAPH_HEIGHT + 5).then(|| (graph_height + 1).min(room - 4))
                }),
                Slot::new(Panel::Breakdown, move |room| {
                    (breakdown && room >= 8).then(|| terms.min(room - 4))
                }),
            ]);
        }
        slots.push(Slot::new(Panel::MoveTree, Some));
        slots
    }

    /// The optional panels that have something to show, in the order Tab
    /// visits them.
    pub fn tab_panels(&self, cx: &Shared) -> Vec<Panel> {
        let mut panels = Vec::new();
        if cx.explorer.shown {
            panels.push(Panel::Explorer);
        }
        if cx.tablebase_view().is_some() {
            panels.push(Panel::Tablebase);
        }
        if !cx.book_moves().is_empty() {
            panels.push(Panel::Book);
        }
        if self.review.is_some() {
            panels.push(Panel::EvalGraph);
        }
        if self.breakdown {
            panels.push(Panel::Breakdown);
        }
        if cx.stats_shown(true) && cx.stats.is_some() {
            panels.push(Panel::Stats);
        }
        panels
    }
}
