# CV retrieval pipeline. `make` alone prints the targets.
# Every target that runs the pipeline goes through a runner: the local virtualenv (.venv, made on
# first use) or Docker (make/docker.mk). RUNNER=auto picks Docker when an engine answers and can
# have a current image (it is here, or its base is here or can be pulled).

SHELL := /bin/bash
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

# The old names of the two folders still work for one release, with a note (once, at the top level).
ifneq ($(PDF_DIR),)
CV_DIR := $(PDF_DIR)
ifeq ($(MAKELEVEL),0)
$(shell echo 'note: PDF_DIR= is now CV_DIR=; the old name goes in the next release' >&2)
endif
endif
ifneq ($(OUT_DIR),)
STORE := $(OUT_DIR)
ifeq ($(MAKELEVEL),0)
$(shell echo 'note: OUT_DIR= is now STORE=; the old name goes in the next release' >&2)
endif
endif
CV_DIR ?= cv_generation/data/cvs
STORE ?= rag_store
# The truth of a generated corpus (queries, jobs, each CV's facts) sits beside its CV folder.
TRUTH_DIR ?= $(patsubst %/,%,$(dir $(patsubst %/,%,$(CV_DIR))))/truth
TOPK ?= 5
MODE ?= hybrid
N ?= 30
SEED ?= 42
OCR ?= on
RUNNER ?= auto
# Where `make serve` listens: loopback unless told otherwise (docs/web.md).
HOST ?= 127.0.0.1
PORT ?= 8000
ENGINE ?= local
PYTHON ?= python3.11
VENV ?= .venv
TORCH_INDEX_URL ?= https://download.pytorch.org/whl/cpu
DEFAULT_CV_DIR := cv_generation/data/cvs

# Handed to the pipeline through the environment, so quotes and `$` in a query survive intact
# (`value` keeps make from expanding a `$` inside the question).
override Q := $(value Q)
override LOCATION := $(value LOCATION)
override LANGUAGE := $(value LANGUAGE)
override SKILL := $(value SKILL)
override WHERE := $(value WHERE)
export Q LOCATION LANGUAGE SKILL WHERE EMBEDDING_MODEL HF_HUB_OFFLINE
# Tells the pipeline that its user types make variables (MODE=, STORE=), so errors name those.
export RAG_VIA_MAKE := 1

VENV_PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
VENV_RAY_STAMP := $(VENV)/.installed-ray

include make/docker.mk
include make/ray.mk
include make/third_party.mk

# The runner is decided once per make run, and only by targets that need it.
RUNNER_USED = $(eval RUNNER_USED := $(call resolve_runner,$(RUNNER)))$(RUNNER_USED)
resolve_runner = $(strip $(if $(filter local docker,$(1)),$(1),$(if $(filter auto,$(1)),$(auto_runner),$(error RUNNER must be auto, docker or local, not "$(1)"))))
# RUNNER=auto: Docker when an engine answers and can have the image; why not, when it does not.
auto_runner = $(if $(docker_engine_answers),$(if $(docker_image_obtainable),docker,local$(eval AUTO_WHY := \
	a Docker engine answered but has no current $(docker_image_used) nor its base $(docker_base_used) and cannot pull it)),local$(eval \
	AUTO_WHY := no Docker engine answered))

# $(call run,module,args): run `python -m module args` through the chosen runner.
# Paths inside args must use $(CV_DIR_R) and $(STORE_R), which each runner maps to its own view.
run = $(if $(filter docker,$(RUNNER_USED)),$(call docker_run,$(1),$(2)),$(VENV_PY) -m $(1) $(2))
CV_DIR_R = $(if $(filter docker,$(RUNNER_USED)),$(DOCKER_CV_DIR),$(CV_DIR))
STORE_R = $(if $(filter docker,$(RUNNER_USED)),$(DOCKER_STORE),$(STORE))
TRUTH_DIR_R = $(if $(filter docker,$(RUNNER_USED)),$(DOCKER_TRUTH_DIR),$(TRUTH_DIR))

.PHONY: help index rebuild search match profile ls clean test test-slow test-ray cvs eval eval-corpora eval-external third-party-tools bench bench-scale soak docs venv runner-ready mcp serve

