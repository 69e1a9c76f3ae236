#!/usr/bin/env python3
"""Hostile-client storms against a running hub and storefront-proxy; prints the resident
memory (VmRSS of /proc/<pid>/status) of both before, at the peak during, and after each
storm. Standard library only (the WebSocket frames are written by hand, so that a
message can be fragmented the way a hostile client would).

  bench-storm.py PROXY_PORT PROXY_PID HUB_PORT HUB_PID

Storms (issue 15):
  half-sent  4,000 connections each send half a request head (PAD_LINES=16: 64 KB of
             headers, or PAD_LINES=4: 16 KB; no end), to the proxy and then to the hub, and hold it for HOLD_SECS (15);
             then all close. "after" is read SETTLE_SECS (5) after they closed.
  ws-60mb    ten guests join over REST and each sends one 60 MB message through the
             proxy's /ws, in four 15 MB frames (under tungstenite's default 16 MiB
             frame limit), then close.
"""
import asyncio, json, os, sys, time, urllib.request

PROXY_PORT, PROXY_PID, HUB_PORT, HUB_PID = (int(a) for a in sys.argv[1:5])
HOLD_SECS = float(os.environ.get("HOLD_SECS", "15"))
SETTLE_SECS = float(os.environ.get("SETTLE_SECS", "5"))
HALF = int(os.environ.get("HALF", "4000"))
# Junk header lines of 4,000 bytes in each half-sent head: 16 (64 KB, over the 32 KiB
# head limit after the fix) or 4 (16 KB, under it: only the header read timeout helps).
PAD_LINES = int(os.environ.get("PAD_LINES", "16"))
KEY = "SWSCSALESROOMDEMO000000000"


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Peak:
    """Samples both processes' RSS every 100 ms while a storm runs."""

    def __init__(self):
        self.peak = {PROXY_PID: 0.0, HUB_PID: 0.0}
        self.running = True

    async def run(self):
        while self.running:
            for pid in self.peak:
                self.peak[pid] = max(self.peak[pid], rss_mb(pid))
            await asyncio.sleep(0.1)


def report(name, before, peak, after):
    for label, pid in (("proxy", PROXY_PID), ("hub", HUB_PID)):
        print(f"{name:<22} {label:<6} before {before[pid]:7.1f} MB   peak {peak[pid]:7.1f} MB   after {after[pid]:7.1f} MB", flush=True)


async def half_sent(port, results):
    head = b"POST /store-api/product HTTP/1.1\r\nHost: shop\r\n" + b"".join(
        b"X-Pad-%d: %s\r\n" % (i, b"a" * 4000) for i in range(PAD_LINES))
    writers, refused = [], 0
    for _ in range(HALF):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(head)
            writers.append((reader, writer))
        except OSError:
            refused += 1
    await asyncio.gather(*(w.drain() for _, w in writers), return_exceptions=True)
    await asyncio.sleep(HOLD_SECS)
    closed = 0
    for reader, writer in writers:
        if reader.at_eof() or writer.is_closing():
            closed += 1
        else:
            try:
                data = await asyncio.wait_for(reader.read(1), 0.001)
                closed += 1 if data == b"" or data else 0
            except (asyncio.TimeoutError, OSError):
                pass
    for _, writer in writers:
        writer.close()
    results.append(f"  {len(writers)} opened, {refused} refused, {closed} answered or closed by the server within {HOLD_SECS:.0f} s")


def post(path, body, headers):
    request = urllib.request.Request(f"http://127.0.0.1:{PROXY_PORT}{path}", data=json.dumps(body).encode(), method="POST")
    request.add_header("content-type", "application/json")
    for k, v in headers.items():
        request.add_header(k, v)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def join_guests(n):
    token = post("/api/oauth/token", {"grant_type": "password", "client_id": "administration", "username": "admin", "password": "shopware"}, {})
    bearer = {"authorization": "Bearer " + token["access_token"]}
    found = post("/api/search/dsr-appointment", {"filter": [{"type": "equals", "field": "presentationPath", "value": "demo"}]}, bearer)
    appointment = found["data"][0]["id"]
    post(f"/api/_action/dsr/appointment/{appointment}/join-as-guide", {}, bearer)
    return [post("/store-api/dsr/appointment/demo/join-as-client", {"attendeeName": f"Storm {i}"}, {"sw-access-key": KEY})["hubToken"] for i in range(n)]


