"""RUNNER=auto picks Docker only where Docker can have a current image: an engine that answers but
has neither the image built from these sources nor its base, and reaches no registry to pull it,
would fail `make index` as the README writes it, so the virtualenv runs it instead and the first
line says why."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def make_value(expression: str, *variables: str) -> str:
    """What make expands expression to, with the Makefile's variables (and these set)."""
    done = subprocess.run(
        ["make", "--no-print-directory", "--eval", f"said: ; @echo '{expression}'", "said", *variables],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def fake_docker(tmp_path: Path, images: dict[str, str], pulls: bool) -> Path:
    """A `docker` that answers `version`, holds `images` (name -> its cv-rag.inputs label), and
    pulls only when `pulls`."""
    script = tmp_path / "docker"
    cases = "".join(f'    "{name}") echo "{label}"; exit 0 ;;\n' for name, label in images.items())
    script.write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        "  version) echo 27.5.1 ;;\n"
        '  image) for last; do :; done\n    case "$last" in\n' + cases + "    esac; exit 1 ;;\n"
        f"  pull) exit {0 if pulls else 1} ;;\n"
        "  *) exit 1 ;;\n"
        "esac\n"
    )
    script.chmod(0o755)
    return script


SOURCES = "sources-id"  # what the Makefile's checksum of the image's inputs is taken to be here


def runner_line(docker: Path) -> str:
    """The line `make runner-ready` starts with (its recipe would build or install: not run here)."""
    return make_value("$(runner_said)", "RUNNER=auto", f"DOCKER={docker}", f"docker_inputs_id={SOURCES}")


NOT_HERE = (
    "runner: local (RUNNER=auto; a Docker engine answered but has no current cv-rag:latest "
    "nor its base python:3.11-slim and cannot pull it)"
)


@pytest.mark.parametrize(
    ("images", "pulls", "expected"),
    [
        ({}, False, NOT_HERE),
        ({"cv-rag:latest": "built from other sources"}, False, NOT_HERE),
        ({"python:3.11-slim": ""}, False, "runner: docker (RUNNER=auto)"),
        ({"cv-rag:latest": "CURRENT"}, False, "runner: docker (RUNNER=auto)"),
        ({}, True, "runner: docker (RUNNER=auto)"),
    ],
    ids=[
        "no image, no registry",
        "an older image, no registry",
        "the base is here",
        "the image is current",
        "a registry answers",
    ],
)
def test_auto_uses_docker_only_where_it_can_have_a_current_image(tmp_path, images, pulls, expected):
    images = {name: (SOURCES if label == "CURRENT" else label) for name, label in images.items()}
    assert runner_line(fake_docker(tmp_path, images, pulls)) == expected


def test_auto_without_an_engine_runs_locally(tmp_path):
    script = tmp_path / "docker"
    script.write_text("#!/bin/sh\nexit 1\n")
    script.chmod(0o755)
    assert runner_line(script) == "runner: local (RUNNER=auto; no Docker engine answered)"
