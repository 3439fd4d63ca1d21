"""The Pygments token types of our lexers, one per thing a reader tells apart.

They live in the theme layer, which colours them; the lexers (in the app) emit them.

The instruction list colours listing segments by role and the editor colours lexer
tokens; both go through these token types (`ROLE_TOKENS`), so a role and the token the
lexer gives the same text have one colour. Standard token types are used where one fits,
so other Pygments styles colour our text sensibly too; the Lima units are subtypes of
`Keyword`, which styles that do not know them colour as keywords.
"""

from __future__ import annotations

from pygments.token import (
    Comment,
    Escape,
    Keyword,
    Name,
    Number,
    Operator,
    String,
    Whitespace,
    _TokenType,
)

from spvinspect.codec.text.listing import Role

RESULT_ID = Name.Function
"""`%x` before `=`: a definition, coloured as other languages colour a name being defined."""
TYPE_ID = Name.Class
"""The result type operand of an instruction."""
ID = Name.Variable
"""Any other `%x`."""
OPCODE = Keyword
"""Opcode names, and the whole `OpUnknown(opcode, word count)` of an undecodable one."""
EQUALS = Operator
LITERAL = Number
STRING = String
ENUM = Name.Constant
"""Enumerants and masks: `Logical`, `NotNaN|NotInf`, `2D`."""
RAW = Escape
"""`!0x…`: a word written as a number, whatever the grammar says goes there."""
COMMENT = Comment
BLANK = Whitespace

ROLE_TOKENS: dict[Role, _TokenType] = {
    Role.INDENT: BLANK,
    Role.RESULT_ID: RESULT_ID,
    Role.EQUALS: EQUALS,
    Role.OPCODE: OPCODE,
    Role.TYPE_ID: TYPE_ID,
    Role.ID: ID,
    Role.LITERAL: LITERAL,
    Role.STRING: STRING,
    Role.ENUM: ENUM,
    Role.RAW: RAW,
    Role.COMMENT: COMMENT,
    Role.SPACE: BLANK,
}
"""Listing segment role -> the token type the lexer gives the same text."""

LIMA_UNITS = (
    "varying",
    "uniform",
    "temporary",
    "vec4-mul",
    "scalar-mul",
    "vec4-add",
    "scalar-add",
    "complex",
    "texture",
    "branch",
    "constant",
)
"""The units of a PP instruction as the seed-004 syntax names them (plus the two constant
fields), in the spelling of the themes' `lima-unit-…` variables."""

LIMA_UNIT_TOKENS: dict[str, _TokenType] = {
    unit: getattr(Keyword.Unit, "".join(part.title() for part in unit.split("-")))
    for unit in LIMA_UNITS
}
"""Unit -> the token type of the ops it runs: `vec4-mul` -> `Keyword.Unit.Vec4Mul`."""

LIMA_CONTROL = Keyword.Control
"""Control-word items: `stop`, `sync`, `count`, `next_count`, `prefetch`, `nop`."""
LIMA_REGISTER = Name.Variable
"""`$3`: a general register."""
LIMA_PIPELINE_REGISTER = Name.Builtin
"""`^const0`, `^v0`, `gl_FragCoord`: registers and inputs with a fixed meaning."""
LIMA_COMPONENTS = Name.Attribute
"""`.xyzw` swizzles and write masks, `.zw` halves of an index."""
LIMA_MODIFIER = Name.Decorator
"""`_abs`, `abs(…)`, `.sat`: source and output modifiers."""
LIMA_LABEL = Name.Label
"""`L3:` and the branches that name it."""
LIMA_FIELD_NAME = Name.Attribute
"""The `name` of a `{name=value}` override."""
