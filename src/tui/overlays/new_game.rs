//! The new-game dialog: who plays whom (or the analysis board), the level,
//! the time control and the start position.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::Chess;

use crate::config::{Settings, TimeControl};
use crate::core::Rng;
use crate::game::chess960;
use crate::tui::theme::Theme;

use super::popup;
use crate::tui::widgets::fitted::fitted;

/// Who plays whom in the new-game dialog.
pub const SIDE_CHOICES: [&str; 7] = [
    "White",
    "Black",
    "Random",
    "Two players",
    "Analysis board",
    "Teach the search",
    "Train: the positions due",
];
/// The side choice that opens the analysis board instead of a game.
pub const ANALYSIS_CHOICE: usize = 4;
/// The side choice that opens teach mode.
pub const TEACH_CHOICE: usize = 5;
/// The side choice that opens training (the schedule's due positions).
pub const TRAIN_CHOICE: usize = 6;

/// Where the game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartChoice {
    /// The standard start position.
    Standard,
    /// The position given with `--fen` (or the analysis board's).
    Given,
    /// A Chess960 start position picked at random when the game starts.
    Chess960Random,
    /// Chess960 start position number 0 to 959 (typed in the dialog).
    Chess960(u16),
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewGameForm {
    pub field: usize,
    pub side: usize,
    pub level: u8,
    /// Index into `TimeControl::presets()`, or one past it for custom.
    pub time: usize,
    /// Custom base time, seconds.
    pub custom_seconds: u32,
    pub custom_increment: u32,
    /// A start position given with `--fen`.
    pub fen_start: Option<Chess>,
    pub start: StartChoice,
    /// How many training positions are due (`None`: not known).
    pub due: Option<usize>,
}

/// The choices of the last new game, remembered for the next dialog (and
/// the next start, in `new-game.toml` in the data folder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choices {
    /// White, Black, Random or Two players (the other modes are not games).
    pub side: usize,
    pub level: u8,
    /// As `NewGameForm::time`.
    pub time: usize,
    pub custom_seconds: u32,
    pub custom_increment: u32,
    pub start: StartChoice,
}

impl Choices {
    /// The file's name in the data folder.
    pub const FILE: &'static str = "new-game.toml";

    /// The choices as the file keeps them.
    pub fn to_text(&self) -> String {
        let start = match self.start {
            StartChoice::Standard => "standard".to_string(),
            StartChoice::Given => "given".to_string(),
            StartChoice::Chess960Random => "chess960".to_string(),
            StartChoice::Chess960(n) => format!("chess960 {n}"),
        };
        format!(
            "# kibitz remembers the last new game's choices here (it rewrites this file).\n\
             side = {}\nlevel = {}\ntime = {}\ncustom_seconds = {}\ncustom_increment = {}\nstart = \"{start}\"\n",
            self.side, self.level, self.time, self.custom_seconds, self.custom_increment
        )
    }

    /// The choices in `text`, each checked as the dialog would allow it;
    /// `None` for a file that is not one of ours (the defaults then).
    pub fn parse(text: &str) -> Option<Choices> {
        let table: toml::Table = text.parse().ok()?;
        let number = |key: &str, max: i64| {
            table
                .get(key)?
                .as_integer()
                .filter(|n| (0..=max).contains(n))
        };
        let start = match table.get("start")?.as_str()? {
            "standard" => StartChoice::Standard,
            "given" => StartChoice::Given,
            "chess960" => StartChoice::Chess960Random,
            other => StartChoice::Chess960(
                other
                    .strip_prefix("chess960 ")?
                    .parse()
                    .ok()
                    .filter(|n| *n < chess960::POSITIONS)?,
            ),
        };
        Some(Choices {
            side: number("side", 3)? as usize,
            level: number("level", 10).filter(|n| *n >= 1)? as u8,
            time: number("time", TimeControl::presets().len() as i64)? as usize,
            custom_seconds: number("custom_seconds", 3 * 3600).filter(|n| *n >= 15)? as u32,
            custom_increment: number("custom_increment", 60)? as u32,
            start,
        })
    }
}

impl NewGameForm {
    pub const FIELDS: [&'static str; 6] = [
        "Play as",
        "Level",
        "Time",
        "Minutes",
        "Increment",
        "Start from",
    ];

    pub fn new(settings: &Settings, fen_start: Option<Chess>) -> NewGameForm {
        let presets = TimeControl::presets();
        let (time, seconds, increment) = match presets
            .iter()
            .position(|(_, tc)| *tc == settings.time_control)
        {
            Some(index) => (index, 300, 3),
            None => match settings.time_control {
                TimeControl::Fischer { base, increment } => (
                    presets.len(),
                    base.as_secs().clamp(15, 3 * 3600) as u32,
                    increment.as_secs().min(60) as u32,
                ),
                TimeControl::Untimed => (presets.len() - 1, 300, 3),
            },
        };
        NewGameForm {
            field: 0,
            side: 0,
            level: settings.level.get(),
            time,
            custom_seconds: seconds,
            custom_increment: increment,
            start: if fen_start.is_some() {
                StartChoice::Given
            } else {
                StartChoice::Standard
            },
            fen_start,
            due: None,
        }
    }

