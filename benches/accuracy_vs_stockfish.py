#!/usr/bin/env python3
"""How close kibitz's review accuracy is to the same formula fed with
Stockfish's evaluations. Reads `kibitz review --game N --json` lines (one a
game: `start_fen`, each move's `uci`), has Stockfish evaluate every position
of the main line at a fixed depth, and compares each side's game accuracy.

    for n in 1 2 3; do kibitz review --pgn games.pgn --game $n --json; done > review.jsonl
    python3 benches/accuracy_vs_stockfish.py review.jsonl [--depth 14]

Needs /usr/games/stockfish (Debian's stockfish package). Prints one line a
game side and the mean and largest absolute difference.
"""
import json
import re
import subprocess
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from lichess_accuracy import figures  # noqa: E402


class Stockfish:
    def __init__(self, depth):
        self.p = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.depth = depth
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if line.startswith(token):
                return line

    def evaluate(self, fen, moves, white_to_move):
        self.send(f"position fen {fen} moves {' '.join(moves)}" if moves else f"position fen {fen}")
        self.send(f"go depth {self.depth}")
        score = None
        while True:
            line = self.p.stdout.readline()
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m and " multipv " not in line or (m and "multipv 1 " in line):
                score = (m.group(1), int(m.group(2)))
            if line.startswith("bestmove"):
                if line.split()[1] == "(none)":
                    return None
                break
        kind, n = score
        if not white_to_move:
            n = -n
        return {"cp": n} if kind == "cp" else {"mate": n}


def main():
    args = sys.argv[1:]
    depth = 14
    if "--depth" in args:
        i = args.index("--depth")
        depth = int(args[i + 1])
        del args[i:i + 2]
    lines_path, = args
    sf = Stockfish(depth)
    diffs = []
    for line in open(lines_path):
        game = json.loads(line)
        if "start_fen" not in game:
            continue
        fen = game["start_fen"]
        moves = [m["uci"] for m in game["moves"]]
        white_first = game.get("start_turn", "white") == "white"
        evals = []
        for i in range(len(moves) + 1):
            white_to_move = (i % 2 == 0) == white_first
            e = sf.evaluate(fen, moves[:i], white_to_move)
            if e is None:  # mate or stalemate on the board
                k = game["evals"][i] if i < len(game["evals"]) else {"cp": 0}
                e = k
            evals.append(e)
        theirs = figures(evals, white_first)
        for side in ("white", "black"):
            mine = game["summary"][side].get("accuracy")
            sf_acc = theirs[side][0]
            if mine is None or sf_acc is None:
                continue
            d = mine - sf_acc
            diffs.append(abs(d))
            print(f"game {game['game']} {side}: kibitz {mine:.1f}, stockfish d{depth} {sf_acc:.1f} ({d:+.1f})")
    if diffs:
        print(f"{len(diffs)} sides: mean |difference| {sum(diffs) / len(diffs):.1f}, "
              f"largest {max(diffs):.1f}")


if __name__ == "__main__":
    main()
