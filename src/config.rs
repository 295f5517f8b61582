//! Settings from `config.toml` in the config directory, and where kibitz
//! keeps its files (from `directories`: on Linux `~/.config/kibitz` and
//! `~/.local/share/kibitz`).
//!
//! A missing file means the defaults. A bad value is reported and replaced
//! by its default; an unknown key is reported and ignored. Nothing in the
//! file can stop the program from starting.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use crate::book::BookOptions;
use crate::engine::level::{Level, MAX_LEVEL, MIN_LEVEL};
use crate::engine::protocol::{MAX_TABLE_MOVES, MAX_TABLE_THRESHOLD};

/// Board colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThemeName {
    #[default]
    Classic,
    Green,
    Blue,
    Mono,
}

impl ThemeName {
    pub const ALL: [ThemeName; 4] = [
        ThemeName::Classic,
        ThemeName::Green,
        ThemeName::Blue,
        ThemeName::Mono,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ThemeName::Classic => "classic",
            ThemeName::Green => "green",
            ThemeName::Blue => "blue",
            ThemeName::Mono => "mono",
        }
    }
}

impl FromStr for ThemeName {
    type Err = String;
    fn from_str(text: &str) -> Result<ThemeName, String> {
        ThemeName::ALL
            .into_iter()
            .find(|t| t.name() == text)
            .ok_or_else(|| format!("'{text}' is not a theme (classic, green, blue, mono)"))
    }
}

/// How pieces are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PieceStyle {
    /// The chess symbols of Unicode (♔♕♖♗♘♙).
    #[default]
    Unicode,
    /// Letters, for terminals and fonts without the symbols.
    Ascii,
}

impl FromStr for PieceStyle {
    type Err = String;
    fn from_str(text: &str) -> Result<PieceStyle, String> {
        match text {
            "unicode" => Ok(PieceStyle::Unicode),
            "ascii" => Ok(PieceStyle::Ascii),
            _ => Err(format!("'{text}' is not a piece style (unicode, ascii)")),
        }
    }
}

/// When the analysis board's engine stops by itself (`analysis_limit`):
/// after a time, at a depth, or never. `a` goes on past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalysisLimit {
    /// Seconds of searching a position.
    Seconds(u32),
    /// The depth of the lines shown.
    Depth(u32),
    /// No limit: the engine analyses until `a` stops it.
    None,
}

impl AnalysisLimit {
    /// The default: long enough for a useful depth (three lines on one
    /// thread reached depth 19-24 in the middlegame and 34 in a rook
    /// ending, on a loaded 2-core machine), short enough not to keep a core
    /// busy for nothing.
    pub const DEFAULT: AnalysisLimit = AnalysisLimit::Seconds(30);
}

impl fmt::Display for AnalysisLimit {
    /// As the config file writes it: "30 s", "depth 28", "none".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisLimit::Seconds(s) => write!(f, "{s} s"),
            AnalysisLimit::Depth(d) => write!(f, "depth {d}"),
            AnalysisLimit::None => write!(f, "none"),
        }
    }
}

impl FromStr for AnalysisLimit {
    type Err = String;
    /// "30 s" (or "30s", 1-3600), "depth 28" (1-99), or "none".
    fn from_str(text: &str) -> Result<AnalysisLimit, String> {
        let text = text.trim();
        let bad = || {
            // Short enough for the status line with the other problems'
            // count before it (120 columns).
            format!("'{text}' is not a limit (\"30 s\", \"depth 28\", \"none\")")
        };
        if text.eq_ignore_ascii_case("none") {
            return Ok(AnalysisLimit::None);
        }
        if let Some(depth) = text.strip_prefix("depth") {
            return depth
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=99).contains(d))
                .map(AnalysisLimit::Depth)
                .ok_or_else(bad);
        }
        text.strip_suffix('s')
            .and_then(|s| s.trim().parse::<u32>().ok())
            .filter(|s| (1..=3600).contains(s))
            .map(AnalysisLimit::Seconds)
            .ok_or_else(bad)
    }
}

