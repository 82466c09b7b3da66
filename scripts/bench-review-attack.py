#!/usr/bin/env python3
"""A probe's PING while unnamed connections loop REVIEW (issue #43, finding 6).

  scripts/bench-review-attack.py GHOSTD [CONNECTIONS] [ADDRESSES] [SECONDS] [ROUNDS] [-- ghostd options]

Starts GHOSTD (release) on a fresh data folder with its defaults plus the
options after `--`, and plays two games to their end: Dutch Superghost
against bot=hard (random letters at either end) and fair Dutch Hangman
(misses=26, length=12, every letter a-z guessed). Then CONNECTIONS (20)
unnamed connections, spread over ADDRESSES (1: 127.0.10.1; more: 127.0.10.1
...) loop `REVIEW <id>` of the two games in turn (one in flight each). A
probe on 127.0.8.2 sends PING every 25 ms and times each OK PING. Each
round: SECONDS (5) of the probe alone, then SECONDS under attack. Prints
p50/p99/max of each phase, the reviews answered, and the medians."""
import os, random, socket, sys, threading, time, selectors, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ghostd_start import Probe, bench_args, start_fresh

args, extra = bench_args(sys.argv[1:])
binary = args[0]
connections = int(args[1]) if len(args) > 1 else 20
addresses = int(args[2]) if len(args) > 2 else 1
seconds = float(args[3]) if len(args) > 3 else 5
rounds = int(args[4]) if len(args) > 4 else 3
proc, port = start_fresh(binary, "ghostd-reviews-", extra)
random.seed(7)

def lines(f):
    while True:
        line = f.readline()
        if not line: raise SystemExit("ghostd closed the connection")
        yield line.decode(errors="replace").rstrip("\r\n")

def play(setup, move):
    """Plays one game from `setup` lines to its OVER; returns its id."""
    s = socket.create_connection(("127.0.0.1", port)); f = s.makefile("rb"); it = lines(f)
    next(it)
    name = f"rv{random.randrange(10**6)}"
    s.sendall(f"NAME {name}\n".encode() + "".join(l + "\n" for l in setup).encode())
    game = None; k = 0
    for line in it:
        if line.startswith("GAME ") and game is None:
            game = int(line.split("id=")[1].split()[0])
        elif line.startswith("TURN ") and f"player={name}" in line:
            s.sendall((move(k, line) + "\n").encode()); k += 1
        elif line.startswith("OVER "):
            s.close(); return game
        elif line.startswith("ERR "):
            s.sendall((move(k, line) + "\n").encode()); k += 1

letters = "abcdefghijklmnopqrstuvwxyz"
superghost = play(["LANG nl", "NEW bot=hard variant=super"],
                  lambda k, line: f"LETTER {random.choice(letters)}" + (" front" if random.random() < 0.5 else ""))
order = list(letters); random.shuffle(order)
hangman = play(["LANG nl", "NEW game=hangman mode=fair misses=26 length=12"], lambda k, line: order[k % 26])
print(f"games to review: Dutch Superghost {superghost}, fair Dutch Hangman {hangman}", flush=True)

attacking = [False]; stop = [False]
sel = selectors.DefaultSelector()
answered = {}

class Attacker:
    def __init__(self, src, n):
        self.n = n; self.buf = b""; self.idle = True
        self.s = socket.socket(); self.s.bind((src, 0)); self.s.connect(("127.0.0.1", port))
        self.s.setblocking(False); self.hello = False
        sel.register(self.s, selectors.EVENT_READ, self)
    def next(self):
        if not attacking[0]: self.idle = True; return
        self.idle = False; self.n += 1
        game = superghost if self.n % 2 else hangman
        try: self.s.send(f"REVIEW {game}\n".encode())
        except OSError: pass

attackers = [Attacker(f"127.0.10.{i % addresses + 1}", i) for i in range(connections)]

def attack_loop():
    while not stop[0]:
        for a in attackers:
            if a.idle and attacking[0] and a.hello: a.next()
        for key, _ in sel.select(timeout=0.01):
            a = key.data
            try: data = a.s.recv(65536)
            except BlockingIOError: continue
            except OSError: data = b""
            if not data: sel.unregister(a.s); continue
            a.buf += data
            while b"\n" in a.buf:
                line, a.buf = a.buf.split(b"\n", 1)
                if line.startswith(b"HELLO"): a.hello = True
                elif line.startswith(b"OK ") or line.startswith(b"ERR ") or line.startswith(b"BYE "):
                    k = b" ".join(line.split()[:2]).decode()
                    answered[k] = answered.get(k, 0) + 1
                    a.next()
threading.Thread(target=attack_loop, daemon=True).start()

probe = Probe(port, "127.0.8.2")
probe_phase = probe.phase

time.sleep(0.5)
alone, attack = [], []
for r in range(rounds):
    attacking[0] = False; time.sleep(0.5)
    a = probe_phase(seconds)
    answered.clear()
    attacking[0] = True
    b = probe_phase(seconds)
    alone.append(a); attack.append(b)
    print(f"round {r + 1}: alone p50 {a[0]:.2f} p99 {a[1]:.2f} max {a[2]:.2f} ms | under {connections} REVIEW loopers "
          f"({addresses} address(es)) p50 {b[0]:.2f} p99 {b[1]:.2f} max {b[2]:.2f} ms; answers {dict(answered)}", flush=True)
attacking[0] = False; stop[0] = True
ma = statistics.median(x[1] for x in alone); mb = statistics.median(x[1] for x in attack)
print(f"median p99: alone {ma:.2f} ms, under attack {mb:.2f} ms (target <= 20 ms: {'met' if mb <= 20 else 'NOT met'})")
proc.terminate(); proc.wait()
