"""Shared by the bench scripts (imported, not run): starts a ghostd and
times exec to its first HELLO line."""
import socket, subprocess, sys, time


def start_until_hello(argv, port, limit):
    """Starts `argv` (a ghostd listening on 127.0.0.1:`port`) and connects
    until it answers; returns the process, the connected socket (HELLO read)
    and the seconds from exec to HELLO. Exits if that takes over `limit` s."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stderr=subprocess.DEVNULL)
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
            hello = s.makefile("rb").readline()
            break
        except OSError:
            if time.perf_counter() - t0 > limit:
                sys.exit(f"ghostd did not open its port within {limit} s")
            time.sleep(0.002)
    took = time.perf_counter() - t0
    assert hello.startswith(b"HELLO "), hello
    return p, s, took


def bench_args(argv):
    """A bench's command line: its positional arguments, and ghostd's own
    options after `--` (passed on to `start_fresh`)."""
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    return argv, []


def start_fresh(binary, prefix="ghostd-bench-", extra=()):
    """Starts `binary` with its default limits on a free port, a fresh data
    folder and this tree's Dictionaries, and waits for its HELLO; returns the
    process and the port."""
    import os, tempfile
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    data = tempfile.mkdtemp(prefix=prefix)
    dicts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Dictionaries")
    p, hello, _ = start_until_hello([binary, "--port", str(port), "--data", data, "--dictionaries", dicts, *extra], port, 60)
    hello.close()
    return p, port


class Probe:
    """A probe connection from `source` that PINGs every 25 ms and times each
    `OK PING` (the attack benches' measure)."""

    def __init__(self, port, source):
        self.sock = socket.socket()
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        self.file = self.sock.makefile("rb")
        assert self.file.readline().startswith(b"HELLO")

    def phase(self, secs):
        """PINGs for `secs` s; returns p50, p99 and max in ms, and the count."""
        rtts = []
        end = time.monotonic() + secs
        while time.monotonic() < end:
            t0 = time.monotonic()
            self.sock.sendall(b"PING\n")
            line = self.file.readline()
            assert line.startswith(b"OK PING"), line
            rtts.append((time.monotonic() - t0) * 1000)
            time.sleep(max(0, 0.025 - (time.monotonic() - t0)))
        rtts.sort()
        return rtts[len(rtts) // 2], rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))], rtts[-1], len(rtts)
