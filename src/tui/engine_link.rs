//! The one way the board searches. A mode asks the engine for a search with
//! [`EngineLink::go`] and gets its id; the app hands the mode only the
//! reports that [`EngineLink::accept`] lets through, so a report of a search
//! that was stopped or replaced never reaches anyone. The searches that run
//! beside the engine thread, because they need a table or a tracer of their
//! own (teach mode's recording and comparison, the game review), start with
//! [`EngineLink::start`]: they take their ids from the same counter, answer
//! with them, and stop with [`EngineLink::cancel`] as an engine search does.
//!
//! The link only collects commands and requests: the event loop carries them
//! out (tests read them with `take_commands` and `take_requests`), so the
//! board can be driven without a thread.

use std::time::Instant;

use shakmaty::Chess;

use crate::engine::level::Level;
use crate::engine::{Command, GoRequest, Limits, Report, SearchOptions};

use super::tasks::Request;

/// The id of a search, unique for the session.
pub type SearchId = u64;

/// A search a mode asks for: what to search and how.
pub struct Search {
    pub position: Chess,
    /// Keys of the positions before `position`, for repetitions.
    pub history: Vec<u64>,
    pub limits: Limits,
    pub options: SearchOptions,
    pub level: Level,
    /// May the engine answer from its opening book?
    pub book: bool,
}

#[derive(Debug, Default)]
pub struct EngineLink {
    outbox: Vec<Command>,
    /// Searches beside the engine to start or stop.
    background: Vec<Request>,
    last_id: SearchId,
    /// The engine search whose reports are wanted.
    current: Option<SearchId>,
}

impl EngineLink {
    /// Start `search` (the engine drops the one before); returns its id.
    pub fn go(&mut self, search: Search, now: Instant) -> SearchId {
        let id = self.new_id();
        self.current = Some(id);
        self.outbox.push(Command::Go(Box::new(GoRequest {
            search_id: id,
            position: search.position,
            history: search.history,
            limits: search.limits,
            options: search.options,
            level: search.level,
            book: search.book,
            received: now,
        })));
        id
    }

    /// Whether `report` answers the running search (or the one that just
    /// finished with this `BestMove`). A final `BestMove` ends the search.
    pub fn accept(&mut self, report: &Report) -> bool {
        let wanted = self.current == Some(report.search_id());
        if wanted && matches!(report, Report::BestMove { .. }) {
            self.current = None;
        }
        wanted
    }

    /// Stop the running search, if there is one; its last reports are then
    /// stale. Returns whether one was running.
    pub fn stop(&mut self) -> bool {
        let running = self.current.take().is_some();
        if running {
            self.outbox.push(Command::Stop);
        }
        running
    }

    /// Whether a search of the engine runs for the board.
    pub fn searching(&self) -> bool {
        self.current.is_some()
    }

    /// Start a search beside the engine (a recording, a comparison, a
    /// review): `request` is made with its id, which its answers carry; the
    /// mode that asked drops answers with any other.
    pub fn start(&mut self, request: impl FnOnce(SearchId) -> Request) -> SearchId {
        let id = self.new_id();
        self.background.push(request(id));
        id
    }

    /// Stop search `id`, the engine's or one beside it, if it still runs.
    pub fn cancel(&mut self, id: SearchId) {
        if self.current == Some(id) {
            self.stop();
        } else {
            self.background.push(Request::Cancel(id));
        }
    }

    fn new_id(&mut self) -> SearchId {
        self.last_id += 1;
        self.last_id
    }

    /// Any other command: a new game, the book, the tables.
    pub fn send(&mut self, command: Command) {
        self.outbox.push(command);
    }

    /// The commands collected since the last call, for the event loop.
    pub fn take_commands(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.outbox)
    }

    /// The searches beside the engine to start or stop, for the event loop.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.background)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search() -> Search {
        Search {
            position: Chess::default(),
            history: Vec::new(),
            limits: Limits::default(),
            options: SearchOptions::default(),
            level: Level::default(),
            book: false,
        }
    }

    fn best(search_id: SearchId) -> Report {
        Report::BestMove {
            search_id,
            best_move: None,
            ponder: None,
            score: crate::engine::Score::Centipawns(0),
            bound: crate::engine::Bound::Exact,
            depth: 1,
            nodes: 1,
            source: crate::engine::MoveSource::Search,
        }
    }

    #[test]
    fn only_the_running_search_is_heard_and_its_best_move_ends_it() {
        let mut link = EngineLink::default();
        let now = Instant::now();
        let first = link.go(search(), now);
        let second = link.go(search(), now);
        assert_ne!(first, second);
        assert!(!link.accept(&best(first)), "a replaced search is stale");
        assert!(link.accept(&best(second)));
        assert!(!link.searching());
        assert!(!link.accept(&best(second)), "heard once");
        let third = link.go(search(), now);
        assert!(link.stop());
        assert!(!link.accept(&best(third)), "a stopped search is stale");
        assert!(!link.stop(), "nothing left to stop");
        let commands = link.take_commands();
        assert_eq!(commands.len(), 4, "three searches and one stop");
        assert!(matches!(commands[3], Command::Stop));
        let beside = link.start(|id| Request::Cancel(id + 1000));
        assert!(
            beside > third,
            "ids of searches beside the engine never repeat"
        );
        link.cancel(beside);
        let requests = link.take_requests();
        assert!(matches!(requests[..], [Request::Cancel(_), Request::Cancel(id)] if id == beside));
        assert!(
            link.take_commands().is_empty(),
            "the engine is not stopped for it"
        );
    }
}
