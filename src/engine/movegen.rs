//! The engine's own move generation, and the facts about a board and a
//! move that the search asks at every node.
//!
//! shakmaty's `legal_moves` is correct and general: it generates every
//! legal move of a position, checks and all. The search rarely wants that.
//! Most nodes are quiescence nodes, which want only the captures; the
//! staged picker (`ordering.rs`) wants the captures first and the quiet
//! moves only if no capture, killer or counter-move ended the node; the
//! killers, the counter-move and the transposition table's move come from
//! other positions and need only a yes or no on their legality here. Each
//! of those is a fraction of the work of generating every move, and the
//! functions below do just that fraction, relying on one fact: with the
//! king not in check, a move is illegal only if it moves a pinned piece off
//! the line of its pin, or steps the king onto an attacked square. (In
//! check the search asks shakmaty: evasions are few and rare.)
//!
//! The same goes for the questions the search asks about a move before
//! making it: does it give check ([`gives_check`], or [`CheckSquares`] when
//! many moves of one position are asked), and what will the child's key be
//! (a king's step, [`king_step_key`]; a null move, [`passed_key`]).
//!
//! Why a file of its own: the move picker, the search, the transposition
//! table (which checks its stored move) and the quiescence search all need
//! these facts. Kept in one of them, the others would import that one for
//! it, and the files would end up importing each other in a circle. Here
//! they depend on nothing of the engine but the position key, and every
//! part of the search can use them.
//!
//! Every generator is tested against shakmaty's own answer over thousands
//! of positions along random games (see the tests below): a generator that
//! is fast but wrong would make the search play illegal moves.

use arrayvec::ArrayVec;
use shakmaty::{
    Bitboard, Board, Chess, Color, EnPassantMode, Move, Position, Role, Square, attacks,
};

use crate::core::position_key;

/// A quiet move: neither a capture nor a promotion (what [`quiet_moves`]
/// generates; castling is quiet).
pub(super) fn is_quiet(m: Move) -> bool {
    !m.is_capture() && !m.is_promotion()
}

/// The legal captures and queen promotions of a position not in check,
/// generated directly: most nodes of a search are quiescence nodes, and
/// generating every quiet move there only to throw it away would double
/// the work.
///
/// Legality without making the move: with the king not in check, a move is
/// illegal only if the piece is pinned to its king and leaves the line of
/// the pin, or if the king steps onto an attacked square.
///
/// With `all_promotions`, pushes to the last rank come as every piece (the
/// main search's picker wants every move); without, as a queen only.
pub(super) fn noisy_moves(position: &Chess, moves: &mut ArrayVec<Move, 256>, all_promotions: bool) {
    let board = position.board();
    let us = position.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let theirs = board.by_color(!us);
    let occupied = board.occupied();

    let pinned = lone_blockers(board, king, !us, us);
    let stays_legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(king, from, to);

    let normal = |role, from, to, promotion| Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    };
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_piece(role.of(us)) {
            for to in attacks::attacks(from, role.of(us), occupied) & theirs {
                if stays_legal(from, to) {
                    moves.push(normal(role, from, to, None));
                }
            }
        }
    }
    // The king may take only what no enemy piece defends (seen through the
    // square the king leaves).
    let without_king = occupied ^ Bitboard::from_square(king);
    for to in attacks::king_attacks(king) & theirs {
        if board.attacks_to(to, !us, without_king).is_empty() {
            moves.push(normal(Role::King, king, to, None));
        }
    }
    let last_rank = Bitboard::from_rank(match us {
        Color::White => shakmaty::Rank::Eighth,
        Color::Black => shakmaty::Rank::First,
    });
    // Only the pawns with something to do here: those attacking an enemy
    // piece, found for all pawns at once by shifting the enemy pieces back
    // along the two diagonals (a pawn on the a- or h-file attacks only
    // inward), and those a step from the last rank.
    let pawns = board.by_piece(Role::Pawn.of(us));
    let not_a = !Bitboard::from_file(shakmaty::File::A);
    let not_h = !Bitboard::from_file(shakmaty::File::H);
    let (capturers, step) = match us {
        Color::White => ((theirs.shift(-7) & not_a) | (theirs.shift(-9) & not_h), 8),
        Color::Black => ((theirs.shift(7) & not_h) | (theirs.shift(9) & not_a), -8),
    };
    let promoting = last_rank.shift(-step);
    for from in pawns & (capturers | promoting) {
        for to in attacks::pawn_attacks(us, from) & theirs {
            if !stays_legal(from, to) {
                continue;
            }
            if last_rank.contains(to) {
                // A capture that promotes is a capture whatever it becomes.
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(normal(Role::Pawn, from, to, Some(promotion)));
                }
            } else {
                moves.push(normal(Role::Pawn, from, to, None));
            }
        }
        // A push to the last rank.
        if let Some(to) = from.offset(step)
            && last_rank.contains(to)
            && !occupied.contains(to)
            && stays_legal(from, to)
        {
            moves.push(normal(Role::Pawn, from, to, Some(Role::Queen)));
            if all_promotions {
                for promotion in [Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(normal(Role::Pawn, from, to, Some(promotion)));
                }
            }
        }
    }
    // En passant can expose the king along the rank of both pawns; it is
    // rare, so shakmaty's full legality check decides.
    if position.pseudo_legal_ep_square().is_some() {
        moves.extend(position.en_passant_moves());
    }
}

