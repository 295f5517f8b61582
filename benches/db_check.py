#!/usr/bin/env python3
"""Check `kibitz db explore` against an independent count with python-chess.

    python3 benches/db_check.py [--kibitz BIN] [--db FILE] [--per-ply N]
                                [--shared N] [--seed S] PGN...

Reads every game of the PGN files with python-chess (pip install chess) and
counts, for each position of each game's main line, the move played from it
and the game's result, each game once at its first time in the position;
games that end in a position are counted apart. A position is its pieces,
the side to move, the castling rights and the en passant square where a
pawn stands to take (what a Polyglot key holds, compared here as such, not
hashed). Games are taken as kibitz's import takes them: a game python-chess
cannot read is skipped (and counted), a game identical to an earlier one in
its tags and moves is counted once, a null move ends the main line, and the
result is the movetext's result token, else the Result tag.

Without --db the files are imported with `kibitz db import` into a
temporary database (removed afterwards). Then positions are sampled at
plies 0, 1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 30, 40, 60 (--per-ply each,
seeded), plus the positions reached by two games or more (up to --shared,
the most reached first), and for each `kibitz db explore --db DB --fen FEN
--json` is compared: the games that reached the position, those that ended
there, and each move's uci, games, white, draws, black, unknown, exactly.

Prints `positions checked: N, mismatches: M` and exits 1 on any mismatch,
printing the first few in full.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("this check needs python-chess: pip install chess")

PLIES = [0, 1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 30, 40, 60]
RESULTS = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}


class Separated:
    """A file read line by line, with an empty line put before a tag pair
    that follows movetext directly. Some sites write the next game's
    `[Event ...]` on the line after the last one's result; python-chess
    would read those tags as moves (it ends a game only at an empty line),
    where kibitz's reader starts a new game, as PGN readers generally do."""

    TAG = re.compile(r'^\s*\[[A-Za-z0-9_]+\s+"')

    def __init__(self, handle):
        self.handle = handle
        self.in_movetext = False
        self.held = None

    def readline(self):
        if self.held is not None:
            line, self.held = self.held, None
            return line
        line = self.handle.readline()
        if not line.strip():
            self.in_movetext = False
        elif self.TAG.match(line):
            if self.in_movetext:
                self.in_movetext = False
                self.held = line
                return "\n"
        elif not line.lstrip().startswith("%"):
            self.in_movetext = True
        return line


class Builder(chess.pgn.GameBuilder):
    """python-chess's game builder, keeping the tags as the file has them
    (python-chess fills in the Seven Tag Roster) and the movetext's result
    token."""

    def begin_game(self):
        super().begin_game()
        self.raw_tags = []
        self.token_result = None

    def visit_header(self, tagname, tagvalue):
        self.raw_tags.append((tagname, tagvalue))
        super().visit_header(tagname, tagvalue)

    def visit_result(self, result):
        self.token_result = result
        super().visit_result(result)

    def result(self):
        game = super().result()
        game.raw_tags = self.raw_tags
        game.token_result = self.token_result
        return game


def identity(board):
    """A position as the index tells positions apart."""
    ep = board.ep_square if board.has_pseudo_legal_en_passant() else None
    return (board.board_fen(), board.turn, board.castling_rights, ep)


class Counts:
    def __init__(self):
        self.games = 0
        self.ended = [0, 0, 0, 0]  # white, draws, black, unknown
        self.moves = defaultdict(lambda: [0, 0, 0, 0])
        self.fen = None
        self.ply = None


def read(paths):
    """Count every game of the files. Returns (positions, by_ply, stats)."""
    positions = {}
    by_ply = defaultdict(list)  # ply -> identities first met at that ply
    seen = set()
    stats = {"games": 0, "unreadable": 0, "duplicates": 0, "empty": 0}
    for path in paths:
        with open(path, encoding="utf-8-sig", errors="replace") as raw:
            handle = Separated(raw)
            while True:
                game = chess.pgn.read_game(handle, Visitor=Builder)
                if game is None:
                    break
                moves = []
                for move in game.mainline_moves():
                    if not move:  # a null move ends the main line
                        break
                    moves.append(move)
                if not game.raw_tags and not moves and not game.errors:
                    stats["empty"] += 1
                    continue
                if game.errors:
                    stats["unreadable"] += 1
                    continue
                key = (tuple(game.raw_tags), tuple(m.uci() for m in moves))
                if key in seen:
                    stats["duplicates"] += 1
                    continue
                seen.add(key)
                stats["games"] += 1
                result = game.token_result
                if result is None:
                    result = dict(game.raw_tags).get("Result", "*").strip()
                slot = RESULTS.get(result, 3)
                board = game.board()
                here = set()
                for ply in range(len(moves) + 1):
                    ident = identity(board)
                    if ident not in here:
                        here.add(ident)
                        counts = positions.get(ident)
                        if counts is None:
                            counts = positions[ident] = Counts()
                            counts.fen = board.fen(en_passant="fen")
                            counts.ply = ply
                            by_ply[ply].append(ident)
                        counts.games += 1
                        if ply == len(moves):
                            counts.ended[slot] += 1
                        else:
                            counts.moves[board.uci(moves[ply])][slot] += 1
                    if ply < len(moves):
                        board.push(moves[ply])
    return positions, by_ply, stats


