"""Modules and app launchers the inspector's tests share (imported by name: unlike
`conftest`, this module name is unique across the test directories)."""

from __future__ import annotations

import struct

from spvinspect.codec.asm import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.grammar import load_grammar
from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.responsive import pacing
from waiting import until, until_quiet


def broken_module_bytes() -> bytes:
    """The example module with three faults: an OpDecorate whose decoration is not in the
    grammar (its words stay raw), an instruction at the end claiming more words than
    remain (the undecodable tail), and two bytes past the last whole word."""
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    decorate = next(i for i in module.instructions if i.opname == "OpDecorate")
    words[decorate.offset + 2] = 9999
    nop = load_grammar().by_name["OpNop"].opcode
    words += [(40 << 16) | nop, 0xDEADBEEF, 0x12345678]
    return struct.pack(f"<{len(words)}I", *words) + b"\xab\xcd"


def byte_swapped(data: bytes) -> bytes:
    """The same module stored big-endian (whole words swapped)."""
    count = len(data) // 4
    return struct.pack(f">{count}I", *struct.unpack(f"<{count}I", data))


EXT_INST_MODULE = """OpCapability Shader
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
%float = OpTypeFloat 32
%one = OpConstant %float 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
%mixed = OpExtInst %float %std FMix %one %one %one
OpReturn
OpFunctionEnd
"""
"""A module with one extended instruction (GLSL.std.450 FMix), for the grammar cards."""


def ext_inst_module_bytes() -> bytes:
    """`EXT_INST_MODULE` assembled."""
    result = assemble(EXT_INST_MODULE)
    assert result.ok, result.diagnostics
    return result.binary


async def settle(pilot) -> None:
    """Let the index worker finish and every message land."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def image_done(pilot, image) -> None:
    """Wait until the image pane (built and shown by its key) has started its grid, which it
    does once shown, then until the grid's worker is done."""
    await until(pilot, lambda: image.progress or image.pixels is not None, "the image pane starting its grid")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def make_app(data: bytes, name: str = "module.spv", **options) -> InspectorApp:
    """The app over `data`, as `spvinspect` would open it."""
    return InspectorApp(Document(data, name), **options)


def _groups(keys) -> list[list[str]]:
    """Keys pressed together: a tuple is a group of its own, a run of plain keys another."""
    groups: list[list[str]] = []
    run: list[str] | None = None
    for key in keys:
        if isinstance(key, tuple):
            groups.append(list(key))
            run = None
        elif run is None:
            run = [key]
            groups.append(run)
        else:
            run.append(key)
    return groups


KEYS_PAUSE = 0.02
"""Seconds after a key pressed alone that a snapshot counts the keys as paused
(`pacing.QUIET_AFTER_INPUT`, 0.3 s in the app): the panes end as after a real pause,
reached sooner. Keys pressed together keep the app's pause: what the panes do once the
keys pause (a fold, a wider list) must not come between them however slow the machine."""


def after_keys(*keys, one_by_one: bool = False):
    """A snapshot's `run_before`: let the index finish, press `keys`, then wait until
    every pane has followed (the CFG pane follows a moment after the last key, may
    build its graph in a worker, and folds or unfolds once the keys pause): until the
    app has done all it put off (`until_quiet`).
    `one_by_one` waits so after every key, as a slow typist would: where what a key does
    depends on whether the panes followed the key before it, the shot does not depend
    on how fast the machine is. A tuple among `keys` is pressed as a group of its own,
    waited for before and after (a key that moves to another function, which folds or
    unfolds the CFG pane once the keys pause)."""

    async def run(pilot) -> None:
        quiet_after_input = pacing.QUIET_AFTER_INPUT
        try:
            await until_quiet(pilot)
            for group in ([[key] for key in keys] if one_by_one else _groups(keys)):
                pacing.QUIET_AFTER_INPUT = KEYS_PAUSE if len(group) == 1 else quiet_after_input
                await pilot.press(*group)
                await until_quiet(pilot)
        finally:
            pacing.QUIET_AFTER_INPUT = quiet_after_input

    return run
