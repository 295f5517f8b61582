//! Static evaluation: how good is a position, without looking ahead?
//!
//! The search can only look a few moves deep; at the end of every line it
//! asks this module for a number. The number is a sum of named *terms*, each
//! a piece of chess knowledge a club player would recognise (material, piece
//! placement, mobility, king safety, pawn structure, passed pawns, the bishop
//! pair, rooks on open files, threats). The same code adds the terms up
//! for the search and keeps them apart for the UI, which explains a score
//! term by term ([`breakdown`]).
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

use std::ops::Range;

use serde::Serialize;
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, File, Position, Rank, Role, Square};

use super::pawns::{ahead_of, pawn_attacks_of, pawn_sets};
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
    Threats,
}

impl Term {
    pub const ALL: [Term; 9] = [
        Term::Material,
        Term::PieceSquare,
        Term::Mobility,
        Term::KingSafety,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::BishopPair,
        Term::RookFiles,
        Term::Threats,
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
            Term::Threats => "threats",
        }
    }
}

// ---------------------------------------------------------------------------
// Tuning constants. Units are centipawns, as (middlegame, endgame) pairs.
// Material and piece-square values are PeSTO's (see pst.rs); the rest are
// modest hand-set values, small enough not to swamp the tuned tables.
// ---------------------------------------------------------------------------

/// Typical safe-square count per role (pawn, knight, bishop, rook, queen, king).
const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];

/// One weight of the evaluation, whatever its shape: a number, a
/// (middlegame, endgame) pair, or an array of either by role or rank. The
/// shape says how the weight prints as Rust and what its tuning slots are
/// called, so the table of weights below names each weight only once.
trait Weight {
    /// The weight as a Rust expression.
    fn rust(&self) -> String;
    /// The numbers a tuner may change, named as the source spells them
    /// (`bishop_pair.0`, `mobility[1].1`); of an array, only the entries
    /// `tuned` lists.
    fn slots<'a>(&'a mut self, name: &str, tuned: Range<usize>, out: &mut Slots<'a>);
}

/// Tuning slots: each number a tuner may change, with its name.
type Slots<'a> = Vec<(String, &'a mut i32)>;

impl Weight for i32 {
    fn rust(&self) -> String {
        self.to_string()
    }

    fn slots<'a>(&'a mut self, name: &str, _: Range<usize>, out: &mut Slots<'a>) {
        out.push((name.to_string(), self));
    }
}

impl Weight for (i32, i32) {
    fn rust(&self) -> String {
        format!("({}, {})", self.0, self.1)
    }

    fn slots<'a>(&'a mut self, name: &str, _: Range<usize>, out: &mut Slots<'a>) {
        out.push((format!("{name}.0"), &mut self.0));
        out.push((format!("{name}.1"), &mut self.1));
    }
}

impl<W: Weight, const N: usize> Weight for [W; N] {
    fn rust(&self) -> String {
        let items: Vec<String> = self.iter().map(Weight::rust).collect();
        format!("[{}]", items.join(", "))
    }

    fn slots<'a>(&'a mut self, name: &str, tuned: Range<usize>, out: &mut Slots<'a>) {
        for (i, item) in self.iter_mut().enumerate() {
            if tuned.contains(&i) {
                item.slots(&format!("{name}[{i}]"), 0..0, out);
            }
        }
    }
}

/// Which entries of a weight a tuner may change: those named, else all.
macro_rules! tuned {
    () => {
        0..usize::MAX
    };
    ($range:expr) => {
        $range
    };
}

