# The third-party-layout corpus (cv_generation/third_party.py, docs/evaluation.md): the external
# résumés laid out by JSON Resume themes from npm, printed by Debian's Chromium, and by TeX Live's CV
# classes. Included by the Makefile; eval-external builds and scores it beside the external corpus.

THEMES_DIR := cv_generation/themes
THEMES_STAMP := $(THEMES_DIR)/node_modules/.installed
# Debian packages the corpus needs, installed when missing and this runs as root (as .ci/run does
# for Chromium); elsewhere the corpus is skipped with one line naming what is missing. Node.js and
# npm are asked for only when there is no npm command: a Node.js from elsewhere (NodeSource's
# package bundles npm) conflicts with Debian's npm, and one conflict fails the whole apt line.
THIRD_PARTY_APT := chromium texlive-latex-extra texlive-fonts-recommended lmodern
THIRD_PARTY_NODE_APT := nodejs npm
THIRD_PARTY_ROOT ?= $(EVAL_ROOT)/third-party

.PHONY: third-party-tools

# The themes and the browser driver, pinned by package-lock.json, into node_modules (git-ignored).
# --ignore-scripts: nothing runs at install; puppeteer-core downloads no browser.
$(THEMES_STAMP): $(THEMES_DIR)/package-lock.json
	npm ci --prefix $(THEMES_DIR) --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

third-party-tools: ## Install what the third-party-layout corpus needs: Debian packages (as root) and the pinned npm themes.
	@missing=$$(for p in $(THIRD_PARTY_APT); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done; \
		command -v npm >/dev/null || echo $(THIRD_PARTY_NODE_APT)); \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "third-party-tools: installing $$missing (a few minutes; log in /tmp/cv-rag-third-party.log)" >&2; \
		{ DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends $$missing; } >/tmp/cv-rag-third-party.log 2>&1 \
			|| { tail -n 5 /tmp/cv-rag-third-party.log >&2; echo "note: could not install $$missing" >&2; }; \
	fi
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(THEMES_STAMP); fi

# $(call third_party_split,dev|test): render, index and score one split; when the tools are missing,
# --check-tools says so in one line and the split is skipped.
third_party_split = if $(VENV_PY) -m cv_generation.third_party --check-tools --resumes "$(EXTERNAL_DATA)/dev-resumes.csv" \
		--jobs "$(EXTERNAL_DATA)/dev-jobs.csv" --split $(1) --out "$(THIRD_PARTY_ROOT)-$(1)"; then \
		echo "== third-party-layout $(1) corpus from $(EXTERNAL_DATA)" >&2; \
		$(VENV_PY) -m cv_generation.third_party --resumes "$(EXTERNAL_DATA)/dev-resumes.csv" \
			--jobs "$(EXTERNAL_DATA)/dev-jobs.csv" --split $(1) --out "$(THIRD_PARTY_ROOT)-$(1)" --force && \
		$(MAKE) --no-print-directory index eval CV_DIR="$(THIRD_PARTY_ROOT)-$(1)/cvs" \
			STORE="$(THIRD_PARTY_ROOT)-$(1)/store" AS_OF="$(EXTERNAL_AS_OF)"; \
	fi
