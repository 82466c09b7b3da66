#!/usr/bin/env python3
"""An independent WebSocket client against a running ghostd's web port
(issue #46): the framing edge cases of RFC 6455 as Protocol.md section 1
(the WebSocket bullet) and section 7 ("The web port") describe them, each
with an exact expectation.

Normal cases go through the `websockets` library (PyPI, its sync client);
what it will not send (unmasked frames, reserved bits, invalid UTF-8, bad
close codes, a 2^63-1 length, a frame byte by byte) goes over a raw socket.

    websocket-framing.py PORT [--hello LINE] [--known-issue NAME ...]
    websocket-framing.py --tls PORT --cafile CERT --expect-cn CN [--untrusted-cafile OLD]

Prints one line per check, `ok NAME: detail` or `FAIL NAME: detail` (a
failure of a check named by --known-issue prints `KNOWN NAME: detail` and
does not fail the run), then `summary: ...`; exits 1 if any check failed,
2 if the `websockets` library is missing.

Tests/GhostServerTests/EndToEndWebFramingTests.swift runs it against a
fresh daemon; by hand:

    ghostd --web-port any --connects-per-second-per-ip 0 &
    python3 scripts/websocket-framing.py PORT
"""

import argparse
import base64
import hashlib
import http.client
import logging
import os
import select
import socket
import ssl
import struct
import sys
import time

try:
    import websockets
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect as ws_connect
except ImportError as error:  # CI installs it: pip install websockets
    print(f"FAIL import: the Python module websockets is missing ({error}); pip install websockets")
    sys.exit(2)

TIMEOUT = 10.0
# Opening a connection (the TLS handshake on the daemon's threads, the
# upgrade) only bounds a failure: generous, as a loaded machine may be slow.
OPEN_TIMEOUT = 60.0
# The library's own log (a traceback when the server's end of the stream
# races its close handshake) is not a check's result: each check says what it saw.
logging.getLogger("websockets").addHandler(logging.NullHandler())
logging.getLogger("websockets").propagate = False
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Failure(Exception):
    pass


def expect(condition, detail):
    if not condition:
        raise Failure(detail)


# MARK: A raw client


class Frame:
    def __init__(self, fin, rsv, opcode, masked, payload):
        self.fin, self.rsv, self.opcode, self.masked, self.payload = fin, rsv, opcode, masked, payload

    @property
    def close_code(self):
        return struct.unpack("!H", self.payload[:2])[0] if self.opcode == 8 and len(self.payload) >= 2 else None

    @property
    def close_reason(self):
        return self.payload[2:].decode("utf-8", "replace") if self.opcode == 8 else None

    def __repr__(self):
        if self.opcode == 8:
            return f"close({self.close_code}, {self.close_reason!r})"
        names = {0: "continuation", 1: "text", 2: "binary", 9: "ping", 10: "pong"}
        return (f"{names.get(self.opcode, self.opcode)}(fin={int(self.fin)} rsv={self.rsv} "
                f"masked={int(self.masked)} {self.payload[:60]!r})")


def frame(opcode, payload, fin=True, masked=True, rsv=0, length=None, mask=None):
    """A client's frame: masked unless told; `length` overrides the header's length."""
    payload = payload.encode() if isinstance(payload, str) else bytes(payload)
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([bit | n])
    elif n <= 0xFFFF:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    key = mask if mask is not None else os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def close_payload(code, reason=b""):
    return struct.pack("!H", code) + reason


