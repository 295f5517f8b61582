//! An evaluation network: the position's value learnt from kibitz's own
//! searches instead of written by hand (an "NNUE", efficiently updatable
//! neural network, after Yu Nasu's design for shogi).
//!
//! The hand-written evaluation in `eval.rs` adds up terms a person can read
//! (material, piece-square tables, mobility, king safety, pawns) with
//! weights fitted to game results. It stays: teach mode, the `b` breakdown,
//! the game review and the strength levels below 10 use it, because a
//! learner can follow it term by term. Full-strength searches (level 10,
//! the analysis board, UCI) use the network shipped in
//! `assets/kibitz.nnue` unless UCI `EvalFile` says otherwise.
//!
//! The network knows no terms. It sees only which piece stands on which
//! square, and it learns what those placements are worth from positions
//! scored by kibitz's own search (`kibitz tune selfplay`, trained by
//! `kibitz tune net`, see `src/tune/net.rs`). The shipped one is the ninth
//! network, the first with king buckets; each round learnt from games the
//! evaluation before it played (the first from the hand-written one's),
//! 16.9 million positions in all (docs/engine.md, "The evaluation
//! network").
//!
//! The shape is the smallest that works well, the one most engines start
//! with:
//!
//! ```text
//!   768 inputs ──► 128 ──┐  (side to move's view; rows of 1 of 8, by its king)
//!                        ├─► 256 ──► SCReLU ──► 1 output (of 8, by material)
//!   768 inputs ──► 128 ──┘  (the other side's view; rows by its own king)
//! ```
//!
//! - **Inputs**: one per (piece colour, piece type, square): 2 × 6 × 64 =
//!   768, each 1 when that piece stands there. A position lights about 20
//!   to 32 of them.
//! - **Two views**: the same position is fed twice, once as White sees it
//!   and once as Black sees it (the board flipped and the colours swapped),
//!   through the *same* first layer. So "my knight on f3" means one thing
//!   for either side, and the network learns it from both sides' positions.
//! - **The first layer** (768 × 128 weights) is only ever a sum of the rows
//!   of the lit inputs: the "accumulator". A move changes two to four
//!   inputs, so the search could update the sum by adding and subtracting a
//!   few rows instead of starting again: that is the "efficiently
//!   updatable" of the name.
//! - **King buckets**: there are eight first layers, and each view's own
//!   king chooses the one its sums are made with ([`king_bucket`]: castled
//!   in a corner, still in the centre of the first rank, on the second
//!   rank, or out in the open, each on the queen's or the king's half).
//!   A knight on f3 means one thing beside a king on g1 and another beside
//!   a king on c1; with one layer the network could only learn that from
//!   the few neurons that combine the two. The price: when a king moves
//!   to another bucket, its view's sums are made again (from the sums that
//!   bucket last had, see `stack.rs`), and the first layer is eight times
//!   larger (1.5 MB).
//! - **SCReLU**: each of the 256 sums (the side to move's 128 first) is
//!   clipped to 0..1 and squared, then a weighted sum gives the value.
//! - **Output buckets**: there are eight sets of output weights, and the
//!   number of pieces on the board chooses one (2-5 pieces the first, 30-32
//!   the last). What a neuron's pattern is worth changes as the pieces come
//!   off (a passed pawn, a king in the open), and the separate outputs let
//!   each stage weigh the same patterns its own way, at the cost of one
//!   choice per evaluation.
//!
//! In the engine every number is an integer: the first layer's weights are
//! multiplied by [`QA`] and stored as `i16`, the output weights by [`QB`];
//! a clipped neuron (0..255) is squared and divided by 256, which leaves
//! 0..254 for 0..1; the result is brought back to centipawns at the end.
//! Integer sums are exact, so the same position gets the same value on
//! every machine and in every order of updates.

use shakmaty::{Board, CastlingSide, Color, Move, Piece, Role, Square};
use thiserror::Error;

mod stack;
pub use stack::Stack;

/// The network shipped inside kibitz: `assets/kibitz.nnue`, made by
/// `kibitz tune net` from `kibitz tune selfplay` games (docs/engine.md,
/// "The evaluation network", says how to make it again).
const BUILTIN: &[u8] = include_bytes!("../../assets/kibitz.nnue");

/// Whether full-strength searches evaluate with the shipped network
/// unless told otherwise (UCI `EvalFile`).
pub const BY_DEFAULT: bool = true;

/// The network a new engine starts with: the shipped one when it is the
/// default, else none (the hand-written evaluation).
pub fn default_network() -> Option<std::sync::Arc<Network>> {
    if BY_DEFAULT { builtin() } else { None }
}

