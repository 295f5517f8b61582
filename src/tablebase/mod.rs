//! Endgame tablebases: kibitz's own distance-to-mate tables for up to four
//! pieces, made by retrograde analysis on the user's machine, and Syzygy
//! tables from a folder the user names.

pub mod material;
pub mod retro;
pub mod store;

use std::collections::HashMap;

use shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece, Position, Setup,
};

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
        let table = self.solve(material, progress)?;
        self.insert(table);
        self.tables
            .get(material)
            .ok_or_else(|| format!("{material}: table lost"))
    }

    /// Generate every table of `materials` not here yet, on up to `threads`
    /// threads at once: each round solves, side by side, the tables whose
    /// smaller tables are all done. `done` hears of each finished table and
    /// its time in seconds.
    pub fn generate_all(
        &mut self,
        materials: &[Material],
        threads: usize,
        done: &mut dyn FnMut(&Table, f64),
    ) -> Result<(), String> {
        let mut todo: Vec<Material> = materials
            .iter()
            .filter(|m| !self.tables.contains_key(m))
            .cloned()
            .collect();
        while !todo.is_empty() {
            let (ready, waiting): (Vec<Material>, Vec<Material>) = todo
                .into_iter()
                .partition(|m| m.children().iter().all(|c| self.tables.contains_key(c)));
            if ready.is_empty() {
                let names: Vec<String> = waiting.iter().map(ToString::to_string).collect();
                return Err(format!(
                    "cannot generate {}: smaller tables missing",
                    names.join(", ")
                ));
            }
            for batch in ready.chunks(threads.max(1)) {
                let solved: Vec<Result<(Table, f64), String>> = std::thread::scope(|scope| {
                    let handles: Vec<_> = batch
                        .iter()
                        .map(|m| {
                            let this = &*self;
                            scope.spawn(move || {
                                let started = std::time::Instant::now();
                                this.solve(m, &mut |_| {})
                                    .map(|t| (t, started.elapsed().as_secs_f64()))
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join()
                                .unwrap_or_else(|_| Err("a generator thread panicked".into()))
                        })
                        .collect()
                });
                for result in solved {
                    let (table, seconds) = result?;
                    done(&table, seconds);
                    self.insert(table);
                }
            }
            todo = waiting;
        }
        Ok(())
    }

    /// Solve `material` from the tables here, without storing it.
    fn solve(&self, material: &Material, progress: &mut dyn FnMut(u8)) -> Result<Table, String> {
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
        for dir in std::env::split_paths(dirs.as_os_str()) {
            if !dir.is_dir() {
                return Err(format!("Syzygy folder {} does not exist", dir.display()));
            }
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

/// Load every built-in table found in `dir` and, if `generate_missing`,
/// generate the others there, in dependency order. `ready` gets the set each
/// time it grew (first the loaded tables, then after generating). Meant for
/// a background thread: the caller never waits for it.
pub fn load_in_background(
    dir: std::path::PathBuf,
    syzygy: Option<std::path::PathBuf>,
    generate_missing: bool,
    ready: &dyn Fn(std::sync::Arc<Tablebases>),
) -> Vec<String> {
    let mut messages = Vec::new();
    let mut builtin = Builtin::new();
    let mut missing = Vec::new();
    for material in Material::all() {
        match store::read(&dir, &material) {
            Ok(table) => builtin.insert(table),
            Err(store::StoreError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                missing.push(material)
            }
            Err(e) => {
                messages.push(format!("{e}; generating it again"));
                missing.push(material);
            }
        }
    }
    let with_syzygy = |builtin: Builtin, messages: &mut Vec<String>| {
        let mut tables = Tablebases::new(builtin);
        if let Some(dir) = &syzygy
            && let Err(e) = tables.add_syzygy(dir)
        {
            messages.push(format!("{e}; running without Syzygy"));
        }
        std::sync::Arc::new(tables)
    };
    if !missing.is_empty() && generate_missing {
        // Generating needs every smaller table in memory; send what is there first.
        ready(with_syzygy(clone_builtin(&builtin), &mut messages));
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let mut report = |table: &Table, _seconds: f64| {
            if let Err(e) = store::write(&dir, table) {
                messages.push(format!("{e}; the table stays in memory only"));
            }
        };
        if let Err(e) = builtin.generate_all(&missing, threads, &mut report) {
            messages.push(e);
        }
    }
    ready(with_syzygy(builtin, &mut messages));
    messages
}

fn clone_builtin(builtin: &Builtin) -> Builtin {
    Builtin {
        tables: builtin.tables.clone(),
    }
}
