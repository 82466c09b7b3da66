#!/usr/bin/env python3
"""User-space instructions per PING, ghostd against redis-server, counted by
callgrind (repeatable on a noisy machine, where PING/s per round is not).

    scripts/callgrind-ping.py [PINGS] [--connections N]
    scripts/callgrind-ping.py [PINGS] --websocket

With --websocket (issue #46), ghostd alone, twice in the same run: PINGs
over plain TCP, then over a WebSocket to its web port (`/ws`, one text
message a line; a minimal client here: the upgrade, masked frames out,
unmasked frames in), both with the default --io-threads and one connection
in lock step; the ratio is what the web port's framing costs a PING.

Starts each server under valgrind --tool=callgrind (--separate-threads=yes)
with instrumentation off, sends one PING on each connection, waits until the
server has settled (its CPU time stops growing: ghostd builds Hangman's tables
on a background thread after it opens its port, and on a loaded machine that
went on into the counted window, 23,000 instructions a PING that were no
PING's), turns counting on, sends PINGS more, turns counting off and divides.
ghostd runs twice: with --io-threads 1 and with its default (2), so that the
hand-off to the I/O threads shows. Each line gives the loop thread (the
thread serving the lines; redis-server's main thread) and all threads.

With one connection (the default) each PING waits for its reply (lock step):
every PING is one loop turn with one event, which wakes no I/O thread (fewer
than IOThreads.minimumJobs). With --connections N (N >= 4) each round sends
one PING on every connection, then reads every reply: a turn may see several
connections at once, so the I/O threads take part (how many a turn sees
depends on scheduling, so this count varies a little from run to run).
KEEP=1 keeps each run's callgrind.out (its folder is printed), to read with
callgrind_annotate. Builds ghostd (release) first. Kernel work (the socket calls themselves) is
not counted: it is about the same for both servers.
"""
import base64, os, socket, struct, subprocess, sys, tempfile, time

def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])

def settle(pid, quiet=1.0, limit=300):
    """Waits until the process has used no CPU for `quiet` seconds."""
    end = time.time() + limit
    last = cpu_ticks(pid)
    still = time.time()
    while time.time() < end:
        time.sleep(0.2)
        now = cpu_ticks(pid)
        if now != last:
            last, still = now, time.time()
        elif time.time() - still >= quiet:
            return
    raise SystemExit("the server did not settle")

class WebSocketLines:
    """A socket speaking the line protocol over a WebSocket: sendall() of
    CRLF-ended lines (each becomes a masked text frame), readline() of the
    server's text frames (each a line)."""
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise SystemExit("the web port closed during the upgrade")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0] + b" ":
            raise SystemExit(f"upgrade refused: {head[:100]!r}")

    def sendall(self, data):
        out = b""
        for line in data.split(b"\n")[:-1]:
            payload = line.rstrip(b"\r")
            mask = os.urandom(4)
            out += bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(out)

    def _need(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit("the web port closed")
            self.buf += chunk

    def readline(self):
        while True:
            self._need(2)
            opcode, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
            at = 2
            if n == 126:
                self._need(4); n = struct.unpack(">H", self.buf[2:4])[0]; at = 4
            elif n == 127:
                self._need(10); n = struct.unpack(">Q", self.buf[2:10])[0]; at = 10
            self._need(at + n)
            payload, self.buf = self.buf[at:at + n], self.buf[at + n:]
            if opcode == 1:
                return payload + b"\r\n"

def count(cmd, port, hello, pings, connections, web_port=None):
    work = tempfile.mkdtemp(prefix="cg-ping-")
    out = os.path.join(work, "callgrind.out")
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
                          f"--callgrind-out-file={out}"] + cmd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    socks = []
    for _ in range(1200):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port)))
            break
        except OSError:
            time.sleep(0.1)
    else:
        raise SystemExit(f"{cmd[0]} did not start")
    if web_port:
        # The plain port answered, so the web port is open too: count over it.
        socks[0].close()
        socks = [WebSocketLines(web_port)]
    while len(socks) < connections:
        socks.append(socket.create_connection(("127.0.0.1", port)))
    files = [s if web_port else s.makefile("rb") for s in socks]
    for s, f in zip(socks, files):
        if hello:
            f.readline()
        s.sendall(b"PING\r\n"); f.readline()
    settle(p.pid)
    subprocess.run(["callgrind_control", "--instr=on", str(p.pid)], check=True, capture_output=True)
    rounds = pings // connections
    for _ in range(rounds):
        for s in socks:
            s.sendall(b"PING\r\n")
        for f in files:
            f.readline()
    subprocess.run(["callgrind_control", "--instr=off", str(p.pid)], check=True, capture_output=True)
    p.terminate(); p.wait()
    threads = {}
    for name in os.listdir(work):
        if name.startswith("callgrind.out"):
            thread = int(name.rsplit("-", 1)[1]) if "-" in name else 1
            for line in open(os.path.join(work, name)):
                if line.startswith(("summary:", "totals:")):
                    threads[thread] = max(threads.get(thread, 0), int(line.split()[1]))
    if os.environ.get("KEEP"):
        print(f"kept {work}")
    else:
        subprocess.run(["rm", "-rf", work])
    sent = rounds * connections
    return threads.get(1, 0) / sent, sum(threads.values()) / sent