/// The shipped network, read once. `None` only if the file compiled in
/// were damaged, which a test rules out.
pub fn builtin() -> Option<std::sync::Arc<Network>> {
    static NETWORK: std::sync::OnceLock<Option<std::sync::Arc<Network>>> =
        std::sync::OnceLock::new();
    NETWORK
        .get_or_init(|| Network::from_bytes(BUILTIN).ok().map(std::sync::Arc::new))
        .clone()
}

/// The name that chooses the shipped network (UCI `EvalFile`, `tune
/// selfplay --eval`), as `builtin` chooses the shipped book.
pub const BUILTIN_NAME: &str = "builtin";
/// The name that chooses the hand-written evaluation.
pub const HANDWRITTEN: &str = "handwritten";
/// Larger than any network file this kibitz reads.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The evaluation a user named: `builtin`, `handwritten` (or nothing: the
/// hand-written evaluation, `None`), or the path of a network file. The
/// error says what is wrong with the file, for the caller to add what it
/// leaves unchanged.
pub fn choose(name: &str) -> Result<Option<std::sync::Arc<Network>>, String> {
    let name = name.trim();
    // The keywords in any case, as a GUI or a person may type them.
    if name.is_empty() || name == "<empty>" || name.eq_ignore_ascii_case(HANDWRITTEN) {
        return Ok(None);
    }
    if name.eq_ignore_ascii_case(BUILTIN_NAME) {
        return builtin()
            .map(Some)
            .ok_or_else(|| "the built-in network is damaged".to_string());
    }
    let path = std::path::Path::new(name);
    let bytes = crate::fsutil::read_capped(path, MAX_FILE_BYTES, "evaluation network")
        .map_err(|e| e.to_string())?;
    let net = Network::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"))?;
    Ok(Some(std::sync::Arc::new(net)))
}

/// Inputs: 2 colours × 6 piece types × 64 squares.
pub const INPUTS: usize = 768;
/// Neurons of the first layer, per view.
pub const HIDDEN: usize = 128;
/// The first layer's fixed-point scale: 1.0 is stored as 255, so a clipped
/// neuron runs from 0 to 255.
pub const QA: i32 = 255;
/// The output layer's fixed-point scale. The trained output weights are
/// small (a tenth or so: 256 of them add up), so they need a fine scale:
/// at 64 the rounding moved values by 5-6 centipawns on average.
pub const QB: i32 = 1024;
/// A squared neuron at 1.0: 255² / 256, rounded down.
const SQUARED_ONE: i32 = 254;
/// The network's output times this is centipawns.
pub const SCALE: i32 = 400;
/// No network value goes beyond this many centipawns (far below the
/// values that mean a tablebase win or a mate).
const MAX_VALUE: i32 = 10_000;

/// Output weight sets, chosen by the number of pieces on the board.
pub const OUTPUT_BUCKETS: usize = 8;

/// First-layer weight sets, chosen for each view by where that view's own
/// king stands (see [`king_bucket`]).
pub const KING_BUCKETS: usize = 8;
/// Rows of the first layer: every input once per king bucket.
pub const ROWS: usize = KING_BUCKETS * INPUTS;

/// The king bucket for a king on `square` as seen from its own side
/// (`square` already turned round for Black, so that its first rank is
/// rank 1): four regions, each split into the queen's half (files a-d)
/// and the king's half (e-h). The regions are where a king's surroundings
/// mean different things: castled in a corner of the first rank (a-c,
/// f-h), still in the centre of it (d, e), stepped up to the second rank,
/// and out in the open (the third rank and beyond, mostly endings).
#[inline]
pub fn relative_king_bucket(square: usize) -> usize {
    let (file, rank) = (square % 8, square / 8);
    let region = match rank {
        0 if file == 3 || file == 4 => 1,
        0 => 0,
        1 => 2,
        _ => 3,
    };
    region * 2 + usize::from(file >= 4)
}

/// The king bucket of `view`'s king on `square` (a board square).
#[inline]
pub fn king_bucket(view: Color, square: Square) -> usize {
    relative_king_bucket(match view {
        Color::White => usize::from(square),
        Color::Black => usize::from(square) ^ 56,
    })
}

/// `view`'s king bucket on `board` (0 on a board without that king,
/// which no game reaches).
fn bucket_on(board: &Board, view: Color) -> usize {
    board
        .king_of(view)
        .map_or(0, |king| king_bucket(view, king))
}

/// All-zero first-layer rows, made on the heap (1.5 MB would not fit a
/// test thread's stack).
pub fn zero_rows() -> Box<[[i16; HIDDEN]; ROWS]> {
    let rows = vec![[0i16; HIDDEN]; ROWS].into_boxed_slice();
    match rows.try_into() {
        Ok(rows) => rows,
        Err(_) => unreachable!("the vector has ROWS rows"),
    }
}

