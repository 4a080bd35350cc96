# CV retrieval pipeline. `make` alone prints the targets.
# Every target that runs the pipeline goes through a runner: the local virtualenv (.venv, made on
# first use) or Docker (make/docker.mk). RUNNER=auto picks Docker when an engine answers.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

PDF_DIR ?= cv_generation/data/cvs
OUT_DIR ?= rag_store
TOPK ?= 5
MODE ?= hybrid
N ?= 30
SEED ?= 42
RUNNER ?= auto
ENGINE ?= local
PYTHON ?= python3.11
VENV ?= .venv
TORCH_INDEX_URL ?= https://download.pytorch.org/whl/cpu
DEFAULT_PDF_DIR := cv_generation/data/cvs

# Handed to the pipeline through the environment, so quotes and `$` in a query survive intact
# (`value` keeps make from expanding a `$` inside the question).
override Q := $(value Q)
export Q EMBEDDING_MODEL HF_HUB_OFFLINE

VENV_PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
VENV_RAY_STAMP := $(VENV)/.installed-ray

include make/docker.mk
include make/ray.mk

# The runner is decided once per make run, and only by targets that need it.
RUNNER_USED = $(eval RUNNER_USED := $(call resolve_runner,$(RUNNER)))$(RUNNER_USED)
resolve_runner = $(strip $(if $(filter local docker,$(1)),$(1),$(if $(filter auto,$(1)),$(if $(docker_engine_answers),docker,local),$(error RUNNER must be auto, docker or local, not "$(1)"))))

# $(call run,module,args): run `python -m module args` through the chosen runner.
# Paths inside args must use $(PDF_DIR_R) and $(OUT_DIR_R), which each runner maps to its own view.
run = $(if $(filter docker,$(RUNNER_USED)),$(call docker_run,$(1),$(2)),$(VENV_PY) -m $(1) $(2))
PDF_DIR_R = $(if $(filter docker,$(RUNNER_USED)),$(DOCKER_PDF_DIR),$(PDF_DIR))
OUT_DIR_R = $(if $(filter docker,$(RUNNER_USED)),$(DOCKER_OUT_DIR),$(OUT_DIR))

.PHONY: help index rebuild search ls clean test cvs eval bench venv runner-ready

help: ## Show this help.
	@echo "CV retrieval pipeline: index CV PDFs, search them with FAISS, BM25 and RRF side by side."
	@echo
	@echo "Targets:"
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'
	@echo
	@echo "Variables: PDF_DIR=$(PDF_DIR) OUT_DIR=$(OUT_DIR) TOPK=$(TOPK) MODE=$(MODE) N=$(N) SEED=$(SEED) RUNNER=$(RUNNER)"
	@echo "           ENGINE=$(ENGINE) (local or ray) RAY_ADDRESS=$(RAY_ADDRESS) RAY_WORKERS=$(RAY_WORKERS)"
	@echo "Environment: EMBEDDING_MODEL (default intfloat/multilingual-e5-small)"
	@echo 'Example: make index && make search Q="Who has experience with Jenkins?"'

venv: $(VENV_STAMP) ## Create the local virtualenv (.venv) and install the pinned requirements.
	@:

$(VENV_STAMP): requirements-rag.txt requirements-dev.txt pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found; install Python 3.11 or pass PYTHON=..." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	@# CPU-only torch first, from the PyTorch CPU index: from PyPI alone pip would pull the CUDA build.
	$(VENV_PY) -m pip install --quiet $(if $(TORCH_INDEX_URL),--extra-index-url $(TORCH_INDEX_URL)) "$$(grep -E '^torch==' requirements-rag.txt)"
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

runner-ready:
	@echo "runner: $(RUNNER_USED)$(if $(filter auto,$(RUNNER)), (RUNNER=auto$(if $(filter local,$(RUNNER_USED)),; no Docker engine answered)))" >&2
	@$(if $(filter docker,$(RUNNER_USED)),$(MAKE) --no-print-directory docker-ready,$(MAKE) --no-print-directory venv $(if $(filter ray,$(ENGINE)),$(VENV_RAY_STAMP)))

