"""The five kinds of input a campaign makes: how each is generated, checked and stored."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from benchmarks.fuzzing import checks, lima_inputs, mutate, spirv_inputs

Input = bytes | str


@dataclass(frozen=True)
class Kind:
    """One kind of input."""

    name: str
    generate: Callable[[random.Random, Path | None], Input]
    """A fresh input from a seeded generator and the corpus folder (None: generated only)."""
    check: Callable[[Input], list[str]]
    """The round-trip properties the input breaks; raises when the code under test does."""
    round_trips: tuple[str, ...]
    """Every property `check` can report."""
    suffix: str
    """File name suffix of a reproducer."""
    pieces: Callable[[Input], list] | None = None
    """Cuts an input into parts the shrinker tries removing whole (instructions)."""


SEED_MODULE_BYTES = 16_384
"""Corpus modules (and four times as many bytes of text) larger than this are not used as
seeds: mutants of small modules find the same faults, many times faster."""


@lru_cache(maxsize=4)
def _spirv_seeds(corpus: Path | None) -> spirv_inputs.SpirvSeeds:
    return spirv_inputs.load_seeds(corpus, SEED_MODULE_BYTES)


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "spirv-binary",
            lambda rng, corpus: spirv_inputs.binary_input(rng, _spirv_seeds(corpus)),
            checks.spirv_binary,
            checks.SPIRV_ROUND_TRIPS,
            ".spv",
            lambda data: mutate.counted_pieces(data, 5, lambda word: word >> 16),
        ),
        Kind(
            "spirv-text",
            lambda rng, corpus: spirv_inputs.text_input(rng, _spirv_seeds(corpus)),
            checks.spirv_text,
            checks.SPIRV_ROUND_TRIPS,
            ".spvasm",
        ),
        Kind("lima-stream", lambda rng, corpus: lima_inputs.stream_input(rng), checks.lima_bytes,
             checks.LIMA_ROUND_TRIPS, ".bin", lambda data: mutate.counted_pieces(data, 0, lambda word: word & 0x1F)),
        Kind("mbs", lambda rng, corpus: lima_inputs.mbs_input(rng), checks.lima_bytes,
             checks.LIMA_ROUND_TRIPS, ".mbs"),
        Kind("lima-text", lambda rng, corpus: lima_inputs.text_input(rng), checks.lima_text,
             checks.LIMA_ROUND_TRIPS, ".s"),
    )
}
"""Every kind by name, in the order campaigns run them."""


def make_input(kind: Kind, seed: int, index: int, corpus: Path | None) -> Input:
    """Input number `index` of `kind` in the campaign with `seed`: the same on every run."""
    return kind.generate(random.Random(f"{seed}/{kind.name}/{index}"), corpus)


def input_bytes(data: Input) -> bytes:
    """What a reproducer file holds: the bytes, or the text as UTF-8 (lone surrogates kept)."""
    return data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