/// A time control: base time per side plus an increment per move (Fischer),
/// or no clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    Untimed,
    Fischer { base: Duration, increment: Duration },
}

impl TimeControl {
    pub fn fischer(base_seconds: u64, increment_seconds: u64) -> TimeControl {
        TimeControl::Fischer {
            base: Duration::from_secs(base_seconds),
            increment: Duration::from_secs(increment_seconds),
        }
    }

    /// The presets the new-game dialog offers, with their family name.
    pub fn presets() -> Vec<(&'static str, TimeControl)> {
        vec![
            ("bullet", TimeControl::fischer(60, 0)),
            ("bullet", TimeControl::fischer(120, 1)),
            ("blitz", TimeControl::fischer(180, 0)),
            ("blitz", TimeControl::fischer(180, 2)),
            ("blitz", TimeControl::fischer(300, 0)),
            ("blitz", TimeControl::fischer(300, 3)),
            ("rapid", TimeControl::fischer(600, 0)),
            ("rapid", TimeControl::fischer(600, 5)),
            ("rapid", TimeControl::fischer(900, 10)),
            ("classical", TimeControl::fischer(1800, 0)),
            ("untimed", TimeControl::Untimed),
        ]
    }

    /// The PGN `TimeControl` header value ("300+3", or "-" without a clock).
    pub fn pgn(self) -> String {
        match self {
            TimeControl::Untimed => "-".into(),
            TimeControl::Fischer { base, increment } => {
                format!("{}+{}", base.as_secs(), increment.as_secs())
            }
        }
    }
}

impl fmt::Display for TimeControl {
    /// "5+3" (minutes + seconds), "0.5+0", or "untimed".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Untimed => write!(f, "untimed"),
            TimeControl::Fischer { base, increment } => {
                let secs = base.as_secs();
                if secs % 60 == 0 {
                    write!(f, "{}+{}", secs / 60, increment.as_secs())
                } else {
                    write!(f, "{}+{}", secs as f64 / 60.0, increment.as_secs())
                }
            }
        }
    }
}

impl FromStr for TimeControl {
    type Err = String;
    /// "untimed", or "M+S": base minutes (may be fractional) plus increment seconds.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("untimed") || text == "-" {
            return Ok(TimeControl::Untimed);
        }
        let bad =
            || format!("'{text}' is not a time control (like 5+3, minutes+seconds, or untimed)");
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let base: f64 = base.trim().parse().map_err(|_| bad())?;
        let increment: u64 = increment.trim().parse().map_err(|_| bad())?;
        if !(base.is_finite() && base > 0.0 && base <= 600.0) || increment > 600 {
            return Err(format!(
                "'{text}': the base must be more than 0 and at most 600 minutes, the increment at most 600 seconds"
            ));
        }
        Ok(TimeControl::Fischer {
            base: Duration::from_secs_f64(base * 60.0),
            increment: Duration::from_secs(increment),
        })
    }
}

