//! `kibitz tb generate` and `kibitz tb verify`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;

use super::CliError;
use super::flags::JsonFlag;
use crate::tablebase::material::Material;
use crate::tablebase::retro::Layout;
use crate::tablebase::{Builtin, store};
use crate::text::tablebase::describe;

/// `kibitz tb`: generate kibitz's own tables, probe a position, compare
/// with Syzygy.
#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Generate distance-to-mate tables (3 and 4 pieces) into the cache folder.
    Generate(GenerateArgs),
    /// What the tables say about a position: win/draw/loss, distance, best move.
    Probe(ProbeArgs),
    /// Compare the built-in tables with Syzygy tables by win/draw/loss.
    Verify(VerifyArgs),
}

impl TbCommand {
    pub fn run(&self, mut out: &mut dyn Write) -> Result<(), CliError> {
        match self {
            TbCommand::Generate(a) => generate(
                &a.signatures,
                a.all,
                a.dir.clone(),
                a.force,
                a.output.json,
                &mut out,
            ),
            TbCommand::Probe(a) => probe(
                &a.fen,
                a.syzygy.as_deref(),
                a.dir.clone(),
                a.moves,
                a.output.json,
                &mut out,
            ),
            TbCommand::Verify(a) => {
                let disagreements = verify(
                    &a.signatures,
                    &a.syzygy,
                    a.sample,
                    a.dir.clone(),
                    a.output.json,
                    &mut out,
                )?;
                if disagreements > 0 {
                    return Err(CliError::BadInput(format!(
                        "{disagreements} positions disagree with Syzygy"
                    )));
                }
                Ok(())
            }
        }
    }
}

/// `kibitz tb generate`: which tables, where, whether again.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Signatures like KQvK or KRPvKR (their dependencies come along).
    pub signatures: Vec<String>,
    /// All 35 tables (the default without signatures).
    #[arg(long)]
    pub all: bool,
    /// Folder for the tables (default: the cache folder's tablebases/).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Generate again even if a valid file is there.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// `kibitz tb probe`: the position, the tables, the output.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The position (FEN).
    #[arg(long)]
    pub fen: String,
    /// A Syzygy folder, for positions the built-in tables do not cover.
    #[arg(long)]
    pub syzygy: Option<PathBuf>,
    /// Also list every legal move and what it leads to.
    #[arg(long)]
    pub moves: bool,
    /// Folder of the built-in tables.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// `kibitz tb verify`: which tables, the Syzygy folder, how many positions.
