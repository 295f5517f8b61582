//! The deterministic figures README.md and docs/ quote, recomputed.
//!
//! A figure that a command gives the same way on every machine (a bench
//! node signature, a tree's node count, the move tables' sums) is written
//! in the documentation next to the command that measures it; this test
//! runs that command and fails when the text says something else. Timings
//! differ from machine to machine and stay out of it.
//!
//! Each check names the words around the figure (`before` and `after`), so
//! that a figure moved to another sentence or file is still found, and a
//! figure deleted or reworded fails loudly instead of going unchecked.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;

use common::run_kibitz;

/// README.md and every page under docs/, as one text.
fn documentation() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(root.join("README.md")).unwrap();
    let docs = root.join("docs");
    if let Ok(entries) = std::fs::read_dir(&docs) {
        let mut pages: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        pages.sort();
        for page in pages {
            text.push('\n');
            text.push_str(&std::fs::read_to_string(page).unwrap());
        }
    }
    text
}

/// A piece of a figure's pattern: words, or a number to read.
enum Part {
    Words(String),
    Number,
}

/// `pattern` with each `{}` a number (digits with thousands separators and
/// a decimal point, perhaps a sign in front); a space in it matches any run of white space,
/// so that a sentence wrapped at another word still matches.
fn parts(pattern: &str) -> Vec<Part> {
    let mut parts = Vec::new();
    for (i, words) in pattern.split("{}").enumerate() {
        if i > 0 {
            parts.push(Part::Number);
        }
        if !words.is_empty() {
            parts.push(Part::Words(words.to_string()));
        }
    }
    parts
}

/// The numbers of `parts` if the text at its start matches them.
fn match_here(text: &str, parts: &[Part]) -> Option<Vec<String>> {
    let mut rest = text;
    let mut numbers = Vec::new();
    for part in parts {
        match part {
            Part::Words(words) => {
                for c in words.chars() {
                    if c.is_whitespace() {
                        let trimmed = rest.trim_start();
                        if trimmed.len() == rest.len() {
                            return None;
                        }
                        rest = trimmed;
                    } else {
                        rest = rest.strip_prefix(c)?;
                    }
                }
            }
            Part::Number => {
                // A sign only in front: `0.995-0.999` is two numbers.
                let sign = usize::from(rest.starts_with(['-', '+']));
                let end = sign
                    + rest[sign..]
                        .find(|c: char| !(c.is_ascii_digit() || matches!(c, ',' | '.')))
                        .unwrap_or(rest.len() - sign);
                // A sentence's own full stop or comma after the number is
                // not part of it.
                let number = rest[..end].trim_end_matches(['.', ',']);
                if !number.chars().any(|c| c.is_ascii_digit()) {
                    return None;
                }
                numbers.push(number.replace(',', ""));
                rest = &rest[number.len()..];
            }
        }
    }
    Some(numbers)
}

/// Every place the documentation writes `pattern`, with its numbers, in
/// order. Panics when there is none: a check whose words are gone must be
/// updated with the text, not pass silently.
fn quoted(doc: &str, pattern: &str) -> Vec<Vec<String>> {
    let parts = parts(pattern);
    let found: Vec<Vec<String>> = doc
        .char_indices()
        .filter_map(|(i, _)| match_here(&doc[i..], &parts))
        .collect();
    assert!(
        !found.is_empty(),
        "README.md/docs no longer say `{pattern}`: update this test with the text"
    );
    found
}

/// Check that every place writing `pattern` gives these figures.
fn check(doc: &str, pattern: &str, figures: &[String], command: &str) {
    for said in quoted(doc, pattern) {
        assert_eq!(
            said, figures,
            "README.md/docs say `{pattern}` with {said:?}, but `{command}` gives {figures:?}"
        );
    }
}

/// The `nodes N` of `kibitz bench`'s last line (`nodes N nps M`).
fn bench_nodes(args: &[&str]) -> String {
    let out = run_kibitz(args);
    assert!(out.status.success(), "kibitz {args:?} failed");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().unwrap();
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("nodes"), "bench's last line: {last}");
    words.next().unwrap().to_string()
}

/// Figures as the documentation writes them (no separators: `check`
/// reads the text's without them).
fn figures<const N: usize>(values: [impl ToString; N]) -> Vec<String> {
    values.iter().map(ToString::to_string).collect()
}

