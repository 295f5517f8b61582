//! Chess960 on the terminal board: a game by its number from the new-game
//! dialog, castling by putting the king on its rook, and Chess960 games and
//! positions on the analysis board.

use ratatui::crossterm::event::{KeyCode, MouseButton, MouseEventKind};
use shakmaty::{File, Position, Rank, Square};

use crate::common;
use crate::common::board::{Board, MessageText};

const SIZE: (u16, u16) = (120, 40);

fn click(h: &mut Board, square: Square) {
    h.mouse_on(MouseEventKind::Down(MouseButton::Left), square);
}

/// The pieces' glyphs shown on a rank, a-file first ("." for an empty square).
fn rank_glyphs(h: &Board, rank: Rank) -> String {
    File::ALL
        .iter()
        .map(|&file| {
            let text = h.square_text(Square::from_coords(file, rank));
            text.chars()
                .find(|c| "♚♛♜♝♞♟♔♕♖♗♘♙".contains(*c))
                .unwrap_or('.')
        })
        .collect()
}

fn fen(h: &Board) -> String {
    h.app.cx.board.game.fen()
}

#[test]
fn a_chess960_game_by_number_and_castling_with_the_king_onto_its_rook() {
    let mut h = Board::options(SIZE).blitz().build();
    // Two players, then the start field (the last one).
    for _ in 0..3 {
        h.key(KeyCode::Right);
    }
    for _ in 0..5 {
        h.key(KeyCode::Down);
    }
    assert!(h.row_with("Start from").contains("the standard position"));
    h.key(KeyCode::Right);
    assert!(
        h.row_with("Start from")
            .contains("Chess960, picked at random")
    );
    h.key(KeyCode::Right);
    assert!(h.row_with("Start from").contains("Chess960 no. 518"));
    // Typed over: 5181 is past 959, so the 1 starts a new number.
    h.keys("192");
    assert!(
        h.row_with("Start from").contains("Chess960 no. 192"),
        "{}",
        h.screen()
    );
    assert!(
        h.row_with("kibitz ")
            .contains("Two players · 5+3 · Chess960 no. 192")
    );
    h.key(KeyCode::Enter);
    assert!(h.message().contains("Chess960 no. 192"), "{}", h.message());
    // Number 192 is BBQNRKNR: the king on f1 between rooks on e1 and h1.
    assert_eq!(
        fen(&h),
        "bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w KQkq - 0 1"
    );
    assert_eq!(rank_glyphs(&h, Rank::First), "♝♝♛♞♜♚♞♜");
    assert_eq!(rank_glyphs(&h, Rank::Eighth), "♝♝♛♞♜♚♞♜");
    // 1. Ng1-f3 Ng8-f6 clears g1 and g8.
    for (from, to) in [(Square::G1, Square::F3), (Square::G8, Square::F6)] {
        click(&mut h, from);
        click(&mut h, to);
    }
    assert_eq!(h.app.cx.board.game.len(), 2);
    // The king put on its h1 rook castles: king g1, rook f1.
    click(&mut h, Square::F1);
    click(&mut h, Square::H1);
    assert_eq!(h.app.cx.board.game.sans().last().unwrap(), "O-O");
    assert!(fen(&h).contains("/PPPPPPPP/BBQNRRK1 b kq "), "{}", fen(&h));
    assert_eq!(rank_glyphs(&h, Rank::First), "♝♝♛♞♜♜♚.");
    // Black's king onto g8, its castling square, is the ordinary king move
    // there (castling would be the king onto the h8 rook).
    click(&mut h, Square::F8);
    click(&mut h, Square::G8);
    assert_eq!(h.app.cx.board.game.sans().last().unwrap(), "Kg8");
    assert_eq!(h.app.cx.overlay, kibitz::tui::app::Overlay::None);
}

