#!/usr/bin/env python3
"""Keeps the deployment files true to the binaries (`make test-deploy`, scripts/chaos.sh).

  check-deploy.py metrics METRICS_TXT
      Every metric named by a query of deploy/grafana-dashboard.json and by an alert of
      deploy/alerts.yml is one that /metrics really exposes (METRICS_TXT: a scrape of a
      hub replica in cluster mode).
  check-deploy.py compose BIN_DIR
      Every environment variable docker-compose.yml sets on our services is one that
      hub, storefront-proxy or sfu reads (their clap settings, from `--help` of the
      binaries in BIN_DIR, and the few read with std::env::var in their sources); every
      file it mounts or builds from exists; the load balancer gets every file that
      deploy/hub-lb.conf includes; and it is safe to publish (issue #29 item 12): the
      shop starts empty (DEMO=0) with required secrets, no service runs a --dev mode,
      and only the shop (and the video server, behind its profile) publishes ports.
Exits 1 with one line per problem.
"""
import json
import pathlib
import re
import subprocess
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent

# PromQL words that are not metric names.
PROMQL = {
    "sum", "min", "max", "avg", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "group",
    "count_values", "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or",
    "unless", "offset", "bool", "rate", "irate", "increase", "delta", "idelta", "deriv",
    "histogram_quantile", "abs", "absent", "absent_over_time", "ceil", "floor", "round", "clamp",
    "clamp_min", "clamp_max", "changes", "resets", "time", "vector", "scalar", "label_replace",
    "label_join", "sort", "sort_desc", "avg_over_time", "min_over_time", "max_over_time",
    "sum_over_time", "count_over_time", "last_over_time", "predict_linear", "inf", "nan", "le",
}
# Series Prometheus makes itself for every target.
SYNTHETIC = {"up", "scrape_duration_seconds"}


