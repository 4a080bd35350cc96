"""`make bench`'s embedding steps: how fast each encoder embeds chunks (today's way of running the
model, measured beside the new one in the same run), how far a faster variant moves the results on
every evaluation corpus (the gate a faster encoder must pass to become the default), and the speed
of multilingual-e5-small's shape, for the 100,000-CV plan of docs/scale.md.

The machine is shared: each encoder is timed in rounds, the encoders taking turns, and the report
gives medians of wall rates, of rates per CPU-second (which other jobs inflate far less), and of
the per-round ratios.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import orjson

import rag  # noqa: F401  (first: it turns ONNX Runtime's telemetry off before the runtime is imported)

PY = sys.executable
GATE_NDCG = 0.005  # a faster encoder may move no list's nDCG@10 by more than this on any corpus
GATE_AGREEMENT = 0.95  # and must share at least this share of FAISS's top 10 chunks with fp32
EVAL_CORPORA = (
    "dev",
    "test",
    "external-dev",
    "external-test",
    "third-party-dev",
    "third-party-test",
    "trades-dev",
    "trades-test",
    "trades-test-blind",
)
EXTERNAL_AS_OF = "2026-11"  # as the Makefile builds the external and third-party corpora
GENERATED_AS_OF = "2025-06"


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def todays_embed(folder: Path, variant: str, threads: int) -> Callable[[Sequence[str], int], np.ndarray]:
    """The encoder as it ran before issue 32: one session using every core inside each batch (and
    sleeping, not spinning, between batches), batches one after another. Same graph, same kernels."""
    import onnxruntime as ort

    from rag.index.encoder import MODEL_FILES, Encoder, length_batches, pool

    spec = Encoder(folder, variant, 1)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(str(folder / MODEL_FILES[variant]), options, providers=["CPUExecutionProvider"])

    def embed(texts: Sequence[str], batch_size: int) -> np.ndarray:
        out = np.zeros((len(texts), spec.spec.dim), dtype=np.float32)
        encodings = spec.tokenizer.encode_batch(list(texts))
        for rows in length_batches([len(e.ids) for e in encodings], batch_size):
            width = max(len(encodings[i].ids) for i in rows)
            feeds = {n: np.zeros((len(rows), width), dtype=np.int64) for n in spec.spec.inputs}
            feeds["input_ids"] = np.full((len(rows), width), spec.spec.pad_id, dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                n = len(encodings[i].ids)
                feeds["input_ids"][r, :n] = encodings[i].ids
                mask[r, :n] = 1
            feeds["attention_mask"] = mask
            hidden = session.run(None, {n: feeds[n] for n in spec.spec.inputs})[0]
            vectors = pool(hidden, mask, spec.spec.pooling)
            out[rows] = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return out

    return embed


def rates(encoders: dict[str, Callable[[Sequence[str]], object]], texts: Sequence[str], rounds: int) -> dict:
    """chunks/s (wall and per CPU-second) of each encoder over the same texts, in interleaved rounds,
    with each one's per-round ratio to the first."""
    for encode in encoders.values():
        encode(texts[:16])  # first calls allocate; not timed
    wall: dict[str, list[float]] = {name: [] for name in encoders}
    cpu: dict[str, list[float]] = {name: [] for name in encoders}
    for _ in range(rounds):
        for name, encode in encoders.items():
            w, c = time.perf_counter(), time.process_time()
            encode(texts)
            wall[name].append(len(texts) / (time.perf_counter() - w))
            cpu[name].append(len(texts) / max(time.process_time() - c, 1e-9))
    first = next(iter(encoders))
    return {
        name: {
            "chunks_per_s": round(statistics.median(wall[name]), 1),
            "chunks_per_cpu_s": round(statistics.median(cpu[name]), 1),
            "wall_ratio": round(statistics.median(a / b for a, b in zip(wall[name], wall[first])), 3),
            "cpu_ratio": round(statistics.median(a / b for a, b in zip(cpu[name], cpu[first])), 3),
        }
        for name in encoders
    }


