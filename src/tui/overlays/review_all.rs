//! The game list's "review all" (Ctrl-R): every game of the file reviewed
//! in the background, the report filling in as games finish: a table of
//! players (by the names in the PGN) sortable by name, accuracy, blunders or
//! games; a table of games sortable by each column; and a player's positions
//! to study, each of which opens as a lesson in teach mode.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::core::counted;
use crate::review::SideSummary;
use crate::review::batch::{Player, Players, ReviewedGame, Study};
use crate::tui::theme::Theme;
use crate::tui::widgets::fit;
use crate::tui::widgets::fitted::fitted;

use super::game_list::{Column, cells, short_name};
use super::popup;

mod sort;
pub use sort::{GameRow, GameSort, SortBy};

/// What the background review reports.
#[derive(Debug, Clone)]
pub enum ReviewAllEvent {
    /// The number of games in the file (a first, quick pass).
    Total(usize),
    Game(Box<ReviewedGame>),
    /// Finished or stopped: a warning if the file was not read to its end,
    /// or why nothing could be reviewed.
    Done(Result<Option<String>, String>),
}

/// Which table is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Players,
    Games,
    /// The positions to study of the player with this name.
    Study,
}

/// What a key did in the review's table.
#[derive(Debug, Clone, PartialEq)]
pub enum ReviewAllKey {
    Keep,
    /// Closed; a review still running is to be stopped.
    Close,
    /// Open game `number` of the file.
    OpenGame(PathBuf, usize),
    /// Open a position to study as a lesson.
    Study(Box<Study>),
}

/// The review of a whole file, as far as it has gone.
#[derive(Debug, Clone)]
pub struct ReviewAll {
    pub path: PathBuf,
    /// The background review's id (its stop).
    pub id: u64,
    pub movetime: Duration,
    pub threads: usize,
    pub total: Option<usize>,
    pub games: Vec<GameRow>,
    pub players: Players,
    pub done: bool,
    pub error: Option<String>,
    pub started: Instant,
    /// When the last game came in: the time left is estimated from then.
    pub last_game: Option<Instant>,
    /// Games reviewed before this run started (a stopped review taken up
    /// again): the pace counts only this run's.
    pub resumed_after: usize,
    pub table: Table,
    pub sort: SortBy,
    /// The players' order reversed.
    pub reversed: bool,
    /// The games' order, and whether it is reversed.
    pub game_sort: GameSort,
    pub games_reversed: bool,
    /// The row under the pointer in the table shown.
    pub selected: usize,
    /// The player whose positions are listed (`Table::Study`).
    pub player: Option<String>,
    /// Each game's plies, in the file's order, as the game list read them
    /// (for the time left before any game is done).
    pub plies: Vec<usize>,
}

impl ReviewAll {
    pub fn new(path: PathBuf, id: u64, movetime: Duration, threads: usize, now: Instant) -> Self {
        ReviewAll {
            path,
            id,
            movetime,
            threads,
            total: None,
            games: Vec::new(),
            players: Players::default(),
            done: false,
            error: None,
            started: now,
            last_game: None,
            resumed_after: 0,
            table: Table::Players,
            sort: SortBy::Name,
            reversed: false,
            game_sort: GameSort::Number,
            games_reversed: false,
            selected: 0,
            player: None,
            plies: Vec::new(),
        }
    }

    /// The config file's `[aliases]`: a person's spellings are one player
    /// (an entry naming no one is left out, as `review --all` does).
    pub fn with_aliases(mut self, aliases: &[(String, String)]) -> Self {
        let mut merged = crate::review::batch::Aliases::default();
        for (name, other) in aliases {
            let _ = merged.add(name, other);
        }
        self.players = Players::with_aliases(merged);
        self
    }

    /// The plies of every game of the file (the game list's, read to its
    /// end): the review can tell its length from the start.
    pub fn with_plies(mut self, plies: Vec<usize>) -> Self {
        self.total = self.total.or(Some(plies.len()));
        self.plies = plies;
        self
    }

    /// The positions the review evaluates in the games after the first
    /// `reviewed` (each game's plies and its start), if the game list told
    /// every game's length.
    fn positions_after(&self, reviewed: usize) -> Option<usize> {
        let total = self.total?;
        if self.plies.len() < total {
            return None;
        }
        Some(
            self.plies[reviewed.min(total)..total]
                .iter()
                .map(|p| p + 1)
                .sum(),
        )
    }