/// Everything the config file can set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub theme: ThemeName,
    pub pieces: PieceStyle,
    pub level: Level,
    pub time_control: TimeControl,
    pub engine_panel: bool,
    /// In a game against the engine, show its line and score, the book and
    /// the tablebase during the game (`spoilers = "show"`); by default they
    /// wait for the game's end (`v` shows them on request).
    pub spoilers_shown: bool,
    /// When the analysis board's engine stops by itself.
    pub analysis_limit: AnalysisLimit,
    /// Ring the terminal's bell when your clock falls under ten seconds.
    pub bell: bool,
    pub hash_mb: usize,
    /// Search threads for the board's engine and the game review; `None`:
    /// every core but one. (`kibitz uci` starts with one, as GUIs expect,
    /// and takes the `Threads` option.)
    pub threads: Option<usize>,
    /// The opening book: `builtin` or a Polyglot file.
    pub book: String,
    pub book_options: BookOptions,
    /// A folder of Syzygy tables, if the user has one.
    pub syzygy: Option<PathBuf>,
    /// The game database the board's explorer and game list read (`None`:
    /// `games.sqlite` in the data folder; `kibitz --db FILE` wins).
    pub database: Option<PathBuf>,
    /// Whether missing endgame tables are generated as a game nears them.
    pub tablebase_generation: crate::tablebase::Generation,
    /// Greer's move tables: how many of the top table moves the engine
    /// tries first (0 = the tables learn, for the map, but do not order).
    pub move_table_moves: u8,
    /// A move is a table move only if its squares' weights add up to more.
    pub move_table_threshold: i32,
    /// Which moves lose move-table weight at a cutoff: those tried before
    /// it, or every other legal move (Greer's rule).
    pub move_table_decrement: crate::engine::movetables::Decrement,
    /// Play in lines of text instead of on the board (`kibitz --plain`),
    /// for screen readers.
    pub plain: bool,
    /// `[aliases]`: other spellings of players' names, as (the name the
    /// review's per-player report shows, another spelling), in the file's
    /// order. `review --all` merges them (and refuses unknown names).
    pub aliases: Vec<(String, String)>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            theme: ThemeName::Classic,
            pieces: PieceStyle::Unicode,
            level: Level::new(5).unwrap_or_default(),
            time_control: TimeControl::fischer(300, 3),
            engine_panel: true,
            spoilers_shown: false,
            analysis_limit: AnalysisLimit::DEFAULT,
            bell: false,
            hash_mb: crate::engine::DEFAULT_HASH_MB,
            threads: None,
            book: crate::book::BUILTIN.to_string(),
            book_options: BookOptions::default(),
            syzygy: None,
            database: None,
            tablebase_generation: crate::tablebase::Generation::Background,
            move_table_moves: crate::engine::protocol::DEFAULT_TABLE_MOVES,
            move_table_threshold: crate::engine::protocol::DEFAULT_TABLE_THRESHOLD,
            move_table_decrement: crate::engine::movetables::Decrement::default(),
            plain: false,
            aliases: Vec::new(),
        }
    }
}

/// `[aliases]`: `"Name" = "Other"` or `"Name" = ["Other", "Another"]`.
/// The entries that are right are kept; the first wrong one is reported.
fn parse_aliases(value: &toml::Value, aliases: &mut Vec<(String, String)>) -> Result<(), String> {
    let table = value
        .as_table()
        .ok_or_else(|| format!("expected a table ([aliases]), found {value}"))?;
    let mut problem = None;
    for (name, others) in table {
        let spellings: Vec<&toml::Value> = match others {
            toml::Value::Array(list) => list.iter().collect(),
            other => vec![other],
        };
        for other in spellings {
            match other.as_str() {
                Some(text) => aliases.push((name.clone(), text.to_string())),
                None => {
                    problem.get_or_insert_with(|| {
                        format!("\"{name}\": expected a name or a list of names, found {other}")
                    });
                }
            }
        }
    }
    problem.map_or(Ok(()), Err)
}

/// An example file, shown by the help and docs/configuration.md.
pub const EXAMPLE: &str = r#"# kibitz configuration
theme = "classic"        # classic, green, blue, mono
pieces = "unicode"       # unicode, ascii
level = 5                # engine level 1-10
time_control = "5+3"     # minutes+increment seconds, or "untimed"
engine_panel = true      # show the engine panel (its search for its move; e hides it)
spoilers = "hide"        # in a game: engine line and score, book, tablebase after the game (v shows), or "show"
analysis_limit = "30 s"  # the analysis board's engine stops after this: "30 s", "depth 28" or "none" (a goes on)
bell = false             # ring the terminal's bell when your clock falls under 10 s
hash_mb = 64             # engine hash table, MiB (more than half the free memory is capped, and said)
# threads = 3            # search threads, 1-256 (default: all cores but one)
book = "builtin"         # opening book: builtin, or a Polyglot .bin file
book_policy = "weighted" # weighted (varied), best (highest weight), off
book_depth = 24          # play book moves up to this ply
# syzygy = "/path/to/syzygy"  # Syzygy tables, if you have them
# database = "~/chess/games.sqlite"  # the game database of the board and `kibitz db` (default: games.sqlite in the data folder)
tablebase_generation = "background"  # make missing endgame tables: background, off, ask
move_table_moves = 0     # move-table moves tried first, 0-8 (0: learned for the map only; 1 cost -56 +/- 39 Elo against 0)
move_table_threshold = 0 # ...only moves whose squares' weights add up to more than this
move_table_decrement = "tried"  # at a cutoff lower the moves tried before it, or "all" other legal moves (Greer's rule)
plain = false            # play in lines of text, for screen readers (kibitz --plain)
# [aliases]              # review --all: a player's other spellings, merged into one player
# "Magnus Carlsen" = ["Carlsen, Magnus", "Carlsen, M."]
"#;

