//! Scripted answers of the background tasks, shared by the board's tests.

use kibitz::engine::Score;
use kibitz::game::notation::parse_uci;
use kibitz::review::PositionEval;
use kibitz::tui::app::Request;
use kibitz::tui::msg::Msg;
use ratatui::crossterm::event::KeyCode;
use shakmaty::{Color, Position};

use crate::common::board::Board;

/// `R`, and the review's results as the background pass would send them:
/// White keeps a small edge until 3... Nf6?? allows mate (the engine
/// wanted 3... g6).
pub fn review_scholars_mate(h: &mut Board) {
    h.key(KeyCode::Char('R'));
    let requests = h.serve();
    let Some(Request::Review { id, tree, .. }) = requests.into_iter().next() else {
        panic!("a review request");
    };
    let scores = [30, 35, 30, 40, 20, 25];
    let positions = kibitz::review::mainline_positions(&tree);
    let mainline = tree.mainline();
    for (ply, (position, _)) in positions.iter().enumerate() {
        let played = mainline.get(ply).and_then(|&n| tree.nodes[n].m);
        let (score, pv) = match ply {
            5 => (
                Score::Centipawns(25),
                vec![parse_uci(position, "g7g6").unwrap()],
            ),
            6 => (Score::Mate(1), played.into_iter().collect()),
            7 => (Score::Centipawns(0), Vec::new()),
            _ => (Score::Centipawns(scores[ply]), played.into_iter().collect()),
        };
        let eval = PositionEval {
            score,
            pv,
            depth: 12,
            legal_moves: position.legal_moves().len(),
            mated: (ply == 7).then_some(Color::Black),
        };
        h.update(Msg::Review { id, ply, eval });
    }
    h.update(Msg::ReviewDone { id });
}
