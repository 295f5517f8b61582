//! The game database's benchmark: speed of import, size on disk, speed of
//! the explorer and of game search, on a generated collection.
//!
//! ```text
//! cargo bench --bench db                                   # 20,000 games, under a minute
//! cargo bench --bench db -- --games 1000000 --dir DIR [--keep]
//! ```
//!
//! It writes a PGN of synthetic games (seeded, so every run writes the
//! same file), imports it through the library as `kibitz db import` does,
//! then asks the explorer about positions taken from the games, as a user
//! walks through them. The games: a line of the built-in openings table
//! (popular lines more often), then a few plies where each position has its
//! own favourite moves (so games share positions a little past the book,
//! as real ones do), then random legal moves leaning to captures and
//! checks, to mate, stalemate, bare kings or a length of 40-160 plies.
//! Tags as a real collection has them: players from a pool of 20,000 (a
//! few in thousands of games), ratings, dates from 1990 to 2026, events.
//! About 850 bytes a game, like a TWIC file, so that "a database no bigger
//! than its PGN" is a fair comparison.
//!
//! Options: `--games N` (20000), `--dir DIR` (a new folder in the temporary
//! folder), `--keep` (keep the PGN and the database; a kept PGN of the same
//! games and seed is reused by the next run), `--seed S`, `--queries N`
//! (explorer positions, 3000), `--threads N` (import threads beside the
//! reader; default one per processor but one), `--no-queries` (import and
//! size only).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use kibitz::db::{Database, Filter, GameQuery, ImportOptions};
use shakmaty::san::San;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position, Role};

const OPENINGS: &str = include_str!("../assets/openings.tsv");
const PLAYERS: usize = 20_000;
/// Games generated per chunk: a chunk is one unit of parallel work, with
/// its own seed, so the file is the same whatever the number of threads.
const CHUNK: usize = 1_000;

/// SplitMix64: small, fast, and good enough to pick moves and names.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Pick from cumulative weights.
fn pick(cumulative: &[f64], rng: &mut Rng) -> usize {
    let total = cumulative.last().copied().unwrap_or(0.0);
    let x = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
    cumulative
        .partition_point(|&c| c <= x)
        .min(cumulative.len() - 1)
}

/// Zipf-like weights 1/(rank+1)^s, cumulated.
fn zipf(n: usize, s: f64) -> Vec<f64> {
    let mut total = 0.0;
    (0..n)
        .map(|r| {
            total += 1.0 / ((r + 1) as f64).powf(s);
            total
        })
        .collect()
}

/// What every chunk shares: the openings, the players.
struct World {
    /// ECO code and moves of each line of the openings table, in a seeded
    /// order of popularity.
    openings: Vec<(String, Vec<Move>)>,
    opening_weights: Vec<f64>,
    player_weights: Vec<f64>,
    seed: u64,
}

const SURNAMES: [&str; 50] = [
    "Adams",
    "Bauer",
    "Carlsen",
    "Dubov",
    "Eriksen",
    "Fischer",
    "Gelfand",
    "Horvath",
    "Ivanov",
    "Jensen",
    "Kowalski",
    "Larsen",
    "Moreau",
    "Nakamura",
    "Olsen",
    "Petrov",
    "Quinn",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Ulrich",
    "Varga",
    "Weber",
    "Xu",
    "Yilmaz",
    "Zhukov",
    "Almeida",
    "Bianchi",
    "Costa",
    "Dvorak",
    "Esposito",
    "Ferreira",
    "Garcia",
    "Hansen",
    "Ionescu",
    "Jovanovic",
    "Kim",
    "Lopez",
    "Muller",
    "Novak",
    "Ortega",
    "Papadopoulos",
    "Ramos",
    "Santos",
    "Torres",
    "Urban",
    "Vidal",
    "Wagner",
    "Young",
    "Zimmermann",
];
const SUFFIXES: [&str; 40] = [
    "", "-Berg", "son", "ski", "ov", "escu", "ini", "sen", "man", "er", "ides", "enko", "ic", "ez",
    "ak", "is", "ova", "stein", "feld", "ley", "ton", "wood", "ard", "ino", "elli", "on", "ek",
    "uk", "yan", "oglu", "i", "a", "ius", "etti", "anu", "ier", "oni", "ach", "au", "o",
];
const FIRST: [&str; 40] = [
    "Anna", "Boris", "Carla", "David", "Elena", "Farid", "Greta", "Hugo", "Irina", "Jan", "Kira",
    "Luis", "Maria", "Nils", "Olga", "Pavel", "Rosa", "Sven", "Tara", "Viktor", "Wei", "Yara",
    "Zoltan", "Alex", "Bea", "Chen", "Dario", "Eva", "Felix", "Gosia", "Hana", "Ivan", "Jonas",
    "Katya", "Leo", "Mei", "Nadia", "Omar", "Priya", "Ravi",
];
const CITIES: [&str; 24] = [
    "Wijk aan Zee",
    "Linares",
    "Dortmund",
    "Reykjavik",
    "Biel",
    "Gibraltar",
    "Hastings",
    "Tata Steel",
    "Moscow",
    "Sochi",
    "Chennai",
    "Saint Louis",
    "Baden-Baden",
    "Prague",
    "Budapest",
    "Warsaw",
    "Madrid",
    "Lisbon",
    "Oslo",
    "Athens",
    "Zagreb",
    "Riga",
    "Tbilisi",
    "Montreal",
];
const KINDS: [&str; 8] = [
    "Open",
    "Championship",
    "Rapid",
    "Blitz",
    "Masters",
    "Cup",
    "Memorial",
    "Invitational",
];

/// Player `i`'s name: distinct for every `i` below 80,000.
fn player_name(i: usize) -> String {
    let surname = SURNAMES[i % 50];
    let suffix = SUFFIXES[(i / 50) % 40];
    let first = FIRST[(i / 2000) % 40];
    format!("{surname}{suffix}, {first}")
}

/// Player `i`'s usual rating: the most active players are the strongest.
fn player_rating(i: usize) -> u32 {
    let base = 2750.0 - 180.0 * ((i + 1) as f64).ln();
    let noise = (mix(i as u64 ^ 0x5eed) % 300) as f64 - 150.0;
    (base + noise).clamp(1200.0, 2850.0) as u32
}

