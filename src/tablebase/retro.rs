//! The retrograde generator: exact distance to mate for every position of an
//! endgame of up to four pieces, worked out backwards from the mates.
//!
//! # Indexing
//! A position is a side to move, the squares of its pieces in a fixed order
//! (white king, black king, white pieces, black pieces, strongest first) and,
//! where both sides have pawns, a flag for "the pawn that just moved two
//! squares may be taken en passant". The board's symmetries shrink the
//! table: without pawns the eight reflections and rotations put the white
//! king in the triangle a1-d1-d4 (10 squares); with pawns only the
//! left-right mirror is allowed, and the white king stays on files a-d. Of
//! the several indices one position can have (a symmetric placement, two
//! identical pieces swapped), the smallest is its canonical index; the others
//! are marked invalid, as are impossible placements (two pieces on a square,
//! a pawn on the first or last rank, the side not to move in check).
//!
//! # The method
//! 1. Every position gets its legal moves generated once. Mates are lost in
//!    0 and stalemates drawn. A capture or promotion leaves the table: its
//!    value comes from the smaller, already solved table. Every other move
//!    stays inside: the position keeps a count of the distinct positions it
//!    can reach that are not yet known to be won for the opponent.
//! 2. Then ply by ply, smallest first: a position lost in n makes every
//!    position that can move into it won in n + 1 (if nothing shorter was
//!    found). A position won in n decrements the count of every position
//!    that can move into it; when a count reaches zero and no capture
//!    escapes, that position is lost in the longest of its options + 1.
//!    The predecessors come from un-moves (a piece moved backwards to an
//!    empty square, a pawn pushed back), so each step touches only the
//!    positions next to the newly solved ones.
//! 3. What is never reached is a draw.
//!
//! Processing plies in increasing order makes every win the shortest and
//! every loss the longest, which is what distance to mate means.

use std::ops::ControlFlow;

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Color, Piece, Role, Square, attacks};

use super::material::Material;

/// Most pieces a table holds.
pub const MAX_PIECES: usize = 4;

/// A table entry: draw, win or loss in so many plies, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// Mate in this many plies (odd).
    Win(u8),
    /// Mated in this many plies (even; 0 = checkmated now).
    Loss(u8),
    Draw,
}

impl Value {
    /// 1 won, 0 drawn, -1 lost, as `Wdl::outcome`.
    pub fn outcome(self) -> i8 {
        match self {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        }
    }

    /// The value for the other side, one ply earlier.
    pub fn back(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }
}

/// Stored byte: 0 draw, 1..=127 win in n plies, 128 + n loss in n plies,
/// 255 not a position.
pub const INVALID: u8 = 255;
const DRAW: u8 = 0;

pub fn encode(value: Value) -> u8 {
    match value {
        Value::Draw => DRAW,
        Value::Win(n) => n,
        Value::Loss(n) => 128 + n,
    }
}

pub fn decode(byte: u8) -> Option<Value> {
    match byte {
        INVALID => None,
        DRAW => Some(Value::Draw),
        1..=127 => Some(Value::Win(byte)),
        _ => Some(Value::Loss(byte - 128)),
    }
}

const TRIANGLE: [Square; 10] = [
    Square::A1,
    Square::B1,
    Square::C1,
    Square::D1,
    Square::B2,
    Square::C2,
    Square::D2,
    Square::C3,
    Square::D3,
    Square::D4,
];

/// A placement in table order (`n` pieces used).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub sq: [Square; MAX_PIECES],
    pub stm: Color,
    pub ep: bool,
}

/// The shape of a table's index.
#[derive(Debug, Clone)]
pub struct Layout {
    pub material: Material,
    /// White king, black king, white pieces, black pieces.
    pub pieces: Vec<Piece>,
    ep: bool,
    region: Vec<Square>,
    region_of: [u8; 64],
    pub size: usize,
    /// Each symmetry as a square map: `maps[t][sq]`.
    maps: [[Square; 64]; 8],
    /// For each square of the first king, the symmetries that bring it into
    /// its region (one, or two on the a1-h8 diagonal of a pawnless table):
    /// working these out once keeps `index`, the generator's hottest
    /// function, from trying all eight.
    king_transforms: [ArrayVec<u8, 2>; 64],
}

