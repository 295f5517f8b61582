//! The network's sums kept up to date along the search's line: one
//! accumulator per ply, each made from its parent's by the move between
//! them, and, when a king steps into another bucket, made again from a
//! remembered board rather than from nothing.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::{Accumulator, Delta, HIDDEN, KING_BUCKETS, Network, bucket_on, feature, input};

/// A view's sums as last made for one king bucket, and the pieces they
/// hold. Making a view's sums again after its king changed bucket starts
/// from here: only the pieces that came or went since then change the sums
/// (a few, when the king steps back and forth), where making them from
/// nothing adds a row for every piece on the board (20 to 32).
///
/// Engine authors call this an accumulator cache (Stockfish's
/// `AccumulatorCaches`). Before it, making sums from nothing took 6.5% of
/// the time of `kibitz bench --eval builtin` (`perf record`).
#[derive(Clone)]
struct Remembered {
    sums: [i16; HIDDEN],
    /// The pieces in `sums`: by colour (`Color as usize`), then by role
    /// (`Role as usize - 1`).
    pieces: [[Bitboard; 6]; 2],
}

/// The accumulators along the line the search is on, one per ply, each
/// made from its parent's by the move between them, and only when the
/// position is evaluated: many nodes end (a table cutoff, a repetition)
/// before they need their value, and skip the work.
pub struct Stack {
    accs: Vec<Accumulator>,
    /// `deltas[ply]`: the change from ply - 1 to ply.
    deltas: Vec<Delta>,
    /// `fresh[ply]`: `accs[ply]` holds the sums of the position now at
    /// that ply.
    fresh: Vec<bool>,
    /// `remembered[view * KING_BUCKETS + bucket]`: see [`Remembered`].
    /// A stack serves one network (a search's), so these stay true.
    remembered: Vec<Remembered>,
    /// Whether this processor has AVX2 (asked once, here, not per node).
    #[cfg(target_arch = "x86_64")]
    avx2: bool,
}

impl Stack {
    /// A stack for `plies` plies from the root position `root`.
    pub fn new(net: &Network, root: &Board, plies: usize) -> Stack {
        let plies = plies.max(1);
        let mut accs = vec![
            Accumulator {
                views: [[0; HIDDEN]; 2],
                buckets: [0; 2],
            };
            plies
        ];
        accs[0] = net.accumulate(root);
        let mut fresh = vec![false; plies];
        fresh[0] = true;
        Stack {
            accs,
            deltas: vec![Delta::NONE; plies],
            fresh,
            // Empty boards: the sums of no pieces are the bias.
            remembered: vec![
                Remembered {
                    sums: net.bias,
                    pieces: [[Bitboard::EMPTY; 6]; 2],
                };
                2 * KING_BUCKETS
            ],
            #[cfg(target_arch = "x86_64")]
            avx2: std::is_x86_feature_detected!("avx2"),
        }
    }

    /// The position at `ply` is now its parent's after `delta`.
    #[inline]
    pub fn push(&mut self, ply: usize, delta: Delta) {
        if ply < self.deltas.len() {
            self.deltas[ply] = delta;
            self.fresh[ply] = false;
        }
    }

    /// The value of the position at `ply` for `turn`, the side to move
    /// there: its sums brought up to date from the nearest fresh ancestor
    /// (or made from `board` when the line is deeper than the stack).
    pub fn evaluate(&mut self, net: &Network, ply: usize, board: &Board, turn: Color) -> i32 {
        if ply >= self.accs.len() {
            return net.evaluate(board, turn);
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the processor has AVX2 (see
            // `Stack::new`), the one requirement of this function.
            return unsafe { self.evaluate_avx2(net, ply, board, turn) };
        }
        self.evaluate_here(net, ply, board, turn)
    }

    /// [`Stack::evaluate`] compiled for processors with AVX2: the same
    /// code, but the compiler may use 256-bit registers, 16 neurons at a
    /// time instead of 8. The shipped binary targets every x86-64
    /// processor, so it asks at run time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&mut self, net: &Network, ply: usize, board: &Board, turn: Color) -> i32 {
        self.evaluate_here(net, ply, board, turn)
    }

