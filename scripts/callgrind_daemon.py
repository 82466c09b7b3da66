"""A ghostd under callgrind, shared by callgrind-letters.py and
callgrind-guesses.py: started with instrumentation off, turned on by the
caller once its uncounted warm-up is done, stopped, and its count read.

    p, port = start(GHOSTD, data, dicts, durability)   # listening; log drained
    ...                                                  # warm-up, uncounted
    instrument(p)                                        # counting from here
    ...                                                  # the counted workload
    total, split = finish(p, data, split=True)           # KEEP=1 keeps data/

CALLGRIND_ARGS adds valgrind options (CALLGRIND_ARGS=--dump-instr=yes: counts
by instruction address, to read against objdump -d of the binary).
"""
import os, re, socket, subprocess, threading

def start(ghostd, data, dicts, durability="normal"):
    """ghostd on an ephemeral port with its data in `data`: (process, port)."""
    out = os.path.join(data, "callgrind.out")
    # Valgrind 3.19 cannot read the Swift toolchain's DWARF 5: count a stripped copy.
    stripped = os.path.join(data, "ghostd")
    subprocess.run(["strip", "--strip-debug", "-o", stripped, ghostd], check=True)
    # The benchmarks' players are new names from one address: lift that limit
    # where the build has it (0.3.0 does not).
    helptext = subprocess.run([ghostd, "--help"], capture_output=True, text=True).stdout
    unlimited = ["--max-new-names-per-minute", "0"] if "--max-new-names-per-minute" in helptext else []
    extra = os.environ.get("CALLGRIND_ARGS", "").split()
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"] + extra + [
                          stripped, "--port", "0", "--data", data, "--dictionaries", dicts, "--bot-delay", "0",
                          "--max-commands-per-second", "0", "--durability", durability] + unlimited,
                         stderr=subprocess.PIPE, text=True)
    port = None
    for line in p.stderr:
        m = re.search(r" listening on \S*:(\d+) ", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        raise SystemExit(f"{ghostd} did not start")
    # Keep reading its log, so a full pipe never blocks the daemon.
    threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
    return p, port

def instrument(p):
    """Counting starts now."""
    subprocess.run(["callgrind_control", "--instr=on", str(p.pid)], check=True, capture_output=True)

def finish(p, data, split=False):
    """Stops the daemon: (instructions counted, by library or None). Removes
    `data` unless KEEP is set (then prints where callgrind.out is)."""
    p.terminate()
    p.wait()
    total = 0
    outs = [os.path.join(data, n) for n in os.listdir(data) if n.startswith("callgrind.out")]
    if not outs:
        raise SystemExit(f"no callgrind output in {data}: {os.listdir(data)}")
    with open(outs[0]) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                total = max(total, int(line.split()[1]))
    sums = by_library(outs[0]) if split else None
    if os.environ.get("KEEP"):
        print(f"kept {outs[0]}")
    else:
        subprocess.run(["rm", "-rf", data])
    return total, sums

def by_library(path):
    """Exclusive instructions summed by the object each function is in."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", path], capture_output=True, text=True).stdout
    sums = {"SQLite": 0, "Swift runtime": 0, "libc": 0, "ghostd": 0, "other": 0}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)$", line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        n = int(m.group(1).replace(",", ""))
        where = m.group(2)
        if "libsqlite3" in where: sums["SQLite"] += n
        elif "/libswift" in where or "/libFoundation" in where or "/libdispatch" in where: sums["Swift runtime"] += n
        elif "libc.so" in where or "ld-linux" in where or "libm.so" in where: sums["libc"] += n
        elif where.endswith("/ghostd]"): sums["ghostd"] += n
        else: sums["other"] += n
    return sums

class Client:
    """A named player in lock step: `until` reads lines up to one that starts
    with the prefix (a string or a tuple of them); an ERR or a closed
    connection ends the run."""
    def __init__(self, port, name):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.f = self.s.makefile("r")
        self.until("HELLO")
        self.cmd(f"NAME {name}", "OK NAME")
    def until(self, prefix):
        while True:
            line = self.f.readline()
            if not line:
                raise SystemExit("connection closed")
            if line.startswith(prefix):
                return line
            if line.startswith("ERR"):
                raise SystemExit(line)
    def cmd(self, line, expect):
        self.s.sendall((line + "\n").encode())
        return self.until(expect)

def options(argv, doc, games):
    """The options both scripts take: (the rest of argv, --games N,
    --durability, --split). -h or --help, or no daemon named: the usage."""
    args = list(argv)
    if not args or "-h" in args or "--help" in args:
        print(doc)
        raise SystemExit(0)
    if "--games" in args:
        i = args.index("--games")
        games = int(args[i + 1])
        del args[i:i + 2]
    durability = "normal"
    if "--durability" in args:
        i = args.index("--durability")
        durability = args[i + 1]
        del args[i:i + 2]
    split = "--split" in args
    if split:
        args.remove("--split")
    return args, games, durability, split
