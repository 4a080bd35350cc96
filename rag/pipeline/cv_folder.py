"""Which folder of CVs a build indexes into a store: the store remembers the folder it was built
from (the manifest's cv_dir), so `rag index --store STORE` rebuilds that folder, and another
folder replaces the store's CVs only when asked to, never by a default."""

from __future__ import annotations

from pathlib import Path

from rag.errors import Fix, UsageError, UserError
from rag.store.folder import StoreDir


def choose_cv_dir(store: Path, given: Path | None, default: Path, replace: bool) -> Path:
    """The folder to index into `store`. given: the folder the user named (None: none named);
    default: the folder to use for a new store; replace: the user accepts replacing the store's CVs."""
    if replace and given is None:
        raise UsageError("--replace needs --cv-dir: the folder whose CVs replace the store's")
    folder = StoreDir(store)
    live = folder.live_manifest() if store.is_dir() and folder.is_store() else None
    if live is None:
        return given or default
    recorded = live.cv_dir
    if given is None:
        if recorded is None:
            raise UserError(
                f"the store in {store} does not record the folder its CVs came from (an older version "
                "built it); name the folder once with --cv-dir"
            )
        if not Path(recorded).is_dir():
            raise UserError(
                f"the store in {store} was built from {recorded}, which is gone; to index another folder "
                "into it: {fix}",
                Fix("replace", {"store": str(store), "cv_dir": "DIR"}),
            )
        return Path(recorded)
    if recorded is not None and str(given.resolve()) != recorded and not replace:
        held = f"{live.candidate_count} CV{'s' if live.candidate_count != 1 else ''}"
        raise UserError(
            f"the store in {store} holds {held} from {recorded}, not from {given.resolve()}; nothing "
            "was indexed. To replace them: {fix}; or choose another --store",
            Fix("replace", {"store": str(store), "cv_dir": str(given)}),
        )
    return given