help: ## Show this help.
	@echo "CV retrieval pipeline: index CVs, find the people in them with FAISS, BM25 and their fusion side by side."
	@echo
	@echo "Targets:"
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'
	@echo
	@echo "Variables: CV_DIR=$(CV_DIR) STORE=$(STORE) TOPK=$(TOPK) MODE=$(MODE) N=$(N) SEED=$(SEED) OCR=$(OCR) RUNNER=$(RUNNER) JD=$(JD)"
	@echo "  serve takes HOST=$(HOST) PORT=$(PORT)"
	@echo "  search also takes CHUNKS=1 FUSION=convex|rrf WEIGHTS=bm25=0,faiss=1 RRF_K=60 COVERAGE=off IMPLICIT=off JSON=1"
	@echo "  and the filters MIN_YEARS MAX_YEARS LOCATION LANGUAGE SKILL WHERE KEEP_UNKNOWN=1;"
	@echo "  index takes AS_OF=YYYY-MM, REPLACE=1 (another CV_DIR into a STORE) and ENGINE=$(ENGINE) (local or ray) RAY_ADDRESS=$(RAY_ADDRESS) RAY_WORKERS=$(RAY_WORKERS),"
	@echo "  FOLLOW_LINKS=1 and LIMITS=\"--max-pages 300 --file-timeout 600\" (docs/input.md, Limits);"
	@echo "  cvs takes LANGUAGES=en,de TEMPLATES=sidebar,two_page; ls takes VERIFY=1"
	@echo "Environment: EMBEDDING_MODEL (default intfloat/multilingual-e5-small)"
	@echo 'Example: make index && make search Q="Who has experience with Jenkins?"'
	@echo '         make match JD=cv_generation/data/truth/jobs/job_001.txt'

venv: $(VENV_STAMP) ## Create the local virtualenv (.venv) and install the pinned requirements.
	@:

$(VENV_STAMP): requirements-rag.txt requirements-dev.txt pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found; install Python 3.11 or pass PYTHON=..." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	@# CPU-only torch first: the wheel pip already has on disk (its find-links) when there is one, else
	@# from the PyTorch CPU index (from PyPI alone pip would pull the CUDA build). Its own dependencies
	@# come with the requirements below; asking the CPU index for each of them, where that index cannot
	@# be reached, costs a minute of retries.
	torch_pin="$$(grep -E '^torch==' requirements-rag.txt)"; \
	$(VENV_PY) -m pip install --quiet --no-deps --no-index "$$torch_pin" 2>/dev/null \
		|| $(VENV_PY) -m pip install --quiet $(if $(TORCH_INDEX_URL),--extra-index-url $(TORCH_INDEX_URL)) "$$torch_pin"
	$(VENV_PY) -m pip install --quiet -r requirements-rag.txt -r requirements-dev.txt
	@# The project itself, editable, for the `rag` command (.venv/bin/rag); its pins are the lines above.
	$(VENV_PY) -m pip install --quiet --no-deps --editable .
	@if $(VENV_PY) -m pip list 2>/dev/null | grep -iE '^nvidia-|^triton '; then echo "error: CUDA packages were installed; torch must be the CPU build" >&2; exit 1; fi
	@touch $@

# The ray extra, for ENGINE=ray and the tests: a second stamp, so that `make venv` stays light.
$(VENV_RAY_STAMP): requirements-ray.txt $(VENV_STAMP)
	$(VENV_PY) -m pip install --quiet -r requirements-ray.txt
	@if $(VENV_PY) -m pip list 2>/dev/null | grep -iE '^nvidia-|^triton '; then echo "error: CUDA packages were installed with the ray extra" >&2; exit 1; fi
	@touch $@

