"""Check that an installed package set is exactly the pinned one, and CPU-only.

Run by the Dockerfile (the build fails if a check fails) and by docker/ci/test-docker.sh against a
built image. Standard library only: it runs with the image's interpreter.

    python verify_env.py REQUIREMENTS... [--freeze FILE] [--check-torch] [--scan DIR ...]

REQUIREMENTS are pip requirements files with `name==version` lines ("-" reads stdin), together the
whole package set (requirements-rag.txt, plus requirements-ray.txt for the image with the ray
extra). Without --freeze the packages installed for this interpreter are checked.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import sys

# Package names that only a CUDA build of torch brings in.
CUDA_PACKAGE = re.compile(r"^(nvidia-.*|triton|cuda-.*|pytorch-triton.*)$")
# Shared libraries of the CUDA runtime, in case one arrives inside some other wheel.
CUDA_LIBRARY = re.compile(r"^lib(cudart|cublas|cublaslt|cudnn|cufft|curand|cusolver|cusparse|nccl|nvrtc|nvjitlink)\b")
# pip's own tooling, which pip freeze leaves out as well.
TOOLING = {"pip", "setuptools", "wheel", "distribute"}


def normalize(name: str) -> str:
    """PEP 503 name normalisation: Foo_Bar and foo-bar are one package."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_pins(lines) -> dict[str, str]:
    """name -> version from `name==version` lines; the local label (+cpu) is dropped."""
    pins: dict[str, str] = {}
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;]+)", line)
        if not match:
            raise SystemExit(f"verify_env: not an exact pin: {raw.rstrip()!r}")
        pins[normalize(match.group(1))] = match.group(2).split("+", 1)[0]
    return pins


def installed_pins() -> dict[str, str]:
    return {
        normalize(dist.metadata["Name"]): dist.version.split("+", 1)[0] for dist in importlib.metadata.distributions()
    }


def read_lines(path: str) -> list[str]:
    if path == "-":
        return sys.stdin.readlines()
    with open(path, encoding="utf-8") as handle:
        return handle.readlines()


def compare(wanted: dict[str, str], have: dict[str, str]) -> list[str]:
    problems = []
    for name in sorted(set(wanted) | set(have)):
        if name in TOOLING:
            continue
        if name not in have:
            problems.append(f"missing: {name}=={wanted[name]}")
        elif name not in wanted:
            problems.append(f"not pinned: {name}=={have[name]}")
        elif wanted[name] != have[name]:
            problems.append(f"version: {name} is {have[name]}, pinned {wanted[name]}")
    return problems


def cuda_libraries(roots: list[str]) -> list[str]:
    found = []
    for root in roots:
        for folder, _dirs, files in os.walk(root):
            found.extend(os.path.join(folder, f) for f in files if CUDA_LIBRARY.match(f))
    return found


def torch_problems() -> tuple[list[str], str]:
    import torch

    problems = []
    if torch.version.cuda is not None:
        problems.append(f"torch {torch.__version__} is built for CUDA {torch.version.cuda}")
    if torch.cuda.is_available():
        problems.append("torch reports a usable CUDA device")
    return problems, f"torch {torch.__version__} (CUDA: {torch.version.cuda or 'none'})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("requirements", nargs="+")
    parser.add_argument("--freeze", help="a pip freeze file to check instead of this interpreter")
    parser.add_argument("--check-torch", action="store_true", help="import torch and ask it about CUDA")
    parser.add_argument("--scan", action="append", default=[], help="a folder to search for CUDA libraries")
    args = parser.parse_args()

    wanted = parse_pins([line for path in args.requirements for line in read_lines(path)])
    have = parse_pins(read_lines(args.freeze)) if args.freeze else installed_pins()

    problems = compare(wanted, have)
    problems += [f"CUDA package installed: {name}" for name in sorted(have) if CUDA_PACKAGE.match(name)]
    problems += [f"CUDA library present: {path}" for path in cuda_libraries(args.scan)]
    summary = [f"{len(have) - len(TOOLING & set(have))} packages match the pins", "no CUDA packages"]
    if args.check_torch:
        more, torch_line = torch_problems()
        problems += more
        summary.append(torch_line)

    if problems:
        for problem in problems:
            print(f"verify_env: {problem}", file=sys.stderr)
        print(f"verify_env: FAILED ({len(problems)} problems)", file=sys.stderr)
        return 1
    print("verify_env: ok: " + "; ".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
