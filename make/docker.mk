# Docker runner, included by the Makefile: the image (Dockerfile) runs through compose
# (docker-compose.yml). Everything here writes runner noise to stderr, so a target's stdout is the
# same through either runner.

DOCKER ?= docker
# The image that `make build` makes and RUNNER=docker runs.
DOCKER_IMAGE ?= cv-rag:latest
# The same with the ray extra: what ENGINE=ray runs in, and the compose Ray cluster's nodes.
DOCKER_RAY_IMAGE ?= cv-rag-ray:latest
# Empty: the Dockerfile's default, the official python:3.11-slim. CI passes a local image.
DOCKER_BASE_IMAGE ?=
# Empty: the engine's defaults (bridge). `host` where the engine runs with --iptables=false (CI).
DOCKER_NETWORK ?=
# More `docker build` flags, e.g. --no-cache or --progress=plain.
DOCKER_BUILD_FLAGS ?=
# The commit recorded in the image; empty: git's HEAD (with -dirty for uncommitted changes).
DOCKER_GIT_COMMIT ?=
DOCKER_PROJECT ?= cv-rag
# Variables handed into the container when they are set (and not empty).
DOCKER_ENV_VARS ?= EMBEDDING_MODEL HF_HUB_OFFLINE HF_TOKEN RAG_VIA_MAKE RAY_ADDRESS RAY_AUTH_TOKEN

# ENGINE=ray needs the image with the ray extra; every image target below acts on the one needed.
docker_extras = $(if $(filter ray,$(ENGINE)),ray)
docker_image_used = $(if $(docker_extras),$(DOCKER_RAY_IMAGE),$(DOCKER_IMAGE))
# A loopback RAY_ADDRESS names this machine (the compose cluster publishes its client port there),
# which a container reaches only on the host's network.
docker_network_used = $(or $(DOCKER_NETWORK),$(if $(and $(docker_extras),$(ray_address_is_loopback)),host),bridge)

# Where CV_DIR, STORE and TRUTH_DIR are mounted in the container: at the same path as given, a
# relative one under the container's working folder, so that the pipeline is handed the very same
# arguments and prints the same paths through either runner. A path that would hide part of the
# image (/usr, /app/rag, ...) is mounted at /data/cvs, /data/store or /data/truth instead.
DOCKER_WORKDIR := /app
DOCKER_CV_DIR = $(call docker_path,$(CV_DIR),/data/cvs)
DOCKER_STORE = $(call docker_path,$(STORE),/data/store)
DOCKER_TRUTH_DIR = $(call docker_path,$(TRUTH_DIR),/data/truth)
docker_path = $(if $(call docker_hides_image,$(call docker_abs,$(1))),$(2),$(1))
docker_mount_point = $(if $(call docker_hides_image,$(call docker_abs,$(1))),$(2),$(call docker_abs,$(1)))
docker_abs = $(abspath $(if $(filter /%,$(1)),,$(DOCKER_WORKDIR)/)$(1))
docker_hides_image = $(strip $(filter / /app /app/rag /app/cv_generation /app/docker /data /hf_cache /home /home/app /opt /opt/venv /tmp /var /usr /etc /bin /sbin /lib /lib64 /dev /proc /sys /run /root /boot,$(1)) \
	$(filter /app/rag/% /app/docker/% /opt/venv/% /usr/% /etc/% /bin/% /sbin/% /lib/% /lib64/% /dev/% /proc/% /sys/% /run/%,$(1)))

# $(call docker_within,SECONDS): a prefix that stops a hung engine or registry from stalling make.
docker_within = $(if $(shell command -v timeout),timeout $(1))
# Non-empty iff an engine answers. `docker version` asks the engine for its version, which is cheap.
docker_engine_answers = $(shell $(call docker_within,10) $(DOCKER) version --format '{{.Server.Version}}' >/dev/null 2>&1 && echo yes)
# The image's base: DOCKER_BASE_IMAGE, else the Dockerfile's default.
docker_base_used = $(or $(DOCKER_BASE_IMAGE),$(shell sed -n 's/^ARG BASE_IMAGE=//p' Dockerfile))
# Non-empty iff the engine can have a current image: it is here, built from these sources, or the
# base it is built from is here or can be pulled. An engine with no registry in reach cannot build
# it, so RUNNER=auto runs locally.
docker_image_obtainable = $(shell { { $(docker_image_state); [ "$$state" = current ]; } \
	|| $(DOCKER) image inspect "$(docker_base_used)" \
	|| $(call docker_within,300) $(DOCKER) pull --quiet "$(docker_base_used)"; } >/dev/null 2>&1 && echo yes)

