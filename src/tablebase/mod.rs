//! Endgame tablebases: kibitz's own distance-to-mate tables for up to four
//! pieces, made by retrograde analysis on the user's machine, and Syzygy
//! tables from a folder the user names.

mod background;
pub mod material;
pub mod retro;
mod schedule;
pub mod store;

pub use background::{
    Generation, Pace, load_in_background, lower_thread_priority, thread_nice, warm_in_background,
};

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use std::sync::{Arc, OnceLock};

use shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece, Position, Setup,
};

use material::Material;
use retro::{Placement, Table, Value};

/// The built-in tables: generated in memory, or found on disk and read the
/// first time a position needs them (a game starts with 32 pieces; most
/// never need a table, and memory stays small until an endgame).
///
/// Clones share their tables: a table read through one is there for all.
#[derive(Debug, Default, Clone)]
pub struct Builtin {
    tables: HashMap<Material, Arc<Slot>>,
}

/// One table: in memory, or on disk until first needed.
#[derive(Debug)]
struct Slot {
    /// The folder of a table not read yet.
    dir: Option<PathBuf>,
    /// The table once read (or made), or why it could not be read.
    table: OnceLock<Result<Arc<Table>, String>>,
}

impl Slot {
    fn get(&self, material: &Material) -> Option<&Table> {
        let loaded = self.table.get_or_init(|| match &self.dir {
            Some(dir) => store::read(dir, material)
                .map(Arc::new)
                .map_err(|e| e.to_string()),
            None => Err(format!("{material}: no table")),
        });
        loaded.as_deref().ok()
    }
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

