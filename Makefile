# nztax verbs. `make site` and `make test` bootstrap .venv on a fresh clone.
# Everything runs offline except `crawl` (live IRD pages) and `deploy`.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
NZTAX  := $(VENV)/bin/nztax
STAMP  := $(VENV)/.installed

export LITELLM_LOCAL_MODEL_COST_MAP := True
export NO_MKDOCS_2_WARNING := 1
export HF_HUB_OFFLINE := 1

.PHONY: help setup site test serve crawl rebuild eval bench deploy lock clean

help:  ## list the verbs
	@grep -E '^[a-z]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*##/ —/'

LOCK         := requirements/lock.txt
LOCK_NO_DEPS := requirements/lock-no-deps.txt
PIP_LOCK     := requirements/pip.txt
UV_VERSION   := 0.9.9

# Every package, transitive ones included, comes from the lock files with its sha256 checked.
$(STAMP): pyproject.toml $(PIP_LOCK) $(LOCK) $(LOCK_NO_DEPS)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(PIP_LOCK)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --require-hashes --no-deps -r $(LOCK_NO_DEPS)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $(STAMP)

setup: $(STAMP)  ## create .venv with the pinned dependencies

site: $(STAMP)  ## build the whole site offline from the bundled corpus into site/
	$(NZTAX) build
	$(PY) -m mkdocs build --strict --clean --site-dir site.new --quiet
	@$(PY) -m nztax_build.publish publish site.new site --kind site  # keeps the replaced build as site.prev
	@echo "site built: site/index.html"

test: $(STAMP)  ## run the test suite
	$(PY) -m pytest -q

serve: $(STAMP)  ## build if needed, then serve the site and /ask on loopback
	$(NZTAX) serve

crawl: $(STAMP)  ## crawl the live sources into corpus/ (needs network)
	$(NZTAX) crawl

rebuild: $(STAMP)  ## after editing a rules file: regenerate only rule-dependent pages
	$(NZTAX) rebuild

eval: $(STAMP)  ## retrieval and answer evaluation over the full bundled corpus; MODEL=<litellm model or scripted:file> answers the bank and real posts through it
	$(NZTAX) build
	$(NZTAX) eval all $(if $(MODEL),--model $(MODEL),)

bench: $(STAMP)  ## speed and memory figures (printed and written to docs/benchmarks.md)
	$(NZTAX) bench

deploy: $(STAMP)  ## deploy function + site (DRY_RUN=1 prints the commands)
	$(NZTAX) deploy $(if $(DRY_RUN),--dry-run,)

lock:  ## re-resolve pyproject.toml's pins into the hashed lock files (needs PyPI)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv==$(UV_VERSION)
	$(VENV)/bin/uv pip compile pyproject.toml requirements/build-tools.in --all-extras --generate-hashes \
	  --python $(PY) --python-platform x86_64-manylinux_2_28 --no-header --quiet -o $(LOCK)
	$(VENV)/bin/uv pip compile requirements/no-deps.in --no-deps --generate-hashes \
	  --python $(PY) --python-platform x86_64-manylinux_2_28 --no-header --quiet -o $(LOCK_NO_DEPS)
	@echo "lock files refreshed; review the diff, then run make setup"

clean:  ## remove generated artifacts (keeps .venv)
	rm -rf site site.new index index.new .work site_src/faq site_src/generated site_src/calculators site_src/tax-years site_src/sources