/// The output of `kibitz ARGS`, which must succeed.
fn stdout_of(args: &[&str]) -> String {
    let out = run_kibitz(args);
    assert!(
        out.status.success(),
        "kibitz {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bench_node_signatures_are_the_binarys() {
    let doc = documentation();
    check(
        &doc,
        "bench signature {} nodes at depth 9 ({} with `--eval builtin`",
        &[
            bench_nodes(&["bench"]),
            bench_nodes(&["bench", "--eval", "builtin"]),
        ],
        "kibitz bench; kibitz bench --eval builtin",
    );
}

#[test]
fn the_smallest_lessons_tree_has_the_nodes_it_is_said_to_have() {
    let doc = documentation();
    let stdout = stdout_of(&[
        "trace",
        "--summary",
        "--fen",
        "7k/7P/7K/8/8/8/8/8 w - - 0 1",
        "--depth",
        "3",
    ]);
    let nodes = stdout
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap();
    check(
        &doc,
        "one or two replies each, {} nodes at depth 3",
        &figures([nodes]),
        "kibitz trace --summary --fen '7k/7P/7K/8/8/8/8/8 w - - 0 1' --depth 3",
    );
}

#[test]
fn the_teach_step_limit_is_the_codes() {
    let doc = documentation();
    check(
        &doc,
        "too large to follow (over {} steps)",
        &figures([kibitz::teach::MAX_EVENTS]),
        "kibitz::teach::MAX_EVENTS",
    );
}

/// `kibitz movetables --depth 10 --decrement RULE --json`.
fn move_tables(rule: &str) -> serde_json::Value {
    let stdout = stdout_of(&["movetables", "--depth", "10", "--decrement", rule, "--json"]);
    serde_json::from_str(&stdout).unwrap()
}

/// One view of a table of `move_tables`, by its code ("wq") and field.
fn view(tables: &serde_json::Value, code: &str, field: &str) -> [i64; 64] {
    let table = tables["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["code"] == code)
        .unwrap();
    let values: Vec<i64> = table[field]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    values.try_into().unwrap()
}

/// A whole percentage, rounded as the text rounds it.
fn percent(part: i64, whole: i64) -> i64 {
    (100.0 * part as f64 / whole as f64).round() as i64
}

#[test]
fn the_move_tables_gains_and_losses_are_the_binarys() {
    let doc = documentation();
    let tried = move_tables("tried");
    let all = move_tables("all");
    let (gains, losses) = (
        tried["gains"].as_i64().unwrap(),
        tried["losses"].as_i64().unwrap(),
    );
    check(
        &doc,
        "losses are {}% of their gains ({} against {};",
        &figures([percent(losses, gains), losses, gains]),
        "kibitz movetables --depth 10 --decrement tried --json",
    );
    let (all_gains, all_losses) = (
        all["gains"].as_i64().unwrap(),
        all["losses"].as_i64().unwrap(),
    );
    assert_eq!(all_gains, gains, "the rule changes the losses only");
    check(
        &doc,
        "they are {} times the gains ({} against the same {}:",
        &figures([
            (all_losses as f64 / all_gains as f64).round() as i64,
            all_losses,
            all_gains,
        ]),
        "kibitz movetables --depth 10 --decrement all --json",
    );
    // Under `all` the queens' tables are negative almost everywhere.
    let negative = |code: &str| {
        let touches = view(&all, code, "touches");
        let weights = view(&all, code, "weights");
        let considered = touches.iter().filter(|&&t| t > 0).count();
        let below = (0..64)
            .filter(|&i| touches[i] > 0 && weights[i] < 0)
            .count();
        [below, considered]
    };
    let [white, white_considered] = negative("wq");
    let [black, black_considered] = negative("bq");
    check(
        &doc,
        "({} of White's {} squares considered, {} of Black's {};",
        &figures([white, white_considered, black, black_considered]),
        "kibitz movetables --depth 10 --decrement all --json",
    );
}

/// On how many of the squares the search considered two map views put a
/// square in another band (or one leaves it blank), as the map ranks them.
#[cfg(feature = "tui")]
fn band_differences(tables: &serde_json::Value, code: &str, a: &str, b: &str) -> [usize; 2] {
    use kibitz::tui::heatmap::bands;
    let touches = view(tables, code, "touches");
    let considered = (0..64)
        .filter(|&i| touches[i] > 0)
        .fold(0u64, |m, i| m | 1 << i);
    let banded = |field: &str| {
        let values = view(tables, code, field_name(field));
        let on = match field {
            // Every square considered, even one whose gains and losses cancelled.
            "touches" => considered,
            _ => (0..64)
                .filter(|&i| values[i] > 0)
                .fold(0u64, |m, i| m | 1 << i),
        };
        bands(&values, on)
    };
    let (first, second) = (banded(a), banded(b));
    let differ = (0..64)
        .filter(|&i| considered & (1 << i) != 0 && first[i] != second[i])
        .count();
    [differ, considered.count_ones() as usize]
}

/// The map views by the fields of `movetables --json`: touches,
/// importance (Greer's, the absolute weight) and best (the weights, positive).
#[cfg(feature = "tui")]
fn field_name(view: &str) -> &str {
    match view {
        "best" => "weights",
        other => other,
    }
}

#[cfg(feature = "tui")]
#[test]
fn the_queen_maps_differ_where_the_text_says() {
    let doc = documentation();
    let tried = move_tables("tried");
    let all = move_tables("all");
    let command =
        "kibitz movetables --depth 10 --decrement tried|all --json, ranked as the map ranks";
    // Both queens' differences as the text gives them: percentages, then counts.
    let queens = |tables: &serde_json::Value, first: &str, second: &str| {
        let [w, w_of] = band_differences(tables, "wq", first, second);
        let [b, b_of] = band_differences(tables, "bq", first, second);
        let percentages = [
            percent(w as i64, w_of as i64),
            percent(b as i64, b_of as i64),
        ];
        (percentages, [w, w_of, b, b_of].map(|n| n as i64))
    };
    let (percentages, counts) = queens(&tried, "touches", "best");
    check(
        &doc,
        "touches and best maps differ on {}% and {}% of the squares considered, band for band ({} of {} for White, {} of {} for Black)",
        &[figures(percentages), figures(counts)].concat(),
        command,
    );
    let (percentages, counts) = queens(&tried, "importance", "best");
    check(
        &doc,
        "importance and best on {}% and {}% ({} of {}, {} of {});",
        &[figures(percentages), figures(counts)].concat(),
        command,
    );
    let (_, counts) = queens(&all, "importance", "touches");
    check(
        &doc,
        "nearly agree ({} of {} and {} of {})",
        &figures(counts),
        command,
    );
}

#[test]
fn the_move_table_bench_is_the_binarys() {
    let doc = documentation();
    let stdout = stdout_of(&["bench", "--movetables", "0,1,2,4", "--depth", "6", "--json"]);
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &serde_json::Value| r["type"] == "row")
        .collect();
    let row = |history: bool, table_moves: u64| {
        rows.iter()
            .find(|r| r["history"] == history && r["table_moves"] == table_moves)
            .unwrap()
    };
    let said = quoted(&doc, "| {} | {} ({}) | {} | {} ({}) | {} |");
    assert_eq!(
        said.len(),
        4,
        "the table has a row for 0, 1, 2 and 4 table moves"
    );
    for table_moves in [0, 1, 2, 4] {
        let (on, off) = (row(true, table_moves), row(false, table_moves));
        let expected = figures([
            table_moves.to_string(),
            on["nodes"].to_string(),
            on["mean_nodes"].to_string(),
            format!("{:.3}", on["ratio"].as_f64().unwrap()),
            off["nodes"].to_string(),
            off["mean_nodes"].to_string(),
            format!("{:.3}", off["ratio"].as_f64().unwrap()),
        ]);
        assert!(
            said.contains(&expected),
            "README's table of `kibitz bench --movetables 0,1,2,4 --depth 6` has no row {expected:?}: {said:?}"
        );
    }
    // The sentence under the table.
    let ratio = |history, table_moves| row(history, table_moves)["ratio"].as_f64().unwrap();
    let with_history = [1, 2, 4].map(|n| ratio(true, n));
    let low = with_history.iter().copied().fold(f64::INFINITY, f64::min);
    let high = with_history
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    check(
        &doc,
        "({}-{} with history)",
        &figures([format!("{low:.3}"), format!("{high:.3}")]),
        "kibitz bench --movetables 0,1,2,4 --depth 6",
    );
    let without = [1, 2, 4].map(|n| ratio(false, n));
    let least = without.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(
        least,
        ratio(false, 4),
        "the text names 4 moves as the fewest"
    );
    check(
        &doc,
        "up to {}% fewer ({} at 4 moves)",
        &figures([
            format!("{:.0}", 100.0 * (1.0 - least)),
            format!("{least:.3}"),
        ]),
        "kibitz bench --movetables 0,1,2,4 --depth 6",
    );
}

#[test]
fn a_figure_that_is_not_there_is_reported() {
    let caught = std::panic::catch_unwind(|| quoted("nodes 12 at depth 3", "nodes {} at depth 4"));
    assert!(caught.is_err());
    assert_eq!(
        quoted("a 1,234 b, and a 56.\n b {x}", "a {} b"),
        [["1234"]],
        "a number is read with its separators and must be followed by the pattern's words"
    );
    assert_eq!(
        quoted("losses 4, gains\n  12.", "losses {}, gains {}"),
        [["4", "12"]],
        "white space in the pattern matches a line break"
    );
}

/// The rows of `kibitz movetables experiment --json [ARGS]`.
fn experiment_rows(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["movetables", "experiment", "--json"];
    all.extend_from_slice(args);
    stdout_of(&all)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["type"] == "row")
        .collect()
}