/// The pieces of `owner` that stand alone between `king` and a `slider`
/// bishop, rook or queen aiming at it along its line: moving such a piece
/// off that line opens it. With the king's own side as `owner` and the
/// enemy's sliders, these are the pinned pieces; with our pieces and
/// sliders against the enemy king, the pieces that can give discovered
/// check (see `CheckSquares`).
pub(super) fn lone_blockers(board: &Board, king: Square, slider: Color, owner: Color) -> Bitboard {
    let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
        & board.by_color(slider);
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between & board.by_color(owner);
        }
    }
    blockers
}

/// The legal quiet moves (neither captures nor promotions) of a position
/// not in check, generated directly and handed to `emit` in the order
/// shakmaty's `legal_moves` lists them: single pawn pushes, double pushes,
/// knights, bishops, rooks, queens, the king, castling.
///
/// Why not filter `legal_moves`: that generates the captures a second time
/// (the picker has handed them out already) and works out the piece on
/// every target square, only for the filter to throw both away. Why keep
/// shakmaty's order: moves with equal ordering keys keep the order the
/// generator gave (see `sort_key` in `ordering.rs`), so another order
/// would change which of them the search tries first.
pub(super) fn quiet_moves(position: &Chess, mut emit: impl FnMut(Move)) {
    debug_assert!(
        !position.is_check(),
        "the staged picker generates evasions at once"
    );
    let board = position.board();
    let us = position.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let occupied = board.occupied();
    let empty = !occupied;
    let pinned = lone_blockers(board, king, !us, us);
    let stays_legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(king, from, to);
    let quiet = |role, from, to| Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion: None,
    };

    // Pawn pushes: one step (not to the last rank, which promotes), then
    // two from the home rank over an empty square.
    let (step, home_targets) = match us {
        Color::White => (8, Bitboard::from_rank(shakmaty::Rank::Fourth)),
        Color::Black => (-8, Bitboard::from_rank(shakmaty::Rank::Fifth)),
    };
    let pawns = board.by_piece(Role::Pawn.of(us));
    let single = pawns.shift(step) & empty;
    for to in single & !Bitboard::BACKRANKS {
        if let Some(from) = to.offset(-step)
            && stays_legal(from, to)
        {
            emit(quiet(Role::Pawn, from, to));
        }
    }
    for to in single.shift(step) & empty & home_targets {
        if let Some(from) = to.offset(-2 * step)
            && stays_legal(from, to)
        {
            emit(quiet(Role::Pawn, from, to));
        }
    }
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_piece(role.of(us)) {
            for to in attacks::attacks(from, role.of(us), occupied) & empty {
                if stays_legal(from, to) {
                    emit(quiet(role, from, to));
                }
            }
        }
    }
    // Not in check, no enemy slider attacks the king, so none can attack
    // a square behind it through it: the board as it stands will do.
    for to in attacks::king_attacks(king) & empty {
        if board.attacks_to(to, !us, occupied).is_empty() {
            emit(quiet(Role::King, king, to));
        }
    }
    for side in [
        shakmaty::CastlingSide::KingSide,
        shakmaty::CastlingSide::QueenSide,
    ] {
        for m in position.castling_moves(side) {
            emit(m);
        }
    }
}

/// Whether a move from elsewhere (a killer, a counter-move, the
/// transposition table's move, which a hash collision can make nonsense)
/// is legal here, the side to move not being in check. Cheaper than
/// shakmaty's general check, which generates every move of the piece to
/// the square: the piece must be ours and on its square, the target empty
/// (or, for a capture, the named enemy piece, never the king), a promotion
/// exactly when a pawn reaches the last rank, the step one the piece can
/// make, and our king must not be left to an enemy slider (when not in
/// check, only a slider the move uncovers can attack it) or, for the king,
/// step onto an attacked square. Castling and en passant go to shakmaty.
pub(super) fn is_legal_quickly(position: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return position.is_legal(m);
    };
    debug_assert!(!position.is_check(), "only asked when not in check");
    let board = position.board();
    let us = position.turn();
    let occupied = board.occupied();
    if board.piece_at(from) != Some(role.of(us)) {
        return false;
    }
    let target_fits = match capture {
        None => !occupied.contains(to),
        Some(victim) => victim != Role::King && board.piece_at(to) == Some(victim.of(!us)),
    };
    if !target_fits {
        return false;
    }
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let (step, home, last) = match us {
        Color::White => (8, shakmaty::Rank::Second, shakmaty::Rank::Eighth),
        Color::Black => (-8, shakmaty::Rank::Seventh, shakmaty::Rank::First),
    };
    let promotes = role == Role::Pawn && to.rank() == last;
    let promotion_fits = match promotion {
        None => !promotes,
        Some(piece) => promotes && !matches!(piece, Role::Pawn | Role::King),
    };
    if !promotion_fits {
        return false;
    }
    let reaches = match role {
        Role::Pawn if capture.is_some() => attacks::pawn_attacks(us, from).contains(to),
        Role::Pawn => {
            let one = from.offset(step);
            let two = one.and_then(|s| s.offset(step));
            one == Some(to)
                || (two == Some(to)
                    && from.rank() == home
                    && one.is_some_and(|s| !occupied.contains(s)))
        }
        _ => attacks::attacks(from, role.of(us), occupied).contains(to),
    };
    if !reaches {
        return false;
    }
    let to_bb = Bitboard::from_square(to);
    let after = (occupied & !Bitboard::from_square(from)) | to_bb;
    if role == Role::King {
        return board.attacks_to(to, !us, after).is_empty();
    }
    // A captured slider no longer attacks anything.
    let theirs = board.by_color(!us) & !to_bb;
    let sliders = (attacks::rook_attacks(king, after) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, after) & board.bishops_and_queens());
    (sliders & theirs).is_empty()
}

/// The key after a king move, worked out from the key before it when
/// nothing but the two pieces changes: the mover keeps no castling right to
/// lose, it takes no rook that still has one, and there is no en passant
/// square to forget. shakmaty's own update leaves every king move to a
/// full recomputation; in an endgame, where the king is the busiest piece
/// and nobody can castle any more, that was a move in three or so.
#[inline]
pub(super) fn king_step_key(
    position: &Chess,
    key: u64,
    m: Move,
) -> Option<shakmaty::zobrist::Zobrist64> {
    use shakmaty::zobrist::{Zobrist64, ZobristValue};
    let Move::Normal {
        role: shakmaty::Role::King,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        return None;
    };
    let us = position.turn();
    let castles = position.castles();
    if castles.has_color(us)
        || castles.castling_rights().contains(to)
        || position.maybe_ep_square().is_some()
    {
        return None;
    }
    let mut z = Zobrist64(key);
    z ^= Zobrist64::zobrist_for_white_turn();
    z ^= Zobrist64::zobrist_for_piece(from, shakmaty::Role::King.of(us));
    z ^= Zobrist64::zobrist_for_piece(to, shakmaty::Role::King.of(us));
    if let Some(taken) = capture {
        z ^= Zobrist64::zobrist_for_piece(to, taken.of(!us));
    }
    Some(z)
}

/// The key of `passed`, the position after the side to move passes (a
/// null move) from `position`, whose key is `key`: passing changes only
/// the side to move, and forgets an en passant square, which the key
/// counts only when the capture is legal.
pub(super) fn passed_key(position: &Chess, key: u64, passed: &Chess) -> u64 {
    use shakmaty::zobrist::{Zobrist64, ZobristValue};
    if position.ep_square(EnPassantMode::Legal).is_some() {
        position_key(passed)
    } else {
        key ^ Zobrist64::zobrist_for_white_turn().0
    }
}

/// Whether the side to move has a piece besides king and pawns (null move is
/// unsound in pawn endings, where zugzwang is common).
pub(super) fn has_pieces(position: &Chess) -> bool {
    pieces(position) > 0
}

/// How many pieces (not pawns, not the king) the side to move has.
pub(super) fn pieces(position: &Chess) -> usize {
    let board = position.board();
    let ours = board.by_color(position.turn());
    (ours & !board.pawns() & !board.kings()).count()
}

/// Whether move `m` checks the enemy king, found without making it: the
/// moved piece attacks the king from its new square (a direct check), or
/// leaving its old square opens a line from one of our sliders to the king
/// (a discovered check). Castling and en passant, where a second piece
/// moves, are played out on a copy instead.
pub(super) fn gives_check(position: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut child = position.clone();
        child.play_unchecked(m);
        return child.is_check();
    };
    let board = position.board();
    let us = position.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let piece = promotion.unwrap_or(role).of(us);
    if attacks::attacks(to, piece, occupied).contains(king) {
        return true;
    }
    let sliders = board.by_color(us) & !Bitboard::from_square(from);
    let lines = (attacks::rook_attacks(king, occupied) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens());
    (lines & sliders).any()
}

/// The squares from which each of our pieces would check the enemy king,
/// and our pieces that would uncover a check by leaving their line: worked
/// out once for a position, so that asking it of many moves costs a lookup
/// each instead of [`gives_check`]'s attack generation (the move picker
/// asks it of every quiet move left once late-move pruning has begun).
pub(super) struct CheckSquares {
    /// The enemy king (none only in a position without one).
    king: Option<Square>,
    /// By role: where that piece of ours would attack the king from. A
    /// slider's squares are seen with the board as it stands; a slider
    /// that leaves a square on its own line to the king could only do so
    /// if it already attacked the king, which the side to move cannot.
    direct: [Bitboard; 6],
    /// Our pieces that are the only piece between one of our sliders and
    /// the king: moving off that line checks.
    discoverers: Bitboard,
}

impl CheckSquares {
    pub(super) fn new(position: &Chess) -> CheckSquares {
        let board = position.board();
        let us = position.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckSquares {
                king: None,
                direct: [Bitboard::EMPTY; 6],
                discoverers: Bitboard::EMPTY,
            };
        };
        let occupied = board.occupied();
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        CheckSquares {
            king: Some(king),
            // Indexed by `Role as usize - 1` (pawn 1 ... king 6).
            direct: [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            discoverers: lone_blockers(board, king, us, us),
        }
    }

    /// The same answer as [`gives_check`] for move `m` of the position
    /// these squares were worked out for.
    pub(super) fn gives_check(&self, position: &Chess, m: Move) -> bool {
        match (m, self.king) {
            (
                Move::Normal {
                    role,
                    from,
                    to,
                    promotion: None,
                    ..
                },
                Some(king),
            ) => {
                self.direct[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(king, from, to))
            }
            _ => gives_check(position, m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::random_walks::TRICKY;
    use super::*;
    use crate::engine::tt::PackedMove;
    use shakmaty::fen::Fen;

    /// The quick check for killers and the table's moves agrees with
    /// shakmaty's on moves taken from other positions (earlier in the same
    /// random games and from other games: quiet moves, captures of every
    /// kind, promotions), wherever the side to move is not in check.
    #[test]
    fn moves_from_elsewhere_are_judged_as_shakmaty_judges_them() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut pool: Vec<Move> = Vec::new();
        let (mut legal_seen, mut illegal_seen) = (0, 0);
        super::super::random_walks::walk(&starts, 0x2545_f491_4f6c_dd1d, |pos, legal| {
            pool.extend(legal.iter().copied());
            if pool.len() > 400 {
                pool.drain(..200);
            }
            if !pos.is_check() {
                for &m in &pool {
                    let expected = pos.is_legal(m);
                    assert_eq!(
                        is_legal_quickly(pos, m),
                        expected,
                        "{m:?} in {}",
                        Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                    );
                    if expected {
                        legal_seen += 1;
                    } else {
                        illegal_seen += 1;
                    }
                }
            }
        });
        assert!(
            legal_seen > 10_000 && illegal_seen > 10_000,
            "{legal_seen} {illegal_seen}"
        );
    }

    /// The direct capture generator gives exactly the legal captures and
    /// queen promotions, over positions full of pins, checks, en passant
    /// and promotions (random games from the perft suite's positions).
    #[test]
    fn noisy_moves_are_the_legal_captures_and_queen_promotions() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1",
            "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
        ];
        let mut checked = 0;
        super::super::random_walks::walk(&starts, 0x9e37_79b9_7f4a_7c15, |pos, legal| {
            if !pos.is_check() {
                let key = |m: &Move| PackedMove::new(*m).raw();
                let mut expected: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| m.is_capture() || m.promotion() == Some(Role::Queen))
                    .collect();
                let mut list = ArrayVec::new();
                noisy_moves(pos, &mut list, false);
                let mut got: Vec<Move> = list.into_iter().collect();
                expected.sort_by_key(key);
                got.sort_by_key(key);
                assert_eq!(
                    got,
                    expected,
                    "{}",
                    Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                );
                checked += 1;
            }
        });
        assert!(checked > 3000, "{checked}");
    }

    /// The direct quiet generator gives exactly the legal quiet moves, in
    /// the order shakmaty lists them (the order breaks ties between equal
    /// ordering keys, so the search depends on it).
    #[test]
    fn quiet_moves_are_the_legal_quiet_moves_in_shakmatys_order() {
        let starts = [
            TRICKY.as_slice(),
            &[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1",
            ],
        ]
        .concat();
        let mut checked = 0;
        super::super::random_walks::walk(&starts, 0x0bad_5eed_1234_5678, |pos, legal| {
            if !pos.is_check() {
                let expected: Vec<Move> = legal.iter().copied().filter(|&m| is_quiet(m)).collect();
                let mut got = Vec::new();
                quiet_moves(pos, |m| got.push(m));
                assert_eq!(
                    got,
                    expected,
                    "{}",
                    Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                );
                checked += 1;
            }
        });
        assert!(checked > 3000, "{checked}");
    }

    /// The check squares worked out once per position give the same
    /// answer as the test per move, for every legal move along the same
    /// kind of random games.
    #[test]
    fn check_squares_agree_with_gives_check() {
        let starts = [
            super::super::random_walks::TRICKY.as_slice(),
            &[
                "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
                "3k4/8/8/3q4/8/3B4/8/3K1Q1R w - - 0 1",
            ],
        ]
        .concat();
        let mut checks = 0;
        super::super::random_walks::walk(&starts, 0x51ed_270b_2745_9f01, |pos, legal| {
            let squares = CheckSquares::new(pos);
            for &m in legal {
                let expected = gives_check(pos, m);
                assert_eq!(squares.gives_check(pos, m), expected, "{m:?}");
                checks += usize::from(expected);
            }
        });
        assert!(checks > 500, "{checks}");
    }

    /// The check test without making the move agrees with making it, for
    /// every legal move along random games from positions rich in pins,
    /// discovered checks, promotions, castling and en passant.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
        ];
        let mut checks = 0;
        super::super::random_walks::walk(&starts, 0x2545_f491_4f6c_dd1d, |pos, legal| {
            for &m in legal {
                let mut child = pos.clone();
                child.play_unchecked(m);
                assert_eq!(gives_check(pos, m), child.is_check(), "{m:?}");
                checks += usize::from(child.is_check());
            }
        });
        assert!(checks > 500, "{checks}");
    }
}
