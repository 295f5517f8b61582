//! The overlay of two tables (`:map wn+bq`): where two pieces' tables
//! intersect. Greer's §6: "if two or more move tables intersect somewhere,
//! it might represent an important board feature". A square is marked
//! when both tables have a nonzero value there in the view shown; its
//! value is the smaller magnitude of the two, so a square is as strong as
//! the weaker table makes it, and the bands rank those values among the
//! shared squares (1 most to 6 least, in every view: a magnitude has no
//! sign, so the net view's gained/lost bands do not apply).

#[cfg(test)]
pub(super) mod tests;

use crate::engine::movetables::{TableId, TableLink};

use super::bands::bands;

/// What an overlay adds to a map: each table's own values in the view
/// shown, how many squares they share, and the links between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlay {
    /// a1..h8: the first table's value in the view shown.
    pub first: [i64; 64],
    /// a1..h8: the second table's.
    pub second: [i64; 64],
    /// The squares where both are nonzero.
    pub shared: u32,
    /// The links between the two tables in the map's scope (a move of one
    /// answered by a move of the other, either way round); `None` where
    /// the map's memory keeps no links (the history heuristic).
    pub links: Option<usize>,
}

/// The overlay's values and bands from the two tables' values: the smaller
/// magnitude where both are nonzero, else 0 and blank.
pub fn intersect(first: &[i64; 64], second: &[i64; 64]) -> ([i64; 64], [Option<u8>; 64]) {
    let mut values = [0i64; 64];
    let mut shared = 0u64;
    for (i, value) in values.iter_mut().enumerate() {
        if first[i] != 0 && second[i] != 0 {
            // unsigned_abs: i64::MIN has no positive twin; the cap keeps
            // the value an i64.
            let smaller = first[i].unsigned_abs().min(second[i].unsigned_abs());
            *value = i64::try_from(smaller).unwrap_or(i64::MAX);
            shared |= 1 << i;
        }
    }
    (values, bands(&values, shared))
}

/// The links of `links` between tables `a` and `b`, either way round.
pub fn links_between(links: &[TableLink], a: TableId, b: TableId) -> Vec<&TableLink> {
    links
        .iter()
        .filter(|l| (l.after == a && l.answer == b) || (l.after == b && l.answer == a))
        .collect()
}

/// A table named by its code or its words, a plural too ("black queens").
pub fn table(text: &str) -> Option<TableId> {
    let text = text.trim();
    TableId::parse(text).or_else(|| {
        text.strip_suffix('s')
            .filter(|t| t.contains(' '))
            .and_then(TableId::parse)
    })
}

/// The two tables of `wn+bq` (`wn ∩ bq`, as the legend writes it), or of
/// `overlay wn bq` (`overlay white knight black queen`, `overlay wn+bq`
/// too). `Err`: what is wrong with the words, for the status line;
/// `Ok(None)`: not an overlay.
pub fn parse(rest: &str) -> Result<Option<(TableId, TableId)>, String> {
    let rest = rest.trim();
    let typed = format!("':map {rest}'");
    let words = rest.strip_prefix("overlay").map(str::trim);
    let joined = words.unwrap_or(rest).replace('∩', "+");
    let (a, b) = if let Some((a, b)) = joined.split_once('+') {
        match (a.trim(), b.trim()) {
            ("", "") => return Err(format!("{typed}: two tables are missing: {USAGE}")),
            ("", _) => return Err(format!("{typed}: the first table is missing: {USAGE}")),
            (_, "") => return Err(format!("{typed}: a second table is missing: {USAGE}")),
            (a, b) => (a.to_string(), b.to_string()),
        }
    } else if let Some(tail) = words {
        let words: Vec<&str> = tail.split_whitespace().collect();
        let word = |w: &str| matches!(w, "white" | "black");
        match words.as_slice() {
            [] => return Err(format!("{typed}: two tables are missing: {USAGE}")),
            [a, b] if !word(a) => (a.to_string(), b.to_string()),
            [c1, p1, c2, p2] if word(c1) && word(c2) => {
                (format!("{c1} {p1}"), format!("{c2} {p2}"))
            }
            [_] | [_, _] => {
                return Err(format!("{typed}: a second table is missing: {USAGE}"));
            }
            [_, _, _] => {
                return Err(format!(
                    "{typed}: name both tables the same way, wn bq or white knight black queen."
                ));
            }
            _ => return Err(format!("{typed}: two tables, not more: {USAGE}")),
        }
    } else {
        return Ok(None);
    };
    match (table(&a), table(&b)) {
        (Some(a), Some(b)) if a == b => Err(format!(
            "An overlay is of two different tables: {} twice shows it alone (:map {}).",
            a.code(),
            a.code()
        )),
        (Some(a), Some(b)) => Ok(Some((a, b))),
        (None, _) => Err(format!("'{a}' is not a table: {USAGE}")),
        (_, None) => Err(format!("'{b}' is not a table: {USAGE}")),
    }
}

const USAGE: &str = ":map wn+bq or :map overlay wn bq overlays two tables.";