fn transform(t: u8, sq: Square) -> Square {
    let mut s = sq;
    if t & 4 != 0 {
        s = s.flip_diagonal();
    }
    if t & 1 != 0 {
        s = s.flip_horizontal();
    }
    if t & 2 != 0 {
        s = s.flip_vertical();
    }
    s
}

fn forward(color: Color) -> i32 {
    if color.is_white() { 8 } else { -8 }
}

fn offset(sq: Square, by: i32) -> Option<Square> {
    let i = sq as i32 + by;
    (0..64).contains(&i).then(|| Square::new(i as u32))
}

/// Rank index (0-7) counted from `color`'s side.
fn relative_rank(color: Color, sq: Square) -> u32 {
    let r = u32::from(sq.rank());
    if color.is_white() { r } else { 7 - r }
}

impl Layout {
    pub fn new(material: &Material) -> Layout {
        let mut pieces = vec![Color::White.king(), Color::Black.king()];
        pieces.extend(material.white.iter().map(|&role| Piece {
            color: Color::White,
            role,
        }));
        pieces.extend(material.black.iter().map(|&role| Piece {
            color: Color::Black,
            role,
        }));
        let pawns = material.pawns() > 0;
        let region: Vec<Square> = if pawns {
            Square::ALL
                .into_iter()
                .filter(|s| u32::from(s.file()) < 4)
                .collect()
        } else {
            TRIANGLE.to_vec()
        };
        let mut region_of = [u8::MAX; 64];
        for (i, s) in region.iter().enumerate() {
            region_of[*s as usize] = i as u8;
        }
        let ep = material.both_sides_have_pawns();
        let size =
            (if ep { 2 } else { 1 }) * 2 * region.len() * 64usize.pow(pieces.len() as u32 - 1);
        let mut maps = [[Square::A1; 64]; 8];
        for (t, map) in maps.iter_mut().enumerate() {
            for sq in Square::ALL {
                map[sq as usize] = transform(t as u8, sq);
            }
        }
        let allowed: &[u8] = if pawns {
            &[0, 1]
        } else {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        };
        let king_transforms = std::array::from_fn(|sq| {
            allowed
                .iter()
                .copied()
                .filter(|&t| region_of[maps[usize::from(t)][sq] as usize] != u8::MAX)
                .collect()
        });
        Layout {
            material: material.clone(),
            pieces,
            ep,
            region,
            region_of,
            size,
            maps,
            king_transforms,
        }
    }

    pub fn n(&self) -> usize {
        self.pieces.len()
    }

    fn raw_index(&self, sq: &[Square; MAX_PIECES], stm: Color, ep: bool) -> Option<usize> {
        let region = self.region_of[sq[0] as usize];
        if region == u8::MAX {
            return None;
        }
        let mut index = (usize::from(ep) * 2 + usize::from(stm.is_black())) * self.region.len()
            + usize::from(region);
        for s in &sq[1..self.n()] {
            index = index * 64 + *s as usize;
        }
        Some(index)
    }

    /// The canonical index of a placement.
    pub fn index(&self, pos: &Pos) -> usize {
        let n = self.n();
        let mut best = usize::MAX;
        // Only a symmetry that brings the first king into its region gives
        // an index; `king_transforms` lists those for the king's square.
        for &t in &self.king_transforms[pos.sq[0] as usize] {
            let map = &self.maps[usize::from(t)];
            let mut sq = pos.sq;
            for s in sq.iter_mut().take(n) {
                *s = map[*s as usize];
            }
            // Identical pieces are interchangeable: order them by square.
            for i in 3..n {
                let mut j = i;
                while j > 2 && self.pieces[j - 1] == self.pieces[j] && sq[j - 1] > sq[j] {
                    sq.swap(j - 1, j);
                    j -= 1;
                }
            }
            if let Some(index) = self.raw_index(&sq, pos.stm, pos.ep) {
                best = best.min(index);
            }
        }
        best
    }

