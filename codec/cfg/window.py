"""The graph of a run of consecutive blocks of a function: a window on a function too big
to build whole.

`window_cfg` builds the graph of the blocks the given instructions hold (OpLabel on), as
the function's own graph would have them, minus the edges that leave the run (given
apart, as exits, when asked); those and the run's open end are not problems of the
module, so they are not reported. Dominance
and depth are those of the run, entered at its first block; which blocks are unreachable
is not known from a run, so none is said to be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from spvinspect.codec.binary.model import Instruction
from spvinspect.codec.cfg.graph import Edge, FunctionCFG, build_cfg
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.grammar import Grammar
from spvinspect.codec.text.names import NameMap

_OUTSIDE_THE_RUN = ("is cut short",)
"""What the builder says of a run ending before the function does."""


class _Run(NamedTuple):
    instructions: list
    tail_offset: int


def window_cfg(
    function: Instruction,
    instructions: Sequence[Instruction],
    names: NameMap,
    grammar: Grammar | None = None,
    exits: list[Edge] | None = None,
) -> tuple[FunctionCFG | None, tuple[Diagnostic, ...]]:
    """The graph of the blocks in `instructions` (consecutive instructions of the function
    OpFunction `function` opens, from an OpLabel or from the OpFunction itself), and what
    is wrong within them. None when they hold no function. The edges that leave the run
    are appended to `exits` when given."""
    run = list(instructions) if instructions and instructions[0].offset == function.offset else [function, *instructions]
    leaving: list[Edge] = []
    built = build_cfg(_Run(run, run[-1].end), names, grammar, leaving)
    if not built.functions:
        return None, ()
    if exits is not None:
        exits += leaving
    kept = tuple(d for d in built.diagnostics if not any(text in d.message for text in _OUTSIDE_THE_RUN))
    return replace(built.functions[0], unreachable=frozenset()), kept
