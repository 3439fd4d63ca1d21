"""Regions of a module's text (`codec.text.region`): the region around an instruction is
its function, or a window that stays in its function or in the global section, and the
region's lines are exactly the lines `dis` prints for those instructions."""

from __future__ import annotations

import pytest
from oracle import corpus_files

from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.disassembler import Disassembler
from spvinspect.codec.text.listing import DisassemblyOptions
from spvinspect.codec.text.names import module_names
from spvinspect.codec.text.region import Region, region_around, region_decodes, region_lines, region_words
from spvinspect.commands.open import EXAMPLE_MODULE


def test_region_around_the_example() -> None:
    module = open_module(EXAMPLE_MODULE.read_bytes())
    spans = module.functions()
    first_function = module.first_function
    # In a function: the whole function, or a window inside it.
    inside = spans[1].first + 3
    assert region_around(module, inside) == Region(spans[1].first, spans[1].end)
    window = region_around(module, inside, limit=4)
    assert window.lines == 4 and window.holds(inside)
    assert spans[1].first <= window.first and window.end <= spans[1].end
    # At a function's first line, a window does not reach into what is before it.
    assert region_around(module, spans[1].first, limit=4) == Region(spans[1].first, spans[1].first + 4)
    # The global section: a window that stops before the first function.
    assert region_around(module, first_function - 1, limit=10) == Region(first_function - 10, first_function)
    assert region_around(module, 0, limit=10) == Region(0, 10)
    # Out of range: clamped to the last instruction.
    assert region_around(module, 10**9).holds(module.instruction_count - 1)
    start, end = region_words(module, Region(spans[0].first, spans[0].end))
    assert (start, end) == (module.offset(spans[0].first), module.offset(spans[0].end))


def _files() -> list:
    return corpus_files("spv")[::40] or [EXAMPLE_MODULE]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_region_lines_are_the_disassembly(path) -> None:
    data = path.read_bytes()
    whole = open_module(data)
    lines = Disassembler(whole, DisassemblyOptions(header=False)).lines()
    module = open_module(data)
    names = module_names(module)
    module.ensure_indexed()
    count = module.instruction_count
    for index in sorted({0, count // 3, count // 2, count - 1}):
        for limit in (7, 2000):
            region = region_around(module, index, limit)
            assert region.holds(index) and region.lines <= limit
            if region_decodes(module, region):
                assert region_lines(module, region, names) == lines[region.first : region.end]