    /// The dialog with the last game's choices (`None`: the settings'
    /// defaults). A position given with `--fen` is where it starts; a
    /// remembered "given position" without one is the standard start.
    pub fn remembered(
        settings: &Settings,
        fen_start: Option<Chess>,
        last: Option<&Choices>,
    ) -> NewGameForm {
        let mut form = NewGameForm::new(settings, fen_start);
        if let Some(last) = last {
            form.side = last.side;
            form.level = last.level;
            form.time = last.time;
            form.custom_seconds = last.custom_seconds;
            form.custom_increment = last.custom_increment;
            if form.fen_start.is_none() {
                form.start = match last.start {
                    StartChoice::Given => StartChoice::Standard,
                    other => other,
                };
            }
        }
        form
    }

    /// The choices to remember of a game started from this dialog (`None`
    /// for the analysis board and teach mode).
    pub fn choices(&self) -> Option<Choices> {
        (self.side < ANALYSIS_CHOICE).then_some(Choices {
            side: self.side,
            level: self.level,
            time: self.time,
            custom_seconds: self.custom_seconds,
            custom_increment: self.custom_increment,
            start: self.start,
        })
    }

    pub fn is_custom(&self) -> bool {
        self.time >= TimeControl::presets().len()
    }

    /// Whether a field is shown (and can be selected).
    pub fn shows(&self, field: usize) -> bool {
        match field {
            1 => self.side < 3,
            2 => self.side < ANALYSIS_CHOICE,
            3 | 4 => self.is_custom() && self.side < ANALYSIS_CHOICE,
            5 => self.side != TRAIN_CHOICE,
            _ => field < Self::FIELDS.len(),
        }
    }

    pub fn time_control(&self) -> TimeControl {
        match TimeControl::presets().get(self.time) {
            Some((_, tc)) => *tc,
            None => TimeControl::fischer(
                u64::from(self.custom_seconds),
                u64::from(self.custom_increment),
            ),
        }
    }

    /// The text of a field's value.
    pub fn value(&self, field: usize) -> String {
        match field {
            0 => self.side_name(self.side),
            1 => match crate::engine::level::Level::new(self.level) {
                // The measured rating (docs/strength.md, "Strength levels"), rounded:
                // twenty games a side leave about -200/+250. Level 1 lost every
                // game to the ladder's weakest engine: only a bound is known
                // (below 790), and the figure the code stands in for it (600,
                // as the table gives it) keeps it below level 2's.
                Some(level) if self.level == 1 => format!(
                    "{} / 10 · about {} (below 790)",
                    level.get(),
                    (crate::engine::level::measured_rating(level) + 25) / 50 * 50
                ),
                Some(level) => format!(
                    "{} / 10 · about {}",
                    level.get(),
                    (crate::engine::level::measured_rating(level) + 25) / 50 * 50
                ),
                None => format!("{} / 10", self.level),
            },
            2 => match TimeControl::presets().get(self.time) {
                Some((family, TimeControl::Untimed)) => (*family).to_string(),
                Some((family, tc)) => format!("{tc} ({family})"),
                None => "custom".to_string(),
            },
            3 => match self.custom_seconds {
                s if s % 60 == 0 => format!("{} min", s / 60),
                s => format!("{}:{:02} min", s / 60, s % 60),
            },
            4 => format!("{} s", self.custom_increment),
            5 => match self.start {
                StartChoice::Standard => "the standard position".to_string(),
                StartChoice::Given => "the given position".to_string(),
                StartChoice::Chess960Random => "Chess960, picked at random".to_string(),
                StartChoice::Chess960(n) => format!("Chess960 no. {n} · type 0-959"),
            },
            _ => String::new(),
        }
    }

    /// Whether the game starts from the given position.
    pub fn uses_fen(&self) -> bool {
        self.start == StartChoice::Given && self.fen_start.is_some()
    }

    /// The start position chosen; a random Chess960 one is picked now.
    pub fn start_position(&self, rng: &mut Rng) -> Chess {
        let number = match self.start {
            StartChoice::Standard => return Chess::default(),
            StartChoice::Given => return self.fen_start.clone().unwrap_or_default(),
            // 960 fits in u16, and the remainder is below it.
            StartChoice::Chess960Random => (rng.next_u64() % u64::from(chess960::POSITIONS)) as u16,
            StartChoice::Chess960(n) => n,
        };
        chess960::start_position(number).unwrap_or_else(|_| chess960::standard_start())
    }

