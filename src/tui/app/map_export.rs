//! `:map export FILE` and the overlay's words on the board: the map shown,
//! written out; the links between an overlay's two tables listed; the
//! count of shared squares said when an overlay is shown.

use crate::engine::movetables::TableId;
use crate::tui::heatmap::{HeatMap, MapTable, export};
use crate::tui::overlays::Overlay;
use crate::tui::overlays::describe::DescribeView;
use crate::tui::shared::Tone;

use super::App;

impl App {
    /// The map as the board draws it now: the tables on show, the last
    /// move marked, and the mode's note on where they come from. The board
    /// draws this, and `:map export` writes it.
    pub(crate) fn heat_shown(&self) -> Option<HeatMap> {
        let shown = self.mode.get().board(&self.cx);
        let last = shown
            .last_move
            .map(|m| (!shakmaty::Position::turn(shown.position), m));
        let mut heat = self.cx.map.heat(self.map_tables(), last)?;
        heat.note = self.mode.get().map_note(&self.cx);
        Some(heat)
    }

    /// `:map export FILE` (`:map export! FILE` replaces a file there):
    /// the map shown, as CSV for `FILE.csv`, else as a text diagram.
    pub(super) fn map_export(&mut self, rest: &str) {
        let (force, path) = export::file_words(rest);
        if path.is_empty() {
            self.cx.say(
                ":map export FILE: FILE.csv writes a CSV, any other name a text diagram.",
                Tone::Error,
            );
            return;
        }
        let path = export::path_of(path, std::env::var_os("HOME").as_deref());
        match export::write(self.heat_shown().as_ref(), &path, force) {
            Ok(text) => self.cx.say(text, Tone::Info),
            Err(why) => self.cx.say(why, Tone::Error),
        }
    }

    /// The status line's words after a `:map` word or key: an overlay's
    /// count of shared squares and links, short, right after its tables'
    /// names, where 80 columns keep them ("Move-table map: white knight ∩
    /// black queen · 2 shared · 3 links · touches.").
    pub(super) fn overlay_counts(&self, text: String) -> String {
        let Some(heat) = self.heat_shown() else {
            return text;
        };
        let (Some(counts), MapTable::Overlay(..)) =
            (crate::tui::heatmap::words::overlay_short(&heat), heat.table)
        else {
            return text;
        };
        let name = heat.table.name();
        text.replacen(&name, &format!("{name} · {counts}"), 1)
    }

    /// `:map links` on an overlay: the links between its two tables, in
    /// the map's scope, strongest first.
    pub(super) fn overlay_links(&mut self, a: TableId, b: TableId) {
        let scope = self.cx.map.scope;
        let Some(tables) = self.map_tables() else {
            self.cx
                .say("No move tables yet: a search fills them.", Tone::Info);
            return;
        };
        let links = crate::tui::heatmap::overlay::links_between(tables.links_in(scope), a, b);
        let when = crate::tui::heatmap::words::scope_words(scope, tables.history_at_end);
        let between = format!("{} and {}", a.name(), b.name());
        let head = match links.len() {
            0 => format!("No links between the {between} {when}."),
            1 => format!("1 link between the {between} {when}:"),
            n => format!("{n} links between the {between} {when}, strongest first:"),
        };
        let said = match links.len() {
            0 => head.clone(),
            1 => format!("1 link between the {between} {when}."),
            n => format!("{n} links between the {between} {when}."),
        };
        let mut lines = vec![head];
        lines.extend(links.iter().map(|l| format!("- {}.", l.words())));
        self.cx.overlay = Overlay::Describe(DescribeView::titled(
            format!("Move-table links: {} ∩ {}", a.code(), b.code()),
            lines,
        ));
        self.cx.say(said, Tone::Info);
    }
}
