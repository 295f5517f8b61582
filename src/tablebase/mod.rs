//! Endgame tablebases: kibitz's own distance-to-mate tables for up to four
//! pieces, made by retrograde analysis on the user's machine, and Syzygy
//! tables from a folder the user names.

pub mod material;
pub mod retro;
pub mod store;

use std::collections::HashMap;

use shakmaty::{Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece, Position, Setup};

use material::Material;
use retro::{Placement, Table, Value};

/// The built-in tables that have been generated or loaded.
#[derive(Debug, Default)]
pub struct Builtin {
    tables: HashMap<Material, Table>,
}

/// The pieces of a board as a placement, or `None` above four pieces.
pub fn placement_of(board: &Board) -> Option<Placement> {
    let mut placement = Placement::new();
    for square in board.occupied() {
        let piece = board.piece_at(square)?;
        placement.try_push((piece, square)).ok()?;
    }
    Some(placement)
}

/// The colour-flipped twin of a placement: mirrored top to bottom, colours
/// swapped.
fn flip(placement: &Placement) -> Placement {
    placement
        .iter()
        .map(|&(p, s)| {
            (
                Piece {
                    color: !p.color,
                    role: p.role,
                },
                s.flip_vertical(),
            )
        })
        .collect()
}

impl Builtin {
    pub fn new() -> Builtin {
        Builtin::default()
    }

    pub fn get(&self, material: &Material) -> Option<&Table> {
        self.tables.get(material)
    }

    pub fn insert(&mut self, table: Table) {
        self.tables.insert(table.layout.material.clone(), table);
    }

    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The value of a placement with `stm` to move (no en passant), if its
    /// table is here. Two bare kings are a draw.
    pub fn value(&self, placement: &Placement, stm: Color, ep: bool) -> Option<Value> {
        if placement.len() == 2 {
            return Some(Value::Draw);
        }
        let material = Material::from_board(&board_of(placement));
        let (canonical, flipped) = material.canonical();
        let table = self.tables.get(&canonical)?;
        if flipped {
            table.probe(&flip(placement), !stm, ep)
        } else {
            table.probe(placement, stm, ep)
        }
    }

    /// The value of a position, if the tables cover it (at most four pieces,
    /// no castling rights).
    pub fn probe(&self, position: &Chess) -> Option<Value> {
        if position.castles().any() {
            return None;
        }
        let placement = placement_of(position.board())?;
        let ep = position.ep_square(EnPassantMode::Legal).is_some();
        self.value(&placement, position.turn(), ep)
    }

    /// Generate `material`'s table from the ones already here (which must
    /// include every table its captures and promotions lead to).
    pub fn generate(
        &mut self,
        material: &Material,
        progress: &mut dyn FnMut(u8),
    ) -> Result<&Table, String> {
        let missing = std::cell::Cell::new(None);
        let outside = |placement: &Placement, stm: Color| match self.value(placement, stm, false) {
            Some(v) => v,
            None => {
                missing.set(Some(Material::from_board(&board_of(placement))));
                Value::Draw
            }
        };
        let table = retro::generate(material, &outside, progress)?;
        if let Some(m) = missing.take() {
            return Err(format!("{material} needs the {m} table first"));
        }
        self.insert(table);
        self.tables
            .get(material)
            .ok_or_else(|| format!("{material}: table lost"))
    }
}

/// A board with the placement's pieces.
pub fn board_of(placement: &Placement) -> Board {
    let mut board = Board::empty();
    for &(piece, square) in placement {
        board.set_piece_at(square, piece);
    }
    board
}

/// A legal position from a placement and side to move, for comparisons with
/// other tables (`None` if shakmaty refuses it).
pub fn chess_of(placement: &Placement, stm: Color) -> Option<Chess> {
    let mut setup = Setup::empty();
    setup.board = board_of(placement);
    setup.turn = stm;
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .ok()
}