    /// The placement an index stands for (whether or not it is valid).
    pub fn decode(&self, mut index: usize) -> Pos {
        let mut sq = [Square::A1; MAX_PIECES];
        for i in (1..self.n()).rev() {
            sq[i] = Square::new((index % 64) as u32);
            index /= 64;
        }
        sq[0] = self.region[index % self.region.len()];
        index /= self.region.len();
        let stm = if index % 2 == 1 {
            Color::Black
        } else {
            Color::White
        };
        let ep = index / 2 == 1;
        Pos { sq, stm, ep }
    }

    fn occupied(&self, pos: &Pos) -> Bitboard {
        let mut occ = Bitboard::EMPTY;
        for s in &pos.sq[..self.n()] {
            occ.add(*s);
        }
        occ
    }

    /// Is `target` attacked by `color`'s pieces (ignoring the one on `skip`)?
    fn attacked(
        &self,
        pos: &Pos,
        target: Square,
        color: Color,
        occ: Bitboard,
        skip: Option<usize>,
    ) -> bool {
        (0..self.n()).any(|i| {
            Some(i) != skip
                && self.pieces[i].color == color
                && attacks::attacks(pos.sq[i], self.pieces[i], occ).contains(target)
        })
    }

    fn in_check(&self, pos: &Pos, color: Color) -> bool {
        let king = if color.is_white() {
            pos.sq[0]
        } else {
            pos.sq[1]
        };
        self.attacked(pos, king, !color, self.occupied(pos), None)
    }

    /// The pawn of `color`, if there is one (tables with an en passant flag
    /// have exactly one per side).
    fn pawn_of(&self, color: Color) -> Option<usize> {
        (0..self.n()).find(|&i| {
            self.pieces[i]
                == Piece {
                    color,
                    role: Role::Pawn,
                }
        })
    }

    /// May `pos.ep` be set: the pawn of the side not to move stands where a
    /// double step put it, the squares it crossed are empty, and a pawn of
    /// the side to move stands beside it?
    fn ep_possible(&self, pos: &Pos) -> bool {
        if !self.ep {
            return false;
        }
        let (Some(moved), Some(taker)) = (self.pawn_of(!pos.stm), self.pawn_of(pos.stm)) else {
            return false;
        };
        let sq = pos.sq[moved];
        if relative_rank(!pos.stm, sq) != 3 {
            return false;
        }
        let occ = self.occupied(pos);
        let back = forward(!pos.stm);
        let crossed = [offset(sq, -back), offset(sq, -2 * back)];
        if crossed.iter().any(|s| s.is_none_or(|s| occ.contains(s))) {
            return false;
        }
        let t = pos.sq[taker];
        t.rank() == sq.rank()
            && (u32::from(t.file()) as i32 - u32::from(sq.file()) as i32).abs() == 1
    }

    /// Is the index a real, canonical position?
    pub fn is_valid(&self, index: usize) -> bool {
        let pos = self.decode(index);
        let n = self.n();
        for i in 0..n {
            for j in i + 1..n {
                if pos.sq[i] == pos.sq[j] {
                    return false;
                }
            }
            if self.pieces[i].role == Role::Pawn && matches!(u32::from(pos.sq[i].rank()), 0 | 7) {
                return false;
            }
        }
        if self.in_check(&pos, !pos.stm) {
            return false;
        }
        if pos.ep && !self.ep_possible(&pos) {
            return false;
        }
        self.index(&pos) == index
    }
}

/// Where a move leads.
enum Successor {
    /// A position of the same table (canonical index).
    Inside(usize),
    /// Another table (a capture or promotion): its value for the side to move there.
    Outside(Value),
}

/// Pieces and squares, for positions outside the table.
pub type Placement = ArrayVec<(Piece, Square), MAX_PIECES>;