index: runner-ready ## Build the search store from PDF_DIR (skips when nothing changed); ENGINE=ray for Ray.
	@$(default_cvs)
	@$(call run,rag.build_index,--pdf-dir "$(PDF_DIR_R)" --out-dir "$(OUT_DIR_R)" $(ENGINE_ARGS))

rebuild: runner-ready ## Rebuild the store from scratch (--force).
	@$(default_cvs)
	@$(call run,rag.build_index,--pdf-dir "$(PDF_DIR_R)" --out-dir "$(OUT_DIR_R)" --force $(ENGINE_ARGS))

# A fresh clone has no CVs yet: generate the default synthetic set, but never into a user's own folder.
generate_cvs = $(call run,cv_generation.generate,--n "$(N)" --seed "$(SEED)" --out "$(PDF_DIR_R)")
default_cvs = if [ "$(PDF_DIR)" = "$(DEFAULT_PDF_DIR)" ] && ! ls $(DEFAULT_PDF_DIR)/*/cv.pdf >/dev/null 2>&1; then \
		echo "No CVs in $(DEFAULT_PDF_DIR) yet: generating the default synthetic set (N=$(N) SEED=$(SEED))." >&2; \
		$(generate_cvs); \
	fi

search: ## Search the store: make search Q="Who has experience with Jenkins?" [TOPK=5] [MODE=hybrid]
	@if [ -z "$$Q" ]; then echo 'usage: make search Q="your question" [TOPK=5] [MODE=hybrid|reranked|faiss|bm25]' >&2; exit 2; fi
	@$(MAKE) --no-print-directory runner-ready
	@$(call run,rag.search,--index-dir "$(OUT_DIR_R)" --topk "$(TOPK)" --mode "$(MODE)" --query "$$Q")

cvs: runner-ready ## Generate synthetic CVs with ground truth: make cvs [N=30] [SEED=42]
	@$(generate_cvs)

eval: runner-ready ## Score FAISS, BM25 and RRF on the generated queries (writes OUT_DIR/eval.json).
	@$(call run,rag.evaluate,--index-dir "$(OUT_DIR_R)" --queries "$(PDF_DIR_R)/queries.jsonl")

ls: ## List the store's files with sizes and summarise its manifest.
	@if [ ! -e "$(OUT_DIR)/manifest.json" ]; then echo "No store in $(OUT_DIR) yet: run make index." >&2; exit 1; fi
	@ls -lhL "$(OUT_DIR)"/{manifest.json,chunks.jsonl,bm25.pkl,faiss.index} 2>/dev/null | awk '{printf "  %6s  %s\n", $$5, $$NF}'
	@du -shL "$(OUT_DIR)" | awk '{print "  total " $$1}'
	@python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print("  built %s from %d PDFs (%d skipped): %d chunks, model %s (dim %d), chunks %d/%d chars, fingerprint %s" % (m["created_at"], m["pdf_count"], len(m["skipped"]), m["chunk_count"], m["embedding_model"], m["dim"], m["chunk_chars"], m["overlap_chars"], m["fingerprint"][:12]))' "$(OUT_DIR)/manifest.json"

clean: ## Remove the built store (keeps generated CVs and the virtualenv).
	@find "$(OUT_DIR)" -mindepth 1 -maxdepth 1 ! -name .gitkeep -exec rm -rf {} +
	@echo "Removed the store in $(OUT_DIR)."

test: venv $(VENV_RAY_STAMP) ## Run the test suite (offline model, no network; installs the ray extra).
	HF_HUB_OFFLINE=1 $(VENV_PY) -m pytest -q tests

bench: venv $(VENV_RAY_STAMP) ## Measure speed against the straightforward baseline; writes bench/report.{json,md}.
	HF_HUB_OFFLINE=1 $(VENV_PY) -m bench.run
