# One venv, created on first use; every target works on a fresh machine.
VENV   ?= .venv
PYTHON ?= python3
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

LOCK   := requirements/dev.txt

.PHONY: run test bench spec manifests lint lock clean

# The venv holds exactly the lock's versions (hash-checked), then the project itself without deps.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

run: $(STAMP)          ## every service under gunicorn + RQ bot workers (+ embedded Redis if none)
	$(PY) -m shared.runner

test: $(STAMP)         ## lint and type-check, then the whole suite against a real Redis (started if none answers)
	$(PY) -m pyflakes shared services tests
	$(PY) -m mypy         # shared/ and services/, configured in pyproject.toml
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)   # the browser tests
	command -v npm >/dev/null || (apt-get update && apt-get install -y npm)             # axe-core for the browser tests
	command -v haproxy >/dev/null || (apt-get update && apt-get install -y haproxy)     # the scale-out tests
	docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null || \
		(apt-get update && apt-get install -y --no-install-recommends docker-compose)  # compose config check
	$(PY) -m pytest

bench: $(STAMP)        ## benchmarks, one JSON line per figure
	command -v haproxy >/dev/null || (apt-get update && apt-get install -y haproxy)     # the scale-out figures
	$(PY) -m shared.bench

spec: $(STAMP)         ## regenerate api-spec/*.yaml from the code
	$(PY) -m shared.spec write

manifests: $(STAMP)    ## regenerate deploy/k8s/<game>.yaml and deploy/compose.yaml (one source: shared/manifests.py)
	$(PY) -m shared.manifests write

lint: $(STAMP)        ## unused imports, undefined names
	$(PY) -m pyflakes shared services tests

# After changing a dependency in pyproject.toml: re-resolve both locks with uv (pinned in the dev
# extra), keeping every version already locked that still fits; UPGRADE="--upgrade-package NAME" moves one.
UV_COMPILE := $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
              --custom-compile-command "make lock" --quiet
lock: $(STAMP)        ## requirements/base.txt (the image) and requirements/dev.txt (make run/test) from pyproject.toml
	$(UV_COMPILE) $(UPGRADE) -o requirements/base.txt
	$(UV_COMPILE) $(UPGRADE) --extra dev --extra embedded --extra bench -o requirements/dev.txt

clean:
	rm -rf $(VENV) .run .pytest_cache