#[derive(Args, Debug)]
#[command(mut_arg("json", |a| a.help("One JSON object per table, then the total")))]
pub struct VerifyArgs {
    /// Signatures to check (default: all).
    pub signatures: Vec<String>,
    /// The Syzygy folder.
    #[arg(long)]
    pub syzygy: PathBuf,
    /// Check this many random positions per table instead of all.
    #[arg(long)]
    pub sample: Option<usize>,
    /// Folder of the built-in tables.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// The default folder for kibitz's tables: `<cache dir>/tablebases`.
pub fn default_dir() -> Option<PathBuf> {
    crate::config::Dirs::locate().map(|d| d.tablebases())
}

fn parse_materials(names: &[String], all: bool) -> Result<Vec<Material>, CliError> {
    if all || names.is_empty() {
        return Ok(Material::all());
    }
    let mut wanted = Vec::new();
    for name in names {
        let material: Material = name.parse().map_err(CliError::BadInput)?;
        if material.count() > 4 || material.count() < 3 {
            return Err(CliError::BadInput(format!(
                "{name}: the built-in tables have 3 or 4 pieces"
            )));
        }
        wanted.push(material.canonical().0);
    }
    Ok(wanted)
}

/// Every table `wanted` needs, itself included, in generation order.
fn with_dependencies(wanted: &[Material]) -> Vec<Material> {
    Material::all()
        .into_iter()
        .filter(|m| wanted.iter().any(|w| w == m || w.depends_on(m)))
        .collect()
}

/// Load each table from `dir` or generate it (and store it), reporting as
/// it goes. Returns the tables, and why the first table that could not be
/// stored was not.
pub fn load_or_generate(
    materials: &[Material],
    dir: Option<&Path>,
    force: bool,
    json_output: bool,
    out: &mut impl Write,
) -> Result<(Builtin, Option<String>), CliError> {
    let mut tables = Builtin::new();
    let show_progress = std::io::stderr().is_terminal() && !json_output;
    let total_started = Instant::now();
    let mut missing = Vec::new();
    for material in with_dependencies(materials) {
        if !force && let Some(dir) = dir {
            match store::read(dir, &material) {
                Ok(table) => {
                    tables.insert(table);
                    continue;
                }
                Err(store::StoreError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => writeln!(out, "{e}; generating it again")?,
            }
        }
        missing.push(material);
    }
    // Tables whose smaller tables are done are solved side by side, one per
    // processor.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let total = missing.len();
    let mut finished = 0;
    let mut failure: Option<std::io::Error> = None;
    let mut not_stored: Option<String> = None;
    let mut report = |table: &crate::tablebase::retro::Table, seconds: f64| {
        finished += 1;
        if show_progress {
            eprint!("\r{finished}/{total} tables ");
        }
        let material = &table.layout.material;
        let (longest, [wins, draws, losses]) = table.summary();
        let layout = &table.layout;
        // value, count, exit win, exit loss, escape: five bytes an index.
        let working_mb = layout.size as f64 * 5.0 / 1e6;
        let mut lines = Vec::new();
        let stored = match dir {
            Some(dir) => match store::write(dir, table) {
                Ok(path) => Some(path),
                Err(e) => {
                    lines.push(format!("{e}; the table stays in memory only"));
                    not_stored.get_or_insert_with(|| format!("cannot store {material}: {e}"));
                    None
                }
            },
            None => None,
        };
        if json_output {
            let line = json!({
                "table": material.to_string(),
                "seconds": seconds,
                "indices": layout.size,
                "wins": wins, "draws": draws, "losses": losses,
                "longest_win_plies": longest,
                "working_mb": working_mb,
                "file": stored.as_ref().map(|p| p.display().to_string()),
                "bytes": layout.size,
            });
            lines.push(line.to_string());
        } else {
            lines.push(format!(
                "{:<7} {seconds:>6.2} s  {:>9} indices  win/draw/loss {wins}/{draws}/{losses}  longest win {longest} plies  working memory {working_mb:.0} MB",
                material.to_string(),
                layout.size,
            ));
        }
        for line in lines {
            if let Err(e) = writeln!(out, "{line}") {
                failure.get_or_insert(e);
            }
        }
    };
    tables
        .generate_all(&missing, threads, &mut report)
        .map_err(CliError::BadInput)?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    if show_progress {
        eprint!("\r");
    }
    if !json_output && not_stored.is_none() {
        writeln!(
            out,
            "{} tables ready in {:.1} s{}",
            tables.len(),
            total_started.elapsed().as_secs_f64(),
            dir.map(|d| format!(" ({})", d.display()))
                .unwrap_or_default()
        )?;
    }
    Ok((tables, not_stored))
}

pub fn generate(
    names: &[String],
    all: bool,
    dir: Option<PathBuf>,
    force: bool,
    json_output: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let materials = parse_materials(names, all)?;
    let dir = dir.or_else(default_dir).ok_or_else(|| {
        CliError::BadInput("no home folder to keep the tables in: give --dir".into())
    })?;
    // Tables that cannot be kept are not worth generating: find out first.
    crate::fsutil::check_writable_dir(&dir).map_err(CliError::BadInput)?;
    let tables = load_or_generate(&materials, Some(&dir), force, json_output, out)?;
    if let Some(why) = tables.1 {
        return Err(CliError::BadInput(why));
    }
    Ok(())
}

/// Compare every built-in table (or `sample` positions of each) with the
/// Syzygy tables in `syzygy` by win/draw/loss. Cursed wins and blessed
/// losses count as wins and losses: distance to mate ignores the fifty-move
/// rule.
pub fn verify(
    names: &[String],
    syzygy_dir: &Path,
    sample: Option<usize>,
    dir: Option<PathBuf>,
    json_output: bool,
    out: &mut impl Write,
) -> Result<usize, CliError> {
    use shakmaty_syzygy::Tablebase;
    let mut syzygy = Tablebase::<shakmaty::Chess>::new();
    syzygy
        .add_directory(syzygy_dir)
        .map_err(|e| CliError::BadInput(format!("Syzygy folder {}: {e}", syzygy_dir.display())))?;
    let materials = parse_materials(names, names.is_empty())?;
    // A folder without the tables would check nothing and pass.
    let missing: Vec<String> = materials
        .iter()
        .filter(|m| !has_syzygy_table(syzygy_dir, m))
        .map(ToString::to_string)
        .collect();
    if let Some(first) = missing.first() {
        let more = match missing.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        return Err(CliError::BadInput(format!(
            "Syzygy folder {} has no table for {first}{more}: nothing to compare with",
            syzygy_dir.display()
        )));
    }
    if let Some(dir) = &dir {
        check_tables_dir(dir)?;
    }
    let dir = dir.or_else(default_dir);
    let (tables, _) = load_or_generate(
        &materials,
        dir.as_deref(),
        false,
        false,
        &mut std::io::sink(),
    )?;
    let mut total_mismatches = 0;
    for material in with_dependencies(&materials) {
        let Some(table) = tables.get(&material) else {
            continue;
        };
        let layout: &Layout = &table.layout;
        let started = Instant::now();
        let mut checked = 0usize;
        let mut mismatches = 0usize;
        let mut first = None;
        let mut rng = crate::engine::level::Rng::new(0x5EED ^ layout.size as u64);
        // Some(None): agrees; Some(Some(text)): disagrees; None: not compared.
        let check = |index: usize| -> Option<Option<String>> {
            let value = table.value(index)?;
            let pos = layout.decode(index);
            if pos.ep {
                // Syzygy positions carry no en passant right here; skip the flag.
                return None;
            }
            let placement = layout
                .pieces
                .iter()
                .zip(pos.sq.iter())
                .map(|(p, s)| (*p, *s))
                .collect();
            let chess = crate::tablebase::chess_of(&placement, pos.stm)?;
            let wdl = syzygy.probe_wdl_after_zeroing(&chess).ok()?;
            let expected = crate::tablebase::syzygy_wdl(wdl).outcome();
            Some((value.outcome() != expected).then(|| {
                let fen = shakmaty::fen::Fen::from_position(&chess, shakmaty::EnPassantMode::Legal);
                format!("{fen}: kibitz {value:?}, Syzygy {wdl:?}")
            }))
        };
        let indices: Box<dyn Iterator<Item = usize>> = match sample {
            Some(n) => Box::new(
                (0..n.saturating_mul(50))
                    .map(move |_| (rng.next_u64() % layout.size as u64) as usize),
            ),
            None => Box::new(0..layout.size),
        };
        for index in indices {
            if sample.is_some_and(|n| checked >= n) {
                break;
            }
            if let Some(result) = check(index) {
                checked += 1;
                if let Some(text) = result {
                    mismatches += 1;
                    first.get_or_insert(text);
                }
            }
        }
        total_mismatches += mismatches;
        if json_output {
            writeln!(
                out,
                "{}",
                json!({
                    "type": "table",
                    "material": material.to_string(),
                    "checked": checked,
                    "disagree": mismatches,
                    "seconds": started.elapsed().as_secs_f64(),
                    "first": first,
                })
            )?;
            continue;
        }
        writeln!(
            out,
            "{:<7} {checked:>9} positions checked  {mismatches} disagree  {:.1} s{}",
            material.to_string(),
            started.elapsed().as_secs_f64(),
            first.map(|f| format!("  first: {f}")).unwrap_or_default()
        )?;
    }
    if json_output {
        writeln!(
            out,
            "{}",
            json!({"type": "total", "disagree": total_mismatches})
        )?;
    } else {
        writeln!(out, "total disagreements: {total_mismatches}")?;
    }
    Ok(total_mismatches)
}

/// Whether a Syzygy folder (or list of folders, as `--syzygy` takes) holds
/// the WDL table of `material`, under either side's name.
fn has_syzygy_table(dirs: &Path, material: &Material) -> bool {
    let names = [material.to_string(), material.mirrored().to_string()];
    std::env::split_paths(dirs.as_os_str()).any(|dir| {
        names
            .iter()
            .any(|name| dir.join(format!("{name}.rtbw")).is_file())
    })
}

/// A folder the user named for kibitz's tables (`--dir`) is written only
/// when it is new, empty or already holds kibitz tables: generating into
/// any folder would scatter files among the user's own (or into `/dev`).
fn check_tables_dir(dir: &Path) -> Result<(), CliError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(CliError::BadInput(format!(
                "tables folder {}: {e}",
                dir.display()
            )));
        }
    };
    let mut empty = true;
    for entry in entries {
        let entry = entry
            .map_err(|e| CliError::BadInput(format!("tables folder {}: {e}", dir.display())))?;
        empty = false;
        if Path::new(&entry.file_name()).extension() == Some("ktb".as_ref()) {
            return Ok(());
        }
    }
    if empty {
        return Ok(());
    }
    Err(CliError::BadInput(format!(
        "tables folder {} holds other files and no kibitz tables: not writing tables there (give a new or empty folder)",
        dir.display()
    )))
}

