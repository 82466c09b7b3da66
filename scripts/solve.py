#!/usr/bin/env python3
"""A plain memoised Ghost solver, the anchor for ghost-bench's solver benchmark.

Rule of record: the player who appends a letter loses if the fragment is then a
word of 4+ letters, or if no word properly extends it. The player to move at a
fragment wins iff some letter makes a surviving fragment from which the
opponent loses.

    python3 scripts/solve.py Dictionaries/en.txt [--runs N]
"""
import argparse
import sys
import time
from functools import lru_cache

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def solve(words):
    extended = set()  # fragments that some longer word starts with
    for w in words:
        for i in range(len(w)):
            extended.add(w[:i])

    def alive(f):
        return not (len(f) >= 4 and f in words) and f in extended

    @lru_cache(maxsize=None)
    def wins(f):
        return any(alive(f + c) and not wins(f + c) for c in LETTERS)

    first = [c for c in LETTERS if alive(c) and not wins(c)]
    return wins(""), first


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("wordlist")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    sys.setrecursionlimit(10000)
    with open(args.wordlist) as f:
        words = {line.strip().lower() for line in f if line.strip().isalpha()}
    best = float("inf")
    for _ in range(args.runs):
        t0 = time.perf_counter()
        first_wins, letters = solve(words)
        best = min(best, time.perf_counter() - t0)
    side = "the first player" if first_wins else "the second player"
    print(f"python {args.wordlist}: {len(words)} words, best of {args.runs}: {best * 1000:.0f} ms; "
          f"{side} wins; winning first letters: {','.join(letters) or 'none'}")


if __name__ == "__main__":
    main()