    /// The background review reported.
    pub fn event(&mut self, event: ReviewAllEvent, now: Instant) {
        match event {
            ReviewAllEvent::Total(total) => self.total = Some(total),
            ReviewAllEvent::Game(game) => {
                self.last_game = Some(now);
                self.players.add(&game);
                self.games.push(GameRow {
                    number: game.number,
                    white: game.white,
                    black: game.black,
                    result: game.result,
                    plies: game.plies,
                    sides: game.sides,
                });
            }
            ReviewAllEvent::Done(result) => {
                self.done = true;
                match result {
                    Ok(warning) => self.error = warning,
                    Err(e) => self.error = Some(e),
                }
            }
        }
    }

    /// Take a stopped review up again as background review `id`, which
    /// goes on after the games reviewed so far; they and the tables' state
    /// stay.
    pub fn resume(&mut self, id: u64, now: Instant) {
        self.id = id;
        self.done = false;
        self.error = None;
        self.started = now;
        self.last_game = None;
        self.resumed_after = self.games.len();
    }

    /// Ended before every game of the file was reviewed.
    pub fn stopped(&self) -> bool {
        self.done && self.total.is_none_or(|total| self.games.len() < total)
    }

    /// The players in the table's order.
    pub fn players_sorted(&self) -> Vec<&Player> {
        sort::players(self.players.by_name(), self.sort, self.reversed)
    }

    /// The games in the table's order.
    pub fn games_sorted(&self) -> Vec<&GameRow> {
        sort::games(&self.games, self.game_sort, self.games_reversed)
    }

    /// The positions to study of the chosen player, in the file's order.
    fn study(&self) -> Vec<&Study> {
        let Some(name) = &self.player else {
            return Vec::new();
        };
        self.players
            .get(name)
            .map(|p| p.study.iter().collect())
            .unwrap_or_default()
    }

    fn rows(&self) -> usize {
        match self.table {
            Table::Players => self.players.len(),
            Table::Games => self.games.len(),
            Table::Study => self.study().len(),
        }
    }

    /// A key; `page` rows for Page Up and Down.
    pub fn key(&mut self, key: KeyEvent, page: usize) -> ReviewAllKey {
        let last = self.rows().saturating_sub(1);
        match key.code {
            KeyCode::Esc if self.table == Table::Study => {
                self.table = Table::Players;
                self.selected = 0;
            }
            KeyCode::Esc | KeyCode::Char('q') => return ReviewAllKey::Close,
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(page),
            KeyCode::PageDown => self.selected = (self.selected + page).min(last),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = last,
            KeyCode::Tab => {
                self.table = match self.table {
                    Table::Players => Table::Games,
                    Table::Games | Table::Study => Table::Players,
                };
                self.selected = 0;
            }
            KeyCode::Char('s') if self.table == Table::Players => {
                self.sort = self.sort.next();
                self.reversed = false;
                self.selected = 0;
            }
            KeyCode::Char('r') if self.table == Table::Players => {
                self.reversed = !self.reversed;
                self.selected = 0;
            }
            KeyCode::Char('s') if self.table == Table::Games => {
                self.game_sort = self.game_sort.next();
                self.games_reversed = false;
                self.selected = 0;
            }
            KeyCode::Char('r') if self.table == Table::Games => {
                self.games_reversed = !self.games_reversed;
                self.selected = 0;
            }
            KeyCode::Enter => match self.table {
                Table::Players => {
                    if let Some(player) = self.players_sorted().get(self.selected) {
                        self.player = Some(player.name.clone());
                        self.table = Table::Study;
                        self.selected = 0;
                    }
                }
                Table::Games => {
                    if let Some(game) = self.games_sorted().get(self.selected) {
                        return ReviewAllKey::OpenGame(self.path.clone(), game.number);
                    }
                }
                Table::Study => {
                    if let Some(study) = self.study().get(self.selected) {
                        return ReviewAllKey::Study(Box::new((*study).clone()));
                    }
                }
            },
            _ => {}
        }
        ReviewAllKey::Keep
    }