/// Tables for one position: its material's table and what that needs,
/// loaded from `dir` or generated (and stored) if missing.
pub fn tablebases_for(
    position: &shakmaty::Chess,
    dir: Option<&Path>,
    syzygy: Option<&Path>,
) -> Result<crate::tablebase::Tablebases, CliError> {
    use shakmaty::Position;
    let mut builtin = Builtin::new();
    let pieces = position.board().occupied().count();
    // No table covers a position with castling rights: nothing to make.
    if (3..=4).contains(&pieces) && position.castles().is_empty() {
        let material = Material::from_board(position.board()).canonical().0;
        // Generating writes files: say so, and where, before doing it.
        let missing: Vec<String> = with_dependencies(std::slice::from_ref(&material))
            .into_iter()
            .filter(|m| dir.is_none_or(|d| !store::path(d, m).is_file()))
            .map(|m| m.to_string())
            .collect();
        if !missing.is_empty() {
            match dir {
                Some(dir) => eprintln!(
                    "generating {} missing table{} ({}) into {}; they are kept for next time",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(" "),
                    dir.display()
                ),
                None => eprintln!(
                    "generating {} table{} in memory ({}); no folder to keep them in",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(" ")
                ),
            }
        }
        let mut report = Vec::new();
        builtin = load_or_generate(&[material], dir, false, false, &mut report)?.0;
        for line in String::from_utf8_lossy(&report)
            .lines()
            .filter(|l| !l.contains("tables ready"))
        {
            eprintln!("{line}");
        }
    }
    let mut tables = crate::tablebase::Tablebases::new(builtin);
    if let Some(dir) = syzygy {
        tables.add_syzygy(dir).map_err(CliError::BadInput)?;
    }
    Ok(tables)
}

