"""Folding functions and blocks in the instruction list: a layout over another layout
(plain or reading aids) in which each folded range of rows is one summary row,
`▸ %main: 42 instructions in 5 blocks`. Textual-free.

The summary row stands for the range's first instruction (OpFunction, or the block's
OpLabel), and every instruction of the range maps to it, so a selection inside a fold
is on the summary row and the selected word never changes. Rows map through the folds
by bisection: folding costs nothing per row, on any size of module.

A fold is remembered by what it folds (`FoldAnchor`: the function's id, and the block's
label id), so the folds are laid out again over other rows (the reading aids, another
naming) and over an edit's re-assembled module (`fold_anchors`, `refold`).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from spvinspect.codec.text.listing import Role, Segment
from spvinspect.layouts import PlainLayout

FOLD_MARK = "▸"


class FoldedLayout:
    """`base`'s rows with the ranges in `folds` ((first base row, last base row, summary),
    sorted, apart) each shown as one row holding its summary."""

    def __init__(self, base: PlainLayout, folds: list[tuple[int, int, str]]) -> None:
        self.base = base
        self.folds = sorted(folds)
        self.aided = base.aided
        self.instructions = base.instructions
        self._starts = [first for first, _, _ in self.folds]
        self._hidden: list[int] = []
        """Base rows hidden by the folds before each fold."""
        hidden = 0
        for first, last, _ in self.folds:
            self._hidden.append(hidden)
            hidden += last - first
        self._view_starts = [first - before for (first, _, _), before in zip(self.folds, self._hidden)]
        self.count = base.count - hidden

    # -- rows through the folds ----------------------------------------------------

    def base_row(self, row: int) -> tuple[int, int | None]:
        """The base row a row shows, and the fold it is the summary of (or None)."""
        k = bisect.bisect_right(self._view_starts, row) - 1
        if k < 0:
            return row, None
        first, last, _ = self.folds[k]
        if row == self._view_starts[k]:
            return first, k
        return row + self._hidden[k] + (last - first), None

    def view_row(self, base_row: int) -> int:
        """The row showing `base_row` (a folded row: its summary row)."""
        k = bisect.bisect_right(self._starts, base_row) - 1
        if k < 0:
            return base_row
        first, last, _ = self.folds[k]
        if base_row <= last:
            return self._view_starts[k]
        return base_row - self._hidden[k] - (last - first)

    def fold_at(self, row: int) -> int | None:
        """The index of the fold whose summary `row` is, or None."""
        return self.base_row(row)[1]

    # -- the layout's interface --------------------------------------------------------

    def instruction(self, row: int) -> int | None:
        return self.base.instruction(self.base_row(row)[0])

    def row_of(self, index: int) -> int:
        return self.view_row(self.base.row_of(index))

    def tail(self, row: int) -> int | None:
        return self.base.tail(self.base_row(row)[0])

    def tail_row(self, line: int) -> int:
        return self.view_row(self.base.tail_row(line))

    def text(self, row: int) -> str | None:
        base, fold = self.base_row(row)
        if fold is not None:
            return self.folds[fold][2]
        return self.base.text(base)

    def segments(self, row: int, plain: tuple[Segment, ...]) -> tuple[Segment, ...]:
        base, fold = self.base_row(row)
        if fold is not None:
            return (Segment(self.folds[fold][2], Role.COMMENT, None),)
        return self.base.segments(base, plain)


def _opcodes(module, start: int, stop: int) -> list[int]:
    """The opcodes of instructions [start, stop), read from their first words (only
    these: a function is small beside the module)."""
    opcode = module.opcode
    return [opcode(index) for index in range(start, stop)]


@dataclass(frozen=True, slots=True)
class FoldAnchor:
    """What a fold folds: a function by its result id, or one of its blocks by its label's."""

    function: int
    block: int | None = None
    """The block's OpLabel result id; None: the whole function."""


def _span_holding(spans, index: int):
    k = bisect.bisect_right([span.first for span in spans], index) - 1
    return spans[k] if k >= 0 and index < spans[k].end else None