    /// The start position to draw behind the dialog: the one the game
    /// will start from (a random Chess960 one is not picked yet: the
    /// standard start stands for it).
    pub fn shown_start(&self) -> Chess {
        match self.start {
            StartChoice::Chess960Random => Chess::default(),
            _ => self.start_position(&mut Rng::new(1)),
        }
    }

    /// The start choices in the order ←→ steps through them.
    fn start_choices(&self) -> Vec<StartChoice> {
        let number = match self.start {
            StartChoice::Chess960(n) => n,
            _ => chess960::STANDARD_NUMBER,
        };
        let mut choices = vec![StartChoice::Standard];
        if self.fen_start.is_some() {
            choices.push(StartChoice::Given);
        }
        choices.extend([StartChoice::Chess960Random, StartChoice::Chess960(number)]);
        choices
    }

    /// A side choice's name; the Train choice with how many positions
    /// are due when that is known.
    pub fn side_name(&self, choice: usize) -> String {
        match (choice, self.due) {
            (TRAIN_CHOICE, Some(0)) => "Train: nothing due".to_string(),
            (TRAIN_CHOICE, Some(1)) => "Train: 1 position due".to_string(),
            (TRAIN_CHOICE, Some(n)) => format!("Train: {n} positions due"),
            _ => SIDE_CHOICES
                .get(choice)
                .copied()
                .unwrap_or_default()
                .to_string(),
        }
    }

    /// The header above the dialog before anything is open: what the
    /// dialog would start ("New game: …", or the training choice).
    pub fn header(&self) -> String {
        if self.side == TRAIN_CHOICE {
            self.side_name(TRAIN_CHOICE)
        } else {
            format!("New game: {}", self.summary())
        }
    }

    /// What the dialog would start, in a few words for the header.
    pub fn summary(&self) -> String {
        let variant = match self.start {
            StartChoice::Chess960Random => " · Chess960".to_string(),
            StartChoice::Chess960(n) => format!(" · Chess960 no. {n}"),
            StartChoice::Standard | StartChoice::Given => String::new(),
        };
        self.summary_of_players() + &variant
    }

    fn summary_of_players(&self) -> String {
        let time = self.time_control();
        match self.side {
            0 | 1 => format!(
                "You ({}) vs kibitz level {} · {time}",
                SIDE_CHOICES[self.side], self.level
            ),
            2 => format!("You (random side) vs kibitz level {} · {time}", self.level),
            3 => format!("Two players · {time}"),
            ANALYSIS_CHOICE => "the analysis board".to_string(),
            TEACH_CHOICE => "teach the search".to_string(),
            _ => self.side_name(TRAIN_CHOICE),
        }
    }

    fn step(&mut self, delta: i32) {
        let bump = |value: u32, min: u32, max: u32| {
            (i64::from(value) + i64::from(delta)).clamp(i64::from(min), i64::from(max)) as u32
        };
        let presets = TimeControl::presets().len() as u32;
        match self.field {
            0 => self.side = bump(self.side as u32, 0, TRAIN_CHOICE as u32) as usize,
            1 => self.level = bump(u32::from(self.level), 1, 10) as u8,
            2 => self.time = bump(self.time as u32, 0, presets) as usize,
            3 => {
                // Whole minutes, in quarter minutes below two.
                let step = if self.custom_seconds < 120 { 15 } else { 60 };
                let next = i64::from(self.custom_seconds) + i64::from(delta) * step;
                let next = if step == 60 { next - next % 60 } else { next };
                self.custom_seconds = next.clamp(15, 3 * 3600) as u32;
            }
            4 => self.custom_increment = bump(self.custom_increment, 0, 60),
            5 => {
                let choices = self.start_choices();
                let at = choices.iter().position(|&c| c == self.start).unwrap_or(0);
                let next = (at as i64 + i64::from(delta)).clamp(0, choices.len() as i64 - 1);
                self.start = choices[next as usize];
            }
            _ => {}
        }
    }

    fn move_field(&mut self, delta: i32) {
        let mut field = self.field as i32;
        loop {
            field += delta;
            if field < 0 || field >= Self::FIELDS.len() as i32 {
                return;
            }
            if self.shows(field as usize) {
                self.field = field as usize;
                return;
            }
        }
    }

