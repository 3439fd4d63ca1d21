"""Damaged programs never crash the emulator: every failure is an EmulationError message."""

from __future__ import annotations

import json
import random

from lima_golden import GOLDEN

from spvinspect import lima
from spvinspect.lima.emulator import EmulationError, Machine, parse_inputs, run_grid


def test_programs_with_flipped_bits_run_or_stop_with_a_message():
    programs = [
        [int(w, 16) for w in json.loads(path.read_text())["words"]] for path in sorted(GOLDEN.glob("*.json"))
    ]
    rng = random.Random(22)
    inputs = parse_inputs({"varyings": {"0": [0.5, -1, 2, 3]}, "uniforms": {"0": [1, 2, 3, 4]}})
    outcomes = {"ran": 0, "message": 0}
    for trial in range(400):
        words = list(rng.choice(programs))
        for _ in range(rng.randint(1, 4)):
            index = rng.randrange(len(words))
            words[index] ^= 1 << rng.randrange(32)
        program = lima.decode_words(words)
        if not program.instructions:
            continue
        try:
            Machine(program, inputs, max_steps=200).run()
            if trial % 20 == 0:
                run_grid(program, inputs, (4, 4))
            outcomes["ran"] += 1
        except EmulationError as error:
            assert str(error)
            outcomes["message"] += 1
    assert outcomes["ran"] > 50 and outcomes["message"] > 50, outcomes
