"""RUNNER=auto picks Docker only where Docker can have the image: an engine that answers but has
neither the image nor its base, and reaches no registry to pull it, would fail `make index` as the
README writes it, so the virtualenv runs it instead and the first line says why."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def fake_docker(tmp_path: Path, has: set[str], pulls: bool) -> Path:
    """A `docker` that answers `version`, holds the images in `has`, and pulls only when `pulls`."""
    script = tmp_path / "docker"
    images = " ".join(has)
    script.write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        "  version) echo 27.5.1 ;;\n"
        f'  image) for i in {images}; do [ "$3" = "$i" ] && exit 0; done; exit 1 ;;\n'
        f"  pull) exit {0 if pulls else 1} ;;\n"
        "  *) exit 1 ;;\n"
        "esac\n"
    )
    script.chmod(0o755)
    return script


def runner_line(docker: Path) -> str:
    """The line `make runner-ready` starts with (its recipe would build or install: not run here)."""
    done = subprocess.run(
        ["make", "--no-print-directory", "--eval", "said: ; @echo '$(runner_said)'", "said", "RUNNER=auto"]
        + [f"DOCKER={docker}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("has", "pulls", "expected"),
    [
        (
            set(),
            False,
            "runner: local (RUNNER=auto; a Docker engine answered but has neither cv-rag:latest "
            "nor its base python:3.11-slim and cannot pull it)",
        ),
        ({"python:3.11-slim"}, False, "runner: docker (RUNNER=auto)"),
        ({"cv-rag:latest"}, False, "runner: docker (RUNNER=auto)"),
        (set(), True, "runner: docker (RUNNER=auto)"),
    ],
    ids=["no image, no registry", "the base is here", "the image is here", "a registry answers"],
)
def test_auto_uses_docker_only_where_it_can_have_the_image(tmp_path, has, pulls, expected):
    assert runner_line(fake_docker(tmp_path, has, pulls)) == expected


def test_auto_without_an_engine_runs_locally(tmp_path):
    script = tmp_path / "docker"
    script.write_text("#!/bin/sh\nexit 1\n")
    script.chmod(0o755)
    assert runner_line(script) == "runner: local (RUNNER=auto; no Docker engine answered)"
