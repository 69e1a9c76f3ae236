#!/usr/bin/env python3
"""Keeps ARCHITECTURE.md a map that cannot lie (`make lint`).

Every backticked name in it must exist:
  - a path (`hub/src/ws/gate.rs`, `web/src/features/room/`, `scripts/*.sh`): a file or
    folder of the repository (globs allowed), relative to the root, or within the folder
    of the section it is in (a heading naming `hub/` makes `live/room.rs` mean a file
    under `hub/` whose path ends so);
  - a Rust path (`Room::apply`, `live::submit`, `protocol::LiveState`): every segment a
    module, type, trait, function, constant or variant defined in the Rust sources.
Other backticked text (commands, values, `?token=`) is not checked. Exits 1 with one line
per name that does not exist.
"""
import glob
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "ARCHITECTURE.md"
# Folders a relative path may start from.
BASES = ["", "hub/", "protocol/", "listener/", "storefront-proxy/", "sfu/", "loadtest/", "web/", "web/src/", "scripts/", "deploy/"]
PATH_SUFFIXES = (".rs", ".ts", ".tsx", ".md", ".sql", ".sh", ".json", ".yml", ".yaml", ".toml", ".py", ".mjs", ".conf", ".css")
# Crates and namespaces that are not ours.
EXTERNAL = {"std", "core", "alloc", "tokio", "axum", "hyper", "serde", "serde_json", "rusqlite", "redis", "tracing", "reqwest", "dashmap",
            "futures", "futures_util", "tower", "tower_http", "str0m", "governor", "ammonia", "argon2", "rmp_serde", "tungstenite",
            "tokio_tungstenite", "livekit_protocol", "prost", "mimalloc", "jsonwebtoken", "ts_rs", "clap", "time", "uuid", "rand"}
RUST_PATH = re.compile(r"^(?:crate::)?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?$")
DEFINITION = re.compile(
    r"\b(?:fn|struct|enum|trait|type|const|static|mod|macro_rules!)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
VARIANT = re.compile(r"^\s*([A-Z][A-Za-z0-9_]*)\s*(?:[({,]|=|$)", re.M)


def rust_names():
    """Every name defined in our Rust sources, and every source file's module name."""
    names = set()
    for path in ROOT.glob("*/src/**/*.rs"):
        if "target" in path.parts:
            continue
        text = path.read_text(errors="replace")
        names.update(DEFINITION.findall(text))
        names.update(VARIANT.findall(text))
        names.add(path.stem)
        if path.stem == "mod":
            names.add(path.parent.name)
    for crate in ROOT.glob("*/Cargo.toml"):
        names.add(crate.parent.name.replace("-", "_"))
    return names


def path_exists(name, section):
    name = name.rstrip("/")
    if section:
        under = ROOT / section
        if (under / name).exists() or (under / "src" / name).exists():
            return True
        if any(p for p in under.rglob(pathlib.PurePath(name).name) if p.as_posix().endswith("/" + name) and "node_modules" not in p.parts):
            return True
    for base in BASES:
        candidate = base + name
        if any(ch in candidate for ch in "*?["):
            if glob.glob(str(ROOT / candidate), recursive=True):
                return True
        elif (ROOT / candidate).exists():
            return True
    return False


def looks_like_path(name):
    if " " in name or name.startswith(("http://", "https://", "ws://", "wss://", "-", "$", "@")) or any(c in name for c in "{}<>…"):
        return False
    if "::" in name or "=" in name:
        return False
    return "/" in name and not name.startswith("/") or name.endswith(PATH_SUFFIXES)


def main():
    text = DOC.read_text()
    # Fenced code blocks are pictures, not claims.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    names = rust_names()
    problems = []
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        heading = re.match(r"^#+\s+`([^`]+/)`", line)
        if heading:
            section = heading.group(1)
        elif line.startswith("## "):
            section = ""
        for name in re.findall(r"`([^`\n]+)`", line):
            name = name.strip()
            if looks_like_path(name):
                if not path_exists(name, section):
                    problems.append(f"ARCHITECTURE.md:{number}: `{name}`: no such file or folder")
            elif RUST_PATH.match(name):
                segments = name.removesuffix("()").removeprefix("crate::").split("::")
                if segments[0] in EXTERNAL:
                    continue
                missing = [s for s in segments if s not in names]
                if missing:
                    problems.append(f"ARCHITECTURE.md:{number}: `{name}`: {', '.join(missing)} not defined in the Rust sources")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("check-architecture: ok")


if __name__ == "__main__":
    main()