# Compose v2 (the docker plugin) when present, else the standalone docker-compose (1.29 in Debian 12).
# Decided on first use only, like RUNNER_USED.
ifeq ($(origin COMPOSE),undefined)
COMPOSE = $(eval COMPOSE := $(detect_compose))$(COMPOSE)
endif
detect_compose = $(strip $(if $(shell $(DOCKER) compose version >/dev/null 2>&1 && echo yes),$(DOCKER) compose,$(if $(shell command -v docker-compose),docker-compose)))

# The workbench's folder beside the store (shortlists, saved searches: docs/web.md), mounted beside
# the store's mount point, where `rag serve` and `rag mcp` look for it by default; made first, as
# the user, so that a bind mount does not make it as root.
docker_workbench = $(patsubst %/,%,$(STORE)).workbench

# $(call docker_run,MODULE,ARGS): `python -m MODULE ARGS` in the container as the invoking uid:gid
# ($(call docker_compose,SERVICE,VARIABLES): compose with the folders' variables, and more, set).
# CV generation gets the cvgen service, which may write into CV_DIR and TRUTH_DIR; the rest mount
# them read-only. The folders are made here first: a bind mount of a missing folder would be created
# by root. A truth folder that does not exist (a user's own CVs have none) is not made: the store is
# mounted in its place, at a path nothing reads.
docker_service = $(if $(filter cv_generation.%,$(1)),cvgen,rag)
docker_env_flags = $(foreach v,$(DOCKER_ENV_VARS),$(if $($(v)),-e $(v)="$$$(v)"))
docker_compose = $(if $(COMPOSE),,$(error RUNNER=docker needs `docker compose` or `docker-compose`; neither was found)) \
	mkdir -p "$(CV_DIR)" "$(STORE)" $(if $(filter cvgen,$(1)),"$(TRUTH_DIR)") && \
	RAG_UID="$$(id -u)" RAG_GID="$$(id -g)" \
	RAG_CV_DIR="$$(cd "$(CV_DIR)" && pwd -P)" RAG_STORE="$$(cd "$(STORE)" && pwd -P)" \
	RAG_CV_TARGET="$(call docker_mount_point,$(CV_DIR),/data/cvs)" RAG_STORE_TARGET="$(call docker_mount_point,$(STORE),/data/store)" \
	RAG_WORKBENCH="$$(mkdir -p "$(docker_workbench)" && cd "$(docker_workbench)" && pwd -P)" \
	RAG_WORKBENCH_TARGET="$(call docker_mount_point,$(STORE),/data/store).workbench" \
	RAG_TRUTH_DIR="$$(cd "$(TRUTH_DIR)" 2>/dev/null && pwd -P || { cd "$(STORE)" && pwd -P; })" \
	RAG_TRUTH_TARGET="$$(if [ -d "$(TRUTH_DIR)" ]; then echo "$(call docker_mount_point,$(TRUTH_DIR),/data/truth)"; else echo /data/no-truth; fi)" \
	RAG_IMAGE="$(docker_image_used)" RAG_NETWORK_MODE="$(docker_network_used)" $(2) \
	$(COMPOSE) --file "$(CURDIR)/docker-compose.yml" --project-name "$(DOCKER_PROJECT)"
docker_run = $(call docker_compose,$(call docker_service,$(1))) run --rm -T $(docker_env_flags) $(call docker_service,$(1)) python -m $(1) $(2)