def metric_names(expr):
    """The metric names a PromQL expression reads."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', "", expr)  # strings (label values)
    expr = re.sub(r"\{[^}]*\}", "", expr)  # label matchers
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # ranges
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    expr = re.sub(r"\$\w+", "", expr)  # Grafana variables
    expr = re.sub(r"(?<![\w:])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?", "", expr)  # numbers, 2e9 too
    names = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", expr))
    return {n for n in names if n.lower() not in PROMQL and not re.fullmatch(r"\d+[smhdwy]", n)}


def exprs_in(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "expr" and isinstance(value, str):
                yield value
            else:
                yield from exprs_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from exprs_in(item)


def check_metrics(metrics_path):
    exposed = set()
    for line in pathlib.Path(metrics_path).read_text().splitlines():
        if line and not line.startswith("#"):
            exposed.add(re.split(r"[{ ]", line, maxsplit=1)[0])
    if not exposed:
        return [f"{metrics_path}: no metrics"]
    problems = []
    sources = {
        "deploy/grafana-dashboard.json": json.loads((ROOT / "deploy/grafana-dashboard.json").read_text()),
        "deploy/alerts.yml": yaml.safe_load((ROOT / "deploy/alerts.yml").read_text()),
    }
    for name, document in sources.items():
        exprs = list(exprs_in(document))
        if not exprs:
            problems.append(f"{name}: no queries")
        for expr in exprs:
            names = metric_names(expr)
            if not names:
                problems.append(f"{name}: {expr!r} names no metric")
            for metric in sorted(names - exposed - SYNTHETIC):
                problems.append(f"{name}: {metric} (in {expr!r}) is not exposed by /metrics")
    return problems


def variables_read(bin_dir):
    names = set()
    for binary in ["hub", "storefront-proxy", "sfu"]:
        path = pathlib.Path(bin_dir) / binary
        if not path.exists():
            sys.exit(f"{path} is missing: build it first (make build-debug)")
        help_text = subprocess.run([str(path), "--help"], capture_output=True, text=True, check=True).stdout
        found = set(re.findall(r"\[env: ([A-Z0-9_]+)", help_text))
        if not found:
            sys.exit(f"{path} --help lists no environment variable")
        names |= found
        crate = ROOT / binary / "src"
        for source in crate.rglob("*.rs"):
            names |= set(re.findall(r'env::var(?:_os)?\("([A-Z0-9_]+)"\)', source.read_text()))
    return names | {"RUST_LOG"}  # tracing's filter, read by every binary


def check_compose(bin_dir):
    compose_path = ROOT / "docker-compose.yml"
    compose = yaml.safe_load(compose_path.read_text())
    read = variables_read(bin_dir)
    dockerfile_stages = set(re.findall(r"(?im)^FROM\s+\S+\s+AS\s+(\S+)", (ROOT / "Dockerfile").read_text()))
    problems = []
    mounted = {}
    for name, service in compose.get("services", {}).items():
        build = service.get("build")
        if build:
            context = ROOT / build.get("context", ".")
            dockerfile = context / build.get("dockerfile", "Dockerfile")
            if not dockerfile.exists():
                problems.append(f"{name}: {dockerfile} does not exist")
            if build.get("target") and build["target"] not in dockerfile_stages:
                problems.append(f"{name}: the Dockerfile has no stage {build['target']}")
            environment = service.get("environment") or {}
            keys = environment.keys() if isinstance(environment, dict) else [e.split("=", 1)[0] for e in environment]
            for key in keys:
                if key not in read:
                    problems.append(f"{name}: {key} is set but no binary reads it")
        for volume in service.get("volumes") or []:
            source, _, rest = volume.partition(":")
            target = rest.split(":")[0]
            if source.startswith((".", "/")):
                if not (compose_path.parent / source).exists():
                    problems.append(f"{name}: mounts {source}, which does not exist")
                mounted.setdefault(name, {})[target] = source
    # The load balancer: deploy/hub-lb.conf and every file it includes, beside nginx.conf.
    lb_conf = ROOT / "deploy/hub-lb.conf"
    lb = [s for s, targets in mounted.items() if "./deploy/hub-lb.conf" in targets.values()]
    if not lb:
        problems.append("no service mounts ./deploy/hub-lb.conf")
    for service in lb:
        for include in re.findall(r"^\s*include\s+([^;\s]+);", lb_conf.read_text(), re.M):
            target = include if include.startswith("/") else f"/etc/nginx/{include}"
            if target not in mounted[service]:
                problems.append(f"{service}: deploy/hub-lb.conf includes {include}, but nothing is mounted at {target}")
    problems += check_compose_is_safe(compose)
    return problems


# What must be set (`${NAME:?…}` in the file) for the deployment to start.
REQUIRED = {"storefront-proxy": ["HUB_SECRET", "ADMIN_PASSWORD", "SHOP_ENDPOINT"], "hub-1": ["HUB_SECRET"]}
# The services that may publish ports: the public origin, and the video server (behind a profile).
PUBLISHED = {"storefront-proxy", "livekit"}


def check_compose_is_safe(compose):
    problems = []
    services = compose.get("services", {})
    for name, service in services.items():
        command = service.get("command") or ""
        command = " ".join(command) if isinstance(command, list) else command
        if "--dev" in command.split():
            problems.append(f"{name}: runs with --dev (well-known keys)")
        if service.get("ports") and name not in PUBLISHED:
            problems.append(f"{name}: publishes ports; only {sorted(PUBLISHED)} may")
        environment = service.get("environment") or {}
        if not isinstance(environment, dict):
            environment = dict(e.split("=", 1) for e in environment)
        for variable in REQUIRED.get(name, []):
            value = str(environment.get(variable, ""))
            if not re.fullmatch(r"\$\{" + variable + r":\?[^}]*\}", value):
                problems.append(f"{name}: {variable} must be required (${{{variable}:?…}}), not {value!r}")
    proxy = services.get("storefront-proxy", {}).get("environment") or {}
    if str(proxy.get("DEMO")) != "0":
        problems.append("storefront-proxy: DEMO must be \"0\" (an empty shop, no demo logins)")
    livekit = services.get("livekit")
    if livekit is not None and livekit.get("ports") and not livekit.get("profiles"):
        problems.append("livekit: publishes ports without a profile")
    return problems


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("metrics", "compose"):
        sys.exit(__doc__)
    problems = check_metrics(sys.argv[2]) if sys.argv[1] == "metrics" else check_compose(sys.argv[2])
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-deploy {sys.argv[1]}: ok")


if __name__ == "__main__":
    main()
