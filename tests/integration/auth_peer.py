#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Hostile and recording peers for the authentication tests, over real
sockets:
  record PORT HOST SPORT FILE   relay one client to HOST:SPORT, keeping the
                                bytes the client sent in FILE
  replay HOST PORT FILE         send FILE's bytes as a new client; print
                                the server's ERROR texts
  trickle HOST PORT SRC SEC     from address SRC, two clients that send a
                                HELLO header one byte every SEC seconds
                                until the server closes them; print how
                                long that took
  burst HOST PORT SRC1 SRC2     two silent connections at once, one from
                                each address; print what the one the
                                server closed got
  hammer HOST PORT SRC N        from SRC, N connections one after another,
                                each closed as soon as it is open and the
                                next opened once the server let go; print
                                how many got each ERROR text
  tamper PORT HOST SPORT flip c2s|s2c TYPE
                                relay one client to HOST:SPORT message by
                                message, changing one byte of the first
                                TYPE message (PARAMS, QP_INFO, ...) that
                                goes that way (client to server or back)
  tamper PORT HOST SPORT splice TYPE FILE
                                the same, putting the first TYPE message
                                of FILE (what record kept of an earlier
                                run) in place of the client's own
"""
import os
import re
import select
import socket
import struct
import sys
import time

HDR = struct.Struct(">IHHI")  # magic, version, type, payload length

MAGIC = 0x52445046
MSG_ERROR = 7


def wire_version():
    """The protocol version of the tree under test, from its wire.h."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "include", "rdmaperf", "wire.h")
    with open(path) as f:
        for line in f:
            m = re.match(r"#define RDP_WIRE_VERSION\s+(\d+)", line)
            if m:
                return int(m.group(1))
    sys.exit("no RDP_WIRE_VERSION in " + path)


def recv_some(s):
    """What S has to read now; b"" once it is closed or broken."""
    try:
        return s.recv(65536)
    except OSError:
        return b""


def pump(port, host, sport, forward):
    """Accept one client on PORT and connect it to HOST:SPORT; what either
    side sends goes through forward(from_client, data), whose bytes go on
    to the other, until both ends close or 60 s pass in silence."""
    lsock = socket.create_server(("", port))
    lsock.settimeout(60)
    print("listening", flush=True)
    cli, _ = lsock.accept()
    srv = socket.create_connection((host, sport), timeout=10)
    peer = {cli: srv, srv: cli}
    open_ends = {cli, srv}
    while open_ends:
        ready, _, _ = select.select(list(open_ends), [], [], 60)
        if not ready:
            break
        for s in ready:
            data = recv_some(s)
            if not data:
                open_ends.discard(s)
                try:
                    peer[s].shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                continue
            out = forward(s is cli, data)
            try:
                peer[s].sendall(out)
            except OSError:
                pass


def relay(port, host, sport, path):
    kept = bytearray()

    def forward(from_client, data):
        if from_client:
            kept.extend(data)
        return data

    pump(port, host, sport, forward)
    with open(path, "wb") as f:
        f.write(kept)
    print(f"recorded {len(kept)} bytes")


def frames(buf):
    """Whole rdmaperf messages in buf: (type, payload)."""
    off = 0
    while off + HDR.size <= len(buf):
        magic, _, mtype, n = HDR.unpack_from(buf, off)
        if magic != MAGIC or off + HDR.size + n > len(buf):
            break
        yield mtype, buf[off + HDR.size:off + HDR.size + n]
        off += HDR.size + n


def replay(host, port, path):
    with open(path, "rb") as f:
        data = f.read()
    s = socket.create_connection((host, port), timeout=10)
    try:
        s.sendall(data)
    except OSError:
        pass  # the server may close while we still send
    got = read_to_end(s, 10)
    print_errors(got)


def read_to_end(s, timeout):
    """What S receives until its peer closes, an error, or TIMEOUT s of
    silence."""
    got = bytearray()
    s.settimeout(timeout)
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            got += d
    except OSError:
        pass
    return got


def error_text(mtype, body):
    """The text of an ERROR message, None for any other."""
    if mtype != MSG_ERROR or len(body) < 6:
        return None
    n = struct.unpack_from(">H", body, 4)[0]
    return body[6:6 + n].decode(errors="replace")


def print_errors(got, prefix=""):
    for mtype, body in frames(bytes(got)):
        text = error_text(mtype, body)
        if text is not None:
            print(prefix + "ERROR:", text)
        else:
            print(prefix + "message type", mtype)


def trickle(host, port, src, sec):
    """Two slow clients from src: the first trickles a HELLO header, the
    second connects while the first's handshake is open. Prints "ready"
    once both are connected, then when each was closed and what it got."""
    hello = HDR.pack(MAGIC, wire_version(), 1, 260) * 100
    socks = []
    for _ in range(2):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((src, 0))
        s.connect((host, port))
        s.send(hello[:1])
        socks.append(s)
        if len(socks) == 1:
            t0 = time.monotonic()
            time.sleep(1)  # the server takes the first one's handshake
    print("ready", flush=True)
    got = {s: bytearray() for s in socks}
    sent = {s: 1 for s in socks}
    live = list(socks)
    while live:
        for s in live:
            if sent[s] < len(hello):
                try:
                    s.send(hello[sent[s]:sent[s] + 1])
                    sent[s] += 1
                except OSError:
                    pass
        r, _, _ = select.select(live, [], [], sec)
        for s in r:
            d = recv_some(s)
            if d:
                got[s] += d
                continue
            live.remove(s)
            i = socks.index(s) + 1
            print(f"client {i} closed after {time.monotonic() - t0:.1f} s",
                  flush=True)
            print_errors(got[s])


