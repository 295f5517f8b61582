//! Where everything goes on the screen, as a pure function of the terminal
//! size and the panels the mode shows. Drawing and mouse handling both use
//! it, so a click always lands on the square, move or line drawn there.

pub mod panels;
pub mod side;

use ratatui::layout::Rect;
use shakmaty::{File, Rank, Square};

pub use panels::{Panel, Slot};

/// Below this the screen shows a message instead of the board.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 18;
/// The side panel never gets narrower than this.
const PANEL_MIN: u16 = 32;
/// Squares stop growing here; past it the panel takes the room.
pub const MAX_SQUARE_HEIGHT: u16 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub top: Rect,
    pub board: BoardGeometry,
    /// The board with its labels.
    pub board_area: Rect,
    pub panel: Rect,
    /// Under the board, as wide as it, down to the status line.
    pub below: Rect,
    pub status: Rect,
    pub input: Rect,
}

/// The board's squares: `sq_w` x `sq_h` cells each, a8 (or h1 when flipped)
/// at (`x`, `y`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardGeometry {
    pub x: u16,
    pub y: u16,
    pub sq_w: u16,
    pub sq_h: u16,
}

impl BoardGeometry {
    /// The cells of `square`.
    pub fn square_rect(&self, square: Square, flipped: bool) -> Rect {
        let (col, row) = if flipped {
            (7 - u16::from(square.file()), u16::from(square.rank()))
        } else {
            (u16::from(square.file()), 7 - u16::from(square.rank()))
        };
        Rect::new(
            self.x + col * self.sq_w,
            self.y + row * self.sq_h,
            self.sq_w,
            self.sq_h,
        )
    }

    /// The square under a terminal cell, if any.
    pub fn square_at(&self, column: u16, row: u16, flipped: bool) -> Option<Square> {
        if column < self.x || row < self.y {
            return None;
        }
        let col = (column - self.x) / self.sq_w;
        let r = (row - self.y) / self.sq_h;
        if col > 7 || r > 7 {
            return None;
        }
        let (file, rank) = if flipped { (7 - col, r) } else { (col, 7 - r) };
        Some(Square::from_coords(
            File::new(u32::from(file)),
            Rank::new(u32::from(rank)),
        ))
    }

    pub fn width(&self) -> u16 {
        8 * self.sq_w
    }

    pub fn height(&self) -> u16 {
        8 * self.sq_h
    }
}

/// The layout for a terminal of `area`, or `None` when it is too small.
pub fn screen(area: Rect) -> Option<Screen> {
    screen_sized(area, MAX_SQUARE_HEIGHT)
}

/// The same, with squares at most `max_square` rows tall.
pub fn screen_sized(area: Rect, max_square: u16) -> Option<Screen> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let top = Rect::new(area.x, area.y, area.width, 1);
    let status = Rect::new(area.x, area.bottom() - 2, area.width, 1);
    let input = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    let middle_height = area.height - 3;
    // Room for the squares: rank labels take 2 columns, file labels 1 row,
    // and a blank column parts board from panel.
    let by_height = (middle_height - 1) / 8;
    let board_width_max = area.width - PANEL_MIN - 1;
    // Squares are 2h+1 cells wide: terminal cells are about twice as tall as wide.
    let by_width = ((board_width_max - 2) / 8).saturating_sub(1) / 2;
    let sq_h = by_height.min(by_width).clamp(1, max_square.max(1));
    let sq_w = 2 * sq_h + 1;
    let board = BoardGeometry {
        x: area.x + 2,
        y: area.y + 1,
        sq_w,
        sq_h,
    };
    let board_area = Rect::new(area.x, area.y + 1, 2 + board.width(), board.height() + 1);
    let panel_x = board_area.right() + 1;
    let panel = Rect::new(panel_x, area.y + 1, area.right() - panel_x, middle_height);
    let below_y = board_area.bottom() + 1;
    let below = Rect::new(
        area.x,
        below_y.min(status.y),
        board_area.width,
        status.y.saturating_sub(below_y),
    );
    Some(Screen {
        top,
        board,
        board_area,
        panel,
        below,
        status,
        input,
    })
}

/// The panels of a mode, stacked down the side panel `area` in the order
/// the mode gives them, each as high as its rule says for the room left.
pub fn stack(area: Rect, slots: &[Slot]) -> Vec<(Panel, Rect)> {
    let mut y = area.y;
    let mut placed = Vec::with_capacity(slots.len());
    for slot in slots {
        let room = area.bottom().saturating_sub(y);
        if let Some(height) = (slot.height)(room) {
            let height = height.min(room);
            placed.push((slot.panel, Rect::new(area.x, y, area.width, height)));
            y += height;
        }
    }
    placed
}

/// Where `panel` was placed, if it was.
pub fn find(placed: &[(Panel, Rect)], panel: Panel) -> Option<Rect> {
    placed.iter().find(|(p, _)| *p == panel).map(|(_, r)| *r)
}

/// A panel part without its title row (what `Block` with a top border
/// leaves inside).
pub fn below_title(rect: Rect) -> Rect {
    Rect::new(
        rect.x,
        rect.y.saturating_add(1),
        rect.width,
        rect.height.saturating_sub(1),
    )
}

/// The engine line drawn at a terminal cell of the engine lines panel
/// (`rect`), if any (0 = best) among the `shown` lines.
pub fn line_at(rect: Rect, shown: usize, column: u16, row: u16) -> Option<usize> {
    let inner = below_title(rect);
    if !inner.contains((column, row).into()) {
        return None;
    }
    let index = usize::from(row - inner.y);
    (index < shown).then_some(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_small_has_no_layout() {
        assert!(screen(Rect::new(0, 0, MIN_WIDTH - 1, 40)).is_none());
        assert!(screen(Rect::new(0, 0, 100, MIN_HEIGHT - 1)).is_none());
        assert!(screen(Rect::new(0, 0, MIN_WIDTH, MIN_HEIGHT)).is_some());
    }

    #[test]
    fn the_board_grows_with_the_terminal_and_fits() {
        let mut last = 0;
        for (w, h) in [(60, 18), (80, 24), (120, 40), (200, 60)] {
            let s = screen(Rect::new(0, 0, w, h)).unwrap();
            assert!(s.board.sq_h >= last, "{w}x{h}");
            last = s.board.sq_h;
            assert!(s.board_area.bottom() <= s.status.y);
            assert!(s.panel.width >= PANEL_MIN, "{w}x{h}");
            assert!(s.panel.right() <= w);
        }
        assert!(last >= 4);
    }

    #[test]
    fn clicks_map_back_to_the_square_drawn_there() {
        let s = screen(Rect::new(0, 0, 120, 40)).unwrap();
        for flipped in [false, true] {
            for square in Square::ALL {
                let rect = s.board.square_rect(square, flipped);
                assert_eq!(s.board.square_at(rect.x, rect.y, flipped), Some(square));
                let (x, y) = (rect.right() - 1, rect.bottom() - 1);
                assert_eq!(s.board.square_at(x, y, flipped), Some(square));
            }
        }
        assert_eq!(s.board.square_at(0, 5, false), None);
    }
}
