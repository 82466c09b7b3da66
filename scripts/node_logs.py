"""The logs of ghostd nodes a script started (bench-cluster.sh, chaos-cluster.sh):
each node's stderr appended to logs[name], its process in procs[name]."""
import os, sys, time


def helpers(logs, procs, timeout):
    """size(n), text(n, offset) and wait_line(n, offset, needle[, timeout]) over `logs` and `procs`."""
    def size(n):
        return os.path.getsize(logs[n])

    def text(n, offset):
        with open(logs[n], "rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    def wait_line(n, offset, needle, timeout=timeout):
        """Waits until the node's log after `offset` holds `needle`; exits the script if it never does or the node ends."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if needle in text(n, offset):
                return
            if procs[n].poll() is not None:
                break
            time.sleep(0.05)
        sys.exit(f"{n}: no `{needle}` line:\n" + text(n, offset)[-3000:])

    return size, text, wait_line
