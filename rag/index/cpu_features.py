"""What arithmetic this CPU has for the encoder's matrix products, read from /proc/cpuinfo's flags.

AMX (tile matrix units, with bf16 and int8) and AVX-512 BF16 make bf16 products cheap; AVX-512
VNNI speeds int8; AVX2 alone is the fp32 machine the defaults were first made on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")
# A cpuinfo file read instead, for the tests and the bench only: this machine read as another (an
# AVX2-only CPU on one with AMX), to take that machine's path here. The command line reads the
# variable and hands it to read_elsewhere (only the command line reads the environment).
CPUINFO_ENV = "RAG_CPUINFO"
_source = CPUINFO
_FLAGS = {
    "amx_bf16": "amx_bf16",
    "amx_int8": "amx_int8",
    "avx512_bf16": "avx512_bf16",
    "avx512_vnni": "avx512_vnni",
    "avx512f": "avx512f",
    "avx2": "avx2",
}


@dataclass(frozen=True)
class CpuFeatures:
    model: str  # "model name" (a virtual machine may name only the family)
    amx_bf16: bool = False
    amx_int8: bool = False
    avx512_bf16: bool = False
    avx512_vnni: bool = False
    avx512f: bool = False
    avx2: bool = False

    @property
    def bf16(self) -> bool:
        """bf16 products in hardware (AMX tiles or AVX-512 BF16), not emulated in fp32."""
        return self.amx_bf16 or self.avx512_bf16

    def names(self) -> list[str]:
        return [name for name in _FLAGS if getattr(self, name)]


def parse_cpuinfo(text: str) -> CpuFeatures:
    """The first processor's model name and flags (every core of a machine has the same)."""
    model, flags = "unknown", set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "model name" and model == "unknown":
            model = value.strip() or "unknown"
        elif key in ("flags", "Features") and not flags:  # x86, ARM
            flags = set(value.split())
    return CpuFeatures(model, **{field: flag in flags for field, flag in _FLAGS.items()})


def read_elsewhere(path: str | None) -> None:
    """Read the cpuinfo file at path instead of this machine's from now on (None: this machine's)."""
    global _source
    _source = Path(path) if path else CPUINFO


def read_cpu_features(path: Path | None = None) -> CpuFeatures:
    """This machine's features (or read_elsewhere's file's); none where the file cannot be read (not Linux)."""
    path = path or _source
    try:
        return parse_cpuinfo(path.read_text(errors="replace"))
    except OSError:
        return CpuFeatures("unknown")