def measure_embedding(store: Path, queries: list[dict], sample: int, rounds: int = 3) -> dict:
    """The bench corpus's chunks through sentence-transformers, today's encoder path, the new fp32,
    bf16 (where this CPU has it) and int8 encoders; how far each faster one's FAISS results move
    from fp32's on the bench queries; and which arithmetic `rag index` chooses on this machine."""
    import faiss

    from rag.eval.metrics import recall_at_k
    from rag.index.arithmetic import candidates, choose
    from rag.index.cpu_features import read_cpu_features
    from rag.index.encoder import Encoder, available_cores
    from rag.index.export import quantize_int8, reference_model
    from rag.index.model_choice import resolve_model
    from rag.pipeline.builder import BuildSettings
    from rag.store.open import open_store

    opened = open_store(store)
    m = opened.manifest
    chunks = opened.chunks.all()
    texts = [m.passage_prefix + c.text for c in chunks[:sample]]
    batch = BuildSettings().batch_size
    with tempfile.TemporaryDirectory(prefix="bench-encoder-") as tmp:
        folder = Path(tmp) / opened.encoder_dir.name
        shutil.copytree(opened.encoder_dir, folder)
        quantize_int8(folder)
        cores = available_cores()
        st = reference_model(resolve_model(m.embedding_model, True, log))
        features = read_cpu_features()
        faster = [a for a in ("bf16", "int8") if a == "int8" or a in candidates(features)]
        fp32 = Encoder(folder, threads=cores)
        others = {a: Encoder(folder, a, threads=cores) for a in faster}
        today = todays_embed(folder, "fp32", cores)
        measured = rates(
            {
                "today_fp32": lambda t: today(t, batch),
                "sentence_transformers": st.encode,  # its defaults: batches of 32, sorted by length
                "fp32": lambda t: fp32.embed(t, batch),
                **{a: (lambda t, e=e: e.embed(t, batch)) for a, e in others.items()},
            },
            texts,
            rounds,
        )
        same = float(np.max(np.abs(today(texts[:64], batch) - fp32.embed(texts[:64], batch))))
        index32 = faiss.IndexFlatIP(m.dim)
        index32.add(opened.dense_index().vectors())
        texts_q = [q["query"] for q in queries]
        top32 = index32.search(fp32.embed_queries(texts_q), 100)[1]
        tops = {}
        for a, encoder in others.items():
            index = faiss.IndexFlatIP(m.dim)
            index.add(encoder.embed_passages([c.text for c in chunks], batch))
            tops[a] = index.search(encoder.embed_queries(texts_q), 100)[1]
        choice = choose(folder, features)

    def recall10(rows) -> float:
        return float(
            np.mean(
                [
                    recall_at_k(list(dict.fromkeys(chunks[i].cv_id for i in row)), set(q["relevant"]), 10)
                    for row, q in zip(rows, queries)
                ]
            )
        )

    def agreement(rows) -> float:
        return round(float(np.mean([len(set(a[:10]) & set(b[:10])) / 10 for a, b in zip(top32, rows)])), 4)

    return {
        "sample_chunks": len(texts),
        "batch_size": batch,
        "threads": cores,
        "rounds": rounds,
        "cpu_features": features.names(),
        "encoders": measured,
        "new_vs_today_max_abs_diff": same,
        "faiss_candidate_recall10_fp32": round(recall10(top32), 4),
        **{f"{a}_top10_agreement": agreement(rows) for a, rows in tops.items()},
        **{f"faiss_candidate_recall10_{a}": round(recall10(rows), 4) for a, rows in tops.items()},
        "machine_choice": {
            "chosen": choice.chosen,
            "chunks_per_s": choice.chunks_per_s,
            "cosine_to_fp32": choice.cosine_to_fp32,
        },
    }


