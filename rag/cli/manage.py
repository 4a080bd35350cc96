"""`rag ls` and `rag clean`: what a store holds, whether every byte of it is intact, and removing it.

`clean` removes a store's own files only, and only from a folder that proves to be a store (its
.cv-rag-store marker): `OUT_DIR=~` or a swapped CV folder is refused, not emptied.
"""

from __future__ import annotations

from pathlib import Path

import click
import orjson

from rag.cli.console import Command, option
from rag.index.encoder import SPEC_FILE
from rag.errors import UserError
from rag.store.folder import ARTIFACTS, MANIFEST, StoreDir, damaged, open_store, verify_checksum

_OUT_DIR = dict(type=click.Path(path_type=Path), default=Path("rag_store"), show_default=True,
                help="The store folder.")


@click.command(cls=Command, epilog="""\b
Examples:
  rag ls
  rag ls --out-dir ~/cv_store --verify     # hash every file of the store and its encoder
""")
@option("--out-dir", "--index-dir", "out_dir", **_OUT_DIR)
@option("--verify", is_flag=True, help="Check every file against its recorded SHA-256 (reads the whole store).")
@option("--json", "as_json", is_flag=True, help="The manifest as JSON.")
def ls(out_dir: Path, verify: bool, as_json: bool) -> None:
    """List a store's files with their sizes and summarise what it was built from."""
    with open_store(out_dir) as store:
        m = store.manifest
        if verify:
            checked = verify_store(store)
        if as_json:
            click.echo(m.to_json())
            return
        for name in (MANIFEST, *ARTIFACTS):
            size = (store.generation / name).stat().st_size
            click.echo(f"  {_human(size):>7}  {name}")
        total = sum(p.stat().st_size for p in store.generation.iterdir()) + sum(
            p.stat().st_size for p in store.encoder_dir.iterdir() if p.is_file())
        click.echo(f"  {_human(total):>7}  in all, with the encoder")
        click.echo(f"built {m.created_at} from {m.pdf_count} files: {m.candidate_count} CVs indexed, "
                   f"{len(m.skipped)} not indexed; {m.chunk_count} chunks of {m.chunk_chars}/{m.overlap_chars} "
                   f"characters; model {m.embedding_model} (dim {m.dim}); fingerprint {m.fingerprint[:12]}")
        for skipped in m.skipped:
            click.echo(f"  not indexed: {skipped['source']}: {skipped['reason']}")
        if verify:
            click.echo(f"verified: all {checked} files match their checksums")


def verify_store(store) -> int:
    """Hash every artifact and encoder file against the recorded checksums; raise on the first miss."""
    from rag.index.export import encoder_problem

    for name in ARTIFACTS:
        verify_checksum(store.root, store.generation, store.manifest, name)
    problem = encoder_problem(store.encoder_dir)
    if problem:
        raise damaged(store.root, f"the encoder {store.encoder_dir.name}: {problem}")
    spec = orjson.loads((store.encoder_dir / SPEC_FILE).read_bytes())
    return len(ARTIFACTS) + 1 + len(spec.get("sha256", {}))


@click.command(cls=Command, epilog="""\b
Examples:
  rag clean
  rag clean --out-dir ~/cv_store
""")
@option("--out-dir", "--index-dir", "out_dir", **_OUT_DIR)
def clean(out_dir: Path) -> None:
    """Remove a store (its generations, encoders and links), keeping anything else in its folder."""
    if not out_dir.exists():
        click.echo(f"nothing to remove: there is no store at {out_dir}")
        return
    if not out_dir.is_dir():
        raise UserError(f"{out_dir} is a file, not a store; nothing was removed")
    left = StoreDir(out_dir).clean()
    kept = f"; kept what is not part of a store: {', '.join(left)}" if left else ""
    click.echo(f"removed the store in {out_dir}{kept}")


def _human(size: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return ""
