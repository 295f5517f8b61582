//! A game's course: starting and resuming, moves and the engine's replies,
//! the clocks, the end, takebacks, hints, draw offers, saving.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Move, Position, Square};

use crate::config::TimeControl;
use crate::engine::draw_offer::accepts_draw;
use crate::engine::level::Level;
use crate::engine::{Bound, Limits, MoveSource, Report};
use crate::game::notation::san_line;
use crate::game::{Game, GameEnd};
use crate::tui::clock::{Clock, format_clock};
use crate::tui::engine_line::{EngineLine, Played, Thinking};
use crate::tui::engine_link::Search;
use crate::tui::overlays::new_game::NewGameForm;
use crate::tui::overlays::{Confirm, Overlay};
use crate::tui::save::Players;
use crate::tui::shared::{Shared, Tone};
use crate::tui::tasks::Request;

use super::{HINT_MOVETIME, Play, Purpose, UNTIMED_MOVETIME};

impl Play {
    /// Start the game the new-game dialog describes, from `start` (the
    /// dialog's start position, a random Chess960 one already picked).
    pub fn start_game(&mut self, cx: &mut Shared, form: &NewGameForm, start: Chess, now: Instant) {
        self.stop_search(cx);
        if let Some(choices) = form.choices() {
            cx.services.remember_new_game(choices);
        }
        let players = match form.side {
            3 => Players::TwoHumans,
            side => {
                let human = match side {
                    0 => Color::White,
                    1 => Color::Black,
                    _ if cx.services.rng.next_u64() & 1 == 0 => Color::White,
                    _ => Color::Black,
                };
                Players::VsEngine {
                    human,
                    level: Level::new(form.level).unwrap_or_default(),
                }
            }
        };
        let variant = if crate::game::chess960::is_chess960(&start) {
            match crate::game::chess960::number_of(&start) {
                Some(number) => format!(", Chess960 no. {number}"),
                None => ", Chess960".to_string(),
            }
        } else {
            String::new()
        };
        self.begin(cx, Game::new(start), players, form.time_control(), None, now);
        cx.say(
            format!(
                "New game: {} vs {}, {}{variant}",
                self.players.name(Color::White),
                self.players.name(Color::Black),
                self.time_control
            ),
            Tone::Info,
        );
    }

    /// Back from a dialog to the game it interrupted.
    pub fn continue_game(&mut self, cx: &mut Shared, now: Instant) {
        if self.end.is_some() {
            return;
        }
        if let Some(clock) = &mut self.clock
            && !cx.board.game.is_empty()
        {
            clock.start(cx.board.game.position().turn(), now);
        }
        self.engine_turn(cx, now);
    }