def measure_quality_gate(eval_root: Path, work: Path, variant: str = "int8") -> dict:
    """On each evaluation corpus: the store built with fp32 and with the variant (the second reusing
    the first's extraction), each list's nDCG@10 from `rag eval`, and the share of FAISS's top 10
    chunks they agree on over the corpus's queries."""
    results: dict = {}
    for name in EVAL_CORPORA:
        corpus = eval_root / name
        if not (corpus / "cvs").is_dir() or not (corpus / "truth" / "queries.jsonl").is_file():
            continue
        as_of = EXTERNAL_AS_OF if name.startswith(("external", "third-party")) else GENERATED_AS_OF
        stores = {v: work / f"gate-{name}-{v}" for v in ("fp32", variant)}
        scores = {}
        for v, store in stores.items():
            log(f"quality gate: {name} with {v}")
            # The variant's store starts from the fp32 one, which starts from make eval-corpora's when
            # there is one: a build then reuses their extraction and profiles, and embeds anew.
            start = stores["fp32"] if v != "fp32" else corpus / "store"
            if v != "fp32" or (start / "current").exists():
                shutil.rmtree(store, ignore_errors=True)
                shutil.copytree(start, store, symlinks=True, ignore=shutil.ignore_patterns("eval.json"))
            _run("index", "--cv-dir", corpus / "cvs", "--store", store, "--as-of", as_of, "--encoder", v, "--quiet")
            _run("eval", "--store", store, "--truth", corpus / "truth", "--out", store / "eval.json")
            metrics = orjson.loads((store / "eval.json").read_bytes())["metrics"]
            scores[v] = {lst: round(m["all"]["nDCG@10"], 4) for lst, m in metrics.items() if "all" in m}
        results[name] = {
            "ndcg10": scores,
            "largest_ndcg_change": round(max(abs(scores[variant][k] - scores["fp32"][k]) for k in scores["fp32"]), 4),
            "faiss_top10_agreement": _agreement(stores["fp32"], stores[variant], corpus / "truth" / "queries.jsonl"),
        }
    passes = bool(results) and all(
        r["largest_ndcg_change"] <= GATE_NDCG and r["faiss_top10_agreement"] >= GATE_AGREEMENT for r in results.values()
    )
    return {"variant": variant, "corpora": results, "passes": passes, "gate": [GATE_NDCG, GATE_AGREEMENT]}


def _run(*args) -> None:
    child = subprocess.run([PY, "-m", "rag", *map(str, args)], capture_output=True, text=True)
    if child.returncode != 0:
        raise SystemExit(f"bench: rag {' '.join(map(str, args))} failed:\n{child.stderr[-2000:]}")


def _agreement(a: Path, b: Path, queries: Path) -> float:
    """Mean share of the top 10 chunks by cosine (the FAISS list before aggregation) two stores of
    the same CVs agree on, chunks matched by CV and position."""
    from rag.search.query import analyse
    from rag.search.retrieval import Searcher
    from rag.store.open import open_store

    texts = [orjson.loads(line)["query"] for line in queries.read_bytes().splitlines() if line.strip()]
    tops = []
    for root in (a, b):
        with open_store(root) as store:
            keys = [(c.source, c.chunk_index) for c in store.chunks.all()]
            searcher = Searcher(store)
            tops.append(
                [{keys[i] for i in np.argsort(-searcher.dense_scores(analyse(t).dense_text))[:10]} for t in texts]
            )
    return round(float(np.mean([len(x & y) / 10 for x, y in zip(*tops)])), 4)


def e5_small_shape(folder: Path, reference: Path) -> Path:
    """A sentence-transformers folder with multilingual-e5-small's architecture (a 12-layer, 384-wide
    BERT with a 250,037-word vocabulary, mean pooling, normalised) and random weights: speed depends on
    the shape, not the weights. The hub is out of reach here; the tokenizer is the bundled model's
    (reference), so token counts are MiniLM's, which e5's tokenizer only approximates."""
    from sentence_transformers import SentenceTransformer, models
    from transformers import BertConfig, BertModel

    config = BertConfig(
        vocab_size=250_037,
        hidden_size=384,
        num_hidden_layers=12,
        num_attention_heads=12,
        intermediate_size=1536,
        max_position_embeddings=512,
        type_vocab_size=2,
    )
    model = BertModel(config)
    staging = folder / "transformer"
    model.save_pretrained(staging)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"):
        if (reference / name).is_file():
            shutil.copy(reference / name, staging / name)
    transformer = models.Transformer(str(staging), max_seq_length=512)
    st = SentenceTransformer(modules=[transformer, models.Pooling(384, "mean"), models.Normalize()], device="cpu")
    st.save(str(folder / "model"))
    return folder / "model"


