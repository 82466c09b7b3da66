# Made Tests/GhostStoreTests/Fixtures/schema2.sqlite3 with ghostd 0.3.0 (schema 2), commit 5d7602b:
# five games (finished, a match in round 2 with an offer, adjourned, vs the hard computer in Dutch, a left match vs easy).
# Then: sqlite3 data/ghostd.sqlite3 "PRAGMA wal_checkpoint(TRUNCATE)". Kept for the record; it needs that release.
import socket, subprocess, time, sys, os, re
data = "/tmp/fx/data"
os.system(f"rm -rf {data}")
p = subprocess.Popen(["/work/main/.build/debug/ghostd", "--port", "0", "--data", data, "--bot-delay", "0",
                      "--dictionaries", "/work/main/Dictionaries"], stderr=subprocess.PIPE, text=True)
port = None
for line in p.stderr:
    m = re.search(r"listening on [^ ]*:(\d+)", line)
    if m: port = int(m.group(1)); break
class C:
    def __init__(s, name):
        s.s = socket.create_connection(("127.0.0.1", port)); s.f = s.s.makefile("r"); s.lines = []
        s.read_until("HELLO"); s.cmd(f"NAME {name}", "OK NAME")
    def read_until(s, prefix):
        while True:
            l = s.f.readline().strip()
            s.lines.append(l)
            if l.startswith(prefix) or l.startswith("ERR"): return l
    def cmd(s, line, expect):
        s.s.sendall((line + "\n").encode()); r = s.read_until(expect)
        print(line, "->", r); return r
a, b, c, d = C("alice"), C("Bob"), C("carol"), C("dave")
# 1. a finished single game: alice vs Bob, Bob makes a word
code = re.search(r"code=(\w+)", a.cmd("NEW", "OK NEW")).group(1)
b.cmd(f"JOIN {code}", "OK JOIN")
for who, l in [(a,"q"),(b,"x")]:
    r = who.cmd(l, "OK LETTER")
a.read_until("OVER"); b.read_until("OVER")
# 2. a match in progress: carol vs dave, round 1 lost by dave (ghost=-,G), round 2 with letters and a pending offer
code = re.search(r"code=(\w+)", c.cmd("NEW rounds=ghost", "OK NEW")).group(1)
d.cmd(f"JOIN {code}", "OK JOIN")
for who, l in [(c,"q"),(d,"x")]: who.cmd(l, "OK LETTER")
# round 2: dave starts
d.cmd("q", "OK LETTER"); c.cmd("u", "OK LETTER")
d.cmd("RESTART", "OK RESTART")
# 3. alice vs Bob again, game in progress with letters (adjourned on exit)
code = re.search(r"code=(\w+)", a.cmd("NEW", "OK NEW")).group(1)
b.cmd(f"JOIN {code}", "OK JOIN")
a.cmd("c", "OK LETTER"); b.cmd("a", "OK LETTER")
tokens = re.findall(r"token=(\w+)", " ".join(a.lines + b.lines + c.lines + d.lines))
# 4. eve vs the hard computer, in Dutch, computer first, one letter each
e = C("eve"); e.cmd("LANG nl", "OK LANG"); e.cmd("NEW bot=hard first=bot", "OK NEW")
e.read_until("TURN id"); 
l = e.read_until("TURN id")
print(e.lines)
frag = re.search(r"fragment=(\w*)", [x for x in e.lines if x.startswith("TURN")][-1]).group(1)
# 5. frank: finished game against easy computer (leave)
f = C("frank"); f.cmd("NEW bot=easy rounds=ghost", "OK NEW"); f.cmd("x", "OK LETTER"); f.cmd("LEAVE", "OK LEAVE")
for x in (a,b,c,d,e,f): x.s.close()
time.sleep(0.5)
p.terminate(); p.wait()