def _fold_range(document, span, index: int, raw: bool) -> tuple[int, int, str] | str:
    """The instructions [first, last] the fold at instruction `index` of function `span`
    covers (the function, on its OpFunction; else the block holding `index`) and its
    summary; a string says why nothing folds there."""
    module = document.module
    names = document.names(raw)
    label, end = document.op_label, document.grammar.by_name["OpFunctionEnd"].opcode
    if index == span.first:
        opcodes = _opcodes(module, span.first, span.end)
        blocks = opcodes.count(label)
        plural = "" if blocks == 1 else "s"
        summary = f"{FOLD_MARK} %{names.name(span.result_id)}: {span.end - span.first:,} instructions in {blocks:,} block{plural}"
        return span.first, span.end - 1, summary
    before = _opcodes(module, span.first, index + 1)
    starts = [i for i, op in enumerate(before) if op == label]
    if not starts or index == span.end - 1 and before[-1] == end:
        return "Nothing to fold here: the function's parameters and its end are in no block"
    first = span.first + starts[-1]
    after = _opcodes(module, index + 1, span.end)
    stop = next((i for i, op in enumerate(after) if op in (label, end)), len(after))
    last = index + stop
    name = names.name(module.instruction(first).result_id)
    return first, last, f"{FOLD_MARK} block %{name}: {last - first + 1:,} instructions"


def toggle_fold(document, row: int, raw: bool = False) -> PlainLayout | FoldedLayout | str:
    """The document's layout with the fold at `row` opened (on a summary row) or closed:
    the function, on its OpFunction row, else the block holding the row. A string says
    why nothing folds there."""
    layout = document.layout
    base, folds = (layout.base, list(layout.folds)) if isinstance(layout, FoldedLayout) else (layout, [])
    if isinstance(layout, FoldedLayout):
        k = layout.fold_at(row)
        if k is not None:
            del folds[k]
            return FoldedLayout(base, folds) if folds else base
    index = layout.instruction(row)
    if index is None:
        return "Nothing to fold here: functions and blocks fold"
    span = _span_holding(document.module.functions(), index)
    if span is None:
        return "Nothing to fold here: functions and blocks fold (this instruction is in no function)"
    found = _fold_range(document, span, index, raw)
    if isinstance(found, str):
        return found
    first, last, summary = found
    low, high = base.row_of(first), base.row_of(last)
    kept = [fold for fold in folds if fold[1] < low or fold[0] > high]
    kept.append((low, high, summary))
    return FoldedLayout(base, kept)


def fold_anchors(document) -> list[FoldAnchor]:
    """What each fold of the document's layout folds, top to bottom ([] when none)."""
    layout = document.layout
    if not isinstance(layout, FoldedLayout):
        return []
    module = document.module
    spans = module.functions()
    anchors = []
    for first_row, _, _ in layout.folds:
        index = layout.base.instruction(first_row)
        span = _span_holding(spans, index) if index is not None else None
        if span is not None:
            block = None if index == span.first else module.instruction(index).result_id
            anchors.append(FoldAnchor(span.result_id, block))
    return anchors


def refold(document, anchors: list[FoldAnchor], raw: bool = False) -> PlainLayout | FoldedLayout:
    """The document's unfolded layout with the folds `anchors` name laid over it again;
    a function or block the module no longer has is left open."""
    layout = document.layout
    base = layout.base if isinstance(layout, FoldedLayout) else layout
    module = document.module
    spans = {span.result_id: span for span in module.functions()}
    label = document.op_label
    folds: list[tuple[int, int, str]] = []
    for anchor in anchors:
        span = spans.get(anchor.function)
        if span is None:
            continue
        index = span.first if anchor.block is None else next(
            (i for i in range(span.first, span.end) if module.opcode(i) == label and module.instruction(i).result_id == anchor.block),
            None)
        found = _fold_range(document, span, index, raw) if index is not None else None
        if found is None or isinstance(found, str):
            continue
        first, last, summary = found
        low, high = base.row_of(first), base.row_of(last)
        if all(fold[1] < low or fold[0] > high for fold in folds):
            folds.append((low, high, summary))
    return FoldedLayout(base, folds) if folds else base
