#!/usr/bin/env bash
# Fill docker/extra (the CI-only build context folder, see its README) from this machine's pip
# configuration: the CA bundle pip trusts (`cert`) and the local wheels (`find-links`) that match a
# pin in requirements-rag.txt, which here is the CPU build of torch.
#
# Prints the build variables that follow on stdout, one per line, for the caller to pass to make:
#   TORCH_INDEX_URL=   when a local torch wheel was found (the PyTorch index is then not needed)
# With --clean, removes what an earlier run put there instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
extra=docker/extra

if [ "${1:-}" = --clean ]; then
    find "$extra" -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
    exit 0
fi

say() { echo "extra-context: $*" >&2; }
pip_setting() {  # the environment wins over pip's config files, as in pip itself
    local env=$1 key=$2
    if [ -n "${!env:-}" ]; then echo "${!env}"; return; fi
    python3 -m pip config get "global.$key" 2>/dev/null || true
}

cert=$(pip_setting PIP_CERT cert)
if [ -n "$cert" ] && [ -f "$cert" ]; then
    cp -f "$cert" "$extra/ca-bundle.crt"
    say "CA bundle from $cert"
fi

# Pins as "name==version" with PEP 503 names, to match wheel file names against.
pins=$(awk -F'==' '/^[A-Za-z0-9]/ { n = tolower($1); gsub(/[-_.]+/, "-", n); v = $2; sub(/[ \t#].*/, "", v); print n "==" v }' requirements-rag.txt)
torch_wheel=
for dir in $(pip_setting PIP_FIND_LINKS find-links); do
    [ -d "$dir" ] || continue
    for wheel in "$dir"/*.whl; do
        [ -f "$wheel" ] || continue
        file=${wheel##*/}
        name=$(echo "${file%%-*}" | tr 'A-Z' 'a-z' | sed -E 's/[-_.]+/-/g')
        version=$(echo "$file" | cut -d- -f2)
        grep -qxF "$name==${version%%+*}" <<<"$pins" || continue
        cp "$wheel" "$extra/"
        say "wheel $file"
        [ "$name" = torch ] && torch_wheel=$file
    done
done

if [ -n "$torch_wheel" ]; then
    echo "TORCH_INDEX_URL="
fi
