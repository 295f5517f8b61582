//! `kibitz movetables --pgn`: the move tables learnt over a whole game,
//! written after each searched move, the last equal to what a game searched
//! move by move by hand leaves in the heuristics.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use kibitz::cli::movetables::over_game::{Format, OverGame, movetables_over_game};
use kibitz::engine::heuristics::Heuristics;
use kibitz::engine::movetables::{Decrement, TableId, TableWeights};
use kibitz::engine::search::search_kept;
use kibitz::engine::trace::NoTrace;
use kibitz::engine::tt::TranspositionTable;
use kibitz::engine::{Limits, SearchOptions, position_key};
use shakmaty::san::San;
use shakmaty::{Chess, Position};

use common::{TempHome, run_kibitz, testdata};

const MOLINARI: &str = "pgn/molinari-bordais-1979.pgn";
/// Its ten plies, the last a mate.
const MOLINARI_SAN: [&str; 10] = [
    "e4", "c5", "c4", "Nc6", "Ne2", "Nf6", "Nbc3", "Nb4", "g3", "Nd3#",
];

fn over_game(path: &Path, every: usize, depth: u32, format: Format) -> String {
    let mut out = Vec::new();
    movetables_over_game(
        OverGame {
            pgn: path,
            game: 1,
            every,
            depth,
            decrement: Decrement::Tried,
            chains: false,
            format,
        },
        &mut out,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

fn snapshots(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn numbers(table: &serde_json::Value, key: &str) -> Vec<i64> {
    table[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

/// The game played by hand, the engine's way: one table and one set of
/// heuristics for all its moves, each search told the positions before.
fn by_hand(depth: u32) -> (TableWeights, u64) {
    let mut position = Chess::default();
    let mut tt = TranspositionTable::new(16);
    let mut heuristics = Box::<Heuristics>::default();
    let mut keys = Vec::new();
    let mut nodes = 0;
    for san in MOLINARI_SAN {
        nodes = search_kept(
            &position,
            &keys,
            &Limits::depth(depth),
            SearchOptions::default(),
            (&mut tt, &mut heuristics),
            &|| false,
            &mut NoTrace,
        )
        .nodes;
        keys.push(position_key(&position));
        let m = san.parse::<San>().unwrap().to_move(&position).unwrap();
        position.play_unchecked(m);
    }
    (heuristics.maps(), nodes)
}

#[test]
fn the_last_snapshot_is_the_tables_of_the_games_final_search() {
    let json = snapshots(&over_game(&testdata(MOLINARI), 1, 4, Format::Json));
    assert_eq!(json.len(), 10);
    let moves: Vec<&str> = json.iter().map(|s| s["move"].as_str().unwrap()).collect();
    assert_eq!(moves, MOLINARI_SAN);
    let last = &json[9];
    let (maps, nodes) = by_hand(4);
    assert_eq!(last["ply"], 9);
    assert_eq!(last["nodes"].as_u64(), Some(nodes));
    assert_eq!(
        last["fen"],
        "r1bqkb1r/pp1ppppp/5n2/2p5/1nP1P3/2N3P1/PP1PNP1P/R1BQKB1R b KQkq - 0 5"
    );
    let tables = last["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 12);
    for (table, id) in tables.iter().zip(TableId::ALL) {
        assert_eq!(table["code"], id.code());
        let weights: Vec<i64> = maps.table(id).iter().map(|&w| i64::from(w)).collect();
        let touches: Vec<i64> = maps.touches(id).iter().map(|&t| i64::from(t)).collect();
        assert_eq!(numbers(table, "weights"), weights, "{}", id.code());
        assert_eq!(numbers(table, "touches"), touches, "{}", id.code());
    }
    let links: Vec<(String, String, i64)> = last["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                [&l["after"], &l["after_from"]]
                    .map(|v| v.as_str().unwrap())
                    .concat(),
                [&l["answer"], &l["answer_from"]]
                    .map(|v| v.as_str().unwrap())
                    .concat(),
                l["weight"].as_i64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, String, i64)> = maps
        .links
        .iter()
        .map(|l| {
            (
                format!("{}{}", l.after.code(), l.after_from),
                format!("{}{}", l.answer.code(), l.answer_from),
                i64::from(l.weight),
            )
        })
        .collect();
    assert_eq!(links, expected);
    // The tables grew over the game: the last holds more than the first.
    let gains = |s: &serde_json::Value| s["gains"].as_u64().unwrap();
    assert!(
        gains(last) > gains(&json[0]),
        "{} {}",
        gains(last),
        gains(&json[0])
    );
    assert_eq!(gains(last), maps.gains_and_losses().0);
}

#[test]
fn every_n_keeps_the_multiples_of_n_and_always_the_last() {
    let plies = |every: usize| -> Vec<u64> {
        snapshots(&over_game(&testdata(MOLINARI), every, 2, Format::Json))
            .iter()
            .map(|s| s["ply"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(plies(3), [0, 3, 6, 9]);
    assert_eq!(plies(4), [0, 4, 8, 9]);
    assert_eq!(plies(20), [0, 9]);
}

#[test]
fn csv_is_a_row_per_snapshot_table_and_square_and_agrees_with_the_json() {
    let csv = over_game(&testdata(MOLINARI), 3, 3, Format::Csv);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "ply,move,table,square,weight,touches,importance");
    assert_eq!(rows.len(), 1 + 4 * 12 * 64);
    let json = snapshots(&over_game(&testdata(MOLINARI), 3, 3, Format::Json));
    // Every row of the last snapshot, read back, is the JSON's figure.
    let last = &json[3];
    for row in &rows[1 + 3 * 768..] {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[..2], ["9", "Nd3#"], "{row}");
        let index = TableId::ALL
            .iter()
            .position(|id| id.code() == cells[2])
            .unwrap();
        let square: shakmaty::Square = cells[3].parse().unwrap();
        let table = &last["tables"][index];
        let weight = numbers(table, "weights")[square.to_usize()];
        assert_eq!(cells[4], weight.to_string(), "{row}");
        assert_eq!(
            cells[5],
            numbers(table, "touches")[square.to_usize()].to_string()
        );
        assert_eq!(cells[6], weight.abs().to_string(), "{row}");
    }
}

#[test]
fn the_text_says_each_ply_then_draws_the_last_tables() {
    let text = over_game(&testdata(MOLINARI), 1, 2, Format::Text);
    let json = snapshots(&over_game(&testdata(MOLINARI), 1, 2, Format::Json));
    for s in &json {
        let n = |key: &str| s[key].as_u64().unwrap();
        let line = format!(
            "{:>5}  {:<8}  {:>9}  {:>9}  {:>9}",
            n("ply"),
            s["move"].as_str().unwrap(),
            n("nodes"),
            n("gains"),
            n("losses")
        );
        assert!(text.contains(&line), "{line}\n{text}");
    }
    assert!(text.contains("(Molinari - Bordais, 0-1): 10 positions searched to depth 2"));
    assert!(
        text.contains("after the last search (ply 9, before Nd3#)"),
        "{text}"
    );
    assert_eq!(text.matches("white knight (wn)").count(), 1);
}

/// Through the binary: what a user gets for a file or a game it cannot use.
fn refused<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = run_kibitz(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_game_that_is_not_there_or_cannot_be_played_exits_2_saying_why() {
    let molinari = testdata(MOLINARI);
    let molinari = molinari.to_str().unwrap();
    let depth = ["movetables", "--depth", "2", "--pgn"];
    let with = |rest: &[&str]| -> Vec<String> {
        depth.iter().chain(rest).map(|s| s.to_string()).collect()
    };
    let error = refused(&with(&[molinari, "--game", "99"]));
    assert!(error.contains("has 1 game: there is no game 99"), "{error}");
    let six = testdata("pgn/kasparov-deep-blue-1997.pgn");
    let error = refused(&with(&[six.to_str().unwrap(), "--game", "9"]));
    assert!(error.contains("has 6 games: there is no game 9"), "{error}");

    let home = TempHome::new("movetables-game");
    let write = |name: &str, text: &[u8]| {
        let path = home.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let bad = write("bad.pgn", b"[Event \"x\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n");
    // A game with a bad move is walked up to it, as the board opens it,
    // with a note that says where it stopped.
    let out = run_kibitz(&with(&[&bad, "--json"]));
    assert!(out.status.success(), "{out:?}");
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(
        note.contains("game 1, ply 3: 'Ke3' is not a legal move there")
            && note.contains("learnt over the 2 plies before it"),
        "{note}"
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    let first_bad = write("first.pgn", b"[Event \"x\"]\n\n1. Ke2 e5 *\n");
    let error = refused(&with(&[&first_bad]));
    assert!(error.contains("'Ke2' is not a legal move there"), "{error}");
    let empty = write("empty.pgn", b"[Event \"x\"]\n[Result \"*\"]\n\n*\n");
    let error = refused(&with(&[&empty]));
    assert!(
        error.contains("has no move: there is nothing to search"),
        "{error}"
    );
    let binary = write("binary.pgn", &[0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0xff]);
    let error = refused(&with(&[&binary]));
    assert!(error.contains("holds no PGN game"), "{error}");
    let folder = home.path().to_str().unwrap();
    let error = refused(&with(&[folder]));
    assert!(error.contains("not a regular file"), "{error}");
}

#[test]
fn pgn_goes_with_neither_a_fen_nor_moves_and_csv_not_with_json() {
    let molinari = testdata(MOLINARI);
    let molinari = molinari.to_str().unwrap();
    let base = ["movetables", "--depth", "2", "--pgn", molinari];
    for rest in [
        &["--moves", "e4"][..],
        &["--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"],
        &["--json", "--csv"],
        &["--every", "0"],
    ] {
        refused(&[&base[..], rest].concat());
    }
    // --csv, --game and --every are for --pgn.
    for flag in [&["--csv"][..], &["--game", "2"], &["--every", "2"]] {
        refused(&[&["movetables", "--depth", "2"][..], flag].concat());
    }
}