def port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); n = s.getsockname()[1]; s.close(); return n

def main():
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__)
        return
    connections = 1
    if "--connections" in args:
        i = args.index("--connections")
        connections = int(args[i + 1])
        del args[i:i + 2]
    websocket = "--websocket" in args
    if websocket:
        args.remove("--websocket")
    pings = int(args[0]) if args else 20000
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    subprocess.run(["swift", "build", "-c", "release", "--product", "ghostd"], cwd=root, check=True, capture_output=True)
    data = tempfile.mkdtemp(prefix="cg-ping-data-")
    # Valgrind 3.19 cannot read the Swift toolchain's DWARF 5: count a stripped copy.
    ghostd = os.path.join(data, "ghostd")
    subprocess.run(["strip", "--strip-debug", "-o", ghostd, os.path.join(root, ".build/release/ghostd")], check=True)
    if websocket:
        print(f"ghostd instructions per PING ({pings:,} in lock step on one connection; loop thread / all threads):")
        counted = {}
        for label in ["TCP", "WebSocket"]:
            d = os.path.join(data, label)
            os.mkdir(d)
            gp, wp = port(), port()
            counted[label] = count([ghostd, "--port", str(gp), "--web-port", str(wp), "--data", d,
                                    "--dictionaries", os.path.join(root, "Dictionaries"), "--max-commands-per-second", "0"],
                                   gp, True, pings, 1, web_port=wp if label == "WebSocket" else None)
            print(f"  {label:10} {counted[label][0]:7,.0f} / {counted[label][1]:7,.0f}")
        t, w = counted["TCP"], counted["WebSocket"]
        print(f"  WebSocket / TCP {w[0] / t[0]:.2f} / {w[1] / t[1]:.2f}")
        subprocess.run(["rm", "-rf", data])
        return
    r = count(["redis-server", "--port", str(rp := port()), "--save", "", "--appendonly", "no"], rp, False, pings, connections)
    mode = "in lock step" if connections == 1 else f"on {connections} connections, one in flight each"
    print(f"instructions per PING ({pings:,} {mode}; loop thread / all threads):")
    print(f"  redis-server           {r[0]:7,.0f} / {r[1]:7,.0f}")
    for label, extra in [("--io-threads 1", ["--io-threads", "1"]), ("default (2)", [])]:
        d = os.path.join(data, label.split()[0].strip("-"))
        os.mkdir(d)
        g = count([ghostd, "--port", str(gp := port()), "--data", d, "--dictionaries", os.path.join(root, "Dictionaries"),
                   "--max-commands-per-second", "0"] + extra, gp, True, pings, connections)
        print(f"  ghostd {label:15} {g[0]:7,.0f} / {g[1]:7,.0f}   ghostd/redis {g[0] / r[0]:.2f} / {g[1] / r[1]:.2f}")
    subprocess.run(["rm", "-rf", data])

if __name__ == "__main__":
    main()