def frame_header(opcode, fin, length):
    first = (0x80 if fin else 0) | opcode
    if length < 126:
        return bytes([first, 0x80 | length]) + b"\0\0\0\0"
    if length < 65536:
        return bytes([first, 0x80 | 126]) + length.to_bytes(2, "big") + b"\0\0\0\0"
    # A zero mask key leaves the payload as it is: no masking work for 60 MB.
    return bytes([first, 0x80 | 127]) + length.to_bytes(8, "big") + b"\0\0\0\0"


async def send_60mb(token, results):
    reader, writer = await asyncio.open_connection("127.0.0.1", PROXY_PORT)
    writer.write(("GET /ws HTTP/1.1\r\nHost: shop\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                  f"Sec-WebSocket-Protocol: salesroom.v1.json, bearer.{token}\r\n\r\n").encode())
    status = await reader.readline()
    if b" 101 " not in status:
        results.append(f"  upgrade refused: {status!r}")
        writer.close()
        return
    chunk = b"x" * (15 * 1000 * 1000)
    outcome = "sent all 60 MB"

    async def read_close():
        # Reads while sending, as a browser does: the close frame may come early.
        received = b""
        while True:
            try:
                data = await reader.read(1 << 16)
            except OSError:
                return received
            if not data:
                return received
            received += data

    reading = asyncio.create_task(read_close())
    try:
        for i in range(4):
            writer.write(frame_header(0x1 if i == 0 else 0x0, i == 3, len(chunk)))
            writer.write(chunk)
            await writer.drain()
    except OSError as error:
        outcome = f"cut off while sending ({error.__class__.__name__})"
    try:
        rest = await asyncio.wait_for(reading, 5)
        close = rest.split(b"\r\n\r\n", 1)[-1]
        # A close frame: 0x88, length, code.
        at = close.find(b"\x88")
        if at >= 0 and len(close) >= at + 4:
            outcome += f", close frame {int.from_bytes(close[at + 2:at + 4], 'big')}"
        else:
            outcome += ", no close frame"
    except (asyncio.TimeoutError, OSError) as error:
        outcome += f", no close frame ({error.__class__.__name__})"
    writer.close()
    results.append("  " + outcome)


async def storm(name, work):
    await asyncio.sleep(SETTLE_SECS)
    before = {pid: rss_mb(pid) for pid in (PROXY_PID, HUB_PID)}
    peak = Peak()
    sampler = asyncio.create_task(peak.run())
    results = []
    started = time.monotonic()
    await work(results)
    peak.running = False
    await sampler
    await asyncio.sleep(SETTLE_SECS)
    after = {pid: rss_mb(pid) for pid in (PROXY_PID, HUB_PID)}
    report(name, before, peak.peak, after)
    for line in sorted(set(results)):
        print(f"{line}   (x{results.count(line)})" if results.count(line) > 1 else line)
    print(f"  took {time.monotonic() - started:.1f} s", flush=True)


async def main():
    tokens = join_guests(10)
    print(f"half-sent heads: {HALF} x {PAD_LINES} header lines of 4,000 bytes", flush=True)
    await storm("half-sent -> proxy", lambda r: half_sent(PROXY_PORT, r))
    await storm("half-sent -> hub", lambda r: half_sent(HUB_PORT, r))
    await storm("ws 10 x 60 MB -> proxy", lambda r: asyncio.gather(*(send_60mb(t, r) for t in tokens)))


asyncio.run(main())
