"""The one-key fix for the Lima assembler's two order diagnostics.

`lima.assembler` reports an op written before one it must follow ("load.u (uniform,
field 2) must come after load.v (varying, field 0)": items go in control-word bit
order) and a destination written last ("the destination comes first: …; corrected
line: …", with the corrected line in the message). Both are mechanical: `fixed_line`
takes the line's text and its diagnostics and returns the line with the corrected
operands and the items in control-word order, or None when neither applies (or the
instruction goes on over more lines, where the fix is left to the user).

A line in Mesa's disassembly syntax (which leaves out a `^v0` destination and writes
`stop` last) is not misordered: it is rewritten into the seed syntax as a whole, never
operand by operand. A Mesa branch is left alone: its target is an absolute word offset,
which one line cannot turn into ours.
"""

from __future__ import annotations

import re

from spvinspect import lima
from spvinspect.lima.fields import CONTROL
from spvinspect.lima.mesa_input import mesa_to_seed
from spvinspect.lima.seed_ops import op_field

CORRECTED = "; corrected line: "
ORDER = " must come after "
_ITEM = re.compile(r"\s*([^,]*[^,\s])\s*(?:,|$)")
_CONTROL_POSITIONS = {"count": 0, "stop": 5, "sync": 6, "next_count": 19, "prefetch": 25}
"""Control items and the control-word bit they sit at (as `lima.assembler` orders them)."""
_PADDING_POSITION = 32


def fixable(messages: list[str]) -> bool:
    """True when one of a line's messages is an order diagnostic the fix handles."""
    return any(CORRECTED in m or ORDER in m for m in messages)


def fixed_line(line: str, messages: list[str]) -> str | None:
    """`line` with its order diagnostics fixed; None when there is nothing to fix."""
    code, hash_, comment = line.partition("#")
    indent = code[: len(code) - len(code.lstrip())]
    body = code.strip()
    if not body or body.endswith(","):
        return None
    if messages:
        ours = _from_mesa(body)
        if ours is not None and ours != body:
            tail = f" {hash_}{comment}" if hash_ else ""
            return f"{indent}{ours}{tail}"
    changed = False
    corrected = next((m.split(CORRECTED, 1)[1].partition("#")[0].strip() for m in messages if CORRECTED in m), None)
    if corrected is not None and corrected != body:
        body, changed = corrected, True
    if any(ORDER in m for m in messages):
        reordered = _in_control_order(body)
        if reordered is not None and reordered != body:
            body, changed = reordered, True
    if not changed:
        return None
    tail = f" {hash_}{comment}" if hash_ else ""
    return f"{indent}{body}{tail}"


def _from_mesa(body: str) -> str | None:
    """The instruction in the seed syntax when `body` is one in Mesa's syntax (not a
    branch), else None."""
    if "branch" in body:
        return None
    words, diagnostics = lima.assemble(body, "mesa")
    if words is None:
        return None
    ours, problems, _ = mesa_to_seed(body)
    return None if problems else ours.strip()


def _in_control_order(body: str) -> str | None:
    """The instruction's items sorted by control-word position (stable); None when an
    item's place is unknown."""
    items = [m.group(1) for m in _ITEM.finditer(body) if m.group(1)]
    placed = []
    for item in items:
        position = _position(item.split()[0])
        if position is None:
            return None
        placed.append((position, item))
    placed.sort(key=lambda pair: pair[0])
    return ", ".join(item for _, item in placed)


def _position(head: str) -> int | None:
    """The control-word bit an item starting with `head` sits at."""
    if head in _CONTROL_POSITIONS:
        return _CONTROL_POSITIONS[head]
    if head.startswith("{padding="):
        return _PADDING_POSITION
    if head.startswith("{"):
        name = head[1:].split("=", 1)[0]
        try:
            return CONTROL.range(name).first_bit
        except KeyError:
            return None
    spec = op_field(head)
    if spec is None:
        return None
    return CONTROL.range("fields").first_bit + spec.index
