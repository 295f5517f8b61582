//! PGN export of a [`Game`]: the seven-tag roster first, then any other
//! headers, then the movetext wrapped under 80 columns, as the PGN standard
//! asks (section 8).

use std::fmt::Write as _;

use shakmaty::{Chess, Position};

use super::Game;

/// The headers of a game, in the order they are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl Headers {
    /// The seven-tag roster with "?" for what is unknown.
    pub fn new(white: &str, black: &str, date: &str, result: &str) -> Headers {
        Headers(vec![
            ("Event".into(), "Casual game".into()),
            ("Site".into(), "kibitz".into()),
            ("Date".into(), date.into()),
            ("Round".into(), "-".into()),
            ("White".into(), white.into()),
            ("Black".into(), black.into()),
            ("Result".into(), result.into()),
        ])
    }

    /// Set a header, replacing an existing value.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = value,
            None => self.0.push((name.to_string(), value)),
        }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The headers a game's start position calls for: `SetUp` and `FEN` when
/// it is not the standard start, and `Variant "Chess960"` (with the FEN,
/// whose castling rights are X-FEN) for a Chess960 game. A `FEN` a file
/// already has is kept as written: the start was read from it.
pub fn set_start_headers(headers: &mut Headers, start: &Chess) {
    let chess960 = super::chess960::is_chess960(start);
    if chess960
        && !headers
            .get("Variant")
            .is_some_and(super::chess960::is_chess960_variant)
    {
        headers.set("Variant", "Chess960");
    }
    if (chess960 || start != &Chess::default()) && headers.get("FEN").is_none() {
        headers.set("SetUp", "1");
        headers.set("FEN", super::fen::fen_of(start));
    }
}

/// Escape a header value: backslash and quote get a backslash.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PGN text. `result` is `1-0`, `0-1`, `1/2-1/2` or `*`.
pub fn write_pgn(game: &Game, headers: &Headers, result: &str) -> String {
    write_pgn_clocked(game, headers, result, &[])
}

/// As [`write_pgn`], each move followed by the mover's clock after it as a
/// `{[%clk H:MM:SS]}` comment where `clocks` (by ply) has one.
pub fn write_pgn_clocked(
    game: &Game,
    headers: &Headers,
    result: &str,
    clocks: &[Option<std::time::Duration>],
) -> String {
    let mut headers = headers.clone();
    headers.set("Result", result);
    set_start_headers(&mut headers, game.start());
    let start = game.start();
    let mut move_number = start.fullmoves().get();
    let mut white_to_move = start.turn().is_white();
    let mut tokens = Vec::with_capacity(game.len() * 3 / 2 + 1);
    for (index, san) in game.sans().iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{move_number}."));
        } else if index == 0 {
            tokens.push(format!("{move_number}..."));
        }
        tokens.push(san.clone());
        if let Some(Some(left)) = clocks.get(index) {
            let s = left.as_secs();
            tokens.push(format!(
                "{{[%clk {}:{:02}:{:02}]}}",
                s / 3600,
                s / 60 % 60,
                s % 60
            ));
        }
        if !white_to_move {
            move_number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(result.to_string());
    assemble(&headers, &tokens)
}

/// A PGN game from its headers and its movetext tokens: the tag pairs, an
/// empty line, then the tokens wrapped below 80 columns.
pub fn assemble(headers: &Headers, tokens: &[String]) -> String {
    let mut out = String::new();
    for (name, value) in &headers.0 {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    out.push('\n');
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fen::parse_fen;
    use crate::game::notation::parse_move;

    fn game_from(fen: Option<&str>, moves: &str) -> Game {
        let start = fen.map_or_else(shakmaty::Chess::default, |f| parse_fen(f).unwrap());
        let mut game = Game::new(start);
        for text in moves.split_whitespace() {
            let m = parse_move(game.position(), text).unwrap();
            assert!(game.play(m));
        }
        game
    }

    #[test]
    fn writes_roster_movetext_and_result() {
        let game = game_from(None, "e4 e5 Nf3 Nc6 Bb5");
        let mut headers = Headers::new("Ann \"the Rook\"", "kibitz level 3", "2026.11.21", "*");
        headers.set("TimeControl", "300+3");
        let pgn = write_pgn(&game, &headers, "*");
        assert!(pgn.starts_with("[Event \"Casual game\"]\n[Site \"kibitz\"]\n"));
        assert!(pgn.contains("[White \"Ann \\\"the Rook\\\"\"]\n"));
        assert!(pgn.contains("[Result \"*\"]\n[TimeControl \"300+3\"]\n\n"));
        assert!(pgn.ends_with("\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n"), "{pgn}");
    }

    #[test]
    fn a_game_from_a_position_records_it_and_starts_with_black() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40";
        let game = game_from(Some(fen), "Kd7 e4 Ke6");
        let pgn = write_pgn(&game, &Headers::new("a", "b", "?", "*"), "1/2-1/2");
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\"]"));
        assert!(pgn.contains("[Result \"1/2-1/2\"]"));
        assert!(pgn.ends_with("\n40... Kd7 41. e4 Ke6 1/2-1/2\n"), "{pgn}");
    }

    #[test]
    fn long_games_wrap_below_eighty_columns() {
        let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat(20);
        let mut game = Game::default();
        for text in moves.split_whitespace() {
            let m = parse_move(game.position(), text).unwrap();
            game.play(m);
        }
        let pgn = write_pgn(&game, &Headers::new("a", "b", "?", "*"), "*");
        assert!(pgn.lines().all(|l| l.len() < 80));
        let movetext: Vec<&str> = pgn
            .split("\n\n")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(movetext.len(), 80 + 40 + 1);
    }
}
