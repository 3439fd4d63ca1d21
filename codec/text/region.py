"""A region of a module's text: the lines of a run of instructions, made from the words.

Editing a big module a part at a time needs only the part's text. Every instruction is
one line of `dis` text (without header comments), so line k of a region is instruction
`first + k`, and its words are the span the module's index already knows: no whole
disassembly, and no whole assembly to map lines to words. The region around an
instruction is its function when that is short enough, else a window of lines around it
that stays inside the function (or inside the section before the functions).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.text.listing import DisassemblyOptions, Listing
from spvinspect.codec.text.names import NameMap

REGION_FROM_BYTES = 1 << 20
"""Modules from this size on are edited a region at a time (smaller ones as a whole text)."""
REGION_LINES = 2_000
"""Lines a region holds at most: a whole function up to this size, else a window."""


class Region(NamedTuple):
    """Instructions [first, end) of a module: lines [0, end - first) of the region's text."""

    first: int
    end: int

    def holds(self, index: int) -> bool:
        """True when instruction `index` is one of the region's."""
        return self.first <= index < self.end

    @property
    def lines(self) -> int:
        """How many lines (instructions) the region holds."""
        return self.end - self.first


def region_around(module: LazyModule, index: int, limit: int = REGION_LINES) -> Region:
    """The region to edit around instruction `index` (clamped to the module's
    instructions): its function when that has at most `limit` instructions, else
    `limit` instructions around it within its function, or within the part before the
    first function (the global section), or between functions."""
    module.ensure_indexed()
    count = module.instruction_count
    if count == 0:
        return Region(0, 0)
    index = min(max(index, 0), count - 1)
    spans = module.functions()
    at = bisect_right([span.first for span in spans], index) - 1
    if at >= 0 and spans[at].first <= index < spans[at].end:
        low, high = spans[at].first, spans[at].end
    else:
        low = spans[at].end if at >= 0 else 0
        high = spans[at + 1].first if at + 1 < len(spans) else count
    if high - low <= limit:
        return Region(low, high)
    first = min(max(low, index - limit // 2), high - limit)
    return Region(first, first + limit)


def region_words(module: LazyModule, region: Region) -> tuple[int, int]:
    """The words [start, end) the region's instructions span in the module."""
    start = module.offset(region.first) if region.first < module.instruction_count else module.tail_offset
    end = module.offset(region.end) if region.end < module.instruction_count else module.tail_offset
    return start, end


def region_lines(module: LazyModule, region: Region, names: NameMap) -> list[str]:
    """The region's text, one line per instruction, exactly the lines `dis` prints for
    them with `names` (decoded a chunk at a time: only the region's chunks)."""
    listing = Listing(module, names, DisassemblyOptions())
    segments = listing.instruction_segments
    return ["".join([s.text for s in segments(inst)]) for inst in module.instructions(region.first, region.end)]


def region_texts(module: LazyModule, region: Region, names: NameMap) -> list[str] | None:
    """`region_lines` when `region_decodes`, else None: both from one decoding of the
    region's instructions (opening a region decodes it once)."""
    listing = Listing(module, names, DisassemblyOptions())
    segments = listing.instruction_segments
    instructions = list(module.instructions(region.first, region.end))
    if not all(inst.valid for inst in instructions):
        return None
    return ["".join([s.text for s in segments(inst)]) for inst in instructions]


def region_decodes(module: LazyModule, region: Region) -> bool:
    """True when every instruction of the region fits the grammar (its text is then
    exact: an instruction that does not would be printed as raw words only by a
    lossless disassembly of the whole module)."""
    return all(inst.valid for inst in module.instructions(region.first, region.end))
