"""chunks/s of the production encoder (every core, batches side by side) with the imported
multilingual-e5-small (its own tokenizer, so its own token counts) beside all-MiniLM-L6-v2, each in
fp32 (ONNX Runtime) and bf16 (OpenVINO), on the same chunks, in interleaved rounds
(bench/embedding.py's rates): the 100,000-CV plan's e5 row, with the arithmetic that wins here.

    python -m bench.e5_speed --minilm EXPORT --e5 EXPORT --store STORE [--sample 512] --out FILE
"""

from __future__ import annotations

import argparse
import datetime
import random
from pathlib import Path

import orjson

from bench.e5_agreement import _chunks
from bench.embedding import rates
from rag.index.cpu_features import read_cpu_features
from rag.index.encoder import Encoder, available_cores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minilm", type=Path, required=True, help="all-MiniLM-L6-v2's export folder")
    parser.add_argument("--e5", type=Path, required=True, help="the imported multilingual-e5-small's export folder")
    parser.add_argument("--store", type=Path, required=True, help="a store whose chunks are timed")
    parser.add_argument("--sample", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    texts = random.Random(0).sample(_chunks(args.store), args.sample)
    encoders = {}
    tokens = {}
    for name, folder in (("all-MiniLM-L6-v2", args.minilm), ("multilingual-e5-small q4", args.e5)):
        for variant in ("fp32", "bf16"):
            encoder = Encoder(folder, variant, threads=available_cores())
            encoders[f"{name} {variant}"] = lambda t, encoder=encoder: encoder.embed_passages(t, 16)
        tokens[name] = sum(len(e.ids) for e in encoder.tokenizer.encode_batch(texts))
    features = read_cpu_features()
    report = {"chunks": len(texts), "cores": available_cores(), "cpu": features.model, "cpu_features": features.names()}
    report["tokens"] = tokens
    report["rates"] = rates(encoders, texts, args.rounds)
    report["date"] = datetime.date.today().isoformat()
    args.out.write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    print(orjson.dumps(report).decode())


if __name__ == "__main__":
    main()