/// Declares [`EvalParams`] from a table with one line per weight: its
/// name, its type, the value the engine plays with, and (for an array)
/// which entries a tuner may change. The struct, its `DEFAULT`, its
/// tuning slots and its Rust print all come from that one line; adding a
/// weight is adding a line (and the code in `collect` that uses it).
///
/// The order of the lines is the order of the tuning slots, which the
/// tuner walks in turn: changing it changes what a tuning run finds.
macro_rules! eval_params {
    ($(
        $(#[$doc:meta])*
        $name:ident: $ty:ty = $default:expr $(, tune $tuned:expr)?;
    )*) => {
        /// The weights of the terms beyond material and piece-square
        /// tables: what `kibitz tune fit` adjusts (Texel's method: the
        /// weights that best predict game results from positions). The
        /// search reads [`EvalParams::DEFAULT`]; the tuner tries others
        /// without rebuilding.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct EvalParams {
            $($(#[$doc])* pub $name: $ty,)*
        }

        impl EvalParams {
            /// The weights the engine plays with.
            pub const DEFAULT: EvalParams = EvalParams { $($name: $default,)* };

            /// Every weight a tuner may change, with its name as the source
            /// spells it (`mobility[1].0` = the knight's middlegame mobility
            /// weight). Entries that can never count (a pawn's mobility, a
            /// passed pawn on the first or last rank) are left out.
            pub fn slots(&mut self) -> Vec<(String, &mut i32)> {
                let mut slots = Vec::new();
                let EvalParams { $($name,)* } = self;
                $(Weight::slots($name, stringify!($name), tuned!($($tuned)?), &mut slots);)*
                slots
            }

            /// The weights as a Rust expression, for a tuner's report: the
            /// values to copy into the table in `eval.rs`.
            pub fn to_rust(&self) -> String {
                let mut text = String::from("EvalParams {\n");
                $(text.push_str(&format!("    {}: {},\n", stringify!($name), self.$name.rust()));)*
                text.push('}');
                text
            }
        }
    };
}
eval_params! {
    /// Per square a piece attacks beyond a typical count (so an average
    /// piece scores about zero), per role. Squares held by own pieces or
    /// attacked by enemy pawns do not count: a knight "attacking" them is
    /// not going anywhere.
    mobility: [(i32, i32); 6] = [(0, 0), (4, 4), (4, 5), (2, 4), (1, 2), (0, 0)], tune 1..5;
    /// Attack weight of each role on the squares around the enemy king, in
    /// quarters.
    king_attack: [i32; 6] = [0, 8, 8, 12, 20, 0], tune 1..5;
    /// The king-danger bonus (middlegame only) is the attack weight times
    /// the number of attackers times this, over 8: squared in the number of
    /// attackers, since one attacker is a nuisance and three a mating net.
    king_attack_scale: i32 = 3;
    /// Missing pawn in front of a castled king, per file (middlegame only).
    pawn_shield_missing: i32 = 12;
    /// Endgame, per passed pawn and per rank beyond the third: the
    /// enemy king's distance to the square in front of the pawn (it must
    /// catch it) ...
    passed_enemy_king: i32 = 5;
    /// ... and our king's (it escorts it), which counts against.
    passed_own_king: i32 = 5;
    /// Endgame, per passed pawn with nothing on its road to the last rank
    /// and no enemy guard on its next square, times the square of its
    /// rank beyond the third: it simply walks on, and a defender must give
    /// up something to stop it.
    passed_free: i32 = 4;
    /// Per pawn of a doubled group; the group pays half of this per pawn.
    doubled_pawn: (i32, i32) = (-8, -20);
    isolated_pawn: (i32, i32) = (-10, -12);
    bishop_pair: (i32, i32) = (28, 50);
    rook_open_file: (i32, i32) = (24, 8);
    rook_semi_open_file: (i32, i32) = (10, 6);
    /// Per piece (not a pawn or the king) attacked by an enemy pawn: it
    /// must move away, losing time, or be lost.
    threat_by_pawn: (i32, i32) = (31, 46);
    /// Per rook or queen attacked by an enemy knight or bishop: a fork or
    /// an exchange is in the air.
    threat_by_minor: (i32, i32) = (40, 9);
    /// A passed pawn whose next square is occupied cannot run.
    passed_blocked: (i32, i32) = (-8, 2);
    /// Passed pawn bonus by rank from its own side (index 0 = rank 1).
    /// PeSTO's pawn table already pays for advanced pawns, so this is the
    /// extra for having no enemy pawn able to stop it.
    passed_pawn: [(i32, i32); 8] =
        [(0, 0), (2, 8), (4, 12), (8, 20), (16, 36), (28, 60), (40, 90), (0, 0)], tune 1..7;
}

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

/// Where [`collect`] puts each term's (mg, eg), with its sign (+1 for
/// White, -1 for Black).
trait Sink {
    fn add(&mut self, term: Term, value: (i32, i32), sign: i32);
}

/// Accumulates (mg, eg) per term: the breakdown the UI shows.
#[derive(Default)]
struct Terms {
    values: [(i32, i32); 9],
}

impl Sink for Terms {
    #[inline]
    fn add(&mut self, term: Term, (mg, eg): (i32, i32), sign: i32) {
        let slot = &mut self.values[term as usize];
        slot.0 += sign * mg;
        slot.1 += sign * eg;
    }
}

/// Accumulates only the sum of the terms: what the search needs. The same
/// code fills both, so the breakdown always adds up to the search's score,
/// and the search does not pay for keeping the terms apart.
#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Sink for Sum {
    #[inline]
    fn add(&mut self, _term: Term, (mg, eg): (i32, i32), sign: i32) {
        self.mg += sign * mg;
        self.eg += sign * eg;
    }
}

fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// The square as seen from `color`'s side: White's tables serve Black on
/// the vertically mirrored square.
pub(super) fn relative(square: Square, color: Color) -> usize {
    match color {
        Color::White => square.to_usize(),
        Color::Black => square.flip_vertical().to_usize(),
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

fn collect<S: Sink>(board: &Board, params: &EvalParams, terms: &mut S) -> i32 {
    let occupied = board.occupied();
    let mut phase = 0;
    // Squares each side's knights and bishops attack, by colour.
    let mut minor_attacks = [Bitboard::EMPTY; 2];

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

        // Threats against this side's pieces by enemy pawns (any piece but
        // pawns and the king). Threats by minor pieces are counted after
        // both sides' pieces have been walked, from the attacks found there.
        let pieces = us & !board.pawns() & !board.kings();
        let by_pawn = (pieces & enemy_pawn_attacks).count() as i32;
        terms.add(
            Term::Threats,
            (
                -by_pawn * params.threat_by_pawn.0,
                -by_pawn * params.threat_by_pawn.1,
            ),
            sign,
        );

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
            if matches!(role, Role::Knight | Role::Bishop) {
                minor_attacks[color as usize] |= attacked;
            }
            let safe = (attacked & !us & !enemy_pawn_attacks).count() as i32;
            let (w_mg, w_eg) = params.mobility[r];
            let extra = safe - MOBILITY_BASE[r];
            terms.add(Term::Mobility, (w_mg * extra, w_eg * extra), sign);

            let zone_hits = (attacked & king_zone).count() as i32;
            if zone_hits > 0 {
                king_attackers += 1;
                king_attack_weight += params.king_attack[r] * zone_hits;
            }

            if role == Role::Rook {
                let file = Bitboard::from_file(square.file());
                if (file & board.pawns()).is_empty() {
                    terms.add(Term::RookFiles, params.rook_open_file, sign);
                } else if (file & our_pawns).is_empty() {
                    terms.add(Term::RookFiles, params.rook_semi_open_file, sign);
                }
            }
        }

        // King safety counts in the middlegame only: with the queens gone
        // the king should come out and fight.
        if king_attackers >= 2 {
            let danger = king_attack_weight * king_attackers * params.king_attack_scale / 8;
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
                terms.add(
                    Term::KingSafety,
                    (-params.pawn_shield_missing * missing, 0),
                    sign,
                );
            }
        }

        // Pawn structure and passed pawns (the sets are found in pawns.rs).
        let pawns = pawn_sets(our_pawns, their_pawns, color);
        // Each pawn of a doubled group pays half, so the group pays once
        // per extra pawn.
        let doubled = pawns.doubled.count() as i32;
        terms.add(
            Term::PawnStructure,
            (
                doubled * (params.doubled_pawn.0 / 2),
                doubled * (params.doubled_pawn.1 / 2),
            ),
            sign,
        );
        let isolated = pawns.isolated.count() as i32;
        terms.add(
            Term::PawnStructure,
            (
                isolated * params.isolated_pawn.0,
                isolated * params.isolated_pawn.1,
            ),
            sign,
        );
        for square in pawns.passed {
            let rank = square.rank().to_usize();
            let relative_rank = if color.is_white() { rank } else { 7 - rank };
            terms.add(Term::PassedPawns, params.passed_pawn[relative_rank], sign);
            // The square in front of the pawn (a passed pawn is never on
            // the last rank).
            let Some(stop) = square.offset(if color.is_white() { 8 } else { -8 }) else {
                continue;
            };
            if occupied.contains(stop) {
                terms.add(
                    Term::PassedPawns,
                    (-params.passed_blocked.0, -params.passed_blocked.1),
                    sign,
                );
            }
            // In the endgame the kings decide whether a passer runs: the
            // enemy king must reach its path, ours must escort it. The
            // further the pawn, the more it matters.
            let weight = relative_rank.saturating_sub(2) as i32;
            if weight > 0 {
                let theirs = board.king_of(!color).map_or(0, |k| k.distance(stop) as i32);
                let ours = board.king_of(color).map_or(0, |k| k.distance(stop) as i32);
                let eg =
                    weight * (theirs * params.passed_enemy_king - ours * params.passed_own_king);
                terms.add(Term::PassedPawns, (0, eg), sign);
                // A clear road, and the next square not guarded by the
                // enemy: nothing stands in the pawn's way yet.
                let road = Bitboard(ahead_of(Bitboard::from_square(square), color));
                if (road & occupied).is_empty()
                    && board.attacks_to(stop, !color, occupied).is_empty()
                {
                    terms.add(
                        Term::PassedPawns,
                        (0, params.passed_free * weight * weight),
                        sign,
                    );
                }
            }
        }

        if (board.bishops() & us).more_than_one() {
            terms.add(Term::BishopPair, params.bishop_pair, sign);
        }
    }

    // A rook or queen attacked by an enemy knight or bishop: worth more
    // than its attacker, so a fork or an exchange is in the air.
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        let heavy = board.by_color(color) & (board.rooks() | board.queens());
        let by_minor = (heavy & minor_attacks[(!color) as usize]).count() as i32;
        terms.add(
            Term::Threats,
            (
                -by_minor * params.threat_by_minor.0,
                -by_minor * params.threat_by_minor.1,
            ),
            sign,
        );
    }
    phase.min(PHASE_TOTAL)
}

