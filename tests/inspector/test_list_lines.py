"""Every row the instruction list renders is the `spvinspect dis` line, friendly and (for
half of them) raw, with the instruction's byte offset in the gutter, over a sample of the
corpus (the codec's text is checked against spirv-dis over all of it)."""

from __future__ import annotations

import pytest

from oracle import corpus_sample
from rich.style import Style
from textual.app import App

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.text.disassembler import DisassemblyOptions, disassemble
from spvinspect.document import Document
from spvinspect.widgets.instruction_list import CONTROL_PICTURES, GUTTER_WIDTH, InstructionList

UNDO_PICTURES = {ord(picture): code for code, picture in CONTROL_PICTURES.items()}


def rendered_rows(widget: InstructionList) -> tuple[list[str], list[str]]:
    """(gutter, text) of every row, rendered wide enough that nothing is cropped."""
    gutters, texts = [], []
    for row in range(widget.document.row_count):
        wide = GUTTER_WIDTH + 4 * len(widget.document.row_text(row)) + 8
        text = widget.render_row(row, 0, wide, Style()).text
        gutters.append(text[:8])
        texts.append(text[GUTTER_WIDTH:].rstrip(" ").translate(UNDO_PICTURES))
    return gutters, texts


def dis_lines(data: bytes, raw: bool) -> list[str]:
    """What `spvinspect dis --no-header [--raw-id]` prints, one entry per instruction: a
    string operand may hold newlines, and dis then prints its instruction on several lines."""
    module = decode(data)
    lines = disassemble(module, DisassemblyOptions(friendly_names=not raw, header=False)).split("\n")
    joined = []
    position = 0
    for inst in module.instructions:
        newlines = sum(str(o.value).count("\n") for o in inst.operands if o.kind == "LiteralString")
        joined.append("\n".join(lines[position : position + newlines + 1]))
        position += newlines + 1
    return joined


SHARDS = 4
"""The sample in this many parts, so that parallel workers share the test."""


class Bare(App):
    """An app with nothing on screen: the list is mounted in it only to have its styles
    (a full screen would be laid out and drawn again at each mount)."""


@pytest.mark.parametrize("shard", range(SHARDS))
async def test_every_rendered_row_is_the_dis_line(corpus, shard):
    modules = corpus_sample(sorted((corpus / "spv").glob("*.spv")))[shard::SHARDS]
    assert modules
    with_raw = set(modules[::2])
    app = Bare()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        mismatches = []
        for path in modules:
            data = path.read_bytes()
            document = Document(data, path)
            widget = InstructionList(document)
            await app.screen.mount(widget)
            for raw in (False, True) if path in with_raw else (False,):
                widget.raw = raw
                gutters, texts = rendered_rows(widget)
                expected = dis_lines(data, raw)
                if texts != expected:
                    first = next(k for k, (a, b) in enumerate(zip(texts, expected)) if a != b)
                    mismatches.append(f"{path.name} raw={raw} row {first}: {texts[first]!r} != {expected[first]!r}")
                offsets = [f"{inst.offset * 4:08x}" for inst in decode(data).instructions]
                assert gutters == offsets, path.name
            await widget.remove()
        assert not mismatches, "\n".join(mismatches[:10])
