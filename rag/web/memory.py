"""Job descriptions pasted or uploaded, held in memory under a key made from their text.

A job description is too long for a URL, so the match form posts it once; the server keeps it
here and answers with a link holding only its key (`/match?jd=KEY`), which the results page, the
CSV download and every candidate's page use. The key is a digest of the text, so the same text
always gets the same link. Nothing is written anywhere: a restarted server has forgotten them,
and the page says to paste the text again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

KEPT = 64  # job descriptions held at once; the least recently used goes first


@dataclass(frozen=True)
class HeldJd:
    text: str
    label: str  # "pasted text" or the uploaded file's name


class JdMemory:
    def __init__(self, size: int = KEPT):
        self.size = size
        self._held: OrderedDict[str, HeldJd] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, text: str, label: str) -> str:
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]
        with self._lock:
            self._held[key] = HeldJd(text, label)
            self._held.move_to_end(key)
            while len(self._held) > self.size:
                self._held.popitem(last=False)
        return key

    def get(self, key: str) -> HeldJd | None:
        with self._lock:
            held = self._held.get(key)
            if held is not None:
                self._held.move_to_end(key)
            return held
