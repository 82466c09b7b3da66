#!/usr/bin/env python3
"""Issue #24's abandoned games, measured (a quick script; scripts/bench-*.sh
are the benchmarks). Plays N evil Dutch 10-letter Hangman games that are each
left after one letter (NAME, LANG nl, NEW game=hangman mode=evil length=10,
LETTER q, QUIT), from a few names at once, on a release ghostd with the caps
lifted; prints its RSS before, right after, and once they are unloaded; then
restarts it on the same data folder and prints the time to an open port and
the RSS, beside the same for an empty data folder.
    swift build -c release --product ghostd && scripts/measure-abandoned.py [N] [caps]
With `caps`, the caps on games in progress keep their defaults (10 a name,
100 a network: every game here comes from 127.0.0.1), and the games they
refuse (ERR too-many-games) are counted.
"""
import os, socket, subprocess, sys, tempfile, threading, time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
CAPS = len(sys.argv) > 2 and sys.argv[2] == "caps"
BIN = ".build/release/ghostd"
FLAGS = ([] if CAPS else ["--max-games-per-name", "0", "--max-games-per-network", "0"]) + ["--max-new-names-per-minute", "0",
         "--max-commands-per-second", "0", "--max-clients-per-ip", "0", "--unload-after", "1",
         "--durability", "normal", "--dictionaries", "Dictionaries"]

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024

def start(data, port):
    t0 = time.perf_counter()
    p = subprocess.Popen([BIN, "--port", str(port), "--data", data] + FLAGS, stderr=subprocess.DEVNULL)
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
            assert s.makefile("rb").readline().startswith(b"HELLO ")
            s.close()
            return p, time.perf_counter() - t0
        except OSError:
            if time.perf_counter() - t0 > 60: sys.exit("no port within 60 s")
            time.sleep(0.002)

refused = [0]

def play(port, name, count):
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        f = s.makefile("rwb")
        f.readline()
        f.write(f"NAME {name}\nLANG nl\nNEW game=hangman mode=evil length=10\nLETTER q\nQUIT\n".encode()); f.flush()
        while True:
            line = f.readline()
            if not line or line.startswith(b"BYE"): break
            if line.startswith(b"ERR too-many-games"): refused[0] += 1
        s.close()

data = tempfile.mkdtemp(prefix="ghostd-abandoned-")
port = free_port()
p, empty_open = start(data, port)
time.sleep(1)
base = rss_mb(p.pid)
threads, names = [], 20
t0 = time.perf_counter()
for i in range(names):
    t = threading.Thread(target=play, args=(port, f"aband{i}", N // names)); t.start(); threads.append(t)
for t in threads: t.join()
made = time.perf_counter() - t0
after = rss_mb(p.pid)
time.sleep(3)
unloaded = rss_mb(p.pid)
p.terminate(); p.wait()
reopens = []
for _ in range(3):
    p, t = start(data, port); reopens.append(t)
    time.sleep(0.5)
    restarted = rss_mb(p.pid)
    p.terminate(); p.wait()
reopen = min(reopens)
empty = tempfile.mkdtemp(prefix="ghostd-empty-")
opens = []
for _ in range(3):
    q, t = start(empty, port); opens.append(t); q.terminate(); q.wait()
print(f"{N} abandoned evil nl length-10 games asked for in {made:.1f} s" + (f", {refused[0]} refused (ERR too-many-games)" if CAPS else ""))
print(f"RSS: {base:.0f} MB at start, {after:.0f} MB right after, {unloaded:.0f} MB once unloaded (--unload-after 1)")
print(f"restart on that data folder: port open after {reopen*1000:.0f} ms (best of 3), RSS {restarted:.0f} MB")
print(f"empty data folder: port open after {min(opens)*1000:.0f} ms (best of 3; first start {empty_open*1000:.0f} ms)")
