# Image for the CV retrieval pipeline: `make build`, then `make index|search|... RUNNER=docker`.
# Written for both BuildKit and the classic builder (Debian's docker.io 20.10 in CI has only the
# latter), so no RUN --mount, heredocs or COPY --chmod.
#
# BASE_IMAGE must provide Python 3.11 with the venv module as `python3`. The default is the official
# slim image; CI has no registry and passes a local Debian bookworm image instead
# (docker/ci/base-image.sh).
ARG BASE_IMAGE=python:3.11-slim
# The PyTorch CPU index; empty means "PyPI only" (CI, where the CPU wheel comes from docker/extra).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu

# ---- builder: a virtualenv with the pinned requirements -------------------------------------------
FROM ${BASE_IMAGE} AS builder

ARG TORCH_INDEX_URL
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    LANG=C.UTF-8

# docker/extra holds only its README for everyone but CI, which may put there a CA bundle for its
# TLS-inspecting proxy (ca-bundle.crt) and local wheels (*.whl). They stay in this stage.
COPY docker/extra/ /tmp/extra/
COPY requirements-rag.txt pyproject.toml docker/image/verify_env.py /tmp/build/

# torch goes first, from the CPU index (or a local CPU wheel): resolved from PyPI alone it would be
# the CUDA build with its nvidia-* packages. The second install then finds torch already satisfied.
# torch's C++ headers and test binaries serve only to build and test extensions: 145 MB less.
RUN set -eu; \
    if [ -f /tmp/extra/ca-bundle.crt ]; then export PIP_CERT=/tmp/extra/ca-bundle.crt; fi; \
    if ls /tmp/extra/*.whl >/dev/null 2>&1; then export PIP_FIND_LINKS=/tmp/extra; fi; \
    python3 -m venv /opt/venv; \
    /opt/venv/bin/pip install --quiet --only-binary=:all: \
        ${TORCH_INDEX_URL:+--extra-index-url "$TORCH_INDEX_URL"} \
        "$(grep -E '^torch==' /tmp/build/requirements-rag.txt)"; \
    /opt/venv/bin/pip install --quiet --only-binary=:all: -r /tmp/build/requirements-rag.txt; \
    rm -rf /opt/venv/lib/python3*/site-packages/torch/include /opt/venv/lib/python3*/site-packages/torch/test

# RAG_EXTRAS=ray (make build ENGINE=ray): the ray extra on top, in a layer of its own, so that both
# images share the one above. Either way the venv must hold exactly the pins of the files it used.
# Last, the build backend pyproject.toml pins, for the runtime stage to install the project with.
ARG RAG_EXTRAS=
COPY requirements-ray.txt /tmp/build/
RUN set -eu; \
    if [ -f /tmp/extra/ca-bundle.crt ]; then export PIP_CERT=/tmp/extra/ca-bundle.crt; fi; \
    pins=/tmp/build/requirements-rag.txt; \
    case "$RAG_EXTRAS" in \
        "") ;; \
        ray) /opt/venv/bin/pip install --quiet --only-binary=:all: -r /tmp/build/requirements-ray.txt; \
             pins="$pins /tmp/build/requirements-ray.txt" ;; \
        *) echo "RAG_EXTRAS must be empty or ray, not $RAG_EXTRAS" >&2; exit 1 ;; \
    esac; \
    /opt/venv/bin/pip freeze > /opt/venv/pip-freeze.txt; \
    /opt/venv/bin/python /tmp/build/verify_env.py $pins --freeze /opt/venv/pip-freeze.txt --check-torch --scan /opt/venv; \
    /opt/venv/bin/pip download --quiet --no-deps --only-binary=:all: --dest /opt/build-backend \
        "$(sed -n 's/^requires = \["\(.*\)"\]$/\1/p' /tmp/build/pyproject.toml)"

# ---- runtime: the virtualenv and the code, nothing else -------------------------------------------
FROM ${BASE_IMAGE} AS runtime

# A fixed non-root user for `docker run`; compose and the Makefile run as the invoking uid:gid
# instead, which need not exist in /etc/passwd. Hence HOME and HF_HOME are writable by anyone (the
# sticky bit keeps users apart). /hf_cache is where the hf_cache volume goes: a new named volume
# takes this directory's mode, so any uid can download a model into it.
RUN useradd --uid 10001 --user-group --create-home --home-dir /home/app --shell /usr/sbin/nologin app \
 && mkdir -p /hf_cache /data/cvs /data/store \
 && chmod 1777 /home/app /hf_cache

ENV PATH=/opt/venv/bin:$PATH \
    VIRTUAL_ENV=/opt/venv \
    HOME=/home/app \
    HF_HOME=/hf_cache \
    LANG=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

COPY --from=builder /opt/venv /opt/venv
COPY --from=builder /opt/build-backend /tmp/build-backend

WORKDIR /app
COPY requirements-rag.txt requirements-ray.txt docker/image/verify_env.py docker/image/build_info.py /app/docker/
COPY pyproject.toml README.md /app/
COPY rag/ /app/rag/
COPY cv_generation/ /app/cv_generation/
# The code is read-only at run time, so compile it now rather than on every start. The project is
# installed in place (editable, as `make venv` does; no dependencies: they are the pins above) for
# the `rag` command, e.g. `rag mcp`; offline, with the build backend from the builder stage. Then
# read a rendered line by OCR: the engine, its models (inside the rapidocr wheel) and the system
# libraries OpenCV needs must all be in the image, with nothing to download at run time.
RUN python -m compileall -q rag cv_generation \
 && pip install --quiet --no-cache-dir --disable-pip-version-check --root-user-action=ignore \
        --no-deps --no-index --find-links /tmp/build-backend --editable /app \
 && rm -rf /tmp/build-backend \
 && python -m rag.ingest.ocr

# Provenance, last so that a new commit only adds this small layer.
ARG GIT_COMMIT=unknown
ARG BASE_IMAGE
ARG TORCH_INDEX_URL
RUN python docker/build_info.py --commit "$GIT_COMMIT" --base-image "$BASE_IMAGE" \
        --torch-index-url "$TORCH_INDEX_URL" --freeze /opt/venv/pip-freeze.txt > /app/BUILD_INFO
LABEL org.opencontainers.image.title="cv-rag" \
      org.opencontainers.image.description="CV retrieval pipeline: BM25 + FAISS over CV PDFs" \
      org.opencontainers.image.revision="${GIT_COMMIT}"

USER app
CMD ["cat", "/app/BUILD_INFO"]