impl Settings {
    /// How many threads the board's engine and the review search on.
    pub fn search_threads(&self) -> usize {
        self.threads.unwrap_or_else(crate::engine::default_threads)
    }

    /// Read settings from TOML text. Returns the settings and a message for
    /// every problem (each bad value falls back to its default).
    pub fn parse(text: &str) -> (Settings, Vec<String>) {
        let mut settings = Settings::default();
        let mut problems = Vec::new();
        let table: toml::Table = match text.parse() {
            Ok(table) => table,
            Err(e) => {
                let why = e.to_string();
                let first = why.lines().next().unwrap_or("syntax error");
                problems.push(format!("config: {first}; using all defaults"));
                return (settings, problems);
            }
        };
        for (key, value) in &table {
            let as_str = || {
                value
                    .as_str()
                    .ok_or_else(|| format!("expected a string, found {value}"))
            };
            let outcome: Result<(), String> = match key.as_str() {
                "theme" => as_str().and_then(str::parse).map(|v| settings.theme = v),
                "pieces" => as_str().and_then(str::parse).map(|v| settings.pieces = v),
                "time_control" => as_str()
                    .and_then(str::parse)
                    .map(|v| settings.time_control = v),
                "level" => value
                    .as_integer()
                    .and_then(|n| u8::try_from(n).ok())
                    .and_then(Level::new)
                    .map(|v| settings.level = v)
                    .ok_or_else(|| format!("{value} is not a level ({MIN_LEVEL}-{MAX_LEVEL})")),
                "book" => as_str().map(|v| settings.book = v.to_string()),
                "syzygy" => as_str().map(|v| settings.syzygy = Some(PathBuf::from(v))),
                "database" => as_str().map(|v| settings.database = Some(PathBuf::from(v))),
                "tablebase_generation" => as_str()
                    .and_then(str::parse)
                    .map(|v| settings.tablebase_generation = v),
                "book_policy" => as_str()
                    .and_then(str::parse)
                    .map(|v| settings.book_options.policy = v),
                "book_depth" => value
                    .as_integer()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|n| *n <= 400)
                    .map(|v| settings.book_options.max_plies = v)
                    .ok_or_else(|| format!("{value} is not a book depth (0-400 plies)")),
                "analysis_limit" => as_str()
                    .and_then(str::parse)
                    .map(|v| settings.analysis_limit = v),
                "engine_panel" => value
                    .as_bool()
                    .map(|v| settings.engine_panel = v)
                    .ok_or_else(|| format!("expected true or false, found {value}")),
                "spoilers" => match as_str() {
                    Ok("hide") => {
                        settings.spoilers_shown = false;
                        Ok(())
                    }
                    Ok("show") => {
                        settings.spoilers_shown = true;
                        Ok(())
                    }
                    Ok(other) => Err(format!("'{other}': expected \"hide\" or \"show\"")),
                    Err(e) => Err(e),
                },
                "bell" => value
                    .as_bool()
                    .map(|v| settings.bell = v)
                    .ok_or_else(|| format!("expected true or false, found {value}")),
                "plain" => value
                    .as_bool()
                    .map(|v| settings.plain = v)
                    .ok_or_else(|| format!("expected true or false, found {value}")),
                "hash_mb" => value
                    .as_integer()
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|n| (1..=crate::engine::MAX_HASH_MB).contains(n))
                    .map(|v| settings.hash_mb = v)
                    .ok_or_else(|| {
                        format!(
                            "{value} is not a hash size (1-{} MiB)",
                            crate::engine::MAX_HASH_MB
                        )
                    }),
                "threads" => value
                    .as_integer()
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|n| (1..=crate::engine::MAX_THREADS).contains(n))
                    .map(|v| settings.threads = Some(v))
                    .ok_or_else(|| {
                        format!(
                            "{value} is not a number of threads (1-{})",
                            crate::engine::MAX_THREADS
                        )
                    }),
                "move_table_moves" => value
                    .as_integer()
                    .and_then(|n| u8::try_from(n).ok())
                    .filter(|n| *n <= MAX_TABLE_MOVES)
                    .map(|v| settings.move_table_moves = v)
                    .ok_or_else(|| {
                        format!("{value} is not a number of table moves (0-{MAX_TABLE_MOVES})")
                    }),
                "move_table_threshold" => value
                    .as_integer()
                    .and_then(|n| i32::try_from(n).ok())
                    .filter(|n| n.abs() <= MAX_TABLE_THRESHOLD)
                    .map(|v| settings.move_table_threshold = v)
                    .ok_or_else(|| {
                        format!(
                            "{value} is not a table threshold (-{MAX_TABLE_THRESHOLD} to {MAX_TABLE_THRESHOLD})"
                        )
                    }),
                "move_table_decrement" => value
                    .as_str()
                    .and_then(crate::engine::movetables::Decrement::parse)
                    .map(|v| settings.move_table_decrement = v)
                    .ok_or_else(|| format!("{value} is not a decrement rule (\"tried\" or \"all\")")),
                "aliases" => {
                    // The right entries are kept: a typo in one spelling
                    // does not undo the others.
                    if let Err(why) = parse_aliases(value, &mut settings.aliases) {
                        problems.push(format!("config: aliases: {why}; left out"));
                    }
                    continue;
                }
                _ => {
                    problems.push(format!("config: unknown key '{key}' ignored"));
                    continue;
                }
            };
            if let Err(why) = outcome {
                problems.push(format!("config: {key}: {why}; using the default"));
            }
        }
        (settings, problems)
    }

    /// Load `path`; a missing file gives the defaults without complaint. Only
    /// a regular file of at most [`crate::fsutil::MAX_CONFIG_BYTES`] is read.
    pub fn load(path: &Path) -> (Settings, Vec<String>) {
        match crate::fsutil::read_text_capped(
            path,
            crate::fsutil::MAX_CONFIG_BYTES,
            "a config file",
        ) {
            Ok(text) => Settings::parse(&text),
            Err(e) if e.is_not_found() => (Settings::default(), Vec::new()),
            Err(e) => (
                Settings::default(),
                vec![format!("config: {e}; using defaults")],
            ),
        }
    }
}

