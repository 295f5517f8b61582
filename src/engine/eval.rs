//! Static evaluation: how good is a position, without looking ahead?
//!
//! The search can only look a few moves deep; at the end of every line it
//! asks this module for a number. The number is a sum of named *terms*, each
//! a piece of chess knowledge a club player would recognise (material, piece
//! placement, mobility, king safety, pawn structure, passed pawns, the bishop
//! pair, rooks on open files). Keeping the terms apart costs nothing in play
//! and lets the UI explain a score term by term ([`breakdown`]).
//!
//! ## Tapered evaluation
//! The same feature is worth different amounts in the middlegame and the
//! endgame: a king in the centre is a liability with queens on the board and
//! an asset once they are gone; a passed pawn grows stronger as pieces leave.
//! So every term has two values, middlegame (mg) and endgame (eg), and the
//! final score blends them by the *game phase*, computed from the non-pawn
//! material left (24 = all pieces on, 0 = bare kings and pawns):
//!
//! ```text
//! score = (mg * phase + eg * (24 - phase)) / 24
//! ```
//!
//! All terms are computed from White's point of view; [`evaluate`] returns
//! the score for the side to move, which is what negamax needs.

use serde::Serialize;
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, File, Position, Rank, Role, Square};

use super::pst::{MATERIAL_EG, MATERIAL_MG, PHASE_TOTAL, PHASE_WEIGHT, PST_EG, PST_MG};

/// The named parts of the evaluation, in the order the UI lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    Material,
    PieceSquare,
    Mobility,
    KingSafety,
    PawnStructure,
    PassedPawns,
    BishopPair,
    RookFiles,
}

impl Term {
    pub const ALL: [Term; 8] = [
        Term::Material,
        Term::PieceSquare,
        Term::Mobility,
        Term::KingSafety,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::BishopPair,
        Term::RookFiles,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::PieceSquare => "piece-square",
            Term::Mobility => "mobility",
            Term::KingSafety => "king safety",
            Term::PawnStructure => "pawn structure",
            Term::PassedPawns => "passed pawns",
            Term::BishopPair => "bishop pair",
            Term::RookFiles => "rook files",
        }
    }
}

// ---------------------------------------------------------------------------
// Tuning constants. Units are centipawns, as (middlegame, endgame) pairs.
// Material and piece-square values are PeSTO's (see pst.rs); the rest are
// modest hand-set values, small enough not to swamp the tuned tables.
// ---------------------------------------------------------------------------

/// Per square a piece attacks beyond a typical count (so an average piece
/// scores about zero). Squares held by own pieces or attacked by enemy pawns
/// do not count: a knight "attacking" them is not going anywhere.
const MOBILITY_WEIGHT: [(i32, i32); 6] = [(0, 0), (4, 4), (4, 5), (2, 4), (1, 2), (0, 0)];
/// Typical safe-square count per role (pawn, knight, bishop, rook, queen, king).
const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];
/// Attack weight of each role on the squares around the enemy king.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Penalty (middlegame only) per point of attack weight, squared in the
/// number of attackers: one attacker is a nuisance, three are a mating net.
const KING_ATTACK_SCALE: i32 = 3;
/// Missing pawn in front of a castled king, per file (middlegame only).
const PAWN_SHIELD_MISSING: i32 = 12;
const DOUBLED_PAWN: (i32, i32) = (-8, -20);
const ISOLATED_PAWN: (i32, i32) = (-10, -12);
/// Passed pawn bonus by rank from its own side (index 0 = rank 1). PeSTO's
/// pawn table already pays for advanced pawns, so this is the extra for
/// having no enemy pawn able to stop it.
const PASSED_PAWN: [(i32, i32); 8] = [
    (0, 0),
    (2, 8),
    (4, 12),
    (8, 20),
    (16, 36),
    (28, 60),
    (40, 90),
    (0, 0),
];
const BISHOP_PAIR: (i32, i32) = (28, 50);
const ROOK_OPEN_FILE: (i32, i32) = (24, 8);
const ROOK_SEMI_OPEN_FILE: (i32, i32) = (10, 6);

