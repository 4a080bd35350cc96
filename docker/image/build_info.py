"""Print the image's provenance: project version, commit, base, Python, and the full pip freeze.

The Dockerfile writes this to /app/BUILD_INFO; `docker run --rm IMAGE` prints it. The version is read
from rag/__init__.py without importing the package. Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import platform
import sys
from pathlib import Path


def project_version(project_dir: Path) -> str:
    tree = ast.parse((project_dir / "rag" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__version__" for target in node.targets
        ):
            return ast.literal_eval(node.value)
    raise SystemExit("build_info: rag/__init__.py defines no __version__")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="unknown")
    parser.add_argument("--base-image", default="")
    parser.add_argument("--torch-index-url", default="")
    parser.add_argument("--freeze", required=True)
    parser.add_argument("--project-dir", type=Path, default=Path("."), help="holds rag/ (default: .)")
    args = parser.parse_args()

    freeze = Path(args.freeze).read_text(encoding="utf-8")
    fields = {
        "project": "cv-rag",
        "version": project_version(args.project_dir),
        "git_commit": args.commit or "unknown",
        "base_image": args.base_image or "unknown",
        "python": f"{platform.python_version()} ({sys.executable})",
        "torch_index_url": args.torch_index_url or "(none: PyPI and local wheels only)",
        "packages": str(sum(1 for line in freeze.splitlines() if line.strip())),
    }
    for key, value in fields.items():
        print(f"{key}: {value}")
    print("pip_freeze:")
    print(freeze.rstrip("\n"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