    /// Typing digits into the minutes or increment field.
    fn digit(&mut self, d: u32) {
        let edit = |value: u32, max: u32| {
            let typed = value * 10 + d;
            if typed > max { d } else { typed }
        };
        match self.field {
            3 => self.custom_seconds = edit(self.custom_seconds / 60, 180).max(1) * 60,
            4 => self.custom_increment = edit(self.custom_increment, 60),
            // A number picks that Chess960 position; a digit that would go
            // past 959 starts a new number.
            5 => {
                let typed = match self.start {
                    StartChoice::Chess960(n) => edit(u32::from(n), 959),
                    _ => d,
                };
                self.start = StartChoice::Chess960(typed as u16);
            }
            // "1" then "0" is level 10.
            1 if d == 0 && self.level == 1 => self.level = 10,
            1 if (1..=9).contains(&d) => self.level = d as u8,
            _ => {}
        }
    }
}

/// The dialog's width: the side choices' rows fit in it.
const DIALOG_WIDTH: u16 = 54;

/// The mark before the field that has the focus (readable without colour).
const FOCUS: &str = "▸";

/// The side choices on their two rows: games, then the other modes.
const SIDE_ROWS: [&[usize]; 3] = [
    &[0, 1, 2, 3],
    &[ANALYSIS_CHOICE, TEACH_CHOICE],
    &[TRAIN_CHOICE],
];

impl NewGameForm {
    /// The "Play as" rows: every choice in sight, the chosen one in brackets
    /// (readable without colour) and highlighted while the field is
    /// selected.
    fn side_rows(&self, selected: bool, theme: &Theme) -> Vec<Line<'static>> {
        SIDE_ROWS
            .iter()
            .enumerate()
            .map(|(row, choices)| {
                let label = match row {
                    0 => "Play as",
                    1 => "or open",
                    _ => "",
                };
                // The field with the focus is marked by shape, not colour
                // alone, on the row of the choice made (←→ go through
                // every row).
                let mark = if selected && choices.contains(&self.side) {
                    FOCUS
                } else {
                    " "
                };
                let mut spans = vec![Span::raw(format!("{mark}{label:<12}"))];
                for &choice in *choices {
                    let name = self.side_name(choice);
                    spans.push(if choice == self.side {
                        let style = if selected {
                            theme.highlight()
                        } else {
                            Style::default().add_modifier(Modifier::BOLD)
                        };
                        Span::styled(format!("[{name}]"), style)
                    } else {
                        Span::styled(format!(" {name} "), Style::default().fg(theme.dim))
                    });
                }
                Line::from(spans)
            })
            .collect()
    }
}

/// What a key did in the dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKey {
    /// The dialog stays (perhaps changed).
    Keep,
    Start,
    /// Esc: back to the game it interrupted, or quit when there is none.
    Back,
    Quit,
}

impl NewGameForm {
    /// A key in the dialog; `started`: a game or analysis is behind it.
    pub fn key(&mut self, key: KeyEvent, started: bool) -> FormKey {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.move_field(-1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => self.move_field(1),
            KeyCode::Left | KeyCode::Char('h') => self.step(-1),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => self.step(1),
            KeyCode::Char(c @ '0'..='9') => self.digit(c.to_digit(10).unwrap_or(0)),
            KeyCode::Backspace => {
                if self.field == 5
                    && let StartChoice::Chess960(n) = self.start
                {
                    self.start = StartChoice::Chess960(n / 10);
                }
            }
            KeyCode::Enter => return FormKey::Start,
            KeyCode::Esc if started => return FormKey::Back,
            KeyCode::Esc | KeyCode::Char('q') if !started => return FormKey::Quit,
            _ => {}
        }
        FormKey::Keep
    }

    pub fn draw(&self, frame: &mut Frame, started: bool, area: Rect, theme: &Theme) {
        let shown: Vec<usize> = (0..Self::FIELDS.len()).filter(|&f| self.shows(f)).collect();
        // The first field lists every choice (on two rows), so the analysis
        // board and teach mode are in sight, not behind four arrow presses.
        let inner = popup(
            frame,
            area,
            DIALOG_WIDTH,
            shown.len() as u16 + SIDE_ROWS.len() as u16 + 3,
            "New game",
            theme,
        );
        let mut lines = Vec::new();
        for field in shown {
            let selected = field == self.field;
            let style = if selected {
                theme.highlight()
            } else {
                Style::default()
            };
            if field == 0 {
                lines.extend(self.side_rows(selected, theme));
                continue;
            }
            let mark = if selected { FOCUS } else { " " };
            lines.push(Line::from(vec![
                Span::raw(format!("{mark}{:<12}", Self::FIELDS[field])),
                Span::styled(format!(" ‹ {} › ", self.value(field)), style),
            ]));
        }
        lines.push(Line::default());
        lines.push(Line::styled(
            if started {
                " ↑↓ choose · ←→ change · Enter start · Esc back"
            } else {
                " ↑↓ choose · ←→ change · Enter start · Esc quit"
            },
            Style::default().fg(theme.dim),
        ));
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}

#[cfg(test)]
mod tests;
