//! Play mode: a game against the engine (or two players on one board),
//! with clocks, hints, takebacks, draw offers and resignation. Its state
//! is the game in `Shared`; this file is what the mode does with it.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use shakmaty::{Chess, Color, Move, Position, Square};

use crate::config::TimeControl;
use crate::engine::draw_offer::accepts_draw;
use crate::engine::level::Level;
use crate::engine::{Bound, Limits, MoveSource, Report};
use crate::game::archive::{game_headers, save_in_games};
use crate::game::notation::san_line;
use crate::game::pgn::{Headers, write_pgn};
use crate::game::{Game, GameEnd};
use crate::tui::clock::Clock;
use crate::tui::engine_line::{EngineLine, Played, Thinking};
use crate::tui::overlays::new_game::NewGameForm;
use crate::tui::overlays::{Confirm, Overlay};
use crate::tui::save::{Players, SavedGame, write_autosave};
use crate::tui::shared::{Purpose, Shared, Tone};
use crate::tui::tasks::Request;

use crate::tui::layout::panels::{self, Panel, Slot};

/// An untimed game gives the engine this long a move (lower levels stop
/// sooner at their own depth or node cap).
const UNTIMED_MOVETIME: Duration = Duration::from_secs(3);
/// How long the engine thinks about a hint for the player.
const HINT_MOVETIME: Duration = Duration::from_millis(1500);

/// The keys of a game, for the help.
pub const HELP: &[(&str, &str)] = &[
    ("arrows, h j k l", "move the cursor"),
    ("Enter, Space", "pick up a piece / put it down"),
    ("mouse", "click a piece then a square, or drag it"),
    (
        ": or /",
        "type a move (Nf3, exd5, O-O, e8=Q, g1f3); Tab completes",
    ),
    ("u", "take back your last move"),
    ("i", "hint: the engine's suggestion, shown on the board"),
    ("d", "offer a draw"),
    ("r", "resign"),
    ("n", "new game"),
    ("s", "save the game as PGN"),
    ("f", "flip the board"),
    ("e", "show or hide the engine panel"),
    (
        "S, :stats",
        "search statistics: nodes per depth, cutoffs, TT hits",
    ),
    (
        "",
        "branching factor: N(d)/N(d-1), and root = (all nodes)^(1/d)",
    ),
    (
        "m M #, :map wn",
        "move-table map: table, importance/best, numbers; :map off",
    ),
    (
        "Tab; PgUp PgDn",
        "next side panel where not all fit; scroll the tablebase",
    ),
    ("Esc", "cancel a selection or a dialog"),
    ("?, D", "this help; the position in words (:describe)"),
    ("q, Ctrl-C", "quit (the game is autosaved)"),
    ("o, g", "open a PGN file; the games of the open file"),
    (
        "T, :teach",
        "step through the engine's search of this position",
    ),
    (":analyse", "take the finished game to the analysis board"),
];

/// The key line under the board, longest first: the first that fits the
/// width is shown (a compact terminal skips the first, to name Tab).
pub const KEY_LINES: [&str; 5] = [
    " arrows/mouse/: move · u takeback · i hint · d draw · m map · q quit · ? help",
    " : move · u takeback · i hint · d draw · m map · Tab panels · q quit · ? help",
    " : move · u takeback · Tab panels · ? help",
    // Where Tab has nothing to switch.
    " : move · u takeback · i hint · d draw · m map · q quit · ? help",
    " : move · u takeback · ? help",
];

/// The key line once the game is over: the game-over dialog's next steps.
/// A game lost on time cannot be taken back, so `u` is not offered then.
pub fn game_over_key_line(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Time { .. } => " n new game · s save · a analyse · ? help · q quit",
        _ => " n new game · s save · u takeback · a analyse · ? help · q quit",
    }
}

