#!/usr/bin/env python3
"""Recompute lichess's game accuracy and average centipawn loss from the
`evals` of `kibitz review --json` (one game object per line, as `review`
and `review --all` write them) and compare with the `summary` fields.

    kibitz review --pgn games.pgn --all --json | python3 benches/lichess_accuracy.py

Written from lichess's published method (docs/analysis.md, "Accuracy", states it), not
from kibitz's code: a second reading of the same rules. Exit status 1 when
a figure differs by more than 0.5.
"""
import json
import math
import sys

CEILING = 1000


def white_cp(e, first_white, index):
    if "cp" in e:
        return max(-CEILING, min(CEILING, e["cp"]))
    if e["mate"] == 0:
        return CEILING if e["mated"] == "black" else -CEILING
    return CEILING if e["mate"] > 0 else -CEILING


def win(cp):
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def accuracy(before, after):
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def stdev(xs):
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def figures(evals, first_white=True):
    cps = [white_cp(e, first_white, i) for i, e in enumerate(evals)]
    wins = [win(c) for c in cps]
    plies = len(cps) - 1
    size = max(2, min(8, plies // 10))
    size = min(size, len(wins))
    windows = [wins[:size]] * (size - 2) + [wins[i:i + size] for i in range(len(wins) - size + 1)]
    weights = [max(0.5, min(12, stdev(w))) for w in windows]
    out = {}
    for side in ("white", "black"):
        accs, ws, losses = [], [], []
        for ply in range(plies):
            mover_white = (ply % 2 == 0) == first_white
            if mover_white != (side == "white"):
                continue
            b, a = wins[ply], wins[ply + 1]
            if not mover_white:
                b, a = 100 - b, 100 - a
            accs.append(accuracy(b, a))
            ws.append(weights[ply])
            sign = 1 if mover_white else -1
            losses.append(max(0, sign * (cps[ply] - cps[ply + 1])))
        if not accs:
            out[side] = (None, None)
            continue
        weighted = sum(a * w for a, w in zip(accs, ws)) / sum(ws)
        harmonic = len(accs) / sum(1 / max(1, a) for a in accs)
        out[side] = ((weighted + harmonic) / 2, sum(losses) / len(losses))
    return out


def main():
    worst, games, bad = 0.0, 0, 0
    for line in sys.stdin:
        game = json.loads(line)
        if "evals" not in game or "summary" not in game:
            continue
        first_white = game.get("start_turn", "white") == "white"
        mine = figures(game["evals"], first_white)
        games += 1
        for side in ("white", "black"):
            acc, acpl = mine[side]
            theirs = game["summary"][side]
            if acc is None or theirs.get("accuracy") is None:
                continue
            d = max(abs(acc - theirs["accuracy"]), abs(acpl - theirs["acpl"]))
            worst = max(worst, d)
            if d > 0.5:
                bad += 1
                print(f"game {game.get('game')} {side}: recomputed {acc:.2f}/{acpl:.1f}, "
                      f"kibitz {theirs['accuracy']}/{theirs['acpl']}")
    print(f"{games} games, largest difference {worst:.2f}, {bad} sides beyond 0.5")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
