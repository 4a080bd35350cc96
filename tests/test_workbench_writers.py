"""The workbench database under two processes writing at once (two `rag serve`s, or one and
`rag shortlist`): every entry acknowledged is there exactly once, a person added by both at the same
moment is one entry, and "database is locked" is waited out, never shown."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import CHILD_PATH

from rag.workbench import shortlists
from rag.workbench.database import Database

# Thorough and slow (seconds of builds, workers or subprocesses): make test-slow runs it, CI too.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
WRITES = 80  # each process's own people; then 30 both add
WRITER = textwrap.dedent(f"""
    import sys, time
    from pathlib import Path
    from rag.errors import UserError
    from rag.workbench import shortlists
    from rag.workbench.database import Database
    from rag.workbench.identity import Identity
    db, me, start = Database(Path(sys.argv[1])), sys.argv[2], float(sys.argv[3])
    time.sleep(max(0.0, start - time.time()))  # both begin at the same moment, on a database not made yet
    ids = [f"{{me}}-{{i}}" for i in range({WRITES})] + [f"both-{{i}}" for i in range(30)]
    for n, cv_id in enumerate(ids):
        try:
            shortlists.add(db, "Shared" if n % 2 else "Backend", Identity(cv_id, f"e:{{cv_id}}@x", None), cv_id, "cv.pdf",
                           note=f"by {{me}}")
        except UserError as exc:
            print(f"error: {{exc}}", flush=True)
            sys.exit(1)
        print(cv_id, flush=True)  # acknowledged
""")


def test_two_processes_writing_at_once_lose_nothing_double_nothing_and_show_no_lock(tmp_path):
    path = tmp_path / "bench.workbench" / "workbench.sqlite3"
    start = time.time() + 1.5  # after both have imported
    env = os.environ | {"PYTHONPATH": CHILD_PATH}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), me, str(start)], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for me in ("one", "two")
    ]  # fmt: skip
    done = [w.communicate(timeout=120) for w in writers]
    for w, (out, err) in zip(writers, done):
        assert w.returncode == 0 and "locked" not in out + err and "busy" not in out + err, out[-300:] + err[-300:]
    acknowledged = [line for out, _ in done for line in out.split()]
    assert len(acknowledged) == 2 * (WRITES + 30)
    db = Database(path)
    stored = [e.identity.cv_id for s in shortlists.shortlists(db) for e in shortlists.entries(db, s.id)]
    assert sorted(stored) == sorted(set(acknowledged))  # each one there, once: "both-*" once per list
    with db.reading() as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = [r[0] for r in c.execute("SELECT name FROM shortlists ORDER BY name")]
        positions = c.execute("SELECT shortlist_id, position, COUNT(*) FROM entries GROUP BY 1, 2 HAVING COUNT(*) > 1")
        assert names == ["Backend", "Shared"] and positions.fetchall() == []  # no two entries in one place
