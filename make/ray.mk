# The Ray engine, included by the Makefile: ENGINE=ray for index/rebuild, and a Ray cluster on this
# machine in Docker (the compose profile `ray`: a head and two workers from the image with the ray
# extra) for `make index ENGINE=ray RAY_ADDRESS=ray://127.0.0.1:10001`.

# Empty: a local Ray instance started for the build. ray://host:port: a cluster, through Ray Client.
RAY_ADDRESS ?=
# Empty: one worker per CPU of the cluster.
RAY_WORKERS ?=
# Where the compose cluster's head publishes its Ray Client port, on this machine's loopback only.
RAY_CLIENT_PORT ?= 10001
# The compose cluster's token (made by ray-up, kept out of git): every node and client presents it.
RAY_TOKEN_FILE ?= .ray-token
RAY_UP_TIMEOUT ?= 240

ifeq ($(filter local ray,$(ENGINE)),)
$(error ENGINE must be local or ray, not "$(ENGINE)")
endif

ENGINE_ARGS = --engine $(ENGINE)$(if $(RAY_WORKERS), --ray-workers "$(RAY_WORKERS)")
ray_address_is_loopback = $(filter ray://127.% ray://localhost:% 127.% localhost:%,$(RAY_ADDRESS))

# A client of the compose cluster needs its token; one given in the environment wins.
ifeq ($(ENGINE),ray)
RAY_AUTH_TOKEN ?= $(shell cat "$(RAY_TOKEN_FILE)" 2>/dev/null)
endif
export RAY_ADDRESS RAY_AUTH_TOKEN

.PHONY: ray-up ray-down ray-status

ray_ready_check = import sys, logging, ray; ray.init("ray://127.0.0.1:10001", logging_level=logging.ERROR, log_to_driver=False); sys.exit(int(ray.cluster_resources().get("CPU", 0) < 2))

# compose with the ray profile, the ray image, and the token.
ray_compose = $(if $(COMPOSE),,$(error the Ray cluster needs `docker compose` or `docker-compose`; neither was found)) \
	RAG_RAY_IMAGE="$(DOCKER_RAY_IMAGE)" RAY_CLIENT_PORT="$(RAY_CLIENT_PORT)" \
	RAY_AUTH_TOKEN="$$(cat "$(RAY_TOKEN_FILE)")" \
	$(COMPOSE) --file "$(CURDIR)/docker-compose.yml" --project-name "$(DOCKER_PROJECT)-ray" --profile ray

ray-up: ## Start a Ray cluster in Docker (a head, two workers) for ENGINE=ray RAY_ADDRESS=ray://127.0.0.1:10001.
	@$(MAKE) --no-print-directory docker-ready ENGINE=ray
	@[ -s "$(RAY_TOKEN_FILE)" ] || (umask 077 && od -An -vtx1 -N32 /dev/urandom | tr -d ' \n' > "$(RAY_TOKEN_FILE)")
	@$(ray_compose) up --detach ray-head ray-worker-1 ray-worker-2 >&2
	@echo "ray: waiting for the head and two workers (up to $(RAY_UP_TIMEOUT) s)" >&2
	@# Ready means a Ray Client connection, as a build makes it, sees both workers' CPUs. It also takes
	@# the first connection, which Ray's client server fails now and then (docs/ray.md).
	@deadline=$$((SECONDS + $(RAY_UP_TIMEOUT))); \
	until $(ray_compose) exec -T ray-head python -c '$(ray_ready_check)' >/dev/null 2>&1; do \
		if [ $$SECONDS -ge $$deadline ]; then \
			$(ray_compose) logs --tail 20 >&2; echo "ray: the cluster did not come up within $(RAY_UP_TIMEOUT) s" >&2; exit 1; \
		fi; sleep 2; \
	done
	@echo "ray: cluster up; build through it with: make index ENGINE=ray RAY_ADDRESS=ray://127.0.0.1:$(RAY_CLIENT_PORT)" >&2

ray-status: ## Show the compose Ray cluster's nodes and resources.
	@$(ray_compose) exec -T ray-head ray status

ray-down: ## Stop the compose Ray cluster.
	@$(ray_compose) down --timeout 10 >&2