# Everything it prints goes to stderr (a first `make venv` included): a target's stdout is the
# pipeline's output alone, so `make search JSON=1` and `make mcp` can be piped.
runner_said = runner: $(RUNNER_USED)$(if $(filter auto,$(RUNNER)), (RUNNER=auto$(if $(filter local,$(RUNNER_USED)),; $(AUTO_WHY))))
runner-ready:
	@echo "$(runner_said)" >&2
	@$(if $(filter docker,$(RUNNER_USED)),$(MAKE) --no-print-directory docker-ready docker_inputs_id="$(docker_inputs_id)",$(MAKE) --no-print-directory venv $(if $(filter ray,$(ENGINE)),$(VENV_RAY_STAMP))) >&2

# FOLLOW_LINKS=1 follows links out of CV_DIR; LIMITS="--max-pages 300 ..." raises limits (docs/input.md);
# REPLACE=1 indexes another CV_DIR into a STORE built from a different folder.
index_args = --cv-dir "$(CV_DIR_R)" --store "$(STORE_R)" --ocr "$(OCR)" $(as_of_flag) $(if $(REPLACE),--replace) \
	$(ENGINE_ARGS) $(if $(FOLLOW_LINKS),--follow-links) $(LIMITS)

index: runner-ready ## Build the search store from CV_DIR (skips when nothing changed); OCR=off leaves scans out; ENGINE=ray for Ray.
	@$(default_cvs)
	@$(call run,rag,index $(index_args))

rebuild: runner-ready ## Rebuild the store from scratch (--force).
	@$(default_cvs)
	@$(call run,rag,index $(index_args) --force)

# AS_OF=YYYY-MM: the month "present" means in CV dates (default: this month). Generated CVs date
# their roles as of the generator's reference month, so folders under cv_generation/data get that.
GENERATED_AS_OF := 2025-06
AS_OF ?= $(if $(filter cv_generation/data/%,$(CV_DIR)),$(GENERATED_AS_OF))
as_of_flag = $(if $(AS_OF),--as-of "$(AS_OF)")

# A fresh clone has no CVs yet: generate the default synthetic set, but never into a user's own folder.
generate_cvs = $(call run,cv_generation.generate,--n "$(N)" --seed "$(SEED)" --out "$(CV_DIR_R)" --truth "$(TRUTH_DIR_R)" \
	$(if $(LANGUAGES),--languages "$(LANGUAGES)") $(if $(TEMPLATES),--templates "$(TEMPLATES)") \
	$(if $(TRADES),--trades "$(TRADES)") $(if $(BLIND),--blind))
