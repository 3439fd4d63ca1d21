"""Replays the llvmpipe golden files (tests/lima/golden, made by tests/oracles/lima_llvmpipe.py)
on the emulator and says, fragment by fragment, where the two disagree."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spvinspect import lima
from spvinspect.lima.emulator import parse_inputs, run_grid

GOLDEN = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Miss:
    program: str
    set_name: str
    x: int
    y: int
    expected: tuple
    found: tuple
    why: str


def agree(expected: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Per fragment: every channel within max(1% of llvmpipe's value, 1/256); NaN matches NaN."""
    tolerance = np.maximum(np.abs(expected) * 0.01, 1.0 / 256)
    with np.errstate(invalid="ignore"):
        close = np.abs(found - expected) <= tolerance
    both_nan = np.isnan(expected) & np.isnan(found)
    same_inf = np.isinf(expected) & (found == expected)
    return np.all(close | both_nan | same_inf, axis=-1)


def compare(name: str) -> tuple[int, list[Miss]]:
    """(fragments compared, misses) for one program (its words are in the golden file)."""
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    program = lima.decode_words([int(word, 16) for word in data["words"]])
    total, misses = 0, []
    for entry in data["sets"]:
        width, height = entry["grid"]
        result = run_grid(program, parse_inputs(entry["inputs"]), (width, height))
        expected = np.array(entry["colors"], dtype=np.float64).reshape(height, width, 4)
        discarded = np.array(entry["discarded"], dtype=bool).reshape(height, width)
        found = result.colors.astype(np.float64)
        good = (discarded == result.discarded) & (discarded | agree(expected, found))
        total += width * height
        for y, x in zip(*np.nonzero(~good)):
            why = "discard differs" if discarded[y, x] != result.discarded[y, x] else "colour differs"
            misses.append(Miss(name, entry["name"], int(x), int(y), tuple(expected[y, x]), tuple(found[y, x]), why))
    return total, misses


def names() -> list[str]:
    return sorted(path.stem for path in GOLDEN.glob("*.json"))
