"""`rag index`: turn a folder of CVs (PDF, Word, scans) into a search store."""

from __future__ import annotations

import functools
import os
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import click
from click.core import ParameterSource

from rag.cli.console import Command, TerminalReporter, option, user_cache_root
from rag.cli.fixes import docker_runner, via_make, word
from rag.cli.options import DEFAULT_CV_DIR, cv_dir_option, store_option
from rag.errors import Fix, UsageError
from rag.index import cpu_features
from rag.index.model_choice import DEFAULT_MODEL
from rag.ingest.chunking import DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS
from rag.ingest.limits import MB, Limits
from rag.pipeline.builder import VARIANTS, BuildResult, BuildSettings, build_store
from rag.pipeline.cv_folder import choose_cv_dir
from rag.pipeline.engines.local import LocalEngine
from rag.pipeline.notes import hidden_summary, ocr_summary
from rag.text import display

ENGINES = ("local", "ray")
_POSITIVE = click.IntRange(min=1)
LIMIT_OPTIONS = (
    option(
        "--max-file-mb",
        type=click.FloatRange(min=0, min_open=True),
        default=Limits.file_bytes / MB,
        show_default=True,
        help="Largest file read, in MB (a Word file also once unpacked).",
    ),
    option(
        "--max-pages",
        type=_POSITIVE,
        default=Limits.pages,
        show_default=True,
        help="Most pages of one PDF (frames of one image).",
    ),
    option(
        "--max-ocr-pages",
        type=click.IntRange(min=0),
        default=Limits.ocr_pages,
        show_default=True,
        help="Most pages of one file read by OCR; the rest are left out, with a warning.",
    ),
    option(
        "--max-build-ocr-pages",
        type=click.IntRange(min=0),
        default=Limits.build_ocr_pages,
        show_default=True,
        help="Most pages read by OCR in one build.",
    ),
    option(
        "--max-chunks", type=_POSITIVE, default=Limits.chunks, show_default=True, help="Most chunks of one CV's text."
    ),
    option(
        "--file-timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=Limits.seconds,
        show_default=True,
        metavar="SECONDS",
        help="Longest time to extract one file, OCR included.",
    ),
    option(
        "--file-memory-mb",
        type=_POSITIVE,
        default=Limits.memory_bytes // MB,
        show_default=True,
        help="Most memory a worker may take on top of its own to read one file.",
    ),
)


def limit_options(command):
    """The limits a file (and the build) must stay within, as one `limits` value; a file over one
    is skipped and named (docs/input.md, "Limits")."""

    @functools.wraps(command)
    def wrapper(
        *args,
        max_file_mb,
        max_pages,
        max_ocr_pages,
        max_build_ocr_pages,
        max_chunks,
        file_timeout,
        file_memory_mb,
        **kwargs,
    ):
        limits = Limits(
            round(max_file_mb * MB),
            max_pages,
            max_ocr_pages,
            max_build_ocr_pages,
            max_chunks,
            file_timeout,
            file_memory_mb * MB,
        )
        return command(*args, limits=limits, **kwargs)

    for add in reversed(LIMIT_OPTIONS):
        wrapper = add(wrapper)
    return wrapper


