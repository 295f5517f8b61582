//! Teach mode on a hand-made game tree: picked from the lessons, stepped,
//! drawn as a textbook tree at 80x24 and 120x40, and under NO_COLOR.

use ratatui::crossterm::event::KeyCode;
use ratatui::style::Color;

use crate::common::board::Board;
use crate::snapshot_names as insta;

/// Teach mode opened on the start position, then the lesson `row` of the
/// positions picker (10 is the classic tree, the first tree lesson).
fn tree_lesson(size: (u16, u16), row: usize) -> Board {
    let mut h = Board::blitz(size, None);
    let position = shakmaty::Chess::default();
    h.analyse(position.clone());
    h.start_teach(position, 3);
    h.serve();
    h.key(KeyCode::Char('p'));
    for _ in 0..row {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    h.serve();
    assert!(h.ready(), "no record");
    h
}

#[test]
fn the_classic_tree_steps_to_its_value_with_the_skipped_leaves_crossed_out() {
    for size in [(80, 24), (120, 40)] {
        let mut h = tree_lesson(size, 10);
        assert!(h.teach_state().is_tree());
        let start = h.screen();
        assert!(start.contains("A:?"), "{start}");
        assert!(start.contains("3  12  8  2  4  6  14  5  2"), "{start}");
        // Step to C's cutoff: C1 = 2 is worse for MAX than B's 3.
        while !h.screen().contains("C2 C3") && h.step() < h.steps() {
            h.key(KeyCode::Right);
        }
        let cut = h.screen();
        assert!(cut.contains("cut off"), "{cut}");
        // To the end: the root's value and the crossed-out leaves.
        h.key(KeyCode::End);
        let end = h.screen();
        assert!(end.contains("A:3"), "{end}");
        assert!(end.contains("C:≤2"), "{end}");
        assert!(end.contains("4✗ 6✗"), "{end}");
        // The comparison runs on the tree: 9 leaves for minimax, 7 for
        // alpha-beta in the tree's order, 5 best first.
        assert!(end.contains("Same tree, depth 2"), "{end}");
        insta::assert_snapshot!(format!("classic_tree_end_{}x{}", size.0, size.1), end);
        // `D` describes the node in words, not a board.
        h.key(KeyCode::Home);
        for _ in 0..5 {
            h.key(KeyCode::Right);
        }
        h.key(KeyCode::Char('D'));
        let words = h.screen();
        assert!(
            words.contains("hand-made game tree: node B, MIN to move"),
            "{words}"
        );
        h.key(KeyCode::Esc);
        h.key(KeyCode::End);
        // No board, no chess: the switches that mean nothing say so.
        h.key(KeyCode::Char('3'));
        let (message, _) = h.status().expect("a message");
        assert!(
            message.contains("no such thing on a hand-made tree"),
            "{message}"
        );
        h.key(KeyCode::Char('2'));
        h.serve();
        h.key(KeyCode::End);
        let best_first = h.screen();
        assert!(best_first.contains("best first"), "{best_first}");
        let leaves = h
            .teach_state()
            .ready()
            .unwrap()
            .0
            .recording
            .stats
            .totals
            .leaves;
        assert_eq!(leaves, 5, "best first evaluates the minimal tree");
    }
}

#[test]
fn the_tree_under_no_color_draws_no_colour_and_marks_in_text() {
    let mut h = tree_lesson((80, 24), 10);
    h.set_no_color(true);
    h.key(KeyCode::End);
    let buffer = h.buffer();
    let area = buffer.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &buffer[(x, y)];
            assert!(
                matches!(cell.fg, Color::Reset) && matches!(cell.bg, Color::Reset),
                "colour at {x},{y}: {:?}",
                cell
            );
        }
    }
    assert!(h.screen().contains("4✗ 6✗"));
}
