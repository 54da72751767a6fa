# One venv, created on first use; every target works on a fresh machine.
VENV   ?= .venv
PYTHON ?= python3
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test bench spec manifests lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,embedded,bench]'
	touch $(STAMP)

run: $(STAMP)          ## every service under gunicorn + RQ bot workers (+ embedded Redis if none)
	$(PY) -m shared.runner

test: $(STAMP)         ## lint, then the whole suite against a real Redis (started if none answers)
	$(PY) -m pyflakes shared services tests
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)   # the browser tests
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

clean:
	rm -rf $(VENV) .run .pytest_cache
