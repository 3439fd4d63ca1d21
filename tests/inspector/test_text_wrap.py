"""The word detail's wrapping gives the lines Rich's `Text.wrap` gives (left-justified,
an overlong word cut with an ellipsis), on the panel's own values and on made-up lines
with runs of spaces, overlong words and widths down to one cell."""

from __future__ import annotations

import random

from rich.console import Console
from rich.text import Text

from spvinspect.widgets.text_wrap import wrapped


def _rich(console: Console, value: str, width: int) -> tuple[str, ...]:
    return tuple(line.plain for line in Text(value).wrap(console, width, justify="left", overflow="ellipsis"))


def test_lines_wrapped_as_rich_wraps_them() -> None:
    console = Console(width=80)
    values = [
        "", " ", "   ", "a", " a", "a ", "0x0004003d  (file bytes 3d 00 04 00)",
        "OpAccessChain, instruction 101 of 199, words 638-642 (byte 0x000009f8)",
        "operand 2 of 4: 'Indexes' IdRef %int_1, defined at word 120 by OpConstant",
        "word count 5, opcode 65 (OpAccessChain)", "averyveryverylongwordthatnevercanfit and more",
        "x  y   z    w", "trailing spaces     ", "    leading", "é wide ü", "tab\there", "two\nlines", "全角 text",
    ]
    generator = random.Random(26)
    for _ in range(300):
        words = ["".join(generator.choice("abc0x(),.%") for _ in range(generator.randint(1, 14)))
                 for _ in range(generator.randint(0, 8))]
        values.append("".join(word + " " * generator.choice((0, 1, 1, 1, 2, 5)) for word in words))
    for value in values:
        for width in (1, 2, 3, 5, 8, 13, 21, 34, 60):
            assert wrapped(console, value, width) == _rich(console, value, width), (value, width)
