#![allow(clippy::unwrap_used)]
use super::*;

const MATE: &str = r#"{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1","solution":["a1a8"],"solution_san":["Ra8#"],"theme":"mate in 1","game":3,"ply":41}"#;

#[test]
fn a_puzzles_line_becomes_a_puzzle() {
    let text = format!("{MATE}\n\n");
    let got = puzzles(&text, Path::new("/x/found.jsonl")).unwrap();
    assert_eq!(got.len(), 1);
    let p = &got[0];
    assert_eq!(p.kind, crate::train::Kind::Puzzle);
    assert_eq!(p.solution, vec!["a1a8"]);
    assert_eq!(p.solution_san, vec!["Ra8#"]);
    assert_eq!(p.theme.as_deref(), Some("mate in 1"));
    assert_eq!(p.source, "game 3, ply 41 of found.jsonl");
}

#[test]
fn a_bad_line_is_named_and_nothing_is_taken() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let with = |solution: &str, san: &str| {
        format!(
            r#"{{"fen":"{fen}","solution":{solution},"solution_san":{san},"theme":null,"game":1,"ply":1}}"#
        )
    };
    let bad_fen =
        r#"{"fen":"bad","solution":["e2e4"],"solution_san":["e4"],"theme":null,"game":1,"ply":1}"#;
    let cases = [
        ("not json".to_string(), "not a puzzle"),
        (bad_fen.to_string(), "bad fen"),
        (with("[]", "[]"), "the solution is empty"),
        (
            with(r#"["a1a8","g8h8"]"#, r#"["Ra8#","Kh8"]"#),
            "odd number",
        ),
        (
            with(r#"["a1a9"]"#, r#"["Ra8#"]"#),
            "solution move 1 (a1a9) is not legal",
        ),
        (
            with(r#"["a1a8"]"#, r#"["Ra7"]"#),
            "solution_san move 1 is Ra7",
        ),
    ];
    for (bad, why) in cases {
        let text = format!("{MATE}\n{bad}\n");
        let e = puzzles(&text, Path::new("p.jsonl")).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.to_string().starts_with("p.jsonl line 2: "), "{e}");
        assert!(e.why.contains(why), "{e}");
    }
}