    /// The title's state: how far the review has gone.
    fn state(&self, now: Instant) -> String {
        let reviewed = self.games.len();
        let of = self
            .total
            .map_or_else(String::new, |total| format!(" of {total}"));
        if self.done {
            let stopped = if self.stopped() { ", stopped" } else { "" };
            return format!("{reviewed}{of} games reviewed{stopped}");
        }
        // Before any game is in: each position's time, on as many threads,
        // counting down. Then the pace so far (time a position, or a game
        // where the lengths are unknown, up to the last game in) for the
        // rest, less the time since.
        let this_run = reviewed.saturating_sub(self.resumed_after);
        let to_come = match (self.total, self.last_game) {
            (Some(total), Some(last)) if this_run > 0 => {
                let pace = last.saturating_duration_since(self.started);
                let done_here: usize = self.games[self.resumed_after..]
                    .iter()
                    .map(|g| g.plies + 1)
                    .sum();
                let share = match self.positions_after(reviewed) {
                    Some(positions) if done_here > 0 => positions as f64 / done_here as f64,
                    _ => total.saturating_sub(reviewed) as f64 / this_run as f64,
                };
                Some(
                    pace.mul_f64(share)
                        .saturating_sub(now.saturating_duration_since(last)),
                )
            }
            (Some(_), None) => self.positions_after(reviewed).map(|positions| {
                let all = self
                    .movetime
                    .mul_f64(positions as f64 / self.threads.max(1) as f64);
                all.saturating_sub(now.saturating_duration_since(self.started))
            }),
            _ => None,
        };
        let left = to_come.map_or_else(String::new, |left| {
            format!(", about {} left", minutes_seconds(left))
        });
        format!("reviewing… {reviewed}{of} games{left}")
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme, now: Instant) {
        let width = area.width.saturating_sub(4).max(40);
        let height = area.height.saturating_sub(2).max(8);
        let name = self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().to_string(),
        );
        let title = fitted_title(&name, &self.state(now), usize::from(width.min(area.width)));
        let inner = popup(frame, area, width, height, &title, theme);
        let dim = Style::default().fg(theme.dim);
        let w = usize::from(inner.width);
        let keys = match self.table {
            Table::Players => format!(
                " Players, by {}{} · s sort · r reverse · Enter their positions · Tab games · Esc closes",
                self.sort.name(),
                if self.reversed { " (reversed)" } else { "" }
            ),
            Table::Games => format!(
                " Games, by {}{} · s sort · r reverse · Enter opens the game · Tab players · Esc closes",
                self.game_sort.name(),
                if self.games_reversed {
                    " (reversed)"
                } else {
                    ""
                }
            ),
            Table::Study => format!(
                " {}: positions to study · Enter opens a lesson · Esc back",
                self.player.as_deref().unwrap_or("?")
            ),
        };
        let mut lines = vec![Line::styled(fit(&keys, w), dim)];
        lines.push(Line::styled(
            fit(
                &format!(
                    " {} ms a position, {} · accuracy: mean of 103.17·e^(-0.04354·lost) - 3.17 per move",
                    self.movetime.as_millis(),
                    counted(self.threads as u64, "thread", "threads"),
                ),
                w,
            ),
            dim,
        ));
        if let Some(error) = &self.error {
            lines.push(Line::styled(
                fit(&format!(" {error}"), w),
                Style::default().fg(theme.check),
            ));
        }
        let names = ((w.saturating_sub(40)) / 2).clamp(10, 24);
        // The games table's rows hold 45 columns besides the two names (the
        // marks of both sides last): the names give way first.
        let game_names = ((w.saturating_sub(45)) / 2).clamp(8, 24);
        let (header, rows): (String, Vec<String>) = match self.table {
            Table::Players => (
                format!(
                    "  {:<nw$} {:>5} {:>5} {:>8}  {:>4} {:>4} {:>4}",
                    "Player",
                    "games",
                    "moves",
                    "accuracy",
                    "?!",
                    "?",
                    "??",
                    nw = names + 4
                ),
                self.players_sorted()
                    .iter()
                    .map(|p| {
                        format!(
                            "{:<nw$} {:>5} {:>5} {:>8}  {:>4} {:>4} {:>4}",
                            short_name(&p.name, names + 4),
                            p.games,
                            p.summary.moves,
                            accuracy_text(&p.summary),
                            p.summary.inaccuracies,
                            p.summary.mistakes,
                            p.summary.blunders,
                            nw = names + 4
                        )
                    })
                    .collect(),
            ),
            Table::Games => (
                format!(
                    "  {:>4} {:<nw$} {:<nw$} {:<7} {:>6} {:>6}  {}",
                    "#",
                    "White",
                    "Black",
                    "Result",
                    "acc W",
                    "acc B",
                    "?! ? ??: W / B",
                    nw = game_names
                ),
                self.games_sorted()
                    .iter()
                    .map(|g| {
                        let marks = |s: &SideSummary| {
                            format!("{} {} {}", s.inaccuracies, s.mistakes, s.blunders)
                        };
                        format!(
                            "{:>4} {:<nw$} {:<nw$} {:<7} {:>6} {:>6}  {} / {}",
                            g.number,
                            short_name(&g.white, game_names),
                            short_name(&g.black, game_names),
                            g.result,
                            accuracy_text(&g.sides[0]),
                            accuracy_text(&g.sides[1]),
                            marks(&g.sides[0]),
                            marks(&g.sides[1]),
                            nw = game_names
                        )
                    })
                    .collect(),
            ),
            Table::Study => {
                let columns = [Column::right(5), Column::left(16), Column::left(11)];
                (
                    format!("  {}better", cells(&columns, &["game", "move", "played"])),
                    self.study()
                        .iter()
                        .map(|s| {
                            // The side to move before the move, from the
                            // position (a game may start with Black to move).
                            let black = s.fen.split_whitespace().nth(1) == Some("b");
                            let dots = if black { "..." } else { "." };
                            let texts = [
                                s.game.to_string(),
                                format!("{}{dots} ({})", s.move_number, s.class.name()),
                                format!("{}{}", s.played, s.class.symbol()),
                            ];
                            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                            format!(
                                "{}{}",
                                cells(&columns, &texts),
                                s.best.as_deref().unwrap_or("-")
                            )
                        })
                        .collect(),
                )
            }
        };
        lines.push(Line::styled(
            fit(&header, w),
            dim.add_modifier(Modifier::BOLD),
        ));
        if rows.is_empty() {
            let empty = match (self.table, self.done) {
                (Table::Study, _) => " no mistakes or blunders: nothing to study",
                (_, false) => " the first game is being reviewed…",
                (_, true) => " no game was reviewed",
            };
            lines.push(Line::styled(empty, dim));
        }
        let room = usize::from(inner.height).saturating_sub(lines.len());
        let first = (self.selected + 1).saturating_sub(room);
        for (i, row) in rows.iter().enumerate().skip(first).take(room) {
            let selected = i == self.selected;
            let pointer = if selected { "▶" } else { " " };
            let text = fit(&format!("{pointer} {row}"), w);
            let style = if selected {
                theme.highlight()
            } else {
                Style::default()
            };
            lines.push(Line::styled(text, style));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}

fn accuracy_text(summary: &SideSummary) -> String {
    summary
        .accuracy()
        .map_or_else(|| "-".to_string(), |a| format!("{a:.1}%"))
}

/// "3m20s", "45s".
/// The box's title for a box `width` columns wide: the longest form that
/// fits between its corners (the estimate as "~2m26s", then without
/// "Review of"), else cut after a whole word with "…". Never a token cut.
fn fitted_title(name: &str, state: &str, width: usize) -> String {
    // The corners and a space either side of the title.
    let room = width.saturating_sub(4);
    let short = state.replace(", about ", ", ~");
    let forms = [
        format!("Review of {name} · {state}"),
        format!("Review of {name} · {short}"),
        format!("{name} · {short}"),
    ];
    forms
        .iter()
        .find(|form| form.chars().count() <= room)
        .cloned()
        .unwrap_or_else(|| fit(&forms[2], room))
}

fn minutes_seconds(d: Duration) -> String {
    let s = d.as_secs();
    match s / 60 {
        0 => format!("{s}s"),
        m => format!("{m}m{:02}s", s % 60),
    }
}

#[cfg(test)]
mod tests;
