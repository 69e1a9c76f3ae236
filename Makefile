# Salesroom: `make up` runs the product, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM ?= npm
export CARGO_TERM_COLOR ?= never
# A fresh clone builds once: incremental caches (GBs) only help repeated local builds.
ifdef CI
export CARGO_INCREMENTAL ?= 0
endif

.PHONY: help up cluster test lint test-rust test-web test-e2e test-conformance test-deploy test-cluster web-deps web-build system-deps protocol-ts build-release build-debug clean

help:
	@echo "make up          build everything and run the demo (storefront-proxy :8000, hub :8100)"
	@echo "make cluster     redis-server, REPLICAS hub replicas (default 3) behind nginx, storefront-proxy (Ctrl-C stops all)"
	@echo "make test        every test: Rust, web unit, browser end-to-end, deployment files, cluster chaos"
	@echo "make lint        cargo fmt --check, clippy -D warnings, ARCHITECTURE.md check, cargo doc -D warnings, ESLint"
	@echo "make test-rust   cargo tests of the workspace"
	@echo "make test-web    typecheck and vitest of web/"
	@echo "make test-e2e    Playwright journeys in Chromium against the real servers"
	@echo "make test-conformance  the official Store API client against the real shop, answers checked against its schema"
	@echo "make test-deploy promtool check of deploy/alerts.yml; docker-compose.yml variables and files against the binaries"
	@echo "make test-cluster the chaos test: 300 attendees through nginx while every replica restarts, one is killed and Redis restarts"
	@echo "make protocol-ts regenerate web/src/protocol/generated.ts and live-state-cases.json from the protocol crate"

## Installs web/node_modules when missing or older than the lock file.
web/node_modules/.package-lock.json: web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
web-deps: web/node_modules/.package-lock.json

web-build: web-deps
	cd web && $(NPM) run build

build-release:
	$(CARGO) build --release -p hub -p storefront-proxy -p sfu

build-debug:
	$(CARGO) build -p hub -p storefront-proxy -p sfu

up: web-build build-release
	./scripts/up.sh

## The cluster of CONTRACT.md: REPLICAS=n for another number of hub replicas.
cluster: system-deps web-build build-release
	./scripts/cluster.sh

## Debian packages the tests and `make cluster` need: Chromium for Playwright,
## redis-server, nginx and curl for the cluster, promtool (prometheus) for the alert rules,
## python3-yaml for scripts/check-deploy.py (prometheus without its recommended exporters).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v nginx >/dev/null 2>&1 || missing="$$missing nginx"; \
	command -v curl >/dev/null 2>&1 || missing="$$missing curl"; \
	python3 -c 'import yaml' >/dev/null 2>&1 || missing="$$missing python3-yaml"; \
	bare=""; command -v promtool >/dev/null 2>&1 || bare="prometheus"; \
	if [ -n "$$missing$$bare" ]; then \
		echo "installing:$$missing $$bare"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq; \
		[ -z "$$missing" ] || DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
		[ -z "$$bare" ] || DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$bare >/dev/null; \
	fi

## The habits every change keeps: formatted, no clippy warning, ARCHITECTURE.md names
## only what exists, no broken doc link, no ESLint error (typescript-eslint, React hooks,
## import zones and cycles).
lint: web-deps
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	python3 scripts/check-architecture.py
	RUSTDOCFLAGS="-D warnings -A rustdoc::private_intra_doc_links" $(CARGO) doc --workspace --no-deps --document-private-items
	cd web && $(NPM) run lint

test-rust: system-deps web-deps
	$(CARGO) test --workspace

test-web: web-deps
	cd web && $(NPM) run typecheck && $(NPM) run test:unit

test-e2e: system-deps web-build build-debug
	cd web && SALESROOM_BIN_DIR=$(CURDIR)/target/debug $(NPM) run test:e2e

test-conformance: web-deps build-debug
	cd web && SALESROOM_BIN_DIR=$(CURDIR)/target/debug $(NPM) run test:conformance

## The deployment files stay true: alert rules valid, compose variables read by the
## binaries and its files present (metric names: checked by test-cluster on a live scrape).
test-deploy: system-deps build-debug
	promtool check rules deploy/alerts.yml
	python3 scripts/check-deploy.py compose target/debug

## scripts/chaos.sh: the processes of `make cluster` (debug build) under load and chaos.
test-cluster: system-deps build-debug
	$(CARGO) build -p loadtest --bin loadtest
	BIN_DIR=$(CURDIR)/target/debug ./scripts/chaos.sh

test: lint test-rust test-web test-conformance test-e2e test-deploy test-cluster

protocol-ts:
	$(CARGO) run -q -p protocol --bin protocol-ts -- web/src/protocol/generated.ts web/src/protocol/live-state-cases.json

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules
