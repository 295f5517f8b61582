//! The explorer panel: the moves played from the position in the game
//! database, most played first, each with its games, a bar of how they
//! ended (█ White won, ▒ drawn, ░ Black won: readable without colour), the
//! score for the side to move and the players' mean rating.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use shakmaty::{Chess, Color};

use crate::db::explore::{mean_rating, score_percent};
use crate::db::summary::Counts;
use crate::db::{Explorer, MoveStat};
use crate::tui::db_worker::DbProblem;
use crate::tui::shared::explorer::{Answer, ExplorerPanel};
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::{fit, human_count, section, thousands};

/// At most this many moves are listed where the panels all fit (a compact
/// terminal gives it what is left).
pub const MOST_ROWS: usize = 10;

/// Columns of a row besides the bar: the pointer, the move (7), the games
/// (6 and a space), a space, the score (4), a space and the rating (4).
const FIXED: usize = 1 + 7 + 7 + 1 + 1 + 4 + 1 + 4;

pub struct ExplorerView<'a> {
    pub panel: &'a ExplorerPanel,
    pub position: &'a Chess,
    pub theme: &'a Theme,
}

/// A problem's message takes at most this many rows (it is in the status
/// line too, cut there at the terminal's width).
const MOST_MESSAGE_ROWS: usize = 8;

/// The rows the panel would like below its title at `width` columns: a
/// header and its moves, or its message (a problem in full, wrapped).
pub fn wanted_rows(panel: &ExplorerPanel, width: u16) -> u16 {
    match &panel.answer {
        Some(Answer {
            result: Ok(explorer),
            ..
        }) if !explorer.moves.is_empty() => 1 + explorer.moves.len().min(MOST_ROWS) as u16,
        Some(Answer {
            result: Err(problem),
            ..
        }) => {
            let text = panel.problem_text(problem);
            let lines = wrapped(&text, usize::from(width), MOST_MESSAGE_ROWS).len();
            lines.clamp(3, MOST_MESSAGE_ROWS) as u16
        }
        // A message: two or three rows at the panel's width.
        _ => 3,
    }
}

/// "1 game", "950 games", "62,136 games".
fn games_text(n: u64) -> String {
    format!("{} {}", thousands(n), if n == 1 { "game" } else { "games" })
}

/// The bar of `width` cells: White's wins, draws, Black's wins, over the
/// games with a known result (none: blank).
fn bar(counts: &Counts, width: usize) -> String {
    let decided = counts.white + counts.draws + counts.black;
    if decided == 0 || width == 0 {
        return " ".repeat(width);
    }
    let cells = |n: u64| ((n as f64 * width as f64 / decided as f64).round() as usize).min(width);
    let white = cells(counts.white);
    let black = cells(counts.black).min(width - white);
    let draws = width - white - black;
    format!(
        "{}{}{}",
        "█".repeat(white),
        "▒".repeat(draws),
        "░".repeat(black)
    )
}

