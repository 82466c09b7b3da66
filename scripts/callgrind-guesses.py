#!/usr/bin/env python3
"""Instructions per acknowledged Hangman guess against the evil computer,
server side, counted by callgrind: repeatable on a noisy machine, where
guesses per second are not. The Hangman twin of scripts/callgrind-letters.py.

    scripts/callgrind-guesses.py GHOSTD [GHOSTD ...] [--games N] [--durability full|normal] [--split] [--any]

The workload is `ghost-bench play-hangman`'s (Sources/GhostBench/LoadBench.swift)
played by one client in lock step: each game is `NEW game=hangman mode=evil
length=<n> misses=8`, then the letters "esiarntolcdupmghbyfvkwzxqj" in that
order (LoadBench's guessOrder), each sent only once the previous one's
replies are in (`OK LETTER`, `MOVE`, then `TURN`, or `OVER` and its `INFO`,
and `RANK board=` when the guesser solved it), until the game is OVER. So
every guess is one loop turn and one commit, the same work in every run.

Deterministic: the daemon draws each game's seed at random and has no option
to fix it, and `length=any` picks the length from that seed, uniformly among
the lengths with at least 100 common words (HangmanKind.anyLengthMinimumWords;
English: 3 to 15 letters). A game's cost depends mostly on its length (the
evil family is the words of that length), so rather than leave the lengths
to chance (200 random draws move the mean by several per cent), the client
asks for each of those lengths in turn: game k has length lengths[k % 13],
which is length=any's distribution exactly when N is a multiple of 13 (the
default, 208, is 16 rounds). The evil rule is deterministic for a given
length (the largest family, ties broken by a fixed order), so every run
plays the same guesses; only the word revealed at the end, the tokens and
the seeds stored differ. --any sends `length=any` as LoadBench does (the
mean then varies with the lengths drawn; the lengths are printed).

Starts each ghostd under valgrind --tool=callgrind with instrumentation off
(--dictionaries Dictionaries, as scripts/bench-commit.sh: the word lists, the
common words the computer picks from, the phrases), plays one Hangman game
uncounted (the word tables are built on a background thread at start: the
game waits for them, so that work is not counted), turns instrumentation on,
plays the N games, stops the daemon and prints the instructions counted per
acknowledged guess and per game (a game: its NEW, its guesses and its end).
--split also prints where each guess's instructions are, by library (SQLite,
the Swift runtime, libc, ghostd's own code), as callgrind-letters.py does.
--durability: as callgrind-letters.py (normal unless told otherwise).
KEEP=1 keeps the callgrind.out (its path is printed) for callgrind_annotate;
CALLGRIND_ARGS adds valgrind options (scripts/callgrind_daemon.py, which both
scripts use to run the daemon).
"""
import os, re, sys, tempfile

import callgrind_daemon

# LoadBench.guessOrder.
ORDER = "esiarntolcdupmghbyfvkwzxqj"
# The lengths `length=any` picks among in English (common words of the list,
# at least 100 of that length): checked against the daemon's own picks at start.
LENGTHS = list(range(3, 16))

def run(ghostd, games, durability="normal", any_length=False):
    data = tempfile.mkdtemp(prefix="ghostd-cgg-")
    here = os.path.dirname(os.path.abspath(__file__))
    dicts = os.path.join(here, "..", "Dictionaries")
    p, port = callgrind_daemon.start(ghostd, data, dicts, durability)

    class Client(callgrind_daemon.Client):
        def __init__(self, name):
            super().__init__(port, name)
        def game(self, length):
            """One game to its end: (guesses acknowledged, the length played)."""
            header = self.cmd(f"NEW game=hangman mode=evil length={length} misses=8", ("GAME ",))
            played = int(re.search(r" length=(\d+)", header).group(1))
            self.until(("TURN ",))
            guesses = 0
            for letter in ORDER:
                self.s.sendall(f"{letter}\n".encode())
                self.until(("OK LETTER",))
                guesses += 1
                if self.until(("TURN ", "OVER ")).startswith("OVER "):
                    # INFO follows OVER; a solved game's RANK board= comes before it.
                    self.until(("INFO ",))
                    return guesses, played
            raise SystemExit("26 guesses and no OVER")

    # Uncounted: the first game waits for the word tables; with --any, this
    # also checks LENGTHS against the lengths the daemon picks.
    warm = Client("warmup")
    seen = {warm.game("any")[1] for _ in range(40 if any_length else 1)}
    if any_length and not seen <= set(LENGTHS):
        raise SystemExit(f"length=any played lengths {sorted(seen)}, outside {LENGTHS}: update LENGTHS")
    warm.cmd("PING", ("OK PING",))
    warm.s.close()
    callgrind_daemon.instrument(p)

    c = Client("guesser")
    guesses = 0
    lengths = []
    for k in range(games):
        n, played = c.game("any" if any_length else LENGTHS[k % len(LENGTHS)])
        guesses += n
        lengths.append(played)
    total, split = callgrind_daemon.finish(p, data, SPLIT)
    return total, guesses, lengths, split

SPLIT = False

def main():
    global SPLIT
    args, games, durability, SPLIT = callgrind_daemon.options(sys.argv[1:], __doc__, 16 * len(LENGTHS))
    any_length = "--any" in args
    if any_length:
        args.remove("--any")
    if not args:
        raise SystemExit(__doc__)
    for ghostd in args:
        total, guesses, lengths, split = run(ghostd, games, durability, any_length)
        print(f"{ghostd}: {total:,} instructions for {guesses} guesses in {games} games: "
              f"{total // guesses:,} per guess, {total // games:,} per game")
        if any_length:
            print("  lengths played: " + " ".join(f"{n}x{lengths.count(n)}" for n in sorted(set(lengths))))
        if split:
            print("  per guess by library: " + ", ".join(f"{k} {v // guesses:,}" for k, v in split.items() if v))

if __name__ == "__main__":
    main()