    /// The tables in `dir`, each read when a position first needs it. Only
    /// the headers are checked now; a file that fails them is left out and
    /// named in `problems`.
    pub fn open(dir: &Path, problems: &mut Vec<String>) -> Builtin {
        let mut builtin = Builtin::new();
        for material in Material::all() {
            match store::check(dir, &material) {
                Ok(()) => {
                    let slot = Slot {
                        dir: Some(dir.to_path_buf()),
                        table: OnceLock::new(),
                    };
                    builtin.tables.insert(material, Arc::new(slot));
                }
                Err(store::StoreError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => problems.push(e.to_string()),
            }
        }
        builtin
    }

    /// `material`'s table, read from disk if this is the first time (a
    /// table that fails its checksum is then treated as absent).
    pub fn get(&self, material: &Material) -> Option<&Table> {
        self.tables.get(material)?.get(material)
    }

    pub fn insert(&mut self, table: Table) {
        self.insert_slot(table);
    }

    /// Insert a made table; its slot is returned for sharing with a copy.
    fn insert_slot(&mut self, table: Table) -> Arc<Slot> {
        let material = table.layout.material.clone();
        let slot = Arc::new(Slot {
            dir: None,
            table: OnceLock::from(Ok(Arc::new(table))),
        });
        self.tables.insert(material, Arc::clone(&slot));
        slot
    }

    /// Is `material`'s table here (in memory or on disk)?
    pub fn contains(&self, material: &Material) -> bool {
        self.tables.contains_key(material)
    }

    /// The tables here, in memory or on disk.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The tables in memory now (read or made), in `Material::all` order.
    pub fn loaded(&self) -> Vec<Material> {
        Material::all()
            .into_iter()
            .filter(|m| {
                self.tables
                    .get(m)
                    .is_some_and(|slot| matches!(slot.table.get(), Some(Ok(_))))
            })
            .collect()
    }

    /// Why tables that were needed could not be read.
    pub fn problems(&self) -> Vec<String> {
        let mut problems: Vec<String> = self
            .tables
            .values()
            .filter_map(|slot| slot.table.get()?.as_ref().err().cloned())
            .collect();
        problems.sort();
        problems
    }

    /// Leave out the tables that could not be read; which, and why.
    fn take_failed(&mut self) -> Vec<(Material, String)> {
        let failed: Vec<(Material, String)> = self
            .tables
            .iter()
            .filter_map(|(m, slot)| Some((m.clone(), slot.table.get()?.as_ref().err()?.clone())))
            .collect();
        for (m, _) in &failed {
            self.tables.remove(m);
        }
        failed
    }

    /// The tables made in memory that are now stored in `dir` go back to
    /// disk, to be read when needed; the others stay as they are.
    fn reopen(self, dir: &Path) -> Builtin {
        let on_disk = Builtin::open(dir, &mut Vec::new());
        let tables = self
            .tables
            .into_iter()
            .map(|(m, slot)| match on_disk.tables.get(&m) {
                Some(fresh) if slot.dir.is_none() => (m, Arc::clone(fresh)),
                _ => (m, slot),
            })
            .collect();
        Builtin { tables }
    }

    /// Read now every table a position of `material` can reach by captures
    /// and promotions (and its own), so that the search does not wait for
    /// the disk when it gets there. For a background thread.
    pub fn warm(&self, material: &Material) {
        if material.count() > 5 {
            return;
        }
        let mut seen = vec![material.canonical().0];
        let mut next = 0;
        while let Some(m) = seen.get(next).cloned() {
            next += 1;
            if m.count() <= 4 {
                self.get(&m);
            }
            for child in m.children() {
                if !seen.contains(&child) {
                    seen.push(child);
                }
            }
        }
    }

    /// The value of a placement with `stm` to move (no en passant), if its
    /// table is here. Two bare kings are a draw.
    pub fn value(&self, placement: &Placement, stm: Color, ep: bool) -> Option<Value> {
        if placement.len() == 2 {
            return Some(Value::Draw);
        }
        let material = Material::from_board(&board_of(placement));
        let (canonical, flipped) = material.canonical();
        let table = self.get(&canonical)?;
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
        progress: &mut dyn FnMut(f32) -> ControlFlow<()>,
    ) -> Result<&Table, String> {
        let table = self.solve(material, progress)?;
        self.insert(table);
        self.get(material)
            .ok_or_else(|| format!("{material}: table lost"))
    }

    /// Solve `material` from the tables here, without storing it.
    fn solve(
        &self,
        material: &Material,
        progress: &mut dyn FnMut(f32) -> ControlFlow<()>,
    ) -> Result<Table, String> {
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
        Ok(table)
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

/// Win, draw or loss for the side to move. Cursed wins and blessed losses
/// are Syzygy's: won or lost, but the fifty-move rule turns them into draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Wdl {
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        }
    }

    /// 1 won, 0 drawn, -1 lost, leaving the fifty-move rule aside (a cursed
    /// win is a win): what the built-in tables, which ignore that rule, say.
    pub fn outcome(self) -> i8 {
        match self {
            Wdl::Win | Wdl::CursedWin => 1,
            Wdl::Draw => 0,
            Wdl::Loss | Wdl::BlessedLoss => -1,
        }
    }

    /// For the other side.
    pub fn negate(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// Which tables answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TbSource {
    /// kibitz's own distance-to-mate tables.
    Builtin,
    Syzygy,
}

/// What the tables know about a position.
#[derive(Debug, Clone, PartialEq)]
pub struct TbProbe {
    pub wdl: Wdl,
    /// Plies to mate with best play (built-in tables): positive when the side
    /// to move wins, negative when it loses.
    pub dtm: Option<i32>,
    /// Syzygy's distance to zeroing (plies, signed as `dtm`).
    pub dtz: Option<i32>,
    /// The best move: the shortest win, the longest resistance.
    pub best_move: Option<shakmaty::Move>,
    pub source: TbSource,
}

/// All tablebases: the built-in ones that are loaded, and Syzygy.
/// The folders of a Syzygy path: one, or several joined as in `PATH`,
/// with empty parts (`a::b`, a trailing `:`) skipped. Each must be a folder
/// that exists; the first that is not is named in the error.
pub fn syzygy_folders(dirs: &std::path::Path) -> Result<Vec<std::path::PathBuf>, String> {
    let mut folders = Vec::new();
    for dir in std::env::split_paths(dirs.as_os_str()) {
        if dir.as_os_str().is_empty() {
            continue;
        }
        match std::fs::metadata(&dir) {
            Ok(meta) if meta.is_dir() => folders.push(dir),
            Ok(_) => return Err(format!("'{}' is not a folder", dir.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!("folder '{}' does not exist", dir.display()));
            }
            Err(e) => return Err(format!("folder '{}': {e}", dir.display())),
        }
    }
    Ok(folders)
}

/// How many Syzygy WDL tables (`.rtbw` files) these folders hold: what a
/// user who set a path wants to hear back, before any is read.
pub fn count_syzygy_tables(folders: &[std::path::PathBuf]) -> usize {
    folders
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .flatten()
        .filter(|entry| {
            entry
                .path()
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("rtbw"))
        })
        .count()
}

