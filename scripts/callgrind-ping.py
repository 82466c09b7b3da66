#!/usr/bin/env python3
"""User-space instructions per PING, ghostd against redis-server, counted by
callgrind (repeatable on a noisy machine, where PING/s per round is not).

    scripts/callgrind-ping.py [PINGS]     (default 20,000)

Starts each server under valgrind --tool=callgrind with instrumentation off,
sends one PING, turns counting on, sends PINGS more one at a time (each waits
for its reply), turns counting off and divides. Builds ghostd (release) first.
Kernel work (the socket calls themselves) is not counted: it is the same for
both servers.
"""
import os, socket, subprocess, sys, tempfile, time

def count(cmd, port, hello, pings):
    work = tempfile.mkdtemp(prefix="cg-ping-")
    out = os.path.join(work, "callgrind.out")
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"] + cmd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(1200):
        try:
            s = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            time.sleep(0.1)
    else:
        raise SystemExit(f"{cmd[0]} did not start")
    f = s.makefile("rb")
    if hello:
        f.readline()
    s.sendall(b"PING\r\n"); f.readline()
    subprocess.run(["callgrind_control", "--instr=on", str(p.pid)], check=True, capture_output=True)
    for _ in range(pings):
        s.sendall(b"PING\r\n"); f.readline()
    subprocess.run(["callgrind_control", "--instr=off", str(p.pid)], check=True, capture_output=True)
    p.terminate(); p.wait()
    total = 0
    for name in os.listdir(work):
        if name.startswith("callgrind.out"):
            for line in open(os.path.join(work, name)):
                if line.startswith(("summary:", "totals:")):
                    total = max(total, int(line.split()[1]))
    subprocess.run(["rm", "-rf", work])
    return total / pings

def port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); n = s.getsockname()[1]; s.close(); return n

def main():
    pings = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    subprocess.run(["swift", "build", "-c", "release", "--product", "ghostd"], cwd=root, check=True, capture_output=True)
    data = tempfile.mkdtemp(prefix="cg-ping-data-")
    # Valgrind 3.19 cannot read the Swift toolchain's DWARF 5: count a stripped copy.
    ghostd = os.path.join(data, "ghostd")
    subprocess.run(["strip", "--strip-debug", "-o", ghostd, os.path.join(root, ".build/release/ghostd")], check=True)
    r = count(["redis-server", "--port", str(rp := port()), "--save", "", "--appendonly", "no"], rp, False, pings)
    g = count([ghostd, "--port", str(gp := port()), "--data", data, "--dictionaries", os.path.join(root, "Dictionaries"),
               "--max-commands-per-second", "0"], gp, True, pings)
    subprocess.run(["rm", "-rf", data])
    print(f"instructions per PING ({pings:,} in lock step): redis-server {r:,.0f}, ghostd {g:,.0f}, ghostd/redis {g / r:.2f}")

if __name__ == "__main__":
    main()