/// Legal moves of `pos`, as successors.
fn successors(
    layout: &Layout,
    pos: &Pos,
    outside: &dyn Fn(&Placement, Color) -> Value,
    out: &mut Vec<Successor>,
) {
    out.clear();
    let n = layout.n();
    let stm = pos.stm;
    let occ = layout.occupied(pos);
    let own: Bitboard = (0..n)
        .filter(|&i| layout.pieces[i].color == stm)
        .map(|i| Bitboard::from_square(pos.sq[i]))
        .fold(Bitboard::EMPTY, |a, b| a | b);
    let piece_on = |sq: Square| (0..n).find(|&i| pos.sq[i] == sq);
    for i in 0..n {
        let piece = layout.pieces[i];
        if piece.color != stm {
            continue;
        }
        let from = pos.sq[i];
        // (to, captured slot, promotion, double step)
        let mut targets: ArrayVec<(Square, Option<usize>, Option<Role>, bool), 32> =
            ArrayVec::new();
        if piece.role == Role::Pawn {
            let step = forward(stm);
            let promotes = |to: Square| relative_rank(stm, to) == 7;
            let mut add = |to: Square, captured: Option<usize>, double: bool| {
                if promotes(to) {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        targets.push((to, captured, Some(role), false));
                    }
                } else {
                    targets.push((to, captured, None, double));
                }
            };
            if let Some(one) = offset(from, step)
                && !occ.contains(one)
            {
                add(one, None, false);
                if relative_rank(stm, from) == 1
                    && let Some(two) = offset(from, 2 * step)
                    && !occ.contains(two)
                {
                    add(two, None, true);
                }
            }
            for to in attacks::pawn_attacks(stm, from) {
                if let Some(j) = piece_on(to)
                    && layout.pieces[j].color != stm
                {
                    add(to, Some(j), false);
                }
            }
            // En passant: the enemy pawn beside us just made a double step.
            if pos.ep
                && let Some(j) = layout.pawn_of(!stm)
                && relative_rank(stm, from) == 4
                && pos.sq[j].rank() == from.rank()
                && (u32::from(pos.sq[j].file()) as i32 - u32::from(from.file()) as i32).abs() == 1
                && let Some(to) = offset(pos.sq[j], step)
            {
                targets.push((to, Some(j), None, false));
            }
        } else {
            for to in attacks::attacks(from, piece, occ) & !own {
                targets.push((to, piece_on(to), None, false));
            }
        }
        for (to, captured, promotion, double) in targets {
            let mut next = *pos;
            next.sq[i] = to;
            next.stm = !stm;
            next.ep = false;
            // Legal: our king is not attacked afterwards (the captured piece is gone).
            let mut after = occ;
            after.discard(from);
            if let Some(j) = captured {
                after.discard(pos.sq[j]);
            }
            after.add(to);
            let king = if stm.is_white() {
                next.sq[0]
            } else {
                next.sq[1]
            };
            if layout.attacked(&next, king, !stm, after, captured) {
                continue;
            }
            if captured.is_none() && promotion.is_none() {
                if double {
                    next.ep = layout.ep_possible(&next);
                }
                out.push(Successor::Inside(layout.index(&next)));
            } else {
                let mut placement = Placement::new();
                for k in 0..n {
                    if Some(k) == captured {
                        continue;
                    }
                    let mut p = layout.pieces[k];
                    if k == i
                        && let Some(role) = promotion
                    {
                        p.role = role;
                    }
                    placement.push((p, next.sq[k]));
                }
                out.push(Successor::Outside(outside(&placement, !stm)));
            }
        }
    }
}

