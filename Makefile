# `make test` is the README's test command and what .ci/run calls: it installs everything the
# tests need (errgen with its test extra, TypeScript and the node peers, pinned), then runs them in
# parallel, one worker per core and one more (a test file stays on one worker: its module fixtures
# build once; the extra worker keeps both cores busy while another waits on a subprocess).
# By default it skips the tests marked slow (the Go, Rust and Java toolchain builds); FULL=1, or
# CI=true as CI services set it (and .ci/run does), runs every test. pip skips byte-compiling the
# ~150 installed packages (a quarter of the install's time): Python compiles what the tests import.
PYTHON ?= python3
JOBS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
SELECT = $(if $(FULL)$(filter true 1,$(CI)),,-m "not slow")

.PHONY: test install golden bench

install:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --no-compile -e ".[test]"
	npm ci --prefix tests/ts --no-audit --no-fund --loglevel=error

test: install
	$(PYTHON) -m pytest -q -p no:cacheprovider -n $(JOBS) --dist loadfile $(SELECT)

# Refresh the golden outputs (generated/) after reading what changes: `git diff generated/`.
golden:
	$(PYTHON) -m errgen build

# The benchmarks' and the simulation's dependencies (the bench extra), then the quick benchmarks;
# afterwards any `python -m bench.NAME` runs, e.g. python -m bench.recovery_sim. The runtime and
# compile benches use whichever of node, go, cargo and javac are installed (the first run fetches
# and builds each language's peer validator: minutes for Rust's); a missing one prints unavailable.
bench:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e ".[bench]"
	$(PYTHON) -m bench.lint_bench
	$(PYTHON) -m bench.diff_bench --quick
	$(PYTHON) -m bench.site_bench --repeat 3
	$(PYTHON) -m bench.recovery_sim --json bench/out/recovery-simulation.json
	$(PYTHON) -m bench.runtime_bench --quick --json bench/out/runtime-quick.json
	$(PYTHON) -m bench.compile_bench --quick
