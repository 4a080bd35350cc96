"""What is derived once per machine is kept compiled in the per-user cache (rag.files.kept): the
city table and the four spelling lists. A later process loads it instead of building it; a new
shape (new data or rules) builds again; a damaged file is built again; no cache, or one that
cannot be written, builds each time and still answers."""

import subprocess
import sys

import pytest

from rag import files
from rag.files import kept


class Builds:
    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        return self.value


VALUE = (frozenset({"größe", "responsive"}), {"g": ("größe",), "r": ("responsive",)})


def inputs(tmp_path):
    """A data file and a module of rules, as a kept value names its shape by."""
    data, rules = tmp_path / "words.json", tmp_path / "rules.py"
    data.write_text('["Größe", "responsive"]')
    rules.write_text("FOLD = 1\n")
    return data, (rules,)


def test_a_value_is_built_once_then_loaded_and_new_rules_build_again(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_user_cache", tmp_path / "cache")
    data, rules = inputs(tmp_path)
    build = Builds(VALUE)
    assert kept("spelling", "de", data, rules, build) == VALUE and build.calls == 1
    assert kept("spelling", "de", data, rules, build) == VALUE and build.calls == 1  # loaded
    (written,) = (tmp_path / "cache" / "spelling").iterdir()
    assert written.name.startswith("de-") and written.suffix == ".marshal"
    rules[0].write_text("FOLD = 2\n")
    kept("spelling", "everyday", data, rules, Builds(VALUE))  # another stem's file stays
    assert kept("spelling", "de", data, rules, build) == VALUE and build.calls == 2  # new rules
    (newer,) = (tmp_path / "cache" / "spelling").glob("de-*")  # the older shape is removed
    assert newer != written and len(list((tmp_path / "cache" / "spelling").glob("everyday-*"))) == 1
    rules[0].write_text("FOLD = 1\n")  # the first rules again: built again, and kept whole
    assert kept("spelling", "de", data, rules, build) == VALUE and build.calls == 3
    written.write_bytes(written.read_bytes()[:7])  # damaged: built again, and kept whole
    assert kept("spelling", "de", data, rules, build) == VALUE and build.calls == 4
    assert kept("spelling", "de", data, rules, build) == VALUE and build.calls == 4


def test_without_a_cache_or_with_one_that_cannot_be_written_it_builds_each_time(tmp_path, monkeypatch):
    data, rules = inputs(tmp_path)
    build = Builds(VALUE)
    monkeypatch.setattr(files, "_user_cache", None)
    assert kept("spelling", "de", data, rules, build) == kept("spelling", "de", data, rules, build) == VALUE
    assert build.calls == 2
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setattr(files, "_user_cache", blocked)
    assert kept("spelling", "de", data, rules, build) == VALUE and build.calls == 3


@pytest.mark.slow
def test_the_spelling_lists_are_folded_once_per_machine_and_read_back_the_same(tmp_path):
    """A second process loads the four folded lists from the cache (it does not read
    pyspellchecker's files at all) and judges every word as the first did."""
    words = ["responsive", "negocios", "desarrollador", "größe", "kubernetis", "zzqqxy", "internet"]
    code = (
        "import sys; from pathlib import Path\n"
        "from rag import files; files.use_user_cache(Path(sys.argv[1]))\n"
        "from rag.lexicon import spelling\n"
        "if len(list(Path(sys.argv[1]).glob('spelling/*'))) == 5:\n"
        "    spelling._counts = None  # loaded from the cache: the word lists are never read\n"
        "print([spelling.is_word(w) for w in sys.argv[2:]], spelling.everyday_word('internet'))\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code, str(tmp_path), *words], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert len(list((tmp_path / "spelling").iterdir())) == 5  # four languages and the everyday words
    assert runs[0].stdout == runs[1].stdout == "[True, True, True, True, False, False, True] True\n"
