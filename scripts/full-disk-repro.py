#!/usr/bin/env python3
# Issue #43, finding 2: a full disk must not lose an acknowledged move. As
# root (it mounts a 2 MB tmpfs at /mnt/g2 as --data): alice and bob start a
# game, six players start fair Hangman games, the disk is filled with dd,
# then the six guess 26 letters without reading their replies (MODE=noread;
# MODE=seq reads each reply, MODE=pipe sends all at once). It prints, per
# player, the OKs and ERRs (a glued line is a line cut by a withdrawal), then
# restarts ghostd with room and RESUMEs each game: the last OK must be there.
#   MODE=noread scripts/full-disk-repro.py .build/debug/ghostd
import socket, subprocess, sys, time, os, re
binary = sys.argv[1]
mnt = "/mnt/g2"
subprocess.run(["umount", mnt], stderr=subprocess.DEVNULL)
os.makedirs(mnt, exist_ok=True)
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt], check=True)
port = 7391
log = open("/tmp/full-disk-repro.log", "w")
p = subprocess.Popen([binary, "--port", str(port), "--data", mnt, "--dictionaries", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Dictionaries"), "--max-new-names-per-minute", "0"] + sys.argv[2:], stderr=log)
while True:
    try:
        s = socket.create_connection(("127.0.0.1", port)); s.close(); break
    except OSError: time.sleep(0.05)
class C:
    def __init__(self, name):
        self.s = socket.create_connection(("127.0.0.1", port)); self.f = self.s.makefile("rb"); self.name = name
        self.lines = []
        self.send("NAME " + name)
    def send(self, line): self.s.sendall((line + "\n").encode())
    def read_until(self, pred, timeout=10):
        self.s.settimeout(timeout)
        while True:
            l = self.f.readline().decode(errors="replace").rstrip("\r\n")
            self.lines.append(l)
            if pred(l): return l
alice, bob = C("alice"), C("bob")
alice.send("NEW"); code = alice.read_until(lambda l: l.startswith("OK NEW")).split("code=")[1].split()[0]
bob.send("JOIN " + code); bob.read_until(lambda l: l.startswith("TURN"))
players = [C(f"p{i}") for i in range(6)]
for c in players:
    c.send("NEW game=hangman mode=fair misses=26 length=12"); c.read_until(lambda l: l.startswith("TURN"))
time.sleep(0.5)
subprocess.run(f"dd if=/dev/zero of={mnt}/fill bs=4k 2>/dev/null", shell=True)
alice.read_until(lambda l: l.startswith("TURN"))
alice.send("p")
print("alice:", alice.read_until(lambda l: l.startswith("OK") or l.startswith("ERR")))
import threading
mode = os.environ.get("MODE", "seq")
if mode == "noread":
    for letter in "zqxjkvwyfbgpmhucdilnorstae":
        for c in players:
            c.send(letter)
        time.sleep(0.05)
elif mode == "pipe":
    for c in players:
        c.s.sendall("".join(l + "\n" for l in "zqxjkvwyfbgpmhucdilnorstae").encode())
else:
    for letter in "zqxjkvwyfbgpmhucdilnorstae":
        for c in players:
            c.send(letter)
        for c in players:
            c.read_until(lambda l: l.startswith("OK") or "ERR" in l)
time.sleep(1)
bad = 0
for c in players:
    c.s.settimeout(0.5)
    try:
        while True:
            l = c.f.readline().decode(errors="replace").rstrip("\r\n")
            if not l: break
            c.lines.append(l)
    except Exception: pass
    oks = [l for l in c.lines if l.startswith("OK LETTER")]
    errs = [l for l in c.lines if "ERR store-failed" in l]
    glued = [l for l in c.lines if "ERR" in l and not l.startswith("ERR")]
    print(c.name, "OK LETTER:", len(oks), "ERR store-failed:", len(errs), "glued:", len(glued), glued[:1])
    seq = [("OK" if l.startswith("OK LETTER") else "E") for l in c.lines if l.startswith("OK LETTER") or "ERR" in l]
    print("   ", "".join(x[0] for x in seq))
# now check what is stored: free the space, resume
os.remove(f"{mnt}/fill")
p.terminate(); p.wait()
p = subprocess.Popen([binary, "--port", str(port), "--data", mnt, "--dictionaries", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Dictionaries")], stderr=log)
time.sleep(1.5)
for c in players:
    tok = [l for l in c.lines if l.startswith("GAME ")][0].split("token=")[1].split()[0]
    oks = [l for l in c.lines if l.startswith("OK LETTER")]
    r = socket.create_connection(("127.0.0.1", port)); f = r.makefile("rb")
    r.sendall(f"RESUME {tok}\n".encode()); r.settimeout(3)
    got = []
    try:
        while True:
            l = f.readline().decode().rstrip("\r\n"); got.append(l)
            if l.startswith("TURN") or l.startswith("OVER"): break
    except Exception: pass
    turn = [l for l in got if l.startswith("TURN")]
    missed = turn[0].split("missed=")[1].split()[0] if turn and "missed=" in turn[0] else "?"
    lastok = oks[-1] if oks else ""
    print(c.name, "last OK:", lastok[:90], "| resumed:", turn[:1])
p.terminate(); p.wait()
subprocess.run(["umount", mnt])