/// The panels beside the board, top to bottom, and how high each is for
/// the room left below it.
pub fn panels(cx: &Shared) -> Vec<Slot> {
    let show_engine = matches!(cx.players, Players::VsEngine { .. });
    // The tablebase panel's list: the verdict, then every move.
    let tablebase_rows = match spoilers_shown(cx) {
        true => cx.tablebase_view().map_or(0, |(_, moves)| moves.len() + 1),
        false => 0,
    };
    let book_moves = match spoilers_shown(cx) {
        true => cx.book_moves().len(),
        false => 0,
    };
    let mut slots = vec![
        // The players' rows and a blank row under them.
        Slot::new(Panel::Players, |_| Some(6)),
        Slot::new(Panel::Engine, move |room| {
            (show_engine && room >= 6).then(|| 5.min(room / 2).max(4))
        }),
    ];
    if panels::compact(cx.size) {
        // One optional panel at a time; the move list keeps 4 rows.
        slots.extend(panels::tabbed(
            &cx.side,
            &extras(cx),
            4,
            |panel, keep| match panel {
                Panel::Stats => {
                    panels::stats_slots(cx.stats.as_deref(), cx.stats_shown(false), cx.size.0, keep)
                        .into()
                }
                Panel::Tablebase => vec![Slot::new(Panel::Tablebase, move |room| {
                    panels::list_height(tablebase_rows, room, keep, 3)
                })],
                Panel::Book => vec![Slot::new(Panel::Book, move |room| {
                    panels::list_height(book_moves, room, keep, 2)
                })],
                _ => Vec::new(),
            },
        ));
    } else {
        // The move list keeps at least 4 rows below the statistics.
        let [stats_full, stats_line] =
            panels::stats_slots(cx.stats.as_deref(), cx.stats_shown(false), cx.size.0, 4);
        slots.extend([
            stats_full,
            stats_line,
            Slot::new(Panel::Tablebase, move |room| {
                panels::list_height(tablebase_rows, room / 2, 0, 3)
            }),
            Slot::new(Panel::Book, move |room| {
                panels::list_height(book_moves.min(4), room / 2, 0, 2)
            }),
        ]);
    }
    slots.push(Slot::new(Panel::MoveList, |room| {
        (room >= 3).then_some(room)
    }));
    slots
}

/// Whether the panels that suggest moves (book, tablebase) may show: `e`
/// hides the engine's thinking for spoiler-free play, and a book or table
/// move list would give the same moves away.
fn spoilers_shown(cx: &Shared) -> bool {
    cx.engine_panel
}

/// The optional panels of a game that have something to show, in the
/// order Tab visits them.
pub fn extras(cx: &Shared) -> Vec<Panel> {
    let mut panels = Vec::new();
    if spoilers_shown(cx) && cx.tablebase_view().is_some() {
        panels.push(Panel::Tablebase);
    }
    if spoilers_shown(cx) && !cx.book_moves().is_empty() {
        panels.push(Panel::Book);
    }
    if cx.stats_shown(false) && cx.stats.is_some() {
        panels.push(Panel::Stats);
    }
    panels
}

/// The keys only a game has; false for the keys it leaves to the board.
pub fn key(cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
    match key.code {
        KeyCode::Char('u') => cx.takeback(now),
        KeyCode::Char('i') => cx.ask_hint(now),
        KeyCode::Char('d') => cx.offer_draw(now),
        KeyCode::Char('r') if cx.end.is_none() && cx.started => {
            cx.overlay = Overlay::Confirm(Confirm::Resign);
        }
        KeyCode::Char('n') => {
            cx.overlay = if cx.game_in_progress() {
                Overlay::Confirm(Confirm::Abandon)
            } else {
                Overlay::NewGame(NewGameForm::new(&cx.settings, None))
            };
        }
        KeyCode::Char('s') => cx.save_pgn(now),
        KeyCode::Char('q') => cx.overlay = Overlay::Confirm(Confirm::Quit),
        _ => return false,
    }
    true
}

/// Words of the command line that only a game has; false for the others.
pub fn command(cx: &mut Shared, typed: &str, now: Instant) -> bool {
    match typed {
        "undo" | "takeback" => cx.takeback(now),
        "hint" => cx.ask_hint(now),
        "draw" => cx.offer_draw(now),
        "resign" if cx.end.is_none() && cx.started => {
            cx.overlay = Overlay::Confirm(Confirm::Resign);
        }
        "resign" => {}
        "save" => cx.save_pgn(now),
        "copy" | "pgn" => cx.copy_pgn(),
        _ => return false,
    }
    true
}

