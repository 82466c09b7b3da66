#!/usr/bin/env python3
"""Instructions per acknowledged letter, server side, counted by callgrind:
repeatable on a noisy machine, where letters per second are not.

    scripts/callgrind-letters.py GHOSTD [GHOSTD ...] [--games N] [--durability full|normal] [--split]
                                 [--store URL]

--store URL runs each ghostd with `--store URL` (its state in PostgreSQL,
issue #48): the database must hold no state yet (each GHOSTD gets a fresh
one: only one GHOSTD with --store). Only ghostd's process is counted (libpq's
client side included, under "other"), never PostgreSQL's own work.

--split also prints where each letter's instructions are, by library: SQLite
(libsqlite3), the Swift runtime (libswiftCore and the other Swift libraries),
libc (malloc, memcpy, the system call wrappers) and ghostd's own code; the
workload and the total are the same.

Starts each ghostd under valgrind --tool=callgrind with instrumentation off, waits
until it listens, turns it on, plays N games between two clients in
lock step (each letter waits for its replies, so every letter is one loop
turn and one commit, the same work in every run), then stops the daemon and
prints the instructions counted divided by the letters played. The work per
game: NEW, JOIN, then p-e-a-c-h (the fifth letter makes "peach", which ends
the game), so 5 letters and one game end per game. The daemons run with
--durability normal unless told otherwise; with full, the count includes the
sync thread's (a few system calls a commit) and, from the pipelined commit
on, the extra loop turn that sends a turn's replies when its sync is done.
"""
import os, re, socket, subprocess, sys, tempfile

import callgrind_daemon

def start_store(ghostd, data, dicts, durability, store):
    """callgrind_daemon.start, with `--store URL` (if given) and `--web-port
    off` (where the build has a web port: its default port may be taken)
    added to ghostd's options."""
    helptext = subprocess.run([ghostd, "--help"], capture_output=True, text=True).stdout
    extra = (["--store", store] if store else []) + (["--web-port", "off"] if "--web-port" in helptext else [])
    real = callgrind_daemon.subprocess.Popen
    def popen(argv, *a, **k):
        if "--dictionaries" in argv:
            argv = argv + extra
        return real(argv, *a, **k)
    callgrind_daemon.subprocess.Popen = popen
    try:
        return callgrind_daemon.start(ghostd, data, dicts, durability)
    finally:
        callgrind_daemon.subprocess.Popen = real

def run(ghostd, games, durability="normal", store=None):
    data = tempfile.mkdtemp(prefix="ghostd-cg-")
    dicts = os.path.join(data, "dicts")
    os.mkdir(dicts)
    here = os.path.dirname(os.path.abspath(__file__))
    os.symlink(os.path.join(here, "..", "Dictionaries", "en.txt"), os.path.join(dicts, "en.txt"))
    p, port = start_store(ghostd, data, dicts, durability, store)
    # Hangman's tables are built on a background thread at start; under
    # valgrind that takes long enough to overlap the counted part and make
    # the count vary by tens of thousands per letter. A Hangman game waits
    # for them (where the build has Hangman), so start one first.
    w = socket.create_connection(("127.0.0.1", port))
    wf = w.makefile("r")
    w.sendall(b"NAME warmup\nNEW game=hangman mode=fair length=any misses=8\nLEAVE\nPING\n")
    while True:
        line = wf.readline()
        if not line or line.startswith("OK PING"):
            break
    w.close()
    callgrind_daemon.instrument(p)

    a, b = callgrind_daemon.Client(port, "alice"), callgrind_daemon.Client(port, "bob")
    letters = 0
    for _ in range(games):
        code = re.search(r"code=(\w+)", a.cmd("NEW", "OK NEW")).group(1)
        b.cmd(f"JOIN {code}", "OK JOIN")
        a.until("TURN")
        b.until("TURN")
        players = [a, b]
        for i, letter in enumerate("peach"):
            mover, other = players[i % 2], players[1 - i % 2]
            mover.cmd(letter, "OK LETTER")
            if letter == "h":
                mover.until("RANK"); mover.until("RANK"); other.until("RANK"); other.until("RANK")
            else:
                mover.until("TURN"); other.until("TURN")
            letters += 1
    total, split = callgrind_daemon.finish(p, data, SPLIT)
    return total, letters, split

SPLIT = False

def main():
    global SPLIT
    argv = sys.argv[1:]
    store = None
    if "--store" in argv:
        i = argv.index("--store")
        store = argv[i + 1]
        del argv[i:i + 2]
    args, games, durability, SPLIT = callgrind_daemon.options(argv, __doc__, 200)
    for ghostd in args:
        total, letters, split = run(ghostd, games, durability, store)
        where = " (--store)" if store else f" (SQLite, --durability {durability})"
        print(f"{ghostd}{where}: {total:,} instructions for {letters} letters in {games} games: {total // letters:,} per letter")
        if split:
            print("  per letter by library: " + ", ".join(f"{k} {v // letters:,}" for k, v in split.items() if v))

if __name__ == "__main__":
    main()