impl World {
    fn new(seed: u64) -> Result<World> {
        let mut openings = Vec::new();
        for line in OPENINGS.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let [eco, _name, moves] = fields.as_slice() else {
                bail!("assets/openings.tsv: a line without three fields: {line}");
            };
            let mut position = Chess::default();
            let mut line_moves = Vec::new();
            for text in moves.split_whitespace() {
                let m = text
                    .parse::<San>()
                    .ok()
                    .and_then(|san| san.to_move(&position).ok())
                    .with_context(|| format!("assets/openings.tsv: {text} in {moves}"))?;
                position.play_unchecked(m);
                line_moves.push(m);
            }
            openings.push(((*eco).to_string(), line_moves));
        }
        // A seeded order of popularity (Fisher-Yates).
        let mut rng = Rng(seed ^ 0x0be7);
        for i in (1..openings.len()).rev() {
            openings.swap(i, rng.below(i + 1));
        }
        Ok(World {
            opening_weights: zipf(openings.len(), 1.0),
            openings,
            player_weights: zipf(PLAYERS, 0.6),
            seed,
        })
    }

    /// The games of chunk `index`, as PGN text.
    fn chunk(&self, index: usize, games: usize) -> Vec<u8> {
        let mut rng = Rng(mix(self.seed ^ mix(index as u64 + 1)));
        let mut out = Vec::with_capacity(games * 900);
        for _ in 0..games {
            self.game(&mut rng, &mut out);
        }
        out
    }

    fn game(&self, rng: &mut Rng, out: &mut Vec<u8>) {
        let white = pick(&self.player_weights, rng);
        let mut black = pick(&self.player_weights, rng);
        if black == white {
            black = (black + 1 + rng.below(PLAYERS - 1)) % PLAYERS;
        }
        let (eco, line) = &self.openings[pick(&self.opening_weights, rng)];
        // Most games follow the whole line; some leave it early.
        let book = if rng.chance(0.8) {
            line.len()
        } else {
            rng.below(line.len() + 1)
        };
        let target = rng.range(40, 160) as usize;
        let mut position = Chess::default();
        let mut sans: Vec<String> = Vec::with_capacity(target);
        let mut result: Option<&str> = None;
        let mut favourite_left = 4 + rng.below(10);
        while sans.len() < target {
            let moves = position.legal_moves();
            if moves.is_empty() {
                result = Some(if position.is_check() {
                    match position.turn() {
                        Color::White => "0-1",
                        Color::Black => "1-0",
                    }
                } else {
                    "1/2-1/2"
                });
                break;
            }
            if position.is_insufficient_material() {
                result = Some("1/2-1/2");
                break;
            }
            let ply = sans.len();
            let m = if ply < book && moves.contains(&line[ply]) {
                line[ply]
            } else if favourite_left > 0 && rng.chance(0.85) {
                favourite_left -= 1;
                favourite(&position, &moves, rng)
            } else {
                favourite_left = 0;
                lively(&position, &moves, rng)
            };
            let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut position, m);
            sans.push(san.to_string());
        }
        if result.is_none() && position.legal_moves().is_empty() {
            result = Some(match position.outcome() {
                Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::White,
                }) => "1-0",
                Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::Black,
                }) => "0-1",
                _ => "1/2-1/2",
            });
        }
        let white_rating = player_rating(white) as i64 + rng.below(101) as i64 - 50;
        let black_rating = player_rating(black) as i64 + rng.below(101) as i64 - 50;
        let result = result.unwrap_or_else(|| {
            // The stronger side wins more often; a few games unfinished.
            let edge = ((white_rating - black_rating) as f64 / 1500.0).clamp(-0.25, 0.25);
            let x = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            if x < 0.01 {
                "*"
            } else if x < 0.39 + edge {
                "1-0"
            } else if x < 0.72 + edge / 2.0 {
                "1/2-1/2"
            } else {
                "0-1"
            }
        });
        self.write_game(
            rng,
            out,
            white,
            black,
            (white_rating, black_rating),
            eco,
            &sans,
            result,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn write_game(
        &self,
        rng: &mut Rng,
        out: &mut Vec<u8>,
        white: usize,
        black: usize,
        ratings: (i64, i64),
        eco: &str,
        sans: &[String],
        result: &str,
    ) {
        let year = rng.range(1990, 2026);
        let city = CITIES[rng.below(CITIES.len())];
        let kind = KINDS[rng.below(KINDS.len())];
        let date = match rng.below(100) {
            0 => "????.??.??".to_string(),
            1..=3 => format!("{year}.??.??"),
            _ => format!("{year}.{:02}.{:02}", rng.range(1, 12), rng.range(1, 28)),
        };
        let mut tags = format!(
            "[Event \"{city} {kind} {year}\"]\n[Site \"{city}\"]\n[Date \"{date}\"]\n[Round \"{}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n",
            rng.range(1, 11),
            player_name(white),
            player_name(black),
        );
        // Titles, ratings and FIDE numbers, as TWIC gives them.
        for (side, player, rating) in [("White", white, ratings.0), ("Black", black, ratings.1)] {
            let title = match rating {
                2500.. => Some("GM"),
                2400..2500 => Some("IM"),
                2300..2400 => Some("FM"),
                _ => None,
            };
            if let Some(title) = title {
                tags.push_str(&format!("[{side}Title \"{title}\"]\n"));
            }
            if rng.chance(0.95) {
                tags.push_str(&format!("[{side}Elo \"{}\"]\n", rating.clamp(1200, 2850)));
            }
            tags.push_str(&format!(
                "[{side}FideId \"{}\"]\n",
                100_000 + mix(player as u64) % 90_000_000
            ));
        }
        tags.push_str(&format!("[EventDate \"{year}.??.??\"]\n"));
        if rng.chance(0.9) {
            tags.push_str(&format!("[ECO \"{eco}\"]\n"));
        }
        out.extend_from_slice(tags.as_bytes());
        out.push(b'\n');
        // Movetext in lines of at most 79 columns, as most programs write it.
        let mut column = 0;
        let mut token = String::new();
        let mut put = |out: &mut Vec<u8>, token: &str| {
            if column > 0 && column + 1 + token.len() > 79 {
                out.push(b'\n');
                column = 0;
            } else if column > 0 {
                out.push(b' ');
                column += 1;
            }
            out.extend_from_slice(token.as_bytes());
            column += token.len();
        };
        for (ply, san) in sans.iter().enumerate() {
            token.clear();
            if ply % 2 == 0 {
                token.push_str(&format!("{}.", ply / 2 + 1));
                token.push_str(san);
            } else {
                token.push_str(san);
            }
            put(out, &token);
        }
        put(out, result);
        out.extend_from_slice(b"\n\n");
    }
}

