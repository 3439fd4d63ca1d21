"""What the app's random-key test opens and presses: seeded modules of every kind the app
opens (valid, mutated and big-endian SPIR-V, Lima raw streams and MBS files) and seeded
key sequences over the panes, the editor, saves and their questions."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from pathlib import Path

from benchmarks.fuzzing import lima_inputs, mutate
from benchmarks.fuzzing.kinds import _spirv_seeds
from benchmarks.fuzzing.spirv_inputs import ISSUE_REPRODUCERS

APP_KINDS = ("spirv-valid", "spirv-mutated", "spirv-big-endian", "lima-stream", "mbs")
"""What an input is, in the order a campaign cycles through them."""

PANE_KEYS = (
    "j", "k", "l", "h", "down", "up", "left", "right", "pagedown", "pageup", "home", "end", "g", "G",
    "right_square_bracket", "left_square_bracket", "right_curly_bracket", "left_curly_bracket",
    "enter", "u", "escape", "ctrl+o", "ctrl+n", "n", "N", "p", "r", "a", "c", "b", "v", "m", "x", "z",
    "1", "2", "3", "4", "5", "question_mark", "colon", "slash", "tab", "shift+tab", "ctrl+r", "backspace",
    "ctrl+c", "i", "f", "w", "o",
)
"""Keys for the panes and their dialogs (`q` is left out: it ends the run)."""
EDIT_KEYS = ("e", "e", "ctrl+s", "f12", "ctrl+z", "ctrl+y", "f8", "shift+f8", "enter", "backspace", "delete")
"""Keys that open the editor, change its text and save."""
ANSWERS = ("o", "s", "c", "y", "n", "escape")
"""Answers to the save questions (overwrite, save elsewhere, cancel, yes, no)."""
TYPED = string.ascii_letters.replace("q", "") + string.digits + " %=\".$^,;#:-_" + "\u00e9"
"""Characters typed into the editor (and any field that has the focus); not `q`, which
would end the run wherever no field has the focus."""
SAVE_NAMES = ("saved.spv", "saved.mbs", "saved.bin", "saved.spvasm", "saved.s", "input", "missing/dir/x.spv")
"""Names typed into "save as": each kind of output, the opened file itself, a missing folder."""


@dataclass(frozen=True)
class AppInput:
    """One file for the app: its kind, name and bytes, and whether it opens in Lima mode."""

    kind: str
    name: str
    data: bytes
    lima: bool


def app_input(rng: random.Random, kind: str, corpus: Path | None) -> AppInput:
    """A seeded input of `kind` (see APP_KINDS)."""
    seeds = _spirv_seeds(corpus)
    if kind == "spirv-valid":
        return AppInput(kind, "input.spv", rng.choice(seeds.binaries[len(ISSUE_REPRODUCERS) :]), False)
    if kind == "spirv-mutated":
        data = rng.choice(seeds.binaries)
        for _ in range(rng.randint(1, 3)):
            data = mutate.flip_bits(data, rng) if rng.random() < 0.5 else mutate.truncate(data, rng)
        return AppInput(kind, "input.spv", data[:4] if len(data) < 4 else data, False)
    if kind == "spirv-big-endian":
        return AppInput(kind, "input.spv", mutate.swap_byte_order(rng.choice(seeds.binaries)), False)
    if kind == "lima-stream":
        return AppInput(kind, "input.bin", lima_inputs.stream_input(rng), True)
    return AppInput(kind, "input.mbs", lima_inputs.mbs_input(rng), True)


def key_sequence(rng: random.Random, count: int) -> list[str | tuple[str, str]]:
    """`count` steps: a key, or ("type", text) for a run of characters, or ("save as",
    name) for f12 with a name typed into its field."""
    steps: list[str | tuple[str, str]] = []
    while len(steps) < count:
        roll = rng.random()
        if roll < 0.45:
            steps.append(rng.choice(PANE_KEYS))
        elif roll < 0.65:
            steps.append(rng.choice(EDIT_KEYS))
        elif roll < 0.8:
            steps.append(("type", "".join(rng.choice(TYPED) for _ in range(rng.randint(1, 6)))))
        elif roll < 0.9:
            steps.append(rng.choice(ANSWERS))
        else:
            steps.append(("save as", rng.choice(SAVE_NAMES)))
    return steps
