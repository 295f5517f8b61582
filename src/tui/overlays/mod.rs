//! Dialogs over the board. Each keeps its own state, turns a key into what
//! the user chose (the app then acts on it) and draws itself.

pub mod confirm;
pub mod course;
pub mod describe;
pub mod game_list;
pub mod game_over;
pub mod help;
pub mod new_game;
pub mod open_file;
pub mod promotion;
pub mod resume;
pub mod review_all;
pub mod teach_positions;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Clear};
use shakmaty::Square;

pub use confirm::Confirm;
pub use new_game::NewGameForm;
pub use open_file::OpenDialog;

use super::save::SavedGame;
use super::theme::Theme;

#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    None,
    NewGame(NewGameForm),
    Resume(Box<SavedGame>),
    Promotion {
        from: Square,
        to: Square,
        choice: usize,
    },
    Confirm(Confirm),
    /// The keys, scrolled to show this one first.
    Help(usize),
    GameOver,
    /// The games of the open file.
    GameList,
    Open(OpenDialog),
    /// Teach mode's positions.
    TeachPositions(teach_positions::TeachPicker),
    /// The course's screen (teach mode's).
    Course(Box<course::CourseView>),
    /// The position in plain words (`D`, `:describe`).
    Describe(describe::DescribeView),
    /// The review of every game of the open file (Ctrl-R in the game list).
    ReviewAll,
}

/// Blank the pieces of words that a box at `rect` would leave showing on
/// either side of it (the "et" of a covered "no moves yet"): beside a
/// dialog, text is either whole or gone. Pieces and board squares are not
/// words and stay.
fn clear_cut_words(buffer: &mut Buffer, rect: Rect, area: Rect) {
    let is_word = |buffer: &Buffer, x: u16, y: u16| {
        buffer.cell((x, y)).is_some_and(|cell| {
            cell.symbol()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "'.,:;-+%()/…".contains(c))
                && !cell.symbol().is_empty()
        })
    };
    for y in rect.top()..rect.bottom() {
        // A word runs under the box's left or right edge when the cells on
        // both sides of that edge are letters.
        if rect.right() < area.right() && is_word(buffer, rect.right() - 1, y) {
            let mut x = rect.right();
            while x < area.right() && is_word(buffer, x, y) {
                if let Some(cell) = buffer.cell_mut((x, y)) {
                    cell.set_symbol(" ");
                }
                x += 1;
            }
        }
        if rect.left() > area.left() && is_word(buffer, rect.left(), y) {
            let mut x = rect.left();
            while x > area.left() && is_word(buffer, x - 1, y) {
                x -= 1;
                if let Some(cell) = buffer.cell_mut((x, y)) {
                    cell.set_symbol(" ");
                }
            }
        }
    }
}

/// A box of `width` x `height` in the middle of `area`, cleared.
pub fn popup(
    frame: &mut Frame,
    area: Rect,
    width: u16,
    height: u16,
    title: &str,
    theme: &Theme,
) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    clear_cut_words(frame.buffer_mut(), rect, area);
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .border_style(Style::default().fg(theme.accent));
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    inner
}