def measure_model_shapes(texts: Sequence[str], rounds: int = 3) -> dict:
    """chunks/s of the production encoder (fp32, every core) for all-MiniLM-L6-v2 and for
    multilingual-e5-small's shape (random weights), on the same chunks, in interleaved rounds."""
    from rag.index.encoder import Encoder, available_cores
    from rag.index.export import encoder_key, export_encoder
    from rag.index.model_choice import BUNDLED_MODEL, resolve_model

    with tempfile.TemporaryDirectory(prefix="bench-shapes-") as tmp:
        minilm = resolve_model(BUNDLED_MODEL, True, log)
        e5 = resolve_model(str(e5_small_shape(Path(tmp), minilm.folder)), True, log)
        encoders = {}
        for name, source in (("all-MiniLM-L6-v2", minilm), ("multilingual-e5-small shape", e5)):
            folder = Path(tmp) / "exports" / encoder_key(source)
            folder.parent.mkdir(exist_ok=True)
            log(f"exporting {name}")
            export_encoder(source, folder)
            encoder = Encoder(folder, threads=available_cores())
            encoders[name] = lambda t, encoder=encoder: encoder.embed_passages(t, 16)
        return {"chunks": len(texts), "rates": rates(encoders, texts, rounds)}


def measure_index_against_st(cvs: Path, store: Path, build: Callable[..., list[str]], rounds: int = 2) -> dict:
    """What a user waits for: `rag index --force` of a folder (a fresh process: extraction, profiles,
    embedding, indexes) against sentence-transformers encoding the same chunks (model loaded), in turns."""
    from rag.index.export import reference_model
    from rag.index.model_choice import resolve_model
    from rag.store.open import open_store

    subprocess.run(build(cvs, store), check=True, capture_output=True)  # exports or copies the model; not timed
    with open_store(store) as opened:
        texts = [opened.manifest.passage_prefix + c.text for c in opened.chunks.all()]
        model = opened.manifest.embedding_model
    st = reference_model(resolve_model(model, True, log))
    st.encode(texts[:16])
    index_s, st_s, index_cpu, st_cpu = [], [], [], []
    for _ in range(rounds):
        started, children = time.perf_counter(), _children_cpu_s()
        subprocess.run(build(cvs, store, "--force"), check=True, capture_output=True)
        index_s.append(time.perf_counter() - started)
        index_cpu.append(_children_cpu_s() - children)
        started, cpu = time.perf_counter(), time.process_time()
        st.encode(texts)
        st_s.append(time.perf_counter() - started)
        st_cpu.append(time.process_time() - cpu)
    with open_store(store) as opened:
        arithmetic = opened.manifest.encoder.get("variant", "fp32")
    return {
        "cvs": len(list(cvs.glob("*/cv.pdf"))),
        "chunks": len(texts),
        "arithmetic": arithmetic,  # what `rag index` chose on this machine
        "index_force_s": round(statistics.median(index_s), 2),
        "st_encode_s": round(statistics.median(st_s), 2),
        "ratio": round(statistics.median(a / b for a, b in zip(index_s, st_s)), 3),
        # The machine is shared: CPU-seconds move far less with the load than wall seconds.
        "index_force_cpu_s": round(statistics.median(index_cpu), 2),
        "st_encode_cpu_s": round(statistics.median(st_cpu), 2),
        "cpu_ratio": round(statistics.median(a / b for a, b in zip(index_cpu, st_cpu)), 3),
    }


def _children_cpu_s() -> float:
    """CPU-seconds (user and system) of this process's finished children so far."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime
