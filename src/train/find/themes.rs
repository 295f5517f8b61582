//! A found puzzle's themes, where they are plain from the board alone:
//!
//! - **mate in N**: the solution ends in checkmate on the solver's N-th
//!   move;
//! - **promotion**: one of the solver's moves promotes a pawn;
//! - **hanging piece**: the first move captures a piece (not a pawn) that
//!   nothing defended;
//! - **fork**: the first move's piece then attacks two or more of the
//!   opponent's pieces (pawns aside), each the king, worth more than the
//!   attacker, or undefended; and a later move of the solution captures
//!   one of them where it stood;
//! - **endgame**: the puzzle's position has at most [`ENDGAME_PIECES`]
//!   pieces besides the kings and pawns.
//!
//! "Defended" means attacked by a piece of the same side, looking through
//! the square the capturing or forking piece left.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

/// Most pieces (kings and pawns aside) an endgame's position has.
pub const ENDGAME_PIECES: usize = 4;

/// The usual values, in pawns, that "worth more" compares (the king is
/// worth more than anything).
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// `color`'s material less its opponent's, in pawns.
pub fn material_lead(position: &Chess, color: Color) -> i32 {
    let board = position.board();
    let side = |c: Color| -> i32 {
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .map(|role| value(role) * board.by_piece(role.of(c)).count() as i32)
        .sum()
    };
    side(color) - side(!color)
}

/// Whether a piece of `owner` on `square` is defended by another of
/// `owner`'s pieces, with `occupied` as the board's occupancy.
fn defended(position: &Chess, square: Square, owner: Color, occupied: Bitboard) -> bool {
    let defenders = position.board().attacks_to(square, owner, occupied);
    defenders.without(square).any()
}

/// The themes of the line `solution` from `start` (solver to move), each
/// as the docs name it.
pub fn themes(start: &Chess, solution: &[Move]) -> Vec<String> {
    let mut out = Vec::new();
    let Some(&first) = solution.first() else {
        return out;
    };
    let solver = start.turn();
    let mut end = start.clone();
    for &m in solution {
        end.play_unchecked(m);
    }
    if end.is_checkmate() {
        out.push(format!("mate in {}", solution.len().div_ceil(2)));
    }
    if solution.iter().step_by(2).any(|m| m.promotion().is_some()) {
        out.push("promotion".to_string());
    }
    if hangs(start, first) {
        out.push("hanging piece".to_string());
    }
    if forks(start, solution, solver) {
        out.push("fork".to_string());
    }
    let board = start.board();
    let pieces = (board.occupied() & !board.pawns() & !board.kings()).count();
    if pieces <= ENDGAME_PIECES {
        out.push("endgame".to_string());
    }
    out
}

/// The first move takes a piece (not a pawn) that nothing defended.
fn hangs(start: &Chess, first: Move) -> bool {
    let Some(taken) = first.capture() else {
        return false;
    };
    if matches!(taken, Role::Pawn | Role::King) {
        return false;
    }
    let occupied = start.board().occupied();
    let occupied = match first.from() {
        Some(from) => occupied.without(from),
        None => occupied,
    };
    !defended(start, first.to(), !start.turn(), occupied)
}

/// The first move's piece attacks two or more pieces worth winning, and a
/// later solver's move captures one of them on its square.
fn forks(start: &Chess, solution: &[Move], solver: Color) -> bool {
    let Some(&first) = solution.first() else {
        return false;
    };
    let mut after = start.clone();
    after.play_unchecked(first);
    let to = first.to();
    let Some(piece) = after.board().piece_at(to) else {
        return false;
    };
    let occupied = after.board().occupied();
    let attacked =
        shakmaty::attacks::attacks(to, piece, occupied) & after.board().by_color(!solver);
    let targets: Vec<(Square, Role)> = attacked
        .into_iter()
        .filter_map(|square| {
            let target = after.board().piece_at(square)?;
            let worth = target.role != Role::Pawn
                && (target.role == Role::King
                    || value(target.role) > value(piece.role)
                    || !defended(&after, square, !solver, occupied));
            worth.then_some((square, target.role))
        })
        .collect();
    if targets.len() < 2 {
        return false;
    }
    // A later move of the solver's takes one of the forked pieces where it
    // stood (the opponent could not save both).
    solution.iter().skip(2).step_by(2).any(|m| {
        m.capture()
            .is_some_and(|role| targets.contains(&(m.to(), role)))
    })
}
