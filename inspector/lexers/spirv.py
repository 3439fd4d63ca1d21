"""A Pygments lexer for SPIR-V assembly as spirv-dis prints it and spirv-as reads it.

Words are split exactly as spirv-as splits them (see `codec.asm.lexer`): at blanks, `;`,
`,`, `(` and `)`, except inside quotes or after a backslash. Each word is then classified
by its shape, and by its position where the grammar decides: the first operand of an
instruction with a result type is a type id. A word that is none of the assembly's
kinds of word (`{`, `//`, an unterminated string) is an `Error` token.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from pygments.lexer import Lexer
from pygments.token import Error, Number, Punctuation, String, _TokenType

from spvinspect.codec.grammar import load_grammar
from spvinspect.themes.tokens import BLANK, COMMENT, ENUM, EQUALS, ID, OPCODE, RAW, RESULT_ID, TYPE_ID

_LEXEME = re.compile(
    r"""
      (?P<blank>[ \t\r\n]+)
    | (?P<comment>;[^\n]*)
    | (?P<unknown>OpUnknown\([ \t]*\d+[ \t]*,[ \t]*\d+[ \t]*\))
    | (?P<punctuation>[,()])
    | (?P<word>(?:[^ \t\r\n;,()"\\]|\\[\s\S]?|"(?:[^"\\]|\\[\s\S])*"?)+)
    """,
    re.VERBOSE,
)
"""One step of spirv-as's reading: blanks, a comment, `OpUnknown(opcode, word count)`
(the one form that reads punctuation), punctuation or a word."""

_STRING = re.compile(r'"(?:[^"\\]|\\[\s\S])*"')
_ESCAPE = re.compile(r"\\[\s\S]")
_ID = re.compile(r'%[^\s"\\]+')
_OPCODE = re.compile(r"Op\w+")
_RAW = re.compile(r"![-+]?(?:0[xX][0-9a-fA-F]+|\d+)")
_HEX_FLOAT = re.compile(r"[-+]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][-+]?\d+")
_HEX_INTEGER = re.compile(r"[-+]?0[xX][0-9a-fA-F]+")
_DECIMAL_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][-+]?\d+)?")
_INTEGER = re.compile(r"[-+]?\d+")
_BAREWORD = re.compile(r"[\w.]+(?:\|[\w.]+)*")
"""Enumerants and masks (`Logical`, `2D`, `NotNaN|NotInf`), extended instruction names."""

_NUMBERS = (
    (_HEX_FLOAT, Number.Float),
    (_HEX_INTEGER, Number.Hex),
    (_DECIMAL_FLOAT, Number.Float),
    (_INTEGER, Number.Integer),
)


@cache
def _typed_opnames() -> frozenset[str]:
    """Opnames (and aliases) whose first operand after the opcode is a result type."""
    return frozenset(name for name, desc in load_grammar().by_name.items() if desc.has_result_type)


def _string_tokens(start: int, word: str) -> Iterator[tuple[int, _TokenType, str]]:
    """A quoted string with its backslash escapes as separate tokens."""
    pos = 0
    for escape in _ESCAPE.finditer(word):
        if escape.start() > pos:
            yield start + pos, String.Double, word[pos : escape.start()]
        yield start + escape.start(), String.Escape, escape.group()
        pos = escape.end()
    yield start + pos, String.Double, word[pos:]


def _word_token(word: str) -> _TokenType:
    """The token of a word that is not an id, an opcode or a string, by its shape."""
    if _RAW.fullmatch(word):
        return RAW
    for pattern, token in _NUMBERS:
        if pattern.fullmatch(word):
            return token
    if word == "=":
        return EQUALS
    if _BAREWORD.fullmatch(word):
        return ENUM
    return Error


def spirv_tokens(text: str) -> Iterator[tuple[int, _TokenType, str]]:
    """(offset, token, text) for every piece of `text`, covering it exactly."""
    lexemes = [(m.start(), m.lastgroup, m.group()) for m in _LEXEME.finditer(text)]
    words = [i for i, (_, kind, _) in enumerate(lexemes) if kind == "word"]
    following = {a: b for a, b in zip(words, words[1:])}
    type_next = False  # right after the opcode of an instruction with a result type
    for i, (start, kind, lexeme) in enumerate(lexemes):
        if kind == "blank":
            yield start, BLANK, lexeme
            continue
        if kind == "comment":
            yield start, COMMENT.Single, lexeme
            continue
        if kind == "punctuation":
            yield start, Punctuation, lexeme
        elif kind == "unknown":
            yield start, OPCODE, lexeme
        elif _STRING.fullmatch(lexeme):
            yield from _string_tokens(start, lexeme)
        elif _OPCODE.fullmatch(lexeme):
            yield start, OPCODE, lexeme
            type_next = lexeme in _typed_opnames()
            continue
        elif _ID.fullmatch(lexeme):
            after = following.get(i)
            if after is not None and lexemes[after][2] == "=":
                yield start, RESULT_ID, lexeme
            else:
                yield start, TYPE_ID if type_next else ID, lexeme
        else:
            yield start, _word_token(lexeme), lexeme
        type_next = False


class SpirvLexer(Lexer):
    """SPIR-V assembly: `%id = OpName operands`, `; comments`, `!0x…` raw words."""

    name = "SPIR-V assembly"
    aliases = ["spirv", "spvasm"]
    filenames = ["*.spvasm"]
    mimetypes = ["text/x-spirv"]
    url = "https://github.com/KhronosGroup/SPIRV-Tools/blob/main/docs/syntax.md"

    def get_tokens_unprocessed(self, text: str) -> Iterator[tuple[int, _TokenType, str]]:
        """Tokens with their offsets; never raises, whatever the text."""
        return spirv_tokens(text)

    @staticmethod
    def analyse_text(text: str) -> float:
        """Sure for spirv-dis output (its header comment), likely when `OpCapability` appears."""
        if text.lstrip().startswith("; SPIR-V"):
            return 1.0
        return 0.5 if re.search(r"^\s*OpCapability\s", text, re.MULTILINE) else 0.0