/// The output bucket for a board with `pieces` pieces (kings included):
/// 2-5 → 0, 6-9 → 1, … 30-32 → 7.
#[inline]
pub fn output_bucket(pieces: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(OUTPUT_BUCKETS - 1)
}

const MAGIC: &[u8; 4] = b"KBNN";
/// Format 4 has king buckets; format 3 (output buckets, one first layer)
/// and format 2 (one output, the first shipped network's) are still read,
/// their one first layer used for every king bucket and their one output
/// for every output bucket, so they evaluate as they always did.
const VERSION: u32 = 4;
const VERSION_ONE_LAYER: u32 = 3;
const VERSION_ONE_OUTPUT: u32 = 2;
/// Magic, version, hidden size (format 3 and 4 then the outputs, format 4
/// then the king buckets), then the weights, then a checksum, for a
/// network with `rows` first-layer rows and `outputs` output weight sets.
const fn file_bytes(rows: usize, outputs: usize, header: usize) -> usize {
    header + 2 * (rows * HIDDEN + HIDDEN + outputs * 2 * HIDDEN) + 4 * outputs + 4
}
const FILE_BYTES: usize = file_bytes(ROWS, OUTPUT_BUCKETS, 20);
#[cfg(test)]
const FILE_BYTES_ONE_OUTPUT: usize = file_bytes(INPUTS, 1, 12);

/// Why a network file was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetworkError {
    #[error("the network file is empty")]
    Empty,
    #[error("not a kibitz network (it does not start with KBNN)")]
    NotANetwork,
    #[error("network format {0}; this kibitz reads formats {VERSION_ONE_OUTPUT} to {VERSION}")]
    Version(u32),
    #[error("the network has {0} outputs; formats 3 and 4 need {OUTPUT_BUCKETS}")]
    Outputs(u32),
    #[error("the network has {0} king buckets; format {VERSION} needs {KING_BUCKETS}")]
    KingBuckets(u32),
    #[error("the network has {0} neurons a view; this kibitz needs {HIDDEN}")]
    Hidden(u32),
    #[error("the network file is {0} bytes; a {HIDDEN}-neuron network of this format is {1}")]
    Size(usize, usize),
    #[error("the network file is damaged (its checksum does not match)")]
    Checksum,
}

/// The input for `piece` on `square` as `view` sees the board: its own
/// pieces first (0..384), then the other side's, each by type (pawn to
/// king) and square, with the board turned round for Black so that its
/// first rank is rank 1.
#[inline]
pub fn input(view: Color, piece: Piece, square: Square) -> usize {
    let own = usize::from(piece.color != view);
    let square = match view {
        Color::White => usize::from(square),
        Color::Black => usize::from(square) ^ 56,
    };
    own * 384 + (usize::from(piece.role) - 1) * 64 + square
}

/// The row of input `input` (see [`input`]) for a view whose king is in
/// bucket `bucket`.
#[inline]
pub fn feature(bucket: usize, input: usize) -> usize {
    bucket * INPUTS + input
}

/// The first layer's sums for both views, by `Color as usize` (shakmaty
/// numbers Black 0 and White 1), and the king bucket each view's sums
/// were made with.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub views: [[i16; HIDDEN]; 2],
    pub buckets: [u8; 2],
}

/// A trained network, in the engine's integer form.
#[derive(Clone)]
pub struct Network {
    /// Row [`feature`]`(b, i)` is added to a view's sums when input `i` is
    /// lit and the view's king is in bucket `b`.
    rows: Box<[[i16; HIDDEN]; ROWS]>,
    bias: [i16; HIDDEN],
    /// For each output bucket: the side to move's 128 neurons' weights,
    /// then the other side's.
    output: Box<[[i16; 2 * HIDDEN]; OUTPUT_BUCKETS]>,
    output_bias: [i32; OUTPUT_BUCKETS],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({HIDDEN} neurons a view)")
    }
}

impl Network {
    /// A network from its parts (the trainer's quantized weights).
    pub fn from_parts(
        rows: Box<[[i16; HIDDEN]; ROWS]>,
        bias: [i16; HIDDEN],
        output: Box<[[i16; 2 * HIDDEN]; OUTPUT_BUCKETS]>,
        output_bias: [i32; OUTPUT_BUCKETS],
    ) -> Network {
        Network {
            rows,
            bias,
            output,
            output_bias,
        }
    }

