//! The curated positions for learning how the search works, shipped in
//! `assets/teaching.txt`: each with the depth its lesson is meant for and a
//! line saying what it shows.

use shakmaty::Chess;

use crate::game::fen::parse_fen;

const POSITIONS: &str = include_str!("../../assets/teaching.txt");

/// One teaching position.
#[derive(Debug, Clone)]
pub struct TeachingPosition {
    pub name: String,
    pub depth: u32,
    pub fen: String,
    pub position: Chess,
    /// One line: what the position shows.
    pub description: String,
}

/// The curated positions, in the file's order. A line that cannot be read
/// is a fault of the shipped file, caught by the tests, and left out.
pub fn positions() -> Vec<TeachingPosition> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let mut fields = line.splitn(4, '|').map(str::trim);
            let name = fields.next()?.to_string();
            let depth = fields.next()?.parse().ok()?;
            let fen = fields.next()?.to_string();
            let description = fields.next()?.to_string();
            let position = parse_fen(&fen).ok()?;
            Some(TeachingPosition {
                name,
                depth,
                fen,
                position,
                description,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_file_reads() {
        let lines = POSITIONS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .count();
        let positions = positions();
        assert_eq!(
            positions.len(),
            lines,
            "a line of assets/teaching.txt is broken"
        );
        assert!(positions.len() >= 8);
        for p in &positions {
            assert!((1..=6).contains(&p.depth), "{}", p.name);
            assert!(!p.description.is_empty(), "{}", p.name);
        }
    }
}
