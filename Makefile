# One venv, created on first use; every target works on a fresh machine.
VENV   ?= .venv
PYTHON ?= python3
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

LOCK   := requirements/dev.txt
# The whole suite's time limit, in seconds (it takes 17 to 37 minutes on 2 cores, with a cold cache): past it, pytest is
# interrupted (it prints where it was and what ran), and killed a minute later if it still runs.
SUITE_DEADLINE ?= 4200

.PHONY: run test test-fast bench spec golden manifests image lint lock clean

# The venv holds exactly the lock's versions (hash-checked), then the project itself without deps.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

run: $(STAMP)          ## every service under gunicorn + RQ bot workers (+ embedded Redis if none)
	$(PY) -m shared.ops.runner

test: $(STAMP)         ## lint (ruff), the import layers (import-linter) and types, then the whole suite against a real Redis
	$(PY) -m ruff check shared services tests
	$(VENV)/bin/lint-imports      # the contracts in pyproject.toml ([tool.importlinter])
	$(PY) -m mypy         # shared/ and services/, configured in pyproject.toml
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)   # the browser tests
	command -v npm >/dev/null || (apt-get update && apt-get install -y npm)             # axe-core for the browser tests
	command -v haproxy >/dev/null || (apt-get update && apt-get install -y haproxy)     # the scale-out tests
	docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null || \
		(apt-get update && apt-get install -y --no-install-recommends docker-compose)  # compose config check
	command -v podman >/dev/null && command -v mmdebstrap >/dev/null || \
		(apt-get update && apt-get install -y --no-install-recommends podman buildah mmdebstrap)  # the image's build
	timeout --signal=INT --kill-after=60 $(SUITE_DEADLINE) \
		$(PY) -m pytest --durations=30    # the 30 slowest tests, then pytest's count and the suite's time, last

# The tests that start no process (no gunicorn, no browser), run no RQ worker (test_bots and
# test_clocks run one in-process, and the clocks wait out real deadlines) and are not marked slow.
FAST_TESTS := tests/catan tests/elasund tests/elfenland tests/elastium tests/shared \
              --ignore=tests/shared/test_bots.py --ignore=tests/shared/test_clocks.py
test-fast: $(STAMP)    ## the rules engines' tests and the platform's in-process ones (a real Redis): about a minute
	@start=$$(date +%s); $(PY) -m pytest -m "not e2e and not slow" $(FAST_TESTS); status=$$?; \
	echo "make test-fast: $$(( $$(date +%s) - start )) s"; exit $$status

bench: $(STAMP)        ## benchmarks, one JSON line per figure
	command -v haproxy >/dev/null || (apt-get update && apt-get install -y haproxy)     # the scale-out figures
	$(PY) -m shared.ops.bench

spec: $(STAMP)         ## regenerate api-spec/*.yaml from the code
	$(PY) -m shared.ops.spec write

golden: $(STAMP)       ## golden logs of each game's newest engine version, where it has none yet (tests/golden)
	$(PY) -m shared.ops.golden record catan elasund elfenland elastium --missing-only

manifests: $(STAMP)    ## regenerate deploy/k8s/<game>.yaml and deploy/compose.yaml (one source: shared/ops/manifests.py)
	$(PY) -m shared.ops.manifests write

# About 2 minutes from nothing (the Debian base, once, then the image's layers); make test runs it too
# (tests/e2e/test_image_build.py).
image: $(STAMP)       ## build deploy/Dockerfile with podman on a Debian base (no registry), start it, check it
	command -v podman >/dev/null && command -v mmdebstrap >/dev/null || \
		(apt-get update && apt-get install -y --no-install-recommends podman buildah mmdebstrap)
	$(PY) -m shared.ops.image

lint: $(STAMP)        ## ruff (the rule families in pyproject.toml) and the import layers (lint-imports)
	$(PY) -m ruff check shared services tests
	$(VENV)/bin/lint-imports

# After changing a dependency in pyproject.toml: re-resolve both locks with uv (pinned in the dev
# extra), keeping every version already locked that still fits; UPGRADE="--upgrade-package NAME" moves one.
UV_COMPILE := $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
              --custom-compile-command "make lock" --quiet
lock: $(STAMP)        ## requirements/base.txt (the image) and requirements/dev.txt (make run/test) from pyproject.toml
	$(UV_COMPILE) $(UPGRADE) -o requirements/base.txt
	$(UV_COMPILE) $(UPGRADE) --extra dev --extra embedded --extra bench -o requirements/dev.txt

clean:
	rm -rf $(VENV) .run .pytest_cache
