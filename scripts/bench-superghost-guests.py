#!/usr/bin/env python3
"""Guests playing Superghost against the computer, and a probe's PINGs
(issue #43, finding 1).

  scripts/bench-superghost-guests.py GHOSTD [GUESTS] [SECONDS] [ADDRESSES] [WARMUP]

Starts GHOSTD (a release build) with its default limits on a fresh data
folder. GUESTS (20) connections, spread over ADDRESSES (1) addresses
127.0.5.x, each play Dutch Superghost against `bot=hard`, a random letter at
a random end each turn, a new game when one ends, for SECONDS (15). A probe
from 127.0.0.2 sends PING every 25 ms (whether or not the last was
answered) and times each `OK PING`. Prints the probe's replies, p50, p99 and
max, the computer's moves (MOVE lines of bot-hard) and ghostd's RSS. The
probe starts after WARMUP seconds (20) of play: the first Dutch Superghost
game builds the language's index and solves the opening first."""
import os, random, socket, subprocess, sys, tempfile, threading, time, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ghostd_start import start_fresh

binary = sys.argv[1]
guests = int(sys.argv[2]) if len(sys.argv) > 2 else 20
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 15
addresses = int(sys.argv[4]) if len(sys.argv) > 4 else 1
warmup = float(sys.argv[5]) if len(sys.argv) > 5 else 20
proc, port = start_fresh(binary, "ghostd-sg-")
stop = time.monotonic() + warmup + seconds
bot_moves = [0]
lock = threading.Lock()

def guest(k):
    rng = random.Random(k)
    s = socket.socket(); s.bind((f"127.0.5.{k % addresses + 1}", 0)); s.connect(("127.0.0.1", port))
    f = s.makefile("rb")   # no timeout: a timed-out file object fails every read after
    name = f"sg{k}"
    s.sendall(f"NAME {name}\nLANG nl\nNEW bot=hard variant=super\n".encode())
    while time.monotonic() < stop:
        try:
            l = f.readline().decode(errors="replace")
        except OSError:
            return
        if not l or l.startswith("BYE"): return
        if l.startswith("MOVE ") and "player=bot-hard" in l:
            with lock: bot_moves[0] += 1
        if l.startswith("TURN ") and f"player={name} " in l + " ":
            c = rng.choice("abcdefghijklmnopqrstuvwxyz")
            s.sendall(f"LETTER {c}{' front' if rng.random() < 0.5 else ''}\n".encode())
        elif l.startswith(("OVER ", "ABORTED ")):
            s.sendall(b"NEW bot=hard variant=super\n")
    s.close()

threads = [threading.Thread(target=guest, args=(k,), daemon=True) for k in range(guests)]
for t in threads: t.start()
time.sleep(warmup)
moves_before = bot_moves[0]
probe = socket.socket(); probe.bind(("127.0.0.2", 0)); probe.connect(("127.0.0.1", port))
pf = probe.makefile("rb"); pf.readline()
probe.sendall(b"NAME probe\n"); pf.readline()
sent, rtts = [], []
def reader():
    while True:
        l = pf.readline()
        if not l: return
        if l.startswith(b"OK PING"):
            rtts.append(time.monotonic() - sent[len(rtts)])
threading.Thread(target=reader, daemon=True).start()
while time.monotonic() < stop:
    sent.append(time.monotonic()); probe.sendall(b"PING\n")
    time.sleep(0.025)
time.sleep(1)
rss = int(next(l for l in open(f"/proc/{proc.pid}/status") if l.startswith("VmRSS:")).split()[1]) // 1024
proc.terminate(); proc.wait()
r = sorted(rtts)
q = lambda p: 1000 * r[min(len(r) - 1, int(p * (len(r) - 1)))] if r else float("nan")
print(f"{guests} guests on {addresses} address(es), {seconds:.0f} s: probe {len(rtts)} of {len(sent)} PINGs answered; "
      f"p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms, max {q(1.0):.1f} ms; computer moves while measured {bot_moves[0] - moves_before}; RSS {rss} MB")