/// Why no table covers `position`, naming the Syzygy folder when one was
/// given.
fn no_table_reason(position: &shakmaty::Chess, syzygy: Option<&Path>) -> String {
    use shakmaty::Position;
    let own = "kibitz's own tables: 3-4 pieces without castling rights";
    if !position.castles().is_empty() {
        return format!(
            "no table covers this position: it has castling rights, which no table covers ({own})"
        );
    }
    let Some(dir) = syzygy else {
        return format!("no table covers this position ({own}; more needs --syzygy)");
    };
    let material = Material::from_board(position.board()).canonical().0;
    format!(
        "no table covers this position: Syzygy folder {} has no table for {material} ({own})",
        dir.display()
    )
}

pub fn probe(
    fen: &str,
    syzygy: Option<&Path>,
    dir: Option<PathBuf>,
    with_moves: bool,
    json_output: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    use crate::game::notation::{san_line, uci};
    let position = crate::game::fen::parse_fen(fen)?;
    if let Some(dir) = &dir {
        check_tables_dir(dir)?;
    }
    let dir = dir.or_else(default_dir);
    let tables = tablebases_for(&position, dir.as_deref(), syzygy)?;
    let Some(probe) = tables.probe(&position) else {
        return Err(CliError::BadInput(no_table_reason(&position, syzygy)));
    };
    let moves = if with_moves {
        tables.probe_moves(&position).unwrap_or_default()
    } else {
        Vec::new()
    };
    let source = match probe.source {
        crate::tablebase::TbSource::Builtin => "kibitz",
        crate::tablebase::TbSource::Syzygy => "syzygy",
    };
    if json_output {
        let moves: Vec<_> = moves
            .iter()
            .map(|(m, p)| json!({"uci": uci(*m), "san": san_line(&position, &[*m]).join(""), "wdl": p.wdl.name(), "dtm": p.dtm, "dtz": p.dtz}))
            .collect();
        let line = json!({
            "wdl": probe.wdl.name(),
            "dtm": probe.dtm,
            "dtz": probe.dtz,
            "best_move": probe.best_move.map(uci),
            "source": source,
            "moves": if with_moves { Some(moves) } else { None },
        });
        writeln!(out, "{line}")?;
        return Ok(());
    }
    use shakmaty::Position;
    let side = if position.turn().is_white() {
        "White"
    } else {
        "Black"
    };
    writeln!(
        out,
        "{side} to move: {} (source: {source} tables)",
        describe(&probe)
    )?;
    if let Some(m) = probe.best_move {
        writeln!(
            out,
            "best move {} ({})",
            san_line(&position, &[m]).join(""),
            uci(m)
        )?;
    }
    for (m, p) in &moves {
        writeln!(
            out,
            "  {:<8} {:<6} {}",
            san_line(&position, &[*m]).join(""),
            uci(*m),
            describe(p)
        )?;
    }
    Ok(())
}
