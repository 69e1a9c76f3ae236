#!/usr/bin/env python3
"""RSS of storefront-proxy under N concurrent wrong logins (#29 item 3).

Usage: scripts/bench-password-logins.py BINARY [--concurrency 512] [--port 8041]

Starts BINARY (a release build of storefront-proxy) over a fresh demo shop, then runs
two workloads, each N requests sent at once (one thread each):
  same    N wrong passwords for the demo customer from one address (the attack of the
          issue: every one an Argon2 check before #29, throttled after)
  spread  N wrong passwords for N unknown users, each from its own X-Forwarded-For
          (loopback is a trusted proxy): every one wants a password check (a dummy hash
          for an unknown user since #29), the worst case for the bound on hashing
and prints the proxy's RSS before, its peak (VmHWM) and RSS after, the answers' statuses
and the wall time. Hold `flock /tmp/bench.lock` around it.
"""

import argparse
import collections
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def login(port, username, forwarded, results, barrier):
    body = json.dumps({"username": username, "password": "wrong-password"})
    headers = {"content-type": "application/json", "sw-access-key": "SWSCSALESROOMDEMO000000000"}
    if forwarded:
        headers["x-forwarded-for"] = forwarded
    barrier.wait()
    start = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        conn.request("POST", "/store-api/account/login", body, headers)
        response = conn.getresponse()
        payload = response.read()
        code = response.status
        if code != 401:
            try:
                code = f"{code} {json.loads(payload)['errors'][0]['code']}"
            except Exception:
                pass
    except Exception as error:  # noqa: BLE001
        code = f"error {type(error).__name__}"
    results.append((code, time.monotonic() - start))


def workload(name, port, pid, n):
    results = []
    barrier = threading.Barrier(n)
    threads = []
    for i in range(n):
        if name == "same":
            username, forwarded = "demo@example.com", None
        else:
            username, forwarded = f"nobody{i}@example.com", f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}"
        threads.append(threading.Thread(target=login, args=(port, username, forwarded, results, barrier), daemon=True))
    rss_before = status_kb(pid, "VmRSS")
    started = time.monotonic()
    for t in threads:
        t.start()
    peak = rss_before
    while any(t.is_alive() for t in threads):
        peak = max(peak, status_kb(pid, "VmRSS"))
        time.sleep(0.02)
    wall = time.monotonic() - started
    time.sleep(3)
    rss_after = status_kb(pid, "VmRSS")
    statuses = collections.Counter(code for code, _ in results)
    times = sorted(t for _, t in results)
    p50, p99 = times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{name:6} | RSS before {rss_before / 1024:6.1f} MiB | peak {peak / 1024:6.1f} MiB "
        f"(+{(peak - rss_before) / 1024:6.1f}) | 3 s after {rss_after / 1024:6.1f} MiB | "
        f"wall {wall:5.2f} s | answer p50 {p50 * 1000:6.0f} ms p99 {p99 * 1000:6.0f} ms | {dict(statuses)}",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--concurrency", type=int, default=512)
    parser.add_argument("--port", type=int, default=8041)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="bench-logins-")
    env = dict(os.environ, DATA_DIR=data, PORT=str(args.port), HUB_PORT="1", SHOP_ENDPOINT=f"http://127.0.0.1:{args.port}",
               WEB_DIST=os.path.join(data, "no-web"), DEMO="1", RUST_LOG="warn", PROXY_MAX_HTTP_CONNECTIONS="2048")
    proxy = subprocess.Popen([args.binary], env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, "proxy.log"), "w"))
    try:
        for _ in range(600):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=2)
                conn.request("GET", "/runtime-config.json")
                conn.getresponse().read()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(1)
        print(f"storefront-proxy {args.binary}, {args.concurrency} concurrent wrong logins per workload, {os.cpu_count()} cores")
        for name in ["same", "spread"]:
            workload(name, args.port, proxy.pid, args.concurrency)
            time.sleep(2)
        print(f"peak RSS of the process (VmHWM): {status_kb(proxy.pid, 'VmHWM') / 1024:.1f} MiB")
    finally:
        proxy.terminate()
        proxy.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