/// One term's contribution, from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TermScore {
    pub term: Term,
    pub middlegame: i32,
    pub endgame: i32,
    /// Blended by the phase: what the term adds to the final score.
    pub blended: i32,
}

/// The whole evaluation, term by term, from White's point of view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breakdown {
    /// 24 = opening material, 0 = pawn endgame.
    pub phase: i32,
    pub terms: Vec<TermScore>,
    /// The sum of the blended terms, after endgame scaling.
    pub total: i32,
}

/// Accumulates (mg, eg) per term.
#[derive(Default)]
struct Terms {
    values: [(i32, i32); 8],
}

impl Terms {
    #[inline]
    fn add(&mut self, term: Term, (mg, eg): (i32, i32), sign: i32) {
        let slot = &mut self.values[term as usize];
        slot.0 += sign * mg;
        slot.1 += sign * eg;
    }
}

fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// The square as seen from `color`'s side: White's tables serve Black on
/// the vertically mirrored square.
fn relative(square: Square, color: Color) -> usize {
    match color {
        Color::White => square.to_usize(),
        Color::Black => square.flip_vertical().to_usize(),
    }
}

fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => {
            Bitboard((pawns.0 << 7) & !Bitboard::from_file(File::H).0)
                | Bitboard((pawns.0 << 9) & !Bitboard::from_file(File::A).0)
        }
        Color::Black => {
            Bitboard((pawns.0 >> 9) & !Bitboard::from_file(File::H).0)
                | Bitboard((pawns.0 >> 7) & !Bitboard::from_file(File::A).0)
        }
    }
}

fn adjacent_files(file: File) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for delta in [-1, 1] {
        if let Some(f) = file.offset(delta) {
            files |= Bitboard::from_file(f);
        }
    }
    files
}

// Pawn structure is judged for all pawns of a side at once, with bitboard
// *fills*: smearing each pawn along its file answers "is there a pawn ahead
// of / behind / beside this one?" for every pawn in a few shifts, where
// asking pawn by pawn would build a mask per pawn.

const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// Every square at or above a set square, on its file.
fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | (b << 32)
}

/// Every square at or below a set square, on its file.
fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | (b >> 32)
}

/// The set plus its neighbours one file to either side.
fn with_neighbour_files(b: u64) -> u64 {
    b | ((b << 1) & NOT_FILE_A) | ((b >> 1) & NOT_FILE_H)
}

/// Squares strictly ahead of each of `pawns`, from `color`'s side.
fn ahead_of(pawns: Bitboard, color: Color) -> u64 {
    match color {
        Color::White => north_fill(pawns.0 << 8),
        Color::Black => south_fill(pawns.0 >> 8),
    }
}

/// Squares strictly behind each of `pawns`, from `color`'s side.
fn behind(pawns: Bitboard, color: Color) -> u64 {
    ahead_of(pawns, !color)
}

/// The pawn-structure sets of one side.
struct PawnSets {
    /// Pawns sharing their file with another pawn of their side.
    doubled: Bitboard,
    /// Pawns with no pawn of their side on either neighbouring file.
    isolated: Bitboard,
    /// Pawns no enemy pawn can stop (none ahead on their own or a
    /// neighbouring file) and not behind a pawn of their own side.
    passed: Bitboard,
}

fn pawn_sets(ours: Bitboard, theirs: Bitboard, color: Color) -> PawnSets {
    let own_ahead = ahead_of(ours, color);
    let own_behind = behind(ours, color);
    let files = north_fill(south_fill(ours.0));
    // A pawn is stopped by an enemy pawn ahead of it on its own or a
    // neighbouring file: that is, the pawn stands behind (from the enemy's
    // side, ahead of) one, one file either way.
    let stoppable = with_neighbour_files(ahead_of(theirs, !color));
    PawnSets {
        doubled: ours & Bitboard(own_ahead | own_behind),
        isolated: ours & !Bitboard(((files << 1) & NOT_FILE_A) | ((files >> 1) & NOT_FILE_H)),
        passed: ours & !Bitboard(stoppable | own_behind),
    }
}