#[test]
fn greers_table_1_is_the_binarys() {
    let doc = documentation();
    let command = "kibitz movetables experiment --json";
    let rows = experiment_rows(&[]);
    let number = |row: &serde_json::Value, field: &str, digits: usize| {
        format!("{:.digits$}", row[field].as_f64().unwrap())
    };
    let percent =
        |row: &serde_json::Value| format!("{:.1}", row["table_share"].as_f64().unwrap() * 100.0);
    let alone = &rows[0];
    check(
        &doc,
        "| move chains alone | {} | {} | {}% | {} of {} | {} of {} | {} | {} |",
        &figures([
            number(alone, "mean_nodes", 1),
            number(alone, "ratio", 3),
            percent(alone),
            alone["same_move"].to_string(),
            "98".into(),
            alone["engine_move"].to_string(),
            "98".into(),
            alone["paper_mean_nodes"].to_string(),
            "1".into(),
        ]),
        command,
    );
    for row in &rows[1..] {
        let n = row["table_moves"].as_u64().unwrap();
        let paper =
            row["paper_mean_nodes"].as_f64().unwrap() / alone["paper_mean_nodes"].as_f64().unwrap();
        let pattern = if n == 1 {
            "| chains + {} table move | {} | {} | {}% | {} of {} | {} of {} | {} | {} times |"
        } else {
            "| chains + {} table moves | {} | {} | {}% | {} of {} | {} of {} | {} | {} times |"
        };
        let expected = figures([
            n.to_string(),
            number(row, "mean_nodes", 1),
            number(row, "ratio", 3),
            percent(row),
            row["same_move"].to_string(),
            "98".into(),
            row["engine_move"].to_string(),
            "98".into(),
            row["paper_mean_nodes"].to_string(),
            format!("{paper:.1}"),
        ]);
        assert!(
            quoted(&doc, pattern).contains(&expected),
            "docs/maps.md's Table 1 has no row {expected:?} (`{command}`)"
        );
    }
    // The sentences that sum it up.
    let ratios: Vec<f64> = rows[1..]
        .iter()
        .map(|r| r["ratio"].as_f64().unwrap())
        .collect();
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    check(
        &doc,
        "changes that by {}-{} times",
        &figures([format!("{low:.2}"), format!("{high:.2}")]),
        command,
    );
    check(
        &doc,
        "move chains alone {} nodes a position at depth {} (the paper: {}); with 1, 2, 4 table moves {}-{} times that",
        &figures([
            format!("{:.0}", rows[0]["mean_nodes"].as_f64().unwrap()),
            "5".into(),
            "545".into(),
            format!("{low:.2}"),
            format!("{high:.2}"),
        ]),
        command,
    );
    check(
        &doc,
        "the tables change the search by a factor of {} to {}.",
        &figures([format!("{low:.2}"), format!("{high:.2}")]),
        command,
    );
    let mean = alone["mean_nodes"].as_f64().unwrap();
    check(
        &doc,
        "the chains alone search {} nodes a position to depth {} (the paper: {})",
        &figures([format!("{mean:.0}"), "5".into(), "545".into()]),
        command,
    );
    check(
        &doc,
        "as little as the paper's: {} nodes a position against {}, an effective branching factor of {} ({} to the fifth root)",
        &figures([
            format!("{mean:.0}"),
            "545".into(),
            format!("{:.1}", mean.powf(0.2)),
            format!("{mean:.0}"),
        ]),
        command,
    );
    let same: Vec<u64> = rows[1..]
        .iter()
        .map(|r| r["same_move"].as_u64().unwrap())
        .collect();
    check(
        &doc,
        "({} to {} of {} the same)",
        &figures([
            same.iter().min().unwrap().to_string(),
            same.iter().max().unwrap().to_string(),
            "98".into(),
        ]),
        command,
    );
    check(
        &doc,
        "search grew about 23 times with table moves, kibitz's by {} to {} times",
        &figures([format!("{low:.2}"), format!("{high:.2}")]),
        command,
    );
    check(
        &doc,
        "(the chains alone in {} of {} positions)",
        &figures([alone["engine_move"].to_string(), "98".into()]),
        command,
    );
    let tried = experiment_rows(&["--decrement", "tried"]);
    let ratios: Vec<f64> = tried[1..]
        .iter()
        .map(|r| r["ratio"].as_f64().unwrap())
        .collect();
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let share = tried[1..]
        .iter()
        .map(|r| r["table_share"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    check(
        &doc,
        "where {}% of nodes get a table move) the search grows, but by {} to {} times",
        &figures([
            format!("{:.0}", share * 100.0),
            format!("{low:.2}"),
            format!("{high:.2}"),
        ]),
        "kibitz movetables experiment --decrement tried --json",
    );
}
