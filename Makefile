# `make test` is the README's test command and what .ci/run calls: it installs everything the
# tests need (errgen with its test and bench extras, TypeScript and the node peers, pinned), then runs them.
PYTHON ?= python3

.PHONY: test install golden bench

install:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e ".[test,bench]"
	npm ci --prefix tests/ts --no-audit --no-fund --loglevel=error

test: install
	$(PYTHON) -m pytest -q -p no:cacheprovider

# Refresh the golden outputs (generated/) after reading what changes: `git diff generated/`.
golden:
	$(PYTHON) -m errgen build

bench: install
	$(PYTHON) -m bench.lint_bench
	$(PYTHON) -m bench.recovery_sim --json bench/out/recovery-simulation.json
