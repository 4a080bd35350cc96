# Docker runner (stub until the Docker issue lands): no engine is ever used.
docker_engine_answers :=
DOCKER_PDF_DIR := /data/cvs
DOCKER_OUT_DIR := /data/store
docker_run = $(error the Docker runner is not available yet)

.PHONY: docker-ready
docker-ready:
	@echo "error: the Docker runner is not available yet" >&2; exit 1
