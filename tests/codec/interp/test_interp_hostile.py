"""Broken modules get a clear message, never a traceback: cut short, words changed."""

from __future__ import annotations

import random
import subprocess
import sys

from asm_module import module

from spvinspect.codec.interp.group import run_entry
from spvinspect.codec.interp.interface import InputError
from spvinspect.codec.interp.shader import ShaderError

BODY = """%x = OpIAdd %int %i1 %i1
%y = OpSDiv %int %x %i1"""
DECLS = "%i1 = OpConstant %int 1\n"


def test_a_module_cut_short_is_a_message(tmp_path):
    data = module(BODY, DECLS)
    path = tmp_path / "cut.spv"
    path.write_bytes(data[: len(data) - 24])
    result = subprocess.run([sys.executable, "-m", "spvinspect", "run", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "error:" in result.stderr and "main" in result.stderr


def test_changed_words_never_raise_anything_but_the_message_errors():
    data = module(BODY, DECLS)
    rng = random.Random(7)
    for _ in range(300):
        d = bytearray(data)
        for _ in range(2):
            i = rng.randrange(5, len(d) // 4) * 4
            d[i : i + 4] = rng.choice([rng.getrandbits(32), rng.randrange(0, 64)]).to_bytes(4, "little")
        try:
            run_entry(bytes(d), limit=10_000)
        except (ShaderError, InputError):
            pass
