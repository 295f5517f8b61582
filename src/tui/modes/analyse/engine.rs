//! The analysis board's engine: its lines of the position on the board,
//! restarted at every move, stopped at the analysis limit (`a` goes on),
//! and the threat (`t`: the turn passed, the other side's best reply).

use std::time::{Duration, Instant};

use shakmaty::Position;

use crate::config::AnalysisLimit;
use crate::engine::level::Level;
use crate::engine::{Limits, Report, SearchOptions};
use crate::tui::engine_link::{Search, SearchId};
use crate::tui::shared::{Shared, Tone};

use super::Analysis;

/// The threat in a position: what the side not to move would play if it
/// were its turn (the turn passed, as a null move does), searched for a
/// second a press.
#[derive(Debug, Clone, PartialEq)]
pub struct Threat {
    /// The position with the turn passed.
    pub position: shakmaty::Chess,
    /// Presses so far: each searches a second longer.
    pub presses: u32,
    /// The search for it, while it runs.
    pub search: Option<SearchId>,
    /// Its best line, once found.
    pub line: Option<crate::tui::engine_line::EngineLine>,
}

/// `position` with the turn passed to the other side (a null move): no en
/// passant, and after Black passes the move number goes on, so the threat
/// reads as the move it would be ("4.Qxf7#" after 3...).
fn pass_turn(position: &shakmaty::Chess) -> Option<shakmaty::Chess> {
    let mut setup = position.to_setup(shakmaty::EnPassantMode::Legal);
    if setup.turn.is_black() {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.turn = !setup.turn;
    setup.ep_square = None;
    <shakmaty::Chess as shakmaty::FromSetup>::from_setup(setup, position.castles().mode()).ok()
}

impl Analysis {
    /// `t`: what the side not to move would play if it were its turn. The
    /// turn is passed (a null move) and the engine searches that position
    /// for a second (each press on the same position: a second longer),
    /// then the analysis goes on. The threat shows as a line of the engine
    /// panel and on the board.
    pub fn ask_threat(&mut self, cx: &mut Shared, now: Instant) {
        let position = cx.board.game.position().clone();
        if position.is_check() {
            cx.say(
                "In check: the threat is the check itself (a turn cannot be passed).",
                Tone::Info,
            );
            return;
        }
        let Some(passed) = pass_turn(&position) else {
            cx.say("The turn cannot be passed here.", Tone::Info);
            return;
        };
        if passed.legal_moves().is_empty() {
            cx.say("The other side would have no move: no threat.", Tone::Info);
            return;
        }
        let presses = match &self.threat {
            Some(t) if t.position == passed => t.presses + 1,
            _ => 1,
        };
        if self.search.take().is_some() {
            cx.engine.stop();
        }
        let search = Search {
            position: passed.clone(),
            history: Vec::new(),
            limits: Limits {
                movetime: Some(Duration::from_secs(u64::from(presses))),
                ..Limits::default()
            },
            options: cx.services.search_options(),
            level: Level::default(),
            book: false,
        };
        let id = cx.engine.go(search, now);
        let side = if passed.turn().is_white() { "White" } else { "Black" };
        cx.say(
            format!("Looking for {side}'s threat ({presses} s)..."),
            Tone::Info,
        );
        self.threat = Some(Threat {
            position: passed,
            presses,
            search: Some(id),
            line: None,
        });
    }

    /// Ask the engine for the position on the board (or stop it when the
    /// analysis is off). Reports of the previous position carry an older
    /// search id and are dropped when they arrive.
    pub fn restart_analysis(&mut self, cx: &mut Shared, now: Instant) {
        let analysis = &mut *self;
        analysis.lines.clear();
        analysis.first_line = None;
        analysis.stopped = None;
        let position = cx.board.game.position();
        let playable = !position.legal_moves().is_empty();
        if !analysis.engine_on || !playable {
            cx.stats = None;
            if analysis.search.take().is_some() {
                cx.engine.stop();
            }
            return;
        }
        analysis.asked_at = Some(now);
        analysis.running_limit = if analysis.going_on {
            AnalysisLimit::None
        } else {
            cx.services.settings.analysis_limit
        };
        // The statistics shown are always those of the position on the board.
        cx.stats = None;
        let search = Search {
            position: position.clone(),
            history: cx.board.game.history_keys(),
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            options: SearchOptions {
                multipv: analysis.multipv,
                ..cx.services.search_options()
            },
            level: Level::default(),
            book: false,
        };
        analysis.search = Some(cx.engine.go(search, now));
    }

    /// A report of the running analysis (the engine link dropped the
    /// reports of the positions before).
    pub fn engine_report(&mut self, cx: &mut Shared, report: Report, now: Instant) {
        // The threat's search: its lines fill the threat, its end brings
        // the analysis back.
        if let Some(threat) = &mut self.threat
            && threat.search == Some(report.search_id())
        {
            match report {
                Report::Info(info) if info.complete && info.bound == crate::engine::Bound::Exact && info.multipv == 1 => {
                    threat.line = Some(crate::tui::engine_line::EngineLine::from_info(
                        &threat.position,
                        &info,
                    ));
                }
                Report::BestMove { .. } => {
                    threat.search = None;
                    let text = match &threat.line {
                        Some(line) => format!(
                            "Threat: {} ({}); t again searches it longer.",
                            line.san.first().cloned().unwrap_or_default(),
                            crate::text::score_text(line.score)
                        ),
                        None => "No threat found.".to_string(),
                    };
                    cx.say(text, Tone::Info);
                    self.restart_analysis(cx, now);
                }
                _ => {}
            }
            return;
        }
        let position = cx.board.game.position().clone();
        let analysis = &mut *self;
        match report {
            Report::Info(info) => {
                let tables = cx.services.tablebases.as_deref();
                let changed = analysis
                    .lines
                    .accept(&position, analysis.multipv, &info, tables);
                if changed
                    && analysis.first_line.is_none()
                    && let Some(asked) = analysis.asked_at
                {
                    analysis.first_line = Some(now.saturating_duration_since(asked));
                }
                if let AnalysisLimit::Depth(depth) = self.running_limit
                    && self.lines.shown.first().is_some_and(|l| l.depth >= depth)
                {
                    self.stop_at_limit(cx);
                }
            }
            Report::Stats { stats, tables, .. } => {
                cx.stats = Some(stats);
                cx.engine_tables = Some(tables);
            }
            Report::BestMove { .. } => analysis.search = None,
            Report::Pong(_) => {}
        }
    }

    /// Whether the running analysis has a time limit to watch (the clock's
    /// ticks check it).
    pub fn timed(&self) -> bool {
        self.search.is_some()
            && self.threat.as_ref().is_none_or(|t| t.search.is_none())
            && matches!(self.running_limit, AnalysisLimit::Seconds(_))
    }

    /// The clock ticked: stop the analysis once its time is up. True when
    /// it stopped (the screen changed).
    pub fn check_time(&mut self, cx: &mut Shared, now: Instant) -> bool {
        let AnalysisLimit::Seconds(seconds) = self.running_limit else {
            return false;
        };
        let due = self.asked_at.is_some_and(|asked| {
            now.saturating_duration_since(asked) >= Duration::from_secs(u64::from(seconds))
        });
        if self.timed() && due {
            self.stop_at_limit(cx);
            return true;
        }
        false
    }

    /// The analysis reached its limit: the engine stops, the lines stay,
    /// and the panel says so (`a` goes on).
    fn stop_at_limit(&mut self, cx: &mut Shared) {
        if self.search.take().is_some() {
            cx.engine.stop();
        }
        self.stopped = Some(self.lines.shown.first().map_or(0, |l| l.depth));
    }

    /// `a`: past the limit the analysis goes on without one; else the
    /// analysis goes on or off.
    pub fn toggle_engine(&mut self, cx: &mut Shared, now: Instant) {
        if self.engine_on && self.stopped.is_some() {
            self.going_on = true;
            cx.say("Analysis goes on without a limit (a stops it).", Tone::Info);
        } else {
            self.engine_on = !self.engine_on;
            let state = if self.engine_on { "on" } else { "off" };
            cx.say(format!("Analysis {state}."), Tone::Info);
        }
        self.restart_analysis(cx, now);
    }
}