/// A move this position "likes": one of three, chosen by the position
/// itself, so games that reach it often go on the same way.
fn favourite(position: &Chess, moves: &[Move], rng: &mut Rng) -> Move {
    let key = position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    let rank = match rng.below(20) {
        0..=11 => 0,
        12..=16 => 1,
        _ => 2,
    };
    moves[(mix(key ^ rank) % moves.len() as u64) as usize]
}

/// A move of a game past its opening: the best-scored of three random
/// legal moves, captures (of more for less), promotions, checks and
/// castling scoring higher than a quiet move.
fn lively(position: &Chess, moves: &[Move], rng: &mut Rng) -> Move {
    let value = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    let mut best = moves[rng.below(moves.len())];
    let mut best_score = i64::MIN;
    for _ in 0..3 {
        let m = moves[rng.below(moves.len())];
        let mut score = rng.below(3) as i64;
        if let Some(victim) = m.capture() {
            score += 2 + value(victim) - value(m.role()) / 3;
        }
        if m.is_promotion() {
            score += 8;
        }
        if m.is_castle() {
            score += 3;
        }
        let mut after = position.clone();
        after.play_unchecked(m);
        if after.is_check() {
            score += 2;
        }
        if score > best_score {
            best = m;
            best_score = score;
        }
    }
    best
}

struct Args {
    games: usize,
    dir: Option<PathBuf>,
    keep: bool,
    seed: u64,
    queries: usize,
    threads: Option<usize>,
    /// Import and measure the size only.
    no_queries: bool,
}

fn args() -> Result<Args> {
    let mut out = Args {
        games: 20_000,
        dir: None,
        keep: false,
        seed: 55,
        queries: 3_000,
        threads: None,
        no_queries: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().with_context(|| format!("{name} needs a value"));
        match arg.as_str() {
            // What `cargo bench` passes to every bench.
            "--bench" => {}
            "--games" => out.games = value("--games")?.replace([',', '_'], "").parse()?,
            "--dir" => out.dir = Some(PathBuf::from(value("--dir")?)),
            "--keep" => out.keep = true,
            "--seed" => out.seed = value("--seed")?.parse()?,
            "--queries" => out.queries = value("--queries")?.parse()?,
            "--threads" => out.threads = Some(value("--threads")?.parse()?),
            "--no-queries" => out.no_queries = true,
            other => bail!(
                "unknown argument {other} (--games N, --dir DIR, --keep, --seed S, --queries N, --threads N, --no-queries)"
            ),
        }
    }
    if out.games == 0 {
        bail!("--games must be at least 1");
    }
    Ok(out)
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Write the PGN of `games` games, chunks made on every processor and
/// written in order.
fn generate(world: &World, games: usize, path: &Path) -> Result<u64> {
    let chunks = games.div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut writer = std::io::BufWriter::with_capacity(1 << 20, file);
    let (send, receive) = std::sync::mpsc::sync_channel::<(usize, Vec<u8>)>(threads * 4);
    let mut bytes = 0u64;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= chunks {
                        break;
                    }
                    let n = CHUNK.min(games - i * CHUNK);
                    if send.send((i, world.chunk(i, n))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut want = 0;
        for (i, text) in receive {
            waiting.insert(i, text);
            while let Some(text) = waiting.remove(&want) {
                writer.write_all(&text)?;
                bytes += text.len() as u64;
                want += 1;
            }
        }
        writer.flush()?;
        Ok(())
    })?;
    Ok(bytes)
}