pub(super) fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
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
    evaluate_white_with(board, &EvalParams::DEFAULT)
}

/// [`evaluate_white`] with other weights (for the tuner).
pub fn evaluate_white_with(board: &Board, params: &EvalParams) -> i32 {
    let mut sum = Sum::default();
    let phase = collect(board, params, &mut sum);
    let score = blend(sum.mg, sum.eg, phase);
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
    let phase = collect(board, &EvalParams::DEFAULT, &mut terms);
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

    /// The table of weights gives the tuner the slots it walked before
    /// the table existed, in the same order, with the same values: a tuning
    /// run finds what it found. The Rust print lists every weight once.
    #[test]
    fn the_table_gives_the_tuner_the_same_slots_in_the_same_order() {
        let mut expected: Vec<(String, i32)> = Vec::new();
        let mut push = |name: String, value: i32| expected.push((name, value));
        for (i, (mg, eg)) in [(1, (4, 4)), (2, (4, 5)), (3, (2, 4)), (4, (1, 2))] {
            push(format!("mobility[{i}].0"), mg);
            push(format!("mobility[{i}].1"), eg);
        }
        for (i, weight) in [(1, 8), (2, 8), (3, 12), (4, 20)] {
            push(format!("king_attack[{i}]"), weight);
        }
        for (name, weight) in [
            ("king_attack_scale", 3),
            ("pawn_shield_missing", 12),
            ("passed_enemy_king", 5),
            ("passed_own_king", 5),
            ("passed_free", 4),
        ] {
            push(name.to_string(), weight);
        }
        for (name, (mg, eg)) in [
            ("doubled_pawn", (-8, -20)),
            ("isolated_pawn", (-10, -12)),
            ("bishop_pair", (28, 50)),
            ("rook_open_file", (24, 8)),
            ("rook_semi_open_file", (10, 6)),
            ("threat_by_pawn", (31, 46)),
            ("threat_by_minor", (40, 9)),
            ("passed_blocked", (-8, 2)),
        ] {
            push(format!("{name}.0"), mg);
            push(format!("{name}.1"), eg);
        }
        for (i, (mg, eg)) in [(2, 8), (4, 12), (8, 20), (16, 36), (28, 60), (40, 90)]
            .into_iter()
            .enumerate()
        {
            push(format!("passed_pawn[{}].0", i + 1), mg);
            push(format!("passed_pawn[{}].1", i + 1), eg);
        }
        let mut params = EvalParams::DEFAULT;
        let got: Vec<(String, i32)> = params
            .slots()
            .into_iter()
            .map(|(name, value)| (name, *value))
            .collect();
        assert_eq!(got, expected);
        assert_eq!(params.mobility[0], (0, 0));
        assert_eq!(params.passed_pawn[7], (0, 0));

        let rust = EvalParams::DEFAULT.to_rust();
        assert!(rust.starts_with("EvalParams {\n    mobility: [(0, 0), (4, 4), (4, 5), (2, 4), (1, 2), (0, 0)],\n    king_attack: [0, 8, 8, 12, 20, 0],\n    king_attack_scale: 3,\n"), "{rust}");
        assert!(rust.ends_with("    passed_pawn: [(0, 0), (2, 8), (4, 12), (8, 20), (16, 36), (28, 60), (40, 90), (0, 0)],\n}"), "{rust}");
        assert_eq!(rust.lines().count(), 18, "{rust}");
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

    fn term(pos: &Chess, term: Term) -> (i32, i32) {
        let t = breakdown(pos)
            .terms
            .into_iter()
            .find(|t| t.term == term)
            .unwrap();
        (t.middlegame, t.endgame)
    }

    #[test]
    fn a_piece_attacked_by_a_pawn_or_a_rook_by_a_minor_is_a_threat() {
        let safe = position("4k3/8/8/4p3/8/N7/8/4K3 w - - 0 1");
        assert_eq!(term(&safe, Term::Threats), (0, 0));
        // The knight on d4 is attacked by the pawn on e5.
        let attacked = position("4k3/8/8/4p3/3N4/8/8/4K3 w - - 0 1");
        let (mg, eg) = term(&attacked, Term::Threats);
        assert!(mg < 0 && eg < 0, "{mg} {eg}");
        // Black's rook on b6 is attacked by the bishop on d4.
        let rook = position("4k3/8/1r6/8/3B4/8/8/4K3 w - - 0 1");
        assert!(term(&rook, Term::Threats).0 > 0);
    }

    #[test]
    fn a_passed_pawn_counts_more_when_the_enemy_king_is_far() {
        let near = position("2k5/8/1P6/8/8/8/8/4K3 w - - 0 1");
        let far = position("8/8/1P6/8/8/8/8/4K2k w - - 0 1");
        assert!(
            term(&far, Term::PassedPawns).1 > term(&near, Term::PassedPawns).1,
            "{:?} {:?}",
            term(&far, Term::PassedPawns),
            term(&near, Term::PassedPawns)
        );
    }

    #[test]
    fn a_passed_pawn_with_a_free_road_counts_more() {
        // The same pawn on d6 and the same kings; only what stands on or
        // guards its road differs.
        let free = position("7k/8/3P4/8/8/8/8/K7 w - - 0 1");
        // A knight on d8 is in the way (it does not guard d7).
        let in_the_way = position("3n3k/8/3P4/8/8/8/8/K7 w - - 0 1");
        // A rook on a7 guards d7, the pawn's next square.
        let guarded = position("7k/r7/3P4/8/8/8/8/K7 w - - 0 1");
        let bonus = EvalParams::DEFAULT.passed_free * 3 * 3;
        let free_eg = term(&free, Term::PassedPawns).1;
        assert_eq!(free_eg - term(&in_the_way, Term::PassedPawns).1, bonus);
        assert_eq!(free_eg - term(&guarded, Term::PassedPawns).1, bonus);
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