fn collect(board: &Board, terms: &mut Terms) -> i32 {
    let occupied = board.occupied();
    let mut phase = 0;

    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        let us = board.by_color(color);
        let them = board.by_color(!color);
        let our_pawns = board.pawns() & us;
        let their_pawns = board.pawns() & them;
        let enemy_pawn_attacks = pawn_attacks_of(their_pawns, !color);
        let their_king = board.king_of(!color);
        let king_zone = their_king.map_or(Bitboard::EMPTY, |k| {
            attacks::king_attacks(k) | Bitboard::from_square(k)
        });
        let mut king_attackers = 0;
        let mut king_attack_weight = 0;

        // Piece by piece, a role at a time (the role is then known without
        // asking the board for each square).
        for (square, role) in Role::ALL.into_iter().flat_map(|role| {
            board
                .by_piece(role.of(color))
                .into_iter()
                .map(move |sq| (sq, role))
        }) {
            let r = role_index(role);
            let rel = relative(square, color);
            phase += PHASE_WEIGHT[r];
            terms.add(Term::Material, (MATERIAL_MG[r], MATERIAL_EG[r]), sign);
            terms.add(Term::PieceSquare, (PST_MG[r][rel], PST_EG[r][rel]), sign);

            if matches!(role, Role::Pawn | Role::King) {
                continue;
            }
            let attacked = attacks::attacks(square, role.of(color), occupied);
            let safe = (attacked & !us & !enemy_pawn_attacks).count() as i32;
            let (w_mg, w_eg) = MOBILITY_WEIGHT[r];
            let extra = safe - MOBILITY_BASE[r];
            terms.add(Term::Mobility, (w_mg * extra, w_eg * extra), sign);

            let zone_hits = (attacked & king_zone).count() as i32;
            if zone_hits > 0 {
                king_attackers += 1;
                king_attack_weight += KING_ATTACK_WEIGHT[r] * zone_hits;
            }

            if role == Role::Rook {
                let file = Bitboard::from_file(square.file());
                if (file & board.pawns()).is_empty() {
                    terms.add(Term::RookFiles, ROOK_OPEN_FILE, sign);
                } else if (file & our_pawns).is_empty() {
                    terms.add(Term::RookFiles, ROOK_SEMI_OPEN_FILE, sign);
                }
            }
        }

        // King safety counts in the middlegame only: with the queens gone
        // the king should come out and fight.
        if king_attackers >= 2 {
            let danger = king_attack_weight * king_attackers * KING_ATTACK_SCALE / 2;
            terms.add(Term::KingSafety, (danger, 0), sign);
        }
        if let Some(king) = board.king_of(color) {
            let shield_rank = match color {
                Color::White => Rank::Second,
                Color::Black => Rank::Seventh,
            };
            // Only a king tucked away on the wing is judged on its shield.
            if king.rank()
                == match color {
                    Color::White => Rank::First,
                    Color::Black => Rank::Eighth,
                }
                && !matches!(king.file(), File::D | File::E)
            {
                let files = Bitboard::from_file(king.file()) | adjacent_files(king.file());
                let near = Bitboard::from_rank(shield_rank)
                    | Bitboard::from_rank(match color {
                        Color::White => Rank::Third,
                        Color::Black => Rank::Sixth,
                    });
                let shield = (files & near & our_pawns).count() as i32;
                let files_count = files.count() as i32 / 8;
                let missing = (files_count - shield).max(0);
                terms.add(Term::KingSafety, (-PAWN_SHIELD_MISSING * missing, 0), sign);
            }
        }

        // Pawn structure and passed pawns.
        let pawns = pawn_sets(our_pawns, their_pawns, color);
        // Each pawn of a doubled group pays half, so the group pays once
        // per extra pawn.
        let doubled = pawns.doubled.count() as i32;
        terms.add(
            Term::PawnStructure,
            (
                doubled * (DOUBLED_PAWN.0 / 2),
                doubled * (DOUBLED_PAWN.1 / 2),
            ),
            sign,
        );
        let isolated = pawns.isolated.count() as i32;
        terms.add(
            Term::PawnStructure,
            (isolated * ISOLATED_PAWN.0, isolated * ISOLATED_PAWN.1),
            sign,
        );
        for square in pawns.passed {
            let rank = square.rank().to_usize();
            let relative_rank = if color.is_white() { rank } else { 7 - rank };
            terms.add(Term::PassedPawns, PASSED_PAWN[relative_rank], sign);
        }

        if (board.bishops() & us).more_than_one() {
            terms.add(Term::BishopPair, BISHOP_PAIR, sign);
        }
    }
    phase.min(PHASE_TOTAL)
}

fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL
}

/// Endgames where the side ahead has no pawns and too little extra material
/// to mate (a minor piece up, say) are drawish whatever the count says.
/// Returns the factor (out of 16) applied to the score.
fn endgame_scale(board: &Board, white_ahead: bool) -> i32 {
    let strong = if white_ahead {
        Color::White
    } else {
        Color::Black
    };
    let us = board.by_color(strong);
    if (board.pawns() & us).any() {
        return 16;
    }
    let value = |color: Color| {
        let side = board.by_color(color);
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&role| {
                (board.by_role(role) & side).count() as i32 * MATERIAL_EG[role_index(role)]
            })
            .sum::<i32>()
    };
    let margin = value(strong) - value(!strong);
    if margin < MATERIAL_EG[role_index(Role::Rook)] - 100 {
        2
    } else {
        16
    }
}

/// The evaluation from White's point of view, in centipawns.
pub fn evaluate_white(board: &Board) -> i32 {
    let mut terms = Terms::default();
    let phase = collect(board, &mut terms);
    let (mg, eg) = terms
        .values
        .iter()
        .fold((0, 0), |(a, b), &(mg, eg)| (a + mg, b + eg));
    let score = blend(mg, eg, phase);
    score * endgame_scale(board, score > 0) / 16
}

/// The evaluation for the side to move: positive = good for the player
/// whose turn it is (negamax convention).
pub fn evaluate(position: &Chess) -> i32 {
    let white = evaluate_white(position.board());
    if position.turn().is_white() {
        white
    } else {
        -white
    }
}

/// The evaluation term by term, from White's point of view, for the UI.
pub fn breakdown(position: &Chess) -> Breakdown {
    let board = position.board();
    let mut terms = Terms::default();
    let phase = collect(board, &mut terms);
    let terms: Vec<TermScore> = Term::ALL
        .iter()
        .map(|&term| {
            let (mg, eg) = terms.values[term as usize];
            TermScore {
                term,
                middlegame: mg,
                endgame: eg,
                blended: blend(mg, eg, phase),
            }
        })
        .collect();
    Breakdown {
        phase,
        terms,
        total: evaluate_white(board),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn start_position_is_balanced_and_in_full_middlegame() {
        let b = breakdown(&Chess::default());
        assert_eq!(b.total, 0);
        assert_eq!(b.phase, 24);
    }

    #[test]
    fn mirrored_positions_score_opposite() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let pos = position(fen);
            let mut mirrored = pos.board().clone();
            mirrored.flip_vertical();
            mirrored.swap_colors();
            assert_eq!(
                evaluate_white(pos.board()),
                -evaluate_white(&mirrored),
                "{fen}"
            );
        }
    }

    #[test]
    fn breakdown_terms_add_up_to_the_total() {
        let pos = position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = breakdown(&pos);
        let sum: i32 = b.terms.iter().map(|t| t.blended).sum();
        // Blending rounds each term, so the sum may differ by a few units.
        assert!((sum - b.total).abs() <= 8, "{sum} vs {}", b.total);
    }

    #[test]
    fn an_extra_queen_is_worth_about_a_queen() {
        let pos = position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(evaluate(&pos) > 800);
        let black_to_move = position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(evaluate(&black_to_move) < -800);
    }

    #[test]
    fn passed_pawn_is_recognised() {
        let passed = position("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        let term = |pos: &Chess| {
            breakdown(pos)
                .terms
                .iter()
                .find(|t| t.term == Term::PassedPawns)
                .unwrap()
                .endgame
        };
        assert!(term(&passed) > 0);
        let blocked = position("4k3/2p5/8/3P4/8/8/8/4K3 w - - 0 1");
        assert_eq!(term(&blocked), 0);
    }
}
