//! A terminal that is resized faster than its events arrive: the frame is
//! the terminal's real size while the last `Resize` the board heard says
//! another. Every mode draws into the frame it is given (no panic, nothing
//! outside it), and the board follows the frame's size.

use kibitz::game::fen::parse_fen;
use ratatui::crossterm::event::KeyCode;

use crate::common::board::Board;

/// The sizes of a resize storm: the last `Resize` heard, and the frame.
const PAIRS: [((u16, u16), (u16, u16)); 6] = [
    ((179, 71), (80, 24)),
    ((80, 24), (179, 71)),
    ((120, 40), (60, 18)),
    ((60, 18), (120, 40)),
    ((179, 71), (40, 10)),
    ((40, 10), (120, 40)),
];

/// Draw `board` at each pair's frame size, having heard the other size.
fn storm(mut board: Board, what: &str) {
    for (heard, frame) in PAIRS {
        board.resize(heard);
        // The terminal changed again, and its event is not read yet.
        board.size = frame;
        let screen = board.screen();
        assert_eq!(
            screen.lines().count(),
            usize::from(frame.1),
            "{what}: heard {heard:?}, frame {frame:?}"
        );
        if frame.0 >= 60 && frame.1 >= 18 {
            // The board's files are on the screen, whole.
            assert!(
                screen.contains('a') && screen.contains('h'),
                "{what}: heard {heard:?}, frame {frame:?}\n{screen}"
            );
        }
    }
}

#[test]
fn play_mode_draws_into_the_frame_it_is_given() {
    let mut board = Board::options((179, 71)).blitz().build();
    board.start();
    board.typed("e4");
    // The map's bands and marks are drawn on the squares too.
    board.key(KeyCode::Char('m'));
    storm(board, "play");
}

#[test]
fn analysis_draws_into_the_frame_it_is_given() {
    storm(Board::analysis((179, 71)), "analysis");
}

#[test]
fn teach_mode_draws_into_the_frame_it_is_given() {
    let position = parse_fen("8/8/8/4k3/8/4K3/4P3/8 w - - 0 1").unwrap();
    storm(Board::teach(position, 2, (179, 71)), "teach");
}

/// Teach mode at its last step (the comparison and the summary on show),
/// every size heard against every frame.
#[test]
fn teach_mode_at_its_last_step_draws_into_every_frame() {
    let sizes = [(179, 71), (80, 24), (120, 40), (60, 18)];
    let position = parse_fen("4k3/8/8/1q6/4N3/8/7P/4K3 w - - 0 1").unwrap();
    let mut board = Board::teach(position, 2, (120, 40));
    board.key(KeyCode::End);
    for heard in sizes {
        for frame in sizes {
            board.resize(heard);
            board.size = frame;
            assert_eq!(
                board.screen().lines().count(),
                usize::from(frame.1),
                "heard {heard:?}, frame {frame:?}"
            );
        }
    }
}
