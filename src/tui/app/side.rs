//! The side panel's keys and wheel: Tab shows the next optional panel
//! where they take turns (a compact terminal); PgUp, PgDn and the wheel
//! over it scroll the tablebase panel.

use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use crate::tui::layout;
use crate::tui::layout::panels::{self, Panel};
use crate::tui::shared::Tone;
use crate::tui::widgets::tablebase::move_rows;
use crate::tui::widgets::tabs::tab_name;

use super::App;

impl App {
    /// The tablebase panel where it is drawn now, and the rows of moves it
    /// shows.
    fn tablebase_panel(&self) -> Option<(Rect, usize)> {
        let screen = self.screen()?;
        let placed = layout::stack(screen.panel, &self.mode.get().panels(&self.cx));
        let rect = layout::find(&placed, Panel::Tablebase)?;
        Some((rect, move_rows(rect.height)))
    }

    /// Scroll the tablebase panel by `by` moves, or by pages of its rows
    /// when `pages`; false when it is not on screen.
    fn scroll_tablebase(&mut self, by: isize, pages: bool) -> bool {
        let Some((_, rows)) = self.tablebase_panel() else {
            return false;
        };
        let moves = self.cx.tablebase_view().map_or(0, |(_, moves)| moves.len());
        let by = if pages { by * rows.max(1) as isize } else { by };
        self.cx.side.scroll_tablebase(by, rows, moves);
        true
    }

    /// Tab, PgUp and PgDn on the board; false for the keys it leaves.
    pub(super) fn side_key(&mut self, key: KeyEvent) -> bool {
        match key.code {
            KeyCode::Tab if self.mode.get().tabs() => {
                let available = self.mode.get().extras(&self.cx);
                let cx = &mut self.cx;
                if !panels::compact(cx.size) {
                    cx.say(
                        format!(
                            "All panels fit; in a terminal under {} rows, Tab switches between them.",
                            panels::COMPACT_HEIGHT
                        ),
                        Tone::Info,
                    );
                } else if available.len() < 2 {
                    cx.say("Tab: no other side panel to show here.", Tone::Info);
                } else if let Some(next) = cx.side.next(&available) {
                    cx.say(format!("Side panel: {}.", tab_name(next)), Tone::Info);
                }
                true
            }
            KeyCode::PageDown => self.scroll_tablebase(1, true),
            KeyCode::PageUp => self.scroll_tablebase(-1, true),
            _ => false,
        }
    }

    /// The wheel over the tablebase panel scrolls it; false elsewhere.
    pub(super) fn side_mouse(&mut self, mouse: MouseEvent) -> bool {
        let by = match mouse.kind {
            MouseEventKind::ScrollDown => 1,
            MouseEventKind::ScrollUp => -1,
            _ => return false,
        };
        let over = self
            .tablebase_panel()
            .is_some_and(|(rect, _)| rect.contains((mouse.column, mouse.row).into()));
        over && self.scroll_tablebase(by, false)
    }
}