# `make serve`: the web service, listening on every address of the container, whose port 8000 is
# published on the host's HOST:PORT (loopback by default), so only the host reaches it. On the host's
# own network (DOCKER_NETWORK=host) nothing is published: it listens on HOST:PORT itself.
docker_serve = $(call docker_compose,web,RAG_WEB_HOST="$(HOST)" RAG_WEB_PORT="$(PORT)") run --rm -T \
	$(if $(filter host,$(docker_network_used)),,--service-ports) $(docker_env_flags) web \
	rag serve --store "$(DOCKER_STORE)" --cv-dir "$(DOCKER_CV_DIR)" \
	$(if $(filter host,$(docker_network_used)),--host "$(HOST)" --port "$(PORT)",--host 0.0.0.0 --port 8000)

# What goes into the image (see .dockerignore). Its checksum is stored as a label, so docker-ready
# rebuilds when the code or the pins change; docker/extra (CI's inputs) is deliberately left out.
DOCKER_INPUTS := Dockerfile .dockerignore requirements-rag.txt pyproject.toml README.md docker/image rag cv_generation
# Computed once per make (on first use, as COMPOSE), and handed to the sub-makes that build.
ifeq ($(origin docker_inputs_id),undefined)
docker_inputs_id = $(eval docker_inputs_id := $(docker_inputs_sum))$(docker_inputs_id)
endif
docker_inputs_sum = $(shell find $(DOCKER_INPUTS) $(if $(docker_extras),requirements-ray.txt) -type f ! -name '*.pyc' ! -path '*/__pycache__/*' ! -path '*/.pytest_cache/*' ! -path '*/node_modules/*' ! -path 'cv_generation/data/*' -exec cksum {} + 2>/dev/null | LC_ALL=C sort | cksum | cut -d' ' -f1)
docker_git_commit = $(or $(DOCKER_GIT_COMMIT),$(shell git rev-parse --short=12 HEAD 2>/dev/null)$(if $(shell git status --porcelain --untracked-files=no 2>/dev/null),-dirty),unknown)
docker_rag_version = $(or $(shell sed -n 's/^__version__ *= *"\(.*\)".*/\1/p' rag/__init__.py 2>/dev/null),unknown)

.PHONY: build docker-ready docker-image-current test-docker

docker_build_flags = $(if $(DOCKER_NETWORK),--network "$(DOCKER_NETWORK)") \
	$(if $(DOCKER_BASE_IMAGE),--build-arg BASE_IMAGE="$(DOCKER_BASE_IMAGE)") \
	--build-arg TORCH_INDEX_URL="$(TORCH_INDEX_URL)" --build-arg GIT_COMMIT="$(docker_git_commit)" \
	--label cv-rag.inputs="$(docker_inputs_id)" --label org.opencontainers.image.version="$(docker_rag_version)" \
	$(DOCKER_BUILD_FLAGS)

build: ## Build the Docker image (DOCKER_IMAGE=cv-rag:latest) used by RUNNER=docker; ENGINE=ray: with Ray.
	$(DOCKER) build $(strip $(docker_build_flags)) $(if $(docker_extras),--build-arg RAG_EXTRAS="$(docker_extras)") \
		--tag "$(docker_image_used)" .

# Shell code that sets $state to "current", "not built yet" or "older than the sources".
docker_image_state = have="$$($(DOCKER) image inspect --format '{{index .Config.Labels "cv-rag.inputs"}}' "$(docker_image_used)" 2>/dev/null)" || have=; \
	if [ -z "$$have" ]; then state="not built yet"; \
	elif [ "$$have" != "$(docker_inputs_id)" ]; then state="older than the sources"; \
	else state=current; fi

# Builds the image when it is missing or older than the sources; silent when it is current.
docker-ready:
	@$(docker_image_state); \
	if [ "$$state" != current ]; then \
		echo "docker: image $(docker_image_used) is $$state; building it (make build; the first build takes minutes)." >&2; \
		$(MAKE) --no-print-directory build docker_inputs_id="$(docker_inputs_id)" >&2; \
	fi

# Fails, saying why, unless the image exists and was built from these sources.
docker-image-current:
	@$(docker_image_state); [ "$$state" = current ] || { echo "docker: image $(docker_image_used) is $$state" >&2; exit 1; }

test-docker: ## Build the image and run index/search through RUNNER=docker end to end (CI).
	@bash docker/ci/test-docker.sh