#[derive(Default)]
pub struct Tablebases {
    pub builtin: Builtin,
    syzygy: Option<shakmaty_syzygy::Tablebase<Chess>>,
    syzygy_pieces: usize,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("builtin", &self.builtin.len())
            .field("syzygy", &self.syzygy.is_some())
            .finish()
    }
}

fn value_wdl(value: Value) -> (Wdl, i32) {
    match value {
        Value::Win(n) => (Wdl::Win, i32::from(n)),
        Value::Loss(n) => (Wdl::Loss, -i32::from(n)),
        Value::Draw => (Wdl::Draw, 0),
    }
}

impl Tablebases {
    pub fn new(builtin: Builtin) -> Tablebases {
        Tablebases {
            builtin,
            ..Tablebases::default()
        }
    }

    /// Add Syzygy folders (one, or several joined as in `PATH`); the number
    /// of tables found.
    pub fn add_syzygy(&mut self, dirs: &std::path::Path) -> Result<usize, String> {
        let mut found = 0;
        for dir in syzygy_folders(dirs).map_err(|why| format!("Syzygy {why}"))? {
            let tables = self
                .syzygy
                .get_or_insert_with(shakmaty_syzygy::Tablebase::new);
            found += tables
                .add_directory(&dir)
                .map_err(|e| format!("Syzygy folder {}: {e}", dir.display()))?;
            self.syzygy_pieces = tables.max_pieces();
        }
        Ok(found)
    }

    /// Most pieces any table here covers.
    pub fn max_pieces(&self) -> usize {
        let builtin = if self.builtin.is_empty() { 0 } else { 4 };
        builtin.max(self.syzygy_pieces)
    }

    /// Win/draw/loss only, as the search wants it after a capture or pawn
    /// move (the fifty-move count is zero then).
    pub fn probe_wdl(&self, position: &Chess) -> Option<Wdl> {
        if position.board().occupied().count() > self.max_pieces() {
            return None;
        }
        if let Some(value) = self.builtin.probe(position) {
            return Some(value_wdl(value).0);
        }
        let wdl = self
            .syzygy
            .as_ref()?
            .probe_wdl_after_zeroing(position)
            .ok()?;
        Some(syzygy_wdl(wdl))
    }

