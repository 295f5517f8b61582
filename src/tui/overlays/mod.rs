//! Dialogs over the board. Each keeps its own state, turns a key into what
//! the user chose (the app then acts on it) and draws itself.

pub mod confirm;
pub mod describe;
pub mod game_list;
pub mod game_over;
pub mod help;
pub mod new_game;
pub mod open_file;
pub mod promotion;
pub mod resume;
pub mod teach_positions;

use ratatui::Frame;
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
    Help,
    GameOver,
    /// The games of the open file.
    GameList,
    Open(OpenDialog),
    /// Teach mode's positions.
    TeachPositions(teach_positions::TeachPicker),
    /// The position in plain words (`D`, `:describe`).
    Describe(describe::DescribeView),
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
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .border_style(Style::default().fg(theme.accent));
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    inner
}
