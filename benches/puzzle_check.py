#!/usr/bin/env python3
"""Check `kibitz puzzles` output against Stockfish.

For each puzzle (one JSON object per line, as `kibitz puzzles --json` or
`--out` writes them) Stockfish searches the puzzle's position; the puzzle's
first move counts as right when it is Stockfish's best move, or when
Stockfish scores it as winning as clearly: within TOLERANCE points of
winning chance (0-100, lichess's curve, a forced mate 100) of the best.
Prints each miss and the shares; then the same for every move of the
solver in the solutions (the later ones after the puzzle's own replies).

Needs python-chess and a Stockfish binary (Debian's `stockfish` package:
/usr/games/stockfish; `apt-get install stockfish python3-chess` installs
both). Usage:

    kibitz puzzles --pgn games.pgn --movetime 200 --threads 2 --out found.jsonl
    python3 benches/puzzle_check.py found.jsonl [--depth 20] [--stockfish PATH]
"""

import argparse
import json
import math
import sys

import chess
import chess.engine

TOLERANCE = 5.0


def win_chance(score: chess.engine.PovScore, turn: chess.Color) -> float:
    """The side to move's winning chance, 0-100 (kibitz's review curve)."""
    pov = score.pov(turn)
    if pov.is_mate():
        return 100.0 if pov.mate() > 0 else 0.0
    cp = pov.score()
    return 50.0 + 50.0 * (2.0 / (1.0 + math.exp(-0.00368208 * cp)) - 1.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", help="JSON lines from kibitz puzzles")
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": args.threads, "Hash": 64})
    limit = chess.engine.Limit(depth=args.depth)

    def judge(board: chess.Board, ours: chess.Move, where: str) -> str:
        """'same', 'as clear' or 'miss' (printed) for our move here."""
        best = engine.analyse(board, limit)
        best_move = best["pv"][0]
        if best_move == ours:
            return "same"
        mine = engine.analyse(board, limit, root_moves=[ours])
        best_chance = win_chance(best["score"], board.turn)
        our_chance = win_chance(mine["score"], board.turn)
        if our_chance >= best_chance - TOLERANCE:
            return "as clear"
        print(
            f"miss: {where} {board.fen()}: "
            f"{board.san(ours)} ({mine['score'].pov(board.turn)}, {our_chance:.0f}%) "
            f"but Stockfish {board.san(best_move)} "
            f"({best['score'].pov(board.turn)}, {best_chance:.0f}%)"
        )
        return "miss"

    total = same = as_clear = 0
    later = later_right = 0
    with open(args.puzzles, encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            puzzle = json.loads(line)
            board = chess.Board(puzzle["fen"])
            moves = [chess.Move.from_uci(m) for m in puzzle["solution"]]
            where = f"game {puzzle['game']} ply {puzzle['ply']}"
            verdict = judge(board, moves[0], where)
            total += 1
            same += verdict == "same"
            as_clear += verdict == "as clear"
            for index, move in enumerate(moves):
                if index > 0 and index % 2 == 0:
                    later += 1
                    verdict = judge(board, move, f"{where} move {index // 2 + 1}")
                    later_right += verdict != "miss"
                board.push(move)
    engine.quit()
    if total == 0:
        print("no puzzles")
        return 1
    right = same + as_clear
    print(
        f"{total} puzzles: first move Stockfish's best {same} ({100 * same / total:.1f}%), "
        f"as clear a win {as_clear}; right {right} ({100 * right / total:.1f}%) "
        f"at depth {args.depth}, tolerance {TOLERANCE} points"
    )
    if later:
        print(
            f"later moves of the solver: {later}, right {later_right} "
            f"({100 * later_right / later:.1f}%)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