@click.command(
    cls=Command,
    epilog="""\b
Examples:
  rag index
  rag index --cv-dir ~/cvs --store ~/cv_store
  rag index --store ~/cv_store              # again: the folder the store was built from
  rag index --cv-dir ~/other --store ~/cv_store --replace   # its CVs replace the store's
  rag index --ocr off        # leave scanned pages out instead of reading them
  rag index --follow-links --max-pages 300   # links out of the folder too; CVs of up to 300 pages
  EMBEDDING_MODEL=sentence-transformers/all-MiniLM-L6-v2 rag index --force
  rag index --engine ray                      # a local Ray instance, one worker per core
  rag index --engine ray --ray-address ray://127.0.0.1:10001
""",
)
@cv_dir_option(
    "Folder of CVs (PDF, .docx, scanned images): <dir>/<cv_id>/cv.pdf or <dir>/<name>.pdf (any file name). "
    "Default: the folder the store was built from, else cv_generation/data/cvs."
)
@store_option("Store folder; written atomically, the previous store stays usable until the new one is complete.")
@option(
    "--model",
    default=None,
    metavar="NAME_OR_FOLDER",
    help=f"Embedding model: a Hugging Face id or a local folder. Default: $EMBEDDING_MODEL, else {DEFAULT_MODEL}.",
)
@option("--chunk-chars", type=int, default=DEFAULT_CHUNK_CHARS, show_default=True, help="Characters per chunk.")
@option(
    "--overlap-chars",
    type=int,
    default=DEFAULT_OVERLAP_CHARS,
    show_default=True,
    help="Characters shared by consecutive chunks.",
)
@option(
    "--batch-size",
    type=int,
    default=16,
    show_default=True,
    help="Chunks per embedding batch (batches group chunks of similar length).",
)
@option(
    "--encoder",
    "variant",
    type=click.Choice(["auto", *(v for v in VARIANTS if v != "cuda")]),  # cuda: --device
    envvar="RAG_ENCODER",
    default="auto",
    show_default=True,
    help="The arithmetic passages are embedded with: auto (the fastest that passed the quality gate, "
    "timed once on this machine: bf16 where the CPU has AMX or AVX-512 BF16, else fp32), fp32 (the "
    "reference), bf16 (OpenVINO), or int8 (faster, fails the gate). Default: $RAG_ENCODER, else auto; "
    "see docs/performance.md.",
)
@option(
    "--device",
    type=click.Choice(["auto", "cpu", "cuda"]),
    default="auto",
    show_default=True,
    help="Where passages are embedded: cuda (bf16 on the first CUDA GPU, through PyTorch), cpu (--encoder's "
    "arithmetic), or auto (cuda when PyTorch sees a CUDA GPU and --encoder is auto, else cpu). Queries are "
    "embedded on the CPU either way.",
)
@option(
    "--ocr",
    type=click.Choice(["on", "off"]),
    default="on",
    show_default=True,
    help="Read pages without a usable text layer (scans, fonts without Unicode) by OCR; off leaves them out.",
)
@option(
    "--as-of",
    default=None,
    metavar="YYYY-MM",
    help='The month "present" means in CV dates, for years of experience. Default: this month (kept in '
    "the manifest); pass a fixed month for figures that must not move, e.g. on generated CVs.",
)
@option(
    "--engine",
    type=click.Choice(ENGINES),
    default="local",
    show_default=True,
    help="Where extraction and embedding run: this machine, or Ray (needs the ray extra; see docs/ray.md).",
)
@option(
    "--ray-address",
    envvar="RAY_ADDRESS",
    default=None,
    metavar="ADDRESS",
    help="With --engine ray: the cluster, ray://host:port (Ray Client). Default: $RAY_ADDRESS, else a "
    "local Ray instance started for the build.",
)
@option(
    "--ray-workers",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="With --engine ray: workers (one CPU each) per stage. Default: one per CPU of the cluster.",
)
@option(
    "--follow-links",
    "-L",
    is_flag=True,
    help="Follow links that lead out of the CV folder (as find -L); without it they are named and left out.",
)
@limit_options
@option(
    "--replace",
    is_flag=True,
    help="Index --cv-dir into a store built from another folder, replacing its CVs (otherwise refused).",
)
@option(
    "--force", is_flag=True, help="Rebuild from scratch, reusing nothing, even when nothing changed (make rebuild)."
)
@option(
    "--export-cache",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="Folder of model exports shared by every store of this user, so a model is exported once. "
    "Default: $XDG_CACHE_HOME/cv-rag/exports, else ~/.cache/cv-rag/exports.",
)
@option("--quiet", is_flag=True, help="No progress bars or notes; warnings and errors still show.")
@option("--json", "as_json", is_flag=True, help="Print the resulting manifest as JSON on stdout.")
def main(
    cv_dir: Path,
    store: Path,
    model: str | None,
    chunk_chars: int,
    overlap_chars: int,
    batch_size: int,
    variant: str,
    device: str,
    ocr: str,
    as_of: str | None,
    engine: str,
    ray_address: str | None,
    ray_workers: int | None,
    follow_links: bool,
    limits: Limits,
    replace: bool,
    force: bool,
    export_cache: Path | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Index CVs for search: extract text, chunk it, build BM25 and FAISS indexes.

    Each CV also gets a profile (title, location, years of experience, languages, education,
    skills) that `rag search` filters on and `rag profile CV_ID` shows.

    The store remembers its CV folder: without --cv-dir, the build reads that folder again; another
    folder is refused unless --replace says its CVs are to replace the store's.

    Nothing changed since the last build (same files, same settings)? It says so and exits at once.
    Changed, added or removed files, or other settings, trigger a build that reuses unchanged work.
    Every file under the folder that is not indexed is named, with its reason: a damaged file, or
    one over a limit (size, pages, time, memory), never stops the build.
    """
    context = click.get_current_context()
    named = context.get_parameter_source("cv_dir") is not ParameterSource.DEFAULT or context.params.get("cv_dir_old")
    cv_dir = choose_cv_dir(store, cv_dir if named else None, DEFAULT_CV_DIR, replace)
    model = model or os.environ.get("EMBEDDING_MODEL", "").strip() or None
    cpu_features.read_elsewhere(os.environ.get(cpu_features.CPUINFO_ENV))  # the tests' and the bench's other CPU
    reporter = TerminalReporter(quiet)
    variant = embedding_arithmetic(variant, device, model, export_cache, reporter)
    settings = BuildSettings(
        model,
        chunk_chars,
        overlap_chars,
        batch_size,
        variant,
        ocr == "on",
        as_of,
        limits,
        follow_links,
        export_cache or default_export_cache(),
    )
    with make_engine(engine, ray_address, ray_workers) as chosen:
        result = build_store(cv_dir, store, settings, force=force, reporter=reporter, engine=chosen)
        # A Ray engine says where the work ran, and what Ray reported about workers that died.
        where, retried = getattr(chosen, "description", ""), getattr(chosen, "ray_messages", [])
    if retried:
        reporter.warn(
            f"Ray restarted workers that died during the build and redid their work ({len(retried)} "
            f"lines from Ray, the first: {retried[0][:160]})"
        )
    if docker_runner() and not result.up_to_date and any(s["kind"] == "broken link" for s in result.manifest.skipped):
        reporter.warn(
            "the Docker runner sees only the CV folder and the store, so a link to anywhere else is "
            "broken in its container; to index what such links lead to, run "
            + ("make index RUNNER=local FOLLOW_LINKS=1" if via_make() else "rag index --follow-links on the host")
        )
    if as_json:
        click.echo(result.manifest.to_json())
    else:
        click.echo(summary(result, store) + (f"\n  through {display(where)}" if where else ""))


def embedding_arithmetic(
    variant: str, device: str, model: str | None, cache: Path | None, reporter: TerminalReporter
) -> str:
    """--encoder and --device as the arithmetic passages are embedded with: "cuda" on a GPU, else
    --encoder's, where auto is this machine's fastest that passed the gate (rag/index/arithmetic.py)."""
    from rag.index.encoder import cuda_visible
    from rag.index.export import default_arithmetic
    from rag.index.model_choice import requested_model, resolve_model

    if device == "cuda" and variant != "auto":
        raise UsageError(
            f"--device cuda embeds in bf16 on the GPU; leave out --encoder {variant} (or use --device cpu)"
        )
    if device == "cuda" or (device == "auto" and variant == "auto"):
        if cuda_visible():
            return "cuda"
        if device == "cuda":
            raise UsageError("--device cuda: PyTorch sees no CUDA GPU here; use --device cpu or auto")
    if variant != "auto":
        return variant
    name, explicit = requested_model(model)
    return default_arithmetic(resolve_model(name, explicit, lambda _: None), cache or default_export_cache(), reporter)


def default_export_cache() -> Path | None:
    """$XDG_CACHE_HOME/cv-rag/exports, else ~/.cache/cv-rag/exports; None without a home."""
    root = user_cache_root()
    return None if root is None else root / "exports"


def make_engine(name: str, ray_address: str | None, ray_workers: int | None) -> AbstractContextManager:
    """The engine as a context manager: a Ray engine shuts down the local instance it may start."""
    if name == "local":
        if click.get_current_context().get_parameter_source("ray_address") is ParameterSource.COMMANDLINE:
            raise UsageError("--ray-address needs --engine ray")
        if ray_workers is not None:
            raise UsageError("--ray-workers needs --engine ray")
        return nullcontext(LocalEngine())
    from rag.pipeline.engines.ray.cluster import RaySettings
    from rag.pipeline.engines.ray.engine import RayEngine

    return RayEngine(RaySettings(ray_address or None, ray_workers))


def summary(result: BuildResult, out_dir: Path) -> str:
    """The build's outcome in a few lines, each shown escaped (a store path may hold anything)."""
    return "\n".join(display(line) for line in _summary_lines(result, out_dir))


def _summary_lines(result: BuildResult, out_dir: Path) -> list[str]:
    m = result.manifest
    indexed = m.candidate_count
    ocr_count = sum(len(r["pages"]) for r in m.ocr_pages)
    if result.up_to_date:
        left_out = f"; {_count(len(m.skipped), 'file')} not indexed, listed by `rag ls`" if m.skipped else ""
        return [
            f"{out_dir} is up to date with {m.cv_dir}: nothing changed since the last build "
            f"({_count(indexed, 'CV')}, "
            f"{m.chunk_count} chunks, fingerprint {m.fingerprint[:12]}{left_out}). To rebuild anyway: "
            + f"`{word(Fix('rebuild', {'store': str(out_dir)}))}`."
        ]
    reused = []
    if result.extracted < result.documents:
        reused.append(f"{result.documents - result.extracted} extractions")
    if result.profiled < indexed:
        reused.append(f"{indexed - result.profiled} profiles")
    if result.reused:
        reused.append(f"{result.reused} vectors")
    listed = ", ".join(reused[:-1]) + (" and " if len(reused) > 1 else "") + reused[-1] if reused else ""
    reuse = f" (reused {listed} from the previous build)" if reused else ""
    duplicates = m.chunk_count - result.reused - result.embedded
    if duplicates:
        reuse += f"; {duplicates} chunks repeat another chunk's text and share its vector"
    see_above = " (see above)" if m.skipped else ""
    lines = [
        f"{_count(indexed, 'CV')} indexed, {_count(ocr_count, 'page')} OCR'd, "
        f"{_count(len(m.skipped), 'file')} not indexed{see_above}",
        f"  {m.chunk_count} chunks in {result.seconds:.1f} s, {m.cv_dir} -> {out_dir}",
        f"  extracted {result.extracted} files, profiled {result.profiled} as of {m.profiles['as_of']} and "
        f"embedded {result.embedded} chunks{reuse}",
        f"  model {m.embedding_model} [{m.encoder['variant']}], dim {m.dim}, fingerprint {m.fingerprint[:12]}",
    ]
    lines[1:1] = [f"  {line}" for line in (ocr_summary(m.ocr_pages), hidden_summary(m.hidden_pages)) if line]
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


if __name__ == "__main__":
    main()
