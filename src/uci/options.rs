//! The options kibitz offers a GUI, in one table: `uci` lists it, and
//! `setoption` finds names in it, so the two cannot disagree.

use std::fmt;

use crate::book::{BUILTIN, BookOptions};
use crate::engine::level::{MAX_LEVEL, MIN_LEVEL};
use crate::engine::movetables::Decrement;
use crate::engine::protocol::{
    DEFAULT_TABLE_MOVES, DEFAULT_TABLE_THRESHOLD, MAX_TABLE_MOVES, MAX_TABLE_THRESHOLD,
};
use crate::engine::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS};

use super::{MAX_UCI_ELO, MIN_UCI_ELO};

/// An option's type and default, as the UCI protocol writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check(bool),
    Text(&'static str),
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    Button,
}

/// One `option name ... type ...` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct UciOption {
    pub name: &'static str,
    pub kind: Kind,
}

impl fmt::Display for UciOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            Kind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            Kind::Check(default) => write!(f, "check default {default}"),
            Kind::Text(default) => write!(f, "string default {default}"),
            Kind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|var| write!(f, " var {var}"))
            }
            Kind::Button => f.write_str("button"),
        }
    }
}

/// Options a GUI may set that `uci` does not list: `Ponder` is sent by
/// GUIs that ponder whether or not the engine offers it, and pondering
/// needs no setting here.
const UNLISTED: [&str; 1] = ["Ponder"];

/// Every option `uci` lists, in its order.
pub(super) fn listed() -> [UciOption; 19] {
    let spin = |name, default: i64, min: i64, max: i64| UciOption {
        name,
        kind: Kind::Spin { default, min, max },
    };
    let check = |name, default| UciOption {
        name,
        kind: Kind::Check(default),
    };
    let text = |name, default| UciOption {
        name,
        kind: Kind::Text(default),
    };
    let eval_default = if crate::engine::nnue::BY_DEFAULT {
        BUILTIN
    } else {
        crate::engine::nnue::HANDWRITTEN
    };
    let wide = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    [
        spin("Hash", wide(DEFAULT_HASH_MB), 1, wide(MAX_HASH_MB)),
        spin("MultiPV", 1, 1, wide(MAX_MULTIPV)),
        // One thread unless the GUI asks for more: a GUI runs engines side
        // by side and gives each its share of cores.
        spin("Threads", 1, 1, wide(MAX_THREADS)),
        spin(
            "Level",
            MAX_LEVEL.into(),
            MIN_LEVEL.into(),
            MAX_LEVEL.into(),
        ),
        check("UCI_LimitStrength", false),
        spin(
            "UCI_Elo",
            MAX_UCI_ELO.into(),
            MIN_UCI_ELO.into(),
            MAX_UCI_ELO.into(),
        ),
        check("OwnBook", true),
        check("UCI_Chess960", false),
        text("BookFile", BUILTIN),
        UciOption {
            name: "BookPolicy",
            kind: Kind::Combo {
                default: "weighted",
                vars: &["weighted", "best", "off"],
            },
        },
        spin(
            "BookDepth",
            BookOptions::default().max_plies.into(),
            0,
            MAX_BOOK_DEPTH.into(),
        ),
        text("SyzygyPath", "<empty>"),
        check("KibitzTables", true),
        text("EvalFile", eval_default),
        check("KibitzGenerateTables", false),
        spin(
            "MoveTableMoves",
            DEFAULT_TABLE_MOVES.into(),
            0,
            MAX_TABLE_MOVES.into(),
        ),
        spin(
            "MoveTableThreshold",
            DEFAULT_TABLE_THRESHOLD.into(),
            (-MAX_TABLE_THRESHOLD).into(),
            MAX_TABLE_THRESHOLD.into(),
        ),
        UciOption {
            name: "MoveTableDecrement",
            kind: Kind::Combo {
                default: Decrement::default().name(),
                vars: &["tried", "all"],
            },
        },
        UciOption {
            name: "Clear Hash",
            kind: Kind::Button,
        },
    ]
}

/// The deepest `BookDepth` (plies).
pub(super) const MAX_BOOK_DEPTH: u32 = 400;

/// An option's name as `uci` lists it, found in any case; `None` for a
/// name kibitz does not know.
pub(super) fn known_name(name: &str) -> Option<&'static str> {
    listed()
        .iter()
        .map(|option| option.name)
        .chain(UNLISTED)
        .find(|known| known.eq_ignore_ascii_case(name))
}