#[test]
fn a_random_chess960_game_starts_from_one_of_the_960() {
    let mut h = Board::options(SIZE).blitz().build();
    for _ in 0..5 {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Right);
    h.key(KeyCode::Enter);
    let start = h.app.cx.board.game.start().clone();
    assert!(kibitz::game::chess960::is_chess960(&start));
    let number = kibitz::game::chess960::number_of(&start).unwrap();
    assert!(
        h.message().contains(&format!("Chess960 no. {number}")),
        "{}",
        h.message()
    );
    assert_eq!(start.castles().castling_rights().count(), 4);
}

#[test]
fn a_chess960_position_on_the_analysis_board_castles_and_saves_as_chess960() {
    let start = "bb3rkr/pppqpppp/2n2n2/3p4/3P4/2N2N2/PPPQPPPP/BB3RKR w KQkq - 4 5";
    let mut h = Board::options(SIZE).fen(Some(start)).analysis();
    assert!(kibitz::game::chess960::is_chess960(&h.tree().start));
    // The king to c1, its queen-side castling square (no ordinary king
    // move goes there): O-O-O, the f1 rook to d1.
    click(&mut h, Square::G1);
    click(&mut h, Square::C1);
    let castled = h.cursor();
    assert_eq!(h.tree().nodes[castled].san, "O-O-O");
    assert_eq!(rank_glyphs(&h, Rank::First), "♝♝♚♜...♜");
    // Back, and the king onto the f1 rook: the same move.
    h.key(KeyCode::Left);
    assert_eq!(h.ply(), 0);
    click(&mut h, Square::G1);
    click(&mut h, Square::F1);
    assert_eq!(h.cursor(), castled);
    assert_eq!(h.tree().nodes.len(), 2);
    let pgn = h.tree().to_pgn();
    assert!(pgn.contains("[Variant \"Chess960\"]\n"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{start}\"]")), "{pgn}");
    assert!(pgn.contains("5. O-O-O *"), "{pgn}");
}

#[test]
fn a_chess960_game_from_a_file_opens_whole_on_the_analysis_board() {
    let mut h = Board::new(SIZE);
    h.open(&common::testdata("pgn/chess960.pgn"), Some(1));
    assert!(h.app.mode.analysis().is_some());
    assert_eq!(h.tree().mainline().len(), 19);
    h.key(KeyCode::End);
    assert_eq!(h.ply(), 19);
    // White castled short (king g1, rook f1), Black long (king c8, rook d8).
    assert_eq!(rank_glyphs(&h, Rank::First), "♜.♝..♜♚.");
    assert_eq!(rank_glyphs(&h, Rank::Eighth), "..♚♜...♜");
}

#[test]
fn the_chess960_choice_fits_the_dialog_at_80x24() {
    let mut h = Board::options((80, 24)).blitz().build();
    for _ in 0..5 {
        h.key(KeyCode::Down);
    }
    h.keys("959");
    let row = h.row_with("Start from");
    assert!(row.contains("‹ Chess960 no. 959 · type 0-959 ›"), "{row}");
    crate::snapshot_names::assert_snapshot!("new_game_chess960_80x24", h.screen());
}

#[test]
fn teach_mode_searches_a_chess960_position_with_its_castling() {
    use kibitz::engine::trace::TraceEvent;
    // White may castle queen-side (the king g1 to c1, the f1 rook to d1).
    let position = kibitz::game::fen::parse_fen(
        "bb3rkr/pppqpppp/2n2n2/3p4/3P4/2N2N2/PPPQPPPP/BB3RKR w KQkq - 4 5",
    )
    .unwrap();
    let board = Board::teach(position, 2, SIZE);
    let (replay, _) = board.teach_state().ready().unwrap();
    let castles = replay
        .events()
        .iter()
        .filter(|e| matches!(e, TraceEvent::MoveTried { mv, .. } if mv.is_castle()))
        .count();
    assert!(castles > 0, "the search tries O-O-O");
}