/// Canonical indices of the positions that reach `pos` by one quiet move
/// (no capture, no promotion) of the side not to move in `pos`.
fn predecessors(layout: &Layout, pos: &Pos, out: &mut Vec<usize>) {
    out.clear();
    let n = layout.n();
    let mover = !pos.stm;
    let occ = layout.occupied(pos);
    for i in 0..n {
        let piece = layout.pieces[i];
        if piece.color != mover {
            continue;
        }
        let to = pos.sq[i];
        let mut froms: ArrayVec<Square, 32> = ArrayVec::new();
        if piece.role == Role::Pawn {
            let step = forward(mover);
            let rank = relative_rank(mover, to);
            if !pos.ep
                && rank >= 2
                && let Some(one) = offset(to, -step)
                && !occ.contains(one)
            {
                froms.push(one);
            }
            if rank == 3
                && let (Some(one), Some(two)) = (offset(to, -step), offset(to, -2 * step))
                && !occ.contains(one)
                && !occ.contains(two)
            {
                // A double step makes the en passant flag when a capture is
                // possible: it leads to the flagged position, not this one.
                let mut flagged = *pos;
                flagged.ep = true;
                let makes_flag = layout.ep_possible(&flagged);
                if makes_flag == pos.ep {
                    froms.push(two);
                }
            }
        } else if !pos.ep {
            for from in attacks::attacks(to, piece, occ) & !occ {
                froms.push(from);
            }
        }
        for from in froms {
            let mut prev = *pos;
            prev.sq[i] = from;
            prev.stm = mover;
            prev.ep = false;
            // The side that is to move after the un-move must not be in check
            // then (it would be the side not to move before the move).
            if layout.in_check(&prev, pos.stm) {
                continue;
            }
            if relative_rank(mover, from) == 0 && piece.role == Role::Pawn {
                continue;
            }
            out.push(layout.index(&prev));
            let mut flagged = prev;
            flagged.ep = true;
            if layout.ep_possible(&flagged) {
                out.push(layout.index(&flagged));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// A solved table.
#[derive(Debug, Clone)]
pub struct Table {
    pub layout: Layout,
    pub values: Vec<u8>,
}

impl Table {
    pub fn value(&self, index: usize) -> Option<Value> {
        self.values.get(index).copied().and_then(decode)
    }

    /// The value of a placement (pieces in any order, the table's material).
    pub fn probe(&self, placement: &Placement, stm: Color, ep: bool) -> Option<Value> {
        let pos = self.layout.pos_of(placement, stm, ep)?;
        self.value(self.layout.index(&pos))
    }

    /// The longest win (plies, the winner to move), and the numbers of
    /// won, drawn and lost positions (side to move's view).
    pub fn summary(&self) -> (u8, [usize; 3]) {
        let mut longest = 0;
        let mut counts = [0; 3];
        for v in self.values.iter().filter_map(|b| decode(*b)) {
            match v {
                Value::Win(n) => {
                    longest = longest.max(n);
                    counts[0] += 1;
                }
                Value::Draw => counts[1] += 1,
                Value::Loss(_) => counts[2] += 1,
            }
        }
        (longest, counts)
    }
}

impl Layout {
    /// Put a placement into table order.
    pub fn pos_of(&self, placement: &Placement, stm: Color, ep: bool) -> Option<Pos> {
        if placement.len() != self.n() {
            return None;
        }
        let mut sq = [Square::A1; MAX_PIECES];
        let mut used = [false; MAX_PIECES];
        for (slot, want) in self.pieces.iter().enumerate() {
            let k = (0..placement.len()).find(|&k| !used[k] && placement[k].0 == *want)?;
            used[k] = true;
            sq[slot] = placement[k].1;
        }
        Some(Pos { sq, stm, ep })
    }
}

/// What [`generate`] answers when its `progress` asked it to stop.
pub const STOPPED: &str = "table making stopped";

/// Solve one table. `outside` gives the value of a position after a capture
/// or promotion (from the smaller tables). `progress` is told, every 65,536
/// positions, how far the work is (0 to 1: the first pass over every
/// position counts for one half, the positions settled since for the
/// other). It may pause the work, or stop it: then the answer is
/// `Err(STOPPED)`.
pub fn generate(
    material: &Material,
    outside: &dyn Fn(&Placement, Color) -> Value,
    progress: &mut dyn FnMut(f32) -> ControlFlow<()>,
) -> Result<Table, String> {
    let stopped = || Err(STOPPED.to_string());
    let layout = Layout::new(material);
    let size = layout.size;
    let mut value = vec![INVALID; size];
    // Distinct inside successors not yet known to be won for the opponent.
    let mut count = vec![0u8; size];
    // Shortest win by leaving the table (plies), 0 = none.
    let mut exit_win = vec![0u8; size];
    // Longest loss by leaving the table (plies), 0 = none.
    let mut exit_loss = vec![0u8; size];
    // A capture or promotion to a draw: this position is never lost.
    let mut escape = vec![false; size];
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); 256];
    const UNKNOWN: u8 = 254;

    let mut succ = Vec::with_capacity(64);
    let mut inside = Vec::with_capacity(64);
    // Valid positions, and those whose value is known (for `progress`).
    let mut valid = 0usize;
    let mut settled = 0usize;
    for index in 0..size {
        if index % 65_536 == 0 && progress(index as f32 / size as f32 / 2.0).is_break() {
            return stopped();
        }
        if !layout.is_valid(index) {
            continue;
        }
        valid += 1;
        value[index] = UNKNOWN;
        let pos = layout.decode(index);
        successors(&layout, &pos, outside, &mut succ);
        inside.clear();
        for s in &succ {
            match *s {
                Successor::Inside(i) => inside.push(i),
                Successor::Outside(v) => match v.back() {
                    Value::Win(n) => {
                        if exit_win[index] == 0 || n < exit_win[index] {
                            exit_win[index] = n;
                        }
                    }
                    Value::Loss(n) => exit_loss[index] = exit_loss[index].max(n),
                    Value::Draw => escape[index] = true,
                },
            }
        }
        inside.sort_unstable();
        inside.dedup();
        count[index] = inside.len() as u8;
        if succ.is_empty() {
            if layout.in_check(&pos, pos.stm) {
                buckets[0].push(index as u32);
            } else {
                value[index] = DRAW;
                settled += 1;
            }
        } else if exit_win[index] > 0 {
            buckets[usize::from(exit_win[index])].push(index as u32);
        } else if inside.is_empty() && !escape[index] {
            buckets[usize::from(exit_loss[index])].push(index as u32);
        }
    }

    let mut preds = Vec::with_capacity(128);
    for ply in 0..=253u8 {
        let bucket = std::mem::take(&mut buckets[usize::from(ply)]);
        if bucket.is_empty() && buckets[usize::from(ply)..].iter().all(Vec::is_empty) {
            break;
        }
        for (done, index) in bucket.into_iter().enumerate() {
            if done % 65_536 == 0
                && progress(0.5 + settled as f32 / valid.max(1) as f32 / 2.0).is_break()
            {
                return stopped();
            }
            let index = index as usize;
            if value[index] != UNKNOWN {
                continue;
            }
            settled += 1;
            let solved = if ply % 2 == 1 {
                Value::Win(ply)
            } else {
                Value::Loss(ply)
            };
            if ply > 126 {
                return Err(format!(
                    "{material}: a distance of {ply} plies does not fit the table format"
                ));
            }
            value[index] = encode(solved);
            let pos = layout.decode(index);
            predecessors(&layout, &pos, &mut preds);
            for &p in &preds {
                if value[p] != UNKNOWN {
                    continue;
                }
                match solved {
                    Value::Loss(_) => buckets[usize::from(ply) + 1].push(p as u32),
                    _ => {
                        count[p] = count[p].saturating_sub(1);
                        if count[p] == 0 && !escape[p] && exit_win[p] == 0 {
                            let loss = (ply + 1).max(exit_loss[p]);
                            buckets[usize::from(loss)].push(p as u32);
                        }
                    }
                }
            }
        }
    }
    for v in &mut value {
        if *v == UNKNOWN {
            *v = DRAW;
        }
    }
    Ok(Table {
        layout,
        values: value,
    })
}

#[cfg(test)]
mod tests;
