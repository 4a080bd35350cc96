#!/usr/bin/env bash
# Print the base image to build on: the official python:3.11-slim when the engine has it or can pull
# it; otherwise (CI: no registry) a Debian bookworm image made here with mmdebstrap, whose python3 is
# 3.11, imported with `docker import`. Progress goes to stderr, the image name to stdout.
set -euo pipefail

OFFICIAL=${OFFICIAL_BASE_IMAGE:-python:3.11-slim}
LOCAL=${LOCAL_BASE_IMAGE:-cv-rag-base:bookworm}

say() { echo "base-image: $*" >&2; }

if docker image inspect "$OFFICIAL" >/dev/null 2>&1 || timeout 300 docker pull -q "$OFFICIAL" >&2 2>/dev/null; then
    say "using $OFFICIAL"
    echo "$OFFICIAL"
    exit 0
fi
if docker image inspect "$LOCAL" >/dev/null 2>&1; then
    say "no registry; reusing $LOCAL"
    echo "$LOCAL"
    exit 0
fi

say "no registry; building $LOCAL with mmdebstrap"
if ! command -v mmdebstrap >/dev/null; then
    [ "$(id -u)" = 0 ] || { say "mmdebstrap is missing and installing it needs root"; exit 1; }
    apt_log=${TMPDIR:-/tmp}/cv-rag-apt.log
    say "installing mmdebstrap with apt-get (log: $apt_log)"
    { DEBIAN_FRONTEND=noninteractive apt-get update -q \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap; } >"$apt_log" 2>&1 \
        || { tail -n 20 "$apt_log" >&2; exit 1; }
fi

# minbase: Priority required (useradd among it) plus apt; python3-venv brings ensurepip's pip.
# Docs, man pages and translations are not needed in a container.
start=$SECONDS
mmdebstrap_log=${TMPDIR:-/tmp}/cv-rag-mmdebstrap.log
if ! mmdebstrap --variant=minbase --include=python3,python3-venv --logfile="$mmdebstrap_log" \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
        bookworm - \
    | docker import --message "Debian bookworm minbase with python3, made by docker/ci/base-image.sh" \
        --change 'ENV LANG=C.UTF-8' - "$LOCAL" >&2; then
    tail -n 30 "$mmdebstrap_log" >&2
    say "building $LOCAL failed (log: $mmdebstrap_log)"
    exit 1
fi
say "built $LOCAL in $((SECONDS - start))s"
echo "$LOCAL"