    /// The network's parts, as [`Network::from_parts`] takes them (for the
    /// trainer, which can start from a network instead of random weights).
    #[allow(clippy::type_complexity)]
    pub fn parts(
        &self,
    ) -> (
        &[[i16; HIDDEN]; ROWS],
        &[i16; HIDDEN],
        &[[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
        &[i32; OUTPUT_BUCKETS],
    ) {
        (&self.rows, &self.bias, &self.output, &self.output_bias)
    }

    /// Read a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.is_empty() {
            return Err(NetworkError::Empty);
        }
        // A file cut off in its header (KBNN and less than the rest of
        // it) is a short network file, not some other file.
        let start = &bytes[..bytes.len().min(MAGIC.len())];
        if start != &MAGIC[..start.len()] {
            return Err(NetworkError::NotANetwork);
        }
        if bytes.len() < 12 {
            return Err(NetworkError::Size(bytes.len(), FILE_BYTES));
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (outputs, layers, header) = match word(4) {
            VERSION_ONE_OUTPUT => (1, 1, 12),
            VERSION_ONE_LAYER if bytes.len() >= 16 => (word(12) as usize, 1, 16),
            VERSION if bytes.len() >= 20 => (word(12) as usize, word(16) as usize, 20),
            VERSION | VERSION_ONE_LAYER => {
                return Err(NetworkError::Size(bytes.len(), FILE_BYTES));
            }
            other => return Err(NetworkError::Version(other)),
        };
        if word(8) != HIDDEN as u32 {
            return Err(NetworkError::Hidden(word(8)));
        }
        if header >= 16 && outputs != OUTPUT_BUCKETS {
            return Err(NetworkError::Outputs(outputs as u32));
        }
        if header == 20 && layers != KING_BUCKETS {
            return Err(NetworkError::KingBuckets(layers as u32));
        }
        let size = file_bytes(layers * INPUTS, outputs, header);
        if bytes.len() != size {
            return Err(NetworkError::Size(bytes.len(), size));
        }
        if checksum(&bytes[..size - 4]) != word(size - 4) {
            return Err(NetworkError::Checksum);
        }
        let mut at = header;
        let mut next = || {
            let value = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            value
        };
        let mut rows = zero_rows();
        for row in rows.iter_mut().take(layers * INPUTS) {
            for weight in row.iter_mut() {
                *weight = next();
            }
        }
        if layers == 1 {
            // Formats 2 and 3: the one first layer serves every bucket.
            let (first, rest) = rows.split_at_mut(INPUTS);
            for bucket in rest.chunks_mut(INPUTS) {
                bucket.copy_from_slice(first);
            }
        }
        let bias = std::array::from_fn(|_| next());
        let mut output = Box::new([[0i16; 2 * HIDDEN]; OUTPUT_BUCKETS]);
        for bucket in output.iter_mut().take(outputs) {
            *bucket = std::array::from_fn(|_| next());
        }
        let biases_at = size - 4 - 4 * outputs;
        let mut output_bias: [i32; OUTPUT_BUCKETS] =
            std::array::from_fn(|b| word(biases_at + 4 * b.min(outputs - 1)) as i32);
        if outputs == 1 {
            // Format 2: the one output serves every bucket.
            let only = output[0];
            output.fill(only);
            output_bias = [output_bias[0]; OUTPUT_BUCKETS];
        }
        Ok(Network {
            rows,
            bias,
            output,
            output_bias,
        })
    }

    /// The network file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(FILE_BYTES);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        bytes.extend_from_slice(&(OUTPUT_BUCKETS as u32).to_le_bytes());
        bytes.extend_from_slice(&(KING_BUCKETS as u32).to_le_bytes());
        let weights = self
            .rows
            .iter()
            .flatten()
            .chain(&self.bias)
            .chain(self.output.iter().flatten());
        for w in weights {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Both views' sums for `board`, from nothing.
    pub fn accumulate(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            views: [self.bias; 2],
            buckets: [0; 2],
        };
        for view in Color::ALL {
            acc.buckets[view as usize] = bucket_on(board, view) as u8;
        }
        for (square, piece) in board {
            for view in Color::ALL {
                let bucket = usize::from(acc.buckets[view as usize]);
                let row = &self.rows[feature(bucket, input(view, piece, square))];
                for (sum, w) in acc.views[view as usize].iter_mut().zip(row) {
                    *sum = sum.wrapping_add(*w);
                }
            }
        }
        acc
    }

    /// The value for the side to move (`turn`), in centipawns, of a board
    /// with these sums and `pieces` pieces.
    #[inline(always)]
    pub fn evaluate_with(&self, acc: &Accumulator, turn: Color, pieces: usize) -> i32 {
        let bucket = output_bucket(pieces);
        let (us, them) = (&acc.views[turn as usize], &acc.views[(!turn) as usize]);
        let (own, other) = self.output[bucket].split_at(HIDDEN);
        let sum = screlu_dot(us, own) + screlu_dot(them, other);
        // sum is in SQUARED_ONE × QB units: to QB units, add the bias (QB
        // units), then to centipawns. In 64 bits and clamped: a trained
        // network stays far inside, but a file made by hand could reach
        // past any `i32` or into the values that mean mate.
        let value = (i64::from(sum / SQUARED_ONE) + i64::from(self.output_bias[bucket]))
            * i64::from(SCALE)
            / i64::from(QB);
        value.clamp(-i64::from(MAX_VALUE), i64::from(MAX_VALUE)) as i32
    }

    /// The value for the side to move of a board, in centipawns, computed
    /// from nothing.
    pub fn evaluate(&self, board: &Board, turn: Color) -> i32 {
        let pieces = board.occupied().count();
        self.evaluate_with(&self.accumulate(board), turn, pieces)
    }
}

/// What a move changes on the board, as pieces taken off and put on
/// squares: at most two of each (castling moves two pieces; a capture or
/// en passant takes one off besides the one that moves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    off: [Option<(Piece, Square)>; 2],
    on: [Option<(Piece, Square)>; 2],
}