    #[inline(always)]
    fn evaluate_here(&mut self, net: &Network, ply: usize, board: &Board, turn: Color) -> i32 {
        let mut from = ply;
        while !self.fresh[from] {
            // Ply 0 is always fresh, so this stops.
            from -= 1;
        }
        if self.deltas[from + 1..=ply]
            .iter()
            .any(Delta::moves_king_across_buckets)
        {
            // A king changed bucket on the way: every row of its view
            // changes, so both views' sums are made again for this board
            // from what each view's bucket remembers (the plies in
            // between, whose boards are not at hand, stay stale).
            for view in Color::ALL {
                self.refresh(net, ply, board, view);
            }
            self.fresh[ply] = true;
        } else {
            for at in from + 1..=ply {
                let (before, after) = self.accs.split_at_mut(at);
                net.update(&before[at - 1], &mut after[0], &self.deltas[at]);
                self.fresh[at] = true;
            }
        }
        let value = net.evaluate_with(&self.accs[ply], turn, board.occupied().count());
        // Unit tests check every incremental value against one made from
        // nothing (`a_search_with_a_network_evaluates_every_node_as_from_nothing`
        // in `nnue/tests.rs`).
        #[cfg(test)]
        assert_eq!(value, net.evaluate(board, turn), "ply {ply}");
        value
    }

    /// `view`'s sums at `ply` made for `board`: its bucket's remembered
    /// sums, with the rows of the pieces that have come since added and
    /// of those that have gone subtracted; then remembered for next time.
    #[inline(always)]
    fn refresh(&mut self, net: &Network, ply: usize, board: &Board, view: Color) {
        let v = view as usize;
        let bucket = bucket_on(board, view);
        let memory = &mut self.remembered[v * KING_BUCKETS + bucket];
        for color in Color::ALL {
            for (r, role) in Role::ALL.into_iter().enumerate() {
                let piece = Piece { color, role };
                let now = board.by_piece(piece);
                let was = &mut memory.pieces[color as usize][r];
                let row = |square| &net.rows[feature(bucket, input(view, piece, square))];
                for square in now & !*was {
                    for (sum, w) in memory.sums.iter_mut().zip(row(square)) {
                        *sum = sum.wrapping_add(*w);
                    }
                }
                for square in *was & !now {
                    for (sum, w) in memory.sums.iter_mut().zip(row(square)) {
                        *sum = sum.wrapping_sub(*w);
                    }
                }
                *was = now;
            }
        }
        let acc = &mut self.accs[ply];
        acc.views[v] = memory.sums;
        acc.buckets[v] = bucket as u8;
    }
}

impl Network {
    /// `after` = `before` with the rows of the pieces `delta` takes off
    /// subtracted and those it puts on added, in both views. The usual
    /// moves (a quiet move: one piece off, one on; a capture: two off, one
    /// on) go in one pass over the sums, reading `before` once and writing
    /// `after` once; castling and the rest copy first.
    #[inline(always)]
    fn update(&self, before: &Accumulator, after: &mut Accumulator, delta: &Delta) {
        after.buckets = before.buckets;
        for view in Color::ALL {
            let v = view as usize;
            let bucket = usize::from(before.buckets[v]);
            let row = |change: Option<(Piece, Square)>| {
                change
                    .map(|(piece, square)| &self.rows[feature(bucket, input(view, piece, square))])
            };
            let (old, out) = (&before.views[v], &mut after.views[v]);
            match (
                row(delta.on[0]),
                row(delta.on[1]),
                row(delta.off[0]),
                row(delta.off[1]),
            ) {
                (Some(on), None, Some(off), None) => {
                    for (((o, a), n), f) in out.iter_mut().zip(old).zip(on).zip(off) {
                        *o = a.wrapping_add(*n).wrapping_sub(*f);
                    }
                }
                (Some(on), None, Some(off1), Some(off2)) => {
                    let sums = out.iter_mut().zip(old).zip(on).zip(off1).zip(off2);
                    for ((((o, a), n), f1), f2) in sums {
                        *o = a.wrapping_add(*n).wrapping_sub(*f1).wrapping_sub(*f2);
                    }
                }
                (on1, on2, off1, off2) => {
                    out.copy_from_slice(old);
                    for row in [on1, on2].into_iter().flatten() {
                        for (s, w) in out.iter_mut().zip(row) {
                            *s = s.wrapping_add(*w);
                        }
                    }
                    for row in [off1, off2].into_iter().flatten() {
                        for (s, w) in out.iter_mut().zip(row) {
                            *s = s.wrapping_sub(*w);
                        }
                    }
                }
            }
        }
    }
}