def explore(kibitz, db, fen):
    run = subprocess.run(
        [kibitz, "db", "explore", "--db", db, "--fen", fen, "--json"],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        return None, run.stderr.strip()
    return json.loads(run.stdout), None


def compare(counts, answer):
    """The differences between our count and kibitz's answer, as text."""
    problems = []
    if answer["games"] != counts.games:
        problems.append(f"games: kibitz {answer['games']}, python-chess {counts.games}")
    ended = answer["ended"]
    theirs = [ended["white"], ended["draws"], ended["black"], ended["unknown"]]
    if theirs != counts.ended:
        problems.append(f"ended (W/D/B/?): kibitz {theirs}, python-chess {counts.ended}")
    kibitz_moves = {m["uci"]: [m["white"], m["draws"], m["black"], m["unknown"]] for m in answer["moves"]}
    for m in answer["moves"]:
        if m["games"] != sum(kibitz_moves[m["uci"]]):
            problems.append(f"{m['uci']}: games {m['games']} is not the sum of its results")
    for uci in sorted(set(kibitz_moves) | set(counts.moves)):
        ours = counts.moves.get(uci, [0, 0, 0, 0])
        theirs = kibitz_moves.get(uci, [0, 0, 0, 0])
        if ours != theirs:
            problems.append(f"{uci} (W/D/B/?): kibitz {theirs}, python-chess {ours}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--kibitz", default=shutil.which("kibitz") or "target/release/kibitz")
    parser.add_argument("--db", help="a database imported from exactly these files (default: import them now)")
    parser.add_argument("--per-ply", type=int, default=8, help="positions sampled at each ply (8)")
    parser.add_argument("--shared", type=int, default=400, help="positions reached by 2+ games checked at most (400)")
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--show", type=int, default=5, help="mismatches printed in full (5)")
    args = parser.parse_args()

    temp = None
    db = args.db
    if db is None:
        temp = tempfile.mkdtemp(prefix="kibitz-db-check-")
        db = os.path.join(temp, "games.sqlite")
        run = subprocess.run(
            [args.kibitz, "db", "import", "--db", db, "--json", *args.pgn],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            shutil.rmtree(temp, ignore_errors=True)
            sys.exit(f"kibitz db import failed ({run.returncode}): {run.stderr.strip()}")
        report = json.loads(run.stdout)
        skipped = sum(f["skipped"] if isinstance(f["skipped"], int) else len(f["skipped"]) for f in report["files"])
        duplicates = sum(f["duplicates"] for f in report["files"])
        print(
            f"kibitz db import: {report['games']} games added, {skipped} skipped, "
            f"{duplicates} already there, {report['positions']} index entries"
        )
    try:
        return check(args, db)
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)


def check(args, db):
    positions, by_ply, stats = read(args.pgn)
    print(
        f"python-chess: {stats['games']} games counted, {stats['unreadable']} unreadable (skipped), "
        f"{stats['duplicates']} duplicates (counted once), {len(positions)} positions"
    )
    rng = random.Random(args.seed)
    chosen = []
    taken = set()
    for ply in PLIES:
        # Positions that games reach at this ply (each game's position at
        # this ply, as a user walking the games meets them).
        pool = sorted(by_ply.get(ply, []), key=lambda i: positions[i].fen)
        for ident in rng.sample(pool, min(args.per_ply, len(pool))):
            if ident not in taken:
                taken.add(ident)
                chosen.append(ident)
    shared = sorted(
        (i for i, c in positions.items() if c.games >= 2 and i not in taken),
        key=lambda i: (-positions[i].games, positions[i].fen),
    )
    chosen.extend(shared[: args.shared])

    mismatches = []
    for ident in chosen:
        counts = positions[ident]
        answer, error = explore(args.kibitz, db, counts.fen)
        if answer is None:
            problems = [f"kibitz db explore failed: {error}"]
        else:
            problems = compare(counts, answer)
        if problems:
            mismatches.append((counts, problems))
    for counts, problems in mismatches[: args.show]:
        print(f"\nmismatch at {counts.fen} (first reached at ply {counts.ply}, {counts.games} games):")
        for p in problems:
            print(f"  {p}")
    print(f"positions checked: {len(chosen)}, mismatches: {len(mismatches)}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