default_cvs = if [ "$(CV_DIR)" = "$(DEFAULT_CV_DIR)" ] && ! ls $(DEFAULT_CV_DIR)/*/cv.pdf >/dev/null 2>&1; then \
		echo "No CVs in $(DEFAULT_CV_DIR) yet: generating the default synthetic set (N=$(N) SEED=$(SEED))." >&2; \
		$(generate_cvs); \
	fi

# Optional search switches, as make variables: each is passed on only when set.
filter_flags = $(if $(MIN_YEARS),--min-years "$(MIN_YEARS)") $(if $(MAX_YEARS),--max-years "$(MAX_YEARS)") \
	$(if $(LOCATION),--location "$$LOCATION") $(if $(LANGUAGE),--language "$$LANGUAGE") \
	$(if $(SKILL),--skill "$$SKILL") $(if $(WHERE),--where "$$WHERE") $(if $(KEEP_UNKNOWN),--keep-unknown)
search_flags = $(if $(CHUNKS),--chunks) $(if $(FUSION),--fusion "$(FUSION)") $(if $(WEIGHTS),--weights "$(WEIGHTS)") \
	$(if $(RRF_K),--rrf-k "$(RRF_K)") $(if $(filter off no 0,$(COVERAGE)),--no-coverage) $(if $(JSON),--json) \
	$(if $(filter off no 0,$(IMPLICIT)),--no-implicit-filters) $(filter_flags)

search: ## Search the store: make search Q="Who has experience with Jenkins?" [TOPK=5] [MODE=hybrid] ...
	@if [ -z "$$Q" ]; then echo 'usage: make search Q="your question" [TOPK=5] [MODE=hybrid|fused|faiss|bm25] [CHUNKS=1] [FUSION=convex|rrf] [WEIGHTS=bm25=0,faiss=1] [RRF_K=60] [COVERAGE=off] [IMPLICIT=off] [JSON=1] [MIN_YEARS=5] [MAX_YEARS=10] [LOCATION=Berlin] [LANGUAGE=German:B2] [SKILL=Java] [WHERE="years>=5 and skill=Java"] [KEEP_UNKNOWN=1]' >&2; exit 2; fi
	@$(MAKE) --no-print-directory runner-ready
	@$(call run,rag,search --store "$(STORE_R)" --topk "$(TOPK)" --mode "$(MODE)" $(strip $(search_flags)) --query "$$Q")

profile: ## Show what the index read from one CV: make profile CV=cv_001 [JSON=1]
	@if [ -z "$(CV)" ]; then echo 'usage: make profile CV=cv_001 [JSON=1]' >&2; exit 2; fi
	@$(MAKE) --no-print-directory runner-ready
	@$(call run,rag,profile "$(CV)" --store "$(STORE_R)" $(if $(JSON),--json))

# stdout is the MCP protocol from the first byte (runner-ready writes to stderr only).
mcp: ## Serve the store to assistants over MCP on stdin/stdout (docs/mcp.md).
	@$(MAKE) --no-print-directory runner-ready
	@$(call run,rag,mcp --store "$(STORE_R)")

# The web pages, until Ctrl-C. Locally the pictures come from the folder the store was built from
# unless CV_DIR is given; in the container, from CV_DIR as mounted. Through Docker the port is
# published on the host's HOST:PORT.
serve: ## Serve web pages on http://HOST:PORT: the lists, CVs with the evidence highlighted, match, status (docs/web.md).
	@$(MAKE) --no-print-directory runner-ready
	@$(if $(filter docker,$(RUNNER_USED)),$(docker_serve),$(VENV_PY) -m rag serve --store "$(STORE)" \
		$(if $(filter command environment,$(origin CV_DIR)),--cv-dir "$(CV_DIR)") --host "$(HOST)" --port "$(PORT)")

# The job description goes in on standard input, so that a file anywhere on the host reaches the
# container too; TOPK is passed on only when given (match shows 10 by default, search 5).
match_flags = $(if $(filter command environment,$(origin TOPK)),--topk "$(TOPK)") $(if $(JSON),--json) \
	$(if $(CSV),--csv) $(if $(PHRASE_THRESHOLD),--phrase-threshold "$(PHRASE_THRESHOLD)") $(if $(MIN_SCORE),--min-score "$(MIN_SCORE)") $(filter_flags)

match: ## Rank the CVs against a job description: make match JD=job.txt|.md|.pdf [TOPK=10] [JSON=1|CSV=1] ...
	@if [ -z "$(JD)" ]; then echo 'usage: make match JD=path/to/job.txt|.md|.pdf [TOPK=10] [JSON=1|CSV=1] [PHRASE_THRESHOLD=0.31] [MIN_SCORE=60] [the filters of make search]' >&2; exit 2; fi
	@if [ "$(JD)" != - ] && [ ! -f "$(JD)" ]; then echo "error: no job description at $(JD)" >&2; exit 1; fi
	@$(MAKE) --no-print-directory runner-ready
	@$(call run,rag,match --store "$(STORE_R)" $(strip $(match_flags)) --jd -) $(if $(filter -,$(JD)),,< "$(JD)")

cvs: runner-ready ## Generate synthetic CVs into CV_DIR and their truth into TRUTH_DIR: make cvs [N=30] [SEED=42]
	@$(generate_cvs)

eval: runner-ready ## Score FAISS, BM25, the fused list, the profiles and rag match against TRUTH_DIR (a corpus's truth).
	@$(call run,rag,eval --store "$(STORE_R)" --truth "$(TRUTH_DIR_R)")

# The two corpora eval-corpora scores: "test" is the issue's reference (N=300 SEED=42, every language
# and layout); "dev", with another seed, without Spanish and without the classic layout, is the one
# fusion defaults are chosen on (docs/search.md), so no default is chosen on the data it is scored on.
EVAL_ROOT ?= cv_generation/data/eval
EVAL_CORPORA = test:42:en,es,de,fr:classic,modern,sidebar,two_page dev:7:en,de,fr:modern,sidebar,two_page
# The trades corpora (#42): eight trades outside IT (cv_generation/roles.py TRADES), a dev and a test
# split with seeds of their own, and the test split again blind (no name, e-mail or LinkedIn).
TRADES_CORPORA = trades-dev:17: trades-test:23: trades-test-blind:23:1

eval-corpora: runner-ready ## Generate the test and dev corpora (300 CVs each), the trades corpora, index and score them; then the external ones.
	@set -e; for spec in $(EVAL_CORPORA); do IFS=: read -r name seed langs layouts <<< "$$spec"; \
		echo "== $$name corpus: N=300 SEED=$$seed LANGUAGES=$$langs TEMPLATES=$$layouts" >&2; \
		$(MAKE) --no-print-directory cvs CV_DIR="$(EVAL_ROOT)/$$name/cvs" N=300 SEED="$$seed" LANGUAGES="$$langs" TEMPLATES="$$layouts"; \
		$(MAKE) --no-print-directory index eval CV_DIR="$(EVAL_ROOT)/$$name/cvs" STORE="$(EVAL_ROOT)/$$name/store"; \
	done
	@set -e; for spec in $(TRADES_CORPORA); do IFS=: read -r name seed blind <<< "$$spec"; \
		echo "== $$name corpus: N=300 SEED=$$seed, eight trades outside IT$${blind:+, blind}" >&2; \
		$(MAKE) --no-print-directory cvs CV_DIR="$(EVAL_ROOT)/$$name/cvs" N=300 SEED="$$seed" TRADES=all BLIND="$$blind"; \
		$(MAKE) --no-print-directory index eval CV_DIR="$(EVAL_ROOT)/$$name/cvs" STORE="$(EVAL_ROOT)/$$name/store"; \
	done
	@$(MAKE) --no-print-directory eval-external

# Résumés and job postings nobody here wrote (docs/evaluation.md): EXTERNAL_DATA holds
# dev-resumes.csv and dev-jobs.csv; each split ("dev" to tune on, "test" to report on) is rendered
# to PDF with its truth by the virtualenv's Python, then indexed and scored like any corpus. Their
# "present" is fixed (EXTERNAL_AS_OF), so that a run next year gives the same years.
EXTERNAL_DATA ?= ../shared/data
EXTERNAL_AS_OF ?= 2026-11
# Domain-heavy slices of the external dev split (cv_generation/external_slice.py): one job family's
# résumés, where its products are common; rules are kept only if they win there too.
EXTERNAL_FAMILIES ?= php java

eval-external: runner-ready venv third-party-tools ## Build the external dev and test corpora from EXTERNAL_DATA (our layouts, two one-family slices, third-party layouts), index and score them.
	@if [ ! -f "$(EXTERNAL_DATA)/dev-resumes.csv" ] || [ ! -f "$(EXTERNAL_DATA)/dev-jobs.csv" ]; then \
		echo "eval-external: no dev-resumes.csv and dev-jobs.csv in EXTERNAL_DATA=$(EXTERNAL_DATA): skipped" >&2; exit 0; fi; \
	set -e; for split in dev test; do \
		echo "== external $$split corpus from $(EXTERNAL_DATA)" >&2; \
		$(VENV_PY) -m cv_generation.external --resumes "$(EXTERNAL_DATA)/dev-resumes.csv" \
			--jobs "$(EXTERNAL_DATA)/dev-jobs.csv" --split $$split --out "$(EVAL_ROOT)/external-$$split" --force; \
		$(MAKE) --no-print-directory index eval CV_DIR="$(EVAL_ROOT)/external-$$split/cvs" \
			STORE="$(EVAL_ROOT)/external-$$split/store" AS_OF="$(EXTERNAL_AS_OF)"; \
	done; \
	for family in $(EXTERNAL_FAMILIES); do \
		echo "== external dev corpus, $$family family only" >&2; \
		$(VENV_PY) -m cv_generation.external_slice --resumes "$(EXTERNAL_DATA)/dev-resumes.csv" \
			--jobs "$(EXTERNAL_DATA)/dev-jobs.csv" --corpus "$(EVAL_ROOT)/external-dev" --family $$family \
			--out "$(EVAL_ROOT)/external-dev-$$family"; \
		$(MAKE) --no-print-directory index eval CV_DIR="$(EVAL_ROOT)/external-dev-$$family/cvs" \
			STORE="$(EVAL_ROOT)/external-dev-$$family/store" AS_OF="$(EXTERNAL_AS_OF)"; \
	done; \
	for split in dev test; do $(call third_party_split,$$split); done

ls: runner-ready ## List the store's files and what it was built from [VERIFY=1 hashes every file].
	@$(call run,rag,ls --store "$(STORE_R)" $(if $(VERIFY),--verify))

clean: runner-ready ## Remove the store in STORE, and only a store (keeps CVs, the virtualenv, other files).
	@$(call run,rag,clean --store "$(STORE_R)")

# axe-core for the browser tests' accessibility check, pinned by its npm lockfile and installed
# from it (npm ci). Without npm the check is skipped with one line (.ci/run installs npm).
AXE := tests/a11y/node_modules/axe-core/axe.min.js

$(AXE): tests/a11y/package.json tests/a11y/package-lock.json
	npm ci --prefix tests/a11y --no-audit --no-fund --loglevel=error && touch $@

# pytest runs with bytecode allowed whatever the environment says: with PYTHONDONTWRITEBYTECODE set
# (as on our machines) every worker and every `rag` a test starts compiles the package and rewrites
# each test module's asserts again, a third of make test's time (56 s against 40 s, docs/performance.md).
PYTEST = env -u PYTHONDONTWRITEBYTECODE HF_HUB_OFFLINE=1 $(VENV_PY) -m pytest

# -rs: a skipped module says why in one line (the browser tests, when Chromium is not installed).
test: venv $(VENV_RAY_STAMP) ## Lint and format check (ruff), then the test suite on two workers (offline model, no network).
	@# The pinned themes, for the one test that prints a résumé through a theme (skipped without npm).
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(THEMES_STAMP) || echo "note: npm ci failed; the theme test will be skipped" >&2; fi
	@# The pinned axe-core, for the accessibility check of the browser tests (skipped without npm).
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(AXE) || echo "note: npm ci failed; the accessibility check will be skipped" >&2; \
	else echo "note: npm not found: the accessibility check (axe-core) will be skipped" >&2; fi
	$(VENV)/bin/ruff check --quiet . && $(VENV)/bin/ruff format --check --quiet .
	$(PYTEST) -q -rs -n 2 --dist loadfile --no-loadscope-reorder -m "not ray_cluster and not slow" tests

test-slow: venv $(VENV_RAY_STAMP) ## The slow, thorough tests make test leaves out (kill -9 loops, browsers, a fresh export, every bench step); CI runs them.
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(AXE) || echo "note: npm ci failed; the accessibility check will be skipped" >&2; fi
	$(PYTEST) -q -rs -n 2 --dist loadfile --no-loadscope-reorder -m "slow and not ray_cluster" tests

test-ray: venv $(VENV_RAY_STAMP) ## Run the tests that start a local Ray instance (Ray builds equal local ones; CI runs them).
	$(PYTEST) -q -rs -m ray_cluster tests

docs: venv ## Regenerate the CLI reference in docs/cli.md from every command's --help.
	$(VENV_PY) -m rag.cli.reference docs/cli.md

bench: venv $(VENV_RAY_STAMP) ## Measure speed against the straightforward baseline; writes bench/report.{json,md}.
	HF_HUB_OFFLINE=1 $(VENV_PY) -m bench.run

soak: venv ## Load run: rag serve (16 clients) and rag mcp (8 calls) for 60 s each over 1,950 CVs, a rebuild adding 50 halfway; writes bench/report-soak.{json,md}.
	HF_HUB_OFFLINE=1 $(VENV_PY) -m bench.soak $(or $(SOAK_DIR),/tmp/cv-rag-soak)

bench-scale: venv ## Build, search and grow stores of 1M, 2M and 4.3M chunks (hours); writes bench/report-scale.json.
	HF_HUB_OFFLINE=1 $(VENV_PY) -m bench.scale