impl Shared {
    /// Start the game the new-game dialog describes.
    pub fn start_game(&mut self, form: &NewGameForm, now: Instant) {
        self.stop_search();
        let players = match form.side {
            3 => Players::TwoHumans,
            side => {
                let human = match side {
                    0 => Color::White,
                    1 => Color::Black,
                    _ if self.rng.next_u64() & 1 == 0 => Color::White,
                    _ => Color::Black,
                };
                Players::VsEngine {
                    human,
                    level: Level::new(form.level).unwrap_or_default(),
                }
            }
        };
        let start = match (&form.fen_start, form.use_fen) {
            (Some(position), true) => position.clone(),
            _ => Chess::default(),
        };
        self.begin(Game::new(start), players, form.time_control(), None, now);
        self.say(
            format!(
                "New game: {} vs {}, {}",
                self.players.name(Color::White),
                self.players.name(Color::Black),
                self.time_control
            ),
            Tone::Info,
        );
    }

    /// Back from a dialog to the game it interrupted.
    pub fn continue_game(&mut self, now: Instant) {
        if self.end.is_some() {
            return;
        }
        if let Some(clock) = &mut self.clock
            && !self.game.is_empty()
        {
            clock.start(self.game.position().turn(), now);
        }
        self.engine_turn(now);
    }