impl Delta {
    /// Whether a king moves to another king bucket (see [`king_bucket`]):
    /// then its view's sums are made again for the new board, since every
    /// row of that view changes.
    #[inline]
    pub fn moves_king_across_buckets(&self) -> bool {
        let king =
            |change: &Option<(Piece, Square)>| change.filter(|(piece, _)| piece.role == Role::King);
        match (
            self.off.iter().find_map(king),
            self.on.iter().find_map(king),
        ) {
            (Some((piece, from)), Some((_, to))) => {
                king_bucket(piece.color, from) != king_bucket(piece.color, to)
            }
            _ => false,
        }
    }

    /// Nothing changes (a null move: the same pieces, the other side to
    /// move, which the output reads from the views' order).
    pub const NONE: Delta = Delta {
        off: [None; 2],
        on: [None; 2],
    };

    /// The change `m` makes when `turn` plays it.
    pub fn of(turn: Color, m: Move) -> Delta {
        let piece = |role: Role| Some(Piece { color: turn, role });
        let theirs = |role: Role| Some(Piece { color: !turn, role });
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => Delta {
                off: [
                    piece(role).map(|p| (p, from)),
                    capture.and_then(theirs).map(|p| (p, to)),
                ],
                on: [piece(promotion.unwrap_or(role)).map(|p| (p, to)), None],
            },
            Move::EnPassant { from, to } => Delta {
                off: [
                    piece(Role::Pawn).map(|p| (p, from)),
                    theirs(Role::Pawn).map(|p| (p, Square::from_coords(to.file(), from.rank()))),
                ],
                on: [piece(Role::Pawn).map(|p| (p, to)), None],
            },
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                let rank = king.rank();
                Delta {
                    off: [
                        piece(Role::King).map(|p| (p, king)),
                        piece(Role::Rook).map(|p| (p, rook)),
                    ],
                    on: [
                        piece(Role::King)
                            .map(|p| (p, Square::from_coords(side.king_to_file(), rank))),
                        piece(Role::Rook)
                            .map(|p| (p, Square::from_coords(side.rook_to_file(), rank))),
                    ],
                }
            }
            // Crazyhouse drops never reach this engine (standard chess and
            // Chess960 only); as a change it would be one piece put on.
            Move::Put { role, to } => Delta {
                off: [None; 2],
                on: [piece(role).map(|p| (p, to)), None],
            },
        }
    }
}

/// Each neuron clipped to 0..QA, squared and divided by 256 (0..254,
/// [`SQUARED_ONE`] for 1.0), times its weight (QB for 1.0), added up. The
/// square fits 16 unsigned bits (255² = 65,025) and so does the quotient,
/// so the compiler can square 16-bit lanes and multiply-add pairs into 32
/// bits (`pmaddwd`), many neurons at a time. Any `i16` weight is safe:
/// 256 × 254 × 32,767 < 2³¹.
#[inline(always)]
fn screlu_dot(neurons: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (v, w) in neurons.iter().zip(&weights[..HIDDEN]) {
        let v = (*v).clamp(0, QA as i16) as u16;
        let squared = ((v * v) >> 8) as i16;
        sum += i32::from(squared) * i32::from(*w);
    }
    sum
}

/// FNV-1a over the bytes: enough to tell a damaged or cut file.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests;