    /// The clock ticked: a flag may fall; true when the clocks shown change.
    pub fn clock_tick(&mut self, cx: &mut Shared, now: Instant) -> bool {
        if self.end.is_some() {
            return false;
        }
        if let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            let end = cx.board.game.flag(loser);
            self.finish(cx, end, now);
            return true;
        }
        // The player's clock falls under ten seconds: the bell, once.
        if let Players::VsEngine { human, .. } = self.players
            && !self.warned
            && self.low_time(human, now)
        {
            self.warned = true;
            if cx.services.settings.bell {
                cx.request(Request::Bell);
            }
        }
        let texts = self.clock_texts(now);
        if texts == self.shown_clocks {
            return false;
        }
        self.shown_clocks = texts;
        true
    }

    pub fn begin(
        &mut self,
        cx: &mut Shared,
        game: Game,
        players: Players,
        time_control: TimeControl,
        times: Option<(Duration, Duration)>,
        now: Instant,
    ) {
        cx.new_engine_game();
        cx.board.game = game;
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
            clock.start(cx.board.game.position().turn(), now);
        }
        cx.fresh_board();
        // Spoilers shown on request were for the last game: this one
        // starts as the config says.
        cx.spoilers_shown = cx.services.settings.spoilers_shown;
        self.end = None;
        self.hint = None;
        self.thinking = None;
        self.engine_source = None;
        self.engine_score = None;
        cx.board.flipped = matches!(
            players,
            Players::VsEngine {
                human: Color::Black,
                ..
            }
        );
        let turn = cx.board.game.position().turn();
        cx.board.cursor = if turn.is_white() {
            Square::E2
        } else {
            Square::E7
        };
        self.shown_clocks = self.clock_texts(now);
        self.after_move(cx, now);
    }

    /// The position changed: the rules may end the game; otherwise the
    /// engine may be to move, and the game is autosaved.
    pub fn after_move(&mut self, cx: &mut Shared, now: Instant) {
        if let Some(end) = cx.board.game.rules_end() {
            self.finish(cx, end, now);
            return;
        }
        self.engine_turn(cx, now);
        self.autosave(cx, now);
    }

    pub fn finish(&mut self, cx: &mut Shared, end: GameEnd, now: Instant) {
        self.end = Some(end);
        self.stop_search(cx);
        if let Some(clock) = &mut self.clock {
            clock.pause(now);
        }
        cx.board.selected = None;
        cx.overlay = Overlay::GameOver;
        cx.say(end.describe(), Tone::Info);
        self.autosave(cx, now);
    }

    /// Play `m` for the side to move (already known legal or refused here).
    pub fn play_move(&mut self, cx: &mut Shared, m: Move, now: Instant) {
        // A flag that fell before this move arrived decides the game, even
        // if the tick that would have noticed it has not come yet.
        if let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            let end = cx.board.game.flag(loser);
            self.finish(cx, end, now);
            return;
        }
        if self.hint_pending() {
            self.stop_search(cx);
        }
        let mover = cx.board.game.position().turn();
        if !cx.board.game.play(m) {
            cx.say("That move is not legal here.", Tone::Error);
            return;
        }
        if let Some(clock) = &mut self.clock {
            if clock.running() == Some(mover) {
                clock.moved(mover, now);
            } else {
                clock.start(!mover, now);
            }
        }
        // The mover's clock after the move, for the PGN.
        let left = self.clock.as_ref().map(|clock| clock.remaining(mover, now));
        self.clocks.resize(cx.board.game.len() - 1, None);
        self.clocks.push(left);
        cx.board.selected = None;
        self.hint = None;
        // A player's move answers whatever the status line said ("New game:
        // ...", a hint, a refused move); the engine's moves leave it for the
        // player to read.
        if !self.players.engine_plays(mover) {
            cx.message = None;
        }
        self.after_move(cx, now);
    }

    /// If the engine is to move, start its search.
    pub fn engine_turn(&mut self, cx: &mut Shared, now: Instant) {
        let turn = cx.board.game.position().turn();
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
                game_move: true,
                ..Limits::default()
            },
        };
        self.go(cx, limits, level, Purpose::EngineMove, now);
        self.thinking = None;
    }

    pub fn game_report(&mut self, cx: &mut Shared, report: Report, now: Instant) {
        // The engine link let through only this search's reports.
        let Some(purpose) = self.purpose else {
            return;
        };
        match report {
            // A finished iteration's exact line replaces the one shown.
            Report::Info(info)
                if purpose == Purpose::EngineMove
                    && info.multipv == 1
                    && info.complete
                    && info.bound == Bound::Exact =>
            {
                self.thinking = Some(Thinking {
                    line: EngineLine::from_info(cx.board.game.position(), &info),
                    live: true,
                    played: None,
                    cut: None,
                });
            }
            // A lower bound (a fail-high, or the last line of a search cut
            // short) is kept aside: it becomes the line shown only if the
            // search ends with its move (see `Thinking::cut`).
            Report::Info(info)
                if purpose == Purpose::EngineMove
                    && info.multipv == 1
                    && info.complete
                    && info.bound == Bound::Lower
                    && !info.pv.is_empty() =>
            {
                let line = EngineLine::from_info(cx.board.game.position(), &info);
                match &mut self.thinking {
                    Some(thinking) => {
                        thinking.line.nodes = info.nodes;
                        thinking.line.nps = info.nps;
                        thinking.line.elapsed = info.elapsed;
                        thinking.cut = Some(line);
                    }
                    // No exact line yet: the bound is all there is to show.
                    None => {
                        self.thinking = Some(Thinking {
                            line,
                            live: true,
                            played: None,
                            cut: None,
                        })
                    }
                }
            }
            // Heartbeats and fail-lows only bring fresh counts: the line
            // stays the last one the search proved.
            Report::Info(info) if purpose == Purpose::EngineMove => {
                if let Some(thinking) = &mut self.thinking {
                    thinking.line.nodes = info.nodes;
                    thinking.line.nps = info.nps;
                    thinking.line.elapsed = info.elapsed;
                }
            }
            Report::Stats { stats, tables, .. } => {
                // The tables are the engine's, whichever search taught them
                // (a hint's too); the statistics are those of its own move.
                cx.engine_tables = Some(tables);
                if purpose == Purpose::EngineMove {
                    cx.stats = Some(stats);
                }
            }
            Report::BestMove {
                best_move,
                score,
                bound,
                source,
                ..
            } => {
                self.purpose = None;
                match (purpose, best_move) {
                    (Purpose::EngineMove, Some(m)) => {
                        let san = san_line(cx.board.game.position(), &[m]).join("");
                        self.engine_source = Some((san.clone(), source));
                        // A book move has no score: keep the last searched one.
                        if !matches!(source, MoveSource::Book { .. }) {
                            self.engine_score = Some(score);
                        }
                        if let Some(thinking) = &mut self.thinking {
                            thinking.live = false;
                            if let Some(cut) = thinking.cut.take()
                                && cut.pv.first() == Some(&m)
                            {
                                thinking.line = cut;
                            }
                            let turn = cx.board.game.position().turn();
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
                        self.play_move(cx, m, now);
                    }
                    (Purpose::Hint, Some(m)) => {
                        let san = san_line(cx.board.game.position(), &[m]).join("");
                        let side = cx.board.game.position().turn();
                        cx.say(
                            format!(
                                "Hint: {san} ({}{})",
                                bound.for_white(side).mark(),
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

    pub fn takeback(&mut self, cx: &mut Shared, now: Instant) {
        if cx.board.game.is_empty() || !cx.started {
            cx.say("Nothing to take back.", Tone::Info);
            return;
        }
        if let Some(GameEnd::Time { .. }) = self.end {
            cx.say("The game was decided on time; no takeback.", Tone::Error);
            return;
        }
        self.stop_search(cx);
        self.end = None;
        let mut plies = 0;
        match self.players {
            Players::TwoHumans => {
                cx.board.game.undo();
                plies = 1;
            }
            Players::VsEngine { human, .. } => {
                // Undo the engine's reply (if it came) and the player's move.
                while cx.board.game.undo().is_some() {
                    plies += 1;
                    if cx.board.game.position().turn() == human {
                        break;
                    }
                }
            }
        }
        // The side to move thinks on its own time again (also after a
        // finished game, whose clock was stopped); back at the start, the
        // first move is free as in a new game.
        if let Some(clock) = &mut self.clock {
            if cx.board.game.is_empty() {
                clock.pause(now);
            } else {
                clock.start(cx.board.game.position().turn(), now);
            }
        }
        cx.board.selected = None;
        self.hint = None;
        self.thinking = None;
        self.engine_source = None;
        self.engine_score = None;
        cx.overlay = Overlay::None;
        let text = match (plies, self.players) {
            (2, Players::VsEngine { .. }) => "Took back your move and kibitz's reply.".to_string(),
            (plies, _) => format!(
                "Took back {}.",
                crate::core::counted(plies as u64, "move", "moves")
            ),
        };
        cx.say(text, Tone::Info);
        self.engine_turn(cx, now);
        self.autosave(cx, now);
    }

    pub fn ask_hint(&mut self, cx: &mut Shared, now: Instant) {
        if !self.human_to_move_in_game(cx) {
            cx.say("A hint is for your own move.", Tone::Info);
            return;
        }
        if self.purpose.is_some() {
            return;
        }
        let limits = Limits {
            movetime: Some(HINT_MOVETIME),
            ..Limits::default()
        };
        self.go(cx, limits, Level::default(), Purpose::Hint, now);
        cx.say("Looking for a hint...", Tone::Info);
    }

    pub fn offer_draw(&mut self, cx: &mut Shared) {
        if self.end.is_some() || !cx.started {
            return;
        }
        match self.players {
            Players::TwoHumans => cx.overlay = Overlay::Confirm(Confirm::DrawOffer),
            // A draw ends the game: the player is asked first, as for
            // resigning.
            Players::VsEngine { .. } => cx.overlay = Overlay::Confirm(Confirm::OfferDraw),
        }
    }

    /// The player confirmed the draw offer: kibitz takes it or plays on.
    pub fn engine_answers_draw(&mut self, cx: &mut Shared, now: Instant) {
        if self.end.is_some() || !cx.started {
            return;
        }
        if accepts_draw(self.engine_score, cx.board.game.len()) {
            self.finish(cx, GameEnd::Agreement, now);
            cx.say("kibitz accepts the draw.", Tone::Info);
        } else {
            cx.say("kibitz declines the draw and plays on.", Tone::Info);
        }
    }

    /// A game is on and not finished.
    pub fn game_in_progress(&self, cx: &Shared) -> bool {
        cx.started && self.end.is_none() && !cx.board.game.is_empty()
    }

    /// Whether the person at the keyboard may move now in a game.
    pub fn human_to_move_in_game(&self, cx: &Shared) -> bool {
        cx.started
            && self.end.is_none()
            && !self.players.engine_plays(cx.board.game.position().turn())
    }

    pub fn engine_thinking(&self) -> bool {
        self.purpose == Some(Purpose::EngineMove)
    }

    pub fn hint_pending(&self) -> bool {
        self.purpose == Some(Purpose::Hint)
    }

    /// The clock texts as shown (White, Black).
    pub fn clock_texts(&self, now: Instant) -> (String, String) {
        match &self.clock {
            Some(clock) => (
                format_clock(clock.remaining(Color::White, now)),
                format_clock(clock.remaining(Color::Black, now)),
            ),
            None => ("-".into(), "-".into()),
        }
    }

    /// Search the position on the board, for the engine's move or a hint.
    fn go(&mut self, cx: &mut Shared, limits: Limits, level: Level, purpose: Purpose, now: Instant) {
        self.purpose = Some(purpose);
        if purpose == Purpose::EngineMove {
            cx.stats = None;
        }
        let search = Search {
            position: cx.board.game.position().clone(),
            history: cx.board.game.history_keys(),
            limits,
            options: cx.services.search_options(),
            level,
            // A hint is the search's suggestion, not a random book pick.
            book: purpose == Purpose::EngineMove,
        };
        cx.engine.go(search, now);
    }

    /// Stop the engine's search (or the hint's); the line shown stays, no
    /// longer live.
    pub fn stop_search(&mut self, cx: &mut Shared) {
        if self.purpose.take().is_some() {
            cx.engine.stop();
        }
        if let Some(thinking) = &mut self.thinking {
            thinking.live = false;
        }
    }
}