/// Milliseconds per call: median, p90, p99 and max.
fn spread(label: &str, mut ms: Vec<f64>) {
    if ms.is_empty() {
        println!("{label}: nothing measured");
        return;
    }
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 * q).ceil() as usize).clamp(1, ms.len()) - 1];
    println!(
        "{label}, {} queries: median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        ms[ms.len() - 1]
    );
}

fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let started = Instant::now();
    let value = f()?;
    Ok((value, started.elapsed().as_secs_f64() * 1000.0))
}

/// Drop the file's pages from the operating system's cache, so that the
/// next query reads them from the disk (only this file's pages: other
/// programs are not touched).
#[cfg(target_os = "linux")]
fn drop_from_cache(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    match std::fs::File::open(path) {
        // SAFETY: a valid descriptor of an open file; the call only
        // advises the kernel.
        Ok(file) => unsafe {
            libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) == 0
        },
        Err(_) => false,
    }
}

#[cfg(not(target_os = "linux"))]
fn drop_from_cache(_path: &Path) -> bool {
    false
}

fn main() -> Result<()> {
    let args = args()?;
    let made_dir = args.dir.is_none();
    let dir = args.dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("kibitz-bench-db-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let pgn = dir.join(format!("synthetic-{}-{}.pgn", args.games, args.seed));
    let db_path = dir.join(format!("synthetic-{}-{}.sqlite", args.games, args.seed));
    let outcome = run(&args, &pgn, &db_path);
    let _ = std::fs::remove_file(pgn.with_extension("pgn.part"));
    if !args.keep {
        let _ = std::fs::remove_file(&pgn);
        let _ = std::fs::remove_file(&db_path);
        let _ = std::fs::remove_file(db_path.with_extension("sqlite-journal"));
        if made_dir {
            let _ = std::fs::remove_dir(&dir);
        }
    }
    outcome
}

fn run(args: &Args, pgn: &Path, db_path: &Path) -> Result<()> {
    let world = World::new(args.seed)?;
    println!(
        "collection: {} games, seed {}, {} opening lines, {} players",
        thousands(args.games as u64),
        args.seed,
        world.openings.len(),
        thousands(PLAYERS as u64)
    );
    let pgn_bytes = if args.keep && pgn.is_file() {
        let bytes = std::fs::metadata(pgn)?.len();
        println!("generate: reusing {} ({})", pgn.display(), megabytes(bytes));
        bytes
    } else {
        let started = Instant::now();
        // Written under another name and renamed when whole, so that a run
        // stopped half-way never leaves a PGN a later run would reuse.
        let part = pgn.with_extension("pgn.part");
        let bytes = generate(&world, args.games, &part)?;
        std::fs::rename(&part, pgn)?;
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "generate: {} games in {seconds:.1} s, {} games/s, {} bytes a game",
            thousands(args.games as u64),
            thousands((args.games as f64 / seconds) as u64),
            bytes / args.games as u64
        );
        bytes
    };

    // Import, as `kibitz db import` does: the games, then the summary.
    let _ = std::fs::remove_file(db_path);
    let mut db = Database::open_or_create(db_path)?;
    let mut options = ImportOptions::default();
    if let Some(threads) = args.threads {
        options.workers = threads;
    }
    let stop = AtomicBool::new(false);
    let report = db.import(pgn, &options, &stop, &mut |_| {})?;
    if report.games_read != args.games as u64 {
        bail!(
            "{} holds {} games, not {}: remove it (a kept PGN of another run?)",
            pgn.display(),
            report.games_read,
            args.games
        );
    }
    if report.skipped > 0 {
        bail!(
            "the import skipped {} games: {:?}",
            report.skipped,
            report.bad_games.first()
        );
    }
    println!(
        "import: {} games in {:.1} s, {} games/s, {} positions/s ({} positions, {} worker threads)",
        thousands(report.added),
        report.seconds,
        thousands((report.added as f64 / report.seconds) as u64),
        thousands((report.positions as f64 / report.seconds) as u64),
        thousands(report.positions),
        options.workers
    );
    let started = Instant::now();
    db.rebuild_summary(false)?;
    let summary_seconds = started.elapsed().as_secs_f64();
    println!(
        "summary: {:.1} s, {} positions/s",
        summary_seconds,
        thousands((report.positions as f64 / summary_seconds) as u64)
    );
    let total = report.seconds + summary_seconds;
    println!(
        "import and summary: {:.1} s, {} games/s",
        total,
        thousands((report.added as f64 / total) as u64)
    );
    let info = db.info()?;
    drop(db);
    let db_bytes = std::fs::metadata(db_path)?.len();
    println!(
        "size: PGN {}, database {}, database/PGN {:.2} ({} summary rows, {} segments)",
        megabytes(pgn_bytes),
        megabytes(db_bytes),
        db_bytes as f64 / pgn_bytes as f64,
        thousands(info.summary_rows),
        info.segments
    );

    breakdown(db_path, info.positions)?;
    if args.no_queries {
        return Ok(());
    }
    queries(args, db_path, info.games)
}