def burst(host, port, src1, src2):
    """Two connections at once from two addresses, both silent: the server
    may take either first. Prints what the one it closed got, as
    "client N: ...", then closes the other."""
    socks = []
    for src in (src1, src2):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((src, 0))
        s.connect((host, port))
        socks.append(s)
    got = {s: bytearray() for s in socks}
    closed = None
    while closed is None:
        r, _, _ = select.select(socks, [], [], 30)
        if not r:
            print("neither connection was answered in 30 s")
            break
        for s in r:
            d = recv_some(s)
            if d:
                got[s] += d
            else:
                closed = s
    if closed is not None:
        print_errors(got[closed], f"client {socks.index(closed) + 1}: ")
    for s in socks:
        s.close()


def hammer(host, port, src, n):
    """Connect, close our side, read to the end, N times from src."""
    texts = {}
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((src, 0))
        s.connect((host, port))
        s.shutdown(socket.SHUT_WR)
        got = read_to_end(s, 30)
        s.close()
        text = "(closed without a word)"
        for mtype, body in frames(bytes(got)):
            t = error_text(mtype, body)
            if t is not None:
                text = "ERROR: " + t
        texts[text] = texts.get(text, 0) + 1
    for text, k in sorted(texts.items()):
        print(f"{k} x {text}", flush=True)


TYPES = {"HELLO": 1, "PARAMS": 2, "ACCEPT": 3, "QP_INFO": 4, "SYNC": 5,
         "RESULT": 6, "ERROR": 7, "AUTH": 8}
TAG = 32  # the MAC after each payload once AUTH is done


def flip_at(mtype, payload):
    """The payload byte to change and what it means: a field the server
    would take as it is, were it not for the MAC."""
    if mtype == TYPES["PARAMS"]:
        at = 2 + struct.unpack_from(">H", payload, 0)[0] + 6
        old = struct.unpack_from(">Q", payload, at - 6)[0]
        return at, f"size_bytes {old} -> {old ^ 0x100}"
    if mtype == TYPES["QP_INFO"]:
        at = 4 + 4 + 16 + 1 + 2 + 4 + 3  # the rkey's low byte
        old = struct.unpack_from(">I", payload, at - 3)[0]
        return at, f"rkey {old:#x} -> {old ^ 1:#x}"
    return 0, "its first byte"


def first_frame(path, mtype):
    with open(path, "rb") as f:
        data = f.read()
    off = 0
    while off + HDR.size <= len(data):
        _, _, t, n = HDR.unpack_from(data, off)
        if t == mtype:
            return data[off:off + HDR.size + n]
        off += HDR.size + n
    sys.exit(f"no message of type {mtype} in {path}")


class Tamper:
    """What to do to the first message of one type going one way."""

    def __init__(self, args):
        self.act, self.done = args[0], None
        if self.act == "flip":
            self.to_server, self.type = args[1] == "c2s", TYPES[args[2]]
        elif self.act == "splice":
            self.to_server, self.type = True, TYPES[args[1]]
            self.recorded = first_frame(args[2], self.type)
        else:
            sys.exit(f"unknown tamper action {self.act}")
        self.name = args[2] if self.act == "flip" else args[1]

    def frame(self, to_server, frame):
        _, _, mtype, _ = HDR.unpack_from(frame, 0)
        if self.done or to_server != self.to_server or mtype != self.type:
            return frame
        way = "client to server" if to_server else "server to client"
        if self.act == "splice":
            same = self.recorded[HDR.size:-TAG] == frame[HDR.size:-TAG]
            self.done = (f"spliced the recorded {self.name} in place of "
                         f"the client's (the same payload: "
                         f"{'yes' if same else 'no'})")
            return self.recorded
        payload = frame[HDR.size:len(frame) - TAG]
        at, what = flip_at(mtype, payload)
        b = bytearray(frame)
        b[HDR.size + at] ^= 0x01
        self.done = f"changed the first {self.name}, {way}: {what}"
        return bytes(b)


def tamper(port, host, sport, args):
    """Relay one client message by message; the tamper acts on one."""
    t = Tamper(args)
    pending = {True: b"", False: b""}
    n = 0

    def forward(from_client, data):
        nonlocal n
        buf, out = pending[from_client] + data, b""
        while len(buf) >= HDR.size:
            size = HDR.size + HDR.unpack_from(buf, 0)[3]
            if len(buf) < size:
                break
            out += t.frame(from_client, buf[:size])
            buf = buf[size:]
            n += 1
        pending[from_client] = buf
        return out

    pump(port, host, sport, forward)
    print(t.done or f"no {t.name} passed", flush=True)
    print(f"relayed {n} messages", flush=True)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "record":
        relay(int(args[0]), args[1], int(args[2]), args[3])
    elif cmd == "replay":
        replay(args[0], int(args[1]), args[2])
    elif cmd == "burst":
        burst(args[0], int(args[1]), args[2], args[3])
    elif cmd == "hammer":
        hammer(args[0], int(args[1]), args[2], int(args[3]))
    elif cmd == "tamper":
        tamper(int(args[0]), args[1], int(args[2]), args[3:])
    elif cmd == "trickle":
        trickle(args[0], int(args[1]), args[2], float(args[3]))
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
