#!/usr/bin/env python3
"""A shopper's category listing while 4 hostile clients send expensive anonymous queries
(issue #29, item 8; BENCHMARKS.md "#29 item 8").

Starts the given storefront-proxy (a release build) over a data dir seeded with
DEMO_PRODUCTS (default 100,000) generated products (seeded once, kept in DATA_DIR between
runs: seeding takes minutes), then measures one shopper's listing (a category, 24 per page,
price sorting, the listing's aggregations; one request at a time) first alone, then with
HOSTILE (default 4) clients, each sending one after the other the query of the issue: a
`contains` on the name, `total-count-mode: exact` and a name sorting over all products
(`POST /store-api/product`), each hostile client from its own `X-Forwarded-For` (loopback
is a trusted proxy). Prints the shopper's p50/p95/max and what the hostile clients got.

Usage: scripts/bench-hostile-listing.py BINARY [DATA_DIR]
Environment: DEMO_PRODUCTS, HOSTILE (4), TERMS ("item,item 4242"), REQUESTS (60
shopper listings per phase), PORT (8013). Run it under `flock /tmp/bench.lock`.
"""

import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

KEY = "SWSCSALESROOMDEMO000000000"


def post(base, path, body, headers=None, timeout=120):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("content-type", "application/json")
    request.add_header("sw-access-key", KEY)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            payload = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        payload = error.read()
        status = error.code
    elapsed = time.perf_counter() - started
    try:
        answer = json.loads(payload)
    except ValueError:
        answer = None
    return status, answer, elapsed


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def shopper(base, path, requests):
    times = []
    statuses = {}
    for _ in range(requests):
        status, _, elapsed = post(base, path, {"order": "price-asc", "limit": 24, "p": 1})
        statuses[status] = statuses.get(status, 0) + 1
        times.append(elapsed * 1000)
    return times, statuses


def main():
    binary = sys.argv[1]
    data_dir = sys.argv[2] if len(sys.argv) > 2 else "/tmp/salesroom-hostile-bench"
    products = os.environ.get("DEMO_PRODUCTS", "100000")
    hostile = int(os.environ.get("HOSTILE", "4"))
    terms = os.environ.get("TERMS", "item,item 4242").split(",")
    requests = int(os.environ.get("REQUESTS", "60"))
    port = os.environ.get("PORT", "8013")
    base = f"http://127.0.0.1:{port}"
    os.makedirs(data_dir, exist_ok=True)
    env = dict(os.environ, BIND="127.0.0.1", PORT=port, DATA_DIR=data_dir, DEMO_PRODUCTS=products, RUST_LOG="error",
               HUB_SECRET="bench-secret", SHOP_ENDPOINT=base, WEB_DIST="/nonexistent")
    log = open(os.path.join(data_dir, "proxy.log"), "a")
    started = time.time()
    proxy = subprocess.Popen([binary], env=env, stdout=log, stderr=log)
    try:
        while True:
            try:
                urllib.request.urlopen(urllib.request.Request(base + "/store-api/context", headers={"sw-access-key": KEY}), timeout=5)
                break
            except Exception:
                if proxy.poll() is not None:
                    sys.exit(f"storefront-proxy exited; see {data_dir}/proxy.log")
                time.sleep(1)
        print(f"== {binary}: ready after {time.time() - started:.0f} s ({products} generated products in {data_dir})")
        status, seo, _ = post(base, "/store-api/seo-url", {"filter": [{"type": "equals", "field": "seoPathInfo", "value": "Clothing/"}]})
        category = seo["elements"][0]["foreignKey"]
        path = f"/store-api/product-listing/{category}"
        status, answer, elapsed = post(base, path, {"limit": 1})
        print(f"first listing (cold): {status} in {elapsed * 1000:.0f} ms")
        total = answer.get("total") if isinstance(answer, dict) else None
        print(f"shopper: POST {path} {{order: price-asc, limit: 24}} ({total} products in the category)")
        shopper(base, path, 5)  # warm-up
        for t, term in enumerate(terms):
            body = {
                "filter": [{"type": "contains", "field": "name", "value": term}],
                "total-count-mode": "exact",
                "sort": [{"field": "name", "order": "DESC"}],
                "limit": 100,
            }
            status, answer, elapsed = post(base, "/store-api/product", body, {"x-forwarded-for": "203.0.113.200"})
            matches = answer.get("total") if isinstance(answer, dict) else None
            code = answer["errors"][0]["code"] if isinstance(answer, dict) and "errors" in answer else ""
            print(f"hostile query alone, contains {term!r}: {status} {code} in {elapsed * 1000:.0f} ms (total {matches})")
            time.sleep(1.5)
            alone, alone_statuses = shopper(base, path, requests)
            stop = threading.Event()
            results = []

            def attack(n):
                # Other addresses for each text: what one text's clients earned does not carry over.
                address = f"203.0.113.{10 * t + n + 1}"
                while not stop.is_set():
                    status, answer, elapsed = post(base, "/store-api/product", body, {"x-forwarded-for": address})
                    code = answer["errors"][0]["code"] if isinstance(answer, dict) and "errors" in answer else ""
                    results.append((status, code, elapsed))
                    if status == 429:
                        wait = 1.0
                        if isinstance(answer, dict):
                            wait = float(answer["errors"][0].get("meta", {}).get("parameters", {}).get("seconds", 1))
                        # A hostile client does not wait long: it tries again soon.
                        time.sleep(min(wait, 0.05))

            threads = [threading.Thread(target=attack, args=(n,), daemon=True) for n in range(hostile)]
            for thread in threads:
                thread.start()
            time.sleep(2)
            attacked, attacked_statuses = shopper(base, path, requests)
            stop.set()
            for thread in threads:
                thread.join()
            kinds = {}
            for status, code, _ in results:
                kinds[f"{status} {code}".strip()] = kinds.get(f"{status} {code}".strip(), 0) + 1
            hostile_times = [e * 1000 for _, _, e in results]
            print(f"  contains {term!r}: shopper alone      p50 {statistics.median(alone):7.1f}  p95 {percentile(alone, 0.95):7.1f}"
                  f"  max {max(alone):7.1f} ms  {alone_statuses}")
            print(f"  contains {term!r}: shopper, {hostile} hostile p50 {statistics.median(attacked):7.1f}  p95 {percentile(attacked, 0.95):7.1f}"
                  f"  max {max(attacked):7.1f} ms  {attacked_statuses}")
            print(f"  hostile answers: {kinds}; their p50 {statistics.median(hostile_times):.0f} ms")
            time.sleep(2)
    finally:
        proxy.terminate()
        proxy.wait()


if __name__ == "__main__":
    main()
