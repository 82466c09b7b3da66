#!/usr/bin/env python3
"""A probe's PING while many networks flood cheap writes (issue #43, finding 8).

  scripts/bench-write-flood.py GHOSTD [ADDRESSES] [PER_ADDRESS] [SECONDS] [ROUNDS] [-- ghostd options]

Starts GHOSTD (release) on a fresh data folder with its defaults
(--durability full) plus the options after `--`. ADDRESSES (40) attacker
addresses 127.0.9.x each hold PER_ADDRESS (6) named connections that loop
`SET hangman-misses <n>` (one write each, one in flight, the next as soon as
the last is answered). A probe on 127.0.8.1 sends PING every 25 ms and times
each OK PING. Each round: SECONDS (5) of the probe alone, then SECONDS under
attack. Prints p50/p99/max of each phase and the medians over the rounds."""
import os, socket, sys, threading, time, selectors, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ghostd_start import Probe, bench_args, start_fresh

args, extra = bench_args(sys.argv[1:])
binary = args[0]
addresses = int(args[1]) if len(args) > 1 else 40
per = int(args[2]) if len(args) > 2 else 6
seconds = float(args[3]) if len(args) > 3 else 5
rounds = int(args[4]) if len(args) > 4 else 3
proc, port = start_fresh(binary, "ghostd-writeflood-", extra)

attacking = [False]
stop = [False]
sel = selectors.DefaultSelector()
writes = [0]

class Attacker:
    def __init__(self, src, n):
        self.n = n; self.buf = b""; self.idle = True
        self.s = socket.socket(); self.s.bind((src, 0))
        self.s.connect(("127.0.0.1", port))
        self.s.sendall(f"NAME wf{n}\n".encode())
        self.s.setblocking(False)
        self.k = 0
        self.waiting = True   # for OK NAME
        sel.register(self.s, selectors.EVENT_READ, self)
    def next(self):
        if not attacking[0]:
            self.idle = True; return
        self.idle = False; self.k += 1
        try: self.s.send(f"SET hangman-misses {self.k % 26 + 1}\n".encode())
        except OSError: pass

attackers = [Attacker(f"127.0.9.{a + 1}", a * per + i) for a in range(addresses) for i in range(per)]

def attack_loop():
    while not stop[0]:
        for a in attackers:
            if a.idle and attacking[0] and not a.waiting: a.next()
        for key, _ in sel.select(timeout=0.01):
            a = key.data
            try: data = a.s.recv(65536)
            except BlockingIOError: continue
            except OSError: data = b""
            if not data:
                sel.unregister(a.s); continue
            a.buf += data
            while b"\n" in a.buf:
                line, a.buf = a.buf.split(b"\n", 1)
                if line.startswith(b"OK ") or line.startswith(b"ERR "):
                    if a.waiting: a.waiting = False; a.idle = True
                    else:
                        writes[0] += 1; a.next()
threading.Thread(target=attack_loop, daemon=True).start()

probe = Probe(port, "127.0.8.1")
probe_phase = probe.phase

time.sleep(1)
alone, attack = [], []
for r in range(rounds):
    attacking[0] = False; time.sleep(0.5)
    a = probe_phase(seconds)
    attacking[0] = True
    w0 = writes[0]
    b = probe_phase(seconds)
    rate = (writes[0] - w0) / seconds
    alone.append(a); attack.append(b)
    print(f"round {r + 1}: alone p50 {a[0]:.2f} p99 {a[1]:.2f} max {a[2]:.2f} ms ({a[3]} pings) | "
          f"under {addresses}x{per} write flood p50 {b[0]:.2f} p99 {b[1]:.2f} max {b[2]:.2f} ms ({b[3]} pings), {rate:.0f} writes/s", flush=True)
attacking[0] = False
stop[0] = True
ma = statistics.median(x[1] for x in alone); mb = statistics.median(x[1] for x in attack)
print(f"median p99: alone {ma:.2f} ms, under attack {mb:.2f} ms, ratio {mb / ma:.2f}")
proc.terminate(); proc.wait()