    pub fn tick(&mut self, now: Instant) {
        if self.end.is_some() {
            return;
        }
        if let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            let end = self.game.flag(loser);
            self.finish(end, now);
            return;
        }
        let texts = self.clock_texts(now);
        if texts != self.shown_clocks {
            self.shown_clocks = texts;
            self.dirty = true;
        }
    }

    pub fn begin(
        &mut self,
        game: Game,
        players: Players,
        time_control: TimeControl,
        times: Option<(Duration, Duration)>,
        now: Instant,
    ) {
        self.new_engine_game();
        self.game = game;
        self.players = players;
        self.time_control = time_control;
        self.clock = match time_control {
            TimeControl::Untimed => None,
            TimeControl::Fischer { base, increment } => Some(match times {
                Some((white, black)) => Clock::with_remaining(white, black, increment),
                None => Clock::new(base, increment),
            }),
        };
        // A resumed game's clock runs at once; a new game's starts with the
        // first move, so nobody loses time reading the board.
        if times.is_some()
            && let Some(clock) = &mut self.clock
        {
            clock.start(self.game.position().turn(), now);
        }
        self.fresh_board();
        self.flipped = matches!(
            players,
            Players::VsEngine {
                human: Color::Black,
                ..
            }
        );
        let turn = self.game.position().turn();
        self.cursor = if turn.is_white() {
            Square::E2
        } else {
            Square::E7
        };
        self.shown_clocks = self.clock_texts(now);
        self.dirty = true;
        self.after_move(now);
    }

    /// The position changed: the rules may end the game; otherwise the
    /// engine may be to move, and the game is autosaved.
    pub fn after_move(&mut self, now: Instant) {
        if let Some(end) = self.game.rules_end() {
            self.finish(end, now);
            return;
        }
        self.engine_turn(now);
        self.autosave(now);
    }

    pub fn finish(&mut self, end: GameEnd, now: Instant) {
        self.end = Some(end);
        self.stop_search();
        if let Some(clock) = &mut self.clock {
            clock.pause(now);
        }
        self.selected = None;
        self.overlay = Overlay::GameOver;
        self.say(end.describe(), Tone::Info);
        self.autosave(now);
        self.dirty = true;
    }

    /// Play `m` for the side to move (already known legal or refused here).
    pub fn play_move(&mut self, m: Move, now: Instant) {
        // A flag that fell before this move arrived decides the game, even
        // if the tick that would have noticed it has not come yet.
        if let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            let end = self.game.flag(loser);
            self.finish(end, now);
            return;
        }
        if self.hint_pending() {
            self.stop_search();
        }
        let mover = self.game.position().turn();
        if !self.game.play(m) {
            self.say("That move is not legal here.", Tone::Error);
            return;
        }
        if let Some(clock) = &mut self.clock {
            if clock.running() == Some(mover) {
                clock.moved(mover, now);
            } else {
                clock.start(!mover, now);
            }
        }
        self.selected = None;
        self.hint = None;
        // A player's move answers whatever the status line said ("New game:
        // ...", a hint, a refused move); the engine's moves leave it for the
        // player to read.
        if !self.players.engine_plays(mover) {
            self.message = None;
        }
        self.dirty = true;
        self.after_move(now);
    }

    /// If the engine is to move, start its search.
    pub fn engine_turn(&mut self, now: Instant) {
        let turn = self.game.position().turn();
        let Players::VsEngine { level, .. } = self.players else {
            return;
        };
        if self.end.is_some() || !self.players.engine_plays(turn) {
            return;
        }
        let limits = match &self.clock {
            Some(clock) => Limits {
                white_time: Some(clock.remaining(Color::White, now)),
                black_time: Some(clock.remaining(Color::Black, now)),
                white_increment: Some(clock.increment()),
                black_increment: Some(clock.increment()),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(UNTIMED_MOVETIME),
                ..Limits::default()
            },
        };
        self.go(limits, level, Purpose::EngineMove, now);
        self.thinking = None;
    }

    pub fn game_report(&mut self, report: Report, now: Instant) {
        let Some((id, purpose)) = self.search else {
            return;
        };
        // Reports of a search that was stopped or replaced are stale.
        if report.search_id() != id {
            return;
        }
        match report {
            // A finished iteration's exact line replaces the one shown.
            Report::Info(info)
                if purpose == Purpose::EngineMove
                    && info.multipv == 1
                    && info.complete
                    && info.bound == Bound::Exact =>
            {
                self.thinking = Some(Thinking {
                    line: EngineLine::from_info(self.game.position(), &info),
                    live: true,
                    played: None,
                });
                self.dirty = true;
            }
            // Heartbeats and aspiration failures only bring fresh counts:
            // the line stays the last one the search proved.
            Report::Info(info) if purpose == Purpose::EngineMove => {
                if let Some(thinking) = &mut self.thinking {
                    thinking.line.nodes = info.nodes;
                    thinking.line.nps = info.nps;
                    thinking.line.elapsed = info.elapsed;
                    self.dirty = true;
                }
            }
            Report::Stats { stats, tables, .. } => {
                // The tables are the engine's, whichever search taught them
                // (a hint's too); the statistics are those of its own move.
                self.engine_tables = Some(tables);
                if purpose == Purpose::EngineMove {
                    self.stats = Some(stats);
                }
                self.dirty = true;
            }
            Report::BestMove {
                best_move,
                score,
                source,
                ..
            } => {
                self.search = None;
                self.dirty = true;
                match (purpose, best_move) {
                    (Purpose::EngineMove, Some(m)) => {
                        let san = san_line(self.game.position(), &[m]).join("");
                        self.engine_source = Some((san.clone(), source));
                        // A book move has no score: keep the last searched one.
                        if !matches!(source, MoveSource::Book { .. }) {
                            self.engine_score = Some(score);
                        }
                        if let Some(thinking) = &mut self.thinking {
                            thinking.live = false;
                            let turn = self.game.position().turn();
                            thinking.played =
                                matches!(source, MoveSource::Search).then(|| Played {
                                    san: san.clone(),
                                    score: score.for_white(turn),
                                    level: match self.players {
                                        Players::VsEngine { level, .. }
                                            if !level.is_full_strength() =>
                                        {
                                            Some(level.get())
                                        }
                                        _ => None,
                                    },
                                });
                        }
                        self.play_move(m, now);
                    }
                    (Purpose::Hint, Some(m)) => {
                        let san = san_line(self.game.position(), &[m]).join("");
                        let side = self.game.position().turn();
                        self.say(
                            format!(
                                "Hint: {san} ({})",
                                crate::text::score_text_white(score, side)
                            ),
                            Tone::Info,
                        );
                        self.hint = Some(m);
                    }
                    (_, None) => {}
                }
            }
            Report::Info(_) | Report::Pong(_) => {}
        }
    }

    pub fn takeback(&mut self, now: Instant) {
        if self.game.is_empty() || !self.started {
            self.say("Nothing to take back.", Tone::Info);
            return;
        }
        if let Some(GameEnd::Time { .. }) = self.end {
            self.say("The game was decided on time; no takeback.", Tone::Error);
            return;
        }
        self.stop_search();
        self.end = None;
        let mut plies = 0;
        match self.players {
            Players::TwoHumans => {
                self.game.undo();
                plies = 1;
            }
            Players::VsEngine { human, .. } => {
                // Undo the engine's reply (if it came) and the player's move.
                while self.game.undo().is_some() {
                    plies += 1;
                    if self.game.position().turn() == human {
                        break;
                    }
                }
            }
        }
        // The side to move thinks on its own time again (also after a
        // finished game, whose clock was stopped); back at the start, the
        // first move is free as in a new game.
        if let Some(clock) = &mut self.clock {
            if self.game.is_empty() {
                clock.pause(now);
            } else {
                clock.start(self.game.position().turn(), now);
            }
        }
        self.selected = None;
        self.hint = None;
        self.thinking = None;
        self.engine_source = None;
        self.engine_score = None;
        self.overlay = Overlay::None;
        let text = match (plies, self.players) {
            (2, Players::VsEngine { .. }) => "Took back your move and kibitz's reply.".to_string(),
            (plies, _) => format!(
                "Took back {}.",
                crate::core::counted(plies as u64, "move", "moves")
            ),
        };
        self.say(text, Tone::Info);
        self.engine_turn(now);
        self.autosave(now);
    }

    pub fn ask_hint(&mut self, now: Instant) {
        if !self.game_human_to_move() {
            self.say("A hint is for your own move.", Tone::Info);
            return;
        }
        if self.search.is_some() {
            return;
        }
        let limits = Limits {
            movetime: Some(HINT_MOVETIME),
            ..Limits::default()
        };
        self.go(limits, Level::default(), Purpose::Hint, now);
        self.say("Looking for a hint...", Tone::Info);
    }

    pub fn offer_draw(&mut self, now: Instant) {
        if self.end.is_some() || !self.started {
            return;
        }
        match self.players {
            Players::TwoHumans => self.overlay = Overlay::Confirm(Confirm::DrawOffer),
            Players::VsEngine { .. } => {
                if accepts_draw(self.engine_score, self.game.len()) {
                    self.finish(GameEnd::Agreement, now);
                    self.say("kibitz accepts the draw.", Tone::Info);
                } else {
                    self.say("kibitz declines the draw and plays on.", Tone::Info);
                }
            }
        }
    }

    pub fn headers(&self) -> Headers {
        game_headers(
            &self.players.name(Color::White),
            &self.players.name(Color::Black),
            &self.date,
            self.end,
            &self.time_control.pgn(),
        )
    }

    /// The game so far as PGN, to the clipboard (as the analysis board's
    /// `:copy` does).
    pub fn copy_pgn(&mut self) {
        let text = self.game_pgn();
        self.requests.push(Request::Clipboard(text));
        self.say(
            "PGN of the game so far copied (if the terminal allows).",
            Tone::Info,
        );
    }

    /// The game as `s` writes it.
    pub fn game_pgn(&self) -> String {
        let result = self.end.map_or("*", GameEnd::result);
        write_pgn(&self.game, &self.headers(), result)
    }

    /// The game as it stands has been saved (`s`), so taking it to the
    /// analysis board leaves nothing unsaved.
    pub fn game_saved(&self) -> bool {
        self.saved_game
            .as_ref()
            .is_some_and(|saved| *saved == self.game_pgn())
    }

    pub fn save_pgn(&mut self, _now: Instant) {
        if !self.started {
            return;
        }
        let Some(dirs) = &self.dirs else {
            self.say("No data directory: nothing can be saved.", Tone::Error);
            return;
        };
        let text = self.game_pgn();
        match save_in_games(&dirs.data, "kibitz", &text) {
            Ok(path) => {
                self.say(format!("Saved {}", path.display()), Tone::Info);
                self.saved_game = Some(text);
            }
            Err(e) => self.say(
                format!("Cannot save {}: {}", e.path.display(), e.source),
                Tone::Error,
            ),
        }
    }

    pub fn autosave(&mut self, now: Instant) {
        let Some(dirs) = &self.dirs else {
            return;
        };
        let times = match &self.clock {
            Some(clock) => (
                clock.remaining(Color::White, now),
                clock.remaining(Color::Black, now),
            ),
            None => (Duration::ZERO, Duration::ZERO),
        };
        let saved = SavedGame::new(
            &self.game,
            self.players,
            self.time_control,
            times,
            self.end.is_some(),
        );
        if let Err(e) = write_autosave(&dirs.data, &saved) {
            self.say(format!("Autosave failed: {e}"), Tone::Error);
        }
    }
}