impl ExplorerView<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let panel = self.panel;
        let current = panel.about(self.position);
        let mut title = String::from(" Explorer");
        // "…": a new answer is on its way; what shows is the last one.
        if panel.waiting {
            title.push('…');
        }
        if let Some(Answer {
            result: Ok(explorer),
            ..
        }) = current
        {
            title.push_str(&format!(" · {}", games_text(explorer.games())));
        }
        let filter = panel.filter_text();
        if !filter.is_empty() {
            title.push_str(&format!(" · {filter}"));
        }
        title.push(' ');
        let inner = section(frame, title, area, self.theme);
        // A message over the rows there are, cut after a whole word with
        // "…" where it does not fit (a problem is in the status line too).
        let message = |text: &str| {
            let lines = wrapped(text, usize::from(inner.width), usize::from(inner.height));
            Paragraph::new(lines.join("\n"))
        };
        match &panel.answer {
            None => frame.render_widget(message("Asking the database…"), inner),
            Some(Answer {
                result: Err(problem),
                ..
            }) => {
                let text = capitalised(&panel.problem_text(problem));
                let style = match problem {
                    DbProblem::Missing(_) => Style::default(),
                    DbProblem::Failed(_) => Style::default().fg(self.theme.check),
                };
                frame.render_widget(message(&text).style(style), inner);
            }
            Some(Answer {
                result: Ok(explorer),
                turn,
                ..
            }) if explorer.moves.is_empty() => {
                let text = self.nothing_played(explorer, *turn);
                frame.render_widget(message(&text), inner);
            }
            Some(Answer {
                result: Ok(explorer),
                turn,
                ..
            }) => {
                let lines = self.rows(explorer, *turn, inner, current.is_some());
                frame.render_widget(fitted(lines, inner.width), inner);
            }
        }
    }

    /// What the panel says of a position from which no game went on.
    fn nothing_played(&self, explorer: &Explorer, turn: Color) -> String {
        let ended = explorer.ended.games();
        let which = if self.panel.filter.is_empty() {
            "No game in the database"
        } else {
            "No game of the filter"
        };
        if ended == 0 {
            return format!("{which} reached this position.");
        }
        let score = score_percent(&explorer.ended, turn)
            .map(|s| format!(", scoring {s:.0}% for {}", side(turn)))
            .unwrap_or_default();
        format!("{} ended here{score}.", games_text(ended))
    }

    /// The header and a row a move, scrolled to show the one picked.
    fn rows(
        &self,
        explorer: &Explorer,
        turn: Color,
        inner: Rect,
        current: bool,
    ) -> Vec<Line<'static>> {
        let theme = self.theme;
        let width = usize::from(inner.width);
        let bar_width = width.saturating_sub(FIXED).min(24);
        let bar_width = if bar_width < 4 { 0 } else { bar_width };
        let dim = Style::default().fg(theme.dim);
        let score_head = match turn {
            Color::White => "W%",
            Color::Black => "B%",
        };
        let bar_head = if bar_width >= 8 {
            "W█ D▒ B░"
        } else {
            "W/D/B"
        };
        let header = format!(
            " {:<7}{:>6} {:<bar$} {score_head:>4} {:>4}",
            "Move",
            "Games",
            if bar_width > 0 {
                fit(bar_head, bar_width)
            } else {
                String::new()
            },
            "Elo",
            bar = bar_width,
        );
        let mut lines = vec![Line::styled(fit(&header, width), dim)];
        let rows = usize::from(inner.height).saturating_sub(1);
        let selected = self.panel.selected;
        let first = (selected + 1).saturating_sub(rows);
        for (i, stat) in explorer.moves.iter().enumerate().skip(first).take(rows) {
            // The pick shows only on an answer about this position (the
            // one Enter would play from).
            let picked = current && i == selected;
            let text = row(stat, turn, bar_width, picked);
            let style = if picked {
                theme.highlight()
            } else if current {
                Style::default()
            } else {
                dim
            };
            lines.push(Line::from(Span::styled(fit(&text, width), style)));
        }
        lines
    }
}

/// The index of the move drawn at terminal row `row` of the panel
/// (`rect`), if a move is drawn there (for a click).
pub fn move_at(panel: &ExplorerPanel, rect: Rect, column: u16, row: u16) -> Option<usize> {
    let inner = crate::tui::layout::below_title(rect);
    if !inner.contains((column, row).into()) || row == inner.y {
        return None;
    }
    let Some(Answer {
        result: Ok(explorer),
        ..
    }) = &panel.answer
    else {
        return None;
    };
    // As `rows` scrolls: the header, then the moves from `first`.
    let rows = usize::from(inner.height).saturating_sub(1);
    let first = (panel.selected + 1).saturating_sub(rows);
    let index = first + usize::from(row - inner.y) - 1;
    (index < explorer.moves.len()).then_some(index)
}

/// `text` with a capital first letter.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `text` in lines of at most `width` columns, broken between words, at
/// most `rows` of them: the last one kept ends in "…" where more did not
/// fit. A word longer than a line (a file's path) is broken across lines,
/// so that all of it can be read.
pub fn wrapped(text: &str, width: usize, rows: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let width_ = width.max(1);
    let pieces = text.split_whitespace().flat_map(|word| {
        let chars: Vec<char> = word.chars().collect();
        chars
            .chunks(width_)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
    });
    for word in pieces {
        let word = word.as_str();
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.len() > rows && rows > 0 {
        let rest = lines[rows - 1..].join(" ");
        lines.truncate(rows - 1);
        lines.push(fit(&rest, width));
    }
    lines.truncate(rows);
    lines.iter().map(|l| fit(l, width)).collect()
}

fn side(turn: Color) -> &'static str {
    match turn {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A move's games in its column of 6: exact with separators where that
/// fits (up to 99,999), else rounded (123.5k).
fn games_column(n: u64) -> String {
    let exact = thousands(n);
    if exact.len() <= 6 {
        exact
    } else {
        human_count(n)
    }
}

/// One move's row.
fn row(stat: &MoveStat, turn: Color, bar_width: usize, picked: bool) -> String {
    let pointer = if picked { "▶" } else { " " };
    let score =
        score_percent(&stat.counts, turn).map_or_else(|| "–".to_string(), |s| format!("{s:.0}%"));
    let rating = mean_rating(&stat.counts).map_or_else(|| "–".to_string(), |r| r.to_string());
    let bar = if bar_width > 0 {
        format!("{} ", bar(&stat.counts, bar_width))
    } else {
        String::new()
    };
    format!(
        "{pointer}{:<7}{:>6} {bar}{score:>4} {rating:>4}",
        fit(&stat.san, 7),
        games_column(stat.games()),
    )
}

#[cfg(test)]
mod tests;