/// Where kibitz keeps its files.
#[derive(Debug, Clone)]
pub struct Dirs {
    pub config: PathBuf,
    pub data: PathBuf,
    pub cache: PathBuf,
}

impl Dirs {
    /// The platform's directories for kibitz, or `None` when there is no home
    /// directory to put them in.
    pub fn locate() -> Option<Dirs> {
        let dirs = directories::ProjectDirs::from("", "", "kibitz")?;
        Some(Dirs {
            config: dirs.config_dir().to_path_buf(),
            data: dirs.data_dir().to_path_buf(),
            cache: dirs.cache_dir().to_path_buf(),
        })
    }

    pub fn config_file(&self) -> PathBuf {
        self.config.join("config.toml")
    }

    /// Where kibitz keeps the endgame tables it generates.
    pub fn tablebases(&self) -> PathBuf {
        self.cache.join("tablebases")
    }
}

/// Compatibility only: atomic writes live in [`crate::fsutil`], where every
/// caller in the crate now takes them from; kept for outside code and
/// branches that still name `config::write_atomic`.
pub use crate::fsutil::write_atomic;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_file_gives_defaults() {
        let (settings, problems) = Settings::parse("");
        assert_eq!(settings, Settings::default());
        assert!(problems.is_empty());
    }

    #[test]
    fn the_example_parses_cleanly() {
        let (settings, problems) = Settings::parse(EXAMPLE);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(settings.time_control, TimeControl::fischer(300, 3));
    }

    #[test]
    fn good_values_are_taken() {
        let (settings, problems) = Settings::parse(
            "theme = \"blue\"\npieces = \"ascii\"\nlevel = 9\ntime_control = \"untimed\"\nengine_panel = false\nhash_mb = 16\n",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(settings.theme, ThemeName::Blue);
        assert_eq!(settings.pieces, PieceStyle::Ascii);
        assert_eq!(settings.level.get(), 9);
        assert_eq!(settings.time_control, TimeControl::Untimed);
        assert!(!settings.engine_panel);
        assert_eq!(settings.hash_mb, 16);
    }

    #[test]
    fn spoilers_are_hidden_by_default_and_take_hide_or_show() {
        assert!(!Settings::default().spoilers_shown);
        let (settings, problems) = Settings::parse("spoilers = \"show\"\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert!(settings.spoilers_shown);
        let (settings, problems) = Settings::parse("spoilers = \"hide\"\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert!(!settings.spoilers_shown);
        let (settings, problems) = Settings::parse("spoilers = \"never\"\n");
        assert!(!settings.spoilers_shown);
        assert!(problems[0].contains("\"hide\" or \"show\""), "{problems:?}");
    }

    #[test]
    fn threads_default_to_all_cores_but_one_and_take_1_to_256() {
        let (settings, problems) = Settings::parse("threads = 3\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(settings.search_threads(), 3);
        let (settings, problems) = Settings::parse("threads = 0\n");
        assert_eq!(settings.threads, None);
        assert!(
            problems[0].contains("not a number of threads (1-256)"),
            "{problems:?}"
        );
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(settings.search_threads(), (cores - 1).max(1));
    }

    #[test]
    fn bad_values_fall_back_one_by_one_with_a_message() {
        let (settings, problems) = Settings::parse(
            "theme = \"pink\"\nlevel = 11\ntime_control = \"fast\"\nengine_panel = \"yes\"\ncolour = 1\npieces = \"ascii\"\n",
        );
        assert_eq!(settings.theme, ThemeName::Classic);
        assert_eq!(settings.level, Settings::default().level);
        assert_eq!(settings.time_control, Settings::default().time_control);
        assert!(settings.engine_panel);
        assert_eq!(
            settings.pieces,
            PieceStyle::Ascii,
            "the good value still counts"
        );
        assert_eq!(problems.len(), 5, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("'pink' is not a theme")));
        assert!(problems.iter().any(|p| p.contains("unknown key 'colour'")));
    }

    #[test]
    fn tablebase_generation_is_read_and_a_bad_value_falls_back() {
        use crate::tablebase::Generation;
        let (settings, problems) = Settings::parse("tablebase_generation = \"ask\"\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(settings.tablebase_generation, Generation::Ask);
        let (settings, problems) = Settings::parse("tablebase_generation = \"always\"\n");
        assert_eq!(settings.tablebase_generation, Generation::Background);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].contains("(background, off, ask)"),
            "{problems:?}"
        );
    }

    #[test]
    fn move_table_settings_are_read_and_bad_ones_fall_back() {
        let (settings, problems) =
            Settings::parse("move_table_moves = 3\nmove_table_threshold = -40\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(settings.move_table_moves, 3);
        assert_eq!(settings.move_table_threshold, -40);
        let (settings, problems) =
            Settings::parse("move_table_moves = 9\nmove_table_threshold = 2000000\nlevel = 7\n");
        assert_eq!(
            settings.move_table_moves,
            Settings::default().move_table_moves
        );
        assert_eq!(
            settings.move_table_threshold,
            Settings::default().move_table_threshold
        );
        assert_eq!(settings.level.get(), 7, "nothing else is lost");
        assert_eq!(
            problems,
            [
                "config: move_table_moves: 9 is not a number of table moves (0-8); using the default",
                "config: move_table_threshold: 2000000 is not a table threshold (-1000000 to 1000000); using the default",
            ]
        );
        let (_, problems) = Settings::parse("move_table_moves = \"lots\"\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn analysis_limit_is_a_time_a_depth_or_none() {
        assert_eq!(
            Settings::default().analysis_limit,
            AnalysisLimit::Seconds(30)
        );
        for (text, limit) in [
            ("30 s", AnalysisLimit::Seconds(30)),
            ("5s", AnalysisLimit::Seconds(5)),
            ("depth 28", AnalysisLimit::Depth(28)),
            ("none", AnalysisLimit::None),
        ] {
            let (settings, problems) = Settings::parse(&format!("analysis_limit = \"{text}\"\n"));
            assert!(problems.is_empty(), "{problems:?}");
            assert_eq!(settings.analysis_limit, limit);
            assert_eq!(limit.to_string().parse(), Ok(limit), "{limit} reads back");
        }
        for bad in ["0 s", "depth 0", "depth", "forever", "30"] {
            let (settings, problems) = Settings::parse(&format!("analysis_limit = \"{bad}\"\n"));
            assert_eq!(settings.analysis_limit, AnalysisLimit::DEFAULT, "{bad}");
            assert_eq!(problems.len(), 1, "{bad}: {problems:?}");
            assert!(
                problems[0].contains("is not a limit (\"30 s\", \"depth 28\", \"none\")"),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn aliases_take_a_name_or_a_list_and_keep_the_right_entries() {
        let (settings, problems) = Settings::parse(
            "level = 3\n[aliases]\n\"Magnus Carlsen\" = [\"Carlsen, Magnus\", \"Carlsen, M.\"]\n\
             \"Ann Smith\" = \"A. Smith\"\n\"Bob\" = [3]\n",
        );
        assert_eq!(settings.level.get(), 3);
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            settings.aliases,
            [
                pair("Ann Smith", "A. Smith"),
                pair("Magnus Carlsen", "Carlsen, Magnus"),
                pair("Magnus Carlsen", "Carlsen, M."),
            ]
        );
        assert_eq!(
            problems,
            ["config: aliases: \"Bob\": expected a name or a list of names, found 3; left out"]
        );
        let (_, problems) = Settings::parse("aliases = \"x\"\n");
        assert!(problems[0].contains("expected a table"), "{problems:?}");
    }

    #[test]
    fn broken_toml_is_reported_not_fatal() {
        let (settings, problems) = Settings::parse("level = = 3");
        assert_eq!(settings, Settings::default());
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn a_config_that_is_not_a_regular_file_gives_defaults_and_says_why() {
        let (settings, problems) = Settings::load(Path::new("/dev/zero"));
        assert_eq!(settings, Settings::default());
        assert_eq!(
            problems,
            [
                "config: cannot read /dev/zero: it is a character device, not a regular file; using defaults"
            ]
        );
        let (_, problems) = Settings::load(Path::new("/no/such/config.toml"));
        assert!(problems.is_empty(), "a missing file is no problem");
    }

    #[test]
    fn time_controls_read_and_print() {
        assert_eq!("5+3".parse(), Ok(TimeControl::fischer(300, 3)));
        assert_eq!("0.5+0".parse(), Ok(TimeControl::fischer(30, 0)));
        assert_eq!("10".parse(), Ok(TimeControl::fischer(600, 0)));
        assert!("0+1".parse::<TimeControl>().is_err());
        assert!("a+b".parse::<TimeControl>().is_err());
        assert_eq!(TimeControl::fischer(300, 3).to_string(), "5+3");
        assert_eq!(TimeControl::fischer(30, 0).to_string(), "0.5+0");
        assert_eq!(TimeControl::fischer(300, 3).pgn(), "300+3");
        assert_eq!(TimeControl::Untimed.pgn(), "-");
    }
}
