"""A Pygments lexer for Lima (Mali-200/400 PP) assembly, in both syntaxes we print.

The proposed syntax of seed 004 (`lima.disasm_seed` prints it, `lima.assembler` reads
it): comma-separated ops `opcode.unit output inputs`, `name:` labels, `#` comments, a
trailing comma continuing the instruction on the next line, `{name=value}` overrides.
Mesa's disassembler syntax (`lima.disasm_mesa`) has the same shape with other spellings
(`mov.sat.v0`, `abs($1)`, `<<2`, `texld.b bias000`), and an instruction may start with its
word offset, `@     5: ` (`lima dis --offsets`). Each op is coloured by the unit
that runs it, read from its unit suffix (`.v0`) or, for ops without one, its name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pygments.lexer import RegexLexer, bygroups
from pygments.token import Error, Number, Operator, Punctuation, _TokenType

from spvinspect.themes.tokens import (
    BLANK,
    COMMENT,
    LIMA_COMPONENTS,
    LIMA_CONTROL,
    LIMA_FIELD_NAME,
    LIMA_LABEL,
    LIMA_MODIFIER,
    LIMA_PIPELINE_REGISTER,
    LIMA_REGISTER,
    LIMA_UNIT_TOKENS,
)

_SUFFIX_UNITS = {
    "v": "varying",
    "u": "uniform",
    "t": "temporary",
    "v0": "vec4-mul",
    "s0": "scalar-mul",
    "v1": "vec4-add",
    "s1": "scalar-add",
    "s2": "complex",
}
"""Seed 004's unit suffixes; Mesa prints `load..uN` for the uniform sources it has no
letter for."""

_NAME_UNITS = (
    ("texld", "texture"),
    ("branch", "branch"),
    ("discard", "branch"),
    ("const", "constant"),
    ("fb_", "temporary"),
)
"""Ops written without a unit suffix, by the start of their name."""

CONTROL_ITEMS = frozenset({"stop", "sync", "nop", "count", "next_count", "prefetch"})
"""Items of an instruction that set control-word bits rather than a field."""


def op_token(word: str) -> _TokenType:
    """The token of an op word: its unit's, a control item's, or `Error`."""
    if word in CONTROL_ITEMS:
        return LIMA_CONTROL
    name, *suffixes = word.split(".")
    if suffixes:
        last = suffixes[-1]
        unit = _SUFFIX_UNITS.get(last) or ("uniform" if re.fullmatch(r"u\d+", last) else None)
        if unit is not None:
            return LIMA_UNIT_TOKENS[unit]
    for start, unit in _NAME_UNITS:
        if name.startswith(start):
            return LIMA_UNIT_TOKENS[unit]
    return Error


def _op(lexer: RegexLexer, match: re.Match) -> Iterator[tuple[int, _TokenType, str]]:
    yield match.start(), op_token(match.group()), match.group()


_NUMBER = r"[-+]?(?:\d+\.\d+(?:e[-+]?\d+)?|\d+e[-+]?\d+)"


class LimaLexer(RegexLexer):
    """Lima PP assembly: seed-004 syntax and Mesa's disassembly."""

    name = "Lima PP assembly"
    aliases = ["lima", "lima-pp"]
    filenames: list[str] = []
    url = "https://gitlab.freedesktop.org/mesa/mesa/-/tree/main/src/gallium/drivers/lima"

    tokens = {
        "root": [
            (r"[ \t\r]+|\n", BLANK),
            (r"#[^\n]*", COMMENT.Single),
            (r"^([ \t]*)([A-Za-z_.][\w.]*)(:)", bygroups(BLANK, LIMA_LABEL, Punctuation)),
            (r"^([ \t]*)(@)([ \t]*)(-?\d+)(:)", bygroups(BLANK, Punctuation, BLANK, Number.Integer, Punctuation)),
            (r"\{", Punctuation, "override"),
            (r",", Punctuation),
            (r"[A-Za-z_][\w.]*", _op, "operands"),
        ],
        "operands": [
            (r"\n", BLANK, "#pop"),
            (r"[ \t\r]+", BLANK),
            (r"#[^\n]*", COMMENT.Single),
            (r",", Punctuation, "#pop"),
            (r"\{", Punctuation, "override"),
            (r"(abs|cube|normalize)(\()", bygroups(LIMA_MODIFIER, Punctuation)),
            (r"[()]", Punctuation),
            (r"<<", Operator),
            (r"\$\d+", LIMA_REGISTER),
            (r"\^\w+", LIMA_PIPELINE_REGISTER),
            (r"gl_\w+", LIMA_PIPELINE_REGISTER),
            (r"_abs\b", LIMA_MODIFIER),
            (r"\.(?:sat|pos|int)(?![a-z])", LIMA_MODIFIER),
            (r"\.[xyzw]{1,4}(?![a-z\d])", LIMA_COMPONENTS),
            (r"(bias)([0-9a-f]+)\b", bygroups(LIMA_FIELD_NAME, Number.Hex)),
            (r"[-+]?(?:inf|nan)\b", Number.Float),
            (r"[-+]?0x[0-9a-fA-F]+", Number.Hex),
            (_NUMBER, Number.Float),
            (r"[-+]?\d+", Number.Integer),
            (r"[-+]", Operator),
            (r"[A-Za-z_.][\w.]*", LIMA_LABEL),
        ],
        "override": [
            (r"(\w+)(=)", bygroups(LIMA_FIELD_NAME, Operator)),
            (r"-?0x[0-9a-fA-F]+", Number.Hex),
            (r"-?\d+", Number.Integer),
            (r"\}", Punctuation, "#pop"),
        ],
    }