    /// Everything the tables say about `position`.
    pub fn probe(&self, position: &Chess) -> Option<TbProbe> {
        if position.board().occupied().count() > self.max_pieces() {
            return None;
        }
        // Distance to mate ignores the fifty-move rule: when the count is
        // already so high that it may matter, Syzygy (which knows) answers.
        let builtin = self.builtin.probe(position).filter(|v| {
            let plies = i32::from(match v {
                Value::Win(n) | Value::Loss(n) => *n,
                Value::Draw => 0,
            });
            self.syzygy.is_none() || position.halfmoves() as i32 + plies <= 100
        });
        if let Some(value) = builtin {
            let (wdl, dtm) = value_wdl(value);
            // The best move: every child is in the tables too (same or fewer
            // pieces). If one is missing (tables still loading), name no move
            // rather than a move chosen from part of them.
            let mut best: Option<(shakmaty::Move, i32)> = None;
            let mut complete = true;
            for m in position.legal_moves() {
                let mut child = position.clone();
                child.play_unchecked(m);
                let Some(after) = self.builtin.probe(&child) else {
                    complete = false;
                    continue;
                };
                // Score for us: a quick win is best, a long loss better than a short one.
                let score = match after {
                    Value::Loss(n) => 1000 - i32::from(n),
                    Value::Draw => 0,
                    Value::Win(n) => -1000 + i32::from(n),
                };
                if best.is_none_or(|(_, s)| score > s) {
                    best = Some((m, score));
                }
            }
            return Some(TbProbe {
                wdl,
                dtm: Some(dtm),
                dtz: None,
                best_move: best.filter(|_| complete).map(|(m, _)| m),
                source: TbSource::Builtin,
            });
        }
        let syzygy = self.syzygy.as_ref()?;
        let wdl = match syzygy
            .probe_wdl(position)
            .ok()
            .and_then(|w| w.unambiguous())
        {
            Some(wdl) => syzygy_wdl(wdl),
            // Right after a capture or pawn move the verdict is exact.
            None if position.halfmoves() == 0 => {
                syzygy_wdl(syzygy.probe_wdl_after_zeroing(position).ok()?)
            }
            None => return None,
        };
        let dtz = syzygy
            .probe_dtz(position)
            .ok()
            .map(|d| d.ignore_rounding().0);
        let best_move = syzygy.best_move(position).ok().flatten().map(|(m, _)| m);
        Some(TbProbe {
            wdl,
            dtm: None,
            dtz,
            best_move,
            source: TbSource::Syzygy,
        })
    }

    /// For each legal move, what the tables say about the position after it
    /// (from the mover's point of view: `wdl` and `dtm` negated back).
    pub fn probe_moves(&self, position: &Chess) -> Option<Vec<(shakmaty::Move, TbProbe)>> {
        self.probe(position)?;
        let mut out = Vec::new();
        for m in position.legal_moves() {
            let mut child = position.clone();
            child.play_unchecked(m);
            let probe = if child.is_checkmate() {
                TbProbe {
                    wdl: Wdl::Loss,
                    dtm: Some(0),
                    dtz: Some(0),
                    best_move: None,
                    source: TbSource::Builtin,
                }
            } else {
                // A child the tables cannot answer is left out, not fatal.
                match self.probe(&child) {
                    Some(probe) => probe,
                    None => continue,
                }
            };
            out.push((
                m,
                TbProbe {
                    wdl: probe.wdl.negate(),
                    dtm: probe.dtm.map(|d| match probe.wdl {
                        Wdl::Draw => 0,
                        _ if d <= 0 => -d + 1,
                        _ => -(d + 1),
                    }),
                    dtz: probe.dtz.map(|d| -d),
                    best_move: None,
                    source: probe.source,
                },
            ));
        }
        out.sort_by_key(|(_, p)| std::cmp::Reverse(rank(p)));
        Some(out)
    }
}

/// Order outcomes for the mover: quick wins first, long losses before short.
fn rank(p: &TbProbe) -> i64 {
    let distance = i64::from(p.dtm.or(p.dtz).unwrap_or(0).abs());
    match p.wdl {
        Wdl::Win => 4_000 - distance,
        Wdl::CursedWin => 3_000 - distance,
        Wdl::Draw => 2_000,
        Wdl::BlessedLoss => 1_000 + distance,
        Wdl::Loss => distance,
    }
}

pub fn syzygy_wdl(wdl: shakmaty_syzygy::Wdl) -> Wdl {
    match wdl {
        shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
        shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
        shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
        shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
        shakmaty_syzygy::Wdl::Win => Wdl::Win,
    }
}

#[cfg(test)]
mod tests;
