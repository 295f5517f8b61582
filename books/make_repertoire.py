#!/usr/bin/env python3
"""Write the PGN sources of kibitz's default opening book.

The named lines of assets/openings.tsv (written for kibitz) are the trunks:
the sound ones only (the list of traps and dubious openings below is left
out). Each trunk shorter than PLIES is continued by kibitz itself: the
engine's two best moves at the end of the trunk (the second only when it is
within SECOND_MARGIN centipawns of the first), each followed by the engine's
best moves to PLIES plies. Every line is then scored by kibitz at
FINAL_NODES nodes and gets a result: 1-0 above +RESULT_MARGIN, 0-1 below
-RESULT_MARGIN, a draw between, so `kibitz book build` weights the book
toward the lines that score best.

Needs python-chess (pip install chess) and a built kibitz:

    python3 books/make_repertoire.py target/release/kibitz
    target/release/kibitz book build --pgn books/*.pgn --out books/kibitz.bin --max-ply 16

The PGN files it writes are committed; the book is rebuilt from them (and a
test checks that the rebuild is byte-identical to books/kibitz.bin).
"""

import os
import sys

import chess
import chess.engine
import chess.pgn

PLIES = 16
SECOND_MARGIN = 35
RESULT_MARGIN = 40
STEP_NODES = 40_000
FINAL_NODES = 150_000

# Left out of the book: traps, jokes and lines that lose by force.
EXCLUDE = [
    "Grob", "Van 't Kruijs", "Mieses Opening", "Saragossa", "Anderssen Opening", "Clemenz",
    "Ware", "Amar", "Durkin", "Barnes", "Borg", "St. George", "Polish Defence",
    "Englund", "Latvian", "Elephant Gambit", "Gunderam", "Irish Gambit", "Stafford",
    "Cochrane", "Wayward Queen", "Napoleon", "Blackburne Shilling", "Lasker Trap",
    "Elephant Trap", "Frankenstein-Dracula", "Hillbilly", "Macleod", "Alapin Opening",
    "Manhattan", "Rat Defence", "Mexican", "Fajarowicz", "Portuguese", "Tayler",
    "Traxler", "Fried Liver", "Polerio", "Owen", "Icelandic",
]

FAMILIES = ["open-games", "semi-open", "closed", "indian", "flank", "gambits"]


def family(eco, name):
    """The file a line goes to. The Queen's Gambit is a closed game, not a gambit."""
    if ("Gambit" in name and not name.startswith("Queen's Gambit")) or "Countergambit" in name:
        return "gambits"
    if "C20" <= eco <= "C99":
        return "open-games"
    if "B00" <= eco <= "B99" or "C00" <= eco <= "C19":
        return "semi-open"
    if "D00" <= eco <= "D69":
        return "closed"
    if "D70" <= eco <= "E99" or "A45" <= eco <= "A79":
        return "indian"
    return "flank"


def white_cp(info, board):
    score = info["score"].white()
    return score.score(mate_score=100_000)


def main():
    kibitz = sys.argv[1] if len(sys.argv) > 1 else "target/release/kibitz"
    root = os.path.dirname(os.path.abspath(__file__))
    table = os.path.join(root, "..", "assets", "openings.tsv")
    trunks = []
    for line in open(table, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        eco, name, moves = line.rstrip("\n").split("\t")
        if any(word in name for word in EXCLUDE):
            continue
        trunks.append((eco, name, moves.split()))

    engine = chess.engine.SimpleEngine.popen_uci([kibitz, "uci"])
    options = {"Hash": 64}
    if "OwnBook" in engine.options:
        options["OwnBook"] = False
    engine.configure(options)
    games = {label: [] for label in FAMILIES}
    for index, (eco, name, moves) in enumerate(trunks):
        board = chess.Board()
        for san in moves[:PLIES]:
            board.push_san(san)
        continuations = [[]]
        if board.ply() < PLIES and not board.is_game_over():
            infos = engine.analyse(board, chess.engine.Limit(nodes=STEP_NODES), multipv=2, game=index)
            firsts = [infos[0]["pv"][0]]
            if len(infos) > 1 and "pv" in infos[1]:
                gap = white_cp(infos[0], board) - white_cp(infos[1], board)
                if not board.turn:
                    gap = -gap
                if gap <= SECOND_MARGIN:
                    firsts.append(infos[1]["pv"][0])
            continuations = [[m] for m in firsts]
        for extra in continuations:
            line = board.copy()
            for m in extra:
                line.push(m)
            while line.ply() < PLIES and not line.is_game_over():
                result = engine.play(line, chess.engine.Limit(nodes=STEP_NODES), game=index)
                line.push(result.move)
            info = engine.analyse(line, chess.engine.Limit(nodes=FINAL_NODES), game=index)
            cp = white_cp(info, line)
            outcome = "1-0" if cp > RESULT_MARGIN else "0-1" if cp < -RESULT_MARGIN else "1/2-1/2"
            game = chess.pgn.Game()
            game.headers["Event"] = "kibitz repertoire"
            game.headers["Site"] = "kibitz"
            game.headers["Date"] = "????.??.??"
            game.headers["Round"] = "-"
            game.headers["White"] = "?"
            game.headers["Black"] = "?"
            game.headers["Result"] = outcome
            game.headers["ECO"] = eco
            game.headers["Opening"] = name
            game.headers["Annotator"] = f"kibitz {cp:+d} cp"
            node = game
            for m in line.move_stack:
                node = node.add_variation(m)
            games[family(eco, name)].append(str(game))
        print(f"{index + 1}/{len(trunks)} {eco} {name}", file=sys.stderr)
    engine.quit()
    for label, texts in games.items():
        with open(os.path.join(root, f"{label}.pgn"), "w", encoding="utf-8") as out:
            out.write("\n\n".join(texts) + "\n")
        print(f"{label}.pgn: {len(texts)} games", file=sys.stderr)


if __name__ == "__main__":
    main()
