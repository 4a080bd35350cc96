#!/usr/bin/env bash
# Make sure a Docker engine answers and a compose client exists, installing and starting them when
# we are root and they are missing (CI: Debian's docker.io and docker-compose, the daemon started with
# --iptables=false because CI's sandbox has no iptables).
#
# Progress goes to stderr. Exit 0 when the engine answers. Otherwise print one line with the reason
# on stdout and exit 3, so that the caller can report a skip with it.
set -euo pipefail

DOCKERD_LOG=${DOCKERD_LOG:-/var/log/dockerd-ci.log}
WAIT_SECONDS=${DOCKERD_WAIT_SECONDS:-60}
APT_LOG=${TMPDIR:-/tmp}/cv-rag-apt.log

say() { echo "engine: $*" >&2; }
give_up() { echo "$*"; exit 3; }

engine_answers() { timeout 10 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }
compose_found() { docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null; }

apt_install() {
    say "installing $* with apt-get (log: $APT_LOG)"
    if DEBIAN_FRONTEND=noninteractive apt-get update -q >"$APT_LOG" 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >>"$APT_LOG" 2>&1; then
        return 0
    fi
    tail -n 20 "$APT_LOG" >&2
    return 1
}

if command -v docker >/dev/null && engine_answers && compose_found; then
    say "engine $(docker version --format '{{.Server.Version}}') answers"
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    command -v docker >/dev/null || give_up "no docker client, and installing one needs root"
    engine_answers || give_up "no Docker engine answers ($(docker version 2>&1 >/dev/null | tail -n1 | cut -c1-160)), and starting one needs root"
    give_up "no compose client (docker compose or docker-compose), and installing one needs root"
fi
command -v apt-get >/dev/null || give_up "no Docker engine answers and apt-get is not available to install one"

# The client can be present without the daemon (as on CI's machines), hence the check for dockerd.
packages=()
command -v dockerd >/dev/null || packages+=(docker.io)
command -v docker >/dev/null || packages+=(docker.io)
compose_found || packages+=(docker-compose)
if [ ${#packages[@]} -gt 0 ]; then
    # shellcheck disable=SC2046  # deduplicated package list, one word each
    apt_install $(printf '%s\n' "${packages[@]}" | sort -u) || give_up "apt-get could not install ${packages[*]}"
fi

if ! engine_answers; then
    say "starting dockerd --iptables=false (log: $DOCKERD_LOG)"
    # setsid: the daemon outlives this script and make; CI's machine is discarded afterwards.
    setsid dockerd --iptables=false >"$DOCKERD_LOG" 2>&1 < /dev/null &
    for _ in $(seq "$WAIT_SECONDS"); do
        engine_answers && break
        sleep 1
    done
    if ! engine_answers; then
        tail -n 20 "$DOCKERD_LOG" >&2 || true
        give_up "dockerd did not answer within ${WAIT_SECONDS}s: $(grep -m1 -iE 'level=(fatal|error)' "$DOCKERD_LOG" | cut -c1-200 || echo 'see its log')"
    fi
fi
compose_found || give_up "no compose client (docker compose or docker-compose) after installing"
say "engine $(docker version --format '{{.Server.Version}}') answers"