/// Where the database's bytes go, read with SQLite itself.
fn breakdown(db_path: &Path, positions: u64) -> Result<()> {
    let conn =
        rusqlite::Connection::open_with_flags(db_path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let one = |sql: &str| -> Result<u64> {
        Ok(conn
            .query_row(sql, [], |row| row.get::<_, Option<i64>>(0))?
            .unwrap_or(0)
            .max(0) as u64)
    };
    let page = one("PRAGMA page_size")?;
    let free = one("PRAGMA freelist_count")? * page;
    let blocks = one("SELECT sum(length(data)) FROM blocks")?;
    let moves = one("SELECT sum(length(moves)) FROM games")?;
    let tags = one("SELECT sum(length(tags)) FROM games")?;
    println!(
        "size by part: index blocks {} ({:.1} bytes a position), games' moves {}, games' tags {}, free pages {}",
        megabytes(blocks),
        blocks as f64 / positions.max(1) as f64,
        megabytes(moves),
        megabytes(tags),
        megabytes(free)
    );
    Ok(())
}

fn queries(args: &Args, db_path: &Path, games: u64) -> Result<()> {
    // Positions as a user meets them walking through games: every ply up
    // to 80 of seeded random games.
    let db = Database::open(db_path, false)?;
    let mut rng = Rng(mix(args.seed ^ 0xe4));
    let mut positions: Vec<Chess> = Vec::new();
    while positions.len() < args.queries {
        let id = 1 + rng.below(games as usize) as i64;
        let tree = db.load_game(id)?;
        let mut ply = 0;
        tree.walk_mainline(|p| {
            if ply <= 80 && positions.len() < args.queries {
                positions.push(p.clone());
            }
            ply += 1;
        });
    }
    drop(db);
    let mut order: Vec<usize> = (0..positions.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let filter = Filter::default();

    // Cold: the file dropped from the operating system's cache and opened
    // afresh for each query.
    let cold_n = 200.min(order.len());
    if drop_from_cache(db_path) {
        let mut ms = Vec::new();
        for &i in &order[..cold_n] {
            drop_from_cache(db_path);
            let (_, t) = timed(|| {
                let db = Database::open(db_path, false)?;
                Ok(db.explore(&positions[i], &filter)?)
            })?;
            ms.push(t);
        }
        spread(
            "explore, cold (file out of the OS cache, opened for each query)",
            ms,
        );
    }
    // First pass on a fresh connection (SQLite's cache empty), then the
    // same positions again (warm).
    let db = Database::open(db_path, false)?;
    for pass in [
        "explore, first pass (fresh connection)",
        "explore, warm (second pass)",
    ] {
        let mut ms = Vec::with_capacity(order.len());
        for &i in &order {
            let (_, t) = timed(|| Ok(db.explore(&positions[i], &filter)?))?;
            ms.push(t);
        }
        spread(pass, ms);
    }
    let mut by_ply: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    for p in &positions {
        let (_, t) = timed(|| Ok(db.explore(p, &filter)?))?;
        let ply = (p.fullmoves().get() - 1) * 2 + u32::from(p.turn() == Color::Black);
        by_ply.entry((ply / 20).min(3) * 20).or_default().push(t);
    }
    for (ply, ms) in by_ply {
        let last = if ply == 60 { 80 } else { ply + 19 };
        spread(&format!("explore, warm, plies {ply}-{last}"), ms);
    }

    // The player with the most games: the explorer filtered to them, at
    // the positions of their games.
    let top = player_name(0);
    let player = Filter {
        player: Some(top.clone()),
        ..Filter::default()
    };
    let (their_games, their_total) = db.games(&GameQuery {
        filter: player.clone(),
        limit: 40,
        ..GameQuery::default()
    })?;
    let mut theirs: Vec<Chess> = Vec::new();
    for row in &their_games {
        let tree = db.load_game(row.id)?;
        let mut ply = 0;
        tree.walk_mainline(|p| {
            if ply <= 30 {
                theirs.push(p.clone());
            }
            ply += 1;
        });
    }
    let mut ms = Vec::new();
    for p in &theirs {
        ms.push(timed(|| Ok(db.explore(p, &player)?))?.1);
    }
    spread(
        &format!(
            "explore filtered to {top} ({} games), warm",
            thousands(their_total)
        ),
        ms,
    );

    // Game search: by player (players drawn as they play), by position.
    let weights = zipf(PLAYERS, 0.6);
    let mut ms = Vec::new();
    for _ in 0..200 {
        let name = player_name(pick(&weights, &mut rng));
        let query = GameQuery {
            filter: Filter {
                player: Some(name),
                ..Filter::default()
            },
            limit: 50,
            ..GameQuery::default()
        };
        ms.push(timed(|| Ok(db.games(&query)?))?.1);
    }
    spread("games by player (50 most recent and the count)", ms);
    let mut ms = Vec::new();
    let mut biggest = (0u64, 0.0f64);
    // At a popular position this reads every game that reached it: bounded
    // to two minutes so that a big database's run ends.
    let started = Instant::now();
    for &i in order.iter().take(200) {
        if started.elapsed().as_secs() >= 120 {
            println!("games by position: stopped after 120 s");
            break;
        }
        let query = GameQuery {
            position: Some(positions[i].clone()),
            limit: 50,
            ..GameQuery::default()
        };
        let ((_, total), t) = timed(|| Ok(db.games(&query)?))?;
        if total > biggest.0 {
            biggest = (total, t);
        }
        ms.push(t);
    }
    spread("games by position (50 most recent and the count)", ms);
    println!(
        "games by position, the most games found: {} games in {:.1} ms",
        thousands(biggest.0),
        biggest.1
    );
    Ok(())
}
