"""`rag ls` and `rag clean`: what a store holds, whether every byte of it is intact, and removing it.

`clean` removes a store's own files only, and only from a folder that proves to be a store (its
.cv-rag-store marker): `STORE=~` or a swapped CV folder is refused, not emptied.
"""

from __future__ import annotations

from pathlib import Path

import click

from rag.cli.console import Command, option
from rag.cli.options import store_option
from rag.errors import UserError
from rag.pipeline.notes import skipped_line
from rag.store.folder import StoreDir
from rag.store.open import open_store
from rag.text import display


@click.command(
    cls=Command,
    epilog="""\b
Examples:
  rag ls
  rag ls --store ~/cv_store --verify     # hash every file of the store and its encoder
""",
)
@store_option("The store folder.")
@option("--verify", is_flag=True, help="Check every file against its recorded SHA-256 (reads the whole store).")
@option("--json", "as_json", is_flag=True, help="The manifest as JSON.")
def ls(store: Path, verify: bool, as_json: bool) -> None:
    """List a store's files with their sizes and summarise what it was built from."""
    with open_store(store) as opened:
        m = opened.manifest
        if verify:
            checked = opened.verify()
        if as_json:
            click.echo(m.to_json())
            return
        files = opened.files()
        for name, size in files:
            click.echo(f"  {_human(size):>7}  {name}")
        total = sum(size for _, size in files) + sum(
            p.stat().st_size for p in opened.encoder_dir.iterdir() if p.is_file()
        )
        click.echo(f"  {_human(total):>7}  in all, with the encoder")
        click.echo(
            display(
                f"built {m.created_at} from {m.pdf_count} files in "
                f"{m.cv_dir or 'a folder it does not record'}: {m.candidate_count} CVs indexed, "
                f"{len(m.skipped)} not indexed; {m.chunk_count} chunks of {m.chunk_chars}/"
                f"{m.overlap_chars} characters; model {m.embedding_model} (dim {m.dim}); "
                f"fingerprint {m.fingerprint[:12]}"
            )
        )
        for skipped in m.skipped:  # the words of `rag index`; names and reasons shown escaped
            click.echo("  " + skipped_line(skipped["source"], skipped["reason"]))
        if verify:
            click.echo(f"verified: all {checked} files match their checksums")


@click.command(
    cls=Command,
    epilog="""\b
Examples:
  rag clean
  rag clean --store ~/cv_store
""",
)
@store_option("The store folder.")
def clean(store: Path) -> None:
    """Remove a store (its generations, encoders and links), keeping anything else in its folder."""
    if not store.exists():
        click.echo(display(f"nothing to remove: there is no store at {store}"))
        return
    if not store.is_dir():
        raise UserError(f"{store} is a file, not a store; nothing was removed")
    left = StoreDir(store).clean()
    kept = f"; kept what is not part of a store: {', '.join(left)}" if left else ""
    click.echo(display(f"removed the store in {store}{kept}"))


def _human(size: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return ""
