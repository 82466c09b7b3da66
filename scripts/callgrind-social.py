#!/usr/bin/env python3
"""Instructions per command between people (issue #47), counted by callgrind
in a release ghostd, whatever the machine's load:

    scripts/callgrind-social.py GHOSTD GHOST-BENCH [--fans N] [--n N]

Builds a data folder with `ghost-bench fixture --social 10000 --stars 1`
(s0 followed by s1 … s9999, all with the password bench-password-47), starts
ghostd under callgrind (--max-commands-per-second 0, no hash limit), logs N
fans (s1 …, 400) in, and counts, each segment zeroed and dumped on its own:
  say           SAY between the two players of a game (the opponent gets SAID)
  say-repeat    the same text each time (charged 10x, the same work)
  say-format    text full of format characters (cleaned)
  invite-leave  INVITE <victim>, then LEAVE (the victim gets INVITE and WITHDRAWN)
  follow        FOLLOW s<k> by s0, new names until 400, then ERR too-many-follows
  following     FOLLOWING of s0, 400 names followed
  login-logout  s0 logs in and QUITs, the fans online hearing ONLINE and OFFLINE
                (--presence-interval 0)
Prints instructions per command (ghostd's whole process: loop, hashing and
I/O threads). KEEP=1 keeps the folder and the dumps.
"""
import os, select, socket, subprocess, sys, tempfile, threading, time, re
sys.path.insert(0, os.path.dirname(__file__))
import callgrind_daemon as cd

PASSWORD = "bench-password-47"

def main():
    args = sys.argv[1:]
    if len(args) < 2 or "-h" in args:
        print(__doc__)
        return
    ghostd, bench = args[0], args[1]
    fans = int(args[args.index("--fans") + 1]) if "--fans" in args else 400
    n = int(args[args.index("--n") + 1]) if "--n" in args else 200
    data = tempfile.mkdtemp(prefix="cg-social-")
    subprocess.run([bench, "fixture", "--data", data, "--names", "2000", "--games", "2000", "--social", "10000", "--stars", "1"],
                   check=True, capture_output=True)
    out = os.path.join(data, "callgrind.out")
    stripped = os.path.join(data, "ghostd")
    subprocess.run(["strip", "--strip-debug", "-o", stripped, ghostd], check=True)
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                          stripped, "--port", "0", "--web-port", "any", "--data", data, "--dictionaries", "Dictionaries", "--bot-delay", "0",
                          "--max-commands-per-second", "0", "--max-hashes-per-minute-per-ip", "0", "--presence-interval", "0",
                          "--max-new-names-per-minute", "0", "--max-clients-per-ip", "0", "--max-unnamed-per-ip", "0", "--connects-per-second-per-ip", "0"],
                         stderr=subprocess.PIPE, text=True)
    port = None
    for line in p.stderr:
        m = re.search(r" listening on \S*:(\d+) ", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        raise SystemExit("ghostd did not start")
    threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()

    # The fans: logged in, their lines read by a thread (so none is dropped).
    socks, heard = [], {"ONLINE": 0, "OFFLINE": 0}
    for i in range(fans):
        # One at a time: hundreds at once fill the hashing threads' queue (ERR server-busy).
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(f"NAME s{i + 1} {PASSWORD}\r\n".encode())
        got = b""
        while b"OK NAME" not in got:
            try:
                chunk = s.recv(4096)
            except OSError as e:
                raise SystemExit(f"fan s{i + 1}: {e} after {got!r}")
            if not chunk or b"ERR" in chunk:
                raise SystemExit(f"fan s{i + 1}: {(got + chunk).decode(errors='replace')}")
            got += chunk
        socks.append(s)
    stop = False
    def drain():
        while not stop:
            r, _, _ = select.select(socks, [], [], 0.2)
            for s in r:
                data_ = s.recv(65536)
                text = data_.decode(errors="replace")
                heard["ONLINE"] += text.count("\nONLINE ") + text.startswith("ONLINE ")
                heard["OFFLINE"] += text.count("\nOFFLINE ") + text.startswith("OFFLINE ")
    th = threading.Thread(target=drain, daemon=True)
    th.start()

    def client(name, password=None):
        c = cd.Client.__new__(cd.Client)
        c.s = socket.create_connection(("127.0.0.1", port))
        c.f = c.s.makefile("r")
        c.until("HELLO")
        c.cmd(f"NAME {name}" + (f" {password}" if password else ""), "OK NAME")
        return c

    dumps = [0]
    def segment(label, count, body):
        subprocess.run(["callgrind_control", "-z", str(p.pid)], check=True, capture_output=True)
        body()
        subprocess.run(["callgrind_control", "--dump=" + label, str(p.pid)], check=True, capture_output=True)
        dumps[0] += 1
        time.sleep(0.5)
        files = sorted((f for f in os.listdir(data) if f.startswith("callgrind.out")), key=lambda f: os.path.getmtime(os.path.join(data, f)))
        total = 0
        with open(os.path.join(data, files[-1])) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    total = max(total, int(line.split()[1]))
        print(f"{label:14} {total / count:12,.0f} instructions a command ({count} commands, {total:,} in all)", flush=True)

    cd.instrument(p)
    time.sleep(1)
    a, b = client("chatA"), client("chatB")
    code = a.cmd("NEW", "OK NEW").split("code=")[1].split()[0]
    b.cmd(f"JOIN {code}", "OK JOIN")
    a.until("TURN"); b.until("TURN")
    def says(text_of):
        def body():
            for i in range(n):
                a.cmd("SAY " + text_of(i), "OK SAY")
                b.until("SAID")
        return body
    says(lambda i: f"hello {i}")()                     # warm-up
    segment("say", n, says(lambda i: f"hello there number {i}"))
    segment("say-repeat", n, says(lambda i: "the same words again"))
    segment("say-format", n, says(lambda i: f"\u202edesrever\u202c zero\u200bwidth {i} \u2066iso\u2069 \ufeff"))

    victim = client("victim")
    inviter = client("inviter")
    def invites():
        for i in range(n):
            inviter.cmd("INVITE victim", "OK INVITE")
            victim.until("INVITE from=")
            inviter.cmd("LEAVE", "OK LEAVE")
            victim.until("WITHDRAWN")
    invites()
    segment("invite-leave", n, invites)

    star = client("s0", PASSWORD)
    k = [1]
    def follows():
        for i in range(n):
            star.s.sendall(f"FOLLOW s{k[0]}\r\n".encode())
            k[0] += 1
            while True:
                line = star.f.readline()
                if line.startswith("OK FOLLOW") or line.startswith("ERR"):
                    break
    segment("follow", n, follows)
    follows(); follows()   # past 400
    segment("follow-over", n, follows)
    segment("following", n // 4, lambda: [star.cmd("FOLLOWING", "OK FOLLOWING") for _ in range(n // 4)])
    star.s.sendall(b"QUIT\r\n"); star.s.close()
    def logins():
        for i in range(n // 10):
            s = client("s0", PASSWORD)
            s.s.sendall(b"QUIT\r\n")
            s.f.readline()
            s.s.close()
            time.sleep(0.05)
    logins()
    before = dict(heard)
    segment("login-logout", n // 10, logins)
    time.sleep(1)
    print(f"fans heard ONLINE {heard['ONLINE'] - before['ONLINE']}, OFFLINE {heard['OFFLINE'] - before['OFFLINE']} "
          f"in the login-logout segment ({fans} fans)")
    stop = True
    p.terminate()
    p.wait()
    if os.environ.get("KEEP"):
        print("kept", data)
    else:
        subprocess.run(["rm", "-rf", data])

main()
