#!/usr/bin/env bash
# Build the image the way CI can: on the official base when it can be had, else on a local Debian
# base; with this machine's CA bundle and local torch wheel when pip is configured with them; with
# host networking (an engine started with --iptables=false gives build containers no way out).
# All of that goes in through `make build` variables and docker/extra, so the defaults that
# `make build` gives everyone else stay as they are. Extra arguments go to make (e.g. DOCKER_IMAGE=).
set -euo pipefail
cd "$(dirname "$0")/../.."

base=$(bash docker/ci/base-image.sh)
mapfile -t extra_vars < <(bash docker/ci/extra-context.sh)

start=$SECONDS
make --no-print-directory build DOCKER_BASE_IMAGE="$base" DOCKER_NETWORK="${DOCKER_NETWORK:-host}" \
    "${extra_vars[@]}" "$@"
echo "build-image: built in $((SECONDS - start))s on $base" >&2