def upgrade_request(host, origin=None, version="13", key=None, path="/ws"):
    key = key or base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", f"Sec-WebSocket-Version: {version}"]
    if origin:
        lines.append(f"Origin: {origin}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode(), key


class Raw:
    """A socket speaking WebSocket by hand."""

    def __init__(self, port, context=None, nodelay=True):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        if nodelay:
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if context is not None:
            self.sock = context.wrap_socket(self.sock, server_hostname="127.0.0.1")
        self.buffer = b""

    @classmethod
    def open(cls, port, origin=None, first=b"", hello=True):
        """Upgraded (the 101 checked), `first` sent with the request, HELLO read unless told."""
        c = cls(port)
        request, key = upgrade_request(f"127.0.0.1:{port}", origin)
        c.send(request + first)
        head = c.read_head()
        expect(head.startswith("HTTP/1.1 101 "), f"the upgrade got {head.splitlines()[0] if head else 'nothing'}")
        accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
        expect(f"\r\nSec-WebSocket-Accept: {accept}\r\n".lower() in head.lower() + "\r\n",
               f"Sec-WebSocket-Accept is not {accept}: {head!r}")
        if hello:
            c.hello = c.read_text()
            expect(c.hello.startswith("HELLO "), f"the first message is {c.hello!r}")
        return c

    def send(self, data):
        self.sock.sendall(data)

    def fill(self, timeout=TIMEOUT):
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise Failure(f"nothing came within {timeout} s")
        except ConnectionResetError:
            data = b""
        if not data:
            raise EOFError
        self.buffer += data

    def read_head(self):
        while b"\r\n\r\n" not in self.buffer:
            try:
                self.fill()
            except EOFError:
                break
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        return head.decode("latin-1")

    def read_to_end(self):
        while True:
            try:
                self.fill()
            except EOFError:
                rest, self.buffer = self.buffer, b""
                return rest

    def read_frame(self, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            parsed = self.parse()
            if parsed is not None:
                return parsed
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"no whole frame within {timeout} s (held {self.buffer[:40]!r})")
            try:
                self.fill(left)
            except EOFError:
                raise Failure(f"the connection ended before a whole frame (held {self.buffer[:40]!r})")

    def parse(self):
        """A whole frame at the start of the buffer, taken out of it; or None."""
        if len(self.buffer) < 2:
            return None
        b0, b1 = self.buffer[0], self.buffer[1]
        masked = bool(b1 & 0x80)
        n, at = b1 & 0x7F, 2
        if n == 126:
            if len(self.buffer) < 4:
                return None
            n, at = struct.unpack("!H", self.buffer[2:4])[0], 4
        elif n == 127:
            if len(self.buffer) < 10:
                return None
            n, at = struct.unpack("!Q", self.buffer[2:10])[0], 10
        if masked:
            at += 4
        if len(self.buffer) < at + n:
            return None
        payload = self.buffer[at:at + n]
        if masked:
            key = self.buffer[at - 4:at]
            payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        self.buffer = self.buffer[at + n:]
        return Frame(bool(b0 & 0x80), (b0 >> 4) & 7, b0 & 0x0F, masked, payload)

    def read_text(self):
        f = self.read_frame()
        expect(f.opcode == 1 and f.fin and f.rsv == 0 and not f.masked,
               f"expected one unmasked final text frame, got {f!r}")
        return f.payload.decode("utf-8")

    def read_close(self):
        """The server's close frame, the texts before it skipped; (code, reason, texts)."""
        texts = []
        while True:
            f = self.read_frame()
            if f.opcode == 1:
                texts.append(f.payload.decode("utf-8", "replace"))
                continue
            expect(f.opcode == 8, f"expected a close frame, got {f!r}")
            return f.close_code, f.close_reason, texts

    def ends(self, timeout=TIMEOUT):
        """True if the server closes the TCP connection within `timeout` (nothing more coming)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.fill(deadline - time.monotonic())
            except EOFError:
                return True
            except Failure:
                return False
            except OSError:
                return True
        return False

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def failed_with(port, data, code, name_first=False):
    """Sends `data` on a fresh session; expects a close frame with `code`, then the end of the connection."""
    c = Raw.open(port)
    try:
        c.send(data)
        got, reason, texts = c.read_close()
        expect(got == code, f"close code {got} ({reason!r}) after {texts}, expected {code}")
        expect(not texts, f"text before the close: {texts}")
        expect(c.ends(), "the TCP connection stayed open after the close frame")
        return f"close {got} ({reason})"
    finally:
        c.close()


# MARK: The library's client


def lib(port, origin=None, **kwargs):
    return ws_connect(f"ws://127.0.0.1:{port}/ws", origin=origin, proxy=None, legacy=True, open_timeout=OPEN_TIMEOUT,
                      ping_interval=None, compression=None, **kwargs)


def lib_closed_with(ws, code):
    try:
        got = ws.recv(timeout=TIMEOUT)
        raise Failure(f"got {got!r} instead of the close {code}")
    except ConnectionClosed:
        pass
    except TimeoutError:
        raise Failure(f"no close {code} within {TIMEOUT} s")
    expect(ws.close_code == code, f"closed with {ws.close_code} ({ws.close_reason!r}), expected {code}")
    return f"close {ws.close_code} ({ws.close_reason})"


# MARK: The checks

CHECKS = []


def check(name):
    def register(fn):
        CHECKS.append((name, fn))
        return fn
    return register


@check("handshake-no-origin")
def _(a):
    with lib(a.port) as ws:
        hello = ws.recv(timeout=TIMEOUT)
        expect(isinstance(hello, str), f"HELLO came as {type(hello).__name__}")
        if a.hello:
            expect(hello == a.hello, f"first message {hello!r}, expected {a.hello!r}")
        expect(hello.startswith("HELLO ghostd/"), f"first message {hello!r}")
        return hello


@check("handshake-own-origin")
def _(a):
    origin = f"http://127.0.0.1:{a.port}"
    with lib(a.port, origin=origin) as ws:
        hello = ws.recv(timeout=TIMEOUT)
        expect(hello.startswith("HELLO ghostd/"), f"first message {hello!r}")
        return f"Origin {origin}: {hello}"


@check("name-and-ping")
def _(a):
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        ws.send("NAME wsframes")
        got = ws.recv(timeout=TIMEOUT)
        expect(got == "OK NAME name=wsframes lang=en", f"NAME got {got!r}")
        ws.send("PING")
        got = ws.recv(timeout=TIMEOUT)
        expect(got == "OK PING", f"PING got {got!r}")
        return "OK NAME name=wsframes lang=en, OK PING"


@check("trailing-line-end")
def _(a):
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        got = []
        for text in ["PING\n", "PING\r\n"]:
            ws.send(text)
            got.append(ws.recv(timeout=TIMEOUT))
        expect(got == ["OK PING", "OK PING"], f"PING\\n, PING\\r\\n got {got}")
        return "PING\\n and PING\\r\\n: OK PING each"


@check("message-512-bytes")
def _(a):
    # A message of 512 bytes is read (no close), but as on TCP a line of 512
    # bytes without its end is over the line's 512: ERR line-too-long (Protocol.md §7).
    text = "X" * 512
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        ws.send(text)
        got = ws.recv(timeout=TIMEOUT)
        expect(got.startswith("ERR line-too-long"), f"a 512-byte message got {got[:80]!r}")
        ws.send("PING")
        expect(ws.recv(timeout=TIMEOUT) == "OK PING", "no OK PING after it")
        return got[:60]


@check("message-511-bytes")
def _(a):
    # 511 bytes; and 512 with its LF (511 + LF), and with its CRLF (510 + CRLF): each one line.
    got = []
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        for text in ["X" * 511, "X" * 511 + "\n", "X" * 510 + "\r\n"]:
            ws.send(text)
            got.append(ws.recv(timeout=TIMEOUT))
    expect(all(g.startswith("ERR unknown-command") for g in got), f"got {[g[:40] for g in got]}")
    return "511 bytes, 511 + LF, 510 + CRLF: " + got[0][:40]


@check("message-513-bytes")
def _(a):
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        ws.send("X" * 513)
        return lib_closed_with(ws, 1009)


@check("fragments-library")
def _(a):
    # The library sends an iterable of str as the fragments of one message.
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        ws.send(["P", "IN", "G"])
        got = ws.recv(timeout=TIMEOUT)
        expect(got == "OK PING", f"PING in three fragments got {got!r}")
        return "P|IN|G: OK PING"


@check("fragments-over-512")
def _(a):
    # Fragments of 200 bytes each: the third takes the message past 512.
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        try:
            ws.send(["X" * 200, "X" * 200, "X" * 200])
        except ConnectionClosed:
            # The server may close as soon as the third fragment passes 512 bytes,
            # before the library has finished sending it: the close is what counts.
            pass
        return lib_closed_with(ws, 1009)


@check("fragments-with-ping")
def _(a):
    c = Raw.open(a.port)
    try:
        c.send(frame(1, "PI", fin=False) + frame(9, b"between") + frame(0, "N", fin=False)
               + frame(10, b"unasked") + frame(0, "G"))
        pong = c.read_frame()
        expect(pong.opcode == 10 and pong.payload == b"between" and pong.fin and not pong.masked,
               f"expected pong('between'), got {pong!r}")
        got = c.read_text()
        expect(got == "OK PING", f"PI|ping|N|pong|G got {got!r}")
        return "pong(between) then OK PING (one line)"
    finally:
        c.close()


@check("utf8-split-across-fragments")
def _(a):
    # "é" (C3 A9) cut between two fragments is valid once whole: no 1007.
    c = Raw.open(a.port)
    try:
        c.send(frame(1, b"NAME caf\xc3", fin=False) + frame(0, b"\xa9"))
        got = c.read_text()
        expect(got.startswith("ERR ") or got.startswith("OK NAME"), f"got {got!r}")
        c.send(frame(1, "PING"))
        got2 = c.read_text()
        expect(got2 == "OK PING", f"then PING got {got2!r}")
        return got
    finally:
        c.close()


@check("ping-payload-library")
def _(a):
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        waiter = ws.ping(b"ghost\x00\xff")
        expect(waiter.wait(TIMEOUT), "no pong to ping(b'ghost\\x00\\xff')")
        return "pong with the payload (library)"


@check("ping-payload-raw")
def _(a):
    c = Raw.open(a.port)
    try:
        payloads = [b"", bytes(range(125))]
        for p in payloads:
            c.send(frame(9, p))
            f = c.read_frame()
            expect(f.opcode == 10 and f.payload == p and f.fin and not f.masked, f"ping of {len(p)} bytes got {f!r}")
        return "pongs of 0 and 125 bytes, same payloads"
    finally:
        c.close()


@check("binary-1003")
def _(a):
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        ws.send(b"PING")
        return lib_closed_with(ws, 1003)


@check("invalid-utf8-1007")
def _(a):
    return failed_with(a.port, frame(1, b"PING \xff"), 1007)


@check("overlong-utf8-1007")
def _(a):
    return failed_with(a.port, frame(1, b"PING \xc0\xaf"), 1007)


@check("lf-inside-1007")
def _(a):
    return failed_with(a.port, frame(1, b"PING\nPING"), 1007)


@check("unmasked-1002")
def _(a):
    return failed_with(a.port, frame(1, "PING", masked=False), 1002)


@check("rsv-bits-1002")
def _(a):
    codes = [failed_with(a.port, frame(1, "PING", rsv=r), 1002) for r in (4, 2, 1)]
    return "RSV1, RSV2, RSV3: " + ", ".join(codes)


@check("unknown-opcode-1002")
def _(a):
    return failed_with(a.port, frame(3, "PING"), 1002) + "; " + failed_with(a.port, frame(0xB, b""), 1002)


@check("continuation-out-of-place-1002")
def _(a):
    return (failed_with(a.port, frame(0, "PING"), 1002) + "; "
            + failed_with(a.port, frame(1, "PI", fin=False) + frame(1, "NG"), 1002))


@check("fragmented-control-1002")
def _(a):
    return failed_with(a.port, frame(9, b"x", fin=False), 1002)


@check("control-over-125-1002")
def _(a):
    return failed_with(a.port, frame(9, bytes(126)), 1002)


@check("close-1000")
def _(a):
    c = Raw.open(a.port)
    try:
        c.send(frame(8, close_payload(1000, b"bye")))
        f = c.read_frame()
        expect(f.opcode == 8 and f.close_code == 1000, f"the close 1000 got {f!r}")
        expect(c.ends(), "the TCP connection stayed open after the server's close")
        return f"answered {f!r}, then the end of the connection"
    finally:
        c.close()


@check("close-library")
def _(a):
    ws = lib(a.port)
    ws.recv(timeout=TIMEOUT)
    ws.close(1000)
    expect(ws.close_code == 1000, f"the library's close got {ws.close_code} ({ws.close_reason!r})")
    return f"close {ws.close_code}"


@check("close-empty-and-4000")
def _(a):
    got = []
    for payload in [b"", close_payload(4000)]:
        c = Raw.open(a.port)
        try:
            c.send(frame(8, payload))
            f = c.read_frame()
            expect(f.opcode == 8 and f.close_code == 1000, f"close {payload!r} got {f!r}")
            expect(c.ends(), "the TCP connection stayed open")
            got.append(f.close_code)
        finally:
            c.close()
    return f"empty close and close 4000 answered with {got}"


@check("close-after-replies")
def _(a):
    # PING and the close in one send: the reply owed comes, then the close 1000, then the end.
    c = Raw.open(a.port)
    got = []
    try:
        c.send(frame(1, "PING") + frame(8, close_payload(1000)))
        got.append(c.read_frame(timeout=3))
        got.append(c.read_frame(timeout=3))
        expect(got[0].opcode == 1 and got[0].payload == b"OK PING" and got[1].close_code == 1000,
               f"got {got}")
        expect(c.ends(3), "the TCP connection stayed open")
        return "OK PING, then close 1000, then the end"
    except Failure as error:
        raise Failure(f"PING and close(1000) in one send: got {got}; {error}")
    finally:
        c.close()


@check("failure-after-a-line")
def _(a):
    # PING and a binary frame in one send: OK PING, then the close 1003.
    c = Raw.open(a.port)
    got = []
    try:
        c.send(frame(1, "PING") + frame(2, b"x"))
        got.append(c.read_frame(timeout=3))
        got.append(c.read_frame(timeout=3))
        expect(got[0].payload == b"OK PING" and got[1].close_code == 1003, f"got {got}")
        expect(c.ends(3), "the TCP connection stayed open")
        return "OK PING, then close 1003, then the end"
    except Failure as error:
        raise Failure(f"PING and a binary frame in one send: got {got}; {error}")
    finally:
        c.close()


@check("close-invalid-code-1002")
def _(a):
    got = [failed_with(a.port, frame(8, close_payload(code)), 1002) for code in (1005, 999, 1006, 1015, 2999)]
    got.append(failed_with(a.port, frame(8, b"\x03"), 1002))
    return "1005, 999, 1006, 1015, 2999 and a 1-byte close: " + ", ".join(got)


@check("close-reason-invalid-utf8-1007")
def _(a):
    return failed_with(a.port, frame(8, close_payload(1000, b"\xff")), 1007)


@check("quit")
def _(a):
    with lib(a.port) as ws:
        ws.recv(timeout=TIMEOUT)
        ws.send("QUIT")
        got = [ws.recv(timeout=TIMEOUT), ws.recv(timeout=TIMEOUT)]
        expect(got == ["OK QUIT", "BYE quit goodbye"], f"QUIT got {got}")
        lib_closed_with(ws, 1000)
        expect(ws.close_reason == "quit", f"close reason {ws.close_reason!r}, expected 'quit'")
    c = Raw.open(a.port)
    try:
        c.send(frame(1, "QUIT"))
        code, reason, texts = c.read_close()
        expect(texts == ["OK QUIT", "BYE quit goodbye"] and code == 1000 and reason == "quit",
               f"raw QUIT got {texts} then close {code} {reason!r}")
        expect(c.ends(), "the TCP connection stayed open after the close frame")
    finally:
        c.close()
    return "OK QUIT, BYE quit goodbye, close 1000 (quit), end"


@check("foreign-origin-403")
def _(a):
    try:
        with lib(a.port, origin="https://evil.example"):
            pass
    except InvalidStatus as error:
        status = error.response.status_code
        expect(status == 403, f"InvalidStatus {status}")
        return f"InvalidStatus {status}"
    raise Failure("a foreign Origin was let in")


@check("wrong-scheme-origin-403")
def _(a):
    try:
        with lib(a.port, origin=f"https://127.0.0.1:{a.port}"):
            pass
    except InvalidStatus as error:
        status = error.response.status_code
        expect(status == 403, f"InvalidStatus {status}")
        return f"https:// on the plain port: InvalidStatus {status}"
    raise Failure("an https:// Origin was let in on the plain web port")


@check("wrong-version-426")
def _(a):
    c = Raw(a.port)
    try:
        request, _ = upgrade_request(f"127.0.0.1:{a.port}", version="8")
        c.send(request)
        head = c.read_head()
        expect(head.startswith("HTTP/1.1 426 "), f"version 8 got {head.splitlines()[0] if head else 'nothing'}")
        expect("\r\nsec-websocket-version: 13" in head.lower(), f"no Sec-WebSocket-Version: 13 in {head!r}")
        c.read_to_end()
        return head.splitlines()[0]
    finally:
        c.close()


@check("huge-length-1009")
def _(a):
    # A header announcing 2^63-1 bytes and no payload: refused at once, the payload never awaited.
    c = Raw.open(a.port)
    try:
        started = time.monotonic()
        c.send(frame(1, b"", length=2**63 - 1))
        f = c.read_frame(timeout=5)
        took = time.monotonic() - started
        expect(f.opcode == 8 and f.close_code == 1009, f"got {f!r}")
        expect(c.ends(), "the TCP connection stayed open")
        return f"close 1009 after {took * 1000:.0f} ms, no payload sent"
    finally:
        c.close()


@check("top-bit-length-1002")
def _(a):
    # A 64-bit length with its most significant bit set (RFC 6455 §5.2: MUST be 0).
    return failed_with(a.port, frame(1, b"", length=2**63), 1002)


@check("many-frames-one-segment")
def _(a):
    c = Raw.open(a.port)
    try:
        c.send(b"".join(frame(1, "PING") for _ in range(100)) + frame(1, "NOSUCH"))
        got = [c.read_text() for _ in range(101)]
        expect(got[:100] == ["OK PING"] * 100, f"{sum(1 for g in got[:100] if g == 'OK PING')} OK PING of 100: {got[:3]}...")
        expect(got[100].startswith("ERR unknown-command"), f"the 101st reply is {got[100]!r}")
        return "100 OK PING in order, then ERR unknown-command"
    finally:
        c.close()


@check("byte-by-byte")
def _(a):
    c = Raw(a.port)
    try:
        request, _ = upgrade_request(f"127.0.0.1:{a.port}")
        data = request + frame(1, "PING") + frame(1, "X" * 200) + frame(1, "PING")
        for i in range(len(data)):
            c.send(data[i:i + 1])
            time.sleep(0.001)
        head = c.read_head()
        expect(head.startswith("HTTP/1.1 101 "), f"got {head[:40]!r}")
        got = [c.read_text() for _ in range(4)]
        expect(got[0].startswith("HELLO ") and got[1] == "OK PING" and got[2].startswith("ERR unknown-command")
               and got[3] == "OK PING", f"got {got}")
        return f"{len(data)} sends of one byte (the request, PING, 200 bytes with a 16-bit length, PING): HELLO, OK PING, ERR, OK PING"
    finally:
        c.close()


@check("frames-with-the-request")
def _(a):
    # The first frames in the same segment as the upgrade request: HELLO is
    # the first text message; the pong may come before it (it is no line).
    c = Raw.open(a.port, first=frame(1, "PING") + frame(9, b"early"), hello=False)
    try:
        got = [c.read_frame() for _ in range(3)]
        texts = [f.payload for f in got if f.opcode == 1]
        pongs = [f.payload for f in got if f.opcode == 10]
        expect(texts[:1] and texts[0].startswith(b"HELLO ") and texts[1:] == [b"OK PING"] and pongs == [b"early"],
               f"got {got}")
        return f"{got}"
    finally:
        c.close()


# MARK: wss


def tls_context(cafile):
    context = ssl.create_default_context(cafile=cafile)
    context.check_hostname = False   # the test's certificate names no address, only a CN
    context.verify_mode = ssl.CERT_REQUIRED
    return context


def common_name(cert):
    for rdn in cert.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                return value
    return None


TLS_CHECKS = []


def tls_check(name):
    def register(fn):
        TLS_CHECKS.append((name, fn))
        return fn
    return register


@tls_check("wss-ping")
def _(a):
    port = a.tls
    origin = f"https://127.0.0.1:{port}"
    with ws_connect(f"wss://127.0.0.1:{port}/ws", ssl=tls_context(a.cafile), origin=origin, proxy=None, legacy=True,
                    open_timeout=OPEN_TIMEOUT, ping_interval=None, compression=None) as ws:
        cn = common_name(ws.socket.getpeercert())
        expect(cn == a.expect_cn, f"the certificate's CN is {cn!r}, expected {a.expect_cn!r}")
        hello = ws.recv(timeout=TIMEOUT)
        expect(hello.startswith("HELLO ghostd/"), f"first message {hello!r}")
        ws.send("PING")
        got = ws.recv(timeout=TIMEOUT)
        expect(got == "OK PING", f"PING got {got!r}")
        waiter = ws.ping(b"over tls")
        expect(waiter.wait(TIMEOUT), "no pong over TLS")
        ws.send("QUIT")
        got = [ws.recv(timeout=TIMEOUT), ws.recv(timeout=TIMEOUT)]
        expect(got == ["OK QUIT", "BYE quit goodbye"], f"QUIT got {got}")
        lib_closed_with(ws, 1000)
        return f"CN={cn}, Origin {origin}: HELLO, OK PING, pong, BYE quit then close 1000"


@tls_check("wss-http-origin-403")
def _(a):
    port = a.tls
    try:
        with ws_connect(f"wss://127.0.0.1:{port}/ws", ssl=tls_context(a.cafile), origin=f"http://127.0.0.1:{port}",
                        proxy=None, legacy=True, open_timeout=OPEN_TIMEOUT, compression=None):
            pass
    except InvalidStatus as error:
        status = error.response.status_code
        expect(status == 403, f"InvalidStatus {status}")
        return f"http:// Origin on the TLS port: InvalidStatus {status}"
    raise Failure("an http:// Origin was let in on the TLS web port")


@tls_check("wss-raw-frames")
def _(a):
    # The raw client over TLS: a frame byte by byte and an unmasked frame (1002).
    c = Raw(a.tls, context=tls_context(a.cafile))
    try:
        request, _ = upgrade_request(f"127.0.0.1:{a.tls}")
        c.send(request)
        head = c.read_head()
        expect(head.startswith("HTTP/1.1 101 "), f"got {head[:40]!r}")
        expect(c.read_text().startswith("HELLO "), "no HELLO")
        for b in frame(1, "PING"):
            c.send(bytes([b]))
        got = c.read_text()
        expect(got == "OK PING", f"PING byte by byte got {got!r}")
        c.send(frame(1, "PING", masked=False))
        f = c.read_frame()
        expect(f.opcode == 8 and f.close_code == 1002, f"unmasked got {f!r}")
        return "OK PING byte by byte, unmasked: close 1002"
    finally:
        c.close()


@tls_check("https-hsts")
def _(a):
    conn = http.client.HTTPSConnection("127.0.0.1", a.tls, context=tls_context(a.cafile), timeout=TIMEOUT)
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        body = response.read()
        hsts = response.getheader("Strict-Transport-Security")
        expect(response.status == 200, f"GET / got {response.status}")
        expect(hsts == "max-age=31536000", f"Strict-Transport-Security: {hsts!r}")
        expect(b"<html" in body.lower(), "no page")
        return f"200, Strict-Transport-Security: {hsts}"
    finally:
        conn.close()


@tls_check("untrusted-old-certificate")
def _(a):
    if not a.untrusted_cafile:
        return "skipped (no --untrusted-cafile)"
    try:
        with ws_connect(f"wss://127.0.0.1:{a.tls}/ws", ssl=tls_context(a.untrusted_cafile), proxy=None, legacy=True,
                        open_timeout=OPEN_TIMEOUT, compression=None):
            pass
    except ssl.SSLCertVerificationError as error:
        return f"refused: {error.verify_message}"
    raise Failure("the old certificate still verifies the server")


# MARK: Main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int, nargs="?", help="the plain web port (--web-port)")
    parser.add_argument("--hello", help="the exact HELLO line expected")
    parser.add_argument("--tls", type=int, help="the web TLS port (--web-tls-port): the wss checks only")
    parser.add_argument("--cafile", help="the certificate to trust (wss)")
    parser.add_argument("--expect-cn", help="the common name the server's certificate must have (wss)")
    parser.add_argument("--untrusted-cafile", help="a certificate the server no longer uses: must not verify it (wss)")
    parser.add_argument("--known-issue", action="append", default=[], help="a check whose failure is a known issue")
    parser.add_argument("--only", action="append", default=[], help="run only these checks")
    a = parser.parse_args()
    if a.tls is None and a.port is None:
        parser.error("a port, or --tls PORT")
    checks = TLS_CHECKS if a.tls is not None else CHECKS
    if a.only:
        checks = [c for c in checks if c[0] in a.only]
    print(f"websockets {websockets.__version__}, Python {sys.version.split()[0]}", flush=True)
    failed = known = 0
    started = time.monotonic()
    for name, fn in checks:
        try:
            detail = fn(a)
            print(f"ok {name}: {detail}", flush=True)
        except Exception as error:  # a Failure, or anything unexpected: both are failures of the check
            detail = str(error) if isinstance(error, Failure) else f"{type(error).__name__}: {error}"
            if name in a.known_issue:
                known += 1
                print(f"KNOWN {name}: {detail}", flush=True)
            else:
                failed += 1
                print(f"FAIL {name}: {detail}", flush=True)
    took = time.monotonic() - started
    print(f"summary: {len(checks) - failed - known} ok, {failed} failed, {known} known issues, in {took:.1f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
